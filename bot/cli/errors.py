"""One error style for every command: ``pokerbot: error: WHAT (WHERE)``, one line on standard error.

WHAT says what is wrong, WHERE what on the command line it is about: the command and, when
known, the option, argument or file (``pokerbot play --port``, ``pokerbot log check
match.log, line 5``). The exit status is :data:`BAD_INPUT` (2) for input a user can correct
and :data:`FAILED` (1) for a failure while running. Commands report through :func:`fail`; a
click usage error (an unknown option, a value of the wrong type) is turned into the same line
by :func:`usage_error` (see :class:`pokerbot.bot.cli.app.LazyGroup`), and the dealer, which
parses its own command line, prints :func:`error_line` itself.

This module imports neither click nor Typer at import time: the dealer uses it without them.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

PROGRAM = "pokerbot"
BAD_INPUT = 2
"""Exit status for input the user can correct (usage, values, files)."""
FAILED = 1
"""Exit status for a failure while running (a dealer gone, a match broken off, a disk full)."""
INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), once what was done is reported and written."""


def error_line(what: str, where: str | None = None) -> str:
    """``pokerbot: error: WHAT (WHERE)`` on one line (WHERE left out when None or empty)."""
    what = " ".join(what.split()) or "unknown error"
    return f"{PROGRAM}: error: {what}" + (f" ({where})" if where else "")


def print_error(what: str, where: str | None = None) -> None:
    """Print :func:`error_line` on standard error."""
    print(error_line(what, where), file=sys.stderr, flush=True)


def click_module() -> ModuleType:
    """The click that Typer runs on: its private copy (``typer._click``, Typer 0.20 and later)
    or the ``click`` package."""
    try:
        import typer._click as vendored

        return vendored
    except ImportError:  # an older Typer, on the click package
        import click

        return click


def command_path() -> str | None:
    """The running command's path (``pokerbot log check``), or None outside a command."""
    if "typer" not in sys.modules:
        return None
    context = click_module().globals.get_current_context(silent=True)
    return context.command_path if context is not None else None


def locate(where: str | None = None, command: str | None = None) -> str | None:
    """WHERE: the command (``command`` or the running one), then ``where`` when given."""
    command = command or command_path()
    parts = [part for part in (command, where) if part]
    return " ".join(parts) or None


def fail(what: str, where: str | None = None, status: int = BAD_INPUT) -> Exception:
    """Print ``pokerbot: error: WHAT (COMMAND WHERE)`` and return the exit (``typer.Exit``;
    status 2: bad input, 1: a failure while running) for the command to raise."""
    import typer

    print_error(what, locate(where))
    return typer.Exit(status)


def _sentence(text: str) -> str:
    """``Missing option '--out'.`` as ``missing option '--out'``: a clause, not a sentence."""
    text = text.strip().rstrip(".")
    return text[:1].lower() + text[1:] if text[1:2].islower() or len(text) == 1 else text


def parameter_name(parameter: Any) -> str:
    """How the command line spells ``parameter``: its longest option (``--hands``) or its
    argument's name (``LOGFILE``)."""
    options = [
        opt for opt in (*getattr(parameter, "opts", ()), *getattr(parameter, "secondary_opts", ())) if opt[:1] == "-"
    ]
    if options:
        return max(options, key=len)
    name = getattr(parameter, "metavar", None) or getattr(parameter, "name", None) or "argument"
    return str(name).strip("{}").upper()


_PYDANTIC_WORDS = {
    "int_parsing": "{input!r} is not a whole number",
    "int_from_float": "{input!r} is not a whole number",
    "float_parsing": "{input!r} is not a number",
    "bool_parsing": "{input!r} is not true or false",
    "enum": "{input!r} is not one of {expected}",
    "literal_error": "{input!r} is not one of {expected}",
}


def _value_problem(error: Any) -> str:
    """What is wrong with a value Typer could not convert: from the validation error behind
    it when there is one (the value as typed, in plain words), else the message."""
    cause = error.__cause__
    problems = cause.errors() if hasattr(cause, "errors") else []
    if not problems:
        return _sentence(error.message)
    problem = problems[0]
    template = _PYDANTIC_WORDS.get(problem.get("type", ""))
    if template is not None:
        expected = (problem.get("ctx") or {}).get("expected", "the choices")
        return template.format(input=problem.get("input"), expected=expected)
    message = str(problem.get("msg", error.message))
    for prefix in ("Value error, ", "Assertion failed, "):
        message = message.removeprefix(prefix)
    return _sentence(message)


def usage_error(error: Any) -> tuple[str, str | None]:
    """WHAT and WHERE of a click exception: a usage error (a bad or missing value, an unknown
    option or command, an extra argument) or another one."""
    exceptions = click_module().exceptions
    BadParameter, MissingParameter = exceptions.BadParameter, exceptions.MissingParameter
    unknown = tuple(
        getattr(exceptions, name) for name in ("NoSuchOption", "NoSuchCommand") if hasattr(exceptions, name)
    )

    context = getattr(error, "ctx", None)
    command = context.command_path if context is not None else PROGRAM
    parameter = getattr(error, "param", None)
    if isinstance(error, MissingParameter):
        kind = error.param_type or getattr(parameter, "param_type_name", None) or "value"
        return f"missing {kind}", locate(parameter_name(parameter) if parameter else None, command)
    if isinstance(error, BadParameter):
        hint = parameter_name(parameter) if parameter is not None else None
        return _value_problem(error), locate(hint, command)
    if isinstance(error, unknown):
        what = _sentence(error.message)
        if getattr(error, "possibilities", None):
            what += f"; did you mean {' or '.join(error.possibilities)}?"
        return what, command
    return _sentence(error.format_message()), command


__all__ = [
    "BAD_INPUT",
    "FAILED",
    "PROGRAM",
    "click_module",
    "command_path",
    "error_line",
    "fail",
    "locate",
    "parameter_name",
    "print_error",
    "usage_error",
]
