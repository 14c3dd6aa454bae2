"""A strategy's calls in a worker thread of their own, cut off at a timeout.

:class:`StrategyWorker` does what :func:`asyncio.to_thread` under :func:`asyncio.wait_for`
does, tuned for the decision hot path of the client (:mod:`pokerbot.bot.client.play`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import threading
from collections.abc import Callable
from queue import SimpleQueue
from typing import Any, TypeVar

_T = TypeVar("_T")
SYNC_WAIT_SECONDS = 0.002
"""How long a decision is first waited for synchronously (blocking the event loop)."""


class StrategyBusyError(RuntimeError):
    """The strategy is still running an earlier call that overran its deadline."""


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
            return call.result()
        call.answer = answer = loop.create_future()
        if call.done:
            call.settle()
        timer = None if timeout is None else loop.call_at(started + timeout, _expire, answer, timeout)
        try:
            return await answer
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


__all__ = ["SYNC_WAIT_SECONDS", "StrategyBusyError", "StrategyWorker"]
