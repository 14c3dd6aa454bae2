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
from collections.abc import Callable, Sequence
from math import comb
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import njit

from pokerbot.protocol.actions import Action, ActionKind
from pokerbot.protocol.analysis.holdings import NUM_HOLDINGS
from pokerbot.protocol.analysis.matchups import HoldingSpace
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.betting.sizing import BetSizing
from pokerbot.strategies.regret import RULES
from pokerbot.strategies.resolve.tree import DECISION, LEAF, SubgameTree, build_subgame

if TYPE_CHECKING:
    from pokerbot.strategies.abstract.ranges import PolicyRange

_RULE = RULES["dcfr"]

StrategyTable = Callable[[SubgameTree, int], np.ndarray]
"""``table(tree, position)``: a blueprint's strategy over a subgame ``tree`` at ``position``'s
decisions, ``[slot, holding]`` (the rows of the other position's decisions are not read)."""

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
    continuations; ``payoffs[leaf]`` is ``[choice, h, o]`` over every holding (a leaf where
    nobody can bet again has one choice), the leaves in the order of
    ``np.flatnonzero(tree.kind == LEAF)``."""

    chooser: int
    payoffs: Sequence[np.ndarray]


class LeafChoice:
    """The chooser's decisions at a solve's leaves, as the solver plays them: per leaf, the
    payoffs restricted to the live holdings (float32) and the regrets and strategies
    ``[choice, live holding]`` (float64)."""

    def __init__(self, values: ContinuationValues, live: np.ndarray) -> None:
        self.chooser = int(values.chooser)
        self.payoffs = [np.ascontiguousarray(p[:, live][:, :, live], dtype=np.float32) for p in values.payoffs]
        n = live.size
        self.regrets = [np.zeros((p.shape[0], n)) for p in self.payoffs]
        self.strategy_sum = [np.zeros((p.shape[0], n)) for p in self.payoffs]
        self.sigma = [np.full((p.shape[0], n), 1.0 / p.shape[0]) for p in self.payoffs]
        self._choice_values = [np.zeros((p.shape[0], n)) for p in self.payoffs]

    def average(self) -> list[np.ndarray]:
        """The chooser's average choice ``[choice, holding]`` at every leaf (the current one
        where never reached)."""
        out = []
        for total, sigma in zip(self.strategy_sum, self.sigma, strict=True):
            mass = total.sum(axis=0, keepdims=True)
            out.append(np.where(mass > 0, total / np.where(mass > 0, mass, 1.0), sigma))
        return out

    def values(self, player: int, reach: np.ndarray, how: str = "current") -> np.ndarray:
        """``player``'s counterfactual values at the leaves ``[leaf, holding]`` against the
        other's ``reach`` there: the chooser's ``current`` or ``average`` choice, or (``best``,
        the chooser's values only) its best choice per holding."""
        out = np.zeros((len(self.payoffs), reach.shape[1]))
        choices = self.average() if how == "average" or (how == "best" and player != self.chooser) else self.sigma
        for i, payoffs in enumerate(self.payoffs):
            r = reach[i].astype(np.float32)
            if player == self.chooser:
                per_choice = (payoffs @ r) if player == 0 else -(r @ payoffs)
                values = per_choice.astype(np.float64)
                self._choice_values[i] = values
                out[i] = values.max(axis=0) if how == "best" else (choices[i] * values).sum(axis=0)
            else:
                weighted = (choices[i] * r[None, :]).astype(np.float32)  # the chooser's reach of each choice
                if player == 0:
                    out[i] = (payoffs @ weighted[:, :, None])[:, :, 0].sum(axis=0)
                else:
                    out[i] = -(weighted[:, None, :] @ payoffs)[:, 0, :].sum(axis=0)
        return out

    def update(self, leaf_values: np.ndarray, own: np.ndarray, t: float) -> None:
        """After a half-iteration of the chooser (its :meth:`values` at the current choice
        ``leaf_values``, its reach ``own`` at the leaves): discounted regrets, the average's
        sum and the next choice, by the solver's rule at iteration ``t``."""
        positive, negative = _RULE.discounts(t)
        weight = _RULE.average_decay(t)
        for i, r in enumerate(self.regrets):
            r *= np.where(r > 0, positive, negative)
            r += self._choice_values[i] - leaf_values[i][None, :]
            self.strategy_sum[i] *= weight
            self.strategy_sum[i] += own[i][None, :] * self.sigma[i]
            plus = np.maximum(r, 0.0)
            total = plus.sum(axis=0, keepdims=True)
            self.sigma[i] = np.where(total > 0, plus / np.where(total > 0, total, 1.0), 1.0 / r.shape[0])


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
        trunk_strategy: StrategyTable,
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
        return ContinuationValues(chooser, [self._leaf(tree.states[int(node)], chooser) for node in leaves])

    def round_start_bounds(self, state: HandState, our_range: np.ndarray, chooser: int) -> np.ndarray | None:
        """The chooser's bounds at the start of ``state``'s round (its cards just dealt, no
        action yet) against ``our_range``, by :attr:`round_start`; None for the run-out values."""
        if self.round_start == "runout":
            return None
        n = self.space.size
        key = (state.betting_string(), tuple(sorted(state.visible_board())), chooser)
        per_choice = self._dealt.get(key)
        if per_choice is None:
            per_choice = self._dealt[key] = self._continuations(state, chooser, np.zeros((self.choices, n, n)))
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
        if leaf.finished:  # all-in: nobody bets again, whatever the continuation
            found = float(min(leaf.spent)) * self.space.runout_matrix(known, np.float32)[None]
            self._leaves[key] = found
            return found
        rest = [c for c in sorted(game.deck) if c not in known]
        last = _last_round(leaf)
        coming = game.num_board_cards[last + 1]
        total = np.zeros((self.choices, n, n))
        for cards in itertools.combinations(rest, coming):
            state = HandState(game, board_cards=known + cards)
            for _round, _actor, action in leaf.history():
                state.apply(action)
            self._continuations(state, chooser, total)
        # every pair of holdings that shares no card sees as many deals
        found = (total / comb(len(rest) - 2 * self.space.hole, coming)).astype(np.float32)
        self._leaves[key] = found
        return found

    def _continuations(self, state: HandState, chooser: int, out: np.ndarray) -> np.ndarray:
        """Adds to ``out[choice, h, o]`` position 0's expected payoff from ``state`` (a round's
        start, its cards dealt) when the chooser plays each continuation and the other the
        blueprint; returns ``out``."""
        space = self.space
        board = tuple(state.visible_board())
        valid = space.valid(board).astype(np.float64)
        if state.finished or state.current_player is None:  # all-in: the run-out
            out += float(min(state.spent)) * space.runout_matrix(board, np.float64)
            return out
        tree = build_subgame(state, self.sizing)
        strategy = self.trunk_strategy(tree, 1 - chooser)
        theirs = self.trunk_strategy(tree, chooser)
        tables = [np.asarray(theirs, dtype=np.float64)]
        tables += [biased(theirs, tree, chooser, kind, self.factor) for kind in self.biases]
        compatible = ~space.conflicts & np.outer(valid > 0, valid > 0)
        kind, folder = tree.kind, tree.folder
        folds = np.flatnonzero(folder >= 0)
        pays = np.where(folder[folds] == 0, -tree.spent[folds, 0], tree.spent[folds, 1]).astype(np.float64)
        ends = np.flatnonzero((kind != DECISION) & (folder < 0))
        stakes = tree.stake[ends].astype(np.float64)
        if len(board) == space.total_board:
            ranks = space.ranks(board)
            signs = np.sign(ranks[:, None] - ranks[None, :]).astype(np.float64)
        else:  # a later round is still to come after this one: its run-out
            signs = space.runout_matrix(board, np.float64)
        for j, table in enumerate(tables):
            both = [strategy, strategy]
            both[chooser] = table
            cores, classes = [], []
            for p in (0, 1):
                reach = _reaches(tree, both[p], p, valid)
                # holdings whose reach agrees at every end (a blueprint's bucket) form one class
                core, members = _classes(reach[np.concatenate([folds, ends])])
                cores.append(core)
                classes.append(members)
            first, second = cores
            fold_core = (first[: folds.size] * pays[:, None]).T @ second[: folds.size]
            end_core = (first[folds.size :] * stakes[:, None]).T @ second[folds.size :]
            _accumulate(out[j], fold_core, end_core, classes[0], classes[1], signs, compatible)
        return out


@njit(cache=True)
def _accumulate(
    out: np.ndarray,
    fold_core: np.ndarray,
    end_core: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    signs: np.ndarray,
    compatible: np.ndarray,
) -> None:
    """``out[h, o] += fold_core[a, b] + signs[h, o] * end_core[a, b]`` for compatible pairs,
    ``a`` and ``b`` the classes of ``h`` (position 0) and ``o`` (position 1)."""
    n = out.shape[0]
    for h in range(n):
        a = first[h]
        for o in range(n):
            if compatible[h, o]:
                b = second[o]
                out[h, o] += fold_core[a, b] + signs[h, o] * end_core[a, b]


class PolicyRangeTable:
    """``trunk_strategy(tree, position)`` for a hold'em blueprint that knows its ranges
    (:class:`~pokerbot.strategies.abstract.ranges.PolicyRange`): at each of ``position``'s
    decisions of ``tree``, every holding's probabilities of the blueprint's actions at the node
    its translator locates, each abstract action given to the tree's action of the same kind
    (a raise: the nearest in chips); off the blueprint's tree, its pot-odds rule."""

    def __init__(self, ranges: PolicyRange) -> None:
        self.ranges = ranges
        self._rows: dict[tuple[str, int], np.ndarray | None] = {}

    def __call__(self, tree: SubgameTree, position: int) -> np.ndarray:
        ranges = self.ranges
        abstraction = ranges.abstraction
        out = np.zeros((tree.num_slots, NUM_HOLDINGS))
        for node in np.flatnonzero((tree.kind == DECISION) & (tree.player == position)):
            state = tree.states[int(node)]
            base, actions = int(tree.slot[node]), tree.actions[int(node)]
            per_bucket = self._per_bucket(state, position, actions)
            if per_bucket is None:  # off the blueprint's tree: its rule for every holding
                for k, action in enumerate(actions):
                    out[base + k] = ranges.action_probabilities(state, position, 0, action)
            else:
                out[base : base + len(actions)] = per_bucket[
                    abstraction.buckets_all(state.visible_board(), state.round)
                ].T
        return out

    def _per_bucket(self, state: HandState, position: int, actions: Sequence[Action]) -> np.ndarray | None:
        """The blueprint's probabilities ``[bucket, action]`` of ``actions`` where ``state``'s
        betting locates it (None off its tree), once per betting."""
        key = (state.betting_string(), position)
        if key in self._rows:
            return self._rows[key]
        ranges = self.ranges
        policy, translator, abstraction = ranges.policy, ranges.translator, ranges.abstraction
        if translator is None:
            raise ValueError("the continuations read a no-limit blueprint through its translator")
        where = translator.locate(state, position, 0)
        per_bucket = None
        if where.synced:
            real = translator.real_actions(where.node, state)
            count = abstraction.num_buckets[state.round]
            rows = np.array([policy.row(where.node, b) for b in range(count)], dtype=np.float64)
            totals = rows.sum(axis=1, keepdims=True)
            rows /= np.where(totals > 0, totals, 1.0)
            per_bucket = np.zeros((count, len(actions)))
            for a, action in enumerate(real):
                per_bucket[:, _nearest(actions, action)] += rows[:, a]
        self._rows[key] = per_bucket
        return per_bucket


def _nearest(actions: Sequence[Action], action: Action) -> int:
    """The index of ``action`` among ``actions``, or of the same kind's nearest in size."""
    same = [k for k, a in enumerate(actions) if a.kind is action.kind]
    if not same:
        return next(k for k, a in enumerate(actions) if a.kind is ActionKind.CALL)
    return min(same, key=lambda k: abs(int(actions[k].size or 0) - int(action.size or 0)))


_PROJECTION = np.random.default_rng(0).random((2, 64))


def _classes(reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct columns of ``reach`` ``[end, holding]``: ``(core, members)`` with
    ``reach == core[:, members]`` (holdings of one bucket of a blueprint reach every end alike)."""
    rows = reach.shape[0]
    projection = np.resize(_PROJECTION, (2, max(rows, 1)))[:, :rows]
    keys = projection @ reach
    _, first, members = np.unique(keys[0] + np.pi * keys[1], return_index=True, return_inverse=True)
    core = reach[:, first]
    members = np.ascontiguousarray(members.reshape(-1), dtype=np.int64)
    if not np.array_equal(core[:, members], reach):  # two columns projected alike: no classes
        return reach, np.arange(reach.shape[1], dtype=np.int64)
    return core, members


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
