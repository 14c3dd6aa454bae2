"""The safe exploiter of heads-up hold'em (registered as ``adaptive`` in heads-up hold'em).

:class:`SafeExploiter` holds two strategies: the game's **blueprint** (an abstract-game
equilibrium, :mod:`pokerbot.strategies.abstract.player`) and an **exploiter** (the
``miximax`` agent with its adapting opponent models, :mod:`pokerbot.strategies.miximax`).
Before each hand it draws which of the two plays the whole hand, the exploiter with the
probability the safety rule allows (:class:`~pokerbot.strategies.safe.ledger.RiskLedger`:
the winnings shown so far, at 95 % confidence, over what one exploiting hand may lose). It
starts on the blueprint and moves to the exploiter as the evidence that the opponent gives
chips away accumulates; against a player who gives nothing it stays on the blueprint.

Both parts see every finished hand (the exploiter's models learn from the blueprint's hands
too). The draw is a fixed function of the agent's seed and the hand number, so
:meth:`SafeExploiter.action_probabilities` at any view of a hand answers for the
strategy that plays that hand. Decisions cost what the part playing costs: a table lookup
and a hand-strength evaluation for the blueprint, the exploiter's time budget for it. In
no-limit the ledger values each of the blueprint's hands over its whole range
(:func:`~pokerbot.strategies.safe.values.range_hand_value`): about a tenth of a second after
a hand that saw the turn, in :meth:`SafeExploiter.observe`, never in a decision, and only
when the time limits leave room for it (:data:`RANGE_VALUE_MIN_BUDGET`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable

import numpy as np
import structlog

from pokerbot.protocol.actions import CALL, Action
from pokerbot.protocol.analysis.headsup import heads_up_equity
from pokerbot.protocol.analysis.holdings import NUM_HOLDINGS
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import ActionProbabilities, Strategy
from pokerbot.strategies.safe.ledger import LedgerEntry, RiskLedger, SafetySettings
from pokerbot.strategies.safe.values import (
    RangeReporter,
    board_equity,
    board_through,
    hand_value,
    last_action_round,
    range_hand_value,
)

_log = structlog.get_logger(__name__)

NOLIMIT_SETTINGS = SafetySettings(risk=20.0, prior_spread=15.0, spare=1, imaginary=True)
"""Heads-up no-limit hold'em (200 big blinds): an exploiting hand may lose 20 big blinds
beyond the blueprint (above what a local best response wins against ``miximax``); a hand's
spread starts at 15 big blinds; the bound leaves out the best hand, so that one lucky all-in
does not open the exploiter; the blueprint's hands are valued over its range (less variance
than at the holding dealt). Why each: ``docs/safe.md``."""
LIMIT_SETTINGS = SafetySettings(risk=4.0, prior_spread=3.0)
"""Heads-up limit hold'em: 4 big blinds a hand at risk, a prior spread of 3 big blinds; every
hand valued at the holding dealt."""


RANGE_VALUE_MIN_BUDGET = 0.5
"""Seconds: the shortest decision budget (the client's deadline for the agent's last
decision) under which the blueprint's hands are still valued over its range. That valuation
runs after the hand, and the next hand's first decision waits for it; under tighter limits
(100 ms a response gives a budget of about 45 ms) the strategy process would still be
valuing the last hand when the next request came, and the client would answer with
fallbacks, so the hand is valued at our holding (``hand_value``, far cheaper). The choice
depends on the time limits, not on the cards, so either value keeps the ledger unbiased.
In-process matches give 1 s a decision, ``pokerbot play`` under the reference dealer's
default limits some seconds."""
MAX_OPEN_HANDS = 16
"""Hands whose part the agent remembers until their end is settled (a client that falls
behind skips some hands' ends: their entries go, oldest first)."""

DEFEND = False
"""Whether the no-limit blueprint part plays with its minimum defence
(:mod:`pokerbot.strategies.abstract.defence`) by default: not (``docs/abstraction.md``)."""


def default_settings(game: Game) -> SafetySettings:
    """The ledger's settings for ``game`` (no-limit or limit)."""
    return NOLIMIT_SETTINGS if game.is_nolimit else LIMIT_SETTINGS


class SafeExploiter(Strategy):
    """Blueprint or exploiter, drawn per hand within the safety rule (module docstring)."""

    name = "safe-miximax"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        *,
        blueprint: Strategy,
        exploiter: Strategy,
        settings: SafetySettings | None = None,
    ) -> None:
        super().__init__(game, seed)
        if game.num_players != 2:
            raise ValueError("the safe adaptive agent plays two-player games")
        self.blueprint = blueprint
        self.exploiter = exploiter
        self.ledger = RiskLedger(settings or default_settings(game), game.big_blind)
        self._draw_seed = self.rng.getrandbits(64)
        self._parts: dict[int, Strategy] = {}
        """The part drawn for each hand asked about and not yet settled (hand number -> part):
        a hand's end can be observed after the next hand's first decision (a strategy process
        answers a waiting request first), so one slot for the current hand would book the
        hand before it to the wrong part."""
        self.history: list[LedgerEntry] = []
        """Every settled hand, in order (for experiments)."""
        self.exploited_hands = 0
        """Hands the exploiter played (decided at least once)."""
        self.decision_budget: float | None = None
        """Seconds the client gave the agent's last decision (None before the first): whether
        a hand can be valued over the blueprint's range (:data:`RANGE_VALUE_MIN_BUDGET`)."""

    def playing(self, view: MatchState) -> Strategy:
        """The strategy that plays the hand of ``view`` (drawn at the hand's first question,
        with the share of the hands settled by then)."""
        part = self._parts.get(view.hand_number)
        if part is None:
            draw = random.Random(f"{self._draw_seed}:{view.hand_number}").random()
            part = self.exploiter if draw < self.ledger.share() else self.blueprint
            self._parts[view.hand_number] = part
            while len(self._parts) > MAX_OPEN_HANDS:  # hands whose end was never shown
                del self._parts[next(iter(self._parts))]
        return part

    def quick_action(self, view: MatchState) -> Action | None:
        """The blueprint's quick action."""
        return self.blueprint.quick_action(view)

    def decide(self, view: MatchState, deadline: float) -> Action:
        self.decision_budget = deadline - time.monotonic()
        return self.playing(view).decide(view, deadline)

    def prepare(self) -> None:
        """Both parts' data, and the ledger's compiled equity code (else compiled or loaded by
        the first hands' settlements, seconds on a fresh install, while the client answers
        with fallbacks): a flop's equity, a pre-flop all-in, and a hand checked down to the
        river valued both ways."""
        self.blueprint.prepare()
        self.exploiter.prepare()
        if not (self.game.is_standard_deck and self.game.num_hole_cards == 2 and self.game.num_players == 2):
            return
        board_equity((0, 1), (2, 3, 4), random.Random(0))
        heads_up_equity(self.game, ((0, 1), (2, 3)), (), preflop_boards=16)  # the all-in adjustment
        if self.ledger.settings.imaginary and isinstance(self.blueprint, RangeReporter):
            state = HandState(self.game, [(0, 1), (2, 3)], (4, 5, 6, 7, 8))
            while not state.finished:
                state.apply(CALL)
            self.blueprint.reach(state, 0, 0, board_through(state, last_action_round(state)))
            range_hand_value(state, 0, np.ones(NUM_HOLDINGS))

    def action_probabilities(self, view: MatchState) -> ActionProbabilities:
        """The probabilities of the strategy that plays this hand (its draw is fixed)."""
        return self.playing(view).action_probabilities(view)

    def action_probability(self, view: MatchState, action: Action) -> float:
        return self.playing(view).action_probability(view, action)

    def costly_probabilities(self, view: MatchState) -> bool:
        return self.playing(view).costly_probabilities(view)

    def probability_key(self, view: MatchState) -> Hashable:
        return self.playing(view).probability_key(view)

    def observe(self, view: MatchState) -> None:
        """Settle the hand in the ledger; both parts learn from it."""
        exploited = self._parts.pop(view.hand_number, None) is self.exploiter
        self.history.append(self.ledger.settle(view.position, self.hand_value(view, exploited), exploited))
        if exploited:
            self.exploited_hands += 1
        self.exploiter.observe(view)
        self.blueprint.observe(view)

    def hand_value(self, view: MatchState, exploited: bool) -> float:
        """What the finished hand of ``view`` books (chips, before the reference): over the
        blueprint's range when it played the hand and the settings ask for it
        (:func:`~pokerbot.strategies.safe.values.range_hand_value`) and the time limits leave
        room for it (:data:`RANGE_VALUE_MIN_BUDGET`), else at our holding
        (:func:`~pokerbot.strategies.safe.values.hand_value`)."""
        state = view.state
        if not exploited and self.values_over_range() and isinstance(self.blueprint, RangeReporter):
            board = board_through(state, last_action_round(state))
            reach = self.blueprint.reach(state, view.position, view.hand_number, board)
            if reach is not None:
                try:
                    return range_hand_value(state, view.position, reach, seed=view.hand_number)
                except ValueError as error:  # the client played a fallback for the blueprint
                    _log.warning("hand valued at our holding", hand=view.hand_number, reason=str(error))
        return hand_value(state, view.position, seed=view.hand_number)

    def values_over_range(self) -> bool:
        """Whether a blueprint hand is valued over its range: the settings ask for it and the
        last decision's budget (if any yet) was at least :data:`RANGE_VALUE_MIN_BUDGET`."""
        budget = self.decision_budget
        return self.ledger.settings.imaginary and (budget is None or budget >= RANGE_VALUE_MIN_BUDGET)


def _derived_seed(seed: int | None, part: int) -> int | None:
    return None if seed is None else random.Random(f"{seed}:{part}").getrandbits(32)


def safe_exploiter_factory(
    game: Game,
    seed: int | None = None,
    budget: str | None = None,
    settings: SafetySettings | None = None,
    *,
    defend: bool | None = None,
) -> SafeExploiter:
    """The registry factory in heads-up hold'em: the game's blueprint and ``miximax`` (or
    ``miximax:BUDGET``, the exploiter's budget per decision) under ``settings`` (default:
    :func:`default_settings`); ``defend``: the blueprint with its minimum defence
    (:mod:`pokerbot.strategies.abstract.defence`; default :data:`DEFEND`)."""
    from pokerbot.strategies.abstract.player import blueprint_factory
    from pokerbot.strategies.miximax.player import miximax_factory

    return SafeExploiter(
        game,
        seed,
        blueprint=blueprint_factory(game, _derived_seed(seed, 1), defend=DEFEND if defend is None else defend),
        exploiter=miximax_factory(game, _derived_seed(seed, 2), budget),
        settings=settings,
    )


__all__ = [
    "DEFEND",
    "LIMIT_SETTINGS",
    "NOLIMIT_SETTINGS",
    "RANGE_VALUE_MIN_BUDGET",
    "SafeExploiter",
    "default_settings",
    "safe_exploiter_factory",
]
