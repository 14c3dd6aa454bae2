"""Re-solving in Leduc, exactly: the whole re-solving player's exploitability beside its blueprint's.

    python benchmarks/resolve_leduc.py [--json OUT.json] [--shipped]

Blueprints are vanilla CFR stopped early (5, 20, 100 iterations: from badly to nearly trained).
The player plays the blueprint in round 1 and re-solves every round-2 decision (continual
re-solving: the first solve from the blueprint's ranges, then the opponent's values as the
gadget's bounds), each solve a fixed number of DCFR iterations; its whole strategy is tabulated
(``strategies/resolve/exact.py``) and its exploitability computed exactly, in chips per hand.
Then the same with the first re-solve bounded instead by the opponent's run-out values (the
gadget from the start, ``start="runout"``), and by its best-response values against the
blueprint's own second round (``start="blueprint"``: safe subgame solving). The last rows
re-solve from the first round on, with uniform ranges at the start and the round's leaves valued
by the run-out of the board card with no more betting.

With ``--shipped``, the budget ``pokerbot match`` seats (30 iterations a solve) instead, with the
warm start from the blueprint's strategy (``warm``: 0, 10 iterations) and the purification of
what is played (``floor``: 0, 0.05, 0.1) on and off, each blueprint and re-solving from the first
round (no blueprint, no warm start).
"""

from __future__ import annotations

import argparse
import json
import time

from pokerbot.protocol.game import load_game
from pokerbot.strategies.resolve.continual import SolveBudget
from pokerbot.strategies.resolve.exact import resolved_policy
from pokerbot.strategies.solvers import exploitability, solve

BLUEPRINT_ITERATIONS = (5, 20, 100)
SOLVE_ITERATIONS = (50, 200, 1000)
SHIPPED_ITERATIONS = 30
WARM = (0, 10)
FLOORS = (0.0, 0.05, 0.1)


def shipped() -> list[dict[str, object]]:
    """Exploitability at the shipped budget, warm start and floor on and off (module docstring)."""
    game = load_game("leduc")
    rows: list[dict[str, object]] = []
    budget = SolveBudget(iterations=SHIPPED_ITERATIONS)
    print(f"{'blueprint':>14} {'blueprint expl':>15} {'warm':>5} {'floor':>6} {'re-solved expl':>15}")
    for count in (*BLUEPRINT_ITERATIONS, None):
        blueprint = None if count is None else solve(game, "cfr", iterations=count, checkpoints=1).policy
        before = None if blueprint is None else exploitability(game, blueprint)
        for warm in WARM if blueprint is not None else (0,):
            for floor in FLOORS:
                policy = resolved_policy(
                    game, budget, first_round=0 if blueprint is None else 1, trunk=blueprint, warm=warm, floor=floor
                )
                after = exploitability(game, policy)
                name = "(none)" if count is None else f"cfr {count}"
                rows.append(
                    {
                        "blueprint": None if count is None else f"cfr {count}",
                        "blueprint_exploitability": before,
                        "solve_iterations": SHIPPED_ITERATIONS,
                        "warm": warm,
                        "floor": floor,
                        "exploitability": after,
                    }
                )
                shown = "" if before is None else f"{before:.5f}"
                print(f"{name:>14} {shown:>15} {warm:5d} {floor:6.2f} {after:15.5f}", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the rows here")
    parser.add_argument("--shipped", action="store_true", help="the shipped budget, warm start and floor instead")
    args = parser.parse_args()
    if args.shipped:
        shipped_rows = shipped()
        if args.json:
            with open(args.json, "w") as file:
                json.dump({"game": "leduc", "rows": shipped_rows}, file, indent=1)
        return
    game = load_game("leduc")
    rows = []
    print(f"{'blueprint':>14} {'blueprint expl':>15} {'solve iters':>11} {'re-solved expl':>15} {'seconds':>8}")
    for count in BLUEPRINT_ITERATIONS:
        blueprint = solve(game, "cfr", iterations=count, checkpoints=1).policy
        before = exploitability(game, blueprint)
        for iterations in SOLVE_ITERATIONS:
            started = time.process_time()
            policy = resolved_policy(game, SolveBudget(iterations=iterations), first_round=1, trunk=blueprint)
            after = exploitability(game, policy)
            seconds = time.process_time() - started
            rows.append(
                {
                    "blueprint": f"cfr {count}",
                    "blueprint_exploitability": before,
                    "solve_iterations": iterations,
                    "first_round": 1,
                    "exploitability": after,
                }
            )
            print(f"{'cfr ' + str(count):>14} {before:15.5f} {iterations:11d} {after:15.5f} {seconds:8.1f}")
    for start in ("runout", "blueprint"):  # the first re-solve bounded by the opponent's values instead
        for count in BLUEPRINT_ITERATIONS:
            blueprint = solve(game, "cfr", iterations=count, checkpoints=1).policy
            before = exploitability(game, blueprint)
            policy = resolved_policy(game, SolveBudget(iterations=200), first_round=1, trunk=blueprint, start=start)
            after = exploitability(game, policy)
            rows.append(
                {
                    "blueprint": f"cfr {count}",
                    "blueprint_exploitability": before,
                    "solve_iterations": 200,
                    "first_round": 1,
                    "start": start,
                    "exploitability": after,
                }
            )
            print(f"{'cfr ' + str(count):>14} {before:15.5f} {200:11d} {after:15.5f}   ({start} start)")
    for iterations in SOLVE_ITERATIONS:
        started = time.process_time()
        policy = resolved_policy(game, SolveBudget(iterations=iterations), first_round=0)
        after = exploitability(game, policy)
        seconds = time.process_time() - started
        rows.append(
            {
                "blueprint": None,
                "blueprint_exploitability": None,
                "solve_iterations": iterations,
                "first_round": 0,
                "exploitability": after,
            }
        )
        print(f"{'(none)':>14} {'':>15} {iterations:11d} {after:15.5f} {seconds:8.1f}")
    if args.json:
        with open(args.json, "w") as file:
            json.dump({"game": "leduc", "rows": rows}, file, indent=1)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
