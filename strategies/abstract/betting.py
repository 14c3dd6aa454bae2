"""The betting tree of a two-player ACPC game, flattened to arrays for the numba solvers.

One node per betting history (cards are not in the tree: they enter through the card
abstraction's buckets), built by :func:`~pokerbot.strategies.betting.tree.walk` from the
hand's start, depth first.

* Limit games: the tree is the game's (fold where legal, call, the limit raise).
* No-limit games: a :class:`~pokerbot.strategies.betting.sizing.BetSizing` picks the raises
  (fractions of the pot and all-in; :data:`DEFAULT_SIZING` unless given), so the tree is an
  abstraction of the betting; mapping real opponent bets onto it (translation) is the
  player's job.

Arrays (node ``0`` is the root, depth first): ``kind`` (:data:`DECISION` / :data:`TERMINAL`),
``player`` (0-based position to act), ``round``, ``children[node, k]`` (the node after the
``k``-th action, ``-1`` past ``num_actions``), ``actions[node]`` (the real ACPC actions in
that order), ``spent[node, p]`` (chips put in, blinds included). Terminals: ``folder``
(position that folded, or ``-1`` for a showdown) and ``stake`` (chips the showdown winner
takes from the loser: the smaller of the two amounts spent). Decision nodes own the
information-set rows ``infoset_base[node] .. + num_buckets[round] - 1`` (row = base + the
acting player's bucket in that round).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from pokerbot.protocol.actions import Action, ActionKind
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.betting.sizing import BetSizing
from pokerbot.strategies.betting.tree import (
    DECISION,
    TERMINAL,
    BettingTreeError,
    TreeArrays,
    TreeTooLargeError,
    walk,
)

MAX_NODES = 5_000_000
DEFAULT_SIZING = BetSizing.uniform((0.5, 1.0), all_in=True, max_raises=3)
"""The raises of a no-limit abstract tree when none are given: half pot, pot and all-in, at
most three raises per round."""
BLUEPRINT_SIZING = BetSizing(
    bets=((1.0,), (0.33, 0.75, 1.25)),
    raises=((1.0,), (1.0,)),
    all_in=True,
    max_raises=3,
    count_from="round",
    all_in_pots=None,
    opens=((2.0, 2.5, 3.0),),
)
"""The blueprint's raises: pre-flop opens to 2, 2.5 and 3 big blinds, re-raises of one pot (3x
heads-up: a 3-bet to 7.5 over 2.5, a 4-bet to 22.5 over 7.5); after the flop bets of 0.33, 0.75
and 1.25 pots and raises of one pot; all-in at every raise (the pre-flop all-in is a hundred pots
deep, which a stack-to-pot rule would take away); at most three raises a round."""
SIZINGS: dict[str, BetSizing] = {"pot": DEFAULT_SIZING, "blueprint": BLUEPRINT_SIZING}
"""Named betting abstractions of the no-limit abstract trees (``pokerbot solve --actions``)."""


@dataclass(frozen=True, eq=False)
class BettingTree:
    """A flattened betting tree (see the module docstring). Arrays must not be modified."""

    game: Game
    kind: np.ndarray
    player: np.ndarray
    round: np.ndarray
    children: np.ndarray
    num_actions: np.ndarray
    actions: tuple[tuple[Action, ...], ...]
    spent: np.ndarray
    folder: np.ndarray
    stake: np.ndarray
    parent: np.ndarray
    num_buckets: np.ndarray
    infoset_base: np.ndarray
    sizing: BetSizing | None

    @property
    def num_nodes(self) -> int:
        """Nodes, terminals included."""
        return int(self.kind.shape[0])

    @property
    def max_actions(self) -> int:
        """The most actions at any node (columns of the policy tables)."""
        return int(self.children.shape[1])

    @cached_property
    def num_infosets(self) -> int:
        """Information-set rows (decision nodes times their round's buckets)."""
        decisions = self.kind == DECISION
        return int(self.num_buckets[self.round[decisions]].sum())

    @cached_property
    def decision_nodes(self) -> np.ndarray:
        """Indices of the decision nodes."""
        return np.flatnonzero(self.kind == DECISION)

    @cached_property
    def arrays(self) -> TreeArrays:
        """The tree as the kernels take it (``base``: :attr:`infoset_base`)."""
        return TreeArrays(
            self.kind,
            self.player,
            self.round,
            self.children,
            self.num_actions,
            self.infoset_base,
            self.folder,
            self.spent,
            self.stake,
        )

    @cached_property
    def digest(self) -> str:
        """A short hash of the tree's shape and buckets: policies are bound to it."""
        h = hashlib.sha256()
        for array in (self.kind, self.player, self.round, self.children, self.spent, self.num_buckets):
            h.update(np.ascontiguousarray(array).tobytes())
        return h.hexdigest()[:16]

    def terminal_value(self, node: int, showdown_sign: int) -> float:
        """Position 0's payoff in chips at terminal ``node`` (``showdown_sign``: +1 it wins, 0 tie, -1 loses)."""
        folder = int(self.folder[node])
        if folder == 0:
            return -float(self.spent[node, 0])
        if folder == 1:
            return float(self.spent[node, 1])
        return float(showdown_sign * self.stake[node])

    def node_of(self, state: HandState) -> int:
        """The node of ``state``'s betting history; :class:`BettingTreeError` if it is not in the tree."""
        node = 0
        for _round, _actor, action in state.history():
            node = self.child(node, action)
        return node

    def child(self, node: int, action: Action) -> int:
        """The node after ``action`` at ``node``; :class:`BettingTreeError` if the tree lacks it."""
        for k, candidate in enumerate(self.actions[node]):
            if candidate == action:
                return int(self.children[node, k])
        raise BettingTreeError(f"action {action} is not in the betting tree at node {node}")

    def __repr__(self) -> str:
        return (
            f"BettingTree({self.num_nodes} nodes, {len(self.decision_nodes)} decisions, {self.num_infosets} info sets)"
        )


def build_betting_tree(
    game: Game, num_buckets: tuple[int, ...] | np.ndarray, sizing: BetSizing | None = None
) -> BettingTree:
    """The betting tree of two-player ``game`` with ``num_buckets[round]`` buckets per round.

    No-limit games take their raises from ``sizing`` (default :data:`DEFAULT_SIZING`).
    """
    if game.num_players != 2:
        raise BettingTreeError("betting trees are built for two-player games")
    buckets = np.asarray(num_buckets, dtype=np.int64)
    if buckets.shape != (game.num_rounds,) or (buckets < 1).any():
        raise BettingTreeError(f"need a positive bucket count for each of the {game.num_rounds} rounds")
    if game.is_nolimit and sizing is None:
        sizing = DEFAULT_SIZING
    try:
        nodes = walk(HandState(game), sizing, max_nodes=MAX_NODES)
    except TreeTooLargeError:
        raise BettingTreeError(
            f"betting tree larger than {MAX_NODES} nodes: use a coarser action abstraction"
        ) from None
    children = nodes.children_table()
    return BettingTree(
        game=game,
        kind=nodes.kind,
        player=nodes.player,
        round=nodes.round,
        children=children,
        num_actions=nodes.num_children,
        actions=nodes.actions,
        spent=nodes.spent,
        folder=nodes.folder,
        stake=nodes.spent.min(axis=1),
        parent=nodes.parent,
        num_buckets=buckets,
        infoset_base=_infoset_base(nodes.kind, nodes.round, buckets),
        sizing=sizing,
    )


def _infoset_base(kind: np.ndarray, rounds: np.ndarray, buckets: np.ndarray) -> np.ndarray:
    """The first information-set row of each decision node (-1 elsewhere), rows in node order."""
    base = np.full(kind.shape[0], -1, dtype=np.int64)
    decisions = np.flatnonzero(kind == DECISION)
    sizes = buckets[rounds[decisions]]
    base[decisions] = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    return base


TREE_ARRAYS = ("kind", "player", "round", "children", "spent", "folder", "parent", "action_kind", "action_size")
"""The arrays :func:`tree_arrays` writes (stored as ``tree_NAME`` in a policy file)."""


def tree_arrays(tree: BettingTree) -> dict[str, np.ndarray]:
    """``tree`` as compact arrays (:data:`TREE_ARRAYS`; actions as kind and raise-to size per
    child, -1 where a node has fewer actions), for :func:`tree_from_arrays`."""
    action_kind = np.full(tree.children.shape, -1, dtype=np.int8)
    action_size = np.zeros(tree.children.shape, dtype=np.int32)
    for node, actions in enumerate(tree.actions):
        for k, action in enumerate(actions):
            action_kind[node, k] = int(action.kind)
            action_size[node, k] = action.size
    return {
        "kind": tree.kind.astype(np.int8),
        "player": tree.player.astype(np.int8),
        "round": tree.round.astype(np.int8),
        "children": tree.children.astype(np.int32),
        "spent": tree.spent.astype(np.int32),
        "folder": tree.folder.astype(np.int8),
        "parent": tree.parent.astype(np.int32),
        "action_kind": action_kind,
        "action_size": action_size,
    }


def tree_from_arrays(
    game: Game,
    arrays: dict[str, np.ndarray],
    num_buckets: tuple[int, ...] | np.ndarray,
    sizing: BetSizing | None = None,
) -> BettingTree:
    """The tree :func:`tree_arrays` wrote (the same as :func:`build_betting_tree` with these
    settings, in a fraction of the time: a no-limit tree takes seconds to walk);
    :class:`BettingTreeError` when the arrays do not fit together."""
    try:
        kind, children = arrays["kind"].astype(np.int64), arrays["children"].astype(np.int64)
        action_kind, action_size = arrays["action_kind"], arrays["action_size"]
        spent = arrays["spent"].astype(np.int64)
        fields = {name: arrays[name].astype(np.int64) for name in ("player", "round", "folder", "parent")}
    except KeyError as error:
        raise BettingTreeError(f"the stored betting tree lacks {error}") from None
    num_actions = (children >= 0).sum(axis=1)
    if action_kind.shape != children.shape or not np.array_equal((action_kind >= 0).sum(axis=1), num_actions):
        raise BettingTreeError("the stored betting tree's actions do not match its children")
    if game.is_nolimit and sizing is None:
        sizing = DEFAULT_SIZING
    buckets = np.asarray(num_buckets, dtype=np.int64)
    width = action_kind.shape[1]
    distinct: dict[tuple[int, ...], tuple[Action, ...]] = {}  # most nodes share their actions with others

    def node_actions(row: list[int]) -> tuple[Action, ...]:
        key = tuple(row)
        found = distinct.get(key)
        if found is None:
            found = distinct[key] = tuple(
                Action(ActionKind(row[k]), row[width + k]) for k in range(width) if row[k] >= 0
            )
        return found

    combined = np.concatenate([action_kind.astype(np.int64), action_size.astype(np.int64)], axis=1)
    actions = tuple(map(node_actions, combined.tolist()))
    round_array = fields["round"]
    return BettingTree(
        game=game,
        kind=kind,
        player=fields["player"],
        round=round_array,
        children=children,
        num_actions=num_actions.astype(np.int64),
        actions=actions,
        spent=spent,
        folder=fields["folder"],
        stake=spent.min(axis=1),
        parent=fields["parent"],
        num_buckets=buckets,
        infoset_base=_infoset_base(kind, round_array, buckets),
        sizing=sizing,
    )


__all__ = [
    "DECISION",
    "DEFAULT_SIZING",
    "MAX_NODES",
    "TERMINAL",
    "BettingTree",
    "BettingTreeError",
    "BLUEPRINT_SIZING",
    "SIZINGS",
    "TREE_ARRAYS",
    "build_betting_tree",
    "tree_arrays",
    "tree_from_arrays",
]
