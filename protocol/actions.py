"""Betting actions and the set of legal actions at a decision point."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class ActionKind(IntEnum):
    """The three ACPC action types; the value indexes the wire characters ``fcr``."""

    FOLD = 0
    CALL = 1
    RAISE = 2

    @property
    def char(self) -> str:
        """The ACPC wire character: ``f``, ``c`` or ``r``."""
        return "fcr"[self]


@dataclass(frozen=True, slots=True)
class Action:
    """One betting action.

    ``size`` is the no-limit raise-to amount in chips (the total the player will have put in
    the pot, all rounds counted); it is 0 for folds, calls and limit raises.
    """

    kind: ActionKind
    size: int = 0

    def __str__(self) -> str:
        return f"r{self.size}" if self.kind is ActionKind.RAISE and self.size else self.kind.char

    @staticmethod
    def raise_to(size: int) -> Action:
        """A no-limit raise to ``size`` chips."""
        return Action(ActionKind.RAISE, size)


FOLD = Action(ActionKind.FOLD)
CALL = Action(ActionKind.CALL)
"""Check or call."""
LIMIT_RAISE = Action(ActionKind.RAISE)
"""A raise in a limit game (the size is fixed by the game)."""


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to act may do. Amounts in chips.

    ``call_amount`` is the chips the player adds by calling (0 = check; smaller than the bet
    when calling puts the player all-in). ``min_raise_to`` and ``max_raise_to`` bound a raise
    TO (a total, all rounds counted); in a limit game both equal the one legal raise-to.
    """

    player: int
    can_fold: bool
    call_amount: int
    can_raise: bool
    min_raise_to: int
    max_raise_to: int
