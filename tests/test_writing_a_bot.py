"""docs/writing-a-bot.md works as written: its bot plays against our dealer, by file, module
and entry point; and bad strategy names give one-line errors."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from pokerbot.protocol.game import load_game
from pokerbot.protocol.matchlog import check_log
from pokerbot.strategies.base import UnknownStrategyError
from pokerbot.strategies.loading import is_spec
from pokerbot.strategies.registry import default_registry

DOC = Path(__file__).parent.parent / "docs" / "writing-a-bot.md"
CLI = [sys.executable, "-m", "pokerbot.bot.cli"]
TIMEOUT = 120


def _block(language: str, after: str) -> str:
    """The first fenced ``language`` block after the heading ``after`` in the doc."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(after)
    match = re.search(rf"```{language}\n(.*?)```", text[start:], re.DOTALL)
    assert match is not None, f"no {language} block after {after!r}"
    return match.group(1)


def _argv(line: str) -> list[str]:
    """A ``pokerbot ...`` line of the doc as an argv (comments dropped)."""
    words = shlex.split(line, comments=True)
    assert words[0] == "pokerbot"
    return [*CLI, *words[1:]]


def test_the_documented_bot_plays_against_our_dealer(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text(_block("python", "## A complete bot"), encoding="utf-8")
    dealer_line, mine_line, theirs_line = _block("bash", "## Play it against our dealer").strip().splitlines()
    transcript = (tmp_path / "transcript.txt").open("w")  # the dealer's TO/FROM lines: far more than a pipe holds
    dealer = subprocess.Popen(_argv(dealer_line), cwd=tmp_path, stdout=subprocess.PIPE, stderr=transcript, text=True)
    try:
        assert dealer.stdout is not None
        ports = dealer.stdout.readline().split()
        assert len(ports) == 2
        players = [
            subprocess.Popen(
                _argv(line.replace(documented, port)),
                cwd=tmp_path,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for line, documented, port in ((mine_line, "40001", ports[0]), (theirs_line, "40002", ports[1]))
        ]
        outputs = [player.communicate(timeout=TIMEOUT) for player in players]
        score, _ = dealer.communicate(timeout=TIMEOUT)
    finally:
        transcript.close()
        dealer.kill()
        for player in players:
            player.kill()
    assert dealer.returncode == 0, (tmp_path / "transcript.txt").read_text()[-2000:]
    for player, (_, err) in zip(players, outputs):
        assert player.returncode == 0, err
        assert "fallbacks=0 " in err and "[warning" not in err  # every action legal and in time
    mine = re.search(r"final score of mybot.py:MyBot: 100 hands, (-?[\d.]+) chips", outputs[0][0])
    assert mine is not None, outputs[0][0]
    totals = re.fullmatch(r"SCORE:(-?[\d.]+)\|(-?[\d.]+):me\|them\n", score)
    assert totals is not None, score
    assert float(mine.group(1)) == pytest.approx(float(totals.group(1)))
    report = check_log((tmp_path / "mymatch.log").read_text().splitlines(), load_game("holdem-nolimit-2p"))
    assert report.ok and report.hands == 100


def test_file_and_module_specs_play_a_match(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text(_block("python", "## A complete bot"), encoding="utf-8")
    for spec in ("mybot.py:MyBot", "mybot:MyBot"):
        result = subprocess.run(
            [*CLI, "match", "--game", "leduc", "--hands", "30", "--players", spec, "random", "--quiet"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert result.returncode == 0, result.stderr
        assert "wrote match-output/match.log" in result.stderr
        report = check_log((tmp_path / "match-output" / "match.log").read_text().splitlines(), load_game("leduc"))
        assert report.ok and report.hands == 30
        assert set(report.totals) == {spec.replace(":", "="), "random"}


def test_an_installed_package_declares_strategies_by_entry_point(tmp_path: Path) -> None:
    package = tmp_path / "mypackage"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "bots.py").write_text(_block("python", "## A complete bot"), encoding="utf-8")
    info = tmp_path / "mypackage-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mypackage\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[pokerbot.strategies]\nmybot = mypackage.bots:MyBot\nrandom = mypackage.bots:MyBot\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = subprocess.run(
        [*CLI, "match", "-g", "kuhn", "-n", "20", "--players", "mybot", "random", "-q", "--in-process", "-o", "out"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    report = check_log((tmp_path / "out" / "match.log").read_text().splitlines(), load_game("kuhn"))
    assert report.ok and set(report.totals) == {"mybot", "random"}
    sys.path.insert(0, str(tmp_path))
    try:
        registry = default_registry()
        assert "mybot" in registry.names()
        assert registry.lookup("mybot").summary == "Installed by mypackage (mypackage.bots:MyBot)."
        # "random" is built in: the installed one does not replace it
        assert type(registry.create("random", load_game("kuhn"), 1)).__name__ == "RandomPlayer"
    finally:
        sys.path.remove(str(tmp_path))


@pytest.mark.parametrize(
    ("content", "spec", "message"),
    [
        (None, "missing.py:MyBot", "strategy file missing.py does not exist"),
        ("x = 1\n", "bot.py:MyBot", "bot.py has no 'MyBot' (it defines no Strategy subclass)"),
        ("class MyBot:\n    pass\n", "bot.py:MyBot", "is a class but not a pokerbot.strategies.base.Strategy subclass"),
        ("def broken(:\n", "bot.py:MyBot", "importing bot.py failed: SyntaxError: invalid syntax (line 1)"),
        ("raise RuntimeError('no network')\n", "bot.py:MyBot", "importing bot.py failed: RuntimeError: no network"),
        (
            "from pokerbot.strategies.base import Strategy\nclass MyBot(Strategy):\n    pass\n",
            "bot.py:MyBot",
            "bot.py:MyBot does not implement decide",
        ),
        (
            "def MyBot(game, seed):\n    return 3\n",
            "bot.py:MyBot",
            "bot.py:MyBot(game, seed) returned int, not a Strategy",
        ),
        (None, "nosuchmodule_xyz:MyBot", "no strategy or module named 'nosuchmodule_xyz'"),
    ],
)
def test_bad_specs_give_one_line_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str | None, spec: str, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    if content is not None:
        (tmp_path / "bot.py").write_text(content)
    with pytest.raises(UnknownStrategyError) as caught:
        default_registry().create(spec, load_game("kuhn"), 1)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_what_counts_as_a_spec() -> None:
    assert is_spec("mybot.py:MyBot") and is_spec("a/b:C") and is_spec("pkg.mod:C") and is_spec("mod:C")
    assert not is_spec("random") and not is_spec("policy:leduc.json") and not is_spec("miximax:0.05")
    # registered names with arguments never reach the loader
    assert type(default_registry().create("miximax-static:0.01", load_game("holdem-nolimit-2p"), 1)).__name__


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["miximax:abc", "random"], "the argument is a time budget in seconds per decision, got 'abc'"),
        (["policy:missing.json", "random"], "missing.json"),
        (["policy:KUHN", "random"], "policy"),
    ],
)
def test_bad_strategy_arguments_are_one_line_errors_not_tracebacks(
    tmp_path: Path, players: list[str], message: str
) -> None:
    game = "holdem-nolimit-2p" if players[0].startswith("miximax") else "leduc"
    if players[0] == "policy:KUHN":
        kuhn = tmp_path / "kuhn.json"
        solved = subprocess.run(
            [*CLI, "solve", "kuhn", "--iterations", "5", "--out", str(kuhn)], capture_output=True, text=True
        )
        assert solved.returncode == 0, solved.stderr
        players = [f"policy:{kuhn}", "random"]
    result = subprocess.run(
        [*CLI, "match", "-g", game, "-n", "5", "-q", "-o", str(tmp_path / "out"), "--players", *players],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pokerbot: error: ") and message in lines[0], result.stderr
