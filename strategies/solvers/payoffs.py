"""Chance-weighted terminal payoff tables of a public tree (card removal included).

For a terminal public node ``t`` and hands ``(h_0, ..., h_{n-1})`` the table holds
``P(deal) * u_i(t, h_0, ..., h_{n-1})`` in chips, where ``P(deal)`` is the probability of
dealing exactly those hands and the board of ``t``, and the entry is 0 when two hands share
a card or a hand shares a card with the board. ``u_i`` comes from
:meth:`protocol.hand.HandState.values`: showdowns (side pots, split pots) follow the dealer.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb, prod

import numpy as np

from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState


def hand_bitmasks(hands: Sequence[tuple[Card, ...]]) -> np.ndarray:
    """One int64 bit mask of cards per hand (bit ``c`` set for card ``c``)."""
    return np.array([sum(1 << card for card in hand) for hand in hands], dtype=np.int64)


def deal_probability(game: Game, board_cards: int) -> float:
    """Probability of one particular deal of every hand plus ``board_cards`` board cards.

    Hands and each round's board are unordered sets; dealing is uniform without replacement.
    """
    deck = len(game.deck)
    k = game.num_hole_cards
    ways = prod(comb(deck - p * k, k) for p in range(game.num_players))
    remaining = deck - game.num_players * k
    left = board_cards
    for count in game.num_board_cards:
        if left <= 0:
            break
        ways *= comb(remaining, count)
        remaining -= count
        left -= count
    return 1.0 / ways


def _combinations(num_hands: int, num_players: int) -> np.ndarray:
    """Every hand tuple as rows ``[h_0, ..., h_{n-1}]``, last player fastest."""
    grid = np.indices((num_hands,) * num_players).reshape(num_players, -1)
    return grid.T.copy()


def _pattern_codes(ranks: np.ndarray) -> np.ndarray:
    """A code per row of ``ranks`` that is equal iff the rows order the players alike."""
    n = ranks.shape[1]
    code = np.zeros(ranks.shape[0], dtype=np.int64)
    for p in range(n):
        for q in range(p + 1, n):
            code = code * 3 + (np.sign(ranks[:, p] - ranks[:, q]) + 1)
    return code


def terminal_utilities(
    game: Game, hands: Sequence[tuple[Card, ...]], states: Sequence[HandState]
) -> tuple[np.ndarray, ...]:
    """Per player ``i``, the table ``[terminal, h_i, other hands in position order]``.

    ``states`` are the finished hand states of the terminals (board dealt, no hole cards).
    """
    n = game.num_players
    num_hands = len(hands)
    combos = _combinations(num_hands, n)
    bits = hand_bitmasks(hands)
    combo_bits = bits[combos]
    disjoint = np.ones(len(combos), dtype=bool)
    for p in range(n):
        for q in range(p + 1, n):
            disjoint &= (combo_bits[:, p] & combo_bits[:, q]) == 0
    table = np.zeros((n, len(states), len(combos)))
    rank_cache: dict[tuple[Card, ...], np.ndarray] = {}
    ranker = game.ranker
    for t, state in enumerate(states):
        board = state.board_cards
        board_mask = sum(1 << card for card in board)
        compatible = disjoint & np.all((combo_bits & board_mask) == 0, axis=1)
        chance = deal_probability(game, len(board))
        if not state.showdown():
            values = np.array(state.values())
            table[:, t, :] = (chance * values)[:, None] * compatible[None, :]
            continue
        ranks = rank_cache.get(board)
        if ranks is None:
            ranks = np.array(
                [
                    ranker((*hand, *board)) if not (mask & board_mask) else -1
                    for hand, mask in zip(hands, bits, strict=True)
                ],
                dtype=np.int64,
            )
            rank_cache[board] = ranks
        combo_ranks = ranks[combos]
        for p in range(n):
            if state.folded[p]:
                combo_ranks[:, p] = -1
        codes = _pattern_codes(combo_ranks)
        rows = np.flatnonzero(compatible)
        unique_codes, first, inverse = np.unique(codes[rows], return_index=True, return_inverse=True)
        pattern_values = np.empty((len(unique_codes), n))
        scored = state.copy()
        for j, row in enumerate(rows[first]):
            scored.hole_cards = [hands[h] for h in combos[row]]
            pattern_values[j] = scored.values()
        table[:, t, rows] = chance * pattern_values[inverse].T
    shaped = table.reshape((n, len(states), *((num_hands,) * n)))
    utilities = []
    for i in range(n):
        order = (0, 1 + i, *(1 + p for p in range(n) if p != i))
        utilities.append(np.ascontiguousarray(shaped[i].transpose(order)))
    return tuple(utilities)


__all__ = ["deal_probability", "hand_bitmasks", "terminal_utilities"]
