"""AIVAT with a look-ahead value function: what the replayed hero will do, valued (an experiment).

The player whose probabilities are not used (the *hero*: ``miximax:500nodes`` in the chunks
of ``docs/experiments.md``) is deterministic given what it sees and what it has learnt, so the
value of its decisions is luck of the cards that a value function could take out if it knew
what the hero will do. :class:`LookaheadAivat` values a state after the flop where the hero is
to act (its round's cards dealt) by the basis value (``aivat_fit.BasisValue``: the equity value
and the stake features) *after the action the hero would take there*; elsewhere by the basis
value itself.

The value must be one function of the state for the corrections to have mean zero, so the
hero's answer at a state is asked of a **snapshot**: a copy of the hero replayed (with the
match's seeds, shown the log's hands in order) up to its decisions *before* that state, copied
again for each question so that no answer depends on another. A state one step off the hand
(another card, another action of the known player) has the hero's earlier decisions of the
hand in common with it, so its snapshot is the one after those decisions, which depends on
nothing that came after them. At the states the hand went through, the snapshot's answer is
the action the hero played (:attr:`LookaheadAivat.mismatches` counts where it is not).

That value is not chance-consistent where the hero acts first after a card, so the chance
correction there averages it over a seeded sample of ``boards`` cards (drawn from the cards
the hero cannot see, the draw seeded by what came before the card; the imagined holdings of the
other player drop the samples that clash with them): the correction's mean stays zero.

``python benchmarks/aivat_fit.py GAME DIR... --lookahead 6 --cache CACHE`` computes the
per-hand vectors with it and fits the stake coefficients as usual (cross-fitted).
"""

from __future__ import annotations

import copy
import copyreg
import hashlib
import random
import time
from collections.abc import Sequence
from typing import Any

import eval7
import numpy as np
from aivat_fit import BasisValue  # type: ignore[import-not-found]

from pokerbot.protocol.actions import Action
from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.evaluation.aivat import Aivat

REPLAY_SECONDS = 1.0
"""The deadline of a replayed decision (seconds; a node-budget hero ignores it)."""


def _rebuild_card(card: eval7.Card) -> tuple[type[eval7.Card], tuple[str]]:
    return eval7.Card, (str(card),)


copyreg.pickle(eval7.Card, _rebuild_card)  # eval7's cards (cached in the hero's showdown model) copy by name


class LookaheadAivat(Aivat):
    """AIVAT whose value looks one decision of the hero ahead after the flop (module docstring).
    For each hand in the log's order: :meth:`start`, the estimate, :meth:`finish`."""

    def __init__(self, game: Game, hero: Strategy, boards: int, **kwargs: Any) -> None:
        self.basis = BasisValue(game)
        super().__init__(game, self.basis, **kwargs)
        self.hero = hero
        self.boards = boards
        self.searches = 0
        """How many answers were asked of snapshots."""
        self.mismatches = 0
        """How many of them, at states the hand went through, differ from the action played."""

    def _read_only(self) -> dict[int, Any]:
        """What a snapshot shares with the hero rather than copies, as a deepcopy memo: the
        game, the pre-flop chart, the opponent models (they learn only between hands) and the
        showdown models' lists of holdings (never changed)."""
        agent: Any = self.hero
        shared: list[Any] = [self.game, getattr(agent, "preflop", None)]
        for models in (getattr(agent, "_models", None) or {}).values():
            shared += [models, models.action, models.showdown]
        hand = getattr(agent, "_hand", None)
        if hand is not None:
            win_models = hand[1].values() if isinstance(hand[1], dict) else [hand[1]]
            for model in win_models:
                shared += [getattr(model, "_range", None), getattr(model, "_hero", None)]
        return {id(item): item for item in shared if item is not None}

    def _copy(self, agent: Strategy) -> Strategy:
        return copy.deepcopy(agent, self._read_only())

    def start(self, hand_number: int, position: int, final: HandState) -> None:
        """Replay the hero's decisions of this hand (it plays ``position``), a snapshot before
        each and one after the last."""
        self.hand_number, self.position = hand_number, position
        self.hero_holding = final.hole_cards[position]
        self.snapshots: list[Strategy] = []
        self.played: dict[str, Action] = {}
        self.answers: dict[tuple[str, tuple[Card, ...]], Action] = {}
        self.board = final.visible_board()
        state = HandState(final.game, final.hole_cards, self.board)
        for _round, actor, played in final.history():
            if actor == position:
                self.snapshots.append(self._copy(self.hero))
                self.played[state.betting_string()] = played
                self.hero.decide(
                    MatchState(position, hand_number, state.view(position)), time.monotonic() + REPLAY_SECONDS
                )
            state.apply(played)
        self.snapshots.append(self._copy(self.hero))

    def finish(self, final: HandState) -> None:
        """Show the hero the hand's end (it learns, as in the match)."""
        self.hero.observe(MatchState(self.position, self.hand_number, final.view(self.position)))

    def _looks_ahead(self, state: HandState, board: tuple[Card, ...]) -> bool:
        if state.round < 1 or state.finished or state.current_player != self.position:
            return False
        return len(board) >= self.game.board_start[state.round] + self.game.num_board_cards[state.round]

    def _hero_action(self, state: HandState, board: tuple[Card, ...]) -> Action:
        betting = state.betting_string()
        key = (betting, board)
        action = self.answers.get(key)
        if action is None:
            decisions = sum(1 for _round, actor, _action in state.history() if actor == self.position)
            seen = state.copy()
            seen.hole_cards = [None] * self.game.num_players
            seen.hole_cards[self.position] = self.hero_holding
            seen.board_cards = board
            asked = self._copy(self.snapshots[decisions])
            probabilities = asked.action_probabilities(
                MatchState(self.position, self.hand_number, seen.view(self.position))
            )
            self.searches += 1
            action = self.answers[key] = max(probabilities.items(), key=lambda item: item[1])[0]
            if board == self.board[: len(board)] and betting in self.played and self.played[betting] != action:
                self.mismatches += 1
        return action

    def _value(self, state: HandState, holes: Sequence[tuple[Card, ...] | None], board: tuple[Card, ...]) -> Any:
        state.hole_cards, state.board_cards = list(holes), board
        if holes[0] is None or not self._looks_ahead(state, board):
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
        if not board_after or not self._looks_ahead(state, board_after):
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
