"""Local best response: the default hold'em agent's exploitability (a regression figure) and LBR's speed.

``python benchmarks/bench_lbr.py`` plays LBR against the game's strongest strategy (the
default agent: ``adaptive`` in heads-up hold'em) and prints its winnings in mbb/hand with the
95% interval: the figure later work should push down. ``--strategy random --hands 10000``
gives the speed figure of ``docs/performance.md``. Every core is used (``--jobs``: a local Ray, one task per match); the
load average is printed with the figures (the machine is shared).

``--kernels`` instead times the equity arithmetic (:mod:`pokerbot.protocol.analysis.equity`), medians
of ``--repeats`` runs, beside eval7's range Monte Carlo at 2,000 draws on the same boards.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

import eval7
import numpy as np

from pokerbot.bot.lbr.matches import RegistryStrategy, lbr_matches, run_lbr
from pokerbot.bot.matches.executor import make_executor
from pokerbot.protocol.analysis.equity import equity_vs_random_all, equity_vs_ranges
from pokerbot.protocol.analysis.eval7_cards import eval7_cards
from pokerbot.protocol.analysis.holdings import HOLDINGS, NUM_HOLDINGS
from pokerbot.protocol.game import load_game
from pokerbot.strategies.exploit.lbr import LbrSettings
from pokerbot.strategies.registry import default_strategy

EVAL7 = eval7_cards()


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    run()  # compiled or loaded before timing
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def kernels(repeats: int) -> None:
    """Median seconds of each equity question, beside eval7's Monte Carlo."""
    rng = random.Random(1)
    cards = rng.sample(range(52), 7)
    hero, board = cards[:2], cards[2:]
    weights = np.random.default_rng(1).random(NUM_HOLDINGS)
    pairs = [((EVAL7[a], EVAL7[b]), float(weights[h])) for h, (a, b) in enumerate(HOLDINGS)]
    hand = [EVAL7[c] for c in hero]
    for name, known in (("pre-flop", 0), ("flop", 3), ("turn", 4), ("river", 5)):
        shown = board[:known]
        ours = median_seconds(lambda s=shown: equity_vs_ranges(hero, s, weights), repeats)
        live = [(pair, w) for pair, w in pairs if not {*pair} & {EVAL7[c] for c in hero + shown}]
        theirs = median_seconds(
            lambda s=shown, r=live: eval7.py_hand_vs_range_monte_carlo(hand, r, [EVAL7[c] for c in s], 2000), repeats
        )
        line = f"{name}: equity against a weighted range {ours * 1000:.1f} ms"
        line += f" (eval7 Monte Carlo, 2,000 draws: {theirs * 1000:.1f} ms)"
        if known:
            everyone = median_seconds(lambda s=shown: equity_vs_random_all(s, kept=False), repeats)
            line += f"; every holding against a random hand {everyone * 1000:.1f} ms"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="holdem-nolimit-2p")
    parser.add_argument("--strategy", default=None, help="default: the game's strongest (adaptive in hold'em)")
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--jobs", "--workers", type=int, default=None, help="default: one per core (at most one per match)"
    )
    parser.add_argument("--betting", default=None)
    parser.add_argument("--kernels", action="store_true", help="time the equity arithmetic instead")
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    if args.kernels:
        kernels(args.repeats)
        return
    game = load_game(args.game)
    strategy = args.strategy or default_strategy(game)
    settings = LbrSettings(betting=args.betting)
    before = os.getloadavg()
    start = time.monotonic()
    jobs = args.jobs or max(1, min(os.cpu_count() or 1, lbr_matches(args.hands, None)))
    with make_executor(jobs) as executor:
        result = run_lbr(
            game,
            RegistryStrategy(strategy),
            args.hands,
            args.seed,
            settings=settings,
            executor=executor,
            game_name=args.game,
            strategy_name=strategy,
        )
    wall = time.monotonic() - start
    after = os.getloadavg()
    print(f"LBR against {strategy} in {args.game}: {result.hands} hands ({result.deals} deals), seed {args.seed}")
    print(f"LBR wins {result.mbb_per_hand:+,.0f} +- {result.mbb_per_hand_ci95:,.0f} mbb/hand (95% interval)")
    print(
        f"{wall:.1f} s wall, {result.hands / wall:.2f} hands/s, {result.queries_per_hand:.1f} questions/hand, "
        f"load average {before[0]:.1f} before, {after[0]:.1f} after"
    )


if __name__ == "__main__":
    main()
