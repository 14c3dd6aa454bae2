"""WebSocket (the ``websockets`` library): ``ws://host:port/path`` (``wss://`` to connect over
TLS). One protocol line per text message, without a terminator (a trailing ``\\r\\n`` or
``\\n`` is tolerated); the 4096-byte line limit holds. A dealer may require a token; a client
presents it as an ``Authorization: Bearer <token>`` header, or as a ``token`` query parameter
of the URL (``ws://host:port/?token=...``). A refused handshake (HTTP 401 for a wrong token)
becomes :class:`~pokerbot.bot.transports.base.HandshakeRefusedError`."""

from __future__ import annotations

import hmac
import socket
from collections.abc import Callable, Sequence
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.asyncio.server import Server, ServerConnection
from websockets.asyncio.server import serve as ws_serve
from websockets.exceptions import ConnectionClosed, ConnectionClosedOK, InvalidHandshake, InvalidStatus, InvalidURI
from websockets.frames import CloseCode
from websockets.http11 import Request, Response

from pokerbot.bot.transports.base import (
    BACKLOG_BYTES,
    ConnectionHandler,
    HandshakeRefusedError,
    LineConnection,
    Listener,
    Transport,
    TransportURLError,
    format_host,
    no_delay,
    peer_name,
    redact_url,
    split_address,
    too_long,
)
from pokerbot.protocol.wire import MAX_LINE_LENGTH, strip_terminator

MAX_MESSAGE_BYTES = 4 * MAX_LINE_LENGTH
"""Largest WebSocket message accepted before the library closes the connection, in bytes."""


class WebSocketLineConnection(LineConnection):
    """A WebSocket connection carrying one protocol line per text message."""

    def __init__(self, websocket: ServerConnection | ClientConnection) -> None:
        self._ws = websocket
        no_delay(websocket.transport.get_extra_info("socket"))
        self.peer = peer_name(websocket.remote_address)

    async def read_line(self) -> str | None:
        try:
            message = await self._ws.recv()
        except ConnectionClosedOK:
            return None
        except ConnectionClosed as error:
            codes = {frame.code for frame in (error.rcvd, error.sent) if frame is not None}
            if CloseCode.MESSAGE_TOO_BIG in codes:
                raise too_long(self.peer, f"more than {MAX_MESSAGE_BYTES}") from None
            raise ConnectionResetError(f"WebSocket connection from {self.peer} broke: {error}") from None
        data = message if isinstance(message, bytes) else message.encode()
        if len(data) > MAX_LINE_LENGTH:
            raise too_long(self.peer, len(data))
        return strip_terminator(message if isinstance(message, str) else data.decode("utf-8", "replace"))

    @property
    def backlogged(self) -> bool:
        return self._ws.transport.get_write_buffer_size() > BACKLOG_BYTES

    async def send_lines(self, lines: Sequence[str]) -> None:
        try:
            for line in lines:
                await self._ws.send(line)
        except ConnectionClosed as error:
            raise ConnectionResetError(f"WebSocket connection to {self.peer} is closed: {error}") from None

    async def close(self, reason: str = "") -> None:
        code = CloseCode.POLICY_VIOLATION if reason else CloseCode.NORMAL_CLOSURE
        await self._ws.close(code, reason[:120])


class _WebSocketListener(Listener):
    def __init__(self, server: Server, port: int) -> None:
        self._server = server
        self.port = port

    def close(self) -> None:
        self._server.close()

    async def wait_closed(self) -> None:
        await self._server.wait_closed()


def _token_of(request: Request) -> str | None:
    header = request.headers.get("Authorization")
    if header is not None and header.startswith("Bearer "):
        return header[len("Bearer ") :].strip()
    values = parse_qs(urlsplit(request.path).query).get("token")
    return values[0] if values else None


class WebSocketTransport(Transport):
    """ACPC lines over WebSocket, one per text message; tokens supported."""

    supports_token = True

    def __init__(self, scheme: str = "ws") -> None:
        self.scheme = scheme
        self.can_listen = scheme == "ws"

    async def connect(self, url: str, *, token: str | None = None, timeout: float = 10.0) -> LineConnection:
        split_address(url)  # a clear error for a URL without host or port
        headers = {"Authorization": f"Bearer {token}"} if token is not None else None
        try:
            websocket = await ws_connect(
                url,
                additional_headers=headers,
                compression=None,
                max_size=MAX_MESSAGE_BYTES,
                open_timeout=timeout,
                proxy=None,
            )
        except InvalidURI as problem:
            raise TransportURLError(f"{redact_url(url)!r} is not a WebSocket URL: {problem}") from None
        except InvalidStatus as problem:
            status = problem.response.status_code
            hint = " (missing or wrong token)" if status == HTTPStatus.UNAUTHORIZED else ""
            raise HandshakeRefusedError(
                f"the dealer at {redact_url(url)} refused the WebSocket connection: HTTP {status}{hint}"
            ) from None
        except InvalidHandshake as problem:
            raise HandshakeRefusedError(f"WebSocket handshake with {redact_url(url)} failed: {problem}") from None
        return WebSocketLineConnection(websocket)

    async def listen(
        self,
        host: str,
        port: int,
        handler: ConnectionHandler,
        *,
        token: str | None = None,
        on_refused: Callable[[str], None] | None = None,
    ) -> Listener:
        if not self.can_listen:
            raise TransportURLError(f"the dealer serves plain ws:// only, not {self.scheme}:// (no TLS)")

        def check_token(connection: ServerConnection, request: Request) -> Response | None:
            if token is None:
                return None
            supplied = _token_of(request)
            if supplied is not None and hmac.compare_digest(supplied.encode(), token.encode()):
                return None
            if on_refused is not None:
                what = "no token" if supplied is None else "a wrong token"
                who = peer_name(connection.remote_address)
                on_refused(f"refused WebSocket connection on port {bound} from {who}: {what}")
            return connection.respond(HTTPStatus.UNAUTHORIZED, "missing or wrong token\n")

        async def accepted(websocket: ServerConnection) -> None:
            await handler(WebSocketLineConnection(websocket))

        sock = socket.create_server((host, port))  # one socket, so that a port names one seat
        bound = sock.getsockname()[1]
        server = await ws_serve(
            accepted, sock=sock, process_request=check_token, compression=None, max_size=MAX_MESSAGE_BYTES
        )
        return _WebSocketListener(server, bound)

    def seat_url(self, host: str, port: int) -> str:
        return f"{self.scheme}://{format_host(host)}:{port}/"


TRANSPORT = WebSocketTransport("ws")
"""The plain WebSocket instance the registry holds."""
SECURE_TRANSPORT = WebSocketTransport("wss")
"""WebSocket over TLS (connecting only: the dealer does not serve TLS)."""
