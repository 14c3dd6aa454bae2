"""Online learners: what a learner is, and when it recomputes its responses.

A :class:`Learner` gives the profile array it will play in a position for the next hand
(:meth:`Learner.policy`) and learns from finished hands (:meth:`Learner.observe`, a
:class:`~pokerbot.models.bayes.records.HandRecord`). The same objects play real matches
(wrapped in :class:`~pokerbot.strategies.bayes.agent.LearnerStrategy`; the ``adaptive``
agent's learner is :class:`~pokerbot.strategies.bayes.exploiter.BayesExploiterCore`) and run the
experiments (:mod:`pokerbot.bot.experiments.learners` holds the studies' other learners).

Responses are recomputed when :class:`Schedule` says so: after every hand for the first
``warmup`` hands, then whenever the hands seen since the last computation reach
``growth`` times the hands seen (10 % by default: about 60 computations in 1,000 hands).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

import numpy as np

from pokerbot.models.bayes.records import HandRecord

ResponseKind = Literal["map", "thompson", "bbr"]
Evaluate = Callable[[np.ndarray], float]
"""Maps a profile array of the learner's position to its exact value (chips per hand)."""


class Learner(Protocol):
    """What experiments and the match wrapper need from an online learner."""

    version: int
    """Changes whenever the profiles the learner plays may have changed."""

    def policy(self, position: int) -> np.ndarray:
        """The profile array (``[node, hand]``, own edges meaningful) for the next hand."""
        ...

    def observe(self, record: HandRecord) -> None:
        """Learn from one finished hand."""
        ...

    def expected_value(self, position: int, evaluate: Evaluate) -> float:
        """The exact expected value of the next hand in ``position`` (``evaluate`` values a profile)."""
        ...


@dataclass(frozen=True)
class Schedule:
    """When responses are recomputed (see the module docstring)."""

    warmup: int = 20
    growth: float = 0.1

    def due(self, hands: int, last: int) -> bool:
        """True when ``hands`` hands have been seen and the last computation was at ``last``."""
        if last < 0:
            return True
        if hands == last:
            return False
        return hands <= self.warmup or hands - last >= max(1.0, self.growth * hands)


__all__ = ["Evaluate", "Learner", "ResponseKind", "Schedule"]
