"""Minimum defence: a blueprint that never folds more of its range than a bet's price allows.

A bet that adds ``b`` chips to a pot of ``P`` chips wins ``P`` when we fold and loses ``b``
when we call and it is a bluff: with any two cards it pays whenever we fold more than
``b / (P + b)`` of the holdings we may hold. An abstract equilibrium with coarse card
buckets folds too often to large bets (the no-limit blueprint folds 65 % of the time to the
local best response's pot bets on the turn and river, ``docs/experiments.md``), and the local
best response takes its winnings there. :class:`RangeDefence` closes that leak:

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
from typing import Any

import numpy as np

from pokerbot.models.buckets.abstraction import EhsAbstraction
from pokerbot.models.buckets.evaluator import HAND_CARDS, HAND_INDEX, NUM_HANDS
from pokerbot.protocol.actions import CALL, FOLD, Action
from pokerbot.protocol.cards import Card
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.abstract.policy import AbstractPolicy
from pokerbot.strategies.abstract.translation import TreeTranslator

CACHED_STATES = 8
"""Public states whose defence is kept (a best response asks many holdings at one state)."""


def calls_at_pot_odds(strength: Any, state: HandState) -> Any:
    """The pot-odds rule of a player off its tree, facing a bet: call when the effective hand
    strength (one value or an array of them) is at least ``call / (pot + call)``."""
    call = state.legal_actions().call_amount
    return strength >= call / (state.pot + call)


class RangeDefence:
    """The minimum-defence adjustment of a no-limit abstract policy (module docstring)."""

    def __init__(self, policy: AbstractPolicy, translator: TreeTranslator) -> None:
        if not isinstance(policy.abstraction, EhsAbstraction):
            raise ValueError("the range defence needs an EHS card abstraction (hold'em)")
        self.policy = policy
        self.abstraction: EhsAbstraction = policy.abstraction
        self.translator = translator
        self._cache: dict[Hashable, np.ndarray | None] = {}

    @staticmethod
    def applies(state: HandState) -> bool:
        """True where the player to act faces a bet it may fold to."""
        legal = state.legal_actions()
        return legal.can_fold and legal.call_amount > 0

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
        if fold <= 0.0 or not self.applies(state):
            return distribution
        moved = self.moved_fraction(state, position, hand_number)
        if moved is None:
            return distribution
        share = float(moved[int(HAND_INDEX[hole[0], hole[1]])])
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
        folds = self._action_probabilities(state, position, hand_number, FOLD)
        mass = weights * folds
        price = self.price(state)
        excess = float(mass.sum()) - price * total
        if excess <= 1e-12 * total:
            return None
        strength = np.nan_to_num(self.abstraction.ehs_all(state.visible_board()), nan=-1.0)
        order = np.lexsort((np.arange(NUM_HANDS), -strength))
        before = np.cumsum(mass[order]) - mass[order]
        moved_sorted = np.zeros(NUM_HANDS)
        live = mass[order] > 0.0
        moved_sorted[live] = np.clip((excess - before[live]) / mass[order][live], 0.0, 1.0)
        moved = np.zeros(NUM_HANDS)
        moved[order] = moved_sorted
        return moved

    def range(self, state: HandState, position: int, hand_number: int) -> np.ndarray:
        """The weight of every holding given ``position``'s actions so far in the hand (0 for
        holdings that use a visible board card)."""
        board = state.visible_board()
        used = np.zeros(52, dtype=bool)
        used[list(board)] = True
        weights = (~(used[HAND_CARDS[:, 0]] | used[HAND_CARDS[:, 1]])).astype(float)
        replay = HandState(state.game)
        replay.board_cards = tuple(state.board_cards)
        for _round, actor, action in state.history():
            if actor == position:
                weights *= self._action_probabilities(replay, position, hand_number, action)
                if not weights.any():
                    return weights
            replay.apply(action)
        return weights

    def _action_probabilities(self, state: HandState, position: int, hand_number: int, action: Action) -> np.ndarray:
        """The policy's probability of ``action`` at ``state`` for every holding."""
        where = self.translator.locate(state, position, hand_number)
        if where.synced:
            real = self.translator.real_actions(where.node, state)
            count = self.abstraction.num_buckets[state.round]
            by_bucket = np.zeros(count)
            for b in range(count):
                row = self.policy.row(where.node, b).astype(float)
                chosen = sum(float(p) for a, p in zip(real, row, strict=True) if a == action)
                by_bucket[b] = chosen / row.sum() if row.sum() > 0.0 else 0.0
            return by_bucket[self.abstraction.buckets_all(state.visible_board(), state.round)]
        if not self.applies(state):  # off the tree: the player's pot-odds rule
            return np.full(NUM_HANDS, 1.0 if action == CALL else 0.0)
        calls = calls_at_pot_odds(np.nan_to_num(self.abstraction.ehs_all(state.visible_board()), nan=0.0), state)
        if action == CALL:
            return calls.astype(float)
        return (~calls).astype(float) if action == FOLD else np.zeros(NUM_HANDS)

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


__all__ = ["CACHED_STATES", "RangeDefence", "calls_at_pot_odds"]
