"""Quality and speed of the distribution-aware card abstraction against EHS buckets.

    python benchmarks/bench_card_abstraction.py --buckets 50 100 200 --train-boards 400 \\
        --test-boards 100 --json card-abstraction.json [--abstraction FILE.npz]

For the flop and the turn: k-means buckets (:mod:`pokerbot.strategies.card_abstraction.kmeans`
on the quantile features of a seeded training sample of boards and holdings, as
:func:`~pokerbot.strategies.card_abstraction.distribution.fit_distribution_abstraction` fits
them) against two one-number schemes at the same bucket count, with percentile edges fitted on
the same training points: effective hand strength (``ehs``, the shipped blueprints' measure)
and the mean of the equity distribution (``equity``, the expected river equity). On held-out
boards (another seed), every holding's **quantisation error**: the earth mover's distance
between its equity distribution (all of its run-outs) and the centroid of its bucket, the
mean quantile function of the training points in the bucket (for k-means, the fitted
centroid). The river's error is the distance of the river equity to its bucket's training
mean. ``--abstraction FILE`` also measures a saved abstraction, and the time to bucket every
holding of one new flop, turn and river board (the player's cost per hand and round; compiled
code warmed up first; medians of wall and CPU time), beside ``board_ehs`` on the same boards.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

from pokerbot.protocol.analysis.ehs import board_ehs
from pokerbot.protocol.analysis.holdings import HOLDING_MASKS
from pokerbot.protocol.game import load_game
from pokerbot.strategies.card_abstraction.abstraction import BucketScheme, DistributionAbstraction
from pokerbot.strategies.card_abstraction.distribution import Sample, sample_points
from pokerbot.strategies.card_abstraction.equity_distribution import (
    emd_rows,
    equity_distributions,
    river_equity,
    slice_means,
)
from pokerbot.strategies.card_abstraction.kmeans import kmeans, nearest

ROUNDS = {3: "flop", 4: "turn", 5: "river"}


def _ehs_of(sample: Sample) -> np.ndarray:
    """EHS of every sampled point (board by board)."""
    return np.concatenate([board_ehs(board)[holdings] for board, holdings in zip(sample.boards, sample.holdings)])


def _held_out(size: int, boards: int, seed: int) -> Any:
    """Every live holding of each held-out board, one board at a time: sorted equity
    distributions (flop, turn) or river equities (one column), and EHS."""
    for board, live in _boards_and_live(size, boards, seed):
        values = river_equity(board)[live][:, None] if size == 5 else equity_distributions(board, live, parallel=True)
        yield values, board_ehs(board)[live]


def _features(distributions: np.ndarray, bins: int) -> np.ndarray:
    out = np.empty((distributions.shape[0], bins))
    for k in range(distributions.shape[0]):
        slice_means(distributions[k], bins, out[k])
    return out


def _centroids(features: np.ndarray, labels: np.ndarray, count: int) -> np.ndarray:
    """The mean feature vector of each bucket's points (0 for an empty bucket)."""
    mass = np.bincount(labels, minlength=count).astype(float)
    sums = np.stack([np.bincount(labels, weights=features[:, d], minlength=count) for d in range(features.shape[1])], 1)
    return sums / np.maximum(mass, 1.0)[:, None]


def _timing(abstraction: DistributionAbstraction, boards: int, seed: int) -> dict[str, Any]:
    generator = np.random.default_rng([seed, 99])
    full = [generator.permutation(52)[:5].astype(np.int64) for _ in range(boards + 1)]
    for r in (1, 2, 3):  # compile
        abstraction.buckets_all(full[0], r)
        board_ehs(full[0][: 2 + r])
    out: dict[str, Any] = {}
    for r, name in ((1, "flop"), (2, "turn"), (3, "river")):
        times: dict[str, list[float]] = {"kmeans": [], "kmeans_cpu": [], "board_ehs": [], "board_ehs_cpu": []}
        for board in full[1:]:
            abstraction._flops.clear()
            abstraction._later.clear()
            for key, run in (
                ("kmeans", lambda b=board, r=r: abstraction.buckets_all(b, r)),
                ("board_ehs", lambda b=board, r=r: board_ehs(b[: 2 + r])),
            ):
                wall, cpu = time.perf_counter(), time.process_time()
                run()
                times[key].append(time.perf_counter() - wall)
                times[key + "_cpu"].append(time.process_time() - cpu)
        out[name] = {key + "_ms": 1e3 * statistics.median(values) for key, values in times.items()}
        print(
            f"{name}: every holding of one board {out[name]['kmeans_ms']:.1f} ms "
            f"({out[name]['kmeans_cpu_ms']:.1f} ms of CPU; board_ehs {out[name]['board_ehs_ms']:.1f} ms, "
            f"{out[name]['board_ehs_cpu_ms']:.1f} ms of CPU)",
            flush=True,
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--buckets", type=int, nargs="+", default=[50, 100, 200])
    parser.add_argument("--quantiles", type=int, default=32)
    parser.add_argument("--train-boards", type=int, default=400, help="training boards per round")
    parser.add_argument("--holdings", type=int, default=200, help="training holdings per board")
    parser.add_argument("--test-boards", type=int, default=100, help="held-out boards per round (every holding)")
    parser.add_argument("--rounds", nargs="+", default=list(ROUNDS.values()), choices=list(ROUNDS.values()))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--abstraction", type=Path, help="also measure this saved abstraction, and its speed")
    parser.add_argument("--timing-boards", type=int, default=20)
    parser.add_argument("--timing-only", action="store_true", help="with --abstraction: its speed alone")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    report: dict[str, Any] = {"settings": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}}
    saved = None
    if args.abstraction is not None:
        saved = DistributionAbstraction.load(args.abstraction, load_game("holdem-nolimit-2p"))
        if saved.quantiles != args.quantiles:
            parser.error(f"the saved abstraction has {saved.quantiles} quantiles: pass --quantiles {saved.quantiles}")
    for size, name in ROUNDS.items():
        if name not in args.rounds or (args.timing_only and saved is not None):
            continue
        started = time.perf_counter()
        bins = 1 if size == 5 else args.quantiles
        train = sample_points(size, args.train_boards, args.holdings, bins, args.seed)
        schemes: dict[tuple[str, int], tuple[Any, np.ndarray]] = {}
        for count in args.buckets:
            if size < 5:
                schemes["kmeans", count] = (None, kmeans(train.features, count, args.seed).centroids)
            for scheme, values in (("ehs", _ehs_of(train)), ("equity", train.features.mean(axis=1))):
                cut = BucketScheme.percentile(count, values)
                labels = cut.buckets(values).astype(np.int64)
                schemes[scheme, count] = (cut, _centroids(train.features, labels, count))
        if saved is not None:
            r = size - 2
            if size < 5:
                schemes["saved", saved.num_buckets[r]] = (None, (saved.flop, saved.turn)[r - 1])
            else:
                values = train.features[:, 0]
                labels = saved.river.buckets(values).astype(np.int64)
                schemes["saved", saved.num_buckets[r]] = (
                    saved.river,
                    _centroids(train.features, labels, saved.num_buckets[r]),
                )
        totals = dict.fromkeys(schemes, 0.0)
        points = 0
        for test, test_ehs in _held_out(size, args.test_boards, args.seed):
            features = test if size == 5 else _features(test, bins)
            for (scheme, count), (cut, centroids) in schemes.items():
                if cut is None:
                    labels = nearest(features, centroids)[0]
                else:
                    labels = cut.buckets(test_ehs if scheme == "ehs" else features.mean(axis=1)).astype(np.int64)
                totals[scheme, count] += float(emd_rows(test, centroids[labels]).sum())
            points += test.shape[0]
        rows: dict[str, dict[str, float]] = {}
        for (scheme, count), total in totals.items():
            rows.setdefault(str(count), {})[scheme] = total / points
        for count, row in rows.items():
            print(
                f"{name} {count} buckets: mean EMD to the bucket's centroid "
                + ", ".join(f"{k} {v:.4f}" for k, v in row.items()),
                flush=True,
            )
        report[name] = {
            "points_train": int(train.features.shape[0]),
            "points_test": points,
            "errors": rows,
            "seconds": round(time.perf_counter() - started, 1),
        }
    if saved is not None:
        report["timing"] = _timing(saved, args.timing_boards, args.seed)
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


def _boards_and_live(size: int, boards: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The held-out boards of :func:`_held_out` and the holdings live on each."""
    generator = np.random.default_rng([seed, 1000 + size])
    out = []
    for _ in range(boards):
        board = generator.permutation(52)[:size].astype(np.int64)
        mask = np.uint64(0)
        for card in board:
            mask |= np.uint64(1) << np.uint64(card)
        out.append((board, np.flatnonzero((HOLDING_MASKS & mask) == 0)))
    return out


if __name__ == "__main__":
    main()
