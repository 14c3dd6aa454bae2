"""Bayesian responses, Exp4 strategy learning and the ``adaptive`` agent for small games.

* :mod:`~strategies.bayes.responses` - MAP, Thompson and Bayesian best responses and
  robust (restricted Nash) responses to the models of :mod:`pokerbot.models.bayes`, exact on the
  public tree (:class:`~strategies.bayes.responses.ResponseSolver`);
* :mod:`~strategies.bayes.exp4` - seed 000's sequential Exp4 with per-card scores;
* :mod:`~strategies.bayes.learners` - online learners (model + response + schedule);
* :mod:`~strategies.bayes.adaptive` - the adaptive learner and its safety rule;
* :mod:`~strategies.bayes.agent` - learners as match strategies, :class:`AdaptiveAgent`;
* :mod:`~strategies.bayes.simulate`, :mod:`~strategies.bayes.trials`,
  :mod:`~strategies.bayes.opponents`, :mod:`~strategies.bayes.kuhn_study`,
  :mod:`~strategies.bayes.leduc_study` - the experiments of seeds 000 and 002.

Values are chips per hand.
"""

from pokerbot.strategies.bayes.adaptive import AdaptiveConfig, AdaptiveCore, Plan, adaptive_model
from pokerbot.strategies.bayes.agent import AdaptiveAgent, LearnerStrategy, adaptive_factory, supports_adaptive
from pokerbot.strategies.bayes.exp4 import Exp4Learner, SequentialExp4
from pokerbot.strategies.bayes.learners import FixedLearner, Learner, ModelLearner, PortfolioLearner, Schedule
from pokerbot.strategies.bayes.responses import (
    Response,
    ResponseSolver,
    bayesian_best_response,
    map_response,
    robust_response,
    thompson_response,
)

__all__ = [
    "AdaptiveAgent",
    "AdaptiveConfig",
    "AdaptiveCore",
    "Exp4Learner",
    "FixedLearner",
    "Learner",
    "LearnerStrategy",
    "ModelLearner",
    "Plan",
    "PortfolioLearner",
    "Response",
    "ResponseSolver",
    "Schedule",
    "SequentialExp4",
    "adaptive_factory",
    "adaptive_model",
    "bayesian_best_response",
    "map_response",
    "robust_response",
    "supports_adaptive",
    "thompson_response",
]
