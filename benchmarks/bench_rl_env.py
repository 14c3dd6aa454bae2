"""Environment speed in Leduc, in steps per second: ours beside PettingZoo's own Leduc environment.

Run: python benchmarks/bench_rl_env.py [--steps 100000] [--repeats 3] [--json OUT]

Both environments play the same loop in one process: PettingZoo's AEC ``agent_iter``, each
agent taking a uniformly random legal action from its observation's mask, ``reset`` after every
hand. A step is one ``env.step`` call with an action (the ``step(None)`` calls of finished
agents are not counted, but their time is). Ours: :class:`pokerbot.strategies.rl.env.PokerAECEnv`
with the 36-entry encoding; PettingZoo's: ``pettingzoo.classic.leduc_holdem_v4`` (needs
``rlcard``, in the ``bench`` extra; left out with a note when it is missing). Prints the median
rate of the repeats.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from pokerbot.strategies.rl.env import PokerAECEnv


def steps_per_second(make_env: Callable[[], Any], steps: int, seed: int) -> float:
    """Steps per second of random legal play for ``steps`` steps."""
    env = make_env()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    taken = 0
    start = time.perf_counter()
    while taken < steps:
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            taken += 1
        env.reset()
    return taken / (time.perf_counter() - start)


def pettingzoo_leduc() -> Callable[[], Any] | None:
    """PettingZoo's Leduc environment factory, or None when rlcard is not installed."""
    try:
        from pettingzoo.classic import leduc_holdem_v4
    except ImportError:  # pettingzoo's classic games need rlcard
        return None
    return leduc_holdem_v4.env


def main() -> None:
    """Parse the arguments, time both environments, print (and write) the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=100_000, help="steps per measurement (default 100000)")
    parser.add_argument("--repeats", type=int, default=3, help="measurements per environment; the median is shown")
    parser.add_argument("--json", type=Path, default=None, help="write the figures as JSON here")
    args = parser.parse_args()

    makers: dict[str, Callable[[], Any] | None] = {
        "pokerbot PokerAECEnv(leduc)": lambda: PokerAECEnv("leduc"),
        "pettingzoo leduc_holdem_v4": pettingzoo_leduc(),
    }
    results: dict[str, float | None] = {}
    for name, make in makers.items():
        if make is None:
            print(f"{name}: not installed (pip install rlcard)")
            results[name] = None
            continue
        rates = [steps_per_second(make, args.steps, seed) for seed in range(args.repeats)]
        results[name] = statistics.median(rates)
        print(f"{name}: {results[name]:,.0f} steps/s (median of {args.repeats} x {args.steps:,} steps)")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        document = {
            "benchmark": "bench_rl_env",
            "command": f"python benchmarks/bench_rl_env.py --steps {args.steps} --repeats {args.repeats}",
            "python": platform.python_version(),
            "steps_per_second": results,
        }
        args.json.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
