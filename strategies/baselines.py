"""Baseline strategies: fixed-action players, the ACPC example random player, push-fold.

They are opponents for tests and benchmarks and the yardstick every real agent must beat.
Each one asks the hand state for its legal actions, so it only ever returns legal actions,
in any ACPC game. Randomness comes from ``self.rng`` (seeded by the constructor's ``seed``).
Each gives its action probabilities (:meth:`~strategies.base.Strategy.action_probabilities`);
all but push-fold ignore their cards. Amounts are in chips.
"""

from __future__ import annotations

from collections.abc import Hashable

from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action, ActionKind
from pokerbot.protocol.analysis.preflop import hand_class
from pokerbot.protocol.cards import rank_of
from pokerbot.protocol.game import Game
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import ActionProbabilities, Strategy
from pokerbot.strategies.push_fold_chart import PushFoldChart, push_fold_chart


def _raise_to(game: Game, size: int) -> Action:
    """A raise to ``size`` chips in no-limit, the fixed raise in limit games."""
    return Action.raise_to(size) if game.is_nolimit else LIMIT_RAISE


class _Deterministic(Strategy):
    """A strategy whose action follows from the public state alone (no cards, no randomness)."""

    ignores_cards = True

    def action(self, view: MatchState) -> Action:
        """The action taken in ``view``."""
        raise NotImplementedError

    def decide(self, view: MatchState, deadline: float) -> Action:
        """:meth:`action`."""
        return self.action(view)

    def action_probabilities(self, view: MatchState) -> ActionProbabilities:
        """:meth:`action` with probability 1."""
        return {self.action(view): 1.0}

    def probability_key(self, view: MatchState) -> Hashable:
        """``()``: the cards do not matter."""
        return ()


class AlwaysCall(_Deterministic):
    """Checks or calls every time."""

    name = "always-call"
    cheap = True

    def action(self, view: MatchState) -> Action:
        """Always ``CALL`` (calling is always legal)."""
        return CALL


class AlwaysFold(_Deterministic):
    """Folds whenever folding is legal, checks when checking is free."""

    name = "always-fold"
    cheap = True

    def action(self, view: MatchState) -> Action:
        """``FOLD`` when there is something to call, ``CALL`` (a check) otherwise."""
        return FOLD if view.state.legal_actions().can_fold else CALL


class AlwaysRaise(_Deterministic):
    """Makes the minimum raise (the limit raise in limit games); calls when it cannot raise."""

    name = "always-raise"
    cheap = True

    def action(self, view: MatchState) -> Action:
        """A raise to the minimum legal raise-to amount, else ``CALL``."""
        legal = view.state.legal_actions()
        return _raise_to(self.game, legal.min_raise_to) if legal.can_raise else CALL


class AlwaysAllIn(_Deterministic):
    """Raises to its whole stack (the limit raise in limit games); calls when it cannot raise."""

    name = "always-allin"
    cheap = True

    def action(self, view: MatchState) -> Action:
        """A raise to the maximum legal raise-to amount, else ``CALL``."""
        legal = view.state.legal_actions()
        return _raise_to(self.game, legal.max_raise_to) if legal.can_raise else CALL


FOLD_PROBABILITY = 0.06
CALL_PROBABILITY = 0.47
RAISE_PROBABILITY = 0.47


class RandomPlayer(Strategy):
    """The ACPC reference example player.

    Fold 6 %, call 47 %, raise 47 %, renormalised among the legal actions; a no-limit raise
    goes to a size drawn uniformly from the legal raise-to range (chips).
    """

    ignores_cards = True

    name = "random"
    cheap = True

    def decide(self, view: MatchState, deadline: float) -> Action:
        """One random legal action, drawn from ``self.rng``."""
        legal = view.state.legal_actions()
        fold = FOLD_PROBABILITY if legal.can_fold else 0.0
        raise_ = RAISE_PROBABILITY if legal.can_raise else 0.0
        draw = self.rng.random() * (fold + CALL_PROBABILITY + raise_)
        if draw < fold:
            return FOLD
        if draw < fold + CALL_PROBABILITY:
            return CALL
        return _raise_to(self.game, self.rng.randint(legal.min_raise_to, legal.max_raise_to))

    def _weights(self, view: MatchState) -> tuple[float, float, float]:
        """(fold, call, raise) probabilities among the legal actions."""
        legal = view.state.legal_actions()
        fold = FOLD_PROBABILITY if legal.can_fold else 0.0
        raise_ = RAISE_PROBABILITY if legal.can_raise else 0.0
        total = fold + CALL_PROBABILITY + raise_
        return fold / total, CALL_PROBABILITY / total, raise_ / total

    def action_probabilities(self, view: MatchState) -> ActionProbabilities:
        """Fold, call and raise as in :meth:`decide`; in no-limit the raise probability is
        spread evenly over every legal raise-to size (one entry per size)."""
        fold, call, raise_ = self._weights(view)
        probabilities: ActionProbabilities = {CALL: call}
        if fold:
            probabilities[FOLD] = fold
        if raise_:
            legal = view.state.legal_actions()
            if not self.game.is_nolimit:
                probabilities[LIMIT_RAISE] = raise_
            else:
                share = raise_ / (legal.max_raise_to - legal.min_raise_to + 1)
                for size in range(legal.min_raise_to, legal.max_raise_to + 1):
                    probabilities[Action.raise_to(size)] = share
        return probabilities

    def action_probability(self, view: MatchState, action: Action) -> float:
        """One entry of :meth:`action_probabilities`, without building the whole table."""
        fold, call, raise_ = self._weights(view)
        if action.kind is ActionKind.FOLD:
            return fold
        if action.kind is ActionKind.CALL:
            return call
        legal = view.state.legal_actions()
        if not raise_:
            return 0.0
        if not self.game.is_nolimit:
            return raise_ if action == LIMIT_RAISE else 0.0
        if not legal.min_raise_to <= action.size <= legal.max_raise_to:
            return 0.0
        return raise_ / (legal.max_raise_to - legal.min_raise_to + 1)

    def probability_key(self, view: MatchState) -> Hashable:
        """``()``: the cards do not matter."""
        return ()


class PushFold(Strategy):
    """All-in or fold from a starting-hand chart; checks when checking is free.

    In 52-card games with two hole cards the chart is :func:`strategies.push_fold_chart.push_fold_chart`:
    the 169 starting-hand classes ranked by equity against a random hand, of which the top
    fraction given by :func:`strategies.push_fold_chart.push_fraction` of the effective stack (in big
    blinds) is pushed. In other games a hand is pushed when its best hole card is in the top
    half of the game's ranks. The same decision (from the hole cards alone) holds in every
    round. In limit games "all-in" is the limit raise (a call when no raise is left).
    """

    name = "push-fold"
    cheap = True

    def __init__(self, game: Game, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self._chart: PushFoldChart | None = (
            push_fold_chart() if game.is_standard_deck and game.num_hole_cards == 2 else None
        )

    def decide(self, view: MatchState, deadline: float) -> Action:
        """All-in (or call when no raise is legal) with a pushing hand; fold or check otherwise."""
        state = view.state
        legal = state.legal_actions()
        if self.pushes(view):
            return _raise_to(self.game, legal.max_raise_to) if legal.can_raise else CALL
        return FOLD if legal.can_fold else CALL

    def action_probabilities(self, view: MatchState) -> ActionProbabilities:
        """The action of :meth:`decide` with probability 1."""
        return {self.decide(view, 0.0): 1.0}

    def probability_key(self, view: MatchState) -> Hashable:
        """The starting-hand class (the chart's key), or the best hole card's rank."""
        if self._chart is None:
            return max(rank_of(card) for card in view.hole_cards)
        return hand_class(view.hole_cards)

    def pushes(self, view: MatchState) -> bool:
        """True when the player's hole cards are a pushing hand at its effective stack."""
        cards = view.hole_cards
        game = self.game
        if self._chart is None:
            lowest_rank = 13 - game.num_ranks
            return max(rank_of(card) for card in cards) - lowest_rank >= game.num_ranks // 2
        return self._chart.pushes(hand_class(cards), effective_stack_bb(view))


def effective_stack_bb(view: MatchState) -> float:
    """The acting player's effective stack in big blinds: the smaller of its stack and the
    largest stack among the other players still in the hand (stacks in chips as dealt)."""
    state = view.state
    game = state.game
    stacks = game.stacks
    others = [stacks[p] for p in range(game.num_players) if p != view.position and not state.folded[p]]
    mine = stacks[view.position]
    return min(mine, max(others, default=mine)) / game.big_blind


BASELINES: tuple[type[Strategy], ...] = (
    AlwaysCall,
    AlwaysFold,
    AlwaysRaise,
    AlwaysAllIn,
    RandomPlayer,
    PushFold,
)
"""Every baseline strategy class, in registry order."""
