"""Abstract exploitability of policy snapshots against training time, as JSON and a PNG.

    python benchmarks/research/abstract_curves.py --tables TABLES.npz --out curves.png \
        --run mccfr10=runs/snap-mccfr10 --run mccfr100=runs/snap-mccfr100 [--deals 100000] [--every 2] \
        [--memory 1]
    python benchmarks/research/abstract_curves.py --out curves.png --replot [--memory 1]  # the PNG from curves.json

Each ``--run NAME=DIR`` is a ``pokerbot solve ... --snapshots DIR`` folder; every ``--every``-th
snapshot (and the last) is measured with
:func:`pokerbot.strategies.abstract.best_response.exploitability` (``--deals`` per sample),
against the solver seconds stored in the snapshot (``--memory K``: a responder that remembers
only its buckets of the last K rounds, the one measure that means something with 100 buckets
at such sample sizes). Prints one JSON line per point.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pokerbot.strategies.abstract.best_response import exploitability
from pokerbot.strategies.abstract.game import AbstractGame
from pokerbot.strategies.abstract.policy import AbstractPolicy
from pokerbot.strategies.card_abstraction.tables import EhsTables


def measure(args: argparse.Namespace) -> dict[str, list[dict[str, float]]]:
    """Every chosen snapshot of every ``--run``, measured (one JSON line printed per point)."""
    source = EhsTables.load(args.tables)
    results: dict[str, list[dict[str, float]]] = {}
    for spec in args.run:
        name, _, folder = spec.partition("=")
        files = sorted(Path(folder).glob("policy-*.npz"))
        chosen = files[:: args.every]
        if files and files[-1] not in chosen:
            chosen.append(files[-1])
        game = None
        for path in chosen:
            policy = AbstractPolicy.load(path)
            if game is None:
                game = AbstractGame.build(policy.abstraction, source)
            report = exploitability(game, policy.probabilities, args.deals, memory=args.memory)
            scale = 1000.0 / policy.game.big_blind
            point = {
                "iterations": policy.meta["iterations"],
                "seconds": policy.meta["seconds"],
                "lower_mbb": report.exploitability_lower * scale,
                "upper_mbb": report.exploitability_upper * scale,
            }
            results.setdefault(name, []).append(point)
            print(json.dumps({"run": name, **point}), flush=True)
    return results


def plot(results: dict[str, list[dict[str, float]]], out: Path, memory: int | None) -> None:
    """The curves of ``results`` (fitted and held out per run) as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(7, 4.5))
    for name, points in results.items():
        seconds = [p["seconds"] / 60 for p in points]
        line = axis.plot(seconds, [p["upper_mbb"] for p in points], marker="o", label=f"{name} (fitted)")[0]
        axis.plot(seconds, [p["lower_mbb"] for p in points], marker="x", linestyle="--", color=line.get_color(),
                  label=f"{name} (held out)")  # fmt: skip
    recall = "perfect recall" if memory is None else f"remembering its buckets of the last {memory} round(s)"
    axis.set_title(f"Best response in the abstract game, {recall}", fontsize=10)
    axis.set_xlabel("solver minutes (2-core machine, shared)")
    axis.set_ylabel("abstract exploitability (mbb/hand)")
    axis.set_yscale("log")
    axis.grid(True, which="both", alpha=0.3)
    axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(out, dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=Path)
    parser.add_argument("--run", action="append", help="NAME=SNAPSHOT_DIR")
    parser.add_argument("--out", type=Path, required=True, help="PNG to write (JSON beside it)")
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--memory", type=int, default=None, help="rounds of its buckets the responder remembers")
    parser.add_argument("--replot", action="store_true", help="only draw the PNG again from the JSON beside it")
    args = parser.parse_args()
    data = args.out.with_suffix(".json")
    if args.replot:
        plot(json.loads(data.read_text()), args.out, args.memory)
        return
    if args.tables is None or not args.run:
        parser.error("--tables and at least one --run are needed (or --replot)")
    results = measure(args)
    data.write_text(json.dumps(results, indent=1) + "\n")
    plot(results, args.out, args.memory)


if __name__ == "__main__":
    main()
