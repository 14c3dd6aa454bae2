"""Output files of the commands: folders made before the work starts, and where files went.

Every command that writes files creates the folders it needs before it starts working (so a
missing folder never costs a finished match or run), and names each file it wrote, one line
each on standard error (``wrote PATH``), so that standard output keeps only the results.
A report asked for with ``--json OUT`` goes to the file ``OUT`` (``-``: standard output),
through :func:`write_json_report`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from pokerbot.bot.cli.errors import fail

if TYPE_CHECKING:
    from rich.table import Table


class OutputFolderError(OSError):
    """A folder for an output file cannot be created (the message names it and why)."""


def prepare_output(path: Path | None, *, folder: bool = False, created: list[Path] | None = None) -> Path | None:
    """Create the folder ``path`` will be written in (``path`` itself when ``folder``); returns
    ``path``. The folders made are appended to ``created`` (innermost first), for
    :func:`remove_empty` after a failure. Raises :class:`OutputFolderError` with a one-line
    message."""
    if path is None:
        return None
    target = path if folder else path.parent
    missing = [target, *target.parents]
    missing = missing[: next((index for index, folder_ in enumerate(missing) if folder_.exists()), len(missing))]
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputFolderError(f"cannot create the folder {target} for {path}: {error.strerror or error}") from None
    if created is not None:
        created.extend(missing)
    if not folder and path.is_dir():
        raise OutputFolderError(f"{path} is a folder; give a file name")
    return path


def remove_empty(folders: Iterable[Path]) -> None:
    """Remove each of ``folders`` (innermost first) that is still empty: what a failed command
    made and never wrote in."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:  # not empty (a log of the hands played), or gone
            return


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
        raise fail(f"cannot write {json_out}: {error.strerror or error}", "--json") from None
    announce([path])


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 hand``, ``2 hands`` (``nouns``: the plural when it is not ``noun + "s"``)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def print_table(table: Table, *, err: bool = False) -> None:
    """Print ``table`` on standard output (standard error with ``err``) without cutting a
    column: a terminal's width where it fits, else the table's full width (in a file or a
    pipe, where there is no width to respect, the table is never cut to 80 columns)."""
    from rich.console import Console

    console = Console(stderr=err)
    if not console.is_terminal:
        wide = Console(stderr=err, width=10_000)
        needed = wide.measure(table).maximum
        console = Console(stderr=err, width=max(needed, console.width))
    console.print(table)


def shown_names(strategies: Sequence[str]) -> list[str]:
    """The players as the user typed them (``adaptive:200nodes``), a repeat numbered
    (``random``, ``random (2)``): what tables show (the log's names are made safe for it)."""
    seen: dict[str, int] = {}
    shown = []
    for strategy in strategies:
        seen[strategy] = seen.get(strategy, 0) + 1
        shown.append(strategy if seen[strategy] == 1 else f"{strategy} ({seen[strategy]})")
    return shown


__all__ = [
    "shown_names",
    "OutputFolderError",
    "announce",
    "plural",
    "prepare_output",
    "print_table",
    "remove_empty",
    "write_json_report",
]
