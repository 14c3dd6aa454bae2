"""The player: connect to a dealer seat and play a strategy until the dealer closes.

:func:`play_match` connects (retrying with back-off for up to ``connect_timeout`` seconds,
since a bot in a container may start before its dealer), sends the version line, answers
every request of the dealer through :class:`~pokerbot.protocol.session.ClientSession` and calls
``strategy.observe`` with the final view of every hand (queued while the strategy is busy,
never skipped: :attr:`ClientResult.observed` counts them). A match ends normally when the
dealer closes the connection between two hands.

The dealer is named by a URL (``tcp://host:port``, ``ws://host:port/path``): the transport
registry (:mod:`pokerbot.bot.transports`) picks the transport by its scheme.

Time. The client plays under the limits the dealer enforces, given as a
:class:`~pokerbot.protocol.limits.TimeLimits` (default: the reference dealer's defaults).
Each decision gets a budget, in seconds, from :meth:`TimeLimits.remaining` (one response, a
hand's total, and the average per hand over the match, counted over the hands started so
far), minus a safety margin for the network (5 %, at least 50 ms), and capped by
``time_per_action`` when given. The budget runs from the moment the request was read (or,
when the request came in the same batch as the previous hand's end, from the moment that
end was read, since the strategy's ``observe`` delayed reading it). The strategy's
``decide`` gets that deadline and is cut off at the budget. It runs where
:mod:`pokerbot.bot.client.runner` puts it: in a process of its own by default, so that no
lock it holds can delay the fallback; inline when it declares itself cheap.

Fallback rule. When the strategy raises, runs out of time, returns an illegal action, or is
still busy with earlier calls that overran (it is not interrupted: strategies are not
written to be stopped half-way; a strategy process takes the next request behind a late
one, within that request's own time), or its process died, the client sends the strategy's
quick action (:meth:`~pokerbot.strategies.base.Strategy.quick_action`: a searching strategy's
blueprint, asked of the client's own copy when the strategy runs in a process of its own) or,
without one, ``c``: a check when nothing is owed, otherwise a call. ``c`` is legal whenever a
player is to act. Every fallback is logged (structlog, event ``fallback``, with its
``source``) and counted in :attr:`ClientResult.fallbacks`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import structlog

from pokerbot.bot.client.runner import InlineRunner, Isolation, Runner, StrategyFailedError, make_runner
from pokerbot.bot.client.worker import StrategyBusyError
from pokerbot.bot.transports import HandshakeRefusedError, LineConnection, LineTooLongError, redact_url, transport_for
from pokerbot.protocol.actions import Action
from pokerbot.protocol.analysis.ranking import preload_ranker
from pokerbot.protocol.errors import IncompleteHandError, ProtocolError
from pokerbot.protocol.game import Game
from pokerbot.protocol.limits import DecisionClock, TimeLimits
from pokerbot.protocol.session import ActionRequired, ClientSession, HandFinished, StateUpdate, safe_action
from pokerbot.protocol.wire import MatchState, is_comment, parse_seats_comment
from pokerbot.strategies.base import Strategy

_OBSERVE_SHARE = 0.5
_OBSERVE_MIN_SECONDS = 0.01
_RETRY_FIRST_SECONDS = 0.05
_RETRY_MAX_SECONDS = 1.0
WAITING_NOTICE_SECONDS = 1.0
"""Silence from the dealer this long after the version line: the client says it waits for the
match to start (a dealer that does not say how many seats are connected, as the reference)."""


class DealerConnectionError(ConnectionError):
    """The dealer could not be reached in time, or refused the connection."""


@dataclass(frozen=True)
class ClientResult:
    """How a match went for this player: hands finished, fallback actions sent, and the
    reason when the match did not end normally (None when it did)."""

    hands_played: int
    fallbacks: int
    error: str | None = None
    chips: float = 0.0
    """This seat's winnings over the finished hands, in chips (hands whose showdown cards the
    dealer did not show count 0)."""
    mismatch: str | None = None
    """Set when a ``MATCHSTATE`` line before the end of the first hand did not fit the game
    (the line and why): the dealer plays another game, so the client stopped there."""
    observed: int = 0
    """Hands' ends the strategy observed (every finished hand, unless the strategy failed)."""


@dataclass(frozen=True, slots=True)
class _End:
    """The connection ended (``error`` None: closed by the dealer), after the lines before it."""

    error: BaseException | None


class _Player:
    """Plays one connection: reads states, decides, replies, observes."""

    def __init__(
        self,
        connection: LineConnection,
        game: Game,
        strategy: Strategy,
        clock: DecisionClock,
        log: structlog.typing.FilteringBoundLogger,
        runner: Runner,
        say: Callable[[str], None],
    ) -> None:
        self.connection = connection
        self.say = say
        """Tells the person running the client how the match is going (the wait for the start)."""
        self._silence: asyncio.TimerHandle | None = None
        """Says that the client waits, unless the dealer speaks first (:data:`WAITING_NOTICE_SECONDS`)."""
        self.session = ClientSession(game)
        self.strategy = strategy
        self.clock = clock
        self.log = log
        self.runner = runner
        self.fallbacks = 0
        self.chips = 0.0
        self.hand_number: int | None = None
        self.in_hand = False
        self.dealer_error: str | None = None
        self.mismatch: str | None = None
        self._hand_end_read_at: float | None = None
        """When the last line, a hand's end, was read: a request right after it was sent with it."""
        self._ended: asyncio.Future[str | None] | None = None
        """With an inline strategy on a connection that hands lines over as they arrive
        (:meth:`_exchange_inline`): resolved with the transport error (or None) at the end."""
        self._backlog: collections.deque[str | _End] | None = None
        """Lines that came while a reply waited for the connection's buffer to drain."""
        self._cutoff = 0.0
        """The cut-off of the latest request, in seconds from its reading."""
        self.too_long: str | None = None
        """Set when the dealer sent an over-long line, on which the client closed the connection."""

    def _new_state(self, view: MatchState) -> None:
        if view.hand_number != self.hand_number or not self.in_hand:
            self.hand_number = view.hand_number
            self.in_hand = True
            self.clock.start_hand()

    async def run(self) -> ClientResult:
        """Play until the dealer closes the connection; how it went."""
        try:
            error = await self._exchange()
        finally:
            if self._silence is not None:
                self._silence.cancel()
        if self.too_long is not None:
            where = f"in hand {self.hand_number}" if self.in_hand else f"after {self.session.hands_finished} hands"
            error = f"the client closed the connection {where}: the dealer sent an over-long line ({self.too_long})"
            return ClientResult(self.session.hands_finished, self.fallbacks, error, self.chips)
        if self.mismatch is not None:
            error = f"the dealer's lines do not fit the game: {self.mismatch}"
            return ClientResult(self.session.hands_finished, self.fallbacks, error, self.chips, self.mismatch)
        if self.session.hands_finished == 0 and not self.in_hand:
            said = f"it said: {self.dealer_error}" if self.dealer_error else error or "no reason given"
            error = f"the dealer closed the connection before the first hand ({said})"
        elif error is None and self.in_hand:
            error = f"the dealer closed the connection in the middle of hand {self.hand_number}"
        return ClientResult(self.session.hands_finished, self.fallbacks, error, self.chips)

    async def _exchange(self) -> str | None:
        """Send the version, then handle lines until the end; the transport error, if any."""
        connection = self.connection
        error: str | None = None
        try:
            await connection.send_lines([self.session.hello()])
        except ConnectionError as problem:  # refused at once: what the dealer said is still readable
            error = f"connection to the dealer failed: {problem}"
        else:
            self._silence = asyncio.get_running_loop().call_later(
                WAITING_NOTICE_SECONDS, self.say, "waiting for the dealer to start the match (when every seat is taken)"
            )
        if isinstance(self.runner, InlineRunner):
            ended = self._ended = asyncio.get_running_loop().create_future()
            if connection.subscribe(self._on_line, self._on_end):
                ending = await ended
                return error or ending
        while True:
            try:
                line = await connection.read_line()
                if line is None:
                    return error
                await self._handle(line)
                if self.mismatch is not None:
                    return error
            except LineTooLongError as problem:
                self.too_long = str(problem)
                return error
            except ConnectionError as problem:
                return error or f"connection to the dealer failed: {problem}"

    async def _handle(self, line: str) -> None:
        """One line from the dealer: decide and answer, observe, or note a comment."""
        event, started = self._read(line)
        if isinstance(event, ActionRequired):
            action = await self._decide(event.view, line, started)
            await self.connection.send_lines([self.session.respond(event.view, action)])
            self._answered(started)
        elif isinstance(event, HandFinished):
            await self._observe(event.view, line)

    def _read(self, line: str) -> tuple[ActionRequired | HandFinished | None, float]:
        """Read one line and note what it says; the request or hand's end to act on, if any,
        and (for a request) when its budget started (monotonic seconds)."""
        received = time.monotonic()
        if self._silence is not None:
            self._silence.cancel()
            self._silence = None
        hand_end_read_at, self._hand_end_read_at = self._hand_end_read_at, None
        try:
            event = self.session.receive(line)
        except ProtocolError as problem:
            if self.session.hands_finished == 0 and line.startswith("MATCHSTATE:"):
                # Before any hand is over, a line that does not fit means another game: say so
                # once and stop, rather than skip every line of the match.
                self.mismatch = f"{line[:120]!r}: {problem}"
                return None, received
            self.log.warning("bad_line", error=str(problem), line=line[:200])
            return None, received
        if isinstance(event, ActionRequired):
            self._new_state(event.view)
            # The dealer sends a hand's end and the next hand's first request together; the
            # strategy's observe delayed reading the request, but the dealer's clock ran.
            return event, received if hand_end_read_at is None else hand_end_read_at
        if isinstance(event, StateUpdate):
            self._new_state(event.view)
        elif isinstance(event, HandFinished):
            self.in_hand = False
            with contextlib.suppress(IncompleteHandError):  # a showdown card was not shown
                self.chips += event.view.state.values()[event.view.position]
            self._hand_end_read_at = received
            return event, received
        elif is_comment(line):
            self.log.info("dealer_comment", text=line)
            seats = parse_seats_comment(line)
            if seats is not None and self.session.hands_finished == 0 and not self.in_hand:
                self.say(f"waiting for the dealer: {seats[0]} of {seats[1]} seats connected")
            if line.lstrip("#; ").lower().startswith("error"):
                self.dealer_error = line.lstrip("#; ")
        return None, received

    def _answered(self, started: float) -> None:
        """The answer to the request read at ``started`` has left: charge its time, and note
        how late it left (the margins grow with the lateness seen)."""
        elapsed = time.monotonic() - started
        self.clock.charge_response(elapsed)
        self.clock.note_lateness(elapsed - self._cutoff)

    async def _decide(self, view: MatchState, line: str, started: float) -> Action:
        """The strategy's action for ``view`` (``line`` as received), or the fallback when it
        fails or is late; the budget runs from ``started`` (monotonic seconds)."""
        soft, hard = self.clock.budget()
        self._cutoff = hard
        left = hard - (time.monotonic() - started)
        if left <= 0:
            return self._fallback(view, "no time left under the ACPC limits", quick=False)
        try:
            action = await self.runner.decide(view, line, started + soft, left)
        except StrategyBusyError as problem:
            return self._fallback(view, str(problem))
        except TimeoutError:
            return self._fallback(view, f"the strategy did not answer within {hard:.3f} s")
        except StrategyFailedError as problem:
            return self._fallback(view, f"the strategy failed: {problem}")
        return self._checked(view, action)

    def _checked(self, view: MatchState, action: object) -> Action:
        """``action`` when it is legal in ``view``, else the fallback."""
        if not isinstance(action, Action) or not view.state.can(action):
            return self._fallback(view, f"the strategy chose an illegal action {action!r}")
        return action

    # ------------------------------------------------ an inline strategy, lines as they arrive
    def _on_line(self, line: str) -> None:
        """A line handed over by the connection as it arrives (inline strategies only): handled
        at once as :meth:`_handle` would, without a task waking up per line."""
        ended = self._ended
        if ended is None or ended.done():
            return
        if self._backlog is not None:
            self._backlog.append(line)
            return
        try:
            event, started = self._read(line)
            if self.mismatch is not None:
                ended.set_result(None)
                return
            if isinstance(event, ActionRequired):
                view = event.view
                action = self._decide_inline(view, started)
                reply = [self.session.respond(view, action)]
                if not self.connection.send_now(reply):  # the dealer is not reading: wait for it
                    self._backlog = collections.deque()
                    asyncio.ensure_future(self._send_late(reply, started))
                    return
                self._answered(started)
            elif isinstance(event, HandFinished):
                try:
                    self._inline().observe_now(event.view)
                except StrategyFailedError as problem:
                    self.log.warning("observe_failed", hand=event.view.hand_number, error=str(problem))
        except (LineTooLongError, ConnectionError) as problem:
            ended.set_result(f"connection to the dealer failed: {problem}")
        except Exception as error:  # a bug: raised from run(), as from the reading loop
            ended.set_exception(error)

    def _on_end(self, error: BaseException | None) -> None:
        """The connection ended (``error`` None: the dealer closed it)."""
        if self._backlog is not None:
            self._backlog.append(_End(error))
            return
        if isinstance(error, LineTooLongError):
            self.too_long = str(error)
            error = None
        ended = self._ended
        if ended is not None and not ended.done():
            ended.set_result(None if error is None else f"connection to the dealer failed: {error}")

    async def _send_late(self, reply: list[str], started: float) -> None:
        """Send ``reply`` once the connection can take it, then the lines that came meanwhile."""
        ended = self._ended
        assert ended is not None and self._backlog is not None
        try:
            await self.connection.send_lines(reply)
            self._answered(started)
            while self._backlog:
                item = self._backlog.popleft()
                if isinstance(item, _End):
                    self._backlog = None
                    self._on_end(item.error)
                    return
                await self._handle(item)
                if self.mismatch is not None:
                    self._backlog = None
                    if not ended.done():
                        ended.set_result(None)
                    return
            self._backlog = None
        except (LineTooLongError, ConnectionError) as problem:
            if not ended.done():
                ended.set_result(f"connection to the dealer failed: {problem}")
        except Exception as error:  # a bug: raised from run()
            if not ended.done():
                ended.set_exception(error)

    def _inline(self) -> InlineRunner:
        runner = self.runner
        assert isinstance(runner, InlineRunner)
        return runner

    def _decide_inline(self, view: MatchState, started: float) -> Action:
        """:meth:`_decide` for an inline strategy, without a coroutine."""
        soft, hard = self.clock.budget()
        self._cutoff = hard
        if hard - (time.monotonic() - started) <= 0:
            return self._fallback(view, "no time left under the ACPC limits", quick=False)
        try:
            action = self._inline().decide_now(view, started + soft)
        except StrategyFailedError as problem:
            return self._fallback(view, f"the strategy failed: {problem}")
        return self._checked(view, action)

    def _fallback(self, view: MatchState, reason: str, *, quick: bool = True) -> Action:
        """The action in place of the strategy's: its quick action where the runner gives one
        (and ``quick``: there is time for it), else a check or call."""
        self.fallbacks += 1
        action = self.runner.quick_action(view) if quick else None
        if action is None or not view.state.can(action):
            action = safe_action(view)
            source = "check-or-call"
        else:
            source = "quick"
        self.log.warning(
            "fallback",
            hand=view.hand_number,
            betting=view.state.betting_string(),
            action=str(action),
            source=source,
            reason=reason,
        )
        return action

    async def _observe(self, view: MatchState, line: str) -> None:
        """Show the strategy the hand's end. A strategy in a process of its own gets it
        without the client waiting (queued there); in a thread it may use half the next
        decision's budget (the next request may already be waiting: its time runs), and is
        skipped while the thread still runs a late call."""
        _, hard = self.clock.budget()
        try:
            await self.runner.observe(view, line, max(_OBSERVE_SHARE * hard, _OBSERVE_MIN_SECONDS))
        except StrategyBusyError:
            self.log.warning("observe_skipped", hand=view.hand_number, reason="strategy busy")
        except TimeoutError:
            self.log.warning("observe_timeout", hand=view.hand_number)
        except StrategyFailedError as problem:
            self.log.warning("observe_failed", hand=view.hand_number, error=str(problem))


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


async def connect(url: str, *, token: str | None = None, connect_timeout: float = 10.0) -> LineConnection:
    """Connect to the dealer seat at ``url`` (``tcp://host:port``, ``ws://host:port/path``),
    retrying with back-off for up to ``connect_timeout`` seconds while nobody answers.

    Raises :class:`DealerConnectionError` when time is up or the dealer refuses the
    connection (for instance a wrong WebSocket token: HTTP 401), and
    :class:`~pokerbot.bot.transports.TransportURLError` (a ValueError) for a URL no
    transport takes.
    """
    transport = transport_for(url)
    shown = redact_url(url)  # a token in the URL is never logged
    log = client_logger().bind(dealer=shown)
    deadline = time.monotonic() + connect_timeout
    delay = _RETRY_FIRST_SECONDS
    while True:
        remaining = deadline - time.monotonic()
        try:
            return await transport.connect(url, token=token, timeout=max(remaining, 0.01))
        except HandshakeRefusedError as problem:
            raise DealerConnectionError(str(problem)) from None
        except (OSError, TimeoutError) as problem:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise DealerConnectionError(
                    f"could not connect to the dealer at {shown} within {connect_timeout:g} s: {problem or 'timed out'}"
                ) from None
            log.debug("connect_retry", error=str(problem), delay=delay)
            await asyncio.sleep(min(delay, remaining))
            delay = min(delay * 2, _RETRY_MAX_SECONDS)


async def play_match(
    url: str,
    game: Game,
    strategy: Strategy,
    *,
    limits: TimeLimits | None = None,
    token: str | None = None,
    time_per_action: float | None = None,
    connect_timeout: float = 10.0,
    isolation: Isolation = "auto",
    ordered: bool = False,
    say: Callable[[str], None] | None = None,
) -> ClientResult:
    """Play ``strategy`` in one match at the dealer seat ``url`` until it ends.

    ``limits`` are the time limits the dealer enforces (default: the reference dealer's
    defaults): every decision is answered, by the strategy or by the fallback, within them.
    ``time_per_action`` caps each decision, in seconds; ``token`` is presented to a dealer
    that requires one (WebSocket). ``isolation`` says where the strategy runs
    (:mod:`pokerbot.bot.client.runner`: by default a process of its own, or inline for a
    cheap strategy; the strategy object itself then sees no calls). ``ordered``: the strategy
    observes every hand, in order, before its next decision, however slow its observations
    (reproducible matches under generous limits; by default a strategy process observes the
    hands' ends queued whenever no decision waits, so a decision waits for at most one
    observation). ``say`` gets what the person running the client should know while it waits
    for the match to start (``waiting for the dealer: 1 of 2 seats connected``; default: the
    log, at info level). The strategy's
    :meth:`~pokerbot.strategies.base.Strategy.prepare` runs first, before connecting. Raises
    :class:`DealerConnectionError` when the dealer cannot be reached; every other problem
    ends up in :attr:`ClientResult.error`.
    """
    strategy.prepare()  # a cold start's loading is paid here, before the dealer's clock runs
    preload_ranker(game.ranker)  # the compiled ranker, for the hands' values at showdowns
    runner = make_runner(strategy, game, isolation, ordered=ordered)  # forked before any connection or thread exists
    try:
        connection = await connect(url, token=token, connect_timeout=connect_timeout)
    except BaseException:
        await runner.close()
        raise
    log = client_logger().bind(dealer=redact_url(url))
    log.info("connected", strategy=strategy.name, runs=runner.kind)
    clock = DecisionClock(limits, time_per_action)
    player = _Player(connection, game, strategy, clock, log, runner, say or (lambda text: log.info(text)))
    try:
        result = await player.run()
    finally:
        await connection.close()
        await runner.close()  # after the hands' ends still queued are observed
    result = dataclasses.replace(result, observed=runner.observed)
    log.info(
        "match_over",
        hands=result.hands_played,
        observed=result.observed,
        fallbacks=result.fallbacks,
        error=result.error,
    )
    return result


__all__ = [
    "ClientResult",
    "DealerConnectionError",
    "connect",
    "play_match",
]
