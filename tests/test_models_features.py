"""Feature extraction on hand-written hands, with every expected value worked out by hand."""

from __future__ import annotations

import random

import pytest

from pokerbot.models.action_classes import ActionClass
from pokerbot.models.features import (
    ACTION_FEATURES,
    LEGAL_KEY,
    SHOWDOWN_FEATURES,
    SPR_CAP,
    action_context,
    action_rows,
    log_line_rows,
    logged_hand_rows,
    quantise,
    showdown_context,
    showdown_rows,
    view_rows,
)
from pokerbot.models.handstrength import board_texture, strength_bin
from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from pokerbot.protocol.analysis.strength import hand_strength, sampled_equity_vs_random
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.matchlog import parse_state_line
from pokerbot.protocol.wire import MatchState
from tests.conftest import play_random_hand

NOLIMIT = load_game("holdem-nolimit-2p")  # blinds 100 (position 0) / 50 (position 1, the button)
LIMIT = load_game("holdem-limit-2p")  # blinds 10 / 5, raises 10, 10, 20, 20
R = Action.raise_to
HOLE = [cards_from_string("9s9d"), cards_from_string("5c2d")]
BOARD = cards_from_string("AhKh7cQd8s")
# Pre-flop: the button raises to 300, the big blind calls (pot 600). Flop: the big blind bets
# 300 (half pot), the button raises to 2400 (a pot raise), call (pot 4800). Turn: check,
# the button goes all-in, the big blind folds.
ACTIONS = [R(300), CALL, R(600), R(2400), CALL, CALL, R(20000), FOLD]
LOG_LINE = "STATE:7:r300c/r600r2400c/cr20000f:9s9d|5c2d/AhKh7c/Qd:-2400|2400:alice|bob"


def finished_hand() -> HandState:
    state = HandState(NOLIMIT, HOLE, BOARD)
    for action in ACTIONS:
        state.apply(action)
    return state


BUTTON_ROWS = [
    (
        {
            "stage": 0,
            "pot": 1.5,
            "bets_actor": 0,
            "bets_other": 0,
            "last_actor": -1,
            "last_other": -1,
            "button": 1,
            "face_cards": 0,
            "suited": 0,
            "connected": 0,
            "round_actions": 0,
            "to_call": 50 / 150,
            "bet_size": 0.0,
            "spr": SPR_CAP,
            LEGAL_KEY: 0b111101,
        },
        ActionClass.POT,
    ),
    (
        {
            "stage": 1,
            "pot": 9.0,
            "bets_actor": 0,
            "bets_other": 1,
            "last_actor": 4,
            "last_other": 3,
            "button": 1,
            "face_cards": 2,
            "suited": 2,
            "connected": 2,
            "round_actions": 1,
            "to_call": 300 / 900,
            "bet_size": 0.5,
            "spr": 19400 / 900,
            LEGAL_KEY: 0b111101,
        },
        ActionClass.POT,
    ),
    (
        {
            "stage": 2,
            "pot": 48.0,
            "bets_actor": 0,
            "bets_other": 0,
            "last_actor": 4,
            "last_other": 1,
            "button": 1,
            "face_cards": 3,
            "suited": 2,
            "connected": 3,
            "round_actions": 1,
            "to_call": 0.0,
            "bet_size": 0.0,
            "spr": 17600 / 4800,
            LEGAL_KEY: 0b111010,
        },
        ActionClass.ALL_IN,
    ),
]


def test_action_rows_of_the_button_as_the_big_blind_saw_them() -> None:
    view = MatchState(0, 7, finished_hand().view(0))
    rows = action_rows(view.state, view.position)
    assert [(row.x, row.y, row.actor) for row in rows] == [(x, y, 1) for x, y in BUTTON_ROWS]
    assert [key for key in rows[0].x if key != LEGAL_KEY] == list(ACTION_FEATURES)


def test_action_rows_of_the_big_blind() -> None:
    rows = action_rows(finished_hand(), observer=1)
    assert [row.y for row in rows] == [
        ActionClass.CALL,
        ActionClass.HALF_POT,
        ActionClass.CALL,
        ActionClass.CHECK,
        ActionClass.FOLD,
    ]
    call, bet, call_raise, check, fold = (row.x for row in rows)
    assert (call["button"], call["to_call"], call["bets_other"], call["last_other"]) == (0, 200 / 400, 1, 4)
    assert call["bet_size"] == pytest.approx(200 / 200)  # raise-by 200 into pot 150 + call 50
    assert (bet["stage"], bet["last_actor"], bet["last_other"]) == (1, 2, 4)
    assert (bet["round_actions"], bet["to_call"]) == (0, 0.0)
    assert (call_raise["bets_actor"], call_raise["bets_other"], call_raise["to_call"]) == (1, 1, 1800 / 3000)
    assert call_raise["bet_size"] == pytest.approx(1800 / 1200)
    assert (check["stage"], check["round_actions"], check["last_actor"]) == (2, 0, 2)
    assert (fold["to_call"], fold["bet_size"], fold["spr"]) == (17600 / 22400, 17600 / 4800, 0.0)
    assert fold[LEGAL_KEY] == 0b000101  # fold or call: the bet is all-in


def test_log_line_rows_from_either_view() -> None:
    actions, showdowns = log_line_rows(LOG_LINE, NOLIMIT, observer=0)
    assert [(row.x, row.y) for row in actions] == BUTTON_ROWS
    assert showdowns == []  # the hand ended with a fold
    assert len(logged_hand_rows(parse_state_line(LOG_LINE, NOLIMIT), observer=1)[0]) == 5


def test_limit_features() -> None:
    state = HandState(LIMIT)
    state.apply(LIMIT_RAISE)  # the button raises to 20
    x = action_context(state)
    assert (x["pot"], x["to_call"], x["bets_other"], x["last_other"]) == (3.0, 10 / 30, 1, ActionClass.POT)
    assert x["bet_size"] == pytest.approx(10 / 20)  # raise-by 10 into 15 + call 5
    assert x["spr"] == SPR_CAP  # unlimited stacks
    assert x[LEGAL_KEY] == 0b010101


def test_showdown_rows_use_percentile_rank_bins() -> None:
    hole = [cards_from_string("AsAc"), cards_from_string("7h2c")]
    state = HandState(NOLIMIT, hole, cards_from_string("Ad2d3h9s5c"))
    for action in [CALL, CALL, CALL, CALL, CALL, CALL, CALL, CALL]:
        state.apply(action)
    assert state.showdown()
    view = MatchState(0, 0, state.view(0))
    (row,) = showdown_rows(view.state, view.position)
    assert row.actor == 1
    assert row.strength == hand_strength(NOLIMIT, cards_from_string("7h2c"), view.state.visible_board())
    assert row.y == strength_bin(row.strength)
    assert row.x == {
        "pot": 2.0,
        "bets_actor": 0,
        "bets_other": 0,
        "late_bets_actor": 0,
        "last_actor": 1,
        "last_other": 1,
        "button": 1,
        "face_cards": 1,
        "suited": 2,
        "connected": 4,
        "end_stage": 3,
    }
    assert list(row.x) == list(SHOWDOWN_FEATURES)
    assert showdown_context(state, 0)["button"] == 0


def test_hand_strength_fixed_points() -> None:
    board = cards_from_string("AsAcQd3h7s")
    assert hand_strength(NOLIMIT, cards_from_string("AhAd"), board) == 1.0  # quads, no straight flush possible
    royal = cards_from_string("AsKsQsJsTs")
    assert hand_strength(NOLIMIT, cards_from_string("2c3d"), royal) == 0.5  # the board plays for all
    assert strength_bin(0.0) == 0 and strength_bin(0.5) == 5 and strength_bin(1.0) == 9


def test_board_texture() -> None:
    assert board_texture(()) == (0, 0, 0)
    assert board_texture(cards_from_string("Ah2h3c")) == (1, 2, 3)  # the ace plays low
    assert board_texture(cards_from_string("KsQsJsTs9s")) == (3, 5, 5)
    assert board_texture(cards_from_string("2c7dKh")) == (1, 1, 1)


def test_equity_vs_random_is_seeded_and_sensible() -> None:
    hole = cards_from_string("AhAd")
    first = sampled_equity_vs_random(NOLIMIT, hole, (), random.Random(3), 200)
    assert first == sampled_equity_vs_random(NOLIMIT, hole, (), random.Random(3), 200)
    assert 0.75 < first < 0.95


def test_quantise_is_idempotent_and_keeps_the_legal_mask() -> None:
    rng = random.Random(2)
    for _ in range(30):
        state = play_random_hand(NOLIMIT, rng)
        for row in view_rows(MatchState(0, 0, state.view(0)))[0]:
            key = quantise(row.x, ACTION_FEATURES)
            assert key[-1] == row.x[LEGAL_KEY]
            assert quantise(dict(zip(ACTION_FEATURES, key)) | {LEGAL_KEY: key[-1]}, ACTION_FEATURES) == key
    assert quantise({"pot": 3.0}, ("pot",)) == (2 ** (round(4 * 1.58496) / 4), -1)
