"""A human seat in a terminal: ``pokerbot play --human``.

:class:`TerminalHuman` is a strategy whose decisions are typed by a person. At each turn it
prints the table (:mod:`pokerbot.bot.human.table`: the cards you may see, the board, the pot, every
position's chips in the pot and behind, the history of the hand by round) and the legal
actions with their amounts, then reads a line; what is typed is judged by the protocol
engine (``HandState.verify``) and asked again, with the reason, when it is not a legal
action. After every hand it prints the result (showdown cards, chips won) and the running
total. It runs in the client's worker thread, so reading standard input blocks nobody.

Amounts are in chips (and big blinds where that helps); a raise is a raise TO.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from pokerbot.bot.human.table import TableView, TypedActionError, describe, parse_typed_action, round_name
from pokerbot.protocol.actions import CALL, Action
from pokerbot.protocol.game import Game
from pokerbot.protocol.matchlog import format_value
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy

PROMPT = "your action> "


def _who(position: int, viewer: int | None) -> str:
    return "you" if position == viewer else f"P{position + 1}"


def _chips(amount: float, big_blind: int) -> str:
    if big_blind <= 1:
        return f"{format_value(amount)}"
    return f"{format_value(amount)} ({amount / big_blind:+.1f} bb)" if amount else "0"


def render_table(view: TableView, game: Game) -> list[str]:
    """The table as plain text lines: header, board and pot, seats, history, legal actions."""
    viewer = view.viewer
    lines = [
        f"=== hand {view.hand_number + 1}, {view.round_name} === you are P{(viewer or 0) + 1}",
        f"board: {' '.join(view.board) or '-'}    pot: {view.pot}",
    ]
    for seat in view.seats:
        cards = " ".join(seat.cards) if seat.cards else " ".join(["??"] * game.num_hole_cards)
        behind = "unlimited" if seat.behind is None else str(seat.behind)
        state = " folded" if seat.folded else (" all-in" if seat.all_in else "")
        marker = "->" if view.to_act == seat.position else "  "
        lines.append(
            f"{marker} {_who(seat.position, viewer):>4}  {cards:<10} in pot {seat.in_pot:>6}  behind {behind}{state}"
        )
    by_round: dict[int, list[str]] = {}
    for step in view.history:
        by_round.setdefault(step.round, []).append(f"{_who(step.position, viewer)} {step.words}")
    for round_index, words in sorted(by_round.items()):
        lines.append(f"   {round_name(game, round_index)}: {', '.join(words)}")
    choices = view.choices
    if choices is not None and view.to_act == viewer:
        options = []
        if choices.can_fold:
            options.append("f = fold")
        options.append(f"c = call {choices.call_amount}" if choices.call_amount else "c = check")
        if choices.can_raise:
            verb = choices.raise_word
            if choices.nolimit:
                options.append(f"r AMOUNT = {verb} to {choices.min_raise_to}..{choices.max_raise_to}")
                options.append(f"a = all-in ({verb} to {choices.max_raise_to})")
            else:
                options.append(f"r = {verb} to {choices.min_raise_to}")
        lines.append("legal: " + "; ".join(options))
    return lines


def render_result(view: TableView, game: Game, total: float, hands: int) -> list[str]:
    """The end of a hand: every card shown, the board, what each position won, the total."""
    viewer = view.viewer
    shown = []
    for seat in view.seats:
        if seat.cards and not seat.folded:
            shown.append(f"{_who(seat.position, viewer)} {' '.join(seat.cards)}")
        elif seat.folded:
            shown.append(f"{_who(seat.position, viewer)} folded")
    lines = [f"--- hand {view.hand_number + 1} over: {', '.join(shown)}; board {' '.join(view.board) or '-'}"]
    if view.values is not None and viewer is not None:
        mine = view.values[viewer]
        outcome = "won" if mine > 0 else ("lost" if mine < 0 else "broke even,")
        lines.append(f"    you {outcome} {_chips(abs(mine), game.big_blind)} chips")
    lines.append(f"    running total: {_chips(total, game.big_blind)} chips after {hands} hands")
    return lines


class TerminalHuman(Strategy):
    """A person at a terminal (see the module docstring). ``read_line`` reads one typed line
    (default: standard input; EOF ends the input, and the seat then checks or calls)."""

    name = "human"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        *,
        read_line: Callable[[str], str] | None = None,
        out: TextIO | None = None,
    ) -> None:
        super().__init__(game, seed)
        self._read_line = read_line or _read_stdin
        self._out = out or sys.stdout
        self.total = 0.0
        self.hands = 0

    def _print(self, lines: list[str]) -> None:
        self._out.write("\n".join(lines) + "\n")
        self._out.flush()

    def decide(self, view: MatchState, deadline: float) -> Action:
        """Show the table, then read lines until one is a legal action."""
        state = view.state
        self._print(["", *render_table(describe(state, view.hand_number, view.position), self.game)])
        while True:
            try:
                text = self._read_line(PROMPT)
            except EOFError:
                self._print(["(no more input: checking or calling)"])
                return CALL
            try:
                return parse_typed_action(text, state)
            except TypedActionError as error:
                self._print([f"not allowed: {error}"])

    def observe(self, view: MatchState) -> None:
        """Print the hand's result and the running total."""
        table = describe(view.state, view.hand_number, view.position)
        if table.values is not None:
            self.total += table.values[view.position]
        self.hands += 1
        self._print(render_result(table, self.game, self.total, self.hands))


def _read_stdin(prompt: str) -> str:
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line


__all__ = ["PROMPT", "TerminalHuman", "render_result", "render_table"]
