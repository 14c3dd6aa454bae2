"""Where long experiments run: in this process, or as tasks on Ray (this machine or a cluster).

Every command that plays many matches or trials (``pokerbot tournament``, ``pokerbot match
--jobs``, ``pokerbot experiment ...``, ``pokerbot exploitability --method lbr``) hands its work
to an :class:`Executor` as a function and a stream of items:

    with make_executor(jobs=4) as executor:
        for index, result in executor.run(play_chunk, chunks, on_progress=bar.advance):
            ...

* ``function(item, progress)`` runs once per item, anywhere (it and the items must pickle:
  module-level functions and plain data); it calls ``progress(n)`` to report ``n`` units of
  work done (hands, trials), which reach ``on_progress`` in this process while it runs.
* :meth:`Executor.run` yields ``(index, result)`` as tasks finish (``index`` is the item's
  position in the stream); at most ``window`` tasks are in flight and the items are read only
  as room frees up, so a stream of a million items needs the memory of ``window`` of them.
  :meth:`Executor.map` gives the results in order.
* A task's exception is raised again in this process (the original exception where Ray kept
  it), after the tasks still running are cancelled; a failure of Ray itself (a node or the
  progress actor lost) as :class:`ExecutorError`, in one line.

:func:`make_executor` picks the executor: :class:`LocalExecutor` (this process, one task after
another, no Ray imported) for ``jobs=1`` without an address; else :class:`RayExecutor`: a local
Ray instance with ``jobs`` CPUs (default: every core), or the cluster at ``address``
(``auto``, or ``HOST:PORT`` of ``ray start --head``), using ``jobs`` of its CPUs at a time
(default: all of them). Starting a local Ray takes seconds (see docs/performance.md).
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from pokerbot.bot.extras import install_hint

T = TypeVar("T")
R = TypeVar("R")
Progress = Callable[[int], None]
"""Told ``n`` when ``n`` more units of work (hands, trials) are done."""
TaskFunction = Callable[[T, Progress], R]
JOBS_HELP = "Tasks at a time: 1 runs them in this process; more start a local Ray (the cluster extra)."
"""The ``--jobs`` help every command that runs on the executor shows (each adds its default)."""
ADDRESS_HELP = "Run on the Ray cluster at this address (auto, or HOST:PORT of 'ray start --head')."
"""The ``--address`` help every command that runs on the executor shows."""
REPORT_SECONDS = 0.25
"""How often a task on Ray sends its progress to the driver (seconds)."""
LOCAL_OBJECT_STORE_BYTES = 256 * 1024 * 1024
"""The object store of a local Ray instance: results are small, the machine is shared."""
LOCAL_SYSTEM_CONFIG = {"worker_niceness": 0}
"""Ray's settings for a local instance. Ray lowers its workers' priority by 15 nice levels by
default; on a shared machine they then get a few percent of a core against any other process
at the user's own priority (docs/performance.md, tournaments), so a local instance's workers
run at the priority of the command that started it."""


class ExecutorError(RuntimeError):
    """The executor could not start (Ray missing, no cluster at the address, bad jobs)."""


class Executor(ABC):
    """Runs a function over a stream of items (module docstring). Use as a context manager."""

    jobs: int
    """How many tasks run at the same time."""
    description: str
    """Where the tasks run, for messages (``this process``, ``Ray (local, 2 CPUs)``)."""

    @abstractmethod
    def run(
        self,
        function: TaskFunction[T, R],
        items: Iterable[T],
        *,
        on_progress: Progress | None = None,
        window: int | None = None,
    ) -> Iterator[tuple[int, R]]:
        """``(index, function(item, progress))`` for every item, as tasks finish."""

    def map(self, function: TaskFunction[T, R], items: Iterable[T], *, on_progress: Progress | None = None) -> list[R]:
        """``function`` over every item, the results in the items' order."""
        results: dict[int, R] = dict(self.run(function, items, on_progress=on_progress))
        return [results[index] for index in range(len(results))]

    def close(self) -> None:  # noqa: B027 - nothing to release by default
        """Release what the executor holds (a local Ray instance is stopped)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalExecutor(Executor):
    """Every task in this process, one after another (``jobs`` is 1)."""

    jobs = 1
    description = "this process"

    def run(
        self,
        function: TaskFunction[T, R],
        items: Iterable[T],
        *,
        on_progress: Progress | None = None,
        window: int | None = None,
    ) -> Iterator[tuple[int, R]]:
        report = on_progress or _ignore
        for index, item in enumerate(items):
            yield index, function(item, report)


def _ignore(count: int) -> None:
    """A progress callback that drops the news."""


class RayExecutor(Executor):
    """Tasks on Ray: a local instance of ``jobs`` CPUs, or the cluster at ``address``.

    Ray is imported and started here (a local instance is stopped by :meth:`close`; a
    connection to a cluster is closed, the cluster keeps running). Each task asks for one
    CPU, so at most ``jobs`` run at once.
    """

    def __init__(self, jobs: int | None = None, address: str | None = None) -> None:
        if jobs is not None and jobs < 1:
            raise ExecutorError(f"--jobs must be at least 1, got {jobs}")
        try:
            import ray
        except ImportError:  # Ray is the cluster extra's
            raise ExecutorError(
                f"more than one job at a time, or a cluster, runs on Ray, which is not installed: "
                f"{install_hint('cluster')}"
            ) from None
        self._ray = ray
        self._started = not ray.is_initialized()
        if self._started:
            options: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,
                "logging_level": logging.ERROR,
                "configure_logging": True,
            }
            if address is None:  # "local": a new instance, even where a cluster runs on this machine
                options.update(
                    address="local",
                    num_cpus=jobs or os.cpu_count() or 1,
                    object_store_memory=LOCAL_OBJECT_STORE_BYTES,
                    _system_config=LOCAL_SYSTEM_CONFIG,
                )
            else:
                options["address"] = address
            try:
                ray.init(**options)
            except (ConnectionError, RuntimeError, ValueError) as error:
                where = f"the Ray cluster at {address}" if address else "a local Ray instance"
                hint = (
                    " (a cluster started by 'ray start --head' asks for its token: set RAY_AUTH_MODE=token)"
                    if address and os.environ.get("RAY_AUTH_MODE") != "token"
                    else ""
                )
                raise ExecutorError(f"cannot start {where}: {error}{hint}") from None
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.jobs = min(jobs, cpus) if jobs else cpus
        where = f"cluster at {address}" if address else "local"
        self.description = f"Ray ({where}, {self.jobs} of {cpus} CPUs)"
        self._remote: Any = ray.remote(num_cpus=1, max_retries=0)(_call)
        self._progress_actor: Any = ray.remote(num_cpus=0)(_ProgressCounter)

    def run(
        self,
        function: TaskFunction[T, R],
        items: Iterable[T],
        *,
        on_progress: Progress | None = None,
        window: int | None = None,
    ) -> Iterator[tuple[int, R]]:
        ray = self._ray
        counter = self._progress_actor.remote() if on_progress is not None else None
        progress = _ProgressTotals(on_progress)
        limit = window or 2 * self.jobs
        stream = enumerate(items)
        pending: dict[Any, int] = {}
        exhausted = False
        try:
            while True:
                while not exhausted and len(pending) < limit:
                    try:
                        index, item = next(stream)
                    except StopIteration:
                        exhausted = True
                        break
                    pending[self._remote.remote(function, item, counter, index)] = index
                if not pending:
                    break
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=REPORT_SECONDS)
                if counter is not None:
                    progress.running(ray.get(counter.take.remote()))
                for reference in ready:
                    index = pending.pop(reference)
                    result, total = _result(ray, reference)
                    progress.finished(index, total)
                    yield index, result
        except ray.exceptions.RayError as error:  # Ray itself, not a task: a node or actor lost
            first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
            raise ExecutorError(f"Ray failed while running the tasks: {type(error).__name__}: {first_line}") from None
        finally:
            for reference in pending:
                with contextlib.suppress(ray.exceptions.RayError):  # the cluster may be gone
                    ray.cancel(reference, force=True)

    def close(self) -> None:
        """Stop the local Ray instance (or leave the cluster)."""
        if self._ray.is_initialized():
            self._ray.shutdown()


def _result(ray: Any, reference: Any) -> Any:
    """The value of a finished task; its exception raised again as the task raised it."""
    try:
        return ray.get(reference)
    except ray.exceptions.RayTaskError as error:
        cause = getattr(error, "cause", None)
        if isinstance(cause, BaseException):
            raise cause from None
        raise


class _ProgressCounter:
    """A Ray actor adding up the progress the tasks report, per task; the driver takes it."""

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}

    def add(self, index: int, count: int) -> None:
        self.counts[index] = self.counts.get(index, 0) + count

    def take(self) -> dict[int, int]:
        counts, self.counts = self.counts, {}
        return counts


class _ProgressTotals:
    """The driver's side of the progress on Ray: what running tasks reported through the
    counter actor, made exact by each finished task's own total (a report still on its way
    when its task ends is not counted twice, nor lost)."""

    def __init__(self, on_progress: Progress | None) -> None:
        self.on_progress = on_progress
        self.told: dict[int, int] = {}
        self.done: set[int] = set()

    def running(self, counts: dict[int, int]) -> None:
        for index, count in counts.items():
            if index not in self.done:
                self._tell(index, count)

    def finished(self, index: int, total: int) -> None:
        self._tell(index, total - self.told.get(index, 0))
        self.done.add(index)

    def _tell(self, index: int, count: int) -> None:
        self.told[index] = self.told.get(index, 0) + count
        if count and self.on_progress is not None:
            self.on_progress(count)


class _Reporter:
    """A task's progress callback on Ray: counts, and sends what is new every
    :data:`REPORT_SECONDS` to the driver's counter actor (``total``: all it was told)."""

    def __init__(self, counter: Any, index: int) -> None:
        self.counter = counter
        self.index = index
        self.total = 0
        self.unsent = 0
        self.sent = time.monotonic()

    def __call__(self, count: int) -> None:
        self.total += count
        self.unsent += count
        if self.counter is not None and time.monotonic() - self.sent >= REPORT_SECONDS:
            self.counter.add.remote(self.index, self.unsent)
            self.unsent = 0
            self.sent = time.monotonic()


def _call(function: TaskFunction[T, R], item: T, counter: Any, index: int) -> tuple[R, int]:
    """One task on a Ray worker: ``function(item, progress)`` and the progress it reported in
    all (sent to ``counter`` while it runs)."""
    reporter = _Reporter(counter, index)
    return function(item, reporter), reporter.total


def make_executor(jobs: int | None = None, address: str | None = None) -> Executor:
    """:class:`LocalExecutor` for one job in this process, else :class:`RayExecutor`
    (module docstring). Raises :class:`ExecutorError`."""
    if jobs is not None and jobs < 1:
        raise ExecutorError(f"--jobs must be at least 1, got {jobs}")
    if jobs == 1 and address is None:
        return LocalExecutor()
    return RayExecutor(jobs, address)


__all__ = [
    "Executor",
    "ExecutorError",
    "LocalExecutor",
    "Progress",
    "RayExecutor",
    "TaskFunction",
    "make_executor",
]
