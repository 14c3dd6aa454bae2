"""Our CFR+ against OpenSpiel's C++ CFR+ on Leduc, iterate by iterate.

Run (OpenSpiel is the ``bench`` extra: ``.venv/bin/pip install open_spiel``):

    .venv/bin/python benchmarks/research/openspiel_cfrplus_iterates.py [--iterations 10 50 100]

Both solvers start from the uniform strategy on the same game (ACPC ``leduc`` and OpenSpiel's
``leduc_poker``). After each listed iteration count the script converts OpenSpiel's average
policy to our profile array (``openspiel_leduc_policy.convert``) and prints the largest
absolute difference from our ``cfr+`` average profile over every decision and every valid
holding, and both exploitabilities (chips per hand). The same average strategy up to
floating-point rounding gives differences near 1e-15.
"""

from __future__ import annotations

import argparse

import numpy as np
from openspiel_leduc_policy import convert

from pokerbot.protocol.game import load_game
from pokerbot.strategies.solvers import build_tree
from pokerbot.strategies.solvers.exploitability import evaluate
from pokerbot.strategies.solvers.solve import make_solver


def main() -> None:
    import pyspiel

    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--iterations", type=int, nargs="+", default=[10, 50, 100])
    args = parser.parse_args()
    spiel_game = pyspiel.load_game("leduc_poker")
    theirs = pyspiel.CFRPlusSolver(spiel_game)
    tree = build_tree(load_game("leduc"))
    ours = make_solver("cfr+", tree)
    mask = np.zeros((tree.num_nodes, tree.num_hands), dtype=bool)
    for node in tree.decision_nodes:
        for child in tree.children(int(node)):
            mask[child] = tree.valid[int(node)]
    done = 0
    print(f"{'iterations':>10} {'max |difference|':>18} {'ours':>10} {'OpenSpiel':>10}")
    for iterations in sorted(args.iterations):
        for _ in range(iterations - done):
            theirs.evaluate_and_update_policy()
        ours.run(iterations - done)
        done = iterations
        average = theirs.average_policy()
        converted = convert(tree, spiel_game, average)
        mine = ours.average_profile()
        difference = float(np.abs(converted - mine)[mask].max())
        print(
            f"{iterations:>10} {difference:>18.3e} {evaluate(tree, mine).exploitability:>10.6f}"
            f" {pyspiel.exploitability(spiel_game, average):>10.6f}"
        )


if __name__ == "__main__":
    main()
