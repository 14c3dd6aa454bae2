"""The action abstraction: class thresholds, legal classes and their representative actions."""

from __future__ import annotations

import math
import random

import pytest

from pokerbot.models.action_classes import (
    HALF_POT_THRESHOLD,
    LIMIT_RAISE_CLASS,
    ActionClass,
    class_actions,
    classify,
    classify_raise,
    legal_classes,
    legal_mask,
    mask_classes,
)
from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from tests.conftest import random_action

NOLIMIT = load_game("holdem-nolimit-2p")
LIMIT = load_game("holdem-limit-2p")


def test_thresholds_are_geometric_means_of_the_class_sizes() -> None:
    assert HALF_POT_THRESHOLD == pytest.approx(math.sqrt(0.5))
    # Pot 1000, nothing to call, bet level 500, stack 20000: pot-bet 1000, all-in 19500 more.
    args = dict(max_spent=500, pot=1000, call_amount=0, stack=20000)
    assert classify_raise(500 + 100, **args) is ActionClass.HALF_POT  # a min bet is half-pot
    assert classify_raise(500 + 707, **args) is ActionClass.HALF_POT
    assert classify_raise(500 + 708, **args) is ActionClass.POT
    border = math.sqrt(1000 * 19500)  # 4415.9
    assert classify_raise(500 + 4415, **args) is ActionClass.POT
    assert classify_raise(500 + 4416, **args) is ActionClass.ALL_IN
    assert classify_raise(20000, **args) is ActionClass.ALL_IN
    assert border == pytest.approx(4415.9, abs=0.1)


def test_raise_size_counts_the_call_in_the_pot() -> None:
    # Facing a bet of 300 into 600 (pot now 900): the pot raise is call 300 + 1200 more.
    args = dict(max_spent=600, pot=900, call_amount=300, stack=20000)
    assert classify_raise(600 + 1200, **args) is ActionClass.POT
    assert classify_raise(600 + 600, **args) is ActionClass.HALF_POT
    assert classify_raise(600 + 848, **args) is ActionClass.HALF_POT  # 0.7067 pots
    assert classify_raise(600 + 849, **args) is ActionClass.POT  # 0.7075 pots


def test_when_the_pot_raise_is_all_in_the_pot_class_vanishes() -> None:
    # Pot 1000, 800 behind: a raise of 0.71 pots or more is all-in.
    args = dict(max_spent=500, pot=1000, call_amount=0, stack=1300)
    assert classify_raise(500 + 707, **args) is ActionClass.HALF_POT
    assert classify_raise(500 + 708, **args) is ActionClass.ALL_IN


def test_first_decision_of_no_limit_holdem() -> None:
    state = HandState(NOLIMIT)  # the small blind: 50 to call into 150
    actions = class_actions(state)
    assert list(actions) == [
        ActionClass.FOLD,
        ActionClass.CALL,
        ActionClass.HALF_POT,
        ActionClass.POT,
        ActionClass.ALL_IN,
    ]
    assert actions[ActionClass.FOLD] == FOLD and actions[ActionClass.CALL] == CALL
    assert actions[ActionClass.HALF_POT] == Action.raise_to(200)  # 100 + 0.5 * 200
    assert actions[ActionClass.POT] == Action.raise_to(300)
    assert actions[ActionClass.ALL_IN] == Action.raise_to(20000)
    assert legal_mask(state) == 0b111101
    assert mask_classes(0b111101) == legal_classes(state)


def test_limit_raises_are_one_class() -> None:
    state = HandState(LIMIT)
    assert class_actions(state) == {ActionClass.FOLD: FOLD, ActionClass.CALL: CALL, LIMIT_RAISE_CLASS: LIMIT_RAISE}
    assert classify(state, LIMIT_RAISE) is LIMIT_RAISE_CLASS
    state.apply(CALL)
    assert legal_classes(state) == (ActionClass.CHECK, LIMIT_RAISE_CLASS)
    assert classify(state, CALL) is ActionClass.CHECK


@pytest.mark.parametrize("game_name", ["holdem-nolimit-2p", "holdem-limit-2p", "holdem-nolimit-3p", "leduc"])
def test_every_legal_action_maps_to_a_legal_class_and_back(game_name: str) -> None:
    game = load_game(game_name)
    rng = random.Random(5)
    for _ in range(150):
        state = HandState(game)
        while not state.finished:
            actions = class_actions(state)
            for action_class, action in actions.items():
                assert state.can(action)
                assert classify(state, action) is action_class
            action = random_action(state, rng)
            assert classify(state, action) in actions
            state.apply(action)
