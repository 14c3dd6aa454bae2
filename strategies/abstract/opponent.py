"""An opponent model as a policy table of the abstract game (MCRNR's ``sigma_fix``).

:func:`model_table` asks a :class:`~pokerbot.models.round_trees.RoundTreeModel` for every
information set of the betting tree (the five features are all functions of the betting
node and the acting player's bucket), keeps the actions legal there and renormalises
(uniform where the model gives the legal actions no weight). :func:`learn_from_logs` trains
the model on ACPC ``STATE`` lines.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from pokerbot.models.round_trees import RoundTreeModel, decision_rows, features
from pokerbot.protocol.actions import ActionKind
from pokerbot.protocol.game import Game
from pokerbot.protocol.matchlog import parse_state_line
from pokerbot.strategies.abstract.betting import DECISION, BettingTree
from pokerbot.strategies.card_abstraction.abstraction import CardAbstraction


class ModelDataError(ValueError):
    """The logs hold no decision of the player to model, or a line is not a hand."""


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


def learn_from_logs(
    lines: Iterable[str], game: Game, player: str, abstraction: CardAbstraction, cards: str = "showdown"
) -> tuple[RoundTreeModel, int]:
    """A model of the player named ``player`` from ACPC log lines (``STATE`` lines; others
    skipped), and the number of hands it played."""
    model = RoundTreeModel(game.num_rounds)
    hands = 0
    for number, line in enumerate(lines, 1):
        if not line.startswith("STATE:"):
            continue
        try:
            logged = parse_state_line(line, game)
        except ValueError as error:
            raise ModelDataError(f"line {number}: {error}") from None
        if player not in logged.names:
            continue
        hands += 1
        position = logged.names.index(player)
        for r, x, action in decision_rows(logged.state, position, abstraction.bucket, cards):
            model.learn(r, x, action)
    if hands == 0:
        raise ModelDataError(f"no hand of a player named {player!r} in the logs")
    return model, hands


__all__ = ["ModelDataError", "learn_from_logs", "model_table"]
