"""pokerbot side by side with the reference ACPC dealer: throughput, and play under tight limits.

The reference dealer and example player are built from source outside the repository
(``acpc_reference.py``). Every match is a separate set of processes, as in a competition.

``throughput`` (heads-up no-limit by default, 3,000 hands, repeated, the set-ups interleaved):

* reference dealer + 2 C example players (the reference rate);
* pokerbot dealer + 2 C example players;
* reference dealer + 2 ``pokerbot play`` clients (``--strategy``, default ``random``).

The rate counts hands between the first hand's log line and the SCORE line (the log is
polled), so process start-up is left out.

``limits``: the default strategy of every hold'em game (2 and 3 players, limit and no-limit),
one ``pokerbot play`` seat against C example players (``--every-seat``: pokerbot in every
seat), on the reference dealer with ``--t_response 100 --t_hand 1000`` (or
``--t_response``/``--t_hand``); a match passes when the dealer plays every hand (the
reference dealer ends a match at a seat's first timeout) and prints its SCORE. The safe
actions the clients sent in place of a late strategy (fallbacks) are counted; with
``--transcripts`` the dealer's timestamps give every seat's response times as the dealer saw them.

Run it from an installation nobody edits meanwhile (a match whose client fails to start
is ended, not waited for).

    python benchmarks/bench_reference.py throughput --hands 3000 --repeats 3
    python benchmarks/bench_reference.py limits --hands 300 --repeats 2
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from acpc_reference import ReferenceBuild, reference_build

HOLDEM = ("holdem-limit-2p", "holdem-nolimit-2p", "holdem-limit-3p", "holdem-nolimit-3p")


def pokerbot() -> list[str]:
    """The ``pokerbot`` console script next to this Python."""
    script = Path(sys.executable).with_name("pokerbot")
    return [str(script)] if script.exists() else [shutil.which("pokerbot") or "pokerbot"]


@dataclass
class Outcome:
    """One match: hands logged, its rate (hands/s), the dealer's status and standard error tail."""

    hands: int
    rate: float
    status: int
    error: str
    score: str
    dealer_cpu: float = float("nan")
    """CPU seconds (user + system) of the dealer process."""
    players_cpu: float = float("nan")
    """CPU seconds of all the player processes together."""
    fallbacks: int = 0
    """Actions the ``pokerbot play`` seats sent for a strategy that had not answered in time."""
    quick: int = 0
    """Of those, the strategy's quick actions (its blueprint's; the rest were checks or calls)."""
    observed: int = 0
    """Hands' ends the ``pokerbot play`` seats' strategies observed, all seats together."""
    skipped: int = 0
    """``observe_skipped`` lines the ``pokerbot play`` seats logged."""


def _reap(process: subprocess.Popen[bytes], timeout: float | None) -> float:
    """Wait for ``process`` (killing it after ``timeout`` seconds); its CPU seconds."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(process.pid, 0 if deadline is None else os.WNOHANG)
        if pid:
            process.returncode = os.waitstatus_to_exitcode(status)
            return usage.ru_utime + usage.ru_stime
        if deadline is not None and time.monotonic() > deadline:
            process.kill()
            deadline = None
        time.sleep(0.002)


def run_match(
    dealer: list[str],
    match: str,
    game_file: Path,
    hands: int,
    seed: int,
    players: list[list[str] | None],
    example: Path,
    folder: Path,
    options: list[str],
    timeout: float,
    quiet: bool = True,
    env: dict[str, str] | None = None,
    on_poll: Callable[[int, int], None] | None = None,
) -> Outcome:
    """Start ``dealer`` and one process per seat (``None`` = a C example player of ``game_file``);
    ``env``: the environment of the pokerbot processes; ``on_poll(dealer pid, log size)`` is
    called at every poll of the log."""
    names = [f"p{seat + 1}" for seat in range(len(players))]
    argv = [*dealer, match, str(game_file), str(hands), str(seed), *names, *(["-q"] if quiet else []), *options]
    err_path = folder / f"{match}.err"
    with open(err_path, "wb") as err:
        process = subprocess.Popen(argv, cwd=folder, stdout=subprocess.PIPE, stderr=err, env=env)
        assert process.stdout is not None
        ports = process.stdout.readline().decode().split()
        seats = []
        for seat, (port, player) in enumerate(zip(ports, players)):
            command = (
                [*player, "--port", port] if player is not None else [str(example), str(game_file), "127.0.0.1", port]
            )
            with open(folder / f"{match}.seat{seat + 1}.err", "wb") as seat_err:
                seats.append(subprocess.Popen(command, cwd=folder, stdout=subprocess.DEVNULL, stderr=seat_err, env=env))
        log = folder / f"{match}.log"
        header_size = -1
        first = last = None
        deadline = time.monotonic() + timeout
        dealer_cpu = None
        while dealer_cpu is None:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            now = time.perf_counter()
            if pid:
                process.returncode = os.waitstatus_to_exitcode(status)
                dealer_cpu = usage.ru_utime + usage.ru_stime
                break
            if time.monotonic() > deadline or any(_failed(seat) for seat in seats):
                process.kill()  # the reference dealer waits for ever for a seat that died
            size = log.stat().st_size if log.exists() else -1
            if on_poll is not None:
                on_poll(process.pid, size)
            if header_size < 0 and size > 0:
                header_size = size
            elif first is None and size > header_size >= 0:
                first = now
            time.sleep(0.002)
        last = time.perf_counter()
        out = process.stdout.read().decode()
        process.stdout.close()
        players_cpu = sum(_reap(seat, 15) for seat in seats)
    logged = sum(1 for line in log.read_text().splitlines() if line.startswith("STATE")) if log.exists() else 0
    rate = (logged - 1) / (last - first) if first is not None and logged > 1 else float("nan")
    tail = [line for line in err_path.read_text(errors="replace").splitlines() if "ERROR" in line or "WARNING" in line]
    score = next((line for line in out.splitlines() if line.startswith("SCORE")), "")
    counts = [_client_counts(folder / f"{match}.seat{seat + 1}.err") for seat in range(len(players))]
    for seat in range(len(players)):
        tail += [
            line
            for line in (folder / f"{match}.seat{seat + 1}.err").read_text(errors="replace").splitlines()
            if line.startswith(("Traceback", "ERROR")) or '"level": "error"' in line
        ]
    outcome = Outcome(logged, rate, process.returncode or 0, " / ".join(tail[-2:]), score, dealer_cpu, players_cpu)
    outcome.fallbacks = sum(count[0] for count in counts)
    outcome.observed = sum(count[1] for count in counts)
    outcome.skipped = sum(count[2] for count in counts)
    outcome.quick = sum(count[3] for count in counts)
    return outcome


def response_times(transcript: Path) -> dict[int, list[float]]:
    """Milliseconds from each request the reference dealer sent (``TO``) to the answer it
    read (``FROM``), by seat, from its transcript (standard error without ``-q``)."""
    sent: dict[int, float] = {}
    times: dict[int, list[float]] = {}
    for line in transcript.read_text(errors="replace").splitlines():
        kind, _, rest = line.partition(" ")
        if kind not in ("TO", "FROM"):
            continue
        seat_text, _, stamp = rest.partition(" at ")
        seat, moment = int(seat_text), float(stamp.split(" ", 1)[0])
        if kind == "TO":
            sent[seat] = moment
        else:
            times.setdefault(seat, []).append(1000 * (moment - sent[seat]))
    return times


def _describe(times: list[float]) -> str:
    ordered = sorted(times)
    n = len(ordered)
    return (
        f"{n} answers, median {statistics.median(ordered):.1f} ms, p99 {ordered[int(0.99 * (n - 1))]:.1f}, "
        f"max {ordered[-1]:.1f}, over 50 ms {sum(t > 50 for t in ordered)}"
    )


def _failed(process: subprocess.Popen[bytes]) -> bool:
    """True when ``process`` has ended with an error (it is left to be reaped with its CPU time)."""
    info = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    return info is not None and (info.si_code != os.CLD_EXITED or info.si_status != 0)


def _client_counts(seat_err: Path) -> tuple[int, int, int, int]:
    """What a ``pokerbot play --log-format json`` seat reports: fallbacks and hands observed
    (from its ``match_over`` line), the ``observe_skipped`` lines it logged, and how many of
    its fallbacks were quick actions."""
    fallbacks = observed = skipped = quick = 0
    for line in seat_err.read_text(errors="replace").splitlines():
        if '"observe_skipped"' in line:
            skipped += 1
        elif '"source": "quick"' in line:
            quick += 1
        elif '"match_over"' in line:
            report = json.loads(line)
            fallbacks, observed = int(report.get("fallbacks") or 0), int(report.get("observed") or 0)
    return fallbacks, observed, skipped, quick


def shim(checkout: Path, folder: Path) -> dict[str, str]:
    """An environment in which ``pokerbot`` (this Python's) imports ``pokerbot.*`` from another
    checkout: links to its four layer folders, made in ``folder``, first on PYTHONPATH."""
    package = folder / "compared" / "pokerbot"
    package.mkdir(parents=True, exist_ok=True)
    for name in ("protocol", "models", "strategies", "bot"):
        link = package / name
        if not link.exists():
            link.symlink_to(checkout.resolve() / name)
    return {**os.environ, "PYTHONPATH": str(package.parent)}


def load_note() -> str:
    """The machine's load averages and how many cores it has."""
    one, five, fifteen = os.getloadavg()
    return f"load {one:.1f} {five:.1f} {fifteen:.1f} on {os.cpu_count()} cores"


def throughput(reference: ReferenceBuild, args: argparse.Namespace, folder: Path) -> None:
    """The set-ups, interleaved, ``args.repeats`` times (with ``--compare``, the other checkout's
    dealer and clients too)."""
    game_file = reference.game_file(args.game)
    client = [*pokerbot(), "play", "--game", str(game_file), "--strategy", args.strategy, "--log-format", "json"]
    setups: dict[str, tuple[list[str], list[list[str] | None], dict[str, str] | None]] = {
        "reference dealer + C players": ([str(reference.dealer)], [None, None], None),
        "pokerbot dealer + C players": ([*pokerbot(), "dealer"], [None, None], None),
        f"reference dealer + pokerbot play ({args.strategy})": ([str(reference.dealer)], [client, client], None),
    }
    if args.compare is not None:
        other = shim(args.compare, folder)
        setups["compared pokerbot dealer + C players"] = ([*pokerbot(), "dealer"], [None, None], other)
        setups[f"reference dealer + compared pokerbot play ({args.strategy})"] = (
            [str(reference.dealer)],
            [client, client],
            other,
        )
    rates: dict[str, list[float]] = {name: [] for name in setups}
    cpu: dict[str, list[tuple[float, float]]] = {name: [] for name in setups}
    loads: list[float] = []
    for repeat in range(args.repeats):
        for index, (name, (dealer, players, env)) in enumerate(setups.items()):
            outcome = run_match(
                dealer,
                f"tp{repeat}_{index}",
                game_file,
                args.hands,
                repeat + 1,
                players,
                reference.example_player,
                folder,
                [],
                600,
                env=env,
            )
            if outcome.hands != args.hands:
                print(f"  {name}: only {outcome.hands} hands ({outcome.error})")
            rates[name].append(outcome.rate)
            cpu[name].append((1000 * outcome.dealer_cpu / outcome.hands, 1000 * outcome.players_cpu / outcome.hands))
            loads.append(os.getloadavg()[0])
            print(f"  run {repeat + 1} {name}: {outcome.rate:.0f} hands/s ({load_note()})", flush=True)
    base = statistics.median(rates["reference dealer + C players"])
    print(
        f"\n{args.game}, {args.hands} hands, median of {args.repeats}; 1-minute load {min(loads):.1f}-{max(loads):.1f}:"
    )
    print(f"{'set-up':<58} {'hands/s':>8} {'x reference':>12} {'dealer CPU ms/hand':>19} {'players CPU ms/hand':>20}")
    for name, values in rates.items():
        median = statistics.median(values)
        dealer_ms = statistics.median(d for d, _ in cpu[name])
        players_ms = statistics.median(p for _, p in cpu[name])
        print(f"{name:<58} {median:>8.0f} {median / base:>12.2f} {dealer_ms:>19.3f} {players_ms:>20.3f}")


def memory(reference: ReferenceBuild, args: argparse.Namespace, folder: Path) -> None:
    """The dealer's resident memory after ``--at`` hands and near the end of a long match (99 %
    of its hands), our dealer (and the compared checkout's) with two C example players, and the
    reference's."""
    game_file = reference.game_file(args.game)
    setups: dict[str, tuple[list[str], dict[str, str] | None]] = {
        "reference dealer": ([str(reference.dealer)], None),
        "pokerbot dealer": ([*pokerbot(), "dealer"], None),
    }
    if args.compare is not None:
        setups["compared pokerbot dealer"] = ([*pokerbot(), "dealer"], shim(args.compare, folder))
    print(f"{args.game}, {args.hands} hands, two C example players; resident memory of the dealer (MB):")
    for index, (name, (dealer, env)) in enumerate(setups.items()):
        sampler = _MemorySampler(folder / f"mem{index}.log", args.at, args.hands - max(1, args.hands // 100))
        run_match(
            dealer,
            f"mem{index}",
            game_file,
            args.hands,
            1,
            [None, None],
            reference.example_player,
            folder,
            [],
            7200,
            env=env,
            on_poll=sampler,
        )
        at, end = sampler.early, sampler.last
        print(
            f"  {name:<26} after {args.at:,} hands {at:6.1f}   after {sampler.late:,} hands {end:6.1f}   "
            f"ratio {end / at:.3f} ({load_note()})",
            flush=True,
        )


class _MemorySampler:
    """Polled with the dealer's pid: its resident memory (MB) once ``at`` hands are logged
    (``early``) and once ``late`` hands are (``last``: before the match's end, whose teardown
    could hide what the match held)."""

    def __init__(self, log: Path, at: int, late: int) -> None:
        self.log, self.at, self.late = log, at, late
        self.offset, self.hands = 0, 0
        self.early, self.last = float("nan"), float("nan")

    def __call__(self, pid: int, size: int) -> None:
        if self.hands >= self.late or size <= self.offset:
            return
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            with open(self.log, "rb") as handle:
                handle.seek(self.offset)
                data = handle.read()
        except OSError:
            return
        rss = next((int(line.split()[1]) / 1024 for line in status.splitlines() if line.startswith("VmRSS")), None)
        complete = data.rfind(b"\n") + 1
        self.hands += sum(line.startswith(b"STATE") for line in data[:complete].splitlines())
        self.offset += complete
        if rss is not None and self.hands >= self.at and self.early != self.early:
            self.early = rss
        if rss is not None and self.hands >= self.late:
            self.last = rss


def limits(reference: ReferenceBuild, args: argparse.Namespace, folder: Path) -> None:
    """Every hold'em game's default strategy, one seat, on the reference dealer under tight limits."""
    options = ["--t_response", str(args.t_response), "--t_hand", str(args.t_hand)]
    where = "every seat" if args.every_seat else "seat 1 (C example players in the others)"
    beside = f", {args.load} CPU-bound processes beside the matches" if args.load else ""
    print(f"reference dealer {' '.join(options)}, {args.hands} hands, pokerbot default strategy in {where}{beside}:")
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.load)]
    try:
        failures = _limit_matches(reference, args, folder, options)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    print("all matches complete" if not failures else f"{failures} matches failed")


def _limit_matches(reference: ReferenceBuild, args: argparse.Namespace, folder: Path, options: list[str]) -> int:
    """The matches of :func:`limits`; how many failed."""
    failures = 0
    for game in args.games:
        game_file = reference.game_file(game)
        players = 3 if "3p" in game else 2
        ours = [
            *pokerbot(),
            "play",
            "--game",
            str(game_file),
            "--t_response",
            str(args.t_response),
            "--t_hand",
            str(args.t_hand),
            "--log-format",
            "json",
        ]
        for repeat in range(args.repeats):
            outcome = run_match(
                [str(reference.dealer)],
                f"lim_{game}_{repeat}",
                game_file,
                args.hands,
                100 + repeat,
                [ours] * players if args.every_seat else [ours, *([None] * (players - 1))],
                reference.example_player,
                folder,
                options,
                60 * args.max_minutes,
                quiet=not args.transcripts,
            )
            ok = outcome.status == 0 and outcome.hands == args.hands and outcome.score
            failures += not ok
            verdict = "complete" if ok else f"FAILED ({outcome.error or outcome.status})"
            print(
                f"  {game} run {repeat + 1}: {outcome.hands} hands, {verdict} {outcome.score}, "
                f"{outcome.fallbacks} fallback actions ({outcome.quick} quick), "
                f"{outcome.observed} hands' ends observed, "
                f"{outcome.skipped} skipped ({load_note()})",
                flush=True,
            )
            if args.transcripts:
                times = response_times(folder / f"lim_{game}_{repeat}.err")
                for seat, seat_times in sorted(times.items()):
                    who = "pokerbot" if args.every_seat or seat == 1 else "C example player"
                    print(f"    seat {seat} ({who}): {_describe(seat_times)}", flush=True)
    return failures


def main() -> None:
    """Parse the command line and run the chosen benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    tp = sub.add_parser("throughput", help="hands per second of the dealers and clients")
    tp.add_argument("--game", default="holdem-nolimit-2p", choices=HOLDEM)
    tp.add_argument("--hands", type=int, default=3000)
    tp.add_argument("--repeats", type=int, default=3)
    tp.add_argument("--strategy", default="random", help="the pokerbot clients' strategy (default random)")
    tp.add_argument("--compare", type=Path, default=None, help="another pokerbot checkout, run side by side")
    mem = sub.add_parser("memory", help="the dealer's memory early in a long match and at its end")
    mem.add_argument("--game", default="holdem-nolimit-2p", choices=HOLDEM)
    mem.add_argument("--hands", type=int, default=40000)
    mem.add_argument("--at", type=int, default=1000, help="the early sample, in hands")
    mem.add_argument("--compare", type=Path, default=None, help="another pokerbot checkout's dealer too")
    lim = sub.add_parser("limits", help="default strategies under tight limits on the reference dealer")
    lim.add_argument("--games", nargs="+", default=list(HOLDEM), choices=HOLDEM)
    lim.add_argument("--hands", type=int, default=300)
    lim.add_argument("--repeats", type=int, default=2)
    lim.add_argument("--t_response", type=int, default=100, help="ms")
    lim.add_argument("--t_hand", type=int, default=1000, help="ms")
    lim.add_argument("--every-seat", action="store_true", help="pokerbot in every seat (default: seat 1 only)")
    lim.add_argument("--load", type=int, default=0, help="CPU-bound processes to run beside the matches")
    lim.add_argument(
        "--max-minutes", type=float, default=30, help="a match still playing after this is stopped (a failure)"
    )
    lim.add_argument(
        "--transcripts", action="store_true", help="the dealer writes its transcript: response times per seat"
    )
    parser.add_argument("--keep", type=Path, default=None, help="keep the match files in this folder")
    args = parser.parse_args()
    reference = reference_build()
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        print(f"{time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()[0]:.2f}")
        {"throughput": throughput, "memory": memory, "limits": limits}[args.what](reference, args, folder)


if __name__ == "__main__":
    main()
