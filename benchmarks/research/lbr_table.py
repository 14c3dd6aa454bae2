"""The LBR tables of ``docs/results.md``: every hold'em strategy in both games.

``python benchmarks/research/lbr_table.py --out lbr-table`` plays local best response against each
cell (strategy, game) of :data:`CELLS` for ``--hands`` hands (``--hands-search`` for the
search-based ``miximax`` players), one cell at a time, and writes each result as
``OUT/GAME-STRATEGY.json`` (the JSON of ``pokerbot exploitability --json``). A cell whose file
exists is not played again, and a cell in progress keeps its checkpoint in
``OUT/GAME-STRATEGY.checkpoint/`` (``--checkpoint``), so an interrupted run resumes where it
stopped, within a cell too; ``--only`` picks cells by strategy name. It then prints the table
(mbb/hand with the 95% interval) in markdown. Every cell is the same as ``pokerbot
exploitability GAME STRATEGY --method lbr --hands N --seed S --checkpoint DIR``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from pokerbot.bot.lbr.checkpoint import LbrCheckpoint
from pokerbot.bot.lbr.matches import RegistryStrategy, run_lbr
from pokerbot.bot.matches.executor import make_executor
from pokerbot.protocol.game import load_game
from pokerbot.strategies.exploit.lbr import LbrSettings

GAMES = ("holdem-nolimit-2p", "holdem-limit-2p")
BASELINES = ("always-call", "always-raise", "random", "push-fold", "tight-aggressive")
SEARCHES = ("miximax", "miximax-static")
ABSTRACT = ("mccfr10", "mccfr100", "mcts10", "mcrnr10")
"""The shipped limit policies (``blueprint`` plays ``mccfr10``: the same cell)."""
CELLS: tuple[tuple[str, str], ...] = (
    *((game, name) for name in BASELINES for game in GAMES),
    *((game, name) for name in SEARCHES for game in GAMES),
    *(("holdem-limit-2p", name) for name in ABSTRACT),
)
"""(game, strategy) of every cell, in the order they are played (cheapest kinds first)."""


def cell_file(out: Path, game: str, strategy: str) -> Path:
    return out / f"{game}-{strategy.replace(':', '_')}.json"


def markdown(out: Path) -> str:
    """The table of every cell played so far."""
    lines = [
        "| strategy | game | hands | LBR wins, mbb/hand (95%) | hands/s | load at the end |",
        "|---|---|---|---|---|---|",
    ]
    for game, strategy in CELLS:
        path = cell_file(out, game, strategy)
        if not path.exists():
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        kind = "no-limit" if "nolimit" in game else "limit"
        load = data.get("load", float("nan"))
        lines.append(
            f"| `{strategy}` | {kind} | {data['hands']:,} | {data['mbb_per_hand']:+,.0f} +- "
            f"{data['mbb_per_hand_ci95']:,.0f} | {data['hands_per_second']:.2f} | {load:.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("lbr-table"))
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--hands-search", type=int, default=3000, help="hands against the miximax players")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--jobs",
        "--workers",
        type=int,
        default=1,
        help="tasks per cell (default 1: the machine is shared; more: a local Ray)",
    )
    parser.add_argument("--only", nargs="*", default=None, help="strategy names to play (default: every cell)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for game_name, strategy in CELLS:
        path = cell_file(args.out, game_name, strategy)
        if path.exists() or (args.only and strategy not in args.only):
            continue
        hands = args.hands_search if strategy in SEARCHES else args.hands
        start = time.monotonic()
        with make_executor(args.jobs) as executor:
            result = run_lbr(
                load_game(game_name),
                RegistryStrategy(strategy),
                hands,
                args.seed,
                settings=LbrSettings(),
                executor=executor,
                game_name=game_name,
                strategy_name=strategy,
                checkpoint=LbrCheckpoint(str(path.with_suffix(".checkpoint"))),
            )
        data = result.to_dict() | {"load": os.getloadavg()[0]}
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(
            f"{strategy} in {game_name}: {result.mbb_per_hand:+,.0f} +- {result.mbb_per_hand_ci95:,.0f} mbb/hand, "
            f"{hands} hands, {time.monotonic() - start:.0f} s",
            flush=True,
        )
    print(markdown(args.out))


if __name__ == "__main__":
    main()
