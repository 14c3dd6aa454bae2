"""The ``pokerbot`` command line.

Each command lives in its own module; this file is the table of contents, :data:`COMMANDS`.
A command's module is imported only when that command runs (or its own ``--help`` is
asked for): ``pokerbot --help`` imports none of them, ``pokerbot dealer`` only the dealer,
so a command starts in a fraction of a second instead of loading the models, the solvers,
scipy and matplotlib first. A raw-argv command (the dealer, which parses the reference's
command line itself) does not even import Typer: :func:`main` calls it directly, and the
Typer application (:mod:`pokerbot.bot.cli_app`) is built only for the other commands.
The one-line help of each entry is what ``pokerbot --help`` lists (tests/test_cli.py checks
it against the command's own help).

Exit status: 0 on success, 1 when a check finds disagreements, 2 on bad usage or input (the
message says what and where).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CommandEntry:
    """Where a command lives: ``module``'s ``attribute`` is a Typer app (a command group) or
    a command function; ``context`` names a module attribute holding its context settings."""

    module: str
    attribute: str
    help: str
    """The line ``pokerbot --help`` shows (the command's own short help)."""
    context: str | None = None
    raw_argv: bool = False
    """``attribute`` is ``run(argv: list[str]) -> int`` (exit status) that parses its own
    command line, as the reference's tools do; ``pokerbot NAME ...`` calls it without Typer."""


COMMANDS: dict[str, CommandEntry] = {
    "match": CommandEntry(
        "pokerbot.bot.match_cli",
        "match_command",
        "Play a match between strategies (by registry name) and report the winnings.",
        context="MATCH_CONTEXT_SETTINGS",
    ),
    "tournament": CommandEntry(
        "pokerbot.bot.tournament_cli",
        "tournament_command",
        "Play a round-robin tournament of heads-up strategies in parallel; print the cross-table.",
        context="TOURNAMENT_CONTEXT",
    ),
    "dealer": CommandEntry(
        "pokerbot.bot.dealer_cli",
        "run_dealer",
        "Run an ACPC match: pokerbot dealer MATCHNAME GAME HANDS SEED NAME1 NAME2 ... [options] (-h for all).",
        raw_argv=True,
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


def __getattr__(name: str) -> Any:
    """``app``, ``load_command`` and ``LazyGroup`` (module :mod:`pokerbot.bot.cli_app`), imported
    on first use: a raw-argv command such as the dealer starts without Typer."""
    if name in ("app", "load_command", "LazyGroup"):
        from pokerbot.bot import cli_app

        return getattr(cli_app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Entry point of the ``pokerbot`` console script."""
    argv = sys.argv[1:]
    entry = COMMANDS.get(argv[0]) if argv else None
    if entry is not None and entry.raw_argv:
        import importlib

        run = getattr(importlib.import_module(entry.module), entry.attribute)
        raise SystemExit(run(argv[1:]))
    from pokerbot.bot.cli_app import app

    app()


if __name__ == "__main__":
    main()
