"""The push-fold chart of 52-card hold'em, derived from a rule (never typed by hand).

Rule, in two parts:

1. **Hand order.** The 169 starting-hand classes (``AA``, ``AKs``, ``AKo``, ...) are ranked by
   their pre-flop all-in equity against one uniformly random hand
   (:func:`pokerbot.protocol.analysis.preflop.preflop_class_equity`, the shipped table). Ties
   in equity are broken by the class name.
2. **Width.** At an effective stack of ``S`` big blinds the top fraction
   ``push_fraction(S) = clamp(0.58 * (S / 10) ** -0.65, MIN_PUSH_FRACTION, 1)`` of all 1326
   combinations is pushed, counting combinations (6 per pair, 4 per suited, 12 per offsuit
   class). The curve roughly follows the width of heads-up Nash shoving ranges (about 58 % of
   hands at 10 bb, 37 % at 20 bb, everything below about 4 bb) and never falls below
   :data:`MIN_PUSH_FRACTION`, so deep or unlimited stacks still push the premium hands.
   A class is pushed when the combinations ranked strictly above it are fewer than that
   fraction, so the chart is monotone: a class pushed at some stack is pushed at every
   smaller stack.

:func:`push_fold_chart` memoises the chart (a pure function of the table and constants).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from pokerbot.protocol.analysis.preflop import combos_of, preflop_class_equity

PUSH_FRACTION_AT_10BB = 0.58
PUSH_FRACTION_EXPONENT = 0.65
MIN_PUSH_FRACTION = 0.05
"""The narrowest chart: the top 5 % of combinations, whatever the stack depth."""
TOTAL_COMBOS = 1326
PUSH_ALL_BELOW_BB = 10.0 * PUSH_FRACTION_AT_10BB ** (1.0 / PUSH_FRACTION_EXPONENT)
"""Effective stack (big blinds, about 4.3) at or below which every hand is pushed."""


def push_fraction(stack_bb: float) -> float:
    """The fraction of all starting-hand combinations pushed at ``stack_bb`` big blinds
    of effective stack (non-increasing in ``stack_bb``; see the module docstring)."""
    if stack_bb <= PUSH_ALL_BELOW_BB:
        return 1.0
    width = PUSH_FRACTION_AT_10BB * (stack_bb / 10.0) ** -PUSH_FRACTION_EXPONENT
    return max(MIN_PUSH_FRACTION, min(1.0, width))


@dataclass(frozen=True)
class PushFoldChart:
    """Starting-hand classes best first, with their equities and the share of combinations
    ranked above each (a fraction of the 1326)."""

    ranking: tuple[str, ...]
    equity: Mapping[str, float]
    share_above: Mapping[str, float]

    def pushes(self, label: str, stack_bb: float) -> bool:
        """True when class ``label`` is pushed at ``stack_bb`` big blinds of effective stack."""
        return self.share_above[label] < push_fraction(stack_bb)

    def pushed(self, stack_bb: float) -> list[str]:
        """The classes pushed at ``stack_bb`` big blinds, best first."""
        return [label for label in self.ranking if self.pushes(label, stack_bb)]


@cache
def push_fold_chart() -> PushFoldChart:
    """The chart (computed once per process, deterministic; see the module docstring)."""
    equity_by_class = preflop_class_equity()
    ranking = tuple(sorted(equity_by_class, key=lambda label: (-equity_by_class[label], label)))
    share_above: dict[str, float] = {}
    above = 0
    for label in ranking:
        share_above[label] = above / TOTAL_COMBOS
        above += combos_of(label)
    return PushFoldChart(ranking, equity_by_class, MappingProxyType(share_above))
