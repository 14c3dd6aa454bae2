"""``pokerbot game ...``: inspect game definitions."""

from __future__ import annotations

import typer

from pokerbot.bot.cli.errors import fail
from pokerbot.protocol.errors import GameDefinitionError
from pokerbot.protocol.game import BUILTIN_GAMES, format_game, load_game

game_app = typer.Typer(help="Inspect ACPC game definitions.", no_args_is_help=True)


@game_app.command("show")
def show(game: str = typer.Argument(..., help="A built-in game name or a game definition file.")) -> None:
    """Check GAME and print it as an ACPC GAMEDEF block (exit 2 with the problem if invalid)."""
    try:
        typer.echo(format_game(load_game(game)), nl=False)
    except GameDefinitionError as error:
        raise fail(str(error), "GAME") from None


@game_app.command("list")
def list_games() -> None:
    """List the built-in games."""
    for name in BUILTIN_GAMES:
        definition = load_game(name)
        typer.echo(
            f"{name:<20} {definition.num_players} players, {definition.betting}, "
            f"{definition.num_rounds} rounds, {len(definition.deck)} cards"
        )
