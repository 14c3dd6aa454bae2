"""AIVAT on Kuhn and Leduc, exactly: mean and standard deviation over every deal and every
action sequence, weighted by their probabilities, for each choice of known players.

Both positions play the shipped equilibrium (position 0 first to act; seats fixed). For each
setting the table gives E[u] and E[AIVAT] (equal: the estimator is unbiased) and the standard
deviation per hand of the outcome and of AIVAT's estimate, with no player known (chance
corrections only), one or both known (action corrections), and with imaginary observations
of the known players' cards.

    python benchmarks/research/aivat_exact.py [--games kuhn leduc] [--json OUT]

``--json OUT`` writes every figure, by game and setting (``none``, ``0``, ``1``, ``0,1``, with
`` imaginary`` appended where the known players' cards are imagined): ``outcome_mean``,
``estimate_mean``, ``outcome_sd``, ``estimate_sd`` (chips per hand) and their ``ratio``.
Kuhn takes seconds, Leduc minutes.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from pokerbot.protocol.game import load_game
from pokerbot.strategies.aivat.aivat import Aivat
from pokerbot.strategies.aivat.exact import aivat_moments, finished_hands
from pokerbot.strategies.solvers import PolicyStrategy, equilibrium_policy

SETTINGS = [((), False), ((0,), False), ((1,), False), ((0, 1), False), ((0,), True), ((0, 1), True)]


def main() -> None:
    """Print the table for each game; write it as JSON with ``--json``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["kuhn", "leduc"], choices=["kuhn", "leduc"])
    parser.add_argument("--json", type=Path, help="write every figure to this JSON file")
    args = parser.parse_args()
    report: dict[str, dict[str, dict[str, float]]] = {}
    header = ("game", "known", "imaginary", "E[u]", "E[AIVAT]", "sd u", "sd AIVAT", "ratio")
    print(f"{header[0]:<6} {header[1]:<7} {header[2]:<9} " + " ".join(f"{h:>10}" for h in header[3:]))
    for name in args.games:
        game = load_game(name)
        report[name] = {}
        player = PolicyStrategy(game, 1, equilibrium_policy(game))
        hands = finished_hands(game, [player, player])
        for known, imaginary in SETTINGS:
            started = time.perf_counter()
            aivat = Aivat(game, imaginary=imaginary)
            exact = aivat_moments(aivat, hands, {position: player.action_probabilities for position in known})
            mean_u, mean_a, sd_u, sd_a = exact.outcome_mean, exact.estimate_mean, exact.outcome_sd, exact.estimate_sd
            label = ",".join(str(k) for k in known) or "-"
            key = (",".join(str(k) for k in known) or "none") + (" imaginary" if imaginary else "")
            report[name][key] = {
                "outcome_mean": mean_u,
                "estimate_mean": mean_a,
                "outcome_sd": sd_u,
                "estimate_sd": sd_a,
                "ratio": sd_a / sd_u,
            }
            print(
                f"{name:<6} {label:<7} {imaginary!s:<9} {mean_u:>10.7f} {mean_a:>10.7f} {sd_u:>10.4f} {sd_a:>10.4f} "
                f"{sd_a / sd_u:>10.3f}  ({time.perf_counter() - started:.1f} s)"
            )
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
