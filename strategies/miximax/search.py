"""Miximax / maximix search of the abstracted game tree (Kündig's thesis, ch. 3.2 and 6.2).

From the current state of a hand the tree is built on the fly over the search's abstract
actions (:mod:`pokerbot.strategies.miximax.search_actions`):

* **our nodes** take the maximum child value (*miximax*), or with ``temperature > 0`` a
  Boltzmann soft-max: children weighted by ``exp(value / T)`` (``T`` in big blinds), the
  weighted value backed up (*maximix*);
* **opponent nodes** (every player but ``me``) are chance nodes weighted by the action
  model of the player to act (:data:`~pokerbot.models.opponent.Frequencies`: class probabilities for a state;
  Eq. 3.2): one model for every opponent, or one per opponent position
  (:data:`ActionModels`); a class's probability is split evenly over the branches of that
  class, and the probability of a class without a branch moves to the nearest class with
  one (by aggression order);
* **chance nodes** deal every card of the next round except, in the last round, a sampled
  subset of ``river_samples`` cards, drawn once per board so that sibling branches are
  compared on the same cards (card removal: our hole cards and the board are never dealt;
  Eq. 3.5);
* **leaves** are worth ``EV = P(win) * pot - cost`` (Eq. 3.6), in chips, counted from the
  decision point: ``cost`` is what we put in after the root (up to what the opponents
  matched), ``pot`` the chips matched: with ``matched`` the smaller of our commitment and
  the largest commitment of an opponent still in, every player's chips up to ``matched``
  (folded players' included: dead money; chips not called are returned). A fold of ours is
  ``P(win) = 0``; when every opponent folded we win the whole pot. At a showdown ``P(win)``
  (ties half) comes from the :class:`WinModel`, which averages over the board run-outs
  when the hand went all-in before the river.

**Multiway** (three or more players): the same tree and leaf formula. ``P(win)`` is the
probability of beating every opponent still in: a :class:`WinModel` may answer it directly
(it sees the folds in the state), or the search is given one win model per opponent
position (a mapping) and multiplies the answers of the opponents still in
(:class:`ProductWinModel`: their hands are taken as independent given the board). The pot
is approximated as one pot of the matched chips: side pots among the players still in
(unequal stacks, or an opponent all-in for less at a cut decision) are not split, and the
whole matched pot is won with the probability of beating everyone. Heads-up both
approximations vanish: the formula is Eq. 3.6 exactly.

**Pruning** (thesis 6.2): opponent branches below ``opponent_threshold`` probability are
cut (the rest renormalised) from depth ``prune_depth`` on (zero-probability branches
always); at our nodes from that depth only the best ``keep_share`` of branches (ranked by
their check-down value) are searched.

**Anytime**: iterative deepening on the number of decisions below the root. A decision
beyond the depth limit is valued by *check-down*: the leaf formula on the current pot with
the board run out. Each iteration that completes replaces the answer; the search stops at
the deadline (a :func:`time.monotonic` timestamp, seconds), the node budget, or once an
iteration reached every leaf, and returns the best root action of the deepest completed
iteration (check/call if none completed).

Any number of players (the agent plays two or three); limit and no-limit. Randomness
(river sampling, maximix choice) comes from the caller's seeded generator.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from pokerbot.models.action_classes import ActionClass
from pokerbot.models.opponent import Frequencies
from pokerbot.protocol.actions import CALL, Action
from pokerbot.protocol.cards import Card
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.miximax.search_actions import AbstractAction, AbstractionSettings, abstract_actions

ActionModels = Frequencies | Mapping[int, Frequencies]
"""One action model for every opponent, or one per opponent position (every position but ours)."""


class SearchSettings(BaseModel):
    """Sampling, pruning and budget of one search."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    river_samples: int = Field(26, ge=1)
    """River cards dealt at a river chance node (the thesis deals 26 of 46 from the flop)."""
    flop_samples: int = Field(16, ge=1)
    """Sampled flops when a whole flop is dealt inside the search (pre-flop searches)."""
    max_depth: int = Field(12, ge=1)
    """The deepest iteration (decisions below the root)."""
    prune_depth: int = Field(6, ge=0)
    """Depth from which low-probability opponent branches and our worst branches are cut."""
    opponent_threshold: float = Field(0.02, ge=0.0, lt=1.0)
    """Opponent branches less likely than this are cut (from ``prune_depth`` on)."""
    keep_share: float = Field(0.75, gt=0.0, le=1.0)
    """Share of our branches kept (from ``prune_depth`` on)."""
    temperature: float = Field(0.0, ge=0.0)
    """Boltzmann temperature in big blinds; 0 is miximax (pure max)."""
    node_budget: int | None = Field(None, ge=1)
    """Stop after this many nodes (None: only the deadline stops the search)."""


class WinModel(Protocol):
    """P(we win) at a showdown (ties count half), given the board: complete, or incomplete
    when the hand went all-in early or the search stopped at a cut; the model then averages
    over the run-outs.

    A model may set ``betting_independent = True`` when its answer depends on the board
    alone: the search then memoises it by board only.
    """

    def win_probability(self, state: HandState, board: Sequence[Card]) -> float:
        """P(win) of the searching player in ``state`` (its betting) on ``board`` and its run-outs."""
        ...


class ProductWinModel:
    """P(win against every opponent still in): the product of one win model per opponent.

    ``models`` maps each opponent position to a :class:`WinModel` answering P(win) against
    that opponent alone; folded opponents are skipped. The product takes the opponents'
    hands as independent given the board (card removal between them and the correlation
    through our own hand's run-outs are ignored; ties count half against each opponent).
    With one opponent it is that opponent's model (memoised the same way).
    """

    def __init__(self, models: Mapping[int, WinModel]) -> None:
        self.models = dict(models)
        only = list(self.models.values())
        self.betting_independent = len(only) == 1 and getattr(only[0], "betting_independent", False)

    def win_probability(self, state: HandState, board: Sequence[Card]) -> float:
        """The product of the P(win) of every opponent that has not folded in ``state``."""
        probability = 1.0
        for position, model in self.models.items():
            if not state.folded[position]:
                probability *= model.win_probability(state, board)
        return probability


class SearchError(RuntimeError):
    """The search was asked something it cannot do (no decision of ours, a model missing)."""


class _Stop(Exception):
    """Raised inside the search when the deadline or the node budget is reached."""


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a search: the action, each root branch's value (chips), statistics."""

    action: Action
    values: tuple[tuple[AbstractAction, float], ...]
    depth: int
    """Depth limit of the deepest completed iteration (0: none completed)."""
    complete: bool
    """True when that iteration reached every leaf (no check-down estimate was used)."""
    nodes: int
    seconds: float


class MiximaxSearch:
    """One search from one state; use :func:`search` (or :meth:`run`)."""

    def __init__(
        self,
        root: HandState,
        me: int,
        hole: Sequence[Card],
        action_model: ActionModels,
        win_model: WinModel | Mapping[int, WinModel],
        settings: SearchSettings,
        abstraction: AbstractionSettings,
        rng: random.Random,
    ) -> None:
        if root.current_player != me:
            raise SearchError("it is not the searching player's turn")
        opponents = [p for p in range(root.game.num_players) if p != me]
        self._per_opponent: Mapping[int, Frequencies] | None = None
        if isinstance(action_model, Mapping):
            missing = [p for p in opponents if p not in action_model]
            if missing:
                raise SearchError(f"no action model for opponent position(s) {missing}")
            self._per_opponent = action_model
        if isinstance(win_model, Mapping):
            missing = [p for p in opponents if p not in win_model]
            if missing:
                raise SearchError(f"no win model for opponent position(s) {missing}")
            win_model = ProductWinModel({p: win_model[p] for p in opponents})
        self.root = root
        self.me = me
        self.game = root.game
        self.settings = settings
        self.abstraction = abstraction
        self.action_model = action_model
        self.win_model: WinModel = win_model
        self.rng = rng
        self.root_spent = root.spent[me]
        self.temperature = settings.temperature * root.game.big_blind
        self.dead = frozenset(hole)
        self.nodes = 0
        self._limit = 0
        self._cut = False
        self._deadline = math.inf
        self._budget = settings.node_budget or math.inf
        self._win_cache: dict[object, float] = {}
        self._deal_cache: dict[tuple[tuple[Card, ...], int], list[tuple[Card, ...]]] = {}

    # --------------------------------------------------------------- driver
    def run(self, deadline: float) -> SearchResult:
        """Iterative deepening until ``deadline`` (monotonic seconds); see the module docstring."""
        start = time.monotonic()
        self._deadline = deadline
        best: tuple[tuple[AbstractAction, float], ...] = ()
        depth, complete = 0, False
        board = tuple(self.root.visible_board())
        for limit in range(1, self.settings.max_depth + 1):
            self._limit, self._cut = limit, False
            try:
                values = self._root_values(board)
            except _Stop:
                break
            best, depth, complete = values, limit, not self._cut
            if complete:
                break
        action = self._choose(best) if best else CALL
        return SearchResult(action, best, depth, complete, self.nodes, time.monotonic() - start)

    def _root_values(self, board: tuple[Card, ...]) -> tuple[tuple[AbstractAction, float], ...]:
        branches = abstract_actions(self.root, self.abstraction)
        return tuple((b, self._child(self.root, b.action, board, 1)) for b in branches)

    def _choose(self, values: tuple[tuple[AbstractAction, float], ...]) -> Action:
        if self.temperature <= 0.0:
            return max(values, key=lambda item: item[1])[0].action
        weights = self._softmax([v for _, v in values])
        return self.rng.choices([b.action for b, _ in values], weights)[0]

    def _softmax(self, values: Sequence[float]) -> list[float]:
        top = max(values)
        weights = [math.exp((v - top) / self.temperature) for v in values]
        total = sum(weights)
        return [w / total for w in weights]

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self._budget:
            raise _Stop
        if time.monotonic() >= self._deadline:
            raise _Stop

    # ----------------------------------------------------------------- tree
    def _child(self, state: HandState, action: Action, board: tuple[Card, ...], depth: int) -> float:
        """The value of ``state`` after ``action``, dealing the next round's cards if it ends one."""
        after = state.copy()
        after.apply(action)
        if after.finished or after.round == state.round:
            return self._value(after, board, depth)
        return self._deal(after, board, depth)

    def _deal(self, state: HandState, board: tuple[Card, ...], depth: int) -> float:
        """A chance node: the cards of ``state.round`` (a new round) are dealt."""
        self._tick()
        count = self.game.num_board_cards[state.round]
        if count == 0:
            return self._value(state, board, depth)
        deals = self._deals(board, count, state.round == self.game.num_rounds - 1)
        total = 0.0
        for cards in deals:
            dealt = board + cards
            total += self._value(self._with_board(state, dealt), dealt, depth)
        return total / len(deals)

    def _deals(self, board: tuple[Card, ...], count: int, last_round: bool) -> list[tuple[Card, ...]]:
        """The card groups a chance node after ``board`` deals: every card, a sample of
        ``river_samples`` in the last round, ``flop_samples`` sampled groups of several cards.
        Samples are drawn once per board, so every node after that board sees the same ones."""
        key = (board, count)
        deals = self._deal_cache.get(key)
        if deals is None:
            cards = self._remaining(board)
            if count > 1:
                deals = [tuple(self.rng.sample(cards, count)) for _ in range(self.settings.flop_samples)]
            elif last_round and len(cards) > self.settings.river_samples:
                deals = [(card,) for card in self.rng.sample(cards, self.settings.river_samples)]
            else:
                deals = [(card,) for card in cards]
            self._deal_cache[key] = deals
        return deals

    @staticmethod
    def _with_board(state: HandState, board: tuple[Card, ...]) -> HandState:
        dealt = state.copy()
        dealt.board_cards = board
        return dealt

    def _remaining(self, board: tuple[Card, ...]) -> list[Card]:
        used = self.dead.union(board)
        return [card for card in self.game.deck if card not in used]

    def _value(self, state: HandState, board: tuple[Card, ...], depth: int) -> float:
        self._tick()
        if state.finished:
            return self._leaf(state, board)
        if depth >= self._limit:
            self._cut = True
            return self._leaf(state, board)
        branches: Sequence[AbstractAction] = abstract_actions(state, self.abstraction)
        pruning = depth >= self.settings.prune_depth
        if state.current_player == self.me:
            if pruning and len(branches) > 1:
                branches = self._best_branches(state, branches, board)
            values = [self._child(state, b.action, board, depth + 1) for b in branches]
            if self.temperature <= 0.0:
                return max(values)
            return sum(w * v for w, v in zip(self._softmax(values), values))
        weighted = spread(self._predict(state), branches)
        threshold = self.settings.opponent_threshold if pruning else 0.0
        kept = [(b, p) for b, p in weighted if p > threshold] or [max(weighted, key=lambda item: item[1])]
        mass = sum(p for _, p in kept)
        return sum(p * self._child(state, b.action, board, depth + 1) for b, p in kept) / mass

    def _predict(self, state: HandState) -> Mapping[ActionClass, float]:
        """The class probabilities of the opponent to act in ``state`` (its own model, if any)."""
        if self._per_opponent is None:
            return self.action_model(state)  # type: ignore[operator]
        return self._per_opponent[state.current_player](state)  # type: ignore[index]

    def _best_branches(
        self, state: HandState, branches: Sequence[AbstractAction], board: tuple[Card, ...]
    ) -> list[AbstractAction]:
        keep = max(1, math.ceil(self.settings.keep_share * len(branches)))
        scored = []
        for branch in branches:
            after = state.copy()
            after.apply(branch.action)
            scored.append((self._leaf(after, board), branch))
        scored.sort(key=lambda item: -item[0])
        return [branch for _, branch in scored[:keep]]

    # --------------------------------------------------------------- leaves
    def _leaf(self, state: HandState, board: tuple[Card, ...]) -> float:
        """Eq. 3.6 at a leaf, or check-down at a cut decision (chips, from the root)."""
        me = self.me
        spent = state.spent
        mine = spent[me]
        if state.folded[me]:
            return float(-(mine - self.root_spent))
        folded = state.folded
        live = [s for p, s in enumerate(spent) if p != me and not folded[p]]
        if not live:
            return float(state.pot - (mine - self.root_spent))
        matched = min(mine, max(live))
        pot = sum(min(s, matched) for s in spent)
        return self._win(state, board) * pot - (matched - self.root_spent)

    def _win(self, state: HandState, board: tuple[Card, ...]) -> float:
        """The win model's P(win), memoised by board (and by betting unless the model says
        ``betting_independent``)."""
        independent = getattr(self.win_model, "betting_independent", False)
        key = board if independent else (state.betting_string(), board)
        cached = self._win_cache.get(key)
        if cached is None:
            cached = self.win_model.win_probability(state, board)
            self._win_cache[key] = cached
        return cached


def spread(
    probabilities: Mapping[ActionClass, float], branches: Sequence[AbstractAction]
) -> list[tuple[AbstractAction, float]]:
    """Each branch's probability under the class probabilities (module docstring).

    Classes missing from ``probabilities`` count 0; when all branches get 0 the branches are
    uniform. The result sums to 1.
    """
    by_class: dict[ActionClass, list[AbstractAction]] = {}
    for branch in branches:
        by_class.setdefault(branch.action_class, []).append(branch)
    present = sorted(by_class)
    mass: dict[ActionClass, float] = dict.fromkeys(present, 0.0)
    for action_class, p in probabilities.items():
        if p <= 0.0:
            continue
        target = min(present, key=lambda c: (abs(int(c) - int(action_class)), -int(c)))
        mass[ActionClass(target)] += p
    total = sum(mass.values())
    if total <= 0.0:
        return [(b, 1.0 / len(branches)) for b in branches]
    return [(b, mass[b.action_class] / total / len(by_class[b.action_class])) for b in branches]


def search(
    root: HandState,
    me: int,
    hole: Sequence[Card],
    action_model: ActionModels,
    win_model: WinModel | Mapping[int, WinModel],
    deadline: float,
    settings: SearchSettings | None = None,
    abstraction: AbstractionSettings | None = None,
    rng: random.Random | None = None,
) -> SearchResult:
    """Search ``root`` (our turn, position ``me`` holding ``hole``) until ``deadline``.

    ``action_model``: one callable for every opponent, or a mapping from each opponent
    position to its own; ``win_model``: P(win against every opponent still in), or a mapping
    from each opponent position to P(win) against that opponent (combined by
    :class:`ProductWinModel`). Raises :class:`SearchError` when it is not ``me``'s turn or
    a mapping lacks an opponent."""
    engine = MiximaxSearch(
        root,
        me,
        hole,
        action_model,
        win_model,
        settings or SearchSettings(),
        abstraction or AbstractionSettings(),
        rng or random.Random(0),
    )
    return engine.run(deadline)


__all__ = [
    "ActionModels",
    "MiximaxSearch",
    "ProductWinModel",
    "SearchError",
    "SearchResult",
    "SearchSettings",
    "WinModel",
    "search",
    "spread",
]
