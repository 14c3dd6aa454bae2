"""Strategies with optional arguments (``miximax[:SECONDS][,KEY=VALUE...]``), ``adaptive``'s games, and
matches between strategies named with an argument."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerbot.bot.cli.app import app
from pokerbot.bot.matches.base import MatchConfigError
from pokerbot.bot.matches.plan import make_plan, play_plan
from pokerbot.protocol.game import load_game
from pokerbot.protocol.matchlog import check_log
from pokerbot.protocol.names import unique_player_names
from pokerbot.strategies.base import StrategyInfo, StrategyRegistry, UnknownStrategyError
from pokerbot.strategies.bayes.agent import BayesExploiter
from pokerbot.strategies.miximax.player import MiximaxAgent
from pokerbot.strategies.registry import default_registry
from pokerbot.strategies.solvers import kuhn

HOLDEM = load_game("holdem-nolimit-2p")
REGISTRY = default_registry()


# ------------------------------------------------------------------ miximax[:SECONDS]
def test_miximax_without_argument_has_the_default_budget() -> None:
    agent = REGISTRY.create("miximax", HOLDEM, 1)
    assert isinstance(agent, MiximaxAgent)
    assert agent.settings.time_budget == 0.05
    assert agent.settings.learn is True


@pytest.mark.parametrize(("name", "budget"), [("miximax:0.05", 0.05), ("miximax:2", 2.0), ("miximax:60", 60.0)])
def test_miximax_argument_is_the_budget(name: str, budget: float) -> None:
    agent = REGISTRY.create(name, HOLDEM, 1)
    assert isinstance(agent, MiximaxAgent)
    assert agent.settings.time_budget == budget
    assert agent.settings.learn is True


def test_miximax_static_does_not_learn() -> None:
    agent = REGISTRY.create("miximax-static", HOLDEM, 1)
    assert isinstance(agent, MiximaxAgent)
    assert agent.settings.learn is False
    assert agent.settings.time_budget == 0.05
    with_budget = REGISTRY.create("miximax-static:0.1", HOLDEM, 1)
    assert isinstance(with_budget, MiximaxAgent)
    assert with_budget.settings.learn is False and with_budget.settings.time_budget == 0.1


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("miximax:abc", "time budget in seconds per decision, got 'abc'"),
        ("miximax:", "time budget in seconds per decision, got ''"),
        ("miximax:0", r"must be in \(0, 60\] seconds per decision, got '0'"),
        ("miximax:-1", r"must be in \(0, 60\]"),
        ("miximax:61", r"must be in \(0, 60\]"),
        ("miximax:nan", r"must be in \(0, 60\]"),
        ("miximax-static:abc", "got 'abc'"),
    ],
)
def test_bad_miximax_arguments_are_refused(name: str, problem: str) -> None:
    with pytest.raises(UnknownStrategyError, match=problem) as caught:
        REGISTRY.create(name, HOLDEM, 1)
    assert repr(name) in str(caught.value)  # the message names the strategy asked for


def test_miximax_argument_also_takes_settings() -> None:
    agent = REGISTRY.create("miximax:0.02,range_showdowns=0,use_models=false,search.temperature=0", HOLDEM, 1)
    assert isinstance(agent, MiximaxAgent)
    settings = agent.settings
    assert settings.time_budget == 0.02 and settings.range_showdowns == 0.0 and settings.use_models is False
    assert settings.search.temperature == 0.0 and settings.learn is True
    static = REGISTRY.create("miximax-static:range_showdowns=5", HOLDEM, 1)
    assert isinstance(static, MiximaxAgent)
    assert static.settings.time_budget == 0.05 and static.settings.range_showdowns == 5.0
    assert static.settings.learn is False


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("miximax:0.05,bogus=1", r"bad setting \(bogus: Extra inputs are not permitted\)"),
        ("miximax:range_showdowns=-1", r"range_showdowns: Input should be greater than or equal to 0"),
        ("miximax:use_models=maybe", "use_models: Input should be a valid boolean"),
        ("miximax:0.05,0.1", r"a setting is KEY=VALUE, got '0.1' \(the budget comes first\)"),
        ("miximax:search=1,search.temperature=0", "'search' is given both as a value and as a group"),
    ],
)
def test_bad_miximax_settings_are_refused_in_one_line(name: str, problem: str) -> None:
    with pytest.raises(UnknownStrategyError, match=problem) as caught:
        REGISTRY.create(name, HOLDEM, 1)
    assert "\n" not in str(caught.value)


def test_miximax_plays_only_holdem() -> None:
    for game_name in ("kuhn", "leduc", "kuhn3p"):
        with pytest.raises(UnknownStrategyError, match="does not play this game"):
            REGISTRY.create("miximax:0.05", load_game(game_name), 1)


# ---------------------------------------------------------------------- adaptive
def test_adaptive_is_registered() -> None:
    assert "adaptive" in REGISTRY.names()
    assert REGISTRY.info("adaptive").argument == "SECONDS" and REGISTRY.info("adaptive").argument_optional


@pytest.mark.parametrize("game_name", ["kuhn", "leduc"])
def test_adaptive_plays_kuhn_and_leduc(game_name: str) -> None:
    game = load_game(game_name)
    assert REGISTRY.info("adaptive").supports(game)
    assert isinstance(REGISTRY.create("adaptive", game, 3), BayesExploiter)


def test_adaptive_is_the_resolving_exploiter_in_heads_up_holdem() -> None:
    from pokerbot.strategies.resolve.exploiter import ResolvingExploiter
    from pokerbot.strategies.safe.agent import SafeExploiter

    nolimit, limit = load_game("holdem-nolimit-2p"), load_game("holdem-limit-2p")
    for game in (nolimit, limit):
        agent = REGISTRY.create("adaptive:7iterations", game, 3)
        assert isinstance(agent, ResolvingExploiter) and agent.player.settings.iterations == 7
        assert isinstance(REGISTRY.create("safe-miximax", game, 3), SafeExploiter)
        with pytest.raises(UnknownStrategyError, match="adaptive"):
            REGISTRY.create("adaptive:300nodes", game, 3)  # a search's budget: not a re-solver's


def test_a_resolving_player_is_named_as_asked_for() -> None:
    from pokerbot.strategies.resolve.exploiter import ResolvingExploiter

    game = load_game("holdem-nolimit-2p")
    for name in ("adaptive", "resolve-exploit", "resolve"):
        agent = REGISTRY.create(f"{name}:5iterations", game, 3)
        assert agent.name == name and isinstance(agent, ResolvingExploiter) == (name != "resolve")


@pytest.mark.parametrize(
    ("argument", "iterations", "seconds"),
    [
        (None, 100_000, 1.0),
        ("", 100_000, 1.0),
        ("7iterations", 7, None),
        ("1iteration", 1, None),
        ("0.25", 100_000, 0.25),
    ],
)
def test_a_resolving_players_argument_sets_its_budget(
    argument: str | None, iterations: int, seconds: float | None
) -> None:
    from pokerbot.strategies.resolve.settings import ResolveSettings, parse_settings

    settings = parse_settings(argument)
    assert (settings.iterations, settings.seconds) == (iterations, seconds)
    defaults = ResolveSettings()
    assert (settings.min_seconds, settings.margin, settings.sizing) == (
        defaults.min_seconds,
        defaults.margin,
        defaults.sizing,
    )


@pytest.mark.parametrize("argument", ["200nodes", "0", "-1", "0iterations", "fast"])
def test_adaptive_refuses_a_bad_budget_in_one_line(argument: str) -> None:
    with pytest.raises(UnknownStrategyError) as caught:
        REGISTRY.create(f"adaptive:{argument}", load_game("holdem-nolimit-2p"), 3)
    assert "\n" not in str(caught.value) and "adaptive" in str(caught.value)


@pytest.mark.parametrize("game_name", ["kuhn3p", "holdem-nolimit-3p"])
def test_adaptive_is_refused_elsewhere(game_name: str) -> None:
    with pytest.raises(UnknownStrategyError, match="'adaptive' does not play this game"):
        REGISTRY.create("adaptive", load_game(game_name), 3)


def test_adaptive_takes_a_budget_only_in_holdem() -> None:
    with pytest.raises(UnknownStrategyError, match="time budget only in hold'em"):
        REGISTRY.create("adaptive:1", load_game("kuhn"), 3)


# ------------------------------------------------------ StrategyRegistry arguments
def _recording_registry(calls: list[tuple], *, optional: bool) -> StrategyRegistry:
    def factory(game, seed, *argument):  # type: ignore[no-untyped-def]
        calls.append((seed, *argument))
        return REGISTRY.create("random", game, seed)

    registry = StrategyRegistry()
    registry.register(
        StrategyInfo(name="x", factory=factory, summary="test", argument="ARG", argument_optional=optional)
    )
    return registry


def test_optional_argument_calls_the_factory_with_and_without_it() -> None:
    calls: list[tuple] = []
    registry = _recording_registry(calls, optional=True)
    registry.create("x", HOLDEM, 7)
    registry.create("x:value", HOLDEM, 8)
    registry.create("x:a:b", HOLDEM, 9)  # only the first ':' separates
    assert calls == [(7,), (8, "value"), (9, "a:b")]


def test_required_argument_must_be_given() -> None:
    calls: list[tuple] = []
    registry = _recording_registry(calls, optional=False)
    for name in ("x", "x:"):
        with pytest.raises(UnknownStrategyError, match="needs an argument: x:ARG"):
            registry.create(name, HOLDEM, 1)
    registry.create("x:v", HOLDEM, 1)
    assert calls == [(1, "v")]


def test_unknown_base_name_is_reported_without_the_argument() -> None:
    with pytest.raises(UnknownStrategyError, match="unknown strategy 'nonesuch'"):
        REGISTRY.create("nonesuch:1", HOLDEM, 1)


# ------------------------------------------------------------------ match names
def test_unique_names_are_log_safe() -> None:
    assert unique_player_names(["policy:dir/p.json", "random", "random"]) == ["policy=dir/p.json", "random", "random-2"]
    assert unique_player_names(["miximax:0.05", "miximax:0.05"]) == ["miximax=0.05", "miximax=0.05-2"]
    assert unique_player_names(["policy:a b|c\td.json", "x"]) == ["policy=a_b_c_d.json", "x"]


@pytest.fixture
def kuhn_policy(tmp_path: Path) -> Path:
    path = tmp_path / "nash.json"
    kuhn.nash_policy().save(path)
    return path


def test_make_plan_accepts_a_strategy_with_an_argument(tmp_path: Path, kuhn_policy: Path) -> None:
    game = load_game("kuhn")
    strategies = [f"policy:{kuhn_policy}", "random"]
    plan = make_plan(game, "kuhn", 10, 5, strategies, REGISTRY, in_process=True, output_dir=tmp_path / "out")
    assert plan.names == [f"policy={kuhn_policy}", "random"]
    (outcome,) = play_plan(plan, REGISTRY)
    assert outcome.error is None and outcome.hands_played == 10
    assert set(outcome.totals) == set(plan.names)
    assert sum(outcome.totals.values()) == pytest.approx(0.0)  # zero-sum
    log = (tmp_path / "out" / "match.log").read_text()
    assert f"policy={kuhn_policy}" in log
    checked = check_log(log.splitlines(), game)
    assert checked.ok, checked.problems
    assert checked.hands == 10 and checked.totals == pytest.approx(outcome.totals)


def test_make_plan_refuses_a_strategy_with_an_argument_for_another_game() -> None:
    with pytest.raises(MatchConfigError, match="does not play holdem-nolimit-2p"):
        make_plan(HOLDEM, "holdem-nolimit-2p", 10, 1, ["miximax:0.05", "equilibrium"], REGISTRY)
    with pytest.raises(UnknownStrategyError, match="unknown strategy 'nonesuch'"):
        make_plan(HOLDEM, "holdem-nolimit-2p", 10, 1, ["nonesuch:1", "random"], REGISTRY)


def test_match_command_with_a_policy_argument(tmp_path: Path, kuhn_policy: Path) -> None:
    report, out = tmp_path / "report.json", tmp_path / "out"
    result = CliRunner().invoke(
        app,
        [
            "match",
            "--in-process",
            "--hands",
            "10",
            "--quiet",
            "-g",
            "kuhn",
            "--json",
            str(report),
            "--out",
            str(out),
            "--players",
            f"policy:{kuhn_policy}",
            "random",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text())
    players = data["players"]
    assert [p["name"] for p in players] == [f"policy={kuhn_policy}", "random"]
    assert [p["strategy"] for p in players] == [f"policy:{kuhn_policy}", "random"]
    assert data["runs"][0]["hands_played"] == 10 and data["runs"][0]["error"] is None
    assert f"policy={kuhn_policy}" in (out / "match.log").read_text()
