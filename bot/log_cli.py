"""``pokerbot log ...``: tools for ACPC match logs."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from pokerbot.bot.aivat_cli import aivat_command
from pokerbot.protocol.errors import GameDefinitionError
from pokerbot.protocol.game import load_game
from pokerbot.protocol.matchlog import check_log, format_value

log_app = typer.Typer(help="Tools for ACPC match logs.", no_args_is_help=True)


@log_app.command("check")
def check(
    logfile: Path = typer.Argument(..., help="An ACPC match log (the dealer's MATCHNAME.log)."),
    game: str = typer.Option(..., "--game", "-g", help="A built-in game name or a game definition file."),
) -> None:
    """Replay every hand of LOGFILE through the engine and check it.

    Checks legality, cards (no duplicates, right counts), every logged value and the SCORE
    line; prints per-player totals, hands and mbb/hand. Exit 0 when everything agrees, 1
    with the line numbers of the disagreements otherwise, 2 when the input cannot be read.
    """
    console = Console()
    errors = Console(stderr=True)
    try:
        game_definition = load_game(game)
    except GameDefinitionError as error:
        errors.print(f"error: {error}", markup=False)
        raise typer.Exit(2) from None
    try:
        with logfile.open(encoding="utf-8", errors="replace") as lines:
            report = check_log(lines, game_definition)
    except OSError as error:
        errors.print(f"error: cannot read {logfile}: {error.strerror}", markup=False)
        raise typer.Exit(2) from None

    big_blind = game_definition.big_blind
    table = Table(title=f"{logfile.name}: {report.hands} hands (big blind {big_blind} chips)")
    table.add_column("player")
    table.add_column("total (chips)", justify="right")
    table.add_column("mbb/hand", justify="right")
    names = list(report.score.names) if report.score else sorted(report.totals)
    for name in names:
        total = report.totals.get(name, 0.0)
        per_hand = 1000.0 * total / big_blind / report.hands if report.hands else 0.0
        table.add_row(name, format_value(total), f"{per_hand:.1f}")
    console.print(table)
    if report.ok:
        console.print("OK: every hand is legal, every value and the SCORE line agree.", markup=False)
        return
    for problem in report.problems:
        errors.print(f"{logfile}: {problem}", markup=False, soft_wrap=True)
    raise typer.Exit(1)


log_app.command("aivat")(aivat_command)
