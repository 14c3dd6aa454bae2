"""The README's Commands table works verbatim: every example runs, in order, in one folder."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pokerbot.bot.cli.app import app, load_command
from pokerbot.bot.cli.commands import COMMANDS

README = Path(__file__).parent.parent / "README.md"
CLI = [sys.executable, "-m", "pokerbot.bot.cli"]
TIMEOUT = 120
SERVERS = ("dealer", "web")
"""Commands that serve: started as processes, used as documented, then stopped."""


def readme_examples() -> list[str]:
    """The example column of the Commands table, in order (``\\|`` unescaped)."""
    text = README.read_text(encoding="utf-8")
    table = text[text.index("## Commands") :].split("\n\n")[2]
    examples = []
    for row in table.splitlines()[2:]:
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", row)[1:-1]]
        assert len(cells) == 3, row
        example = cells[2].strip("`").replace("\\|", "|")
        assert example.startswith("pokerbot "), row
        examples.append(example)
    return examples


def _run_dealer(example: str, play: str, folder: Path) -> None:
    """The dealer example, then the play example at the seat port the dealer printed (the
    example's other seat is one of the dealer's own ``--bots``)."""
    dealer = subprocess.Popen(
        [*CLI, *shlex.split(example)[1:]], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    players: list[subprocess.Popen[str]] = []
    try:
        assert dealer.stdout is not None
        ports = dealer.stdout.readline().split()
        assert len(ports) == 1, ports  # as written: one player for the one seat left
        for port in ports:
            argv = [*CLI, *shlex.split(play.replace("PORT", port))[1:]]
            players.append(
                subprocess.Popen(argv, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            )
        for player in players:
            out, err = player.communicate(timeout=TIMEOUT)
            assert player.returncode == 0, err
            assert "final score of always-call: 50 hands" in out
        score, said = dealer.communicate(timeout=TIMEOUT)
        assert dealer.returncode == 0
        assert score.startswith("SCORE:") and score.rstrip().endswith(":alice|bob")
        assert "seat 2 (bob) connected from " in said and "seat 1 (alice) connected from " in said
    finally:
        for process in (dealer, *players):
            process.kill()


def _run_web(example: str, folder: Path) -> None:
    """The web example: it prints the page's address; the page and its API answer there."""
    server = subprocess.Popen(
        [*CLI, *shlex.split(example)[1:]], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), url
        with urllib.request.urlopen(url, timeout=TIMEOUT) as page:
            assert "<title>pokerbot table</title>" in page.read().decode()
        with urllib.request.urlopen(url + "api/options", timeout=TIMEOUT) as answer:
            assert "leduc" in json.loads(answer.read())["games"]
    finally:
        server.kill()
        server.wait()


@pytest.mark.slow
def test_every_readme_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    examples = readme_examples()
    assert len(examples) >= 12
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    skip_next = False
    for index, example in enumerate(examples):
        if skip_next:
            skip_next = False
            continue
        command = shlex.split(example)[1]
        if command == "web":
            _run_web(example, tmp_path)
            continue
        if command in SERVERS:
            _run_dealer(example, examples[index + 1], tmp_path)
            skip_next = True
            continue
        result = runner.invoke(app, shlex.split(example)[1:])
        assert result.exit_code == 0, f"{example}\n{result.output}"
    for written in ("results/leduc.json", "match-output/match.log", "leduc.phhs", "kuhn.json", "leduc.prior"):
        assert (tmp_path / written).is_file(), written


def _short_options(command: Any) -> dict[str, set[str]]:
    """Each one-letter option of ``command`` and its subcommands, with its long names."""
    found: dict[str, set[str]] = {}
    for sub in getattr(command, "commands", {}).values():
        for short, longs in _short_options(sub).items():
            found.setdefault(short, set()).update(longs)
    for parameter in getattr(command, "params", ()):
        opts = [*parameter.opts, *parameter.secondary_opts]
        shorts = [opt for opt in opts if re.fullmatch(r"-[A-Za-z]", opt)]
        longs = {opt for opt in opts if opt.startswith("--")}
        for short in shorts:
            found.setdefault(short, set()).update(longs)
    return found


def test_one_meaning_per_short_option_across_commands() -> None:
    shorts: dict[str, set[str]] = {}
    for name in COMMANDS:  # the top-level group imports its commands lazily: load each one
        for short, longs in _short_options(load_command(name)).items():
            shorts.setdefault(short, set()).update(longs)
    assert {short: longs for short, longs in shorts.items() if len(longs) > 1} == {}
    assert shorts["-g"] == {"--game"} and shorts["-n"] == {"--hands"} and shorts["-s"] == {"--seed"}
    assert shorts["-o"] == {"--out"} and shorts["-p"] == {"--port"}
    # the dealer keeps the reference dealer's letters; the ones shared mean the same there
    from pokerbot.bot.cli.dealer import build_parser

    dealer = {action.option_strings[0]: action.dest for action in build_parser()._actions if action.option_strings}
    assert dealer["-p"] == "ports" and dealer["-q"] == "quiet"
    assert not {"-g", "-n", "-s", "-o"} & set(dealer)
