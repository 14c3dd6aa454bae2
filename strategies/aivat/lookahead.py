"""AIVAT with a look-ahead value: the value after the action an unknown, replayed player takes.

A player whose action probabilities AIVAT does not use (the *hero*: say ``miximax`` with a node
budget, whose probabilities cost a search per holding) still decides from what it sees and
what it has learnt, and a match log with its seed says enough to replay it. Much of the
variance left by a value function that ignores the hero is the luck of how its next decision
goes with the cards that came. :class:`LookaheadAivat` values a state after the first round
where the hero is to act (its round's cards dealt) by the value function (default: the stake
value with :data:`NOLIMIT_LOOKAHEAD_STAKE`) *after the action the hero would take there*, and
every other state by the value function itself; a chance-consistent part ``unlooked`` (default:
the cooler terms of :mod:`~pokerbot.strategies.aivat.cooler`) is added at the state
itself, never looked ahead.

AIVAT stays unbiased when the value is one function of the state: an answer must not depend on
what came after the state. So the hero is replayed through each hand (shown the log's hands in
order, learning between them as in the match), a **snapshot** of it
(:meth:`~pokerbot.strategies.base.Strategy.snapshot`) is kept before each of its decisions and
after the last, and its answer at a state is asked of a fresh copy of the snapshot after the
hero's decisions in that state's betting: every state AIVAT values is one step off the hand
(another card, another action of a known player), so those decisions are the hand's own, and
the snapshot depends on nothing after them. At the states the hand went through the answer is
the action played (:attr:`LookaheadAivat.mismatches` counts where not: a hero that cannot be
replayed exactly, a time budget for instance). The answer is the action the copy gives the
highest probability.

The value is not chance-consistent where the hero acts first after a card, so there the chance
correction averages it over every card chance could have dealt when there are at most
``boards`` of them, else over ``boards`` cards drawn with a generator seeded by what came before
the card (from the cards the hero cannot see; a draw that clashes with the other player's
holding is dropped, which leaves the draws uniform over the cards left): the correction's mean
stays zero. ``docs/aivat.md`` describes it, ``docs/results.md`` gives its figure.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
import time
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from pokerbot.protocol.actions import Action
from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.aivat.aivat import Aivat, AivatError, AivatHand, Oracle
from pokerbot.strategies.aivat.cooler import CoolerTerms
from pokerbot.strategies.aivat.recording import REPLAY_SECONDS
from pokerbot.strategies.aivat.values import AivatValue, StakeValue
from pokerbot.strategies.base import Strategy

LOOKAHEAD_BOARDS = 6
"""The cards (or flops) a look-ahead chance correction averages over when there are more."""

# fmt: off
NOLIMIT_LOOKAHEAD_STAKE: tuple[float, ...] = (
    3.24295, 0.0353227, 3.39547, 0.426122,
    1.21644, 0.00744611, 0.286477, -0.0136961,
    0.489135, 0.00340984, 0.170835, 0.0219976,
    0.723064, 0.00443614, 0.214859, -0.0506934,
)
NOLIMIT_LOOKAHEAD_COOLER: tuple[float, ...] = (
    -0.741394, 0.759147,
    0.0709734, 0.247104,
    0.0306519, 0.220055,
    0.0962932, 0.117523,
)
# fmt: on
"""The look-ahead value's coefficients in heads-up no-limit hold'em: the stake value's (looked
ahead; rows and columns as :data:`~pokerbot.strategies.aivat.values.NOLIMIT_STAKE`) and
the cooler terms' (not looked ahead; a row per round, :class:`CoolerTerms`), fitted together
by ``benchmarks/research/aivat_fit.py --lookahead 6 --cooler --cooler-features 0,1`` on the ten
duplicate matches of ``docs/aivat.md``."""


def lookahead_values(game: Game) -> tuple[StakeValue, CoolerTerms]:
    """The looked-ahead stake value and the unlooked cooler terms with their fitted
    coefficients (heads-up no-limit hold'em, 52 cards)."""
    if not (game.is_nolimit and game.num_players == 2 and game.is_standard_deck and game.num_rounds == 4):
        raise AivatError("the look-ahead value's coefficients are fitted for heads-up no-limit hold'em only")
    return StakeValue(game, NOLIMIT_LOOKAHEAD_STAKE), CoolerTerms(game, NOLIMIT_LOOKAHEAD_COOLER)


class LookaheadAivat(Aivat):
    """AIVAT whose value looks one decision of ``hero`` ahead after the first round (module
    docstring). ``hero`` is made as in the match (same seed) and is shown every hand: for each
    hand in the log's order, :meth:`start`, then :meth:`hand`, then :meth:`finish` (or use
    :class:`LookaheadHero` with :func:`~pokerbot.strategies.aivat.series.aivat_hands`).
    Other keywords as :class:`~pokerbot.strategies.aivat.aivat.Aivat`."""

    def __init__(
        self,
        game: Game,
        hero: Strategy,
        value: AivatValue | None = None,
        *,
        boards: int = LOOKAHEAD_BOARDS,
        unlooked: AivatValue | None = None,
        **kwargs: Any,
    ) -> None:
        if value is None:
            value, cooler = lookahead_values(game)
            unlooked = cooler if unlooked is None else unlooked
        super().__init__(game, value, **kwargs)
        if unlooked is not None and not unlooked.chance_consistent:
            raise AivatError("the value part not looked ahead must be chance-consistent")
        self.unlooked = unlooked
        """A value part added at the state itself, never looked ahead (say :class:`CoolerTerms`)."""
        if boards < 1:
            raise AivatError(f"the look-ahead needs at least one board to average over, got {boards}")
        self.hero = hero
        self.boards = boards
        self.searches = 0
        """How many answers were asked of snapshots."""
        self.mismatches = 0
        """How many answers at states the hand went through differ from the action played."""
        self._position: int | None = None

    def start(self, hand_number: int, position: int, final: HandState) -> None:
        """Replay the hero's decisions of the finished hand ``final`` (it played ``position``),
        keeping a snapshot before each and one after the last."""
        self.hand_number, self._position = hand_number, position
        holding = final.hole_cards[position]
        if holding is None:
            raise AivatError(f"hand {hand_number}: the hero's hole cards are needed")
        self._holding: tuple[Card, ...] = holding
        self._board = final.visible_board()
        self._snapshots: list[Strategy] = []
        self._played: dict[str, Action] = {}
        self._answers: dict[tuple[str, tuple[Card, ...]], Action] = {}
        state = HandState(final.game, final.hole_cards, self._board)
        for _round, actor, played in final.history():
            if actor == position:
                self._snapshots.append(self.hero.snapshot())
                self._played[state.betting_string()] = played
                view = MatchState(position, hand_number, state.view(position))
                self.hero.decide(view, time.monotonic() + REPLAY_SECONDS)
            state.apply(played)
        self._snapshots.append(self.hero.snapshot())

    def finish(self, final: HandState) -> None:
        """Show the hero the end of the hand (it learns as in the match)."""
        if self._position is None:
            raise AivatError("finish() before start()")
        self.hero.observe(MatchState(self._position, self.hand_number, final.view(self._position)))
        self._position = None

    def hand(
        self,
        final: HandState,
        hand_number: int,
        oracles: Mapping[int, Oracle],
        imagined: Collection[int] | None = None,
        *,
        walks: dict[tuple[object, ...], object] | None = None,
    ) -> AivatHand:
        """As :meth:`Aivat.hand`, between :meth:`start` and :meth:`finish` of the same hand.
        ``walks`` is not used: the value depends on the hand's replay, no walk is shared."""
        if self._position is None:
            raise AivatError(f"hand {hand_number}: start() the hero's replay before the estimate")
        return super().hand(final, hand_number, oracles, imagined)

    # ------------------------------------------------------------------ the value
    def _looks_ahead(self, state: HandState, board: tuple[Card, ...]) -> bool:
        if state.round < 1 or state.finished or state.current_player != self._position:
            return False
        return len(board) >= self.game.board_start[state.round] + self.game.num_board_cards[state.round]

    def _hero_action(self, state: HandState, board: tuple[Card, ...]) -> Action:
        position = self._position
        assert position is not None
        betting = state.betting_string()
        action = self._answers.get((betting, board))
        if action is None:
            decisions = sum(1 for _round, actor, _action in state.history() if actor == position)
            seen = state.copy()
            seen.hole_cards = [None] * self.game.num_players
            seen.hole_cards[position] = self._holding
            seen.board_cards = board
            view = MatchState(position, self.hand_number, seen.view(position))
            probabilities = self._snapshots[decisions].snapshot().action_probabilities(view)
            self.searches += 1
            action = max(probabilities.items(), key=lambda item: item[1])[0]
            self._answers[(betting, board)] = action
            if board == self._board[: len(board)] and self._played.get(betting, action) != action:
                self.mismatches += 1
        return action

    def _value(self, state: HandState, holes: Sequence[tuple[Card, ...] | None], board: tuple[Card, ...]) -> Any:
        return self._looked(state, holes, board) + self._unlooked(state, holes, board)

    def _unlooked(self, state: HandState, holes: Sequence[tuple[Card, ...] | None], board: tuple[Card, ...]) -> Any:
        if self.unlooked is None:
            return 0.0
        state.hole_cards, state.board_cards = list(holes), board
        return self.unlooked.value(state)

    def _looked(self, state: HandState, holes: Sequence[tuple[Card, ...] | None], board: tuple[Card, ...]) -> Any:
        state.hole_cards, state.board_cards = list(holes), board
        if holes[0] is None or not self._looks_ahead(state, board):
            return super()._value(state, holes, board)
        after = state.copy()
        after.apply(self._hero_action(state, board))
        return super()._value(after, holes, board)

    def _chance_mean(
        self,
        state: HandState,
        board_before: tuple[Card, ...],
        holes: Sequence[tuple[Card, ...]],
        board_after: tuple[Card, ...],
    ) -> Any:
        if not board_after or not self._looks_ahead(state, board_after):
            return super()._chance_mean(state, board_before, holes, board_after)
        assert self._position is not None
        seen = set(self._holding) | set(board_before)
        free = [card for card in self.game.deck if card not in seen]
        other = set(holes[1 - self._position])
        size = len(board_after) - len(board_before)
        if math.comb(len(free), size) <= self.boards:
            draws = list(itertools.combinations(free, size))
        else:
            drawn = (self.hand_number, board_before, size, state.betting_string())
            rng = random.Random(hashlib.sha256(repr(drawn).encode()).digest())
            draws = [tuple(rng.sample(free, size)) for _ in range(self.boards)]
        total: Any = 0.0
        count = 0
        for extra in draws:
            if other & set(extra):
                continue
            total = total + self._looked(state, holes, (*board_before, *extra))
            count += 1
        if count == 0:  # every drawn card clashes with this holding: no correction
            return self._value(state, holes, board_after)
        return total / count + self._unlooked(state, holes, board_before)  # chance-consistent: no draws


class LookaheadHero:
    """The hero of a :class:`LookaheadAivat` as a player of
    :func:`~pokerbot.strategies.aivat.series.aivat_hands`: its oracle is None (its
    probabilities are not used) and asking for it starts the hand's replay."""

    def __init__(self, estimator: LookaheadAivat) -> None:
        self.estimator = estimator

    def oracle(self, hand_number: int, position: int, final: HandState) -> Oracle | None:
        self.estimator.start(hand_number, position, final)
        return None

    def finish(self, hand_number: int, position: int, final: HandState) -> None:
        self.estimator.finish(final)


__all__ = [
    "LOOKAHEAD_BOARDS",
    "NOLIMIT_LOOKAHEAD_COOLER",
    "NOLIMIT_LOOKAHEAD_STAKE",
    "LookaheadAivat",
    "LookaheadHero",
    "lookahead_values",
]
