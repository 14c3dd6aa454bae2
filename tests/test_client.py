"""The player: time budgets, the strategy worker, fallbacks, observe, connection retries and
the ``pokerbot play`` command line, against scripted dealers on port 0."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import structlog
from structlog.testing import capture_logs
from typer.testing import CliRunner

from pokerbot.bot.cli.app import app
from pokerbot.bot.cli.play import LogFormat, configure_logging
from pokerbot.bot.client import play as client_module
from pokerbot.bot.client.play import DealerConnectionError, play_match
from pokerbot.bot.client.worker import StrategyBusyError, StrategyWorker
from pokerbot.bot.transports import LineConnection
from pokerbot.bot.transports.tcp import TcpLineConnection
from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.limits import RESPONSE_OVERHEAD_SECONDS, DecisionClock, TimeLimits
from pokerbot.protocol.wire import MatchState, parse_match_state
from pokerbot.strategies.base import Strategy

KUHN = load_game("kuhn")
HAND_0 = ["MATCHSTATE:0:0::Ks|", "MATCHSTATE:0:0:r:Ks|", "MATCHSTATE:0:0:rc:Ks|Qs"]
"""Position 0 acts first (it raises), position 1 calls: one request, then the end."""
HAND_1 = ["MATCHSTATE:1:1::|As", "MATCHSTATE:1:1:c:|As", "MATCHSTATE:1:1:cc:Qs|As"]
"""Position 1 waits, then acts after a check; the hand ends with the second check."""


@pytest.fixture(autouse=True)
def _fresh_structlog() -> Iterator[None]:
    """Tests that configure structlog must not leak it (it would write to a closed stream)."""
    yield
    structlog.reset_defaults()


class Scripted(Strategy):
    """Returns queued actions (or raises queued exceptions); records what it saw."""

    name = "scripted"

    def __init__(self, game: Game, *answers: Action | Exception) -> None:
        super().__init__(game)
        self.answers = list(answers)
        self.deadlines: list[float] = []
        """The deadlines the strategy was given (monotonic seconds, as the client's clock reads)."""
        self.observed: list[MatchState] = []

    def decide(self, view: MatchState, deadline: float) -> Action:
        self.deadlines.append(deadline)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    def observe(self, view: MatchState) -> None:
        self.observed.append(view)


class Dealer:
    """A scripted dealer seat: sends lines, and for each ActionRequired line records the reply."""

    def __init__(
        self, lines: list[str], requests: set[str], close_early: bool = False, pauses: dict[str, float] | None = None
    ) -> None:
        self.lines = lines
        self.requests = requests
        self.close_early = close_early
        self.pauses = pauses or {}
        """Seconds to wait after sending a line."""
        self.received: list[str] = []

    async def __call__(self, connection: LineConnection) -> None:
        self.received.append(await connection.read_line() or "")
        for line in self.lines:
            await connection.send_lines([line])
            if line in self.requests:
                self.received.append(await connection.read_line() or "")
            if line in self.pauses:
                await asyncio.sleep(self.pauses[line])


async def serve(handler: Callable[[LineConnection], Awaitable[None]]) -> tuple[asyncio.Server, int]:
    async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = TcpLineConnection(reader, writer)
        try:
            await handler(connection)
        finally:
            await connection.close()

    server = await asyncio.start_server(accepted, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def play_against(dealer: Dealer, strategy: Strategy, **options: Any) -> Any:
    """Play ``strategy`` against the scripted ``dealer``; by default in a worker thread, so that
    the test can look at the strategy object (a strategy process has its own copy)."""
    options.setdefault("isolation", "thread")
    game = options.pop("game", KUHN)
    server, port = await serve(dealer)
    async with server, asyncio.timeout(20):
        return await play_match(f"tcp://127.0.0.1:{port}", game, strategy, **options)


# ------------------------------------------------------------ decision clock
def test_clock_budget_follows_the_acpc_limits() -> None:
    clock = DecisionClock(TimeLimits(response_ms=2000, hand_ms=3000, per_hand_ms=1000))
    clock.start_hand()
    assert clock.available() == pytest.approx(1.0)  # one hand started: a 1 s bank
    soft, hard = clock.budget()
    assert hard == pytest.approx(0.95) and soft == pytest.approx(0.9 * 0.95)
    clock.charge(0.4)
    clock.start_hand()
    assert clock.available() == pytest.approx(1.6)  # 2 s bank minus 0.4 s used
    clock.charge(1.6)
    assert clock.budget() == (0.0, 0.0)


def test_clock_per_hand_and_time_per_action_caps() -> None:
    clock = DecisionClock(TimeLimits(response_ms=10_000, hand_ms=500, per_hand_ms=100_000), time_per_action=0.2)
    clock.start_hand()
    assert clock.budget() == pytest.approx((0.2, 0.2 * 1.1 + 0.02))
    clock.charge(0.4)
    assert clock.available() == pytest.approx(0.1)
    assert clock.budget() == pytest.approx((0.05, 0.05))
    with pytest.raises(ValueError, match="positive"):
        DecisionClock(time_per_action=0)


def test_an_answer_is_charged_with_what_the_dealer_adds_to_it() -> None:
    """Twenty answers of 45 ms by the client's clock leave less than 100 ms of a one-second
    hand: the dealer counts each a few milliseconds longer."""
    clock = DecisionClock(TimeLimits(response_ms=100, hand_ms=1000))
    clock.start_hand()
    for _ in range(20):
        clock.charge_response(0.045)
    assert clock.hand_seconds == pytest.approx(20 * (0.045 + RESPONSE_OVERHEAD_SECONDS))
    assert clock.available() < 0.1 and clock.budget()[1] < 0.05


def test_clock_margin_grows_with_the_lateness_seen_and_shrinks_back() -> None:
    from pokerbot.protocol.limits import LATENESS_MEMORY

    clock = DecisionClock(TimeLimits(response_ms=100, hand_ms=1000, per_hand_ms=100_000))
    clock.start_hand()
    assert clock.budget()[1] == pytest.approx(0.05)  # 100 ms less the 50 ms margin
    clock.note_lateness(0.03)  # an answer left 30 ms after its cut-off
    clock.note_lateness(-0.01)
    assert clock.budget()[1] == pytest.approx(0.02)
    clock.note_lateness(0.01)
    assert clock.budget()[1] == pytest.approx(0.02)  # the worst recent lateness counts
    for _ in range(LATENESS_MEMORY - 2):
        clock.note_lateness(0.0)
    assert clock.budget()[1] == pytest.approx(0.04)  # the 30 ms has been forgotten, the 10 ms not yet
    clock.note_lateness(0.0)
    clock.note_lateness(0.0)
    assert clock.budget()[1] == pytest.approx(0.05)


def test_a_strategy_process_runs_below_the_client_s_priority() -> None:
    from pokerbot.bot.client.runner import STRATEGY_NICENESS, ProcessRunner

    class Nice(Strategy):
        name = "nice"

        def decide(self, view: MatchState, deadline: float) -> Action:
            return LIMIT_RAISE if os.nice(0) > 0 else CALL

    async def ask() -> Action:
        runner = ProcessRunner(Nice(KUHN), KUHN)
        try:
            view = parse_match_state(HAND_0[0], KUHN)
            return await runner.decide(view, HAND_0[0], time.monotonic() + 5, 5.0)
        finally:
            await runner.close()

    assert os.nice(0) + STRATEGY_NICENESS <= 19
    assert asyncio.run(ask()) == LIMIT_RAISE


# ------------------------------------------------------------ strategy worker
async def test_worker_runs_calls_in_another_thread() -> None:
    worker = StrategyWorker()
    assert await worker.run(threading.get_ident, timeout=1) != threading.get_ident()
    with pytest.raises(ZeroDivisionError):
        await worker.run(lambda: 1 / 0, timeout=1)
    worker.close()


async def test_worker_refuses_a_second_call_while_one_overruns() -> None:
    worker = StrategyWorker()
    release = threading.Event()
    with pytest.raises(TimeoutError):
        await worker.run(release.wait, timeout=0.05)
    assert worker.busy
    with pytest.raises(StrategyBusyError):
        await worker.run(int, timeout=1)
    release.set()
    for _ in range(100):
        if not worker.busy:
            break
        await asyncio.sleep(0.01)
    assert await worker.run(int, "7", timeout=1) == 7
    worker.close()


# ------------------------------------------------------------ playing
async def test_plays_observes_and_ignores_comments() -> None:
    dealer = Dealer(["# welcome", "", *HAND_0, ";", *HAND_1], {HAND_0[0], HAND_1[1]})
    strategy = Scripted(KUHN, LIMIT_RAISE, CALL)
    result = await play_against(dealer, strategy)
    assert result.error is None and result.hands_played == 2 and result.fallbacks == 0
    assert dealer.received == ["VERSION:2.0.0", "MATCHSTATE:0:0::Ks|:r", "MATCHSTATE:1:1:c:|As:c"]
    assert [view.state.betting_string() for view in strategy.observed] == ["rc", "cc"]
    assert strategy.observed[1].state.hole_cards == [(KUHN.deck[0],), (KUHN.deck[2],)]


@pytest.mark.parametrize("isolation", ["inline", "thread", "process"])
@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (RuntimeError("boom"), "the strategy failed: RuntimeError: boom"),
        (FOLD, "the strategy chose an illegal action"),
        (Action.raise_to(5), "the strategy chose an illegal action"),
    ],
)
async def test_a_failing_strategy_falls_back_to_check_or_call(answer: Any, reason: str, isolation: str) -> None:
    dealer = Dealer(HAND_0, {HAND_0[0]})
    with capture_logs() as logs:
        result = await play_against(dealer, Scripted(KUHN, answer), isolation=isolation)
    assert result.fallbacks == 1 and result.error is None
    assert dealer.received[1] == "MATCHSTATE:0:0::Ks|:c"
    (fallback,) = [entry for entry in logs if entry["event"] == "fallback"]
    assert fallback["log_level"] == "warning" and reason in fallback["reason"]
    assert fallback["hand"] == 0 and fallback["action"] == "c"


HAND_2 = ["MATCHSTATE:0:2::Qs|", "MATCHSTATE:0:2:r:Qs|", "MATCHSTATE:0:2:rc:Qs|Ks"]
"""Hand 0 again, as the third hand, with other cards."""


@pytest.mark.parametrize("isolation", ["thread", "process"])
async def test_a_slow_strategy_is_cut_off_and_then_skipped_while_busy(isolation: str) -> None:
    release = threading.Event()  # (a strategy process has its own copy, never set: it is killed)

    class Slow(Strategy):
        name = "slow"

        def decide(self, view: MatchState, deadline: float) -> Action:
            release.wait(60)
            return CALL

    dealer = Dealer([*HAND_0, *HAND_1, *HAND_2], {HAND_0[0], HAND_1[1], HAND_2[0]})
    # A budget of about half a second (not 50 ms): on a loaded machine the event loop can
    # stall for tens of milliseconds between reading a request and asking the strategy,
    # and a request found already out of time falls back for that reason instead.
    started = time.monotonic()
    try:
        with capture_logs() as logs:
            result = await play_against(dealer, Slow(KUHN), time_per_action=0.5, isolation=isolation)
    finally:
        release.set()
    elapsed = time.monotonic() - started
    # Cut off, not waited for: a strategy that had been waited for would have answered (no fallback).
    assert result.fallbacks == 3 and result.hands_played == 3
    reasons = [entry["reason"] for entry in logs if entry["event"] == "fallback"]
    assert "did not answer within" in reasons[0] and "still busy" in reasons[2]
    # A strategy process takes the next request behind the late one (it may finish in time);
    # a third finds both in hand and waits for one to end until its own cut-off, so the
    # fallback leaves at the cut-off (three budgets in all), not at once. A thread takes one
    # at a time.
    assert ("did not answer within" if isolation == "process" else "still busy") in reasons[1]
    if isolation == "process":
        assert elapsed >= 3 * 0.45
    assert dealer.received[1:] == ["MATCHSTATE:0:0::Ks|:c", "MATCHSTATE:1:1:c:|As:c", "MATCHSTATE:0:2::Qs|:c"]


@pytest.mark.parametrize("isolation", ["thread", "process"])
async def test_a_late_strategy_in_a_process_falls_back_to_its_quick_action(isolation: str) -> None:
    release = threading.Event()

    class SlowWithQuick(Strategy):
        name = "slow-with-quick"

        def decide(self, view: MatchState, deadline: float) -> Action:
            release.wait(60)
            return CALL

        def quick_action(self, view: MatchState) -> Action | None:
            if view.hand_number == 1:
                raise RuntimeError("no quick action here")
            return LIMIT_RAISE

    dealer = Dealer([*HAND_0, *HAND_1], {HAND_0[0], HAND_1[1]})
    try:
        with capture_logs() as logs:
            result = await play_against(dealer, SlowWithQuick(KUHN), time_per_action=0.3, isolation=isolation)
    finally:
        release.set()
    assert result.fallbacks == 2 and result.hands_played == 2
    sources = [entry["source"] for entry in logs if entry["event"] == "fallback"]
    if isolation == "process":  # the client asks its own copy: the quick action, else check or call
        assert sources == ["quick", "check-or-call"]
        assert dealer.received[1:] == ["MATCHSTATE:0:0::Ks|:r", "MATCHSTATE:1:1:c:|As:c"]
    else:  # the strategy object is the one deciding: never asked
        assert sources == ["check-or-call", "check-or-call"]
        assert dealer.received[1:] == ["MATCHSTATE:0:0::Ks|:c", "MATCHSTATE:1:1:c:|As:c"]


async def test_a_request_behind_two_late_decisions_is_sent_when_one_of_them_ends() -> None:
    """With two decisions in hand (one late and still running, one queued behind it) the next
    request waits for one to end within its own time instead of falling back at once; the
    strategy then answers it."""

    class VeryLateOnce(Strategy):
        name = "very-late-once"
        decisions = 0

        def decide(self, view: MatchState, deadline: float) -> Action:
            self.decisions += 1
            if self.decisions == 1:
                time.sleep(1.25)  # past the first two cut-offs (about 0.57 s each), before the third
            return LIMIT_RAISE if view.state.can(LIMIT_RAISE) else CALL

    dealer = Dealer([*HAND_0, *HAND_1, *HAND_2], {HAND_0[0], HAND_1[1], HAND_2[0]})
    with capture_logs() as logs:
        result = await play_against(dealer, VeryLateOnce(KUHN), time_per_action=0.5, isolation="process")
    assert result.fallbacks == 2 and result.hands_played == 3
    reasons = [entry["reason"] for entry in logs if entry["event"] == "fallback"]
    assert all("did not answer within" in reason for reason in reasons)
    # Hand 2's request came about 1.14 s in, with both earlier decisions in hand; the first
    # ended at 1.25 s, the second's cut-off had passed (not run), and the strategy raised.
    assert dealer.received[1:] == ["MATCHSTATE:0:0::Ks|:c", "MATCHSTATE:1:1:c:|As:c", "MATCHSTATE:0:2::Qs|:r"]


async def test_a_request_behind_a_late_decision_is_answered_by_the_strategy_when_it_can_be() -> None:
    """Against a fast opponent the next request comes a moment after the fallback; the
    strategy process takes it as soon as the late decision is done, within its own time,
    instead of every request meanwhile getting the fallback."""

    class LateOnce(Strategy):
        name = "late-once"
        decisions = 0

        def decide(self, view: MatchState, deadline: float) -> Action:
            self.decisions += 1
            if self.decisions == 1:
                time.sleep(0.75)  # past the 0.57 s cut-off of the budget below
            return LIMIT_RAISE

    dealer = Dealer([*HAND_0, *HAND_1], {HAND_0[0], HAND_1[1]})
    with capture_logs() as logs:
        result = await play_against(dealer, LateOnce(KUHN), time_per_action=0.5, isolation="process")
    assert result.fallbacks == 1 and result.hands_played == 2
    (fallback,) = [entry for entry in logs if entry["event"] == "fallback"]
    assert fallback["hand"] == 0 and "did not answer within" in fallback["reason"]
    # Hand 1's request came about 0.57 s in, with a cut-off about 0.57 s later; the late
    # decision ended at 0.75 s, so the strategy answered it (a raise; the fallback calls).
    assert dealer.received[1:] == ["MATCHSTATE:0:0::Ks|:c", "MATCHSTATE:1:1:c:|As:r"]


@pytest.mark.parametrize("isolation", ["inline", "thread", "process"])
async def test_the_strategy_is_prepared_before_the_first_request(isolation: str) -> None:
    class NeedsPreparing(Scripted):
        prepared = False

        def prepare(self) -> None:
            self.prepared = True

        def decide(self, view: MatchState, deadline: float) -> Action:
            if not self.prepared:
                raise RuntimeError("not prepared")
            return super().decide(view, deadline)

    dealer = Dealer(HAND_0, {HAND_0[0]})
    result = await play_against(dealer, NeedsPreparing(KUHN, LIMIT_RAISE), isolation=isolation)
    assert result.fallbacks == 0 and dealer.received[1] == "MATCHSTATE:0:0::Ks|:r"


async def test_the_strategy_gets_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline is the moment the request arrived plus the soft budget (a frozen fake
    clock in the client, so the machine's load cannot move it)."""
    monkeypatch.setattr(client_module, "time", SimpleNamespace(monotonic=lambda: 1000.0))
    strategy = Scripted(KUHN, CALL)
    await play_against(Dealer(HAND_0, {HAND_0[0]}), strategy, time_per_action=0.5)
    assert strategy.deadlines == [1000.5]


async def test_a_dealer_closing_mid_hand_is_an_error() -> None:
    result = await play_against(Dealer(HAND_0[:1], {HAND_0[0]}), Scripted(KUHN, CALL))
    assert result.error == "the dealer closed the connection in the middle of hand 0"


async def test_a_dealer_that_never_deals_is_an_error() -> None:
    result = await play_against(Dealer(["# error: seat 1 is already taken"], set()), Scripted(KUHN))
    assert result.hands_played == 0
    assert result.error is not None and "it said: error: seat 1 is already taken" in result.error


async def test_a_malformed_dealer_line_is_logged_and_skipped() -> None:
    dealer = Dealer([*HAND_0, "MATCHSTATE:9:1::|As", *HAND_1], {HAND_0[0], HAND_1[1]})
    with capture_logs() as logs:
        result = await play_against(dealer, Scripted(KUHN, CALL, CALL))
    assert result.error is None and result.hands_played == 2
    assert [entry["event"] for entry in logs if entry["log_level"] == "warning"] == ["bad_line"]


@pytest.mark.parametrize("isolation", ["inline", "thread"])
async def test_a_dealer_of_another_game_is_said_once_and_the_client_stops(isolation: str) -> None:
    """Kuhn's lines read as Leduc's until the first hand ends: that line does not fit, and the
    client stops there (rather than skip every hand) and says why."""
    dealer = Dealer(HAND_1, {HAND_1[1]})
    leduc = load_game("leduc")
    with capture_logs() as logs:
        result = await play_against(dealer, Scripted(leduc, CALL), isolation=isolation, game=leduc)
    assert result.hands_played == 0
    assert result.mismatch == "'MATCHSTATE:1:1:cc:Qs|As': betting at offset 17: expected '/' (round 1 has started)"
    assert result.error is not None and result.mismatch in result.error
    assert not [entry for entry in logs if entry["log_level"] == "warning"]
    assert dealer.received == ["VERSION:2.0.0", "MATCHSTATE:1:1:c:|As:c"]  # the request that fit, answered


async def test_connecting_retries_until_the_dealer_listens() -> None:
    """A bound socket refuses connections until it listens: no race for the port."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    dealer = Dealer(HAND_0, {HAND_0[0]})
    client = asyncio.create_task(play_match(f"tcp://127.0.0.1:{port}", KUHN, Scripted(KUHN, CALL), connect_timeout=10))
    await asyncio.sleep(0.3)
    assert not client.done()

    async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = TcpLineConnection(reader, writer)
        await dealer(connection)
        await connection.close()

    server = await asyncio.start_server(accepted, sock=sock)
    async with server, asyncio.timeout(20):
        result = await client
    assert result.error is None and result.hands_played == 1


async def test_connect_timeout() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        # Bound but never listening: only the connect timeout ends the retries (the outer
        # timeout guards against a hang; it is not a timing assertion).
        with pytest.raises(DealerConnectionError, match=rf"127.0.0.1:{port} within 0.3 s"):
            async with asyncio.timeout(60):
                await play_match(f"tcp://127.0.0.1:{port}", KUHN, Scripted(KUHN), connect_timeout=0.3)


# ------------------------------------------------------------ command line
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "kuhn", "--strategy", "nobody", "--port", "1"], "unknown strategy 'nobody'"),
        (["--game", "nosuch", "--strategy", "always-call", "--port", "1"], "nosuch"),
        (["--game", "kuhn", "--strategy", "always-call"], "--port"),
        (["--game", "kuhn", "--strategy", "always-call", "--port", "1", "--token", "t"], "--token needs a transport"),
        (["--game", "kuhn", "--strategy", "always-call", "--url", "udp://h:1"], "no transport for 'udp://h:1'"),
    ],
)
def test_play_usage_errors_exit_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["play", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_play_cannot_connect_exits_1() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = str(sock.getsockname()[1])
        result = CliRunner().invoke(
            app,
            [
                "play",
                "--game",
                "kuhn",
                "--strategy",
                "always-call",
                "--port",
                port,
                "--connect-timeout",
                "0.2",
                "--log-format",
                "json",
            ],
        )
    assert result.exit_code == 1
    event = json.loads(result.output.strip().splitlines()[-1])
    assert event["event"] == "connect_failed" and event["level"] == "error"


def test_json_logs(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging(LogFormat.json)
    structlog.get_logger("t").warning("fallback", hand=3)
    structlog.get_logger("t").debug("hidden")
    (line,) = capsys.readouterr().err.splitlines()
    assert json.loads(line) | {"timestamp": None} == {
        "event": "fallback",
        "hand": 3,
        "level": "warning",
        "timestamp": None,
    }


# ------------------------------------------------------------ strategy processes
class Recording(Strategy):
    """Calls, then writes what it saw to a file (it may run in another process)."""

    name = "recording"

    def __init__(self, game: Game, path: Path) -> None:
        super().__init__(game)
        self.path = path

    def decide(self, view: MatchState, deadline: float) -> Action:
        with open(self.path, "a") as out:
            out.write(f"decide|{view.hand_number}|{view.state.betting_string()}|{os.getpid()}\n")
        return CALL

    def observe(self, view: MatchState) -> None:
        with open(self.path, "a") as out:
            out.write(f"observe|{view.hand_number}|{view.state.betting_string()}|{os.getpid()}\n")


async def test_a_strategy_process_decides_and_observes_in_order(tmp_path: Path) -> None:
    record = tmp_path / "record.txt"
    dealer = Dealer([*HAND_0, *HAND_1], {HAND_0[0], HAND_1[1]})
    result = await play_against(dealer, Recording(KUHN, record), isolation="process")
    assert result.error is None and result.fallbacks == 0 and result.hands_played == 2
    lines = [line.split("|") for line in record.read_text().splitlines()]
    # Hand 0's end is observed before hand 1's request, which came behind it.
    assert [line[:3] for line in lines] == [
        ["decide", "0", ""],
        ["observe", "0", "rc"],
        ["decide", "1", "c"],
        ["observe", "1", "cc"],
    ]
    assert result.observed == 2 and result.largest_lag == 0
    pids = {line[3] for line in lines}
    assert len(pids) == 1 and pids != {str(os.getpid())}  # one process, not this one


def _two_ends_and_a_request(record: Path, ordered: bool, cutoff: float = 5.0) -> tuple[list[bytes], list[list[str]]]:
    """Two hands' ends and a request (its cut-off ``cutoff`` seconds from now) wait in a
    strategy process's pipe before it starts: its replies, and what the strategy saw (kind,
    hand, betting) in order."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    client, child = context.Pipe(duplex=True)
    client.send_bytes(b"O" + HAND_0[2].encode())
    client.send_bytes(b"O" + HAND_1[2].encode())
    now = time.monotonic()
    client.send_bytes(f"D{now + 5!r} {now + cutoff!r} {HAND_0[0]}".encode())
    server = context.Process(
        target=_serve_without, args=(client, child, Recording(KUHN, record), KUHN, ordered), daemon=True
    )
    server.start()  # only now: all three are waiting in its pipe
    child.close()
    replies = [client.recv_bytes() for _ in range(3)]
    client.close()
    server.join(10)
    assert server.exitcode == 0  # the pipe closed, the child returned
    return replies, [line.split("|")[:3] for line in record.read_text().splitlines()]


def _serve_without(parent_end: Any, child_end: Any, *arguments: Any) -> None:
    """``_serve`` in a forked child that first closes its copy of the parent's end of the pipe,
    so that the parent closing its end ends the child's loop at once."""
    from pokerbot.bot.client.runner import _serve

    parent_end.close()
    _serve(child_end, *arguments)


@pytest.mark.parametrize("ordered", [False, True])
def test_a_strategy_process_observes_the_waiting_hands_before_the_request(tmp_path: Path, ordered: bool) -> None:
    """Both hands' ends are observed, in order, before the request that came behind them."""
    replies, seen = _two_ends_and_a_request(tmp_path / "record.txt", ordered=ordered)
    assert replies == [b"K", b"K", b"Ac"]
    assert seen == [["observe", "0", "rc"], ["observe", "1", "cc"], ["decide", "0", ""]]


@pytest.mark.parametrize("ordered", [False, True])
def test_a_request_past_its_cut_off_is_not_run(tmp_path: Path, ordered: bool) -> None:
    """A request the child reaches after its cut-off (the client has sent its fallback) gets
    an error at once and the strategy never sees it, so the child is free for the next one;
    ``ordered`` (``pokerbot match``) runs every request, late or not."""
    replies, seen = _two_ends_and_a_request(tmp_path / "record.txt", ordered=ordered, cutoff=-1.0)
    if ordered:
        assert replies == [b"K", b"K", b"Ac"]
        assert ["decide", "0", ""] in seen
    else:
        assert replies[:2] == [b"K", b"K"]
        assert replies[2].startswith(b"E") and b"time was up" in replies[2]
        assert seen == [["observe", "0", "rc"], ["observe", "1", "cc"]]


async def test_an_ordered_slow_learner_observes_every_hand(tmp_path: Path) -> None:
    """The match of the skipping test below, ``ordered`` (``pokerbot match``, where the match
    must not depend on the load): hand 1's end is observed, after the late decision."""
    record = tmp_path / "record.txt"

    class SlowLearner(Recording):
        def observe(self, view: MatchState) -> None:
            time.sleep(0.6)
            super().observe(view)

    # Hand 1's request comes 0.1 s into hand 0's 0.6 s observation, so its 0.3 s run out; hand
    # 0's decision has the same 0.3 s, ample even on a loaded machine.
    dealer = Dealer([*HAND_0, *HAND_1], {HAND_0[0], HAND_1[1]}, pauses={HAND_0[2]: 0.1})
    with capture_logs() as logs:
        result = await play_against(
            dealer, SlowLearner(KUHN, record), time_per_action=0.3, isolation="process", ordered=True
        )
    assert result.hands_played == 2 and result.error is None and result.fallbacks == 1
    assert not [entry for entry in logs if entry["event"] == "observe_skipped"]
    assert [line.split("|")[:2] for line in record.read_text().splitlines()] == [
        ["decide", "0"],
        ["observe", "0"],
        ["decide", "1"],
        ["observe", "1"],
    ]


async def test_a_strategy_holding_the_interpreter_lock_cannot_delay_the_fallback() -> None:
    """A long call into C holds Python's lock: in a process of its own it cannot stop the
    client's loop, which sends the fallback while the call still runs (2**40 steps: hours; a
    worker thread could not, its loop would wait for the lock until the match's timeout)."""

    class Backtracking(Strategy):
        name = "backtracking"

        def decide(self, view: MatchState, deadline: float) -> Action:
            re.match(r"(a+)+$", "a" * 40 + "b")  # catastrophic backtracking, all in C
            return CALL

    dealer = Dealer(HAND_0, {HAND_0[0]})
    with capture_logs():
        result = await play_against(dealer, Backtracking(KUHN), time_per_action=0.05, isolation="process")
    assert result.fallbacks == 1 and result.hands_played == 1
    assert dealer.received[1] == "MATCHSTATE:0:0::Ks|:c"


async def test_a_dying_strategy_process_leaves_the_fallback() -> None:
    class Dying(Strategy):
        name = "dying"

        def decide(self, view: MatchState, deadline: float) -> Action:
            os._exit(3)

    dealer = Dealer([*HAND_0, *HAND_1], {HAND_0[0], HAND_1[1]})
    with capture_logs() as logs:
        result = await play_against(dealer, Dying(KUHN), isolation="process")
    assert result.fallbacks == 2 and result.hands_played == 2 and result.error is None
    reasons = [entry["reason"] for entry in logs if entry["event"] == "fallback"]
    assert all("strategy process ended (exit code 3)" in reason for reason in reasons)


def test_cheap_strategies_run_inline_and_others_in_a_process() -> None:
    from pokerbot.bot.client.runner import InlineRunner, ProcessRunner, make_runner
    from pokerbot.strategies.baselines import RandomPlayer

    assert isinstance(make_runner(RandomPlayer(KUHN), KUHN), InlineRunner)
    runner = make_runner(Scripted(KUHN), KUHN)
    assert isinstance(runner, ProcessRunner)
    asyncio.run(runner.close())
    assert not runner.process.is_alive()


async def test_a_strategy_that_cannot_keep_up_observes_every_hand_and_decides_on_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "record.txt"
    monkeypatch.setattr("pokerbot.bot.client.runner.DRAIN_SECONDS", 5.0)  # hand 1's 0.8 s, after the match

    class SlowLearner(Recording):
        def observe(self, view: MatchState) -> None:
            time.sleep(0.8)
            super().observe(view)

    # The pause lets hand 0's observation begin before hand 1's request comes; that request's
    # 0.3 s end 0.5 s into the 0.8 s observation (hand 0's decision has 0.3 s: ample under load).
    dealer = Dealer([*HAND_0, *HAND_1], {HAND_0[0], HAND_1[1]}, pauses={HAND_0[2]: 0.2})
    with capture_logs() as logs:
        result = await play_against(dealer, SlowLearner(KUHN, record), time_per_action=0.3, isolation="process")
    assert result.hands_played == 2 and result.error is None
    # Hand 1's request waited behind hand 0's observation: it fell back on time. The child
    # reached the request after its cut-off, so it never ran it (the fallback had answered
    # it); hand 1's end was observed after, before the runner closed.
    assert result.fallbacks == 1 and result.observed == 2
    assert not [entry for entry in logs if entry["event"] == "observe_skipped"]
    assert [line.split("|")[:2] for line in record.read_text().splitlines()] == [
        ["decide", "0"],
        ["observe", "0"],
        ["observe", "1"],
    ]


async def test_hands_ending_faster_than_the_strategy_observes_are_all_observed_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight hands whose ends come faster than a 0.1 s observation: each is observed before
    the next hand's decision, none skipped, and the count is the client's."""
    record = tmp_path / "record.txt"
    monkeypatch.setattr("pokerbot.bot.client.runner.DRAIN_SECONDS", 5.0)  # the last ones, after the match

    class SlowLearner(Recording):
        def observe(self, view: MatchState) -> None:
            time.sleep(0.1)
            super().observe(view)

    hands = [[f"MATCHSTATE:0:{i}::Ks|", f"MATCHSTATE:0:{i}:c:Ks|", f"MATCHSTATE:0:{i}:cc:Ks|Qs"] for i in range(8)]
    dealer = Dealer([line for hand in hands for line in hand], {hand[0] for hand in hands})
    with capture_logs() as logs:
        result = await play_against(dealer, SlowLearner(KUHN, record), time_per_action=2.0, isolation="process")
    assert result.hands_played == 8 and result.observed == 8 and result.fallbacks == 0
    assert result.largest_lag == 0
    assert not [entry for entry in logs if entry["event"] == "observe_skipped"]
    seen = [line.split("|")[:2] for line in record.read_text().splitlines()]
    assert seen == [[kind, str(i)] for i in range(8) for kind in ("decide", "observe")]


def test_a_closed_runner_s_process_ends_by_itself_at_once() -> None:
    """The strategy process holds no copy of the client's end of the pipe: closing the runner
    is an end of file there, and the process returns (exit code 0) instead of being killed."""
    from pokerbot.bot.client.runner import ProcessRunner

    runner = ProcessRunner(Scripted(KUHN), KUHN)
    started = time.monotonic()
    asyncio.run(runner.close())
    assert runner.process.exitcode == 0
    assert time.monotonic() - started < 0.9  # the kill came after a 1 s wait


def test_play_prepares_the_strategy_and_freezes_it_before_the_match(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from pokerbot.bot.cli import play as play_cli
    from pokerbot.bot.client.play import ClientResult
    from pokerbot.strategies.resolve.exploiter import ResolvingExploiter

    seen: list[tuple[bool, int]] = []
    calls: list[Strategy] = []
    original = ResolvingExploiter.prepare

    def prepare(self: ResolvingExploiter) -> None:
        original(self)
        calls.append(self)

    async def fake_play_match(url: str, game: Game, strategy: Strategy, **options: Any) -> ClientResult:
        seen.append((calls == [strategy], gc.get_freeze_count()))  # the default, adaptive, re-solves
        return ClientResult(0, 0)

    monkeypatch.setattr(ResolvingExploiter, "prepare", prepare)
    monkeypatch.setattr(play_cli, "play_match", fake_play_match)
    frozen_before = gc.get_freeze_count()
    try:
        result = CliRunner().invoke(app, ["play", "--game", "holdem-nolimit-2p", "--port", "1"])
    finally:
        gc.unfreeze()
    assert result.exit_code == 0, result.output
    ((prepared, frozen),) = seen
    assert prepared  # the solver's code was loaded before the dealer was reached
    assert frozen > frozen_before  # and what was loaded is out of the collector's sight


def test_play_prepare_only_prepares_the_strategy_and_connects_to_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--prepare-only`` (run once after installing, or in an image's build, so that compiled
    code is cached): the strategy is prepared, no seat is needed and none is reached."""
    from pokerbot.bot.cli import play as play_cli

    marker = tmp_path / "prepared.txt"
    bot = tmp_path / "mybot.py"
    bot.write_text(
        "from pathlib import Path\n"
        "from pokerbot.protocol.actions import CALL\n"
        "from pokerbot.strategies.base import Strategy\n\n"
        "class Preparing(Strategy):\n"
        "    name = 'preparing'\n\n"
        "    def decide(self, view, deadline):\n"
        "        return CALL\n\n"
        "    def prepare(self):\n"
        f"        Path({str(marker)!r}).write_text('yes')\n"
    )

    async def no_match(*args: Any, **options: Any) -> Any:
        raise AssertionError("--prepare-only must not connect")

    monkeypatch.setattr(play_cli, "play_match", no_match)
    result = CliRunner().invoke(app, ["play", "--game", "kuhn", "--strategy", f"{bot}:Preparing", "--prepare-only"])
    assert result.exit_code == 0, result.output
    assert marker.read_text() == "yes"
    assert f"prepared {bot}:Preparing for kuhn in" in result.output


async def test_an_over_long_line_from_the_dealer_is_said_to_be_why_the_client_closed() -> None:
    dealer = Dealer([HAND_0[0][:-1] + "x" * 5000], set())
    with capture_logs():
        result = await play_against(dealer, Scripted(KUHN), isolation="inline")
    assert result.error is not None and "over-long line" in result.error
    assert result.error.startswith("the client closed the connection") and "dealer closed" not in result.error


async def test_a_token_in_the_dealer_s_url_is_never_logged_or_shown() -> None:
    from pokerbot.bot.client.play import connect

    with socket.socket() as unused:  # a port nobody listens on
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    url = f"ws://127.0.0.1:{port}/seat?token=s3cret&x=1"
    with capture_logs() as logs, pytest.raises(DealerConnectionError) as raised:
        await connect(url, connect_timeout=1.0)  # refused at once, retried for 1 s: logged
    assert "s3cret" not in str(raised.value) and "token=***" in str(raised.value)
    assert [entry for entry in logs if entry["event"] == "connect_retry"] and "s3cret" not in repr(logs)


def test_redact_url_hides_tokens_and_passwords_only() -> None:
    from pokerbot.bot.transports import redact_url

    assert redact_url("ws://h:1/p?token=abc&seat=2") == "ws://h:1/p?token=***&seat=2"
    assert redact_url("wss://user:pw@h:1/") == "wss://user:***@h:1/"
    assert redact_url("tcp://127.0.0.1:9") == "tcp://127.0.0.1:9"


class Searching(Strategy):
    """Takes ``seconds`` over each decision and each hand's end, as a searching agent does: a
    strategy process kept busy against an opponent who answers at once."""

    name = "searching"

    def __init__(self, game: Game, seconds: float) -> None:
        super().__init__(game)
        self.seconds = seconds

    def decide(self, view: MatchState, deadline: float) -> Action:
        time.sleep(self.seconds)
        return CALL

    def observe(self, view: MatchState) -> None:
        time.sleep(self.seconds)


async def test_against_an_instant_opponent_every_hand_is_observed_before_the_next_decision(tmp_path: Path) -> None:
    """500 hands of no-limit hold'em over TCP against ``random`` (answered inline, at once;
    some hands end before our first decision) with our dealer: the strategy process observes
    all 500 hands' ends, and at every decision it answered it had observed every hand finished
    before (a lag of 0: never more than the hand in play behind)."""
    from pokerbot.bot.dealer.server import DealerConfig, serve_match
    from pokerbot.strategies.baselines import RandomPlayer

    game = load_game("holdem-nolimit-2p")
    config = DealerConfig(
        match_name="m", game=game, hands=500, seed=3, names=["S", "R"], output_dir=tmp_path, quiet=True
    )
    ports: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()
    async with asyncio.timeout(300):
        dealer = asyncio.create_task(serve_match(config, on_ports=ports.set_result))
        url = "tcp://127.0.0.1:{}".format
        seats = await ports
        ours, theirs = await asyncio.gather(
            play_match(url(seats[0]), game, Searching(game, 0.002), isolation="process"),
            play_match(url(seats[1]), game, RandomPlayer(game, 5)),
        )
        outcome = await dealer
    assert outcome.error is None and ours.error is None and theirs.error is None
    assert ours.hands_played == 500 and ours.observed == 500
    assert ours.largest_lag == 0
    assert ours.fallbacks < 50  # the strategy answered most requests itself: its lag was measured


async def test_a_strategy_whose_observe_raises_is_shown_every_hand_and_the_error_logged(tmp_path: Path) -> None:
    """Hand 0's observation raises in the strategy process: the client logs it when it sends
    the next hand's end, which the strategy still gets (every hand counted as observed)."""
    record = tmp_path / "record.txt"

    class Failing(Recording):
        def observe(self, view: MatchState) -> None:
            super().observe(view)
            if view.hand_number == 0:
                raise RuntimeError("no lesson today")

    dealer = Dealer([*HAND_0, *HAND_1], {HAND_0[0], HAND_1[1]})
    with capture_logs() as logs:
        result = await play_against(dealer, Failing(KUHN, record), isolation="process")
    assert result.hands_played == 2 and result.observed == 2 and result.largest_lag == 0
    failed = [entry for entry in logs if entry["event"] == "observe_failed"]
    assert [entry["hand"] for entry in failed] == [1] and "no lesson today" in failed[0]["error"]
    seen = [line.split("|")[:2] for line in record.read_text().splitlines()]
    assert [hand for kind, hand in seen if kind == "observe"] == ["0", "1"]
