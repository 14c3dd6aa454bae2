"""Self-play throughput over TCP loopback, in hands per second.

The dealer (:func:`pokerbot.bot.dealer.server.serve_match`) runs in this process; two ``pokerbot play``
clients playing ``always-call`` run in separate processes. The rate counts the hands
between the first and the last hand's log line, so process start-up is left out.

    python benchmarks/bench_selfplay_tcp.py --hands 2000
    python benchmarks/bench_selfplay_tcp.py --hands 500 --games leduc --strategy random
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pokerbot.bot.dealer.server import DealerConfig, serve_match
from pokerbot.protocol.game import load_game

DEFAULT_GAMES = ("holdem-nolimit-2p", "leduc")


def _play_command() -> list[str]:
    """How to start ``pokerbot play``: the console script next to this Python, or -m."""
    script = Path(sys.executable).with_name("pokerbot")
    if script.exists():
        return [str(script)]
    found = shutil.which("pokerbot")
    return [found] if found else [sys.executable, "-c", "from pokerbot.bot.cli import main; main()"]


async def measure(game_name: str, hands: int, strategy: str, seed: int, quiet: bool) -> tuple[float, float]:
    """Play one match; returns (hands per second after the first hand, total seconds)."""
    game = load_game(game_name)
    times: list[float] = []
    loop = asyncio.get_running_loop()
    ports_ready: asyncio.Future[list[int]] = loop.create_future()
    with tempfile.TemporaryDirectory() as folder:
        config = DealerConfig(
            match_name="bench",
            game=game,
            hands=hands,
            seed=seed,
            names=["p1", "p2"],
            quiet=quiet,
            output_dir=Path(folder),
            start_timeout_ms=60_000,
        )
        started = time.perf_counter()
        dealer = asyncio.create_task(
            serve_match(config, on_ports=ports_ready.set_result, on_hand=lambda _: times.append(time.perf_counter()))
        )
        ports = await ports_ready
        clients = [
            subprocess.Popen(
                [
                    *_play_command(),
                    "play",
                    "--port",
                    str(port),
                    "--game",
                    game_name,
                    "--strategy",
                    strategy,
                    "--seed",
                    str(seat),
                    "--log-format",
                    "json",
                ],
                stdout=subprocess.DEVNULL,
            )
            for seat, port in enumerate(ports)
        ]
        result = await dealer
        total = time.perf_counter() - started
        for client in clients:
            client.wait(timeout=30)
    if result.error is not None:
        raise RuntimeError(f"the match failed: {result.error}")
    if len(times) < 2:
        return float("nan"), total
    return (len(times) - 1) / (times[-1] - times[0]), total


def main() -> None:
    """Measure every requested game and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per game (default 2000)")
    parser.add_argument("--games", nargs="+", default=list(DEFAULT_GAMES), help="built-in game names")
    parser.add_argument("--strategy", default="always-call", help="both clients' strategy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--transcript", action="store_true", help="print the TO/FROM transcript (slower)")
    args = parser.parse_args()
    rows = []
    for game in args.games:
        rate, total = asyncio.run(measure(game, args.hands, args.strategy, args.seed, not args.transcript))
        rows.append((game, args.hands, rate, total))
    print(f"{'game':<20} {'hands':>7} {'hands/s':>9} {'wall s':>8}")
    for game, hands, rate, total in rows:
        print(f"{game:<20} {hands:>7} {rate:>9.0f} {total:>8.2f}")


if __name__ == "__main__":
    main()
