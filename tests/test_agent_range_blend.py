"""ModelWinModel's blend of the learnt showdown model with the range the opponent's raises imply."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from pokerbot.models.features import showdown_context
from pokerbot.models.handstrength import board_texture
from pokerbot.models.hoeffding import HandStrengthModel
from pokerbot.models.prior import models_for_game
from pokerbot.protocol.actions import CALL, Action
from pokerbot.protocol.analysis.strength import hand_strength
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.miximax.equity import ModelWinModel

GAME = load_game("holdem-nolimit-2p")  # position 0 is the big blind, position 1 acts first pre-flop
ME, OPPONENT = 0, 1
HOLE = cards_from_string("AhKh")
BOARD = cards_from_string("Ad7c2c5d9s")  # top pair, top kicker: strength 864 / 990
LEARNED = 0.7


class FakeStrengthModel:
    """``prob_beats`` fixed at 1 - LEARNED; records the contexts it was asked about."""

    def __init__(self, observations: int = 0) -> None:
        self.observations = observations
        self.contexts: list[dict[str, float]] = []

    def prob_beats(self, x: Mapping[str, float], strength: float) -> float:
        self.contexts.append(dict(x))
        return 1.0 - LEARNED


def hand(*actions: Action) -> HandState:
    state = HandState(GAME, [HOLE, None], BOARD)
    for action in actions:
        state.apply(action)
    return state


CHECKS = (CALL, CALL)
NO_RAISE = hand(CALL, CALL, *CHECKS, *CHECKS, *CHECKS)
"""Limp, check to the end."""
ONE_RAISE = hand(Action.raise_to(300), CALL, *CHECKS, *CHECKS, *CHECKS)
"""The opponent (button) raises pre-flop; checked down."""
TWO_RAISES = hand(Action.raise_to(300), CALL, CALL, Action.raise_to(600), CALL, *CHECKS, *CHECKS)
"""... and bets the flop after our check."""
THREE_RAISES = hand(
    Action.raise_to(300), CALL, CALL, Action.raise_to(600), CALL, CALL, Action.raise_to(1200), CALL, *CHECKS
)
"""... and the turn."""
WE_RAISE = hand(CALL, Action.raise_to(300), CALL, Action.raise_to(600), CALL, *CHECKS, *CHECKS)
"""Only we raise (pre-flop and on the flop); the opponent calls."""


def strength() -> float:
    return ModelWinModel(GAME, HOLE, HandStrengthModel(), OPPONENT).equity(BOARD)


def implied(raises: int) -> float:
    share = 0.5**raises
    return min(1.0, max(0.0, (strength() - (1 - share)) / share))


def win(state: HandState, model: object, range_showdowns: float, range_shrink: float = 0.5) -> float:
    win_model = ModelWinModel(
        GAME,
        HOLE,
        model,
        OPPONENT,  # type: ignore[arg-type]
        range_showdowns=range_showdowns,
        range_shrink=range_shrink,
    )
    return win_model.win_probability(state, BOARD)


def test_the_hands_are_what_they_say() -> None:
    for state in (NO_RAISE, ONE_RAISE, TWO_RAISES, THREE_RAISES, WE_RAISE):
        assert state.finished and state.showdown()
    expected = {NO_RAISE: (0, 0), ONE_RAISE: (1, 0), TWO_RAISES: (2, 0), THREE_RAISES: (3, 0), WE_RAISE: (0, 2)}
    for state, (theirs, ours) in expected.items():
        context = showdown_context(state, OPPONENT)
        assert (context["bets_actor"], context["bets_other"]) == (theirs, ours)


def test_strength_is_the_percentile_on_the_river() -> None:
    assert hand_strength(GAME, HOLE, BOARD) == pytest.approx(864 / 990)
    assert strength() == pytest.approx(864 / 990, abs=1e-6)


def test_implied_values_by_hand() -> None:
    s = 864 / 990
    assert implied(1) == pytest.approx(2 * s - 1, abs=1e-5)  # 0.745
    assert implied(2) == pytest.approx(4 * s - 3, abs=1e-5)  # 0.491
    assert implied(3) == 0.0  # s is below the top eighth: clipped


@pytest.mark.parametrize("state", [NO_RAISE, ONE_RAISE, TWO_RAISES, THREE_RAISES, WE_RAISE])
def test_without_range_showdowns_the_model_is_used_alone(state: HandState) -> None:
    assert win(state, FakeStrengthModel(), 0.0) == pytest.approx(LEARNED)


def test_without_range_showdowns_it_is_one_minus_prob_beats_of_a_real_model() -> None:
    model = models_for_game(GAME)[1]  # the shipped prior
    assert model.observations == 0
    context = dict(showdown_context(TWO_RAISES, OPPONENT))
    context["face_cards"], context["suited"], context["connected"] = board_texture(BOARD)
    expected = 1.0 - model.prob_beats(context, strength())
    assert win(TWO_RAISES, model, 0.0) == pytest.approx(expected, abs=1e-12)
    # a new model with range showdowns on takes the implied value instead
    assert win(TWO_RAISES, model, 5.0) == pytest.approx(implied(2), abs=1e-12)
    assert abs(expected - implied(2)) > 1e-3  # the two tests above tell the two apart


@pytest.mark.parametrize(("state", "raises"), [(ONE_RAISE, 1), (TWO_RAISES, 2), (THREE_RAISES, 3)])
def test_a_new_model_gives_the_implied_value(state: HandState, raises: int) -> None:
    model = FakeStrengthModel(observations=0)
    assert win(state, model, 10.0) == pytest.approx(implied(raises), abs=1e-12)
    assert model.contexts and model.contexts[-1]["bets_actor"] == raises


def test_the_blend_needs_opponent_raises() -> None:
    assert win(NO_RAISE, FakeStrengthModel(), 10.0) == pytest.approx(LEARNED)
    # our own raises do not narrow the opponent's range
    assert win(WE_RAISE, FakeStrengthModel(), 10.0) == pytest.approx(LEARNED)


@pytest.mark.parametrize(("seen", "weight_of_range"), [(0, 1.0), (10, 0.5), (30, 0.25), (90, 0.1)])
def test_weights_follow_the_learnt_showdowns(seen: int, weight_of_range: float) -> None:
    # r = 10 range showdowns: the range weighs r / (n + r), the model n / (n + r)
    expected = (1 - weight_of_range) * LEARNED + weight_of_range * implied(1)
    assert win(ONE_RAISE, FakeStrengthModel(observations=seen), 10.0) == pytest.approx(expected, abs=1e-12)


def test_a_real_model_with_observations_blends() -> None:
    model = HandStrengthModel()  # uniform prediction: P(win) from the model alone is the strength
    learned = win(TWO_RAISES, model, 0.0)
    assert learned == pytest.approx(strength(), abs=1e-9)
    model.observations = 3
    expected = 3 / (3 + 2) * learned + 2 / (3 + 2) * implied(2)
    assert win(TWO_RAISES, model, 2.0) == pytest.approx(expected, abs=1e-12)


def test_range_shrink_is_a_setting() -> None:
    value = win(ONE_RAISE, FakeStrengthModel(), 1.0, range_shrink=0.25)
    assert value == pytest.approx(max(0.0, (strength() - 0.75) / 0.25), abs=1e-12)


def test_calls_of_raises_narrow_the_range_when_call_shrink_is_set() -> None:
    fake = FakeStrengthModel()
    model = ModelWinModel(GAME, HOLE, fake, OPPONENT, range_showdowns=10.0, call_shrink=0.75)  # type: ignore[arg-type]
    # WE_RAISE: the opponent limps (a call of the blind, not of a raise: nothing), then calls
    # our pre-flop raise and our flop bet: 0.75 ** 2 of its range is left
    assert model.range_share(WE_RAISE) == pytest.approx(0.75**2)
    assert model.range_share(NO_RAISE) == 1.0
    # TWO_RAISES: two raises of its own (0.5 ** 2), no call of ours
    assert model.range_share(TWO_RAISES) == pytest.approx(0.25)
    share = 0.75**2
    s = strength()
    expected = min(1.0, max(0.0, (s - (1.0 - share)) / share))
    assert model.win_probability(WE_RAISE, BOARD) == pytest.approx(expected)


def test_an_action_model_sets_how_much_of_the_range_each_action_keeps() -> None:
    from pokerbot.models.action_classes import ActionClass

    asked: list[str] = []

    def predict(state: HandState) -> dict[ActionClass, float]:
        asked.append(state.betting_string())
        return {ActionClass.FOLD: 0.2, ActionClass.CALL: 0.4, ActionClass.POT: 0.3, ActionClass.ALL_IN: 0.1}

    model = ModelWinModel(
        GAME,
        HOLE,
        FakeStrengthModel(),
        OPPONENT,
        range_showdowns=10.0,  # type: ignore[arg-type]
        action_model=predict,
    )
    # ONE_RAISE: the opponent opens to 300 (a pot-class raise): it keeps POT + ALL_IN = 0.4
    assert model.range_share(ONE_RAISE) == pytest.approx(0.4)
    assert asked == [""]  # asked at the state before its raise
    # WE_RAISE: it calls our pre-flop raise and our flop bet, keeping 1 - P(fold) = 0.8 each time
    assert model.range_share(WE_RAISE) == pytest.approx(0.8**2)

    def always_raises(state: HandState) -> dict[ActionClass, float]:
        return {ActionClass.ALL_IN: 1.0}

    maniac = ModelWinModel(
        GAME,
        HOLE,
        FakeStrengthModel(),
        OPPONENT,
        range_showdowns=10.0,  # type: ignore[arg-type]
        action_model=always_raises,
    )
    assert maniac.range_share(THREE_RAISES) == 1.0  # a player who always raises shows nothing by raising
    assert maniac.win_probability(THREE_RAISES, BOARD) == pytest.approx(LEARNED)  # so no blend

    def never_raises(state: HandState) -> dict[ActionClass, float]:
        return {ActionClass.CALL: 1.0}

    floor = ModelWinModel(
        GAME,
        HOLE,
        FakeStrengthModel(),
        OPPONENT,
        range_showdowns=10.0,  # type: ignore[arg-type]
        action_model=never_raises,
        min_keep=0.05,
    )
    assert floor.range_share(ONE_RAISE) == pytest.approx(0.05)  # at least min_keep
