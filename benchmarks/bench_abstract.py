"""Speed of the card abstraction and the abstract-game solvers (issue 16).

    python benchmarks/bench_abstract.py --tables runs/ehs-holdem-10000-0.npz --repeats 3

Figures (medians of ``--repeats``): effective hand strength of one hand on the flop, turn and
river (the player's bucket lookup), of every hand on one board (the tables' build), and
iterations per second of each solver on heads-up limit hold'em with 10 equal-width and 100
percentile buckets, card bucketing (sampling a deal from the tables) included. JIT
compilation is excluded (one warm-up call first).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from pokerbot.protocol.analysis.ehs import board_ehs, hand_ehs
from pokerbot.protocol.game import load_game
from pokerbot.strategies.abstract.game import AbstractGame
from pokerbot.strategies.abstract.solver import AbstractSolver
from pokerbot.strategies.card_abstraction.tables import EhsTables


def _median_seconds(run, repeats: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=Path, required=True, help="EHS tables (solve ... --deals builds them)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=2_000_000)
    args = parser.parse_args()
    rng = random.Random(1)
    for size, name in ((3, "flop"), (4, "turn"), (5, "river")):
        cards = [rng.sample(range(52), size + 2) for _ in range(20)]
        hand_ehs(cards[0][:2], cards[0][2:])
        board_ehs(cards[0][2:])
        one = _median_seconds(lambda cs=cards: [hand_ehs(c[:2], c[2:]) for c in cs], args.repeats) / len(cards)
        every = _median_seconds(lambda cs=cards: [board_ehs(c[2:]) for c in cs[:5]], args.repeats) / 5
        print(f"EHS {name}: one hand {one * 1e3:.2f} ms, every hand of a board {every * 1e3:.1f} ms")
    source = EhsTables.load(args.tables)
    game = load_game("holdem-limit-2p")
    for buckets, kind in ((10, "width"), (100, "percentile")):
        abstract = AbstractGame.ehs(game, buckets, kind, source)
        for algorithm in ("os-mccfr", "mcts", "es-mccfr"):
            count = args.iterations if algorithm != "es-mccfr" else args.iterations // 50
            solver = AbstractSolver(abstract, algorithm, seed=1)
            solver.step(1000)
            seconds = _median_seconds(lambda s=solver, n=count: s.step(n), args.repeats)
            print(f"{algorithm} {buckets} buckets ({kind}): {count / seconds:,.0f} iterations/s")


if __name__ == "__main__":
    main()
