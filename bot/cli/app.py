"""The Typer application behind ``pokerbot`` (the table of commands is :data:`pokerbot.bot.cli.commands.COMMANDS`).

Imported only when a command that uses Typer runs: a raw-argv command (the dealer) is called
by :func:`pokerbot.bot.cli.main` directly, without paying for Typer and its help machinery.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup, TyperOption

from pokerbot.bot.cli.commands import COMMANDS
from pokerbot.bot.cli.errors import BAD_INPUT, click_module, print_error, usage_error

_typed = TyperOption.display_type_rich


def _display_type(self: TyperOption, ctx: Any) -> str | None:
    """An option's value type in the help (``<int>``), none for a flag (``--quiet``, ``--help``: no value)."""
    return None if self.is_flag else _typed(self, ctx)


TyperOption.display_type_rich = _display_type  # type: ignore[method-assign]

RAW_ARGV_CONTEXT = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}
"""Typer settings that hand a raw-argv command its whole command line."""


def _raw_argv_command(name: str, run: Any, help_line: str) -> Any:
    """A Typer command that passes its arguments to ``run(argv) -> exit status``."""

    def command(ctx: typer.Context) -> None:
        raise typer.Exit(run(list(ctx.args)))

    command.__doc__ = help_line
    holder = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    holder.command(name, context_settings=RAW_ARGV_CONTEXT)(command)
    return typer.main.get_command(holder)


def load_command(name: str) -> Any:
    """The click command of ``name`` (importing its module); KeyError for an unknown name."""
    entry = COMMANDS[name]
    module = importlib.import_module(entry.module)
    target = getattr(module, entry.attribute)
    if isinstance(target, typer.Typer):
        group = typer.main.get_group(target)
        group.name = name
        return group
    if entry.raw_argv:
        command = _raw_argv_command(name, target, entry.help)
    else:
        context = getattr(module, entry.context) if entry.context else None
        holder = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
        holder.command(name, context_settings=context)(target)
        command = typer.main.get_command(holder)
    command.name = name
    return command


class LazyGroup(TyperGroup):
    """A command group that imports a command's module only when that command is used.

    While the group's own help is printed, :meth:`get_command` answers with a stand-in that
    carries only the entry's one-line help, so listing the commands imports nothing.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._loaded: dict[str, Any] = {}
        self._listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        """The commands in table order (then any registered directly)."""
        return [*COMMANDS, *(name for name in super().list_commands(ctx) if name not in COMMANDS)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command ``cmd_name``: a help-only stand-in while listing, else the real one."""
        if cmd_name not in COMMANDS:
            return super().get_command(ctx, cmd_name)
        if self._listing:
            return TyperCommand(cmd_name, help=COMMANDS[cmd_name].help)
        if cmd_name not in self._loaded:
            self._loaded[cmd_name] = load_command(cmd_name)
        return self._loaded[cmd_name]

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """The group's help, listing the commands without importing them."""
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line; a usage error is one line, ``pokerbot: error: WHAT (WHERE)``,
        and exit status 2 (not click's usage text and boxed message)."""
        exceptions = click_module().exceptions
        try:
            status = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except exceptions.ClickException as error:
            if type(error).__name__ == "NoArgsIsHelpError":  # ``pokerbot`` or a group alone: its help
                typer.echo(error.format_message())
                status = 0
            else:
                print_error(*usage_error(error))
                status = BAD_INPUT if isinstance(error, exceptions.UsageError) else error.exit_code
        except typer.Abort:
            print_error("aborted", "pokerbot")
            status = 130
        if not standalone_mode:
            return status
        sys.exit(status if isinstance(status, int) else 0)


app = typer.Typer(
    name="pokerbot",
    cls=LazyGroup,
    help="An adaptive poker agent for the ACPC match-state protocol 2.0.0.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(shown: bool) -> None:
    if shown:
        from importlib.metadata import version

        from pokerbot.bot.extras import DISTRIBUTION

        typer.echo(f"pokerbot {version(DISTRIBUTION)}")
        raise typer.Exit(0)


@app.callback()
def pokerbot(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """An adaptive poker agent for the ACPC match-state protocol 2.0.0."""


__all__ = ["LazyGroup", "app", "load_command"]
