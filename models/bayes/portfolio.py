"""Implicit opponent model: a posterior over a portfolio of known opponent policies.

The opponent is assumed to play one of the portfolio's policies ``s_1 .. s_K`` (Tansey 2013,
"implicit modelling"; Bayes' Bluff). After each hand the posterior ``p(s | O)`` is updated
by Bayes' rule with the hand's likelihood, the opponent's hidden cards summed out exactly
(:func:`~models.bayes.slots.record_log_likelihood`): a showdown multiplies by
``prod_d s(h, d)``, a fold by ``sum_h P(h) prod_d s(h, d)``. Probabilities are floored
(``floor``, then renormalised) so a policy is never ruled out by a single action it would
not take.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pokerbot.models.bayes.base import OpponentModel, PosteriorSample
from pokerbot.models.bayes.errors import PriorError
from pokerbot.models.bayes.records import HandRecord
from pokerbot.models.bayes.slots import KeyClass, SlotIndex, Table, record_log_likelihood, safe_log, with_sentinel
from pokerbot.models.bayes.special import log_prior_weights, normalised_weights
from pokerbot.protocol.infosets import identity_class


def merged_table(tables: Sequence[Table]) -> dict[str, dict[str, float]]:
    """Every key of ``tables`` with its actions (the first table's entry for each key)."""
    merged: dict[str, dict[str, float]] = {}
    for table in tables:
        for key, entry in table.items():
            merged.setdefault(key, dict(entry))
    return merged


class PortfolioModel(OpponentModel):
    """Posterior over the policies ``policies`` (tables), with optional prior weights."""

    def __init__(
        self,
        policies: Sequence[Table],
        prior_weights: Sequence[float] | None = None,
        *,
        names: Sequence[str] | None = None,
        key_class: KeyClass = identity_class,
        floor: float = 1e-3,
        seed: int | None = None,
        index: SlotIndex | None = None,
    ) -> None:
        if not policies:
            raise PriorError("a portfolio needs at least one policy")
        log_weights = log_prior_weights(prior_weights, len(policies), "policy")
        self.index = index if index is not None else SlotIndex(merged_table(policies), key_class)
        self.names = tuple(names) if names is not None else tuple(f"s{i}" for i in range(len(policies)))
        if len(self.names) != len(policies):
            raise PriorError("give one name per portfolio policy")
        self.policies = np.stack([self.index.from_table(policy, floor) for policy in policies])
        """``[K, slot]`` the portfolio's behaviour vectors (floored)."""
        self._log_policies = with_sentinel(safe_log(self.policies))
        self.log_weights = log_weights
        """Unnormalised log posterior weights."""
        self.rng = np.random.default_rng(seed)
        self.hands_seen = 0

    def weights(self) -> np.ndarray:
        """The posterior probability of each portfolio policy."""
        return normalised_weights(self.log_weights)

    def record_log_likelihoods(self, record: HandRecord) -> np.ndarray:
        """``[K]`` log likelihood of ``record`` under each policy (hidden cards summed out)."""
        return record_log_likelihood(self._log_policies, self.index.compile(record))

    def log_predictive(self, record: HandRecord) -> float:
        """Log of the posterior-weighted likelihood of ``record``."""
        terms = self.record_log_likelihoods(record) + np.log(np.maximum(self.weights(), 1e-300))
        top = terms.max()
        return float(top + np.log(np.exp(terms - top).sum()))

    def learn_record(self, record: HandRecord) -> None:
        """Multiply each policy's weight by the hand's likelihood under it."""
        self.learn_and_score(record)

    def learn_and_score(self, record: HandRecord) -> float:
        """Learn ``record``; return its log predictive probability from before."""
        self.hands_seen += 1
        likelihoods = self.record_log_likelihoods(record)
        terms = likelihoods + np.log(np.maximum(self.weights(), 1e-300))
        top = terms.max()
        self.log_weights = self.log_weights + likelihoods
        self.log_weights -= self.log_weights.max()
        return float(top + np.log(np.exp(terms - top).sum()))

    def posterior(self) -> PosteriorSample:
        """The portfolio with its posterior weights."""
        return PosteriorSample(self.policies, self.weights())

    def map_array(self) -> np.ndarray:
        """The most probable portfolio policy."""
        return self.policies[int(np.argmax(self.log_weights))].copy()


__all__ = ["PortfolioModel", "merged_table"]
