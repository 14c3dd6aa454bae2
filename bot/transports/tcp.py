"""TCP: ``tcp://host:port``. Lines end with ``\\r\\n`` (a bare ``\\n`` is accepted), as the
reference dealer speaks them; a line over 4096 bytes, terminator included, raises
:class:`~pokerbot.bot.transports.base.LineTooLongError`."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable, Iterable, Sequence
from typing import SupportsIndex

from pokerbot.bot.transports.base import (
    BACKLOG_BYTES,
    REFUSAL_GRACE_SECONDS,
    STREAM_LIMIT,
    ConnectionHandler,
    LineCallback,
    LineConnection,
    LineEndCallback,
    Listener,
    Transport,
    TransportURLError,
    no_delay,
    peer_name,
    split_address,
    too_long,
)
from pokerbot.protocol.wire import MAX_LINE_LENGTH, strip_terminator

READ_BYTES = 16 * 1024
"""The most bytes read from a socket at once (asyncio's default is 256 KiB)."""


def _decode(data: bytes | bytearray) -> str:
    return strip_terminator(data.decode("utf-8", "replace"))


class _PushReader(asyncio.StreamReader):
    """A stream reader that, once subscribed, hands every complete line to a callback as it
    arrives (from the event loop's read callback: no task wakes up per line), with the same
    framing, limits and errors as :meth:`TcpLineConnection.read_line`."""

    # asyncio.StreamReader's own buffer and flow control, which typeshed does not declare:
    # what it holds when subscribing is handed over first, and reading resumes if paused.
    _buffer: bytearray
    _maybe_resume_transport: Callable[[], None]

    def __init__(self, limit: int, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(limit=limit, loop=loop)
        self._on_line: LineCallback | None = None
        self._on_end: LineEndCallback | None = None
        self._unread = bytearray()
        self._peer = ""

    def subscribe(self, peer: str, on_line: LineCallback, on_end: LineEndCallback) -> None:
        """Deliver the buffered and every further line to ``on_line``, then the end to ``on_end``."""
        self._peer, self._on_line, self._on_end = peer, on_line, on_end
        self._unread += self._buffer
        self._buffer.clear()
        self._maybe_resume_transport()
        if self._unread:
            self._deliver()
        if self._on_end is not None and (self.at_eof() or self.exception() is not None):
            self._end(self.exception())

    def feed_data(self, data: Iterable[SupportsIndex]) -> None:
        if self._on_line is None:
            super().feed_data(data)
            return
        self._unread.extend(data)
        self._deliver()

    def feed_eof(self) -> None:
        if self._on_line is None:
            super().feed_eof()
            return
        if self._unread and self._on_end is not None:  # a last unterminated line still counts
            line, self._unread = bytes(self._unread), bytearray()
            if len(line) > MAX_LINE_LENGTH:
                self._end(too_long(self._peer, len(line)))
                return
            self._on_line(_decode(line))
        self._end(None)

    def set_exception(self, exc: Exception) -> None:
        if self._on_line is None:
            super().set_exception(exc)
            return
        self._end(exc if isinstance(exc, ConnectionError) else ConnectionResetError(str(exc)))

    def _deliver(self) -> None:
        unread = self._unread
        start = 0
        while self._on_end is not None:
            end = unread.find(b"\n", start)
            if end < 0:
                if len(unread) - start > STREAM_LIMIT:
                    self._end(too_long(self._peer, f"more than {STREAM_LIMIT}"))
                break
            size = end + 1 - start
            if size > MAX_LINE_LENGTH:
                self._end(too_long(self._peer, f"more than {STREAM_LIMIT}" if size > STREAM_LIMIT else size))
                break
            line = unread[start : end + 1]
            start = end + 1
            assert self._on_line is not None
            self._on_line(_decode(line))
        del unread[:start]

    def _end(self, error: BaseException | None) -> None:
        on_end, self._on_end = self._on_end, None
        self._unread.clear()
        if on_end is not None:
            on_end(error)


class TcpLineConnection(LineConnection):
    """A TCP connection with ``\\r\\n`` line framing over asyncio streams."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._transport = transport = writer.transport
        # asyncio reads with recv(256 KiB): a buffer that size is mapped and unmapped by the
        # C library at every read (three system calls) unless its threshold happened to grow.
        # Lines are short: a smaller read buffer comes from the heap.
        if isinstance(getattr(transport, "max_size", None), int):
            transport.max_size = READ_BYTES  # type: ignore[attr-defined]
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
        return _decode(data)

    def subscribe(self, on_line: LineCallback, on_end: LineEndCallback) -> bool:
        reader = self._reader
        if not isinstance(reader, _PushReader):
            return False
        reader.subscribe(self.peer, on_line, on_end)
        return True

    @property
    def backlogged(self) -> bool:
        return self._writer.transport.get_write_buffer_size() > BACKLOG_BYTES

    def send_now(self, lines: Sequence[str]) -> bool:
        transport = self._transport  # StreamWriter.write is transport.write
        if transport.get_write_buffer_size() > BACKLOG_BYTES:
            return False
        if transport.is_closing():
            raise ConnectionResetError(f"the connection to {self.peer} is closed")
        transport.write((lines[0] + "\r\n" if len(lines) == 1 else "".join(f"{line}\r\n" for line in lines)).encode())
        return True

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
        loop = asyncio.get_running_loop()
        reader = _PushReader(STREAM_LIMIT, loop)  # asyncio.open_connection's streams, with a _PushReader
        protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
        async with asyncio.timeout(timeout):
            transport, _ = await loop.create_connection(lambda: protocol, host, port)
        return TcpLineConnection(reader, asyncio.StreamWriter(transport, protocol, reader, loop))

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

        loop = asyncio.get_running_loop()

        def protocol() -> asyncio.StreamReaderProtocol:  # asyncio.start_server's, with a _PushReader
            return asyncio.StreamReaderProtocol(_PushReader(STREAM_LIMIT, loop), accepted, loop=loop)

        sock = socket.create_server((host, port))  # one socket, so that a port names one seat
        server = await loop.create_server(protocol, sock=sock)
        return _TcpListener(server, sock.getsockname()[1])


TRANSPORT = TcpTransport()
"""The instance the registry holds."""
