"""Pool LBR runs of one cell on different seeds into one figure.

``python benchmarks/research/lbr_pool.py A.json B.json [--json OUT]``: the JSONs of ``pokerbot
exploitability GAME STRATEGY --method lbr --seed S --json A.json`` runs (same game,
strategy, LBR settings and match length; different seeds) become one figure over all their
deals, as one run of all of them would report it (:func:`pokerbot.bot.lbr.matches.pool_lbr`).
Used where a cell's 95% interval is wider than a quarter of its figure: the no-limit cells of
``docs/results.md`` pooled over seeds 1 and 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pokerbot.bot.lbr.matches import LbrResult, pool_lbr
from pokerbot.protocol.game import load_game
from pokerbot.strategies.exploit.lbr import LbrError


def load_result(path: Path) -> LbrResult:
    """An LBR result from the JSON ``pokerbot exploitability --method lbr --json`` wrote."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return LbrResult(**data)
    except (OSError, ValueError, TypeError) as error:
        raise LbrError(f"{path}: not an LBR result: {error}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, nargs="+", help="LBR JSON files of one cell, different seeds")
    parser.add_argument("--json", type=Path, help="write the pooled result here")
    args = parser.parse_args(argv)
    try:
        results = [load_result(path) for path in args.results]
        pooled = pool_lbr(results, load_game(results[0].game))
    except (LbrError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for path, result in zip(args.results, results):
        figure = f"{result.mbb_per_hand:+,.0f} +- {result.mbb_per_hand_ci95:,.0f}"
        print(f"{path}: seed {result.seed}, {result.hands:,} hands: {figure}")
    if len({result.match_hands for result in results}) > 1:
        print("note: the runs' matches differ in length (fine for a strategy that does not learn)")
    print(
        f"pooled {pooled.strategy} ({pooled.game}), seeds {pooled.pooled_seeds}, {pooled.hands:,} hands: "
        f"LBR wins {pooled.mbb_per_hand:+,.0f} +- {pooled.mbb_per_hand_ci95:,.0f} mbb/hand (95%)"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(pooled.to_dict(), indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
