"""Protocol-layer throughput: MATCHSTATE parses, legal-action queries, 7-card rankings.

Run: python benchmarks/bench_protocol.py [--repeats 5]
Prints the median of the repeats for each figure. Inputs are the reference dealer's
transcripts in tests/fixtures/acpc (every TO line of every game, in order).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from pokerbot.protocol.analysis.ranking import rank_generic, rank_standard
from pokerbot.protocol.game import parse_game
from pokerbot.protocol.wire import parse_match_state

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "acpc"


def load_lines() -> list[tuple[object, str]]:
    """Every TO line of every reference transcript with its game."""
    pairs = []
    for folder in sorted(FIXTURES.iterdir()):
        game = parse_game((folder / "game.txt").read_text())
        for line in (folder / "transcript.txt").read_text().splitlines():
            parts = line.split(" ", 4)
            if parts[0] == "TO":
                pairs.append((game, parts[4]))
    return pairs


def rate(function, count: int, repeats: int) -> float:
    """Median operations per second of ``function()`` doing ``count`` operations."""
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    pairs = load_lines()
    states = [parse_match_state(line, game).state for game, line in pairs]
    live = [s for s in states if not s.finished]

    def parse_all() -> None:
        for game, line in pairs:
            parse_match_state(line, game)

    def query_all() -> None:
        for state in live:
            state.legal_actions()

    rng = random.Random(7)
    hands = [rng.sample(range(52), 7) for _ in range(200_000)]

    def rank_fast() -> None:
        for hand in hands:
            rank_standard(hand)

    small = hands[:20_000]

    def rank_slow() -> None:
        for hand in small:
            rank_generic(hand)

    print(f"{'figure':<44}{'per second (median of ' + str(args.repeats) + ')':>30}")
    print(f"{'MATCHSTATE lines parsed (all 7 games)':<44}{rate(parse_all, len(pairs), args.repeats):>30,.0f}")
    print(f"{'legal-action queries':<44}{rate(query_all, len(live), args.repeats):>30,.0f}")
    print(f"{'7-card rankings, fast path (eval7)':<44}{rate(rank_fast, len(hands), args.repeats):>30,.0f}")
    print(f"{'7-card rankings, generic ranker':<44}{rate(rank_slow, len(small), args.repeats):>30,.0f}")


if __name__ == "__main__":
    main()
