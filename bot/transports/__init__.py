"""Transports, chosen by URL: ``tcp://host:port``, ``ws://host:port/path`` (``wss://`` too).

Each transport is one module implementing :class:`~pokerbot.bot.transports.base.Transport`
(connect to a URL; listen on a port) and translating its library's errors into the few that
client and dealer handle (see :mod:`pokerbot.bot.transports.base`). :data:`TRANSPORTS` maps a
URL scheme to its transport; :func:`transport_for` finds the transport of a URL or scheme.

To add a transport: write ``bot/transports/<name>.py`` with a ``Transport`` subclass and a
``TRANSPORT`` instance (``tcp.py`` is the smallest example), and add one line to
:data:`TRANSPORTS` below. ``pokerbot play --url``, ``pokerbot dealer --transport`` and
:func:`pokerbot.bot.client.play_match` then accept it; ``tests/test_transports.py`` runs its
conformance tests over every registered transport.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from pokerbot.bot.transports import tcp, websocket
from pokerbot.bot.transports.base import (
    ConnectionHandler,
    HandshakeRefusedError,
    LineConnection,
    LineTooLongError,
    Listener,
    Transport,
    TransportURLError,
)

TRANSPORTS: dict[str, Transport] = {
    "tcp": tcp.TRANSPORT,
    "ws": websocket.TRANSPORT,
    "wss": websocket.SECURE_TRANSPORT,
}
"""Every transport by URL scheme: the registry."""


def transport_for(url_or_scheme: str) -> Transport:
    """The transport of a URL (``tcp://...``) or of a bare scheme (``tcp``).

    Raises :class:`TransportURLError` naming the registered schemes when there is none.
    """
    is_url = "://" in url_or_scheme
    scheme = urlsplit(url_or_scheme).scheme if is_url else url_or_scheme
    transport = TRANSPORTS.get(scheme.lower())
    if transport is None:
        if is_url:
            known = ", ".join(f"{name}://" for name in TRANSPORTS)
            raise TransportURLError(f"no transport for {url_or_scheme!r}: a URL must start with one of {known}")
        raise TransportURLError(f"unknown transport {url_or_scheme!r}: the transports are {', '.join(TRANSPORTS)}")
    return transport


async def connect(url: str, *, token: str | None = None, timeout: float = 10.0) -> LineConnection:
    """One connection attempt to ``url`` by its transport (see :meth:`Transport.connect`)."""
    return await transport_for(url).connect(url, token=token, timeout=timeout)


__all__ = [
    "TRANSPORTS",
    "ConnectionHandler",
    "HandshakeRefusedError",
    "LineConnection",
    "LineTooLongError",
    "Listener",
    "Transport",
    "TransportURLError",
    "connect",
    "transport_for",
]
