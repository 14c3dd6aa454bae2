"""Information-set keys: ACPC notation of what one player knows.

A key is the player's own hole cards, the board cards of the rounds reached, a colon and
the ACPC betting string, exactly as in the ``MATCHSTATE`` cards and betting fields::

    Ks:cr        Kuhn: holding the king of spades after check, raise
    Qh/Kh:rc/r   Leduc: holding Qh, board Kh, after raise-call then a raise in round 2

Hole cards come first; board cards dealt in round 0 (if the game has any) follow them
directly; each later round's board is introduced by ``/``. Within one group (the hole cards,
one round's board) the cards are written highest first by ACPC card index
(``rank * 4 + suit``), so the key does not depend on the dealing order. The betting string
is :meth:`protocol.hand.HandState.betting_string` (limit games only: ``f``, ``c``, ``r``).
The acting position is implied by the betting string.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from protocol.cards import CARD_STRINGS, Card
from protocol.game import Game
from protocol.hand import HandState


def cards_text(cards: Iterable[Card]) -> str:
    """``cards`` as one canonical group: highest ACPC card index first."""
    return "".join(CARD_STRINGS[card] for card in sorted(cards, reverse=True))


def board_text(game: Game, board: Sequence[Card], rounds_reached: int) -> str:
    """The board part of a key: round 0's cards, then ``/cards`` for rounds 1..``rounds_reached``.

    ``board`` holds the board cards in dealing order (as many as the rounds reached need).
    """
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


__all__ = ["board_text", "cards_text", "infoset_key", "public_suffix"]
