"""The small-game studies' learners (Tansey 2013): models plus responses, and fixed profiles.

* :class:`ModelLearner` - any opponent model with a MAP, Thompson or Bayesian best
  response (Tansey's (2013) explicit learner: a Dirichlet model with Thompson responses; policy
  bootstrapping: a :class:`~pokerbot.bot.experiments.bootstrap_model.BootstrapModel`);
* :class:`PortfolioLearner` - Tansey's (2013) implicit learner: each hand, a portfolio member is
  drawn from the posterior and its precomputed best response is played;
* :class:`FixedLearner` - plays one profile (an equilibrium, an exploration strategy).

Each follows :class:`~pokerbot.strategies.bayes.learners.Learner` and recomputes on its
:class:`~pokerbot.strategies.bayes.learners.Schedule`.
"""

from __future__ import annotations

import numpy as np

from pokerbot.models.bayes.base import OpponentModel
from pokerbot.models.bayes.portfolio import PortfolioModel
from pokerbot.models.bayes.records import HandRecord
from pokerbot.strategies.bayes.learners import Evaluate, ResponseKind, Schedule
from pokerbot.strategies.bayes.responses import (
    ResponseSolver,
    bayesian_best_response,
    map_response,
    thompson_response,
)


class FixedLearner:
    """Plays fixed profile arrays (one per position, or one for both); learns nothing."""

    version = 0

    def __init__(self, profiles: dict[int, np.ndarray] | np.ndarray) -> None:
        self.profiles = profiles if isinstance(profiles, dict) else {0: profiles, 1: profiles}

    def policy(self, position: int) -> np.ndarray:
        """The fixed profile of ``position``."""
        return self.profiles[position]

    def observe(self, record: HandRecord) -> None:
        """Nothing to learn."""

    def expected_value(self, position: int, evaluate: Evaluate) -> float:
        """``evaluate`` of the fixed profile."""
        return evaluate(self.policy(position))


class ModelLearner:
    """An opponent model with a response of kind ``response`` (see the module docstring).

    ``fallback`` gives the profile played in a position the model does not cover (e.g. a
    one-position Kuhn model when seated in the other position).
    """

    def __init__(
        self,
        solver: ResponseSolver,
        model: OpponentModel,
        response: ResponseKind = "bbr",
        schedule: Schedule | None = None,
        fallback: np.ndarray | None = None,
    ) -> None:
        self.solver = solver
        self.model = model
        self.response = response
        self.schedule = schedule or Schedule()
        self.fallback = fallback
        self.version = 0
        self._profiles: dict[int, np.ndarray] = {}
        self._computed_at: dict[int, int] = {}

    def observe(self, record: HandRecord) -> None:
        """Let the model learn the hand."""
        self.model.learn_record(record)

    def policy(self, position: int) -> np.ndarray:
        """The current response (recomputed when the schedule says so)."""
        hands = self.model.hands_seen
        if self.schedule.due(hands, self._computed_at.get(position, -1)):
            self._profiles[position] = self._compute(position)
            self._computed_at[position] = hands
            self.version += 1
        return self._profiles[position]

    def _compute(self, position: int) -> np.ndarray:
        if not self.solver.bridge.covers(1 - position):
            if self.fallback is None:
                raise ValueError(f"the model does not cover the opponent of position {position}")
            return self.fallback
        if self.response == "map":
            return map_response(self.solver, self.model, position).sigma
        if self.response == "thompson":
            return thompson_response(self.solver, self.model, position).sigma
        return bayesian_best_response(self.solver, self.model, position).sigma

    def expected_value(self, position: int, evaluate: Evaluate) -> float:
        """``evaluate`` of the current response."""
        return evaluate(self.policy(position))


class PortfolioLearner:
    """Implicit modelling: play the best response to a portfolio member drawn from the posterior.

    The best responses to every member are computed once; the expected value of a hand is
    the posterior-weighted value of the members' responses (exact, no sampling noise).
    """

    def __init__(self, solver: ResponseSolver, model: PortfolioModel, seed: int | None = None) -> None:
        self.solver = solver
        self.model = model
        self.rng = np.random.default_rng(seed)
        self.version = 0
        self.responses = {
            p: [solver.best_response(p, member).sigma for member in model.policies]
            for p in (0, 1)
            if solver.bridge.covers(1 - p)
        }

    def observe(self, record: HandRecord) -> None:
        """Update the portfolio posterior."""
        self.model.learn_record(record)
        self.version += 1

    def policy(self, position: int) -> np.ndarray:
        """The best response to a member drawn from the posterior."""
        chosen = int(self.rng.choice(len(self.model.policies), p=self.model.weights()))
        return self.responses[position][chosen]

    def expected_value(self, position: int, evaluate: Evaluate) -> float:
        """Posterior-weighted value of the members' best responses."""
        weights = self.model.weights()
        return float(sum(w * evaluate(r) for w, r in zip(weights, self.responses[position], strict=True) if w > 1e-9))


__all__ = ["FixedLearner", "ModelLearner", "PortfolioLearner"]
