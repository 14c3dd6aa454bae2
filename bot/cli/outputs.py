"""Output files of the commands: folders made before the work starts, and where files went.

Every command that writes files creates the folders it needs before it starts working (so a
missing folder never costs a finished match or run), and names each file it wrote, one line
each on standard error (``wrote PATH``), so that standard output keeps only the results.
A report asked for with ``--json OUT`` goes to the file ``OUT`` (``-``: standard output),
through :func:`write_json_report`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import typer


def fail(message: str, status: int = 2) -> typer.Exit:
    """Print ``error: message`` on standard error, one line; the exit (status 2: bad input) for
    the command to raise. Every command reports bad input through it."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(status)


class OutputFolderError(OSError):
    """A folder for an output file cannot be created (the message names it and why)."""


def prepare_output(path: Path | None, *, folder: bool = False) -> Path | None:
    """Create the folder ``path`` will be written in (``path`` itself when ``folder``); returns
    ``path``. Raises :class:`OutputFolderError` with a one-line message."""
    if path is None:
        return None
    target = path if folder else path.parent
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputFolderError(f"cannot create the folder {target} for {path}: {error.strerror or error}") from None
    if not folder and path.is_dir():
        raise OutputFolderError(f"{path} is a folder; give a file name")
    return path


def announce(paths: Iterable[Path | None]) -> None:
    """Print ``wrote PATH`` on standard error for each written file (None entries skipped)."""
    for path in paths:
        if path is not None:
            typer.echo(f"wrote {path}", err=True)


def write_json_report(data: dict[str, object], json_out: str) -> None:
    """Print ``data`` as JSON (``json_out`` is ``-``) or write it to the file ``json_out``."""
    text = json.dumps(data, indent=2)
    if json_out == "-":
        typer.echo(text)
        return
    path = Path(json_out)
    try:
        path.write_text(text + "\n", encoding="utf-8")
    except OSError as error:
        raise fail(f"cannot write {json_out}: {error}") from None
    announce([path])


__all__ = ["OutputFolderError", "announce", "prepare_output", "write_json_report"]
