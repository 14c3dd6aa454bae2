"""Re-solving: decision time per street, and a full-range river to 0.5 % of the pot.

    python benchmarks/bench_resolve.py [--game holdem-nolimit-2p] [--strategy resolve]
        [--opponent random] [--hands 40] [--seed 1] [--json OUT.json]

**Decisions**: ``--strategy`` (default ``resolve``: one second a decision) plays ``--hands``
in-process hands against ``--opponent`` (seats alternating); every decision of the re-solving
player is timed (wall clock, seconds) with the time it was given (a 10 s deadline: its own
budget decides) and grouped by street. Reported per street and over every searched decision:
count, median, p90, p99 and max.

**River**: full-range river subgames (both ranges uniform) on fixed boards, solved in chunks
of 10 DCFR iterations until the exploitability is at most 0.5 % of the pot: the iterations and
the seconds it took (exploitability checks excluded).

The machine's load (``os.getloadavg``) is printed before and after: figures depend on it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

import numpy as np

from pokerbot.protocol.actions import CALL, Action
from pokerbot.protocol.analysis.matchups import holding_space
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.registry import default_registry
from pokerbot.strategies.resolve.cfr import SubgameSolver
from pokerbot.strategies.resolve.tree import build_subgame

STREETS = ("pre-flop", "flop", "turn", "river")


def _quantiles(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return {
        "decisions": len(ordered),
        "median": statistics.median(ordered),
        "p90": at(0.90),
        "p99": at(0.99),
        "max": ordered[-1],
    }


def decisions(game_name: str, strategy: str, opponent: str, hands: int, seed: int) -> dict[str, dict[str, float]]:
    game = load_game(game_name)
    registry = default_registry()
    player = registry.create(strategy, game, seed)
    other = registry.create(opponent, game, seed + 1)
    player.prepare()
    rng = random.Random(seed)
    by_street: dict[str, list[float]] = {street: [] for street in STREETS}
    for hand in range(hands):
        deck = list(game.deck)
        rng.shuffle(deck)
        state = HandState(game, hole_cards=[tuple(deck[0:2]), tuple(deck[2:4])], board_cards=tuple(deck[4:9]))
        seat = hand % 2
        while not state.finished:
            position = state.current_player
            assert position is not None
            view = MatchState(position, hand, state.view(position))
            if position == seat:
                started = time.perf_counter()
                action = player.decide(view, time.monotonic() + 10.0)
                by_street[STREETS[state.round]].append(time.perf_counter() - started)
            else:
                action = other.decide(view, time.monotonic() + 10.0)
            state.apply(action)
        for position, who in ((seat, player), (1 - seat, other)):
            who.observe(MatchState(position, hand, state.view(position)))
    report = {street: _quantiles(times) for street, times in by_street.items() if times}
    searched = [t for street in STREETS[1:] for t in by_street[street]]
    if searched:
        report["after the flop"] = _quantiles(searched)
    return report


RIVERS = {
    "limped pot": ("AsKd7h2c9s", [CALL] * 6),
    "bet pot": (
        "QsTd7h4c2s",
        [Action.raise_to(300), CALL, CALL, Action.raise_to(600), CALL, CALL, Action.raise_to(1500), CALL],
    ),
}


def rivers(target: float = 0.005) -> dict[str, dict[str, float]]:
    game = load_game("holdem-nolimit-2p")
    space = holding_space(game)
    report = {}
    for name, (board, actions) in RIVERS.items():
        state = HandState(game, board_cards=tuple(cards_from_string(board)))
        for action in actions:
            state.apply(action)
        tree = build_subgame(state)
        solver = SubgameSolver(tree, space, tuple(state.visible_board()), np.ones((2, space.size)))
        solver.iterate(1)  # compiled before the clock starts
        solver = SubgameSolver(tree, space, tuple(state.visible_board()), np.ones((2, space.size)))
        seconds = 0.0
        exploitability = float("inf")
        while exploitability > target * state.pot and solver.iterations < 5000:
            started = time.perf_counter()
            solver.iterate(10)
            seconds += time.perf_counter() - started
            exploitability = solver.exploitability()
        report[name] = {
            "pot": state.pot,
            "iterations": solver.iterations,
            "seconds": seconds,
            "exploitability_pot_fraction": exploitability / state.pot,
        }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="holdem-nolimit-2p")
    parser.add_argument("--strategy", default="resolve")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json")
    args = parser.parse_args()
    load_before = os.getloadavg()
    print(f"load before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}")
    river = rivers()
    for name, row in river.items():
        print(
            f"river, {name} (pot {row['pot']}): {row['iterations']} iterations, {row['seconds']:.2f} s "
            f"to {100 * row['exploitability_pot_fraction']:.2f} % of the pot"
        )
    report = decisions(args.game, args.strategy, args.opponent, args.hands, args.seed)
    print(f"{args.strategy} against {args.opponent}, {args.hands} hands: seconds per decision")
    for street, row in report.items():
        print(
            f"  {street:<15} {row['decisions']:5d}  median {row['median']:.3f}  p90 {row['p90']:.3f}  "
            f"p99 {row['p99']:.3f}  max {row['max']:.3f}"
        )
    load_after = os.getloadavg()
    print(f"load after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    if args.json:
        with open(args.json, "w") as file:
            json.dump(
                {"args": vars(args), "load": [load_before, load_after], "river": river, "decisions": report},
                file,
                indent=1,
            )
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
