"""Re-solving: decision time per street, and a full-range river to 0.5 % of the pot.

    python benchmarks/bench_resolve.py [--game holdem-nolimit-2p] [--strategy resolve]
        [--opponent random] [--hands 40] [--seed 1] [--json OUT.json]
    python benchmarks/bench_resolve.py --convergence

**Decisions**: ``--strategy`` (default ``resolve``: one second a decision) plays ``--hands``
in-process hands against ``--opponent`` (seats alternating); every decision of the re-solving
player is timed (wall clock, seconds) with the time it was given (a 10 s deadline: its own
budget decides) and grouped by street. Reported per street and over every searched decision:
count, median, p90, p99 and max; and the median iterations a searched decision's solve ran
(what the clock budget reaches on this machine: the iteration budget that replays it).

**River**: full-range river subgames (both ranges uniform) on fixed boards, solved in chunks
of 10 DCFR iterations until the exploitability is at most 0.5 % of the pot: the iterations and
the seconds it took (exploitability checks excluded).

**Convergence** (``--convergence``): full-range subgames (both ranges uniform), the two rivers
above and two turns (a raised pot, the flop checked; leaves valued by their run-out), and the
exploitability in percent of the pot after 30, 100, 150, 300 and 600 iterations; then the two
turns re-solved as a new round starts (our range uniform, the opponent's gadget bounded by its
run-out values, as :mod:`pokerbot.strategies.resolve.continual` does): how far the opponent's
best response exceeds those bounds, on average over its holdings and at the most, in percent
of the pot (0 where the bounds can be met). With ``--leaves multi-valued`` the gadget rows use
multi-valued leaves instead (``strategies/resolve/leaves.py``: the opponent chooses among the
blueprint's continuation and three biased ones over the river, we play the blueprint), and the
bounds are the opponent's values when both play the blueprint on from the turn's start (the
values a multi-valued leaf of the flop gives it for this turn card); it also prints the
seconds the leaves' values took.

**CPU per hand** (``--cpu``): ``--strategy`` (e.g. ``resolve-exploit:30iterations``, an
iteration budget: the same play on any machine) plays ``--hands`` in-process hands against
``--opponent`` from ``--seed``, in a fresh process each run, ``--repeats`` runs; with
``--compare OTHER_CHECKOUT`` that checkout's code plays the same match in runs alternating with
this one's. Reported (medians over the runs): the process CPU seconds of the player's decisions
and hand ends per hand, and per street; the loading of the compiled code (``prepare``) apart;
and a digest of the actions played (equal digests: the same play).

    python benchmarks/bench_resolve.py --cpu --strategy resolve-exploit:30iterations
        --opponent calling-station --hands 40 --seed 3 --repeats 3 [--compare OTHER_CHECKOUT]

The machine's load (``os.getloadavg``) is printed before and after: figures depend on it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from pokerbot.protocol.actions import CALL, Action
from pokerbot.protocol.analysis.matchups import holding_space
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.registry import default_registry
from pokerbot.strategies.resolve.cfr import SubgameSolver
from pokerbot.strategies.resolve.leaves import BlueprintLeaves, PolicyRangeTable
from pokerbot.strategies.resolve.tree import build_subgame

STREETS = ("pre-flop", "flop", "turn", "river")


def _iterations(player: Strategy) -> int | None:
    """Iterations of the player's last re-solved decision (None: not a re-solving player)."""
    inner = getattr(player, "player", player)  # resolve-exploit wraps the re-solving player
    count = getattr(inner, "last_decision_iterations", None)
    return None if count is None else int(count)


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


def _play(
    game: Game,
    player: Strategy,
    other: Strategy,
    hands: int,
    seed: int,
    *,
    clock: Callable[[], float],
    allowed: float,
    on_decision: Callable[[int, HandState, Action, float], None],
    on_end: Callable[[float], None] = lambda seconds: None,
) -> None:
    """Deal ``hands`` fixed-seed hands, seats alternating; ``player``'s decisions are timed by
    ``clock`` (``allowed`` seconds each) and reported to ``on_decision`` (hand, state before the
    action, action, seconds), its observations of hands' ends to ``on_end``."""
    rng = random.Random(seed)
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
                started = clock()
                action = player.decide(view, time.monotonic() + allowed)
                on_decision(hand, state, action, clock() - started)
            else:
                action = other.decide(view, time.monotonic() + allowed)
            state.apply(action)
        started = clock()
        player.observe(MatchState(seat, hand, state.view(seat)))
        on_end(clock() - started)
        other.observe(MatchState(1 - seat, hand, state.view(1 - seat)))


def decisions(game_name: str, strategy: str, opponent: str, hands: int, seed: int) -> dict[str, dict[str, float]]:
    game = load_game(game_name)
    registry = default_registry()
    player = registry.create(strategy, game, seed)
    other = registry.create(opponent, game, seed + 1)
    player.prepare()
    by_street: dict[str, list[float]] = {street: [] for street in STREETS}
    iterations: dict[str, list[int]] = {street: [] for street in STREETS}

    def record(hand: int, state: HandState, action: Action, seconds: float) -> None:
        by_street[STREETS[state.round]].append(seconds)
        count = _iterations(player)
        if count:
            iterations[STREETS[state.round]].append(count)

    _play(game, player, other, hands, seed, clock=time.perf_counter, allowed=10.0, on_decision=record)
    report = {street: _quantiles(times) for street, times in by_street.items() if times}
    searched = [t for street in STREETS[1:] for t in by_street[street]]
    if searched:
        report["after the flop"] = _quantiles(searched)
    for street, counts in iterations.items():
        if counts:
            report[street]["iterations"] = statistics.median(counts)
    return report


def cpu_run(game_name: str, strategy: str, opponent: str, hands: int, seed: int) -> dict[str, object]:
    """One fixed-seed match (seats alternating): the player's CPU seconds (process time) per
    street and at hands' ends, its ``prepare``, and the digest of its actions."""
    game = load_game(game_name)
    registry = default_registry()
    player = registry.create(strategy, game, seed)
    other = registry.create(opponent, game, seed + 1)
    started = time.process_time()
    player.prepare()
    prepare = time.process_time() - started
    seconds = dict.fromkeys((*STREETS, "hand ends"), 0.0)
    digest = hashlib.sha256()

    def record(hand: int, state: HandState, action: Action, spent: float) -> None:
        seconds[STREETS[state.round]] += spent
        digest.update(f"{hand}:{state.betting_string()}:{action};".encode())

    def ended(spent: float) -> None:
        seconds["hand ends"] += spent

    _play(game, player, other, hands, seed, clock=time.process_time, allowed=60.0, on_decision=record, on_end=ended)
    return {"prepare": prepare, "seconds": seconds, "actions": digest.hexdigest()[:16]}


def _shim(checkout: Path, folder: Path) -> dict[str, str]:
    """An environment importing ``pokerbot.*`` from another checkout (its layer folders linked
    in ``folder``, first on PYTHONPATH)."""
    package = folder / "pokerbot"
    package.mkdir(parents=True, exist_ok=True)
    for name in ("protocol", "models", "strategies", "bot"):
        link = package / name
        if not link.exists():
            link.symlink_to(checkout.resolve() / name)
    return {**os.environ, "PYTHONPATH": str(folder)}


def cpu(args: argparse.Namespace) -> dict[str, object]:
    """``--cpu``: fresh processes, this checkout's and ``--compare``'s alternating (see the
    module docstring); medians of CPU seconds per hand."""
    runs: dict[str, list[dict[str, object]]] = {"this checkout": []}
    envs: dict[str, dict[str, str]] = {"this checkout": dict(os.environ)}
    if args.compare is not None:
        folder = Path(args.json or "bench-resolve").resolve().parent / ".bench-resolve-compared"
        envs["compared checkout"] = _shim(Path(args.compare), folder)
        runs["compared checkout"] = []
    command = [sys.executable, __file__, "--cpu-run", "--game", args.game, "--strategy", args.strategy]
    command += ["--opponent", args.opponent, "--hands", str(args.hands), "--seed", str(args.seed)]
    for repeat in range(args.repeats):
        for name in runs if repeat % 2 == 0 else reversed(list(runs)):
            out = subprocess.run(command, env=envs[name], check=True, capture_output=True, text=True).stdout
            runs[name].append(json.loads(out.strip().splitlines()[-1]))
    report: dict[str, object] = {}
    for name, rows in runs.items():
        keys = list(rows[0]["seconds"])  # type: ignore[call-overload]
        per_hand = {k: statistics.median(r["seconds"][k] for r in rows) / args.hands for k in keys}  # type: ignore[index]
        total = statistics.median(sum(r["seconds"].values()) for r in rows) / args.hands  # type: ignore[attr-defined]
        report[name] = {
            "cpu_seconds_per_hand": total,
            "per_street_per_hand": per_hand,
            "prepare_seconds": statistics.median(float(r["prepare"]) for r in rows),  # type: ignore[arg-type]
            "runs": [sum(r["seconds"].values()) / args.hands for r in rows],  # type: ignore[attr-defined]
            "actions": sorted({str(r["actions"]) for r in rows}),
        }
    return report


RIVERS = {
    "limped pot": ("AsKd7h2c9s", [CALL] * 6),
    "bet pot": (
        "QsTd7h4c2s",
        [Action.raise_to(300), CALL, CALL, Action.raise_to(600), CALL, CALL, Action.raise_to(1500), CALL],
    ),
}


def _spot(game: Game, board: str, actions: list[Action]) -> HandState:
    """The state after ``actions`` with ``board`` dealt."""
    state = HandState(game, board_cards=tuple(cards_from_string(board)))
    for action in actions:
        state.apply(action)
    return state


def rivers(target: float = 0.005) -> dict[str, dict[str, float]]:
    game = load_game("holdem-nolimit-2p")
    space = holding_space(game)
    report = {}
    for name, (board, actions) in RIVERS.items():
        state = _spot(game, board, actions)
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


TURNS = {
    "As Kd 7h 2c, raised pot": ("AsKd7h2c9s", [Action.raise_to(300), CALL, CALL, CALL]),
    "Qs Td 7h 4c, raised pot": ("QsTd7h4c2s", [Action.raise_to(300), CALL, CALL, CALL]),
}
CHECKPOINTS = (30, 100, 150, 300, 600)


def registry_blueprint(game: Game) -> Any:
    """The shipped blueprint's player for ``game`` (its ranges give the continuations)."""
    from pokerbot.strategies.abstract.player import blueprint_factory

    blueprint = blueprint_factory(game, 1)
    blueprint.prepare()
    return blueprint


def convergence(leaves: str = "runout") -> dict[str, dict[str, object]]:
    """Exploitability (percent of the pot) of full-range turn and river subgames at
    :data:`CHECKPOINTS` iterations (``leaves`` ``multi-valued``: the gadget rows alone, with
    multi-valued leaves)."""
    game = load_game("holdem-nolimit-2p")
    space = holding_space(game)
    report: dict[str, dict[str, object]] = {}
    spots = {f"river, {name}": spot for name, spot in RIVERS.items()} | {f"turn, {n}": s for n, s in TURNS.items()}
    continuations = None
    if leaves == "multi-valued":
        spots = {}
        blueprint = registry_blueprint(game)
        continuations = BlueprintLeaves(game, space, PolicyRangeTable(blueprint.ranges), round_start="blueprint")
    for name, (board, actions) in spots.items():
        state = _spot(game, board, actions)
        tree = build_subgame(state)
        solver = SubgameSolver(tree, space, tuple(state.visible_board()), np.ones((2, space.size)))
        row: dict[str, float] = {}
        for count in CHECKPOINTS:
            solver.iterate(count - solver.iterations)
            row[str(count)] = 100.0 * solver.exploitability() / state.pot
        report[name] = {"pot": state.pot, "exploitability_percent_of_pot": row}
    for name, (board, actions) in TURNS.items():  # a round's start: the gadget with run-out bounds
        state = _spot(game, board, actions)
        cards = tuple(state.visible_board())
        valid = space.valid(cards).astype(np.float64)
        ours = valid.copy()
        tree = build_subgame(state)
        values = None
        started = time.process_time()
        if continuations is None:
            bounds = float(min(state.spent)) * (space.runout_matrix(cards, np.float64) @ ours) * valid
        else:
            found = continuations.round_start_bounds(state, ours, 1)
            assert found is not None
            bounds = found * valid
            values = continuations.values(tree, 1)
        seconds = time.process_time() - started
        ranges = np.ones((2, space.size))
        ranges[0] = ours
        solver = SubgameSolver(tree, space, cards, ranges, (1, bounds), leaves=values)
        mean: dict[str, float] = {}
        most: dict[str, float] = {}
        for count in CHECKPOINTS:
            solver.iterate(count - solver.iterations)
            excess = np.maximum(0.0, solver.best_response_values(1)[0] - bounds)[valid > 0] / ours.sum()
            mean[str(count)] = 100.0 * float(excess.mean()) / state.pot
            most[str(count)] = 100.0 * float(excess.max()) / state.pot
        report[f"turn gadget, {name}"] = {
            "pot": state.pot,
            "leaves": leaves,
            "leaf_seconds": seconds,
            "excess_mean_percent_of_pot": mean,
            "excess_max_percent_of_pot": most,
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
    parser.add_argument("--cpu", action="store_true", help="CPU seconds per hand instead (module docstring)")
    parser.add_argument("--convergence", action="store_true", help="subgames' exploitability by iterations instead")
    parser.add_argument(
        "--leaves", choices=("runout", "multi-valued"), default="runout", help="--convergence: the gadget rows' leaves"
    )
    parser.add_argument("--repeats", type=int, default=3, help="--cpu: runs of each checkout")
    parser.add_argument("--compare", help="--cpu: another checkout, run alternating with this one")
    parser.add_argument("--cpu-run", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cpu_run:
        print(json.dumps(cpu_run(args.game, args.strategy, args.opponent, args.hands, args.seed)))
        return
    load_before = os.getloadavg()
    print(f"load before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}")
    if args.convergence:
        table = convergence(args.leaves)
        print("exploitability, percent of the pot, after " + " / ".join(map(str, CHECKPOINTS)) + " iterations")
        for name, entry in table.items():
            for key in ("exploitability_percent_of_pot", "excess_mean_percent_of_pot", "excess_max_percent_of_pot"):
                figures = entry.get(key)
                if isinstance(figures, dict):
                    label = "" if key.startswith("exploitability") else f" {key.split('_')[1]} excess over the bounds"
                    print(f"  {name} (pot {entry['pot']}){label}: " + " / ".join(f"{v:.2f}" for v in figures.values()))
            if "leaf_seconds" in entry:
                print(f"  {name}: {entry['leaves']} leaves, their values {entry['leaf_seconds']:.1f} s of CPU")
        if args.json:
            with open(args.json, "w") as file:
                json.dump({"args": vars(args), "convergence": table}, file, indent=1)
            print(f"wrote {args.json}")
        return
    if args.cpu:
        report = cpu(args)
        for name, row in report.items():
            assert isinstance(row, dict)
            streets = "  ".join(f"{k} {v:.3f}" for k, v in row["per_street_per_hand"].items())
            print(f"{name}: {row['cpu_seconds_per_hand']:.3f} s of CPU per hand ({streets}); runs", end=" ")
            print(
                " ".join(f"{x:.3f}" for x in row["runs"]),
                f"; prepare {row['prepare_seconds']:.2f} s; actions",
                *row["actions"],
            )
        load_after = os.getloadavg()
        print(f"load after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
        if args.json:
            with open(args.json, "w") as file:
                json.dump({"args": vars(args), "load": [load_before, load_after], "cpu": report}, file, indent=1)
            print(f"wrote {args.json}")
        return
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
            + (f"  iterations {row['iterations']:.0f}" if "iterations" in row else "")
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
