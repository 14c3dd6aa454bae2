"""Test opponents of the small-game experiments, as profile arrays ``sigma[node, hand]``.

* :func:`acpc_random_profile` - the ACPC example ``random`` player (fold 6 %, call 47 %,
  raise 47 %, renormalised over the legal actions), as :class:`strategies.baselines.RandomPlayer`;
* :func:`skewed_profile` - Tansey's (2013) skewed equilibria. Tansey (2013) draws "random percentage
  triplets" to skew an equilibrium's fold/call/raise probabilities per betting round
  ("simple" population) or, at random, per round or per hole-card rank ("complex"). The
  paper does not give the exact formula; ours: each skew is a triplet ``w`` drawn uniformly
  from the simplex (Dirichlet(1, 1, 1)), and at every information set it applies to the
  skewed policy is ``(1 - kappa) pi*(I) + kappa w`` restricted to the legal actions and
  renormalised (``kappa = 0.5`` by default);
* :func:`fixed_exploitability_kuhn` - Southey, Hoehn and Holte's (2009) random Kuhn opponents whose best response
  wins exactly ``tau`` per hand: a direction is drawn uniformly around P2's Nash point
  ``(1/3, 1/3)`` and the opponent is the point on that ray where P1's best-response value
  (convex, minimal at the Nash point) reaches ``tau``; rays leaving the unit square first
  are redrawn.
"""

from __future__ import annotations

from itertools import product
from typing import Literal

import numpy as np

from pokerbot.protocol.cards import rank_of
from pokerbot.strategies.baselines import CALL_PROBABILITY, FOLD_PROBABILITY, RAISE_PROBABILITY
from pokerbot.strategies.solvers.engine import Engine
from pokerbot.strategies.solvers.tree import PublicTree

_ACTION_WEIGHT = {"f": FOLD_PROBABILITY, "c": CALL_PROBABILITY, "r": RAISE_PROBABILITY}
SkewKind = Literal["simple", "complex"]


def acpc_random_profile(tree: PublicTree) -> np.ndarray:
    """The ACPC random player for every position (``[node, hand]``)."""
    sigma = Engine(tree).uniform()
    for node in tree.decision_nodes:
        children = tree.children(int(node))
        weights = np.array([_ACTION_WEIGHT[tree.label[c]] for c in children])
        sigma[children.start : children.stop] = (weights / weights.sum())[:, None]
    return sigma


def skewed_profile(
    tree: PublicTree,
    equilibrium: np.ndarray,
    rng: np.random.Generator,
    kind: SkewKind = "simple",
    kappa: float = 0.5,
) -> np.ndarray:
    """An equilibrium skewed by random triplets (see the module docstring), every position."""
    by_rank = kind == "complex" and bool(rng.random() < 0.5)
    groups = tree.game.num_ranks if by_rank else tree.game.num_rounds
    triplets = rng.dirichlet(np.ones(3), size=groups)
    sigma = equilibrium.copy()
    ranks = np.array([max(rank_of(card) for card in hand) for hand in tree.hands])
    lowest = ranks.min()
    for node in tree.decision_nodes:
        children = tree.children(int(node))
        chars = [tree.label[c] for c in children]
        columns = ["fcr".index(char) for char in chars]
        round_index = tree.suffix[int(node)].partition(":")[2].count("/")
        for hand in np.flatnonzero(tree.valid[node]):
            group = int(ranks[hand] - lowest) if by_rank else round_index
            skew = triplets[group][columns]
            skew = skew / skew.sum()
            block = sigma[children.start : children.stop, hand]
            sigma[children.start : children.stop, hand] = (1.0 - kappa) * block + kappa * skew
    return sigma


def kuhn_best_response_value(eta: float, xi: float) -> float:
    """P1's best-response value against P2 = ``(eta, xi)`` (Southey, Hoehn and Holte 2009, equation 1)."""
    return max((eta * (-3 * a + g) + xi * (-1 + 3 * b - g) + a - b) / 6.0 for a, b, g in product((0.0, 1.0), repeat=3))


def fixed_exploitability_kuhn(tau: float, rng: np.random.Generator) -> tuple[float, float]:
    """A random P2 ``(eta, xi)`` whose best-response value is ``tau`` (module docstring)."""
    if tau <= -1.0 / 18.0:
        raise ValueError(f"tau must exceed the game value -1/18, got {tau}")
    centre = np.array([1.0 / 3.0, 1.0 / 3.0])
    for _ in range(10_000):
        angle = rng.uniform(0.0, 2.0 * np.pi)
        direction = np.array([np.cos(angle), np.sin(angle)])
        limit = _exit_distance(centre, direction)
        if kuhn_best_response_value(*(centre + limit * direction)) < tau:
            continue
        lo, hi = 0.0, limit
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            if kuhn_best_response_value(*(centre + mid * direction)) < tau:
                lo = mid
            else:
                hi = mid
        point = centre + hi * direction
        return float(point[0]), float(point[1])
    raise ValueError(f"no Kuhn opponent has best-response value {tau}")


def _exit_distance(start: np.ndarray, direction: np.ndarray) -> float:
    """How far from ``start`` along ``direction`` the unit square ends."""
    limits = []
    for x, d in zip(start, direction, strict=True):
        if d > 1e-12:
            limits.append((1.0 - x) / d)
        elif d < -1e-12:
            limits.append(-x / d)
    return min(limits)


__all__ = [
    "SkewKind",
    "acpc_random_profile",
    "fixed_exploitability_kuhn",
    "kuhn_best_response_value",
    "skewed_profile",
]
