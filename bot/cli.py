"""The ``pokerbot`` command line.

Each command lives in its own module; this file is the table of contents, :data:`COMMANDS`.
A command's module is imported only when that command runs (or its own ``--help`` is
asked for): ``pokerbot --help`` imports none of them, ``pokerbot dealer`` only the dealer,
so a command starts in a fraction of a second instead of loading the models, the solvers,
scipy and matplotlib first. The one-line help of each entry is what ``pokerbot --help``
lists (tests/test_cli.py checks it against the command's own help).

Exit status: 0 on success, 1 when a check finds disagreements, 2 on bad usage or input (the
message says what and where).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup


@dataclass(frozen=True)
class CommandEntry:
    """Where a command lives: ``module``'s ``attribute`` is a Typer app (a command group) or
    a command function; ``context`` names a module attribute holding its context settings."""

    module: str
    attribute: str
    help: str
    """The line ``pokerbot --help`` shows (the command's own short help)."""
    context: str | None = None


COMMANDS: dict[str, CommandEntry] = {
    "match": CommandEntry(
        "pokerbot.bot.match_cli",
        "match_command",
        "Play a match between strategies (by registry name) and report the winnings.",
        context="MATCH_CONTEXT_SETTINGS",
    ),
    "dealer": CommandEntry(
        "pokerbot.bot.dealer_cli",
        "dealer",
        "Run an ACPC match: pokerbot dealer MATCHNAME GAME HANDS SEED NAME1 NAME2 ... [options] (-h for all).",
        context="DEALER_CONTEXT",
    ),
    "play": CommandEntry(
        "pokerbot.bot.play_cli", "play", "Play STRATEGY at a dealer seat until the dealer closes the connection."
    ),
    "solve": CommandEntry(
        "pokerbot.bot.solve_cli",
        "solve",
        "Solve GAME with a CFR-family algorithm and write the average policy to --out.",
    ),
    "exploitability": CommandEntry(
        "pokerbot.bot.solve_cli",
        "exploitability",
        "How much a best response wins against STRATEGY in GAME (exact, or local best response).",
    ),
    "train-prior": CommandEntry(
        "pokerbot.bot.prior_cli",
        "train_prior",
        "Train the opponent-model prior (action and hand-strength trees) from ACPC logs.",
    ),
    "train-rnr": CommandEntry(
        "pokerbot.bot.abstract_cli",
        "train_rnr",
        "Learn seed 001's opponent model (a tree per round) from ACPC logs, for MCRNR.",
    ),
    "kit": CommandEntry(
        "pokerbot.bot.kit_cli",
        "kit_app",
        "Make a competition kit (pokerbot kit OUTDIR ...) or check one (pokerbot kit check OUTDIR).",
    ),
    "web": CommandEntry(
        "pokerbot.bot.web_cli",
        "web",
        "Serve a web page where you take a seat against any strategy, or watch two play.",
    ),
    "log": CommandEntry(
        "pokerbot.bot.log_cli", "log_app", "Check and convert hand histories (ACPC logs, PHH, PokerStars)."
    ),
    "game": CommandEntry("pokerbot.bot.game_cli", "game_app", "Inspect ACPC game definitions."),
    "experiment": CommandEntry(
        "pokerbot.bot.experiments.cli", "experiment_app", "Experiments that measure pokerbot's components."
    ),
}
"""Every ``pokerbot`` command by name, in the order ``pokerbot --help`` lists them."""


def load_command(name: str) -> Any:
    """The click command of ``name`` (importing its module); KeyError for an unknown name."""
    entry = COMMANDS[name]
    module = importlib.import_module(entry.module)
    target = getattr(module, entry.attribute)
    if isinstance(target, typer.Typer):
        group = typer.main.get_group(target)
        group.name = name
        return group
    context = getattr(module, entry.context) if entry.context else None
    holder = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    holder.command(name, context_settings=context)(target)
    command = typer.main.get_command(holder)
    command.name = name
    return command


class LazyGroup(TyperGroup):
    """A command group that imports a command's module only when that command is used.

    While the group's own help is printed, :meth:`get_command` answers with a stand-in that
    carries only the entry's one-line help, so listing the commands imports nothing.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._loaded: dict[str, Any] = {}
        self._listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        """The commands in table order (then any registered directly)."""
        return [*COMMANDS, *(name for name in super().list_commands(ctx) if name not in COMMANDS)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command ``cmd_name``: a help-only stand-in while listing, else the real one."""
        if cmd_name not in COMMANDS:
            return super().get_command(ctx, cmd_name)
        if self._listing:
            return TyperCommand(cmd_name, help=COMMANDS[cmd_name].help)
        if cmd_name not in self._loaded:
            self._loaded[cmd_name] = load_command(cmd_name)
        return self._loaded[cmd_name]

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """The group's help, listing the commands without importing them."""
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


app = typer.Typer(
    name="pokerbot",
    cls=LazyGroup,
    help="An adaptive poker agent for the ACPC match-state protocol 2.0.0.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def pokerbot() -> None:
    """An adaptive poker agent for the ACPC match-state protocol 2.0.0."""


def main() -> None:
    """Entry point of the ``pokerbot`` console script."""
    app()


if __name__ == "__main__":
    main()
