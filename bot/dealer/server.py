"""The match server: the reference ACPC dealer's behaviour over TCP or WebSocket.

:func:`serve_match` listens on one port per seat, waits for every seat to connect and send
its version line, then plays the match through :class:`~pokerbot.protocol.dealer_session.DealerSession`
(which holds all the rules) and carries out its events (:mod:`pokerbot.bot.dealer.output`):

* ``TO``/``FROM`` transcript lines on standard error (unless ``quiet``), as
  ``TO <seat> at <unix seconds> <line>``; warnings and errors always go to standard error;
* ``MATCHNAME.log`` in ``output_dir``: ``#`` header lines, one ``STATE`` line per hand
  (flushed after every hand, so a crash loses no finished hand) and the ``SCORE`` line;
  with ``transactions`` the transaction file ``MATCHNAME.tlog``, from which a killed match
  resumes (:mod:`pokerbot.bot.dealer.match_files`).

While seats are missing, each seat that connects is printed on standard error (unless
``quiet``) and every seat already there gets the comment line ``# seats connected: K of N``
(:func:`~pokerbot.protocol.wire.seats_comment`; clients of the reference ignore comments).
One connection per seat: a second connection to a taken seat gets a ``# error: ...`` comment
line and is closed. A timeout, a disconnect, an over-long line or too many invalid actions
end the match; :attr:`MatchResult.error` says why and the log keeps every finished hand.
The seats speak the transport named by ``transport`` (a scheme of the registry in
:mod:`pokerbot.bot.transports`: ``tcp``, the default, or ``ws``); a transport that carries
tokens can require a ``token`` (WebSocket: ``Authorization: Bearer <token>`` or a ``token``
query parameter).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import math
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass

from pokerbot.bot.dealer.config import DealerConfig, MatchResult
from pokerbot.bot.dealer.output import DealerOutput, stamp
from pokerbot.bot.transports import LineConnection, LineTooLongError, Listener, transport_for
from pokerbot.protocol.analysis.ranking import preload_ranker
from pokerbot.protocol.dealer_events import DealerEvent
from pokerbot.protocol.dealer_session import DealerSession
from pokerbot.protocol.errors import ProtocolError
from pokerbot.protocol.session import check_version
from pokerbot.protocol.wire import is_comment, seats_comment

_SHUTDOWN_GRACE_SECONDS = 2.0


@dataclass(frozen=True, slots=True)
class _Line:
    seat: int
    text: str
    monotonic: float
    wall: float


@dataclass(frozen=True, slots=True)
class _Gone:
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class _Sends:
    """Lines still to send, by seat, after a seat was found backlogged."""

    sends: dict[int, list[str]]


class _Match:
    """One running match: listeners, seats, the session, and the order inputs are handled in
    (what the events send and write is :class:`~pokerbot.bot.dealer.output.DealerOutput`'s)."""

    def __init__(self, config: DealerConfig, on_hand: Callable[[int], None] | None) -> None:
        self.config = config
        self.session = DealerSession(
            config.game,
            config.hands,
            config.seed,
            config.names,
            fixed_seats=config.fixed_seats,
            max_invalid=config.max_invalid,
            limits=config.limits,
            transactions=config.transactions,
            hand_values=config.hand_values,
        )
        seats = config.game.num_players
        self.connections: list[LineConnection | None] = [None] * seats
        self.output = DealerOutput(config, self.session, self.connections, on_hand)
        self.ready = [False] * seats
        self.all_ready = asyncio.Event()
        self.go = asyncio.Event()
        """Set once the match started (or ended): the seats' lines may then be handled."""
        self.done = asyncio.Event()
        """Set when the session is finished."""
        self.lock = asyncio.Lock()
        """Held while an input is handled, so that events are carried out in order."""
        self.loop = asyncio.get_running_loop()
        self.timer: asyncio.TimerHandle | None = None
        self.timer_at = math.inf
        self.timer_task: asyncio.Task[None] | None = None
        self.started = False
        self.over = False
        self.handlers: set[asyncio.Task[None]] = set()
        self.queue: collections.deque[_Line | _Gone | _Sends] = collections.deque()
        """Inputs of subscribed seats waiting their turn (see :meth:`_on_input`)."""
        self.drainer: asyncio.Task[None] | None = None
        """The task handling :attr:`queue`, while it has inputs."""
        self.signal: int | None = None
        """The signal that stopped the dealer, if one did."""
        self.stopped: str | None = None
        """Why a signal ended the match as a shorter one (:attr:`DealerConfig.stop_keeps_score`)."""

    @property
    def error(self) -> str | None:
        """Why the match ended early, or None."""
        return self.output.error

    def warn(self, message: str) -> None:
        """A warning on standard error (printed even when quiet)."""
        self.output.warn(message)

    # ------------------------------------------------------------ seats
    async def admit(self, seat: int, connection: LineConnection) -> None:
        """Run one accepted connection to ``seat``: version line, then its lines until it closes."""
        if self.connections[seat] is not None or self.over:
            why = "the match is over" if self.over else f"seat {seat + 1} is already taken"
            self.warn(f"refused a connection to seat {seat + 1} from {connection.peer}: {why}")
            with contextlib.suppress(ConnectionError):
                await connection.send_lines([f"# error: {why}"])
            await connection.close(why)
            return
        self.connections[seat] = connection
        task = asyncio.current_task()
        assert task is not None
        self.handlers.add(task)
        try:
            if await self._hello(seat, connection):
                ended: asyncio.Future[str] = asyncio.get_running_loop().create_future()
                if connection.subscribe(
                    functools.partial(self._on_line, seat), functools.partial(self._on_end, seat, connection, ended)
                ):
                    await ended
                else:
                    await self._pump(seat, connection)
        finally:
            self.handlers.discard(task)

    async def _hello(self, seat: int, connection: LineConnection) -> bool:
        """Read the version line; on failure free the seat again and return False."""
        problem = ""
        try:
            line = await connection.read_line()
            while line is not None and (not line.strip() or is_comment(line)):
                line = await connection.read_line()
            if line is None:
                problem = "closed the connection before sending its version"
            else:
                check_version(line)
        except (ProtocolError, ConnectionError) as error:
            problem = f"bad version line: {error}"
        if problem and self.over:  # the dealer closed it (the match is over, or never started)
            self.connections[seat] = None
            return False
        if problem:
            self.warn(f"seat {seat + 1} ({connection.peer}) {problem}; the seat is free again")
            with contextlib.suppress(ConnectionError):
                await connection.send_lines([f"# error: {problem}"])
            await connection.close(problem)
            self.connections[seat] = None
            return False
        self.ready[seat] = True
        connected, seats = sum(self.ready), len(self.ready)
        if not self.config.quiet:
            name = self.config.names[seat]
            self.output.stderr(
                [f"seat {seat + 1} ({name}) connected from {connection.peer}: {connected} of {seats} seats connected"]
            )
        if all(self.ready):
            self.all_ready.set()
        else:  # the players already there hear that the match waits for the others
            said = [seats_comment(connected, seats)]
            for other, ready in enumerate(self.ready):
                peer = self.connections[other]
                if ready and peer is not None:
                    with contextlib.suppress(ConnectionError, OSError):
                        await peer.send_lines(said)
        return True

    async def _pump(self, seat: int, connection: LineConnection) -> None:
        """Hand every line of ``seat`` to the session, then how the connection ended."""
        loop = asyncio.get_running_loop()
        reason = "closed the connection"
        while not self.over:
            try:
                line = await connection.read_line()
            except LineTooLongError as error:
                reason = f"sent an over-long line: {error}"
                break
            except ConnectionError as error:
                reason = f"lost the connection ({error})"
                break
            if line is None:
                break
            if not self.started:
                await self.go.wait()
            await self.handle(_Line(seat, line, loop.time(), time.time()))
        if self.started or self.over:
            await self.handle(_Gone(seat, reason))
        else:
            self._free(seat, connection, reason)

    def _free(self, seat: int, connection: LineConnection, reason: str) -> None:
        """Before the match: the seat may be taken again (a bot restarting, say). Said only
        when the player ended the connection (not the dealer, at a start timeout)."""
        if not self.over:
            self.warn(f"seat {seat + 1} ({connection.peer}) {reason} before the match started; the seat is free again")
        self.ready[seat] = False
        self.connections[seat] = None

    # ------------------------------------------------------------ subscribed seats
    def _on_line(self, seat: int, line: str) -> None:
        """A line of a subscribed seat, handed over by the event loop as it arrives: handled
        at once as in :meth:`_on_input`, without making an input object first."""
        session = self.session
        if session.finished:
            return
        now = self.loop.time()
        if self._must_queue():
            self._enqueue(_Line(seat, line, now, time.time()))
            return
        if not self.config.quiet:
            self.output.stderr([f"FROM {seat + 1} at {stamp(time.time())} {line}"])
        self._carry_out_now(session.receive(seat, line, now))

    def _on_end(
        self, seat: int, connection: LineConnection, ended: asyncio.Future[str], error: BaseException | None
    ) -> None:
        """A subscribed seat's connection ended (``error`` None: the peer closed it)."""
        if isinstance(error, LineTooLongError):
            reason = f"sent an over-long line: {error}"
        elif error is not None:
            reason = f"lost the connection ({error})"
        else:
            reason = "closed the connection"
        if self.started or self.over:
            self._on_input(_Gone(seat, reason))
        else:
            self._free(seat, connection, reason)
        if not ended.done():
            ended.set_result(reason)

    def _on_input(self, item: _Gone) -> None:
        """Handle ``item`` at once when nothing else is under way and every seat can take its
        lines without waiting (the common case: no task wakes up per line); else queue it, to
        be handled in order by :meth:`_drain` as :meth:`_pump` would."""
        session = self.session
        if session.finished:
            return  # nothing more to handle (as in :meth:`handle`)
        if self._must_queue():
            self._enqueue(item)
            return
        self._carry_out_now(session.disconnect(item.seat, item.reason))

    def _must_queue(self) -> bool:
        """An input must wait its turn: earlier ones are queued, the match has not started, or
        an input is being handled."""
        return self.drainer is not None or not self.started or self.lock.locked()

    def _carry_out_now(self, events: list[DealerEvent]) -> None:
        """:meth:`_apply` without waiting: lines for a backlogged seat are left to :meth:`_drain`."""
        sends = self.output.record(events)
        if sends and self.error is None:
            rest = self.output.send_now(sends)
            if rest:
                self._enqueue(_Sends(rest))
        self._watch()

    def _enqueue(self, item: _Line | _Gone | _Sends) -> None:
        self.queue.append(item)
        if self.drainer is None:
            self.drainer = asyncio.ensure_future(self._drain())
            self.handlers.add(self.drainer)

    async def _drain(self) -> None:
        """Handle the queued inputs in order, once the match has started."""
        try:
            await self.go.wait()
            while self.queue:
                item = self.queue.popleft()
                if isinstance(item, _Sends):
                    async with self.lock:
                        if self.error is None:
                            await self.output.send(item.sends)
                else:
                    await self.handle(item)
        finally:
            self.handlers.discard(self.drainer)
            self.drainer = None

    # ------------------------------------------------------------ inputs
    async def handle(self, item: _Line | _Gone) -> None:
        """Feed one input to the session and carry out the events, one input at a time."""
        async with self.lock:
            session = self.session
            if session.finished or not self.started:
                return
            if isinstance(item, _Gone):
                await self._apply(session.disconnect(item.seat, item.reason))
                return
            if not self.config.quiet:
                self.output.stderr([f"FROM {item.seat + 1} at {stamp(item.wall)} {item.text}"])
            await self._apply(session.receive(item.seat, item.text, item.monotonic))

    async def _apply(self, events: list[DealerEvent]) -> None:
        """Carry out ``events`` (the lock held); then watch the next deadline or finish."""
        await self.output.carry_out(events)
        self._watch()

    def _watch(self) -> None:
        """After events: arm the timer for the next deadline, or mark the match done."""
        if self.session.finished:
            self.done.set()
            return
        deadline = self.session.deadline()
        # One timer, moved only when a deadline comes earlier than the armed one: when it
        # fires too early (the deadline moved on) it is armed again.
        if deadline is not None and deadline < self.timer_at:
            if self.timer is not None:
                self.timer.cancel()
            self.timer_at = deadline
            self.timer = asyncio.get_running_loop().call_at(deadline, self._on_timer)

    def _on_timer(self) -> None:
        self.timer, self.timer_at = None, math.inf
        self.timer_task = asyncio.ensure_future(self._check_deadline())

    async def _check_deadline(self) -> None:
        async with self.lock:
            session = self.session
            deadline = session.deadline()
            if session.finished or deadline is None:
                return
            now = asyncio.get_running_loop().time()
            await self._apply(session.timeout(now) if now >= deadline else [])

    # ------------------------------------------------------------ the match
    async def play(self) -> None:
        """Wait for every seat, then run the session until the match ends."""
        config, session = self.config, self.session
        loop = asyncio.get_running_loop()
        try:
            timeout = None if config.start_timeout_ms is None else config.start_timeout_ms / 1000
            async with asyncio.timeout(timeout):
                while not all(self.ready) and self.signal is None:
                    self.all_ready.clear()
                    await self.all_ready.wait()
        except TimeoutError:
            missing = ", ".join(
                f"seat {seat + 1} ({name})" for seat, name in enumerate(config.names) if not self.ready[seat]
            )
            waited = f"after {config.start_timeout_ms:g} ms, still waiting for {missing}"
            self.output.report_error(f"start timeout: {waited}")
            self.over = True  # the dealer closes the connections: nobody is to blame for that
            said = f"# error: start timeout: {waited}; the dealer closes the connection"
            for connection in self.connections:
                if connection is not None:
                    with contextlib.suppress(ConnectionError, OSError):
                        await connection.send_lines([said])
            return
        if self.signal is not None:
            return
        self.started = True
        if not config.quiet:
            self.output.stderr([f"STARTED at {stamp(time.time())}"])
        async with self.lock:
            self.output.files.set_clock(loop.time(), time.time())
            await self._apply(session.start(loop.time()))
        self.go.set()
        await self.done.wait()
        if not config.quiet and session.error is None:
            self.output.stderr([f"FINISHED at {stamp(time.time())}"])

    def interrupt(self, signum: int) -> None:
        """A signal (SIGINT, SIGTERM) stops the dealer: the match ends, and nobody is blamed."""
        if self.signal is not None:
            return
        self.signal = signum
        name = signal.Signals(signum).name
        if not self.started:
            self.output.report_error(f"stopped by {name} before the match started")
            self.all_ready.set()
            return
        asyncio.ensure_future(self._stop(name))

    async def _stop(self, name: str) -> None:
        async with self.lock:
            session = self.session
            if session.finished:
                return
            if self.config.stop_keeps_score:
                await self.output.carry_out(session.stop("Ctrl-C" if name == "SIGINT" else name))
                self.stopped = session.stopped
                self.done.set()
                return
            kept = "; resume it with -T -a" if self.config.transactions else ""
            reason = (
                f"stopped by {name} in hand {session.hand_number}: the log keeps the "
                f"{session.hands_played} hands finished{kept}"
            )
            await self.output.carry_out(session.abort(reason))
        self.done.set()

    async def shut_down(self) -> None:
        """Close every connection and wait (briefly) for their handlers to finish."""
        self.over = True
        self.go.set()
        if self.timer is not None:
            self.timer.cancel()
        if self.timer_task is not None:
            self.timer_task.cancel()
        for connection in self.connections:
            if connection is not None:
                with contextlib.suppress(ConnectionError, OSError):
                    await connection.close()
        if self.handlers:
            await asyncio.wait(set(self.handlers), timeout=_SHUTDOWN_GRACE_SECONDS)
        self.output.files.close()


async def serve_match(
    config: DealerConfig,
    on_ports: Callable[[list[int]], None] | None = None,
    on_hand: Callable[[int], None] | None = None,
    *,
    catch_signals: bool = False,
) -> MatchResult:
    """Run one match as the reference dealer does and return how it ended.

    ``on_ports`` gets the seat ports (in seat order) once every seat is listening;
    ``on_hand`` gets each hand number once its log line is written. Errors of the match
    (timeouts, disconnects, invalid actions, start timeout) are in :attr:`MatchResult.error`;
    an OSError is raised only when a port cannot be bound or the log cannot be written, a
    TransactionFormatError when a transaction file to resume from does not fit the match.
    With ``catch_signals`` SIGINT and SIGTERM end the match cleanly (:attr:`MatchResult.signal`).
    """
    match = _Match(config, on_hand)
    transport = transport_for(config.transport)
    closers: list[Listener] = []
    loop = asyncio.get_running_loop()
    stoppers = _catch_signals(loop, match.interrupt) if catch_signals else []
    try:
        wanted = config.ports or [0] * config.game.num_players
        for seat, port in enumerate(wanted):
            handler = functools.partial(match.admit, seat)
            listener = await transport.listen(config.host, port, handler, token=config.token, on_refused=match.warn)
            closers.append(listener)
        ports = [listener.port for listener in closers]
        match.output.files.open(match.session)
        if on_ports is not None:
            on_ports(ports)
        preload_ranker(config.game.ranker)  # while the players connect
        await match.play()
    finally:
        for signum in stoppers:
            loop.remove_signal_handler(signum)
        for server in closers:
            server.close()
        await match.shut_down()
        for server in closers:
            with contextlib.suppress(TimeoutError, OSError):
                await asyncio.wait_for(server.wait_closed(), _SHUTDOWN_GRACE_SECONDS)
    session = match.session
    return MatchResult(
        totals=dict(session.totals),
        hands_played=session.hands_played,
        log_path=config.log_path if config.write_log else None,
        error=match.error,
        per_hand_values=list(session.per_hand_values),
        signal=match.signal,
        stopped=match.stopped,
    )


def _catch_signals(loop: asyncio.AbstractEventLoop, handler: Callable[[int], None]) -> list[int]:
    """Route SIGINT and SIGTERM to ``handler`` while the match runs (where the loop can: in
    the main thread, on Unix); the signals caught."""
    caught: list[int] = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, handler, signum)
        except (NotImplementedError, RuntimeError, ValueError):
            continue
        caught.append(signum)
    return caught


__all__ = ["DealerConfig", "MatchResult", "serve_match"]
