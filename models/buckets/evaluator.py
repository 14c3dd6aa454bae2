"""Showdown ranking and random numbers in numba, for the card abstraction's hot loops.

:func:`rank_hand` returns exactly the value of :func:`pokerbot.protocol.ranking.rank_generic`
for 5 to 7 cards of the 52-card deck (category, then up to five tie-break ranks, four bits
each), so it orders hands as the dealer does (a test compares the two on random hands).
Cards are protocol integers, ``rank * 4 + suit``.

Hole-card hands of two cards are numbered ``0 .. 1325`` in lexicographic order of their
cards (:data:`HAND_CARDS`, :data:`HAND_INDEX`).

The random numbers are SplitMix64 (Steele, Lea and Flood 2014) over a one-element ``uint64``
state array, so a run's generator state is saved with its checkpoint and a resumed run
draws the same numbers as an uninterrupted one.
"""

from __future__ import annotations

import numba as nb
import numpy as np

NUM_CARDS = 52
NUM_HANDS = 1326
"""Two-card hands of the 52-card deck."""


def _hand_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    cards = np.zeros((NUM_HANDS, 2), dtype=np.int64)
    index = np.full((NUM_CARDS, NUM_CARDS), -1, dtype=np.int64)
    masks = np.zeros(NUM_HANDS, dtype=np.uint64)
    k = 0
    for first in range(NUM_CARDS):
        for second in range(first + 1, NUM_CARDS):
            cards[k] = (first, second)
            index[first, second] = index[second, first] = k
            masks[k] = np.uint64((1 << first) | (1 << second))
            k += 1
    return cards, index, masks


HAND_CARDS, HAND_INDEX, HAND_MASKS = _hand_tables()
"""``HAND_CARDS[h]`` the two cards of hand ``h``; ``HAND_INDEX[a, b]`` its number; ``HAND_MASKS[h]`` its card bits."""


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


# ----------------------------------------------------------------------------- random numbers
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_UNIT = 1.0 / 9007199254740992.0


def new_rng(seed: int) -> np.ndarray:
    """A generator state (``uint64[1]``) from an integer seed."""
    return np.array([np.uint64(seed % 2**64)], dtype=np.uint64)


@nb.njit(cache=True, inline="always")
def next_u64(state: np.ndarray) -> np.uint64:
    """The next 64 random bits (SplitMix64); advances ``state``."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@nb.njit(cache=True, inline="always")
def next_float(state: np.ndarray) -> float:
    """A uniform float in [0, 1)."""
    return float(next_u64(state) >> _S11) * _UNIT


@nb.njit(cache=True, inline="always")
def next_below(state: np.ndarray, n: int) -> int:
    """A uniform integer in ``[0, n)``."""
    return min(int(next_float(state) * n), n - 1)


__all__ = [
    "HAND_CARDS",
    "HAND_INDEX",
    "HAND_MASKS",
    "NUM_HANDS",
    "new_rng",
    "next_below",
    "next_float",
    "next_u64",
    "rank_hand",
]
