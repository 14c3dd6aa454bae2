"""Equity distributions: what the distribution-aware card abstraction compares holdings by.

All quantities are for two-player 52-card hold'em, holdings indexed as
:data:`~pokerbot.protocol.analysis.holdings.HOLDINGS`:

* **river equity** of a holding on a five-card board: its share of the pot against one
  uniformly random opposing holding (wins 1, ties 1/2) among the 990 that use none of the
  seven known cards;
* **equity distribution** of a holding on a flop or turn: the law of its river equity over
  the run-outs, every pair of turn and river cards (1,081 on a flop) or every river card (46
  on a turn) that neither the board nor the holding uses, all equally likely (Johanson,
  Burch, Valenzuela and Bowling 2013, "distribution-aware");
* **quantile features** of a distribution: the means of its quantile function ``F^-1(u)``
  over ``Q`` equal slices of probability, ``u`` in ``[j / Q, (j + 1) / Q)`` for ``j = 0 ..
  Q - 1`` (increasing). The mean absolute difference of two feature vectors is the earth
  mover's distance (1-Wasserstein) between the distributions that put mass ``1 / Q`` at each
  slice mean; the mean squared difference is the square of their 2-Wasserstein distance.

:func:`river_equity` gives every holding's river equity on one board,
:func:`equity_distributions` every holding's sorted river equities over a flop's or turn's
run-outs, :func:`equity_features` their quantile features (or, ``Q = 1`` on a river, the river
equity), :func:`emd` and :func:`emd_rows` the earth mover's distance between one-dimensional
samples. The kernels are numba-compiled. Those that share work among threads (a flop's
run-outs and holdings with ``parallel=True``, the boards of :func:`later_features`) are for
the builds: a process that has run them must not fork a child that runs them too (numba's
OpenMP layer is not fork-safe), so what a player calls at the table runs in its own thread.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba as nb
import numpy as np

from pokerbot.protocol.analysis.holdings import HOLDINGS, NUM_HOLDINGS
from pokerbot.protocol.analysis.showdown import rank_holdings_into, unused_cards

OPPONENTS = 990
"""Opposing holdings on a river: two of the 45 cards the board and the holding leave."""
SCALE = 2 * OPPONENTS
"""River equities are multiples of ``1 / SCALE`` (twice the wins plus the ties, over twice the
opponents): the kernels keep the integer numerators."""


_RADIX = 8
_PASSES = 3
"""The radix sort of showdown values (below ``2 ** 24``): three passes of eight bits."""


@nb.njit(cache=True)
def _sort_by_value(ranks: np.ndarray, order: np.ndarray, spare: np.ndarray, counts: np.ndarray) -> int:
    """Write the holdings with a value (``ranks >= 0``) into ``order`` by increasing value (a
    least-significant-digit radix sort, stable); return their number."""
    mask = (1 << _RADIX) - 1
    valid = 0
    for h in range(ranks.shape[0]):
        if ranks[h] >= 0:
            order[valid] = h
            valid += 1
    source, target = order, spare
    for p in range(_PASSES):
        shift = p * _RADIX
        counts[:] = 0
        for k in range(valid):
            counts[((ranks[source[k]] >> shift) & mask) + 1] += 1
        for v in range(1, counts.shape[0]):
            counts[v] += counts[v - 1]
        for k in range(valid):
            h = source[k]
            digit = (ranks[h] >> shift) & mask
            target[counts[digit]] = h
            counts[digit] += 1
        source, target = target, source
    if _PASSES % 2 == 1:
        order[:valid] = source[:valid]
    return valid


@nb.njit(cache=True)
def _river_equity_into(board: np.ndarray, work: np.ndarray, counts: np.ndarray, out: np.ndarray) -> None:
    """``out[h]``: river equity of holding ``h`` on the five-card ``board``, -1 where it uses a
    board card (holdings sorted once by showdown value; opponents sharing a card removed by
    per-card counts). ``work``: ``int64[5, 1326]`` scratch, ``counts``: ``int64[2 ** 12 + 1]``."""
    ranks = work[0]
    order = work[1]
    lower_card = work[3, :52]
    equal_card = work[4, :52]
    rank_holdings_into(board, HOLDINGS, ranks)
    valid = _sort_by_value(ranks, order, work[2], counts)
    lower_card[:] = 0
    equal_card[:] = 0
    for h in range(ranks.shape[0]):
        if ranks[h] < 0:
            out[h] = -1
    lower = 0
    start = 0
    while start < valid:
        value = ranks[order[start]]
        end = start
        while end < valid and ranks[order[end]] == value:
            h = order[end]
            equal_card[HOLDINGS[h, 0]] += 1
            equal_card[HOLDINGS[h, 1]] += 1
            end += 1
        group = end - start
        for k in range(start, end):
            h = order[k]
            a, b = HOLDINGS[h, 0], HOLDINGS[h, 1]
            wins = lower - lower_card[a] - lower_card[b]
            ties = group - equal_card[a] - equal_card[b] + 1  # h was taken off twice
            out[h] = 2 * wins + ties
        for k in range(start, end):
            h = order[k]
            a, b = HOLDINGS[h, 0], HOLDINGS[h, 1]
            equal_card[a] -= 1
            equal_card[b] -= 1
            lower_card[a] += 1
            lower_card[b] += 1
        lower += group
        start = end


@nb.njit(cache=True)
def _runouts(known: np.ndarray, size: int) -> np.ndarray:
    """The cards completing ``known[:size]`` to five, one run-out a row (-1 pads a turn's)."""
    rest = unused_cards(known[:size])
    n = rest.shape[0]
    if size == 3:
        out = np.empty((n * (n - 1) // 2, 2), dtype=np.int64)
        k = 0
        for i in range(n):
            for j in range(i + 1, n):
                out[k, 0] = rest[i]
                out[k, 1] = rest[j]
                k += 1
        return out
    if size == 4:
        out = np.full((n, 2), -1, dtype=np.int64)
        for i in range(n):
            out[i, 0] = rest[i]
        return out
    return np.full((1, 2), -1, dtype=np.int64)


@nb.njit(cache=True)
def _fill_row(known: np.ndarray, size: int, runout: np.ndarray, row: np.ndarray) -> None:
    """``row[h]``: river equity of holding ``h`` on ``known[:size]`` + ``runout`` (float32, -1
    where it uses a card)."""
    board = np.empty(5, dtype=np.int64)
    board[:size] = known[:size]
    for i in range(5 - size):
        board[size + i] = runout[i]
    work = np.empty((5, NUM_HOLDINGS), dtype=np.int64)
    counts = np.empty((1 << _RADIX) + 1, dtype=np.int64)
    out = np.empty(NUM_HOLDINGS, dtype=np.int64)
    _river_equity_into(board, work, counts, out)
    for h in range(NUM_HOLDINGS):
        row[h] = out[h]


@nb.njit(cache=True)
def _runout_equities(known: np.ndarray, size: int, runouts: np.ndarray) -> np.ndarray:
    """``[run-out, holding]`` river equity (float32, -1 where the holding uses a card)."""
    table = np.empty((runouts.shape[0], NUM_HOLDINGS), dtype=np.int16)
    for r in range(runouts.shape[0]):
        _fill_row(known, size, runouts[r], table[r])
    return table


@nb.njit(cache=True, parallel=True)
def _runout_equities_parallel(known: np.ndarray, size: int, runouts: np.ndarray) -> np.ndarray:
    """:func:`_runout_equities` with the run-outs shared among the threads (a flop's 1,176)."""
    table = np.empty((runouts.shape[0], NUM_HOLDINGS), dtype=np.int16)
    for r in nb.prange(runouts.shape[0]):
        _fill_row(known, size, runouts[r], table[r])
    return table


@nb.njit(cache=True)
def slice_means(values: np.ndarray, bins: int, out: np.ndarray) -> None:
    """``out[j]``: the mean of the quantile function of the sorted, equally likely ``values``
    over ``[j / bins, (j + 1) / bins)`` (exact: value ``i`` holds ``[i / n, (i + 1) / n)``)."""
    n = values.shape[0]
    # in units of 1 / (n * bins): value i covers [i * bins, (i + 1) * bins), slice j [j * n, (j + 1) * n)
    i = 0
    for j in range(bins):
        lo = j * n
        hi = lo + n
        total = 0.0
        while i < n:
            start = max(i * bins, lo)
            stop = min((i + 1) * bins, hi)
            if stop > start:
                total += values[i] * (stop - start)
            if (i + 1) * bins <= hi:
                i += 1
            else:
                break
        out[j] = total / n


_CHUNKS = 16
"""Blocks of holdings shared among the threads (one per thread would leave a thread idle
when another is slowed)."""


_COUNTING = 128
"""From this many values up, a distribution is sorted by counting its equities' numerators."""


@nb.njit(cache=True)
def _distribution(runouts: np.ndarray, table: np.ndarray, h: int, values: np.ndarray, counts: np.ndarray) -> int:
    """Write holding ``h``'s river equities over the run-outs that miss its cards into
    ``values``, sorted; return their number (0 when it uses a board card). ``counts``:
    ``int64[SCALE + 1]`` scratch."""
    a, b = HOLDINGS[h, 0], HOLDINGS[h, 1]
    n = 0
    for r in range(runouts.shape[0]):
        c0, c1 = runouts[r, 0], runouts[r, 1]
        if c0 == a or c0 == b or c1 == a or c1 == b:
            continue
        v = table[r, h]
        if v < 0:  # the holding uses a board card
            return 0
        values[n] = v
        n += 1
    if n < _COUNTING:
        values[:n] = np.sort(values[:n])
    else:
        counts[:] = 0
        for i in range(n):
            counts[int(values[i])] += 1
        i = 0
        for v in range(SCALE + 1):
            for _ in range(counts[v]):
                values[i] = v
                i += 1
    for i in range(n):
        values[i] /= SCALE
    return n


@nb.njit(cache=True)
def _distributions_into(runouts: np.ndarray, table: np.ndarray, holdings: np.ndarray, out: np.ndarray) -> None:
    values = np.empty(runouts.shape[0])
    counts = np.empty(SCALE + 1, dtype=np.int64)
    for k in range(holdings.shape[0]):
        if _distribution(runouts, table, holdings[k], values, counts) == out.shape[1]:
            out[k] = values[: out.shape[1]]
        else:
            out[k] = np.nan


@nb.njit(cache=True, parallel=True)
def _distributions(runouts: np.ndarray, table: np.ndarray, holdings: np.ndarray, length: int) -> np.ndarray:
    """The sorted river equities of each holding listed (NaN rows where it uses a board card)."""
    out = np.empty((holdings.shape[0], length))
    for c in nb.prange(_CHUNKS):
        lo = c * holdings.shape[0] // _CHUNKS
        hi = (c + 1) * holdings.shape[0] // _CHUNKS
        _distributions_into(runouts, table, holdings[lo:hi], out[lo:hi])
    return out


@nb.njit(cache=True)
def _features_into(runouts: np.ndarray, table: np.ndarray, holdings: np.ndarray, bins: int, out: np.ndarray) -> None:
    """``out[k]``: the quantile features of holding ``holdings[k]`` (NaN where it uses a board card)."""
    values = np.empty(runouts.shape[0])
    counts = np.empty(SCALE + 1, dtype=np.int64)
    row = np.empty(bins)
    for k in range(holdings.shape[0]):
        n = _distribution(runouts, table, holdings[k], values, counts)
        if n == 0:
            out[k, :] = np.nan
            continue
        slice_means(values[:n], bins, row)
        for j in range(bins):
            out[k, j] = row[j]


@nb.njit(cache=True, parallel=True)
def _features_parallel(runouts: np.ndarray, table: np.ndarray, holdings: np.ndarray, bins: int) -> np.ndarray:
    out = np.empty((holdings.shape[0], bins), dtype=np.float32)
    for c in nb.prange(_CHUNKS):
        lo = c * holdings.shape[0] // _CHUNKS
        hi = (c + 1) * holdings.shape[0] // _CHUNKS
        _features_into(runouts, table, holdings[lo:hi], bins, out[lo:hi])
    return out


@nb.njit(cache=True, parallel=True)
def _later_features(boards: np.ndarray, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """Turn features (``[board, holding, bins]``) and river equities (``[board, holding]``) of
    every holding on each full board, the boards shared among the threads."""
    count = boards.shape[0]
    turn = np.empty((count, NUM_HOLDINGS, bins), dtype=np.float32)
    river = np.empty((count, NUM_HOLDINGS), dtype=np.int16)
    everyone = np.arange(NUM_HOLDINGS)
    for b in nb.prange(count):
        runouts = _runouts(boards[b], 4)
        table = _runout_equities(boards[b], 4, runouts)
        _features_into(runouts, table, everyone, bins, turn[b])
        _fill_row(boards[b], 5, runouts[0, :0], river[b])
    return turn, river


def _board_array(board: Sequence[int] | np.ndarray) -> np.ndarray:
    cards = np.asarray(board, dtype=np.int64)
    if not 3 <= cards.shape[0] <= 5 or len(set(cards.tolist())) != cards.shape[0]:
        raise ValueError(f"a board has 3 to 5 distinct cards, got {list(board)}")
    if cards.min() < 0 or cards.max() >= 52:
        raise ValueError(f"not cards of the 52-card deck: {list(board)}")
    return cards


def river_equity(board: Sequence[int] | np.ndarray) -> np.ndarray:
    """Every holding's river equity (module docstring) on the five-card ``board``: float64
    over :data:`HOLDINGS`, NaN where a holding uses a board card."""
    cards = _board_array(board)
    if cards.shape[0] != 5:
        raise ValueError(f"river equity needs five board cards, got {cards.shape[0]}")
    table = _runout_equities(cards, 5, _runouts(cards, 5))[0] / SCALE
    table[table < 0] = np.nan
    return table


def runout_equities(board: Sequence[int] | np.ndarray, *, parallel: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``(runouts, table)``: every run-out of the flop or turn ``board`` (``[r, 2]`` cards, -1
    padding a turn's single card) and every holding's river equity on it, as numerators over
    :data:`SCALE` (``int16[r, 1326]``, -1 where the holding uses a card of the board or run-out).
    ``parallel``: a flop's run-outs shared among the threads (module docstring)."""
    cards = _board_array(board)
    runouts = _runouts(cards, cards.shape[0])
    if parallel and cards.shape[0] == 3:
        return runouts, _runout_equities_parallel(cards, 3, runouts)
    return runouts, _runout_equities(cards, cards.shape[0], runouts)


def _holdings(holdings: np.ndarray | None) -> np.ndarray:
    return np.arange(NUM_HOLDINGS, dtype=np.int64) if holdings is None else np.asarray(holdings, dtype=np.int64)


def equity_distributions(
    board: Sequence[int] | np.ndarray, holdings: np.ndarray | None = None, *, parallel: bool = False
) -> np.ndarray:
    """The equity distribution of each of ``holdings`` (default all 1,326) on the flop or turn
    ``board``: its river equities over the run-outs, sorted (``float64[holdings, runouts]``,
    1,081 run-outs on a flop, 46 on a turn; NaN rows for holdings that use a board card)."""
    cards = _board_array(board)
    if cards.shape[0] == 5:
        raise ValueError("a river has no run-outs")
    chosen = _holdings(holdings)
    runouts, table = runout_equities(cards, parallel=parallel)
    length = 1081 if cards.shape[0] == 3 else 46
    if parallel:
        return _distributions(runouts, table, chosen, length)
    out = np.empty((chosen.shape[0], length))
    _distributions_into(runouts, table, chosen, out)
    return out


def equity_features(
    board: Sequence[int] | np.ndarray, bins: int, holdings: np.ndarray | None = None, *, parallel: bool = False
) -> np.ndarray:
    """Quantile features (``float32[holdings, bins]``, module docstring) of the equity
    distribution of each of ``holdings`` (default all 1,326) on the flop or turn ``board``;
    on a river the river equity itself (``bins`` must be 1). NaN rows for holdings that use a
    board card. ``parallel``: a flop's work shared among the threads."""
    cards = _board_array(board)
    chosen = _holdings(holdings)
    if cards.shape[0] == 5:
        if bins != 1:
            raise ValueError("a river's feature is one number (bins=1)")
        return river_equity(cards)[chosen].astype(np.float32)[:, None]
    if bins < 1:
        raise ValueError(f"need at least one quantile slice, got {bins}")
    runouts, table = runout_equities(cards, parallel=parallel)
    if parallel and cards.shape[0] == 3:
        return _features_parallel(runouts, table, chosen, bins)
    out = np.empty((chosen.shape[0], bins), dtype=np.float32)
    _features_into(runouts, table, chosen, bins, out)
    return out


def later_features(boards: np.ndarray, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """For each five-card row of ``boards``: every holding's quantile features on its turn (the
    first four cards; ``float32[board, 1326, bins]``) and river equity on the whole board
    (``float64[board, 1326]``), NaN where a holding uses a board card. The boards are shared
    among the threads: many at once cost far less than one at a time."""
    cards = np.ascontiguousarray(boards, dtype=np.int64)
    if cards.ndim != 2 or cards.shape[1] != 5:
        raise ValueError(f"need [boards, 5] cards, got shape {cards.shape}")
    for row in cards:
        _board_array(row)
    turn, numerators = _later_features(cards, bins)
    river = numerators / SCALE
    river[numerators < 0] = np.nan
    return turn, river


@nb.njit(cache=True)
def _emd_sorted(first: np.ndarray, second: np.ndarray) -> float:
    """Earth mover's distance between two sorted samples of equally likely values (the
    integral of the absolute difference of their quantile functions, merged at every step)."""
    n, m = first.shape[0], second.shape[0]
    i = j = 0
    position = 0.0
    total = 0.0
    while i < n and j < m:
        next_first = (i + 1) / n
        next_second = (j + 1) / m
        step = min(next_first, next_second)
        total += abs(first[i] - second[j]) * (step - position)
        position = step
        if next_first <= step:
            i += 1
        if next_second <= step:
            j += 1
    return total


@nb.njit(cache=True, parallel=True)
def _emd_rows(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    out = np.empty(first.shape[0])
    for k in nb.prange(first.shape[0]):
        out[k] = _emd_sorted(first[k], second[k])
    return out


def emd_rows(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The earth mover's distance between row ``k`` of ``first`` and row ``k`` of ``second``,
    each row equally likely values sorted increasingly (rows of each may differ in length
    between the two arrays, not within one)."""
    a = np.ascontiguousarray(first, dtype=np.float64)
    b = np.ascontiguousarray(second, dtype=np.float64)
    if a.ndim != 2 or b.ndim != 2 or a.shape[0] != b.shape[0]:
        raise ValueError(f"need two [rows, values] arrays of as many rows, got {a.shape} and {b.shape}")
    return _emd_rows(a, b)


def emd(first: np.ndarray, second: np.ndarray) -> float:
    """Earth mover's distance (1-Wasserstein) between two one-dimensional distributions, each
    given as equally likely values (a sample, or the slice means of a feature vector)."""
    a = np.sort(np.asarray(first, dtype=np.float64))
    b = np.sort(np.asarray(second, dtype=np.float64))
    return float(_emd_sorted(a, b))


__all__ = [
    "OPPONENTS",
    "SCALE",
    "emd",
    "emd_rows",
    "equity_distributions",
    "equity_features",
    "later_features",
    "river_equity",
    "runout_equities",
    "slice_means",
]
