"""Pre-flop play adapted to the opponent model: steal more from folders, call wider against raisers.

The chart (:mod:`pokerbot.strategies.agent.preflop`) assumes a sensible opponent. Two rules change
its answer when the adapting action model says the opponent in front of us is not one; both
only ever turn a chart ``f`` (or a ``c`` for the steal) into something more active, and both
use the model's own predictions, so they switch on and off as the model learns:

**Steal.** When nobody has raised beyond the blinds and the chart would fold or just call,
raise anyway if the opponent folds to that raise often enough for a pure bluff to pay:
``P(fold) >= risk / (risk + pot) + steal_margin``, with ``risk`` the chips the raise adds and
``pot`` the chips in before it (the break-even fold frequency of a bet that always loses
when called; our hand's equity when called is a bonus the rule ignores).
``P(fold)`` is the model's prediction for the opponent's decision after our raise.

**Calls against the raising range the model sees.** Facing a raise, the chart assumed the
opponent raises only the top ``min(1, 1.5 / b)`` of hands for ``b`` big blinds put in. The
model's probability ``q`` that the opponent raises there at least as big as it did (by
action class, at the state before its raise) gives its range instead: the top ``q`` share of combinations,
ranked by equity
against a random hand. The chart's own call rule, ``call_factor x equity(our class vs that
range) >= to_call / (pot + to_call)``, is applied to that range: a chart fold becomes a call
(all-in when the raise has committed a third of our stack) against a wider raiser, a chart
call becomes a fold against a narrower one (a "nit"). A call that puts us all-in is not
discounted by ``call_factor`` (no play follows).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from pokerbot.models.abstraction import RAISE_CLASSES, ActionClass, classify
from pokerbot.protocol.actions import Action, ActionKind
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.agent.preflop import PreflopChart, class_combos

ActionModelFn = Callable[[HandState], Mapping[ActionClass, float]]

COMBINATIONS = 1326
"""Two-card combinations of a 52-card deck."""


@dataclass(frozen=True)
class PreflopAdaptation:
    """Settings of the two rules (module docstring). ``steal_margin`` is a probability."""

    steal: bool = True
    steal_margin: float = 0.05
    widen: bool = True
    call_factor: float = 0.85
    commit_share: float = 1 / 3


@cache
def _ranked(classes: tuple[str, ...], equity_vs_random: tuple[float, ...]) -> tuple[tuple[int, int], ...]:
    """(class index, combinations) by decreasing equity against a random hand."""
    order = sorted(range(len(classes)), key=lambda i: -equity_vs_random[i])
    return tuple((i, len(class_combos(classes[i]))) for i in order)


def equity_against_top(chart: PreflopChart, label: str, share: float) -> float:
    """All-in equity of class ``label`` against the top ``share`` (0..1] of combinations
    (ranked by equity against a random hand; the last class taken in part)."""
    if not 0.0 < share <= 1.0:
        raise ValueError(f"share must be in (0, 1], got {share}")
    mine = chart.index(label)
    wanted = share * COMBINATIONS
    total = weighted = 0.0
    for index, combos in _ranked(chart.classes, chart.equity_vs_random):
        take = min(float(combos), wanted - total)
        if take <= 0:
            break
        total += take
        weighted += take * chart.equity_matrix[mine][index]
    return weighted / total


def assumed_share(faced_bb: float) -> float:
    """The chart's assumed raising range for ``faced_bb`` big blinds put in (as a share)."""
    return min(1.0, 1.5 / max(faced_bb, 1e-9))


def steal_action(
    state: HandState, me: int, raise_to: int, predict: ActionModelFn, settings: PreflopAdaptation
) -> Action | None:
    """The raise to ``raise_to`` chips if the steal rule says the opponent folds enough, else None."""
    if not settings.steal:
        return None
    action = state.clamp(Action.raise_to(raise_to))
    risk = action.size - state.spent[me]
    pot = state.pot
    after = state.copy()
    after.apply(action)
    if after.finished or after.current_player is None:
        return None
    fold = predict(after).get(ActionClass.FOLD, 0.0)
    total = sum(predict(after).values()) or 1.0
    return action if fold / total >= risk / (risk + pot) + settings.steal_margin else None


def raise_probability(state: HandState, predict: ActionModelFn) -> float | None:
    """The model's probability that the opponent raises at least as big as it just did, at
    the state before its last action (None when the last action was not a raise).

    "At least as big" by action class (:func:`models.abstraction.classify`: half pot, pot,
    all-in): a 200-big-blind shove is made by the all-in part of a range, not by the share
    of hands that would open for three big blinds."""
    history = state.history()
    if not history or history[-1][2].kind is not ActionKind.RAISE:
        return None
    before = HandState(state.game, state.hole_cards, state.board_cards)
    for _round, _actor, action in history[:-1]:
        before.apply(action)
    made = classify(before, history[-1][2])
    probabilities = predict(before)
    total = sum(probabilities.values()) or 1.0
    return sum(probabilities.get(c, 0.0) for c in RAISE_CLASSES if c >= made) / total


def model_call(
    state: HandState,
    me: int,
    label: str,
    chart: PreflopChart,
    code: str,
    faced_bb: float,
    predict: ActionModelFn,
    settings: PreflopAdaptation,
) -> str:
    """The chart's ``code`` facing a raise, re-decided with the raising range the model implies.

    Only ``f`` and ``c`` are re-decided (raises stay): with ``q`` the model's raise
    probability, a fold becomes a call (or all-in) when ``q`` is wider than the chart assumed
    and the call rule passes against the top-``q`` range; a call becomes a fold when ``q`` is
    narrower and the rule fails. ``call_factor`` discounts equity for the disadvantage of
    playing on after the flop; a call that puts us all-in has no later play and is not discounted.
    """
    if not settings.widen or code not in "fc":
        return code
    q = raise_probability(state, predict)
    to_call = state.max_spent - state.spent[me]
    if q is None or to_call <= 0:
        return code
    assumed = assumed_share(faced_bb)
    if (code == "f" and q <= assumed) or (code == "c" and q >= assumed):
        return code
    stack = state.game.stacks[me]
    factor = 1.0 if state.max_spent >= stack else settings.call_factor
    equity = equity_against_top(chart, label, max(q, 1.0 / COMBINATIONS))
    if factor * equity < to_call / (state.pot + to_call):
        return "f"
    return "a" if code == "f" and state.max_spent >= settings.commit_share * stack else "c"


__all__ = [
    "PreflopAdaptation",
    "assumed_share",
    "equity_against_top",
    "model_call",
    "raise_probability",
    "steal_action",
]
