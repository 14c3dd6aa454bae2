"""The ``pokerbot`` command table: lazy loading, help lines, start-up imports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerbot.bot.cli.app import app, load_command
from pokerbot.bot.cli.commands import COMMANDS

HEAVY = ("numpy", "scipy", "river", "matplotlib", "numba", "ray")
"""Packages a command that does not need them must not import (each costs 0.1-1 s)."""


def _first_paragraph(text: str | None) -> str:
    return " ".join((text or "").strip().split("\n\n")[0].split())


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_help_line_is_the_commands_own(name: str) -> None:
    command = load_command(name)
    assert command.name == name
    assert _first_paragraph(command.short_help or command.help) == COMMANDS[name].help


def test_help_lists_every_command_in_table_order() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    positions = [result.output.find(f" {name} ") for name in COMMANDS]
    assert all(position > 0 for position in positions), result.output
    assert positions == sorted(positions)


def test_commands_and_groups_run_through_the_lazy_table() -> None:
    runner = CliRunner()
    shown = runner.invoke(app, ["game", "show", "kuhn"])
    assert shown.exit_code == 0 and "numPlayers = 2" in shown.output
    group_help = runner.invoke(app, ["experiment", "--help"])
    assert group_help.exit_code == 0
    assert all(name in group_help.output for name in ("model-learning", "kuhn", "leduc"))
    assert "--install-completion" not in group_help.output
    unknown = runner.invoke(app, ["no-such-command"])
    assert unknown.exit_code == 2
    assert unknown.output == "pokerbot: error: no such command 'no-such-command' (pokerbot)\n"


def _imported_by(argv: list[str]) -> set[str]:
    """The top-level packages and pokerbot modules imported by ``pokerbot ARGV`` (in a fresh process)."""
    code = (
        "import sys\n"
        f"sys.argv = ['pokerbot', *{argv!r}]\n"
        "from pokerbot.bot.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    return set(done.stderr.strip().splitlines()[-1].split())


def test_pokerbot_help_imports_no_command_module() -> None:
    modules = _imported_by(["--help"])
    assert not {name for name in modules if name.startswith("pokerbot.")} - {
        "pokerbot.bot",
        "pokerbot.bot.cli",
        "pokerbot.bot.cli.app",
        "pokerbot.bot.cli.commands",
        "pokerbot.bot.cli.errors",
    }
    assert not modules & {*HEAVY, "eval7", "pydantic", "websockets", "asyncio"}


@pytest.mark.parametrize("argv", [["dealer", "-h"], ["play", "--help"]])
def test_dealer_and_play_import_neither_models_nor_scientific_packages(argv: list[str]) -> None:
    modules = _imported_by(argv)
    assert not modules & set(HEAVY)
    assert not any(name.startswith(("pokerbot.models.bayes", "pokerbot.strategies.solvers")) for name in modules)
    if argv[0] == "dealer":
        assert not any(name.startswith(("pokerbot.models", "pokerbot.strategies")) for name in modules)
        assert "eval7" not in modules  # hands are ranked only once the first hand ends


def test_deferred_transports_say_what_the_real_ones_say() -> None:
    from pokerbot.bot.transports import TRANSPORTS, DeferredTransport

    deferred = {scheme: t for scheme, t in TRANSPORTS.items() if isinstance(t, DeferredTransport)}
    assert deferred  # WebSocket: its library is slow to import
    for scheme, transport in deferred.items():
        real = transport.load()
        assert (transport.scheme, transport.supports_token, transport.can_listen) == (
            real.scheme,
            real.supports_token,
            real.can_listen,
        ), scheme
        assert transport.seat_url("127.0.0.1", 5) == real.seat_url("127.0.0.1", 5)


def test_a_tcp_dealer_imports_no_websocket_library() -> None:
    assert "websockets" not in _imported_by(["dealer", "-h"])


def test_the_dealer_starts_without_typer_and_keeps_its_exit_codes(tmp_path: Path) -> None:
    modules = _imported_by(["dealer", "-h"])
    assert not {"typer", "rich", "pokerbot.bot.cli.app"} & modules
    cli = [sys.executable, "-m", "pokerbot.bot.cli", "dealer"]
    usage = subprocess.run([*cli, "m", "kuhn"], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert usage.returncode == 2 and usage.stderr.startswith("pokerbot: error: ")
    shown = subprocess.run([*cli, "-h"], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0 and "--t_response" in shown.stdout
