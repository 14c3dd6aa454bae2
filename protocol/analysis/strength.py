"""Hand strength and sampled equity of one holding in any ACPC game (pure Python, eval7 where it serves).

* :func:`hand_strength` is the *percentile rank* of a holding on the board as it stands: the
  share of all other holdings (from the cards not seen) that it beats, ties counting half,
  by full enumeration, with no card to come. On a complete board it is the exact equity
  against a random hand.
* :func:`sampled_equity_vs_random` estimates the all-in equity (ties half) against one random
  holding by sampling the opponent's cards and the rest of the board from the caller's
  seeded generator.

Both work for every deck (Kuhn, Leduc, hold'em); the 52-card deck with 5 to 7 cards a hand
is ranked by eval7 (the fastest evaluator called from Python, one hand at a time; it orders
hands as :func:`~pokerbot.protocol.analysis.ranking.rank_standard` does), other decks by
:func:`~pokerbot.protocol.analysis.ranking.rank_generic`. Cards are
:mod:`pokerbot.protocol.cards` integers. Nothing here imports numpy: rule-based players
that use it stay light to load. The compiled, all-holdings equities of hold'em are
:mod:`pokerbot.protocol.analysis.equity`'s.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import eval7

from pokerbot.protocol.analysis.eval7_cards import eval7_cards
from pokerbot.protocol.analysis.ranking import CardGame, HandRanker, hand_ranker
from pokerbot.protocol.cards import Card


def _ranker(game: CardGame, cards_per_hand: int) -> HandRanker | None:
    """None when eval7 ranks these hands directly (the fast path), else the generic ranker."""
    if game.is_standard_deck and 5 <= cards_per_hand <= 7:
        return None
    return hand_ranker(game.is_standard_deck, cards_per_hand)


def hand_strength(game: CardGame, hole: Sequence[Card], board: Sequence[Card]) -> float:
    """Percentile rank in [0, 1] of ``hole`` on ``board`` among all other holdings.

    Enumerates every holding of ``game.num_hole_cards`` cards from the cards in neither
    ``hole`` nor ``board`` (990 on a hold'em river): wins count 1, ties 1/2.
    """
    used = set(hole) | set(board)
    rest = [card for card in game.deck if card not in used]
    ranker = _ranker(game, len(hole) + len(board))
    wins = ties = total = 0
    if ranker is None:
        table, evaluate = eval7_cards(), eval7.evaluate
        board_cards = [table[card] for card in board]
        mine = evaluate([table[card] for card in hole] + board_cards)
        for other in itertools.combinations(rest, len(hole)):
            value = evaluate([table[card] for card in other] + board_cards)
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


def sampled_equity_vs_random(
    game: CardGame, hole: Sequence[Card], board: Sequence[Card], rng: random.Random, samples: int = 64
) -> float:
    """All-in equity (ties half) of ``hole`` against one random holding, over ``samples`` draws
    of the opponent's cards and the rest of the board from ``rng``."""
    used = set(hole) | set(board)
    rest = [card for card in game.deck if card not in used]
    missing = game.total_board_cards - len(board)
    need = game.num_hole_cards + missing
    ranker = _ranker(game, len(hole) + game.total_board_cards)
    if ranker is None:
        table, evaluate = eval7_cards(), eval7.evaluate
        mine_cards = [table[card] for card in hole]
        board_cards = [table[card] for card in board]
    score = 0.0
    for _ in range(samples):
        drawn = rng.sample(rest, need)
        if ranker is None:
            runout = board_cards + [table[card] for card in drawn[game.num_hole_cards :]]
            mine = evaluate(mine_cards + runout)
            theirs = evaluate([table[card] for card in drawn[: game.num_hole_cards]] + runout)
        else:
            full_board = (*board, *drawn[game.num_hole_cards :])
            mine = ranker((*hole, *full_board))
            theirs = ranker((*drawn[: game.num_hole_cards], *full_board))
        score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return score / samples


__all__ = ["hand_strength", "sampled_equity_vs_random"]
