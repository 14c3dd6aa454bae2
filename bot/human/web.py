"""``pokerbot web``: take a seat against any strategy, or watch a match, in a browser.

One asyncio server (the ``websockets`` library, whose HTTP hook serves the page and a small
JSON API) starts matches on request, each through our dealer (:func:`pokerbot.bot.dealer.server.serve_match`
with WebSocket seats) and our client (:func:`pokerbot.bot.client.play.play_match`) for every bot:

* **play**: ``/api/start?mode=play&game=G&opponent=S&hands=N`` starts a match whose first
  seat is the browser's: the page connects to that seat's WebSocket URL and speaks the ACPC
  protocol to the dealer itself (``VERSION:2.0.0``, then a ``MATCHSTATE`` line per state and
  one response per turn). ``/api/describe?game=G&line=MATCHSTATE...`` describes a state the
  page received (pot, stacks, cards, history, legal actions with amounts:
  :mod:`pokerbot.bot.human.table`), so the rules live in one place, our engine.
* **watch**: ``/api/start?mode=watch&game=G&players=A,B&hands=N&pace=S`` plays two
  strategies against each other (each decision paced by ``pace`` seconds) and streams
  events to the page over the WebSocket ``/feed/ID``: every action as it is made and every
  finished hand with its cards and values.

Matches write their ACPC logs in ``--out``. Times are in seconds, amounts in chips.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from http import HTTPStatus
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from pokerbot.bot.client.play import play_match
from pokerbot.bot.dealer.server import DealerConfig, MatchResult, serve_match
from pokerbot.bot.human.table import describe
from pokerbot.protocol.actions import Action
from pokerbot.protocol.analysis.ranking import preload_ranker
from pokerbot.protocol.errors import PokerError
from pokerbot.protocol.game import BUILTIN_GAMES, Game, load_game
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.matchlog import parse_state_line
from pokerbot.protocol.wire import MatchState, format_response, parse_match_state
from pokerbot.strategies.base import Strategy, StrategyRegistry, UnknownStrategyError
from pokerbot.strategies.registry import default_registry

MAX_HANDS = 100_000
PERSON_LIMIT_MS = 24 * 3600 * 1000.0
"""The dealer's limits in a match with a person: a day per response, hand and hand on average."""
WATCH_PER_HAND_MS = 60_000.0
"""The dealer's average time per hand in a watched match, before the pace, in milliseconds."""
_STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
    "/favicon.ico": ("favicon.ico", "image/x-icon"),
}
"""The page's files (``webui/``), by path, with their content types: no build step, no
file fetched from anywhere else."""


class WebRequestError(ValueError):
    """A request to the API is malformed (the message goes back as HTTP 400)."""


@dataclass
class _Match:
    """One match started from the page."""

    ident: int
    game: Game
    game_name: str
    names: list[str]
    mode: str
    hands: int
    log_path: Path
    seat_url: str = ""
    task: asyncio.Task[MatchResult] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    watchers: set[ServerConnection] = field(default_factory=set)
    log_offset: int = 0
    error: str | None = None
    """Why the match could not be played (a bot that could not be built), if so."""


class _Reporter(Strategy):
    """Plays like ``inner``, waits ``pace`` seconds per decision, and reports each action."""

    def __init__(self, inner: Strategy, pace: float, report: Callable[[MatchState, Action], None]) -> None:
        super().__init__(inner.game)
        self.inner, self.pace, self.report = inner, pace, report
        self.name = inner.name

    def decide(self, view: MatchState, deadline: float) -> Action:
        """The inner strategy's action, reported, no sooner than ``pace`` seconds."""
        started = time.monotonic()
        action = self.inner.decide(view, deadline)
        time.sleep(max(0.0, self.pace - (time.monotonic() - started)))
        self.report(view, action)
        return action

    def prepare(self) -> None:
        """Prepare the inner strategy."""
        self.inner.prepare()

    def observe(self, view: MatchState) -> None:
        """Let the inner strategy observe the hand."""
        self.inner.observe(view)


class WebServer:
    """The page, the API and the matches it starts (see the module docstring)."""

    def __init__(self, host: str, out: Path, registry: StrategyRegistry | None = None) -> None:
        self.host = host
        self.out = out
        self.registry = registry or default_registry()
        self.matches: dict[int, _Match] = {}
        self._ids = itertools.count(1)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.bots: set[asyncio.Task[Any]] = set()
        """The bots' tasks, seating and playing (kept, so that they are not garbage-collected)."""

    # ------------------------------------------------------------------ HTTP
    async def handle_http(self, connection: ServerConnection, request: Request) -> Response | None:
        """Serve the page and the API; None lets a WebSocket handshake (``/feed/ID``) go on."""
        url = urlsplit(request.path)
        if url.path.startswith("/feed/"):
            return None
        query = {key: values[-1] for key, values in parse_qs(url.query).items()}
        try:
            if url.path in _STATIC:
                name, kind = _STATIC[url.path]
                body = resources.files("pokerbot.bot.human").joinpath("webui", name).read_bytes()
                return _response(HTTPStatus.OK, body, kind)
            if url.path == "/api/options":
                return _json(self.options())
            if url.path == "/api/describe":
                return _json(self.describe_line(query))
            if url.path == "/api/start":
                return _json(await self.start(query))
        except (WebRequestError, PokerError, UnknownStrategyError) as error:
            return _json({"error": str(error)}, HTTPStatus.BAD_REQUEST)
        return _response(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")

    def options(self) -> dict[str, Any]:
        """What the page offers: built-in games and every strategy name."""
        return {"games": sorted(BUILTIN_GAMES), "strategies": self.registry.names()}

    def describe_line(self, query: dict[str, str]) -> dict[str, Any]:
        """The table of a ``MATCHSTATE`` line the page received (``match``: the match it
        belongs to, whose players' names the table shows)."""
        game = load_game(_need(query, "game"))
        view = parse_match_state(_need(query, "line"), game)
        match = self.matches.get(_int(query["match"], "match", 0, 2**31)) if query.get("match") else None
        names = match.names if match is not None else None
        table = describe(view.state, view.hand_number, view.position, names).to_json()
        table["line"] = _need(query, "line")
        return table

    # ------------------------------------------------------------------ matches
    async def start(self, query: dict[str, str]) -> dict[str, Any]:
        """Start a match (``mode`` play or watch); what the page needs to follow it."""
        assert self.loop is not None
        mode = query.get("mode", "play")
        game_name = query.get("game", "holdem-nolimit-2p")
        game = load_game(game_name)
        if game.num_players != 2:
            raise WebRequestError("the web table seats two players: choose a 2-player game")
        hands = _int(query.get("hands", "20"), "hands", 1, MAX_HANDS)
        seed = _int(query.get("seed", str(int(time.time()) % 2**31)), "seed", 0, 2**32 - 1)
        if mode == "play":
            opponent = query.get("opponent", "random")
            strategies = [opponent]
            names = ["you", _log_name(opponent, "you")]
        elif mode == "watch":
            strategies = [part for part in query.get("players", "").split(",") if part]
            if len(strategies) != 2:
                raise WebRequestError("watch needs two players: players=A,B")
            first = _log_name(strategies[0], "")
            names = [first, _log_name(strategies[1], first)]
        else:
            raise WebRequestError(f"mode must be play or watch, got {mode!r}")
        for name in strategies:
            self.registry.check(name, game)  # a bad name or argument is refused now, at once
        ident = next(self._ids)
        match = _Match(ident, game, game_name, names, mode, hands, self.out / f"web-{ident}.log")
        self.matches[ident] = match
        pace = float(query.get("pace", "0.3")) if mode == "watch" else 0.0
        ports: asyncio.Future[list[int]] = self.loop.create_future()
        # A person may think for a day. A watched match is a show, not a contest: a minute per
        # hand on average (a strategy's first decision may load tables), plus the pace.
        limits = (
            TimeLimits(PERSON_LIMIT_MS, PERSON_LIMIT_MS, PERSON_LIMIT_MS)
            if mode == "play"
            else TimeLimits(per_hand_ms=WATCH_PER_HAND_MS + 20_000 * pace)
        )
        config = DealerConfig(
            match_name=f"web-{ident}",
            game=game,
            game_label=game_name,
            hands=hands,
            seed=seed,
            names=names,
            transport="ws",
            host=self.host,
            output_dir=self.out,
            limits=limits,
        )
        match.task = self.loop.create_task(
            serve_match(config, on_ports=ports.set_result, on_hand=lambda hand: self._hand_done(match, hand))
        )
        match.task.add_done_callback(lambda task: self._match_over(match, task))
        waiting: set[asyncio.Future[Any]] = {ports, match.task}
        await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        if not ports.done():
            raise WebRequestError(f"the dealer did not start: {match.task.result().error}")
        urls = [f"ws://{self.host}:{port}/" for port in ports.result()]
        if mode == "play":
            match.seat_url, urls = urls[0], urls[1:]
        # The page gets its answer now; the bots sit down once they are loaded (a hold'em
        # agent takes seconds), and the dealer deals when every seat is taken.
        self._keep(self._seat_bots(match, strategies, seed, urls, limits, pace))
        return {
            "match": ident,
            "mode": mode,
            "game": game_name,
            "names": names,
            "hands": hands,
            "seat_url": match.seat_url,
            "feed": f"/feed/{ident}",
            "log": str(match.log_path),
        }

    def _keep(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` as a task kept until it ends (so that it is not garbage-collected)."""
        assert self.loop is not None
        task = self.loop.create_task(work)
        self.bots.add(task)
        task.add_done_callback(self.bots.discard)

    def _build(self, strategies: list[str], game: Game, seed: int) -> list[Strategy]:
        """The bots, built and prepared (their data loaded, their code compiled): in a thread,
        away from the event loop that serves the page."""
        built = [self.registry.create(name, game, seed + index) for index, name in enumerate(strategies)]
        for strategy in built:
            strategy.prepare()
        preload_ranker(game.ranker)
        return built

    async def _seat_bots(
        self, match: _Match, strategies: list[str], seed: int, urls: list[str], limits: TimeLimits, pace: float
    ) -> None:
        """Build the bots off the event loop, then connect each to its seat."""
        assert self.loop is not None and match.task is not None
        try:
            built = await self.loop.run_in_executor(None, self._build, strategies, match.game, seed)
        except (OSError, ValueError) as error:  # a strategy's file or data, found bad when it is built
            match.error = f"cannot seat {', '.join(strategies)}: {error}"
            match.task.cancel()
            return
        if match.mode == "watch":
            built = [self._reporter(match, strategy, pace) for strategy in built]
        for url, bot in zip(urls, built, strict=True):
            # In a thread, not a process of its own: the bot reports its actions to this page.
            self._keep(play_match(url, match.game, bot, limits=limits, isolation="thread"))

    def _reporter(self, match: _Match, strategy: Strategy, pace: float) -> Strategy:
        loop = self.loop
        assert loop is not None

        def report(view: MatchState, action: Action) -> None:
            after = view.state.copy()
            after.apply(action)
            event = {
                "type": "action",
                "line": format_response(view, action),
                "view": describe(after, view.hand_number, view.position, match.names, you=False).to_json(),
                "position": view.position,
            }
            loop.call_soon_threadsafe(self._publish, match, event)

        return _Reporter(strategy, pace, report)

    def _hand_done(self, match: _Match, hand_number: int) -> None:
        """A hand's log line was written: read it and send the finished hand to watchers."""
        with match.log_path.open(encoding="utf-8") as log:
            log.seek(match.log_offset)
            lines = log.read().splitlines()
            match.log_offset = log.tell()
        for line in lines:
            if line.startswith("STATE:"):
                hand = parse_state_line(line, match.game)
                view = describe(hand.state, hand.hand_number, None, match.names).to_json()
                self._publish(match, {"type": "hand", "view": view, "names": list(hand.names), "line": line})

    def _match_over(self, match: _Match, task: asyncio.Task[MatchResult]) -> None:
        error = match.error or (None if task.cancelled() or task.exception() is None else repr(task.exception()))
        result = task.result() if error is None and not task.cancelled() else None
        self._publish(
            match,
            {
                "type": "over",
                "hands": result.hands_played if result else 0,
                "totals": result.totals if result else {},
                "error": error or (result.error if result else "cancelled"),
                "log": str(match.log_path),
            },
        )

    def _publish(self, match: _Match, event: dict[str, Any]) -> None:
        match.events.append(event)
        text = json.dumps(event)
        for watcher in list(match.watchers):
            asyncio.ensure_future(_send(watcher, text))

    async def feed(self, connection: ServerConnection) -> None:
        """``/feed/ID``: every event of the match so far, then each new one as it happens."""
        try:
            ident = int(urlsplit(connection.request.path).path.rsplit("/", 1)[-1])  # type: ignore[union-attr]
            match = self.matches[ident]
        except (ValueError, KeyError):
            await connection.close(1008, "no such match")
            return
        for event in list(match.events):
            await _send(connection, json.dumps(event))
        match.watchers.add(connection)
        try:
            await connection.wait_closed()
        finally:
            match.watchers.discard(connection)


async def _send(connection: ServerConnection, text: str) -> None:
    with contextlib.suppress(ConnectionClosed):
        await connection.send(text)


def _need(query: dict[str, str], key: str) -> str:
    if not query.get(key):
        raise WebRequestError(f"missing parameter {key!r}")
    return query[key]


def _int(text: str, what: str, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise WebRequestError(f"{what} must be a whole number, got {text!r}") from None
    if not low <= value <= high:
        raise WebRequestError(f"{what} must be in {low}..{high}, got {value}")
    return value


def _log_name(strategy: str, taken: str) -> str:
    name = "".join("_" if ch in ":|" or ch.isspace() else ch for ch in strategy) or "bot"
    return f"{name}-2" if name == taken else name


def _response(status: HTTPStatus, body: bytes, kind: str) -> Response:
    headers = Headers({"Content-Type": kind, "Content-Length": str(len(body))})
    headers["Cache-Control"] = "no-store"
    return Response(status.value, status.phrase, headers, body)


def _json(data: dict[str, Any], status: HTTPStatus = HTTPStatus.OK) -> Response:
    return _response(status, json.dumps(data, default=str).encode(), "application/json; charset=utf-8")


async def run_web(host: str, port: int, out: Path, on_ready: Callable[[str], None]) -> None:
    """Serve until cancelled; ``on_ready`` gets the page's URL."""
    server = WebServer(host, out)
    server.loop = asyncio.get_running_loop()
    out.mkdir(parents=True, exist_ok=True)
    # The API is answered inside the opening handshake: give it time on a busy machine (the
    # library's default, 10 s, closes a request unanswered).
    async with serve(server.feed, host, port, process_request=server.handle_http, open_timeout=120) as ws_server:
        bound = ws_server.sockets[0].getsockname()[1]
        on_ready(f"http://{host}:{bound}/")
        await asyncio.Future()


__all__ = ["WebRequestError", "WebServer", "run_web"]
