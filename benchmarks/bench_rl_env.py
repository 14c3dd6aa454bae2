"""Environment speed in Leduc, in steps per second: ours beside PettingZoo's own Leduc environment.

Run: python benchmarks/bench_rl_env.py [--steps 100000] [--repeats 3] [--json OUT]

Both environments play the same loop in one process: PettingZoo's AEC ``agent_iter``, each
agent taking a uniformly random legal action from its observation's mask, ``reset`` after every
hand. A step is one ``env.step`` call with an action (the ``step(None)`` calls of finished
agents are not counted, but their time is). Each rate is given per second of wall time and per
second of this process's CPU time (what one process does on a core of its own), with the machine's
one-minute load average and core count when the run started and ended (wall-time rates mean
little on a loaded machine). Ours:
:class:`pokerbot.strategies.rl.env.PokerAECEnv` with the 36-entry encoding; PettingZoo's:
``pettingzoo.classic.leduc_holdem_v4`` (needs ``rlcard`` and ``pygame``, in the ``bench``
extra; left out with a note when missing). Prints the median rate of the repeats.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from pokerbot.strategies.rl.env import PokerAECEnv


def steps_per_second(make_env: Callable[[], Any], steps: int, seed: int) -> tuple[float, float]:
    """Steps per second of wall time and per CPU second of random legal play for ``steps`` steps."""
    env = make_env()
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    taken = 0
    start, cpu_start = time.perf_counter(), time.process_time()
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
    return taken / (time.perf_counter() - start), taken / (time.process_time() - cpu_start)


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
    results: dict[str, dict[str, float] | None] = {}
    load_before = os.getloadavg()[0]
    for name, make in makers.items():
        if make is None:
            print(f"{name}: not installed (pip install rlcard pygame)")
            results[name] = None
            continue
        rates = [steps_per_second(make, args.steps, seed) for seed in range(args.repeats)]
        wall, cpu = statistics.median(r[0] for r in rates), statistics.median(r[1] for r in rates)
        results[name] = {"wall": wall, "cpu": cpu}
        measured = f"median of {args.repeats} x {args.steps:,}"
        print(f"{name}: {wall:,.0f} steps/s, {cpu:,.0f} steps per CPU second ({measured})")
    load = {"cores": os.cpu_count(), "before": round(load_before, 2), "after": round(os.getloadavg()[0], 2)}
    print(f"load average (1 minute) {load['before']:.2f} before, {load['after']:.2f} after, on {load['cores']} cores")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        document = {
            "benchmark": "bench_rl_env",
            "command": f"python benchmarks/bench_rl_env.py --steps {args.steps} --repeats {args.repeats}",
            "python": platform.python_version(),
            "steps_per_second": results,
            "load_average": load,
            "unit": "steps per second of wall time (wall) and of the process's CPU time (cpu)",
        }
        args.json.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
