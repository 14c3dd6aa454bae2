"""P2's model of P1 in Kuhn poker: ``(alpha, beta, gamma)`` with an exact numerical MAP.

Seed 000 gives no closed form for P2 modelling P1 (its section 3.3 uses an approximation
that assumes the unseen cards were dealt evenly). From P2's view the posterior is

    alpha^a1 (1-alpha)^a0 beta^b1 (1-beta)^b0 gamma^g1 (1-gamma)^g0 (alpha+gamma)^m (2-alpha-beta)^k

with Beta priors (the paper's convention, see :mod:`pokerbot.bot.experiments.kuhn_models`) added to the
exponents: ``m`` counts P2's Queen folding to a bet (P1 held the Jack or the King: the
folded hand is marginalised) and ``k`` P2's King seeing P1 check and fold to its bet (the
Jack or the Queen). Dominated play is excluded as in the paper, which also gives certain
inferences (a Jack-holding P2 that folds faced the King). The posterior is log-concave, so
:meth:`KuhnP1Model.map_parameters` maximises it exactly by coordinate ascent, each step a
bisection on the coordinate's decreasing derivative.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pokerbot.bot.experiments.kuhn_models import JACK, KING, QUEEN, BetaPrior, kuhn_hand, p1_table, table_log_predictive
from pokerbot.models.bayes.base import OpponentModel, PosteriorSample
from pokerbot.models.bayes.records import HandRecord
from pokerbot.models.bayes.slots import SlotIndex


class KuhnP1Model(OpponentModel):
    """P2's model of P1's ``(alpha, beta, gamma)``: exact posterior, numerical MAP.

    ``prior`` gives the Beta prior (paper convention) of each of the three parameters.
    Hands where the observer is not P2 (position 1) are ignored.
    """

    def __init__(
        self,
        prior: tuple[BetaPrior, BetaPrior, BetaPrior] | None = None,
        *,
        samples: int = 400,
        seed: int | None = None,
    ) -> None:
        self.prior = prior or (BetaPrior(1, 1), BetaPrior(1, 1), BetaPrior(1, 1))
        self.exponents = np.zeros(8)
        """``a1, a0, b1, b0, g1, g0, m, k`` from observations (see the module docstring)."""
        self.index = SlotIndex(p1_table(0.5, 0.5, 0.5))
        self.samples = samples
        self.rng = np.random.default_rng(seed)
        self.hands_seen = 0
        self.ignored = 0
        self._posterior: PosteriorSample | None = None

    def totals(self) -> np.ndarray:
        """The exponents with the prior's pretend counts added."""
        alpha, beta, gamma = self.prior
        prior = np.array([alpha.theta, alpha.omega, beta.theta, beta.omega, gamma.theta, gamma.omega, 0, 0])
        return self.exponents + prior

    def learn_record(self, record: HandRecord) -> None:
        """Update the exponents from a hand seen as P2."""
        self.hands_seen += 1
        self._posterior = None
        if record.position != 1:
            self.ignored += 1
            return
        p1, betting, p2 = kuhn_hand(record)
        slot = _p1_exponent(p1, betting, p2 or "")
        if slot is None:
            self.ignored += 1
        else:
            self.exponents[slot] += 1

    def log_posterior(self, alpha: np.ndarray, beta: np.ndarray, gamma: np.ndarray) -> np.ndarray:
        """Unnormalised log posterior at the given parameter values (arrays broadcast)."""
        a1, a0, b1, b0, g1, g0, m, k = self.totals()
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = [
                _xlog(a1, alpha),
                _xlog(a0, 1 - alpha),
                _xlog(b1, beta),
                _xlog(b0, 1 - beta),
                _xlog(g1, gamma),
                _xlog(g0, 1 - gamma),
                _xlog(m, alpha + gamma),
                _xlog(k, 2 - alpha - beta),
            ]
        return np.sum(terms, axis=0)

    def map_parameters(self, sweeps: int = 200, tolerance: float = 1e-10) -> tuple[float, float, float]:
        """The MAP ``(alpha, beta, gamma)`` by coordinate ascent (each step a bisection)."""
        a1, a0, b1, b0, g1, g0, m, k = self.totals()
        x = np.array([_mode(a1, a0), _mode(b1, b0), _mode(g1, g0)])
        for _ in range(sweeps):
            old = x.copy()
            if a1 + a0 + m + k > 0:
                x[0] = _bisect(lambda t: _d(a1, t) - _d(a0, 1 - t) + _d(m, t + x[2]) - _d(k, 2 - t - x[1]))
            if b1 + b0 + k > 0:
                x[1] = _bisect(lambda t: _d(b1, t) - _d(b0, 1 - t) - _d(k, 2 - x[0] - t))
            if g1 + g0 + m > 0:
                x[2] = _bisect(lambda t: _d(g1, t) - _d(g0, 1 - t) + _d(m, x[0] + t))
            if np.max(np.abs(x - old)) < tolerance:
                break
        return float(x[0]), float(x[1]), float(x[2])

    def log_predictive(self, record: HandRecord) -> float:
        """Log probability of P1's actions in ``record`` under the posterior mean policy
        (0 for hands this model ignores)."""
        if record.position != 1:
            return 0.0
        return table_log_predictive(self.index.to_table(self.predictive()), record)

    def posterior(self) -> PosteriorSample:
        """Importance samples: Beta proposals for the separable factors, the coupled
        ``(alpha+gamma)^m (2-alpha-beta)^k`` factor as the weight (cached until the next update)."""
        if self._posterior is None:
            self._posterior = self._importance_sample()
        return self._posterior

    def _importance_sample(self) -> PosteriorSample:
        a1, a0, b1, b0, g1, g0, m, k = self.totals()
        n = self.samples
        alpha = self.rng.beta(a1 + 1, a0 + 1, n)
        beta = self.rng.beta(b1 + 1, b0 + 1, n)
        gamma = self.rng.beta(g1 + 1, g0 + 1, n)
        with np.errstate(divide="ignore"):
            log_w = _xlog(m, alpha + gamma) + _xlog(k, 2 - alpha - beta)
        weights = np.exp(log_w - np.max(log_w))
        policies = np.stack([self.vector(*p) for p in zip(alpha, beta, gamma, strict=True)])
        return PosteriorSample(policies, weights / weights.sum())

    def map_array(self) -> np.ndarray:
        """P1's policy at the MAP estimates."""
        return self.vector(*self.map_parameters())

    def vector(self, alpha: float, beta: float, gamma: float) -> np.ndarray:
        """The slot vector of P1 = ``(alpha, beta, gamma)``."""
        return self.index.from_table(p1_table(float(alpha), float(beta), float(gamma)))


def _p1_exponent(p1: str | None, betting: str, p2: str) -> int | None:
    """Index in ``a1 a0 b1 b0 g1 g0 m k`` that a hand seen by P2 (holding ``p2``) increments."""
    a1, a0, b1, b0, g1, g0, m, k = range(8)
    if betting in ("rc", "rf"):  # P1 bet
        if p1 is not None:
            return {JACK: a1, KING: g1}.get(p1)
        return {JACK: g1, QUEEN: m, KING: a1}[p2]
    if betting == "cc":
        return {JACK: a0, KING: g0}.get(p1 or "")
    if betting == "crc":
        return {QUEEN: b1, KING: g0, JACK: a0}.get(p1 or "")
    if betting == "crf":
        return {JACK: b0, QUEEN: a0, KING: k}[p2]
    return None


def _xlog(count: float, value: np.ndarray | float) -> np.ndarray:
    """``count * log(value)``, 0 when ``count`` is 0 (even where the value is 0)."""
    if count == 0:
        return np.zeros_like(np.asarray(value, dtype=float))
    return count * np.log(np.maximum(value, 1e-300))


def _d(count: float, value: float) -> float:
    """Derivative term ``count / value`` (0 when ``count`` is 0)."""
    return 0.0 if count == 0 else count / max(value, 1e-300)


def _mode(ones: float, zeros: float) -> float:
    total = ones + zeros
    return ones / total if total > 0 else 0.5


def _bisect(derivative: Callable[[float], float], steps: int = 60) -> float:
    """The root in [0, 1] of a decreasing derivative (an endpoint when it has no root there)."""
    lo, hi = 0.0, 1.0
    eps = 1e-15
    if derivative(lo + eps) <= 0:
        return lo
    if derivative(hi - eps) >= 0:
        return hi
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        if derivative(mid) > 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


__all__ = ["KuhnP1Model"]
