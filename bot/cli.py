"""The ``pokerbot`` command line.

Each command lives in its own module and is registered here, so this file stays a table of
contents. Exit status: 0 on success, 1 when a check finds disagreements, 2 on bad usage or
input (the message says what and where).
"""

from __future__ import annotations

import typer

from bot.log_cli import log_app

app = typer.Typer(
    name="pokerbot",
    help="An adaptive poker agent for the ACPC match-state protocol 2.0.0.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(log_app, name="log")


def main() -> None:
    """Entry point of the ``pokerbot`` console script."""
    app()


if __name__ == "__main__":
    main()
