"""Cards and decks for any ACPC game.

A card is a small integer, as in the ACPC reference code: ``rank * 4 + suit`` with ranks
0..12 standing for ``23456789TJQKA`` and suits 0..3 for ``cdhs``. A game with R ranks and S
suits uses the top R ranks and the top S suits, so 1-suit Kuhn is ``Qs Ks As``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pokerbot.protocol.errors import CardError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
MAX_RANKS = len(RANK_CHARS)
MAX_SUITS = len(SUIT_CHARS)
NUM_CARDS = MAX_RANKS * MAX_SUITS

Card = int
"""A card: ``rank * 4 + suit`` (rank 0 is a deuce, suit 0 is clubs)."""

CARD_STRINGS: tuple[str, ...] = tuple(r + s for r in RANK_CHARS for s in SUIT_CHARS)
_CARD_BY_STRING: dict[str, Card] = {text: index for index, text in enumerate(CARD_STRINGS)}


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0 = deuce .. 12 = ace) and ``suit`` (0 = clubs .. 3 = spades)."""
    if not 0 <= rank < MAX_RANKS or not 0 <= suit < MAX_SUITS:
        raise CardError(f"no card with rank {rank} and suit {suit}")
    return rank * MAX_SUITS + suit


def rank_of(card: Card) -> int:
    """The rank of ``card``: 0 for a deuce up to 12 for an ace."""
    return card >> 2


def suit_of(card: Card) -> int:
    """The suit of ``card``: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card & 3


def card_from_string(text: str) -> Card:
    """Parse one two-character card such as ``"As"`` (rank upper case, suit lower case)."""
    card = _CARD_BY_STRING.get(text)
    if card is None:
        raise CardError(f"{text!r} is not a card (rank from {RANK_CHARS}, suit from {SUIT_CHARS})")
    return card


def card_to_string(card: Card) -> str:
    """The two-character ACPC string of ``card``."""
    return CARD_STRINGS[card]


def cards_from_string(text: str) -> tuple[Card, ...]:
    """Parse concatenated cards such as ``"AsKd"``; the empty string gives no cards."""
    if len(text) % 2:
        raise CardError(f"{text!r} has an odd length: cards are two characters each")
    return tuple(card_from_string(text[i : i + 2]) for i in range(0, len(text), 2))


def cards_to_string(cards: Iterable[Card]) -> str:
    """Concatenate the strings of ``cards``."""
    return "".join(CARD_STRINGS[card] for card in cards)


def deck_cards(num_ranks: int, num_suits: int) -> tuple[Card, ...]:
    """The deck of a game with the top ``num_ranks`` ranks and top ``num_suits`` suits.

    The order is the reference dealer's: suit by suit (lowest suit first), rank by rank
    within a suit (lowest rank first). Dealing depends on this order.
    """
    if not 1 <= num_ranks <= MAX_RANKS or not 1 <= num_suits <= MAX_SUITS:
        raise CardError(f"no deck with {num_ranks} ranks and {num_suits} suits")
    return tuple(
        make_card(rank, suit)
        for suit in range(MAX_SUITS - num_suits, MAX_SUITS)
        for rank in range(MAX_RANKS - num_ranks, MAX_RANKS)
    )


def check_distinct(cards: Sequence[Card]) -> None:
    """Raise :class:`CardError` naming the first card that appears twice in ``cards``."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardError(f"card {CARD_STRINGS[card]} appears twice")
        seen.add(card)
