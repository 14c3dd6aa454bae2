"""The holdings of a heads-up game, and the card arithmetic a subgame solver asks of them.

A :class:`HoldingSpace` numbers every set of hole cards a player can hold (hold'em: the 1,326
two-card holdings in the order of :data:`pokerbot.protocol.analysis.holdings.HOLDINGS`; Leduc: its six
one-card holdings) and answers, for a board:

* which holdings it blocks (:meth:`HoldingSpace.valid`);
* the strength of every holding on a complete board (:meth:`HoldingSpace.ranks`, higher is
  better, equal ties, -1 for holdings that use a board card), and on any board its equity
  against one uniformly random holding (:meth:`HoldingSpace.strength`);
* the **run-out matrix** of an incomplete board (:meth:`HoldingSpace.runout_matrix`):
  ``M[h, o]`` is the expected sign of ``h``'s showdown against ``o`` (+1 win, 0 tie, -1 loss),
  the missing board cards dealt uniformly from the cards neither holding nor the board uses;
  0 where ``h`` and ``o`` share a card or use a board card. ``stake * M @ r`` is then every
  holding's value against a range ``r`` when the cards are run out with no more betting.

Card removal everywhere: a holding's value against a range never counts the opponent holdings
that share one of its cards.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from functools import cache, cached_property
from math import comb

import numpy as np
from numba import njit

from pokerbot.protocol.analysis.holdings import HOLDINGS as HOLDEM_HOLDINGS
from pokerbot.protocol.analysis.ranking import CardGame
from pokerbot.protocol.analysis.showdown import rank_holdings_into
from pokerbot.protocol.cards import NUM_CARDS, Card


class HoldingSpace:
    """Every holding of a heads-up game with a fixed number of hole cards (one or two)."""

    def __init__(self, game: CardGame) -> None:
        if game.num_players != 2:
            raise ValueError("re-solving plays heads-up games")
        if game.num_hole_cards not in (1, 2):
            raise ValueError("re-solving needs one or two hole cards")
        self.game = game
        self.hole = game.num_hole_cards
        self.total_board = game.total_board_cards
        self._holdem = game.is_standard_deck and self.hole == 2 and self.total_board == 5
        deck = sorted(game.deck)
        if self._holdem:
            self.cards = np.ascontiguousarray(HOLDEM_HOLDINGS, dtype=np.int64)
        else:
            self.cards = np.array(list(itertools.combinations(deck, self.hole)), dtype=np.int64)
        self.size = int(self.cards.shape[0])
        self.deck: tuple[Card, ...] = tuple(deck)
        index = np.full((NUM_CARDS, NUM_CARDS), -1, dtype=np.int64)
        for h, row in enumerate(self.cards):
            if self.hole == 1:
                index[row[0], :] = h
            else:
                index[row[0], row[1]] = index[row[1], row[0]] = h
        self._index = index

    def index(self, cards: tuple[Card, ...] | list[Card]) -> int:
        """The number of the holding made of ``cards`` (any order)."""
        if len(cards) != self.hole:
            raise ValueError(f"a holding has {self.hole} cards, got {len(cards)}")
        first = cards[0]
        second = cards[1] if self.hole == 2 else 0
        h = int(self._index[first, second])
        if h < 0:
            raise ValueError(f"not a holding of this game: {cards!r}")
        return h

    def valid(self, board: tuple[Card, ...] | list[Card]) -> np.ndarray:
        """True for the holdings that use no card of ``board``."""
        used = np.zeros(NUM_CARDS, dtype=bool)
        used[list(board)] = True
        valid: np.ndarray = np.logical_not(np.any(used[self.cards], axis=1))
        return valid

    @cached_property
    def conflicts(self) -> np.ndarray:
        """``conflicts[h, o]``: the two holdings share a card (a holding conflicts with itself)."""
        member = np.zeros((self.size, NUM_CARDS), dtype=np.float32)
        for k in range(self.hole):
            member[np.arange(self.size), self.cards[:, k]] = 1.0
        return (member @ member.T) > 0

    def ranks(self, board: tuple[Card, ...] | list[Card]) -> np.ndarray:
        """Every holding's strength on a complete ``board`` (int64; -1 where blocked)."""
        if len(board) != self.total_board:
            raise ValueError(f"a complete board has {self.total_board} cards")
        ranks = np.empty(self.size, dtype=np.int64)
        if self._holdem:
            rank_holdings_into(np.asarray(board, dtype=np.int64), self.cards, ranks)
            return ranks
        ranker = self.game.ranker
        used = set(board)
        for h, row in enumerate(self.cards):
            cards = tuple(int(c) for c in row)
            ranks[h] = -1 if used.intersection(cards) else ranker((*cards, *board))
        return ranks

    def runout_matrix(self, board: tuple[Card, ...] | list[Card], dtype: type = np.float32) -> np.ndarray:
        """The run-out matrix of ``board`` (see the module docstring), float32 ``[size, size]``
        (or ``dtype``: the same values converted).

        Exact: every completion of the board is ranked. A complete board gives the signs of
        its showdowns. The live part is cached per board (the last few)."""
        return _runout_matrix(self, tuple(sorted(board)), dtype)

    def live_runout_matrix(self, board: tuple[Card, ...] | list[Card]) -> np.ndarray:
        """:meth:`runout_matrix` restricted to the holdings ``board`` leaves (rows and columns
        in the order of ``np.flatnonzero(self.valid(board))``), float32, cached."""
        return _live_runout_matrix(self, tuple(sorted(board)))

    def strength(self, board: tuple[Card, ...] | list[Card]) -> np.ndarray:
        """Every holding's equity (ties half) against one uniformly random holding on ``board``,
        the rest of the board dealt at random (float64 in [0, 1]; 0 where blocked): exact, the
        run-out matrix's row sums (from the matrix when it is cached, else counted alone in
        O(n) per completion without building it), except hold'em's empty board (the shipped
        pre-flop table)."""
        board = tuple(sorted(board))
        if self._holdem and not board:
            from pokerbot.protocol.analysis.preflop import preflop_equity

            return np.array(preflop_equity(), dtype=np.float64)
        valid = self.valid(board)
        live = np.flatnonzero(valid)
        cards = self.cards[live]
        holding = np.bincount(cards.ravel(), minlength=NUM_CARDS)  # live holdings with each card
        opponents = live.size - (holding[cards].sum(axis=1) - (self.hole - 1))
        matrix = _LIVE.get((id(self), board))
        if matrix is not None:
            sums = matrix.sum(axis=1, dtype=np.float64)
        else:  # without the matrix: the row sums alone, O(n) per completion
            need = self.total_board - len(board)
            left = len(self.deck) - len(board) - 2 * self.hole
            totals = np.zeros(live.size, dtype=np.int64)
            for dense in _dense_rank_chunks(self, board, live):
                _accumulate_row_signs(dense, np.ascontiguousarray(cards), totals)
            sums = totals / float(comb(left, need))
        out = np.zeros(self.size)
        out[live] = 0.5 + 0.5 * sums / np.maximum(opponents, 1)
        return out

    def completions(self, board: tuple[Card, ...] | list[Card]) -> list[tuple[Card, ...]]:
        """Every set of cards that completes ``board`` (none if it is complete)."""
        need = self.total_board - len(board)
        rest = [c for c in self.deck if c not in set(board)]
        return list(itertools.combinations(rest, need))


@cache
def holding_space(game: CardGame) -> HoldingSpace:
    """The (shared, read-only) holding space of ``game``."""
    return HoldingSpace(game)


_MATRIX_CACHE = 4
_LIVE: dict[tuple[int, tuple[Card, ...]], np.ndarray] = {}


def _runout_matrix(space: HoldingSpace, board: tuple[Card, ...], dtype: type) -> np.ndarray:
    live = np.flatnonzero(space.valid(board))
    matrix: np.ndarray = np.zeros((space.size, space.size), dtype=dtype)
    _scatter(_live_runout_matrix(space, board), live, matrix)
    return matrix


@njit(cache=True)
def _scatter(block: np.ndarray, index: np.ndarray, out: np.ndarray) -> None:
    """``out[index[i], index[j]] = block[i, j]``."""
    for i in range(index.shape[0]):
        row = out[index[i]]
        source = block[i]
        for j in range(index.shape[0]):
            row[index[j]] = source[j]


def _live_runout_matrix(space: HoldingSpace, board: tuple[Card, ...]) -> np.ndarray:
    key = (id(space), board)
    found = _LIVE.get(key)
    if found is not None:
        return found
    live = np.flatnonzero(space.valid(board))
    cards = np.ascontiguousarray(space.cards[live])
    need = space.total_board - len(board)
    wide = comb(len(space.deck) - len(board), need) >= 30_000
    sums = np.zeros((live.size, live.size), dtype=np.int32 if wide else np.int16)
    for dense in _dense_rank_chunks(space, board, live):
        _accumulate_signs(dense, sums)
    # A holding blocked by a completion counts as weaker than every live one in the sums:
    # take off, for every pair that shares no card, the completions that block only the
    # second holding (the same number for every such pair).
    left = len(space.deck) - len(board) - 2 * space.hole
    rest = len(space.deck) - len(board)
    blocked_only = comb(rest - space.hole, need) - comb(left, need)
    matrix = np.empty((live.size, live.size), dtype=np.float32)
    _signs_to_matrix(sums, cards, blocked_only, np.float32(comb(left, need)), matrix)
    if len(_LIVE) >= _MATRIX_CACHE:
        _LIVE.pop(next(iter(_LIVE)))
    _LIVE[key] = matrix
    return matrix


def _dense_rank_chunks(space: HoldingSpace, board: tuple[Card, ...], live: np.ndarray) -> Iterator[np.ndarray]:
    """The dense ranks (:func:`_dense_ranks`) of the ``live`` holdings on every completion of
    ``board``, a chunk of completions at a time (``[completions, live]``, int16)."""
    cards = np.ascontiguousarray(space.cards[live])
    completions = space.completions(board) or [()]
    need = space.total_board - len(board)
    for start in range(0, len(completions), _CHUNK):
        chunk = completions[start : start + _CHUNK]
        ranks = np.empty((len(chunk), live.size), dtype=np.int32)
        if space._holdem:
            _rank_completions(
                np.asarray(board, dtype=np.int64),
                np.asarray(chunk, dtype=np.int64).reshape(len(chunk), need),
                cards,
                ranks,
            )
        else:
            for c, extra in enumerate(chunk):
                ranks[c] = space.ranks(tuple(board) + tuple(extra))[live]
        dense = np.empty(ranks.shape, dtype=np.int16)
        _dense_ranks(ranks, dense)
        yield dense


_CHUNK = 1024
"""Completions ranked at a time (rows of the rank table in memory)."""
_ROWS = 16
"""Rows of the sums accumulated together, every completion at a time (they stay in cache)."""


@njit(cache=True)
def _rank_completions(board: np.ndarray, extras: np.ndarray, cards: np.ndarray, ranks: np.ndarray) -> None:
    """``ranks[c, h]``: the rank of hold'em holding ``cards[h]`` on ``board`` completed by
    ``extras[c]`` (-1 where the holding uses one of the completion's cards)."""
    full = np.empty(5, dtype=np.int64)
    full[: board.shape[0]] = board
    out = np.empty(cards.shape[0], dtype=np.int64)
    for c in range(extras.shape[0]):
        full[board.shape[0] :] = extras[c]
        rank_holdings_into(full, cards, out)
        for h in range(cards.shape[0]):
            ranks[c, h] = out[h]


@njit(cache=True)
def _dense_ranks(ranks: np.ndarray, dense: np.ndarray) -> None:
    """``dense[c]``: the ranks of ``ranks[c]`` renumbered 0, 1, ... in the same order (-1 kept),
    so that they fit the narrow integers :func:`_accumulate_signs` compares. Ranks are below
    2**24 (:func:`~pokerbot.protocol.analysis.showdown.rank_hand`'s values; a generic ranker's
    are renumbered by sorting): sorted by two passes of a radix sort, twelve bits each."""
    n = ranks.shape[1]
    if ranks.shape[0] > 0 and (ranks.max() >= 1 << 24):
        for c in range(ranks.shape[0]):
            _dense_sorted(ranks[c], np.argsort(ranks[c]), dense[c])
        return
    count = np.zeros(4097, dtype=np.int64)
    first = np.empty(n, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    for c in range(ranks.shape[0]):
        row = ranks[c]
        count[:] = 0
        for h in range(n):
            count[((row[h] + 1) & 4095) + 1] += 1
        for d in range(4096):
            count[d + 1] += count[d]
        for h in range(n):
            d = (row[h] + 1) & 4095
            first[count[d]] = h
            count[d] += 1
        count[:] = 0
        for h in range(n):
            count[((row[h] + 1) >> 12) + 1] += 1
        for d in range(4096):
            count[d + 1] += count[d]
        for i in range(n):
            h = first[i]
            d = (row[h] + 1) >> 12
            order[count[d]] = h
            count[d] += 1
        _dense_sorted(row, order, dense[c])


@njit(cache=True)
def _dense_sorted(row: np.ndarray, order: np.ndarray, dense: np.ndarray) -> None:
    """``dense[h]``: the number of distinct ranks >= 0 below ``row[h]`` (-1 kept), ``order``
    sorting ``row``."""
    level = -1
    previous = -1
    for i in range(order.shape[0]):
        h = order[i]
        r = row[h]
        if r < 0:
            dense[h] = -1
            continue
        if r != previous:
            level += 1
            previous = r
        dense[h] = level


@njit(cache=True)
def _accumulate_signs(ranks: np.ndarray, sums: np.ndarray) -> None:
    """``sums[h, o] += sign(ranks[c, h] - ranks[c, o])`` for ``h < o`` and every completion
    ``c`` where ``h`` is ranked (>= 0); an unranked ``o`` (-1) counts as weaker. The upper
    triangle only (the matrix is antisymmetric; the caller fills the rest), rows in blocks
    that stay in cache while every completion passes."""
    completions, n = ranks.shape
    for first in range(0, n, _ROWS):
        last = min(first + _ROWS, n)
        for c in range(completions):
            for h in range(first, last):
                rh = ranks[c, h]
                if rh < 0:
                    continue
                row = sums[h, h + 1 :]  # slices, not offsets into the whole row: the loop vectorises
                others = ranks[c, h + 1 :]
                for k in range(row.shape[0]):
                    ro = others[k]
                    row[k] = row[k] + (rh > ro) - (rh < ro)  # in this form it stays in narrow lanes


@njit(cache=True)
def _accumulate_row_signs(ranks: np.ndarray, cards: np.ndarray, totals: np.ndarray) -> None:
    """``totals[h] += sum(sign(ranks[c, h] - ranks[c, o]))`` over every completion ``c`` and
    every ``o`` sharing no card with ``h``, both ranked (>= 0): the row sums of the run-out
    matrix times its completion count, without the matrix. Per completion the holdings are
    taken in rank order (a counting sort of the dense ranks) and the ones below, equal and in
    all are counted in total and per card, so a holding's disjoint opponents are counted by
    inclusion and exclusion (two holdings share at most one card unless they are one)."""
    completions, n = ranks.shape
    hole = cards.shape[1]
    start = np.empty(n + 2, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    below = np.zeros(NUM_CARDS, dtype=np.int64)
    level = np.zeros(NUM_CARDS, dtype=np.int64)
    every = np.zeros(NUM_CARDS, dtype=np.int64)
    for c in range(completions):
        row = ranks[c]
        start[:] = 0
        every[:] = 0
        ranked = 0
        for h in range(n):
            d = row[h]
            if d >= 0:
                start[d + 2] += 1
                ranked += 1
                for i in range(hole):
                    every[cards[h, i]] += 1
        for d in range(n + 1):
            start[d + 1] += start[d]
        for h in range(n):  # counting sort: the holdings of level d at start[d + 1] ...
            d = row[h]
            if d >= 0:
                order[start[d + 1]] = h
                start[d + 1] += 1
        below[:] = 0
        lower = 0
        first = 0
        while first < ranked:
            d = row[order[first]]
            last = first
            while last < ranked and row[order[last]] == d:
                last += 1
            for i in range(first, last):
                for k in range(hole):
                    level[cards[order[i], k]] += 1
            size = last - first
            for i in range(first, last):
                h = order[i]
                lower_h = lower
                equal_h = size - 1
                total_h = ranked - 1
                for k in range(hole):
                    card = cards[h, k]
                    lower_h -= below[card]
                    equal_h -= level[card] - 1
                    total_h -= every[card] - 1
                totals[h] += 2 * lower_h - (total_h - equal_h)
            for i in range(first, last):
                for k in range(hole):
                    card = cards[order[i], k]
                    level[card] -= 1
                    below[card] += 1
            lower += size
            first = last


@njit(cache=True)
def _signs_to_matrix(
    sums: np.ndarray, cards: np.ndarray, blocked_only: int, count: np.float32, matrix: np.ndarray
) -> None:
    """The run-out matrix from the upper triangle of ``sums`` (see :func:`_accumulate_signs`):
    ``(sums[h, o] - blocked_only) / count`` above the diagonal, its negative below (filled by
    tiles), 0 where two holdings share a card."""
    n = sums.shape[0]
    masks = np.zeros(n, dtype=np.uint64)
    for h in range(n):
        for i in range(cards.shape[1]):
            masks[h] |= np.uint64(1) << np.uint64(cards[h, i])
    for h in range(n):
        matrix[h, h] = 0.0
        mh = masks[h]
        for o in range(h + 1, n):
            if mh & masks[o]:
                matrix[h, o] = 0.0
            else:
                matrix[h, o] = np.float32(sums[h, o] - blocked_only) / count
    tile = 32
    for first in range(0, n, tile):
        for second in range(first, n, tile):
            for h in range(first, min(first + tile, n)):
                for o in range(max(second, h + 1), min(second + tile, n)):
                    v = matrix[h, o]
                    matrix[o, h] = -v if v != 0.0 else v  # +0 where the pair ties or conflicts


__all__ = ["HoldingSpace", "holding_space"]
