"""Conversions between :class:`~strategies.solvers.policy.Policy` objects and profile arrays.

A profile array ``sigma[node, hand]`` (see :mod:`pokerbot.strategies.solvers.engine`) is what the
solvers and the best-response code compute with; a policy is what is saved, loaded, mixed
and played. Information sets whose hand clashes with the board do not exist and are never
written to a policy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np

from pokerbot.protocol.game import Game
from pokerbot.strategies.solvers.engine import Engine
from pokerbot.strategies.solvers.errors import PolicyError
from pokerbot.strategies.solvers.policy import Policy, check_game
from pokerbot.strategies.solvers.tree import PublicTree, build_tree


def as_tree(game_or_tree: Game | PublicTree) -> PublicTree:
    """``game_or_tree`` itself if it is a tree, else the (newly built) tree of the game."""
    return game_or_tree if isinstance(game_or_tree, PublicTree) else build_tree(game_or_tree)


def policy_from_profile(
    tree: PublicTree,
    sigma: np.ndarray,
    meta: Mapping[str, Any] | None = None,
    players: Sequence[int] | None = None,
) -> Policy:
    """The policy of ``players`` (default all) in profile ``sigma``."""
    wanted = set(range(tree.num_players) if players is None else players)
    entries: dict[str, tuple[str, tuple[float, ...]]] = {}
    hand_texts = tree.hand_texts
    for node in tree.decision_nodes:
        if int(tree.player[node]) not in wanted:
            continue
        first, count = int(tree.first_child[node]), int(tree.num_children[node])
        chars = tree.actions(node)
        block = sigma[first : first + count]
        totals = block.sum(axis=0)
        suffix = tree.suffix[node]
        for hand in np.flatnonzero(tree.valid[node]):
            total = totals[hand]
            column = block[:, hand] / total if total > 0 else np.full(count, 1.0 / count)
            entries[hand_texts[hand] + suffix] = (chars, tuple(column.tolist()))
    return Policy.from_arrays(tree.game, entries, meta)


def profile_from_policy(
    tree: PublicTree, policy: Policy, missing: Literal["uniform", "error"] = "uniform"
) -> np.ndarray:
    """The profile array of ``policy``; information sets it lacks play uniformly (or raise).

    Raises :class:`~strategies.solvers.errors.PolicyGameMismatchError` for a policy of
    another game and :class:`PolicyError` when a key's legal actions disagree with the game.
    """
    check_game(tree.game, policy.game)
    sigma = Engine(tree).uniform()
    hand_texts = tree.hand_texts
    for node in tree.decision_nodes:
        first, count = int(tree.first_child[node]), int(tree.num_children[node])
        chars = tree.actions(node)
        suffix = tree.suffix[node]
        for hand in np.flatnonzero(tree.valid[node]):
            key = hand_texts[hand] + suffix
            if key not in policy:
                if missing == "error":
                    raise PolicyError(f"the policy has no entry for information set {key!r}")
                continue
            if policy.actions(key) != chars:
                raise PolicyError(
                    f"{key!r}: the policy gives actions {policy.actions(key)!r}, the game allows {chars!r}"
                )
            sigma[first : first + count, hand] = policy.probabilities(key)
    return sigma


def missing_keys(tree: PublicTree, policy: Policy) -> list[str]:
    """The information sets of the game that ``policy`` has no entry for."""
    return [
        tree.hand_texts[hand] + tree.suffix[node]
        for node in tree.decision_nodes
        for hand in np.flatnonzero(tree.valid[node])
        if tree.hand_texts[hand] + tree.suffix[node] not in policy
    ]


def uniform_policy(game_or_tree: Game | PublicTree) -> Policy:
    """Every player picks uniformly among the legal actions at every information set."""
    tree = as_tree(game_or_tree)
    return policy_from_profile(tree, Engine(tree).uniform(), {"algorithm": "uniform"})


def mix_strategies(game_or_tree: Game | PublicTree, policies: Sequence[Policy], weights: Sequence[float]) -> Policy:
    """The strategy mixture: play ``policies[k]`` for the whole hand with probability ``weights[k]``.

    Per information set this is the reach-weighted combination
    ``sum_k w_k pi_k(I) sigma_k(I) / sum_k w_k pi_k(I)`` (``pi_k`` the player's own reach), so
    the expected value of the mixture is the weighted sum of the policies' expected values.
    """
    if not policies or len(policies) != len(weights):
        raise PolicyError("mix_strategies needs as many weights as policies, and at least one policy")
    if any(w < 0 for w in weights) or abs(sum(weights) - 1.0) > 1e-9:
        raise PolicyError(f"mix weights must be non-negative and sum to 1, got {list(weights)}")
    tree = as_tree(game_or_tree)
    engine = Engine(tree)
    numerator = np.zeros((tree.num_nodes, tree.num_hands))
    denominator = np.zeros((tree.num_nodes, tree.num_hands))
    fallback = np.zeros((tree.num_nodes, tree.num_hands))
    for policy, weight in zip(policies, weights, strict=True):
        sigma = profile_from_policy(tree, policy)
        reach = engine.reach(sigma)
        for p in range(tree.num_players):
            edges = engine.players[p].edges
            parents = tree.parent[edges]
            numerator[edges] += weight * reach[p, parents] * sigma[edges]
            denominator[edges] += weight * reach[p, parents]
        fallback += weight * sigma
    with np.errstate(invalid="ignore", divide="ignore"):
        mixed = np.where(denominator > 0, numerator / denominator, fallback)
    return policy_from_profile(tree, mixed, {"mixed": len(policies)})


__all__ = ["as_tree", "missing_keys", "mix_strategies", "policy_from_profile", "profile_from_policy", "uniform_policy"]
