"""A local server of Slumbot's API with one of our strategies behind it.

:class:`SlumbotAPI` answers ``/api/login``, ``/api/new_hand`` and ``/api/act`` as documented
for slumbot.com (``docs/slumbot.md``), on our engine (:class:`~pokerbot.protocol.slumbot.ServerHand`):

* ``new_hand`` without a token, or with one the server does not know (it may have restarted),
  starts a session with a new token; the answer always carries the token to use next. A
  session's hands alternate seats: its hand ``k`` (0-based) puts the client at ``client_pos
  = k % 2``, so the first hand has the client in the big blind and the answer carries the
  bot's first action. The hand's cards are the ``k``-th deal of the reference dealing from
  the session's seed. A ``new_hand`` while a hand is in progress abandons that hand: it is
  not counted, and the bot does not observe it.
* ``act`` plays the client's ``incr`` (one action, ``k c f bN``), then the bot's actions
  until the client is to act or the hand is over.
* The answer that ends a hand adds ``bot_hole_cards``, ``winnings`` and ``won_pot`` for the
  hand, ``session_num_hands`` and ``session_total`` for the session. No baseline is played,
  so ``baseline_winnings`` is never sent.
* Errors are HTTP 4xx with ``{"error_msg": ...}``: an illegal or malformed ``incr`` (the hand
  stays as it was, the client may send another), ``act`` with an unknown token or no hand in
  progress, a body that is not a JSON object, a wrong login. Unknown paths are 404, other
  methods 405.

Each session has its own strategy, made from the registry with the seed
``strategy_seed(seed, "slumbot")`` (:func:`~pokerbot.bot.matches.base.strategy_seed`) and its
own dealing from ``seed``: with a fixed seed every session replays the match ``pokerbot match``
would deal, seat and seed for a player named ``slumbot``. Without a seed each session draws
one. A session's requests are taken one at a time; at most ``max_sessions`` are kept, the
least recently used dropped first.

:class:`SlumbotHTTPServer` carries the API over HTTP (standard library, a thread per request).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from pokerbot.bot.matches.base import strategy_seed
from pokerbot.protocol.dealing import Dealer
from pokerbot.protocol.errors import ProtocolError
from pokerbot.protocol.game import Game
from pokerbot.protocol.slumbot import ServerHand, check_game
from pokerbot.strategies.base import Strategy

BOT_NAME = "slumbot"
"""The server's player, as a log and a seed derivation name it."""
MAX_BODY_BYTES = 64 * 1024
DEFAULT_SECONDS_PER_ACTION = 10.0
ENDPOINTS = ("/api/login", "/api/new_hand", "/api/act")


@dataclass(frozen=True)
class Reply:
    """An HTTP answer: status and body (a JSON object, or raw bytes)."""

    status: int
    body: dict[str, Any] | bytes


@dataclass
class _Session:
    token: str
    seed: int
    strategy: Strategy
    dealer: Dealer
    lock: threading.Lock = field(default_factory=threading.Lock)
    hands_dealt: int = 0
    hands_finished: int = 0
    total: int = 0
    hand: ServerHand | None = None
    last_used: float = 0.0


StrategyMaker = Callable[[int], Strategy]
"""``make(seed)``: a fresh strategy for a session, seeded ``seed``."""


class SlumbotAPI:
    """The API's logic, without HTTP: :meth:`handle` turns a request into a :class:`Reply`.

    ``make_strategy(seed)`` builds a session's strategy; ``seed`` (None: one drawn per session)
    seeds the sessions' dealing; ``users`` (None: any login is accepted) maps user names to
    passwords; ``seconds_per_action`` is the deadline each of the bot's decisions gets;
    ``on_event(message)`` hears of sessions started and of the bot's failures.
    """

    def __init__(
        self,
        game: Game,
        make_strategy: StrategyMaker,
        *,
        seed: int | None = None,
        users: dict[str, str] | None = None,
        max_sessions: int = 16,
        seconds_per_action: float = DEFAULT_SECONDS_PER_ACTION,
        on_event: Callable[[str], None] | None = None,
    ) -> None:
        check_game(game)
        self.game = game
        self.make_strategy = make_strategy
        self.seed = seed
        self.users = users
        self.max_sessions = max_sessions
        self.seconds_per_action = seconds_per_action
        self.on_event = on_event
        self._sessions: dict[str, _Session] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------- requests
    def handle(self, method: str, path: str, body: bytes) -> Reply:
        """The reply to one request."""
        if path not in ENDPOINTS:
            return _error(404, f"no such endpoint {path[:60]!r}: the API has {', '.join(ENDPOINTS)}")
        if method != "POST":
            return _error(405, f"{path} takes POST requests with a JSON body")
        try:
            payload = json.loads(body.decode("utf-8")) if body.strip() else {}
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            return _error(400, f"the body is not JSON: {error}")
        if not isinstance(payload, dict):
            return _error(400, "the body must be a JSON object")
        token = payload.get("token")
        if token is not None and not isinstance(token, str):
            return _error(400, "'token' must be a string")
        if path == "/api/login":
            return self._login(payload)
        if path == "/api/new_hand":
            return self._new_hand(token)
        return self._act(token, payload.get("incr"))

    def _login(self, payload: dict[str, Any]) -> Reply:
        username, password = payload.get("username"), payload.get("password")
        if not isinstance(username, str) or not isinstance(password, str):
            return _error(400, "login needs 'username' and 'password' (strings)")
        if self.users is not None and (
            username not in self.users or not secrets.compare_digest(self.users[username].encode(), password.encode())
        ):
            return _error(400, "Invalid username or password")
        return Reply(200, {"token": self._open_session().token})

    def _new_hand(self, token: str | None) -> Reply:
        session = self._session(token) or self._open_session()
        with session.lock:
            if session.hand is not None and not session.hand.finished:
                session.hand = None  # abandoned: not counted, not observed
            k = session.hands_dealt
            hand = ServerHand(self.game, session.dealer.deal(), k % 2, k)
            session.hands_dealt += 1
            session.hand = hand
            self._bot_plays(session, hand)
            return Reply(200, self._answer(session, hand, ""))

    def _act(self, token: str | None, incr: object) -> Reply:
        if token is None:
            return _error(400, "act needs the session's 'token'")
        session = self._session(token)
        if session is None:
            return _error(400, "unknown token: start a hand with /api/new_hand (the server may have restarted)")
        if not isinstance(incr, str):
            return _error(400, "act needs 'incr', the client's action as a string (k, c, f or b<chips>)")
        with session.lock:
            hand = session.hand
            if hand is None or hand.finished:
                return _error(400, "no hand in progress: start one with /api/new_hand")
            old = hand.action_string
            try:
                hand.play_client(incr)
            except ProtocolError as error:
                return _error(400, f"Illegal action {incr[:20]!r} after {old!r}: {error}")
            self._bot_plays(session, hand)
            return Reply(200, self._answer(session, hand, old))

    # ------------------------------------------------------------- sessions
    def _session(self, token: str | None) -> _Session | None:
        if token is None:
            return None
        with self._lock:
            session = self._sessions.get(token)
            if session is not None:
                session.last_used = time.monotonic()
            return session

    def _open_session(self) -> _Session:
        seed = self.seed if self.seed is not None else secrets.randbits(32)
        strategy = self.make_strategy(strategy_seed(seed, BOT_NAME))
        session = _Session(str(uuid.uuid4()), seed, strategy, Dealer(self.game, seed), last_used=time.monotonic())
        with self._lock:
            while len(self._sessions) >= self.max_sessions:
                oldest = min(self._sessions.values(), key=lambda s: s.last_used)
                del self._sessions[oldest.token]
            self._sessions[session.token] = session
        self._event(f"session {session.token[:8]} started (seed {seed})")
        return session

    def sessions(self) -> int:
        """Sessions kept now."""
        with self._lock:
            return len(self._sessions)

    # ----------------------------------------------------------------- play
    def _bot_plays(self, session: _Session, hand: ServerHand) -> None:
        """The bot acts until the client is to act or the hand is over; then the hand's end."""
        while hand.bot_to_act:
            view = hand.bot_view()
            try:
                action: object = session.strategy.decide(view, time.monotonic() + self.seconds_per_action)
            except Exception as error:  # a strategy's failure: the dealer's repair, a check or call
                self._event(f"the bot failed in hand {hand.hand_number}: {error!r}; it checks or calls")
                action = None
            hand.play_bot(action)
        if hand.finished:
            session.hands_finished += 1
            session.total += round(hand.state.values()[hand.client_pos])
            try:
                session.strategy.observe(hand.bot_view())
            except Exception as error:
                self._event(f"the bot failed observing hand {hand.hand_number}: {error!r}")

    def _answer(self, session: _Session, hand: ServerHand, old: str) -> dict[str, Any]:
        answer = hand.answer(old)
        if hand.finished:
            answer["session_num_hands"] = session.hands_finished
            answer["session_total"] = session.total
        answer["token"] = session.token
        return answer

    def _event(self, message: str) -> None:
        if self.on_event is not None:
            self.on_event(message)


def _error(status: int, message: str) -> Reply:
    return Reply(status, {"error_msg": message})


class _Handler(BaseHTTPRequestHandler):
    server: SlumbotHTTPServer
    protocol_version = "HTTP/1.1"
    server_version = "pokerbot-slumbot-api"
    disable_nagle_algorithm = True  # the headers and the body go out at once, not 40 ms apart

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        self._answer("POST")

    def do_GET(self) -> None:  # noqa: N802
        self._answer("GET")

    def do_PUT(self) -> None:  # noqa: N802
        self._answer("PUT")

    def do_DELETE(self) -> None:  # noqa: N802
        self._answer("DELETE")

    def _answer(self, method: str) -> None:
        length_text = self.headers.get("Content-Length")
        if method == "POST" and length_text is None:
            self._send(_error(411, "a request needs a Content-Length"))
            return
        try:
            length = int(length_text or 0)
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY_BYTES:
            self._send(_error(413, f"the body must be 0..{MAX_BODY_BYTES} bytes"))
            return
        body = self.rfile.read(length) if length else b""
        path = self.path.split("?", 1)[0]
        self._send(self.server.handler(method, path, body))

    def _send(self, reply: Reply) -> None:
        data = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
        self.send_response(reply.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's signature
        """Requests are not logged (the API's events are, through ``on_event``)."""


RequestHandler = Callable[[str, str, bytes], Reply]
"""``handler(method, path, body)``: what :class:`SlumbotHTTPServer` calls for each request."""


class SlumbotHTTPServer(ThreadingHTTPServer):
    """HTTP for a request handler (:meth:`SlumbotAPI.handle`, or a wrapper of it); a thread per
    request. ``port`` 0 takes a free port (:attr:`port` says which)."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, handler: RequestHandler, host: str = "127.0.0.1", port: int = 0) -> None:
        self.handler = handler
        super().__init__((host, port), _Handler)

    @property
    def port(self) -> int:
        """The port served."""
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        """The client's URL of this server."""
        host = str(self.server_address[0])
        shown = f"[{host}]" if ":" in host else host
        return f"slumbot+http://{shown}:{self.port}"

    def start(self) -> threading.Thread:
        """Serve in a daemon thread; :meth:`stop` ends it."""
        thread = threading.Thread(target=self.serve_forever, name="slumbot-api", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self.shutdown()
        self.server_close()


__all__ = ["BOT_NAME", "Reply", "SlumbotAPI", "SlumbotHTTPServer", "StrategyMaker"]
