"""Online Bayesian learners as :class:`~strategies.base.Strategy` objects, and the ``adaptive`` agent.

:class:`LearnerStrategy` plays any :class:`~strategies.bayes.learners.Learner` in a match:
at its first decision of a hand it asks the learner for its profile in its position, then
samples actions from it at each information set (``self.rng``); after the hand it passes
the final view to the learner. :class:`BayesExploiter` is the learner of
:mod:`pokerbot.strategies.bayes.exploiter` for small two-player limit games (Kuhn, Leduc, any game
whose public tree :func:`strategies.solvers.build_tree` accepts): registered as
``adaptive`` through :func:`adaptive_factory`.

Responses are recomputed on a schedule (every hand for 20 hands, then after 10 % more
hands); a recomputation costs about 0.1 ms in Kuhn and 10-20 ms in Leduc, far within any
deadline, so ``deadline`` is not consulted.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pokerbot.models.bayes.records import record_from_view
from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.infosets import identity_class, infoset_key, rank_class, suits_irrelevant
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.bayes.errors import UnsupportedGameForAgentError
from pokerbot.strategies.bayes.exploiter import BayesExploiterConfig, BayesExploiterCore, spike_and_slab_model
from pokerbot.strategies.bayes.learners import Learner
from pokerbot.strategies.bayes.responses import ResponseSolver
from pokerbot.strategies.solvers import kuhn
from pokerbot.strategies.solvers.equilibria import equilibrium_policy, has_equilibrium
from pokerbot.strategies.solvers.errors import SolverError
from pokerbot.strategies.solvers.policy import Policy
from pokerbot.strategies.solvers.profile import profile_from_policy
from pokerbot.strategies.solvers.solve import make_solver
from pokerbot.strategies.solvers.tree import PublicTree, build_tree

FALLBACK_ITERATIONS = 2000
"""DCFR iterations for the equilibrium of a game without a shipped one."""


class LearnerStrategy(Strategy):
    """Plays a :class:`~strategies.bayes.learners.Learner` on ``tree`` (see the module docstring)."""

    name = "learner"

    def __init__(self, game: Game, seed: int | None, learner: Learner, tree: PublicTree) -> None:
        super().__init__(game, seed)
        self.learner = learner
        self.tree = tree
        self._where = {
            tree.infoset_key(int(node), int(hand)): (int(node), int(hand))
            for node in tree.decision_nodes
            for hand in np.flatnonzero(tree.valid[node])
        }
        self._hand_number: int | None = None
        self._sigma: np.ndarray | None = None
        self.unknown_infosets = 0
        """Decisions at information sets missing from the tree (answered with a call)."""

    def decide(self, view: MatchState, deadline: float) -> Action:
        """Sample an action from the learner's profile for this hand."""
        if view.hand_number != self._hand_number or self._sigma is None:
            self._sigma = self.learner.policy(view.position)
            self._hand_number = view.hand_number
        place = self._where.get(infoset_key(view.hole_cards, view.state))
        if place is None:
            self.unknown_infosets += 1
            return CALL
        node, hand = place
        children = self.tree.children(node)
        probabilities = self._sigma[children.start : children.stop, hand]
        draw = self.rng.random() * float(probabilities.sum())
        chosen = len(children) - 1
        cumulative = 0.0
        for offset, probability in enumerate(probabilities):
            cumulative += float(probability)
            if draw < cumulative:
                chosen = offset
                break
        char = self.tree.label[children.start + chosen]
        return FOLD if char == "f" else CALL if char == "c" else LIMIT_RAISE

    def observe(self, view: MatchState) -> None:
        """Give the finished hand to the learner."""
        self.learner.observe(record_from_view(view))
        self._sigma = None


def agent_equilibrium(game: Game, tree: PublicTree, kuhn_gamma: float | None = 1.0) -> Policy:
    """The equilibrium the adaptive agent falls back on: in Kuhn the P1 Nash strategy with
    ``gamma = kuhn_gamma`` (P2's unique one), else the shipped equilibrium, else a DCFR solution."""
    if kuhn_gamma is not None and game == load_game("kuhn"):
        return kuhn.nash_policy(kuhn_gamma, game)
    if has_equilibrium(game):
        return equilibrium_policy(game)
    solver = make_solver("dcfr", tree)
    solver.run(FALLBACK_ITERATIONS)
    return solver.average_policy()


class BayesExploiter(LearnerStrategy):
    """The ``adaptive`` agent: :class:`~strategies.bayes.exploiter.BayesExploiterCore` in a match.

    ``config`` holds :class:`~strategies.bayes.exploiter.BayesExploiterConfig` fields and
    ``kuhn_gamma`` (the Kuhn P1 equilibrium explored with; None: the shipped one).
    Raises :class:`UnsupportedGameForAgentError` for games that are not two-player limit
    games small enough to enumerate.
    """

    name = "adaptive"

    def __init__(self, game: Game, seed: int | None = None, **config: Any) -> None:
        if game.num_players != 2 or game.is_nolimit:
            raise UnsupportedGameForAgentError("the adaptive agent plays two-player limit games")
        try:
            tree = build_tree(game)
        except SolverError as error:
            raise UnsupportedGameForAgentError(f"the adaptive agent needs a small game: {error}") from None
        kuhn_gamma = config.pop("kuhn_gamma", 1.0)
        settings = BayesExploiterConfig(**config)
        equilibrium = agent_equilibrium(game, tree, kuhn_gamma)
        table = equilibrium.to_json_dict()["infosets"]
        key_class = rank_class if suits_irrelevant(game) else identity_class
        seeds = np.random.SeedSequence(seed).generate_state(1)
        model = spike_and_slab_model(table, settings, key_class, seed=int(seeds[0]))
        solver = ResponseSolver(tree, model.index)
        core = BayesExploiterCore(solver, profile_from_policy(tree, equilibrium), model, settings)
        super().__init__(game, seed, core, tree)
        self.core = core


def supports_adaptive(game: Game) -> bool:
    """True for two-player limit games small enough for :func:`strategies.solvers.build_tree`."""
    if game.num_players != 2 or game.is_nolimit:
        return False
    try:
        build_tree(game)
    except SolverError:
        return False
    return True


def adaptive_factory(game: Game, seed: int | None = None) -> Strategy:
    """Registry factory of the ``adaptive`` agent (default settings)."""
    return BayesExploiter(game, seed)


__all__ = [
    "BayesExploiter",
    "LearnerStrategy",
    "adaptive_factory",
    "agent_equilibrium",
    "supports_adaptive",
]
