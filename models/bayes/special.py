"""Vectorised special functions (numpy has no log-gamma; scipy is not a dependency)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pokerbot.models.bayes.errors import PriorError

_LANCZOS_G = 7.0
_LANCZOS = np.array(
    [
        0.99999999999980993,
        676.5203681218851,
        -1259.1392167224028,
        771.32342877765313,
        -176.61502916214059,
        12.507343278686905,
        -0.13857109526572012,
        9.9843695780195716e-6,
        1.5056327351493116e-7,
    ]
)


def log_gamma(x: np.ndarray | float) -> np.ndarray:
    """``log Gamma(x)`` for ``x > 0``, elementwise (Lanczos approximation, ~1e-14 relative)."""
    x = np.asarray(x, dtype=float)
    small = x < 0.5
    # reflection for small arguments: Gamma(x) Gamma(1 - x) = pi / sin(pi x)
    z = np.where(small, 1.0 - x, x) - 1.0
    series = np.full_like(z, _LANCZOS[0])
    for i in range(1, len(_LANCZOS)):
        series = series + _LANCZOS[i] / (z + i)
    t = z + _LANCZOS_G + 0.5
    large = 0.5 * np.log(2.0 * np.pi) + (z + 0.5) * np.log(t) - t + np.log(series)
    with np.errstate(divide="ignore"):
        reflected = np.log(np.pi) - np.log(np.abs(np.sin(np.pi * x))) - large
    return np.where(small, reflected, large)


def log_beta(parameters: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """``sum over groups of log B(group)``, the multivariate Beta function of each row of
    ``parameters`` (``[..., slot]``) whose groups start at ``starts``."""
    per_slot = log_gamma(parameters).sum(axis=-1)
    sums = np.add.reduceat(parameters, starts, axis=-1)
    return per_slot - log_gamma(sums).sum(axis=-1)


def log_prior_weights(prior_weights: Sequence[float] | None, count: int, what: str) -> np.ndarray:
    """The logs of ``count`` prior weights normalised to sum 1 (uniform when None; a zero
    weight gives ``-inf``). Raises :class:`~models.bayes.errors.PriorError` unless there is
    one non-negative weight per ``what``, not all zero."""
    weights = np.ones(count) if prior_weights is None else np.asarray(prior_weights, dtype=float)
    if weights.shape != (count,) or np.any(weights < 0) or weights.sum() <= 0:
        raise PriorError(f"prior weights must be one non-negative number per {what}, not all 0")
    with np.errstate(divide="ignore"):
        return np.log(weights / weights.sum())


def normalised_weights(log_weights: np.ndarray) -> np.ndarray:
    """Probabilities from unnormalised log weights (shifted by the maximum: no overflow)."""
    shifted = np.exp(log_weights - log_weights.max())
    return shifted / shifted.sum()


__all__ = ["log_beta", "log_gamma", "log_prior_weights", "normalised_weights"]
