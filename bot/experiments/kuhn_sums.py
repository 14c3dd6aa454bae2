"""Running sums over trials for the Kuhn study (:mod:`pokerbot.bot.experiments.kuhn_study`).

The study runs its trials in blocks; each block's figures are kept as sums (count, sum, sum
of squares per column), which add up exactly, so that the study's memory depends on the
block size and not on the number of trials, and blocks can run anywhere (an executor's
tasks). :class:`SwitchingSums` holds what a switching method's summary needs,
:class:`AdaptiveSums` what the adaptive learner's does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerbot.bot.experiments import kuhn_sim as ks


@dataclass(frozen=True)
class Moments:
    """Running sums over trials of one figure per column (or one figure): how many trials,
    their sum and their sum of squares. Blocks of trials add up exactly, so a study's memory
    does not grow with its number of trials."""

    count: int
    total: np.ndarray
    squares: np.ndarray

    @classmethod
    def of(cls, values: np.ndarray) -> Moments:
        """The sums of ``values`` (trials along the first axis)."""
        values = np.asarray(values, dtype=float)
        return cls(values.shape[0], values.sum(axis=0), (values**2).sum(axis=0))

    def __add__(self, other: Moments) -> Moments:
        return Moments(self.count + other.count, self.total + other.total, self.squares + other.squares)

    def mean(self) -> np.ndarray:
        return np.asarray(self.total / self.count)

    def se(self) -> np.ndarray:
        """Standard error of the mean (the trials' standard deviation over the root of their number)."""
        mean = self.mean()
        return np.asarray(np.sqrt(np.maximum(self.squares / self.count - mean**2, 0.0) / self.count))


@dataclass(frozen=True)
class SwitchingSums:
    """What a switching method's summary needs, summed over trials (:func:`switching_sums`)."""

    rate: Moments
    total: Moments
    reach_expected: Moments
    reach_chips: Moments
    grid: tuple[int, ...]

    def __add__(self, other: SwitchingSums) -> SwitchingSums:
        return SwitchingSums(
            self.rate + other.rate,
            self.total + other.total,
            self.reach_expected + other.reach_expected,
            self.reach_chips + other.reach_chips,
            self.grid,
        )

    def summary(self) -> dict[str, Any]:
        """Per switching hand: rate and total (mean, standard error), proportions reaching Nash."""
        mean = self.total.mean()
        best = int(np.argmax(mean))
        hands = len(mean) - 1
        return {
            "rate": round_list(self.rate.mean()),
            "rate_se": round_list(self.rate.se()),
            "total": round_list(mean),
            "total_se": round_list(self.total.se()),
            "proportion_expected": round_list(self.reach_expected.mean()),
            "chips_switches": list(self.grid),
            "proportion_chips": round_list(self.reach_chips.mean()),
            "best_switch": best,
            "best_total": float(mean[best]),
            "best_total_se": float(self.total.se()[best]),
            "total_at_50": float(mean[min(50, hands)]),
            "proportion_expected_at_best": float(self.reach_expected.mean()[best]),
        }


def switching_sums(
    run: ks.SwitchRun, eta: np.ndarray, xi: np.ndarray, hands: int, step: int, rng: np.random.Generator
) -> SwitchingSums:
    """The sums of :class:`SwitchingSums` over the trials of ``run`` (a match of ``hands``)."""
    trials = eta.shape[0]
    rate = run.rate[:, : hands + 1]
    explored = np.concatenate([np.zeros((trials, 1)), np.cumsum(run.explore_value[:, :hands], axis=1)], axis=1)
    switches = np.arange(hands + 1)
    total = explored + (hands - switches) * rate
    nash_total = hands * ks.GAME_VALUE
    grid = np.arange(0, hands + 1, step)
    trimmed = ks.SwitchRun(
        run.rate[:, : hands + 1], run.explore_value[:, :hands], run.chips[:, :hands], run.exploit[:, : hands + 1]
    )
    realised = ks.realised_totals(trimmed, eta, xi, grid, rng)
    return SwitchingSums(
        Moments.of(rate),
        Moments.of(total),
        Moments.of(total >= nash_total - 1e-9),
        Moments.of(realised >= nash_total - 1e-9),
        tuple(int(g) for g in grid),
    )


def summarise_switching(
    run: ks.SwitchRun, eta: np.ndarray, xi: np.ndarray, hands: int, step: int, rng: np.random.Generator
) -> dict[str, Any]:
    """Per switching hand: rate and total (mean, standard error), proportions reaching Nash."""
    return switching_sums(run, eta, xi, hands, step, rng).summary()


def round_list(values: np.ndarray, digits: int = 5) -> list[float]:
    """Plain floats for JSON, rounded to ``digits``."""
    return [round(float(v), digits) for v in values]


@dataclass(frozen=True)
class AdaptiveSums:
    """The adaptive learner's figures summed over trials: each hand's expected value, the
    match's expected total and chips, and the trials reaching the Nash expectation."""

    curve: Moments
    total: Moments
    chips: Moments
    reach_expected: Moments
    reach_chips: Moments

    def __add__(self, other: AdaptiveSums) -> AdaptiveSums:
        return AdaptiveSums(*(a + b for a, b in zip(self._parts(), other._parts(), strict=True)))

    def _parts(self) -> tuple[Moments, ...]:
        return (self.curve, self.total, self.chips, self.reach_expected, self.reach_chips)

    def summary(self, config: dict[str, Any]) -> dict[str, Any]:
        return {
            "curve": round_list(self.curve.mean()),
            "curve_se": round_list(self.curve.se()),
            "total": float(self.total.mean()),
            "total_se": float(self.total.se()),
            "chips_total": float(self.chips.mean()),
            "chips_total_se": float(self.chips.se()),
            "proportion_expected": float(self.reach_expected.mean()),
            "proportion_chips": float(self.reach_chips.mean()),
            "trials": self.total.count,
            "config": config,
        }


__all__ = ["AdaptiveSums", "Moments", "SwitchingSums", "round_list", "summarise_switching", "switching_sums"]
