"""Restricted Nash responses: the two extremes of the confidence and the variants."""

from __future__ import annotations

import pytest

from pokerbot.protocol.game import load_game
from pokerbot.strategies.solvers import (
    SolverError,
    confidence_from_counts,
    data_biased_response,
    kuhn,
    mc_restricted_nash_response,
    restricted_nash_response,
    uniform_policy,
)


@pytest.fixture(scope="module")
def game():
    return load_game("kuhn")


@pytest.mark.parametrize("name", ["O1", "O4"])
def test_full_confidence_is_a_best_response_to_the_model(game, name):
    response = restricted_nash_response(game, kuhn.opponent_policy(name), 1.0, iterations=2000)
    eta, xi = kuhn.OPPONENTS[name]
    assert response.responder == 0
    assert response.best_response_to_model == pytest.approx(kuhn.best_response_value(eta, xi), abs=1e-9)
    assert response.exploitation == pytest.approx(response.best_response_to_model, abs=1e-3)


def test_zero_confidence_is_an_equilibrium(game):
    response = restricted_nash_response(game, kuhn.opponent_policy("O1"), 0.0, iterations=2000)
    assert response.exploitability < 1e-3
    assert response.exploitation == pytest.approx(kuhn.GAME_VALUE, abs=1e-3)


def test_confidence_trades_exploitation_for_exploitability(game):
    model = kuhn.opponent_policy("O1")
    responses = [restricted_nash_response(game, model, p, iterations=1500) for p in (0.0, 0.5, 1.0)]
    exploitation = [r.exploitation for r in responses]
    exploitability = [r.exploitability for r in responses]
    assert exploitation == sorted(exploitation) and exploitation[0] < exploitation[-1] - 0.1
    assert exploitability == sorted(exploitability)


def test_mcrnr_agrees_with_rnr(game):
    model = kuhn.opponent_policy("O1")
    exact = restricted_nash_response(game, model, 0.5, iterations=2000)
    sampled = mc_restricted_nash_response(game, model, 0.5, iterations=1000, seed=3)
    assert sampled.exploitation == pytest.approx(exact.exploitation, abs=0.01)
    assert sampled.worst_case == pytest.approx(exact.worst_case, abs=0.02)
    assert sampled.profile.meta["algorithm"] == "os-mccfr"


def test_data_biased_response_extremes(game):
    model = kuhn.opponent_policy("O2")
    trusting = data_biased_response(game, model, 1.0, iterations=2000)
    assert trusting.exploitation == pytest.approx(trusting.best_response_to_model, abs=1e-3)
    doubting = data_biased_response(game, model, 0.0, iterations=2000)
    assert doubting.exploitability < 1e-3


def test_data_biased_response_per_information_set(game):
    model = kuhn.opponent_policy("O1")
    counts = {"Ks:r": 100, "Qs:c": 3}
    confidence = confidence_from_counts(counts, p_max=0.9, saturation=10)
    assert confidence == {"Ks:r": 0.9, "Qs:c": pytest.approx(0.27)}
    response = data_biased_response(game, model, confidence, iterations=1500)
    nash = restricted_nash_response(game, model, 0.0, iterations=1500)
    assert response.exploitation > nash.exploitation


def test_rnr_needs_two_players():
    kuhn3p = load_game("kuhn3p")
    with pytest.raises(SolverError, match="two-player"):
        restricted_nash_response(kuhn3p, uniform_policy(kuhn3p), 0.5, iterations=1)
