"""The player: connect to a dealer seat and play a strategy until the dealer closes.

:func:`play_match` connects (retrying with back-off for up to ``connect_timeout`` seconds,
since a bot in a container may start before its dealer), sends the version line, answers
every request of the dealer through :class:`~protocol.session.ClientSession` and calls
``strategy.observe`` with the final view of every hand. A match ends normally when the
dealer closes the connection between two hands.

Time. Each decision gets a budget, in seconds, derived from the ACPC limits the dealer
enforces (:class:`~protocol.session.TimeLimits`: one response, a hand's total, and the
average per hand over the match, counted over the hands started so far), minus a safety
margin for the network (5 %, at least 50 ms), and capped by ``time_per_action`` when given.
The strategy's ``decide`` runs in a worker thread with that deadline and is cut off at the
budget: :class:`StrategyWorker` does what :func:`asyncio.to_thread` under
:func:`asyncio.wait_for` does, tuned for the hot path (see there).

Fallback rule. When the strategy raises, runs out of time, returns an illegal action, or is
still busy with an earlier call that overran (a thread cannot be stopped, and strategies
are not assumed to be thread-safe), the client sends ``c``: a check when nothing is owed,
otherwise a call. ``c`` is legal whenever a player is to act. Every fallback is logged
(structlog, event ``fallback``) and counted in :attr:`ClientResult.fallbacks`.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from queue import SimpleQueue
from typing import Any, TypeVar

import structlog
from websockets.exceptions import InvalidHandshake, InvalidStatus

from pokerbot.bot.transport import LineConnection, LineTooLongError, open_tcp, open_websocket
from pokerbot.protocol.actions import Action
from pokerbot.protocol.errors import ProtocolError
from pokerbot.protocol.game import Game
from pokerbot.protocol.session import (
    ActionRequired,
    ClientSession,
    HandFinished,
    StateUpdate,
    TimeLimits,
    safe_action,
)
from pokerbot.protocol.wire import MatchState, is_comment
from pokerbot.strategies.base import Strategy

_T = TypeVar("_T")
SYNC_WAIT_SECONDS = 0.002
"""How long a decision is first waited for synchronously (blocking the event loop)."""
_MARGIN_FRACTION = 0.05
_MARGIN_MIN_SECONDS = 0.05
_SOFT_FRACTION = 0.9
"""Without ``time_per_action`` the strategy's deadline is this share of the hard budget."""
_RETRY_FIRST_SECONDS = 0.05
_RETRY_MAX_SECONDS = 1.0


class DealerConnectionError(ConnectionError):
    """The dealer could not be reached in time, or refused the connection."""


class StrategyBusyError(RuntimeError):
    """The strategy is still running an earlier call that overran its deadline."""


@dataclass(frozen=True)
class ClientResult:
    """How a match went for this player: hands finished, fallback actions sent, and the
    reason when the match did not end normally (None when it did)."""

    hands_played: int
    fallbacks: int
    error: str | None = None


class DecisionClock:
    """Time budgets for decisions, in seconds, from the ACPC limits and an optional cap."""

    def __init__(self, limits: TimeLimits | None = None, time_per_action: float | None = None) -> None:
        if time_per_action is not None and time_per_action <= 0:
            raise ValueError(f"time per action must be positive, got {time_per_action} s")
        self.limits = limits or TimeLimits()
        self.time_per_action = time_per_action
        self.hands_started = 0
        self.hand_seconds = 0.0
        self.match_seconds = 0.0

    def start_hand(self) -> None:
        """A new hand began: its own budget starts afresh and the match bank grows."""
        self.hands_started += 1
        self.hand_seconds = 0.0

    def available(self) -> float:
        """Seconds the dealer allows for the next response (before any margin)."""
        limits = self.limits
        return min(
            limits.response_ms / 1000,
            limits.hand_ms / 1000 - self.hand_seconds,
            limits.per_hand_ms / 1000 * max(1, self.hands_started) - self.match_seconds,
        )

    def budget(self) -> tuple[float, float]:
        """(soft, hard) seconds for the next decision: the strategy's deadline, and the cut-off."""
        available = self.available()
        hard = max(0.0, available - max(_MARGIN_MIN_SECONDS, _MARGIN_FRACTION * available))
        cap = self.time_per_action
        if cap is None:
            return hard * _SOFT_FRACTION, hard
        return min(cap, hard), min(hard, cap * 1.1 + 0.02)

    def charge(self, seconds: float) -> None:
        """Count ``seconds`` spent answering one request."""
        self.hand_seconds += seconds
        self.match_seconds += seconds


class _Call:
    """One call handed to the worker thread, and how its outcome gets back to the loop."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, function: Callable[[], Any], on_done: Callable[[], None]
    ) -> None:
        self.loop = loop
        self.function = function
        self.on_done = on_done
        self.done = False
        self.finished = threading.Lock()
        """Held until the call is done: a bare lock is the cheapest thread hand-over."""
        self.finished.acquire()
        self.outcome: tuple[bool, Any] = (False, None)
        self.answer: asyncio.Future[Any] | None = None

    def execute(self) -> None:
        """In the worker thread: run, record the outcome, wake whoever waits."""
        try:
            self.outcome = (True, self.function())
        except BaseException as error:  # noqa: BLE001 - handed over to the awaiting side
            self.outcome = (False, error)
        self.on_done()
        self.done = True
        self.finished.release()
        if self.answer is not None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                self.loop.call_soon_threadsafe(self.settle)

    def result(self) -> Any:
        """The function's return value, or raise what it raised."""
        ok, value = self.outcome
        if not ok:
            raise value
        return value

    def settle(self) -> None:
        """In the loop: hand the outcome to the awaiting future, unless it gave up."""
        answer = self.answer
        if answer is not None and not answer.done():
            ok, value = self.outcome
            if ok:
                answer.set_result(value)
            else:
                answer.set_exception(value)


class StrategyWorker:
    """Runs a strategy's calls in a worker thread of its own, one call at a time.

    It does what :func:`asyncio.to_thread` under :func:`asyncio.wait_for` does (the context
    is propagated the same way), tuned for the decision hot path: it first waits for the
    thread synchronously for up to :data:`SYNC_WAIT_SECONDS` (a fast strategy then costs no
    event-loop round trip), then asynchronously until the timeout. The thread is a daemon
    dedicated to this worker: a call that overran its timeout is detected (no second call
    ever runs beside it), and a strategy stuck for good cannot keep the process alive.
    """

    def __init__(self) -> None:
        self._jobs: SimpleQueue[Callable[[], None] | None] = SimpleQueue()
        self._thread: threading.Thread | None = None
        self._running = False

    @property
    def busy(self) -> bool:
        """True while an earlier call (one that overran its timeout) still runs."""
        return self._running

    def _done(self) -> None:
        self._running = False

    async def run(self, function: Callable[..., _T], *args: Any, timeout: float | None) -> _T:
        """``function(*args)`` in the worker thread, waited for at most ``timeout`` seconds.

        Raises :class:`StrategyBusyError` if the previous call still runs, TimeoutError when
        the time is up (the call goes on in its thread), or what ``function`` raised.
        """
        if self._running:
            raise StrategyBusyError("the strategy is still busy with an earlier call")
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="strategy", daemon=True)
            self._thread.start()
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        call = _Call(loop, functools.partial(context.run, function, *args), self._done)
        started = loop.time()
        self._running = True
        self._jobs.put(call.execute)
        sync_wait = SYNC_WAIT_SECONDS if timeout is None else min(SYNC_WAIT_SECONDS, timeout)
        if call.finished.acquire(timeout=sync_wait):
            return call.result()  # type: ignore[no-any-return]
        call.answer = answer = loop.create_future()
        if call.done:
            call.settle()
        timer = None if timeout is None else loop.call_at(started + timeout, _expire, answer, timeout)
        try:
            return await answer  # type: ignore[no-any-return]
        finally:
            if timer is not None:
                timer.cancel()

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            job()

    def close(self) -> None:
        """Let the worker thread end once its current call (if any) returns."""
        if self._thread is not None:
            self._jobs.put(None)


def _expire(answer: asyncio.Future[Any], timeout: float) -> None:
    """In the loop: the call's time is up."""
    if not answer.done():
        answer.set_exception(TimeoutError(f"no answer within {timeout:g} s"))


class _Player:
    """Plays one connection: reads states, decides, replies, observes."""

    def __init__(
        self,
        connection: LineConnection,
        game: Game,
        strategy: Strategy,
        clock: DecisionClock,
        log: structlog.typing.FilteringBoundLogger,
    ) -> None:
        self.connection = connection
        self.session = ClientSession(game)
        self.strategy = strategy
        self.clock = clock
        self.log = log
        self.worker = StrategyWorker()
        self.fallbacks = 0
        self.hand_number: int | None = None
        self.in_hand = False
        self.dealer_error: str | None = None

    def _new_state(self, view: MatchState) -> None:
        if view.hand_number != self.hand_number or not self.in_hand:
            self.hand_number = view.hand_number
            self.in_hand = True
            self.clock.start_hand()

    async def run(self) -> ClientResult:
        """Play until the dealer closes the connection; how it went."""
        error = await self._exchange()
        if self.session.hands_finished == 0 and not self.in_hand:
            said = f"it said: {self.dealer_error}" if self.dealer_error else error or "no reason given"
            error = f"the dealer closed the connection before the first hand ({said})"
        elif error is None and self.in_hand:
            error = f"the dealer closed the connection in the middle of hand {self.hand_number}"
        return ClientResult(self.session.hands_finished, self.fallbacks, error)

    async def _exchange(self) -> str | None:
        """Send the version, then handle lines until the end; the transport error, if any."""
        connection = self.connection
        error: str | None = None
        try:
            await connection.send_lines([self.session.hello()])
        except ConnectionError as problem:  # refused at once: what the dealer said is still readable
            error = f"connection to the dealer failed: {problem}"
        while True:
            try:
                line = await connection.read_line()
                if line is None:
                    return error
                await self._handle(line)
            except (LineTooLongError, ConnectionError) as problem:
                return error or f"connection to the dealer failed: {problem}"

    async def _handle(self, line: str) -> None:
        """One line from the dealer: decide and answer, observe, or note a comment."""
        received = time.monotonic()
        try:
            event = self.session.receive(line)
        except ProtocolError as problem:
            self.log.warning("bad_line", error=str(problem), line=line[:200])
            return
        if isinstance(event, ActionRequired):
            self._new_state(event.view)
            action = await self._decide(event.view)
            await self.connection.send_lines([self.session.respond(event.view, action)])
            self.clock.charge(time.monotonic() - received)
        elif isinstance(event, StateUpdate):
            self._new_state(event.view)
        elif isinstance(event, HandFinished):
            self.in_hand = False
            await self._observe(event.view)
        elif is_comment(line):
            self.log.info("dealer_comment", text=line)
            if line.lstrip("#; ").lower().startswith("error"):
                self.dealer_error = line.lstrip("#; ")

    async def _decide(self, view: MatchState) -> Action:
        soft, hard = self.clock.budget()
        if hard <= 0:
            return self._fallback(view, "no time left under the ACPC limits")
        try:
            action = await self.worker.run(self.strategy.decide, view, time.monotonic() + soft, timeout=hard)
        except StrategyBusyError as problem:
            return self._fallback(view, str(problem))
        except TimeoutError:
            return self._fallback(view, f"the strategy did not answer within {hard:.3f} s")
        except Exception as problem:  # noqa: BLE001 - a strategy may raise anything
            return self._fallback(view, f"the strategy raised {type(problem).__name__}: {problem}")
        if not isinstance(action, Action) or not view.state.can(action):
            return self._fallback(view, f"the strategy chose an illegal action {action!r}")
        return action

    def _fallback(self, view: MatchState, reason: str) -> Action:
        self.fallbacks += 1
        action = safe_action(view)
        self.log.warning(
            "fallback",
            hand=view.hand_number,
            betting=view.state.betting_string(),
            action=str(action),
            reason=reason,
        )
        return action

    async def _observe(self, view: MatchState) -> None:
        _, hard = self.clock.budget()
        try:
            await self.worker.run(self.strategy.observe, view, timeout=max(hard, _MARGIN_MIN_SECONDS))
        except StrategyBusyError:
            self.log.warning("observe_skipped", hand=view.hand_number, reason="strategy busy")
        except TimeoutError:
            self.log.warning("observe_timeout", hand=view.hand_number)
        except Exception as problem:  # noqa: BLE001 - a strategy may raise anything
            self.log.warning("observe_failed", hand=view.hand_number, error=f"{type(problem).__name__}: {problem}")


def client_logger() -> Any:
    """The client's structlog logger: the configured one when the application configured
    structlog (as ``pokerbot play`` does), else warnings and errors only, on standard error."""
    if structlog.is_configured():
        return structlog.get_logger("pokerbot.client")
    return structlog.wrap_logger(
        structlog.PrintLogger(sys.stderr),
        wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING),
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.dev.ConsoleRenderer(colors=False),
        ],
    )


async def connect(
    host: str,
    port: int,
    *,
    websocket_url: str | None = None,
    token: str | None = None,
    connect_timeout: float = 10.0,
) -> LineConnection:
    """Connect to a dealer seat, retrying with back-off for up to ``connect_timeout`` seconds.

    Raises :class:`DealerConnectionError` when time is up or the dealer refuses the
    WebSocket handshake (for instance a wrong token: HTTP 401).
    """
    where = websocket_url or f"{host}:{port}"
    log = client_logger().bind(dealer=where)
    deadline = time.monotonic() + connect_timeout
    delay = _RETRY_FIRST_SECONDS
    while True:
        remaining = deadline - time.monotonic()
        try:
            if websocket_url is not None:
                return await open_websocket(websocket_url, token, open_timeout=max(remaining, 0.01))
            return await asyncio.wait_for(open_tcp(host, port), max(remaining, 0.01))
        except InvalidStatus as problem:
            status = problem.response.status_code
            raise DealerConnectionError(
                f"the dealer at {where} refused the WebSocket connection: HTTP {status}"
                + (" (missing or wrong token)" if status == 401 else "")
            ) from None
        except InvalidHandshake as problem:
            raise DealerConnectionError(f"WebSocket handshake with {where} failed: {problem}") from None
        except (OSError, TimeoutError) as problem:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise DealerConnectionError(
                    f"could not connect to the dealer at {where} within {connect_timeout:g} s: {problem or 'timed out'}"
                ) from None
            log.debug("connect_retry", error=str(problem), delay=delay)
            await asyncio.sleep(min(delay, remaining))
            delay = min(delay * 2, _RETRY_MAX_SECONDS)


async def play_match(
    host: str,
    port: int,
    game: Game,
    strategy: Strategy,
    *,
    websocket_url: str | None = None,
    token: str | None = None,
    time_per_action: float | None = None,
    connect_timeout: float = 10.0,
    limits: TimeLimits | None = None,
) -> ClientResult:
    """Play ``strategy`` in one match at ``host:port`` (or ``websocket_url``) until it ends.

    ``time_per_action`` caps each decision, in seconds; ``limits`` are the dealer's ACPC
    limits (default: the reference defaults). Raises :class:`DealerConnectionError` when the
    dealer cannot be reached; every other problem ends up in :attr:`ClientResult.error`.
    """
    connection = await connect(host, port, websocket_url=websocket_url, token=token, connect_timeout=connect_timeout)
    log = client_logger().bind(dealer=websocket_url or f"{host}:{port}")
    log.info("connected", strategy=strategy.name)
    clock = DecisionClock(limits, time_per_action)
    player = _Player(connection, game, strategy, clock, log)
    try:
        result = await player.run()
    finally:
        player.worker.close()
        await connection.close()
    log.info("match_over", hands=result.hands_played, fallbacks=result.fallbacks, error=result.error)
    return result


__all__ = [
    "ClientResult",
    "DealerConnectionError",
    "DecisionClock",
    "StrategyBusyError",
    "StrategyWorker",
    "connect",
    "play_match",
]
