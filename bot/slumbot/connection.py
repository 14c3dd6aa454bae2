"""The client's HTTP side of Slumbot's API: one JSON request at a time, retried only when safe.

:class:`SlumbotConnection` posts to ``/api/login``, ``/api/new_hand`` and ``/api/act`` of a
server named by a ``slumbot+https://HOST[:PORT]`` (or ``slumbot+http://``) URL, one request at
a time, each on a connection of its own (``Connection: close``), with ``Content-Type:
application/json``. What it does when a request fails:

* The server answers 4xx, or any answer carries ``error_msg``: :class:`RequestRefused`, with
  the server's message; never retried (the same request would be refused again).
* The request never reached the server (the connection could not be made): retried, waiting
  ``backoff`` seconds, then twice as long each time (at most :data:`MAX_BACKOFF_SECONDS`), up
  to ``retries`` times; then :class:`ServerUnavailable`.
* The request was sent but no usable answer came (a timeout, a 5xx, a broken connection, a
  body that is not a JSON object): a ``new_hand`` or ``login`` is retried as above (a deal
  never seen is lost, nothing else); an ``act`` is not, since the server may have played the
  action: :class:`AnswerLost`, and the caller abandons the hand.

A redirection is not followed: it is refused with the address it points to.
"""

from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

SCHEMES = {"slumbot+https": "https", "slumbot+http": "http"}
"""The URL schemes the client takes, and the HTTP scheme each stands for."""
DEFAULT_URL = "slumbot+https://slumbot.com"
MAX_BACKOFF_SECONDS = 60.0
MAX_ANSWER_BYTES = 1 << 20
_USER_AGENT = "pokerbot-slumbot-client"


class SlumbotURLError(ValueError):
    """A server URL that is not ``slumbot+https://HOST[:PORT]`` or ``slumbot+http://...``."""


class SlumbotRequestError(Exception):
    """A request to the API failed; the message says which request and why."""


class RequestRefused(SlumbotRequestError):
    """The server refused the request (4xx, or ``error_msg``): ``status``, the server's message."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class ServerUnavailable(SlumbotRequestError):
    """No usable answer after every retry."""


class AnswerLost(SlumbotRequestError):
    """An ``act`` was sent and no usable answer came: the server may or may not have played it."""


@dataclass(frozen=True)
class ServerAddress:
    """Where the API is: ``http`` or ``https``, host, port, and a path prefix (often empty)."""

    scheme: str
    host: str
    port: int
    prefix: str

    @property
    def display(self) -> str:
        """The address as a user wrote it (without credentials, which the URL never holds)."""
        default = 443 if self.scheme == "https" else 80
        port = "" if self.port == default else f":{self.port}"
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"slumbot+{self.scheme}://{host}{port}{self.prefix}"


def parse_server_url(url: str) -> ServerAddress:
    """The address of ``url``; raises :class:`SlumbotURLError` saying what is wrong."""
    parts = urllib.parse.urlsplit(url)
    scheme = SCHEMES.get(parts.scheme)
    if scheme is None:
        raise SlumbotURLError(
            f"{url!r}: the scheme must be slumbot+https or slumbot+http (as in {DEFAULT_URL}), not {parts.scheme!r}"
        )
    try:
        port = parts.port
    except ValueError:
        raise SlumbotURLError(f"{url!r}: the port is not a number in 1..65535") from None
    if not parts.hostname:
        raise SlumbotURLError(f"{url!r}: no host")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise SlumbotURLError(f"{url!r}: give the host, port and path alone (credentials go in --user/--password-file)")
    return ServerAddress(scheme, parts.hostname, port or (443 if scheme == "https" else 80), parts.path.rstrip("/"))


@dataclass
class _Failure:
    what: str
    sent: bool
    """True when the request may have reached the server."""


class SlumbotConnection:
    """Posts the API's requests to one server (see the module's text for retries).

    ``timeout`` bounds each request (connecting, then each wait for data), in seconds;
    ``on_retry(message, delay)`` is told of each retry before its wait; ``sleep`` waits.
    """

    def __init__(
        self,
        url: str,
        *,
        timeout: float = 60.0,
        retries: int = 5,
        backoff: float = 1.0,
        on_retry: Callable[[str, float], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.address = parse_server_url(url)
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.on_retry = on_retry
        self.sleep = sleep
        self.requests = 0
        """Requests sent so far (retries counted)."""

    def login(self, username: str, password: str) -> str:
        """A session token for a registered user."""
        answer = self._post("/api/login", {"username": username, "password": password}, retry_sent=True)
        token = answer.get("token")
        if not isinstance(token, str) or not token:
            raise RequestRefused("login: the answer holds no token", 200)
        return token

    def new_hand(self, token: str | None) -> dict[str, Any]:
        """Deal a new hand (``token`` None: the server starts a session)."""
        return self._post("/api/new_hand", {} if token is None else {"token": token}, retry_sent=True)

    def act(self, token: str | None, incr: str) -> dict[str, Any]:
        """Send the client's next action; raises :class:`AnswerLost` when it may have been played
        and no answer came."""
        payload: dict[str, Any] = {"incr": incr}
        if token is not None:
            payload["token"] = token
        return self._post("/api/act", payload, retry_sent=False)

    def _post(self, path: str, payload: dict[str, Any], *, retry_sent: bool) -> dict[str, Any]:
        body = json.dumps(payload).encode()
        delay = self.backoff
        name = path.rsplit("/", 1)[-1]
        for attempt in range(self.retries + 1):
            try:
                result = self._once(self.address.prefix + path, body)
            except RequestRefused as error:
                raise RequestRefused(f"{name}: {error}", error.status) from None
            if not isinstance(result, _Failure):
                return result
            if result.sent and not retry_sent:
                raise AnswerLost(f"{name}: {result.what}; the server may have played the action")
            if attempt == self.retries:
                tries = "once" if attempt == 0 else f"{attempt + 1} times"
                raise ServerUnavailable(f"{name}: {result.what} (tried {tries})")
            if self.on_retry is not None:
                self.on_retry(f"{name}: {result.what}", delay)
            self.sleep(delay)
            delay = min(2 * delay, MAX_BACKOFF_SECONDS)
        raise AssertionError("unreachable")  # pragma: no cover

    def _once(self, path: str, body: bytes) -> dict[str, Any] | _Failure:
        """One request: the answer, a failure, or RequestRefused."""
        address = self.address
        factory = http.client.HTTPSConnection if address.scheme == "https" else http.client.HTTPConnection
        connection = factory(address.host, address.port, timeout=self.timeout)
        self.requests += 1
        try:
            try:
                connection.connect()
                # the headers and the body are two writes: without this, the body waits for an ACK
                connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except (OSError, http.client.HTTPException) as error:
                return _Failure(f"cannot connect to {address.display}: {_reason(error)}", sent=False)
            try:
                connection.request(
                    "POST",
                    path,
                    body,
                    {"Content-Type": "application/json", "Connection": "close", "User-Agent": _USER_AGENT},
                )
                response = connection.getresponse()
                data = response.read(MAX_ANSWER_BYTES + 1)
            except TimeoutError:
                return _Failure(f"no answer within {self.timeout:g} s", sent=True)
            except (OSError, http.client.HTTPException) as error:
                return _Failure(f"the connection broke: {_reason(error)}", sent=True)
        finally:
            connection.close()
        return _read_answer(response.status, response.getheader("Location"), data)


def _read_answer(status: int, location: str | None, data: bytes) -> dict[str, Any] | _Failure:
    answer: Any = None
    try:
        answer = json.loads(data.decode("utf-8")) if len(data) <= MAX_ANSWER_BYTES else None
    except (UnicodeDecodeError, json.JSONDecodeError):
        pass
    message = answer.get("error_msg") if isinstance(answer, dict) else None
    if message is not None:
        raise RequestRefused(f"the server says: {message} (HTTP {status})", status)
    if 300 <= status < 400:
        raise RequestRefused(f"the server redirects to {location or 'another address'} (HTTP {status})", status)
    if 400 <= status < 500:
        text = " ".join(data[:200].decode("utf-8", errors="replace").split())
        raise RequestRefused(f"the server refused the request: HTTP {status}" + (f", {text}" if text else ""), status)
    if status >= 500:
        return _Failure(f"server error HTTP {status}", sent=True)
    if not isinstance(answer, dict):
        what = "too long" if len(data) > MAX_ANSWER_BYTES else "not a JSON object"
        return _Failure(f"the answer is {what}: {data[:60]!r}", sent=True)
    return answer


def _reason(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return " ".join(text.split())


__all__ = [
    "DEFAULT_URL",
    "AnswerLost",
    "RequestRefused",
    "ServerAddress",
    "ServerUnavailable",
    "SlumbotConnection",
    "SlumbotRequestError",
    "SlumbotURLError",
    "parse_server_url",
]
