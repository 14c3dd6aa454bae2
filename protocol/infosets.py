"""Information-set keys in ACPC notation, and classes of keys that pool them.

A key is what one player knows when it acts: its own hole cards, the board cards of the
rounds reached, a colon and the ACPC betting string, as in the ``MATCHSTATE`` cards and
betting fields::

    Ks:cr        Kuhn: holding the king of spades after check, raise
    Qh/Kh:rc/r   Leduc: holding Qh, board Kh, after raise-call then a raise in round 2

Hole cards come first; board cards dealt in round 0 (if the game has any) follow them
directly; each later round's board is introduced by ``/``. Within one group (the hole cards,
one round's board) the cards are written highest first by ACPC card index
(``rank * 4 + suit``), so the key does not depend on the dealing order. The betting string
is :meth:`protocol.hand.HandState.betting_string`. The acting position is implied by it.

Solvers key their tables by these strings and opponent models pool them: in games whose
hand ranking ignores suits (Kuhn, Leduc: no flushes) two keys that differ only by suits are
strategically the same situation. :func:`rank_class` maps a key to its suit-free class
(``Qh/Kh:rc/r`` -> ``Q/K:rc/r``), :func:`betting_class` to its betting alone, and
:func:`suits_irrelevant` tells whether suit-free pooling is exact for a game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from pokerbot.protocol.cards import CARD_STRINGS, Card, rank_of
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState

MAX_RANKING_CHECKS = 200_000
""":func:`suits_irrelevant` gives up (answers False) on games with more showdown hands."""


def cards_text(cards: Iterable[Card]) -> str:
    """``cards`` as one canonical group: highest ACPC card index first."""
    return "".join(CARD_STRINGS[card] for card in sorted(cards, reverse=True))


def board_text(game: Game, board: Sequence[Card], rounds_reached: int) -> str:
    """The board part of a key: round 0's cards, then ``/cards`` for rounds 1..``rounds_reached``."""
    parts = [cards_text(board[game.board_start[0] : game.board_start[0] + game.num_board_cards[0]])]
    for r in range(1, rounds_reached + 1):
        start = game.board_start[r]
        parts.append("/" + cards_text(board[start : start + game.num_board_cards[r]]))
    return "".join(parts)


def public_suffix(state: HandState) -> str:
    """The part of every key at ``state`` that all players share: board, ``:``, betting."""
    return board_text(state.game, state.visible_board(), state.round) + ":" + state.betting_string()


def infoset_key(hole_cards: Sequence[Card], state: HandState) -> str:
    """The key of the player holding ``hole_cards`` at ``state`` (the player to act)."""
    return cards_text(hole_cards) + public_suffix(state)


def rank_class(key: str) -> str:
    """The suit-free class of ``key``: every card's suit letter dropped (``Qh/Kh:rc/r`` -> ``Q/K:rc/r``)."""
    cards, colon, betting = key.partition(":")
    groups = cards.split("/")
    return "/".join(group[0::2] for group in groups) + colon + betting


def betting_class(key: str) -> str:
    """The card-blind class of ``key``: its betting only (``Qh/Kh:rc/r`` -> ``:rc/r``), for
    models of opponents whose play does not depend on their cards."""
    return ":" + key.partition(":")[2]


def identity_class(key: str) -> str:
    """``key`` itself (no pooling)."""
    return key


def suits_irrelevant(game: Game) -> bool:
    """True when a showdown hand's ranking depends only on its cards' ranks in ``game``.

    Then keys differing only by suits (``Qh/Kh`` and ``Qs/Kh``) are the same situation and
    may share parameters. Checked exhaustively over every hole-plus-board hand of a small
    game: hands with the same ranks must rank equally (False as soon as two differ - a
    flush - or when there are more than :data:`MAX_RANKING_CHECKS` hands to check).
    """
    if game.num_suits == 1:
        return True
    size = game.num_hole_cards + game.total_board_cards
    seen: dict[tuple[int, ...], int] = {}
    ranker = game.ranker
    for checked, hand in enumerate(combinations(game.deck, size)):
        if checked >= MAX_RANKING_CHECKS:
            return False
        ranks = tuple(sorted(rank_of(card) for card in hand))
        if seen.setdefault(ranks, ranker(hand)) != ranker(hand):
            return False
    return True


__all__ = [
    "MAX_RANKING_CHECKS",
    "betting_class",
    "board_text",
    "cards_text",
    "identity_class",
    "infoset_key",
    "public_suffix",
    "rank_class",
    "suits_irrelevant",
]
