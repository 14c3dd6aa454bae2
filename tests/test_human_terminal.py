"""A person at the terminal: ``pokerbot play --human`` driven through a pseudo-terminal
against our dealer, plus the table and typed actions on their own."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pokerbot.bot.human.table import TypedActionError, describe, parse_typed_action
from pokerbot.bot.human.terminal import render_table
from pokerbot.protocol.actions import Action, ActionKind
from pokerbot.protocol.game import load_game
from pokerbot.protocol.matchlog import check_log
from pokerbot.protocol.wire import parse_match_state

CLI = [sys.executable, "-m", "pokerbot.bot.cli"]
TIMEOUT = 60.0


class Terminal:
    """A process on a pseudo-terminal: read its screen output, type lines."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(argv, cwd=cwd, stdin=slave, stdout=slave, stderr=subprocess.DEVNULL)
        os.close(slave)
        self.screen = ""
        self.consumed = 0

    def read_until(self, pattern: str, timeout: float = TIMEOUT) -> str:
        """What was printed since the last call, up to and including ``pattern`` (a regex)."""
        deadline = time.monotonic() + timeout
        while True:
            match = re.search(pattern, self.screen[self.consumed :])
            if match:
                text = self.screen[self.consumed : self.consumed + match.end()]
                self.consumed += match.end()
                return text
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no {pattern!r} in:\n{self.screen[-3000:]}"
            ready, _, _ = select.select([self.master], [], [], min(remaining, 0.5))
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:  # the process ended and closed the terminal
                    data = b""
                assert data, f"the program ended without printing {pattern!r}:\n{self.screen[-3000:]}"
                self.screen += data.decode("utf-8", "replace").replace("\r\n", "\n")

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> None:
        self.process.kill()
        os.close(self.master)


def test_a_person_plays_three_hands_in_a_terminal(tmp_path: Path) -> None:
    dealer = subprocess.Popen(
        [*CLI, "dealer", "people", "holdem-nolimit-2p", "3", "5", "person", "bot", "-p", "0,0", "-q"]
        + ["--t_per_hand", "600000", "--out", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert dealer.stdout is not None
    ports = dealer.stdout.readline().split()
    bot = subprocess.Popen(
        [*CLI, "play", "-p", ports[1], "-g", "holdem-nolimit-2p", "--strategy", "always-call"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    person = Terminal([*CLI, "play", "-p", ports[0], "-g", "holdem-nolimit-2p", "--human"], tmp_path)
    try:
        table = person.read_until(r"your action> ")
        assert "=== hand 1, preflop === you are P1" in table
        assert re.search(r"->  you  \w\w \w\w +in pot +100  behind 19900", table)  # the big blind, to act
        assert re.search(r"\n     P2  \?\? \?\? +in pot +100  behind 19900", table)  # P2 called the small blind
        assert "preflop: P2 call 50" in table and "pot: 200" in table
        assert "legal: c = check; r AMOUNT = raise to 200..20000; a = all-in (raise to 20000)" in table
        person.type("x")
        assert "not allowed: 'x' is not an action" in person.read_until(r"your action> ")
        person.type("f")
        assert "not allowed: position 0 cannot fold: it has nothing to call" in person.read_until(r"your action> ")
        person.type("r 150")
        assert "raise to 150 is out of range: position 0 may raise to 200..20000" in person.read_until("your action> ")
        person.type("r 300")  # the bot calls; the flop comes
        flop = person.read_until(r"your action> ")
        assert (
            re.search(r"board: \w\w \w\w \w\w    pot: 600", flop)
            and "preflop: P2 call 50, you raise to 300, P2 call 200" in flop
        )
        while True:
            person.type("c")
            text = person.read_until(r"your action> |final score of human: 3 hands, -?[\d.]+ chips")
            if "final score" in text:
                break
        assert person.screen.count("over: ") == 3 and "running total:" in person.screen
        score, _ = dealer.communicate(timeout=TIMEOUT)
        assert dealer.returncode == 0
    finally:
        person.close()
        bot.kill()
        dealer.kill()
    final = re.search(r"final score of human: 3 hands, (-?[\d.]+) chips", person.screen)
    assert final and re.match(rf"SCORE:{re.escape(final.group(1))}\|", score)
    report = check_log((tmp_path / "people.log").read_text().splitlines(), load_game("holdem-nolimit-2p"))
    assert report.ok and report.hands == 3


def test_typed_actions_are_judged_by_the_engine() -> None:
    game = load_game("holdem-nolimit-2p")
    state = parse_match_state("MATCHSTATE:1:0::|Jd4c", game).state
    assert parse_typed_action("call", state) == Action(ActionKind.CALL)
    assert parse_typed_action(" R 600 ", state) == Action.raise_to(600)
    assert parse_typed_action("bet600", state) == Action.raise_to(600)
    assert parse_typed_action("a", state) == Action.raise_to(20000)
    assert parse_typed_action("fold", state) == Action(ActionKind.FOLD)
    for text, message in (("", "type an action"), ("r", "needs the amount"), ("r 99999", "out of range")):
        with pytest.raises(TypedActionError, match=message):
            parse_typed_action(text, state)
    limit = load_game("holdem-limit-2p")
    capped = parse_match_state("MATCHSTATE:1:0:rrr:|Jd4c", limit).state
    with pytest.raises(TypedActionError, match="no raise allowed: round 0 already has 3 raises"):
        parse_typed_action("r", capped)


def test_the_table_shows_limit_amounts() -> None:
    game = load_game("holdem-limit-2p")
    view = parse_match_state("MATCHSTATE:1:4:rc/r:|Ah5s/2c8dTh", game)
    lines = render_table(describe(view.state, view.hand_number, view.position), game)
    assert lines[0] == "=== hand 5, flop === you are P2"
    assert "board: 2c 8d Th    pot: 50" in lines
    assert "legal: f = fold; c = call 10; r = raise to 40" in lines
    assert "   preflop: you raise, P1 call 10" in lines and "   flop: P1 bet" in lines
    assert any(re.fullmatch(r"->  you  Ah 5s +in pot +20  behind unlimited", line) for line in lines)
