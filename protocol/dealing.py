"""Dealing exactly as the reference ACPC dealer does, from the match seed.

The reference dealer seeds one MT19937 generator with the match seed (the standard
single-integer ``init_genrand``) and, at the start of every hand, draws all of that hand's
cards: hole cards position by position, then board cards round by round. Each card is
``deck[i]`` with ``i = next 32-bit output % cards left``; the last card of the list then
moves into slot ``i``. Same seed, same deals.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import Game

_MT_SIZE = 624


@functools.lru_cache(maxsize=256)
def _init_genrand(seed: int) -> tuple[int, ...]:
    """The MT19937 state of ``init_genrand(seed)`` (the reference C initialisation)."""
    state = [seed & 0xFFFFFFFF]
    for i in range(1, _MT_SIZE):
        previous = state[-1]
        state.append((1812433253 * (previous ^ (previous >> 30)) + i) & 0xFFFFFFFF)
    return tuple(state)


class MersenneTwister:
    """MT19937 with 32-bit outputs, seeded like the reference C code's ``init_genrand``.

    Python's :class:`random.Random` is the same generator; only its seeding differs, so we
    install the reference state and let it produce the outputs.
    """

    def __init__(self, seed: int) -> None:
        if not 0 <= seed <= 0xFFFFFFFF:
            raise ValueError(f"seed {seed} is out of range 0..2**32-1")
        self._random = random.Random()
        self._random.setstate((3, (*_init_genrand(seed), _MT_SIZE), None))

    def next_uint32(self) -> int:
        """The next 32-bit output (``genrand_int32``)."""
        return self._random.getrandbits(32)


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one hand: hole cards by position and all board cards in dealing order."""

    hole_cards: tuple[tuple[Card, ...], ...]
    board_cards: tuple[Card, ...]


class Dealer:
    """Deals hand after hand of ``game`` from one seeded generator, as the reference dealer."""

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self._rng = MersenneTwister(seed)

    def skip(self, hands: int) -> None:
        """Pass over the next ``hands`` deals (every card of each is drawn and dropped)."""
        draw = self._rng.next_uint32
        for _ in range(hands * (self.game.num_hole_cards * self.game.num_players + self.game.total_board_cards)):
            draw()

    def deal(self) -> Deal:
        """The next hand's cards."""
        game = self.game
        deck = list(game.deck)
        draw = self._rng.next_uint32

        def card() -> Card:
            i = draw() % len(deck)
            chosen = deck[i]
            deck[i] = deck[-1]
            deck.pop()
            return chosen

        holes = tuple(tuple(card() for _ in range(game.num_hole_cards)) for _ in range(game.num_players))
        board = tuple(card() for _ in range(game.total_board_cards))
        return Deal(holes, board)
