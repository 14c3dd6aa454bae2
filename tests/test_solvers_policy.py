"""Policies: JSON round trip, game binding, validation, mixing and comparing."""

from __future__ import annotations

import json

import pytest

from pokerbot.protocol.game import load_game
from pokerbot.strategies.solvers import (
    Policy,
    PolicyError,
    PolicyGameMismatchError,
    compare,
    evaluate,
    kuhn,
    mix,
    mix_strategies,
    uniform_policy,
)
from pokerbot.strategies.solvers.policy import SCHEMA


def test_json_round_trip(tmp_path):
    policy = kuhn.nash_policy(0.4).with_meta(note="round trip")
    path = tmp_path / "kuhn.json"
    policy.save(path)
    loaded = Policy.load(path, load_game("kuhn"))
    assert loaded == policy
    assert loaded.meta["note"] == "round trip"
    data = json.loads(path.read_text())
    assert data["schema"] == SCHEMA
    assert data["infosets"]["As:"] == pytest.approx({"c": 0.6, "r": 0.4})


def test_loading_with_the_wrong_game_fails(tmp_path):
    path = tmp_path / "kuhn.json"
    kuhn.nash_policy().save(path)
    with pytest.raises(PolicyGameMismatchError, match="another game"):
        Policy.load(path, load_game("leduc"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "corrupt JSON"),
        ("[]", "JSON object"),
        ('{"schema": "other"}', "schema"),
        (json.dumps({"schema": SCHEMA, "game": "GAMEDEF\nbogus\nEND GAMEDEF\n", "infosets": {}}), "embedded game"),
    ],
)
def test_corrupt_files_are_refused(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(PolicyError, match=message):
        Policy.load(path)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"c": 0.5, "r": 0.6}, "sum"),
        ({"x": 1.0}, "unknown action"),
        ({"c": "a", "r": 1}, "not a number"),
        ({}, "non-empty"),
    ],
)
def test_bad_entries_are_refused(entry, message):
    with pytest.raises(PolicyError, match=message):
        Policy(load_game("kuhn"), {"Ks:": entry})


def test_missing_file_is_a_policy_error(tmp_path):
    with pytest.raises(PolicyError, match="cannot read"):
        Policy.load(tmp_path / "absent.json")


def test_mix_is_per_information_set():
    mixed = mix([kuhn.nash_policy(0.0), kuhn.nash_policy(1.0)], [0.5, 0.5])
    assert compare(mixed, kuhn.nash_policy(0.5)).max_tv == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(PolicyError):
        mix([kuhn.nash_policy()], [0.7])
    with pytest.raises(PolicyGameMismatchError):
        mix([kuhn.nash_policy(), uniform_policy(load_game("leduc"))], [0.5, 0.5])


def test_mix_strategies_is_linear_in_value():
    game = load_game("kuhn")
    first, second = kuhn.p1_policy(1.0, 0.0, 0.0), kuhn.p1_policy(0.0, 1.0, 1.0)
    opponent = kuhn.opponent_policy("O2")
    mixed = mix_strategies(game, [first, second], [0.3, 0.7])

    def value(p1):
        entries = {k: (p1.actions(k), p1.probabilities(k)) for k in kuhn.p1_table(0, 0, 0)}
        entries.update({k: (opponent.actions(k), opponent.probabilities(k)) for k in opponent})
        return evaluate(game, Policy.from_arrays(game, entries)).values[0]

    assert value(mixed) == pytest.approx(0.3 * value(first) + 0.7 * value(second), abs=1e-12)


def test_compare():
    a, b = kuhn.nash_policy(0.0), kuhn.nash_policy(1.0)
    assert compare(a, a).max_tv == 0.0
    distance = compare(a, b)
    assert distance.max_tv == pytest.approx(1.0)
    assert distance.common == 12 and distance.only_first == 0
    assert 0 < distance.mean_tv < 1
    partial = compare(kuhn.p1_policy(0, 0, 0), a)
    assert (partial.common, partial.only_second) == (6, 6)


def test_uniform_policy():
    policy = uniform_policy(load_game("leduc"))
    assert len(policy) == 936
    assert all(p == pytest.approx(1 / len(policy.actions(k))) for k in policy for p in policy.probabilities(k))
