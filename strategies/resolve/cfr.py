"""Vector-form CFR over a heads-up subgame: both players' ranges over every holding at once.

:class:`SubgameSolver` solves a :class:`~.tree.SubgameTree` for given ranges: each node holds
one vector per player (a value or a reach for every holding), so one pass over the public tree
updates every information set. The regret minimiser is Discounted CFR (Brown and Sandholm,
"Solving imperfect-information games via discounted regret minimization", 2019) with
alpha = 1.5, beta = 0, gamma = 2 and alternating updates: at iteration ``t`` positive regrets
are scaled by ``t^1.5 / (t^1.5 + 1)``, negative ones halved, and the average strategy's sum by
``(t / (t + 1))^2``. The strategy to play is the average strategy.

Values are **counterfactual**, in chips over the whole hand (holdings that use a board card
get values that mean nothing: their reach is always 0): a holding's value at a node is
the sum, over the opponent holdings that share none of its cards, of the opponent's reach
times the payoff (fold: a folder loses what it put in; showdown and leaf: ``stake`` times the
expected sign of the showdown, :meth:`~pokerbot.protocol.analysis.matchups.HoldingSpace.runout_matrix` where cards are
still to come; before hold'em's flop its estimate, :mod:`~pokerbot.protocol.analysis.preflop_matrix`).
Terminal values cost O(n) per fold or river showdown (ranks sorted once per
board, prefix sums per card for card removal) and one matrix product per leaf.

**Warm start** (:meth:`SubgameSolver.warm_start`): a solve may start where a given strategy
(a blueprint's, over the subgame's actions) stands instead of the uniform strategy, as if that
strategy had been played for ``t0`` iterations: the average strategy's sum holds it with the
weight ``t0`` iterations of DCFR would have, each action's regret is ``t0`` times its probability
times the spread of the actions' counterfactual values against it (the largest regret one
iteration can add), so regret matching plays it first, and the discounts continue from
``t0 + 1``. An action worth more against it gains regret from the first iteration on; one
iteration of the given strategy for each player.

**Re-solving gadget** (Burch, Johanson and Bowling, "Solving imperfect information games using
decomposition", 2014; Moravčík et al., "DeepStack", 2017): with ``gadget=(position, bounds)``
that position's range is not given; at the root it chooses, holding by holding, between
entering the subgame and taking ``bounds[h]`` (its counterfactual value where the subgame was
entered in an earlier solve). The re-solved strategy then gives it no more than those values
(up to the solver's error): the re-solve is safe.

**Multi-valued leaves** (:mod:`.leaves`): with ``leaves`` a leaf is a last decision of the
opponent among continuation values (Brown, Sandholm and Amos 2018) instead of its run-out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit

from pokerbot.protocol.analysis.matchups import HoldingSpace
from pokerbot.protocol.analysis.preflop_matrix import preflop_leaves
from pokerbot.strategies.betting.tree import TreeArrays
from pokerbot.strategies.regret import RULES, regret_match
from pokerbot.strategies.resolve.leaves import ContinuationValues, LeafChoice
from pokerbot.strategies.resolve.tree import DECISION, LEAF, TERMINAL, SubgameTree

_RULE = RULES["dcfr"]


class SubgameTables(NamedTuple):
    """The solver's tables as the kernels take them, ``float32[slot, live holding]``: the
    accumulated regrets, the average strategy's running sum and the current strategy."""

    regrets: np.ndarray
    strategy_sum: np.ndarray
    sigma: np.ndarray


class Showdowns(NamedTuple):
    """What the terminal values need of the live holdings: ``cards[holding, k]`` (``hole`` cards
    each), ``order`` (holdings by showdown rank on the full board, weakest first) and
    ``bounds`` (where each group of equal rank starts in ``order``, then its length)."""

    cards: np.ndarray
    hole: int
    order: np.ndarray
    bounds: np.ndarray


@dataclass(frozen=True)
class OpponentModel:
    """A model of ``position`` for a restricted Nash response in the subgame (Johanson, Zinkevich
    and Bowling 2008): with probability ``weight`` (p) that position plays ``strategy`` (``[slot,
    holding]``, a full table of the tree's actions; only its own decisions' rows are read) from
    ``range`` (its reach of every holding at the root), otherwise it plays freely (the solver's
    regret minimiser). ``weight`` 0 is the equilibrium re-solve, 1 a best response to the model."""

    position: int
    strategy: np.ndarray
    range: np.ndarray
    weight: float


class SubgameSolver:
    """Solves one subgame (see the module docstring).

    ``ranges[p]``: position ``p``'s reach of every holding at the root (non-negative; holdings
    that use a board card are ignored). ``gadget``: ``(position, bounds)`` for a safe re-solve
    where that position's range is chosen against its counterfactual-value ``bounds`` instead
    (``ranges[position]`` is then its prior, usually 1 for every holding). ``board``: the cards
    on the board at the root. Vectors in and out are over every holding of ``space``; inside,
    over the holdings the board leaves (float32).
    """

    def __init__(
        self,
        tree: SubgameTree,
        space: HoldingSpace,
        board: tuple[int, ...],
        ranges: np.ndarray,
        gadget: tuple[int, np.ndarray] | None = None,
        model: OpponentModel | None = None,
        leaves: ContinuationValues | None = None,
    ) -> None:
        self.tree = tree
        self.space = space
        self.board = tuple(board)
        ranges = np.asarray(ranges, dtype=np.float64)
        if ranges.shape != (2, space.size):
            raise ValueError(f"ranges must have shape (2, {space.size})")
        live = np.flatnonzero(space.valid(board))
        self.live = live
        """The holdings the board leaves (the solver's own numbering is their order)."""
        n = live.size
        self.ranges = np.ascontiguousarray(ranges[:, live], dtype=np.float32)
        self.gadget_position = -1
        self.bounds = np.zeros(n, dtype=np.float32)
        if gadget is not None:
            self.gadget_position = int(gadget[0])
            self.bounds = np.ascontiguousarray(np.asarray(gadget[1])[live], dtype=np.float32)
        self.gadget_regrets = np.zeros((2, n), dtype=np.float32)
        self._gadget_sigma = np.zeros((2, n))
        slots = tree.num_slots
        self.regrets = np.zeros((slots, n), dtype=np.float32)
        self.strategy_sum = np.zeros((slots, n), dtype=np.float32)
        self.sigma = np.zeros((slots, n), dtype=np.float32)
        self.iterations = 0
        self._offset = 0  # iterations a warm start counts as (the discounts continue after them)
        nodes = tree.num_nodes
        self._reach = np.zeros((nodes, n), dtype=np.float32)
        self._own = np.zeros((nodes, n), dtype=np.float32)
        self._values = np.zeros((nodes, n), dtype=np.float32)
        self.model = model
        self._model_reach: np.ndarray | None = None
        if model is not None and model.weight > 0.0:
            self._model_reach = np.zeros((nodes, n), dtype=np.float32)
            model_strategy = np.ascontiguousarray(model.strategy[:, live], dtype=np.float32)
            model_range = np.ascontiguousarray(model.range[live], dtype=np.float32)
            self._forward(model_strategy, model_range, model.position, self._model_reach)
        self._leaves = np.flatnonzero(tree.kind == LEAF)
        self.leaf_choice = LeafChoice(leaves, live) if leaves is not None and self._leaves.size else None
        """The chooser's decisions at multi-valued leaves (:mod:`.leaves`); None: run-out leaves."""
        self._by_class = preflop_leaves(space, self.board) if self._leaves.size and self.leaf_choice is None else None
        """Before hold'em's flop: the leaves' products by class (the estimated pre-flop run-out
        matrix, :mod:`~pokerbot.protocol.analysis.preflop_matrix`), eight times fewer."""
        self._matrix: np.ndarray | None = None
        if self._leaves.size and self._by_class is None and self.leaf_choice is None:
            self._matrix = space.live_runout_matrix(board)
        order = np.zeros(0, dtype=np.int64)
        bounds = np.zeros(1, dtype=np.int64)
        if ((tree.kind == TERMINAL) & (tree.folder < 0)).any():
            ranks = space.ranks(board)[live]
            order = np.argsort(ranks, kind="stable").astype(np.int64)
            starts = np.flatnonzero(np.diff(ranks[order])) + 1
            bounds = np.concatenate([[0], starts, [order.size]]).astype(np.int64)
        cards = np.ascontiguousarray(space.cards[live], dtype=np.int64)
        self._showdowns = Showdowns(cards, int(space.hole), order, bounds)

    @property
    def _tables(self) -> SubgameTables:
        return SubgameTables(self.regrets, self.strategy_sum, self.sigma)

    def _forward(self, strategy: np.ndarray, root: np.ndarray, who: int, out: np.ndarray) -> None:
        """``out[node]``: ``who``'s reach of every live holding at each node, from ``root`` (its
        reach at the root) and ``strategy`` (``[slot, live holding]``)."""
        _forward(self.tree.arrays, strategy, root, who, out)

    def _backward(self, strategy: np.ndarray, values: np.ndarray, who: int) -> None:
        """``values`` (terminal values filled in) completed up the tree: ``who``'s expected
        counterfactual values at every node when both play ``strategy``."""
        _backward(self.tree.arrays, strategy, values, who)

    def _full(self, vectors: np.ndarray) -> np.ndarray:
        """``vectors[..., live holding]`` over every holding (float64, 0 where blocked)."""
        out = np.zeros((*vectors.shape[:-1], self.space.size))
        out[..., self.live] = vectors
        return out

    # ------------------------------------------------------------------ solving
    def root_range(self, position: int, follow: np.ndarray | None = None) -> np.ndarray:
        """Position's reach at the root over the live holdings (the gadget's follow
        probabilities where it applies)."""
        own: np.ndarray = self.ranges[position]
        if position != self.gadget_position:
            return own
        if follow is None:
            follow = _follow(self.gadget_regrets)
        reach: np.ndarray = own * follow
        return reach

    def iterate(self, count: int) -> None:
        """Run ``count`` more iterations (each updates both players, in turn)."""
        tree = self.tree.arrays
        # sigma always holds the regret-matched strategy of the regrets as they stand
        _match_all(tree, self._tables, -1)
        for _ in range(count):
            self.iterations += 1
            t = float(self.iterations + self._offset)
            discounts = _RULE.discounts(t)
            positive, negative = np.float32(discounts[0]), np.float32(discounts[1])
            weight = np.float32(_RULE.average_decay(t))
            for player in (0, 1):
                opponent = 1 - player
                self._forward(self.sigma, self.root_range(opponent), opponent, self._reach)
                if self._model_reach is not None and self.model is not None and opponent == self.model.position:
                    # the restricted opponent: the model with weight p, else free
                    _blend(
                        self._reach,
                        np.float32(1.0 - self.model.weight),
                        np.float32(self.model.weight),
                        self._model_reach,
                    )
                self._forward(self.sigma, self.root_range(player), player, self._own)
                self._terminal_values(player, self._reach, self._values)
                _update(tree, self._tables, self._values, self._own, player, positive, negative, weight)
                if self.leaf_choice is not None and player == self.leaf_choice.chooser:
                    self.leaf_choice.update(self._values[self._leaves], self._own[self._leaves], t)
                if player == self.gadget_position:
                    _gadget_update(
                        self.gadget_regrets, self._values[0], self.bounds, positive, negative, self._gadget_sigma
                    )

    def warm_start(self, strategy: np.ndarray, iterations: int) -> None:
        """Start from ``strategy`` (``[slot, holding]`` over every holding, both positions'
        decisions; a holding's rows at a decision summing to 0 are played uniformly) as if it
        had been played for ``iterations`` iterations (the module docstring). Before the first
        :meth:`iterate` only; ``iterations`` 0 does nothing."""
        if self.iterations or self._offset:
            raise ValueError("a solve is warm-started before its first iteration")
        if iterations <= 0:
            return
        tree = self.tree.arrays
        live = np.ascontiguousarray(np.asarray(strategy, dtype=np.float32)[:, self.live])
        _normalize_rows(tree, live)
        weight = 0.0  # the average's sum after `iterations` iterations, as :meth:`iterate` keeps it
        for t in range(1, iterations + 1):
            weight = weight * _RULE.average_decay(float(t)) + 1.0
        for player in (0, 1):
            self._forward(live, self.root_range(1 - player), 1 - player, self._reach)
            self._forward(live, self.root_range(player), player, self._own)
            self._terminal_values(player, self._reach, self._values)
            self._backward(live, self._values, player)
            _seed(tree, self._tables, live, self._values, self._own, player, np.float32(iterations), np.float32(weight))
        self.sigma[:] = live
        self._offset = iterations

    def _terminal_values(self, player: int, reach: np.ndarray, values: np.ndarray, how: str = "current") -> None:
        """Fold, showdown and leaf values of ``player`` against the other's ``reach``; at
        multi-valued leaves the chooser's ``current`` or ``average`` choice, or its ``best``."""
        tree = self.tree
        _terminals(tree.arrays, reach, player, self._showdowns, values)
        if self.leaf_choice is not None:
            leaves = self._leaves
            values[leaves] = self.leaf_choice.values(player, reach[leaves].astype(np.float64), how)
        elif self._by_class is not None:
            leaves = self._leaves
            representatives, columns = self._by_class
            values[leaves] = (reach[leaves][:, representatives] @ columns) * tree.stake[leaves, None].astype(np.float32)
        elif self._matrix is not None:
            leaves = self._leaves
            values[leaves] = (reach[leaves] @ self._matrix.T) * tree.stake[leaves, None].astype(np.float32)

    # ------------------------------------------------------------------ results
    def average_strategy(self) -> np.ndarray:
        """Every decision's average strategy, ``[slot, holding]`` over every holding: each
        decision's rows sum to 1 for every live holding (where a holding never reached it,
        the last iteration's strategy)."""
        return self._full(self._live_average())

    def strategy_at(self, node: int) -> np.ndarray:
        """The average strategy at decision ``node``: ``[action, holding]``."""
        tree = self.tree
        if tree.kind[node] != DECISION:
            raise ValueError(f"node {node} is not a decision")
        base, count = int(tree.slot[node]), int(tree.num_actions[node])
        return self.average_strategy()[base : base + count]

    def _live_average(self) -> np.ndarray:
        tables = self._tables
        _match_all(self.tree.arrays, tables, -1)
        return _normalized(self.tree.arrays, tables)

    def best_response_values(self, player: int, strategy: np.ndarray | None = None) -> np.ndarray:
        """Every node's counterfactual values ``[node, holding]`` of ``player`` best-responding
        to the other's ``strategy`` (a :meth:`average_strategy`; default the current one)."""
        tree = self.tree
        opponent = 1 - player
        live_strategy = (
            self._live_average() if strategy is None else np.ascontiguousarray(strategy[:, self.live], dtype=np.float32)
        )
        reach = np.zeros_like(self._reach)
        values = np.zeros_like(self._values)
        self._forward(live_strategy, self.root_range(opponent), opponent, reach)
        self._terminal_values(player, reach, values, "best" if self._chooses(player) else "average")
        _best_response(tree.arrays, values, player)
        return self._full(values)

    def _chooses(self, player: int) -> bool:
        return self.leaf_choice is not None and self.leaf_choice.chooser == player

    def expected_values(self, player: int, strategy: np.ndarray | None = None) -> np.ndarray:
        """Every node's counterfactual values of ``player`` when both play ``strategy``
        (default: the average strategy), ``[node, holding]``."""
        live_strategy = (
            self._live_average() if strategy is None else np.ascontiguousarray(strategy[:, self.live], dtype=np.float32)
        )
        opponent = 1 - player
        reach = np.zeros_like(self._reach)
        values = np.zeros_like(self._values)
        self._forward(live_strategy, self.root_range(opponent), opponent, reach)
        self._terminal_values(player, reach, values, "average")
        self._backward(live_strategy, values, player)
        return self._full(values)

    def value_against_model(self, player: int) -> float:
        """``player``'s expected value per deal, in chips, playing its average strategy against
        the model (the other position playing the model's strategy from the model's range)."""
        model = self.model
        if model is None or model.position != 1 - player:
            raise ValueError("no model of the other position")
        tree = self.tree
        strategy = self._live_average()
        theirs = tree.player[tree.kind == DECISION] == model.position
        rows = np.concatenate(
            [np.full(int(c), t) for c, t in zip(tree.num_actions[tree.kind == DECISION], theirs, strict=True)]
        )
        strategy[rows] = model.strategy[:, self.live][rows]
        reach = np.zeros_like(self._reach)
        values = np.zeros_like(self._values)
        model_range = np.ascontiguousarray(model.range[self.live], dtype=np.float32)
        self._forward(strategy, model_range, model.position, reach)
        self._terminal_values(player, reach, values, "average")
        self._backward(strategy, values, player)
        ours = self._full(self.root_range(player))
        theirs_full = self._full(model_range)
        mass = float(ours.sum() * theirs_full.sum() - ours @ (self.space.conflicts.astype(np.float64) @ theirs_full))
        return float(ours @ self._full(values)[0]) / mass if mass > 0 else 0.0

    def joint_mass(self) -> float:
        """The weight of all deals at the root: the sum over pairs of holdings that share no
        card of the product of the two ranges (divide values by it for chips per deal)."""
        r0 = self._full(self.root_range(0))
        r1 = self._full(self.root_range(1))
        return float(r0.sum() * r1.sum() - r0 @ (self.space.conflicts.astype(np.float64) @ r1))

    def exploitability(self) -> float:
        """How much a best response gains against the average strategy, in chips per deal:
        half the sum of both players' best-response values at the root (zero-sum). Without a
        gadget only (with one, compare :meth:`best_response_values` with the bounds)."""
        if self.gadget_position >= 0:
            raise ValueError("exploitability is defined for a subgame without a gadget")
        total = 0.0
        for player in (0, 1):
            br = self.best_response_values(player)[0]
            total += float(self._full(self.root_range(player)) @ br)
        mass = self.joint_mass()
        return total / (2.0 * mass) if mass > 0 else 0.0


# ---------------------------------------------------------------------- kernels
@njit(cache=True)
def _follow(gadget_regrets: np.ndarray) -> np.ndarray:
    """The gadget's probability of following (entering the subgame) for every holding: regret
    matching over follow and terminate (float32 throughout), 1/2 where neither regret is positive."""
    n = gadget_regrets.shape[1]
    out = np.empty((2, n), dtype=np.float32)
    regret_match(gadget_regrets, 0, 2, out, np.empty(n, dtype=np.float32), False)
    follow: np.ndarray = out[0].copy()
    return follow


@njit(cache=True)
def _blend(reach: np.ndarray, free: np.float32, weight: np.float32, model_reach: np.ndarray) -> None:
    """``reach = reach * free + weight * model_reach`` (float32, rounded after each operation)."""
    for node in range(reach.shape[0]):
        for h in range(reach.shape[1]):
            r = reach[node, h] * free
            reach[node, h] = r + weight * model_reach[node, h]


@njit(cache=True)
def _gadget_update(
    regrets: np.ndarray,
    follow_values: np.ndarray,
    bounds: np.ndarray,
    positive: np.float32,
    negative: np.float32,
    sigma: np.ndarray,
) -> None:
    """The gadget's regrets of following and terminating after one of its position's
    half-iterations (``follow_values``: the root's values; ``sigma``: float64 scratch ``[2, n]``)."""
    n = bounds.shape[0]
    regret_match(regrets, 0, 2, sigma, np.empty(n), False)
    for h in range(n):
        rf, rt = regrets[0, h], regrets[1, h]
        sf = sigma[0, h]
        v = sf * follow_values[h] + (1.0 - sf) * bounds[h]
        rf = rf * (positive if rf > 0 else negative) + follow_values[h] - v
        rt = rt * (positive if rt > 0 else negative) + bounds[h] - v
        regrets[0, h] = rf
        regrets[1, h] = rt


@njit(cache=True)
def _match_all(tree: TreeArrays, tables: SubgameTables, who: int) -> None:
    """sigma from the regrets at the decisions of ``who`` (-1: every decision)."""
    kind, player, slot, num_actions = tree.kind, tree.player, tree.base, tree.num_actions
    regrets, sigma = tables.regrets, tables.sigma
    total = np.empty(regrets.shape[1])
    for node in range(kind.shape[0]):
        if kind[node] != DECISION or (who >= 0 and player[node] != who):
            continue
        regret_match(regrets, slot[node], num_actions[node], sigma, total, False)


@njit(cache=True)
def _forward(tree: TreeArrays, sigma: np.ndarray, root: np.ndarray, who: int, out: np.ndarray) -> None:
    kind, player, children, num_actions, slot = tree.kind, tree.player, tree.children, tree.num_actions, tree.base
    n = root.shape[0]
    out[0, :] = root
    for node in range(kind.shape[0]):
        if kind[node] != DECISION:
            continue
        base = slot[node]
        for k in range(num_actions[node]):
            child = children[node, k]
            if player[node] == who:
                for h in range(n):
                    out[child, h] = out[node, h] * sigma[base + k, h]
            else:
                for h in range(n):
                    out[child, h] = out[node, h]


@njit(cache=True, inline="always")
def _node_value(
    node: int,
    player: np.ndarray,
    children: np.ndarray,
    count: int,
    base: int,
    sigma: np.ndarray,
    values: np.ndarray,
    who: int,
) -> None:
    """A decision's counterfactual values of ``who`` from its children's: weighted by
    ``who``'s strategy at its own decisions, summed at the other player's."""
    n = values.shape[1]
    for h in range(n):
        values[node, h] = 0.0
    if player[node] == who:
        for k in range(count):
            child = children[node, k]
            for h in range(n):
                values[node, h] += sigma[base + k, h] * values[child, h]
    else:
        for k in range(count):
            child = children[node, k]
            for h in range(n):
                values[node, h] += values[child, h]


@njit(cache=True)
def _backward(tree: TreeArrays, sigma: np.ndarray, values: np.ndarray, who: int) -> None:
    """Every decision's values of ``who`` from the leaves up, both playing ``sigma``."""
    kind, player, children, num_actions, slot = tree.kind, tree.player, tree.children, tree.num_actions, tree.base
    for node in range(kind.shape[0] - 1, -1, -1):
        if kind[node] == DECISION:
            _node_value(node, player, children, num_actions[node], slot[node], sigma, values, who)


@njit(cache=True)
def _best_response(tree: TreeArrays, values: np.ndarray, who: int) -> None:
    kind, player, children, num_actions = tree.kind, tree.player, tree.children, tree.num_actions
    n = values.shape[1]
    for node in range(kind.shape[0] - 1, -1, -1):
        if kind[node] != DECISION:
            continue
        count = num_actions[node]
        if player[node] == who:
            for h in range(n):
                best = values[children[node, 0], h]
                for k in range(1, count):
                    v = values[children[node, k], h]
                    if v > best:
                        best = v
                values[node, h] = best
        else:
            for h in range(n):
                total = 0.0
                for k in range(count):
                    total += values[children[node, k], h]
                values[node, h] = total


@njit(cache=True)
def _update(
    tree: TreeArrays,
    tables: SubgameTables,
    values: np.ndarray,
    own: np.ndarray,
    who: int,
    positive: np.float32,
    negative: np.float32,
    weight: np.float32,
) -> None:
    """One player's half-iteration from the leaves up, node by node: the values
    (:func:`_node_value`), then at each decision of ``who`` its discounted regrets, the average
    strategy's sum (``own`` reach times the strategy just played) and the strategy for the
    next iteration (:func:`~pokerbot.strategies.regret.regret_match`)."""
    kind, player, children, num_actions, slot = tree.kind, tree.player, tree.children, tree.num_actions, tree.base
    regrets, strategy_sum, sigma = tables.regrets, tables.strategy_sum, tables.sigma
    n = values.shape[1]
    total = np.empty(n)
    for node in range(kind.shape[0] - 1, -1, -1):
        if kind[node] != DECISION:
            continue
        base, count = slot[node], num_actions[node]
        _node_value(node, player, children, count, base, sigma, values, who)
        if player[node] == who:
            for k in range(count):
                child = children[node, k]
                for h in range(n):
                    r = regrets[base + k, h]
                    r *= positive if r > 0 else negative
                    regrets[base + k, h] = r + values[child, h] - values[node, h]
            for k in range(count):
                for h in range(n):
                    strategy_sum[base + k, h] = strategy_sum[base + k, h] * weight + own[node, h] * sigma[base + k, h]
            regret_match(regrets, base, count, sigma, total, False)


@njit(cache=True)
def _normalize_rows(tree: TreeArrays, strategy: np.ndarray) -> None:
    """Each decision's rows of ``strategy`` made a distribution per holding (uniform where they
    sum to 0)."""
    kind, slot, num_actions = tree.kind, tree.base, tree.num_actions
    n = strategy.shape[1]
    for node in range(kind.shape[0]):
        if kind[node] != DECISION:
            continue
        base, count = slot[node], num_actions[node]
        for h in range(n):
            total = 0.0
            for k in range(count):
                if strategy[base + k, h] > 0:
                    total += strategy[base + k, h]
            for k in range(count):
                p = strategy[base + k, h]
                strategy[base + k, h] = (p if p > 0 else 0.0) / total if total > 0 else 1.0 / count


@njit(cache=True)
def _seed(
    tree: TreeArrays,
    tables: SubgameTables,
    strategy: np.ndarray,
    values: np.ndarray,
    own: np.ndarray,
    who: int,
    iterations: np.float32,
    weight: np.float32,
) -> None:
    """A warm start's tables at ``who``'s decisions: each action's regret ``iterations`` times
    its probability times the spread of the children's values (``values``, both playing
    ``strategy``), the average's sum ``weight`` times ``own`` reach times the probability."""
    kind, player, children, num_actions, slot = tree.kind, tree.player, tree.children, tree.num_actions, tree.base
    regrets, strategy_sum = tables.regrets, tables.strategy_sum
    n = values.shape[1]
    for node in range(kind.shape[0]):
        if kind[node] != DECISION or player[node] != who:
            continue
        base, count = slot[node], num_actions[node]
        for h in range(n):
            low = values[children[node, 0], h]
            high = low
            for k in range(1, count):
                v = values[children[node, k], h]
                low = min(low, v)
                high = max(high, v)
            for k in range(count):
                p = strategy[base + k, h]
                regrets[base + k, h] = iterations * p * (high - low)
                strategy_sum[base + k, h] = weight * own[node, h] * p


@njit(cache=True)
def _normalized(tree: TreeArrays, tables: SubgameTables) -> np.ndarray:
    """The average strategy: each decision's running sums normalised per holding (the current
    strategy where a holding's sums are all 0)."""
    kind, slot, num_actions = tree.kind, tree.base, tree.num_actions
    strategy_sum, sigma = tables.strategy_sum, tables.sigma
    out = np.zeros_like(strategy_sum)
    n = strategy_sum.shape[1]
    for node in range(kind.shape[0]):
        if kind[node] != DECISION:
            continue
        base, count = slot[node], num_actions[node]
        for h in range(n):
            total = 0.0
            for k in range(count):
                s = strategy_sum[base + k, h]
                if s > 0:
                    total += s
            for k in range(count):
                s = strategy_sum[base + k, h]
                out[base + k, h] = (s if s > 0 else 0.0) / total if total > 0 else sigma[base + k, h]
    return out


_BATCH = 8
"""Terminal nodes whose sums are accumulated together (independent chains of additions that
the processor overlaps; each node's own additions keep their order)."""


@njit(cache=True, inline="always")
def _sweep_group(
    values: np.ndarray,
    reach: np.ndarray,
    batch: np.ndarray,
    m: int,
    order: np.ndarray,
    start: int,
    stop: int,
    cards: np.ndarray,
    hole: int,
    totals: np.ndarray,
    per_card: np.ndarray,
    sign: float,
) -> None:
    """One strength group of a showdown sweep: each holding of ``order[start:stop]`` gets
    ``sign`` times the reach of the opponent holdings swept before it that share no card with
    it (``totals`` and ``per_card``, the batch's sums so far); then the group's own reach joins
    the sums. ``sign`` is 1 or -1, so the values are bit for bit those of adding or subtracting."""
    for i in range(start, stop):
        h = order[i]
        a = cards[h, 0]
        b = cards[h, hole - 1]
        for j in range(m):
            w = totals[j] - per_card[a, j]
            if hole == 2:
                w -= per_card[b, j]
            values[batch[j], h] += sign * w
    for i in range(start, stop):
        h = order[i]
        a = cards[h, 0]
        b = cards[h, hole - 1]
        for j in range(m):
            r = reach[batch[j], h]
            totals[j] += r
            per_card[a, j] += r
            if hole == 2:
                per_card[b, j] += r


@njit(cache=True)
def _terminals(tree: TreeArrays, reach: np.ndarray, who: int, holdings: Showdowns, values: np.ndarray) -> None:
    kind, folder, spent, stake = tree.kind, tree.folder, tree.spent, tree.stake
    cards, hole, order, bounds = holdings.cards, holdings.hole, holdings.order, holdings.bounds
    n = reach.shape[1]
    nodes = kind.shape[0]
    folds = np.empty(nodes, dtype=np.int64)
    showdowns = np.empty(nodes, dtype=np.int64)
    num_folds = 0
    num_showdowns = 0
    for node in range(nodes):
        if kind[node] != TERMINAL:
            continue
        if folder[node] >= 0:
            folds[num_folds] = node
            num_folds += 1
        else:
            showdowns[num_showdowns] = node
            num_showdowns += 1
    per_card = np.zeros((64, _BATCH))  # [card, node of the batch]
    totals = np.zeros(_BATCH)
    batch = np.empty(_BATCH, dtype=np.int64)
    # folds: the opponent's reach of the holdings that share no card with each of ours
    for first in range(0, num_folds, _BATCH):
        m = min(_BATCH, num_folds - first)
        for j in range(m):
            batch[j] = folds[first + j]
            totals[j] = 0.0
            per_card[:, j] = 0.0
        for h in range(n):
            a = cards[h, 0]
            b = cards[h, hole - 1]
            for j in range(m):
                r = reach[batch[j], h]  # adding a zero changes no sum: no test, no branch
                totals[j] += r
                per_card[a, j] += r
                if hole == 2:
                    per_card[b, j] += r
        for j in range(m):
            node = batch[j]
            amount = spent[node, folder[node]]
            sign = -1.0 if folder[node] == who else 1.0
            total = totals[j]
            if hole == 2:
                for h in range(n):
                    compatible = total - per_card[cards[h, 0], j] - per_card[cards[h, 1], j] + reach[node, h]
                    values[node, h] = sign * amount * compatible
            else:
                for h in range(n):
                    values[node, h] = sign * amount * (total - per_card[cards[h, 0], j])
    # showdowns: wins over the opponent holdings strictly weaker, losses to the stronger ones,
    # card removal by per-card sums
    groups = bounds.shape[0] - 1
    for first in range(0, num_showdowns, _BATCH):
        m = min(_BATCH, num_showdowns - first)
        for j in range(m):
            batch[j] = showdowns[first + j]
            for h in range(n):
                values[batch[j], h] = 0.0
            totals[j] = 0.0
            per_card[:, j] = 0.0
        for g in range(groups):  # wins: the weaker groups' reach, swept upwards
            _sweep_group(values, reach, batch, m, order, bounds[g], bounds[g + 1], cards, hole, totals, per_card, 1.0)
        for j in range(m):
            totals[j] = 0.0
            per_card[:, j] = 0.0
        for g in range(groups - 1, -1, -1):  # losses: the stronger groups' reach, swept downwards
            _sweep_group(values, reach, batch, m, order, bounds[g], bounds[g + 1], cards, hole, totals, per_card, -1.0)
        for j in range(m):
            node = batch[j]
            s = float(stake[node])
            for h in range(n):
                values[node, h] *= s


__all__ = ["OpponentModel", "Showdowns", "SubgameSolver", "SubgameTables"]
