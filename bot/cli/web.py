"""``pokerbot web``: serve the web table (see :mod:`pokerbot.bot.human.web`) until Ctrl-C.

The first line on standard output is the page's URL. Exit status: 0 after Ctrl-C, 1 when the
port cannot be bound.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import typer

from pokerbot.bot.cli.outputs import OutputFolderError, prepare_output
from pokerbot.bot.human.web import run_web


def web(
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to serve on (the dealer's seats too)."),
    port: int = typer.Option(8000, "--port", "-p", help="The page's port (0: any free port)."),
    out: Path = typer.Option(Path("web-output"), "--out", "-o", help="Folder for the matches' ACPC logs."),
) -> None:
    """Serve a web page where you take a seat against any strategy, or watch two play."""
    try:
        prepare_output(out, folder=True)
    except OutputFolderError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None

    def ready(url: str) -> None:
        typer.echo(url)
        typer.echo(f"pokerbot web: open {url} in a browser (logs go to {out}/; Ctrl-C stops)", err=True)

    try:
        asyncio.run(run_web(host, port, out, ready))
    except OSError as error:
        typer.echo(f"error: cannot serve on {host}:{port}: {error.strerror or error}", err=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        raise typer.Exit(0) from None
