"""Start-up time of the ``pokerbot`` commands, side by side with the reference dealer.

Each probe starts a fresh process and measures the wall time until it is ready:

* ``pokerbot --help``, ``pokerbot play --help``: until the process exits;
* ``pokerbot dealer``: until its first line (the seat ports) is on standard output, then
  the dealer is stopped; the reference dealer (built from source outside the repository, see
  ``acpc_reference.py``) the same way.

The probes are interleaved round by round, so load on the shared machine hits them alike;
the table gives the median and the minimum wall time and the median CPU time (user + system)
of each. ``--imports`` also lists which heavy packages each command imports. ``--compare
SCRIPT`` adds the same ``pokerbot`` probes for another installation (e.g. an older checkout's
``.venv/bin/pokerbot``), side by side.

Python's bytecode cache is on for the probes (``PYTHONPYCACHEPREFIX`` in a temporary folder,
``PYTHONDONTWRITEBYTECODE`` dropped; the warm-up round fills it), as in any installed copy;
``--no-bytecode-cache`` measures with every module compiled from source on each start.

    python benchmarks/bench_startup.py --repeats 15
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from acpc_reference import ReferenceUnavailableError, reference_build

HEAVY = ("numpy", "scipy", "river", "matplotlib", "eval7", "pydantic", "websockets", "rich", "structlog", "numba")
"""Packages whose import is worth knowing about (tens to hundreds of milliseconds each)."""


def pokerbot_command() -> list[str]:
    """The ``pokerbot`` console script next to this Python (or on the PATH)."""
    script = Path(sys.executable).with_name("pokerbot")
    if script.exists():
        return [str(script)]
    found = shutil.which("pokerbot")
    if found is None:
        raise SystemExit("pokerbot is not installed: pip install -e .")
    return [found]


def _cpu_seconds(pid: int) -> float:
    _, _, usage = os.wait4(pid, 0)
    return usage.ru_utime + usage.ru_stime


def until_exit(argv: list[str]) -> tuple[float, float]:
    """(wall seconds until ``argv`` exits, its CPU seconds)."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cpu = _cpu_seconds(process.pid)
    wall = time.perf_counter() - started
    process.returncode = 0
    return wall, cpu


def until_first_line(argv: list[str], folder: str) -> tuple[float, float]:
    """(wall seconds until ``argv`` prints its first line, its CPU seconds); then stop it."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=folder)
    assert process.stdout is not None
    line = process.stdout.readline()
    wall = time.perf_counter() - started
    process.kill()
    cpu = _cpu_seconds(process.pid)
    process.returncode = -9
    process.stdout.close()
    if not line.strip():
        raise RuntimeError(f"{argv[0]} printed no ports")
    return wall, cpu


def pokerbot_probes(pokerbot: list[str], folder: str, suffix: str = "") -> dict[str, Callable[[], tuple[float, float]]]:
    """The probes of one ``pokerbot`` installation (names end with ``suffix``)."""
    return {
        f"pokerbot --help{suffix}": lambda: until_exit([*pokerbot, "--help"]),
        f"pokerbot play --help{suffix}": lambda: until_exit([*pokerbot, "play", "--help"]),
        f"pokerbot dealer (ports line){suffix}": lambda: until_first_line(
            [*pokerbot, "dealer", "m", "holdem-nolimit-2p", "10", "1", "a", "b", "-q"], folder
        ),
    }


def probes(folder: str, compare: Path | None = None) -> dict[str, Callable[[], tuple[float, float]]]:
    """Every start-up probe by name."""
    table = pokerbot_probes(pokerbot_command(), folder)
    if compare is not None:
        table.update(pokerbot_probes([str(compare)], folder, " [compare]"))
    try:
        reference = reference_build()
    except ReferenceUnavailableError as error:
        print(f"(reference dealer left out: {error})", file=sys.stderr)
        return table
    game = str(reference.game_file("holdem-nolimit-2p"))
    table["reference dealer (ports line)"] = lambda: until_first_line(
        [str(reference.dealer), "m", game, "10", "1", "a", "b", "-q"], folder
    )
    return table


def imports(argv: list[str]) -> list[str]:
    """The heavy packages the ``pokerbot`` command ``argv`` imports."""
    code = (
        "import sys\n"
        f"sys.argv = ['pokerbot', *{argv!r}]\n"
        "from pokerbot.bot.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"print(' '.join(name for name in {HEAVY!r} if name in sys.modules), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    return done.stderr.strip().splitlines()[-1:] or [""]


def main() -> None:
    """Run every probe ``--repeats`` times, interleaved, and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="runs of each probe (default 15)")
    parser.add_argument("--imports", action="store_true", help="also list the heavy packages each command imports")
    parser.add_argument("--compare", type=Path, default=None, help="another pokerbot script to probe side by side")
    parser.add_argument(
        "--no-bytecode-cache", action="store_true", help="compile every module from source on each start"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if not args.no_bytecode_cache:
            os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
            os.environ["PYTHONPYCACHEPREFIX"] = os.path.join(folder, "pycache")
        print(f"{time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()[0]:.2f}")
        table = probes(folder, args.compare)
        for probe in table.values():  # warm the file cache once
            probe()
        results: dict[str, list[tuple[float, float]]] = {name: [] for name in table}
        for _ in range(args.repeats):
            for name, probe in table.items():
                results[name].append(probe())
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print(f"bytecode cache: {'off' if args.no_bytecode_cache else 'on'}")
    print(f"{'probe':<42} {'median s':>9} {'min s':>7} {'CPU s':>7}")
    for name, runs in results.items():
        walls = [wall for wall, _ in runs]
        cpus = [cpu for _, cpu in runs]
        print(f"{name:<42} {statistics.median(walls):>9.3f} {min(walls):>7.3f} {statistics.median(cpus):>7.3f}")
    if args.imports:
        for argv in (["--help"], ["play", "--help"], ["dealer", "-h"]):
            print(f"pokerbot {' '.join(argv)} imports: {imports(argv)[0] or '(none of them)'}")


if __name__ == "__main__":
    main()
