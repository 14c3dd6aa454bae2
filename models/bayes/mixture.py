"""A posterior over several opponent models: Bayesian model averaging.

Each component is a full opponent model (a portfolio, an explicit Dirichlet model, ...)
over the *same* slot numbering. The weight of component ``c`` is its prior weight times its
marginal likelihood, accumulated online from the predictive probability it gave each hand
before learning it (the chain rule: ``p(O_1..O_t | c) = prod_t p(O_t | O_<t, c)``).

Used with a one-policy portfolio holding an equilibrium next to a Dirichlet model centred on
that equilibrium, this is a *spike-and-slab* prior: "the opponent plays exactly the
equilibrium" against "the opponent plays something near it". Occam's razor in the marginal
likelihood makes the spike win quickly against an equilibrium player, while a few hands of
clearly non-equilibrium play hand the posterior to the slab.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pokerbot.models.bayes.base import OpponentModel, PosteriorSample
from pokerbot.models.bayes.errors import PriorError
from pokerbot.models.bayes.records import HandRecord
from pokerbot.models.bayes.special import log_prior_weights, normalised_weights


class MixtureModel(OpponentModel):
    """Bayesian model averaging over ``components`` (see the module docstring)."""

    def __init__(
        self,
        components: Sequence[OpponentModel],
        prior_weights: Sequence[float] | None = None,
        *,
        seed: int | None = None,
    ) -> None:
        if not components:
            raise PriorError("a mixture needs at least one component")
        self.components = list(components)
        self.index = self.components[0].index
        for component in self.components[1:]:
            if (
                component.index.classes != self.index.classes
                or component.index.class_actions != self.index.class_actions
            ):
                raise PriorError("mixture components must share one slot numbering (pass index=...)")
        self.log_weights = log_prior_weights(prior_weights, len(components), "component")
        self.rng = np.random.default_rng(seed)
        self.hands_seen = 0

    def weights(self) -> np.ndarray:
        """The posterior probability of each component."""
        return normalised_weights(self.log_weights)

    def log_predictive(self, record: HandRecord) -> float:
        """Log of the component-weighted predictive probability of ``record``."""
        terms = np.array([c.log_predictive(record) for c in self.components])
        terms = terms + np.log(np.maximum(self.weights(), 1e-300))
        top = terms.max()
        return float(top + np.log(np.exp(terms - top).sum()))

    def learn_record(self, record: HandRecord) -> None:
        """Weigh each component by its predictive probability of the hand, then let it learn."""
        self.hands_seen += 1
        predictive = np.array([c.learn_and_score(record) for c in self.components])
        self.log_weights = self.log_weights + predictive
        self.log_weights -= self.log_weights.max()

    def posterior(self) -> PosteriorSample:
        """The components' weighted sets, each scaled by the component's posterior weight."""
        return self._combine([c.posterior() for c in self.components])

    def expectation_set(self) -> PosteriorSample:
        """The components' expectation sets, each scaled by the component's posterior weight."""
        return self._combine([c.expectation_set() for c in self.components])

    def _combine(self, parts: list[PosteriorSample]) -> PosteriorSample:
        weights = self.weights()
        policies = np.concatenate([part.policies for part in parts])
        scaled = np.concatenate([w * part.weights for w, part in zip(weights, parts, strict=True)])
        return PosteriorSample(policies, scaled / scaled.sum())

    def sample(self) -> np.ndarray:
        """Pick a component by its weight, then draw from it."""
        chosen = int(self.rng.choice(len(self.components), p=self.weights()))
        return self.components[chosen].sample()

    def map_array(self) -> np.ndarray:
        """The MAP policy of the most probable component."""
        return self.components[int(np.argmax(self.log_weights))].map_array()


__all__ = ["MixtureModel"]
