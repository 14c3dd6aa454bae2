"""The public betting tree of a heads-up subgame, from a real state to the end of its round.

:func:`build_subgame` walks :class:`~pokerbot.protocol.hand.HandState` from the state where the
subgame starts (its **root**, any real betting so far), so who acts, legality, all-ins and round
ends are the dealer's rules. The tree holds the root's round only: a node where the round ends
without a fold is a **leaf** (the next round's cards are dealt there); the last round is solved
to the end of the hand. Cards are not in the tree: both players' holdings enter through the
ranges the solver carries (:mod:`.cfr`).

Node kinds: :data:`DECISION`, :data:`FOLD_NODE` (a player folded), :data:`SHOWDOWN` (the hand ends in
the last round with the board complete), :data:`LEAF` (the round ends with the board to come;
also an all-in called before the last round). Payoffs are chips won over the whole hand,
blinds included: a folder loses what it put in, a showdown moves ``stake`` (the smaller
amount put in) from loser to winner.

Raises: in limit games the game's raise; in no-limit games a
:class:`~pokerbot.strategies.betting.sizing.BetSizing` picks them (default ``BetSizing()``,
raises counted from the subgame's root), fractions of the pot after calling, plus all-in,
plus the real actions of a given line (an opponent's bet off the sizes is solved as played,
never mapped to a size of the tree).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.betting.sizing import BetSizing

DECISION, FOLD_NODE, SHOWDOWN, LEAF = 0, 1, 2, 3
MAX_SUBGAME_NODES = 200_000


class SubgameError(ValueError):
    """A subgame cannot be built (no player to act, too many nodes, a path action not legal)."""


@dataclass(eq=False)
class SubgameTree:
    """A flattened subgame tree (node 0 is the root; parents before children).

    Arrays: ``kind``, ``player`` (position to act, -1 at terminals), ``parent``,
    ``children[node, k]`` (-1 past ``num_actions[node]``), ``spent[node, p]`` (chips put in,
    whole hand), ``folder`` (position that folded, -1 elsewhere), ``stake`` (chips a showdown
    or leaf moves), ``slot[node]`` (first row of the decision's actions in the solver's
    per-action arrays; -1 at terminals). ``actions[node]`` are the real actions in order;
    ``states[node]`` the engine's state there.
    """

    round: int
    kind: np.ndarray
    player: np.ndarray
    parent: np.ndarray
    children: np.ndarray
    num_actions: np.ndarray
    spent: np.ndarray
    folder: np.ndarray
    stake: np.ndarray
    slot: np.ndarray
    actions: tuple[tuple[Action, ...], ...]
    states: tuple[HandState, ...] = field(repr=False)

    @property
    def num_nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def num_slots(self) -> int:
        """Rows of the per-action arrays (one per action of every decision node)."""
        decisions = self.kind == DECISION
        return int(self.num_actions[decisions].sum())

    def child(self, node: int, action: Action) -> int:
        """The child of ``node`` after ``action``; SubgameError if the tree lacks it."""
        for k, candidate in enumerate(self.actions[node]):
            if candidate == action:
                return int(self.children[node, k])
        raise SubgameError(f"action {action} is not in the subgame tree at node {node}")

    def node_of(self, state: HandState) -> int:
        """The node of ``state``, a continuation of the root's betting within the round."""
        root = self.states[0]
        done = sum(len(a) for a in root.actions)
        history = state.history()
        node = 0
        for _round, _actor, action in history[done:]:
            node = self.child(node, action)
        return node


def build_subgame(
    root: HandState,
    sizing: BetSizing | None = None,
    path: Sequence[Action] = (),
) -> SubgameTree:
    """The subgame tree from ``root`` to the end of its round (see the module docstring).

    ``path`` is a line of real actions from the root that must be in the tree (an opponent's
    bet of any size, our own earlier actions): each is added where the sizing lacks it.
    ``sizing`` picks the no-limit raises (default :class:`BetSizing`).
    """
    if root.finished or root.current_player is None:
        raise SubgameError("a subgame starts where a player is to act")
    nolimit = root.game.is_nolimit
    if nolimit and sizing is None:
        sizing = BetSizing()
    start_round = root.round
    kinds: list[int] = []
    players: list[int] = []
    parents: list[int] = []
    child_lists: list[list[int]] = []
    actions: list[tuple[Action, ...]] = []
    spent: list[tuple[int, int]] = []
    folders: list[int] = []
    states: list[HandState] = []
    # (state, parent, slot in parent, raises made since the root, index into path or -1)
    stack: list[tuple[HandState, int, int, int, int]] = [(root.copy(), -1, -1, 0, 0 if path else -1)]
    while stack:
        state, parent, k_in_parent, raises_made, on_path = stack.pop()
        node = len(kinds)
        if node >= MAX_SUBGAME_NODES:
            raise SubgameError(f"subgame larger than {MAX_SUBGAME_NODES} nodes: use fewer bet sizes")
        if parent >= 0:
            child_lists[parent][k_in_parent] = node
        parents.append(parent)
        spent.append((state.spent[0], state.spent[1]))
        states.append(state)
        if state.finished or state.round != start_round:
            if any(state.folded):
                kinds.append(FOLD_NODE)
                folders.append(state.folded.index(True))
            else:
                last = state.round == state.game.num_rounds - 1 and start_round == state.game.num_rounds - 1
                kinds.append(SHOWDOWN if last else LEAF)
                folders.append(-1)
            players.append(-1)
            child_lists.append([])
            actions.append(())
            continue
        kinds.append(DECISION)
        players.append(int(state.current_player))  # type: ignore[arg-type]
        folders.append(-1)
        node_actions = [a for a in (FOLD, CALL) if state.can(a)]
        if nolimit:
            assert sizing is not None
            node_actions.extend(sizing.raise_actions(state, raises_made))
        elif state.can(LIMIT_RAISE):
            node_actions.append(LIMIT_RAISE)
        forced = path[on_path] if 0 <= on_path < len(path) else None
        if forced is not None:
            if not state.can(forced):
                raise SubgameError(f"action {forced} of the path is not legal at {state.betting_string()!r}")
            if forced not in node_actions:
                node_actions.append(forced)
        node_actions.sort(key=lambda a: (int(a.kind), a.size))
        actions.append(tuple(node_actions))
        child_lists.append([-1] * len(node_actions))
        for k in range(len(node_actions) - 1, -1, -1):
            action = node_actions[k]
            child = state.copy()
            child.apply(action)
            next_on_path = on_path + 1 if forced is not None and action == forced else -1
            stack.append((child, node, k, raises_made + (action.kind == LIMIT_RAISE.kind), next_on_path))
    width = max(1, max(len(c) for c in child_lists))
    children = np.full((len(kinds), width), -1, dtype=np.int64)
    for node, row in enumerate(child_lists):
        children[node, : len(row)] = row
    kind = np.array(kinds, dtype=np.int64)
    num_actions = np.array([len(c) for c in child_lists], dtype=np.int64)
    slot = np.full(len(kinds), -1, dtype=np.int64)
    decisions = np.flatnonzero(kind == DECISION)
    slot[decisions] = np.concatenate([[0], np.cumsum(num_actions[decisions])[:-1]])
    spent_array = np.array(spent, dtype=np.int64)
    return SubgameTree(
        round=start_round,
        kind=kind,
        player=np.array(players, dtype=np.int64),
        parent=np.array(parents, dtype=np.int64),
        children=children,
        num_actions=num_actions,
        spent=spent_array,
        folder=np.array(folders, dtype=np.int64),
        stake=spent_array.min(axis=1),
        slot=slot,
        actions=tuple(actions),
        states=tuple(states),
    )


__all__ = [
    "DECISION",
    "FOLD_NODE",
    "LEAF",
    "SHOWDOWN",
    "SubgameError",
    "SubgameTree",
    "build_subgame",
]
