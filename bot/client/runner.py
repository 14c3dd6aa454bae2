"""Where a client's strategy runs: inline, in a worker thread, or in a process of its own.

The client (:mod:`pokerbot.bot.client.play`) must answer every request before the dealer's
deadline whatever the strategy is doing. A strategy in a worker thread cannot promise that:
a long call into a C extension (eval7's equity enumeration, say) holds Python's global
interpreter lock, and the event loop, which would send the fallback action, waits for it.
So by default a strategy runs in a child process (:class:`ProcessRunner`, forked from the
client, so the strategy object and everything it loaded are there at once): the client's
loop never shares a lock with it and sends its fallback on time. Strategies that declare
themselves ``cheap`` (rule-based baselines deciding in microseconds) are called inline, with
no hand-off at all (:class:`InlineRunner`). Where ``fork`` does not exist (Windows), the
worker thread (:class:`ThreadRunner`) is the fallback.

Every runner has the same two calls: :meth:`~Runner.decide` returns the strategy's action or
raises :class:`~pokerbot.bot.client.worker.StrategyBusyError` (an earlier call overran and still
runs), TimeoutError (no answer in time) or :class:`StrategyFailedError` (the strategy raised,
or its process died); :meth:`~Runner.observe` shows a finished hand (a child process gets it
without the client waiting and observes it before its next decision: every hand's end, in
order). :attr:`~Runner.observed` counts the hands' ends the strategy has observed.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import multiprocessing
import os
import signal
import time
from abc import ABC, abstractmethod
from multiprocessing.connection import Connection
from typing import Literal

from pokerbot.bot.client.worker import StrategyBusyError, StrategyWorker
from pokerbot.protocol.actions import Action
from pokerbot.protocol.errors import ProtocolError
from pokerbot.protocol.game import Game
from pokerbot.protocol.wire import MatchState, MatchStateReader, format_action, parse_action
from pokerbot.strategies.base import Strategy

Isolation = Literal["auto", "process", "thread", "inline"]
"""How a strategy runs: ``auto`` picks ``inline`` for cheap strategies, else ``process``
(``thread`` where processes cannot be forked)."""
_JOIN_SECONDS = 1.0
DRAIN_SECONDS = 1.0
"""How long a closing runner waits for its strategy process to observe the hands' ends still
in its pipe (then the process is ended): the last hand's, or the last few when the opponent
ended hands without a decision of ours, a few milliseconds each. An ``ordered`` runner waits
up to ten seconds."""
MAX_DECIDING = 2
"""Decisions a strategy process may have in hand: one the client gave up on and still runs,
and the next, which waits for the child within its own time (against a fast opponent a
dozen requests can come in the few milliseconds a late decision overruns by). A request
that finds this many in hand waits, within its own time, for one to end, and is then sent;
when none ends in time the client falls back at the request's cut-off, not at once, so a
match whose strategy fell behind goes no faster than its limits and the strategy process
catches up (answering at once let fallback hands run at dozens a second, the hands' ends
piled up, and the strategy never caught up)."""
_REAP_SECONDS = 0.2
STRATEGY_NICENESS = 5
"""How many nice levels below the client a strategy process runs."""


class StrategyFailedError(RuntimeError):
    """The strategy raised (the message says what), or its process is gone."""


class Runner(ABC):
    """Runs one strategy's calls for a client."""

    kind: str = "runner"
    observed: int = 0
    """Hands' ends the strategy has observed (its ``observe`` returned or raised)."""

    @abstractmethod
    async def decide(self, view: MatchState, line: str, deadline: float, timeout: float) -> Action:
        """The strategy's action for ``view`` (``line`` is its wire text), waited for at most
        ``timeout`` seconds; the strategy itself is told ``deadline`` (monotonic seconds)."""

    @abstractmethod
    async def observe(self, view: MatchState, line: str, timeout: float) -> None:
        """Show the strategy a finished hand, waiting at most ``timeout`` seconds (if at all)."""

    async def close(self) -> None:  # noqa: B027 - nothing to release by default
        """Release what the runner holds (a thread, a process)."""

    def quick_action(self, view: MatchState) -> Action | None:
        """The strategy's :meth:`~pokerbot.strategies.base.Strategy.quick_action` for a
        fallback, where the client may ask it without touching the strategy that decides:
        only a process runner, whose client keeps a copy of its own (None elsewhere, and when
        the strategy has none or raises)."""
        return None


class InlineRunner(Runner):
    """Calls the strategy directly in the event loop: for strategies that decide in microseconds."""

    kind = "inline"

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy

    async def decide(self, view: MatchState, line: str, deadline: float, timeout: float) -> Action:
        return self.decide_now(view, deadline)

    async def observe(self, view: MatchState, line: str, timeout: float) -> None:
        self.observe_now(view)

    def decide_now(self, view: MatchState, deadline: float) -> Action:
        """:meth:`decide` without a coroutine: the strategy's action, or StrategyFailedError."""
        try:
            return self.strategy.decide(view, deadline)
        except Exception as error:  # noqa: BLE001 - a strategy may raise anything
            raise StrategyFailedError(f"{type(error).__name__}: {error}") from None

    def observe_now(self, view: MatchState) -> None:
        """:meth:`observe` without a coroutine; StrategyFailedError when the strategy raised."""
        try:
            self.strategy.observe(view)
        except Exception as error:  # noqa: BLE001 - a strategy may raise anything
            raise StrategyFailedError(f"{type(error).__name__}: {error}") from None
        finally:
            self.observed += 1


class ThreadRunner(Runner):
    """Runs the strategy in a worker thread (:class:`~pokerbot.bot.client.worker.StrategyWorker`)."""

    kind = "thread"

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        self.worker = StrategyWorker()

    async def decide(self, view: MatchState, line: str, deadline: float, timeout: float) -> Action:
        try:
            return await self.worker.run(self.strategy.decide, view, deadline, timeout=timeout)
        except (StrategyBusyError, TimeoutError):
            raise
        except Exception as error:  # noqa: BLE001 - a strategy may raise anything
            raise StrategyFailedError(f"{type(error).__name__}: {error}") from None

    async def observe(self, view: MatchState, line: str, timeout: float) -> None:
        try:
            await self.worker.run(self._observe, view, timeout=timeout)
        except (StrategyBusyError, TimeoutError):
            raise
        except Exception as error:  # noqa: BLE001 - a strategy may raise anything
            raise StrategyFailedError(f"{type(error).__name__}: {error}") from None

    def _observe(self, view: MatchState) -> None:
        try:
            self.strategy.observe(view)
        finally:
            self.observed += 1

    async def close(self) -> None:
        self.worker.close()


# Messages between the client and its strategy process: one byte of kind, then text.
_DECIDE, _OBSERVE, _QUIT = b"D", b"O", b"Q"
_ACTION, _ERROR, _OBSERVED, _BYE = b"A", b"E", b"K", b"B"


def _child(parent_end: Connection, connection: Connection, strategy: Strategy, game: Game, ordered: bool) -> None:
    """The strategy process's entry: close its copy of the client's end of the pipe (so that
    the client closing its end is an end of file here), lower its scheduling priority by
    :data:`STRATEGY_NICENESS` (so that on a busy machine the client's own answers, the
    fallback above all, never wait for the strategy's computing), then :func:`_serve`."""
    parent_end.close()
    with contextlib.suppress(OSError):  # the client's answers before the strategy's thinking
        os.nice(STRATEGY_NICENESS)
    _serve(connection, strategy, game, ordered)


def _serve(connection: Connection, strategy: Strategy, game: Game, ordered: bool = False) -> None:
    """The strategy process: take the client's messages in the order sent, until the pipe closes.

    A hand's end is observed as it comes, so the strategy has learnt every finished hand before
    its next decision: a request that comes in behind a hand's end (the dealer sends the end and
    the next request together) waits for that observation, whose cost comes out of the
    request's time (docs/performance.md has each strategy's). A decision whose cut-off passed
    before the child could start it (the client has answered with its fallback) is not run, so
    one late request does not keep the child busy through the next ones. ``ordered``: every
    decision is run, late or not.
    """
    signal.set_wakeup_fd(-1)  # the parent's event loop owns the inherited wake-up pipe
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the client's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    reader = MatchStateReader(game)
    while True:
        try:
            message = connection.recv_bytes()
        except (EOFError, OSError):
            message = b""
        kind, text = message[:1], message[1:].decode()
        if kind == _DECIDE:
            _decide(connection, strategy, reader, game, text, ordered)
        elif kind == _OBSERVE:
            with contextlib.suppress(EOFError, OSError):
                _observe(connection, strategy, reader, text)
        else:  # the end: the quit message, or the client closed its end
            if kind == _QUIT:
                with contextlib.suppress(EOFError, OSError):
                    connection.send_bytes(_BYE)
            return


def _decide(
    connection: Connection, strategy: Strategy, reader: MatchStateReader, game: Game, text: str, ordered: bool
) -> None:
    """Answer one decide request (``DEADLINE CUTOFF LINE``, monotonic seconds) with the action
    or the error; unless ``ordered``, a request whose cut-off has passed gets the error at once."""
    deadline_text, cutoff_text, line = text.split(" ", 2)
    if not ordered and time.monotonic() >= float(cutoff_text):
        connection.send_bytes(_ERROR + b"the request's time was up before the strategy was free to start it")
        return
    try:
        view = reader.parse(line)
        action = strategy.decide(view, float(deadline_text))
        if isinstance(action, Action) and view.state.can(action):
            reply = _ACTION + format_action(action, game).encode()
        else:  # checked here: the wire spelling could make it look legal
            reply = _ERROR + f"the strategy chose an illegal action {action!r}".encode()
    except Exception as error:  # noqa: BLE001 - handed to the client, which falls back
        reply = _ERROR + f"{type(error).__name__}: {error}".encode()
    connection.send_bytes(reply)


def _observe(connection: Connection, strategy: Strategy, reader: MatchStateReader, text: str) -> None:
    """Show the strategy one hand's end; acknowledge it (with the error, if it raised)."""
    try:
        strategy.observe(reader.parse(text))
        reply = _OBSERVED
    except Exception as error:  # noqa: BLE001 - handed to the client, which logs it
        reply = _OBSERVED + f"{type(error).__name__}: {error}".encode()
    connection.send_bytes(reply)


class ProcessRunner(Runner):
    """Runs the strategy in a child process forked from the client.

    Requests go down a pipe in order; a decision the client stopped waiting for still runs
    to its end in the child if the child had begun it (its answer is dropped). The next
    request is sent behind it all the same and waited for within its own time, so the child
    answers it if the late one ends soon enough (against a fast opponent the next request
    comes a moment after the fallback); with :data:`MAX_DECIDING` decisions in hand a request
    waits for one to end within its own time, and the runner is busy (the fallback) only at
    its cut-off. A request the child reaches only after the client's cut-off is not run
    (the client has sent its fallback; running it would keep the child busy through the
    next requests too).
    Observations are sent without waiting; the child takes them in the order sent, so the
    strategy observes every hand's end before its next decision (a request that comes behind a
    hand's end waits for its observation). A child that dies makes every later call fail.
    Closing the runner lets the child observe what is still in its pipe (for up to
    :data:`DRAIN_SECONDS`) before it ends.

    ``ordered``: the child also runs every decision, late or not, so the strategy decides as
    it would in one process: a match with a node-budget strategy is then the same under any
    load (``pokerbot match``, whose limits are generous).
    """

    kind = "process"

    def __init__(self, strategy: Strategy, game: Game, ordered: bool = False) -> None:
        self.game = game
        self.ordered = ordered
        self.strategy = strategy
        """The client's copy (the child decides with its own): asked only for quick actions."""
        context = multiprocessing.get_context("fork")
        self._connection, child = context.Pipe(duplex=True)
        self.process = context.Process(
            target=_child,
            args=(self._connection, child, strategy, game, ordered),
            name="pokerbot-strategy",
            daemon=True,
        )
        self.process.start()
        child.close()
        self._pending: collections.deque[asyncio.Future[bytes]] = collections.deque()
        self._warnings: list[str] = []
        self.observed = 0
        self._bye: asyncio.Future[None] | None = None
        """Set when the child has observed every hand's end sent before the quit message."""
        self._dead: str | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._freed: list[asyncio.Future[None]] = []
        """Requests waiting for a decision in hand to end (woken when one does)."""

    def _watch(self) -> None:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            self._loop.add_reader(self._connection.fileno(), self._readable)

    def _readable(self) -> None:
        """In the loop: take every message the child sent."""
        try:
            while self._connection.poll():
                message = self._connection.recv_bytes()
                if message[:1] == _OBSERVED:
                    self.observed += 1
                    if len(message) > 1:
                        self._warnings.append(message[1:].decode())
                elif message[:1] == _BYE:
                    if self._bye is not None and not self._bye.done():
                        self._bye.set_result(None)
                elif self._pending:
                    answer = self._pending.popleft()
                    if not answer.done():
                        answer.set_result(message)
                    self._wake()
        except (EOFError, OSError):
            self.process.join(_REAP_SECONDS)  # its pipe closes a moment before it can be reaped
            code = self.process.exitcode
            self._died("the strategy process ended" + ("" if code is None else f" (exit code {code})"))

    def _wake(self) -> None:
        freed, self._freed = self._freed, []
        for waiter in freed:
            if not waiter.done():
                waiter.set_result(None)

    def _died(self, reason: str) -> None:
        self._dead = reason
        self._wake()
        if self._bye is not None and not self._bye.done():
            self._bye.set_result(None)
        if self._loop is not None:
            self._loop.remove_reader(self._connection.fileno())
        while self._pending:
            answer = self._pending.popleft()
            if not answer.done():
                answer.set_exception(StrategyFailedError(reason))

    def _send(self, message: bytes) -> None:
        try:
            self._connection.send_bytes(message)
        except OSError as error:
            self._died(f"the strategy process is gone ({error})")
            raise StrategyFailedError(self._dead or "") from None

    def quick_action(self, view: MatchState) -> Action | None:
        try:
            return self.strategy.quick_action(view)
        except Exception:  # noqa: BLE001 - a strategy may raise anything: check or call then
            return None

    def warnings(self) -> list[str]:
        """Errors the strategy raised in ``observe`` since the last call (then forgotten)."""
        warnings, self._warnings = self._warnings, []
        return warnings

    async def decide(self, view: MatchState, line: str, deadline: float, timeout: float) -> Action:
        self._watch()
        if self._dead is not None:
            raise StrategyFailedError(self._dead)
        assert self._loop is not None
        cutoff = time.monotonic() + timeout
        while len(self._pending) >= MAX_DECIDING:  # wait for one in hand to end (MAX_DECIDING)
            waiter: asyncio.Future[None] = self._loop.create_future()
            self._freed.append(waiter)
            try:
                async with asyncio.timeout(cutoff - time.monotonic()):
                    await waiter
            except TimeoutError:
                raise StrategyBusyError(
                    "the strategy was still busy with earlier decisions at the request's cut-off"
                ) from None
            if self._dead is not None:
                raise StrategyFailedError(self._dead)
        timeout = cutoff - time.monotonic()
        if timeout <= 0:
            raise StrategyBusyError("the strategy was still busy with earlier decisions at the request's cut-off")
        answer: asyncio.Future[bytes] = self._loop.create_future()
        self._send(_DECIDE + f"{deadline!r} {cutoff!r} {line}".encode())
        self._pending.append(answer)
        async with asyncio.timeout(timeout):
            message = await answer
        text = message[1:].decode()
        if message[:1] == _ERROR:
            raise StrategyFailedError(text)
        try:
            return parse_action(text, self.game)
        except ProtocolError as error:
            raise StrategyFailedError(f"the strategy answered {text!r}: {error}") from None

    async def observe(self, view: MatchState, line: str, timeout: float) -> None:
        """Send the hand's end without waiting: the child observes it before its next decision."""
        self._watch()
        if self._dead is not None:
            raise StrategyFailedError(self._dead)
        self._send(_OBSERVE + line.encode())
        warnings = self.warnings()  # an earlier hand's: this one is sent all the same
        if warnings:
            raise StrategyFailedError("; ".join(warnings))

    async def close(self) -> None:
        """Let the child observe the hands' ends still in its pipe (for up to :data:`DRAIN_SECONDS`),
        close the pipe and reap the child (killed if it does not end)."""
        if self._loop is not None and self._dead is None:
            self._bye = self._loop.create_future()
            try:
                self._send(_QUIT)
                async with asyncio.timeout(DRAIN_SECONDS if not self.ordered else 10 * _JOIN_SECONDS):
                    await self._bye
            except (StrategyFailedError, TimeoutError):
                pass
        if self._loop is not None and self._dead is None:
            self._loop.remove_reader(self._connection.fileno())
        self._dead = self._dead or "the runner is closed"
        self._connection.close()
        process = self.process
        await asyncio.to_thread(process.join, _JOIN_SECONDS)
        if process.is_alive():
            process.kill()
            await asyncio.to_thread(process.join, _JOIN_SECONDS)


def make_runner(strategy: Strategy, game: Game, isolation: Isolation = "auto", *, ordered: bool = False) -> Runner:
    """The runner for ``strategy``: see :data:`Isolation`. ``ordered``: a strategy process
    runs every decision, late or not (:class:`ProcessRunner`)."""
    if isolation == "auto":
        if strategy.cheap:
            isolation = "inline"
        else:
            isolation = "process" if "fork" in multiprocessing.get_all_start_methods() else "thread"
    if isolation == "inline":
        return InlineRunner(strategy)
    if isolation == "thread":
        return ThreadRunner(strategy)
    return ProcessRunner(strategy, game, ordered)


__all__ = [
    "InlineRunner",
    "Isolation",
    "ProcessRunner",
    "Runner",
    "StrategyFailedError",
    "ThreadRunner",
    "make_runner",
]
