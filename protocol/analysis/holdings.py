"""The 1,326 two-card holdings of the 52-card deck, in one canonical order.

A holding is two distinct cards (:mod:`pokerbot.protocol.cards` integers, ``rank * 4 + suit``).
Holding ``h`` is row ``h`` of :data:`HOLDINGS`, lower card first; the rows are in
lexicographic order of their cards (``2c2d, 2c2h, 2c2s, 2c3c, ... AhAs``).
:data:`HOLDING_INDEX` is the inverse: ``HOLDING_INDEX[a, b] == HOLDING_INDEX[b, a] == h``
(-1 when ``a == b``). Every array over holdings in :mod:`pokerbot.protocol.analysis` (ranges,
equities, hand classes, showdown values) is indexed this way; the arrays are read-only and
may be used inside numba-compiled code.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from pokerbot.protocol.cards import NUM_CARDS, Card

NUM_HOLDINGS = 1326
"""Two-card holdings of the 52-card deck: ``52 * 51 / 2``."""


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    cards = np.zeros((NUM_HOLDINGS, 2), dtype=np.int64)
    index = np.full((NUM_CARDS, NUM_CARDS), -1, dtype=np.int64)
    masks = np.zeros(NUM_HOLDINGS, dtype=np.uint64)
    h = 0
    for first in range(NUM_CARDS):
        for second in range(first + 1, NUM_CARDS):
            cards[h] = (first, second)
            index[first, second] = index[second, first] = h
            masks[h] = np.uint64((1 << first) | (1 << second))
            h += 1
    for table in (cards, index, masks):
        table.setflags(write=False)
    return cards, index, masks


HOLDINGS, HOLDING_INDEX, HOLDING_MASKS = _tables()
"""``HOLDINGS[h]`` (int64 ``[1326, 2]``): the two cards of holding ``h``, lower card first.
``HOLDING_INDEX[a, b]`` (int64 ``[52, 52]``): the holding of cards ``a`` and ``b`` in either
order, -1 when ``a == b``. ``HOLDING_MASKS[h]`` (uint64): bit ``c`` set for each card ``c``
of holding ``h``."""


def holding_index(cards: Sequence[Card]) -> int:
    """The index in :data:`HOLDINGS` of two distinct cards (either order)."""
    if len(cards) != 2:
        raise ValueError(f"a holding has two cards, got {list(cards)}")
    first, second = cards
    if not (0 <= first < NUM_CARDS and 0 <= second < NUM_CARDS) or first == second:
        raise ValueError(f"not a holding of the 52-card deck: {list(cards)}")
    return int(HOLDING_INDEX[first, second])


def conflict_mask(cards: Iterable[Card]) -> np.ndarray:
    """Boolean over the holdings: True where a holding uses one of ``cards`` (card removal)."""
    used = np.zeros(NUM_CARDS, dtype=bool)
    used[list(cards)] = True
    mask: np.ndarray = used[HOLDINGS[:, 0]] | used[HOLDINGS[:, 1]]
    return mask


__all__ = ["HOLDINGS", "HOLDING_INDEX", "HOLDING_MASKS", "NUM_HOLDINGS", "conflict_mask", "holding_index"]
