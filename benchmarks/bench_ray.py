"""What Ray costs at start: ``import ray``, a local ``ray.init`` (2 CPUs), the first task
(a worker process starting) and ``ray.shutdown``, each in fresh processes, ``--repeats``
times; medians and minima.

    python benchmarks/bench_ray.py --repeats 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

IMPORT = "import time; t = time.perf_counter(); import ray; print(time.perf_counter() - t)"
START = (
    "import logging, time; import ray; t = time.perf_counter(); "
    "ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR); "
    "a = time.perf_counter() - t; f = ray.remote(lambda: 1); t = time.perf_counter(); ray.get(f.remote()); "
    "b = time.perf_counter() - t; t = time.perf_counter(); ray.shutdown(); print(a, b, time.perf_counter() - t)"
)


def main() -> None:
    """Run both probes ``--repeats`` times, interleaved, and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    times: dict[str, list[float]] = {"import ray": [], "ray.init (local, 2 CPUs)": [], "first task": [], "shutdown": []}
    for _ in range(args.repeats):
        times["import ray"].append(
            float(subprocess.run([sys.executable, "-c", IMPORT], capture_output=True, text=True).stdout)
        )
        init, first, down = subprocess.run([sys.executable, "-c", START], capture_output=True, text=True).stdout.split()
        times["ray.init (local, 2 CPUs)"].append(float(init))
        times["first task"].append(float(first))
        times["shutdown"].append(float(down))
    print(f"load average: {os.getloadavg()[0]:.2f}")
    for name, values in times.items():
        print(f"{name:<26} median {statistics.median(values):6.2f} s   min {min(values):6.2f} s")


if __name__ == "__main__":
    main()
