"""Hand strength and board texture: the card measures the opponent models use.

* :func:`hand_strength` is the *percentile rank* of a holding on a board: the fraction of
  all other holdings (from the cards not seen) that it beats, ties counting half, by full
  enumeration. At a hold'em showdown (five board cards) this is exact river hand strength;
  the hand-strength model predicts it, discretised into :data:`STRENGTH_BINS` equal bins.
* :func:`board_texture` gives the thesis' board attributes (ch. 4.4): face cards, the most
  cards of one suit, and connectedness.
* :func:`equity_vs_random` estimates all-in equity against one random holding by sampling
  (seeded by the caller's generator), for rule-based players.

Cards are :mod:`pokerbot.protocol.cards` integers. Works for any ACPC deck; the 52-card deck with 5 to
7 cards per hand goes through eval7.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import eval7

from pokerbot.protocol.cards import CARD_STRINGS, Card
from pokerbot.protocol.game import Game
from pokerbot.protocol.ranking import HandRanker, hand_ranker

STRENGTH_BINS = 10
"""Equal-width bins of hand strength (percentile rank in [0, 1]) the model predicts over."""
FACE_RANK = 9
"""Rank index of the jack: face cards here are J, Q, K and A (ranks 9..12)."""
STRAIGHT_SPAN = 5

_EVAL7 = tuple(eval7.Card(text) for text in CARD_STRINGS)
_evaluate = eval7.evaluate


def _ranker(game: Game, cards_per_hand: int) -> HandRanker | None:
    """None when eval7 ranks these hands directly (the fast path), else the generic ranker."""
    if game.is_standard_deck and 5 <= cards_per_hand <= 7:
        return None
    return hand_ranker(game.is_standard_deck, cards_per_hand)


def hand_strength(game: Game, hole: Sequence[Card], board: Sequence[Card]) -> float:
    """Percentile rank in [0, 1] of ``hole`` on ``board`` among all other holdings.

    Enumerates every holding of ``game.num_hole_cards`` cards from the cards in neither
    ``hole`` nor ``board`` (990 on a hold'em river): wins count 1, ties 1/2.
    """
    used = set(hole) | set(board)
    rest = [card for card in game.deck if card not in used]
    ranker = _ranker(game, len(hole) + len(board))
    wins = ties = total = 0
    if ranker is None:
        table = _EVAL7
        board_cards = [table[card] for card in board]
        mine = _evaluate([table[card] for card in hole] + board_cards)
        for other in itertools.combinations(rest, len(hole)):
            value = _evaluate([table[card] for card in other] + board_cards)
            total += 1
            if value < mine:
                wins += 1
            elif value == mine:
                ties += 1
    else:
        mine = ranker((*hole, *board))
        for other in itertools.combinations(rest, len(hole)):
            value = ranker((*other, *board))
            total += 1
            if value < mine:
                wins += 1
            elif value == mine:
                ties += 1
    return (wins + 0.5 * ties) / total if total else 0.5


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


def equity_vs_random(
    game: Game, hole: Sequence[Card], board: Sequence[Card], rng: random.Random, samples: int = 64
) -> float:
    """All-in equity (ties half) of ``hole`` against one random holding, over ``samples`` draws
    of the opponent's cards and the rest of the board from ``rng``."""
    used = set(hole) | set(board)
    rest = [card for card in game.deck if card not in used]
    missing = game.total_board_cards - len(board)
    need = game.num_hole_cards + missing
    ranker = _ranker(game, len(hole) + game.total_board_cards)
    table = _EVAL7
    mine_cards = [table[card] for card in hole]
    board_cards = [table[card] for card in board]
    score = 0.0
    for _ in range(samples):
        drawn = rng.sample(rest, need)
        if ranker is None:
            runout = board_cards + [table[card] for card in drawn[game.num_hole_cards :]]
            mine = _evaluate(mine_cards + runout)
            theirs = _evaluate([table[card] for card in drawn[: game.num_hole_cards]] + runout)
        else:
            full_board = (*board, *drawn[game.num_hole_cards :])
            mine = ranker((*hole, *full_board))
            theirs = ranker((*drawn[: game.num_hole_cards], *full_board))
        score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return score / samples


__all__ = ["FACE_RANK", "STRENGTH_BINS", "board_texture", "equity_vs_random", "hand_strength", "strength_bin"]
