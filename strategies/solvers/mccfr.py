"""Monte-Carlo CFR, vectorised over private hands.

Both solvers follow the MCCFR framework (Lanctot et al. 2009; Ponsen, de Jong and Lanctot
2011, ``docs/references.md``): an iteration
samples a *block* of terminal histories, computes sampled counterfactual values that equal
the true ones in expectation (importance weights ``1 / q(z)``) and updates regrets with
them. The private deal is never sampled: every pass is vectorised over all hands, so a
sampled block is a set of *public* outcomes together with every deal compatible with them.

* :class:`OutcomeSamplingMCCFR` (``os-mccfr``, Ponsen et al. Algorithm 1): public terminal
  histories are drawn from an epsilon-greedy sampling profile (with probability
  ``epsilon`` uniform among the legal actions, otherwise the acting player's current
  strategy averaged over its hands by reach; board cards uniformly). ``samples`` outcomes
  are drawn per update, stratified by default (terminal ``z`` gets ``floor(n q(z))`` samples
  plus one with probability equal to the remainder: unbiased, less variance than i.i.d.
  draws; ``stratified=False`` draws i.i.d.). Regrets are the sampled counterfactual
  regrets of Ponsen et al. eq. 6 summed over deals and samples. The average strategy uses
  *optimistic averaging*: a visited information set adds ``(W(t) - W(c_I)) * pi_i * sigma``,
  where ``c_I`` is its previous visit and ``W`` the running sum of iteration weights
  (``t - c_I`` for uniform weights, Ponsen et al. line 16).
* :class:`ExternalSamplingMCCFR` (``es-mccfr``): players take turns as traverser; the
  traverser's actions are all explored, every opponent information set (public node and
  hand) samples one action from the opponent's current strategy, and every public chance
  node samples one board outcome uniformly (weight = number of outcomes;
  ``sample_chance=False`` enumerates boards instead). ``samples`` samples are evaluated
  side by side per traversal, drawn systematically by default (each one an exact external
  sample, jointly spread so the batch matches the opponent's reach and the boards closely)
  and their regrets averaged. The traverser's average strategy is accumulated exactly
  (its own reach is not sampled).

Defaults. Ponsen et al.'s form of outcome sampling is ``rule="cfr", alternating=False,
samples=1, stratified=False``; it converges, but slowly (Leduc: about 0.002 chips per
hand after 100,000 iterations even with 100,000 samples per iteration). The defaults
(``rule="dcfr"``, alternating updates, 100,000 stratified samples) reach 0.001 on Leduc
in about 1,000 iterations. External sampling uses the ``linear`` rule and 24 systematic
samples per iteration by default, its best measured; it reaches 0.001 on Leduc only
slowly: 0.01 after about 2,100 iterations (12 s), 0.002 after about 62,000, 0.001 after
243,470 (29 minutes);
documented budget 300,000 iterations (see the class docstring). Sampling noise dominates, and the exploitability
of the average is very sensitive to it (exact DCFR with Gaussian noise of 0.001 added to
every regret is still at 0.0025 after 3,000 iterations). See
:mod:`pokerbot.strategies.regret` for the update rules.

The passes are full-width array operations with zero weight off the sampled block, so on
games small enough to enumerate an iteration costs about as much as a CFR iteration and
the sampling only adds variance: these solvers are here for their algorithms (sampling
semantics, Monte-Carlo restricted Nash responses); :class:`~strategies.solvers.cfr.CFRPlus`
and :class:`~strategies.solvers.cfr.DCFR` are the fast way to solve these games.
"""

from __future__ import annotations

import numpy as np

from pokerbot.strategies.regret import UpdateRule
from pokerbot.strategies.solvers.cfr import Solver
from pokerbot.strategies.solvers.engine import Engine
from pokerbot.strategies.solvers.errors import SolverError
from pokerbot.strategies.solvers.restriction import Restriction
from pokerbot.strategies.solvers.tree import CHANCE, PublicTree


def _path_products(engine: Engine, weights: np.ndarray) -> np.ndarray:
    """Per node and column, the product of ``weights[node, column]`` along the path from the root."""
    products = np.empty(weights.shape)
    products[0] = 1.0
    for lo, hi, parents in engine._down:
        np.multiply(products[parents], weights[lo:hi], out=products[lo:hi])
    return products


def _check_samples(samples: int) -> None:
    if samples < 1:
        raise SolverError(f"samples per iteration must be at least 1, got {samples}")


class OutcomeSamplingMCCFR(Solver):
    """Outcome-sampling MCCFR: epsilon-greedy sampling, optimistic averaging."""

    name = "os-mccfr"
    default_rule = "dcfr"

    def __init__(
        self,
        tree: PublicTree,
        *,
        rule: str | UpdateRule | None = None,
        alternating: bool = True,
        seed: int | None = None,
        restriction: Restriction | None = None,
        epsilon: float = 0.6,
        samples: int = 100_000,
        stratified: bool = True,
    ) -> None:
        super().__init__(tree, rule=rule, alternating=alternating, seed=seed, restriction=restriction)
        if not 0.0 < epsilon <= 1.0:
            raise SolverError(f"epsilon must be in (0, 1], got {epsilon}")
        _check_samples(samples)
        self.epsilon = epsilon
        self.samples = samples
        self.stratified = stratified
        self._weight_sum = 0.0
        self._last_weight_sum = np.zeros(tree.num_nodes)
        edges = np.sort(np.concatenate(self._edges))
        parents = tree.parent[edges]
        new_group = np.r_[True, parents[1:] != parents[:-1]]
        self._all_edges = edges
        self._all_parents = parents
        self._all_actor = tree.player[parents].astype(np.int64)
        self._all_sizes = tree.num_children[parents].astype(np.float64)
        self._all_starts = np.flatnonzero(new_group)
        self._all_group = np.cumsum(new_group) - 1
        self._edge_q = np.ones(tree.num_nodes)
        chance_children = np.flatnonzero(tree.kind[np.maximum(tree.parent, 0)] == CHANCE)
        chance_children = chance_children[chance_children > 0]
        self._edge_q[chance_children] = 1.0 / tree.num_children[tree.parent[chance_children]]
        self._valid = tree.valid.astype(np.float64)

    def sampling_probabilities(self, behaviour: np.ndarray, reach: np.ndarray) -> np.ndarray:
        """Per node, the probability that the sampling profile takes the edge into it."""
        edges, parents, actor = self._all_edges, self._all_parents, self._all_actor
        weight = reach[actor, parents] * self._valid[parents]
        mass = np.add.reduceat(weight.sum(axis=1), self._all_starts)[self._all_group]
        on_policy = (behaviour[actor, edges] * weight).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            marginal = np.where(mass > 0.0, on_policy / mass, 1.0 / self._all_sizes)
        q = self._edge_q.copy()
        q[edges] = self.epsilon / self._all_sizes + (1.0 - self.epsilon) * marginal
        return q

    def _draw(self, q: np.ndarray) -> np.ndarray:
        """How many of the ``samples`` outcomes fall on each terminal (expected ``samples * q``)."""
        if not self.stratified:
            counts: np.ndarray = self.rng.multinomial(self.samples, q)
            return counts
        expected = self.samples * q
        whole = np.floor(expected)
        drawn: np.ndarray = whole + (self.rng.random(len(q)) < expected - whole)
        return drawn

    def _iterate(self, t: int) -> None:
        engine, tree = self.engine, self.tree
        self._weight_sum += self.rule.weight(t)
        for group in self._groups():
            behaviour = self.restriction.behaviour(engine, self.sigma)
            reach = engine.reach(self.sigma, behaviour)
            q_terminal = engine.path_products(self.sampling_probabilities(behaviour, reach))[tree.terminals]
            counts = self._draw(q_terminal / q_terminal.sum())
            scale = np.zeros(len(q_terminal))
            hit = counts > 0
            scale[hit] = counts[hit] / (self.samples * q_terminal[hit])
            visits = np.zeros(tree.num_nodes)
            visits[tree.terminals] = counts
            visited = engine.subtree_sums(visits) > 0
            for player in group:
                regret = self._instant_regrets(player, behaviour, reach, terminal_scale=scale)
                edges, parents = self._edges[player], self._parents[player]
                self.regrets[edges] = self.rule.accumulate(self.regrets[edges], regret, t)
                seen = visited[parents]
                lag = self._weight_sum - self._last_weight_sum[parents[seen]]
                self.cumulative[edges[seen]] += lag[:, None] * reach[player, parents[seen]] * self.sigma[edges[seen]]
                self._last_weight_sum[parents[seen]] = self._weight_sum
            self._rematch(group)


class ExternalSamplingMCCFR(Solver):
    """External-sampling MCCFR: the traverser explores all its actions, the rest is sampled.

    Players take turns as traverser. Every column of a batch of ``samples`` columns (each
    with all hands side by side) is one external sample: at the other players' information
    sets (public node and hand) one action is drawn from their current strategy, at every
    public chance node one board outcome is drawn uniformly, and the traverser's actions
    are all explored. The traverser's sampled counterfactual regrets (importance weight the
    number of boards at each sampled chance node on the path, 0 below unsampled boards)
    are averaged over the batch; its average strategy is accumulated from its exact reach
    (its own reach is not sampled, so the average adds no noise).

    ``systematic=True`` (default) draws the batch jointly rather than independently, each
    column still being an exact external sample (so the estimate stays unbiased): an
    opponent hand's ``samples`` columns follow the uniforms ``(j + U) / samples`` down the
    tree (see :meth:`_systematic_indicators`), so the share of them reaching any public
    node is within ``1 / samples`` of the opponent's reach there, and column ``j`` takes
    board ``(j + r) mod n`` at a chance node with ``n`` boards (``r`` uniform per node), so
    every board is sampled equally often. ``systematic=False`` draws everything
    independently and keeps the original pass, in which only the values passed up through a
    chance node are sampled and regrets below every board are kept (with ``samples=1``,
    ``rule="linear"`` this is the first version: about 0.012 on Leduc after 60 s).

    Defaults and budget (Leduc, seed 0): ``rule="linear"``, ``samples=24``,
    ``systematic=True``, about 5.5 ms per iteration on one core. Documented budgets: below
    0.03 after 1,000 iterations (tested; about 0.015 measured) and **below 0.001 after
    300,000 iterations** (243,470 iterations by ``benchmarks/bench_solvers.py --solvers
    es-mccfr --no-openspiel --time-limit 3600``; too long for the test suite). Also
    measured: 0.01 after 2,079 iterations (11.8 s), 0.0032 after 20,000 and 0.0020 after
    61,700: late on the decay is roughly ``T ** -0.45``. Measured
    alternatives at equal time (30 s with two runs side by side), none better: DCFR, CFR+,
    DCFR with beta = 0.5 (about 0.013 each against 0.0095), 12 samples (0.011), 48
    samples (0.0094); with DCFR, epsilon-exploration of the opponent's sampling (importance
    weights ``sigma / q``) was worse, and learned pairwise baselines (VR-MCCFR-style
    control variates) cut the regret error per iteration by about a fifth at 3 times the
    cost.
    Chance sampling is most of the noise: with ``sample_chance=False`` (boards enumerated,
    no longer external sampling of chance) DCFR with 24 samples is at 0.0028 after 21 s.
    """

    name = "es-mccfr"
    default_rule = "linear"

    def __init__(
        self,
        tree: PublicTree,
        *,
        rule: str | UpdateRule | None = None,
        seed: int | None = None,
        restriction: Restriction | None = None,
        samples: int = 24,
        sample_chance: bool = True,
        systematic: bool = True,
    ) -> None:
        super().__init__(tree, rule=rule, alternating=True, seed=seed, restriction=restriction)
        _check_samples(samples)
        self.samples = samples
        self.sample_chance = sample_chance
        self.systematic = systematic
        chance_nodes = np.flatnonzero(tree.kind == CHANCE) if sample_chance else np.zeros(0, dtype=np.int64)
        self._chance_first = tree.first_child[chance_nodes]
        self._chance_count = tree.num_children[chance_nodes]
        self._chance_children = np.zeros(tree.num_nodes, dtype=bool)
        self._chance_children[1:] = tree.kind[tree.parent[1:]] == CHANCE
        self._last_of_group = [np.r_[pe.starts[1:], len(pe.edges)] - 1 for pe in self.engine.players]

    def _slices(self, player: int, probabilities: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per edge of ``player``, the end of its action's slice of ``[0, 1]`` and the
        slice's start (slices in action order, sized by ``probabilities[edge, column]``)."""
        pe = self.engine.players[player]
        cumulative = np.cumsum(probabilities, axis=0)
        before = np.vstack([np.zeros((1, probabilities.shape[1])), cumulative])[pe.starts]
        within = cumulative - before[pe.group_of_edge]
        within[self._last_of_group[player]] = 1.0
        return within, within - probabilities

    def _sample_actions(self, player: int, probabilities: np.ndarray) -> np.ndarray:
        """0/1 indicators ``[edge, column]``: one independent action per information set and column."""
        pe = self.engine.players[player]
        within, start = self._slices(player, probabilities)
        draws = (1.0 - self.rng.random((len(pe.starts), probabilities.shape[1])))[pe.group_of_edge]
        chosen: np.ndarray = ((start < draws) & (draws <= within)).astype(np.float64)
        return chosen

    def _systematic_indicators(self, player: int, probabilities: np.ndarray) -> np.ndarray:
        """0/1 indicators ``[node, samples * hands]`` of ``player``'s sampled actions (1 elsewhere).

        ``probabilities[edge, hand]`` on the player's edges. Column ``j`` of a hand follows
        one uniform ``u`` down the tree: at the player's nodes it takes the action whose
        slice holds ``u`` and rescales ``u`` to that slice, which draws one action per
        information set from ``probabilities``, independently along any path. With
        ``u = (j + U) / samples`` for the hand's columns ``j`` (``U`` uniform per hand), the
        columns reaching any node are an interval of ``u``: their number is within 1 of
        ``samples`` times the player's reach. The columns are rotated by a uniform
        ``(j + s) mod samples`` (``s`` per hand and call) so that a column's uniforms for
        different players, and its board draws, stay independent.
        """
        engine, tree = self.engine, self.tree
        k, hands, n = self.samples, tree.num_hands, tree.num_nodes
        pe = engine.players[player]
        lower = np.zeros((n, hands))
        width = np.ones((n, hands))
        within, start = self._slices(player, probabilities)
        lower[pe.edges] = start
        width[pe.edges] = within - start
        u = np.empty((n, k, hands))
        rotation = self.rng.integers(0, k, (1, hands))
        u[0] = ((np.arange(k)[:, None] + rotation) % k + self.rng.random((1, hands))) / k
        hit = np.ones((n, k, hands))
        own = engine.own_edge[player]
        below_one = np.nextafter(1.0, 0.0)
        for lo, hi, parents in engine._down:
            child_u = u[parents]
            mine = own[lo:hi, None, None]
            if mine.any():
                low = lower[lo:hi, None, :]
                inside = (low <= child_u) & (child_u < low + width[lo:hi, None, :])
                hit[lo:hi] = np.where(mine, inside, 1.0)
                with np.errstate(invalid="ignore", divide="ignore"):
                    rescaled = np.clip((child_u - low) / width[lo:hi, None, :], 0.0, below_one)
                child_u = np.where(mine & inside, rescaled, child_u)
            u[lo:hi] = child_u
        return hit.reshape(n, k * hands)

    def _iterate(self, t: int) -> None:
        engine, tree = self.engine, self.tree
        k, hands = self.samples, tree.num_hands
        for traverser in range(engine.num_players):
            behaviour = self.restriction.behaviour(engine, self.sigma)
            exact_reach = engine.reach(self.sigma, behaviour)
            sampled = np.tile(behaviour, (1, 1, k)) if k > 1 else behaviour.copy()
            for player in range(engine.num_players):
                if player != traverser and len(self._edges[player]):
                    edges = self._edges[player]
                    if self.systematic:
                        sampled[player] = self._systematic_indicators(player, behaviour[player, edges])
                    else:
                        sampled[player, edges] = self._sample_actions(player, sampled[player, edges])
            reach = engine.reach(self.sigma, sampled)
            own = sampled[traverser].copy()
            chance = len(self._chance_first)
            chance_path = None
            if chance:
                if self.systematic:
                    shift = self.rng.integers(0, self._chance_count)[:, None]
                    offsets = (np.arange(k)[None, :] + shift) % self._chance_count[:, None]
                else:
                    offsets = self.rng.integers(0, self._chance_count[:, None], (chance, k))
                picks = (self._chance_first[:, None] + offsets).ravel()
                columns = np.tile(np.arange(k), chance)
                counts = np.repeat(self._chance_count, k).astype(np.float64)
                own[self._chance_children] = 0.0
                blocks = own.reshape(tree.num_nodes, k, hands)
                blocks[picks, columns] = counts[:, None]
                if self.systematic:
                    weights = np.ones((tree.num_nodes, k))
                    weights[self._chance_children] = 0.0
                    weights[picks, columns] = counts
                    chance_path = _path_products(engine, weights)
            regret = self._instant_regrets(traverser, sampled, reach, own_weights=own)
            if k > 1 or chance_path is not None:
                regret = regret.reshape(len(regret), k, hands)
                if chance_path is not None:
                    # only the sampled boards' subtrees are visited, with weight 1 / q(boards)
                    regret = regret * chance_path[self._parents[traverser], :, None]
                regret = regret.mean(axis=1)
            self._update(traverser, t, regret, exact_reach)
            self._rematch([traverser])


__all__ = ["ExternalSamplingMCCFR", "OutcomeSamplingMCCFR"]
