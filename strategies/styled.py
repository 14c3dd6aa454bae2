"""Styled opponents: parametrised rule-based players of recognisable styles.

Every styled player follows one rule, parametrised by a :class:`Style`:

1. **Strength** ``e``: pre-flop in hold'em, the hand's all-in equity against one random hand
   (its class's, :func:`pokerbot.protocol.analysis.preflop.preflop_class_equity`); otherwise
   equity against one random hand from :data:`EQUITY_SAMPLES` seeded draws
   (:func:`pokerbot.protocol.analysis.strength.sampled_equity_vs_random`), raised to the power
   of the number of opponents still in the hand.
2. **Value**: with ``e >= value`` (``preflop_raise`` pre-flop, ``bet`` after) it bets or
   raises with probability ``aggression`` while the round has fewer than ``raise_cap`` raises.
3. **No bet to call**: otherwise it bluffs (bets) with probability ``bluff``, else checks.
4. **Facing a bet**: it calls when ``e`` reaches the larger of its continuing threshold
   (``preflop_play`` / ``call``) and the pot odds ``to_call / (pot + to_call)`` times
   ``odds_factor``, capped at the value threshold (so value hands always continue); else it
   bluff-raises with probability ``bluff / 2``; else it folds.

**Action probabilities** (:meth:`StyledPlayer.action_probabilities`) are exact: pre-flop the
strength is the table's; after the flop the sampled estimate ``(W + T / 2) / n`` counts ``W``
wins and ``T`` ties among ``n = EQUITY_SAMPLES`` independent draws, so it follows a
multinomial law given the exact chances of a win and a tie against a random hand
(:func:`pokerbot.protocol.analysis.equity.equity_vs_random_all`, every holding of a board at
once, kept for the last few boards). The probability of each branch of the rule follows.

Styled players are for hold'em (limit and no-limit, any number of players; the rule itself
works in any game; action probabilities need hold'em's five board cards). No-limit bets and
raises draw a size from ``sizes`` (fractions of the pot after calling; ``inf`` = all-in),
clamped into the legal range; limit games use the fixed raise. Only legal actions are
returned. Randomness is ``self.rng`` (seeded).

:data:`STYLES` holds the named styles; :class:`Switcher` plays one style and then another
from a given hand number on (by default tight-aggressive, then maniac from hand 500).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from pokerbot.models.action_classes import pot_raise_to
from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action, LegalActions
from pokerbot.protocol.analysis.preflop import hand_class, preflop_class_equity
from pokerbot.protocol.analysis.strength import sampled_equity_vs_random
from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import Game
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import (
    ActionProbabilities,
    ActionProbabilitiesError,
    Strategy,
    StrategyFactory,
    normalized,
)

if TYPE_CHECKING:  # numpy and numba load only when probabilities are asked (``pokerbot play`` stays light)
    import numpy as np

EQUITY_SAMPLES = 48
"""Draws per post-flop equity estimate (about 0.2 ms)."""
ALL_IN = math.inf
"""A bet size meaning all-in."""
DEFAULT_SWITCH_HAND = 500
"""The hand number (0-based) from which :class:`Switcher` plays its second style by default."""
KEPT_BOARDS = 4
"""Boards whose strength distributions a player keeps for :meth:`StyledPlayer.action_probabilities`."""


@dataclass(frozen=True)
class Style:
    """Thresholds (equities in [0, 1]) and habits of a styled player; see the module docstring."""

    name: str
    preflop_play: float
    preflop_raise: float
    call: float
    bet: float
    aggression: float
    bluff: float
    odds_factor: float = 1.0
    sizes: tuple[float, ...] = (0.5, 1.0)
    raise_cap: int = 3
    summary: str = ""


STYLES: dict[str, Style] = {
    style.name: style
    for style in (
        Style(
            "tight-aggressive",
            0.55,
            0.60,
            0.50,
            0.65,
            0.85,
            0.08,
            sizes=(0.5, 0.75, 1.0),
            summary="Plays the top third of hands, bets and raises its good hands, bluffs a little.",
        ),
        Style(
            "tight-passive",
            0.55,
            0.66,
            0.50,
            0.78,
            0.35,
            0.02,
            summary="Plays the top third of hands, mostly checks and calls, raises only the best.",
        ),
        Style(
            "loose-aggressive",
            0.46,
            0.53,
            0.40,
            0.55,
            0.85,
            0.20,
            sizes=(0.5, 1.0, 1.5),
            summary="Plays two thirds of hands, bets and raises often, bluffs a fifth of the time.",
        ),
        Style(
            "loose-passive",
            0.42,
            0.66,
            0.35,
            0.75,
            0.20,
            0.02,
            odds_factor=0.6,
            summary="Plays most hands, calls a lot, rarely raises.",
        ),
        Style(
            "calling-station",
            0.0,
            0.72,
            0.0,
            0.82,
            0.25,
            0.0,
            odds_factor=0.0,
            sizes=(0.5,),
            summary="Calls almost anything, raises only very strong hands.",
        ),
        Style(
            "maniac",
            0.0,
            0.0,
            0.25,
            0.0,
            0.85,
            0.8,
            odds_factor=0.3,
            sizes=(1.0, 2.0, ALL_IN),
            raise_cap=6,
            summary="Raises nearly every hand, big, whatever it holds.",
        ),
        Style(
            "nit",
            0.62,
            0.65,
            0.65,
            0.78,
            0.70,
            0.0,
            raise_cap=2,
            summary="Plays only premium hands (about the top tenth) and folds to pressure.",
        ),
        Style(
            "bluffer",
            0.50,
            0.58,
            0.50,
            0.65,
            0.75,
            0.45,
            sizes=(0.75, 1.0),
            summary="Solid hand selection but bets and raises weak hands often; gives up when called.",
        ),
    )
}
"""The named styles, by registry name."""


def _raise_action(game: Game, view: MatchState, fraction: float, legal: LegalActions | None = None) -> Action:
    """A raise of ``fraction`` of the pot after calling (no-limit, clamped), or the limit raise."""
    if not game.is_nolimit:
        return LIMIT_RAISE
    state = view.state
    legal = legal or state.legal_actions()
    if math.isinf(fraction):
        return Action.raise_to(legal.max_raise_to)
    return Action.raise_to(pot_raise_to(state, fraction, legal, rounding=int))  # the raise-by rounded down


@cache
def _strength_levels(power: int) -> tuple[float, ...]:
    """The values the strength estimate can take, ``((k / 2) / n) ** power`` for ``k = 0 .. 2n``,
    computed as :meth:`StyledPlayer.strength` computes them (so comparisons agree exactly)."""
    return tuple(((k * 0.5) / EQUITY_SAMPLES) ** power for k in range(2 * EQUITY_SAMPLES + 1))


class StyledPlayer(Strategy):
    """A rule-based player of one :class:`Style` (see the module docstring)."""

    name = "styled"

    def __init__(self, game: Game, seed: int | None = None, style: Style | None = None) -> None:
        super().__init__(game, seed)
        self.style = style or STYLES["tight-aggressive"]
        self._holdem = game.is_standard_deck and game.num_hole_cards == 2
        self._survival: dict[tuple[Card, ...], np.ndarray] = {}

    def current_style(self, view: MatchState) -> Style:
        """The style played in ``view``'s hand."""
        return self.style

    def strength(self, view: MatchState) -> float:
        """Equity against one random hand per opponent still in (see the module docstring)."""
        state = view.state
        board = state.visible_board()
        if not board and self._holdem:
            equity = preflop_class_equity()[hand_class(view.hole_cards)]
        else:
            equity = sampled_equity_vs_random(self.game, view.hole_cards, board, self.rng, EQUITY_SAMPLES)
        opponents = sum(1 for p, folded in enumerate(state.folded) if not folded and p != view.position)
        return equity ** max(opponents, 1)

    def decide(self, view: MatchState, deadline: float) -> Action:
        """The styled action for ``view`` (always legal)."""
        style = self.current_style(view)
        state = view.state
        legal = state.legal_actions()
        equity = self.strength(view)
        preflop = state.round == 0
        value = style.preflop_raise if preflop else style.bet
        can_raise = legal.can_raise and state.num_raises() < style.raise_cap
        rng = self.rng
        if can_raise and equity >= value and rng.random() < style.aggression:
            return self._bet(view, style)
        if not legal.call_amount:
            if can_raise and equity < value and rng.random() < style.bluff:
                return self._bet(view, style)
            return CALL
        odds = legal.call_amount / (state.pot + legal.call_amount)
        needed = max(style.preflop_play if preflop else style.call, min(odds * style.odds_factor, value))
        if equity >= needed:
            return CALL
        if can_raise and rng.random() < style.bluff / 2:
            return self._bet(view, style)
        return FOLD

    def _bet(self, view: MatchState, style: Style) -> Action:
        return _raise_action(self.game, view, self.rng.choice(style.sizes))

    # ------------------------------------------------------- probabilities
    def action_probabilities(self, view: MatchState) -> ActionProbabilities:
        """The exact probability of each action :meth:`decide` takes in ``view`` (module
        docstring): the rule's branches weighted by the law of the strength estimate."""
        style = self.current_style(view)
        state = view.state
        legal = state.legal_actions()
        preflop = state.round == 0
        value = style.preflop_raise if preflop else style.bet
        can_raise = legal.can_raise and state.num_raises() < style.raise_cap
        at_least = self._strength_at_least(view)
        strong = at_least(value)
        bet = style.aggression * strong if can_raise else 0.0
        if not legal.call_amount:
            if can_raise:
                bet += style.bluff * (1.0 - strong)
            call, fold = 1.0 - bet, 0.0
        else:
            odds = legal.call_amount / (state.pot + legal.call_amount)
            needed = max(style.preflop_play if preflop else style.call, min(odds * style.odds_factor, value))
            call = at_least(needed) - (style.aggression * at_least(max(value, needed)) if can_raise else 0.0)
            rest = max(0.0, 1.0 - bet - call)
            bluff = style.bluff / 2 if can_raise else 0.0
            bet += rest * bluff
            fold = rest * (1.0 - bluff)
        weights: dict[Action, float] = {CALL: max(call, 0.0)}
        if fold > 0.0:
            weights[FOLD] = fold
        for fraction in style.sizes:
            action = _raise_action(self.game, view, fraction, legal)
            weights[action] = weights.get(action, 0.0) + bet / len(style.sizes)
        return normalized(weights)

    def probability_key(self, view: MatchState) -> Hashable:
        """The starting-hand class pre-flop in hold'em (the table's key), else the hole cards."""
        if self._holdem and not view.state.visible_board():
            return hand_class(view.hole_cards)
        return view.hole_cards

    def _strength_at_least(self, view: MatchState) -> Callable[[float], float]:
        """``t -> P(strength(view) >= t)`` (module docstring)."""
        state = view.state
        board = state.visible_board()
        opponents = sum(1 for p, folded in enumerate(state.folded) if not folded and p != view.position)
        power = max(opponents, 1)
        if not board and self._holdem:
            strength = preflop_class_equity()[hand_class(view.hole_cards)] ** power
            return lambda threshold: 1.0 if strength >= threshold else 0.0
        if not self._holdem or self.game.total_board_cards != 5:
            raise ActionProbabilitiesError(
                "styled action probabilities need hold'em (two hole cards, five board cards)"
            )
        from pokerbot.protocol.analysis.holdings import holding_index  # numba: compiled on first use

        row = self._survival_table(board)[holding_index(view.hole_cards)]
        levels = _strength_levels(power)
        return lambda threshold: float(row[bisect_left(levels, threshold)])

    def _survival_table(self, board: tuple[Card, ...]) -> np.ndarray:
        """For every holding, ``P(2W + T >= k)`` for ``k = 0 .. 2n + 1`` on ``board``."""
        table = self._survival.get(board)
        if table is None:
            board = tuple(sorted(board))
            table = self._survival.get(board)
        if table is None:
            from pokerbot.protocol.analysis.equity import equity_vs_random_all, score_survival

            win, tie = equity_vs_random_all(board)
            table = score_survival(win, tie, EQUITY_SAMPLES)
            while len(self._survival) >= KEPT_BOARDS:
                self._survival.pop(next(iter(self._survival)))
            self._survival[board] = table
        return table


class Switcher(StyledPlayer):
    """Plays ``first`` until hand ``switch_hand`` (0-based), then ``second``."""

    name = "switcher"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        first: Style | None = None,
        second: Style | None = None,
        switch_hand: int = DEFAULT_SWITCH_HAND,
    ) -> None:
        super().__init__(game, seed, first or STYLES["tight-aggressive"])
        self.second = second or STYLES["maniac"]
        self.switch_hand = switch_hand

    def current_style(self, view: MatchState) -> Style:
        """``first`` before hand ``switch_hand``, ``second`` from it on."""
        return self.style if view.hand_number < self.switch_hand else self.second


def plays_styled(game: Game) -> bool:
    """True for hold'em games (52 cards, two hole cards), the games styled players are for."""
    return game.is_standard_deck and game.num_hole_cards == 2


def make_styled(name: str, game: Game, seed: int | None = None, switch_hand: int = DEFAULT_SWITCH_HAND) -> StyledPlayer:
    """The styled player ``name`` (a key of :data:`STYLES`, or ``switcher``)."""
    if name == Switcher.name:
        return Switcher(game, seed, switch_hand=switch_hand)
    if name not in STYLES:
        raise KeyError(f"unknown style {name!r}: styles are {', '.join([*STYLES, Switcher.name])}")
    player = StyledPlayer(game, seed, STYLES[name])
    player.name = name
    return player


def styled_factory(name: str) -> StrategyFactory:
    """A registry factory ``(game, seed) -> Strategy`` for style ``name``."""

    def factory(game: Game, seed: int | None = None) -> Strategy:
        return make_styled(name, game, seed)

    factory.__name__ = f"make_{name.replace('-', '_')}"
    return factory


SWITCHER_SUMMARY = f"Tight-aggressive until hand {DEFAULT_SWITCH_HAND}, then a maniac: a style change mid-match."

__all__ = [
    "ALL_IN",
    "DEFAULT_SWITCH_HAND",
    "EQUITY_SAMPLES",
    "STYLES",
    "SWITCHER_SUMMARY",
    "Style",
    "StyledPlayer",
    "Switcher",
    "make_styled",
    "plays_styled",
    "styled_factory",
]
