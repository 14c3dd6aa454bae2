"""Blueprint training's speed: iterations a second per worker, the cost of a sync, and the
1 -> N worker scaling on Ray (local, or a cluster with ``--address``).

    python benchmarks/bench_training.py --buckets kmeans:km20.npz --deals deals-km20-4000-0.npz \\
        --actions blueprint --syncs 3 --sync-every 200000 --workers 1 2 --json out.json

For each worker count: a fresh run (seed 0, linear discounting, pruning from the start) on the
executor ``pokerbot solve --jobs/--address`` uses, ``--syncs`` syncs of ``--sync-every``
iterations after one warm-up sync (JIT compilation and Ray's start excluded). Per sync: the
wall time, the workers' slowest computing time, and the rest (sending the tables, merging, the
discounts): the sync cost. Iterations a second are over wall time; the scaling is the ratio to
one worker's. One worker runs in this process unless ``--ray-always``; there the process's CPU
time is measured too (iterations a CPU second: a core's rate on a machine others share).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from pokerbot.bot.cli.abstract import _train_task, make_game
from pokerbot.bot.matches.executor import RayExecutor, make_executor
from pokerbot.protocol.game import load_game
from pokerbot.strategies.abstract.training import Trainer, TrainingSettings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="holdem-nolimit-2p")
    parser.add_argument("--buckets", required=True, help="as pokerbot solve --buckets (kmeans:FILE, a count)")
    parser.add_argument("--deals", type=Path, required=True)
    parser.add_argument("--actions", default=None)
    parser.add_argument("--syncs", type=int, default=3)
    parser.add_argument("--sync-every", type=int, default=200_000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--address", default=None, help="a Ray cluster (auto, or HOST:PORT)")
    parser.add_argument("--ray-always", action="store_true", help="one worker on Ray too")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    game = load_game(args.game)
    started = time.perf_counter()
    abstract = make_game(game, args.buckets, "percentile", args.deals, 0, 0, args.actions)
    print(f"abstract game built in {time.perf_counter() - started:.1f} s: {abstract.tree.num_infosets:,} info sets")
    settings = TrainingSettings(
        rule="linear", sync_every=args.sync_every, discount_every=args.sync_every, prune_after=0
    )
    rows = []
    for workers in args.workers:
        trainer = Trainer(abstract, settings, seed=0, workers=workers)
        if workers == 1 and args.address is None and not args.ray_always:
            executor = make_executor(1)
        else:
            executor = RayExecutor(workers, args.address)
        with executor:
            walls, computes, cpus = [], [], []
            for sync in range(args.syncs + 1):
                orders = trainer.orders()
                began, cpu = time.perf_counter(), time.process_time()
                results = executor.map(_train_task, orders)
                trainer.merge(orders, results)
                if sync:  # the first sync compiles and starts the workers
                    walls.append(time.perf_counter() - began)
                    computes.append(max(r.seconds for r in results))
                    cpus.append(time.process_time() - cpu)
        wall, compute = statistics.median(walls), statistics.median(computes)
        row = {
            "workers": workers,
            "where": executor.description,
            "iterations_per_sync": args.sync_every,
            "sync_wall_seconds": round(wall, 2),
            "slowest_worker_seconds": round(compute, 2),
            "sync_cost_seconds": round(wall - compute, 2),
            "iterations_per_second": round(args.sync_every / wall),
            "table_megabytes": round(trainer.memory_bytes / 2**20, 1),
        }
        if executor.jobs == 1 and not isinstance(executor, RayExecutor):
            row["iterations_per_cpu_second"] = round(args.sync_every / statistics.median(cpus))
        rows.append(row)
        print(json.dumps(row), flush=True)
    base = rows[0]["iterations_per_second"]
    for row in rows:
        row["scaling"] = round(row["iterations_per_second"] / base, 2)
    report = {"game": args.game, "buckets": args.buckets, "actions": args.actions, "runs": rows}
    print(json.dumps(report, indent=1))
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
