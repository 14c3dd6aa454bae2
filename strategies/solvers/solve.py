"""Run a solver with exploitability checkpoints: the driver behind ``pokerbot solve``.

:func:`solve` runs an algorithm for a number of iterations or seconds, evaluates the exact
exploitability of the average strategy at checkpoints spaced geometrically (so a log-log
convergence plot is evenly sampled) and returns the final policy with its history. Timing
counts solver time only: the checkpoints' best-response evaluations are excluded.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pokerbot.protocol.game import Game
from pokerbot.strategies.solvers.cfr import CFR, DCFR, CFRPlus, Solver
from pokerbot.strategies.solvers.errors import SolverError
from pokerbot.strategies.solvers.exploitability import ExploitabilityReport
from pokerbot.strategies.solvers.mccfr import ExternalSamplingMCCFR, OutcomeSamplingMCCFR
from pokerbot.strategies.solvers.policy import Policy
from pokerbot.strategies.solvers.profile import as_tree
from pokerbot.strategies.solvers.tree import PublicTree

ALGORITHMS: dict[str, type[Solver]] = {
    "cfr": CFR,
    "cfr+": CFRPlus,
    "dcfr": DCFR,
    "os-mccfr": OutcomeSamplingMCCFR,
    "es-mccfr": ExternalSamplingMCCFR,
}
"""Solver classes by command-line name."""


def make_solver(algorithm: str, tree: PublicTree, *, seed: int | None = None, **options: Any) -> Solver:
    """A new solver ``algorithm`` (a key of :data:`ALGORITHMS`) for ``tree``."""
    cls = ALGORITHMS.get(algorithm)
    if cls is None:
        raise SolverError(f"unknown algorithm {algorithm!r}: choose from {', '.join(ALGORITHMS)}")
    try:
        return cls(tree, seed=seed, **options)
    except TypeError as error:
        raise SolverError(f"bad option for {algorithm}: {error}") from None


@dataclass(frozen=True)
class Checkpoint:
    """The average strategy's quality after some work. Exploitability in chips per hand."""

    iterations: int
    seconds: float
    """Solver time so far, evaluations excluded."""
    exploitability: float
    nash_conv: float


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` returns."""

    policy: Policy
    report: ExploitabilityReport
    checkpoints: tuple[Checkpoint, ...]
    iterations: int
    seconds: float


ProgressCallback = Callable[[int, float], None]
"""Called as ``callback(iterations_done, solver_seconds)`` while solving."""


def _next_stop(done: int, growth: float) -> int:
    return max(done + 1, int(done * growth))


def solve(
    game_or_tree: Game | PublicTree,
    algorithm: str = "cfr+",
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int | None = None,
    checkpoints: int = 20,
    target: float | None = None,
    on_checkpoint: Callable[[Checkpoint], None] | None = None,
    on_progress: ProgressCallback | None = None,
    **options: Any,
) -> SolveResult:
    """Run ``algorithm`` for ``iterations`` or ``seconds`` (exactly one) and evaluate it.

    About ``checkpoints`` exact evaluations are made, geometrically spaced in iterations;
    with ``target`` the run stops at the first checkpoint whose exploitability is at most
    ``target`` (chips per hand). ``options`` go to the solver class (e.g. ``samples``).
    """
    if (iterations is None) == (seconds is None):
        raise SolverError("give exactly one of iterations and seconds")
    if iterations is not None and iterations < 1:
        raise SolverError(f"iterations must be positive, got {iterations}")
    if seconds is not None and seconds <= 0:
        raise SolverError(f"seconds must be positive, got {seconds}")
    tree = as_tree(game_or_tree)
    solver = make_solver(algorithm, tree, seed=seed, **options)
    growth = 1.5 if iterations is None else max(1.05, iterations ** (1.0 / max(1, checkpoints - 1)))
    history: list[Checkpoint] = []
    elapsed = 0.0
    report: ExploitabilityReport | None = None
    while True:
        stop = _next_stop(solver.iterations, growth)
        if iterations is not None:
            stop = min(stop, iterations)
        elif solver.iterations:
            per_iteration = elapsed / solver.iterations
            remaining = max(0.0, seconds - elapsed)  # type: ignore[operator]
            stop = min(stop, solver.iterations + max(1, int(remaining / max(per_iteration, 1e-9))))
        step = max(1, (stop - solver.iterations) // 20)
        while solver.iterations < stop:
            started = time.perf_counter()
            solver.run(min(step, stop - solver.iterations))
            elapsed += time.perf_counter() - started
            if on_progress is not None:
                on_progress(solver.iterations, elapsed)
        report = solver.evaluate()
        point = Checkpoint(solver.iterations, elapsed, report.exploitability, report.nash_conv)
        history.append(point)
        if on_checkpoint is not None:
            on_checkpoint(point)
        finished = solver.iterations >= iterations if iterations is not None else elapsed >= seconds  # type: ignore[operator]
        if finished or (target is not None and report.exploitability <= target):
            break
    meta = {
        "seed": seed,
        "seconds": round(elapsed, 6),
        "exploitability": report.exploitability,
        "nash_conv": report.nash_conv,
        "values": list(report.values),
        **{key: value for key, value in options.items() if isinstance(value, (int, float, str, bool))},
    }
    return SolveResult(solver.average_policy(meta), report, tuple(history), solver.iterations, elapsed)


__all__ = ["ALGORITHMS", "Checkpoint", "ProgressCallback", "SolveResult", "make_solver", "solve"]
