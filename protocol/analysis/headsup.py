"""Showdown equity of a holding against one known hand (both players' cards known).

* :func:`heads_up_equity`: position 0's share of a showdown (wins plus half the ties) with
  both players' hole cards known, the missing board cards dealt uniformly from the cards left.
  In 52-card hold'em (two hole cards, five board cards) a compiled kernel: exact with three or
  more board cards (every run-out: 990 from the flop, 44 from the turn); pre-flop a Monte Carlo
  over ``preflop_boards`` boards drawn from a generator seeded by the two holdings and
  ``seed``, never by the deal, so the same pair always gets the same estimate, the two
  players' estimates add up to 1 exactly (the same boards score both) and the standard
  deviation is below ``0.5 / sqrt(preflop_boards)``; the last :data:`KEPT_EQUITIES` answers
  are kept for the process. Other games (Kuhn, Leduc, ...): every
  completion of the board, ranked by the game's ranker: exact.
* :func:`equity_all_vs_holding`: every hold'em holding (an array over
  :data:`~pokerbot.protocol.analysis.holdings.HOLDINGS`) against one known holding: exact
  after the flop, pre-flop the same seeded boards for every holding.

The equity against a range or a random hand is :mod:`pokerbot.protocol.analysis.equity`'s.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence

import numpy as np

from pokerbot.protocol.analysis.holdings import HOLDINGS, holding_index
from pokerbot.protocol.analysis.ranking import CardGame
from pokerbot.protocol.analysis.showdown import (
    BOARD_CARDS,
    compiled,
    completions,
    rank_hand,
    rank_runout_into,
    showdown_arrays,
)
from pokerbot.protocol.cards import Card

PREFLOP_BOARDS = 20_000
"""Boards of :func:`heads_up_equity`'s pre-flop Monte Carlo (standard deviation below 0.0036)."""
MAX_COMPLETIONS = 250_000
"""The most board completions :func:`heads_up_equity` walks in other games (a clear error beyond)."""


class EquityError(ValueError):
    """An equity that cannot be computed (cards missing or clashing, a game too big to enumerate)."""


@compiled
def _vs_holding_kernel(known: np.ndarray, villain: int, holdings: np.ndarray, boards: np.ndarray) -> np.ndarray:
    count = holdings.shape[0]
    score = np.zeros(count)
    seen = np.zeros(count)
    board = np.empty(5, dtype=np.int64)
    ranks = np.empty(count, dtype=np.int64)
    a0, b0 = holdings[villain, 0], holdings[villain, 1]
    for r in range(boards.shape[0]):
        rank_runout_into(known, boards[r], holdings, board, ranks)
        theirs = ranks[villain]
        for h in range(count):
            a, b = holdings[h, 0], holdings[h, 1]
            if ranks[h] < 0 or a == a0 or a == b0 or b == a0 or b == b0:
                continue
            score[h] += 1.0 if ranks[h] > theirs else 0.5 if ranks[h] == theirs else 0.0
            seen[h] += 1.0
    for h in range(count):
        score[h] = score[h] / seen[h] if seen[h] > 0.0 else 0.0
    return score


def equity_all_vs_holding(
    board: Sequence[Card],
    villain: Sequence[Card],
    *,
    samples: int = 500,
    seed: int = 0,
    among: np.ndarray | None = None,
    runouts: int | None = None,
) -> np.ndarray:
    """The equity (wins + ties / 2) of every holding (an array over :data:`HOLDINGS`) against
    the one holding ``villain`` at showdown, the rest of ``board`` dealt uniformly from the
    cards that neither holding nor the board uses; 0 for holdings that clash with ``villain``
    or ``board``. Exact with 3 to 5 board cards; with fewer, every holding is scored on the
    same ``samples`` boards drawn from ``seed`` (the ones that use none of its cards).
    ``among`` (booleans over :data:`HOLDINGS`): only those holdings are scored, the same
    answers at a cost in proportion to their number; the others get 0. ``runouts``: on a flop,
    that many of the 1,081 run-outs (of the cards neither the board nor ``villain`` holds)
    drawn from ``seed`` without replacement instead of all of them (the same for every
    holding, each scored on those that miss its cards: unbiased)."""
    if len(board) > BOARD_CARDS:
        raise ValueError(f"a board has at most {BOARD_CARDS} cards, got {len(board)}")
    boards = completions(board, set(villain), samples, seed)
    if runouts is not None and len(board) == BOARD_CARDS - 2 and runouts < len(boards):
        boards = boards[np.sort(np.random.default_rng(seed).choice(len(boards), runouts, replace=False))]
    known = np.array(board, dtype=np.int64)
    theirs = holding_index(villain)
    if among is None:
        return _vs_holding_kernel(known, theirs, HOLDINGS, boards)
    chosen = np.asarray(among, dtype=bool).copy()
    chosen[theirs] = True  # the villain's rank is read from the same rows
    rows = np.flatnonzero(chosen)
    scores = _vs_holding_kernel(known, int(np.searchsorted(rows, theirs)), HOLDINGS[rows], boards)
    equity = np.zeros(len(HOLDINGS))
    equity[rows] = scores
    return equity


@compiled
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


def is_holdem(game: CardGame) -> bool:
    """True for 52-card hold'em: two hole cards, five board cards in all."""
    return game.is_standard_deck and game.num_hole_cards == 2 and game.total_board_cards == 5


def _check_cards(holes: Sequence[Sequence[Card]], board: Sequence[Card], game: CardGame) -> None:
    cards = [*holes[0], *holes[1], *board]
    if len(set(cards)) != len(cards):
        raise EquityError(f"cards appear twice among the hole cards and the board: {cards}")
    if any(len(hole) != game.num_hole_cards for hole in holes):
        raise EquityError(f"each player needs {game.num_hole_cards} hole cards, got {[list(h) for h in holes]}")
    if len(board) > game.total_board_cards:
        raise EquityError(f"the game has {game.total_board_cards} board cards, {len(board)} were given")


def heads_up_equity(
    game: CardGame,
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
        sampled = len(board) < 3
        return _holdem_equity(
            tuple(int(card) for card in holes[0]),
            tuple(int(card) for card in holes[1]),
            tuple(int(card) for card in board),
            preflop_boards if sampled else 0,
            seed if sampled else 0,
        )
    return _enumerated_equity(game, holes, board)


KEPT_EQUITIES = 1 << 15
"""The hold'em answers of :func:`heads_up_equity` a process keeps (the same question, asked
again, is answered from memory)."""


@functools.lru_cache(maxsize=KEPT_EQUITIES)
def _holdem_equity(
    first: tuple[Card, ...], second: tuple[Card, ...], board: tuple[Card, ...], preflop_boards: int, seed: int
) -> float:
    if len(board) >= 3:
        return float(_holdem_kernel(np.array(first), np.array(second), np.array(board, dtype=np.int64), 0, 0))
    low, high = holding_index(first), holding_index(second)
    swap = low > high
    pair_seed = (min(low, high) * 1326 + max(low, high)) * 7919 + seed
    ordered = (second, first) if swap else (first, second)
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


def _enumerated_equity(game: CardGame, holes: Sequence[Sequence[Card]], board: Sequence[Card]) -> float:
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


__all__ = [
    "MAX_COMPLETIONS",
    "PREFLOP_BOARDS",
    "EquityError",
    "equity_all_vs_holding",
    "heads_up_equity",
    "is_holdem",
]
