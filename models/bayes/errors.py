"""Exception types of the Bayesian opponent models (:mod:`pokerbot.models.bayes`)."""

from __future__ import annotations


class BayesModelError(ValueError):
    """Base class of every error :mod:`pokerbot.models.bayes` raises on bad input."""


class ObservationError(BayesModelError):
    """A finished hand cannot be read as an observation (unfinished, wrong game, not 2 players)."""


class UnknownInfosetError(BayesModelError):
    """An observation reaches an information set (or an action) the model has no parameter for."""


class PriorError(BayesModelError):
    """A prior or a portfolio is malformed (empty, negative strength, bad probabilities)."""


__all__ = ["BayesModelError", "ObservationError", "PriorError", "UnknownInfosetError"]
