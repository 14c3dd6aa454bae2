"""A person at the terminal: ``pokerbot play --human`` driven through a pseudo-terminal
against our dealer, plus the table and typed actions on their own."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pokerbot.bot import human
from pokerbot.bot.human.table import TypedActionError, describe, parse_typed_action
from pokerbot.bot.human.terminal import render_result, render_table
from pokerbot.protocol.actions import Action, ActionKind
from pokerbot.protocol.game import load_game
from pokerbot.protocol.matchlog import check_log, parse_state_line
from pokerbot.protocol.wire import parse_match_state

CLI = [sys.executable, "-m", "pokerbot.bot.cli"]
WEBUI = Path(human.__file__).parent / "webui"
TIMEOUT = 60.0


class Terminal:
    """A process on a pseudo-terminal (standard input, output and error, as a person's
    terminal): read its screen output, type lines."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(argv, cwd=cwd, stdin=slave, stdout=slave, stderr=slave)
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
    argv = [*CLI, "play", "-p", ports[0], "-g", "holdem-nolimit-2p", "--human", "--names", "person,bot"]
    person = Terminal(argv, tmp_path)
    try:
        table = person.read_until(r"your action> ")
        assert "=== hand 1, preflop ===" in table
        # The big blind, to act; the bot is the button and the small blind, and called.
        assert re.search(r"\n-> you  \w\w \w\w +bet 100 +stack 19900 +\(big blind 100\)\n", table)
        assert re.search(r"\n   bot  \?\? \?\? +bet 100 +stack 19900 +\(button, small blind 50\)\n", table)
        assert "preflop: bot calls 50" in table and "pot: 200" in table
        assert "your options: c = check; r N = raise to N (200..20000); a = all-in (raise to 20000)" in table
        assert "sizes: ½ pot = r 200; ⅔ pot = r 233; pot = r 300" in table
        for typed, said in (
            ("x", "not allowed: 'x' is not an action"),
            ("f", "not allowed: there is nothing to call: check (c) rather than fold"),
            ("r 150", "not allowed: a raise goes to 200..20000 here (20000 is all-in), not 150"),
            ("b 300", "not allowed: there is a bet to raise: r AMOUNT raises to 200..20000, or c calls 0"),
        ):
            person.type(typed)
            assert said in person.read_until(r"your action> ")
        person.type("r 300")  # the bot calls; on the flop the big blind acts first
        flop = person.read_until(r"your action> ")
        assert re.search(r"board: \w\w \w\w \w\w    pot: 600", flop)
        assert "preflop: bot calls 50, you raise to 300, bot calls 200" in flop
        assert "your options: c = check; b N = bet N (100..19700); a = all-in (bet 19700)" in flop
        person.type("b 100")  # a bet as players count it: 100 on the flop (the protocol's r400)
        turn = person.read_until(r"your action> ")
        assert "flop: you bet 100, bot calls 100" in turn and "pot: 800" in turn
        while True:
            person.type("c")
            text = person.read_until(r"your action> |final score of human: 3 hands, -?[\d.]+ chips")
            if "final score" in text:
                break
        score, _ = dealer.communicate(timeout=TIMEOUT)
        assert dealer.returncode == 0
    finally:
        person.close()
        bot.kill()
        dealer.kill()
    screen = person.screen
    assert "[info" not in screen and "Traceback" not in screen  # no log lines among the table's
    assert screen.count(" over (showdown): ") == 3  # the bot calls everything, the person checks or calls
    assert re.search(r"--- hand 1 over \(showdown\): you \w\w \w\w, [a-z ,]+; bot \w\w \w\w, [a-z ,]+; board", screen)
    outcomes = re.findall(r"you (won|lost) [\d.]+ chips \(([-+]?)[\d.]+ bb\)", screen)
    assert len(outcomes) == 3 and ("lost", "") in outcomes  # seed 5 deals the person a loss in hand 1
    for outcome in outcomes:
        assert outcome[1] == ("+" if outcome[0] == "won" else "")  # a loss is never printed with a plus sign
    assert "    you lost 400 chips (4.0 bb)\n    running total: -400 chips (-4.0 bb) after 1 hand\n" in screen
    assert re.search(r"\n    bot wins the pot of 800 with two pair, aces and sixes\n", screen)
    totals = re.findall(r"running total: (-?[\d.]+) chips \(([-+][\d.]+) bb\) after (\d) hands?", screen)
    assert [int(hands) for _, _, hands in totals] == [1, 2, 3]
    for chips, big_blinds, _ in totals:
        assert float(big_blinds) == pytest.approx(float(chips) / 100, abs=0.05)
    final = re.search(r"final score of human: 3 hands, (-?[\d.]+) chips", screen)
    assert final and re.match(rf"SCORE:{re.escape(final.group(1))}\|", score)
    assert float(totals[-1][0]) == float(final.group(1))
    report = check_log((tmp_path / "people.log").read_text().splitlines(), load_game("holdem-nolimit-2p"))
    assert report.ok and report.hands == 3
    assert "STATE:0:cr300c/r400c/" in (tmp_path / "people.log").read_text()  # "b 100" went out as r400


def test_typed_actions_are_judged_by_the_engine() -> None:
    game = load_game("holdem-nolimit-2p")
    state = parse_match_state("MATCHSTATE:1:0::|Jd4c", game).state  # the small blind, facing the big blind
    assert parse_typed_action("call", state) == Action(ActionKind.CALL)
    assert parse_typed_action(" R 600 ", state) == Action.raise_to(600)
    assert parse_typed_action("raise600", state) == Action.raise_to(600)
    assert parse_typed_action("a", state) == Action.raise_to(20000)
    assert parse_typed_action("fold", state) == Action(ActionKind.FOLD)
    for text, message in (
        ("", "type an action"),
        ("r", "say how much"),
        ("r 99999", "a raise goes to 200..20000 here"),
        ("bet 600", "there is a bet to raise"),
        ("check", "there is a bet to you: call 50"),
        ("f 20", "fold takes no amount"),
    ):
        with pytest.raises(TypedActionError, match=re.escape(message)):
            parse_typed_action(text, state)
    # On the flop, amounts count from the flop: "bet 100" is the protocol's raise to 400.
    flop = parse_match_state("MATCHSTATE:0:0:cr300c/:Jd4c|/Ah7c2d", game).state
    assert parse_typed_action("b 100", flop) == Action.raise_to(400)
    assert parse_typed_action("r 100", flop) == Action.raise_to(400)
    with pytest.raises(TypedActionError, match=re.escape("a bet is 100..19700 here")):
        parse_typed_action("b 50", flop)
    limit = load_game("holdem-limit-2p")
    capped = parse_match_state("MATCHSTATE:1:0:rrr:|Jd4c", limit).state
    with pytest.raises(TypedActionError, match="no more raises in this round"):
        parse_typed_action("r", capped)


def test_the_table_shows_limit_amounts_within_the_round() -> None:
    game = load_game("holdem-limit-2p")
    view = parse_match_state("MATCHSTATE:1:4:rc/r:|Ah5s/2c8dTh", game)
    lines = render_table(describe(view.state, view.hand_number, view.position), game)
    assert lines[0] == "=== hand 5, flop ==="
    assert "   board: 2c 8d Th    pot: 50" in lines
    assert "your options: f = fold; c = call 10; r = raise to 20" in lines
    assert "   preflop: you raise to 20, opponent calls 10" in lines and "   flop: opponent bets 10" in lines
    assert any(re.fullmatch(r"-> you +Ah 5s +\(button, small blind 5\)", line) for line in lines)


def test_a_showdown_names_the_hands_and_the_winner() -> None:
    game = load_game("holdem-nolimit-2p")
    view = parse_match_state("MATCHSTATE:1:3:cr300c/r400r1200c/cc/cc:Kd7h|Jd4c/Ah7c2d/3s/9c", game)
    table = describe(view.state, view.hand_number, view.position, ["me", "bot"])
    assert [seat.hand for seat in table.seats] == ["pair of sevens", "ace high"]
    assert table.winners == [0] and table.values == [1200.0, -1200.0]
    lines = render_result(table, game, -1200.0, 1)
    assert lines == [
        "--- hand 4 over (showdown): bot Kd 7h, pair of sevens; you Jd 4c, ace high; board Ah 7c 2d 3s 9c",
        "    bot wins the pot of 2400 with pair of sevens",
        "    you lost 1200 chips (12.0 bb)",
        "    running total: -1200 chips (-12.0 bb) after 1 hand",
    ]
    tie = parse_match_state("MATCHSTATE:0:2:r20000c///:Jd4c|Jh4d/Ah7c2d/3s/9c", game)
    tied = describe(tie.state, tie.hand_number, tie.position)
    assert tied.winners == [0, 1]
    assert render_result(tied, game, 0.0, 3)[1:3] == [
        "    you and opponent split the pot of 40000",
        "    you split the pot: no chips won or lost",
    ]
    kuhn = load_game("kuhn")
    won = parse_match_state("MATCHSTATE:1:0:rc:Qs|Ks", kuhn)
    lines = render_result(describe(won.state, won.hand_number, won.position), kuhn, 2.0, 1)
    assert lines[1:] == [
        "    you win the pot of 4 with king high",
        "    you won 2 chips (+2 antes)",
        "    running total: 2 chips (+2 antes) after 1 hand",
    ]


def test_the_docs_show_the_terminal_as_it_prints() -> None:
    """docs/playing.md's screens are what the terminal prints for those hands."""
    docs = Path(__file__).parent.parent / "docs" / "playing.md"
    turn, result, returned = re.findall(r"```text\n(.*?)```", docs.read_text(encoding="utf-8"), flags=re.S)
    game = load_game("holdem-nolimit-2p")
    flop = parse_match_state("MATCHSTATE:0:0:cr300c/:8s2h|/7hAdTd", game)
    lines = render_table(describe(flop.state, flop.hand_number, flop.position, ["me", "bot"]), game)
    assert turn.splitlines() == [*lines, "your action> b 200"]
    over = parse_match_state("MATCHSTATE:0:0:cr300c/r500c/cc/cc:8s2h|Kd5c/7hAdTd/4s/Kc", game)
    table = describe(over.state, over.hand_number, over.position, ["me", "bot"])
    assert result.splitlines() == render_result(table, game, -500.0, 1)
    folded = parse_match_state("MATCHSTATE:0:0:r300r20000f:Ah7d|", game)
    table = describe(folded.state, folded.hand_number, folded.position, ["me", "bot"])
    assert returned.splitlines() == render_result(table, game, 300.0, 1)


def test_ctrl_c_at_the_human_seat_says_the_tally_so_far(tmp_path: Path) -> None:
    dealer = subprocess.Popen(
        [*CLI, "dealer", "stopped", "kuhn", "100", "3", "person", "bot", "-p", "0,0", "-q", "--out", str(tmp_path)]
        + ["--t_per_hand", "600000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert dealer.stdout is not None
    ports = dealer.stdout.readline().split()
    bot = subprocess.Popen(
        [*CLI, "play", "-p", ports[1], "-g", "kuhn", "--strategy", "always-call"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    person = Terminal([*CLI, "play", "-p", ports[0], "-g", "kuhn", "--human", "--names", "person,bot"], tmp_path)
    try:
        totals = []
        while len(totals) < 2:
            text = person.read_until(r"your action> ")
            totals += re.findall(r"running total: (-?[\d.]+) chips \([-+]\d+ antes?\) after \d hands?", text)
            person.type("c")
        person.read_until(r"running total: .* after 3 hands")
        person.read_until(r"your action> ")
        time.sleep(1.0)  # the prompt is written before the terminal reads: Ctrl-C at the read
        person.process.send_signal(signal.SIGINT)
        stopped = person.read_until(
            r"stopped by Ctrl-C: running total: -?[\d.]+ chips \([-+]\d+ antes?\) after 3 hands"
        )
        assert person.process.wait(timeout=TIMEOUT) == 130
    finally:
        person.close()
        bot.kill()
        dealer.kill()
    last = re.findall(r"running total: (-?[\d.]+) chips", person.screen)
    assert stopped.endswith(" after 3 hands") and f"stopped by Ctrl-C: running total: {last[-1]} chips" in stopped


UNCALLED_ALL_IN = "STATE:0:r300r20000f:AhKh|2c7d:300|-300:you|bot"
"""The big blind raises all-in over a raise to 300; the small blind folds: 19,700 of the all-in
were never called."""


def test_an_uncalled_bet_is_returned_and_the_pot_is_the_pot_as_it_was_won() -> None:
    game = load_game("holdem-nolimit-2p")
    state = parse_state_line(UNCALLED_ALL_IN, game).state
    assert state.uncalled_bet() == (0, 19700) and state.collected() == (600.0, 0.0)
    lines = render_result(describe(state, 0, 0, ["you", "bot"]), game, 300.0, 1)
    assert lines[1:4] == [
        "    uncalled bet of 19700 returned to you",
        "    you win the pot of 600",
        "    you won 300 chips (+3.0 bb)",
    ]
    view = describe(state, 0, 1, ["you", "bot"]).to_json()  # the web page's view, as the folder
    assert (view["pot"], view["returned"], view["returned_to"]) == (600, 19700, 0)
    assert [seat["behind"] for seat in view["seats"]] == [20300, 19700]  # the stacks as the hand ends
    called = describe(parse_state_line("STATE:1:r300c/cc/cc/cc:AhKh|2c7d/2s3s4s/5s/9d:300|-300:a|b", game).state, 1, 0)
    assert called.to_json()["returned"] == 0 and called.pot == 600


def test_the_web_page_says_the_uncalled_bet_was_returned(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("needs Node.js to run the page's script (apt-get install nodejs)")
    game = load_game("holdem-nolimit-2p")
    state = parse_state_line(UNCALLED_ALL_IN, game).state
    view = describe(state, 0, 1, ["you", "bot"]).to_json()
    script = tmp_path / "check.js"
    script.write_text(
        "const vm = require('vm'); const fs = require('fs');\n"
        "const element = new Proxy({}, {get: () => element, set: () => true});\n"
        "const context = {location: {search: ''}, URLSearchParams, document: {getElementById: () => element},\n"
        "  window: {addEventListener: () => {}}, fetch: () => new Promise(() => {}), setTimeout, console};\n"
        "vm.createContext(context);\n"
        f"vm.runInContext(fs.readFileSync({json.dumps(str(WEBUI / 'app.js'))}, 'utf8'), context);\n"
        f"console.log(context.winnersText({json.dumps(view)}));\n"
    )
    said = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=60, check=True).stdout.strip()
    assert said == "uncalled bet of 19,700 returned to you; you win the pot of 600"
