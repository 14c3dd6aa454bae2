"""The miximax agent in three-player hold'em: the multiway search, win models, pre-flop rule,
per-opponent models and registry; heads-up searches unchanged by the multiway forms."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence

import pytest

from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.models.action_classes import ActionClass
from pokerbot.models.features import action_rows
from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from pokerbot.protocol.cards import Card, cards_from_string
from pokerbot.protocol.game import BUILTIN_GAMES, load_game, parse_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.miximax.equity import RangeWinModel
from pokerbot.strategies.miximax.player import MiximaxAgent, plays
from pokerbot.strategies.miximax.preflop_policy import multiway_code
from pokerbot.strategies.miximax.search import ProductWinModel, SearchError, SearchSettings, search
from pokerbot.strategies.registry import default_registry, default_strategy
from tests.conftest import play_random_hand

REGISTRY = default_registry()
NOLIMIT3 = load_game("holdem-nolimit-3p")
LIMIT3 = load_game("holdem-limit-3p")

RIVER3 = parse_game(
    "GAMEDEF\nlimit\nnumPlayers = 3\nnumRounds = 1\nblind = 10 10 10\nraiseSize = 10\nfirstPlayer = 1\n"
    "maxRaises = 1\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\nnumBoardCards = 5\nEND GAMEDEF\n"
)
"""A one-round three-player limit river: everyone has 10 in (pot 30), one bet of 10 allowed."""
BOARD = tuple(cards_from_string("2c7d9hJsKc"))
HOLE = tuple(cards_from_string("AsAd"))


# ------------------------------------------------------------- matches (legality)
@pytest.mark.parametrize("game", [NOLIMIT3, LIMIT3], ids=["nolimit", "limit"])
def test_miximax_plays_three_player_matches_legally(game) -> None:  # type: ignore[no-untyped-def]
    players = [
        REGISTRY.create("miximax:0.02", game, 1),
        REGISTRY.create("random", game, 2),
        REGISTRY.create("random", game, 3),
    ]
    outcome = run_inprocess_match(game, 12, 7, players, ["miximax", "random-1", "random-2"])
    assert outcome.error is None and outcome.hands_played == 12
    assert outcome.illegal_actions.get("miximax", 0) == 0


# -------------------------------------------------------- the multiway leaf, by hand
def _opponent(fold: float) -> object:
    """An opponent that checks when checking is free and folds ``fold`` of the time to a bet."""

    def model(state: HandState) -> Mapping[ActionClass, float]:
        if state.legal_actions().call_amount == 0:
            return {ActionClass.CHECK: 1.0}
        return {ActionClass.FOLD: fold, ActionClass.CALL: 1.0 - fold}

    return model


class _Fixed:
    """P(win) against one opponent, whatever the board and betting."""

    betting_independent = True

    def __init__(self, p: float) -> None:
        self.p = p

    def win_probability(self, state: HandState, board: Sequence[Card]) -> float:
        return self.p


class _AgainstLive:
    """P(win) against every opponent still in: 0.6 against position 1 times 0.5 against 2."""

    def win_probability(self, state: HandState, board: Sequence[Card]) -> float:
        p = 1.0
        if not state.folded[1]:
            p *= 0.6
        if not state.folded[2]:
            p *= 0.5
        return p


def test_multiway_river_values_computed_by_hand() -> None:
    state = HandState(RIVER3, [HOLE, None, None], BOARD)
    assert state.current_player == 0 and state.pot == 30
    models = {1: _opponent(0.5), 2: _opponent(0.25)}
    # check: both check, showdown of 30 chips won with P = 0.6 * 0.5 = 0.3: EV 9.
    # bet 10: position 1 folds 1/2, position 2 folds 1/4:
    #   both fold (1/8): the pot of 40 minus our 10 = 30;
    #   1 folds, 2 calls (3/8): pot 20 + 10 + 20 = 50 (1's 10 dead), P 0.5: 25 - 10 = 15;
    #   1 calls, 2 folds (1/8): pot 50, P 0.6: 30 - 10 = 20;
    #   both call (3/8): pot 60, P 0.3: 18 - 10 = 8;
    #   EV = 3.75 + 5.625 + 2.5 + 3 = 14.875.
    for win_model in ({1: _Fixed(0.6), 2: _Fixed(0.5)}, _AgainstLive()):
        result = search(state, 0, HOLE, models, win_model, time.monotonic() + 10.0)
        values = {b.action_class: v for b, v in result.values}
        assert values[ActionClass.CHECK] == pytest.approx(9.0, abs=1e-12)
        assert values[ActionClass.POT] == pytest.approx(14.875, abs=1e-12)
        assert result.action == LIMIT_RAISE and result.complete


def test_everyone_else_folding_wins_the_pot_and_our_fold_loses_our_chips() -> None:
    state = HandState(RIVER3, [None, HOLE, None], BOARD)
    state.apply(CALL)  # position 0 checks, we (position 1) act
    result = search(state, 1, HOLE, _opponent(1.0), _Fixed(0.0), time.monotonic() + 10.0)
    values = {b.action_class: v for b, v in result.values}
    # P(win) 0 at a showdown: checking through is worth 0 (nothing added); betting makes
    # both others fold (fold probability 1): we win the pot of 40 minus our 10 = 30
    assert values[ActionClass.CHECK] == 0.0 and values[ActionClass.POT] == 30.0
    state.apply(LIMIT_RAISE)
    # position 2 to act facing the bet, position 0 still to act: folding adds nothing (0);
    # calling adds 10 and, position 0 calling too, loses the showdown (P(win) 0): -10
    facing = search(state, 2, HOLE, _opponent(0.0), _Fixed(0.0), time.monotonic() + 10.0)
    values = {b.action_class: v for b, v in facing.values}
    assert values[ActionClass.FOLD] == 0.0 and values[ActionClass.CALL] == -10.0


def test_product_win_model_skips_folded_opponents() -> None:
    state = HandState(RIVER3, [HOLE, None, None], BOARD)
    product = ProductWinModel({1: _Fixed(0.6), 2: _Fixed(0.5)})
    assert product.win_probability(state, BOARD) == pytest.approx(0.3)
    state.apply(LIMIT_RAISE)
    state.apply(FOLD)
    assert product.win_probability(state, BOARD) == 0.5
    assert ProductWinModel({1: _Fixed(0.6)}).betting_independent
    assert not product.betting_independent


# ----------------------------------------------------------------- refusals
def test_search_refuses_when_it_is_not_our_turn_or_a_model_is_missing() -> None:
    state = HandState(RIVER3, [HOLE, None, None], BOARD)
    with pytest.raises(SearchError, match="turn"):
        search(state, 1, HOLE, _opponent(0.5), _Fixed(0.5), time.monotonic() + 1.0)
    with pytest.raises(SearchError, match="action model"):
        search(state, 0, HOLE, {1: _opponent(0.5)}, _Fixed(0.5), time.monotonic() + 1.0)
    with pytest.raises(SearchError, match="win model"):
        search(state, 0, HOLE, _opponent(0.5), {2: _Fixed(0.5)}, time.monotonic() + 1.0)


# ------------------------------------------------------------ heads-up unchanged
def _uniform(state: HandState) -> Mapping[ActionClass, float]:
    return dict.fromkeys(ActionClass, 1.0)


def test_heads_up_search_is_the_same_with_the_mapping_forms() -> None:
    game = load_game("holdem-nolimit-2p")
    hole = tuple(cards_from_string("AhKh"))
    state = HandState(game, [None, hole], cards_from_string("Qh7h2c5d9s"))
    state.apply(Action.raise_to(300))
    state.apply(CALL)
    me = state.current_player
    assert me is not None
    settings = SearchSettings(node_budget=1500, river_samples=4)
    results = []
    for action_model, wrap in ((_uniform, False), ({1 - me: _uniform}, False), (_uniform, True)):
        win = RangeWinModel(game, hole, seed=3)
        results.append(
            search(
                state,
                me,
                hole,
                action_model,
                {1 - me: win} if wrap else win,
                time.monotonic() + 30.0,
                settings,
                rng=random.Random(4),
            )
        )
    assert results[0].values == results[1].values == results[2].values
    assert results[0].depth == results[1].depth == results[2].depth
    assert results[0].nodes == results[1].nodes == results[2].nodes


def test_multiway_search_same_with_one_model_or_one_per_opponent() -> None:
    state = HandState(NOLIMIT3, [None, None, HOLE], cards_from_string("Qh7h2c5d9s"))
    for action in (CALL, CALL, CALL):  # pre-flop limps and the big blind checks
        state.apply(action)
    me = state.current_player
    assert state.round == 1 and me is not None
    settings = SearchSettings(node_budget=800, river_samples=4)
    one = search(
        state,
        me,
        HOLE,
        _uniform,
        RangeWinModel(NOLIMIT3, HOLE, seed=3),
        time.monotonic() + 30.0,
        settings,
        rng=random.Random(4),
    )
    each = search(
        state,
        me,
        HOLE,
        {p: _uniform for p in range(3) if p != me},
        RangeWinModel(NOLIMIT3, HOLE, seed=3),
        time.monotonic() + 30.0,
        settings,
        rng=random.Random(4),
    )
    assert one.values == each.values and one.depth >= 1


# ------------------------------------------------------------------ equity
def test_range_win_model_against_several_opponents() -> None:
    river = cards_from_string("Qh7h2c5d9s")
    hole = cards_from_string("AhKh")
    model = RangeWinModel(NOLIMIT3, hole, seed=1)
    single = RangeWinModel(NOLIMIT3, hole, seed=1).equity(river)
    assert model.multiway_equity(river, 2) == pytest.approx(single**2)  # complete board: s ** k
    state = HandState(NOLIMIT3, None, river)
    assert model.win_probability(state, river) == pytest.approx(single**2)
    state.apply(FOLD)  # one opponent left: the heads-up equity
    assert model.win_probability(state, river) == model.equity(river)
    aces = RangeWinModel(NOLIMIT3, cards_from_string("AsAd"), seed=2)
    first = aces.multiway_equity((), 2)
    assert first == RangeWinModel(NOLIMIT3, cards_from_string("AsAd"), seed=2).multiway_equity((), 2)  # seeded
    assert first == pytest.approx(0.735, abs=0.06)  # 20 000-draw Monte Carlo: 0.739


# ------------------------------------------------------------------- pre-flop
def _preflop_view(hole: str, position: int, actions: Sequence[Action] = ()) -> MatchState:
    holes: list[tuple[Card, ...] | None] = [None, None, None]
    holes[position] = tuple(cards_from_string(hole))
    state = HandState(NOLIMIT3, holes)
    for action in actions:
        state.apply(action)
    assert state.current_player == position
    return MatchState(position, 0, state)


def test_multiway_preflop_rule() -> None:
    state = HandState(NOLIMIT3)  # the button (position 2) acts first: to call 100 into 150
    assert state.current_player == 2
    assert multiway_code(state, 2, 0.852**2, 2, 3.0) == "r"  # AA
    assert multiway_code(state, 2, 0.346**2, 2, 3.0) == "f"  # 72o
    state.apply(CALL)
    state.apply(CALL)
    assert multiway_code(state, 1, 0.346**2, 2, 3.0) == "c"  # free check in the big blind
    agent = MiximaxAgent(NOLIMIT3, 1)
    assert agent.decide(_preflop_view("AsAd", 2), time.monotonic() + 5.0) == Action.raise_to(300)
    assert agent.decide(_preflop_view("7h2c", 2), time.monotonic() + 5.0) == FOLD
    assert agent.decide(_preflop_view("7h2c", 1, [CALL, CALL]), time.monotonic() + 5.0) == CALL
    shove = _preflop_view("7h2c", 0, [Action.raise_to(20000)])
    assert agent.decide(shove, time.monotonic() + 5.0) == FOLD


# -------------------------------------------------------- per-opponent models
def test_each_opponent_model_learns_only_its_opponent() -> None:
    agent = MiximaxAgent(NOLIMIT3, 1)
    rng = random.Random(5)
    counts = {1: 0, 2: 0}
    for hand_number in range(4):
        state = play_random_hand(NOLIMIT3, rng)
        me = hand_number % 3
        agent.observe(MatchState(me, hand_number, state.view(me)))
        for offset in (1, 2):
            counts[offset] += len(action_rows(state, me, [(me + offset) % 3]))
    for offset in (1, 2):
        position = (0 + offset) % 3
        assert agent.opponent_models(0)[position][0].observations == counts[offset]
    # seats rotate together: the opponent one seat on stays the same pair of models
    assert agent.opponent_models(0)[1] is agent.opponent_models(2)[0]
    assert agent.opponent_models(0)[1] is not agent.opponent_models(0)[2]


# ------------------------------------------------------------------ registry
def test_registry_plays_two_and_three_player_holdem() -> None:
    for name in sorted(BUILTIN_GAMES):
        game = load_game(name)
        assert REGISTRY.info("miximax").supports(game) == plays(game), name
        assert REGISTRY.info("miximax-static").supports(game) == plays(game), name
    assert plays(NOLIMIT3) and plays(LIMIT3) and not plays(load_game("kuhn3p"))
    assert isinstance(REGISTRY.create("miximax-static:0.05", LIMIT3, 1), MiximaxAgent)
    assert default_strategy(NOLIMIT3) == "miximax"  # stronger than always-raise: docs/agent.md
    assert default_strategy(LIMIT3, fast=True) == "miximax:200nodes"
    assert default_strategy(load_game("kuhn3p")) != "miximax"
