"""Suit isomorphism: hold'em boards and holdings that differ only by a renaming of the suits.

Renaming the suits changes no hand's showdown value, so a card abstraction may compute a
board once for all of its suit images. :data:`CARD_MAPS` and :data:`HOLDING_MAPS` apply each
of the 24 renamings to cards and to holdings (indexed as
:data:`~pokerbot.protocol.analysis.holdings.HOLDINGS`); :func:`canonical_flop` names the
representative of a flop's class (1,755 classes of the 22,100 flops).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

import numpy as np

from pokerbot.protocol.analysis.holdings import HOLDING_INDEX, HOLDINGS
from pokerbot.protocol.cards import Card

SUIT_PERMUTATIONS = np.array(list(permutations(range(4))), dtype=np.int64)
"""The 24 permutations of the suits: ``SUIT_PERMUTATIONS[p, s]`` is the image of suit ``s``."""
CARD_MAPS = (np.arange(52)[None, :] // 4) * 4 + SUIT_PERMUTATIONS[:, np.arange(52) % 4]
"""``CARD_MAPS[p, c]``: card ``c`` with its suit permuted by ``p``."""
HOLDING_MAPS = HOLDING_INDEX[CARD_MAPS[:, HOLDINGS[:, 0]], CARD_MAPS[:, HOLDINGS[:, 1]]]
"""``HOLDING_MAPS[p, h]``: holding ``h`` with its suits permuted by ``p``."""


def canonical_flop(flop: Sequence[Card] | np.ndarray) -> tuple[tuple[int, ...], int]:
    """The suit-canonical form of a flop (the least sorted image over the 24 suit permutations)
    and the permutation that maps the flop onto it."""
    cards = np.asarray(flop, dtype=np.int64)
    images = np.sort(CARD_MAPS[:, cards], axis=1)
    keys = images[:, 0] * 2704 + images[:, 1] * 52 + images[:, 2]
    best = int(np.argmin(keys))
    return tuple(int(c) for c in images[best]), best


__all__ = ["CARD_MAPS", "HOLDING_MAPS", "SUIT_PERMUTATIONS", "canonical_flop"]
