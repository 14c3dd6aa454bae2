"""Wall and CPU time of the README's test command (``python -m pytest``), with the machine's load.

Runs the suite once in a child process from the repository's root with the interpreter that
runs this script (so from the virtual environment the README's command made), and reports:

* the wall time, in minutes;
* the CPU time of the whole run, in minutes (user plus system time of the controller and its
  workers, from ``getrusage`` of the children);
* the tests passed, skipped and failed, as pytest's last line gives them;
* the one-minute load average before and after (a busy machine stretches the wall time, not
  the CPU time).

Arguments after ``--`` go to pytest (``-- -n 0`` runs the suite in one process).

    python benchmarks/bench_suite.py --json suite.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COUNTS = re.compile(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed)")


def run_suite(pytest_args: list[str]) -> dict[str, object]:
    """Run ``python -m pytest PYTEST_ARGS`` at the repository's root; its times, counts and load."""
    load_before = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = [line for line in completed.stdout.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    counts = {kind.rstrip("s") if kind.startswith("error") else kind: int(n) for n, kind in COUNTS.findall(last)}
    return {
        "command": " ".join(["python -m pytest", *pytest_args]),
        "returncode": completed.returncode,
        "wall_minutes": round(wall / 60.0, 2),
        "cpu_minutes": round(cpu / 60.0, 2),
        "counts": counts,
        "summary": last,
        "load_average_before": round(load_before, 2),
        "load_average_after": round(os.getloadavg()[0], 2),
        "cores": os.cpu_count(),
    }


def main() -> None:
    """Parse the arguments, run the suite, print the figures and write them as JSON if asked."""
    argv = sys.argv[1:]
    pytest_args: list[str] = []
    if "--" in argv:
        split = argv.index("--")
        argv, pytest_args = argv[:split], argv[split + 1 :]
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", type=Path, help="Write the figures to this JSON file.")
    args = parser.parse_args(argv)
    result = run_suite(pytest_args)
    print(
        f"{result['summary']}\nwall {result['wall_minutes']:.2f} min, CPU {result['cpu_minutes']:.2f} min "
        f"(user + system), load average {result['load_average_before']} before, "
        f"{result['load_average_after']} after, {result['cores']} cores"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    sys.exit(0 if result["returncode"] == 0 else 1)


if __name__ == "__main__":
    main()
