"""Policy bootstrapping (Tansey 2013, Algorithm 4): a portfolio speeds up an explicit model.

After every hand the portfolio's posterior is updated (the implicit model), one portfolio
policy ``s_p`` is drawn from it (importance sampling over the portfolio) and *added to the
explicit model's Dirichlet parameters* (``M <- M + s_p``), so every information set of the
explicit model moves towards the best-fitting portfolio members, not only those on the
observed path. Predictions and samples are the explicit model's. With ``direct=True`` the
explicit model also learns the observed hand itself (Algorithm 4 as printed does not).
"""

from __future__ import annotations

import numpy as np

from pokerbot.models.bayes.base import OpponentModel, PosteriorSample
from pokerbot.models.bayes.dirichlet import DirichletModel
from pokerbot.models.bayes.errors import PriorError
from pokerbot.models.bayes.portfolio import PortfolioModel
from pokerbot.models.bayes.records import HandRecord


class BootstrapModel(OpponentModel):
    """An explicit model bootstrapped from a portfolio (see the module docstring).

    ``weight`` is the pseudo-count each drawn portfolio policy adds per information set.
    """

    def __init__(
        self,
        portfolio: PortfolioModel,
        explicit: DirichletModel,
        *,
        weight: float = 1.0,
        direct: bool = False,
        seed: int | None = None,
    ) -> None:
        if explicit.index.classes != portfolio.index.classes:
            raise PriorError("the portfolio and the explicit model must share one slot numbering")
        if weight <= 0:
            raise PriorError(f"the bootstrap weight must be positive, got {weight}")
        self.portfolio = portfolio
        self.explicit = explicit
        self.index = explicit.index
        self.weight = weight
        self.direct = direct
        self.rng = np.random.default_rng(seed)
        self.hands_seen = 0

    def log_predictive(self, record: HandRecord) -> float:
        """The explicit model's predictive log probability of ``record``."""
        return self.explicit.log_predictive(record)

    def learn_record(self, record: HandRecord) -> None:
        """Update the portfolio, draw a member from it and add it to the explicit model."""
        self.hands_seen += 1
        self.portfolio.learn_record(record)
        if self.direct:
            self.explicit.learn_record(record)
        drawn = self.portfolio.posterior().draw(self.rng)
        self.explicit.add_pseudo_counts(drawn, self.weight)

    def posterior(self) -> PosteriorSample:
        """The explicit model's posterior."""
        return self.explicit.posterior()

    def expectation_set(self) -> PosteriorSample:
        """The explicit model's expectation set."""
        return self.explicit.expectation_set()

    def sample(self) -> np.ndarray:
        """A draw from the explicit model's posterior."""
        return self.explicit.sample()

    def map_array(self) -> np.ndarray:
        """The explicit model's MAP policy."""
        return self.explicit.map_array()


__all__ = ["BootstrapModel"]
