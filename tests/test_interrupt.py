"""Ctrl-C in ``pokerbot match`` ends the match as a shorter one: the table of the hands
finished, and a log that ``log check`` accepts, marked truncated; at a human seat, the tally."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pokerbot.bot.cli.errors import INTERRUPTED
from pokerbot.protocol.actions import CALL
from pokerbot.protocol.dealer_events import HandLogged, MatchFinished
from pokerbot.protocol.dealer_session import DealerSession
from pokerbot.protocol.game import load_game
from pokerbot.protocol.matchlog import check_log

CLI = [sys.executable, "-m", "pokerbot.bot.cli"]


def test_a_stopped_session_scores_the_hands_finished_and_its_log_is_valid_and_marked_truncated() -> None:
    game = load_game("kuhn")
    session = DealerSession(game, 10, 1, ["a", "b"])
    session.start(0.0)
    lines = []
    while session.hands_played < 3:
        seat = session.awaiting
        assert seat is not None
        lines += [event.line for event in session.act(seat, CALL, 0.0) if isinstance(event, HandLogged)]
    (finished,) = session.stop("Ctrl-C")
    assert isinstance(finished, MatchFinished)
    assert finished.stopped == session.stopped == "stopped by Ctrl-C after 3 of 10 hands"
    assert finished.log_lines == ["# truncated: stopped by Ctrl-C after 3 of 10 hands", finished.score_line]
    assert session.finished and session.stop("Ctrl-C") == []
    report = check_log([*lines, *finished.log_lines], game)
    assert report.ok and report.hands == 3 and report.truncated == "stopped by Ctrl-C after 3 of 10 hands"
    assert check_log(lines, game).problems[-1].endswith("no SCORE line")  # cut without the marker: not valid


@pytest.mark.parametrize("mode", [[], ["--in-process"]], ids=["loopback", "in-process"])
def test_ctrl_c_in_a_match_prints_the_table_of_the_hands_played_and_keeps_a_valid_log(
    tmp_path: Path, mode: list[str]
) -> None:
    out = tmp_path / "out"
    match = subprocess.Popen(
        [*CLI, "match", "--game", "kuhn", "--hands", "1000000", "--players", "always-call", "random", "--out", str(out)]
        + mode,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    log = out / "match.log"
    deadline = time.monotonic() + 120
    while (not log.exists() or log.read_text().count("STATE:") < 5) and time.monotonic() < deadline:
        time.sleep(0.2)
    match.send_signal(signal.SIGINT)
    stdout, stderr = match.communicate(timeout=60)
    assert match.returncode == INTERRUPTED, stderr
    said = [line for line in stderr.splitlines() if line.startswith("stopped by Ctrl-C after ")]
    assert len(said) == 1 and said[0].endswith("the table and the log (marked truncated) hold the hands finished")
    hands = int(said[0].split()[4])
    assert f"kuhn: {hands:,} hands" in stdout and "always-call" in stdout and "Traceback" not in stderr
    check = subprocess.run([*CLI, "log", "check", str(log)], capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stderr
    assert f"The match was stopped by Ctrl-C after {hands} of 1000000 hands." in check.stdout
    assert f"{hands} hands" in check.stdout
