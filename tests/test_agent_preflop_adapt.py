"""The pre-flop adaptations to the opponent model (strategies.miximax.preflop_policy)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from pokerbot.models.action_classes import ActionClass
from pokerbot.protocol.actions import CALL, Action
from pokerbot.protocol.analysis.preflop import class_combos
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.miximax.preflop import load_chart
from pokerbot.strategies.miximax.preflop_policy import (
    COMBINATIONS,
    PreflopAdaptation,
    assumed_share,
    equity_against_top,
    model_call,
    raise_probability,
    steal_action,
)

GAME = load_game("holdem-nolimit-2p")  # blinds 100 (position 0) / 50 (position 1), stacks 20000
CHART = load_chart()
SETTINGS = PreflopAdaptation()
BUTTON, BIG_BLIND = 1, 0


class FakeModel:
    """A ``predict`` callable returning fixed probabilities; it records the states it was asked about."""

    def __init__(self, probabilities: Mapping[ActionClass, float]) -> None:
        self.probabilities = dict(probabilities)
        self.seen: list[str] = []

    def __call__(self, state: HandState) -> Mapping[ActionClass, float]:
        self.seen.append(state.betting_string())
        return self.probabilities


def fresh() -> HandState:
    return HandState(GAME)


def played(*actions: Action) -> HandState:
    state = fresh()
    for action in actions:
        state.apply(action)
    return state


def row_equity(label: str, against: str) -> float:
    return CHART.equity_matrix[CHART.index(label)][CHART.index(against)]


# ------------------------------------------------------------ equity_against_top
def test_chart_ranks_pairs_first() -> None:
    order = sorted(CHART.classes, key=lambda c: -CHART.equity_vs_random[CHART.index(c)])
    assert order[:3] == ["AA", "KK", "QQ"]
    assert [len(class_combos(c)) for c in ("AA", "AKs", "AKo")] == [6, 4, 12]
    assert sum(len(class_combos(c)) for c in CHART.classes) == COMBINATIONS == 1326


@pytest.mark.parametrize("label", ["72o", "AA", "JTs", "K9o"])
def test_whole_range_is_the_combination_weighted_row_mean(label: str) -> None:
    expected = sum(len(class_combos(c)) * row_equity(label, c) for c in CHART.classes) / 1326
    assert equity_against_top(CHART, label, 1.0) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("share", [1 / 1326, 6 / 1326, 0.0001])
def test_tiny_share_is_the_best_class_alone(share: float) -> None:
    assert equity_against_top(CHART, "72o", share) == pytest.approx(row_equity("72o", "AA"), abs=1e-9)
    assert equity_against_top(CHART, "AA", share) == pytest.approx(row_equity("AA", "AA"), abs=1e-9)


def test_last_class_is_taken_in_part() -> None:
    # 9 combinations: the 6 of AA and half the 6 of KK (not AKs, which comes second in chart order)
    expected = (6 * row_equity("72o", "AA") + 3 * row_equity("72o", "KK")) / 9
    assert equity_against_top(CHART, "72o", 9 / 1326) == pytest.approx(expected, abs=1e-9)
    # 12 combinations: AA and KK whole
    expected = (6 * row_equity("T9s", "AA") + 6 * row_equity("T9s", "KK")) / 12
    assert equity_against_top(CHART, "T9s", 12 / 1326) == pytest.approx(expected, abs=1e-9)
    # 20 combinations: AA, KK, QQ whole and 2 of JJ
    expected = (
        6 * row_equity("AKo", "AA")
        + 6 * row_equity("AKo", "KK")
        + 6 * row_equity("AKo", "QQ")
        + 2 * row_equity("AKo", "JJ")
    ) / 20
    assert equity_against_top(CHART, "AKo", 20 / 1326) == pytest.approx(expected, abs=1e-9)


def test_narrower_ranges_beat_a_weak_hand_more() -> None:
    values = [equity_against_top(CHART, "J7o", share) for share in (0.01, 0.1, 0.5, 1.0)]
    assert values == sorted(values)


@pytest.mark.parametrize("share", [0.0, -0.1, 1.0001, 2.0, float("nan")])
def test_share_out_of_range_is_refused(share: float) -> None:
    with pytest.raises(ValueError, match="share must be in"):
        equity_against_top(CHART, "AA", share)


# ------------------------------------------------------------------ assumed_share
@pytest.mark.parametrize(
    ("faced_bb", "expected"),
    [(0.5, 1.0), (1.0, 1.0), (1.5, 1.0), (2.0, 0.75), (3.0, 0.5), (30.0, 0.05), (200.0, 0.0075)],
)
def test_assumed_share(faced_bb: float, expected: float) -> None:
    assert assumed_share(faced_bb) == pytest.approx(expected)


def test_assumed_share_of_nothing_faced_is_everything() -> None:
    assert assumed_share(0.0) == 1.0


# ------------------------------------------------------------------- steal_action
def test_button_steals_when_the_fold_frequency_pays() -> None:
    state = fresh()
    me = state.current_player
    assert me == BUTTON and state.spent == [100, 50] and state.pot == 150
    # raise to 300: risk 250 chips to win 150 -> break-even 250 / 400 = 0.625, plus margin 0.05
    predict = FakeModel({ActionClass.FOLD: 0.68, ActionClass.CALL: 0.32})
    assert steal_action(state, me, 300, predict, SETTINGS) == Action.raise_to(300)
    assert predict.seen and set(predict.seen) == {"r300"}  # asked about the opponent's reply
    predict = FakeModel({ActionClass.FOLD: 0.67, ActionClass.CALL: 0.33})
    assert steal_action(state, me, 300, predict, SETTINGS) is None
    assert state.betting_string() == "" and state.current_player == BUTTON  # state untouched


def test_steal_threshold_is_exact() -> None:
    state = fresh()
    threshold = 250 / (250 + 150) + SETTINGS.steal_margin
    above = FakeModel({ActionClass.FOLD: threshold + 1e-9, ActionClass.CALL: 1 - threshold})
    below = FakeModel({ActionClass.FOLD: threshold - 1e-9, ActionClass.CALL: 1 - threshold})
    assert steal_action(state, BUTTON, 300, above, SETTINGS) == Action.raise_to(300)
    assert steal_action(state, BUTTON, 300, below, SETTINGS) is None


def test_steal_normalises_the_prediction() -> None:
    state = fresh()
    # fold share 1.36 / 2 = 0.68 >= 0.675; a raw 0.5 fold weight out of 0.7 is 0.714
    assert steal_action(
        state, BUTTON, 300, FakeModel({ActionClass.FOLD: 1.36, ActionClass.CALL: 0.64}), SETTINGS
    ) == Action.raise_to(300)
    assert steal_action(
        state, BUTTON, 300, FakeModel({ActionClass.FOLD: 0.5, ActionClass.CALL: 0.2}), SETTINGS
    ) == Action.raise_to(300)
    assert steal_action(state, BUTTON, 300, FakeModel({ActionClass.FOLD: 0.6, ActionClass.CALL: 0.4}), SETTINGS) is None


def test_steal_size_is_clamped_and_the_threshold_uses_the_clamped_size() -> None:
    state = fresh()
    # raise to 150 is below the minimum 200: clamped, risk 150, pot 150 -> 0.5 + 0.05
    assert steal_action(
        state, BUTTON, 150, FakeModel({ActionClass.FOLD: 0.56, ActionClass.CALL: 0.44}), SETTINGS
    ) == Action.raise_to(200)
    assert (
        steal_action(state, BUTTON, 150, FakeModel({ActionClass.FOLD: 0.54, ActionClass.CALL: 0.46}), SETTINGS) is None
    )
    # above the stack: all-in for 20000, risk 19950 vs pot 150: even a sure fold does not pay the margin
    predict = FakeModel({ActionClass.FOLD: 1.0})
    assert steal_action(state, BUTTON, 10**6, predict, SETTINGS) is None
    assert set(predict.seen) == {"r20000"}


def test_big_blind_steals_after_a_limp() -> None:
    state = played(CALL)
    assert state.current_player == BIG_BLIND and state.pot == 200
    # raise to 300: risk 200, pot 200 -> 0.5 + 0.05
    assert steal_action(
        state, BIG_BLIND, 300, FakeModel({ActionClass.FOLD: 0.56, ActionClass.CALL: 0.44}), SETTINGS
    ) == Action.raise_to(300)
    assert (
        steal_action(state, BIG_BLIND, 300, FakeModel({ActionClass.FOLD: 0.54, ActionClass.CALL: 0.46}), SETTINGS)
        is None
    )


def test_no_steal_when_switched_off() -> None:
    predict = FakeModel({ActionClass.FOLD: 1.0})
    assert steal_action(fresh(), BUTTON, 300, predict, PreflopAdaptation(steal=False)) is None
    assert predict.seen == []


def test_steal_margin_is_a_setting() -> None:
    predict = FakeModel({ActionClass.FOLD: 0.66, ActionClass.CALL: 0.34})
    assert steal_action(fresh(), BUTTON, 300, predict, SETTINGS) is None
    assert steal_action(fresh(), BUTTON, 300, predict, PreflopAdaptation(steal_margin=0.0)) == Action.raise_to(300)


# -------------------------------------------------------------- raise_probability
def test_raise_probability_is_none_without_a_last_raise() -> None:
    predict = FakeModel({ActionClass.POT: 1.0})
    assert raise_probability(fresh(), predict) is None
    assert raise_probability(played(CALL), predict) is None
    assert raise_probability(played(Action.raise_to(300), CALL, CALL), predict) is None  # flop, checked
    assert predict.seen == []


def test_raise_probability_sums_the_classes_at_least_as_big_before_the_raise() -> None:
    state = played(CALL, Action.raise_to(400))
    assert state.betting_string() == "cr400" and state.current_player == BUTTON
    predict = FakeModel(
        {
            ActionClass.CHECK: 0.5,
            ActionClass.HALF_POT: 0.1,
            ActionClass.POT: 0.25,
            ActionClass.ALL_IN: 0.15,
        }
    )
    # raising to 400 after a limp (pot 200) is a pot-class raise: POT and ALL_IN count, HALF_POT not
    assert raise_probability(state, predict) == pytest.approx(0.4)
    assert predict.seen == ["c"]  # the state before the big blind's raise
    assert state.betting_string() == "cr400"


def test_raise_probability_normalises() -> None:
    state = played(Action.raise_to(300))
    predict = FakeModel({ActionClass.FOLD: 1.0, ActionClass.CALL: 2.0, ActionClass.HALF_POT: 0.5, ActionClass.POT: 0.5})
    assert raise_probability(state, predict) == pytest.approx(0.5 / 4.0)  # only POT is as big as r300
    assert predict.seen == [""]


def test_raise_probability_rebuilds_a_longer_history() -> None:
    state = played(Action.raise_to(300), Action.raise_to(900), Action.raise_to(2700))
    seen_states: list[HandState] = []

    def predict(before: HandState) -> Mapping[ActionClass, float]:
        seen_states.append(before)
        return {ActionClass.CALL: 0.7, ActionClass.ALL_IN: 0.3}

    assert raise_probability(state, predict) == pytest.approx(0.3)
    (before,) = seen_states
    assert before.betting_string() == "r300r900"
    assert before.current_player == BUTTON and before.spent == [900, 300]


# -------------------------------------------------------------------- model_call
def open_to(size: int) -> HandState:
    """The button raised to ``size``; the big blind (position 0) is to act."""
    state = played(Action.raise_to(size))
    assert state.current_player == BIG_BLIND
    return state


def always_raises() -> FakeModel:
    """Raises every time, as big as possible (so at least as big as any raise it made)."""
    return FakeModel({ActionClass.ALL_IN: 1.0})


def nit() -> FakeModel:
    return FakeModel({ActionClass.FOLD: 0.999, ActionClass.POT: 0.001})


def test_fold_becomes_call_against_a_wide_raiser() -> None:
    state = open_to(300)  # 3 bb: the chart assumed the top half; to call 200 into 400 -> price 1/3
    assert assumed_share(3.0) == 0.5
    equity = equity_against_top(CHART, "T5o", 1.0)
    assert 0.85 * equity > 1 / 3 + 0.02
    predict = always_raises()
    assert model_call(state, BIG_BLIND, "T5o", CHART, "f", 3.0, predict, SETTINGS) == "c"
    assert predict.seen == [""]


def test_fold_stays_fold_when_the_range_is_wide_but_the_hand_too_weak() -> None:
    assert 0.85 * equity_against_top(CHART, "72o", 1.0) < 1 / 3 - 0.02
    assert model_call(open_to(300), BIG_BLIND, "72o", CHART, "f", 3.0, always_raises(), SETTINGS) == "f"


def test_fold_stays_when_the_model_is_not_wider_than_the_chart() -> None:
    # q = 0.5 is exactly the assumed share: the chart's answer stands, even with aces
    predict = FakeModel({ActionClass.FOLD: 0.5, ActionClass.POT: 0.5})
    assert model_call(open_to(300), BIG_BLIND, "AA", CHART, "f", 3.0, predict, SETTINGS) == "f"


def test_call_becomes_fold_against_a_nit() -> None:
    state = open_to(300)
    # q = 0.001: the top 1.3 combinations, aces only
    assert 0.85 * row_equity("K7o", "AA") < 1 / 3
    assert model_call(state, BIG_BLIND, "K7o", CHART, "c", 3.0, nit(), SETTINGS) == "f"
    assert model_call(state, BIG_BLIND, "KK", CHART, "c", 3.0, nit(), SETTINGS) == "f"
    # aces split with aces: 0.85 * 0.5 > 1/3
    assert model_call(state, BIG_BLIND, "AA", CHART, "c", 3.0, nit(), SETTINGS) == "c"


def test_call_stays_call_against_a_wider_raiser() -> None:
    assert model_call(open_to(300), BIG_BLIND, "72o", CHART, "c", 3.0, always_raises(), SETTINGS) == "c"


@pytest.mark.parametrize("code", ["r", "a"])
def test_raises_are_not_re_decided(code: str) -> None:
    for predict in (always_raises(), nit()):
        assert model_call(open_to(300), BIG_BLIND, "72o", CHART, code, 3.0, predict, SETTINGS) == code
        assert predict.seen == []


def test_widening_can_be_switched_off() -> None:
    settings = PreflopAdaptation(widen=False)
    assert model_call(open_to(300), BIG_BLIND, "T5o", CHART, "f", 3.0, always_raises(), settings) == "f"
    assert model_call(open_to(300), BIG_BLIND, "K7o", CHART, "c", 3.0, nit(), settings) == "c"


def test_no_raise_to_face_leaves_the_code() -> None:
    state = fresh()  # the button faces only the big blind: the last action is no raise
    assert model_call(state, BUTTON, "T5o", CHART, "f", 2.0, always_raises(), SETTINGS) == "f"


def test_a_call_that_commits_a_third_of_the_stack_is_all_in() -> None:
    state = open_to(8000)  # 80 bb of 200: to call 7900 into 8100 -> price 7900 / 16000
    price = 7900 / 16000
    assert 0.85 * equity_against_top(CHART, "AKo", 1.0) > price + 0.02
    assert model_call(state, BIG_BLIND, "AKo", CHART, "f", 80.0, always_raises(), SETTINGS) == "a"
    # K9o's equity, discounted, falls short of the price
    assert 0.85 * equity_against_top(CHART, "K9o", 1.0) < price
    assert model_call(state, BIG_BLIND, "K9o", CHART, "f", 80.0, always_raises(), SETTINGS) == "f"


def test_facing_all_in_the_call_factor_is_not_applied() -> None:
    state = open_to(20000)
    assert state.max_spent == GAME.stacks[BIG_BLIND]
    price = 19900 / 40000
    equity = equity_against_top(CHART, "A2o", 1.0)
    assert 0.85 * equity < price < equity  # a discounted call would fold
    assert model_call(state, BIG_BLIND, "A2o", CHART, "f", 200.0, always_raises(), SETTINGS) == "a"
    assert equity_against_top(CHART, "93o", 1.0) < price
    assert model_call(state, BIG_BLIND, "93o", CHART, "f", 200.0, always_raises(), SETTINGS) == "f"


def test_the_call_factor_is_a_setting() -> None:
    state = open_to(300)
    # T5o calls with factor 0.85; with factor 0.7 its discounted equity is below 1/3
    assert 0.7 * equity_against_top(CHART, "T5o", 1.0) < 1 / 3
    settings = PreflopAdaptation(call_factor=0.7)
    assert model_call(state, BIG_BLIND, "T5o", CHART, "f", 3.0, always_raises(), settings) == "f"
