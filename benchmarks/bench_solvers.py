"""Time to reach exploitability 0.01 and 0.001 on Leduc: our solvers vs OpenSpiel's CFR+.

Run: python benchmarks/bench_solvers.py [--time-limit 60] [--solvers cfr cfr+ dcfr os-mccfr es-mccfr]

Every solver runs in this one process, one after the other, on the same machine. The
exploitability of the average strategy is evaluated exactly at checkpoints spaced
geometrically in iterations (each checkpoint 10 % more iterations than the previous, so a
reported time overshoots the true crossing by at most about 10 %, for every solver alike).
Times are solver seconds: evaluations are excluded, for ours and OpenSpiel's alike; our
one-off tree build is reported separately.

Exploitability is in chips per hand and means the same for both: NashConv / 2 (the mean of
the two best-response values). That is ``pyspiel.exploitability`` (OpenSpiel's
``nash_conv`` is twice it) and our :func:`strategies.solvers.exploitability.exploitability`.

OpenSpiel (``pip install open_spiel``, the ``bench`` extra) runs its C++
``pyspiel.CFRPlusSolver`` on ``pyspiel.load_game("leduc_poker")``, the same game as the
ACPC ``leduc``; without it installed only our solvers run.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pokerbot.protocol.game import load_game
from pokerbot.strategies.solvers.solve import ALGORITHMS, make_solver
from pokerbot.strategies.solvers.tree import build_tree

THRESHOLDS = (0.01, 0.001)
GROWTH = 1.1


@dataclass
class Run:
    """One solver's progress: first (iterations, solver seconds) at or below each threshold."""

    name: str
    reached: dict[float, tuple[int, float]] = field(default_factory=dict)
    iterations: int = 0
    seconds: float = 0.0
    best: float = float("inf")


def race(name: str, step: Callable[[int], None], measure: Callable[[], float], time_limit: float) -> Run:
    """Run ``step(n)`` (n more iterations) until exploitability 0.001 or ``time_limit`` seconds."""
    run = Run(name)
    while run.seconds < time_limit and len(run.reached) < len(THRESHOLDS):
        target = max(run.iterations + 1, int(run.iterations * GROWTH))
        started = time.perf_counter()
        step(target - run.iterations)
        run.seconds += time.perf_counter() - started
        run.iterations = target
        value = measure()
        run.best = min(run.best, value)
        for threshold in THRESHOLDS:
            if value <= threshold and threshold not in run.reached:
                run.reached[threshold] = (run.iterations, run.seconds)
    return run


def ours(algorithm: str, time_limit: float, seed: int) -> tuple[Run, float]:
    """Race our ``algorithm`` on Leduc; also returns the tree build time in seconds."""
    started = time.perf_counter()
    tree = build_tree(load_game("leduc"))
    build = time.perf_counter() - started
    solver = make_solver(algorithm, tree, seed=seed)
    return race(algorithm, solver.run, lambda: solver.evaluate().exploitability, time_limit), build


def openspiel_cfr_plus(time_limit: float) -> Run | None:
    """Race OpenSpiel's C++ CFR+ on leduc_poker, or None when OpenSpiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("leduc_poker")
    solver = pyspiel.CFRPlusSolver(game)

    def step(count: int) -> None:
        for _ in range(count):
            solver.evaluate_and_update_policy()

    return race("OpenSpiel CFR+ (C++)", step, lambda: pyspiel.exploitability(game, solver.average_policy()), time_limit)


def describe(run: Run, threshold: float) -> str:
    """``seconds (iterations)`` at the threshold, or what was reached instead."""
    if threshold in run.reached:
        iterations, seconds = run.reached[threshold]
        return f"{seconds:8.3f} s ({iterations:>6} it)"
    return f"not reached in {run.seconds:.0f} s (best {run.best:.4f})"


def main() -> None:
    parser = argparse.ArgumentParser(description="Leduc: time to exploitability 0.01 and 0.001.")
    parser.add_argument("--time-limit", type=float, default=60.0, help="solver seconds per solver")
    parser.add_argument("--solvers", nargs="+", choices=list(ALGORITHMS), default=list(ALGORITHMS))
    parser.add_argument("--seed", type=int, default=0, help="seed of the sampling solvers")
    parser.add_argument("--no-openspiel", action="store_true", help="skip OpenSpiel")
    args = parser.parse_args()

    runs: list[Run] = []
    builds: list[float] = []
    for algorithm in args.solvers:
        run, build = ours(algorithm, args.time_limit, args.seed)
        runs.append(run)
        builds.append(build)
        print(f"ran {algorithm}", flush=True)
    reference = None if args.no_openspiel else openspiel_cfr_plus(args.time_limit)
    if reference is not None:
        runs.append(reference)
    elif not args.no_openspiel:
        print("OpenSpiel is not installed (pip install open_spiel): skipped")

    print(f"\nLeduc, exploitability = NashConv / 2 in chips per hand; tree build {min(builds):.3f} s (excluded)")
    print(f"{'solver':<22} {'to 0.01':<32} {'to 0.001':<32}")
    for run in runs:
        print(f"{run.name:<22} {describe(run, 0.01):<32} {describe(run, 0.001):<32}")
    if reference is not None and 0.001 in reference.reached:
        ours_fast = [r for r in runs if r is not reference and 0.001 in r.reached]
        if ours_fast:
            best = min(ours_fast, key=lambda r: r.reached[0.001][1])
            ratio = reference.reached[0.001][1] / best.reached[0.001][1]
            print(f"\nfastest of ours to 0.001: {best.name}, {ratio:.1f}x faster than OpenSpiel's CFR+")


if __name__ == "__main__":
    main()
