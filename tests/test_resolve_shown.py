"""Ranges for actions the opponent rarely takes: the showdowns' Bayesian update of the model's
range (:mod:`pokerbot.strategies.resolve.shown`), on a scripted river bettor."""

from __future__ import annotations

import numpy as np
import pytest

from pokerbot.models.action_classes import ActionClass
from pokerbot.protocol.actions import CALL, Action, ActionKind
from pokerbot.protocol.analysis.matchups import holding_space
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.resolve.opponent import HoldingModel, StrengthLink, percentiles
from pokerbot.strategies.resolve.shown import PRIOR_WEIGHT, ShownRanges

BOARD = cards_from_string("6cKcTd3sJc")
PRIOR = {ActionClass.CHECK: 0.6, ActionClass.POT: 0.4, ActionClass.CALL: 1.0, ActionClass.FOLD: 0.0}
"""The model's frequencies on the river, fixed: it bets 40 % of its range."""


def _frequencies(state: HandState) -> dict[ActionClass, float]:
    """Passive before the river (every holding checks or calls), :data:`PRIOR` on it."""
    return PRIOR if state.round == 3 else {ActionClass.CHECK: 1.0, ActionClass.CALL: 1.0}


def _river(game, hole: tuple[int, ...], ours: tuple[int, ...]) -> HandState:  # type: ignore[no-untyped-def]
    """Checked to the river, the big blind (position 0, ours) checks: the bettor's turn."""
    state = HandState(game, hole_cards=[ours, hole], board_cards=BOARD)
    while state.round < 3 or state.current_player != 1:
        state.apply(CALL)
    return state


def _top_decile_share(model: HoldingModel, game, strength: np.ndarray, top: np.ndarray) -> float:  # type: ignore[no-untyped-def]
    """The share of the top tenth in the model's range after a pot-sized river bet."""
    space = model.space
    state = _river(game, tuple(cards_from_string("2h2d")), tuple(cards_from_string("4h4d")))
    bet = Action(ActionKind.RAISE, int(state.spent[0] * 3))
    after = state.copy()
    after.apply(bet)
    reach = model.range_at(after, 1)
    assert reach.shape == (space.size,)
    return float(reach[top].sum() / reach.sum())


def test_the_range_of_a_rarely_taken_bet_moves_to_what_was_shown():
    """A scripted player bets the pot on the river with its strongest tenth only and checks the
    rest, and every bet is called: with the frequencies fixed at betting 40 %, the model's
    betting range (with the link at 1: its strongest 40 %) moves toward the top tenth as the
    showdowns come, by the Bayesian update at the stated prior weight."""
    game = load_game("holdem-nolimit-2p")
    space = holding_space(game)
    valid = space.valid(BOARD)
    strength = space.strength(BOARD)
    q = percentiles(strength, valid.astype(np.float64))
    top = valid & (q >= 0.9)
    model = HoldingModel(space, _frequencies, StrengthLink(prior=1.0))
    before = _top_decile_share(model, game, strength, top)
    assert before == pytest.approx(0.25, abs=0.03)  # the top tenth of a 40 % range

    rng = np.random.default_rng(7)
    live = np.flatnonzero(valid)
    shares = [before]
    bets = 0
    while bets < 20:
        h = int(rng.choice(live))
        hole = tuple(int(c) for c in space.cards[h])
        ours = next(tuple(int(c) for c in space.cards[o]) for o in rng.permutation(live) if not space.conflicts[h, o])
        state = _river(game, hole, ours)
        if not top[h]:
            continue  # it checks: a check shown teaches the check's range, not the bet's
        state.apply(Action(ActionKind.RAISE, int(state.spent[0] * 3)))
        state.apply(CALL)
        assert state.finished
        model.learn_showdown(state, 1, hole)
        bets += 1
        if bets in (int(PRIOR_WEIGHT), 20):
            shares.append(_top_decile_share(model, game, strength, top))
    assert model.shown.shown(_river(game, hole, ours), ActionClass.POT) == 20
    # after as many showdowns as the prior weighs, the shown tenth holds about half of the
    # class's mass (its prior share 0.25: (5 * 0.25 + 5) / 10 = 0.625 of the bins' mass)
    assert shares[1] > 0.5
    assert shares[2] > 0.8 > shares[1] > shares[0]  # 0.25, 0.625, 0.85


def test_the_update_keeps_the_table_a_strategy_and_leaves_unseen_classes_alone():
    shown = ShownRanges(prior_weight=2.0, bins=4)
    game = load_game("holdem-nolimit-2p")
    state = _river(game, tuple(cards_from_string("2h2d")), tuple(cards_from_string("4h4d")))
    n = 8
    q = (np.arange(n) + 0.5) / n
    reach = np.ones(n)
    table = {ActionClass.CHECK: np.full(n, 0.6), ActionClass.POT: np.full(n, 0.4)}
    assert shown.reshape(state, q, reach, table)[ActionClass.POT] == pytest.approx(table[ActionClass.POT])
    for _ in range(6):
        shown.add(state, ActionClass.POT, 0.95)
    out = shown.reshape(state, q, reach, table)
    total = out[ActionClass.CHECK] + out[ActionClass.POT]
    assert total == pytest.approx(np.ones(n))
    # the posterior's shares: (2 * 0.25 + 6) / 8 in the top bin, 2 * 0.25 / 8 in each other;
    # kept at 0.4 the bet would need 1.3 of the top bin's holdings: lowered until it fits
    assert out[ActionClass.POT][-1] == pytest.approx(1.0)
    assert out[ActionClass.POT][0] == pytest.approx((2 * 0.25 / 8) / ((2 * 0.25 + 6) / 8))
    assert out[ActionClass.CHECK][0] == pytest.approx(1.0 - out[ActionClass.POT][0])
    with pytest.raises(ValueError):
        ShownRanges(prior_weight=0.0)
