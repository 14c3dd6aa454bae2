"""The progress bar of the long commands, also readable where no terminal shows it.

rich draws a progress bar only on a terminal; under ``nohup``, in a CI job, in ``docker logs``
or a file it prints the bar once, at the end, and a run of an hour says nothing meanwhile.
:class:`LoggedProgress` is rich's :class:`~rich.progress.Progress` that, when its console is
not a terminal, also prints one plain line per task every ``log_seconds`` (the bar itself
still comes at the end)::

    lbr vs miximax: 938/6,000 (16%), 0:20:12 elapsed
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

from rich.progress import Progress, Task, TaskID

LOG_SECONDS = 60.0
"""How often a progress line is printed where no terminal shows the bar (seconds)."""


class LoggedProgress(Progress):
    """:class:`rich.progress.Progress`, plus a plain line per task every ``log_seconds`` when
    the console is not a terminal (nothing more on a terminal, or when ``disable``)."""

    def __init__(self, *columns: Any, log_seconds: float = LOG_SECONDS, **options: Any) -> None:
        super().__init__(*columns, **options)
        self.log_seconds = log_seconds
        self._logged = time.monotonic()
        self._plain = not self.disable and not self.console.is_terminal  # asked once: isatty

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        super().advance(task_id, advance)
        self._log()

    def update(self, task_id: TaskID, **changes: Any) -> None:
        super().update(task_id, **changes)
        self._log()

    def _log(self) -> None:
        """Called on every advance (a hand, an iteration chunk): cheap unless a line is due."""
        if not self._plain:
            return
        now = time.monotonic()
        if now - self._logged < self.log_seconds:
            return
        self._logged = now
        for task in self.tasks:
            if task.visible and not task.finished:
                self.console.out(progress_line(task), highlight=False)


def progress_line(task: Task) -> str:
    """One task's progress as a plain line: done/total (percent), elapsed time, its status."""
    done = f"{task.completed:,.0f}"
    if task.total:
        done += f"/{task.total:,.0f} ({100 * task.completed / task.total:.0f}%)"
    elapsed = timedelta(seconds=int(task.elapsed or 0))
    status = task.fields.get("status")
    return f"{task.description}: {done}, {elapsed} elapsed" + (f"; {status}" if status else "")


@contextlib.contextmanager
def compile_notice(say: Callable[[], None]) -> Iterator[None]:
    """Calls ``say`` once, when numba starts compiling code in the block (the first run of a
    fresh install: code loaded from numba's cache says nothing)."""
    from numba.core import event

    class _First(event.Listener):
        said = False

        def on_start(self, _event: event.Event) -> None:
            if not self.said:
                self.said = True
                say()

        def on_end(self, _event: event.Event) -> None:
            pass

    with event.install_listener("numba:compile", _First()):
        yield


__all__ = ["LOG_SECONDS", "LoggedProgress", "compile_notice", "progress_line"]
