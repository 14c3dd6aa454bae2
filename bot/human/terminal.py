"""A human seat in a terminal: ``pokerbot play --human``.

:class:`TerminalHuman` is a strategy whose decisions are typed by a person. At each turn it
prints the table (:mod:`pokerbot.bot.human.table`): every seat with its name, the dealer
button and its blind or ante, its cards as far as you may see them, what it has bet in this
round and its stack; the board and the pot; the hand's actions by round in the words players
use ("bet 100", "raise to 600"); and your options with their amounts and the usual bet
sizes. It then reads a line; what is typed is judged by the protocol engine and asked again,
with the reason, when it is not a legal action. After every hand it prints what each player
showed and what their hands make, what you won or lost, and the running total. It runs in
the client's worker thread, so reading standard input blocks nobody.

Amounts are in chips, counted within the round as players count them (``r 600``: raise to
600 on this street); results also in big blinds (antes in Kuhn and Leduc).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from pokerbot.bot.human.table import Choices, TableView, TypedActionError, describe, parse_typed_action, round_name
from pokerbot.protocol.actions import CALL, Action
from pokerbot.protocol.game import Game
from pokerbot.protocol.matchlog import format_value
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy

PROMPT = "your action> "


def stake(amount: float, game: Game, *, signed: bool = True) -> str:
    """``amount`` chips in the game's unit: ``+4.0 bb`` (big blinds), ``+2 antes``; unsigned
    (a size, after "won" or "lost") when ``signed`` is False."""
    unit = game.big_blind or 1
    count = amount / unit
    text = f"{count:+g}" if signed else f"{abs(count):g}"
    if game.has_antes:
        return f"{text} ante" + ("" if abs(count) == 1 else "s")
    text = f"{count:+.1f}" if signed else f"{abs(count):.1f}"
    return f"{text} bb"


def _seat_line(view: TableView, position: int, game: Game, width: int) -> str:
    seat = view.seats[position]
    cards = " ".join(seat.cards) if seat.cards else " ".join(["??"] * game.num_hole_cards)
    bet = f"bet {seat.in_round}" if seat.in_round else ""
    stack = "" if seat.behind is None else f"stack {format_value(seat.behind)}"
    labels = [label for label in ("button" if seat.button else None, seat.blind) if label]
    state = "folded" if seat.folded else ("all-in" if seat.all_in else "")
    marker = "->" if view.to_act == position else "  "
    parts = [f"{marker} {seat.name:<{width}}", f"{cards:<11}", f"{bet:<10}", f"{stack:<12}"]
    if state:
        parts.append(state)
    if labels:
        parts.append(f"({', '.join(labels)})")
    return "  ".join(parts).rstrip()


def options_line(choices: Choices) -> str:
    """Your legal actions and how to type them, amounts within the round."""
    options = []
    if choices.can_fold:
        options.append("f = fold")
    options.append(f"c = call {choices.call_amount}" if choices.call_amount else "c = check")
    if choices.can_raise:
        if choices.nolimit:
            if choices.raise_word == "raise":
                options.append(f"r N = raise to N ({choices.min_amount}..{choices.max_amount})")
            else:
                options.append(f"b N = bet N ({choices.min_amount}..{choices.max_amount})")
            options.append(f"a = all-in ({_verb(choices)} {choices.max_amount})")
        else:
            letter = "r" if choices.raise_word == "raise" else "b"
            options.append(f"{letter} = {_verb(choices)} {choices.min_amount}")
    return "your options: " + "; ".join(options)


def _verb(choices: Choices) -> str:
    return "raise to" if choices.raise_word == "raise" else "bet"


def render_table(view: TableView, game: Game) -> list[str]:
    """The table as plain text lines: the hand, the seats, board and pot, the actions by
    round, and (on your turn) your options."""
    width = max(len(seat.name) for seat in view.seats)
    lines = [f"=== hand {view.hand_number + 1}, {view.round_name} ==="]
    lines += [_seat_line(view, position, game, width) for position in range(game.num_players)]
    lines.append(f"   board: {' '.join(view.board) or '-'}    pot: {view.pot}")
    by_round: dict[int, list[str]] = {}
    for step in view.history:
        by_round.setdefault(step.round, []).append(step.text)
    for round_index, words in sorted(by_round.items()):
        lines.append(f"   {round_name(game, round_index)}: {', '.join(words)}")
    choices = view.choices
    if choices is not None and view.to_act == view.viewer:
        lines.append(options_line(choices))
        if choices.sizes:
            letter = "r" if choices.raise_word == "raise" else "b"
            sizes = [f"{label} = {letter} {amount}" for label, amount in choices.sizes if label != "all-in"]
            if sizes:
                lines.append(f"   sizes: {'; '.join(sizes)}")
    return lines


def render_result(view: TableView, game: Game, total: float, hands: int) -> list[str]:
    """The end of a hand: what each player showed (and what it makes), the board, what you
    won or lost, and the running total."""
    shown = []
    for seat in view.seats:
        if seat.folded:
            shown.append(f"{seat.name} folded")
        elif seat.cards and view.showdown:
            shown.append(f"{seat.name} {' '.join(seat.cards)}" + (f", {seat.hand}" if seat.hand else ""))
    board = f"; board {' '.join(view.board)}" if view.board else ""
    how = "showdown" if view.showdown else "no showdown"
    lines = [f"--- hand {view.hand_number + 1} over ({how}): {'; '.join(shown)}{board}"]
    if view.returned and view.returned_to is not None:
        lines.append(f"    uncalled bet of {view.returned} returned to {view.seats[view.returned_to].name}")
    if view.values is not None and len(view.winners) > 1:
        lines.append(f"    {' and '.join(view.seats[p].name for p in view.winners)} split the pot of {view.pot}")
    elif view.values is not None and view.winners:
        winner = view.seats[view.winners[0]]
        verb = "win" if winner.name == "you" else "wins"
        lines.append(
            f"    {winner.name} {verb} the pot of {view.pot}" + (f" with {winner.hand}" if winner.hand else "")
        )
    if view.values is not None and view.viewer is not None:
        mine = view.values[view.viewer]
        if mine == 0 and view.viewer in view.winners:
            lines.append("    you split the pot: no chips won or lost")
        elif mine > 0:
            lines.append(f"    you won {format_value(mine)} chips ({stake(mine, game)})")
        elif mine < 0:
            lines.append(f"    you lost {format_value(-mine)} chips ({stake(mine, game, signed=False)})")
        else:
            lines.append("    you neither won nor lost chips")
    lines.append(f"    {running_total(total, hands, game)}")
    return lines


def running_total(total: float, hands: int, game: Game) -> str:
    """``running total: X chips (Y bb) after N hands``: what the person has won so far."""
    played = f"{hands} hand" + ("" if hands == 1 else "s")
    return f"running total: {format_value(total)} chips ({stake(total, game)}) after {played}"


class TerminalHuman(Strategy):
    """A person at a terminal (see the module docstring). ``names``: the players in seat
    order, as the dealer was given them (shown instead of ``opponent``); ``read_line``
    reads one typed line (default: standard input; EOF ends the input, and the seat then
    checks or calls)."""

    name = "human"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        *,
        names: Sequence[str] | None = None,
        read_line: Callable[[str], str] | None = None,
        out: TextIO | None = None,
    ) -> None:
        super().__init__(game, seed)
        self.names = list(names) if names is not None else None
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
        self._print(["", *render_table(describe(state, view.hand_number, view.position, self.names), self.game)])
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

    def tally(self) -> str:
        """The running total of the hands finished so far (said when the person stops)."""
        return running_total(self.total, self.hands, self.game)

    def observe(self, view: MatchState) -> None:
        """Print the hand's result and the running total."""
        table = describe(view.state, view.hand_number, view.position, self.names)
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


__all__ = ["PROMPT", "TerminalHuman", "options_line", "render_result", "render_table", "running_total", "stake"]
