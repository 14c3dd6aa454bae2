"""Exception types of the solver package.

Every error raised on bad input derives from :class:`SolverError`, itself a
:class:`ValueError`, so command-line code can catch one type and exit with status 2.
"""

from __future__ import annotations


class SolverError(ValueError):
    """Base class of every error raised by :mod:`pokerbot.strategies.solvers`."""


class UnsupportedGameError(SolverError):
    """The game cannot be solved here: no-limit betting, or too large to enumerate."""


class PolicyError(SolverError):
    """A policy is malformed: bad JSON, wrong schema, probabilities that are not a distribution."""


class PolicyGameMismatchError(PolicyError):
    """A policy was made for another game than the one it is used with."""


class NoEquilibriumError(SolverError, LookupError):
    """No precomputed equilibrium policy ships for the requested game."""
