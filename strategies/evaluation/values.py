"""Value functions for AIVAT: what a heads-up hand state is worth to position 0, in chips.

A value function (:class:`AivatValue`) is asked about hand states whose cards are partly
dealt: ``state.hole_cards`` holds both players' cards (or neither, before the deal) and
``state.board_cards`` exactly the board cards dealt so far; the rest are still to come. Any
function gives an unbiased estimator; the closer it is to the true expected winnings, the
lower the estimator's variance.

:class:`EquityValue`, the default, values a state as if nobody bet again: the chips both
players have matched, ``m = min(spent)`` (an uncalled bet goes back), are won with the
showdown equity ``e`` of position 0 (wins plus half the ties, the missing board cards dealt
uniformly from the cards left):

    v(h) = e * 2m - m = (2e - 1) m

A finished hand is worth its outcome (a fold: the folder loses what it put in). Before the
deal, both equities are 1/2 by symmetry, so ``v = 0``. Because ``e`` is the average of the
equities after the next cards, ``v`` is *chance-consistent*: its value before a chance event
is the average of its values after it (:attr:`AivatValue.chance_consistent`), so AIVAT's
chance corrections need no enumeration of the cards that could have come.
"""

from __future__ import annotations

from typing import Protocol

from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.evaluation.equity import heads_up_equity

VALUE_PREFLOP_BOARDS = 2_000
"""Boards of :class:`EquityValue`'s pre-flop Monte Carlo (standard deviation of an equity
below 0.012). Fewer than :data:`~pokerbot.strategies.evaluation.equity.PREFLOP_BOARDS`:
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
    52-card hold'em (:func:`~pokerbot.strategies.evaluation.equity.heads_up_equity`)."""

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


__all__ = ["VALUE_PREFLOP_BOARDS", "AivatValue", "EquityValue"]
