"""One learner against one fixed opponent, hand by hand, with exact expected values.

:func:`play_trial` plays ``hands`` hands on the :class:`~bot.experiments.simulate.TreeSimulator`
and records, for every hand, the learner's *exact* expected winnings given what it plays in
that hand (its profile evaluated against the opponent's profile on the public tree: no card
or action luck) and the chips it actually won. Seats alternate (as in ACPC matches) or are
fixed. Amounts are chips per hand from the learner's point of view.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerbot.bot.experiments.simulate import TreeSimulator
from pokerbot.strategies.bayes.learners import Evaluate, Learner
from pokerbot.strategies.bayes.responses import ResponseSolver


class ProfileEvaluator:
    """Exact values of the learner's profiles against a fixed opponent profile (cached)."""

    def __init__(self, solver: ResponseSolver, opponent_sigma: np.ndarray) -> None:
        self.solver = solver
        self.opponent = opponent_sigma
        self._cache: dict[tuple[int, int], tuple[np.ndarray, float]] = {}

    def value(self, position: int, sigma: np.ndarray) -> float:
        """The value (chips per hand) of ``sigma`` in ``position`` against the opponent."""
        key = (position, id(sigma))
        hit = self._cache.get(key)
        if hit is not None and hit[0] is sigma:
            return hit[1]
        value = self.solver.value_against_profile(position, sigma, self.opponent)
        self._cache[key] = (sigma, value)
        return value

    def for_position(self, position: int) -> Evaluate:
        """:meth:`value` with the position fixed."""
        return lambda sigma: self.value(position, sigma)


@dataclass(frozen=True)
class TrialResult:
    """Per hand: the learner's position, exact expected winnings and chips won."""

    positions: np.ndarray
    expected: np.ndarray
    chips: np.ndarray


def play_trial(
    simulator: TreeSimulator,
    learner: Learner,
    opponent_sigma: np.ndarray,
    evaluator: ProfileEvaluator,
    hands: int,
    rng: np.random.Generator,
    seat: int | None = None,
) -> TrialResult:
    """Play ``hands`` hands (``seat`` None: positions alternate starting at 0)."""
    positions = np.empty(hands, dtype=np.int64)
    expected = np.empty(hands)
    chips = np.empty(hands)
    evaluate = {p: evaluator.for_position(p) for p in (0, 1)}
    for h in range(hands):
        position = h % 2 if seat is None else seat
        sigma = learner.policy(position)
        expected[h] = learner.expected_value(position, evaluate[position])
        sigmas = (sigma, opponent_sigma) if position == 0 else (opponent_sigma, sigma)
        played = simulator.play(sigmas, rng)
        learner.observe(played.records[position])
        positions[h] = position
        chips[h] = played.values[position]
    return TrialResult(positions, expected, chips)


__all__ = ["ProfileEvaluator", "TrialResult", "play_trial"]
