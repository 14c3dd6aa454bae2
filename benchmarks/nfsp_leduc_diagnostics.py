"""NFSP in Leduc taken apart: which part of the learner holds the average policy's exploitability up.

Run: python benchmarks/nfsp_leduc_diagnostics.py --seconds 420 [--eval-every 30] [--seed 0]
[--set KEY=VALUE ...] [--json OUT]

Trains :class:`pokerbot.strategies.rl.nfsp.NFSP` in Leduc with the given settings (as ``pokerbot
rl train --set``) for ``--seconds`` of this process's CPU time (one thread, evaluations
excluded), and at every checkpoint measures exactly, in chips per hand:

* ``exploitability``: the average-policy networks' (what ``pokerbot rl train`` reports);
* ``reservoir``: the exploitability of the reservoir buffers' own average, the action counts at
  each information set (uniform where it holds none): the data the networks learn from. When
  the two agree, the networks fit their data and any rise comes from the data;
* ``best_response_gap``: for each position, the best-response value against the other
  position's average network minus the value of the greedy Q-network's play against it. The
  reservoir averages these Q-networks' answers, so a gap that stays large keeps the average
  from converging.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch

from pokerbot.protocol.game import load_game
from pokerbot.strategies.rl.nfsp import NFSP, NfspSettings
from pokerbot.strategies.rl.tabulate import tabulate
from pokerbot.strategies.solvers.exploitability import evaluate
from pokerbot.strategies.solvers.policy import Policy
from pokerbot.strategies.solvers.tree import build_tree

Rows = Callable[[np.ndarray, np.ndarray, int], np.ndarray]
"""``(observations, masks, position) -> probabilities`` over the action IDs."""


def table(nfsp: NFSP, by_position: list[Rows]) -> Policy:
    """The tabular policy in which each position plays its own row function."""

    def probabilities(observations: np.ndarray, masks: np.ndarray, positions: np.ndarray) -> np.ndarray:
        rows = [by_position[p](observations, masks, p) for p in range(len(by_position))]
        return np.choose(positions[:, None], rows)

    return tabulate(nfsp.game, nfsp.encoding, probabilities)


def average_rows(nfsp: NFSP) -> Rows:
    """The average-policy networks."""
    return lambda observations, masks, p: nfsp.average_probabilities(observations, masks, p)


def greedy_rows(nfsp: NFSP) -> Rows:
    """Each Q-network's greedy legal action."""

    def rows(observations: np.ndarray, masks: np.ndarray, p: int) -> np.ndarray:
        legal = torch.from_numpy(masks.astype(np.bool_))
        with torch.no_grad():
            q = nfsp.players[p].q(torch.from_numpy(observations.astype(np.float32))).masked_fill(~legal, -1e9)
        out = np.zeros(masks.shape)
        out[np.arange(len(out)), q.argmax(dim=1).numpy()] = 1.0
        return out

    return rows


def reservoir_rows(nfsp: NFSP, p: int) -> Rows:
    """Position ``p``'s reservoir as action frequencies per observation (uniform where empty)."""
    buffer = nfsp.players[p].supervised
    counts: dict[bytes, np.ndarray] = {}
    for observation, action in zip(buffer.observations[: len(buffer)], buffer.actions[: len(buffer)]):
        counts.setdefault(observation.astype(np.uint8).tobytes(), np.zeros(nfsp.encoding.num_actions))[action] += 1

    def rows(observations: np.ndarray, masks: np.ndarray, _: int) -> np.ndarray:
        out = masks / masks.sum(axis=1, keepdims=True)
        for i, observation in enumerate(observations):
            seen = counts.get(observation.astype(np.uint8).tobytes())
            if seen is not None and seen.sum() > 0:
                out[i] = seen / seen.sum()
        return out

    return rows


def main() -> None:
    """Train, take apart at every checkpoint, print and write the points."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, required=True, help="CPU seconds of training")
    parser.add_argument("--eval-every", type=float, default=30.0, help="CPU seconds between checkpoints")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="an NFSP setting")
    parser.add_argument("--json", type=Path, default=None, help="write the points here")
    args = parser.parse_args()

    torch.set_num_threads(1)
    game = load_game("leduc")
    tree = build_tree(game)
    settings = NfspSettings.from_strings(args.set)
    nfsp = NFSP(game, "leduc-infostate", settings, seed=args.seed)
    points: list[dict[str, Any]] = []
    trained = 0.0

    def measure() -> None:
        averages = average_rows(nfsp)
        exploitability = evaluate(tree, table(nfsp, [averages, averages])).exploitability
        reservoir = evaluate(tree, table(nfsp, [reservoir_rows(nfsp, 0), reservoir_rows(nfsp, 1)])).exploitability
        gaps = []
        for p in range(2):
            rows = [averages, averages]
            rows[p] = greedy_rows(nfsp)
            report = evaluate(tree, table(nfsp, rows))
            gaps.append(report.best_response_values[p] - report.values[p])
        points.append(
            {
                "cpu_seconds": round(trained, 2),
                "hands": nfsp.hands,
                "exploitability": exploitability,
                "reservoir": reservoir,
                "best_response_gap": gaps,
            }
        )
        print(
            f"{trained:7.0f} CPU s {nfsp.hands:>10,} hands  exploitability {exploitability:.3f}"
            f"  reservoir {reservoir:.3f}  best-response gap {gaps[0]:.3f} {gaps[1]:.3f}",
            flush=True,
        )
        if args.json is not None:
            document = {
                "settings": settings.to_dict(),
                "seed": args.seed,
                "command": "python benchmarks/nfsp_leduc_diagnostics.py "
                f"--seconds {args.seconds:g} --eval-every {args.eval_every:g} --seed {args.seed}"
                + "".join(f" --set {item}" for item in args.set),
                "time": "CPU seconds of the training process, one thread, evaluations excluded",
                "points": points,
            }
            args.json.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")

    measure()
    while trained < args.seconds - 1e-9:
        start = time.process_time()
        while time.process_time() - start < min(args.eval_every, args.seconds - trained):
            nfsp.play(2_000)
        trained += time.process_time() - start
        measure()


if __name__ == "__main__":
    main()
