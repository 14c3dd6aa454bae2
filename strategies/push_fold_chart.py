"""The push-fold chart of 52-card hold'em, derived from a rule (never typed by hand).

Rule, in two parts:

1. **Hand order.** The 169 starting-hand classes (``AA``, ``AKs``, ``AKo``, ...) are ranked by
   their pre-flop all-in equity against one uniformly random hand, estimated with eval7's
   Monte Carlo (:data:`EQUITY_ITERATIONS` boards per combination, all 1326 combinations,
   averaged per class) from the fixed seed :data:`EQUITY_SEED`, so the order is the same on
   every run. Ties in equity are broken by the class name.
2. **Width.** At an effective stack of ``S`` big blinds the top fraction
   ``push_fraction(S) = clamp(0.58 * (S / 10) ** -0.65, MIN_PUSH_FRACTION, 1)`` of all 1326
   combinations is pushed, counting combinations (6 per pair, 4 per suited, 12 per offsuit
   class). The curve roughly follows the width of heads-up Nash shoving ranges (about 58 % of
   hands at 10 bb, 37 % at 20 bb, everything below about 4 bb) and never falls below
   :data:`MIN_PUSH_FRACTION`, so deep or unlimited stacks still push the premium hands.
   A class is pushed when the combinations ranked strictly above it are fewer than that
   fraction, so the chart is monotone: a class pushed at some stack is pushed at every
   smaller stack.

Computing the order takes about 0.7 seconds; :func:`push_fold_chart` memoises it
(a pure function of constants). It seeds eval7's own random generator, which nothing else in
pokerbot uses.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

import eval7
import eval7.xorshift_rand

from pokerbot.protocol.cards import RANK_CHARS, Card, rank_of, suit_of

EQUITY_ITERATIONS = 8000
"""Monte Carlo boards per hole-card combination when ranking the classes."""
EQUITY_SEED = 1
"""Seed of eval7's generator for the equity estimates (fixes the hand order)."""
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


def hand_class(cards: Sequence[Card]) -> str:
    """The starting-hand class of two hole cards: ``AA``, ``AKs`` or ``AKo`` (high rank first)."""
    first, second = sorted(cards, key=rank_of, reverse=True)
    high, low = RANK_CHARS[rank_of(first)], RANK_CHARS[rank_of(second)]
    if high == low:
        return high + low
    return high + low + ("s" if suit_of(first) == suit_of(second) else "o")


def combos_of(label: str) -> int:
    """Hole-card combinations in a class: 6 for a pair, 4 suited, 12 offsuit."""
    return 6 if len(label) == 2 else 4 if label.endswith("s") else 12


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


def _eval7_class(hand: tuple[eval7.Card, eval7.Card]) -> str:
    return hand_class([card.rank * 4 + card.suit for card in hand])


@cache
def push_fold_chart() -> PushFoldChart:
    """The chart (computed once per process, deterministic; see the module docstring)."""
    deck = [eval7.Card(rank + suit) for rank in RANK_CHARS for suit in "cdhs"]
    combos = [(pair, 1.0) for pair in itertools.combinations(deck, 2)]
    eval7.xorshift_rand.seed(EQUITY_SEED)
    equities = eval7.py_all_hands_vs_range(combos, combos, [], EQUITY_ITERATIONS)
    sums: dict[str, float] = {}
    for hand, equity in equities.items():
        label = _eval7_class(hand)
        sums[label] = sums.get(label, 0.0) + equity
    equity_by_class = {label: total / combos_of(label) for label, total in sums.items()}
    ranking = tuple(sorted(equity_by_class, key=lambda label: (-equity_by_class[label], label)))
    share_above: dict[str, float] = {}
    above = 0
    for label in ranking:
        share_above[label] = above / TOTAL_COMBOS
        above += combos_of(label)
    return PushFoldChart(ranking, MappingProxyType(equity_by_class), MappingProxyType(share_above))
