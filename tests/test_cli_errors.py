"""One error style: bad input a user can type gets one line on standard error,
``pokerbot: error: WHAT (WHERE)``, no traceback, and exit status 2.

The inputs are the README's examples with one argument broken, and the ones reported for
being worse than that (a port out of range, a game file cut short, a strategy argument that
took seconds to refuse, a client started with another game than its dealer's). Each goes through
the ``pokerbot`` script's entry point in an empty folder (a few in processes of their own),
with ``POKERBOT_TRACEBACK`` set so that a bug would show its traceback.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import structlog

from pokerbot.bot.cli import main
from tests.test_readme_commands import readme_examples

CLI = [sys.executable, "-m", "pokerbot.bot.cli"]
TIMEOUT = 120
FIXTURES = Path(__file__).parent / "fixtures" / "acpc"
LOG = "match.log"
"""A Leduc match log (the reference dealer's), copied into the folder the inputs run in."""

BAD_INPUTS: list[tuple[str, str]] = [
    # pokerbot match --game leduc --hands 200 --players adaptive random --json results/leduc.json
    ("match --game ledoc --hands 200 --players adaptive random", "'ledoc' is neither a built-in game"),
    (
        "match --game leduc --hands abc --players adaptive random",
        "'abc' is not a whole number (pokerbot match --hands)",
    ),
    ("match --game leduc --hands 0 --players adaptive random", "--hands must be at least 1, got 0"),
    ("match --game leduc --hands 200 --players adaptive randum", "unknown strategy 'randum'; did you mean random?"),
    ("match --game leduc --hands 200 --players adaptive", "the game has 2 players, 1 was given"),
    ("match --game leduc --hands 200 --seed -1 --players adaptive random", "--seed must be in 0..4294967295"),
    (
        "match --game leduc --players adaptive random --json /proc/none/leduc.json",
        "cannot create the folder /proc/none",
    ),
    ("match --players miximax:abc random --hands 5", "the argument is a time budget in seconds per decision"),
    ("match --game leduc --players adaptive random --bogus", "no such option: --bogus"),
    ("match --game cut.game --hands 5 --players random random", "no END GAMEDEF line (the definition is cut short?)"),
    # pokerbot tournament --game kuhn --players equilibrium random always-call --hands 100 --jobs 1 --out DIR
    ("tournament --game kuhn --players equilibrium --hands 100 --jobs 1", "needs at least two players"),
    ("tournament --game kuhn --players equilibrium random always-cal --jobs 1", "unknown strategy 'always-cal'"),
    ("tournament --game kuhn --players equilibrium random --jobs 0", "--jobs must be at least 1"),
    ("tournament --game kuhn --players equilibrium random --hands x", "'x' is not a whole number"),
    # pokerbot dealer demo kuhn 50 1 alice bob -p 0,0
    ("dealer demo kuhnn 50 1 alice bob -p 0,0", "'kuhnn' is neither a built-in game"),
    ("dealer demo kuhn fifty 1 alice bob -p 0,0", "'fifty' is not a whole number (pokerbot dealer HANDS)"),
    ("dealer demo kuhn 50 -1 alice bob -p 0,0", "must be at least 0, got -1 (pokerbot dealer SEED)"),
    ("dealer demo kuhn 50 1 alice -p 0,0", "1 player name given, the game has 2 players (pokerbot dealer NAME ...)"),
    ("dealer demo kuhn 50 1 alice bob -p 99999,0", "port 99999 is out of range 0..65535 (pokerbot dealer -p)"),
    ("dealer demo kuhn 50 1 alice bob -p 0", "1 port given, the game has 2 seats (pokerbot dealer -p)"),
    ("dealer demo cut.game 50 1 alice bob -p 0,0", "no END GAMEDEF line (the definition is cut short?)"),
    # pokerbot play --port PORT --game kuhn --strategy always-call
    ("play --port 99999 --game kuhn --strategy always-call", "got 99999 (pokerbot play --port)"),
    ("play --port -1 --game kuhn --strategy always-call", "got -1 (pokerbot play --port)"),
    ("play --port 70000 --game kuhn --strategy always-call", "got 70000 (pokerbot play --port)"),
    ("play --port abc --game kuhn --strategy always-call", "'abc' is not a whole number (pokerbot play --port)"),
    ("play --url tcp://127.0.0.1:99999 --game kuhn --strategy always-call", "is not a number in 0..65535"),
    ("play --port 1 --host ::1: --game kuhn --strategy always-call", "is not a URL"),
    ("play --port 1 --game kuhnn --strategy always-call", "(pokerbot play --game)"),
    ("play --port 1 --game kuhn --strategy always-cal", "(pokerbot play --strategy)"),
    ("play --game kuhn --strategy always-call", "give the seat's --port"),
    ("play --port 1 --game cut.game --strategy always-call", "no END GAMEDEF line (the definition is cut short?)"),
    # pokerbot kit kuhn-kit --game kuhn --strategy always-raise; pokerbot kit check kuhn-kit --hands 50
    ("kit kuhn-kit --game kuhnn --strategy always-raise", "'kuhnn' is neither a built-in game"),
    ("kit kuhn-kit --game kuhn --strategy always-rais", "unknown strategy 'always-rais'"),
    ("kit kuhn-kit --game kuhn --strategy always-raise --t_response -5", "positive number of milliseconds"),
    ("kit check no-such-kit --hands 50", "no-such-kit is not a pokerbot kit"),
    # pokerbot web --port 0
    ("web --port 99999", "got 99999 (pokerbot web --port)"),
    ("web --port -1", "got -1 (pokerbot web --port)"),
    ("web --port 70000", "got 70000 (pokerbot web --port)"),
    ("web --port abc", "'abc' is not a whole number (pokerbot web --port)"),
    ("web --port 0 --out /proc/none", "cannot create the folder /proc/none"),
    # pokerbot slumbot check --hands 50 --strategy random --opponent always-call (and slumbot play)
    ("slumbot play --hands 10 --url tcp://slumbot.com:80", "the scheme must be slumbot+https or slumbot+http"),
    (
        "slumbot play --hands 10 --user me --password-file missing.txt",
        "cannot read the password file missing.txt: No such file or directory (pokerbot slumbot play --password-file)",
    ),
    ("slumbot play --hands 0", "the match needs at least 1 hand, got 0 (pokerbot slumbot play --hands)"),
    ("slumbot check --hands 50 --strategy randum", "unknown strategy 'randum'"),
    # pokerbot log check match-output/match.log; log convert ...; log aivat ...; log audit ...
    ("log check no-such.log", "cannot read no-such.log: No such file or directory (pokerbot log check LOGFILE)"),
    (f"log check {LOG} --game nosuch", "(pokerbot log check --game)"),
    (f"log convert {LOG} --to xyz --out leduc.phhs", "'xyz' is not one of 'phh', 'pokerstars', 'acpc'"),
    (f"log convert {LOG} --to phh", "missing option (pokerbot log convert --out)"),
    (f"log aivat {LOG} --strategy 2=randum", "unknown strategy 'randum'"),
    (f"log aivat {LOG} --strategy random", "expected SEAT=NAME"),
    (f"log aivat {LOG} --strategy 3=random", "expected SEAT=NAME"),
    (f"log audit {LOG} --seat 3", "'3' is neither a player of the log (A, B) nor 1..2"),
    (f"log audit {LOG} --show -1", "must not be negative, got -1 (pokerbot log audit --show)"),
    ("log audit no-such.log --seat 1", "cannot read no-such.log: No such file or directory (pokerbot log audit)"),
    (f"log audit {LOG} --json /proc/none/audit.json", "cannot create the folder /proc/none"),
    # pokerbot solve kuhn --algorithm cfr+ --iterations 200 --out kuhn.json; exploitability kuhn kuhn.json
    ("solve kuhn --algorithm cfx --iterations 200 --out kuhn.json", "unknown algorithm 'cfx'"),
    ("solve kuhn --algorithm cfr+ --iterations -1 --out kuhn.json", "must be positive"),
    ("solve kuhnn --algorithm cfr+ --iterations 200 --out kuhn.json", "'kuhnn' is neither a built-in game"),
    ("solve kuhn --algorithm cfr+ --iterations abc --out kuhn.json", "'abc' is not a whole number"),
    ("solve --algorithm cfr+ --iterations 200 --out kuhn.json", "missing argument (pokerbot solve GAME)"),
    ("exploitability kuhn nothere.json", "cannot read policy file"),
    ("exploitability kuhn corrupt.json", "corrupt JSON"),
    # pokerbot exploitability holdem-nolimit-2p always-fold --hands 20 --jobs 1 --json results/lbr.json
    ("exploitability holdem-nolimit-2p always-fol --hands 20 --jobs 1", "unknown strategy 'always-fol'"),
    ("exploitability holdem-nolimit-2p always-fold --hands 3 --jobs 1", "a positive even number"),
    # pokerbot solve leduc --buckets exact --algorithm os-mccfr --iterations 100000 --out leduc.npz
    ("solve leduc --buckets abc --algorithm os-mccfr --iterations 100 --out leduc.npz", "--buckets takes"),
    # pokerbot game show leduc
    ("game show ledoc", "'ledoc' is neither a built-in game"),
    ("game show cut.game", "no END GAMEDEF line"),
    # pokerbot train-prior match-output/match.log --game leduc --out leduc.prior
    ("train-prior nothere.log --game leduc --out leduc.prior", "cannot read nothere.log"),
    (f"train-prior {LOG} --game kuhn --out leduc.prior", "illegal action"),
    # pokerbot experiment model-learning calling-station --hands 100 --every 50; experiment leduc ...
    ("experiment model-learning calling-statio --hands 100 --every 50", "unknown strategy 'calling-statio'"),
    ("experiment model-learning calling-station --hands 100 --every 0", "must be positive"),
    # pokerbot experiment learning-curves always-raise --players always-fold always-call --hands 200 --plot curves.png
    ("experiment learning-curves always-rais --players always-fold --hands 200", "unknown strategy 'always-rais'"),
    ("experiment learning-curves always-raise --players always-fold --window 0", "must be positive"),
    ("experiment leduc --hands 20 --trials 2 --opponents randm --learners adaptive", "unknown opponent randm"),
    ("experiment leduc --hands 20 --trials 0 --opponents random --learners adaptive", "--trials >= 2"),
    # the command itself
    ("nosuchcommand", "no such command 'nosuchcommand' (pokerbot)"),
    ("matc --hands 5", "no such command 'matc'"),
    ("--bogus", "no such option: --bogus (pokerbot)"),
]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty working folder but for the files the inputs name; a bug prints its traceback."""
    shutil.copy(FIXTURES / "leduc2p_s17" / "log.txt", tmp_path / LOG)
    (tmp_path / "corrupt.json").write_text('{"game": ', encoding="utf-8")
    game = (FIXTURES / "kuhn2p_s16" / "game.txt").read_text(encoding="utf-8")
    (tmp_path / "cut.game").write_text(game.replace("END GAMEDEF", ""), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("POKERBOT_TRACEBACK", "1")
    monkeypatch.setenv("COLUMNS", "80")
    yield tmp_path
    structlog.reset_defaults()


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "POKERBOT_TRACEBACK": "1", "COLUMNS": "80"}
    return subprocess.run(
        [*CLI, *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=environment,
        stdin=subprocess.DEVNULL,
    )


def _is_one_error_line(status: int, stderr: str, expected: str) -> bool:
    lines = stderr.splitlines()
    return (
        status == 2
        and "Traceback" not in stderr
        and len(lines) == 1
        and lines[0].startswith("pokerbot: error: ")
        and lines[0].endswith(")")
        and expected in lines[0]
    )


@pytest.mark.parametrize(("command", "expected"), BAD_INPUTS, ids=[command for command, _ in BAD_INPUTS])
def test_a_bad_input_gets_one_line_and_exit_2(
    command: str, expected: str, folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through :func:`pokerbot.bot.cli.main`, as the ``pokerbot`` script calls it (in this
    process: the command modules are imported once for all the inputs)."""
    before = sorted(path.name for path in folder.iterdir())
    monkeypatch.setattr(sys, "argv", ["pokerbot", *shlex.split(command)])
    with pytest.raises(SystemExit) as exited:
        main()
    status = exited.value.code if isinstance(exited.value.code, int) else 1
    stderr = capsys.readouterr().err
    assert _is_one_error_line(status, stderr, expected), f"exit {status}:\n{stderr}"
    # Nothing left behind by a refused command (match-output/, tournament-output/, ...).
    assert sorted(path.name for path in folder.iterdir()) == before


def test_bad_inputs_in_processes_of_their_own(tmp_path: Path) -> None:
    """The ``pokerbot`` entry point as a user runs it, one input per way an error is found:
    the dealer's own parser, a usage error, a command's own check, an unknown command."""
    by_command = {command: (command, expected) for command, expected in BAD_INPUTS}
    cases = [
        by_command["dealer demo kuhn 50 1 alice bob -p 99999,0"],
        by_command["play --port 99999 --game kuhn --strategy always-call"],
        by_command["match --game leduc --hands abc --players adaptive random"],
        by_command["nosuchcommand"],
    ]
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = list(pool.map(lambda case: _run(shlex.split(case[0]), tmp_path), cases))
    for (command, expected), result in zip(cases, done, strict=True):
        assert _is_one_error_line(result.returncode, result.stderr, expected), f"{command}: {result.stderr}"
    assert list(tmp_path.iterdir()) == []


def test_a_client_of_another_game_says_so_after_the_first_line_that_does_not_fit(tmp_path: Path) -> None:
    dealer = subprocess.Popen(
        [*CLI, "dealer", "mismatch", "kuhn", "20", "1", "kuhn", "leduc", "-p", "0,0", "-q", "--out", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert dealer.stdout is not None
        ports = dealer.stdout.readline().split()
        kuhn = subprocess.Popen(
            [*CLI, "play", "-p", ports[0], "-g", "kuhn", "--strategy", "always-call"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        leduc = _run(["play", "-p", ports[1], "-g", "leduc", "--strategy", "always-call"], tmp_path)
        kuhn.wait(timeout=TIMEOUT)
    finally:
        dealer.kill()
    assert leduc.returncode == 2 and "Traceback" not in leduc.stderr and "bad_line" not in leduc.stderr
    errors = [line for line in leduc.stderr.splitlines() if line.startswith("pokerbot: error: ")]
    assert len(errors) == 1 and leduc.stderr.splitlines()[-1] == errors[0]
    assert errors[0].startswith("pokerbot: error: the dealer's lines do not fit the game leduc: 'MATCHSTATE:")
    assert errors[0].endswith("does it play another game? (pokerbot play --game)")
    assert leduc.stdout == ""  # no score: nothing was played


def test_version(tmp_path: Path) -> None:
    from importlib.metadata import version

    result = _run(["--version"], tmp_path)
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout == f"pokerbot {version('pokerbot-acpc')}\n"


def test_every_readme_example_has_a_broken_twin() -> None:
    """Each example of the README's Commands table is in :data:`BAD_INPUTS` with one argument
    broken: a command added to the table gets its bad inputs here."""

    def command(words: list[str]) -> list[str]:
        """The command's words up to its first option or argument (``kit check``, ``log aivat``)."""
        group = {
            "kit": {"check"},
            "log": {"check", "convert", "aivat", "audit"},
            "experiment": {"model-learning", "learning-curves", "leduc"},
        }
        return words[:2] if len(words) > 1 and words[1] in group.get(words[0], set()) else words[:1]

    broken = {tuple(command(shlex.split(bad))) for bad, _ in BAD_INPUTS}
    for example in readme_examples():
        words = command(shlex.split(example)[1:])
        assert tuple(words) in broken, example


def test_a_strategy_argument_is_refused_before_anything_is_built(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``miximax:abc`` is refused when the name is read, not after the agent has loaded its
    models (which took seconds): in this process, once the command's modules are imported."""
    for command in ("match --players randum random --hands 5", "match --players miximax:abc random --hands 5"):
        monkeypatch.setattr(sys, "argv", ["pokerbot", *shlex.split(command)])
        started = time.monotonic()
        with pytest.raises(SystemExit) as exited:
            main()
        elapsed = time.monotonic() - started
    assert exited.value.code == 2 and "a time budget in seconds per decision" in capsys.readouterr().err
    assert elapsed < 3.0, f"refused after {elapsed:.1f} s"
