"""Closed-form Bayesian models of Kuhn poker opponents (Southey, Hoehn and Holte 2009).

Cards: the ACPC ``kuhn`` deck ``Qs Ks As`` is the paper's Jack, Queen, King; position 0 is
the paper's P1, who acts first. Both players are assumed to avoid dominated strategies, so
P2 is ``(eta, xi)`` (call a bet with the Queen, bluff the Jack after a check) and P1 is
``(alpha, beta, gamma)`` (bet the Jack, call with the Queen after check-bet, bet the King).

Priors are the paper's Beta distributions, written as *pretend observations*:
``Beta(theta, omega)`` has density proportional to ``x^theta (1-x)^omega`` (the paper's
convention, its footnote 10), i.e. the standard ``Beta(theta + 1, omega + 1)``.

:class:`KuhnP2Model` (P1 modelling P2) keeps the paper's counts and computes the MAP
estimates in closed form (its section 3.2): with

    A = N(JQbB) + N(KQbB) + theta_eta      D = N(QJpBb) + N(KJpBb) + theta_xi
    B = N(J(Q)bP) + omega_eta              E = N(QJpP) + N(KJpP) + omega_xi
    C = N(K?bP)                            F = N(Q?pBp)

the posterior is ``eta^A (1-eta)^B (2-eta)^C xi^D (1-xi)^E (1+xi)^F``; the ``(2 - eta)``
and ``(1 + xi)`` factors marginalise P2's unseen card after a fold, and ``J(Q)bP`` is the
dominated-strategy inference (a King never folds, so the folder held the Queen). The
maximisers are the roots in [0, 1] of the quadratics of :func:`map_eta` and :func:`map_xi`.

:class:`~pokerbot.bot.experiments.kuhn_p1_model.KuhnP1Model` (P2 modelling P1) has no closed
form: the paper uses an approximation (its section 3.3). Here the exact posterior
``alpha^a1 (1-alpha)^a0 beta^b1 (1-beta)^b0 gamma^g1 (1-gamma)^g0 (alpha+gamma)^m (2-alpha-beta)^k``
is maximised numerically (it is log-concave: coordinate ascent with bisection), where
``m`` counts the Queen folding to a bet (P1 held the Jack or the King) and ``k`` the King
seeing P1 check and fold to a bet (P1 held the Jack or the Queen).

Both are :class:`~models.bayes.base.OpponentModel` objects; their posterior samples come
from exact grids (P2) or importance sampling (P1), so the responses of
:mod:`pokerbot.strategies.bayes` work with them unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerbot.models.bayes.base import OpponentModel, PosteriorSample
from pokerbot.models.bayes.errors import ObservationError, PriorError
from pokerbot.models.bayes.records import HandRecord
from pokerbot.models.bayes.slots import SlotIndex
from pokerbot.protocol.infosets import cards_text

JACK, QUEEN, KING = "Qs", "Ks", "As"
"""The paper's cards as ACPC card strings of the ``kuhn`` game."""
_RANK = {JACK: 0, QUEEN: 1, KING: 2}
GRID_POINTS = 401
"""Points of the grids on which the one-dimensional posteriors are integrated."""


@dataclass(frozen=True)
class BetaPrior:
    """``Beta(theta, omega)`` in the paper's convention: ``theta`` pretend choices one way
    (bet / call), ``omega`` the other; density proportional to ``x^theta (1-x)^omega``."""

    theta: float
    omega: float

    def __post_init__(self) -> None:
        if self.theta < 0 or self.omega < 0:
            raise PriorError(f"Beta prior parameters must be non-negative, got {self.theta}, {self.omega}")

    @property
    def mode(self) -> float:
        """The most probable value (0.5 for the uninformed prior)."""
        total = self.theta + self.omega
        return self.theta / total if total > 0 else 0.5


@dataclass(frozen=True)
class KuhnPrior:
    """Independent priors on P2's ``eta`` and ``xi``."""

    eta: BetaPrior
    xi: BetaPrior


PRIORS: dict[str, KuhnPrior] = {
    "weak": KuhnPrior(BetaPrior(1, 1), BetaPrior(1, 1)),
    "weak-bad": KuhnPrior(BetaPrior(1.4, 0.6), BetaPrior(1, 1)),
    "strong": KuhnPrior(BetaPrior(10, 10), BetaPrior(10, 10)),
    "strong-bad": KuhnPrior(BetaPrior(14, 6), BetaPrior(10, 10)),
    "uninformed": KuhnPrior(BetaPrior(0, 0), BetaPrior(0, 0)),
}
"""Southey, Hoehn and Holte's (2009) five priors of section 5.2 (most probable (eta, xi): (0.5, 0.5) or (0.7, 0.5))."""


# ------------------------------------------------------------------ closed forms
def map_eta(a: np.ndarray | float, b: np.ndarray | float, c: np.ndarray | float, default: float = 0.5) -> np.ndarray:
    """argmax of ``eta^A (1-eta)^B (2-eta)^C`` on [0, 1] (counts with prior included).

    The negative root of ``(A+B+C) eta^2 - (3A+2B+C) eta + 2A``; ``default`` without data.
    Works elementwise on arrays.
    """
    a, b, c = np.asarray(a, float), np.asarray(b, float), np.asarray(c, float)
    qa, qb, qc = a + b + c, -3.0 * a - 2.0 * b - c, 2.0 * a
    with np.errstate(invalid="ignore", divide="ignore"):
        root = (-qb - np.sqrt(np.maximum(qb * qb - 4.0 * qa * qc, 0.0))) / (2.0 * qa)
    return np.clip(np.where(qa > 0, root, default), 0.0, 1.0)


def map_xi(d: np.ndarray | float, e: np.ndarray | float, f: np.ndarray | float, default: float = 0.5) -> np.ndarray:
    """argmax of ``xi^D (1-xi)^E (1+xi)^F`` on [0, 1] (counts with prior included).

    The root in [0, 1] of ``-(D+E+F) xi^2 + (F-E) xi + D``; ``default`` without data.
    """
    d, e, f = np.asarray(d, float), np.asarray(e, float), np.asarray(f, float)
    qa, qb, qc = -d - e - f, f - e, d
    with np.errstate(invalid="ignore", divide="ignore"):
        root = (-qb - np.sqrt(np.maximum(qb * qb - 4.0 * qa * qc, 0.0))) / (2.0 * qa)
    return np.clip(np.where(qa < 0, root, default), 0.0, 1.0)


def p1_table(alpha: float, beta: float, gamma: float) -> dict[str, dict[str, float]]:
    """P1's (position 0's) information sets for ``(alpha, beta, gamma)``."""
    return {
        f"{JACK}:": {"c": 1.0 - alpha, "r": alpha},
        f"{QUEEN}:": {"c": 1.0, "r": 0.0},
        f"{KING}:": {"c": 1.0 - gamma, "r": gamma},
        f"{JACK}:cr": {"f": 1.0, "c": 0.0},
        f"{QUEEN}:cr": {"f": 1.0 - beta, "c": beta},
        f"{KING}:cr": {"f": 0.0, "c": 1.0},
    }


def p2_table(eta: float, xi: float) -> dict[str, dict[str, float]]:
    """P2's (position 1's) information sets for ``(eta, xi)``."""
    return {
        f"{JACK}:r": {"f": 1.0, "c": 0.0},
        f"{QUEEN}:r": {"f": 1.0 - eta, "c": eta},
        f"{KING}:r": {"f": 0.0, "c": 1.0},
        f"{JACK}:c": {"c": 1.0 - xi, "r": xi},
        f"{QUEEN}:c": {"c": 1.0, "r": 0.0},
        f"{KING}:c": {"c": 0.0, "r": 1.0},
    }


_MOVES = {"cc": "pP", "crc": "pBb", "crf": "pBp", "rc": "bB", "rf": "bP"}
"""ACPC Kuhn betting strings in the paper's notation (P1 lower case, P2 upper case)."""


def observation_name(p1_card: str | None, betting: str, p2_card: str | None) -> str:
    """Southey, Hoehn and Holte's (2009) name of a hand, e.g. ``KQbB`` or ``K?bP`` (``?``: card not seen)."""
    letters = {JACK: "J", QUEEN: "Q", KING: "K"}
    if betting not in _MOVES:
        raise ObservationError(f"{betting!r} is not a finished Kuhn betting sequence")
    return letters.get(p1_card or "", "?") + letters.get(p2_card or "", "?") + _MOVES[betting]


def kuhn_hand(record: HandRecord) -> tuple[str | None, str, str | None]:
    """(P1's card, betting, P2's card), None for a card not seen; ObservationError if not Kuhn."""
    if len(record.own_cards) != 1 or record.board:
        raise ObservationError("not a Kuhn hand: Kuhn has one hole card and no board")
    own = cards_text(record.own_cards)
    theirs = record.candidates[0] if record.shown else None
    if own not in _RANK or (theirs is not None and theirs not in _RANK):
        raise ObservationError(f"not a Kuhn deck card: {own!r}")
    if record.position == 0:
        return own, record.betting, theirs
    return theirs, record.betting, own


def table_log_predictive(table: dict[str, dict[str, float]], record: HandRecord) -> float:
    """Log probability of the opponent's decisions in ``record`` under ``table``."""
    total = 0.0
    for candidate in record.candidates:
        p = 1.0
        for decision in record.decisions:
            p *= table[candidate + decision.suffix][decision.action]
        total += p / len(record.candidates)
    return float(np.log(max(total, 1e-300)))


# ------------------------------------------------------------------ P1 models P2
class KuhnP2Model(OpponentModel):
    """P1's model of P2's ``(eta, xi)``: Beta priors, closed-form MAP (see the module docstring).

    Hands where the observer is not P1 (position 0) are ignored.
    """

    COUNTS = ("JQbB", "KQbB", "J(Q)bP", "K?bP", "QJpBb", "KJpBb", "QJpP", "KJpP", "Q?pBp")

    def __init__(self, prior: KuhnPrior | str = "weak", *, samples: int = 200, seed: int | None = None) -> None:
        self.prior = PRIORS[prior] if isinstance(prior, str) else prior
        self.counts: dict[str, int] = dict.fromkeys(self.COUNTS, 0)
        self.index = SlotIndex(p2_table(0.5, 0.5))
        self.samples = samples
        self.rng = np.random.default_rng(seed)
        self.hands_seen = 0
        self.ignored = 0
        """Hands learnt from which carry no information on (eta, xi)."""
        self._posterior: PosteriorSample | None = None

    # ---------------------------------------------------------------- counts
    def abc(self) -> tuple[float, float, float, float, float, float]:
        """The paper's ``A, B, C, D, E, F`` (prior included)."""
        n = self.counts
        return (
            n["JQbB"] + n["KQbB"] + self.prior.eta.theta,
            n["J(Q)bP"] + self.prior.eta.omega,
            float(n["K?bP"]),
            n["QJpBb"] + n["KJpBb"] + self.prior.xi.theta,
            n["QJpP"] + n["KJpP"] + self.prior.xi.omega,
            float(n["Q?pBp"]),
        )

    @staticmethod
    def classify(p1_card: str | None, betting: str, p2_card: str | None) -> str | None:
        """Which count a P1 observation increments (None: no information on P2)."""
        name = observation_name(p1_card, betting, p2_card)
        if name in ("JQbB", "KQbB", "QJpBb", "KJpBb", "QJpP", "KJpP"):
            return name
        if name == "J?bP":
            return "J(Q)bP"
        if name in ("K?bP", "Q?pBp"):
            return name
        return None

    def learn_record(self, record: HandRecord) -> None:
        """Count a hand seen as P1 (other hands are ignored)."""
        self.hands_seen += 1
        self._posterior = None
        if record.position != 0:
            self.ignored += 1
            return
        p1, betting, p2 = kuhn_hand(record)
        name = self.classify(p1, betting, p2)
        if name is None:
            self.ignored += 1
        else:
            self.counts[name] += 1

    def log_predictive(self, record: HandRecord) -> float:
        """Log probability of P2's actions in ``record`` under the posterior-mean ``(eta, xi)``
        (0 for hands this model ignores)."""
        if record.position != 0:
            return 0.0
        return table_log_predictive(p2_table(*self.posterior_means()), record)

    # ------------------------------------------------------------- estimates
    def eta(self) -> float:
        """MAP estimate of eta (the prior's mode without data)."""
        a, b, c, *_ = self.abc()
        return float(map_eta(a, b, c, self.prior.eta.mode))

    def xi(self) -> float:
        """MAP estimate of xi (the prior's mode without data)."""
        *_, d, e, f = self.abc()
        return float(map_xi(d, e, f, self.prior.xi.mode))

    def grids(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(grid, eta density, xi density)``: the exact posteriors on :data:`GRID_POINTS` points
        (normalised to sum to 1)."""
        a, b, c, d, e, f = self.abc()
        grid = np.linspace(0.0, 1.0, GRID_POINTS)
        log_x, log_1x = np.log(np.maximum(grid, 1e-300)), np.log(np.maximum(1.0 - grid, 1e-300))
        eta = a * log_x + b * log_1x + c * np.log(2.0 - grid)
        xi = d * log_x + e * log_1x + f * np.log(1.0 + grid)
        return grid, _normalised(eta), _normalised(xi)

    def posterior_means(self) -> tuple[float, float]:
        """Posterior means of ``(eta, xi)``."""
        grid, eta, xi = self.grids()
        return float(grid @ eta), float(grid @ xi)

    def posterior(self) -> PosteriorSample:
        """``samples`` draws of ``(eta, xi)`` from the exact grids, as P2 policy vectors
        (cached until the next update)."""
        if self._posterior is None:
            self._posterior = self._draw_posterior()
        return self._posterior

    def _draw_posterior(self) -> PosteriorSample:
        grid, eta, xi = self.grids()
        etas = _draw(grid, eta, self.samples, self.rng)
        xis = _draw(grid, xi, self.samples, self.rng)
        policies = np.stack([self.vector(e, x) for e, x in zip(etas, xis, strict=True)])
        return PosteriorSample(policies, np.full(self.samples, 1.0 / self.samples))

    def predictive(self) -> np.ndarray:
        """P2's policy at the posterior means (exact: the model is linear in each parameter)."""
        return self.vector(*self.posterior_means())

    def map_array(self) -> np.ndarray:
        """P2's policy at the MAP estimates."""
        return self.vector(self.eta(), self.xi())

    def vector(self, eta: float, xi: float) -> np.ndarray:
        """The slot vector of P2 = ``(eta, xi)``."""
        return self.index.from_table(p2_table(float(eta), float(xi)))


def _normalised(log_density: np.ndarray) -> np.ndarray:
    weights = np.exp(log_density - np.max(log_density))
    return weights / weights.sum()


def _draw(grid: np.ndarray, weights: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` draws from a density on a grid (inverse CDF, uniform jitter within a cell)."""
    cdf = np.cumsum(weights)
    cells = np.minimum(np.searchsorted(cdf, rng.random(count) * cdf[-1]), len(grid) - 1)
    step = grid[1] - grid[0]
    return np.clip(grid[cells] + (rng.random(count) - 0.5) * step, 0.0, 1.0)


__all__ = [
    "GRID_POINTS",
    "JACK",
    "KING",
    "PRIORS",
    "QUEEN",
    "BetaPrior",
    "KuhnP2Model",
    "KuhnPrior",
    "kuhn_hand",
    "map_eta",
    "map_xi",
    "observation_name",
    "p1_table",
    "p2_table",
    "table_log_predictive",
]
