"""Vectorised passes over a :class:`~strategies.solvers.tree.PublicTree`.

A *profile* is an array ``sigma[node, hand]``: for a child ``c`` of a decision node, the
probability that the player to act there, holding ``hand``, takes the action leading to
``c``. Entries of other nodes (the root, chance children) are 1: chance probabilities live
in the terminal payoff tables. Every pass walks the public tree once, level by level, with
one numpy operation per depth for all nodes and all hands at that depth:

* :meth:`Engine.reach` - each player's own reach probability ``[player, node, hand]``;
* :meth:`Engine.values` - player ``i``'s counterfactual values ``[node, hand]`` (the
  other players' reach times chance times payoff, in chips) under the profile, or under
  a best response of ``i`` (``best_response=True``);
* :meth:`Engine.regret_matching` and :meth:`Engine.normalise` turn regrets or cumulative
  strategies into a profile.

The expected value of the profile to player ``i``, in chips per hand, is
``values(i, ...)[0].sum()``: the counterfactual values of the root summed over ``i``'s
hands.
"""

from __future__ import annotations

from dataclasses import dataclass
from string import ascii_lowercase

import numpy as np

from pokerbot.strategies.regret import regret_match_groups
from pokerbot.strategies.solvers.tree import DECISION, TERMINAL, PublicTree


@dataclass(frozen=True, eq=False)
class _PlayerEdges:
    """The edges leaving one player's decision nodes, grouped by node (siblings contiguous)."""

    edges: np.ndarray
    """Child node indices, ascending."""
    starts: np.ndarray
    """Offset in ``edges`` of the first edge of each group (one group per decision node)."""
    group_of_edge: np.ndarray
    size_of_edge: np.ndarray
    """Number of legal actions at the edge's decision node."""
    nodes: np.ndarray
    """The decision node of each group."""
    firsts: np.ndarray
    """The first edge (child node) of each group."""
    sizes: np.ndarray
    """The edges of each group."""


@dataclass(frozen=True, eq=False)
class _Level:
    """The internal (non-terminal) nodes of one depth and how their children sum up."""

    nodes: np.ndarray
    starts: np.ndarray
    """Offsets, relative to the first node of the next depth, of each node's first child."""
    child_lo: int
    child_hi: int
    decision_of: np.ndarray
    """``[player, node]``: True where the internal node is a decision node of ``player``."""


class Engine:
    """Index arrays and passes for one public tree (see the module docstring)."""

    def __init__(self, tree: PublicTree) -> None:
        self.tree = tree
        self.num_players = tree.num_players
        self.num_nodes = tree.num_nodes
        self.num_hands = tree.num_hands
        starts = tree.level_start
        self._down: list[tuple[int, int, np.ndarray]] = [
            (int(starts[d]), int(starts[d + 1]), tree.parent[starts[d] : starts[d + 1]])
            for d in range(1, len(starts) - 1)
        ]
        self._up: list[_Level] = []
        parent_player = np.where(tree.parent >= 0, tree.player[np.maximum(tree.parent, 0)], -1)
        parent_is_decision = np.zeros(self.num_nodes, dtype=bool)
        parent_is_decision[1:] = tree.kind[tree.parent[1:]] == DECISION
        self.own_edge = np.stack([parent_is_decision & (parent_player == p) for p in range(self.num_players)])
        """``[player, node]``: True where the edge into the node is that player's action."""
        self._own_edge_nodes = np.ascontiguousarray(self.own_edge.T)[:, :, None]
        for d in range(len(starts) - 2, -1, -1):
            lo, hi = int(starts[d]), int(starts[d + 1])
            nodes = lo + np.flatnonzero(tree.kind[lo:hi] != TERMINAL)
            if len(nodes) == 0:
                continue
            decision_of = np.stack(
                [(tree.kind[nodes] == DECISION) & (tree.player[nodes] == p) for p in range(self.num_players)]
            )
            child_starts = tree.first_child[nodes] - starts[d + 1]
            self._up.append(_Level(nodes, child_starts, int(starts[d + 1]), int(starts[d + 2]), decision_of))
        self.players = [self._player_edges(p) for p in range(self.num_players)]
        # load the compiled regret matching now, not inside a solver's first (timed) iteration
        self.regret_matching(0, np.zeros((self.num_nodes, 1)), np.ones((self.num_nodes, 1)))
        letters = ascii_lowercase[: self.num_players]
        self._einsum: list[str] = []
        self._batched: list[str] = []
        for i in range(self.num_players):
            others = [letters[p] for p in range(self.num_players) if p != i]
            spec = "z" + letters[i] + "".join(others)
            self._einsum.append(spec + "," + ",".join("z" + o for o in others) + "->z" + letters[i])
            self._batched.append(spec + "," + ",".join("zy" + o for o in others) + "->zy" + letters[i])

    def _player_edges(self, p: int) -> _PlayerEdges:
        tree = self.tree
        nodes = np.flatnonzero((tree.kind == DECISION) & (tree.player == p))
        sizes = tree.num_children[nodes]
        edges = (np.repeat(tree.first_child[nodes], sizes) + _ranges(sizes)).astype(np.int64)
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        group = np.repeat(np.arange(len(nodes)), sizes)
        firsts = tree.first_child[nodes].astype(np.int64)
        return _PlayerEdges(
            edges, starts, group, np.repeat(sizes, sizes).astype(np.float64), nodes, firsts, sizes.astype(np.int64)
        )

    # ------------------------------------------------------------------ profiles
    def uniform(self) -> np.ndarray:
        """The profile where every player picks uniformly among the legal actions."""
        sigma = np.ones((self.num_nodes, self.num_hands))
        for pe in self.players:
            sigma[pe.edges] = 1.0 / pe.size_of_edge[:, None]
        return sigma

    def regret_matching(self, player: int, regrets: np.ndarray, sigma: np.ndarray) -> None:
        """Write into ``sigma`` the regret-matching strategy of ``player`` (uniform when no
        regret is positive). ``regrets`` is ``[node, hand]`` (only the player's edges are read)."""
        pe = self.players[player]
        if len(pe.edges) == 0:
            return
        regret_match_groups(regrets, sigma, pe.firsts, pe.sizes, np.empty(regrets.shape[1]), True)

    def normalise(self, player: int, weights: np.ndarray, sigma: np.ndarray) -> None:
        """Write into ``sigma`` the player's strategy proportional to ``weights`` (cumulative
        strategy), uniform where a node's weights sum to 0."""
        self.regret_matching(player, weights, sigma)

    # -------------------------------------------------------------------- passes
    def behaviour(self, sigma: np.ndarray) -> np.ndarray:
        """``[player, node, hand]``: ``sigma`` on the player's own edges, 1 elsewhere.

        (A transposed view of a node-major array, which :meth:`reach` walks fastest.)
        """
        return np.where(self._own_edge_nodes, sigma[:, None, :], 1.0).transpose(1, 0, 2)

    def reach(self, sigma: np.ndarray, behaviour: np.ndarray | None = None) -> np.ndarray:
        """Each player's own probability of playing to each node, ``[player, node, hand]``."""
        weights = (self.behaviour(sigma) if behaviour is None else behaviour).transpose(1, 0, 2)
        reach = np.empty(weights.shape)
        reach[0] = 1.0
        for lo, hi, parents in self._down:
            np.multiply(reach[parents], weights[lo:hi], out=reach[lo:hi])
        return reach.transpose(1, 0, 2)

    def terminal_values(self, player: int, reach: np.ndarray) -> np.ndarray:
        """Player's counterfactual values at the terminals ``[terminal, hand]``, in chips.

        ``reach`` gives the other players' reach ``[player, node, hand]`` (the player's own
        row is ignored); it may hold any opponent weighting, e.g. a restricted mixture.
        A *batch* of independent samples may be passed side by side: with ``B * hands``
        columns (column ``b * hands + h``), each block of ``hands`` columns is evaluated
        against the same block of the other players.
        """
        terminals = self.tree.terminals
        others = [reach[p, terminals] for p in range(self.num_players) if p != player]
        columns = reach.shape[-1]
        if columns == self.num_hands:
            values: np.ndarray = np.einsum(self._einsum[player], self.tree.utility[player], *others, optimize=False)
            return values
        batch = columns // self.num_hands
        shaped = [o.reshape(len(terminals), batch, self.num_hands) for o in others]
        result: np.ndarray = np.einsum(self._batched[player], self.tree.utility[player], *shaped, optimize=False)
        return result.reshape(len(terminals), columns)

    def values(
        self,
        player: int,
        reach: np.ndarray,
        own_weights: np.ndarray,
        best_response: bool = False,
        terminal: np.ndarray | None = None,
    ) -> np.ndarray:
        """Player's counterfactual values ``[node, hand]`` in chips.

        ``own_weights`` is the player's row of :meth:`behaviour` (its own action
        probabilities, 1 on other edges). With ``best_response`` the player maximises at its
        decision nodes instead (``own_weights`` is then ignored). ``terminal`` overrides the
        terminal values (default :meth:`terminal_values`).
        """
        if terminal is None:
            terminal = self.terminal_values(player, reach)
        values = np.zeros((self.num_nodes, terminal.shape[-1]))
        values[self.tree.terminals] = terminal
        for level in self._up:
            children = values[level.child_lo : level.child_hi]
            if best_response:
                summed = np.add.reduceat(children, level.starts, axis=0)
                own = level.decision_of[player]
                if own.any():
                    best = np.maximum.reduceat(children, level.starts, axis=0)
                    summed = np.where(own[:, None], best, summed)
            else:
                weighted = children * own_weights[level.child_lo : level.child_hi]
                summed = np.add.reduceat(weighted, level.starts, axis=0)
            values[level.nodes] = summed
        return values

    def path_products(self, edge_values: np.ndarray) -> np.ndarray:
        """Per node, the product of ``edge_values`` (one per node = edge into it) from the root."""
        products = np.empty(self.num_nodes)
        products[0] = 1.0
        for lo, hi, parents in self._down:
            np.multiply(products[parents], edge_values[lo:hi], out=products[lo:hi])
        return products

    def subtree_sums(self, node_values: np.ndarray) -> np.ndarray:
        """Per node, the sum of ``node_values`` over the terminals below it (1-D)."""
        sums = np.zeros(self.num_nodes)
        terminals = self.tree.terminals
        sums[terminals] = node_values[terminals]
        for level in self._up:
            sums[level.nodes] = np.add.reduceat(sums[level.child_lo : level.child_hi], level.starts)
        return sums


def _ranges(sizes: np.ndarray) -> np.ndarray:
    """``[0..s0-1, 0..s1-1, ...]`` for ``sizes = [s0, s1, ...]``."""
    total = int(sizes.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.repeat(np.cumsum(sizes) - sizes, sizes)
    ranges: np.ndarray = np.arange(total) - offsets
    return ranges


__all__ = ["Engine"]
