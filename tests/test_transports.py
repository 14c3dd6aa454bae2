"""Transports chosen by URL: the registry, and one conformance suite run over every
registered transport the dealer can serve (lines both ways, the 4096-byte limit, closing,
errors translated inside the transport); a new transport is one class and one registry line."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from pokerbot.bot.matches.loopback import run_loopback_match_async
from pokerbot.bot.transports import (
    TRANSPORTS,
    HandshakeRefusedError,
    LineConnection,
    LineTooLongError,
    Listener,
    Transport,
    TransportURLError,
    connect,
    transport_for,
)
from pokerbot.bot.transports.tcp import TcpTransport
from pokerbot.protocol.game import load_game
from pokerbot.protocol.matchlog import check_log
from pokerbot.strategies.registry import default_registry

SERVED = sorted(name for name, transport in TRANSPORTS.items() if transport.can_listen)


class Echo:
    """A handler that sends every line back upper-cased, and records what it saw."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ended: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def __call__(self, connection: LineConnection) -> None:
        try:
            while (line := await connection.read_line()) is not None:
                self.lines.append(line)
                await connection.send_lines([line.upper()])
            self.ended.set_result("closed")
        except LineTooLongError as error:
            self.ended.set_result(f"too long: {error}")


async def serving(scheme: str, echo: Echo, token: str | None = None) -> tuple[Listener, str]:
    transport = transport_for(scheme)
    listener = await transport.listen("127.0.0.1", 0, echo, token=token)
    return listener, transport.seat_url("127.0.0.1", listener.port)


@pytest.fixture
async def echo() -> AsyncIterator[Echo]:
    yield Echo()


@pytest.mark.parametrize("scheme", SERVED)
async def test_lines_go_both_ways_and_a_close_reads_as_none(scheme: str, echo: Echo) -> None:
    listener, url = await serving(scheme, echo)
    try:
        async with asyncio.timeout(10):
            connection = await connect(url)
            await connection.send_lines(["VERSION:2.0.0", "MATCHSTATE:0:0::Ks|:c"])
            assert [await connection.read_line(), await connection.read_line()] == [
                "VERSION:2.0.0",
                "MATCHSTATE:0:0::KS|:C",
            ]
            assert not connection.backlogged and connection.peer.startswith("127.0.0.1:")
            await connection.close()
            assert await echo.ended == "closed"
    finally:
        listener.close()
        await listener.wait_closed()
    assert echo.lines == ["VERSION:2.0.0", "MATCHSTATE:0:0::Ks|:c"]


@pytest.mark.parametrize("scheme", SERVED)
async def test_an_over_long_line_is_one_error_type(scheme: str, echo: Echo) -> None:
    listener, url = await serving(scheme, echo)
    try:
        async with asyncio.timeout(10):
            connection = await connect(url)
            await connection.send_lines(["x" * 5000])
            assert (await echo.ended).startswith("too long: line from 127.0.0.1:")
            await connection.close()
    finally:
        listener.close()
        await listener.wait_closed()


async def test_a_refused_handshake_is_translated(echo: Echo) -> None:
    listener, url = await serving("ws", echo, token="right")
    try:
        async with asyncio.timeout(10):
            with pytest.raises(HandshakeRefusedError, match="HTTP 401 \\(missing or wrong token\\)"):
                await connect(url, token="wrong")
            connection = await connect(url, token="right")
            await connection.send_lines(["hello"])
            assert await connection.read_line() == "HELLO"
            await connection.close()
    finally:
        listener.close()
        await listener.wait_closed()


async def test_nobody_listening_is_an_oserror() -> None:
    listener = await TcpTransport().listen("127.0.0.1", 0, Echo())
    port = listener.port
    listener.close()
    await listener.wait_closed()
    for url in (f"tcp://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/"):
        with pytest.raises(OSError):
            await connect(url, timeout=2)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("udp://127.0.0.1:9", "no transport for 'udp://127.0.0.1:9': a URL must start with one of tcp://, ws://"),
        ("carrier-pigeon", "unknown transport 'carrier-pigeon': the transports are tcp, ws"),
        ("tcp://127.0.0.1", "needs a host and a port"),
        ("tcp://127.0.0.1:99999", "not a number in 0..65535"),
    ],
)
async def test_bad_urls_say_what_is_wrong(url: str, message: str) -> None:
    with pytest.raises(TransportURLError, match=message.replace("(", "\\(")):
        await connect(url)


async def test_tokens_only_where_the_transport_carries_them() -> None:
    with pytest.raises(TransportURLError, match="tokens need"):
        await connect("tcp://127.0.0.1:1", token="t")
    assert transport_for("ws").supports_token and not transport_for("tcp").supports_token
    assert transport_for("WS://h:1/").scheme == "ws"
    assert transport_for("ws").seat_url("::1", 5) == "ws://[::1]:5/"
    assert transport_for("tcp").seat_url("127.0.0.1", 5) == "tcp://127.0.0.1:5"


class CountingTcp(TcpTransport):
    """A 'new' transport: what a new module would hold (here, TCP that counts connections)."""

    scheme = "counted"

    def __init__(self) -> None:
        self.connections = 0

    async def connect(self, url: str, *, token: str | None = None, timeout: float = 10.0) -> LineConnection:
        self.connections += 1
        return await super().connect(url, token=token, timeout=timeout)


async def test_a_new_transport_is_one_class_and_one_registry_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    transport: Transport = CountingTcp()
    monkeypatch.setitem(TRANSPORTS, "counted", transport)  # the one registry line
    game = load_game("leduc")
    registry = default_registry()
    players = [registry.create("always-call", game, 1), registry.create("random", game, 2)]
    outcome = await run_loopback_match_async(game, 5, 3, players, ["a", "b"], output_dir=tmp_path, transport="counted")
    assert outcome.error is None and outcome.hands_played == 5
    assert isinstance(transport, CountingTcp) and transport.connections == 2
    assert outcome.log_path is not None and check_log(outcome.log_path.read_text().splitlines(), game).ok
