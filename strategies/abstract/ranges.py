"""The range of an abstract policy: how likely it was to play a hand's betting with each holding.

A player of an :class:`~pokerbot.strategies.abstract.policy.AbstractPolicy` decides with its
card bucket alone, so its probability of any action is known for every holding at once: the
policy's row of each holding's bucket at the located tree node (no-limit: located and played
through the :class:`~pokerbot.strategies.abstract.translation.TreeTranslator`; off the tree,
the player's pot-odds rule). The **reach** of a holding is the product of those probabilities
over the player's own actions in the hand: by Bayes, given everything the other player could
see (its own cards, the board, the betting), the player's holding is distributed in proportion
to its reach over the holdings that clash with none of those cards.

Two users: the minimum defence (:mod:`.defence`: the share of the range that would fold to a
bet) and the safe agent's ledger (:func:`pokerbot.strategies.safe.ledger.range_hand_value`:
imaginary observations of our own holding). Both need a hold'em card abstraction (every holding bucketed at once).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pokerbot.protocol.actions import CALL, FOLD, Action
from pokerbot.protocol.analysis.holdings import HOLDINGS, NUM_HOLDINGS
from pokerbot.protocol.cards import Card
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.abstract.policy import AbstractPolicy
from pokerbot.strategies.abstract.translation import TreeTranslator
from pokerbot.strategies.card_abstraction.abstraction import HoldemAbstraction


def calls_at_pot_odds(strength: Any, state: HandState) -> Any:
    """The pot-odds rule of a player off its tree, facing a bet: call when the effective hand
    strength (one value or an array of them) is at least ``call / (pot + call)``."""
    call = state.legal_actions().call_amount
    return strength >= call / (state.pot + call)


def faces_fold(state: HandState) -> bool:
    """True where the player to act faces a bet it may fold to."""
    legal = state.legal_actions()
    return legal.can_fold and legal.call_amount > 0


class PolicyRange:
    """Every holding's probability of the policy's actions, and its reach (module docstring).

    ``translator`` is the player's (no-limit; None in limit games, whose trees hold every real
    betting sequence): the same seed reads the opponent's bets as the player read them.
    """

    def __init__(self, policy: AbstractPolicy, translator: TreeTranslator | None) -> None:
        if not isinstance(policy.abstraction, HoldemAbstraction):
            raise ValueError("a policy's range needs a hold'em card abstraction")
        self.policy = policy
        self.abstraction: HoldemAbstraction = policy.abstraction
        self.translator = translator

    def action_probabilities(self, state: HandState, position: int, hand_number: int, action: Action) -> np.ndarray:
        """The policy's probability of ``action`` at ``state`` (``position`` to act) for every
        holding (indexed as :data:`~pokerbot.protocol.analysis.holdings.HOLDINGS`)."""
        actions, table = self.probabilities(state, position, hand_number)
        out = np.zeros(NUM_HOLDINGS)
        for a, row in zip(actions, table, strict=True):
            if a == action:
                out += row
        return out

    def probabilities(self, state: HandState, position: int, hand_number: int) -> tuple[list[Action], np.ndarray]:
        """The real actions the policy plays at ``state`` (``position`` to act; on the tree, its
        actions as played, equal ones repeated; off it, fold and call) and their probabilities
        for every holding, ``[action, holding]``."""
        if self.translator is None:
            node, synced = self.policy.tree.node_of(state), True
            real: list[Action] = list(self.policy.tree.actions[node])
        else:
            where = self.translator.locate(state, position, hand_number)
            node, synced = where.node, where.synced
            real = self.translator.real_actions(node, state) if synced else []
        if synced:
            count = self.abstraction.num_buckets[state.round]
            rows = np.array([self.policy.row(node, b) for b in range(count)], dtype=float)  # [bucket, action]
            totals = rows.sum(axis=1, keepdims=True)
            rows = np.divide(rows, totals, out=np.zeros_like(rows), where=totals > 0.0)
            return real, rows[self.abstraction.buckets_all(state.visible_board(), state.round)].T
        if not faces_fold(state):  # off the tree: the player's pot-odds rule
            return [CALL], np.ones((1, NUM_HOLDINGS))
        strength = np.nan_to_num(self.abstraction.ehs_all(state.visible_board()), nan=0.0)
        calls = np.asarray(calls_at_pot_odds(strength, state)).astype(float)
        return [FOLD, CALL], np.stack([1.0 - calls, calls])

    def reach(
        self, state: HandState, position: int, hand_number: int, board: Sequence[Card] | None = None
    ) -> np.ndarray:
        """The weight of every holding given ``position``'s actions so far in the hand: the
        product of the policy's probabilities of those actions, 0 for holdings that use a card
        of ``board`` (default: the board visible in ``state``)."""
        used = np.zeros(52, dtype=bool)
        used[list(state.visible_board() if board is None else board)] = True
        weights = (~(used[HOLDINGS[:, 0]] | used[HOLDINGS[:, 1]])).astype(float)
        replay = HandState(state.game)
        replay.board_cards = tuple(state.board_cards)
        for _round, actor, action in state.history():
            if actor == position:
                weights *= self.action_probabilities(replay, position, hand_number, action)
                if not weights.any():
                    return weights
            replay.apply(action)
        return weights


__all__ = ["PolicyRange", "calls_at_pot_odds", "faces_fold"]
