"""``pokerbot web``: serve the web table (see :mod:`pokerbot.bot.human.web`) until Ctrl-C.

The first line on standard output is the page's URL. Exit status: 0 after Ctrl-C, 1 when the
port cannot be bound, 2 for a bad port or folder. A folder the server made for the logs is
removed again when it stops with no match played.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import typer

from pokerbot.bot.cli.errors import FAILED, fail
from pokerbot.bot.cli.outputs import OutputFolderError, prepare_output, remove_empty
from pokerbot.bot.human.web import run_web

MAX_PORT = 65535


def web(
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to serve on (the dealer's seats too)."),
    port: int = typer.Option(8000, "--port", "-p", help="The page's port (0: any free port)."),
    out: Path = typer.Option(Path("web-output"), "--out", "-o", help="Folder for the matches' ACPC logs."),
) -> None:
    """Serve a web page where you take a seat against any strategy, or watch two play."""
    if not 0 <= port <= MAX_PORT:
        raise fail(f"the page's port is a number in 0..{MAX_PORT} (0: any free port), got {port}", "--port")
    created: list[Path] = []
    try:
        prepare_output(out, folder=True, created=created)
    except OutputFolderError as error:
        raise fail(str(error), "--out") from None

    def ready(url: str) -> None:
        typer.echo(url)
        typer.echo(f"pokerbot web: open {url} in a browser (logs go to {out}/; Ctrl-C stops)", err=True)

    try:
        asyncio.run(run_web(host, port, out, ready))
    except OSError as error:
        remove_empty(created)
        raise fail(f"cannot serve on {host}:{port}: {error.strerror or error}", "--port", status=FAILED) from None
    except KeyboardInterrupt:
        remove_empty(created)
        raise typer.Exit(0) from None
