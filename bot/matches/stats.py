"""Match statistics: totals, mean winnings per hand and 95 % confidence intervals.

Winnings are in chips; mbb/hand is ``1000 * chips / big blind / hands`` (milli-big-blinds
per hand). Confidence intervals use the normal approximation: mean ± 1.96 × sample
standard deviation / sqrt(n), from a per-hand series (or, in duplicate matches, a per-deal
series: each deal's average of a player's winnings over its two seatings).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

Z_95 = 1.96
"""Two-sided 95 % quantile of the standard normal distribution."""
SMALL_GAME_BIG_BLIND = 2
"""Games whose big blind is at most this many chips (kuhn, leduc) also report chips/hand."""


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's figures over ``hands`` hands (or deals). Amounts in chips."""

    name: str
    hands: int
    total: float
    """Chips won over the series (in duplicate: over both seatings of every deal)."""
    mean: float
    """Chips won per hand (per deal: the average over the two seatings)."""
    ci95: float
    """Half-width of the 95 % confidence interval of ``mean``, in chips (nan below 2 hands)."""
    big_blind: int

    @property
    def mbb_per_hand(self) -> float:
        """Milli-big-blinds won per hand."""
        return 1000.0 * self.mean / self.big_blind

    @property
    def mbb_ci95(self) -> float:
        """Half-width of the 95 % confidence interval of :attr:`mbb_per_hand`."""
        return 1000.0 * self.ci95 / self.big_blind

    @property
    def sd(self) -> float:
        """The sample standard deviation of the series, in chips per hand (per deal)."""
        return self.ci95 * math.sqrt(self.hands) / Z_95 if self.hands > 1 else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % confidence interval of :attr:`mean`, in chips per hand."""
        return self.mean - self.ci95, self.mean + self.ci95


def mean_and_ci95(series: Sequence[float]) -> tuple[float, float]:
    """The mean of ``series`` and the half-width of its 95 % normal-approximation interval.

    The half-width is nan for fewer than two values; the mean is nan for none.
    """
    values = np.asarray(series, dtype=float)
    if values.size == 0:
        return math.nan, math.nan
    mean = float(values.mean())
    if values.size < 2:
        return mean, math.nan
    return mean, Z_95 * float(values.std(ddof=1)) / math.sqrt(values.size)


def player_series(per_hand_values: Sequence[Mapping[str, float]], name: str) -> list[float]:
    """``name``'s winnings in each hand, in chips (0 for a hand it did not play)."""
    return [values.get(name, 0.0) for values in per_hand_values]


def duplicate_series(
    first: Sequence[Mapping[str, float]], second: Sequence[Mapping[str, float]], name: str
) -> list[float]:
    """Per deal, the average of ``name``'s winnings (chips) over the two seatings.

    ``first`` and ``second`` are the per-hand values of the two halves of a duplicate match
    (the same deals, seats exchanged); the shorter one bounds the number of deals.
    """
    return [(a.get(name, 0.0) + b.get(name, 0.0)) / 2.0 for a, b in zip(first, second, strict=False)]


def summarize(name: str, series: Sequence[float], big_blind: int, total: float | None = None) -> PlayerStats:
    """:class:`PlayerStats` of ``series`` (chips per hand or per deal).

    ``total`` defaults to the sum of the series; a duplicate match passes the sum over both
    seatings instead.
    """
    mean, ci95 = mean_and_ci95(series)
    return PlayerStats(
        name=name,
        hands=len(series),
        total=float(sum(series)) if total is None else total,
        mean=mean,
        ci95=ci95,
        big_blind=big_blind,
    )


def is_small_game(big_blind: int) -> bool:
    """True for games with blinds of a chip or two, where chips/hand is the natural unit."""
    return big_blind <= SMALL_GAME_BIG_BLIND


def match_stats(
    runs: Sequence[Sequence[Mapping[str, float]]], names: Sequence[str], big_blind: int
) -> list[PlayerStats]:
    """Figures for each of ``names`` from the per-hand values (chips, by name) of one run,
    or of the two halves of a duplicate match (then per deal, see :func:`duplicate_series`)."""
    if len(runs) == 1:
        return [summarize(name, player_series(runs[0], name), big_blind) for name in names]
    if len(runs) != 2:
        raise ValueError(f"expected one run or the two halves of a duplicate match, got {len(runs)} runs")
    first, second = runs
    return [
        summarize(
            name,
            duplicate_series(first, second, name),
            big_blind,
            total=sum(player_series(first, name)) + sum(player_series(second, name)),
        )
        for name in names
    ]
