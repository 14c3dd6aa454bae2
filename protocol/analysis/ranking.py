"""Showdown hand ranking with ACPC semantics, for any deck and any number of cards.

A hand's rank is the best poker hand that its cards (hole plus board, any count) make,
with the usual category order: high card < pair < two pair < trips < straight < flush <
full house < quads < straight flush. Straights need five consecutive ranks (the ace also
plays low, A-2-3-4-5); flushes need five cards of one suit. With fewer than five cards
only the categories those cards can make exist, and kickers are the cards there are.
Higher ranks are better; only the order matters, and only within one game.

:func:`rank_generic` works for every deck. :func:`rank_standard` is the fast path for 5 to 7
cards of the 52-card deck: the compiled evaluator
:func:`pokerbot.protocol.analysis.showdown.rank_hand`, which gives exactly
:func:`rank_generic`'s integers (and orders hands as eval7 does, the tests' reference).
:func:`hand_ranker` picks the right one for a game (:attr:`pokerbot.protocol.game.Game.ranker`).
:func:`hand_name` names a hand as players do ("two pair, aces and sevens"). This module
imports neither numpy nor (before the first :func:`rank_standard` call) numba, so the dealer
loads it at no cost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from pokerbot.protocol.cards import MAX_RANKS, MAX_SUITS, Card

HandRanker = Callable[[Sequence[Card]], int]
"""Maps a hand's cards to an integer; a larger integer is a better hand."""


class CardGame(Protocol):
    """What the card arithmetic asks of a game: its deck, its card counts and its showdown
    ranker (:class:`pokerbot.protocol.game.Game` is one). The package takes games through this
    interface, so that :mod:`pokerbot.protocol.game` can use the ranking without a circle."""

    @property
    def deck(self) -> tuple[Card, ...]:
        """The game's cards, in the reference dealer's order."""

    @property
    def num_players(self) -> int:
        """Players at the table."""

    @property
    def num_hole_cards(self) -> int:
        """Hole cards per player."""

    @property
    def total_board_cards(self) -> int:
        """Board cards dealt over all rounds."""

    @property
    def is_standard_deck(self) -> bool:
        """True for the 52-card deck."""

    @property
    def ranker(self) -> HandRanker:
        """The showdown ranker of a hand (hole plus all board cards)."""


HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
_WHEEL = (12, 3, 2, 1, 0)


def _pack(category: int, ranks: Sequence[int]) -> int:
    """Encode a category and up to five tie-break ranks into one comparable integer."""
    value = category
    for index in range(5):
        value = (value << 4) | (ranks[index] + 1 if index < len(ranks) else 0)
    return value


def category_of(rank: int) -> int:
    """The category (``HIGH_CARD`` .. ``STRAIGHT_FLUSH``) of a :func:`rank_generic` value."""
    return rank >> 20


def _best_straight(rank_set: set[int]) -> int | None:
    """The top rank of the best straight in ``rank_set``, or None."""
    for top in range(MAX_RANKS - 1, 3, -1):
        if all(top - k in rank_set for k in range(5)):
            return top
    if all(r in rank_set for r in _WHEEL):
        return 3
    return None


def rank_generic(cards: Sequence[Card]) -> int:
    """Rank any number of cards from any ACPC deck (see the module docstring)."""
    counts = [0] * MAX_RANKS
    by_suit: list[list[int]] = [[] for _ in range(MAX_SUITS)]
    for card in cards:
        rank = card >> 2
        counts[rank] += 1
        by_suit[card & 3].append(rank)

    best_flush: list[int] | None = None
    best_straight_flush: int | None = None
    for suited in by_suit:
        if len(suited) >= 5:
            top = _best_straight(set(suited))
            if top is not None and (best_straight_flush is None or top > best_straight_flush):
                best_straight_flush = top
            five = sorted(suited, reverse=True)[:5]
            if best_flush is None or five > best_flush:
                best_flush = five
    if best_straight_flush is not None:
        return _pack(STRAIGHT_FLUSH, [best_straight_flush])

    # Ranks ordered by (count, rank), best first.
    groups = sorted(((counts[r], r) for r in range(MAX_RANKS) if counts[r]), reverse=True)
    singles_desc = sorted((card >> 2 for card in cards), reverse=True)

    def kickers(excluded: set[int], how_many: int) -> list[int]:
        return [r for r in singles_desc if r not in excluded][:how_many] if how_many > 0 else []

    top_count, top_rank = groups[0]
    if top_count >= 4:
        return _pack(QUADS, [top_rank, *kickers({top_rank}, 1)])
    if top_count == 3:
        pair_rank = next((r for c, r in groups[1:] if c >= 2), None)
        if pair_rank is not None:
            return _pack(FULL_HOUSE, [top_rank, pair_rank])
    if best_flush is not None:
        return _pack(FLUSH, best_flush)
    straight_top = _best_straight(set(singles_desc))
    if straight_top is not None:
        return _pack(STRAIGHT, [straight_top])
    if top_count == 3:
        return _pack(TRIPS, [top_rank, *kickers({top_rank}, 2)])
    if top_count == 2:
        second = groups[1] if len(groups) > 1 else (0, 0)
        if second[0] == 2:
            pairs = {top_rank, second[1]}
            return _pack(TWO_PAIR, [top_rank, second[1], *kickers(pairs, 1)])
        return _pack(PAIR, [top_rank, *kickers({top_rank}, 3)])
    return _pack(HIGH_CARD, singles_desc[:5])


RANK_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
"""How players name each rank, deuce to ace (rank index ``card >> 2``)."""


def _many(rank: int) -> str:
    word = RANK_WORDS[rank]
    return word + ("es" if word.endswith("x") else "s")


def hand_name(cards: Sequence[Card]) -> str:
    """The best hand ``cards`` make (hole plus board, any count, any deck), named as players
    say it: ``king high``, ``pair of sevens``, ``two pair, aces and sevens``, ``three of a
    kind, queens``, ``straight, ten high``, ``flush, ace high``, ``full house, kings full of
    sevens``, ``four of a kind, fives``, ``straight flush, nine high``, ``royal flush``.
    The category is :func:`rank_generic`'s, which orders hands as every ranker does."""
    if not cards:
        raise ValueError("a hand needs at least one card")
    value = rank_generic(cards)
    ranks = [((value >> (16 - 4 * index)) & 15) - 1 for index in range(5)]
    first, second = ranks[0], ranks[1]
    category = category_of(value)
    if category == HIGH_CARD:
        return f"{RANK_WORDS[first]} high"
    if category == PAIR:
        return f"pair of {_many(first)}"
    if category == TWO_PAIR:
        return f"two pair, {_many(first)} and {_many(second)}"
    if category == TRIPS:
        return f"three of a kind, {_many(first)}"
    if category == STRAIGHT:
        return f"straight, {RANK_WORDS[first]} high"
    if category == FLUSH:
        return f"flush, {RANK_WORDS[first]} high"
    if category == FULL_HOUSE:
        return f"full house, {_many(first)} full of {_many(second)}"
    if category == QUADS:
        return f"four of a kind, {_many(first)}"
    return "royal flush" if first == len(RANK_WORDS) - 1 else f"straight flush, {RANK_WORDS[first]} high"


_compiled: Callable[[Sequence[Card]], int] | None = None
"""The compiled evaluator behind :func:`rank_standard`, loaded by its first call: numba and
numpy take a fraction of a second to import, which commands that rank no hand
(``pokerbot --help``, a dealer printing its ports) need not pay."""


def _load_compiled() -> Callable[[Sequence[Card]], int]:
    global _compiled
    import numpy as np

    from pokerbot.protocol.analysis.showdown import rank_hand

    def rank(cards: Sequence[Card]) -> int:
        return int(rank_hand(np.array(cards, dtype=np.int64), len(cards)))

    rank(tuple(range(7)))  # compiled, or loaded from numba's cache, now
    _compiled = rank
    return rank


def preload_ranker(ranker: HandRanker) -> None:
    """Load what ``ranker`` needs now rather than at its first call: the compiled evaluator
    takes a fraction of a second to import (longer to compile when numba's cache is cold),
    which a dealer should pay before its first hand, not at a showdown in the middle of a
    match."""
    if ranker is rank_standard and _compiled is None:
        _load_compiled()


def rank_standard(cards: Sequence[Card]) -> int:
    """Rank 5 to 7 cards of the 52-card deck: :func:`rank_generic`'s integer, computed by the
    compiled evaluator (:func:`pokerbot.protocol.analysis.showdown.rank_hand`)."""
    return (_compiled or _load_compiled())(cards)


def hand_ranker(standard_deck: bool, cards_per_hand: int) -> HandRanker:
    """The ranker for hands of ``cards_per_hand`` cards: the compiled one where it applies, else generic."""
    if standard_deck and 5 <= cards_per_hand <= 7:
        return rank_standard
    return rank_generic
