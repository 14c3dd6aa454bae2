"""Value functions for AIVAT: what a heads-up hand state is worth to position 0, in chips.

A value function (:class:`AivatValue`) is asked about hand states whose cards are partly
dealt: ``state.hole_cards`` holds both players' cards (or neither, before the deal) and
``state.board_cards`` exactly the board cards dealt so far; the rest are still to come. Any
function gives an unbiased estimator; the closer it is to the true expected winnings, the
lower the estimator's variance.

:class:`EquityValue` values a state as if nobody bet again: the chips both
players have matched, ``m = min(spent)`` (an uncalled bet goes back), are won with the
showdown equity ``e`` of position 0 (wins plus half the ties, the missing board cards dealt
uniformly from the cards left):

    v(h) = e * 2m - m = (2e - 1) m

A finished hand is worth its outcome (a fold: the folder loses what it put in). Before the
deal, both equities are 1/2 by symmetry, so ``v = 0``. Because ``e`` is the average of the
equities after the next cards, ``v`` is *chance-consistent*: its value before a chance event
is the average of its values after it (:attr:`AivatValue.chance_consistent`), so AIVAT's
chance corrections need no enumeration of the cards that could have come.

:class:`StakeValue`, AIVAT's default, adds to it the betting still to come: the equity edge
``2e - 1`` times terms of the betting (matched chips, big blind, bet to call, chips behind),
weighed by coefficients fitted on played matches (no coefficients outside 52-card hold'em:
the equity value). It stays chance-consistent whatever the coefficients.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from pokerbot.protocol.analysis.headsup import heads_up_equity
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState

VALUE_PREFLOP_BOARDS = 2_000
"""Boards of :class:`EquityValue`'s pre-flop Monte Carlo (standard deviation of an equity
below 0.012). Fewer than :data:`~pokerbot.protocol.analysis.headsup.PREFLOP_BOARDS`:
AIVAT with imaginary observations asks some ninety pre-flop equities a hand, which at
20,000 boards were four fifths of its time; a value function only needs to be close to the
true value. Its Monte Carlo error, fixed for each pair of holdings by the seed, makes a
chance correction's mean that error times the matched chips rather than 0; the errors have
mean zero over the seeds and are independent from pair to pair, so over many hands they add
a little variance and no systematic bias."""


class AivatValue(Protocol):
    """Position 0's expected winnings (chips) in a heads-up hand state (module docstring)."""

    chance_consistent: bool
    """True when :meth:`value` before a chance event is the average of its values after it
    (the cards dealt uniformly from those left); AIVAT then takes it as that average."""

    def value(self, state: HandState) -> float:
        """Position 0's value of ``state`` in chips, its dealt cards in ``state``."""
        ...


class EquityValue:
    """``v = (2e - 1) * min(spent)``: the matched chips won with the showdown equity
    (module docstring). ``preflop_boards`` and ``seed`` set the pre-flop Monte Carlo in
    52-card hold'em (:func:`~pokerbot.protocol.analysis.headsup.heads_up_equity`)."""

    chance_consistent = True

    def __init__(self, game: Game, *, preflop_boards: int = VALUE_PREFLOP_BOARDS, seed: int = 0) -> None:
        if game.num_players != 2:
            raise ValueError(f"the equity value is for heads-up games, this one has {game.num_players} players")
        self.game = game
        self.preflop_boards = preflop_boards
        self.seed = seed
        self._equities: dict[tuple[object, ...], float] = {}

    def value(self, state: HandState) -> float:
        """Position 0's value of ``state`` (module docstring), in chips."""
        if state.finished and not state.showdown():
            return state.values()[0]
        holes = state.hole_cards
        if holes[0] is None and holes[1] is None:
            return 0.0
        if holes[0] is None or holes[1] is None:
            raise ValueError("the equity value needs both players' hole cards, or neither")
        matched = min(state.spent)
        if matched == 0:
            return 0.0
        return (2.0 * self.equity(holes[0], holes[1], state.board_cards) - 1.0) * matched

    def equity(self, first: tuple[int, ...], second: tuple[int, ...], board: tuple[int, ...]) -> float:
        """Position 0's showdown equity with these cards (remembered for the next question)."""
        key = (first, second, board)
        equity = self._equities.get(key)
        if equity is None:
            if len(self._equities) > 4096:
                self._equities.clear()
            equity = heads_up_equity(
                self.game, (first, second), board, preflop_boards=self.preflop_boards, seed=self.seed
            )
            self._equities[key] = equity
        return equity


class StakeValue:
    """The equity value plus the betting to come: ``v = x m + x sum_j c_(r,j) t_j`` for a hand in
    progress in betting round ``r``, the equity value (:class:`EquityValue`) for a finished one.

    ``x = 2e - 1`` is position 0's equity edge and ``m`` the matched chips (so ``x m`` is the
    equity value); the *stake terms* ``t_j`` say how much more may go in: the matched chips,
    the big blind, the bet to be called (``max(spent) - m``) and, in no-limit, the chips still
    behind (``stack - max(spent)``). The features ``f_(r,j) = x t_j`` of the current round
    (:meth:`features`: round by round, the terms in that order) are weighed by
    ``coefficients`` (default: the fitted :data:`NOLIMIT_STAKE` or :data:`LIMIT_STAKE` in
    52-card heads-up hold'em, else zeros, i.e. the equity value).

    Any coefficients keep AIVAT unbiased: the value is chance-consistent
    (:attr:`AivatValue.chance_consistent`): a board card changes only ``e``, and linearly
    (the stake terms are the betting's), so the mean over the card is the value before it;
    at the deal, exchanging the players' holdings turns ``x`` into ``-x``, so the mean is 0,
    the value before any card. Good coefficients come from a regression of the outcome on the
    features' AIVAT corrections over other matches (``benchmarks/research/aivat_fit.py``).
    """

    chance_consistent = True

    def __init__(
        self,
        game: Game,
        coefficients: Sequence[float] | None = None,
        *,
        preflop_boards: int = VALUE_PREFLOP_BOARDS,
        seed: int = 0,
    ) -> None:
        self.equity_value = EquityValue(game, preflop_boards=preflop_boards, seed=seed)
        self.game = game
        size = stake_size(game)
        self.terms = size // game.num_rounds
        if coefficients is None:
            coefficients = default_stake(game) or (0.0,) * size
        if len(coefficients) != size:
            raise ValueError(f"this game's stake value has {size} coefficients, got {len(coefficients)}")
        self.coefficients = np.asarray(coefficients, dtype=float)

    def features(self, state: HandState) -> np.ndarray:
        """``f_j(h)`` (class docstring), in chips; zeros for a finished or undealt hand."""
        out = np.zeros(len(self.coefficients))
        holes = state.hole_cards
        if state.finished or holes[0] is None or holes[1] is None:
            return out
        edge = 2.0 * self.equity_value.equity(holes[0], holes[1], state.board_cards) - 1.0
        game, terms = self.game, self.terms
        matched, most = min(state.spent), max(state.spent)
        stake = [float(matched), float(game.big_blind), float(most - matched), float(game.stacks[0] - most)][:terms]
        start = terms * state.round
        out[start : start + terms] = np.multiply(stake, edge)
        return out

    def value(self, state: HandState) -> float:
        """Position 0's value of ``state`` (class docstring), in chips."""
        base = self.equity_value.value(state)
        if state.finished or not self.coefficients.any():
            return base
        return base + float(self.coefficients @ self.features(state))


# fmt: off
NOLIMIT_STAKE: tuple[float, ...] = (
    0.950417, 0.0273461, 4.49677, 0.0220219,
    2.45289, 0.00747739, -1.02611, 0.0686981,
    0.367622, 0.000379104, -0.373669, 0.0818674,
    1.03729, 0.00724225, 0.359007, 0.0521521,
)
# fmt: on
""":class:`StakeValue`'s coefficients in heads-up no-limit hold'em (200 big blinds deep), a row
per round (pre-flop, flop, turn, river), each for (matched chips, big blind, bet to call,
chips behind): fitted by ``benchmarks/research/aivat_fit.py`` on ten 1,000-hand duplicate matches
of ``miximax:500nodes`` against ``tight-aggressive`` (``docs/aivat.md``)."""
# fmt: off
LIMIT_STAKE: tuple[float, ...] = (
    0.655811, -0.957328, 3.16039,
    1.52482, -0.205372, 0.35958,
    1.23586, -0.763848, 0.38782,
    0.41007, -0.470782, 1.14753,
)
# fmt: on
"""The same in heads-up limit hold'em, each row for (matched chips, big blind, bet to call),
fitted on the ten limit matches of the same kind."""


def stake_size(game: Game) -> int:
    """How many coefficients :class:`StakeValue` takes in ``game``: 4 stake terms a round in
    no-limit (3 in limit) times the rounds."""
    return (4 if game.is_nolimit else 3) * game.num_rounds


def default_stake(game: Game) -> tuple[float, ...]:
    """The fitted coefficients of :class:`StakeValue` in 52-card heads-up hold'em (fitted 200
    big blinds deep in no-limit; used at any depth, as any coefficients keep AIVAT unbiased);
    empty for other games."""
    if not (game.is_standard_deck and game.num_hole_cards == 2 and game.num_rounds == 4 and game.num_players == 2):
        return ()
    return NOLIMIT_STAKE if game.is_nolimit else LIMIT_STAKE


__all__ = [
    "LIMIT_STAKE",
    "NOLIMIT_STAKE",
    "VALUE_PREFLOP_BOARDS",
    "AivatValue",
    "EquityValue",
    "StakeValue",
    "default_stake",
    "stake_size",
]
