"""Best responses and exploitability within an abstract game.

The responder remembers its whole bucket sequence (perfect recall of its own card buckets,
and of the betting), the responded-to policy plays with its own imperfect recall. The best
response is computed by one backward pass over the betting tree, vectorised over a set of
deals: at the responder's nodes each group of deals with the same bucket sequence so far
takes the action of highest counterfactual value.

* Small games dealt exhaustively (Kuhn, Leduc with exact buckets): every deal is in the set
  and a bucket sequence is the cards, so this is the exact best response of the real game.
* Hold'em: the deals are a seeded sample. A best response fitted on a sample overrates what
  it wins on that sample (it sees the sample's luck), so :func:`exploitability` fits the
  response on one sample (``upper``: its value there, an over-estimate) and plays the fitted
  response on a second, independent sample (``lower``: an unbiased estimate of what that
  particular response wins, so of a lower bound on the best response). Bucket sequences not
  seen in the first sample call. With 10 buckets and a million deals the two are close; with
  100 buckets the sequences are too many for the sample and the gap is wide.

With ``memory`` = k the responder remembers only the buckets of the last k rounds (1: the
current bucket alone) and still the whole betting. Its response is a strategy of the
perfect-recall responder, so its values are lower bounds too, and it has far fewer groups:
with 100 buckets the perfect-recall response fitted on any sample that fits in memory
memorises it, while the 1-round response on 100,000 deals still brackets the value
(``docs/abstraction.md``).

Values are chips per hand for the responder's position; exploitability is the mean of the
two positions' best-response values (0 at an equilibrium of the abstract game).
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np

from pokerbot.protocol.actions import CALL
from pokerbot.protocol.analysis.splitmix import new_rng
from pokerbot.strategies.abstract.game import AbstractGame
from pokerbot.strategies.abstract.kernels import DealArrays, sample_deal, terminal_value
from pokerbot.strategies.betting.tree import TreeArrays


@dataclass(frozen=True, eq=False)
class DealSet:
    """Deals with their buckets and showdown signs (position 0's side), and weights summing to 1."""

    buckets: np.ndarray
    """``[deal, position, round]`` (int64)."""
    sign: np.ndarray
    weight: np.ndarray

    @property
    def size(self) -> int:
        """Deals in the set."""
        return int(self.sign.shape[0])


@nb.njit(cache=True)
def _sample_many(count: int, state: np.ndarray, deals: DealArrays) -> tuple[np.ndarray, np.ndarray]:
    out = np.zeros((count, 2, deals.buckets.shape[1]), dtype=np.int64)
    sign = np.zeros(count, dtype=np.int64)
    deal = np.zeros((2, deals.buckets.shape[1]), dtype=np.int64)
    for i in range(count):
        sign[i] = sample_deal(state, deals, deal)
        out[i] = deal
    return out, sign


def sample_deals(game: AbstractGame, count: int, seed: int) -> DealSet:
    """``count`` deals drawn as the solvers draw them, equally weighted."""
    buckets, sign = _sample_many(count, new_rng(seed), DealArrays.of(game.tables))
    return DealSet(buckets, sign, np.full(count, 1.0 / count))


def all_deals(game: AbstractGame) -> DealSet:
    """Every deal of an exhaustive table (small games), equally weighted."""
    t = game.tables
    rows, signs = [], []
    for b in range(t.num_boards):
        free = np.flatnonzero((t.hand_masks & t.board_masks[b]) == 0)
        for first in free:
            for second in free:
                if t.hand_masks[first] & t.hand_masks[second]:
                    continue
                rows.append(np.stack([t.buckets[b, :, first], t.buckets[b, :, second]]).astype(np.int64))
                a, c = t.strength[b, first], t.strength[b, second]
                signs.append(1 if a > c else 0 if a == c else -1)
    return DealSet(np.array(rows), np.array(signs, dtype=np.int64), np.full(len(rows), 1.0 / len(rows)))


@nb.njit(cache=False)  # numba cannot load a cached self-recursive function
def _walk(
    tree: TreeArrays,
    node: int,
    responder: int,
    reach: np.ndarray,
    fit: np.ndarray,
    groups: np.ndarray,
    group_counts: np.ndarray,
    buckets: np.ndarray,
    sign: np.ndarray,
    policy: np.ndarray,
    call_index: np.ndarray,
) -> np.ndarray:
    children, base = tree.children, tree.base
    m = reach.shape[0]
    n = tree.num_actions[node]
    values = np.empty(m)
    if n == 0:
        for d in range(m):
            v0 = terminal_value(tree, node, sign[d])
            values[d] = v0 if responder == 0 else -v0
        return values
    p = tree.player[node]
    r = tree.round[node]
    if p == responder:
        child_values = np.empty((n, m))
        for a in range(n):
            child_values[a] = _walk(
                tree, children[node, a], responder, reach, fit, groups, group_counts, buckets, sign, policy, call_index
            )
        count = group_counts[r]
        sums = np.zeros((count, n))
        mass = np.zeros(count)
        for d in range(m):
            if fit[d] > 0.0 and reach[d] > 0.0:
                g = groups[d, r]
                w = reach[d] * fit[d]
                mass[g] += w
                for a in range(n):
                    sums[g, a] += w * child_values[a, d]
        best = np.empty(count, dtype=np.int64)
        for g in range(count):
            if mass[g] > 0.0:
                choice = 0
                for a in range(1, n):
                    if sums[g, a] > sums[g, choice]:
                        choice = a
                best[g] = choice
            else:
                best[g] = call_index[node]
        for d in range(m):
            values[d] = child_values[best[groups[d, r]], d]
        return values
    values[:] = 0.0
    child_reach = np.empty(m)
    for a in range(n):
        for d in range(m):
            child_reach[d] = reach[d] * policy[base[node] + buckets[d, p, r], a]
        va = _walk(
            tree,
            children[node, a],
            responder,
            child_reach,
            fit,
            groups,
            group_counts,
            buckets,
            sign,
            policy,
            call_index,
        )
        for d in range(m):
            values[d] += policy[base[node] + buckets[d, p, r], a] * va[d]
    return values


def _groups(deals: DealSet, position: int, memory: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per deal and round, a number for the position's bucket sequence so far (its last
    ``memory`` rounds; None: all of it)."""
    rounds = deals.buckets.shape[2]
    groups = np.zeros((deals.size, rounds), dtype=np.int64)
    counts = np.zeros(rounds, dtype=np.int64)
    for r in range(rounds):
        first = 0 if memory is None else max(0, r + 1 - memory)
        _, inverse = np.unique(deals.buckets[:, position, first : r + 1], axis=0, return_inverse=True)
        groups[:, r] = inverse.reshape(-1)
        counts[r] = int(inverse.max()) + 1
    return groups, counts


def best_response_values(
    game: AbstractGame,
    policy: np.ndarray,
    responder: int,
    fit: DealSet,
    test: DealSet | None = None,
    memory: int | None = None,
) -> tuple[float, float]:
    """The responder's best-response value against ``policy`` fitted on ``fit``: its value
    on ``fit``, and the fitted response's value on ``test`` (``fit`` again when None);
    ``memory``: rounds of its own buckets the responder remembers (None: all)."""
    if memory is not None and memory < 1:
        raise ValueError(f"memory must be at least 1 round, not {memory}")
    tree = game.tree
    deals = (
        fit
        if test is None
        else DealSet(
            np.concatenate([fit.buckets, test.buckets]),
            np.concatenate([fit.sign, test.sign]),
            np.concatenate([fit.weight, np.zeros(test.size)]),
        )
    )
    groups, counts = _groups(deals, responder, memory)
    call_index = np.array(
        [next((k for k, a in enumerate(acts) if a == CALL), 0) for acts in tree.actions], dtype=np.int64
    )
    values = _walk(
        tree.arrays, 0, responder, np.ones(deals.size), deals.weight, groups, counts, deals.buckets, deals.sign,
        np.ascontiguousarray(policy, dtype=np.float64), call_index,
    )  # fmt: skip
    on_fit = float(values[: fit.size] @ fit.weight)
    if test is None:
        return on_fit, on_fit
    return on_fit, float(values[fit.size :] @ test.weight)


@dataclass(frozen=True)
class AbstractExploitability:
    """Best-response values per position and their mean, chips per hand: ``upper`` fitted and
    measured on one sample, ``lower`` measured on an independent one (equal when exact)."""

    upper: tuple[float, float]
    lower: tuple[float, float]
    deals: int
    exact: bool

    @property
    def exploitability_upper(self) -> float:
        """Mean of the fitted best-response values."""
        return sum(self.upper) / 2

    @property
    def exploitability_lower(self) -> float:
        """Mean of the fitted responses' values on the second sample."""
        return sum(self.lower) / 2


def exploitability(
    game: AbstractGame, policy: np.ndarray, deals: int = 500_000, seed: int = 12345, memory: int | None = None
) -> AbstractExploitability:
    """Abstract exploitability of ``policy`` (see the module docstring; ``memory``: rounds of
    its own buckets the responder remembers, None for all)."""
    if game.tables.exhaustive:
        everything = all_deals(game)
        values = tuple(best_response_values(game, policy, r, everything, memory=memory)[0] for r in (0, 1))
        return AbstractExploitability(values, values, everything.size, True)  # type: ignore[arg-type]
    fit = sample_deals(game, deals, seed)
    test = sample_deals(game, deals, seed + 1)
    upper, lower = [], []
    for responder in (0, 1):
        a, b = best_response_values(game, policy, responder, fit, test, memory)
        upper.append(a)
        lower.append(b)
    return AbstractExploitability((upper[0], upper[1]), (lower[0], lower[1]), deals, False)


__all__ = ["AbstractExploitability", "DealSet", "all_deals", "best_response_values", "exploitability", "sample_deals"]
