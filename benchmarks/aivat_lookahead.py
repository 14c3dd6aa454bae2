"""AIVAT with a look-ahead value function: what the replayed hero will do, valued (an experiment).

The player whose probabilities are not used (the *hero*: ``miximax:500nodes`` in the chunks
of ``docs/experiments.md``) is deterministic given what it sees, so the value of its decisions
is luck of the cards that a value function could take out if it knew what the hero will do.
:class:`LookaheadAivat` values a state after the flop where the hero is to act by the basis
value (``aivat_fit.BasisValue``: the equity value and the stake features) *after the action
the hero takes there*, asked of the hero replayed with the match's seeds and shown the hands
in order (a search where the state is not one the hero met in the match); elsewhere by the
basis value itself. That value is not chance-consistent where the hero acts first after a
card, so the chance correction there averages it over a seeded sample of ``boards`` cards
(drawn from the cards the hero cannot see, before the card comes; the imagined holdings of
the other player drop the samples that clash with them): the correction's mean stays zero.

``python benchmarks/aivat_fit.py GAME DIR... --lookahead 6 --cache CACHE`` computes the
per-hand vectors with it and fits the stake coefficients as usual (cross-fitted).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
from aivat_fit import BasisValue  # type: ignore[import-not-found]

from pokerbot.protocol.actions import Action
from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.evaluation.aivat import Aivat, Oracle
from pokerbot.strategies.evaluation.recording import ReplayedStrategy


class LookaheadAivat(Aivat):
    """AIVAT whose value looks one decision of the hero ahead after the flop (module docstring).
    Call :meth:`start` before each hand is estimated and show the hero its end afterwards."""

    def __init__(self, game: Game, hero: ReplayedStrategy, boards: int, **kwargs: Any) -> None:
        self.basis = BasisValue(game)
        super().__init__(game, self.basis, **kwargs)
        self.hero = hero
        self.boards = boards
        self.searches = 0
        """How many hero answers were asked at states it did not meet in the match."""

    def start(self, hand_number: int, position: int, final: HandState) -> None:
        """Replay the hero's decisions of this hand (it plays ``position``)."""
        self.hand_number, self.position = hand_number, position
        self.oracle: Oracle = self.hero.oracle(hand_number, position, final)
        self.hero_holding = final.hole_cards[position]
        self.answers: dict[tuple[str, tuple[Card, ...]], Action] = {}

    def _looks_ahead(self, state: HandState) -> bool:
        return state.round >= 1 and not state.finished and state.current_player == self.position

    def _hero_action(self, state: HandState, board: tuple[Card, ...]) -> Action:
        key = (state.betting_string(), board)
        action = self.answers.get(key)
        if action is None:
            seen = state.copy()
            seen.hole_cards = [None] * self.game.num_players
            seen.hole_cards[self.position] = self.hero_holding
            seen.board_cards = board
            probabilities = self.oracle(MatchState(self.position, self.hand_number, seen.view(self.position)))
            self.searches += 1
            action = self.answers[key] = max(probabilities.items(), key=lambda item: item[1])[0]
        return action

    def _value(self, state: HandState, holes: Sequence[tuple[Card, ...] | None], board: tuple[Card, ...]) -> Any:
        state.hole_cards, state.board_cards = list(holes), board
        if holes[0] is None or not self._looks_ahead(state):
            return self.basis.value(state)
        after = state.copy()
        after.apply(self._hero_action(state, board))
        after.hole_cards, after.board_cards = list(holes), board
        return self.basis.value(after)

    def _chance_mean(
        self,
        state: HandState,
        board_before: tuple[Card, ...],
        holes: Sequence[tuple[Card, ...]],
        board_after: tuple[Card, ...],
    ) -> Any:
        if not board_after or not self._looks_ahead(state):
            return super()._chance_mean(state, board_before, holes, board_after)
        seen = set(self.hero_holding) | set(board_before)
        free = [card for card in self.game.deck if card not in seen]
        drawn = (self.hand_number, board_before, len(board_after), state.betting_string())
        rng = random.Random(hashlib.sha256(repr(drawn).encode()).digest())
        other = set(holes[1 - self.position])
        total: Any = 0.0
        count = 0
        for _ in range(self.boards):
            extra = tuple(rng.sample(free, len(board_after) - len(board_before)))
            if other & set(extra):
                continue
            total = total + self._value(state, holes, (*board_before, *extra))
            count += 1
        if count == 0:  # every sampled card clashes with this holding: no correction
            return self._value(state, holes, board_after)
        return np.asarray(total) / count


__all__ = ["LookaheadAivat"]
