"""Showdown values in numba: the value of a hand, and of every holding on a board.

:func:`rank_hand` is the package's evaluator of 5 to 7 cards of the 52-card deck (the
dealer's, through :func:`pokerbot.protocol.analysis.ranking.rank_standard`): it gives them
exactly the value that :func:`pokerbot.protocol.analysis.ranking.rank_generic` gives them
(the category in the bits from 20 up, then up to five tie-break ranks, four bits each), and
orders them as eval7 does. :func:`rank_holdings` values every one of the 1,326 holdings
(:data:`~pokerbot.protocol.analysis.holdings.HOLDINGS`) on one five-card board at once.
Both are numba-compiled and may be called from compiled code (cards are
:mod:`pokerbot.protocol.cards` integers, ``rank * 4 + suit``, in int64 arrays).

:func:`unused_cards` is the deck a deal's remaining cards come from (every kernel that
deals takes it from there); :func:`showdown_arrays`, :func:`runouts` and :func:`completions`
set up the two-player showdowns that the equity kernels
(:mod:`pokerbot.protocol.analysis.equity`) and AIVAT's cooler terms walk.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar, cast

import numba as nb
import numpy as np

from pokerbot.protocol.analysis.holdings import HOLDINGS, NUM_HOLDINGS
from pokerbot.protocol.cards import NUM_CARDS, Card

F = TypeVar("F", bound=Callable[..., object])

BOARD_CARDS = 5
"""Board cards of hold'em at the showdown."""


def compiled(function: F) -> F:
    """``numba.njit`` with the compiled code cached on disk where numba finds a writable place
    (next to the module or in the user's cache), else compiled in memory at first use."""
    try:
        return cast(F, nb.njit(cache=True)(function))
    except RuntimeError:  # no writable cache location
        return cast(F, nb.njit(function))


@nb.njit(cache=True, inline="always")
def _highest(mask: int) -> int:
    for rank in range(12, -1, -1):
        if mask & (1 << rank):
            return rank
    return -1


@nb.njit(cache=True, inline="always")
def _straight_top(mask: int) -> int:
    for top in range(12, 3, -1):
        if (mask >> (top - 4)) & 0x1F == 0x1F:
            return top
    if mask & 0x100F == 0x100F:
        return 3
    return -1


@nb.njit(cache=True, inline="always")
def _popcount(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@nb.njit(cache=True, inline="always")
def _pack(category: int, mask: int, fixed0: int, fixed1: int, fixed2: int, take: int) -> int:
    """``category``, then the fixed ranks (-1: none), then the top ``take`` ranks of ``mask``."""
    value = category
    slots = 0
    for fixed in (fixed0, fixed1, fixed2):
        if fixed >= 0:
            value = (value << 4) | (fixed + 1)
            slots += 1
    for _ in range(take):
        top = _highest(mask)
        if top < 0:
            break
        value = (value << 4) | (top + 1)
        mask &= ~(1 << top)
        slots += 1
    for _ in range(slots, 5):
        value <<= 4
    return value


@nb.njit(cache=True)
def rank_hand(cards: np.ndarray, count: int) -> int:
    """The showdown value of the first ``count`` (5..7) ``cards``; larger is better."""
    m1 = m2 = m3 = m4 = 0
    s0 = s1 = s2 = s3 = 0
    for i in range(count):
        card = cards[i]
        bit = 1 << (card >> 2)
        if m3 & bit:
            m4 |= bit
        elif m2 & bit:
            m3 |= bit
        elif m1 & bit:
            m2 |= bit
        else:
            m1 |= bit
        suit = card & 3
        if suit == 0:
            s0 |= bit
        elif suit == 1:
            s1 |= bit
        elif suit == 2:
            s2 |= bit
        else:
            s3 |= bit
    flush = 0
    for suited in (s0, s1, s2, s3):
        if _popcount(suited) >= 5:
            flush = suited
    if flush:
        top = _straight_top(flush)
        if top >= 0:
            return _pack(8, 0, top, -1, -1, 0)
    if m4:
        quad = _highest(m4)
        return _pack(7, m1 & ~(1 << quad), quad, -1, -1, 1)
    if m3:
        trips = _highest(m3)
        pair = _highest(m2 & ~(1 << trips))
        if pair >= 0:
            return _pack(6, 0, trips, pair, -1, 0)
    if flush:
        return _pack(5, flush, -1, -1, -1, 5)
    top = _straight_top(m1)
    if top >= 0:
        return _pack(4, 0, top, -1, -1, 0)
    if m3:
        trips = _highest(m3)
        return _pack(3, m1 & ~(1 << trips), trips, -1, -1, 2)
    if m2:
        high = _highest(m2)
        low = _highest(m2 & ~(1 << high))
        if low >= 0:
            return _pack(2, m1 & ~((1 << high) | (1 << low)), high, low, -1, 1)
        return _pack(1, m1 & ~(1 << high), high, -1, -1, 3)
    return _pack(0, m1, -1, -1, -1, 5)


_NEUTRAL_SUITS = np.array([0, 1, 2, 3, 0, 1, 2], dtype=np.int64)
"""Suits for seven cards of which no five share one: ranking them gives the best hand without a flush."""


@compiled
def rank_holdings_into(board: np.ndarray, holdings: np.ndarray, ranks: np.ndarray) -> int:
    """Write into ``ranks[h]`` the :func:`rank_hand` value of row ``h`` of ``holdings`` with the
    five-card ``board`` (-1 where it uses a board card); return the number of rows ranked.

    Without a flush a hand's value depends on its ranks alone, so the values of the 91 pairs of
    ranks are computed once per board (the cards ranked with suits of which no five agree);
    holdings that can complete a flush are ranked with their own cards.
    """
    used = np.zeros(NUM_CARDS, dtype=np.bool_)
    counts = np.zeros(13, dtype=np.int64)
    suit_counts = np.zeros(4, dtype=np.int64)
    plain_cards = np.empty(7, dtype=np.int64)
    cards = np.empty(7, dtype=np.int64)
    for i in range(5):
        card = board[i]
        used[card] = True
        counts[card >> 2] += 1
        suit_counts[card & 3] += 1
        plain_cards[i] = (card >> 2) * 4 + _NEUTRAL_SUITS[i]
        cards[i] = card
    plain = np.zeros((13, 13), dtype=np.int64)
    for low in range(13):
        for high in range(low, 13):
            if counts[low] + 1 + (low == high) <= 4 and counts[high] + 1 <= 4:
                plain_cards[5] = low * 4 + _NEUTRAL_SUITS[5]
                plain_cards[6] = high * 4 + _NEUTRAL_SUITS[6]
                plain[low, high] = plain[high, low] = rank_hand(plain_cards, 7)
    flush_suit = -1
    for suit in range(4):
        if suit_counts[suit] >= 3:
            flush_suit = suit
    valid = 0
    for h in range(holdings.shape[0]):
        a, b = holdings[h, 0], holdings[h, 1]
        if used[a] or used[b]:
            ranks[h] = -1
            continue
        value = plain[a >> 2, b >> 2]
        if flush_suit >= 0:
            extra = (1 if a & 3 == flush_suit else 0) + (1 if b & 3 == flush_suit else 0)
            if suit_counts[flush_suit] + extra >= 5:
                cards[5] = a
                cards[6] = b
                value = rank_hand(cards, 7)
        ranks[h] = value
        valid += 1
    return valid


@compiled
def rank_holdings(board: np.ndarray) -> np.ndarray:
    """The seven-card value of every holding on the five-card ``board`` (int64 cards, all
    distinct): ``int32[1326]`` over :data:`~pokerbot.protocol.analysis.holdings.HOLDINGS`,
    higher is better, equal is a tie, -1 for the holdings that share a card with the board.
    The values are :func:`rank_hand`'s (those of
    :func:`~pokerbot.protocol.analysis.ranking.rank_generic`)."""
    if board.shape[0] != BOARD_CARDS:
        raise ValueError("rank_holdings needs a board of five cards")
    for i in range(BOARD_CARDS):
        if board[i] < 0 or board[i] >= NUM_CARDS:
            raise ValueError("rank_holdings: a board card is not a card of the 52-card deck")
        for j in range(i):
            if board[i] == board[j]:
                raise ValueError("rank_holdings: a board card appears twice")
    ranks = np.empty(NUM_HOLDINGS, dtype=np.int32)
    rank_holdings_into(board, HOLDINGS, ranks)
    return ranks


@compiled
def rank_runout_into(
    known: np.ndarray, runout: np.ndarray, holdings: np.ndarray, board: np.ndarray, ranks: np.ndarray
) -> None:
    """Rank every holding into ``ranks`` on the board ``known`` + ``runout`` (built in ``board``)."""
    board[: known.shape[0]] = known
    for i in range(runout.shape[0]):
        board[known.shape[0] + i] = runout[i]
    rank_holdings_into(board, holdings, ranks)


@compiled
def unused_cards(known: np.ndarray) -> np.ndarray:
    """The cards of the 52-card deck that ``known`` (int64 cards, any order, repeats allowed)
    does not hold, in increasing order (int64): the deck the rest of a deal comes from."""
    used = np.zeros(NUM_CARDS, dtype=np.bool_)
    for card in known:
        used[card] = True
    left = np.empty(NUM_CARDS - int(used.sum()), dtype=np.int64)
    count = 0
    for card in range(NUM_CARDS):
        if not used[card]:
            left[count] = card
            count += 1
    return left


@compiled
def showdown_arrays(
    hole0: np.ndarray, hole1: np.ndarray, board: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Both players' seven-card arrays with the hole and board cards filled in (the rest to be
    dealt at ``2 + len(board)`` on), and the cards left (the first ``left`` of ``remaining``)."""
    first = np.empty(7, dtype=np.int64)
    second = np.empty(7, dtype=np.int64)
    known = np.empty(4 + board.shape[0], dtype=np.int64)
    for i in range(2):
        first[i] = known[i] = hole0[i]
        second[i] = known[2 + i] = hole1[i]
    for i in range(board.shape[0]):
        first[2 + i] = second[2 + i] = known[4 + i] = board[i]
    remaining = unused_cards(known)
    return first, second, remaining, remaining.shape[0]


@compiled
def runouts(remaining: np.ndarray, missing: int) -> np.ndarray:
    """Every set of ``missing`` (0, 1 or 2) cards from ``remaining``, one per row."""
    n = remaining.shape[0]
    if missing == 0:
        return np.empty((1, 0), dtype=np.int64)
    if missing == 1:
        out = np.empty((n, 1), dtype=np.int64)
        for i in range(n):
            out[i, 0] = remaining[i]
        return out
    out = np.empty((n * (n - 1) // 2, 2), dtype=np.int64)
    k = 0
    for i in range(n):
        for j in range(i + 1, n):
            out[k, 0], out[k, 1] = remaining[i], remaining[j]
            k += 1
    return out


def completions(board: Sequence[Card], held: set[Card], samples: int, seed: int) -> np.ndarray:
    """The cards that complete ``board`` to five, one row per run-out, from the cards neither
    ``board`` nor ``held`` uses: every run-out when two or fewer are missing, else ``samples``
    of them drawn from ``seed`` (numpy's generator)."""
    remaining = unused_cards(np.array(sorted(held | set(board)), dtype=np.int64))
    missing = BOARD_CARDS - len(board)
    if missing <= 2:
        return runouts(remaining, missing)
    generator = np.random.default_rng(seed)
    return remaining[np.argsort(generator.random((samples, len(remaining))), axis=1)[:, :missing]]


__all__ = [
    "BOARD_CARDS",
    "completions",
    "compiled",
    "rank_hand",
    "rank_holdings",
    "rank_holdings_into",
    "rank_runout_into",
    "runouts",
    "showdown_arrays",
    "unused_cards",
]
