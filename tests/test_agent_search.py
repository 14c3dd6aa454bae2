"""The action abstraction, the reverse mapping and the miximax search (hand-computed values)."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence

import pytest

from pokerbot.models.action_classes import ActionClass
from pokerbot.protocol.actions import CALL, Action, ActionKind
from pokerbot.protocol.cards import Card, cards_from_string
from pokerbot.protocol.game import load_game, parse_game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.abstract.translation import pseudo_harmonic
from pokerbot.strategies.miximax import search as search_module
from pokerbot.strategies.miximax.equity import RangeWinModel
from pokerbot.strategies.miximax.search import SearchSettings, search, spread
from pokerbot.strategies.miximax.search_actions import (
    AbstractionSettings,
    abstract_actions,
    map_size,
    reverse_map,
)
from tests.conftest import FakeClock

THESIS_GAME = parse_game(
    "GAMEDEF\nnolimit\nnumPlayers = 2\nnumRounds = 4\nstack = 400 400\nblind = 2 1\n"
    "firstPlayer = 2 1 1 1\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\nnumBoardCards = 0 3 1 1\n"
    "END GAMEDEF\n"
)
"""The thesis' competition game: 1/2 blinds, 400-chip stacks (200 big blinds)."""

RIVER_GAME = parse_game(
    "GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 1\nblind = 10 10\nraiseSize = 10\nfirstPlayer = 1\n"
    "maxRaises = 2\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\nnumBoardCards = 5\nEND GAMEDEF\n"
)
"""A one-round limit game that is a river: pot 20, bets of 10, at most 2 raises."""


def _flop_pot_10() -> HandState:
    """The thesis' 6.1.1 example: pre-flop raise to 5 and call, so the flop pot is 10."""
    state = HandState(THESIS_GAME)
    state.apply(Action.raise_to(5))
    state.apply(CALL)
    assert state.round == 1 and state.pot == 10
    return state


def test_abstract_actions_half_pot_pot_all_in() -> None:
    branches = abstract_actions(_flop_pot_10(), AbstractionSettings())
    assert [b.action for b in branches] == [CALL, Action.raise_to(10), Action.raise_to(15), Action.raise_to(400)]
    assert [b.action_class for b in branches] == [
        ActionClass.CHECK,
        ActionClass.HALF_POT,
        ActionClass.POT,
        ActionClass.ALL_IN,
    ]
    assert [b.raise_by for b in branches] == [0, 5, 10, 395]


def test_commit_share_turns_big_bets_into_all_in() -> None:
    state = _flop_pot_10()
    settings = AbstractionSettings(bet_fractions=(0.5, 1.0, 40.0), commit_share=0.5)
    # 40 pots = raise to 405 > 0.5 * 400: dropped; all-in stands for it
    assert [b.action.size for b in abstract_actions(state, settings)][1:] == [10, 15, 400]


def test_overbet_all_in_is_left_out_when_a_smaller_raise_exists() -> None:
    state = _flop_pot_10()  # all-in raises by 395 chips, 39.5 times the pot after calling
    settings = AbstractionSettings(all_in_max_pot=3.0)
    assert [b.action.size for b in abstract_actions(state, settings)][1:] == [10, 15]
    # with no smaller raise left, all-in stays (commit_share drops the others)
    tight = AbstractionSettings(all_in_max_pot=3.0, commit_share=0.01)
    assert [b.action.size for b in abstract_actions(state, tight)][1:] == [400]
    # reverse mapping still knows all-in: the thesis' 190 into 10 maps to it
    assert reverse_map(state, Action.raise_to(195), settings).action_class is ActionClass.ALL_IN


def test_ratio_rule_maps_190_into_10_to_all_in() -> None:
    state = _flop_pot_10()
    settings = AbstractionSettings(mapping="ratio")
    mapped = reverse_map(state, Action.raise_to(5 + 190), settings)
    assert mapped.action_class is ActionClass.ALL_IN
    assert reverse_map(state, Action.raise_to(5 + 12), settings).action_class is ActionClass.POT
    assert reverse_map(state, Action.raise_to(5 + 6), settings).action_class is ActionClass.HALF_POT


@pytest.mark.parametrize("mapping", ["pseudo-harmonic", "pseudo-harmonic-random"])
def test_pseudo_harmonic_maps_190_into_10_to_all_in(mapping: str) -> None:
    # x = 19 pots between A = 1 and B = 39.5: P(A) = (20.5 * 2) / (38.5 * 20) = 0.0532...
    assert pseudo_harmonic(1.0, 39.5, 19.0) == pytest.approx(41.0 / 770.0)
    settings = AbstractionSettings(mapping=mapping)  # type: ignore[arg-type]
    mapped = reverse_map(_flop_pot_10(), Action.raise_to(195), settings, random.Random(3))
    assert mapped.action_class is ActionClass.ALL_IN


def test_pseudo_harmonic_values_and_randomised_frequency() -> None:
    # half way between half pot and pot: P(A) = (0.25 * 1.5) / (0.5 * 1.75) = 3/7
    assert pseudo_harmonic(0.5, 1.0, 0.75) == pytest.approx(3.0 / 7.0)
    assert map_size(0.75, (0.5, 1.0), "pseudo-harmonic") == 1
    rng = random.Random(7)
    lows = sum(map_size(0.75, (0.5, 1.0), "pseudo-harmonic-random", rng) == 0 for _ in range(20000))
    assert lows / 20000 == pytest.approx(3.0 / 7.0, abs=0.015)
    assert map_size(0.1, (0.5, 1.0), "ratio") == 0 and map_size(9.0, (0.5, 1.0), "ratio") == 1


def test_spread_moves_missing_classes_to_the_nearest() -> None:
    branches = abstract_actions(_flop_pot_10(), AbstractionSettings(bet_fractions=(0.5,)))
    probs = spread({ActionClass.CHECK: 0.5, ActionClass.POT: 0.3, ActionClass.HALF_POT: 0.2}, branches)
    # no pot branch: its 0.3 goes to all-in (ties go to the more aggressive class)
    assert [p for _, p in probs] == pytest.approx([0.5, 0.2, 0.3])


# ------------------------------------------------------------------ the river tree


def _river_model(state: HandState) -> Mapping[ActionClass, float]:
    """The thesis' figure 3.4 model: after a check, check 20 % / bet 80 %; facing a bet,
    fold 20 % / call 60 % / raise 20 % (limit raises are the POT class)."""
    if state.legal_actions().call_amount == 0:
        return {ActionClass.CHECK: 0.2, ActionClass.POT: 0.8}
    return {ActionClass.FOLD: 0.2, ActionClass.CALL: 0.6, ActionClass.POT: 0.2}


class _BettingWinModel:
    """P(win) 0.8, or 0.4 once the opponent (position 1) has bet or raised."""

    def win_probability(self, state: HandState, board: Sequence[Card]) -> float:
        raised = any(actor == 1 and a.kind is ActionKind.RAISE for _, actor, a in state.history())
        return 0.4 if raised else 0.8


def test_river_tree_values_computed_by_hand() -> None:
    board = tuple(cards_from_string("2c7d9hJsKc"))
    hole = tuple(cards_from_string("AsAd"))
    state = HandState(RIVER_GAME, [hole, None], board)
    result = search(state, 0, hole, _river_model, _BettingWinModel(), time.monotonic() + 10.0)
    values = {b.action_class: v for b, v in result.values}
    # check: opp checks (.2) -> .8*20 = 16; opp bets (.8) -> max(fold 0, call .4*40-10 = 6,
    #   raise: opp folds (.2) 50-20 = 30, calls (.8, its raise mass moves to call) .4*60-20 = 4
    #   -> 9.2) = 9.2; EV = .2*16 + .8*9.2 = 10.56
    # bet: fold (.2) 30-10 = 20; call (.6) .8*40-10 = 22; raise (.2) -> max(fold -10, call
    #   .4*60-20 = 4) = 4; EV = 4 + 13.2 + .8 = 18
    assert values[ActionClass.CHECK] == pytest.approx(10.56, abs=1e-12)
    assert values[ActionClass.POT] == pytest.approx(18.0, abs=1e-12)
    assert result.action.kind is ActionKind.RAISE
    assert result.complete


def test_maximix_backs_up_the_soft_max() -> None:
    board = tuple(cards_from_string("2c7d9hJsKc"))
    hole = tuple(cards_from_string("AsAd"))
    state = HandState(RIVER_GAME, [hole, None], board)
    settings = SearchSettings(temperature=0.1)  # 0.1 big blinds = 1 chip
    result = search(state, 0, hole, _river_model, _BettingWinModel(), time.monotonic() + 10.0, settings)
    values = {b.action_class: v for b, v in result.values}
    w = [math.exp(0.0), math.exp(6.0), math.exp(9.2)]  # fold 0, call 6, raise 9.2 (T = 1 chip)
    soft = (w[1] * 6.0 + w[2] * 9.2) / sum(w)
    w2 = [math.exp(-10.0), math.exp(4.0)]
    soft2 = (w2[0] * -10.0 + w2[1] * 4.0) / sum(w2)
    assert values[ActionClass.CHECK] == pytest.approx(0.2 * 16 + 0.8 * soft, abs=1e-9)
    assert values[ActionClass.POT] == pytest.approx(4.0 + 13.2 + 0.2 * soft2, abs=1e-9)


def test_the_search_stops_at_the_first_clock_read_past_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game("holdem-nolimit-2p")
    hole = tuple(cards_from_string("AhKh"))
    state = HandState(game, [hole, None], tuple(cards_from_string("Qh7h2c")))
    state.apply(CALL)
    state.apply(CALL)  # flop, position 0 to act
    me = state.current_player
    assert me == 0
    clock = FakeClock(tick=1e-5)
    monkeypatch.setattr(search_module, "time", clock)
    uniform = lambda s: {c: 1.0 for c in ActionClass}  # noqa: E731
    deadline = clock.now + 0.05
    result = search(state, me, hole, uniform, RangeWinModel(game, hole), deadline)
    # one read per node, the first one at or past the deadline stops it, one more for the statistics
    assert deadline <= clock.now <= deadline + 2 * clock.tick + 1e-9
    assert result.seconds == pytest.approx(0.05, abs=3 * clock.tick)
    assert not result.complete and result.depth >= 1
    assert state.can(result.action)


def test_node_budget_stops_the_search() -> None:
    game = load_game("holdem-nolimit-2p")
    hole = tuple(cards_from_string("2c7d"))
    state = HandState(game, [hole, None], tuple(cards_from_string("AsKsQs")))
    state.apply(CALL)
    state.apply(CALL)
    uniform = lambda s: {c: 1.0 for c in ActionClass}  # noqa: E731
    result = search(
        state, 0, hole, uniform, RangeWinModel(game, hole), time.monotonic() + 30.0, SearchSettings(node_budget=500)
    )
    assert result.nodes <= 500 and state.can(result.action)


def test_chance_nodes_deal_with_card_removal_and_sample_rivers_once() -> None:
    from pokerbot.strategies.miximax.search import MiximaxSearch

    game = load_game("holdem-nolimit-2p")
    hole = tuple(cards_from_string("AhKh"))
    flop = tuple(cards_from_string("Qh7h2c"))
    state = HandState(game, [hole, None], flop)
    state.apply(CALL)
    state.apply(CALL)
    uniform = lambda s: {c: 1.0 for c in ActionClass}  # noqa: E731
    engine = MiximaxSearch(
        state,
        0,
        hole,
        uniform,
        RangeWinModel(game, hole),
        SearchSettings(river_samples=26),
        AbstractionSettings(),
        random.Random(1),
    )
    turns = engine._deals(flop, 1, last_round=False)
    assert len(turns) == 47 and not {c for (c,) in turns} & set(hole + flop)
    turn_board = flop + turns[0]
    rivers = engine._deals(turn_board, 1, last_round=True)
    assert len(rivers) == 26 == len(set(rivers)) and not {c for (c,) in rivers} & set(hole + turn_board)
    assert engine._deals(turn_board, 1, last_round=True) is rivers
