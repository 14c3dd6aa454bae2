"""Regret-minimising solvers over a public tree, vectorised over private hands.

:class:`Solver` is the base of every solver here (full width, and the Monte-Carlo ones in
:mod:`pokerbot.strategies.solvers.mccfr`): tables of accumulated regrets and cumulative strategy
``[node, hand]``, an :class:`~pokerbot.strategies.regret.UpdateRule`, the average and current
profiles, and an optional :class:`~strategies.solvers.restriction.Restriction` (restricted
Nash responses). Every iteration walks the flattened public tree
(:mod:`pokerbot.strategies.solvers.engine`) once per updated player, with reach and value vectors
over all hands at once (card removal is in the terminal payoff tables).

Full-width solvers (exact counterfactual regrets every iteration):

* :class:`CFR` - vanilla CFR: regret matching, uniform averaging;
* :class:`CFRPlus` - CFR+: regrets floored at 0, linear averaging;
* :class:`DCFR` - discounted CFR, alpha = 1.5, beta = 0, gamma = 2.

Updates alternate between players by default (each player updates against the others'
latest strategies, as OpenSpiel's solvers do); ``alternating=False`` gives simultaneous
updates (every player against the same profile), which converge more slowly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from pokerbot.strategies.regret import UnknownRuleError, UpdateRule, get_rule
from pokerbot.strategies.solvers.engine import Engine
from pokerbot.strategies.solvers.errors import SolverError
from pokerbot.strategies.solvers.exploitability import ExploitabilityReport, evaluate_profile
from pokerbot.strategies.solvers.policy import Policy
from pokerbot.strategies.solvers.profile import policy_from_profile
from pokerbot.strategies.solvers.restriction import Restriction
from pokerbot.strategies.solvers.tree import PublicTree


class Solver:
    """The shared state and helpers of every solver (see the module docstring).

    ``seed`` seeds the solver's :class:`numpy.random.Generator` (used by sampling solvers).
    """

    name: ClassVar[str] = "solver"
    default_rule: ClassVar[str] = "cfr"

    def __init__(
        self,
        tree: PublicTree,
        *,
        rule: str | UpdateRule | None = None,
        alternating: bool = True,
        seed: int | None = None,
        restriction: Restriction | None = None,
    ) -> None:
        self.tree = tree
        self.engine = Engine(tree)
        try:
            self.rule = get_rule(rule or self.default_rule)
        except UnknownRuleError as error:
            raise SolverError(str(error)) from None
        self.alternating = alternating
        self.restriction = restriction or Restriction()
        self.rng = np.random.default_rng(seed)
        self.iterations = 0
        shape = (tree.num_nodes, tree.num_hands)
        self.regrets = np.zeros(shape)
        self.cumulative = np.zeros(shape)
        self.sigma = self.engine.uniform()
        """Every player's current (regret-matched) strategy."""
        self._edges = [pe.edges for pe in self.engine.players]
        self._parents = [tree.parent[pe.edges] for pe in self.engine.players]

    def run(self, iterations: int) -> None:
        """Run ``iterations`` more iterations."""
        for _ in range(iterations):
            self.iterations += 1
            self._iterate(self.iterations)

    def _groups(self) -> list[list[int]]:
        """The players updated together, in order: one at a time, or all at once."""
        players = list(range(self.engine.num_players))
        return [[p] for p in players] if self.alternating else [players]

    def _iterate(self, t: int) -> None:
        """Iteration ``t`` (1-based): exact regrets for each group of players in turn."""
        engine = self.engine
        for group in self._groups():
            behaviour = self.restriction.behaviour(engine, self.sigma)
            reach = engine.reach(self.sigma, behaviour)
            for player in group:
                self._update(player, t, self._instant_regrets(player, behaviour, reach), reach)
            self._rematch(group)

    # ---------------------------------------------------------------- helpers
    def _instant_regrets(
        self,
        player: int,
        behaviour: np.ndarray,
        reach: np.ndarray,
        own_weights: np.ndarray | None = None,
        terminal_scale: np.ndarray | None = None,
    ) -> np.ndarray:
        """Counterfactual regrets ``[edge, hand]`` of ``player``'s edges.

        ``reach`` gives the other players' (possibly sampled) reach; ``own_weights``
        overrides the player's own edge weights in the backward pass (default its row of
        ``behaviour``); ``terminal_scale`` multiplies each terminal's values (importance
        weights of sampled outcomes).
        """
        engine = self.engine
        value_reach = self.restriction.value_reach(player, reach)
        terminal = engine.terminal_values(player, value_reach)
        if terminal_scale is not None:
            terminal *= terminal_scale[:, None]
        weights = behaviour[player] if own_weights is None else own_weights
        values = engine.values(player, value_reach, weights, terminal=terminal)
        baseline = self.restriction.baseline(engine, player, values, self.sigma)
        if baseline is None:
            baseline = values[self._parents[player]]
        regrets: np.ndarray = values[self._edges[player]] - baseline
        return regrets

    def _update(self, player: int, t: int, regret: np.ndarray, reach: np.ndarray) -> None:
        """Fold iteration ``t``'s regrets into the tables and add the strategy to the average."""
        edges = self._edges[player]
        self.regrets[edges] = self.rule.accumulate(self.regrets[edges], regret, t)
        self.cumulative[edges] += self.rule.weight(t) * reach[player, self._parents[player]] * self.sigma[edges]

    def _rematch(self, players: list[int]) -> None:
        """Regret-match the new current strategies of ``players``."""
        for player in players:
            self.engine.regret_matching(player, self.regrets, self.sigma)

    # ---------------------------------------------------------------- results
    def average_profile(self) -> np.ndarray:
        """The average strategy profile ``[node, hand]`` (the one that converges to equilibrium)."""
        sigma = np.ones_like(self.sigma)
        for player in range(self.engine.num_players):
            self.engine.normalise(player, self.cumulative, sigma)
        return sigma

    def average_policy(self, meta: Mapping[str, Any] | None = None) -> Policy:
        """The average strategy as a policy, with the algorithm and iterations in its meta."""
        info = {"algorithm": self.name, "rule": self.rule.name, "iterations": self.iterations, **(meta or {})}
        return policy_from_profile(self.tree, self.average_profile(), info)

    def evaluate(self) -> ExploitabilityReport:
        """Exact best-response analysis of the average profile."""
        return evaluate_profile(self.engine, self.average_profile())


class CFR(Solver):
    """Vanilla CFR: regret matching on summed regrets, uniform averaging."""

    name = "cfr"
    default_rule = "cfr"


class CFRPlus(Solver):
    """CFR+: regrets floored at 0 after each update, linear averaging."""

    name = "cfr+"
    default_rule = "cfr+"


class DCFR(Solver):
    """Discounted CFR; (alpha, beta, gamma) = (1.5, 0, 2) unless a rule is given."""

    name = "dcfr"
    default_rule = "dcfr"


__all__ = ["CFR", "DCFR", "CFRPlus", "Solver"]
