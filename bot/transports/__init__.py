"""Transports, chosen by URL: ``tcp://host:port``, ``ws://host:port/path`` (``wss://`` too).

Each transport is one module implementing :class:`~pokerbot.bot.transports.base.Transport`
(connect to a URL; listen on a port) and translating its library's errors into the few that
client and dealer handle (see :mod:`pokerbot.bot.transports.base`). :data:`TRANSPORTS` maps a
URL scheme to its transport; :func:`transport_for` finds the transport of a URL or scheme.

To add a transport: write ``bot/transports/<name>.py`` with a ``Transport`` subclass and a
``TRANSPORT`` instance (``tcp.py`` is the smallest example), and add one line to
:data:`TRANSPORTS` below. ``pokerbot play --url``, ``pokerbot dealer --transport`` and
:func:`pokerbot.bot.client.play.play_match` then accept it; ``tests/test_transports.py`` runs its
conformance tests over every registered transport.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from urllib.parse import urlsplit

from pokerbot.bot.transports import tcp
from pokerbot.bot.transports.base import (
    ConnectionHandler,
    HandshakeRefusedError,
    LineConnection,
    LineTooLongError,
    Listener,
    Transport,
    TransportURLError,
    redact_url,
)


class DeferredTransport(Transport):
    """A transport whose module is imported on first use: ``module``'s ``attribute``.

    Its library may take long to import (``websockets``: tens of milliseconds), which a
    command that never uses it (a TCP dealer printing its ports) should not pay. What the
    registry asks without using it (scheme, tokens, listening, seat URLs) is given here.
    """

    def __init__(self, scheme: str, module: str, attribute: str, *, supports_token: bool, can_listen: bool) -> None:
        self.scheme = scheme
        self.supports_token = supports_token
        self.can_listen = can_listen
        self._module, self._attribute = module, attribute
        self._transport: Transport | None = None

    def load(self) -> Transport:
        """The transport itself (its module imported now, if not yet)."""
        if self._transport is None:
            self._transport = getattr(importlib.import_module(self._module), self._attribute)
        return self._transport

    async def connect(self, url: str, *, token: str | None = None, timeout: float = 10.0) -> LineConnection:
        return await self.load().connect(url, token=token, timeout=timeout)

    async def listen(
        self,
        host: str,
        port: int,
        handler: ConnectionHandler,
        *,
        token: str | None = None,
        on_refused: Callable[[str], None] | None = None,
    ) -> Listener:
        return await self.load().listen(host, port, handler, token=token, on_refused=on_refused)

    def seat_url(self, host: str, port: int) -> str:
        return self.load().seat_url(host, port)


TRANSPORTS: dict[str, Transport] = {
    "tcp": tcp.TRANSPORT,
    "ws": DeferredTransport(
        "ws", "pokerbot.bot.transports.websocket", "TRANSPORT", supports_token=True, can_listen=True
    ),
    "wss": DeferredTransport(
        "wss", "pokerbot.bot.transports.websocket", "SECURE_TRANSPORT", supports_token=True, can_listen=False
    ),
}
"""Every transport by URL scheme: the registry (WebSocket imported when first used)."""


def transport_for(url_or_scheme: str) -> Transport:
    """The transport of a URL (``tcp://...``) or of a bare scheme (``tcp``).

    Raises :class:`TransportURLError` naming the registered schemes when there is none.
    """
    is_url = "://" in url_or_scheme
    try:
        scheme = urlsplit(url_or_scheme).scheme if is_url else url_or_scheme
    except ValueError as error:  # a bracketed host that is no IP address
        raise TransportURLError(f"{url_or_scheme!r} is not a URL: {error}") from None
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
    "redact_url",
    "transport_for",
]
