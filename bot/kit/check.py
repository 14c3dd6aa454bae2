"""Check a competition kit as the reference's submission validator does.

:func:`check_kit` plays the kit in every seat, one match per seat, against opponents that
play a registered strategy (``random``, the ACPC example player, by default), under the
kit's time limits, with a dealer started as a separate process: ``pokerbot dealer`` by
default, or any program with the reference dealer's command line (the reference itself).
Like ``validate_submission.pl`` it requires of every match: the start script present and
executable (755), the match played to the end (no timeout, no disconnect), no ``WARNING`` or
``ERROR`` from the dealer, every player gone within :data:`SHUTDOWN_SECONDS` of the end; and
of the whole check: winnings of at least zero against the opponents.

Every match leaves its files in the check folder: ``NAME.log`` (the dealer's log),
``NAME.err`` (its standard error), ``NAME.seatN.err`` (each player's standard error).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pokerbot.bot.kit.build import Kit, changed_files
from pokerbot.bot.matches.stats import mean_and_ci95
from pokerbot.protocol.errors import LogFormatError
from pokerbot.protocol.matchlog import parse_state_line

SHUTDOWN_SECONDS = 10.0
"""How long a player may take to exit after its match (the reference validator's figure)."""
START_SECONDS = 60.0
"""How long the dealer may take to print its ports."""
KIT_NAME = "kit"


@dataclass
class MatchReport:
    """One match of the check: the kit in ``seat`` (1-based) and what went wrong, if anything."""

    name: str
    seat: int
    hands: int = 0
    kit_chips: list[float] = field(default_factory=list)
    """The kit's winnings in every hand, in chips."""
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class CheckReport:
    """Every match of a check, and the problems found before any match was played."""

    matches: list[MatchReport] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def kit_chips(self) -> list[float]:
        return [value for match in self.matches for value in match.kit_chips]

    @property
    def ok(self) -> bool:
        return not self.problems and all(match.ok for match in self.matches)


def pokerbot_command() -> list[str]:
    """How to run this pokerbot from another process."""
    return [sys.executable, "-m", "pokerbot.bot.cli"]


def kit_environment(kit: Kit) -> dict[str, str]:
    """The start script's environment: as this process's, and, where the kit is not installed
    (no ``venv/``) and ``POKERBOT_PYTHON`` is not set, this pokerbot's Python for it."""
    environment = dict(os.environ)
    if not kit.installed and "POKERBOT_PYTHON" not in environment:
        environment["POKERBOT_PYTHON"] = sys.executable
    return environment


def static_problems(kit: Kit) -> list[str]:
    """What the validator checks before playing: README, an executable start script, files."""
    problems = []
    if not (kit.folder / "README").is_file():
        problems.append("no README file")
    script = kit.start_script
    wanted = stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH
    if not script.is_file():
        problems.append("no startme.sh")
    elif script.stat().st_mode & wanted != wanted:
        problems.append(f"startme.sh must have at least 755 permissions (it has {script.stat().st_mode & 0o777:o})")
    problems.extend(f"{name} is missing or changed since the kit was made" for name in changed_files(kit))
    return problems


def _stop(process: subprocess.Popen[bytes], grace: float) -> bool:
    """Wait up to ``grace`` seconds for ``process`` to exit, then kill it; True if it exited."""
    try:
        process.wait(timeout=grace)
        return True
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return False


def play_one(
    kit: Kit,
    seat: int,
    hands: int,
    seed: int,
    folder: Path,
    opponent: str,
    dealer: list[str],
) -> MatchReport:
    """One match with the kit in ``seat`` (0-based); the others play ``opponent``."""
    players = kit.game.num_players
    names = [KIT_NAME if s == seat else f"{opponent.replace(':', '=')}-{s + 1}" for s in range(players)]
    report = MatchReport(f"check.seat{seat + 1}", seat + 1)
    limits = kit.limits
    limit_flags = [
        "--t_response",
        str(int(limits.response_ms)),
        "--t_hand",
        str(int(limits.hand_ms)),
        "--t_per_hand",
        str(int(limits.per_hand_ms)),
    ]
    argv = [*dealer, report.name, str(kit.game_path), str(hands), str(seed), *names, *limit_flags, "-q"]
    started = time.monotonic()
    with open(folder / f"{report.name}.err", "wb") as dealer_err:
        dealer_process = subprocess.Popen(argv, cwd=folder, stdout=subprocess.PIPE, stderr=dealer_err)
        assert dealer_process.stdout is not None
        ports = dealer_process.stdout.readline().decode().split()
        if len(ports) != players:
            dealer_process.kill()
            dealer_process.wait()
            report.problems.append(f"the dealer printed no ports (see {report.name}.err)")
            return report
        seats: list[subprocess.Popen[bytes]] = []
        for index, port in enumerate(ports):
            if index == seat:
                command = [str(kit.start_script.resolve()), "127.0.0.1", port]
            else:
                command = [
                    *pokerbot_command(),
                    "play",
                    "--port",
                    port,
                    "--game",
                    str(kit.game_path.resolve()),
                    "--strategy",
                    opponent,
                    "--seed",
                    str(seed * 10 + index),
                    *limit_flags,
                ]
            with open(folder / f"{report.name}.seat{index + 1}.err", "wb") as seat_err:
                seats.append(
                    subprocess.Popen(
                        command,
                        cwd=folder,
                        stdout=subprocess.DEVNULL,
                        stderr=seat_err,
                        start_new_session=True,
                        env=kit_environment(kit) if index == seat else None,
                    )
                )
        budget = limits.per_hand_ms / 1000 * hands * players + START_SECONDS
        try:
            out, _ = dealer_process.communicate(timeout=budget)
        except subprocess.TimeoutExpired:
            dealer_process.kill()
            out, _ = dealer_process.communicate()
            report.problems.append(f"the match did not end within {budget:.0f} s")
        report.seconds = time.monotonic() - started
        for index, process in enumerate(seats):
            if not _stop(process, SHUTDOWN_SECONDS):
                report.problems.append(f"seat {index + 1} was still running {SHUTDOWN_SECONDS:g} s after the match")
            elif index == seat and process.returncode != 0:
                report.problems.append(
                    f"the kit exited with status {process.returncode} (see {report.name}.seat{seat + 1}.err)"
                )
    if dealer_process.returncode != 0:
        report.problems.append(f"the dealer exited with status {dealer_process.returncode}")
    if not out.decode().startswith("SCORE:"):
        report.problems.append("the dealer printed no SCORE line")
    transcript = (folder / f"{report.name}.err").read_text(encoding="utf-8", errors="replace").splitlines()
    report.problems.extend(f"dealer: {line}" for line in transcript if "WARNING" in line or "ERROR" in line)
    _read_log(kit, folder / f"{report.name}.log", report)
    if report.ok and report.hands != hands:
        report.problems.append(f"{report.hands} {'hand' if report.hands == 1 else 'hands'} logged, {hands} expected")
    return report


def _read_log(kit: Kit, path: Path, report: MatchReport) -> None:
    if not path.is_file():
        report.problems.append(f"no log {path.name}")
        return
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.startswith("STATE"):
            continue
        try:
            hand = parse_state_line(line, kit.game)
        except LogFormatError as error:
            report.problems.append(f"{path.name} line {number}: {error}")
            return
        report.hands += 1
        report.kit_chips.append(hand.values[hand.names.index(KIT_NAME)])


def check_kit(
    kit: Kit,
    folder: Path,
    *,
    hands: int,
    seed: int = 0,
    opponent: str = "random",
    dealer: list[str] | None = None,
    on_match: Callable[[MatchReport], None] | None = None,
) -> CheckReport:
    """Check ``kit``: the static checks, then one match of ``hands`` hands per seat.

    Files go to ``folder`` (created); ``dealer`` is the dealer's command (default
    ``pokerbot dealer``); ``on_match`` gets each match's report as it ends.
    """
    kit = dataclasses.replace(kit, folder=kit.folder.resolve())  # the processes run elsewhere
    folder = folder.resolve()
    report = CheckReport(problems=static_problems(kit))
    if report.problems:
        return report
    folder.mkdir(parents=True, exist_ok=True)
    for seat in range(kit.game.num_players):
        match = play_one(kit, seat, hands, seed + seat, folder, opponent, dealer or [*pokerbot_command(), "dealer"])
        report.matches.append(match)
        if on_match is not None:
            on_match(match)
    chips = report.kit_chips
    if report.ok and chips:
        mean, _ = mean_and_ci95(chips)
        if mean < 0:
            report.problems.append(f"the kit lost against {opponent} ({mean:.2f} chips per hand)")
    return report


__all__ = ["SHUTDOWN_SECONDS", "CheckReport", "MatchReport", "check_kit", "static_problems"]
