"""In-process match throughput, in hands per second: always-call against always-call.

Run: python benchmarks/bench_inprocess.py [--hands 20000] [--repeats 3] [--log]
Prints, for no-limit hold'em and Leduc, the median rate of the repeats, without and (with
``--log``) with the ACPC log written to a temporary file. Seed 1; seats rotate.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.protocol.game import load_game
from pokerbot.strategies.registry import default_registry

GAMES = ("holdem-nolimit-2p", "leduc")


def hands_per_second(game_name: str, hands: int, repeats: int, log_path: Path | None) -> float:
    """Median hands/s of ``repeats`` in-process matches of ``hands`` hands."""
    game = load_game(game_name)
    registry = default_registry()
    rates = []
    for _ in range(repeats):
        players = [registry.create("always-call", game, seat) for seat in range(2)]
        start = time.perf_counter()
        run_inprocess_match(game, hands, 1, players, ["a", "b"], log_path=log_path)
        rates.append(hands / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    """Parse the arguments, run the matches, print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=20_000, help="hands per match (default 20000)")
    parser.add_argument("--repeats", type=int, default=3, help="matches per figure; the median is shown")
    parser.add_argument("--log", action="store_true", help="also measure with the log file written")
    args = parser.parse_args()

    table = Table(title=f"in-process always-call vs always-call, {args.hands} hands, median of {args.repeats}")
    table.add_column("game")
    table.add_column("hands/s", justify="right")
    if args.log:
        table.add_column("hands/s with log", justify="right")
    with tempfile.TemporaryDirectory() as folder:
        for game_name in GAMES:
            row = [game_name, f"{hands_per_second(game_name, args.hands, args.repeats, None):,.0f}"]
            if args.log:
                logged = hands_per_second(game_name, args.hands, args.repeats, Path(folder) / "bench.log")
                row.append(f"{logged:,.0f}")
            table.add_row(*row)
    Console().print(table)


if __name__ == "__main__":
    main()
