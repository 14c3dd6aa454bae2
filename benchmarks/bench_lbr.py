"""Local best response: the default hold'em agent's exploitability (a regression figure) and LBR's speed.

``python benchmarks/bench_lbr.py`` plays LBR against the game's strongest strategy (the
default agent, ``miximax`` in heads-up hold'em) and prints its winnings in mbb/hand with the
95% interval: the figure later work should push down. ``--strategy random --hands 10000``
gives the speed figure of ``docs/performance.md``. Every core is used (``--workers``); the
load average is printed with the figures (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import time

from pokerbot.bot.lbr_match import RegistryStrategy, run_lbr
from pokerbot.protocol.game import load_game
from pokerbot.strategies.exploit.lbr import LbrSettings
from pokerbot.strategies.registry import default_strategy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="holdem-nolimit-2p")
    parser.add_argument("--strategy", default=None, help="default: the game's strongest (miximax in hold'em)")
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--betting", default=None)
    args = parser.parse_args()
    game = load_game(args.game)
    strategy = args.strategy or default_strategy(game)
    settings = LbrSettings(betting=args.betting)
    before = os.getloadavg()
    start = time.monotonic()
    result = run_lbr(
        game,
        RegistryStrategy(strategy),
        args.hands,
        args.seed,
        settings=settings,
        workers=args.workers,
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
