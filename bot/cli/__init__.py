"""The ``pokerbot`` command line: :func:`main`, the table of commands
(:mod:`pokerbot.bot.cli.commands`), the Typer application (:mod:`pokerbot.bot.cli.app`) and one
module per command.

Exit status: 0 on success, 1 when a check finds disagreements, 2 on bad usage or input (the
message says what and where).
"""

from __future__ import annotations

import sys

from pokerbot.bot.cli.commands import COMMANDS


def main() -> None:
    """Entry point of the ``pokerbot`` console script (and of ``python -m pokerbot.bot.cli``)."""
    argv = sys.argv[1:]
    entry = COMMANDS.get(argv[0]) if argv else None
    if entry is not None and entry.raw_argv:
        import importlib

        run = getattr(importlib.import_module(entry.module), entry.attribute)
        raise SystemExit(run(argv[1:]))
    from pokerbot.bot.cli.app import app  # Typer is imported only for the commands that use it

    app()
