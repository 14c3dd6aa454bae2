"""The opponent model inside a subgame: the opponent's action probabilities for every holding.

A restricted Nash response in a subgame (:class:`~.cfr.OpponentModel`) needs, at each of the
opponent's decisions, its probability of every action for every holding it may hold, and its
range where the subgame starts. :class:`HoldingModel` builds both from two things learnt
about the opponent:

* **how often** it folds, checks or calls, and raises by about half the pot, the pot or all-in,
  where it stands: ``frequencies(state)``
  (:data:`~pokerbot.models.opponent.Frequencies`), probabilities of the action classes of
  :mod:`pokerbot.models.action_classes` (in hold'em the Hoeffding-tree action model,
  :class:`~pokerbot.models.opponent.ActionModelFrequencies`, learning the opponent's betting
  from every hand);
* **with what**: the *link* ``alpha`` in [0, 1]. With probability ``alpha`` the opponent acts by
  strength: among the holdings the model says reach the decision, it folds the weakest
  (a share equal to its fold frequency), raises with the strongest (its raise frequency) and
  checks or calls with the rest; otherwise it acts as the frequencies say whatever it holds.
  Strength is a holding's equity against a random holding on the board
  (:meth:`~pokerbot.protocol.analysis.matchups.HoldingSpace.strength`). :class:`StrengthLink`
  learns ``alpha`` from the decisions the opponent showed at showdowns.

So an opponent who never folds is modelled as calling with every holding, an opponent who
raises at random as raising with any holding, and a player whose raises were strong hands at
showdown as one whose raises mean strength. The model's range at a state is the product, over
the opponent's actions in the hand so far, of the model's probability of each for each holding
(:meth:`HoldingModel.range_at`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from pokerbot.models.action_classes import ActionClass, classify, legal_classes
from pokerbot.models.opponent import Frequencies
from pokerbot.protocol.actions import Action
from pokerbot.protocol.analysis.matchups import HoldingSpace
from pokerbot.protocol.cards import Card
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.resolve.shown import ShownRanges
from pokerbot.strategies.resolve.tree import DECISION, SubgameTree

_PASSIVE = (ActionClass.CHECK, ActionClass.CALL)


class StrengthLink:
    """``alpha``, how much the opponent's actions follow the strength of its cards, learnt from
    the decisions it showed: each decision gives the strength percentile ``s`` of the holding it
    showed (among all holdings, on that round's board) and ``m``, the percentile the decision
    would have on average if the opponent acted by strength (a fold ``f/2``, a check or call
    ``f + c/2``, a raise ``1 - r/2`` for fold, passive and raise frequencies ``f, c, r``).
    ``alpha`` is the least-squares slope of ``s - 1/2`` on ``m - 1/2``, starting from ``prior``
    with the weight of ``weight`` typical decisions, clipped to [0, 1]."""

    _TYPICAL = 1.0 / 12.0
    """The mean of ``(m - 1/2)^2`` for a typical decision (a uniform ``m``)."""

    def __init__(self, prior: float = 0.6, weight: float = 8.0) -> None:
        if not 0.0 <= prior <= 1.0 or weight < 0.0:
            raise ValueError("the link's prior is in [0, 1] and its weight non-negative")
        self._cross = prior * weight * self._TYPICAL
        self._square = weight * self._TYPICAL
        self.decisions = 0

    def add(self, shown: float, expected: float) -> None:
        """One shown decision: percentiles ``s`` (``shown``) and ``m`` (``expected``)."""
        self._cross += (shown - 0.5) * (expected - 0.5)
        self._square += (expected - 0.5) ** 2
        self.decisions += 1

    @property
    def alpha(self) -> float:
        if self._square <= 0.0:
            return 0.0
        return min(max(self._cross / self._square, 0.0), 1.0)


def percentiles(strength: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each holding's mid-rank percentile by ``strength`` among holdings weighted by
    ``weights`` (ties share their mass): the weight of the weaker ones plus half that of the
    equal ones, over the total; 0.5 everywhere when the weights sum to 0."""
    return _ranked_percentiles(_ranking(strength), weights)


def _ranking(strength: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What :func:`percentiles` needs of ``strength`` whatever the weights: the order that
    sorts it, and each holding's first and past positions among its equals in that order."""
    order = np.argsort(strength, kind="stable")
    ordered = strength[order]
    first = np.searchsorted(ordered, strength, side="left")
    past = np.searchsorted(ordered, strength, side="right")
    return order, first, past


def _ranked_percentiles(ranking: tuple[np.ndarray, np.ndarray, np.ndarray], weights: np.ndarray) -> np.ndarray:
    order, first, past = ranking
    total = float(weights.sum())
    if total <= 0.0:
        return np.full(order.shape, 0.5)
    cumulative = np.concatenate([[0.0], np.cumsum(weights[order])])
    below = cumulative[first]
    equal = cumulative[past] - below
    out: np.ndarray = (below + 0.5 * equal) / total
    return out


class HoldingModel:
    """The opponent's per-holding strategy and range for the subgame solver (module docstring)."""

    def __init__(
        self,
        space: HoldingSpace,
        frequencies: Frequencies,
        link: StrengthLink | None = None,
        shown: ShownRanges | None = None,
    ) -> None:
        """``shown``: the showdowns' update of each kind of decision's range (:mod:`.shown`;
        default a fresh one at :data:`~.shown.PRIOR_WEIGHT`)."""
        self.space = space
        self.frequencies = frequencies
        self.link = link if link is not None else StrengthLink()
        self.shown = shown if shown is not None else ShownRanges()
        self._strengths: dict[tuple[Card, ...], np.ndarray] = {}
        self._rankings: dict[tuple[Card, ...], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    # ------------------------------------------------------------------ pieces
    def strength(self, board: tuple[Card, ...]) -> np.ndarray:
        """Every holding's strength on ``board`` (cached for the last few boards)."""
        key = tuple(sorted(board))
        found = self._strengths.get(key)
        if found is None:
            found = self.space.strength(key)
            if len(self._strengths) >= 8:
                self._strengths.pop(next(iter(self._strengths)))
            self._strengths[key] = found
        return found

    def _ranking(self, board: tuple[Card, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:func:`_ranking` of the strength on ``board`` (cached like the strength)."""
        key = tuple(sorted(board))
        found = self._rankings.get(key)
        if found is None:
            found = _ranking(self.strength(key))
            if len(self._rankings) >= 8:
                self._rankings.pop(next(iter(self._rankings)))
            self._rankings[key] = found
        return found

    def class_frequencies(self, state: HandState) -> dict[ActionClass, float]:
        """The frequencies of the legal classes at ``state``, summing to 1 (uniform where the
        model gives them nothing)."""
        legal = legal_classes(state)
        raw = self.frequencies(state)
        values = {c: max(float(raw.get(c, 0.0)), 0.0) for c in legal}
        total = sum(values.values())
        if total <= 0.0:
            return {c: 1.0 / len(legal) for c in legal}
        return {c: v / total for c, v in values.items()}

    def class_table(
        self, state: HandState, board: tuple[Card, ...], reach: np.ndarray
    ) -> dict[ActionClass, np.ndarray]:
        """The model's probability of each legal class at ``state`` for every holding (arrays
        over the space), given the opponent's ``reach`` of each holding there."""
        freq = self.class_frequencies(state)
        valid = self.space.valid(board)
        q = _ranked_percentiles(self._ranking(board), np.where(valid, reach, 0.0))
        fold = freq.get(ActionClass.FOLD, 0.0)
        raises = {c: p for c, p in freq.items() if c not in _PASSIVE and c is not ActionClass.FOLD}
        aggressive = sum(raises.values())
        by_fold = (q < fold).astype(np.float64)
        by_raise = (q >= 1.0 - aggressive).astype(np.float64) * (1.0 - by_fold)
        by_passive = 1.0 - by_fold - by_raise
        alpha = self.link.alpha
        table: dict[ActionClass, np.ndarray] = {}
        for c, p in freq.items():
            if c is ActionClass.FOLD:
                shaped = by_fold
            elif c in _PASSIVE:
                shaped = by_passive
            else:
                shaped = by_raise * (p / aggressive if aggressive > 0.0 else 0.0)
            table[c] = alpha * shaped + (1.0 - alpha) * p
        if self.shown.counts:
            return self.shown.reshape(state, q, np.where(valid, reach, 0.0), table)
        return table

    # ------------------------------------------------------------------ the subgame
    def tree_table(
        self, tree: SubgameTree, position: int, board: tuple[Card, ...], root_range: np.ndarray
    ) -> np.ndarray:
        """``[slot, holding]``: the model's probability of each of the tree's actions at each
        decision of ``position`` (other rows 0), from ``root_range`` at the root. A class the
        tree has no action of goes to the tree's nearest raise (or to check or call)."""
        table = np.zeros((tree.num_slots, self.space.size))
        reach = np.zeros((tree.num_nodes, self.space.size))
        reach[0] = root_range
        for node in range(tree.num_nodes):
            if tree.kind[node] != DECISION:
                continue
            count = int(tree.num_actions[node])
            children = tree.children[node, :count]
            if int(tree.player[node]) != position:
                reach[children] = reach[node]
                continue
            state = tree.states[node]
            actions = tree.actions[node]
            rows = _action_rows(state, actions, self.class_table(state, board, reach[node]))
            base = int(tree.slot[node])
            table[base : base + count] = rows
            reach[children] = reach[node] * rows
        return table

    def action_probability(
        self, state: HandState, board: tuple[Card, ...], reach: np.ndarray, action: Action
    ) -> np.ndarray:
        """The model's probability of the real ``action`` at ``state`` for every holding."""
        table = self.class_table(state, board, reach)
        return table.get(classify(state, action), np.zeros(self.space.size))

    def range_at(self, state: HandState, position: int, *, start: int = 0) -> np.ndarray:
        """The model's reach of every holding of ``position`` at ``state``: the product of its
        probabilities of the actions ``position`` took in the hand so far (from the ``start``-th
        action; holdings blocked by the board or never possible: 0)."""
        board = tuple(state.visible_board())
        replay = HandState(state.game, board_cards=board)
        reach = self.space.valid(board).astype(np.float64)
        for k, (_round, actor, action) in enumerate(state.history()):
            if actor == position and k >= start:
                seen = tuple(replay.visible_board())
                reach = reach * self.action_probability(replay, seen, reach, action)
            replay.apply(action)
        return reach

    # ------------------------------------------------------------------ learning
    def learn_showdown(self, state: HandState, position: int, hole: tuple[Card, ...]) -> int:
        """Learn the link, and the shown ranges (:mod:`.shown`), from the decisions ``position``
        took in the finished hand ``state``, where it showed ``hole``; returns how many were
        learnt."""
        board = tuple(state.visible_board())
        replay = HandState(state.game, board_cards=board)
        h = self.space.index(hole)
        reach = self.space.valid(board).astype(np.float64)
        learnt = 0
        for _round, actor, action in state.history():
            if actor == position:
                seen = tuple(replay.visible_board())
                valid = self.space.valid(seen)
                shown = float(_ranked_percentiles(self._ranking(seen), valid.astype(np.float64))[h])
                freq = self.class_frequencies(replay)
                fold = freq.get(ActionClass.FOLD, 0.0)
                passive = sum(freq.get(c, 0.0) for c in _PASSIVE)
                taken = classify(replay, action)
                if taken is ActionClass.FOLD:
                    expected = fold / 2.0
                elif taken in _PASSIVE:
                    expected = fold + passive / 2.0
                else:
                    expected = 1.0 - (1.0 - fold - passive) / 2.0
                in_range = np.where(valid, reach, 0.0)
                within = float(_ranked_percentiles(self._ranking(seen), in_range)[h])
                reach = reach * self.class_table(replay, seen, reach).get(taken, np.zeros(self.space.size))
                self.link.add(shown, expected)
                self.shown.add(replay, taken, within)
                learnt += 1
            replay.apply(action)
        return learnt


def _action_rows(state: HandState, actions: tuple[Action, ...], table: Mapping[ActionClass, np.ndarray]) -> np.ndarray:
    """The class table spread over the tree's ``actions``: a class's probability shared by its
    actions; a class with none goes to the action of the nearest class (raises to raises)."""
    classes = [classify(state, a) for a in actions]
    size = next(iter(table.values())).shape[0]
    rows = np.zeros((len(actions), size))
    for c, probability in table.items():
        members = [k for k, k_class in enumerate(classes) if k_class is c]
        if not members:
            members = [_nearest(classes, c)]
        for k in members:
            rows[k] += probability / len(members)
    total = rows.sum(axis=0)
    rows /= np.where(total > 0.0, total, 1.0)
    return rows


def _nearest(classes: list[ActionClass], wanted: ActionClass) -> int:
    def distance(k: int) -> tuple[int, int]:
        c = classes[k]
        same_kind = (c in _PASSIVE) == (wanted in _PASSIVE) and (c is ActionClass.FOLD) == (wanted is ActionClass.FOLD)
        return (0 if same_kind else 1, abs(int(c) - int(wanted)))

    return min(range(len(classes)), key=distance)


__all__ = ["HoldingModel", "StrengthLink", "percentiles"]
