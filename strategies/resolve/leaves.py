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

from pokerbot.protocol.actions import ActionKind
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
    history and chooser."""

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
        self._per_deal: dict[tuple[str, tuple[int, ...], int], dict[tuple[int, ...], np.ndarray]] = {}

    @property
    def choices(self) -> int:
        return 1 + len(self.biases)

    def values(self, tree: SubgameTree, chooser: int) -> ContinuationValues:
        """The payoffs of every leaf of ``tree`` (see :class:`ContinuationValues`)."""
        leaves = np.flatnonzero(tree.kind == LEAF)
        n = self.space.size
        payoffs = np.zeros((leaves.size, self.choices, n, n))
        for i, node in enumerate(leaves):
            leaf = tree.states[int(node)]
            known = _known_board(leaf)
            count = np.zeros((n, n))
            for cards, per_choice in self._deals(leaf, chooser).items():
                payoffs[i] += per_choice
                valid = self.space.valid(known + cards).astype(np.float64)
                count += np.outer(valid, valid)
            payoffs[i] /= np.where(count > 0, count, 1.0)
        return ContinuationValues(chooser, payoffs)

    def round_start_bounds(self, state: HandState, our_range: np.ndarray, chooser: int) -> np.ndarray | None:
        """The chooser's bounds at the start of ``state``'s round (its cards just dealt, no
        action yet) against ``our_range``, by :attr:`round_start`; None for the run-out values."""
        if self.round_start == "runout":
            return None
        known = _known_board(state)
        dealt = tuple(sorted(state.visible_board()[len(known) :]))
        per_choice = self._deals(state, chooser)[dealt]
        if chooser == 0:
            values = per_choice @ our_range
        else:
            values = -np.einsum("jho,h->jo", per_choice, our_range)
        return np.asarray(values[0] if self.round_start == "blueprint" else values.max(axis=0))

    def _deals(self, leaf: HandState, chooser: int) -> dict[tuple[int, ...], np.ndarray]:
        """Per deal of the cards a leaf waits for (sorted): the payoffs ``[choice, h, o]`` to
        position 0 (cached per public history before the deal)."""
        game = self.game
        known = _known_board(leaf)
        key = (leaf.betting_string(), known, chooser)
        found = self._per_deal.get(key)
        if found is not None:
            return found
        rest = [c for c in sorted(game.deck) if c not in known]
        last = _last_round(leaf)
        coming = game.total_board_cards - len(known) if leaf.finished else game.num_board_cards[last + 1]
        found = {}
        for cards in itertools.combinations(rest, coming):
            state = HandState(game, board_cards=known + cards)
            for _round, _actor, action in leaf.history():
                state.apply(action)
            found[cards] = self._continuations(state, chooser)
        self._per_deal[key] = found
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
        ranks = space.ranks(board) if len(board) == space.total_board else None
        runout = None
        for j, table in enumerate(tables):
            both = [None, None]
            both[chooser] = table
            both[1 - chooser] = strategy
            reach = [_reaches(tree, both[p], p, valid) for p in (0, 1)]
            for node in range(tree.num_nodes):
                kind = tree.kind[node]
                if kind == DECISION:
                    continue
                weight = np.outer(reach[0][node], reach[1][node]) * compatible
                if not weight.any():
                    continue
                folder = int(tree.folder[node])
                if folder >= 0:
                    payoff = -float(tree.spent[node, 0]) if folder == 0 else float(tree.spent[node, 1])
                    out[j] += payoff * weight
                elif kind == LEAF or ranks is None:
                    if runout is None:
                        runout = space.runout_matrix(board, np.float64)
                    out[j] += float(tree.stake[node]) * runout * weight
                else:
                    signs = np.sign(ranks[:, None] - ranks[None, :]).astype(np.float64)
                    out[j] += float(tree.stake[node]) * signs * weight
        return out


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


__all__ = ["BIASES", "FACTOR", "ROUND_STARTS", "BlueprintLeaves", "ContinuationValues", "LeafChoice", "biased"]
