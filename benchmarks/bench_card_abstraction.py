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
between its equity distribution (all of its run-outs) and the centroid of its bucket. A
k-means bucket's centroid is the one fitted on the training sample; a percentile bucket's is
the mean quantile function of the held-out holdings in it (in-sample: it favours the
percentile schemes). The river's error is the distance of the river equity to its bucket's
mean. ``--abstraction FILE`` also measures a saved abstraction, and the time to bucket every
holding of one new flop, turn and river board (the player's cost per hand and round; compiled
code warmed up first), beside ``board_ehs`` on the same boards.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

from pokerbot.models.buckets.card_abstraction import BucketScheme
from pokerbot.protocol.analysis.ehs import board_ehs
from pokerbot.protocol.analysis.holdings import HOLDING_MASKS
from pokerbot.protocol.game import load_game
from pokerbot.strategies.card_abstraction.distribution import (
    DistributionAbstraction,
    Sample,
    sample_points,
)
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


def _held_out(size: int, boards: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Every live holding of the held-out boards: sorted equity distributions (flop, turn) or
    river equities (one column), and EHS."""
    rows, ehs = [], []
    for board, live in _boards_and_live(size, boards, seed):
        rows.append(river_equity(board)[live][:, None] if size == 5 else equity_distributions(board, live))
        ehs.append(board_ehs(board)[live])
    return np.concatenate(rows), np.concatenate(ehs)


def _features(distributions: np.ndarray, bins: int) -> np.ndarray:
    out = np.empty((distributions.shape[0], bins))
    for k in range(distributions.shape[0]):
        slice_means(distributions[k], bins, out[k])
    return out


def _in_sample_centroids(features: np.ndarray, labels: np.ndarray, count: int) -> np.ndarray:
    mass = np.bincount(labels, minlength=count).astype(float)
    sums = np.stack([np.bincount(labels, weights=features[:, d], minlength=count) for d in range(features.shape[1])], 1)
    return sums / np.maximum(mass, 1.0)[:, None]


def _error(distributions: np.ndarray, centroids: np.ndarray, labels: np.ndarray) -> float:
    return float(emd_rows(distributions, centroids[labels]).mean())


def _median_seconds(run: Any, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def _timing(abstraction: DistributionAbstraction, boards: int, seed: int) -> dict[str, Any]:
    generator = np.random.default_rng([seed, 99])
    full = [generator.permutation(52)[:5].astype(np.int64) for _ in range(boards + 1)]
    for r in (1, 2, 3):  # compile
        abstraction.buckets_all(full[0], r)
        board_ehs(full[0][: 2 + r])
    out: dict[str, Any] = {}
    for r, name in ((1, "flop"), (2, "turn"), (3, "river")):
        times, ehs_times = [], []
        for board in full[1:]:
            abstraction._flops.clear()
            abstraction._boards.clear()
            started = time.perf_counter()
            abstraction.buckets_all(board, r)
            times.append(time.perf_counter() - started)
            started = time.perf_counter()
            board_ehs(board[: 2 + r])
            ehs_times.append(time.perf_counter() - started)
        ours, theirs = 1e3 * statistics.median(times), 1e3 * statistics.median(ehs_times)
        out[name] = {"kmeans_ms": ours, "board_ehs_ms": theirs}
        print(f"{name}: every holding of one board {ours:.1f} ms (board_ehs {theirs:.1f} ms)")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--buckets", type=int, nargs="+", default=[50, 100, 200])
    parser.add_argument("--quantiles", type=int, default=32)
    parser.add_argument("--train-boards", type=int, default=400, help="training boards per round")
    parser.add_argument("--holdings", type=int, default=200, help="training holdings per board")
    parser.add_argument("--test-boards", type=int, default=100, help="held-out boards per round (every holding)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--abstraction", type=Path, help="also measure this saved abstraction, and its speed")
    parser.add_argument("--timing-boards", type=int, default=20)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    report: dict[str, Any] = {"settings": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}}
    saved = (
        None
        if args.abstraction is None
        else DistributionAbstraction.load(args.abstraction, load_game("holdem-nolimit-2p"))
    )
    for size, name in ROUNDS.items():
        started = time.perf_counter()
        bins = 1 if size == 5 else args.quantiles
        train = sample_points(size, args.train_boards, args.holdings, bins, args.seed)
        train_ehs = _ehs_of(train)
        test, test_ehs = _held_out(size, args.test_boards, args.seed)
        test_features = test if size == 5 else _features(test, bins)
        test_mean = test.mean(axis=1)
        rows: dict[str, Any] = {}
        for count in args.buckets:
            row: dict[str, float] = {}
            if size < 5:
                fit = kmeans(train.features, count, args.seed)
                labels = nearest(test_features, fit.centroids)[0]
                row["kmeans"] = _error(test, fit.centroids, labels)
            for scheme, train_values, test_values in (
                ("ehs", train_ehs, test_ehs),
                ("equity", train.features.mean(axis=1), test_mean),
            ):
                labels = BucketScheme.percentile(count, train_values).buckets(test_values).astype(np.int64)
                row[scheme] = _error(test, _in_sample_centroids(test_features, labels, count), labels)
            rows[str(count)] = row
            print(
                f"{name} {count} buckets: mean EMD to the bucket's centroid "
                + ", ".join(f"{k} {v:.4f}" for k, v in row.items())
            )
        if saved is not None:
            r = size - 2
            labels = np.concatenate(
                [
                    saved.buckets_all(board, r)[live]
                    for board, live in _boards_and_live(size, args.test_boards, args.seed)
                ]
            ).astype(np.int64)
            centroids = (
                (saved.flop, saved.turn)[r - 1]
                if size < 5
                else _in_sample_centroids(test, labels, saved.num_buckets[3])
            )
            rows["saved"] = {"buckets": saved.num_buckets[r], "error": _error(test, centroids, labels)}
            print(f"{name} saved abstraction ({saved.num_buckets[r]} buckets): {rows['saved']['error']:.4f}")
        report[name] = {
            "points_train": int(train.features.shape[0]),
            "points_test": int(test.shape[0]),
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
