"""The re-solving player: a blueprint's trunk, then continual re-solving of every decision.

:class:`ResolvingPlayer` plays heads-up games whose holdings are one or two hole cards
(hold'em, limit and no-limit, any ACPC game definition of that shape; Leduc). In the rounds
before ``first_round`` (pre-flop in hold'em) it plays its ``trunk`` strategy, a blueprint;
from ``first_round`` on it re-solves each decision (:mod:`.continual`), both ranges at the
start taken from the trunk's own probabilities (Bayes' rule: the opponent's as if it had
played the blueprint too).

Time: with a clock budget (``seconds``) a solve runs until that much time has passed or the
iteration budget is spent, whichever comes first, and never past the decision's deadline less
``margin``; with less than ``min_seconds`` left it plays the trunk's action instead. With
``seconds=None`` every solve runs exactly ``iterations`` iterations: the same seed replays the
same match on any machine. :meth:`ResolvingPlayer.action_probabilities` answers for any
holding from the same solve the decision uses (one solve per public state and hand).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from pokerbot.protocol.actions import CALL, Action, ActionKind
from pokerbot.protocol.analysis.matchups import HoldingSpace, holding_space
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import ActionProbabilities, Strategy, normalized
from pokerbot.strategies.betting.sizing import BetSizing
from pokerbot.strategies.resolve.continual import ContinualResolver, OpponentHook
from pokerbot.strategies.resolve.settings import ResolveSettings
from pokerbot.strategies.resolve.tree import DECISION, SubgameTree

RangeOf = Callable[[HandState, int, int], np.ndarray]
"""``range_of(state, position, hand_number)``: the reach of every holding of ``position``
given its actions so far, as the trunk strategy plays."""


@dataclass(frozen=True)
class PlayerSetup:
    """What a :class:`ResolvingPlayer` plays besides its solves: ``trunk``, the strategy of the
    rounds before ``first_round``, and ``range_of``, that strategy's ranges (both needed when
    ``first_round > 0``; the default re-solves from the first round); ``settings``: how it
    re-solves."""

    trunk: Strategy | None = None
    range_of: RangeOf | None = None
    first_round: int = 0
    settings: ResolveSettings = field(default_factory=ResolveSettings)


def warm_up(game: Game, space: HoldingSpace, sizing: BetSizing | None) -> None:
    """One iteration of a solve in the last round and in the one before it (a leaf's run-out
    matrix, the re-solving gadget and an opponent model included), and a round start's
    run-out matrix: every compiled kernel of the solver is loaded."""
    from pokerbot.strategies.resolve.cfr import OpponentModel, SubgameSolver
    from pokerbot.strategies.resolve.tree import build_subgame

    deck = sorted(game.deck)
    for rounds in sorted({max(0, game.num_rounds - 2), game.num_rounds - 1}):
        state = HandState(game, board_cards=tuple(deck[-game.total_board_cards :]) if game.total_board_cards else ())
        while state.round < rounds and not state.finished:
            state.apply(CALL)
        if state.finished:
            continue
        board = tuple(state.visible_board())
        tree = build_subgame(state, sizing)
        ranges = np.ones((2, space.size))
        SubgameSolver(tree, space, board, ranges).iterate(1)
        model = OpponentModel(1, np.zeros((tree.num_slots, space.size)), ranges[1], 0.5)
        SubgameSolver(tree, space, board, ranges, (1, np.zeros(space.size)), model).iterate(1)
        space.runout_matrix(board, np.float64)


class KnowsRanges(Protocol):
    """A trunk strategy that knows its ranges (an abstract policy's player:
    :meth:`~pokerbot.strategies.abstract.player.AbstractPolicyPlayer.reach`)."""

    def reach(self, state: HandState, position: int, hand_number: int) -> np.ndarray | None:
        """The weight of every holding of ``position`` given its actions in the hand ``state``
        (None where it does not know)."""
        ...


class PlayerRange:
    """``range_of`` for a trunk that knows its ranges; picklable."""

    def __init__(self, trunk: KnowsRanges) -> None:
        self.trunk = trunk

    def __call__(self, state: HandState, position: int, hand_number: int) -> np.ndarray:
        reach = self.trunk.reach(state, position, hand_number)
        if reach is None:
            raise ValueError("the trunk strategy does not know its ranges")
        return np.asarray(reach, dtype=np.float64)


class ResolvingPlayer(Strategy):
    """Plays ``trunk`` before ``first_round``, continual re-solving from it on."""

    name = "resolve"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        setup: PlayerSetup | None = None,
        *,
        opponent: OpponentHook | None = None,
    ) -> None:
        """``setup``: the trunk, the first re-solved round and the settings (default
        :class:`PlayerSetup`); ``opponent``: the opponent model inside the solves
        (:class:`~.continual.ContinualResolver`)."""
        super().__init__(game, seed)
        if setup is None:
            setup = PlayerSetup()
        trunk, range_of, first_round = setup.trunk, setup.range_of, setup.first_round
        if game.num_players != 2:
            raise ValueError("the re-solving player plays heads-up games")
        if first_round > 0 and (trunk is None or range_of is None):
            raise ValueError("a trunk strategy and its ranges play the rounds before the first re-solved one")
        self.trunk = trunk
        self.range_of = range_of
        self.first_round = first_round
        self.settings = setup.settings
        self.space = holding_space(game)
        sizing = self.settings.sizing if game.is_nolimit else None
        self._hand: tuple[int, int] | None = None
        knows = isinstance(range_of, PlayerRange) and getattr(range_of.trunk, "ranges", None) is not None
        table = self._trunk_strategy if self.settings.warm and knows else None
        self._resolvers = [
            ContinualResolver(
                game,
                p,
                self._trunk_ranges,
                first_round,
                sizing,
                self.space,
                opponent=opponent,
                trunk_strategy=table,
                warm=self.settings.warm,
                floor=self.settings.floor,
            )
            for p in (0, 1)
        ]
        self.last_decision_seconds = 0.0
        self.last_decision_iterations = 0
        """Iterations the last re-solved decision's solve ran (0: played by the trunk)."""
        self.fallbacks = 0
        """Decisions played by the trunk because the time left was too short."""
        self._fell_back: tuple[int, int] | None = None

    def prepare(self) -> None:
        """Load the trunk, and load (or compile) the solver's code with a small solve in each
        kind of round, so that the first real decision pays none of it."""
        if self.trunk is not None:
            self.trunk.prepare()
        if self.range_of is not None and self.space.total_board >= 3 and self.game.is_standard_deck:
            from pokerbot.protocol.analysis.ehs import board_ehs  # the trunk's ranges bucket every holding

            board_ehs(tuple(sorted(self.game.deck)[:3]))
        warm_up(self.game, self.space, self.settings.sizing if self.game.is_nolimit else None)

    # ------------------------------------------------------------------ hands
    def play_from(self, first_round: int) -> None:
        """Re-solve from ``first_round`` on (the trunk before it): set before a hand's first
        decision, never during a hand."""
        if first_round > 0 and (self.trunk is None or self.range_of is None):
            raise ValueError("a trunk strategy and its ranges play the rounds before the first re-solved one")
        self.first_round = first_round
        for resolver in self._resolvers:
            resolver.first_round = first_round

    def _start(self, view: MatchState) -> ContinualResolver:
        hand = (view.hand_number, view.position)
        if self._hand != hand:
            self._hand = hand
            for resolver in self._resolvers:
                resolver.reset()
        return self._resolvers[view.position]

    def _trunk_ranges(self, state: HandState) -> tuple[np.ndarray, np.ndarray]:
        if self.range_of is None:  # re-solved from the first round: every holding alike
            valid = self.space.valid(tuple(state.visible_board())).astype(np.float64)
            return valid, valid.copy()
        assert self._hand is not None
        hand_number = self._hand[0]
        return (self.range_of(state, 0, hand_number), self.range_of(state, 1, hand_number))

    def _trunk_strategy(self, tree: SubgameTree, position: int) -> np.ndarray:
        """The trunk's strategy at ``position``'s decisions of ``tree``, ``[slot, holding]``:
        its probabilities for every holding (:meth:`~pokerbot.strategies.abstract.ranges.PolicyRange.probabilities`),
        each of its raises given to the tree's raise nearest in size."""
        assert isinstance(self.range_of, PlayerRange) and self._hand is not None
        ranges = self.range_of.trunk.ranges  # type: ignore[attr-defined]
        out = np.zeros((tree.num_slots, self.space.size))
        for node in np.flatnonzero((tree.kind == DECISION) & (tree.player == position)):
            actions, table = ranges.probabilities(tree.states[node], position, self._hand[0])
            base = int(tree.slot[node])
            for action, row in zip(actions, table, strict=True):
                out[base + _nearest(tree.actions[node], action)] += row
        return out

    # ------------------------------------------------------------------ deciding
    def action_probabilities(self, view: MatchState) -> ActionProbabilities:
        state = view.state
        if state.round < self.first_round:
            assert self.trunk is not None
            return self.trunk.action_probabilities(view)
        resolver = self._start(view)
        return normalized(resolver.probabilities(state, view.hole_cards, self.settings.budget(self.settings.seconds)))

    def costly_probabilities(self, view: MatchState) -> bool:
        return view.state.round >= self.first_round

    def decide(self, view: MatchState, deadline: float) -> Action:
        state = view.state
        if state.round < self.first_round:
            assert self.trunk is not None
            self.last_decision_iterations = 0
            return self.trunk.decide(view, deadline)
        resolver = self._start(view)
        settings = self.settings
        started = time.monotonic()
        seconds = None
        if settings.seconds is not None:
            left = deadline - settings.margin - started
            if left < settings.min_seconds and self.trunk is not None:
                self.fallbacks += 1
                self._fell_back = self._hand
                self.last_decision_iterations = 0
                return self.trunk.decide(view, deadline)
            left = max(left, settings.min_seconds)
            seconds = min(settings.seconds, left)
        budget = settings.budget(seconds)
        stop = None if seconds is None else started + seconds  # the whole decision within the budget
        probabilities = normalized(resolver.probabilities(state, view.hole_cards, budget, stop))
        self.last_decision_seconds = time.monotonic() - started
        self.last_decision_iterations = resolver.decision(state, budget).iterations
        actions = list(probabilities)
        return self.rng.choices(actions, weights=[probabilities[a] for a in actions])[0]

    def final_range(self, view: MatchState) -> np.ndarray | None:
        """Our range over the holdings of :func:`~pokerbot.protocol.analysis.matchups.holding_space`
        at the end of the hand of ``view`` (ask before the next hand starts): the probability
        that our strategy, as played in this hand, took every action we took, holding each. None
        where it is not known: a decision the trunk played for lack of time, a hand that ended
        before the re-solved rounds (where the trunk alone knows it)."""
        if self._hand != (view.hand_number, view.position) or self._fell_back == self._hand:
            return None
        return self._resolvers[view.position].final_range(view.state)

    def observe(self, view: MatchState) -> None:
        if self.trunk is not None:
            self.trunk.observe(view)

    def quick_action(self, view: MatchState) -> Action | None:
        """The trunk's (the blueprint's) action, which plays the whole game."""
        return None if self.trunk is None else self.trunk.quick_action(view)


def _nearest(actions: tuple[Action, ...], action: Action) -> int:
    """The index in ``actions`` (a decision's, fold, call, then raises by size) of ``action``,
    or of the raise nearest it in chips (a call where there is none; a fold where no fold is)."""
    if action in actions:
        return actions.index(action)
    raises = [k for k, a in enumerate(actions) if a.kind is ActionKind.RAISE]
    if action.kind is ActionKind.RAISE and raises:
        return min(raises, key=lambda k: abs(actions[k].size - action.size))
    return actions.index(CALL)


__all__ = ["KnowsRanges", "PlayerRange", "PlayerSetup", "RangeOf", "ResolveSettings", "ResolvingPlayer"]
