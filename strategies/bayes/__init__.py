"""Bayesian responses and the Bayesian exploiter, the ``adaptive`` agent of small games.

* :mod:`~pokerbot.strategies.bayes.responses` - MAP, Thompson and Bayesian best responses and
  robust (restricted Nash) responses to the models of :mod:`pokerbot.models.bayes`, exact on the
  public tree (:class:`~pokerbot.strategies.bayes.responses.ResponseSolver`);
* :mod:`~pokerbot.strategies.bayes.learners` - what an online learner is, and its schedule;
* :mod:`~pokerbot.strategies.bayes.exploiter` - the Bayesian exploiter and its safety rule;
* :mod:`~pokerbot.strategies.bayes.agent` - learners as match strategies, :class:`BayesExploiter`.

The experiments of seeds 000 and 002 (simulators, studies, Exp4, the studies' learners and
opponents) are in :mod:`pokerbot.bot.experiments`.

Values are chips per hand.
"""

from pokerbot.strategies.bayes.agent import BayesExploiter, LearnerStrategy, adaptive_factory, supports_adaptive
from pokerbot.strategies.bayes.exploiter import BayesExploiterConfig, BayesExploiterCore, Plan, spike_and_slab_model
from pokerbot.strategies.bayes.learners import Learner, Schedule
from pokerbot.strategies.bayes.responses import (
    Response,
    ResponseSolver,
    bayesian_best_response,
    map_response,
    robust_response,
    thompson_response,
)

__all__ = [
    "BayesExploiter",
    "BayesExploiterConfig",
    "BayesExploiterCore",
    "Learner",
    "LearnerStrategy",
    "Plan",
    "Response",
    "ResponseSolver",
    "Schedule",
    "adaptive_factory",
    "spike_and_slab_model",
    "bayesian_best_response",
    "map_response",
    "robust_response",
    "supports_adaptive",
    "thompson_response",
]
