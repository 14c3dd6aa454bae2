"""Policies of an abstract game: per information set (decision node, bucket) a probability
for each action of the node, stored as a ``.npz`` bound to the game, the betting tree and
the card abstraction.

File contents: ``probabilities`` (``float16[infosets, max_actions]``, rows sum to 1 over
the node's actions; or ``probabilities_u8``, the compact form: each row in 255ths, rounded so
that a row sums to 255 exactly), ``meta`` (JSON: game definition text, tree digest, abstraction spec,
bucket counts, provenance such as algorithm, iterations, seed, seconds), and optionally
the betting tree (``tree_*``, :func:`~pokerbot.strategies.abstract.betting.tree_arrays`),
checked against the digest like a tree built anew.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from pokerbot.protocol.game import Game, format_game, parse_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.infosets import board_text, cards_text
from pokerbot.strategies.abstract.betting import (
    DECISION,
    TREE_ARRAYS,
    BettingTree,
    BettingTreeError,
    build_betting_tree,
    tree_arrays,
    tree_from_arrays,
)
from pokerbot.strategies.betting.sizing import BetSizing, BetSizingError
from pokerbot.strategies.card_abstraction.abstraction import CardAbstraction, ExactAbstraction, abstraction_from_spec

FORMAT = "pokerbot.abstract-policy/1"


class AbstractPolicyError(ValueError):
    """A policy file is unreadable, or made for another game, tree or abstraction."""


def normalise(tree: BettingTree, weights: np.ndarray) -> np.ndarray:
    """Rows of ``weights[infoset, action]`` made distributions over each node's actions
    (uniform where a row has no weight)."""
    probabilities = np.zeros(weights.shape)
    for node in tree.decision_nodes:
        n = int(tree.num_actions[node])
        rows = slice(int(tree.infoset_base[node]), int(tree.infoset_base[node] + tree.num_buckets[tree.round[node]]))
        block = np.maximum(weights[rows, :n], 0.0)
        total = block.sum(axis=1, keepdims=True)
        probabilities[rows, :n] = np.where(total > 0, block / np.where(total > 0, total, 1.0), 1.0 / n)
    return probabilities


def quantise(probabilities: np.ndarray) -> np.ndarray:
    """Rows of probabilities as ``uint8`` 255ths that sum to 255 (rows of zeros stay zero): each
    entry rounded down, the units left over given to the largest remainders (so no entry is off
    by more than 1/255)."""
    scaled = np.asarray(probabilities, dtype=np.float64) * 255.0
    totals = np.rint(scaled.sum(axis=1)).astype(np.int64)
    floors = np.floor(scaled + 1e-9)
    short = totals - floors.sum(axis=1).astype(np.int64)
    order = np.argsort(-(scaled - floors), axis=1, kind="stable")
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(order.shape[1])[None, :].repeat(order.shape[0], axis=0), axis=1)
    return (floors + (ranks < short[:, None])).astype(np.uint8)


class AbstractPolicy:
    """A policy of an abstract game (see the module docstring)."""

    def __init__(
        self,
        tree: BettingTree,
        abstraction: CardAbstraction,
        probabilities: np.ndarray,
        meta: dict[str, Any] | None = None,
    ) -> None:
        if probabilities.shape != (tree.num_infosets, tree.max_actions):
            raise AbstractPolicyError(
                f"policy table of shape {probabilities.shape}, the tree needs {(tree.num_infosets, tree.max_actions)}"
            )
        self.tree = tree
        self.abstraction = abstraction
        self.probabilities = probabilities
        self.meta = dict(meta or {})

    @property
    def game(self) -> Game:
        """The real game."""
        return self.tree.game

    def row(self, node: int, bucket: int) -> np.ndarray:
        """The action probabilities at decision ``node`` holding ``bucket`` (node's action order)."""
        n = int(self.tree.num_actions[node])
        return self.probabilities[int(self.tree.infoset_base[node]) + bucket, :n]

    def save(self, path: str | Path, *, with_tree: bool | None = None, compact: bool = False) -> None:
        """Write the policy (compressed ``.npz``); ``with_tree`` (default: in no-limit games)
        stores the betting tree too (``tree_*`` arrays: a no-limit tree then loads in about a
        second instead of being walked again for ten); ``compact``: 8-bit probabilities
        (:func:`quantise`) instead of float16."""
        if with_tree is None:
            with_tree = self.game.is_nolimit
        meta = {
            "format": FORMAT,
            "game": format_game(self.game),
            "tree": self.tree.digest,
            "abstraction": self.abstraction.spec(),
            "action_abstraction": None if self.tree.sizing is None else _sizing_meta(self.tree.sizing),
            **self.meta,
        }
        with Path(path).open("wb") as handle:
            arrays: dict[str, Any] = {"meta": json.dumps(meta)}
            if compact:
                arrays["probabilities_u8"] = quantise(self.probabilities)
            else:
                arrays["probabilities"] = self.probabilities.astype(np.float16)
            if with_tree:
                arrays.update({f"tree_{name}": array for name, array in tree_arrays(self.tree).items()})
            np.savez_compressed(handle, **arrays)

    @classmethod
    def load(cls, path: str | Path, game: Game | None = None) -> AbstractPolicy:
        """Read a policy; with ``game``, refuse one made for another game."""
        try:
            with np.load(path) as data:
                if "probabilities_u8" in data.files:
                    probabilities = data["probabilities_u8"].astype(np.float64) / 255.0
                else:
                    probabilities = data["probabilities"].astype(np.float64)
                meta = json.loads(str(data["meta"]))
                stored = {name: data[f"tree_{name}"] for name in TREE_ARRAYS if f"tree_{name}" in data.files}
        except (OSError, KeyError, ValueError) as error:
            raise AbstractPolicyError(f"{path}: not an abstract policy ({error})") from None
        if meta.get("format") != FORMAT:
            raise AbstractPolicyError(f"{path}: not an abstract policy (format {meta.get('format')!r})")
        policy_game = parse_game(meta["game"])
        if game is not None and game != policy_game:
            raise AbstractPolicyError(f"{path}: the policy was made for another game")
        abstraction = abstraction_from_spec(policy_game, meta["abstraction"])
        actions = meta.get("action_abstraction")
        try:
            sizing = None if actions is None else _sizing_from_meta(actions)
        except (BetSizingError, KeyError, TypeError) as error:
            raise AbstractPolicyError(f"{path}: unreadable bet sizing ({error})") from None
        if stored:
            try:
                tree = tree_from_arrays(policy_game, stored, abstraction.num_buckets, sizing)
            except BettingTreeError as error:
                raise AbstractPolicyError(f"{path}: {error}") from None
        else:
            tree = build_betting_tree(policy_game, abstraction.num_buckets, sizing)
        if tree.digest != meta["tree"]:
            raise AbstractPolicyError(f"{path}: the policy's betting tree differs from this game's")
        own = {
            k: v for k, v in meta.items() if k not in ("format", "game", "tree", "abstraction", "action_abstraction")
        }
        return cls(tree, abstraction, probabilities, own)

    def to_solver_policy(self) -> Any:
        """The same policy as a :class:`~pokerbot.strategies.solvers.policy.Policy` keyed by
        information-set keys (exact abstractions of small games only)."""
        from pokerbot.strategies.solvers.policy import Policy

        if not isinstance(self.abstraction, ExactAbstraction):
            raise AbstractPolicyError("only policies of exact abstractions convert to keyed policies")
        game = self.game
        entries: dict[str, tuple[str, list[float]]] = {}
        for node, state in _decision_states(self.tree):
            chars = "".join(str(a)[0] for a in self.tree.actions[node])
            r = state.round
            for (hole, board), bucket in self.abstraction._index[r].items():
                key = cards_text(hole) + board_text(game, board, r) + ":" + state.betting_string()
                entries[key] = (chars, [float(p) for p in self.row(node, bucket)])
        return Policy.from_arrays(game, entries, self.meta)


def _sizing_meta(sizing: BetSizing) -> dict[str, Any]:
    """A tree's bet sizing as stored in a policy's meta: ``pot_fractions``, ``all_in`` and
    ``max_raises`` for a :meth:`BetSizing.uniform` sizing, every field otherwise (``all_in_pots``
    where set: a policy stored without it goes all-in at any size; ``opens`` where set)."""
    if sizing.is_uniform:
        return {"pot_fractions": list(sizing.bets[0]), "all_in": sizing.all_in, "max_raises": sizing.max_raises}
    meta: dict[str, Any] = {
        "bets": [list(row) for row in sizing.bets],
        "raises": [list(row) for row in sizing.raises],
        "all_in": sizing.all_in,
        "max_raises": sizing.max_raises,
        "count_from": sizing.count_from,
    }
    if sizing.all_in_pots is not None:
        meta["all_in_pots"] = sizing.all_in_pots
    if sizing.opens:
        meta["opens"] = [list(row) for row in sizing.opens]
    return meta


def _sizing_from_meta(meta: dict[str, Any]) -> BetSizing:
    """The bet sizing :func:`_sizing_meta` stored."""
    if "pot_fractions" in meta:
        return BetSizing.uniform(tuple(meta["pot_fractions"]), meta["all_in"], meta["max_raises"])
    return BetSizing(
        tuple(tuple(row) for row in meta["bets"]),
        tuple(tuple(row) for row in meta["raises"]),
        meta["all_in"],
        meta["max_raises"],
        meta["count_from"],
        meta.get("all_in_pots"),
        tuple(tuple(row) for row in meta.get("opens", ())),
    )


def player_rows(tree: BettingTree, position: int) -> np.ndarray:
    """The information-set rows where ``position`` acts."""
    rows = [
        np.arange(int(tree.infoset_base[node]), int(tree.infoset_base[node] + tree.num_buckets[tree.round[node]]))
        for node in tree.decision_nodes
        if tree.player[node] == position
    ]
    return np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)


def combine(tree: BettingTree, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """A profile table: position 0 plays ``first``'s rows, position 1 ``second``'s."""
    table = np.array(second, dtype=np.float64)
    rows = player_rows(tree, 0)
    table[rows] = first[rows]
    return table


def from_solver_policy(tree: BettingTree, abstraction: ExactAbstraction, policy: Any) -> np.ndarray:
    """The table of a keyed :class:`~pokerbot.strategies.solvers.policy.Policy` of a small game
    (exact abstraction); information sets the policy lacks are uniform."""
    table = normalise(tree, np.zeros((tree.num_infosets, tree.max_actions)))
    for node, state in _decision_states(tree):
        chars = "".join(str(a)[0] for a in tree.actions[node])
        r = state.round
        for (hole, board), bucket in abstraction._index[r].items():
            key = cards_text(hole) + board_text(tree.game, board, r) + ":" + state.betting_string()
            if key in policy:
                given = dict(zip(policy.actions(key), policy.probabilities(key), strict=True))
                table[int(tree.infoset_base[node]) + bucket, : len(chars)] = [given.get(c, 0.0) for c in chars]
    return table


def _decision_states(tree: BettingTree) -> list[tuple[int, HandState]]:
    """Every decision node with a hand state of its betting (no cards)."""
    out: list[tuple[int, HandState]] = []
    stack = [(0, HandState(tree.game))]
    while stack:
        node, state = stack.pop()
        if tree.kind[node] != DECISION:
            continue
        out.append((node, state))
        for k, action in enumerate(tree.actions[node]):
            child = state.copy()
            child.apply(action)
            stack.append((int(tree.children[node, k]), child))
    return out


__all__ = [
    "FORMAT",
    "AbstractPolicy",
    "AbstractPolicyError",
    "combine",
    "from_solver_policy",
    "normalise",
    "player_rows",
    "quantise",
]
