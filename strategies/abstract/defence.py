"""Minimum defence: a blueprint that never folds more of its range than a bet's price allows.

A bet that adds ``b`` chips to a pot of ``P`` chips wins ``P`` when we fold and loses ``b``
when we call and it is a bluff: with any two cards it pays whenever we fold more than
``b / (P + b)`` of the holdings we may hold. An abstract equilibrium with coarse card
buckets folds too often to large bets (``docs/lbr.md``: where LBR takes its winnings), and
:class:`RangeDefence` closes that leak:

* **our range**: the weight of every holding given our own actions so far in the hand, the
  product of the policy's probabilities of those actions with that holding (its bucket at
  each decision; the pot-odds rule off the tree), over the holdings that use no board card;
* **the fold share**: facing a bet, the range's weighted probability of folding. When it
  exceeds ``b / (P + b)`` (``b`` what the opponent added with its last action, ``P + b`` the
  pot now), the strongest holdings the policy would fold (by effective hand strength on the
  current board) call instead, just enough of them to bring the share down to the price.

Nothing changes where the range folds little enough, nor for holdings weaker than the ones
that are moved: the policy's own mix is kept except for the fold mass of the strongest
folding holdings. The range is a function of the public betting only, so the adjusted
probabilities are a strategy (any holding can be asked, as best responses do); it is cached
per public state. Amounts are chips.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from pokerbot.protocol.actions import CALL, FOLD, Action
from pokerbot.protocol.analysis.holdings import HOLDING_INDEX, NUM_HOLDINGS
from pokerbot.protocol.cards import Card
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.abstract.ranges import PolicyRange, faces_fold

CACHED_STATES = 8
"""Public states whose defence is kept (a best response asks many holdings at one state)."""


class RangeDefence:
    """The minimum-defence adjustment of a no-limit abstract policy (module docstring)."""

    def __init__(self, ranges: PolicyRange) -> None:
        if ranges.translator is None:
            raise ValueError("the range defence is for no-limit policies (played through a translator)")
        self.ranges = ranges
        """The policy's range (:mod:`.ranges`): the undefended probabilities of every holding."""
        self._cache: dict[Hashable, np.ndarray | None] = {}

    def adjust(
        self,
        state: HandState,
        position: int,
        hand_number: int,
        hole: tuple[Card, ...],
        distribution: dict[Action, float],
    ) -> dict[Action, float]:
        """``distribution`` (the policy's, for ``hole``) with the defence applied."""
        fold = distribution.get(FOLD, 0.0)
        if fold <= 0.0 or not faces_fold(state):
            return distribution
        moved = self.moved_fraction(state, position, hand_number)
        if moved is None:
            return distribution
        share = float(moved[int(HOLDING_INDEX[hole[0], hole[1]])])
        if share <= 0.0:
            return distribution
        adjusted = dict(distribution)
        adjusted[FOLD] = fold * (1.0 - share)
        adjusted[CALL] = adjusted.get(CALL, 0.0) + fold * share
        return adjusted

    def moved_fraction(self, state: HandState, position: int, hand_number: int) -> np.ndarray | None:
        """Per holding, the fraction of its fold probability that calls instead (None: no
        change at this state)."""
        key = (hand_number, position, state.betting_string(), tuple(state.visible_board()))
        if key in self._cache:
            return self._cache[key]
        if len(self._cache) >= CACHED_STATES:
            self._cache.clear()
        result = self._cache[key] = self._moved_fraction(state, position, hand_number)
        return result

    # ------------------------------------------------------------------ internals
    def _moved_fraction(self, state: HandState, position: int, hand_number: int) -> np.ndarray | None:
        weights = self.range(state, position, hand_number)
        total = float(weights.sum())
        if total <= 0.0:
            return None
        folds = self.ranges.action_probabilities(state, position, hand_number, FOLD)
        mass = weights * folds
        price = self.price(state)
        excess = float(mass.sum()) - price * total
        if excess <= 1e-12 * total:
            return None
        strength = np.nan_to_num(self.ranges.abstraction.ehs_all(state.visible_board()), nan=-1.0)
        order = np.lexsort((np.arange(NUM_HOLDINGS), -strength))
        before = np.cumsum(mass[order]) - mass[order]
        moved_sorted = np.zeros(NUM_HOLDINGS)
        live = mass[order] > 0.0
        moved_sorted[live] = np.clip((excess - before[live]) / mass[order][live], 0.0, 1.0)
        moved = np.zeros(NUM_HOLDINGS)
        moved[order] = moved_sorted
        return moved

    def range(self, state: HandState, position: int, hand_number: int) -> np.ndarray:
        """The weight of every holding given ``position``'s actions so far in the hand (0 for
        holdings that use a visible board card): the undefended policy's reach."""
        return self.ranges.reach(state, position, hand_number)

    @staticmethod
    def price(state: HandState) -> float:
        """The most of the range that may fold: what the opponent added with its last action
        over the pot now."""
        history = state.history()
        if not history:  # the blinds: not a bet
            return 1.0
        actor = history[-1][1]
        replay = HandState(state.game)
        before = 0
        for _round, who, action in history:
            if who == actor:
                before = replay.spent[actor]
            replay.apply(action)
        added = state.spent[actor] - before
        return added / state.pot if state.pot > 0 else 0.0


__all__ = ["CACHED_STATES", "RangeDefence"]
