"""Leaves in Leduc, exactly: the re-solving player's exploitability with each kind of leaf value.

    python benchmarks/resolve_leduc_leaves.py [--iterations 30] [--json OUT.json]

The player re-solves every decision from the first one (continual re-solving, both ranges
uniform at the start), each solve ``--iterations`` DCFR iterations; a first-round solve stops
where the round ends, at leaves. Its whole strategy is tabulated (``strategies/resolve/exact.py``)
and its exploitability computed exactly, in chips per hand, with the leaves valued:

* ``run-out``: as if nobody bet again (the default);
* ``blueprint``: by the blueprint's own continuation, both players playing it on (one value);
* ``multi-valued``: the opponent choosing, holding by holding, among the blueprint's
  continuation and three biased toward folding, calling and raising (x5), we playing the
  blueprint on (``strategies/resolve/leaves.py``; Brown, Sandholm and Amos 2018).

The blueprints are CFR stopped at 20 and 100 iterations, and CFR+ at 2,000 iterations, near the
game's equilibrium (the exact game's values). With the continuations, the second round's first
re-solve is bounded by the opponent's values from the leaf for the card that came: its
run-out values (``runout``), its blueprint continuation's (``blueprint``) or the best of its
continuations' (``best``).
"""

from __future__ import annotations

import argparse
import json
import time

from pokerbot.protocol.analysis.matchups import holding_space
from pokerbot.protocol.game import load_game
from pokerbot.strategies.resolve.continual import SolveBudget
from pokerbot.strategies.resolve.exact import policy_table, resolved_policy
from pokerbot.strategies.resolve.leaves import BlueprintLeaves
from pokerbot.strategies.solvers import exploitability, solve

BLUEPRINTS = (("cfr", 20), ("cfr", 100), ("cfr+", 2000))
KINDS = (("blueprint", ()), ("multi-valued", None))
ROUND_STARTS = ("runout", "blueprint", "best")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=30, help="DCFR iterations a solve")
    parser.add_argument("--json", help="write the rows here")
    args = parser.parse_args()
    game = load_game("leduc")
    space = holding_space(game)
    budget = SolveBudget(iterations=args.iterations)
    rows = []
    started = time.process_time()
    plain = exploitability(game, resolved_policy(game, budget, first_round=0))
    rows.append({"blueprint": None, "leaves": "run-out", "round_start": "runout", "exploitability": plain})
    print(f"{args.iterations} iterations a solve; run-out leaves: {plain:.5f} ({time.process_time() - started:.1f} s)")
    print(f"{'blueprint':>14} {'its expl':>9} {'leaves':>13} " + " ".join(f"{s:>10}" for s in ROUND_STARTS))
    for algorithm, count in BLUEPRINTS:
        blueprint = solve(game, algorithm, iterations=count, checkpoints=1).policy
        before = exploitability(game, blueprint)
        name = f"{algorithm} {count}"
        for kind, biases in KINDS:
            cells = []
            for start in ROUND_STARTS:
                options = {} if biases is None else {"biases": biases}
                leaves = BlueprintLeaves(game, space, policy_table(blueprint, space), round_start=start, **options)
                policy = resolved_policy(game, budget, first_round=0, trunk=blueprint, leaves=leaves)
                value = exploitability(game, policy)
                cells.append(value)
                rows.append(
                    {
                        "blueprint": name,
                        "blueprint_exploitability": before,
                        "leaves": kind,
                        "round_start": start,
                        "exploitability": value,
                    }
                )
            print(f"{name:>14} {before:9.5f} {kind:>13} " + " ".join(f"{v:10.5f}" for v in cells), flush=True)
    print(f"{time.process_time() - started:.0f} s of CPU")
    if args.json:
        with open(args.json, "w") as file:
            json.dump({"game": "leduc", "iterations": args.iterations, "rows": rows}, file, indent=1)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
