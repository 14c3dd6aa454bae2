"""What the commands say reads as one project: no ``<bool>`` after a flag, every dealer option
described, no internal names (``seed 00N``, reprs, empty dumps) in what a user reads."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerbot.bot.cli.app import app
from pokerbot.bot.cli.commands import COMMANDS
from pokerbot.bot.cli.dealer import build_parser

CLI = [sys.executable, "-m", "pokerbot.bot.cli"]
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("argv", [[], ["match"], ["play"], ["log", "check"], ["kit", "build"]], ids=" ".join)
def test_flags_show_no_value_type_in_the_help(argv: list[str]) -> None:
    result = CliRunner().invoke(app, [*argv, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "--help" in result.output and "<bool>" not in result.output


def test_every_dealer_option_and_argument_is_described() -> None:
    parser = build_parser()
    undescribed = [action.dest for action in parser._actions if not action.help]
    assert undescribed == []
    text = subprocess.run([*CLI, "dealer", "--help"], capture_output=True, text=True, check=True).stdout
    assert "--bots NAME=STRATEGY,..." in text and "milliseconds" in text


def test_no_help_line_or_user_page_names_a_paper_by_a_seed_number() -> None:
    assert not [entry.help for entry in COMMANDS.values() if re.search(r"seed[ -]00\d", entry.help)]
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    assert [page.name for page in pages if re.search(r"seed[ -]00\d", page.read_text(encoding="utf-8"))] == []


def test_solve_with_buckets_and_the_leduc_study_print_no_internals(tmp_path: Path) -> None:
    runner = CliRunner()
    solved = runner.invoke(
        app,
        ["solve", "leduc", "--buckets", "exact", "--algorithm", "os-mccfr", "--iterations", "2000"]
        + ["--out", str(tmp_path / "leduc.npz")],
    )
    assert solved.exit_code == 0, solved.output
    assert "BettingTree(" not in solved.output and "information sets" in solved.output
    studied = runner.invoke(
        app,
        ["experiment", "leduc", "--hands", "20", "--trials", "2", "--opponents", "random", "--learners", "adaptive"]
        + ["--out", str(tmp_path / "leduc.json")],
    )
    assert studied.exit_code == 0, studied.output
    assert "goals: {}" not in studied.output and "{" not in studied.output
