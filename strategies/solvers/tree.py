"""The public game tree of a small ACPC limit game, flattened to numpy arrays.

Solvers work on the *public tree*: one node per public state (the betting so far and the
board cards dealt), never per deal. Private cards are handled by vectors over each player's
possible hole-card *hands* (every combination of ``numHoleCards`` cards of the deck), so an
information set is a pair (decision node, hand of the player to act): see
:mod:`pokerbot.protocol.infosets` for its ACPC key, e.g. ``Qh/Kh:rc/r``.

The tree is built once by :func:`~pokerbot.strategies.betting.tree.walk` (breadth first, board
cards dealt at chance nodes; legality, round ends, all-in run-outs and payoffs are the dealer's
rules) and then stored as arrays:

* nodes are numbered breadth first, so node ``0`` is the root, the nodes of one depth are
  contiguous (``level_start``) and the children of a node are contiguous (``first_child``,
  ``num_children``) and in the order of their parents;
* ``kind`` is :data:`DECISION`, :data:`CHANCE` (a board card deal, a public chance event)
  or :data:`TERMINAL` (the kinds of every betting tree,
  :mod:`pokerbot.strategies.betting.tree`); ``player`` is the 0-based position to act at
  decision nodes;
* each non-root node is also the *edge* that leads to it: ``label`` is the action
  character (``f``, ``c`` or ``r``, children in that order) or the dealt board cards;
* ``utility[i]`` holds player ``i``'s chance-weighted payoffs at the terminals, in chips:
  an array ``[terminal, own hand, other players' hands...]`` whose entry is
  ``P(deal) * u_i`` for compatible hands (no card shared with another hand or the board)
  and 0 otherwise. Summing it against the other players' reach vectors gives player ``i``'s
  counterfactual values, card removal included.

Algorithms therefore see only nodes, actions, chance outcomes, information sets and
returns: never wire strings. :func:`build_tree` refuses no-limit games and games whose tree
or payoff tables would exceed :class:`TreeLimits` with :class:`UnsupportedGameError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from math import comb

import numpy as np

from pokerbot.protocol.cards import Card
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.infosets import cards_text, public_suffix
from pokerbot.strategies.betting.tree import CHANCE, DECISION, TERMINAL, TreeTooLargeError, dealt_cards, walk
from pokerbot.strategies.solvers.errors import UnsupportedGameError
from pokerbot.strategies.solvers.payoffs import hand_bitmasks, terminal_utilities

ACTION_CHARS = "fcr"
"""The action characters in the order children are stored (fold, call, raise)."""


@dataclass(frozen=True)
class TreeLimits:
    """How large a game :func:`build_tree` accepts.

    ``max_nodes`` bounds the public nodes; ``max_payoff_entries`` bounds the entries of the
    terminal payoff tables (players x terminals x hands ** players, 8 bytes each).
    """

    max_nodes: int = 2_000_000
    max_payoff_entries: int = 30_000_000


@dataclass(frozen=True, eq=False)
class PublicTree:
    """A flattened public tree (see the module docstring). Arrays must not be modified."""

    game: Game
    hands: tuple[tuple[Card, ...], ...]
    """Every hole-card hand, cards in increasing order; vectors over hands use this order."""
    kind: np.ndarray
    player: np.ndarray
    parent: np.ndarray
    first_child: np.ndarray
    num_children: np.ndarray
    depth: np.ndarray
    label: tuple[str, ...]
    suffix: tuple[str, ...]
    """Public part of the info-set key at decision nodes (board, ``:``, betting); else ``''``."""
    valid: np.ndarray
    """``[node, hand]``: True when the hand shares no card with the node's board."""
    terminals: np.ndarray
    utility: tuple[np.ndarray, ...] = field(repr=False)

    @property
    def num_players(self) -> int:
        """Players in the game."""
        return self.game.num_players

    @property
    def num_nodes(self) -> int:
        """Public nodes, root included."""
        return int(self.kind.shape[0])

    @property
    def num_hands(self) -> int:
        """Possible hole-card hands of one player."""
        return len(self.hands)

    @cached_property
    def hand_texts(self) -> tuple[str, ...]:
        """Each hand in key notation (highest card first), e.g. ``Ks``."""
        return tuple(cards_text(hand) for hand in self.hands)

    @cached_property
    def hand_index(self) -> dict[str, int]:
        """Hand text to index in :attr:`hands`."""
        return {text: index for index, text in enumerate(self.hand_texts)}

    @cached_property
    def level_start(self) -> np.ndarray:
        """``level_start[d]`` is the first node of depth ``d``; the last entry is the node count."""
        deepest = int(self.depth[-1])
        return np.searchsorted(self.depth, np.arange(deepest + 2)).astype(np.int64)

    @cached_property
    def decision_nodes(self) -> np.ndarray:
        """Indices of every decision node."""
        return np.flatnonzero(self.kind == DECISION)

    @cached_property
    def num_infosets(self) -> int:
        """Information sets of all players (decision node x hand not clashing with the board)."""
        return int(self.valid[self.decision_nodes].sum())

    def children(self, node: int) -> range:
        """The child nodes of ``node`` (empty for a terminal)."""
        first = int(self.first_child[node])
        return range(first, first + int(self.num_children[node])) if first >= 0 else range(0)

    def actions(self, node: int) -> str:
        """The legal actions at decision ``node`` as characters in ``fcr`` order."""
        return "".join(self.label[child] for child in self.children(node))

    def infoset_key(self, node: int, hand: int) -> str:
        """The key of the information set (decision ``node``, ``hand`` of the player to act)."""
        return self.hand_texts[hand] + self.suffix[node]

    def __repr__(self) -> str:
        return (
            f"PublicTree({self.num_players} players, {self.num_nodes} public nodes, "
            f"{len(self.terminals)} terminals, {self.num_hands} hands, {self.num_infosets} info sets)"
        )


def _check_size(game: Game, limits: TreeLimits) -> None:
    if game.is_nolimit:
        raise UnsupportedGameError("no-limit games cannot be enumerated: the solvers handle limit games only")
    deck = len(game.deck)
    hands = comb(deck, game.num_hole_cards)
    if hands**game.num_players > limits.max_payoff_entries:
        raise UnsupportedGameError(
            f"game too large to solve exactly: {hands} hands per player, "
            f"{hands}^{game.num_players} hand combinations (limit {limits.max_payoff_entries})"
        )
    remaining = deck - game.num_players * game.num_hole_cards
    boards = 1
    for count in game.num_board_cards:
        boards *= comb(remaining, count)
        remaining -= count
    if boards > limits.max_nodes:
        raise UnsupportedGameError(
            f"game too large to solve exactly: {boards} board outcomes (limit {limits.max_nodes} nodes)"
        )


def build_tree(game: Game, limits: TreeLimits | None = None) -> PublicTree:
    """Enumerate the public tree of ``game`` (see the module docstring).

    Raises :class:`UnsupportedGameError` for no-limit games and games over ``limits``.
    """
    limits = limits or TreeLimits()
    _check_size(game, limits)
    hands = tuple(combinations(sorted(game.deck), game.num_hole_cards))
    try:
        nodes = walk(HandState(game), deal_boards=True, order="breadth", max_nodes=limits.max_nodes, keep_states=True)
    except TreeTooLargeError:
        raise UnsupportedGameError(
            f"game too large to solve exactly: more than {limits.max_nodes} public nodes"
        ) from None
    states = nodes.states
    assert states is not None
    kind = nodes.kind
    terminal_nodes = np.flatnonzero(kind == TERMINAL)
    entries = game.num_players * len(terminal_nodes) * len(hands) ** game.num_players
    if entries > limits.max_payoff_entries:
        raise UnsupportedGameError(
            f"game too large to solve exactly: payoff tables need {entries} entries (limit {limits.max_payoff_entries})"
        )
    label = [""] * nodes.num_nodes
    for node, actions in enumerate(nodes.actions):
        first = int(nodes.child_start[node])
        for k, action in enumerate(actions):
            label[int(nodes.child[first + k])] = ACTION_CHARS[int(action.kind)]
    for chance in np.flatnonzero(kind == CHANCE):
        for child in nodes.child[nodes.child_start[chance] : nodes.child_start[chance + 1]]:
            label[int(child)] = cards_text(dealt_cards(nodes, int(child)))
    suffix = tuple(public_suffix(state) if k == DECISION else "" for k, state in zip(kind.tolist(), states))
    hand_bits = hand_bitmasks(hands)
    board_bits = np.array([sum(1 << card for card in state.board_cards) for state in states], dtype=np.int64)
    valid = (hand_bits[None, :] & board_bits[:, None]) == 0
    utility = terminal_utilities(game, hands, [states[int(node)] for node in terminal_nodes])
    num_children = nodes.num_children
    inner = num_children > 0
    first_child = np.full(nodes.num_nodes, -1, dtype=np.int64)
    first_child[inner] = nodes.child[nodes.child_start[:-1][inner]]  # breadth first: siblings contiguous
    return PublicTree(
        game=game,
        hands=hands,
        kind=kind.astype(np.int8),
        player=nodes.player.astype(np.int8),
        parent=nodes.parent,
        first_child=first_child,
        num_children=num_children,
        depth=nodes.depth,
        label=tuple(label),
        suffix=suffix,
        valid=valid,
        terminals=terminal_nodes.astype(np.int64),
        utility=utility,
    )


__all__ = [
    "ACTION_CHARS",
    "CHANCE",
    "DECISION",
    "TERMINAL",
    "PublicTree",
    "TreeLimits",
    "build_tree",
]
