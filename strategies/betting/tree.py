"""The one builder of betting trees: :func:`walk`, from any state of any ACPC game.

:func:`walk` plays :class:`~pokerbot.protocol.hand.HandState` forward from a root state, so who
acts, legality, round ends, all-ins and payoffs are the dealer's rules. At a decision the
children are, in this order: fold (where legal), call, then the raises, smallest first: the
game's raise in a limit game, the :class:`~pokerbot.strategies.betting.sizing.BetSizing`'s in a
no-limit game (none without a sizing), plus the next action of a forced ``path`` of real
actions where the sizing lacks it. Options:

* ``stop_at_round_end``: the tree holds the root's round only; where the round ends without a
  fold before the last round (an all-in called included) the node is a :data:`LEAF`;
* ``deal_boards``: a round's board cards are dealt at a :data:`CHANCE` node, one child per
  combination of the cards left (the small games' public trees); without it the board is not
  in the tree (card abstractions and ranges deal it);
* ``order``: nodes numbered depth first (pre-order: a node's subtree follows it) or breadth
  first (the nodes of one depth contiguous, and a node's children contiguous).

Node kinds, shared by every tree of the package: :data:`DECISION`, :data:`TERMINAL` (the hand
is over: ``folder`` is the position that folded, or ``-1`` for a showdown), :data:`CHANCE`,
:data:`LEAF`. The values of :data:`DECISION` and :data:`TERMINAL` are stored in the abstract
games' policy files (``tree_kind``) and hashed into their trees' digests: they do not change.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal, NamedTuple

import numpy as np

from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action, ActionKind
from pokerbot.protocol.cards import Card
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.betting.sizing import BetSizing

DECISION, TERMINAL, CHANCE, LEAF = 0, 1, 2, 3
"""Node kinds (see the module docstring)."""

Order = Literal["depth", "breadth"]


class BettingTreeError(ValueError):
    """A betting tree cannot be built (a forced action that is not legal), or a real hand
    leaves it."""


class TreeTooLargeError(BettingTreeError):
    """The tree would have more nodes than allowed."""


@dataclass(frozen=True, eq=False)
class Walk:
    """The nodes :func:`walk` reached (node 0 is the root). Arrays are ``int64``.

    ``kind``, ``player`` (position to act at decisions, -1 elsewhere), ``round`` (the state's
    round), ``depth`` (edges from the root), ``parent`` (-1 at the root), ``spent[node, p]``
    (chips put in, blinds included), ``folder`` (position that folded at a terminal, else -1).
    Children: node ``n``'s are ``child[child_start[n] : child_start[n + 1]]`` in order.
    ``actions[node]``: the real actions of a decision's children (``()`` elsewhere).
    ``states[node]``: the state there (with ``keep_states``; at a chance node's children the
    state holds the cards dealt).
    """

    kind: np.ndarray
    player: np.ndarray
    round: np.ndarray
    depth: np.ndarray
    parent: np.ndarray
    spent: np.ndarray
    folder: np.ndarray
    child_start: np.ndarray
    child: np.ndarray
    actions: tuple[tuple[Action, ...], ...]
    states: tuple[HandState, ...] | None

    @property
    def num_nodes(self) -> int:
        """Nodes, root included."""
        return int(self.kind.shape[0])

    @property
    def num_children(self) -> np.ndarray:
        """Children of each node."""
        return np.diff(self.child_start)

    def children_table(self, min_width: int = 0) -> np.ndarray:
        """``children[node, k]``: the ``k``-th child, -1 past the node's last (at least
        ``min_width`` columns)."""
        counts = self.num_children
        width = max(min_width, int(counts.max()) if counts.size else 0)
        table = np.full((self.num_nodes, width), -1, dtype=np.int64)
        rows = np.repeat(np.arange(self.num_nodes), counts)
        columns = np.arange(self.child.shape[0]) - np.repeat(self.child_start[:-1], counts)
        table[rows, columns] = self.child
        return table


class TreeArrays(NamedTuple):
    """A heads-up betting tree as one argument of the numba kernels (``int64`` arrays, node
    ``0`` the root): ``kind``, ``player`` (-1 off decisions), ``round``, ``children[node, k]``
    (-1 past ``num_actions[node]``), ``num_actions``, ``base`` (a decision's first row in the
    solver's tables: the abstract trees' information-set rows, the subgames' action slots; -1
    elsewhere), ``folder`` (-1 unless a fold), ``spent[node, p]`` and ``stake`` (the smaller
    amount spent: what a showdown moves)."""

    kind: np.ndarray
    player: np.ndarray
    round: np.ndarray
    children: np.ndarray
    num_actions: np.ndarray
    base: np.ndarray
    folder: np.ndarray
    spent: np.ndarray
    stake: np.ndarray


def _rounds_needed(state: HandState, dealt: int) -> int:
    """How many rounds' boards must be dealt before ``state`` can be played on or scored."""
    if state.finished and not state.showdown():
        return dealt
    return state.round + 1


def walk(
    root: HandState,
    sizing: BetSizing | None = None,
    *,
    path: Sequence[Action] = (),
    stop_at_round_end: bool = False,
    deal_boards: bool = False,
    order: Order = "depth",
    max_nodes: int = 5_000_000,
    keep_states: bool = False,
) -> Walk:
    """The betting tree from ``root`` (see the module docstring).

    ``sizing`` picks the raises of a no-limit game (None: no raises); ``path``: real actions
    from the root, each added to the tree where the sizing lacks it
    (:class:`BettingTreeError` when one is not legal); with ``deal_boards`` the root's board
    must hold exactly the boards of the rounds up to its own. :class:`TreeTooLargeError` past ``max_nodes`` nodes.
    """
    game = root.game
    nolimit = game.is_nolimit
    players = game.num_players
    start_round = root.round
    last_round = game.num_rounds - 1
    root_is_last = start_round == last_round
    breadth = order == "breadth"
    kinds: list[int] = []
    actors: list[int] = []
    rounds: list[int] = []
    depths: list[int] = []
    parents: list[int] = []
    spent: list[list[int]] = []
    folders: list[int] = []
    child_lists: list[list[int]] = []
    actions: list[tuple[Action, ...]] = []
    states: list[HandState] = []
    dealt_root = 0  # rounds whose board is on the root's board (or has no cards)
    if deal_boards:
        while dealt_root <= root.round and game.board_start[dealt_root] + game.num_board_cards[dealt_root] <= len(
            root.board_cards
        ):
            dealt_root += 1
    # (state, parent, slot in the parent, depth, raises since the root, index into path or -1, rounds dealt)
    pending: deque[tuple[HandState, int, int, int, int, int, int]] = deque(
        [(root.copy(), -1, -1, 0, 0, 0 if path else -1, dealt_root)]
    )
    take = pending.popleft if breadth else pending.pop
    push = pending.extend
    add_kind, add_actor, add_round, add_depth = kinds.append, actors.append, rounds.append, depths.append
    add_parent, add_spent, add_folder, add_actions = parents.append, spent.append, folders.append, actions.append
    while pending:
        state, parent, slot, depth, raises_made, on_path, dealt = take()
        node = len(kinds)
        if node >= max_nodes:
            raise TreeTooLargeError(f"betting tree larger than {max_nodes} nodes")
        if parent >= 0:
            child_lists[parent][slot] = node
        add_parent(parent)
        add_depth(depth)
        add_round(state.round)
        add_spent(state.spent[:])
        if keep_states:
            states.append(state)
        children: list[tuple[HandState, int, int, int, int, int, int]] = []
        if stop_at_round_end and (state.finished or state.round != start_round):
            if any(state.folded):
                add_kind(TERMINAL)
                add_folder(state.folded.index(True))
            else:
                add_kind(TERMINAL if root_is_last else LEAF)
                add_folder(-1)
            add_actor(-1)
            add_actions(())
        else:
            needed = dealt
            if deal_boards:
                needed = _rounds_needed(state, dealt)
                while dealt < needed and game.num_board_cards[dealt] == 0:
                    dealt += 1
            if dealt < needed:
                add_kind(CHANCE)
                add_actor(-1)
                add_folder(-1)
                add_actions(())
                rest = sorted(set(game.deck) - set(state.board_cards))
                for k, cards in enumerate(combinations(rest, game.num_board_cards[dealt])):
                    child = state.copy()
                    child.board_cards = state.board_cards + tuple(cards)
                    children.append((child, node, k, depth + 1, raises_made, -1, dealt + 1))
            elif state.finished:
                add_kind(TERMINAL)
                add_actor(-1)
                add_folder(state.folded.index(True) if any(state.folded) else -1)
                add_actions(())
            else:
                add_kind(DECISION)
                add_actor(state.current_player)  # type: ignore[arg-type]
                add_folder(-1)
                node_actions = [a for a in (FOLD, CALL) if state.can(a)]
                if nolimit:
                    if sizing is not None:
                        node_actions.extend(sizing.raise_actions(state, raises_made))
                elif state.can(LIMIT_RAISE):
                    node_actions.append(LIMIT_RAISE)
                forced = path[on_path] if 0 <= on_path < len(path) else None
                if forced is not None:
                    if not state.can(forced):
                        raise BettingTreeError(
                            f"action {forced} of the path is not legal at {state.betting_string()!r}"
                        )
                    if forced not in node_actions:
                        node_actions.append(forced)
                        node_actions.sort(key=lambda a: (int(a.kind), a.size))
                add_actions(tuple(node_actions))
                for k, action in enumerate(node_actions):
                    child = state.copy()
                    child.apply(action)
                    next_on_path = on_path + 1 if forced is not None and action == forced else -1
                    raised = raises_made + 1 if action.kind is ActionKind.RAISE else raises_made
                    children.append((child, node, k, depth + 1, raised, next_on_path, dealt))
        child_lists.append([-1] * len(children))
        push(children if breadth else reversed(children))
        if breadth and len(kinds) + len(pending) > max_nodes:  # the queue holds a whole depth: stop early
            raise TreeTooLargeError(f"betting tree larger than {max_nodes} nodes")
    counts = np.fromiter(map(len, child_lists), dtype=np.int64, count=len(child_lists))
    child_start = np.zeros(len(kinds) + 1, dtype=np.int64)
    np.cumsum(counts, out=child_start[1:])
    flat = [c for row in child_lists for c in row]
    return Walk(
        kind=np.array(kinds, dtype=np.int64),
        player=np.array(actors, dtype=np.int64),
        round=np.array(rounds, dtype=np.int64),
        depth=np.array(depths, dtype=np.int64),
        parent=np.array(parents, dtype=np.int64),
        spent=np.array(spent, dtype=np.int64).reshape(len(kinds), players),
        folder=np.array(folders, dtype=np.int64),
        child_start=child_start,
        child=np.array(flat, dtype=np.int64),
        actions=tuple(actions),
        states=tuple(states) if keep_states else None,
    )


def dealt_cards(walk_: Walk, node: int) -> tuple[Card, ...]:
    """The board cards dealt on the edge into ``node`` (a chance node's child; needs states)."""
    assert walk_.states is not None
    parent = int(walk_.parent[node])
    return walk_.states[node].board_cards[len(walk_.states[parent].board_cards) :]


__all__ = [
    "CHANCE",
    "DECISION",
    "LEAF",
    "TERMINAL",
    "BettingTreeError",
    "Order",
    "TreeArrays",
    "TreeTooLargeError",
    "Walk",
    "dealt_cards",
    "walk",
]
