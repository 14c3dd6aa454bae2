"""Bayesian opponent models for small two-player limit games (Kuhn, Leduc).

Every model learns from finished hands and predicts the opponent's action distributions
(:class:`~models.bayes.base.OpponentModel`, river style: ``learn_one`` / ``predict_proba_one``
/ ``predict_policy``), with seeded randomness, and pickles:

* :class:`~models.bayes.kuhn.KuhnP2Model` - seed 000's closed-form MAP of P2's
  ``(eta, xi)`` with Beta priors (fold marginalisation, the dominated-strategy inference
  ``J(Q)bP``); :class:`~models.bayes.kuhn.KuhnP1Model` - P1's ``(alpha, beta, gamma)``
  with an exact numerical MAP;
* :class:`~models.bayes.dirichlet.DirichletModel` - explicit modelling: a Dirichlet
  posterior per information set (or suit-free class), folded hands marginalised by
  importance sampling or exact enumeration;
* :class:`~models.bayes.portfolio.PortfolioModel` - implicit modelling: a posterior over a
  portfolio of policies;
* :class:`~models.bayes.bootstrap.BootstrapModel` - seed 002's policy bootstrapping;
* :class:`~models.bayes.mixture.MixtureModel` - Bayesian model averaging over models
  (e.g. "plays the equilibrium" against "plays near it").

Policies are plain tables (information-set key -> action -> probability) at the interface
and vectors over :class:`~models.bayes.slots.SlotIndex` slots inside; this package imports
only :mod:`protocol` (responses live in :mod:`pokerbot.strategies.bayes`).
"""

from pokerbot.models.bayes.base import OpponentModel, PosteriorSample
from pokerbot.models.bayes.bootstrap import BootstrapModel
from pokerbot.models.bayes.dirichlet import DirichletModel
from pokerbot.models.bayes.errors import BayesModelError, ObservationError, PriorError, UnknownInfosetError
from pokerbot.models.bayes.kuhn import PRIORS, BetaPrior, KuhnP2Model, KuhnPrior, map_eta, map_xi
from pokerbot.models.bayes.kuhn_p1 import KuhnP1Model
from pokerbot.models.bayes.mixture import MixtureModel
from pokerbot.models.bayes.portfolio import PortfolioModel
from pokerbot.models.bayes.records import Decision, HandRecord, record_from_view
from pokerbot.models.bayes.slots import SlotIndex
from pokerbot.protocol.infosets import identity_class, rank_class, suits_irrelevant

__all__ = [
    "PRIORS",
    "BayesModelError",
    "BetaPrior",
    "BootstrapModel",
    "Decision",
    "DirichletModel",
    "HandRecord",
    "KuhnP1Model",
    "KuhnP2Model",
    "KuhnPrior",
    "MixtureModel",
    "ObservationError",
    "OpponentModel",
    "PortfolioModel",
    "PosteriorSample",
    "PriorError",
    "SlotIndex",
    "UnknownInfosetError",
    "identity_class",
    "map_eta",
    "map_xi",
    "rank_class",
    "record_from_view",
    "suits_irrelevant",
]
