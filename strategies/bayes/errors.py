"""Exception types of :mod:`pokerbot.strategies.bayes`."""

from __future__ import annotations


class BayesStrategyError(ValueError):
    """Base class of the errors raised by the Bayesian responses and agents."""


class UnsupportedGameForAgentError(BayesStrategyError):
    """The game is not a small two-player limit game the Bayesian agents can solve exactly."""


class CoverageError(BayesStrategyError):
    """An opponent model has no parameters for some information set of the position it models."""


__all__ = ["BayesStrategyError", "CoverageError", "UnsupportedGameForAgentError"]
