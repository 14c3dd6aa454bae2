"""The interface every Bayesian opponent model shares.

A model learns from one finished hand at a time and predicts distributions. (The names
differ from the river-style ``learn_one(x, y)`` / ``predict_proba_one(x)`` of the hold'em
models in :mod:`pokerbot.models.hoeffding` on purpose: these learn whole hands and answer
per information set.)

* :meth:`OpponentModel.learn_hand` - the player's final view of a hand (what
  :meth:`strategies.base.Strategy.observe` gets); :meth:`OpponentModel.learn_record` takes
  an already parsed :class:`~models.bayes.records.HandRecord`;
* :meth:`OpponentModel.predict_infoset` - the posterior-predictive action probabilities
  at one information set; :meth:`OpponentModel.predict_policy` - at every one;
* :meth:`OpponentModel.sample_policy` - one opponent policy drawn from the posterior
  (for Thompson responses); :meth:`OpponentModel.map_policy` - the most probable one.

Internally a policy is a vector over the model's slots (:class:`~models.bayes.slots.SlotIndex`)
and the posterior is represented by a weighted set of such vectors
(:class:`PosteriorSample`): importance samples, portfolio members or mixture components.
Linear functionals of the opponent (the expected value of any fixed strategy against it)
are weighted sums over that set, which is what Bayesian best responses need.

Randomness comes from a :class:`numpy.random.Generator` seeded at construction. Models are
picklable and hold no global state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np

from pokerbot.models.bayes.records import HandRecord, record_from_view
from pokerbot.models.bayes.slots import SlotIndex
from pokerbot.protocol.wire import MatchState


@dataclass(frozen=True)
class PosteriorSample:
    """A weighted set of opponent policies standing for a posterior distribution."""

    policies: np.ndarray
    """``[M, slot]`` behaviour vectors (each class sums to 1)."""
    weights: np.ndarray
    """``[M]`` non-negative, summing to 1."""

    @property
    def size(self) -> int:
        """Members of the set."""
        return int(self.weights.shape[0])

    @property
    def effective_size(self) -> float:
        """Kish's effective sample size ``1 / sum w^2`` (``size`` when the weights are equal)."""
        return float(1.0 / np.sum(self.weights**2))

    def mean(self) -> np.ndarray:
        """Weighted mean behaviour vector (the marginal posterior mean of every class)."""
        return self.weights @ self.policies

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        """One member, drawn with probability equal to its weight (a copy)."""
        return self.policies[int(rng.choice(self.size, p=self.weights))].copy()


class OpponentModel(ABC):
    """A posterior over the opponent's behaviour policy (see the module docstring)."""

    index: SlotIndex
    hands_seen: int
    rng: np.random.Generator

    def learn_hand(self, view: MatchState) -> None:
        """Update the posterior with a finished hand seen from ``view.position``."""
        self.learn_record(record_from_view(view))

    @abstractmethod
    def learn_record(self, record: HandRecord) -> None:
        """Update the posterior with one parsed hand."""

    def learn_and_score(self, record: HandRecord) -> float:
        """Learn ``record`` and return its :meth:`log_predictive` from before learning it."""
        score = self.log_predictive(record)
        self.learn_record(record)
        return score

    @abstractmethod
    def log_predictive(self, record: HandRecord) -> float:
        """Log probability of the opponent's actions in ``record`` (its hidden cards summed
        out) under the current posterior predictive, before learning it."""

    @abstractmethod
    def posterior(self) -> PosteriorSample:
        """The current posterior as a weighted set of policies."""

    def expectation_set(self) -> PosteriorSample:
        """A weighted set whose mixture of strategies is the posterior-expected strategy:
        exact for anything linear in the opponent's strategy (values, Bayesian best
        responses). Defaults to :meth:`posterior`."""
        return self.posterior()

    def predictive(self) -> np.ndarray:
        """The posterior-mean behaviour vector."""
        return self.expectation_set().mean()

    def sample(self) -> np.ndarray:
        """One behaviour vector drawn from the posterior."""
        return self.posterior().draw(self.rng)

    @abstractmethod
    def map_array(self) -> np.ndarray:
        """The maximum a posteriori behaviour vector."""

    # ------------------------------------------------------------ plain tables
    def predict_infoset(self, key: str) -> dict[str, float]:
        """Posterior-predictive action probabilities at information set ``key``."""
        return self.index.entry(self.predictive(), key)

    def predict_policy(self) -> dict[str, dict[str, float]]:
        """Posterior-predictive action probabilities at every information set."""
        return self.index.to_table(self.predictive())

    def sample_policy(self) -> dict[str, dict[str, float]]:
        """One policy drawn from the posterior, as a table."""
        return self.index.to_table(self.sample())

    def map_policy(self) -> dict[str, dict[str, float]]:
        """The maximum a posteriori policy, as a table."""
        return self.index.to_table(self.map_array())


__all__ = ["OpponentModel", "PosteriorSample"]
