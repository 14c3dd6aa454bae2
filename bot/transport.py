"""Line transports for the ACPC protocol: asyncio TCP and WebSocket.

Both carry the sans-I/O sessions of :mod:`pokerbot.protocol.session` through one interface,
:class:`LineConnection`: :meth:`~LineConnection.read_line` returns one protocol line without
its terminator (None when the peer closed the connection), :meth:`~LineConnection.send_lines`
sends lines and waits for the transport's buffer to drain (back-pressure).

* TCP: lines end with ``\\r\\n``; a bare ``\\n`` is accepted. A line longer than
  :data:`~protocol.wire.MAX_LINE_LENGTH` (4096) bytes, terminator included, raises
  :class:`LineTooLongError`.
* WebSocket (the ``websockets`` library): one protocol line per text message, without a
  terminator (a trailing ``\\r\\n`` or ``\\n`` is tolerated). The same length limit holds.
  A server may require a token; a client presents it as an ``Authorization: Bearer <token>``
  header, or as a ``token`` query parameter of the URL (``ws://host:port/?token=...``).
"""

from __future__ import annotations

import asyncio
import hmac
import socket
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.asyncio.server import Server, ServerConnection
from websockets.asyncio.server import serve as ws_serve
from websockets.exceptions import ConnectionClosed, ConnectionClosedOK
from websockets.frames import CloseCode
from websockets.http11 import Request, Response

from pokerbot.protocol.errors import ProtocolError
from pokerbot.protocol.wire import MAX_LINE_LENGTH, strip_terminator

_STREAM_LIMIT = 2 * MAX_LINE_LENGTH
"""asyncio's stream buffer limit, in bytes: above the line limit so that we give the error."""
_BACKLOG_BYTES = 8 * MAX_LINE_LENGTH
"""Unsent bytes above which a connection counts as backlogged (well below the 32 KiB and
64 KiB high-water marks where websockets and asyncio make senders wait)."""
REFUSAL_GRACE_SECONDS = 1.0
"""How long a refused peer gets to read the error line and close, in seconds."""
_WS_MAX_MESSAGE = 4 * MAX_LINE_LENGTH
"""Largest WebSocket message accepted before the library closes the connection, in bytes."""


class LineTooLongError(ProtocolError):
    """The peer sent a line longer than the protocol's limit of 4096 bytes."""


class LineConnection(ABC):
    """One connection carrying protocol lines; ``peer`` names the other end for messages."""

    peer: str

    @abstractmethod
    async def read_line(self) -> str | None:
        """The next line without its terminator, or None when the peer closed the connection.

        Raises :class:`LineTooLongError` for an over-long line and :class:`ConnectionError`
        when the connection breaks.
        """

    @abstractmethod
    async def send_lines(self, lines: Sequence[str]) -> None:
        """Send ``lines`` (without terminators) in order and wait until the buffer drains."""

    @property
    @abstractmethod
    def backlogged(self) -> bool:
        """True when unsent data piles up (the peer reads slowly): a send might then wait."""

    @abstractmethod
    async def close(self, reason: str = "") -> None:
        """Close the connection (``reason`` goes in the WebSocket close frame)."""


def _no_delay(sock: socket.socket | None) -> None:
    """Turn Nagle's algorithm off: with delayed ACKs it makes every exchange wait ~40 ms.

    asyncio does it only when the socket's proto field says TCP, which the accepted
    sockets of :func:`socket.create_server` do not.
    """
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _too_long(peer: str, size: int | str) -> LineTooLongError:
    return LineTooLongError(f"line from {peer} is longer than the limit of {MAX_LINE_LENGTH} bytes ({size} bytes)")


class TcpLineConnection(LineConnection):
    """A TCP connection with ``\\r\\n`` line framing over asyncio streams."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        _no_delay(writer.get_extra_info("socket"))
        address = writer.get_extra_info("peername")
        self.peer = f"{address[0]}:{address[1]}" if isinstance(address, tuple) else str(address)

    async def read_line(self) -> str | None:
        try:
            data = await self._reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as error:
            data = error.partial  # the peer closed; a last unterminated line still counts
            if not data:
                return None
        except asyncio.LimitOverrunError:
            raise _too_long(self.peer, f"more than {_STREAM_LIMIT}") from None
        if len(data) > MAX_LINE_LENGTH:
            raise _too_long(self.peer, len(data))
        return strip_terminator(data.decode("utf-8", "replace"))

    @property
    def backlogged(self) -> bool:
        return self._writer.transport.get_write_buffer_size() > _BACKLOG_BYTES

    async def send_lines(self, lines: Sequence[str]) -> None:
        self._writer.write("".join(f"{line}\r\n" for line in lines).encode())
        await self._writer.drain()

    async def close(self, reason: str = "") -> None:
        """Close; with a ``reason`` (a refusal), first let the peer read what was sent.

        A socket closed with unread input sends a reset, which can destroy the lines the
        peer has not read yet (such as the error comment), so a refusal half-closes, then
        discards the peer's input until it closes too (at most :data:`REFUSAL_GRACE_SECONDS`).
        Only call it with a reason when no other task reads from this connection.
        """
        writer = self._writer
        if writer.is_closing():
            return
        if reason and writer.can_write_eof():
            try:
                writer.write_eof()
                async with asyncio.timeout(REFUSAL_GRACE_SECONDS):
                    while await self._reader.read(_STREAM_LIMIT):
                        pass
            except (OSError, TimeoutError):
                pass  # the peer is gone or silent: close anyway
        writer.close()
        try:
            await writer.wait_closed()
        except OSError:
            pass  # the peer reset the connection first: it is closed either way


class WebSocketLineConnection(LineConnection):
    """A WebSocket connection carrying one protocol line per text message."""

    def __init__(self, websocket: ServerConnection | ClientConnection) -> None:
        self._ws = websocket
        _no_delay(websocket.transport.get_extra_info("socket"))
        address = websocket.remote_address
        self.peer = f"{address[0]}:{address[1]}" if isinstance(address, tuple) else str(address)

    async def read_line(self) -> str | None:
        try:
            message = await self._ws.recv()
        except ConnectionClosedOK:
            return None
        except ConnectionClosed as error:
            codes = {frame.code for frame in (error.rcvd, error.sent) if frame is not None}
            if CloseCode.MESSAGE_TOO_BIG in codes:
                raise _too_long(self.peer, f"more than {_WS_MAX_MESSAGE}") from None
            raise ConnectionResetError(f"WebSocket connection from {self.peer} broke: {error}") from None
        data = message if isinstance(message, bytes) else message.encode()
        if len(data) > MAX_LINE_LENGTH:
            raise _too_long(self.peer, len(data))
        return strip_terminator(message if isinstance(message, str) else data.decode("utf-8", "replace"))

    @property
    def backlogged(self) -> bool:
        return self._ws.transport.get_write_buffer_size() > _BACKLOG_BYTES

    async def send_lines(self, lines: Sequence[str]) -> None:
        try:
            for line in lines:
                await self._ws.send(line)
        except ConnectionClosed as error:
            raise ConnectionResetError(f"WebSocket connection to {self.peer} is closed: {error}") from None

    async def close(self, reason: str = "") -> None:
        code = CloseCode.POLICY_VIOLATION if reason else CloseCode.NORMAL_CLOSURE
        await self._ws.close(code, reason[:120])


ConnectionHandler = Callable[[LineConnection], Awaitable[None]]
"""Runs one accepted connection; the connection closes when it returns."""


def _listening_socket(host: str, port: int) -> socket.socket:
    """One listening socket (port 0: the OS chooses), so that a port names one seat."""
    return socket.create_server((host, port))


async def start_tcp_server(host: str, port: int, handler: ConnectionHandler) -> tuple[asyncio.Server, int]:
    """Listen on ``host:port`` (0 = any free port); returns the server and the port bound."""

    async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connection = TcpLineConnection(reader, writer)
        try:
            await handler(connection)
        finally:
            await connection.close()

    sock = _listening_socket(host, port)
    server = await asyncio.start_server(accepted, sock=sock, limit=_STREAM_LIMIT)
    return server, sock.getsockname()[1]


def _token_of(request: Request) -> str | None:
    header = request.headers.get("Authorization")
    if header is not None and header.startswith("Bearer "):
        return header[len("Bearer ") :].strip()
    values = parse_qs(urlsplit(request.path).query).get("token")
    return values[0] if values else None


async def start_websocket_server(
    host: str,
    port: int,
    handler: ConnectionHandler,
    token: str | None = None,
    on_refused: Callable[[str], None] | None = None,
) -> tuple[Server, int]:
    """Listen for WebSocket connections on ``host:port``; returns the server and the port.

    With a ``token``, a handshake without it (``Authorization: Bearer`` header or ``token``
    query parameter) is refused with HTTP 401 and ``on_refused`` gets a message.
    """

    def check_token(connection: ServerConnection, request: Request) -> Response | None:
        if token is None:
            return None
        supplied = _token_of(request)
        if supplied is not None and hmac.compare_digest(supplied.encode(), token.encode()):
            return None
        if on_refused is not None:
            what = "no token" if supplied is None else "a wrong token"
            on_refused(f"refused WebSocket connection on port {port_bound} from {_peer(connection)}: {what}")
        return connection.respond(HTTPStatus.UNAUTHORIZED, "missing or wrong token\n")

    async def accepted(websocket: ServerConnection) -> None:
        await handler(WebSocketLineConnection(websocket))

    sock = _listening_socket(host, port)
    port_bound = sock.getsockname()[1]
    server = await ws_serve(
        accepted, sock=sock, process_request=check_token, compression=None, max_size=_WS_MAX_MESSAGE
    )
    return server, port_bound


def _peer(connection: ServerConnection) -> str:
    address = connection.remote_address
    return f"{address[0]}:{address[1]}" if isinstance(address, tuple) else str(address)


async def open_tcp(host: str, port: int) -> TcpLineConnection:
    """Connect to a TCP dealer seat; raises OSError when nobody listens."""
    reader, writer = await asyncio.open_connection(host, port, limit=_STREAM_LIMIT)
    return TcpLineConnection(reader, writer)


async def open_websocket(url: str, token: str | None = None, open_timeout: float = 10.0) -> WebSocketLineConnection:
    """Connect to a WebSocket dealer seat at ``url``, presenting ``token`` as a Bearer header.

    Raises OSError when nobody listens and :class:`websockets.exceptions.InvalidStatus`
    when the dealer refuses the handshake (e.g. HTTP 401 for a wrong token).
    """
    headers = {"Authorization": f"Bearer {token}"} if token is not None else None
    websocket = await ws_connect(
        url,
        additional_headers=headers,
        compression=None,
        max_size=_WS_MAX_MESSAGE,
        open_timeout=open_timeout,
        proxy=None,
    )
    return WebSocketLineConnection(websocket)


__all__ = [
    "ConnectionHandler",
    "LineConnection",
    "LineTooLongError",
    "TcpLineConnection",
    "WebSocketLineConnection",
    "open_tcp",
    "open_websocket",
    "start_tcp_server",
    "start_websocket_server",
]
