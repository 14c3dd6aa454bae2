"""Fast hand simulation on a public tree, for experiments (no HandState, no wire strings).

:class:`TreeSimulator` deals a hand uniformly at random, walks the public tree with each
position's profile array ``sigma[node, hand]`` and returns what each player saw as a
:class:`~models.bayes.records.HandRecord` - the same record :func:`models.bayes.records.record_from_view`
reads from a real match's final view (a test checks they agree) - plus the chips won.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerbot.models.bayes.records import Decision, HandRecord, candidate_hands
from pokerbot.protocol.infosets import cards_text
from pokerbot.strategies.solvers.payoffs import deal_probability
from pokerbot.strategies.solvers.tree import CHANCE, DECISION, PublicTree


@dataclass(frozen=True)
class SimulatedHand:
    """One played hand: the hands dealt (indices into ``tree.hands``), the terminal node,
    each position's record and winnings (chips)."""

    hands: tuple[int, int]
    terminal: int
    records: tuple[HandRecord, HandRecord]
    values: tuple[float, float]


class TreeSimulator:
    """Plays hands of a two-player game on its public tree."""

    def __init__(self, tree: PublicTree) -> None:
        if tree.num_players != 2:
            raise ValueError("the simulator plays two-player games")
        self.tree = tree
        game = tree.game
        self.deck = tuple(sorted(game.deck))
        self._hand_of = {hand: i for i, hand in enumerate(tree.hands)}
        self._child_by_label = {
            int(node): {tree.label[child]: child for child in tree.children(int(node))}
            for node in np.flatnonzero(tree.kind == CHANCE)
        }
        self._board_chance = {
            int(node): float(deal_probability(game, self._board_size(int(node)))) for node in tree.terminals
        }

    def _board_size(self, node: int) -> int:
        tree = self.tree
        size = 0
        while node > 0:
            parent = int(tree.parent[node])
            if tree.kind[parent] == CHANCE:
                size += len(tree.label[node]) // 2
            node = parent
        return size

    def deal(self, rng: np.random.Generator) -> tuple[tuple[int, ...], ...]:
        """Hole cards of both positions and the whole board, as card tuples."""
        game = self.tree.game
        order = rng.permutation(len(self.deck))
        cards = [self.deck[i] for i in order]
        k = game.num_hole_cards
        holes = (tuple(sorted(cards[:k])), tuple(sorted(cards[k : 2 * k])))
        return holes[0], holes[1], tuple(cards[2 * k : 2 * k + game.total_board_cards])

    def play(self, sigmas: tuple[np.ndarray, np.ndarray], rng: np.random.Generator) -> SimulatedHand:
        """Deal and play one hand; position ``p`` acts with ``sigmas[p]`` (``[node, hand]``)."""
        tree = self.tree
        hole0, hole1, board = self.deal(rng)
        hands = (self._hand_of[hole0], self._hand_of[hole1])
        node = 0
        dealt = 0
        decisions: list[tuple[int, Decision]] = []
        while True:
            kind = tree.kind[node]
            if kind == DECISION:
                player = int(tree.player[node])
                children = tree.children(node)
                probs = sigmas[player][children.start : children.stop, hands[player]]
                total = probs.sum()
                choice = int(np.searchsorted(np.cumsum(probs), rng.random() * total, side="right"))
                child = children.start + min(choice, len(children) - 1)
                decisions.append((player, Decision(tree.suffix[node], tree.actions(node), tree.label[child])))
                node = child
            elif kind == CHANCE:
                count = self._board_count(node)
                label = _cards_label(board[dealt : dealt + count])
                dealt += count
                node = self._child_by_label[node][label]
            else:
                break
        folded = tree.label[node] == "f"
        chance = self._board_chance[node]
        value0 = float(tree.utility[0][np.searchsorted(tree.terminals, node), hands[0], hands[1]] / chance)
        visible = board[:dealt]
        records = (
            self._record(0, (hole0, hole1), visible, decisions, folded, value0),
            self._record(1, (hole0, hole1), visible, decisions, folded, -value0),
        )
        return SimulatedHand(hands, node, records, (value0, -value0))

    def _board_count(self, node: int) -> int:
        first = next(iter(self._child_by_label[node]))
        return len(first) // 2

    def _record(
        self,
        position: int,
        holes: tuple[tuple[int, ...], ...],
        board: tuple[int, ...],
        decisions: list[tuple[int, Decision]],
        folded: bool,
        value: float,
    ) -> HandRecord:
        opponent = 1 - position
        if folded:
            candidates = candidate_hands(self.tree.game, holes[position] + board)
        else:
            candidates = (cards_text(holes[opponent]),)
        betting = decisions_betting(decisions)
        return HandRecord(
            position=position,
            opponent=opponent,
            own_cards=holes[position],
            board=board,
            decisions=tuple(d for p, d in decisions if p == opponent),
            candidates=candidates,
            shown=not folded,
            own_decisions=tuple(d for p, d in decisions if p == position),
            value=value,
            betting=betting,
        )


def decisions_betting(decisions: list[tuple[int, Decision]]) -> str:
    """The whole betting string of a hand from its decisions in order."""
    if not decisions:
        return ""
    last = decisions[-1][1]
    return last.suffix.partition(":")[2] + last.action


def _cards_label(cards: tuple[int, ...]) -> str:
    return cards_text(cards)


__all__ = ["SimulatedHand", "TreeSimulator", "decisions_betting"]
