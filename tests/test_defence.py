"""The minimum defence of the no-limit blueprint (strategies/abstract/defence.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pokerbot.protocol.actions import CALL, FOLD, Action
from pokerbot.protocol.analysis.holdings import HOLDING_INDEX, HOLDINGS
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState, parse_match_state
from pokerbot.strategies.abstract.defence import RangeDefence
from pokerbot.strategies.abstract.player import AbstractPolicyPlayer, shipped_policy
from pokerbot.strategies.registry import default_registry

NOLIMIT = load_game("holdem-nolimit-2p")
FACING = (
    "MATCHSTATE:1:6:r200c/cc/r600:|3c4d/9c4hKd/3h",  # a pot-sized bet on the turn (price 1/2)
    "MATCHSTATE:0:6:r200c/cr400:3c4d|/9c4hKd",  # a half-pot bet on the flop after our check (1/3)
    "MATCHSTATE:1:6:r200c/r400:|3c4d/9c4hKd",  # the same bet, first to act
)


@pytest.fixture(scope="module")
def players() -> tuple[AbstractPolicyPlayer, AbstractPolicyPlayer]:
    policy = shipped_policy("mccfr10-nl")
    return AbstractPolicyPlayer(NOLIMIT, 1, policy), AbstractPolicyPlayer(NOLIMIT, 1, policy, defend=True)


def with_hole(view: MatchState, hole: tuple[int, int]) -> MatchState:
    state = view.state.copy()
    cards = list(state.hole_cards)
    cards[view.position] = hole
    state.hole_cards = cards
    return MatchState(view.position, view.hand_number, state)


def free_holdings(state: HandState, count: int, seed: int) -> list[tuple[int, int]]:
    board = set(state.visible_board())
    free = [(int(a), int(b)) for a, b in HOLDINGS if a not in board and b not in board]
    return random.Random(seed).sample(free, count)


def test_the_price_is_what_the_bettor_added_over_the_pot():
    state = parse_match_state("MATCHSTATE:1:0:r200c/cc/r600:|3c4d/9c4hKd/3h", NOLIMIT).state
    assert RangeDefence.price(state) == pytest.approx(400 / 800)  # a pot-sized bet: 1/2
    raised = parse_match_state("MATCHSTATE:0:0:r200c/cr400r1200:3c4d|/9c4hKd", NOLIMIT).state
    # we bet 200 more (to 400), they raise to 1200: 1000 added, the pot 1600
    assert RangeDefence.price(raised) == pytest.approx(1000 / 1600)
    assert RangeDefence.price(HandState(NOLIMIT)) == 1.0  # the blinds are not a bet


def test_the_range_is_the_product_of_the_policys_probabilities(players):
    plain, defended = players
    view = parse_match_state(FACING[0], NOLIMIT)
    weights = defended.defence.range(view.state, view.position, view.hand_number)
    # by brute force: the undefended policy's probability of each of our actions, holding by holding
    steps = []
    replay = HandState(NOLIMIT)
    replay.board_cards = tuple(view.state.board_cards)
    for _round, actor, action in view.state.history():
        if actor == view.position:
            steps.append((replay.copy(), action))
        replay.apply(action)
    assert len(steps) == 2
    for hole in free_holdings(view.state, 25, seed=3):
        expected = 1.0
        for state, action in steps:
            state.hole_cards = [None, hole] if view.position == 1 else [hole, None]
            expected *= plain.action_probabilities(MatchState(view.position, view.hand_number, state)).get(action, 0.0)
        assert weights[HOLDING_INDEX[hole]] == pytest.approx(expected, abs=1e-9)
    board = view.state.visible_board()
    clashing = [k for k, (a, b) in enumerate(HOLDINGS) if a in board or b in board]
    assert not weights[clashing].any()


@pytest.mark.parametrize("line", FACING)
def test_facing_a_bet_the_range_folds_no_more_than_the_price(players, line):
    plain, defended = players
    view = parse_match_state(line, NOLIMIT)
    defence = defended.defence
    state, position, hand = view.state, view.position, view.hand_number
    weights = defence.range(state, position, hand)
    price = RangeDefence.price(state)
    board = set(state.visible_board())
    before = after = 0.0
    strength = np.nan_to_num(defence.ranges.abstraction.ehs_all(state.visible_board()), nan=-1.0)
    moved_by_strength = []
    for k, (a, b) in enumerate(HOLDINGS):
        if weights[k] <= 0.0 or a in board or b in board:
            continue
        hole = (int(a), int(b))
        old = plain.action_probabilities(with_hole(view, hole))
        new = defended.action_probabilities(with_hole(view, hole))
        assert sum(new.values()) == pytest.approx(1.0)
        assert new.get(FOLD, 0.0) <= old.get(FOLD, 0.0) + 1e-12
        # only folds move, and they move to a call
        for action in set(old) | set(new):
            if action not in (FOLD, CALL):
                assert new.get(action, 0.0) == pytest.approx(old.get(action, 0.0))
        before += weights[k] * old.get(FOLD, 0.0)
        after += weights[k] * new.get(FOLD, 0.0)
        if old.get(FOLD, 0.0) > 0.0:
            moved_by_strength.append((strength[k], 1.0 - new.get(FOLD, 0.0) / old[FOLD]))
    total = weights.sum()
    assert before / total > price  # these states need the defence
    assert after / total == pytest.approx(price, abs=1e-9)
    # the strongest folding holdings are the ones that call instead
    moved_by_strength.sort(key=lambda pair: -pair[0])
    shares = [share for _strength, share in moved_by_strength]
    partial = [k for k, share in enumerate(shares) if 1e-9 < share < 1.0 - 1e-9]
    assert len(partial) <= 2  # one holding at the boundary (ties in strength aside)
    first_unmoved = next(k for k, share in enumerate(shares) if share <= 1e-9)
    assert all(share >= 1.0 - 1e-9 for share in shares[: min(partial, default=first_unmoved)])
    assert not any(shares[first_unmoved:])


def test_nothing_changes_where_the_range_folds_little_enough(players):
    plain, defended = players
    for line in ("MATCHSTATE:1:6:r200c/cc/cc/r20000:|3c4d/9c4hKd/3h/4c", "MATCHSTATE:0:6:r300:3c4d|"):
        view = parse_match_state(line, NOLIMIT)
        assert defended.defence.moved_fraction(view.state, view.position, view.hand_number) is None
        for hole in free_holdings(view.state, 10, seed=5):
            assert defended.action_probabilities(with_hole(view, hole)) == plain.action_probabilities(
                with_hole(view, hole)
            )


def test_the_defended_blueprint_plays_in_the_registry_and_its_answers_are_its_play():
    registry = default_registry()
    player = registry.create("blueprint-defended", NOLIMIT, 4)
    view = parse_match_state(FACING[0], NOLIMIT)
    probabilities = player.action_probabilities(view)
    assert player.probability_key(view) == view.hole_cards  # the defence depends on the holding
    counts: dict[Action, int] = {}
    for _ in range(400):
        action = player.decide(view, deadline=float("inf"))
        counts[action] = counts.get(action, 0) + 1
    assert set(counts) <= set(probabilities)
    for action, p in probabilities.items():
        assert counts.get(action, 0) / 400 == pytest.approx(p, abs=0.08)
    info = registry.info("blueprint-defended")
    assert info.supports is not None and info.supports(NOLIMIT) and not info.supports(load_game("holdem-limit-2p"))
