"""The dealer over real sockets (port 0 always): full matches over TCP and WebSocket in
every built-in game, deals equal to the reference logs, and every way a match can break."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from pokerbot.bot.cli.dealer import run_dealer
from pokerbot.bot.client.play import ClientResult, DealerConnectionError, play_match
from pokerbot.bot.dealer.server import DealerConfig, MatchResult, serve_match
from pokerbot.bot.transports import LineConnection, connect
from pokerbot.bot.transports.tcp import TcpLineConnection
from pokerbot.protocol.actions import Action
from pokerbot.protocol.game import BUILTIN_GAMES, Game, load_game
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.matchlog import check_log, parse_state_line
from pokerbot.protocol.session import ActionRequired, ClientSession
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.registry import default_registry

FIXTURES = Path(__file__).parent / "fixtures" / "acpc"
REFERENCE_GAMES = sorted(path.name for path in FIXTURES.iterdir() if path.is_dir())
MATCH_TIMEOUT = 30.0
"""Seconds after which a test match counts as hung."""


def make_config(tmp_path: Path, game: str | Game, hands: int, **options: Any) -> DealerConfig:
    definition = load_game(game) if isinstance(game, str) else game
    names = ["A", "B", "C"][: definition.num_players]
    return DealerConfig(
        match_name="m", game=definition, hands=hands, seed=7, names=names, output_dir=tmp_path, **options
    )


async def start_dealer(config: DealerConfig, **callbacks: Any) -> tuple[asyncio.Task[MatchResult], list[int]]:
    """The running dealer and its ports."""
    ports: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()
    dealer = asyncio.create_task(serve_match(config, on_ports=ports.set_result, **callbacks))
    await asyncio.wait({dealer, ports}, return_when=asyncio.FIRST_COMPLETED)
    if not ports.done():
        raise AssertionError(f"the dealer stopped early: {dealer.result()}")
    return dealer, ports.result()


async def run_match(
    config: DealerConfig, strategies: Sequence[Strategy], **client_options: Any
) -> tuple[MatchResult, list[ClientResult]]:
    """A whole match: the dealer and one play_match client per seat."""
    async with asyncio.timeout(MATCH_TIMEOUT):
        dealer, ports = await start_dealer(config)
        clients = []
        for port, strategy in zip(ports, strategies):
            clients.append(
                play_match(seat_url(config, port), config.game, strategy, token=config.token, **client_options)
            )
        client_results = await asyncio.gather(*clients)
        return await dealer, list(client_results)


def seat_url(config: DealerConfig, port: int) -> str:
    return f"ws://127.0.0.1:{port}/" if config.transport == "ws" else f"tcp://127.0.0.1:{port}"


def tcp(port: int) -> str:
    return f"tcp://127.0.0.1:{port}"


def log_lines(result: MatchResult) -> list[str]:
    assert result.log_path is not None
    return result.log_path.read_text().splitlines()


def state_lines(result: MatchResult) -> list[str]:
    return [line for line in log_lines(result) if line.startswith("STATE:")]


def randoms(game: Game) -> list[Strategy]:
    registry = default_registry()
    return [registry.create("random", game, seed) for seed in range(game.num_players)]


class ReplayStrategy(Strategy):
    """Plays, hand by hand, the actions of a reference log."""

    name = "replay"

    def __init__(self, game: Game, hands: dict[int, list[Action]]) -> None:
        super().__init__(game)
        self.hands = hands

    def decide(self, view: MatchState, deadline: float) -> Action:
        return self.hands[view.hand_number][len(view.state.history())]


# ------------------------------------------------------------ whole matches
@pytest.mark.parametrize("game_name", sorted(BUILTIN_GAMES))
async def test_full_match_over_tcp(tmp_path: Path, game_name: str) -> None:
    config = make_config(tmp_path, game_name, 6)
    result, clients = await run_match(config, randoms(config.game))
    assert result.error is None and result.hands_played == 6
    assert [client.hands_played for client in clients] == [6] * config.game.num_players
    assert all(client.error is None and client.fallbacks == 0 for client in clients)
    report = check_log(log_lines(result), config.game)
    assert report.ok, report.problems
    assert report.hands == 6 and report.header[0] == f"# name/game/hands/seed m {game_name} 6 7"
    assert result.totals == pytest.approx(report.totals)
    assert sum(result.totals.values()) == pytest.approx(0.0)
    assert len(result.per_hand_values) == 6
    assert log_lines(result)[-1].startswith("SCORE:")


async def test_lines_that_must_wait_for_a_busy_connection_keep_their_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dealer and clients write without waiting while a connection's buffer is small; when
    it is not (here: every third write, as if the peer read slowly), the lines wait for the
    buffer to drain, and the inputs that come meanwhile are handled after them, in order:
    the match is the one played without waiting, line for line."""
    game = load_game("holdem-nolimit-2p")
    plain, _ = await run_match(make_config(tmp_path / "plain", game, 30), randoms(game))
    writes = itertools.count()
    send_now = TcpLineConnection.send_now

    def sometimes_backlogged(connection: TcpLineConnection, lines: Sequence[str]) -> bool:
        return next(writes) % 3 != 0 and send_now(connection, lines)

    monkeypatch.setattr(TcpLineConnection, "send_now", sometimes_backlogged)
    waiting, clients = await run_match(make_config(tmp_path / "waiting", game, 30), randoms(game))
    assert next(writes) > 300  # both paths were taken many times
    assert waiting.error is None and all(client.error is None and client.hands_played == 30 for client in clients)
    assert state_lines(waiting) == state_lines(plain) and len(state_lines(plain)) == 30


@pytest.mark.parametrize("game_name", sorted(BUILTIN_GAMES))
async def test_full_match_over_websocket(tmp_path: Path, game_name: str) -> None:
    config = make_config(tmp_path, game_name, 4, transport="ws", token="s3cret")
    result, clients = await run_match(config, randoms(config.game))
    assert result.error is None and result.hands_played == 4
    assert all(client.error is None and client.hands_played == 4 for client in clients)
    assert check_log(log_lines(result), config.game).ok


@pytest.mark.parametrize("name", REFERENCE_GAMES)
async def test_deals_and_log_equal_the_reference_log(tmp_path: Path, name: str) -> None:
    """Replaying a reference log's actions over TCP gives the reference log back."""
    game = load_game(FIXTURES / name / "game.txt")
    seed = int(name.rsplit("_s", 1)[1])
    lines = (FIXTURES / name / "log.txt").read_text().splitlines()
    reference = [line for line in lines if line.startswith("STATE")]
    names = lines[-1].split(":")[2].split("|")
    hands = 25
    replays = {
        hand.hand_number: [action for _, _, action in hand.state.history()]
        for hand in (parse_state_line(line, game) for line in reference[:hands])
    }
    config = DealerConfig(match_name="replay", game=game, hands=hands, seed=seed, names=names, output_dir=tmp_path)
    result, _ = await run_match(config, [ReplayStrategy(game, replays) for _ in range(game.num_players)])
    assert result.error is None
    # Byte for byte: deals, betting, values as the reference spells them, seating.
    assert state_lines(result) == reference[:hands]


async def test_log_is_flushed_after_every_hand(tmp_path: Path) -> None:
    config = make_config(tmp_path, "kuhn", 5)
    seen: list[int] = []

    def on_hand(hand: int) -> None:
        seen.append(len([line for line in config.log_path.read_text().splitlines() if line.startswith("STATE")]))
        assert seen[-1] == hand + 1

    async with asyncio.timeout(MATCH_TIMEOUT):
        dealer, ports = await start_dealer(config, on_hand=on_hand)
        await asyncio.gather(*(play_match(tcp(p), config.game, s) for p, s in zip(ports, randoms(config.game))))
        assert (await dealer).error is None
    assert seen == [1, 2, 3, 4, 5]


async def test_fixed_seats_keep_positions(tmp_path: Path) -> None:
    config = make_config(tmp_path, "kuhn", 3, fixed_seats=True)
    result, _ = await run_match(config, randoms(config.game))
    assert {line.split(":")[-1] for line in state_lines(result)} == {"A|B"}


# ------------------------------------------------------------ raw seats for misbehaviour
class RawSeat:
    """A hand-driven seat: it answers requests with whatever the test says."""

    def __init__(self, connection: LineConnection, game: Game) -> None:
        self.connection = connection
        self.session = ClientSession(game)

    @classmethod
    async def join(cls, port: int, game: Game, websocket: bool = False, hello: bool = True) -> RawSeat:
        connection = await connect(f"ws://127.0.0.1:{port}/" if websocket else tcp(port))
        seat = cls(connection, game)
        if hello:
            await seat.connection.send_lines([seat.session.hello()])
        return seat

    async def request(self) -> tuple[str, MatchState] | None:
        """The next state this seat must answer (its line and view), or None at the end."""
        while (line := await self.connection.read_line()) is not None:
            event = self.session.receive(line)
            if isinstance(event, ActionRequired):
                return line, event.view
        return None

    async def answer(self, text: str) -> None:
        await self.connection.send_lines([text])

    async def play_calls(self, until_hand: int | None = None) -> int:
        """Call every request; stop (returning the hand) at ``until_hand``'s first request."""
        while (request := await self.request()) is not None:
            line, view = request
            if until_hand is not None and view.hand_number >= until_hand:
                return view.hand_number
            await self.answer(f"{line}:c")
        return -1


Join = Callable[..., Awaitable[RawSeat]]


@pytest.fixture
async def join() -> AsyncIterator[Join]:
    """``await join(port, game, websocket=False, hello=True)``: a RawSeat, closed after the test."""
    seats: list[RawSeat] = []

    async def joined(*args: Any, **options: Any) -> RawSeat:
        seats.append(await RawSeat.join(*args, **options))
        return seats[-1]

    yield joined
    for seat in seats:
        with contextlib.suppress(ConnectionError):
            await seat.connection.close()


async def raw_match(config: DealerConfig, join: Join, script: Any) -> MatchResult:
    """Seat 1 runs ``script(seat)``; every other seat calls forever."""
    async with asyncio.timeout(MATCH_TIMEOUT):
        dealer, ports = await start_dealer(config)
        seats = [await join(port, config.game) for port in ports]
        others = [asyncio.create_task(seat.play_calls()) for seat in seats[1:]]
        await script(seats[0])
        result = await dealer
        await asyncio.gather(*others)
        return result


def assert_clean_end(result: MatchResult, hands: int, error: str) -> None:
    """The match broke off with ``error``; the log holds exactly the finished hands."""
    assert result.error is not None and re.search(error, result.error), result.error
    assert result.hands_played == hands
    assert len(state_lines(result)) == hands
    assert not log_lines(result)[-1].startswith("SCORE")


async def test_malformed_responses_are_ignored_or_called(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], join: Join
) -> None:
    config = make_config(tmp_path, "kuhn", 3)

    async def script(seat: RawSeat) -> None:
        request = await seat.request()
        assert request is not None
        line, _ = request
        await seat.answer("garbage")  # bad state: ignored
        await seat.answer("MATCHSTATE:0:0:cc:Ks|")  # another state: ignored
        await seat.answer(f"{line}:zz")  # malformed action: a call
        await seat.play_calls()

    result = await raw_match(config, join, script)
    assert result.error is None and result.hands_played == 3
    err = capsys.readouterr().err
    assert "bad state" in err and "another state" in err and "malformed action 'zz'" in err


async def test_invalid_actions_become_calls_until_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], join: Join
) -> None:
    config = make_config(tmp_path, "kuhn", 50, max_invalid=2)

    async def script(seat: RawSeat) -> None:
        while (request := await seat.request()) is not None:
            line, view = request
            folding_is_invalid = not view.state.legal_actions().can_fold
            await seat.answer(f"{line}:{'f' if folding_is_invalid else 'c'}")

    result = await raw_match(config, join, script)
    assert_clean_end(result, result.hands_played, r"seat 1 \(A\) made 3 invalid actions, more than the limit of 2")
    assert result.hands_played >= 2
    assert capsys.readouterr().err.count("changed to a call") == 2


async def test_a_slow_seat_times_out(tmp_path: Path, join: Join) -> None:
    config = make_config(tmp_path, "kuhn", 10, limits=TimeLimits(response_ms=150))

    async def script(seat: RawSeat) -> None:
        await seat.play_calls(until_hand=2)
        assert await seat.request() is None  # it never answers; the dealer gives up

    result = await raw_match(config, join, script)
    assert_clean_end(result, 2, r"seat 1 \(A\) ran out of time in hand 2: .*response limit of 150 ms")


async def test_a_seat_that_disconnects_mid_hand_ends_the_match(tmp_path: Path, join: Join) -> None:
    config = make_config(tmp_path, "holdem-limit-3p", 10)

    async def script(seat: RawSeat) -> None:
        await seat.play_calls(until_hand=3)
        await seat.connection.close()

    result = await raw_match(config, join, script)
    assert_clean_end(result, 3, r"seat 1 \(A\) closed the connection in hand 3")


async def test_a_line_over_4096_bytes_ends_the_match(tmp_path: Path, join: Join) -> None:
    config = make_config(tmp_path, "leduc", 10)

    async def script(seat: RawSeat) -> None:
        await seat.play_calls(until_hand=1)
        await seat.answer("x" * 5000)
        assert await seat.request() is None

    result = await raw_match(config, join, script)
    assert_clean_end(result, 1, r"seat 1 \(A\) sent an over-long line: .*longer than the limit of 4096 bytes")


@pytest.mark.parametrize("websocket", [False, True], ids=["tcp", "websocket"])
async def test_a_second_connection_to_a_taken_seat_is_refused(tmp_path: Path, websocket: bool, join: Join) -> None:
    config = make_config(tmp_path, "kuhn", 3, transport="ws" if websocket else "tcp")
    async with asyncio.timeout(MATCH_TIMEOUT):
        dealer, ports = await start_dealer(config)
        first = await join(ports[0], config.game, websocket)
        intruder = await join(ports[0], config.game, websocket, hello=False)
        assert await intruder.connection.read_line() == "# error: seat 1 is already taken"
        with contextlib.suppress(ConnectionError):  # a WebSocket closes with a policy code
            assert await intruder.connection.read_line() is None
        await intruder.connection.close()
        refused = await play_match(seat_url(config, ports[0]), config.game, randoms(config.game)[0])
        assert refused.hands_played == 0 and refused.error is not None
        assert "before the first hand (it said: error: seat 1 is already taken)" in refused.error
        second = await join(ports[1], config.game, websocket)
        await asyncio.gather(first.play_calls(), second.play_calls())
        result = await dealer
    assert result.error is None and result.hands_played == 3


async def test_a_bad_version_frees_the_seat(tmp_path: Path, join: Join) -> None:
    config = make_config(tmp_path, "kuhn", 2)
    async with asyncio.timeout(MATCH_TIMEOUT):
        dealer, ports = await start_dealer(config)
        old = await connect(tcp(ports[0]))
        await old.send_lines(["VERSION:1.0.0"])
        assert "not supported" in (await old.read_line() or "")
        await old.close()
        seats = [await join(port, config.game) for port in ports]
        await asyncio.gather(*(seat.play_calls() for seat in seats))
        assert (await dealer).error is None


async def test_a_wrong_websocket_token_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = make_config(tmp_path, "kuhn", 2, transport="ws", token="right")
    game = config.game
    async with asyncio.timeout(MATCH_TIMEOUT):
        dealer, ports = await start_dealer(config)
        url = f"ws://127.0.0.1:{ports[0]}/"
        for token in ("wrong", None):
            with pytest.raises(DealerConnectionError, match="HTTP 401"):
                await play_match(url, game, randoms(game)[0], token=token, connect_timeout=2)
        results = await asyncio.gather(
            play_match(url, game, randoms(game)[0], token="right"),
            play_match(f"ws://127.0.0.1:{ports[1]}/?token=right", game, randoms(game)[1]),
        )
        assert all(result.error is None for result in results)
        assert (await dealer).error is None
    err = capsys.readouterr().err
    assert "a wrong token" in err and "no token" in err


async def test_start_timeout_names_the_missing_seat(
    tmp_path: Path, join: Join, capsys: pytest.CaptureFixture[str]
) -> None:
    """The seat that came is told that it waits for the other, then why the dealer closes its
    connection, and the dealer does not say that the seat closed it."""
    config = make_config(tmp_path, "kuhn", 2, start_timeout_ms=200)
    async with asyncio.timeout(MATCH_TIMEOUT):
        dealer, ports = await start_dealer(config)
        seat = await join(ports[0], config.game)
        silent = await connect(tcp(ports[1]))  # connected, no version line yet
        result = await dealer
        waited = await seat.connection.read_line()
        told = [await seat.connection.read_line(), await silent.read_line()]
        await seat.connection.close()
        await silent.close()
    assert result.error == "start timeout: after 200 ms, still waiting for seat 2 (B)"
    assert result.hands_played == 0 and state_lines(result) == []
    assert waited == "# seats connected: 1 of 2"
    assert told == [f"# error: {result.error}; the dealer closes the connection"] * 2
    assert "closed the connection" not in capsys.readouterr().err


async def test_no_log_when_disabled(tmp_path: Path) -> None:
    config = make_config(tmp_path, "kuhn", 2, write_log=False)
    result, _ = await run_match(config, randoms(config.game))
    assert result.error is None and result.log_path is None and not list(tmp_path.iterdir())


def test_config_is_checked(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="3 player names given"):
        DealerConfig(match_name="m", game=load_game("kuhn"), hands=1, seed=1, names=["A", "B", "C"])
    with pytest.raises(ValueError, match="1 port given"):
        make_config(tmp_path, "kuhn", 1, ports=[0])
    with pytest.raises(ValueError, match="a token needs a transport that carries one"):
        make_config(tmp_path, "kuhn", 1, token="t")


# ------------------------------------------------------------ the command line
def test_reference_command_line(tmp_path: Path) -> None:
    """``pokerbot dealer`` with reference options, and two ``pokerbot play`` processes."""
    cli = [sys.executable, "-m", "pokerbot.bot.cli"]
    dealer = subprocess.Popen(
        [
            *cli,
            "dealer",
            "cli_match",
            "leduc",
            "3",
            "17",
            "Alice",
            "Bob",
            "-p",
            "0,0",
            "--t_response",
            "20000",
            "--t_hand=60000",
            "--t_per_hand",
            "10000",
            "--start_timeout",
            "20000",
            "-T",
            "-L",
            "--out",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert dealer.stdout is not None
        ports = dealer.stdout.readline().split()
        assert len(ports) == 2 and all(port.isdigit() for port in ports)
        seats = [  # by URL with the dealer's limits, and by port with the defaults
            [
                "--url",
                f"tcp://127.0.0.1:{ports[0]}",
                "--t_response",
                "20000",
                "--t_hand=60000",
                "--t_per_hand",
                "10000",
            ],
            ["--port", ports[1]],
        ]
        players = [
            subprocess.Popen(
                [*cli, "play", *seat, "--game", "leduc", "--strategy", "always-call", "--log-format", "json"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for seat in seats
        ]
        out, err = dealer.communicate(timeout=MATCH_TIMEOUT)
        for player in players:
            _, player_err = player.communicate(timeout=MATCH_TIMEOUT)
            assert player.returncode == 0, player_err
            assert '"event": "match_over"' in player_err
    finally:
        dealer.kill()
    assert dealer.returncode == 0, err
    assert re.fullmatch(r"SCORE:-?[\d.]+\|-?[\d.]+:Alice\|Bob\n", out)
    assert re.search(r"^TO 1 at \d+\.\d{6} MATCHSTATE:0:0::\w\w\|$", err, re.MULTILINE)
    assert re.search(r"^FROM \d at \d+\.\d{6} MATCHSTATE:\d:0:.*:c$", err, re.MULTILINE)
    log = (tmp_path / "cli_match.log").read_text().splitlines()
    assert log[:4] == [
        "# name/game/hands/seed cli_match leduc 3 17",
        "#--t_response 20000",
        "#--t_hand 60000",
        "#--t_per_hand 10000",
    ]
    assert check_log(log, load_game("leduc")).ok
    # As the reference: the header first and the SCORE line last on standard error too.
    assert err.splitlines()[:4] == log[:4]
    assert err.splitlines()[-1] == out.strip() == log[-1]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["m", "kuhn", "3", "1", "A"], "1 player name given"),
        (["m", "nosuchgame", "3", "1", "A", "B"], "nosuchgame"),
        (["m", "kuhn", "three", "1", "A", "B"], "'three' is not a whole number (pokerbot dealer HANDS)"),
        (["m", "kuhn", "3", "1", "A", "B", "-p", "1,x"], "port numbers"),
        (["m", "kuhn", "3", "1", "A", "B", "--bogus"], "unrecognized"),
        (["m", "kuhn", "3", "1", "A", "B", "--t_response", "0"], "positive number of milliseconds, got '0'"),
        (["m", "kuhn", "3", "1", "A", "B", "--transport", "udp"], "unknown transport 'udp'"),
        (["m", "kuhn", "3", "1", "A", "B|C"], "holds '|'"),
    ],
)
def test_bad_dealer_usage_exits_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_dealer(argv) == 2
    assert message in capsys.readouterr().err


def test_dealer_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_dealer(["-h"]) == 0
    assert "--t_response" in capsys.readouterr().out


async def test_a_seat_may_reconnect_before_the_match_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], join: Join
) -> None:
    config = make_config(tmp_path, "kuhn", 2)
    async with asyncio.timeout(MATCH_TIMEOUT):
        dealer, ports = await start_dealer(config)
        early = await join(ports[0], config.game)
        await early.connection.close()
        while "free again" not in capsys.readouterr().err:
            await asyncio.sleep(0.01)
        seats = [await join(port, config.game) for port in ports]
        await asyncio.gather(*(seat.play_calls() for seat in seats))
        assert (await dealer).error is None


async def test_a_failing_on_hand_callback_ends_the_match(tmp_path: Path) -> None:
    config = make_config(tmp_path, "kuhn", 5)

    def on_hand(hand: int) -> None:
        if hand == 1:
            raise RuntimeError("display broke")

    async with asyncio.timeout(MATCH_TIMEOUT):
        dealer, ports = await start_dealer(config, on_hand=on_hand)
        await asyncio.gather(*(play_match(tcp(p), config.game, s) for p, s in zip(ports, randoms(config.game))))
        result = await dealer
    assert result.error == "the on_hand callback failed: RuntimeError('display broke')"
    assert result.hands_played == 2 and len(state_lines(result)) == 2
