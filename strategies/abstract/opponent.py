"""An opponent model as a policy table of the abstract game (MCRNR's ``sigma_fix``).

:func:`model_table` asks a :class:`~pokerbot.models.round_trees.RoundTreeModel` for every
information set of the betting tree (the five features are all functions of the betting
node and the acting player's bucket), keeps the actions legal there and renormalises
(uniform where the model gives the legal actions no weight). The model is trained by
:func:`~pokerbot.models.round_trees.learn_from_logs`.
"""

from __future__ import annotations

import numpy as np

from pokerbot.models.round_trees import RoundTreeModel, features
from pokerbot.protocol.actions import ActionKind
from pokerbot.strategies.abstract.betting import DECISION, BettingTree


def model_table(tree: BettingTree, model: RoundTreeModel) -> np.ndarray:
    """The model's action probabilities at every information set ``[infoset, action]``."""
    table = np.zeros((tree.num_infosets, tree.max_actions))
    stack = [(0, 0, 0, (0, 0))]  # node, raises in the hand, raises this round, raises by position
    while stack:
        node, raises, round_raises, own = stack.pop()
        if tree.kind[node] != DECISION:
            continue
        p = int(tree.player[node])
        r = int(tree.round[node])
        chars = [a.kind.char for a in tree.actions[node]]
        base = int(tree.infoset_base[node])
        for bucket in range(int(tree.num_buckets[r])):
            predicted = model.predict(r, features(p, raises, round_raises, own[p], bucket))
            row = np.array([predicted[c] for c in chars])
            total = row.sum()
            table[base + bucket, : len(chars)] = row / total if total > 0 else 1.0 / len(chars)
        for k, action in enumerate(tree.actions[node]):
            child = int(tree.children[node, k])
            is_raise = action.kind == ActionKind.RAISE
            next_own = (own[0] + (is_raise and p == 0), own[1] + (is_raise and p == 1))
            same_round = tree.round[child] == r
            stack.append((child, raises + is_raise, (round_raises + is_raise) if same_round else 0, next_own))
    return table


__all__ = ["model_table"]
