"""The pre-flop chart (packaged file, validation, lookups) and the miximax agent."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from pokerbot.protocol.actions import CALL, FOLD, Action
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.miximax import player as player_module
from pokerbot.strategies.miximax import search as search_module
from pokerbot.strategies.miximax.player import MARGIN_SHARE, AgentSettings, MiximaxAgent, miximax_factory
from pokerbot.strategies.miximax.preflop import PreflopChartError, load_chart, parse_chart
from pokerbot.strategies.miximax.search import SearchSettings
from tests.conftest import FakeClock

NOLIMIT = load_game("holdem-nolimit-2p")
LIMIT = load_game("holdem-limit-2p")


def test_packaged_chart_loads_and_is_sane() -> None:
    chart = load_chart()
    assert chart.equity("AA") == pytest.approx(0.852, abs=0.005)  # AA vs a random hand: 85.2 %
    assert chart.equity("72o") == pytest.approx(0.346, abs=0.005)
    assert chart.equity("AA", "KK") == pytest.approx(0.82, abs=0.01)
    assert chart.equity("AKo", "QQ") + chart.equity("QQ", "AKo") == pytest.approx(1.0)
    # push/fold at 10 big blinds: AA shoves, 72o folds; the big blind calls a shove with AA
    assert chart.action_code("AA", "button", 1.0, 10.0) == "a"
    assert chart.action_code("72o", "button", 1.0, 10.0) == "f"
    assert chart.action_code("AA", "big-blind", 10.0, 10.0) == "a"
    # deep: AA raises unopened, 72o never raises
    assert chart.action_code("AA", "button", 1.0, 200.0) == "r"
    assert chart.action_code("72o", "big-blind", 200.0, 200.0) == "f"


def test_chart_validation_rejects_bad_files(tmp_path: Path) -> None:
    text = (Path(__file__).parent.parent / "strategies" / "data" / "preflop_chart.json").read_text()
    data = json.loads(text)
    data["charts"]["button"][0][0] = "x" * 169
    with pytest.raises(PreflopChartError, match="codes"):
        parse_chart(json.dumps(data))
    data = json.loads(text)
    data["version"] = 99
    with pytest.raises(PreflopChartError, match="version"):
        parse_chart(json.dumps(data))
    with pytest.raises(PreflopChartError):
        parse_chart("{not json")
    with pytest.raises(PreflopChartError):
        load_chart(tmp_path / "missing.json")


def _preflop_view(hole: str) -> MatchState:
    cards = cards_from_string(hole)
    state = HandState(NOLIMIT, [None, cards])
    return MatchState(1, 0, state)  # position 1 is the button (acts first pre-flop)


def test_preflop_uses_the_chart() -> None:
    agent = MiximaxAgent(NOLIMIT, seed=1)
    action = agent.decide(_preflop_view("AsAh"), time.monotonic() + 1.0)
    assert action == Action.raise_to(300)  # 3 big blinds
    assert agent.decide(_preflop_view("7c2d"), time.monotonic() + 1.0) in (FOLD, CALL)


def test_postflop_search_stops_at_its_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search ends at the time budget when the deadline is later (a fake clock that
    advances 10 microseconds per read, shared by the agent and its search)."""
    clock = FakeClock(tick=1e-5)
    monkeypatch.setattr(player_module, "time", clock)
    monkeypatch.setattr(search_module, "time", clock)
    settings = AgentSettings(time_budget=0.05)
    agent = MiximaxAgent(NOLIMIT, seed=2, settings=settings)
    hole = cards_from_string("AhKh")
    state = HandState(NOLIMIT, [hole, None], cards_from_string("Qh7h2c"))
    state.apply(CALL)
    state.apply(CALL)
    action = agent.decide(MatchState(0, 0, state), clock.now + 5.0)
    assert state.can(action)
    result = agent.last_result
    assert result is not None and result.depth >= 1 and not result.complete
    assert result.seconds == pytest.approx(0.05, abs=5 * clock.tick)


def test_agent_plays_and_learns_a_short_match() -> None:
    from pokerbot.bot.matches.inprocess import run_inprocess_match
    from pokerbot.strategies.baselines import AlwaysCall

    settings = AgentSettings(time_budget=0.02, search=SearchSettings(river_samples=4))
    for game in (NOLIMIT, LIMIT):
        agent = MiximaxAgent(game, seed=3, settings=settings)
        outcome = run_inprocess_match(game, 6, 11, [agent, AlwaysCall(game, 4)], ["miximax", "always-call"])
        assert outcome.error is None and outcome.hands_played == 6
        assert outcome.illegal_actions.get("miximax", 0) == 0


def test_factory_and_settings_validation() -> None:
    assert isinstance(miximax_factory(NOLIMIT, 5), MiximaxAgent)
    with pytest.raises(ValueError):
        AgentSettings(time_budget=0.0)
    with pytest.raises(ValueError):
        MiximaxAgent(load_game("kuhn3p"), 1)


def test_push_fold_equilibrium_of_a_two_class_toy_game() -> None:
    import numpy as np

    from pokerbot.bot.generators.preflop_chart import push_fold

    # strong class A and weak class B, equal combinations, A beats B 80 %; stacks 10 bb.
    # The big blind calls a push with A (EV 3 > -1) and folds B (EV -3 < -1); against that
    # the button pushes A (0.5 * 1 + 0.5 * 0 = 0.5 > -0.5) and folds B (0.5 - 3 = -2.5).
    matrix = np.array([[0.5, 0.8], [0.2, 0.5]])
    weights = np.ones((2, 2))
    push, call = push_fold(matrix, weights, 10.0)
    assert push[0] > 0.99 and push[1] < 0.05
    assert call[0] > 0.99 and call[1] < 0.05


def test_prepare_loads_the_chart_and_models_before_the_first_decision() -> None:
    agent = MiximaxAgent(load_game("holdem-nolimit-2p"), seed=1)
    assert agent.preflop._chart is None and agent._models is None  # loaded on first use
    agent.prepare()
    chart, models = agent.preflop._chart, agent._models
    assert chart is not None and models is not None and set(models) == {1}
    agent.prepare()  # idempotent: nothing is loaded twice
    assert agent.preflop._chart is chart and agent._models is models


def test_a_near_deadline_still_leaves_time_to_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a 100 ms response limit the client gives the strategy about 45 ms: the search
    keeps a fifth of that free (not the whole 0.05 s margin) and searches the rest."""
    clock = FakeClock(tick=1e-5)
    monkeypatch.setattr(player_module, "time", clock)
    monkeypatch.setattr(search_module, "time", clock)
    agent = MiximaxAgent(NOLIMIT, seed=2, settings=AgentSettings(time_budget=0.05, safety_margin=0.05))
    state = HandState(NOLIMIT, [cards_from_string("AhKh"), None], cards_from_string("Qh7h2c"))
    state.apply(CALL)
    state.apply(CALL)
    action = agent.decide(MatchState(0, 0, state), clock.now + 0.045)
    result = agent.last_result
    assert state.can(action) and result is not None and result.depth >= 1
    assert result.seconds == pytest.approx(0.045 * (1 - MARGIN_SHARE), abs=0.002)
