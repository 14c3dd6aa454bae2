"""Hand-strength bins and board texture: the card measures the opponent models use.

* :func:`strength_bin` discretises a hand strength (the percentile rank of
  :func:`pokerbot.protocol.analysis.strength.hand_strength`; at a hold'em showdown, exact
  river hand strength) into :data:`STRENGTH_BINS` equal bins, which the hand-strength model
  predicts over.
* :func:`board_texture` gives the thesis' board attributes (ch. 4.4): face cards, the most
  cards of one suit, and connectedness.

Cards are :mod:`pokerbot.protocol.cards` integers.
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerbot.protocol.cards import Card

STRENGTH_BINS = 10
"""Equal-width bins of hand strength (percentile rank in [0, 1]) the model predicts over."""
FACE_RANK = 9
"""Rank index of the jack: face cards here are J, Q, K and A (ranks 9..12)."""
STRAIGHT_SPAN = 5


def strength_bin(strength: float, bins: int = STRENGTH_BINS) -> int:
    """The bin (0 .. ``bins - 1``) of a hand strength in [0, 1]; 1.0 is in the top bin."""
    return min(int(strength * bins), bins - 1)


def board_texture(board: Sequence[Card]) -> tuple[int, int, int]:
    """``(face_cards, suited, connected)`` of the board cards.

    ``face_cards``: cards ranked J, Q, K or A. ``suited``: the most board cards of one suit.
    ``connected``: the most distinct board ranks inside any window of five consecutive ranks
    (the ace also plays low), i.e. how close the board is to a straight; 0 without a board.
    """
    if not board:
        return 0, 0, 0
    suits = [0, 0, 0, 0]
    ranks = 0
    faces = 0
    for card in board:
        rank = card >> 2
        suits[card & 3] += 1
        ranks |= 1 << (rank + 1)
        if rank >= FACE_RANK:
            faces += 1
    if ranks & (1 << 13):
        ranks |= 1  # the ace plays low as well
    connected = max(bin(ranks >> low & 0b11111).count("1") for low in range(10))
    return faces, max(suits), connected


__all__ = ["FACE_RANK", "STRENGTH_BINS", "board_texture", "strength_bin"]
