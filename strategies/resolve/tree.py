"""The public betting tree of a heads-up subgame, from a real state to the end of its round.

:func:`build_subgame` walks the hand (:func:`~pokerbot.strategies.betting.tree.walk`) from the
state where the subgame starts (its **root**, any real betting so far), so who acts, legality,
all-ins and round ends are the dealer's rules. The tree holds the root's round only: a node
where the round ends without a fold is a **leaf** (the next round's cards are dealt there);
the last round is solved to the end of the hand. Cards are not in the tree: both players'
holdings enter through the ranges the solver carries (:mod:`.cfr`).

Node kinds: :data:`DECISION`, :data:`TERMINAL` (a player folded: ``folder`` says who; or the
hand ends in the last round with the board complete, a showdown: ``folder`` -1), :data:`LEAF`
(the round ends with the board to come; also an all-in called before the last round). Payoffs
are chips won over the whole hand, blinds included: a folder loses what it put in, a showdown
moves ``stake`` (the smaller amount put in) from loser to winner.

Raises: in limit games the game's raise; in no-limit games a
:class:`~pokerbot.strategies.betting.sizing.BetSizing` picks them (default ``BetSizing()``,
raises counted from the subgame's root), fractions of the pot after calling, plus all-in,
plus the real actions of a given line (an opponent's bet off the sizes is solved as played,
never mapped to a size of the tree).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from pokerbot.protocol.actions import Action
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.betting.sizing import BetSizing
from pokerbot.strategies.betting.tree import (
    DECISION,
    LEAF,
    TERMINAL,
    BettingTreeError,
    TreeArrays,
    TreeTooLargeError,
    walk,
)

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
    per-action arrays; -1 at terminals), ``rounds`` (each node's round: the root's, the next
    one at leaves). ``actions[node]`` are the real actions in order; ``states[node]`` the
    engine's state there.
    """

    round: int
    rounds: np.ndarray
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

    @cached_property
    def arrays(self) -> TreeArrays:
        """The tree as the solver's kernels take it (``base``: :attr:`slot`)."""
        return TreeArrays(
            self.kind,
            self.player,
            self.rounds,
            self.children,
            self.num_actions,
            self.slot,
            self.folder,
            self.spent,
            self.stake,
        )

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
    if root.game.is_nolimit and sizing is None:
        sizing = BetSizing()
    try:
        nodes = walk(root, sizing, path=path, stop_at_round_end=True, max_nodes=MAX_SUBGAME_NODES, keep_states=True)
    except TreeTooLargeError:
        raise SubgameError(f"subgame larger than {MAX_SUBGAME_NODES} nodes: use fewer bet sizes") from None
    except BettingTreeError as error:
        raise SubgameError(str(error)) from None
    kind = nodes.kind
    num_actions = nodes.num_children
    slot = np.full(kind.shape[0], -1, dtype=np.int64)
    decisions = np.flatnonzero(kind == DECISION)
    slot[decisions] = np.concatenate([[0], np.cumsum(num_actions[decisions])[:-1]])
    assert nodes.states is not None
    return SubgameTree(
        round=root.round,
        rounds=nodes.round,
        kind=kind,
        player=nodes.player,
        parent=nodes.parent,
        children=nodes.children_table(min_width=1),
        num_actions=num_actions,
        spent=nodes.spent,
        folder=nodes.folder,
        stake=nodes.spent.min(axis=1),
        slot=slot,
        actions=nodes.actions,
        states=nodes.states,
    )


__all__ = [
    "DECISION",
    "LEAF",
    "MAX_SUBGAME_NODES",
    "TERMINAL",
    "SubgameError",
    "SubgameTree",
    "build_subgame",
]
