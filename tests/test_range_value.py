"""The safe agent's range value: a hand valued over every holding our blueprint could have held.

Checked against a second path (one holding at a time, with ``equity_vs_ranges``), the
blueprint's reach against its own decisions in played hands, and the agent's bookings.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.protocol.actions import CALL, FOLD, Action
from pokerbot.protocol.analysis.equity import equity_vs_random_all, equity_vs_random_runouts, equity_vs_ranges
from pokerbot.protocol.analysis.headsup import equity_all_vs_holding
from pokerbot.protocol.analysis.holdings import HOLDINGS, NUM_HOLDINGS, conflict_mask, holding_index
from pokerbot.protocol.analysis.preflop import preflop_equity
from pokerbot.protocol.cards import cards_from_string as parse_cards
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.abstract.player import AbstractPolicyPlayer, blueprint_factory
from pokerbot.strategies.baselines import AlwaysCall, RandomPlayer
from pokerbot.strategies.safe.agent import RANGE_VALUE_MIN_BUDGET, SafeExploiter
from pokerbot.strategies.safe.ledger import SafetySettings
from pokerbot.strategies.safe.values import FLOP_RUNOUTS, flop_equities, hand_value, range_hand_value

NOLIMIT = load_game("holdem-nolimit-2p")
LIMIT = load_game("holdem-limit-2p")


def one_hot(cards: str) -> np.ndarray:
    weights = np.zeros(NUM_HOLDINGS)
    weights[holding_index(parse_cards(cards))] = 1.0
    return weights


@pytest.mark.parametrize("board", ["2s7sJc", "2s7sJc4d", "2s7sJc4d9h"])
def test_every_holdings_equity_against_one_holding_is_its_own(board):
    cards = parse_cards(board)
    equity = equity_all_vs_holding(cards, parse_cards("KsQs"))
    for mine in ("AhAd", "Th9h", "3c2d", "Ks9d", "7c7d", "Jh8h"):
        index = holding_index(parse_cards(mine))
        if {*parse_cards(mine)} & {*cards, *parse_cards("KsQs")}:
            assert equity[index] == 0.0
        else:
            expected = float(equity_vs_ranges(parse_cards(mine), cards, one_hot("KsQs"))[0])
            assert equity[index] == pytest.approx(expected, abs=1e-12)


def test_pre_flop_equities_against_one_holding_are_sampled_boards():
    equity = equity_all_vs_holding((), parse_cards("KcKs"), samples=4000, seed=3)
    assert equity[holding_index(parse_cards("AhAd"))] == pytest.approx(0.82, abs=0.02)
    assert equity[holding_index(parse_cards("7h2d"))] == pytest.approx(0.12, abs=0.03)
    assert equity[holding_index(parse_cards("Kc2d"))] == 0.0  # shares a card: no weight anywhere


@pytest.mark.parametrize("board", ["", "2s7sJc", "2s7sJc4d"])
def test_equities_against_one_holding_among_some_holdings_are_the_same(board):
    """``among``: the holdings asked get the answers every holding gets (the same boards
    pre-flop), the others 0."""
    cards, villain = parse_cards(board), parse_cards("KsQs")
    among = np.zeros(NUM_HOLDINGS, dtype=bool)
    among[[holding_index(parse_cards(h)) for h in ("AhAd", "Th9h", "3c2d", "Kc9d")]] = True
    full = equity_all_vs_holding(cards, villain, samples=300, seed=4)
    some = equity_all_vs_holding(cards, villain, samples=300, seed=4, among=among)
    np.testing.assert_array_equal(some[among], full[among])
    assert not some[~among].any() and full[among].all()


def test_a_flops_equities_against_one_holding_on_sampled_run_outs_are_unbiased():
    """``runouts``: all 1,081 run-outs give the exact equities; 60 of them, drawn afresh for each
    seed, average to them (40 seeds: a standard deviation of about 0.01)."""
    flop, villain = parse_cards("2s7sJc"), parse_cards("KsQs")
    exact = equity_all_vs_holding(flop, villain)
    np.testing.assert_array_equal(equity_all_vs_holding(flop, villain, runouts=1081), exact)
    mean = np.mean([equity_all_vs_holding(flop, villain, runouts=60, seed=seed) for seed in range(40)], axis=0)
    for holding in ("AhAd", "Th9h", "3c2d", "8s8d"):
        index = holding_index(parse_cards(holding))
        assert mean[index] == pytest.approx(exact[index], abs=0.03)
    assert not equity_all_vs_holding(flop, villain, runouts=60)[holding_index(parse_cards("Ks9d"))]


def _hand(mine: str, theirs: str, board: str, actions: list[Action]) -> HandState:
    """Position 0's view of a finished hand: the opponent's cards only if they were shown."""
    state = HandState(NOLIMIT, [parse_cards(mine), parse_cards(theirs)], parse_cards(board))
    for action in actions:
        state.apply(action)
    assert state.finished
    if state.showdown():
        return state
    hidden = HandState(NOLIMIT, [parse_cards(mine), None], parse_cards(board))
    for action in actions:
        hidden.apply(action)
    return hidden


def _one_holding(state: HandState, position: int, hole: tuple[int, ...], matched: list[int]) -> float:
    """One holding's value, by a second path: its showdown equity against the shown cards
    (or the chips won after a fold), less its chance corrections (equity against a uniform
    range, one holding at a time; ``matched``: the chips matched at the deal and as each
    street's cards came)."""
    game = state.game
    last = max(r for r, _a, _x in state.history())
    board = state.board_cards[: game.board_start[last] + game.num_board_cards[last]]
    theirs = state.hole_cards[1 - position]
    if state.showdown():
        weights = np.zeros(NUM_HOLDINGS)
        weights[holding_index(theirs)] = 1.0
        value = (2 * float(equity_vs_ranges(hole, board, weights)[0]) - 1) * min(state.spent)
    else:
        value = float(state.values()[position])
    table = preflop_equity()
    equities = [float(table.mean()), float(table[holding_index(hole)])]
    equities += [
        float(equity_vs_ranges(hole, board[:n], np.ones(NUM_HOLDINGS))[0]) for n in (3, 4, 5) if n <= len(board)
    ]
    return value - sum(2 * m * (b - a) for m, a, b in zip(matched, equities, equities[1:], strict=False))


BETS = [CALL, CALL, Action.raise_to(300), CALL, Action.raise_to(900), CALL, Action.raise_to(2000), CALL]
"""Called bets on the flop, the turn and the river: chips matched in every round, so every
round's equities count."""
CASES = {
    "river showdown": ("AhAd", "KsQs", "2s7sJc4d9h", [CALL, CALL] + [CALL] * 6, [50, 100, 100, 100]),
    "fold on the turn": (
        "AhAd",
        "KsQs",
        "2s7sJc4d9h",
        [CALL, CALL, CALL, CALL, Action.raise_to(300), FOLD],
        [50, 100, 100, 100],
    ),
    "all-in on the flop": ("Th9h", "KsQs", "2s7sJc4d9h", [CALL, CALL, Action.raise_to(20000), CALL], [50, 100]),
    "fold pre-flop": ("AhAd", "KsQs", "2s7sJc4d9h", [FOLD], [50]),
    "bets called on every street": ("AhAd", "KsQs", "2s7sJc4d9h", BETS, [50, 100, 300, 900]),
}
"""Our cards, theirs, the board, the actions, and the chips matched at the deal and as each
street's cards came (the blinds' 50, then what was checked or called before)."""


@pytest.mark.parametrize("case", list(CASES))
def test_the_range_value_is_the_reach_weighted_mean_of_each_holdings_value(case):
    mine, theirs, board, actions, matched = CASES[case]
    state = _hand(mine, theirs, board, actions)
    reach = np.zeros(NUM_HOLDINGS)
    weighted = {mine: 0.5, "7c7d": 0.25, "Jh8h": 1.0, "2s3d": 1.0, "Ks9d": 1.0}  # 2s: on the flop; Ks: theirs
    for cards, weight in weighted.items():
        reach[holding_index(parse_cards(cards))] = weight
    last = max(r for r, _a, _x in state.history())
    seen = set(state.board_cards[: NOLIMIT.board_start[last] + NOLIMIT.num_board_cards[last]])
    if state.showdown():  # the opponent's cards are seen: the holdings on them drop out
        seen |= set(parse_cards(theirs))
    kept = {c: w for c, w in weighted.items() if not set(parse_cards(c)) & seen}
    counts = {"river showdown": 3, "fold on the turn": 4, "all-in on the flop": 3, "fold pre-flop": 5}
    assert len(kept) == counts.get(case, 3)
    values = {c: _one_holding(state, 0, parse_cards(c), matched) for c in kept}
    expected = sum(w * values[c] for c, w in kept.items()) / sum(kept.values())
    exact = {"flop_runouts": None, "showdown_runouts": None}
    assert range_hand_value(state, 0, reach, **exact) == pytest.approx(expected, abs=1e-6)
    # the reach of our own holding alone: the hand's value at our cards, with exact equities
    alone = range_hand_value(state, 0, one_hot(mine), **exact)
    assert alone == pytest.approx(values[mine])


def test_a_flops_equities_on_every_run_out_are_exact_and_on_sampled_ones_their_mean():
    """On every run-out of the flop the run-outs' mean is the flop's exact equity, holding by
    holding (each on the run-outs that miss its cards); the sampled estimate is that mean on
    :data:`FLOP_RUNOUTS` run-outs drawn without replacement, so it is unbiased."""
    flop = parse_cards("8h2cJd")
    win, tie = equity_vs_random_all(flop)
    exact = flop_equities(flop, random.Random(0), None)
    np.testing.assert_array_equal(exact, win + tie / 2.0)
    every = list(itertools.combinations([c for c in range(52) if c not in flop], 2))
    live = ~conflict_mask(flop)
    np.testing.assert_allclose(equity_vs_random_runouts(flop, np.array(every))[live], exact[live], atol=1e-12)
    sampled = flop_equities(flop, random.Random(5))
    picks = random.Random(5).sample(every, FLOP_RUNOUTS)
    for holding in ("AhAd", "Th9h", "3c2d", "8s8d"):  # by a second path: each run-out's river, one holding
        hole = parse_cards(holding)
        boards = [(*flop, *pick) for pick in picks if not set(pick) & set(hole)]
        expected = np.mean([float(equity_vs_ranges(hole, board, np.ones(NUM_HOLDINGS))[0]) for board in boards])
        assert sampled[holding_index(hole)] == pytest.approx(expected, abs=1e-12)
    assert 0 < np.abs(sampled - exact)[live].max() < 0.3 and not sampled[~live].any()


def test_a_reach_that_never_plays_our_holding_is_refused():
    state = _hand(*CASES["river showdown"][:4])
    with pytest.raises(ValueError, match="no weight"):
        range_hand_value(state, 0, one_hot("7c7d"))


class Recording(AbstractPolicyPlayer):
    """The blueprint, keeping the probability of each hand's own actions and its final views."""

    def __init__(self, base: AbstractPolicyPlayer) -> None:
        super().__init__(base.game, 7, base.policy)
        self.reached: dict[int, float] = {}
        self.finished: list = []

    def decide(self, view, deadline):
        action = super().decide(view, deadline)
        probability = self.action_probabilities(view).get(action, 0.0)
        self.reached[view.hand_number] = self.reached.get(view.hand_number, 1.0) * probability
        return action

    def observe(self, view):
        self.finished.append(view)


@pytest.mark.parametrize("game", [NOLIMIT, LIMIT], ids=["no-limit", "limit"])
def test_the_blueprints_reach_of_its_holding_is_the_probability_it_played_so(game):
    player = Recording(blueprint_factory(game))
    run_inprocess_match(game, 40, 5, [player, RandomPlayer(game, 6)], ["blueprint", "random"])
    assert len(player.finished) == 40
    for view in player.finished:
        reach = player.reach(view.state, view.position, view.hand_number)
        assert reach is not None and reach.shape == (NUM_HOLDINGS,)
        assert np.all((reach >= 0.0) & (reach <= 1.0 + 1e-9))
        board = set(view.state.visible_board())
        assert not any(reach[k] for k, (a, b) in enumerate(HOLDINGS) if a in board or b in board)
        played = player.reached.get(view.hand_number, 1.0)
        assert reach[holding_index(view.hole_cards)] == pytest.approx(played, rel=1e-6, abs=1e-12)


def test_a_defended_blueprint_gives_no_reach():
    defended = blueprint_factory(NOLIMIT, 1, defend=True)
    assert isinstance(defended, AbstractPolicyPlayer)
    assert defended.reach(HandState(NOLIMIT), 0, 0) is None


class Watched(SafeExploiter):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.views: list = []
        self.parts: list = []

    def observe(self, view):
        self.views.append(view)
        self.parts.append(self.playing(view))
        super().observe(view)


@pytest.mark.parametrize(
    ("imaginary", "seconds"),
    [(True, 1.0), (False, 1.0), (True, RANGE_VALUE_MIN_BUDGET / 5)],
    ids=["range", "plain", "range-without-time"],
)
def test_the_agent_books_the_blueprints_hands_over_its_range(imaginary, seconds):
    """Over the range when the settings ask for it and the decisions' budget leaves time for
    it; at our holding otherwise (a budget of 0.1 s: the range's valuation would delay the
    next hand's first decision past such a budget)."""
    settings = SafetySettings(risk=20.0, prior_spread=15.0, imaginary=imaginary)
    blueprint = blueprint_factory(NOLIMIT, 1)
    agent = Watched(NOLIMIT, 2, blueprint=blueprint, exploiter=AlwaysCall(NOLIMIT), settings=settings)
    players = [agent, AlwaysCall(NOLIMIT)]
    run_inprocess_match(NOLIMIT, 30, 9, players, ["agent", "call"], seconds_per_action=seconds)
    assert agent.decision_budget is not None and agent.decision_budget <= seconds
    over_range = imaginary and seconds >= RANGE_VALUE_MIN_BUDGET
    assert agent.values_over_range() == over_range
    ranged = 0
    for view, part, entry in zip(agent.views, agent.parts, agent.history, strict=True):
        plain = hand_value(view.state, view.position, seed=view.hand_number)
        if over_range and part is blueprint:  # the exploiter's hands: at our holding
            state = view.state
            last = max(r for r, _a, _x in state.history())
            board = state.board_cards[: NOLIMIT.board_start[last] + NOLIMIT.num_board_cards[last]]
            reach = blueprint.reach(state, view.position, view.hand_number, board)  # not the run-out's cards
            expected = range_hand_value(view.state, view.position, reach, seed=view.hand_number)
            ranged += expected != pytest.approx(plain)
        else:
            expected = plain
        assert entry.value == pytest.approx(expected)
    assert not over_range or ranged > 10  # the range's value is not our holding's
