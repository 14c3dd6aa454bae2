"""Showdown equity of a holding against a range or a random hand, in two-player 52-card hold'em.

Equity is the share of the pot a holding wins at a showdown against one opponent holding
(wins 1, ties 1/2), the missing board cards dealt uniformly from the cards that neither
holding, the opponent's holding nor the board uses (card removal everywhere). Holdings are
indexed as :data:`~pokerbot.protocol.analysis.holdings.HOLDINGS`; a range is a weight per
holding (holdings that clash with the known cards are ignored). With 3 to 5 board cards the
answers are exact (every run-out is enumerated); with fewer, the answers are Monte Carlo
estimates over seeded boards (standard deviation below ``0.5 / sqrt(samples)``).

Against **a range**:

* :func:`equity_vs_ranges`: one holding against one or several weighted ranges; exact with 3
  to 5 board cards, else ``samples`` boards each scored against the whole range;
* :func:`equity_all_vs_range`: every holding at once against one weighted range, on the same
  boards, for about the cost of one holding;
* :func:`sampled_equity_vs_range`: eval7's Monte Carlo against a list of holdings
  (:class:`Eval7Range`), each draw an opponent holding and a run-out together: a cheaper
  estimate, for a search that asks many.

Against **a random hand** (every holding without a known card equally likely):

* :func:`equity_vs_random_all`: every holding at once, its exact chances of a win and of a
  tie (3 to 5 board cards; the answers for the last :data:`KEPT_BOARDS` boards are kept
  and shared by every caller in the process);
* :func:`equity_vs_random`: one holding (:func:`equity_vs_ranges` with the uniform range);
* :func:`sampled_preflop_equity`: one holding pre-flop, from compiled seeded deals (the
  generator of the shipped pre-flop table);
* :func:`multiway_share`: the share of the pot against several random hands (sampled);
* :func:`score_survival`: the law of an equity estimated from ``n`` sampled showdowns.

Elsewhere in the package: against one known hand, :mod:`~pokerbot.protocol.analysis.headsup`;
the 169 classes' pre-flop equity against a random hand, :mod:`~pokerbot.protocol.analysis.preflop`;
hand strength on the current board in any game, :mod:`~pokerbot.protocol.analysis.strength`;
effective hand strength, :mod:`~pokerbot.protocol.analysis.ehs`.

The kernels are numba-compiled: the first call of a process compiles them (or loads them
from numba's cache).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from pokerbot.protocol.analysis.eval7_cards import eval7_cards
from pokerbot.protocol.analysis.holdings import HOLDINGS, NUM_HOLDINGS
from pokerbot.protocol.analysis.ranking import CardGame
from pokerbot.protocol.analysis.showdown import (
    BOARD_CARDS,
    compiled,
    completions,
    rank_hand,
    rank_holdings_into,
    rank_runout_into,
    runouts,
    unused_cards,
)
from pokerbot.protocol.analysis.splitmix import next_below
from pokerbot.protocol.cards import NUM_CARDS, Card


# ------------------------------------------------------------------ against a random hand
@compiled
def _vs_random_kernel(known: np.ndarray, holdings: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    missing = BOARD_CARDS - known.shape[0]
    deals = runouts(unused_cards(known), missing)
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
    for r in range(deals.shape[0]):
        for i in range(missing):
            board[known.shape[0] + i] = deals[r, i]
        valid = rank_holdings_into(board, holdings, ranks)
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


KEPT_BOARDS = 256
"""The boards whose :func:`equity_vs_random_all` answers a process keeps (a flop's takes about
0.1 s to compute, two arrays of 1,326 floats to keep)."""


def equity_vs_random_all(board: Sequence[Card], *, kept: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``(p_win, p_tie)`` of every holding (arrays over :data:`HOLDINGS`) against one uniformly
    random holding on ``board`` (3 to 5 known cards, in the order given), the rest of the board
    dealt at random; both 0 for holdings that use a board card. Exact. The answers for the last
    :data:`KEPT_BOARDS` boards asked are kept and shared by every caller (read-only arrays);
    ``kept=False`` computes afresh."""
    if not 3 <= len(board) <= BOARD_CARDS:
        raise ValueError(f"a board of 3 to 5 cards is needed, got {len(board)}")
    key = tuple(int(card) for card in board)
    return _vs_random_all(key) if kept else _vs_random_all.__wrapped__(key)


@functools.lru_cache(maxsize=KEPT_BOARDS)
def _vs_random_all(board: tuple[Card, ...]) -> tuple[np.ndarray, np.ndarray]:
    wins, ties, totals = _vs_random_kernel(np.array(board, dtype=np.int64), HOLDINGS)
    safe = np.where(totals > 0, totals, 1.0)
    win, tie = wins / safe, ties / safe
    win.setflags(write=False)
    tie.setflags(write=False)
    return win, tie


_UNIFORM = np.ones(NUM_HOLDINGS)
"""The uniform range: every holding weighs 1."""
_UNIFORM.setflags(write=False)


def equity_vs_random(hole: Sequence[Card], board: Sequence[Card], *, samples: int = 2000, seed: int = 0) -> float:
    """The equity of ``hole`` against one uniformly random holding on ``board``: exact with 3
    to 5 board cards, else over ``samples`` boards drawn from ``seed`` (:func:`equity_vs_ranges`
    with the uniform range)."""
    return float(equity_vs_ranges(hole, board, _UNIFORM, samples=samples, seed=seed)[0])


PREFLOP_DRAWS_PER_DEAL = 7
"""Random numbers :func:`sampled_preflop_equity` draws for one deal (five board cards, two
opponent cards)."""


@compiled
def sampled_preflop_equity(first: int, second: int, samples: int, state: np.ndarray) -> float:
    """Sampled pre-flop equity of the holding ``first, second`` against one random holding:
    ``samples`` deals of a five-card board and the opponent's two cards from the 50 cards
    left (a partial Fisher-Yates shuffle), drawn from the SplitMix64 ``state``
    (:mod:`~pokerbot.protocol.analysis.splitmix`, advanced in place by
    :data:`PREFLOP_DRAWS_PER_DEAL` draws a deal)."""
    deck = unused_cards(np.array([first, second], dtype=np.int64))
    mine = np.empty(7, dtype=np.int64)
    theirs = np.empty(7, dtype=np.int64)
    mine[0], mine[1] = first, second
    score = 0.0
    for _ in range(samples):
        for i in range(PREFLOP_DRAWS_PER_DEAL):  # partial Fisher-Yates: 5 board cards, then 2 opponent cards
            j = i + next_below(state, 50 - i)
            deck[i], deck[j] = deck[j], deck[i]
        for i in range(5):
            mine[2 + i] = deck[i]
            theirs[2 + i] = deck[i]
        theirs[0], theirs[1] = deck[5], deck[6]
        a = rank_hand(mine, 7)
        b = rank_hand(theirs, 7)
        score += 1.0 if a > b else 0.5 if a == b else 0.0
    return score / samples


@compiled
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
    with probability ``win`` and tied with ``tie`` (arrays over the holdings): the law of an
    equity estimated as ``(W + T / 2) / samples``."""
    return _score_survival(np.asarray(win, dtype=np.float64), np.asarray(tie, dtype=np.float64), samples)


# ------------------------------------------------------------------ against a range
@compiled
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
        rank_runout_into(known, boards[r], holdings, board, ranks)
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
    boards = completions(board, set(hero), samples, seed)
    return _vs_ranges_kernel(np.array(hero, dtype=np.int64), known, matrix, HOLDINGS, boards)


@compiled
def _all_vs_range_kernel(
    known: np.ndarray, weights: np.ndarray, holdings: np.ndarray, boards: np.ndarray
) -> np.ndarray:
    count = holdings.shape[0]
    wins = np.zeros(count)
    mass = np.zeros(count)
    board = np.empty(5, dtype=np.int64)
    ranks = np.empty(count, dtype=np.int64)
    below_card = np.zeros(NUM_CARDS)
    group_card = np.zeros(NUM_CARDS)
    live_card = np.zeros(NUM_CARDS)
    for r in range(boards.shape[0]):
        rank_runout_into(known, boards[r], holdings, board, ranks)
        live_card[:] = 0.0
        live_total = 0.0
        for h in range(count):
            if ranks[h] >= 0:
                w = weights[h]
                live_card[holdings[h, 0]] += w
                live_card[holdings[h, 1]] += w
                live_total += w
        order = np.argsort(ranks)
        below_card[:] = 0.0
        below = 0.0
        i = 0
        while i < count:
            if ranks[order[i]] < 0:
                i += 1
                continue
            j = i  # the holdings of equal rank: order[i:j] (group_card is all 0 here)
            group = 0.0
            while j < count and ranks[order[j]] == ranks[order[i]]:
                g = order[j]
                w = weights[g]
                group_card[holdings[g, 0]] += w
                group_card[holdings[g, 1]] += w
                group += w
                j += 1
            for k in range(i, j):
                h = order[k]
                a, b = holdings[h, 0], holdings[h, 1]
                w = weights[h]  # h shares both of its cards with itself alone (inclusion-exclusion)
                beaten = below - below_card[a] - below_card[b]
                tied = group - group_card[a] - group_card[b] + w
                wins[h] += beaten + 0.5 * tied
                mass[h] += live_total - live_card[a] - live_card[b] + w
            for k in range(i, j):
                g = order[k]
                w = weights[g]
                below_card[holdings[g, 0]] += w
                below_card[holdings[g, 1]] += w
                group_card[holdings[g, 0]] = 0.0
                group_card[holdings[g, 1]] = 0.0
            below += group
            i = j
    out = np.zeros(count)
    for h in range(count):
        if mass[h] > 0.0:
            out[h] = wins[h] / mass[h]
    return out


def equity_all_vs_range(
    board: Sequence[Card], weights: np.ndarray, *, samples: int = 2000, seed: int = 0
) -> np.ndarray:
    """The equity (wins + ties / 2) of every holding (an array over :data:`HOLDINGS`) against
    the range ``weights`` (over :data:`HOLDINGS`; the holdings that clash with a holding or the
    board are left out of its answer) at showdown after the rest of the board is dealt; 0 for a
    holding that clashes with ``board`` or meets no weight. Exact with 3 to 5 board cards; with
    fewer, every holding is scored on the same ``samples`` boards drawn from ``seed`` (those that
    use none of its cards), in O(n log n) a board (ranks sorted, weights summed by card)."""
    vector = np.asarray(weights, dtype=np.float64)
    if vector.shape != (NUM_HOLDINGS,):
        raise ValueError(f"a range has {NUM_HOLDINGS} weights, got shape {vector.shape}")
    if len(board) > BOARD_CARDS:
        raise ValueError(f"a board has at most {BOARD_CARDS} cards, got {len(board)}")
    boards = completions(board, set(), samples, seed)
    return _all_vs_range_kernel(np.array(board, dtype=np.int64), np.ascontiguousarray(vector), HOLDINGS, boards)


class Eval7Range:
    """A range (holdings with weights) in eval7's form, converted once for many
    :func:`sampled_equity_vs_range` questions. It holds eval7 objects, which cannot be
    copied: a copy of its owner should share it."""

    def __init__(self, holdings: Iterable[tuple[Card, Card]], weights: Iterable[float] | None = None) -> None:
        table = eval7_cards()
        pairs = [(table[a], table[b]) for a, b in holdings]
        chosen = [1.0] * len(pairs) if weights is None else [float(w) for w in weights]
        if len(chosen) != len(pairs):
            raise ValueError(f"{len(pairs)} holdings but {len(chosen)} weights")
        self.pairs: list[tuple[tuple[Any, Any], float]] = list(zip(pairs, chosen))


def sampled_equity_vs_range(
    hole: Sequence[Card], villain: Eval7Range, board: Sequence[Card], iterations: int, *, seed: int | None = None
) -> float:
    """Sampled equity of ``hole`` against ``villain`` on ``board``: eval7's Monte Carlo, each of
    ``iterations`` draws an opponent holding (by weight, none clashing with the cards drawn)
    and a run-out (standard deviation at most ``0.5 / sqrt(iterations)``). eval7's generator
    is seeded with ``seed`` first (0 counts as 1); with None it goes on from where it was."""
    import eval7.xorshift_rand

    table = eval7_cards()
    if seed is not None:
        eval7.xorshift_rand.seed(seed or 1)
    hero = [table[card] for card in hole]
    known = [table[card] for card in board]
    return float(eval7.py_hand_vs_range_monte_carlo(hero, villain.pairs, known, iterations))


def multiway_share(
    game: CardGame, hole: Sequence[Card], board: Sequence[Card], opponents: int, iterations: int, rng: random.Random
) -> float:
    """Sampled share of the pot (ties split) of ``hole`` against ``opponents`` random holdings
    on ``board``: ``iterations`` deals of the run-out and the holdings, drawn by ``rng`` from
    the cards of ``game.deck`` left (in deck order), ranked by eval7 (standard deviation at
    most ``0.5 / sqrt(iterations)``)."""
    import eval7

    table = eval7_cards()
    used = set(hole) | set(board)
    rest = [table[card] for card in game.deck if card not in used]
    hero = [table[card] for card in hole]
    known = [table[card] for card in board]
    evaluate = eval7.evaluate
    missing = game.total_board_cards - len(board)
    draw = missing + 2 * opponents
    share = 0.0
    for _ in range(iterations):
        cards = rng.sample(rest, draw)
        final = known + cards[:missing]
        mine = evaluate(hero + final)
        best, tied = -1, 0
        for i in range(missing, draw, 2):
            value = evaluate(cards[i : i + 2] + final)
            if value > best:
                best, tied = value, 1
            elif value == best:
                tied += 1
        if mine > best:
            share += 1.0
        elif mine == best:
            share += 1.0 / (tied + 1)
    return share / iterations


__all__ = [
    "PREFLOP_DRAWS_PER_DEAL",
    "Eval7Range",
    "equity_all_vs_range",
    "equity_vs_random",
    "equity_vs_random_all",
    "equity_vs_ranges",
    "multiway_share",
    "sampled_preflop_equity",
    "sampled_equity_vs_range",
    "score_survival",
]
