"""Bet sizing: which raises a no-limit betting tree holds, and the raise to a fraction of the pot.

A raise by a fraction ``f`` of the pot is a raise *to* ``max_spent + f * (pot after calling)``
chips (the pot after calling is the pot once the raiser has matched the bet it faces), the
raise-by rounded to the nearest chip and the total clamped into the legal range:
:func:`~pokerbot.models.action_classes.pot_raise_to`, which sizes the trees' raises here as it
does the opponent models' action classes, translation and the search's abstract actions.

:class:`BetSizing` picks a tree's raises at each decision: per round, the fractions of a first
bet and of a raise over a bet, all-in (``all_in``; with ``all_in_pots`` only where the all-in is
at most that many pots: where the stack behind, after calling, is within that many pots of the
pot after calling, which facing a large bet is the call-off), and a cap of ``max_raises`` raises,
counted either over the whole round (``count_from="round"``, real raises before the tree's root
included: the abstract games' trees) or from the tree's root only (``count_from="root"``: the
re-solver's subgames). The defaults are the re-solver's: a third, three quarters and five
quarters of the pot after the flop, raises of one pot, all-in within two pots. A round may size
its first raise in big blinds instead (``opens``: the pre-flop opens of 2, 2.5 and 3 big blinds,
which no pot fraction gives). Limit games have one raise and need no sizing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pokerbot.models.action_classes import pot_raise_to
from pokerbot.protocol.actions import Action
from pokerbot.protocol.hand import HandState

CountFrom = Literal["round", "root"]
"""Where a tree's raise cap starts counting: the round's start, or the tree's root."""


class BetSizingError(ValueError):
    """A bet sizing that cannot be used (no fractions per round, a fraction not positive, a
    negative cap, an unknown way of counting raises)."""


@dataclass(frozen=True)
class BetSizing:
    """The raises of a no-limit betting tree (see the module docstring).

    ``bets[round]``: pot fractions of the round's first bet; ``raises[round]``: pot fractions
    of a raise over a bet (facing a blind is facing a bet); the last row serves the later rounds, so
    one row serves every round. ``opens[round]`` (for the rounds it lists, when not empty):
    raise-to totals in big blinds of the round's first raise, in place of that round's fractions
    (clamped into the legal range). All-in where a raise is legal and ``all_in``, and (with
    ``all_in_pots`` set) its raise-by is at most ``all_in_pots`` times the pot after calling
    (:meth:`all_in_size`, the stack-to-pot ratio after calling); at most ``max_raises`` raises
    (then fold or call), counted as ``count_from`` says. Fractions and sizes are positive;
    duplicate sizes are merged (a fraction above the stack is the all-in).
    """

    bets: tuple[tuple[float, ...], ...] = ((1.0,), (0.33, 0.75, 1.25), (0.33, 0.75, 1.25), (0.33, 0.75, 1.25))
    raises: tuple[tuple[float, ...], ...] = ((1.0,), (1.0,), (1.0,), (1.0,))
    all_in: bool = True
    max_raises: int = 3
    count_from: CountFrom = "root"
    all_in_pots: float | None = 2.0
    opens: tuple[tuple[float, ...], ...] = ()

    def __post_init__(self) -> None:
        if not self.bets or len(self.bets) != len(self.raises):
            raise BetSizingError("bet sizing needs one tuple of bets and one of raises per round")
        if any(f <= 0 for row in (*self.bets, *self.raises) for f in row):
            raise BetSizingError("bet sizes are positive fractions of the pot")
        if any(size <= 0 for row in self.opens for size in row):
            raise BetSizingError("opening sizes are positive amounts of big blinds")
        if self.max_raises < 0:
            raise BetSizingError("max_raises must be at least 0")
        if self.all_in_pots is not None and not self.all_in_pots > 0:
            raise BetSizingError("all_in_pots must be positive (or None: all-in at any size)")
        if self.count_from not in ("round", "root"):
            raise BetSizingError(f"count_from must be 'round' or 'root', got {self.count_from!r}")

    @classmethod
    def uniform(cls, fractions: Sequence[float] = (0.5, 1.0), all_in: bool = True, max_raises: int = 3) -> BetSizing:
        """The same ``fractions`` for bets and raises in every round, at most ``max_raises``
        raises per round (the abstract games' trees; the default is theirs)."""
        row = tuple(fractions)
        return cls((row,), (row,), all_in, max_raises, "round", None)

    @property
    def is_uniform(self) -> bool:
        """One row of fractions for bets and raises alike, raises counted per round, all-in at
        any size, no sizes in big blinds."""
        return (
            len(self.bets) == 1
            and self.bets == self.raises
            and self.count_from == "round"
            and self.all_in_pots is None
            and not self.opens
        )

    def raise_actions(self, state: HandState, raises_made: int = 0) -> list[Action]:
        """The raises of the tree at ``state``, smallest first, without duplicates;
        ``raises_made``: the raises made since the tree's root (read when ``count_from`` is
        ``"root"``)."""
        legal = state.legal_actions()
        made = state.num_raises() if self.count_from == "round" else raises_made
        if not legal.can_raise or made >= self.max_raises:
            return []
        opens = self.opens[state.round] if state.round < len(self.opens) else ()
        if opens and state.num_raises() == 0:
            big_blind = state.game.big_blind
            sizes = {min(max(round(bb * big_blind), legal.min_raise_to), legal.max_raise_to) for bb in opens}
        else:
            row = min(state.round, len(self.bets) - 1)
            facing_bet = legal.call_amount > 0 or state.num_raises() > 0
            fractions = self.raises[row] if facing_bet else self.bets[row]
            sizes = {pot_raise_to(state, f, legal) for f in fractions}
        if self.all_in and (self.all_in_pots is None or self.all_in_size(state) <= self.all_in_pots):
            sizes.add(legal.max_raise_to)
        return [Action.raise_to(size) for size in sorted(sizes)]

    @staticmethod
    def all_in_size(state: HandState) -> float:
        """The all-in of the player to act in pots: its raise-by over the pot after calling
        (the stack-to-pot ratio after calling; the player must be able to raise)."""
        legal = state.legal_actions()
        return (legal.max_raise_to - state.max_spent) / (state.pot + legal.call_amount)


__all__ = ["BetSizing", "BetSizingError", "CountFrom"]
