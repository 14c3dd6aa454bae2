"""Leaf values that know the betting to come: the opponent's choice among continuation strategies.

A subgame's **leaf** (:data:`~.tree.LEAF`: its round ends with cards to come) is valued by
default by its run-out, as if nobody bet again (:mod:`.cfr`). Here instead, following the
multi-valued states of Brown, Sandholm and Amos ("Depth-limited solving for
imperfect-information games", 2018), a leaf is a last decision of the **chooser** (the
opponent of the position the solve is for): holding by holding, it picks one of ``k``
continuation strategies for the rest of the hand, while the other position plays the
blueprint. The continuations are the blueprint's own and, for each action kind in ``biases``,
the blueprint with that kind's probability multiplied by ``factor`` and renormalised (biased
toward folding, calling and raising). The leaf's value for a pair of holdings is the chosen
continuation's expected payoff, so the solved strategy must hold up against whichever way of
playing on the opponent prefers, not only against nobody betting again.

:class:`ContinuationValues`: the payoffs of one subgame's leaves, ``payoffs[leaf, choice, h, o]``
in chips over the whole hand to position 0 holding ``h`` against position 1 holding ``o``
(every holding of the space; 0 for pairs that share a card or use a board card), expected over
the cards still to come. :class:`LeafChoice` is the solver's state for them (regrets,
average and current strategy of the chooser's choices: the same regret rule as every decision).

:class:`BlueprintLeaves` computes the payoffs from a blueprint's strategy over the next round's
betting (``trunk_strategy(tree, position)``, as :mod:`.exact` tabulates it), holding pair by
holding pair, exactly: for each deal of the next round's cards it walks that round's public tree
(a leaf of that tree, where a later round is still to come, counts its run-out). The cost is a
dense ``[holding, holding]`` matrix per leaf, choice and card: games with a few holdings (Leduc).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from pokerbot.protocol.actions import Action, ActionKind
from pokerbot.protocol.analysis.holdings import NUM_HOLDINGS
from pokerbot.protocol.analysis.matchups import HoldingSpace
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.betting.sizing import BetSizing
from pokerbot.strategies.regret import RULES
from pokerbot.strategies.resolve.tree import DECISION, LEAF, SubgameTree, build_subgame

_RULE = RULES["dcfr"]

BIASES: tuple[ActionKind, ...] = (ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE)
"""The action kinds the continuations after the blueprint's own are biased toward."""
FACTOR = 5.0
"""How much a biased continuation multiplies its kind's probability (Brown, Sandholm and Amos)."""
ROUND_STARTS = ("runout", "blueprint", "best")
"""The opponent's bounds where a round's first re-solve starts after a leaf: ``runout``, its
run-out values (no more betting); ``blueprint``, its value when both play the blueprint on
from there; ``best``, the best of its continuations' values, for the cards that came."""


class ContinuationValues(NamedTuple):
    """The leaves of one subgame (see the module docstring): ``chooser`` picks among the
    continuations; ``payoffs[leaf, choice, h, o]``, float64 over every holding, the leaves in
    the order of ``np.flatnonzero(tree.kind == LEAF)``."""

    chooser: int
    payoffs: np.ndarray


class LeafChoice:
    """The chooser's decisions at a solve's leaves, as the solver plays them: regrets and
    strategies ``[leaf, choice, live holding]`` (float64), the payoffs restricted to the live
    holdings."""

    def __init__(self, values: ContinuationValues, live: np.ndarray) -> None:
        self.chooser = int(values.chooser)
        payoffs = values.payoffs[:, :, live][:, :, :, live]
        self.payoffs = np.ascontiguousarray(payoffs, dtype=np.float64)
        leaves, k, n = payoffs.shape[0], payoffs.shape[1], live.size
        self.regrets = np.zeros((leaves, k, n))
        self.strategy_sum = np.zeros((leaves, k, n))
        self.sigma = np.full((leaves, k, n), 1.0 / k)
        self._choice_values = np.zeros((leaves, k, n))

    def average(self) -> np.ndarray:
        """The chooser's average choice at every leaf (the current one where never reached)."""
        total = self.strategy_sum.sum(axis=1, keepdims=True)
        safe = np.where(total > 0, total, 1.0)
        return np.where(total > 0, self.strategy_sum / safe, self.sigma)

    def choice_values(self, reach: np.ndarray) -> np.ndarray:
        """The chooser's counterfactual values of every choice ``[leaf, choice, holding]``,
        against the other position's ``reach`` at the leaves ``[leaf, holding]``."""
        if self.chooser == 0:
            return np.einsum("ljho,lo->ljh", self.payoffs, reach)
        return -np.einsum("ljho,lh->ljo", self.payoffs, reach)

    def values(self, player: int, reach: np.ndarray, how: str = "current") -> np.ndarray:
        """``player``'s counterfactual values at the leaves ``[leaf, holding]`` against the
        other's ``reach`` there: the chooser's ``current`` or ``average`` choice, or (``best``,
        the chooser's values only) its best choice per holding."""
        if player == self.chooser:
            values = self.choice_values(reach)
            self._choice_values = values
            if how == "best":
                return np.asarray(values.max(axis=1))
            choice = self.sigma if how == "current" else self.average()
            return np.asarray((choice * values).sum(axis=1))
        choice = self.sigma if how != "average" else self.average()
        weighted = choice * reach[:, None, :]  # the chooser's reach of each choice
        if player == 0:
            return np.asarray(np.einsum("ljho,ljo->lh", self.payoffs, weighted))
        return np.asarray(-np.einsum("ljho,ljh->lo", self.payoffs, weighted))

    def update(self, leaf_values: np.ndarray, own: np.ndarray, t: float) -> None:
        """After a half-iteration of the chooser (its :meth:`values` at the current choice
        ``leaf_values``, its reach ``own`` at the leaves): discounted regrets, the average's
        sum and the next choice, by the solver's rule at iteration ``t``."""
        positive, negative = _RULE.discounts(t)
        weight = _RULE.average_decay(t)
        r = self.regrets
        r *= np.where(r > 0, positive, negative)
        r += self._choice_values - leaf_values[:, None, :]
        self.strategy_sum *= weight
        self.strategy_sum += own[:, None, :] * self.sigma
        plus = np.maximum(r, 0.0)
        total = plus.sum(axis=1, keepdims=True)
        k = r.shape[1]
        self.sigma = np.where(total > 0, plus / np.where(total > 0, total, 1.0), 1.0 / k)


def biased(strategy: np.ndarray, tree: SubgameTree, position: int, kind: ActionKind, factor: float) -> np.ndarray:
    """``strategy`` (``[slot, holding]``) with the probability of every ``kind`` action at
    ``position``'s decisions multiplied by ``factor``, each decision renormalised per holding."""
    out = np.array(strategy, dtype=np.float64)
    for node in np.flatnonzero((tree.kind == DECISION) & (tree.player == position)):
        base, count = int(tree.slot[node]), int(tree.num_actions[node])
        rows = out[base : base + count]
        for k, action in enumerate(tree.actions[node]):
            if action.kind is kind:
                rows[k] *= factor
        total = rows.sum(axis=0)
        rows /= np.where(total > 0, total, 1.0)
    return out


class BlueprintLeaves:
    """Leaf values from a blueprint's continuations (see the module docstring).

    ``trunk_strategy(tree, position)``: the blueprint's strategy over a subgame tree,
    ``[slot, holding]``. ``biases`` and ``factor``: the continuations after the blueprint's own
    (none: the blueprint's alone, a single value per leaf). ``round_start``: the bounds of the
    next round's first re-solve (:data:`ROUND_STARTS`). Values are cached per leaf's public
    history and chooser (and, for the round starts, per deal)."""

    def __init__(
        self,
        game: Game,
        space: HoldingSpace,
        trunk_strategy: object,
        sizing: BetSizing | None = None,
        biases: Sequence[ActionKind] = BIASES,
        factor: float = FACTOR,
        round_start: str = "best",
    ) -> None:
        if round_start not in ROUND_STARTS:
            raise ValueError(f"unknown round start {round_start!r}: choose from {', '.join(ROUND_STARTS)}")
        self.game = game
        self.space = space
        self.trunk_strategy = trunk_strategy
        self.sizing = sizing
        self.biases = tuple(biases)
        self.factor = float(factor)
        self.round_start = round_start
        self._leaves: dict[tuple[str, tuple[int, ...], int], np.ndarray] = {}
        self._dealt: dict[tuple[str, tuple[int, ...], int], np.ndarray] = {}

    @property
    def choices(self) -> int:
        return 1 + len(self.biases)

    def values(self, tree: SubgameTree, chooser: int) -> ContinuationValues:
        """The payoffs of every leaf of ``tree`` (see :class:`ContinuationValues`)."""
        leaves = np.flatnonzero(tree.kind == LEAF)
        payoffs = np.zeros((leaves.size, self.choices, self.space.size, self.space.size))
        for i, node in enumerate(leaves):
            payoffs[i] = self._leaf(tree.states[int(node)], chooser)
        return ContinuationValues(chooser, payoffs)

    def round_start_bounds(self, state: HandState, our_range: np.ndarray, chooser: int) -> np.ndarray | None:
        """The chooser's bounds at the start of ``state``'s round (its cards just dealt, no
        action yet) against ``our_range``, by :attr:`round_start`; None for the run-out values."""
        if self.round_start == "runout":
            return None
        key = (state.betting_string(), tuple(sorted(state.visible_board())), chooser)
        per_choice = self._dealt.get(key)
        if per_choice is None:
            per_choice = self._dealt[key] = self._continuations(state, chooser)
        if chooser == 0:
            values = per_choice @ our_range
        else:
            values = -np.einsum("jho,h->jo", per_choice, our_range)
        return np.asarray(values[0] if self.round_start == "blueprint" else values.max(axis=0))

    def _leaf(self, leaf: HandState, chooser: int) -> np.ndarray:
        """A leaf's payoffs ``[choice, h, o]`` to position 0, averaged over the deals of the
        cards it waits for (cached per public history)."""
        game = self.game
        known = _known_board(leaf)
        key = (leaf.betting_string(), known, chooser)
        found = self._leaves.get(key)
        if found is not None:
            return found
        n = self.space.size
        rest = [c for c in sorted(game.deck) if c not in known]
        last = _last_round(leaf)
        coming = game.total_board_cards - len(known) if leaf.finished else game.num_board_cards[last + 1]
        total = np.zeros((self.choices, n, n))
        count = np.zeros((n, n))
        for cards in itertools.combinations(rest, coming):
            state = HandState(game, board_cards=known + cards)
            for _round, _actor, action in leaf.history():
                state.apply(action)
            total += self._continuations(state, chooser)
            valid = self.space.valid(known + cards).astype(np.float64)
            count += np.outer(valid, valid)
        found = self._leaves[key] = total / np.where(count > 0, count, 1.0)
        return found

    def _continuations(self, state: HandState, chooser: int) -> np.ndarray:
        """``[choice, h, o]``: position 0's expected payoff from ``state`` (a round's start,
        its cards dealt) when the chooser plays each continuation and the other the blueprint."""
        space = self.space
        board = tuple(state.visible_board())
        valid = space.valid(board).astype(np.float64)
        n = space.size
        if state.finished or state.current_player is None:  # all-in: the run-out
            matrix = float(min(state.spent)) * space.runout_matrix(board, np.float64)
            return np.repeat(matrix[None], self.choices, axis=0)
        tree = build_subgame(state, self.sizing)
        strategy = self.trunk_strategy(tree, 1 - chooser)  # type: ignore[operator]
        theirs = self.trunk_strategy(tree, chooser)  # type: ignore[operator]
        tables = [np.asarray(theirs, dtype=np.float64)]
        tables += [biased(theirs, tree, chooser, kind, self.factor) for kind in self.biases]
        compatible = (~space.conflicts).astype(np.float64) * np.outer(valid, valid)
        out = np.zeros((self.choices, n, n))
        kind, folder = tree.kind, tree.folder
        folds = np.flatnonzero(folder >= 0)
        pays = np.where(folder[folds] == 0, -tree.spent[folds, 0], tree.spent[folds, 1]).astype(np.float64)
        ends = np.flatnonzero((kind != DECISION) & (folder < 0))
        stakes = tree.stake[ends].astype(np.float64)
        if len(board) == space.total_board:
            ranks = space.ranks(board)
            signs = np.sign(ranks[:, None] - ranks[None, :]).astype(np.float64) * compatible
        else:  # a later round is still to come after this one: its run-out
            signs = space.runout_matrix(board, np.float64)
        for j, table in enumerate(tables):
            both = [strategy, strategy]
            both[chooser] = table
            first, second = (_reaches(tree, both[p], p, valid) for p in (0, 1))
            out[j] = ((first[folds] * pays[:, None]).T @ second[folds]) * compatible
            out[j] += ((first[ends] * stakes[:, None]).T @ second[ends]) * signs
        return out


class PolicyRangeTable:
    """``trunk_strategy(tree, position)`` for a hold'em blueprint that knows its ranges
    (:class:`~pokerbot.strategies.abstract.ranges.PolicyRange`): at each of ``position``'s
    decisions of ``tree``, every holding's probabilities of the blueprint's actions at the node
    its translator locates, each abstract action given to the tree's action of the same kind
    (a raise: the nearest in chips); off the blueprint's tree, its pot-odds rule."""

    def __init__(self, ranges: object) -> None:
        self.ranges = ranges

    def __call__(self, tree: SubgameTree, position: int) -> np.ndarray:
        ranges = self.ranges
        policy, translator, abstraction = ranges.policy, ranges.translator, ranges.abstraction  # type: ignore[attr-defined]
        out = np.zeros((tree.num_slots, NUM_HOLDINGS))
        for node in np.flatnonzero((tree.kind == DECISION) & (tree.player == position)):
            state = tree.states[int(node)]
            base, actions = int(tree.slot[node]), tree.actions[int(node)]
            where = translator.locate(state, position, 0)
            if not where.synced:
                for k, action in enumerate(actions):
                    out[base + k] = ranges.action_probabilities(state, position, 0, action)  # type: ignore[attr-defined]
                continue
            real = translator.real_actions(where.node, state)
            count = abstraction.num_buckets[state.round]
            rows = np.array([policy.row(where.node, b) for b in range(count)], dtype=np.float64)
            rows /= np.where(rows.sum(axis=1, keepdims=True) > 0, rows.sum(axis=1, keepdims=True), 1.0)
            per_bucket = np.zeros((count, len(actions)))
            for a, action in enumerate(real):
                per_bucket[:, _nearest(actions, action)] += rows[:, a]
            out[base : base + len(actions)] = per_bucket[abstraction.buckets_all(state.visible_board(), state.round)].T
        return out


def _nearest(actions: Sequence[Action], action: Action) -> int:
    """The index of ``action`` among ``actions``, or of the same kind's nearest in size."""
    same = [k for k, a in enumerate(actions) if a.kind is action.kind]
    if not same:
        return next(k for k, a in enumerate(actions) if a.kind is ActionKind.CALL)
    return min(same, key=lambda k: abs(int(actions[k].size or 0) - int(action.size or 0)))


def _reaches(tree: SubgameTree, strategy: np.ndarray, position: int, root: np.ndarray) -> np.ndarray:
    """``position``'s reach of every holding at every node of ``tree`` playing ``strategy``."""
    reach = np.zeros((tree.num_nodes, root.size))
    reach[0] = root
    for node in range(tree.num_nodes):
        if tree.kind[node] != DECISION:
            continue
        base = int(tree.slot[node])
        for k in range(int(tree.num_actions[node])):
            child = int(tree.children[node, k])
            reach[child] = reach[node] * strategy[base + k] if tree.player[node] == position else reach[node]
    return reach


def _last_round(state: HandState) -> int:
    """The round of the last action of ``state`` (a leaf: the round it ends)."""
    return max((r for r, _actor, _action in state.history()), default=0)


def _known_board(state: HandState) -> tuple[int, ...]:
    """The board cards shown when the last action of ``state`` was taken."""
    game = state.game
    last = _last_round(state)
    return tuple(state.board_cards[: game.board_start[last] + game.num_board_cards[last]])


__all__ = [
    "BIASES",
    "FACTOR",
    "ROUND_STARTS",
    "BlueprintLeaves",
    "ContinuationValues",
    "LeafChoice",
    "PolicyRangeTable",
    "biased",
]
