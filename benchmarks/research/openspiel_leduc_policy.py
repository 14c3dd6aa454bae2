"""A near-equilibrium Leduc policy that is not ours: OpenSpiel's CFR+ stopped early.

Runs OpenSpiel's C++ ``pyspiel.CFRPlusSolver`` on ``pyspiel.load_game("leduc_poker")`` (the
same game as the ACPC ``leduc``: ante 1, raises 2 then 4, two raises a round) for
``--iterations`` iterations, converts its average policy to our information-set keys and
writes it as a policy file (``pokerbot match --players adaptive policy:FILE``, the Leduc
study's ``policy:FILE`` opponent). It prints the exploitability measured by OpenSpiel
(``pyspiel.exploitability``: the mean of the two best-response values) and by our exact
best response on the converted policy; they must agree.

    .venv/bin/pip install open_spiel          # the bench extra
    .venv/bin/python benchmarks/research/openspiel_leduc_policy.py --iterations 150 \\
        --out benchmarks/data/leduc-openspiel-cfrplus-150.json

Card mapping: OpenSpiel's card ``i`` (rank ``i // 2``) is the ``i``-th card of our sorted
Leduc deck (``Qh Qs Kh Ks Ah As``); actions 0, 1, 2 are fold, call, raise.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import load_game
from pokerbot.strategies.solvers import build_tree
from pokerbot.strategies.solvers.exploitability import evaluate
from pokerbot.strategies.solvers.profile import policy_from_profile
from pokerbot.strategies.solvers.tree import CHANCE, DECISION, PublicTree

ACTION_OF = {"f": 0, "c": 1, "r": 2}


def path_to(tree: PublicTree, node: int) -> list[int]:
    """The nodes from the root's child down to ``node``."""
    path = []
    while node > 0:
        path.append(node)
        node = int(tree.parent[node])
    return path[::-1]


def convert(tree: PublicTree, game, policy) -> np.ndarray:  # noqa: ANN001 (pyspiel objects)
    """Our profile array ``[node, hand]`` of an OpenSpiel Leduc policy."""
    deck = sorted(tree.game.deck)
    spiel_card = {card: index for index, card in enumerate(deck)}
    sigma = np.ones((tree.num_nodes, tree.num_hands))
    for node in tree.decision_nodes:
        node = int(node)
        actor = int(tree.player[node])
        path = path_to(tree, node)
        board = [c for n in path if tree.kind[tree.parent[n]] == CHANCE for c in _cards(tree, n)]
        for hand in np.flatnonzero(tree.valid[node]):
            own = spiel_card[tree.hands[hand][0]]
            used = {own, *(spiel_card[c] for c in board)}
            other = next(i for i in range(len(deck)) if i not in used)
            state = game.new_initial_state()
            state.apply_action(own if actor == 0 else other)
            state.apply_action(other if actor == 0 else own)
            for step in path:
                parent = int(tree.parent[step])
                if tree.kind[parent] == DECISION:
                    state.apply_action(ACTION_OF[tree.label[step]])
                else:
                    for card in _cards(tree, step):
                        state.apply_action(spiel_card[card])
            assert state.current_player() == actor, "the two games disagree on who acts"
            probabilities = policy.action_probabilities(state)
            for child in tree.children(node):
                sigma[child, hand] = probabilities.get(ACTION_OF[tree.label[child]], 0.0)
    return sigma


def _cards(tree: PublicTree, node: int) -> list[int]:
    return list(cards_from_string(tree.label[node]))


def main() -> None:
    """Solve with OpenSpiel, convert, check and write the policy file."""
    import pyspiel

    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--iterations", type=int, default=150)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    spiel_game = pyspiel.load_game("leduc_poker")
    solver = pyspiel.CFRPlusSolver(spiel_game)
    start = time.perf_counter()
    for _ in range(args.iterations):
        solver.evaluate_and_update_policy()
    seconds = time.perf_counter() - start
    average = solver.average_policy()
    theirs = pyspiel.exploitability(spiel_game, average)
    tree = build_tree(load_game("leduc"))
    sigma = convert(tree, spiel_game, average)
    report = evaluate(tree, sigma)
    policy = policy_from_profile(
        tree,
        sigma,
        {
            "source": f"OpenSpiel {getattr(pyspiel, '__version__', '')} CFRPlusSolver on leduc_poker",
            "iterations": args.iterations,
            "openspiel_exploitability": theirs,
            "exploitability": report.exploitability,
        },
    )
    policy.save(args.out)
    print(f"OpenSpiel CFR+ {args.iterations} iterations ({seconds:.1f} s)")
    print(f"exploitability: OpenSpiel {theirs:.6f}, ours {report.exploitability:.6f} chips/hand")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
