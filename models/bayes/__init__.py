"""Bayesian opponent models for small two-player limit games (Kuhn, Leduc).

Every model learns from finished hands and predicts the opponent's action distributions
(:class:`~models.bayes.base.OpponentModel`: ``learn_hand`` / ``predict_infoset``
/ ``predict_policy``), with seeded randomness, and pickles:

* :class:`~models.bayes.dirichlet.DirichletModel` - explicit modelling: a Dirichlet
  posterior per information set (or suit-free class), folded hands marginalised by
  importance sampling or exact enumeration;
* :class:`~models.bayes.portfolio.PortfolioModel` - implicit modelling: a posterior over a
  portfolio of policies;
* :class:`~models.bayes.mixture.MixtureModel` - Bayesian model averaging over models
  (e.g. "plays the equilibrium" against "plays near it").

Policies are plain tables (information-set key -> action -> probability) at the interface
and vectors over :class:`~models.bayes.slots.SlotIndex` slots inside; this package imports
only :mod:`protocol` (responses live in :mod:`pokerbot.strategies.bayes`). The models only
the small-game studies use (Southey et al.'s Kuhn models, Tansey's policy bootstrapping) are in
:mod:`pokerbot.bot.experiments`.
"""

from pokerbot.models.bayes.base import OpponentModel, PosteriorSample
from pokerbot.models.bayes.dirichlet import DirichletModel
from pokerbot.models.bayes.errors import BayesModelError, ObservationError, PriorError, UnknownInfosetError
from pokerbot.models.bayes.mixture import MixtureModel
from pokerbot.models.bayes.portfolio import PortfolioModel
from pokerbot.models.bayes.records import Decision, HandRecord, record_from_view
from pokerbot.models.bayes.slots import SlotIndex
from pokerbot.protocol.infosets import identity_class, rank_class, suits_irrelevant

__all__ = [
    "BayesModelError",
    "Decision",
    "DirichletModel",
    "HandRecord",
    "MixtureModel",
    "ObservationError",
    "OpponentModel",
    "PortfolioModel",
    "PosteriorSample",
    "PriorError",
    "SlotIndex",
    "UnknownInfosetError",
    "identity_class",
    "rank_class",
    "record_from_view",
    "suits_irrelevant",
]
