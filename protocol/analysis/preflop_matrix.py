"""Hold'em's pre-flop run-out matrix: every holding's expected showdown sign against every other.

``M[h, o]`` is the expected sign (+1 win, 0 tie, -1 loss) of holding ``h``'s showdown against
``o`` over the five board cards dealt uniformly from the 48 cards neither uses (0 where the two
share a card): what :meth:`~pokerbot.protocol.analysis.matchups.HoldingSpace.runout_matrix`
would be for the empty board, ``stake * M @ r`` every holding's value against a range ``r``
all in before the flop. Ranking every one of the 2,598,960 boards for the 1,326 x 1,326 pairs is out of reach at
play time, so :func:`preflop_runout_matrix` estimates it: ``boards`` seeded random boards, each
pair counted on the boards that spare its four cards (about 66 % of them), summed over the 24
permutations of the suits (under which the game is symmetric), then each row's luck of the
boards taken off with a control variate: the shipped equity of every holding against a random
holding (:func:`~pokerbot.protocol.analysis.preflop.preflop_equity`, standard error 0.0004),
which the corrected row sums then match. At the default 2,000 boards an entry's standard error
is about 0.008 (0.004 in equity: ``AsAh`` against ``KsKh`` 0.826, ``7s2h`` against ``AcAd``
0.125); built in about 5 seconds on one core, once per process.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from pokerbot.protocol.analysis.holdings import HOLDINGS
from pokerbot.protocol.analysis.matchups import HoldingSpace, _accumulate_signs, _dense_ranks, _rank_completions
from pokerbot.protocol.analysis.preflop import NUM_CLASSES, class_of_holding, preflop_equity
from pokerbot.protocol.cards import NUM_CARDS, Card

BOARDS = 2000
"""Random boards of the default estimate (module docstring)."""
SEED = 20261202
"""The default estimate's seed: the same matrix in every process."""


@cache
def shared_preflop_matrix() -> np.ndarray:
    """:func:`preflop_runout_matrix` at its defaults, computed once per process (read-only)."""
    matrix = preflop_runout_matrix()
    matrix.setflags(write=False)
    return matrix


@cache
def preflop_class_columns() -> tuple[np.ndarray, np.ndarray]:
    """The shared matrix summed over the 169 classes of the opponent's holding:
    ``(representatives, columns)``, ``representatives[d]`` a holding of class ``d``
    (:data:`~pokerbot.protocol.analysis.preflop.CLASSES`) and ``columns[d, h]`` the sum of
    ``M[h, o]`` over the holdings ``o`` of class ``d`` (float32 ``[169, 1326]``). For a range
    ``r`` that gives every holding of a class the same weight, ``M @ r`` is
    ``columns.T @ r[representatives]``: eight times fewer products (read-only)."""
    classes = class_of_holding()
    indicator = np.zeros((classes.size, NUM_CLASSES), dtype=np.float32)
    indicator[np.arange(classes.size), classes] = 1.0
    columns = np.ascontiguousarray((shared_preflop_matrix() @ indicator).T)
    representatives = np.array([int(np.flatnonzero(classes == d)[0]) for d in range(NUM_CLASSES)], dtype=np.int64)
    columns.setflags(write=False)
    representatives.setflags(write=False)
    return representatives, columns


def preflop_leaves(space: HoldingSpace, board: tuple[Card, ...]) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`preflop_class_columns` where ``space`` is hold'em's and ``board`` empty (every
    range there gives the holdings of a class the same weight: the game is symmetric under the
    suits); None elsewhere."""
    if board or not (space.game.is_standard_deck and space.hole == 2 and space.total_board == 5):
        return None
    return preflop_class_columns()


def preflop_runout_matrix(boards: int = BOARDS, seed: int = SEED) -> np.ndarray:
    """The estimated pre-flop run-out matrix (module docstring), float32 ``[1326, 1326]`` over
    :data:`~pokerbot.protocol.analysis.holdings.HOLDINGS`, antisymmetric, 0 where two holdings
    share a card."""
    if not 1 <= boards <= 30_000:
        raise ValueError("the pre-flop matrix needs 1 to 30,000 boards")
    cards = np.ascontiguousarray(HOLDINGS, dtype=np.int64)
    n = cards.shape[0]
    rng = np.random.default_rng(seed)
    upper = np.zeros((n, n), dtype=np.int16)  # signs, an unranked holding counting as weaker
    counts = np.zeros((n, n), dtype=np.float32)  # boards that spare both holdings
    ranked = np.zeros(n, dtype=np.float32)  # boards that spare each holding
    chunk = 512
    for start in range(0, boards, chunk):
        size = min(chunk, boards - start)
        dealt = np.argsort(rng.random((size, NUM_CARDS)), axis=1)[:, :5].astype(np.int64)
        ranks = np.empty((size, n), dtype=np.int32)
        _rank_completions(np.zeros(0, dtype=np.int64), np.ascontiguousarray(dealt), cards, ranks)
        dense = np.empty(ranks.shape, dtype=np.int16)
        _dense_ranks(ranks, dense)
        _accumulate_signs(dense, upper)
        spared = (dense >= 0).astype(np.float32)
        counts += spared.T @ spared
        ranked += spared.sum(axis=0)
    # above the diagonal: the boards that spare only the first holding each added +1
    sums = np.triu(upper.astype(np.int64) - (ranked[:, None].astype(np.int64) - counts.astype(np.int64)), 1)
    sums = sums - sums.T
    whole = counts.astype(np.int64)
    total_sums = np.zeros((n, n), dtype=np.int64)
    total_counts = np.zeros((n, n), dtype=np.int64)
    for permutation in _suit_permutations(cards):
        grid = np.ix_(permutation, permutation)
        total_sums += sums[grid]
        total_counts += whole[grid]
    matrix = np.zeros((n, n), dtype=np.float32)
    seen = total_counts > 0
    matrix[seen] = (total_sums[seen] / total_counts[seen]).astype(np.float32)
    member = np.zeros((n, NUM_CARDS), dtype=np.float32)
    member[np.arange(n), cards[:, 0]] = 1.0
    member[np.arange(n), cards[:, 1]] = 1.0
    disjoint = (member @ member.T) == 0
    matrix[~disjoint] = 0.0
    # the control variate: each row's luck of the boards taken off by the shipped equities
    opponents = disjoint.sum(axis=1)
    error = (0.5 + 0.5 * matrix.sum(axis=1, dtype=np.float64) / opponents) - preflop_equity()
    matrix -= (2.0 * (error[:, None] - error[None, :]) * disjoint).astype(np.float32)
    return matrix


def _suit_permutations(cards: np.ndarray) -> list[np.ndarray]:
    """For each of the 24 permutations of the suits, the holding each holding becomes."""
    index = np.full((NUM_CARDS, NUM_CARDS), -1, dtype=np.int64)
    for h, (a, b) in enumerate(cards):
        index[a, b] = index[b, a] = h
    out = []
    for suits in itertools.permutations(range(4)):
        mapped = np.array([(c & ~3) | suits[c & 3] for c in range(NUM_CARDS)], dtype=np.int64)
        out.append(index[mapped[cards[:, 0]], mapped[cards[:, 1]]])
    return out
