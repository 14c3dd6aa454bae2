"""The one small interface every transport implements, and the errors it may raise.

A transport carries ACPC protocol lines between a dealer seat and a player. It offers two
things: :meth:`Transport.connect` (the player's side: a :class:`LineConnection` to a URL) and
:meth:`Transport.listen` (the dealer's side: accept connections on a port and hand each to a
handler). Whatever its library raises is translated inside the transport into the errors
below, so that client and dealer handle every transport alike:

* :class:`LineTooLongError` from :meth:`LineConnection.read_line`: an over-long line;
* :class:`ConnectionError` (including :exc:`ConnectionResetError`) when a connection breaks;
* from :meth:`Transport.connect`: :class:`HandshakeRefusedError` when the dealer answered
  and refused (retrying will not help), :class:`OSError` or :class:`TimeoutError` when
  nobody answered (yet: a client retries these).
"""

from __future__ import annotations

import socket
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from urllib.parse import SplitResult, parse_qsl, urlencode, urlsplit

from pokerbot.protocol.errors import ProtocolError
from pokerbot.protocol.wire import MAX_LINE_LENGTH

STREAM_LIMIT = 2 * MAX_LINE_LENGTH
"""A stream's buffer limit, in bytes: above the line limit so that we give the error."""
BACKLOG_BYTES = 8 * MAX_LINE_LENGTH
"""Unsent bytes above which a connection counts as backlogged (well below the 32 KiB and
64 KiB high-water marks where websockets and asyncio make senders wait)."""
REFUSAL_GRACE_SECONDS = 1.0
"""How long a refused peer gets to read the error line and close, in seconds."""


class LineTooLongError(ProtocolError):
    """The peer sent a line longer than the protocol's limit of 4096 bytes."""


class HandshakeRefusedError(ConnectionError):
    """The dealer answered but refused the connection (a wrong token, a failed handshake):
    trying again will not help."""


class TransportURLError(ValueError):
    """A URL names no registered transport, or lacks what its transport needs (a port)."""


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
        """Send ``lines`` (without terminators) in order and wait until the buffer drains.

        Raises :class:`ConnectionError` when the connection is broken or closed.
        """

    def subscribe(self, on_line: LineCallback, on_end: LineEndCallback) -> bool:
        """Hand every further line to ``on_line`` as soon as it arrives (called from the event
        loop, not from a task: it must not block), then how the connection ended to ``on_end``,
        once: None when the peer closed, else the :class:`LineTooLongError` or
        :class:`ConnectionError` that :meth:`read_line` would raise. After it, do not call
        :meth:`read_line`. False, and nothing changes, when this connection cannot: read
        with :meth:`read_line` then."""
        return False

    def send_now(self, lines: Sequence[str]) -> bool:
        """Queue ``lines`` for sending without waiting, when this connection can and is not
        :attr:`backlogged`: True if they were queued, False (nothing sent) when the caller
        must await :meth:`send_lines` instead. Raises :class:`ConnectionError` as it does."""
        return False

    @property
    @abstractmethod
    def backlogged(self) -> bool:
        """True when unsent data piles up (the peer reads slowly): a send might then wait."""

    @abstractmethod
    async def close(self, reason: str = "") -> None:
        """Close the connection; a ``reason`` means a refusal (the peer may be told why)."""


LineCallback = Callable[[str], None]
"""Gets one line, without its terminator (:meth:`LineConnection.subscribe`)."""
LineEndCallback = Callable[[BaseException | None], None]
"""Gets how a subscribed connection ended: None when the peer closed, else the error."""

ConnectionHandler = Callable[[LineConnection], Awaitable[None]]
"""Runs one accepted connection; the connection closes when it returns."""


class Listener(ABC):
    """A listening dealer seat: the port it is bound to, and how to stop it."""

    port: int

    @abstractmethod
    def close(self) -> None:
        """Stop accepting connections."""

    @abstractmethod
    async def wait_closed(self) -> None:
        """Wait until the listener is closed."""


class Transport(ABC):
    """One way of carrying protocol lines: the schemes it answers to and its two sides."""

    scheme: str
    """The URL scheme this transport is registered under (``tcp``, ``ws``)."""
    supports_token: bool = False
    """True when :meth:`listen` can require, and :meth:`connect` present, an access token."""
    can_listen: bool = True
    """False for a transport that only connects (the dealer cannot serve it)."""

    @abstractmethod
    async def connect(self, url: str, *, token: str | None = None, timeout: float = 10.0) -> LineConnection:
        """Connect to the dealer seat at ``url`` within ``timeout`` seconds, presenting ``token``.

        Raises :class:`HandshakeRefusedError`, :class:`OSError` or :class:`TimeoutError` (see
        the module's notes) and :class:`TransportURLError` for a URL it cannot use.
        """

    @abstractmethod
    async def listen(
        self,
        host: str,
        port: int,
        handler: ConnectionHandler,
        *,
        token: str | None = None,
        on_refused: Callable[[str], None] | None = None,
    ) -> Listener:
        """Accept connections on ``host:port`` (0: any free port), each run by ``handler``.

        With a ``token`` (only where :attr:`supports_token`), a connection that does not
        present it is refused and ``on_refused`` gets a message. Raises OSError when the
        port cannot be bound.
        """

    def seat_url(self, host: str, port: int) -> str:
        """The URL a player connects to for the seat listening on ``host:port``."""
        return f"{self.scheme}://{format_host(host)}:{port}"


def format_host(host: str) -> str:
    """``host`` as it goes in a URL (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def split_address(url: str) -> tuple[SplitResult, str, int]:
    """The parts of ``url``, its host and its port; raises :class:`TransportURLError` when the
    host or the port is missing or malformed."""
    try:
        parts = urlsplit(url)
    except ValueError as error:  # a bracketed host that is no IP address
        raise TransportURLError(f"{url!r} is not a URL: {error}") from None
    try:
        port = parts.port
    except ValueError:
        raise TransportURLError(f"the port of {url!r} is not a number in 0..65535") from None
    if not parts.hostname or port is None:
        raise TransportURLError(f"{url!r} needs a host and a port, as in {parts.scheme or 'tcp'}://127.0.0.1:18791")
    return parts, parts.hostname, port


def redact_url(url: str) -> str:
    """``url`` fit to be logged or shown: the value of a ``token`` query parameter (and a
    password in the address) replaced by ``***``."""
    parts = urlsplit(url)
    query = parts.query
    if "token" in query:
        query = urlencode(
            [(key, "***" if key == "token" else value) for key, value in parse_qsl(query, keep_blank_values=True)],
            safe="*",
        )
    netloc = parts.netloc
    if parts.password is not None:
        netloc = netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(query=query, netloc=netloc).geturl()


def peer_name(address: object) -> str:
    """``host:port`` of a socket address (anything else as text)."""
    return f"{address[0]}:{address[1]}" if isinstance(address, tuple) else str(address)


def no_delay(sock: socket.socket | None) -> None:
    """Turn Nagle's algorithm off: with delayed ACKs it makes every exchange wait ~40 ms.

    asyncio does it only when the socket's proto field says TCP, which the accepted
    sockets of :func:`socket.create_server` do not.
    """
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def too_long(peer: str, size: int | str) -> LineTooLongError:
    """The error for a line of ``size`` bytes from ``peer``."""
    return LineTooLongError(f"line from {peer} is longer than the limit of {MAX_LINE_LENGTH} bytes ({size} bytes)")


__all__ = [
    "BACKLOG_BYTES",
    "REFUSAL_GRACE_SECONDS",
    "STREAM_LIMIT",
    "ConnectionHandler",
    "HandshakeRefusedError",
    "LineCallback",
    "LineConnection",
    "LineEndCallback",
    "LineTooLongError",
    "Listener",
    "Transport",
    "TransportURLError",
    "format_host",
    "no_delay",
    "peer_name",
    "redact_url",
    "split_address",
    "too_long",
]
