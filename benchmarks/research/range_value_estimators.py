"""The ledger's range value of a hand, its estimate against the exact value: mean, spread, time.

``adaptive`` in heads-up no-limit books each hand at
:func:`~pokerbot.strategies.safe.values.range_hand_value`, whose flop equities are a sampled
estimate (the exact ones cost about a tenth of a second a flop). Two steps:

    python benchmarks/research/range_value_estimators.py record --opponent random --hands 200 --out random.jsonl
    python benchmarks/research/range_value_estimators.py compare random.jsonl ... [--seeds 5] [--compare OTHER_CHECKOUT]

``record`` plays ``--strategy`` (default ``adaptive:10iterations``) against ``--opponent`` in
process and writes every hand it valued over its range (the final view's ``MATCHSTATE``
line, the reach, the seed), one JSON line each. ``compare`` values those hands (but the few
whose reach gives the holding dealt no weight, which the agent books at that holding) with
this checkout's estimator for ``--seeds`` seeds each (the hand's seed plus multiples of
1,000), exactly once (the flop's equities and an all-in on the flop over every run-out),
and, with ``--compare``, with another checkout's estimator in a child process (its
``range_hand_value`` as it stands there; the two alternate over ``--rounds`` rounds, a
share of the hands each), then prints per estimator, in big blinds a hand: the mean over
the hands and the standard deviation across them (seed 0), the estimator's own noise (the
root mean square over the hands of the standard deviation across seeds), its root mean
square distance to the exact value, and the CPU milliseconds of one valuation (median and
mean; the compiled code loaded beforehand), with the machine's load.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from pokerbot.protocol.game import load_game
from pokerbot.protocol.wire import MatchState, format_match_state, parse_match_state

GAME_NAME = "holdem-nolimit-2p"


def record(args: argparse.Namespace) -> None:
    """Play the match and write every hand valued over the range."""
    import pokerbot.strategies.safe.values as values_module
    from pokerbot.bot.matches.inprocess import run_inprocess_match
    from pokerbot.strategies.registry import default_registry

    game = load_game(GAME_NAME)
    original = values_module.range_hand_value
    rows: list[dict[str, Any]] = []

    def recording(state: Any, position: int, reach: np.ndarray, **options: Any) -> float:
        seed = int(options.get("seed", 0))
        line = format_match_state(MatchState(position, seed, state))
        rows.append({"line": line, "reach": [round(float(w), 9) for w in reach], "seed": seed})
        return original(state, position, reach, **options)

    values_module.range_hand_value = recording  # type: ignore[assignment]
    registry = default_registry()
    players = [registry.create(args.strategy, game, 1), registry.create(args.opponent, game, 2)]
    run_inprocess_match(game, args.hands, args.seed, players, ["hero", "opponent"])
    with open(args.out, "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row) + "\n")
    print(f"wrote {len(rows)} hands to {args.out}")


def _hands(paths: list[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for path in paths for line in Path(path).read_text().splitlines() if line]


def value_hands(paths: list[str], seeds: int, exact: bool, part: int = 0, parts: int = 1) -> dict[str, Any]:
    """Every hand's value for each seed (and exact, when asked), with CPU seconds each: the
    hands whose index is ``part`` modulo ``parts``."""
    from pokerbot.strategies.safe.values import range_hand_value

    game = load_game(GAME_NAME)
    accepts = inspect.signature(range_hand_value).parameters
    flop_option = "flop_runouts" if "flop_runouts" in accepts else "flop_samples"
    import pokerbot.protocol.analysis.equity as equity_module

    rows = _hands(paths)
    for row in rows[:10]:  # compiled code loaded (a first call of each kernel costs seconds), not timed
        with contextlib.suppress(ValueError):
            view = parse_match_state(row["line"], game)
            range_hand_value(view.state, view.position, np.array(row["reach"]), seed=999_999)
    equity_module._vs_random_all.cache_clear()  # no board's equities kept from the warm-up
    values, seconds, exact_values = [], [], []
    for row in rows[part::parts]:
        view = parse_match_state(row["line"], game)
        reach = np.array(row["reach"])
        try:  # a hand whose reach gives our holding no weight is booked at the holding: left out
            range_hand_value(view.state, view.position, reach, seed=row["seed"])
        except ValueError:
            continue
        per_seed = []
        for k in range(seeds):
            start = time.process_time()
            per_seed.append(range_hand_value(view.state, view.position, reach, seed=row["seed"] + 1000 * k))
            seconds.append(time.process_time() - start)
        values.append(per_seed)
        if exact:
            options = {flop_option: None}
            if "showdown_runouts" in accepts:  # every run-out of an all-in on the flop
                options["showdown_runouts"] = None
            exact_values.append(range_hand_value(view.state, view.position, reach, seed=row["seed"], **options))
    return {"values": values, "seconds": seconds, "exact": exact_values}


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


def _summary(name: str, result: dict[str, Any], exact: list[float], big_blind: int) -> str:
    values = np.array(result["values"]) / big_blind
    truth = np.array(exact) / big_blind
    first = values[:, 0]
    noise = math.sqrt(float(np.mean(values.std(axis=1, ddof=1) ** 2))) if values.shape[1] > 1 else math.nan
    distance = math.sqrt(float(np.mean((values - truth[:, None]) ** 2)))
    ms = [1e3 * s for s in result["seconds"]]
    return (
        f"{name:24} mean {first.mean():+8.3f}  sd {first.std(ddof=1):7.3f}  noise {noise:6.3f}  "
        f"rms to exact {distance:6.3f}  CPU ms median {statistics.median(ms):6.2f} mean {statistics.fmean(ms):6.2f}"
    )


def compare(args: argparse.Namespace) -> None:
    """Value the recorded hands here (and in ``--compare``) and print the figures."""
    game = load_game(GAME_NAME)
    print(f"{len(_hands(args.files))} hands, {args.seeds} seeds each, load {os.getloadavg()}")
    results: dict[str, dict[str, Any]] = {"this checkout": {}}
    env = None
    if args.compare is not None:
        results["compared checkout"] = {}
        env = _shim(Path(args.compare), Path(args.files[0]).resolve().parent / ".range-value-compared")
    for part in range(args.rounds):  # the two checkouts alternate, a share of the hands each round
        for name in results:
            if name == "compared checkout":
                command = [sys.executable, __file__, "child", *args.files, "--seeds", str(args.seeds)]
                command += ["--part", str(part), "--parts", str(args.rounds)]
                output = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
                found = json.loads(output)
            else:
                found = value_hands(args.files, args.seeds, exact=True, part=part, parts=args.rounds)
            for key, items in found.items():
                results[name].setdefault(key, []).extend(items)
    exact = results["this checkout"]["exact"]
    truth = np.array(exact) / game.big_blind
    print(f"{'exact':24} mean {truth.mean():+8.3f}  sd {truth.std(ddof=1):7.3f}")
    for name, result in results.items():
        print(_summary(name, result, exact, game.big_blind))
    print(f"load {os.getloadavg()}")


def main() -> None:
    """Command-line entry."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    recording = commands.add_parser("record")
    recording.add_argument("--strategy", default="adaptive:10iterations")
    recording.add_argument("--opponent", default="random")
    recording.add_argument("--hands", type=int, default=200)
    recording.add_argument("--seed", type=int, default=1)
    recording.add_argument("--out", required=True)
    comparing = commands.add_parser("compare")
    comparing.add_argument("files", nargs="+")
    comparing.add_argument("--seeds", type=int, default=5)
    comparing.add_argument("--compare", default=None, help="another checkout, its estimator beside this one's")
    comparing.add_argument("--rounds", type=int, default=3, help="rounds alternating the two checkouts")
    child = commands.add_parser("child")
    child.add_argument("files", nargs="+")
    child.add_argument("--seeds", type=int, default=5)
    child.add_argument("--part", type=int, default=0)
    child.add_argument("--parts", type=int, default=1)
    args = parser.parse_args()
    if args.command == "record":
        record(args)
    elif args.command == "compare":
        compare(args)
    else:
        print(json.dumps(value_hands(args.files, args.seeds, exact=False, part=args.part, parts=args.parts)))


if __name__ == "__main__":
    main()
