"""Between an opponent model's slots and a public tree's profile arrays.

Models (:mod:`pokerbot.models.bayes`) hold policies as vectors over their slots; the solvers
(:mod:`pokerbot.strategies.solvers`) work with profile arrays ``sigma[node, hand]``. A
:class:`TreeBridge` precomputes, for each position, which slot gives the probability of
every edge of that position (decision node x action x hand), so writing a batch of ``M``
model policies into a batched profile ``[node, M * hands]`` is one fancy-index assignment.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerbot.models.bayes.errors import UnknownInfosetError
from pokerbot.models.bayes.slots import SlotIndex
from pokerbot.strategies.bayes.errors import CoverageError
from pokerbot.strategies.solvers.tree import PublicTree


@dataclass(frozen=True)
class _Edges:
    rows: np.ndarray
    """Child node of each (edge, hand) entry."""
    hands: np.ndarray
    slots: np.ndarray


class TreeBridge:
    """Slot-to-edge maps of ``index`` on ``tree`` for every position it covers."""

    def __init__(self, tree: PublicTree, index: SlotIndex) -> None:
        self.tree = tree
        self.index = index
        self._edges: dict[int, _Edges] = {}
        self._missing: dict[int, str] = {}
        for player in range(tree.num_players):
            rows, hands, slots = [], [], []
            try:
                for node in tree.decision_nodes:
                    if int(tree.player[node]) != player:
                        continue
                    for child in tree.children(int(node)):
                        char = tree.label[child]
                        for hand in np.flatnonzero(tree.valid[node]):
                            key = tree.infoset_key(int(node), int(hand))
                            rows.append(child)
                            hands.append(int(hand))
                            slots.append(index.slot(key, char))
            except UnknownInfosetError as error:
                self._missing[player] = str(error)
                continue
            self._edges[player] = _Edges(np.array(rows), np.array(hands), np.array(slots))

    def covers(self, player: int) -> bool:
        """True when the slots give every information set of ``player``."""
        return player in self._edges

    def _get(self, player: int) -> _Edges:
        edges = self._edges.get(player)
        if edges is None:
            raise CoverageError(f"the model does not cover position {player}: {self._missing.get(player)}")
        return edges

    def write(self, player: int, policies: np.ndarray, sigma: np.ndarray) -> None:
        """Write ``policies`` (``[M, slot]``) as ``player``'s edges into ``sigma``
        (``[node, M * hands]``; column ``m * hands + h``)."""
        edges = self._get(player)
        shaped = sigma.reshape(sigma.shape[0], policies.shape[0], self.tree.num_hands)
        shaped[edges.rows, :, edges.hands] = policies[:, edges.slots].T

    def profile(self, player: int, policies: np.ndarray) -> np.ndarray:
        """A batched profile ``[node, M * hands]``: ``player`` plays ``policies`` (``[M, slot]``
        or one ``[slot]`` vector), every other edge is 1."""
        batch = np.atleast_2d(policies)
        sigma = np.ones((self.tree.num_nodes, batch.shape[0] * self.tree.num_hands))
        self.write(player, batch, sigma)
        return sigma


__all__ = ["TreeBridge"]
