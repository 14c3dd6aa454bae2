"""A tournament run one match after another, and in parallel on the executor, side by side.

Each round runs the same ``pokerbot tournament`` command twice in fresh processes, once with
``--jobs 1`` (every match in one process, one after another) and once with ``--jobs N`` (a local
Ray, N workers, its start-up included) or ``--address A`` (a running cluster), alternating which
goes first; it records the wall time of each and checks that both gave the same results (the
same logs, byte for byte: the players are reproducible, e.g. ``miximax:500nodes``). The table
gives the median and minimum wall time of each and the median ratio parallel / sequential.

    python benchmarks/bench_tournament.py --rounds 3 --jobs 2
    python benchmarks/bench_tournament.py --rounds 1 --address 127.0.0.1:6379
"""

from __future__ import annotations

import argparse
import filecmp
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLAYERS = ("miximax:500nodes", "tight-aggressive", "loose-aggressive", "calling-station")
"""Four players: six pairings, twelve matches in duplicate."""


def run(folder: Path, hands: int, game: str, players: tuple[str, ...], extra: list[str]) -> float:
    """Wall seconds of one tournament command (its output in ``folder``)."""
    argv = [sys.executable, "-m", "pokerbot.bot.cli", "tournament", "--game", game, "--players", *players]
    argv += ["--hands", str(hands), "--out", str(folder), "--json", str(folder / "t.json"), "-q", *extra]
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"tournament failed: {done.stderr.strip()[-2000:]}")
    return seconds


def same_logs(first: Path, second: Path) -> bool:
    """True when both tournaments wrote the same logs, byte for byte."""
    names = sorted(path.name for path in (first / "logs").glob("*.log"))
    if names != sorted(path.name for path in (second / "logs").glob("*.log")):
        return False
    return all(filecmp.cmp(first / "logs" / name, second / "logs" / name, shallow=False) for name in names)


def main() -> None:
    """Alternate the two runs ``--rounds`` times and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="pairs of runs (default 3)")
    parser.add_argument("--hands", type=int, default=200, help="deals per pairing (default 200)")
    parser.add_argument("--game", default="holdem-nolimit-2p")
    parser.add_argument("--players", nargs="+", default=list(PLAYERS))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="workers of the parallel run")
    parser.add_argument("--address", default=None, help="run the parallel tournament on this Ray cluster")
    args = parser.parse_args()
    parallel = ["--address", args.address] if args.address else ["--jobs", str(args.jobs)]
    times: dict[str, list[float]] = {"sequential": [], "parallel": []}
    identical = True
    with tempfile.TemporaryDirectory() as scratch:
        for round_number in range(args.rounds):
            order = ["sequential", "parallel"] if round_number % 2 == 0 else ["parallel", "sequential"]
            folders = {}
            for kind in order:
                folder = Path(scratch) / f"{kind}-{round_number}"
                extra = ["--jobs", "1"] if kind == "sequential" else parallel
                times[kind].append(run(folder, args.hands, args.game, tuple(args.players), extra))
                folders[kind] = folder
                print(f"round {round_number + 1} {kind:<10} {times[kind][-1]:8.1f} s", file=sys.stderr, flush=True)
            identical = identical and same_logs(folders["sequential"], folders["parallel"])
    ratios = [p / s for p, s in zip(times["parallel"], times["sequential"], strict=True)]
    print(
        f"load average at the end: {os.getloadavg()[0]:.2f}; {args.game}, {len(args.players)} players, "
        f"{args.hands} deals per pairing, parallel: {' '.join(parallel)}"
    )
    print(f"{'run':<12} {'median s':>9} {'min s':>8}")
    for kind, values in times.items():
        print(f"{kind:<12} {statistics.median(values):>9.1f} {min(values):>8.1f}")
    print(f"median ratio parallel / sequential: {statistics.median(ratios):.2f}")
    print(f"same logs in every round: {identical}")


if __name__ == "__main__":
    main()
