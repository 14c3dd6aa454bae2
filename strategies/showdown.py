"""Exact hold'em showdown arithmetic over all 1,326 holdings, compiled with numba.

Three questions the equity-driven strategies ask about a board of 52-card hold'em (two hole
cards, five board cards in all; three, four or five of them known):

* :func:`equity_vs_random_all` answers, for **every** holding at once, the exact chances of
  winning and of tying against one uniformly random opponent holding, with the missing
  board cards dealt uniformly from the cards left (card removal everywhere). The styled
  players' strength estimate is a sample of exactly this event, so its distribution follows
  from these two numbers (:mod:`pokerbot.strategies.styled`).
* :func:`equity_vs_ranges` answers, for **one** holding, its equity (wins plus half the
  ties) against one or several weighted ranges over the 1,326 holdings, the missing board
  cards dealt uniformly from the cards that neither the holding, the board nor the opponent
  holding use. After the flop this is exact (every run-out is enumerated); pre-flop it is a
  Monte Carlo over ``samples`` boards drawn by the caller's seed, each board scored exactly
  against the whole range (standard deviation below ``0.5 / sqrt(samples)``).
* :func:`equity_all_vs_holding` answers, for **every** holding at once, its equity against
  one known holding (the safe agent's ledger values each holding we might have held against
  the cards the opponent showed; exact after the flop, sampled boards pre-flop).

Hands are ranked by the card abstraction's compiled ranker,
:func:`pokerbot.models.buckets.evaluator.rank_hand`, the twin of
:func:`pokerbot.protocol.ranking.rank_generic` (same integer for every hand, a test checks it;
that function orders hands as eval7 does). Cards are :mod:`pokerbot.protocol.cards` integers
(``rank * 4 + suit``). A holding's index is its position in :data:`HOLDINGS` (pairs of cards,
lower card first, in lexicographic order); :func:`holding_index` maps cards to it.

Timing on this machine (one core): a flop board for all holdings in about 0.1 s, the first
call of a process compiles for a few seconds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar, cast

import numpy as np
from numba import njit

from pokerbot.models.buckets.evaluator import HAND_CARDS, HAND_INDEX, NUM_CARDS, NUM_HANDS, rank_hand
from pokerbot.protocol.cards import Card

F = TypeVar("F", bound=Callable[..., object])


def _compiled(function: F) -> F:
    """``numba.njit`` with the compiled code cached on disk where numba finds a writable place
    (next to this file or in the user's cache), else compiled in memory at first use."""
    try:
        return cast(F, njit(cache=True)(function))
    except RuntimeError:  # no writable cache location
        return cast(F, njit(function))


TOTAL_BOARD = 5
HOLDINGS: np.ndarray = HAND_CARDS
"""The 1,326 holdings as (lower card, higher card) rows, in lexicographic order: the card
abstraction's hand numbering (:data:`~pokerbot.models.buckets.evaluator.HAND_CARDS`)."""
NUM_HOLDINGS = NUM_HANDS


def holding_index(cards: Sequence[Card]) -> int:
    """The index in :data:`HOLDINGS` of two distinct hole cards (either order)."""
    first, second = cards
    index = int(HAND_INDEX[first, second])
    if index < 0:
        raise ValueError(f"not a holding: {cards!r}")
    return index


def conflict_mask(cards: Sequence[Card]) -> np.ndarray:
    """A boolean array over the holdings: True where a holding uses one of ``cards``."""
    used = np.zeros(NUM_CARDS, dtype=bool)
    used[list(cards)] = True
    return used[HOLDINGS[:, 0]] | used[HOLDINGS[:, 1]]


# ------------------------------------------------------------------ ranking
_NEUTRAL_SUITS = np.array([0, 1, 2, 3, 0, 1, 2], dtype=np.int64)
"""Suits for seven cards of which no five share one: ranking them gives the best hand without a flush."""


@_compiled
def _rank_holdings(board: np.ndarray, holdings: np.ndarray, ranks: np.ndarray) -> int:
    """Rank every holding with the five-card ``board`` into ``ranks`` (-1 where it uses a board
    card); return the number of holdings ranked.

    Without a flush a hand's value depends on its ranks alone, so the values of the 91 pairs of
    ranks are computed once per board (the cards ranked with suits of which no five agree);
    holdings that can complete a flush are ranked with their own cards.
    """
    used = np.zeros(NUM_CARDS, dtype=np.bool_)
    counts = np.zeros(13, dtype=np.int64)
    suit_counts = np.zeros(4, dtype=np.int64)
    plain_cards = np.empty(7, dtype=np.int64)
    cards = np.empty(7, dtype=np.int64)
    for i in range(5):
        card = board[i]
        used[card] = True
        counts[card >> 2] += 1
        suit_counts[card & 3] += 1
        plain_cards[i] = (card >> 2) * 4 + _NEUTRAL_SUITS[i]
        cards[i] = card
    plain = np.zeros((13, 13), dtype=np.int64)
    for low in range(13):
        for high in range(low, 13):
            if counts[low] + 1 + (low == high) <= 4 and counts[high] + 1 <= 4:
                plain_cards[5] = low * 4 + _NEUTRAL_SUITS[5]
                plain_cards[6] = high * 4 + _NEUTRAL_SUITS[6]
                plain[low, high] = plain[high, low] = rank_hand(plain_cards, 7)
    flush_suit = -1
    for suit in range(4):
        if suit_counts[suit] >= 3:
            flush_suit = suit
    valid = 0
    for h in range(holdings.shape[0]):
        a, b = holdings[h, 0], holdings[h, 1]
        if used[a] or used[b]:
            ranks[h] = -1
            continue
        value = plain[a >> 2, b >> 2]
        if flush_suit >= 0:
            extra = (1 if a & 3 == flush_suit else 0) + (1 if b & 3 == flush_suit else 0)
            if suit_counts[flush_suit] + extra >= 5:
                cards[5] = a
                cards[6] = b
                value = rank_hand(cards, 7)
        ranks[h] = value
        valid += 1
    return valid


@_compiled
def _runouts(remaining: np.ndarray, missing: int) -> np.ndarray:
    """Every set of ``missing`` (0, 1 or 2) cards from ``remaining``, one per row."""
    n = remaining.shape[0]
    if missing == 0:
        return np.empty((1, 0), dtype=np.int64)
    if missing == 1:
        out = np.empty((n, 1), dtype=np.int64)
        for i in range(n):
            out[i, 0] = remaining[i]
        return out
    out = np.empty((n * (n - 1) // 2, 2), dtype=np.int64)
    k = 0
    for i in range(n):
        for j in range(i + 1, n):
            out[k, 0], out[k, 1] = remaining[i], remaining[j]
            k += 1
    return out


@_compiled
def _vs_random_kernel(known: np.ndarray, holdings: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    used = np.zeros(NUM_CARDS, dtype=np.bool_)
    for c in known:
        used[c] = True
    remaining = np.array([c for c in range(NUM_CARDS) if not used[c]], dtype=np.int64)
    missing = TOTAL_BOARD - known.shape[0]
    runouts = _runouts(remaining, missing)
    count = holdings.shape[0]
    wins = np.zeros(count)
    ties = np.zeros(count)
    totals = np.zeros(count)
    ranks = np.empty(count, dtype=np.int64)
    board = np.empty(5, dtype=np.int64)
    board[: known.shape[0]] = known
    lower_card = np.zeros(NUM_CARDS, dtype=np.int64)
    equal_card = np.zeros(NUM_CARDS, dtype=np.int64)
    all_card = np.zeros(NUM_CARDS, dtype=np.int64)
    for r in range(runouts.shape[0]):
        for i in range(missing):
            board[known.shape[0] + i] = runouts[r, i]
        valid = _rank_holdings(board, holdings, ranks)
        order = np.argsort(ranks)
        lower_card[:] = 0
        all_card[:] = 0
        for h in range(count):
            if ranks[h] >= 0:
                all_card[holdings[h, 0]] += 1
                all_card[holdings[h, 1]] += 1
        lower = 0
        start = count - valid  # the unranked holdings (-1) sort first
        while start < count:
            end = start
            while end < count and ranks[order[end]] == ranks[order[start]]:
                end += 1
            for k in range(start, end):
                h = order[k]
                equal_card[holdings[h, 0]] += 1
                equal_card[holdings[h, 1]] += 1
            group = end - start
            for k in range(start, end):
                h = order[k]
                a, b = holdings[h, 0], holdings[h, 1]
                wins[h] += lower - lower_card[a] - lower_card[b]
                ties[h] += group - equal_card[a] - equal_card[b] + 1
                totals[h] += valid - all_card[a] - all_card[b] + 1
            for k in range(start, end):
                h = order[k]
                a, b = holdings[h, 0], holdings[h, 1]
                equal_card[a] -= 1
                equal_card[b] -= 1
                lower_card[a] += 1
                lower_card[b] += 1
            lower += group
            start = end
    return wins, ties, totals


def equity_vs_random_all(board: Sequence[Card]) -> tuple[np.ndarray, np.ndarray]:
    """``(p_win, p_tie)`` of every holding (arrays over :data:`HOLDINGS`) against one uniformly
    random holding on ``board`` (3 to 5 known cards), the rest of the board dealt at random;
    both 0 for holdings that use a board card. Exact (see the module docstring)."""
    if not 3 <= len(board) <= TOTAL_BOARD:
        raise ValueError(f"a board of 3 to 5 cards is needed, got {len(board)}")
    wins, ties, totals = _vs_random_kernel(np.array(board, dtype=np.int64), HOLDINGS)
    safe = np.where(totals > 0, totals, 1.0)
    return wins / safe, ties / safe


@_compiled
def _score_survival(win: np.ndarray, tie: np.ndarray, samples: int) -> np.ndarray:
    count = win.shape[0]
    top = 2 * samples
    table = np.zeros((count, top + 2))
    pmf = np.empty(top + 1)
    step = np.empty(top + 1)
    for h in range(count):
        w, t = win[h], tie[h]
        loss = max(0.0, 1.0 - w - t)
        pmf[:] = 0.0
        pmf[0] = 1.0
        for n in range(samples):
            for k in range(2 * n + 3 if 2 * n + 3 <= top + 1 else top + 1):
                value = pmf[k] * loss
                if k >= 1:
                    value += pmf[k - 1] * t
                if k >= 2:
                    value += pmf[k - 2] * w
                step[k] = value
            for k in range(top + 1):
                pmf[k] = step[k] if k < 2 * n + 3 else 0.0
        running = 0.0
        for k in range(top, -1, -1):
            running += pmf[k]
            table[h, k] = running
    return table


def score_survival(win: np.ndarray, tie: np.ndarray, samples: int) -> np.ndarray:
    """For every holding, ``P(2W + T >= k)`` for ``k = 0 .. 2 samples + 1`` (the last column 0),
    where ``W`` wins and ``T`` ties are counted among ``samples`` independent showdowns won
    with probability ``win`` and tied with ``tie`` (arrays over the holdings)."""
    return _score_survival(np.asarray(win, dtype=np.float64), np.asarray(tie, dtype=np.float64), samples)


@_compiled
def _rank_runout(
    known: np.ndarray, runout: np.ndarray, holdings: np.ndarray, board: np.ndarray, ranks: np.ndarray
) -> None:
    """Rank every holding into ``ranks`` on the board ``known`` + ``runout`` (built in ``board``)."""
    board[: known.shape[0]] = known
    for i in range(runout.shape[0]):
        board[known.shape[0] + i] = runout[i]
    _rank_holdings(board, holdings, ranks)


@_compiled
def _vs_ranges_kernel(
    hero: np.ndarray, known: np.ndarray, weights: np.ndarray, holdings: np.ndarray, boards: np.ndarray
) -> np.ndarray:
    ranges = weights.shape[0]
    wins = np.zeros(ranges)
    mass = np.zeros(ranges)
    board = np.empty(5, dtype=np.int64)
    count = holdings.shape[0]
    ranks = np.empty(count, dtype=np.int64)
    hero_index = -1
    for h in range(count):
        if (holdings[h, 0] == hero[0] and holdings[h, 1] == hero[1]) or (
            holdings[h, 0] == hero[1] and holdings[h, 1] == hero[0]
        ):
            hero_index = h
    for r in range(boards.shape[0]):
        _rank_runout(known, boards[r], holdings, board, ranks)
        mine = ranks[hero_index]
        for h in range(count):
            a, b = holdings[h, 0], holdings[h, 1]
            theirs = ranks[h]
            if theirs < 0 or a == hero[0] or a == hero[1] or b == hero[0] or b == hero[1]:
                continue
            score = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            for k in range(ranges):
                w = weights[k, h]
                if w > 0.0:
                    wins[k] += w * score
                    mass[k] += w
    out = np.empty(ranges)
    for k in range(ranges):
        out[k] = wins[k] / mass[k] if mass[k] > 0.0 else 0.5
    return out


def _completions(board: Sequence[Card], held: set[Card], samples: int, seed: int) -> np.ndarray:
    """The cards that complete ``board`` to five, one row per run-out, from the cards neither
    ``board`` nor ``held`` uses: every run-out when two or fewer are missing, else ``samples``
    of them drawn from ``seed``."""
    used = held | set(board)
    remaining = np.array([c for c in range(NUM_CARDS) if c not in used], dtype=np.int64)
    missing = TOTAL_BOARD - len(board)
    if missing <= 2:
        return _runouts(remaining, missing)
    generator = np.random.default_rng(seed)
    return remaining[np.argsort(generator.random((samples, len(remaining))), axis=1)[:, :missing]]


def equity_vs_ranges(
    hero: Sequence[Card],
    board: Sequence[Card],
    weights: np.ndarray,
    *,
    samples: int = 2000,
    seed: int = 0,
) -> np.ndarray:
    """The equity (wins + ties / 2) of ``hero`` against each row of ``weights`` (ranges over
    :data:`HOLDINGS`; holdings that clash with ``hero`` or ``board`` are ignored), at showdown
    after the rest of the board is dealt. Exact with 3 to 5 board cards; with fewer, a Monte
    Carlo over ``samples`` boards drawn from ``seed`` (see the module docstring). A range with
    no weight left gets 0.5."""
    matrix = np.atleast_2d(np.asarray(weights, dtype=np.float64))
    if matrix.shape[1] != NUM_HOLDINGS:
        raise ValueError(f"a range has {NUM_HOLDINGS} weights, got {matrix.shape[1]}")
    known = np.array(board, dtype=np.int64)
    boards = _completions(board, set(hero), samples, seed)
    return _vs_ranges_kernel(np.array(hero, dtype=np.int64), known, matrix, HOLDINGS, boards)


@_compiled
def _vs_holding_kernel(known: np.ndarray, villain: int, holdings: np.ndarray, boards: np.ndarray) -> np.ndarray:
    count = holdings.shape[0]
    score = np.zeros(count)
    seen = np.zeros(count)
    board = np.empty(5, dtype=np.int64)
    ranks = np.empty(count, dtype=np.int64)
    a0, b0 = holdings[villain, 0], holdings[villain, 1]
    for r in range(boards.shape[0]):
        _rank_runout(known, boards[r], holdings, board, ranks)
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
    board: Sequence[Card], villain: Sequence[Card], *, samples: int = 500, seed: int = 0
) -> np.ndarray:
    """The equity (wins + ties / 2) of every holding (an array over :data:`HOLDINGS`) against
    the one holding ``villain`` at showdown, the rest of ``board`` dealt uniformly from the
    cards that neither holding nor the board uses; 0 for holdings that clash with ``villain``
    or ``board``. Exact with 3 to 5 board cards; with fewer, every holding is scored on the
    same ``samples`` boards drawn from ``seed`` (the ones that use none of its cards)."""
    if len(board) > TOTAL_BOARD:
        raise ValueError(f"a board has at most {TOTAL_BOARD} cards, got {len(board)}")
    boards = _completions(board, set(villain), samples, seed)
    return _vs_holding_kernel(np.array(board, dtype=np.int64), holding_index(villain), HOLDINGS, boards)


__all__ = [
    "HOLDINGS",
    "NUM_HOLDINGS",
    "conflict_mask",
    "equity_all_vs_holding",
    "equity_vs_random_all",
    "equity_vs_ranges",
    "holding_index",
    "score_survival",
]
