"""TCP: ``tcp://host:port``. Lines end with ``\\r\\n`` (a bare ``\\n`` is accepted), as the
reference dealer speaks them; a line over 4096 bytes, terminator included, raises
:class:`~pokerbot.bot.transports.base.LineTooLongError`."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable, Sequence

from pokerbot.bot.transports.base import (
    BACKLOG_BYTES,
    REFUSAL_GRACE_SECONDS,
    STREAM_LIMIT,
    ConnectionHandler,
    LineConnection,
    Listener,
    Transport,
    TransportURLError,
    no_delay,
    peer_name,
    split_address,
    too_long,
)
from pokerbot.protocol.wire import MAX_LINE_LENGTH, strip_terminator


class TcpLineConnection(LineConnection):
    """A TCP connection with ``\\r\\n`` line framing over asyncio streams."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        no_delay(writer.get_extra_info("socket"))
        self.peer = peer_name(writer.get_extra_info("peername"))

    async def read_line(self) -> str | None:
        try:
            data = await self._reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as error:
            data = error.partial  # the peer closed; a last unterminated line still counts
            if not data:
                return None
        except asyncio.LimitOverrunError:
            raise too_long(self.peer, f"more than {STREAM_LIMIT}") from None
        if len(data) > MAX_LINE_LENGTH:
            raise too_long(self.peer, len(data))
        return strip_terminator(data.decode("utf-8", "replace"))

    @property
    def backlogged(self) -> bool:
        return self._writer.transport.get_write_buffer_size() > BACKLOG_BYTES

    async def send_lines(self, lines: Sequence[str]) -> None:
        if self._writer.is_closing():
            raise ConnectionResetError(f"the connection to {self.peer} is closed")
        self._writer.write(
            (lines[0] + "\r\n" if len(lines) == 1 else "".join(f"{line}\r\n" for line in lines)).encode()
        )
        await self._writer.drain()

    async def close(self, reason: str = "") -> None:
        """Close; with a ``reason`` (a refusal), first let the peer read what was sent.

        A socket closed with unread input sends a reset, which can destroy the lines the
        peer has not read yet (such as the error comment), so a refusal half-closes, then
        discards the peer's input until it closes too (at most ``REFUSAL_GRACE_SECONDS``).
        Only call it with a reason when no other task reads from this connection.
        """
        writer = self._writer
        if writer.is_closing():
            return
        if reason and writer.can_write_eof():
            try:
                writer.write_eof()
                async with asyncio.timeout(REFUSAL_GRACE_SECONDS):
                    while await self._reader.read(STREAM_LIMIT):
                        pass
            except (OSError, TimeoutError):
                pass  # the peer is gone or silent: close anyway
        writer.close()
        try:
            await writer.wait_closed()
        except OSError:
            pass  # the peer reset the connection first: it is closed either way


class _TcpListener(Listener):
    def __init__(self, server: asyncio.Server, port: int) -> None:
        self._server = server
        self.port = port

    def close(self) -> None:
        self._server.close()

    async def wait_closed(self) -> None:
        await self._server.wait_closed()


class TcpTransport(Transport):
    """ACPC lines over TCP, as the reference dealer serves them."""

    scheme = "tcp"

    async def connect(self, url: str, *, token: str | None = None, timeout: float = 10.0) -> LineConnection:
        if token is not None:
            raise TransportURLError(f"{url}: tokens need a transport that carries them (ws://...), not TCP")
        _, host, port = split_address(url)
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(host, port, limit=STREAM_LIMIT)
        return TcpLineConnection(reader, writer)

    async def listen(
        self,
        host: str,
        port: int,
        handler: ConnectionHandler,
        *,
        token: str | None = None,
        on_refused: Callable[[str], None] | None = None,
    ) -> Listener:
        if token is not None:
            raise TransportURLError("tokens need a transport that carries them (ws), not TCP")

        async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            connection = TcpLineConnection(reader, writer)
            try:
                await handler(connection)
            finally:
                await connection.close()

        sock = socket.create_server((host, port))  # one socket, so that a port names one seat
        server = await asyncio.start_server(accepted, sock=sock, limit=STREAM_LIMIT)
        return _TcpListener(server, sock.getsockname()[1])


TRANSPORT = TcpTransport()
"""The instance the registry holds."""
