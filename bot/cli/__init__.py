"""The ``pokerbot`` command line: :func:`main`, the table of commands
(:mod:`pokerbot.bot.cli.commands`), the Typer application (:mod:`pokerbot.bot.cli.app`) and one
module per command.

Exit status: 0 on success, 1 when a check finds disagreements or a run fails, 2 on bad usage
or input. Every error is one line on standard error, ``pokerbot: error: WHAT (WHERE)``
(:mod:`pokerbot.bot.cli.errors`); no input prints a traceback. An unexpected exception (a bug)
is one such line too, naming the file that keeps its traceback.
"""

from __future__ import annotations

import sys

from pokerbot.bot.cli.commands import COMMANDS

TRACEBACK_VARIABLE = "POKERBOT_TRACEBACK"
"""Set (to anything) in the environment, an unexpected exception prints its traceback."""


def main() -> None:
    """Entry point of the ``pokerbot`` console script (and of ``python -m pokerbot.bot.cli``)."""
    argv = sys.argv[1:]
    try:
        entry = COMMANDS.get(argv[0]) if argv else None
        if entry is not None and entry.raw_argv:
            import importlib

            run = getattr(importlib.import_module(entry.module), entry.attribute)
            raise SystemExit(run(argv[1:]))
        from pokerbot.bot.cli.app import app  # Typer is imported only for the commands that use it

        app(prog_name="pokerbot")
    except SystemExit as done:
        play = sys.modules.get("pokerbot.bot.cli.play")
        if play is not None and play.MATCH_PLAYED.is_set():
            _leave_now(done.code)
        raise
    except Exception as error:
        raise SystemExit(_unexpected(error, argv)) from None


def _leave_now(code: object) -> None:
    """End the process with exit status ``code`` (as SystemExit takes it) once its output is
    flushed, without the interpreter's teardown: after a match, ``pokerbot play`` leaves at once,
    where freeing a strategy's models one object at a time took most of a second."""
    import logging
    import os

    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed or broken stream: nothing more can be said
            pass
    os._exit(code or 0)


def _unexpected(error: Exception, argv: list[str]) -> int:
    """Report a bug in one line, its traceback kept in a file (printed instead when
    ``POKERBOT_TRACEBACK`` is set); exit status 1."""
    import os
    import tempfile
    import traceback

    from pokerbot.bot.cli.errors import FAILED, print_error

    if os.environ.get(TRACEBACK_VARIABLE):
        traceback.print_exc()
        return FAILED
    command = " ".join(["pokerbot", *argv[:1]])
    try:
        with tempfile.NamedTemporaryFile("w", prefix="pokerbot-traceback-", suffix=".txt", delete=False) as kept:
            kept.write(f"{command} {' '.join(argv[1:])}\n\n{traceback.format_exc()}")
        where = f"{command}; the traceback is in {kept.name}"
    except OSError:
        where = f"{command}; {TRACEBACK_VARIABLE}=1 prints the traceback"
    print_error(f"unexpected {type(error).__name__}: {error}; please report it", where)
    return FAILED
