"""Heads-up showdown equity with every hole card known: the arithmetic of AIVAT's value function.

:func:`heads_up_equity` is position 0's share of a showdown (wins plus half the ties) when both
players' hole cards are known and the missing board cards are dealt uniformly from the cards
left (card removal: neither player's cards nor the board can come).

* **52-card hold'em** (two hole cards, five board cards): a compiled kernel. With three or
  more board cards every run-out is enumerated (990 from the flop, 44 from the turn): exact.
  Pre-flop it is a Monte Carlo over ``preflop_boards`` boards drawn from a generator seeded
  by the two holdings and ``seed``, never by the deal: the same pair of holdings always gets
  the same estimate, the two players' estimates add up to 1 exactly (the same boards score
  both), and its standard deviation is below ``0.5 / sqrt(preflop_boards)``.
* **Other games** (Kuhn, Leduc, ...): every completion of the board, ranked by the game's
  ranker: exact.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import Game
from pokerbot.strategies.showdown import _compiled, holding_index, rank_hand

PREFLOP_BOARDS = 20_000
"""Boards of the pre-flop Monte Carlo in 52-card hold'em (standard deviation below 0.0036)."""
MAX_COMPLETIONS = 250_000
"""The most board completions the generic enumeration walks (a clear error beyond)."""


class EquityError(ValueError):
    """An equity that cannot be computed (cards missing or clashing, a game too big to enumerate)."""


@_compiled
def showdown_arrays(
    hole0: np.ndarray, hole1: np.ndarray, board: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Both players' seven-card arrays with the hole and board cards filled in (the rest to be
    dealt at ``2 + len(board)`` on), and the cards left (the first ``left`` of ``remaining``)."""
    used = np.zeros(52, dtype=np.bool_)
    first = np.empty(7, dtype=np.int64)
    second = np.empty(7, dtype=np.int64)
    for i in range(2):
        used[hole0[i]] = True
        used[hole1[i]] = True
        first[i] = hole0[i]
        second[i] = hole1[i]
    for i in range(board.shape[0]):
        used[board[i]] = True
        first[2 + i] = board[i]
        second[2 + i] = board[i]
    remaining = np.empty(52, dtype=np.int64)
    left = 0
    for card in range(52):
        if not used[card]:
            remaining[left] = card
            left += 1
    return first, second, remaining, left


@_compiled
def _holdem_kernel(hole0: np.ndarray, hole1: np.ndarray, board: np.ndarray, samples: int, seed: int) -> float:
    """Position 0's equity (wins + ties / 2): exact with 3 to 5 board cards, else sampled."""
    first, second, remaining, left = showdown_arrays(hole0, hole1, board)
    known = board.shape[0]
    missing = 5 - known
    score = 0.0
    count = 0
    if missing == 0:
        a, b = rank_hand(first, 7), rank_hand(second, 7)
        return 1.0 if a > b else 0.5 if a == b else 0.0
    if missing == 1:
        for i in range(left):
            first[6] = second[6] = remaining[i]
            a, b = rank_hand(first, 7), rank_hand(second, 7)
            score += 1.0 if a > b else 0.5 if a == b else 0.0
            count += 1
        return score / count
    if missing == 2:
        for i in range(left):
            first[5] = second[5] = remaining[i]
            for j in range(i + 1, left):
                first[6] = second[6] = remaining[j]
                a, b = rank_hand(first, 7), rank_hand(second, 7)
                score += 1.0 if a > b else 0.5 if a == b else 0.0
                count += 1
        return score / count
    np.random.seed(seed)
    for _ in range(samples):
        for k in range(missing):  # a partial Fisher-Yates shuffle: `missing` distinct cards
            pick = k + np.random.randint(0, left - k)
            remaining[k], remaining[pick] = remaining[pick], remaining[k]
            first[2 + known + k] = second[2 + known + k] = remaining[k]
        a, b = rank_hand(first, 7), rank_hand(second, 7)
        score += 1.0 if a > b else 0.5 if a == b else 0.0
    return score / samples


def is_holdem(game: Game) -> bool:
    """True for 52-card hold'em: two hole cards, five board cards in all."""
    return game.is_standard_deck and game.num_hole_cards == 2 and game.total_board_cards == 5


def _check_cards(holes: Sequence[Sequence[Card]], board: Sequence[Card], game: Game) -> None:
    cards = [*holes[0], *holes[1], *board]
    if len(set(cards)) != len(cards):
        raise EquityError(f"cards appear twice among the hole cards and the board: {cards}")
    if any(len(hole) != game.num_hole_cards for hole in holes):
        raise EquityError(f"each player needs {game.num_hole_cards} hole cards, got {[list(h) for h in holes]}")
    if len(board) > game.total_board_cards:
        raise EquityError(f"the game has {game.total_board_cards} board cards, {len(board)} were given")


def heads_up_equity(
    game: Game,
    holes: Sequence[Sequence[Card]],
    board: Sequence[Card],
    *,
    preflop_boards: int = PREFLOP_BOARDS,
    seed: int = 0,
) -> float:
    """Position 0's showdown equity (wins + ties / 2, in [0, 1]) with ``holes`` (both players'
    hole cards) and ``board`` known, the rest of the board dealt uniformly (module docstring)."""
    _check_cards(holes, board, game)
    if is_holdem(game):
        if len(board) >= 3:
            return float(_holdem_kernel(np.array(holes[0]), np.array(holes[1]), np.array(board, dtype=np.int64), 0, 0))
        low, high = holding_index(holes[0]), holding_index(holes[1])
        swap = low > high
        pair_seed = (min(low, high) * 1326 + max(low, high)) * 7919 + seed
        ordered = (holes[1], holes[0]) if swap else (holes[0], holes[1])
        estimate = float(
            _holdem_kernel(
                np.array(ordered[0]),
                np.array(ordered[1]),
                np.array(board, dtype=np.int64),
                preflop_boards,
                pair_seed % (2**31),
            )
        )
        return 1.0 - estimate if swap else estimate
    return _enumerated_equity(game, holes, board)


def _enumerated_equity(game: Game, holes: Sequence[Sequence[Card]], board: Sequence[Card]) -> float:
    used = {*holes[0], *holes[1], *board}
    remaining = [card for card in game.deck if card not in used]
    missing = game.total_board_cards - len(board)
    if math.comb(len(remaining), missing) > MAX_COMPLETIONS:
        raise EquityError(
            f"{math.comb(len(remaining), missing)} board completions are too many to enumerate "
            f"(at most {MAX_COMPLETIONS}): this game's equity has no fast path"
        )
    ranker = game.ranker
    score, count = 0.0, 0
    for extra in itertools.combinations(remaining, missing):
        full = (*board, *extra)
        first, second = ranker((*holes[0], *full)), ranker((*holes[1], *full))
        score += 1.0 if first > second else 0.5 if first == second else 0.0
        count += 1
    return score / count


__all__ = ["PREFLOP_BOARDS", "EquityError", "heads_up_equity", "is_holdem"]
