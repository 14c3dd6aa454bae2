"""Make the shipped equilibrium policies in ``strategies/solvers/data/``.

Reproduce them with::

    python -m pokerbot.bot.generators.equilibria

which solves, deterministically (no sampling):

=========  =========  ==========  ===============================================
game       algorithm  iterations  exploitability (chips/hand, NashConv / players)
=========  =========  ==========  ===============================================
kuhn       cfr+       20,000      below 1e-5
leduc      dcfr       10,000      below 1e-5 (required: below 0.001)
kuhn3p     dcfr       20,000      below 1e-8
=========  =========  ==========  ===============================================

and writes ``data/<game>.json`` (the exact figures are in each file's ``meta``). Options:
``--out DIR`` writes elsewhere, ``--games kuhn leduc`` picks games. It takes about 10 s.
CFR+ and DCFR are deterministic, so the files are reproduced exactly on the same platform.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from pokerbot.protocol.game import load_game
from pokerbot.strategies.solvers.equilibria import EQUILIBRIUM_GAMES, data_file_name
from pokerbot.strategies.solvers.policy import Policy
from pokerbot.strategies.solvers.solve import solve

RECIPES: dict[str, tuple[str, int]] = {
    "kuhn": ("cfr+", 20_000),
    "leduc": ("dcfr", 10_000),
    "kuhn3p": ("dcfr", 20_000),
}
"""Algorithm and iterations per game."""
DATA_DIR = Path(__file__).resolve().parent / "data"


def make(name: str, out_dir: Path) -> Path:
    """Solve built-in game ``name`` by its recipe and write its policy file; returns the path."""
    algorithm, iterations = RECIPES[name]
    result = solve(load_game(name), algorithm, iterations=iterations, checkpoints=2)
    policy = result.policy
    meta = {key: value for key, value in policy.meta.items() if key not in ("seconds", "seed")}
    meta.update(game=name, made_by="python -m pokerbot.bot.generators.equilibria")
    entries = {key: (policy.actions(key), policy.probabilities(key)) for key in policy}
    path = out_dir / data_file_name(name)
    Policy.from_arrays(policy.game, entries, meta).save(path)
    return path


def main(argv: Sequence[str] | None = None) -> None:
    """Command-line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(description="Make the shipped equilibrium policies.")
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="output directory")
    parser.add_argument("--games", nargs="+", choices=EQUILIBRIUM_GAMES, default=list(EQUILIBRIUM_GAMES))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.games:
        path = make(name, args.out)
        print(f"{name}: wrote {path}")


if __name__ == "__main__":
    main()
