"""Continual re-solving: one player's strategy in a hand, re-solved at each of its decisions.

:class:`ContinualResolver` plays one position of a heads-up game from the first round it
re-solves (the **re-solved rounds**; the rounds before them, the **trunk**, are played by
another strategy, usually a blueprint, which gives both ranges where re-solving starts).
It keeps, along the public history of the hand, an **anchor**: a public state, our range there
(the reach of each of our holdings: the product of our own probabilities of the actions we
took) and what we know of the opponent there: its range where re-solving starts (from the
trunk), afterwards its counterfactual values (Moravčík et al., "DeepStack", 2017).

At each of our decisions a subgame is solved from the anchor to the end of the round
(:mod:`.tree`, :mod:`.cfr`), with the opponent's real actions since the anchor in the tree
(so a bet of any size is solved as played, nested) and, once its values are known, the
re-solving gadget at the root: the opponent may take its earlier values instead of entering,
so the new strategy concedes it no more than the old one did (Burch et al., 2014; Brown and
Sandholm, "Safe and nested subgame solving", 2017). Our strategy is read at the node of the
real state. After our action the anchor moves to the state after it: our range is multiplied
by the strategy's probabilities of that action and the opponent's values become its
best-response values there. When a round ends the anchor moves to the next round's start: the
opponent's values are those of the leaf that ended the round, for the cards that came.

Everything is a function of the public history and the solves' settings: the same history
gives the same strategy for every holding (solves are kept per hand, so a strategy asked for a
hypothetical betting is solved once, and a decision made under a clock is remembered as made).
Two options shape a solve: ``warm`` starts it where the trunk's strategy for the round stands
(``trunk_strategy``, both positions; :meth:`~.cfr.SubgameSolver.warm_start`, as if played for
``warm`` iterations) instead of the uniform strategy, or with ``warm_from="solve"`` where this
round's last solve before it on the hand's path (our previous decision in the round) left the
decisions the new tree shares with it (the same betting, the same actions; the others start
uniform; the round's first solve starts uniform); ``floor`` purifies what is played: at our
decisions an action the solve gives a holding less than ``floor`` of is dropped and the rest
renormalised (the opponent's values after our action are its best response to that).

The guarantee (DeepStack's theorem 1 and Burch et al.): the exploitability of the re-solved
strategy exceeds the trunk's only by the re-solves' own errors and the leaves' value errors.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from threadpoolctl import ThreadpoolController

from pokerbot.protocol.actions import Action
from pokerbot.protocol.analysis.matchups import HoldingSpace, holding_space
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.betting.sizing import BetSizing
from pokerbot.strategies.resolve.cfr import OpponentModel, SubgameSolver
from pokerbot.strategies.resolve.leaves import BlueprintLeaves, ContinuationValues
from pokerbot.strategies.resolve.tree import DECISION, LEAF, SubgameTree, build_subgame

STARTS = ("range", "runout", "blueprint")
"""Where the first re-solve's knowledge of the opponent comes from: ``range``, its range as the
trunk plays (Bayes' rule); ``runout``, its counterfactual values if the cards were run out
with no more betting, as the gadget's bounds (its range is then the gadget's choice);
``blueprint``, its best-response values against the trunk's own strategy for the round (our
range from the trunk), as the gadget's bounds: the re-solve then concedes no holding more than
the trunk would have (Brown and Sandholm's safe subgame solving), exactly so in the last round,
where the round's tree runs to the showdowns."""

OpponentHook = Callable[[SubgameTree, HandState, tuple[int, ...], int], OpponentModel | None]
"""``opponent(tree, root, board, position)``: the model of the opponent of ``position`` for a
solve of ``tree`` (rooted at the real state ``root``, ``board`` showing), or None to solve for
an equilibrium: the restricted Nash response of :class:`~.cfr.OpponentModel`."""

Trunk = Callable[[HandState], tuple[np.ndarray, np.ndarray]]
"""``trunk(state)``: at the start of the first re-solved round (``state``), the reach of every
holding of position 0 and of position 1 given the betting so far."""

TrunkStrategy = Callable[[SubgameTree, int], np.ndarray]
"""``trunk_strategy(tree, position)``: the trunk's strategy over a subgame ``tree`` for
``position``, ``[slot, holding]`` (the rows of that position's decisions are read), for the
``blueprint`` start."""


@dataclass(frozen=True)
class Decision:
    """One re-solved decision: the actions, our strategy ``[action, holding]``, and the
    opponent's best-response counterfactual values after each action ``[action, holding]``."""

    actions: tuple[Action, ...]
    strategy: np.ndarray
    bounds_after: np.ndarray
    iterations: int
    seconds: float


@dataclass
class _Anchor:
    state: HandState
    our_range: np.ndarray
    opponent_range: np.ndarray | None
    bounds: np.ndarray | None


@dataclass(frozen=True)
class SolveBudget:
    """How long a solve runs: ``iterations`` at most (at least one), and (when ``seconds`` is
    set) no longer than that, the reading of the result included (iterations in chunks of at
    most ``chunk``, sized by the time one took). ``iterations`` alone gives the same strategy
    on any machine."""

    iterations: int = 200
    seconds: float | None = None
    chunk: int = 10


class ContinualResolver:
    """Re-solves one position's decisions in the rounds from ``first_round`` on."""

    def __init__(
        self,
        game: Game,
        position: int,
        trunk: Trunk,
        first_round: int,
        sizing: BetSizing | None = None,
        space: HoldingSpace | None = None,
        start: str = "range",
        opponent: OpponentHook | None = None,
        trunk_strategy: TrunkStrategy | None = None,
        *,
        warm: int = 0,
        warm_from: str = "trunk",
        floor: float = 0.0,
        leaves: BlueprintLeaves | None = None,
    ) -> None:
        if game.num_players != 2:
            raise ValueError("continual re-solving plays heads-up games")
        if start == "blueprint" and trunk_strategy is None:
            raise ValueError("the blueprint start needs the trunk's strategy")
        if warm < 0 or not 0.0 <= floor < 0.5:
            raise ValueError("warm is at least 0 iterations and floor in [0, 0.5)")
        if warm_from not in ("trunk", "solve"):
            raise ValueError(f"warm_from is 'trunk' or 'solve', got {warm_from!r}")
        self.warm = warm
        self.warm_from = warm_from
        self.floor = floor
        self._solved: dict[tuple[str, tuple[int, ...]], dict[str, tuple[tuple[Action, ...], np.ndarray]]] = {}
        self.opponent = opponent
        self.trunk_strategy = trunk_strategy
        self.game = game
        self.position = position
        self.trunk = trunk
        self.first_round = first_round
        self.sizing = sizing if sizing is not None else (BetSizing() if game.is_nolimit else None)
        self.space = space if space is not None else holding_space(game)
        if start not in STARTS:
            raise ValueError(f"unknown start {start!r}: choose from {', '.join(STARTS)}")
        self.start = start
        self.leaves = leaves
        """Multi-valued leaves (:mod:`.leaves`), or None for run-out leaves."""
        self._decisions: dict[tuple[str, tuple[int, ...]], Decision] = {}
        self._round_starts: dict[tuple[str, tuple[int, ...]], _Anchor] = {}

    def reset(self) -> None:
        """Forget the hand's solves (call at each new hand)."""
        self._decisions.clear()
        self._round_starts.clear()
        self._solved.clear()

    def decision(self, state: HandState, budget: SolveBudget, deadline: float | None = None) -> Decision:
        """The re-solved decision at ``state`` (our turn, a re-solved round): solved once per
        public history and hand (later calls return the same)."""
        if state.current_player != self.position:
            raise ValueError("re-solving decides where its own position is to act")
        if state.round < self.first_round:
            raise ValueError(f"round {state.round} is played by the trunk, not re-solved")
        key = (state.betting_string(), tuple(state.visible_board()))
        found = self._decisions.get(key)
        if found is None:
            anchor = self._anchor(state, budget)
            found = self._solve(anchor, state, budget, deadline)
            self._decisions[key] = found
        return found

    def probabilities(
        self, state: HandState, hole: tuple[int, ...], budget: SolveBudget, deadline: float | None = None
    ) -> dict[Action, float]:
        """Our probability of each action at ``state`` holding ``hole`` (a solve that starts
        before ``deadline``, a :func:`time.monotonic` reading, ends by it)."""
        decision = self.decision(state, budget, deadline)
        h = self.space.index(hole)
        column = decision.strategy[:, h]
        return {a: float(p) for a, p in zip(decision.actions, column) if p > 0.0}

    def final_range(self, state: HandState) -> np.ndarray | None:
        """Our range at the end of the hand ``state`` (finished, or wherever it stands): the
        trunk's range where the re-solved rounds start times, at each of our later actions, the
        probability this hand's solve gave it for every holding. Holdings on a card of the
        board visible where re-solving started weigh 0. None when one of those actions was not
        solved (played by the trunk) or the hand ended before the re-solved rounds."""
        replay = HandState(self.game, board_cards=tuple(state.visible_board()))
        history = state.history()
        i = 0
        while replay.round < self.first_round:
            if i == len(history):
                return None
            replay.apply(history[i][2])
            i += 1
        valid = self.space.valid(tuple(replay.visible_board())).astype(np.float64)
        reach = np.asarray(self.trunk(replay)[self.position], dtype=np.float64) * valid
        for _round, actor, action in history[i:]:
            if actor == self.position:
                decision = self._decisions.get((replay.betting_string(), tuple(replay.visible_board())))
                if decision is None or action not in decision.actions:
                    return None
                reach = reach * decision.strategy[decision.actions.index(action)]
            replay.apply(action)
        return reach

    # ------------------------------------------------------------------ anchors
    def _anchor(self, state: HandState, budget: SolveBudget) -> _Anchor:
        """The anchor for a solve at ``state``: replay the history from the first re-solved
        round's start, moving the anchor over our own actions and round ends."""
        game = self.game
        board = tuple(state.visible_board())
        replay = HandState(game, board_cards=board)
        history = state.history()
        i = 0
        while replay.round < self.first_round:
            replay.apply(history[i][2])
            i += 1
        ranges = [np.asarray(r, dtype=np.float64) for r in self.trunk(replay)]
        valid = self.space.valid(tuple(replay.visible_board())).astype(np.float64)
        ranges = [
            r * valid if (r * valid).sum() > 0.0 else valid for r in ranges
        ]  # a range the trunk rules out: any holding
        us, them = self.position, 1 - self.position
        if self.start == "range" or replay.round == 0:
            anchor = _Anchor(replay.copy(), ranges[us].copy(), ranges[them].copy(), None)
        elif self.start == "blueprint":
            assert self.trunk_strategy is not None
            bounds = self._trunk_bounds(replay, ranges[us]) * valid
            anchor = _Anchor(replay.copy(), ranges[us].copy(), None, bounds)
        else:  # the opponent's values if the cards were run out from here: the first solve is gadgeted too
            stake = float(min(replay.spent))
            board = tuple(replay.visible_board())
            bounds = stake * (self.space.runout_matrix(board, np.float64) @ ranges[us])
            anchor = _Anchor(replay.copy(), ranges[us].copy(), None, bounds * valid)
        for _round, actor, action in history[i:]:
            if actor == us:
                decision = self.decision(replay, budget)
                after = replay.copy()
                after.apply(action)
                if action in decision.actions:
                    k = decision.actions.index(action)
                    anchor = _Anchor(
                        after, anchor.our_range * decision.strategy[k], None, decision.bounds_after[k].copy()
                    )
                else:  # played by the trunk (no time to solve): our range unchanged, the opponent's best values
                    anchor = _Anchor(after, anchor.our_range, None, decision.bounds_after.max(axis=0))
            round_before = replay.round
            replay.apply(action)
            if not replay.finished and replay.round != round_before:
                anchor = self._next_round(anchor, replay)
        return anchor

    def _trunk_bounds(self, root: HandState, our_range: np.ndarray) -> np.ndarray:
        """The opponent's best-response counterfactual values at ``root`` against the trunk's
        strategy for the round, played from ``our_range`` (run-out values at the round's leaves)."""
        assert self.trunk_strategy is not None
        tree = build_subgame(root, self.sizing)
        us, them = self.position, 1 - self.position
        ranges = np.ones((2, self.space.size))
        ranges[us] = our_range
        solver = SubgameSolver(tree, self.space, tuple(root.visible_board()), ranges, leaves=self._leaf_values(tree))
        values: np.ndarray = solver.best_response_values(them, self.trunk_strategy(tree, us))[0]
        return values

    def _leaf_values(self, tree: SubgameTree) -> ContinuationValues | None:
        """The multi-valued leaves of ``tree``, the opponent choosing (None: run-out leaves)."""
        if self.leaves is None or not (tree.kind == LEAF).any():
            return None
        return self.leaves.values(tree, 1 - self.position)

    def _next_round(self, anchor: _Anchor, state: HandState) -> _Anchor:
        """The anchor at the start of ``state``'s round, from the last round's leaf: the
        opponent's values are its run-out values against our range with the new cards, or
        those the multi-valued leaves give (:meth:`~.leaves.BlueprintLeaves.round_start_bounds`;
        once per public history and hand, like the solves)."""
        board = tuple(state.visible_board())
        key = (state.betting_string(), board)
        found = self._round_starts.get(key)
        if found is not None:
            return found
        valid = self.space.valid(board)
        our_range = anchor.our_range * valid
        bounds = None if self.leaves is None else self.leaves.round_start_bounds(state, our_range, 1 - self.position)
        if bounds is None:
            stake = float(min(state.spent))
            bounds = stake * (self.space.runout_matrix(board, np.float64) @ our_range)
        found = _Anchor(state.copy(), our_range, None, bounds * valid)
        self._round_starts[key] = found
        return found

    # ------------------------------------------------------------------ solving
    def _solve(self, anchor: _Anchor, state: HandState, budget: SolveBudget, deadline: float | None) -> Decision:
        # One BLAS thread: the leaves' matrix products are small, and a second thread fighting
        # the opponent's process (or the other seat's) for a core costs far more than it gives.
        with _blas().limit(limits=1, user_api="blas"):
            return self._solve_here(anchor, state, budget, deadline)

    def _solve_here(self, anchor: _Anchor, state: HandState, budget: SolveBudget, deadline: float | None) -> Decision:
        started = time.monotonic()
        done = sum(len(a) for a in anchor.state.actions)
        path = [action for _r, _p, action in state.history()[done:]]
        tree = build_subgame(anchor.state, self.sizing, path)
        node = tree.node_of(state)
        assert tree.kind[node] == DECISION
        us, them = self.position, 1 - self.position
        ranges = np.zeros((2, self.space.size))
        ranges[us] = anchor.our_range
        gadget = None
        if anchor.bounds is not None:
            ranges[them] = 1.0
            gadget = (them, anchor.bounds)
        else:
            assert anchor.opponent_range is not None
            ranges[them] = anchor.opponent_range
        board = tuple(state.visible_board())
        model = None if self.opponent is None else self.opponent(tree, anchor.state, board, us)
        solver = SubgameSolver(tree, self.space, board, ranges, gadget, model, self._leaf_values(tree))
        if self.warm and self.warm_from == "trunk" and self.trunk_strategy is not None:
            solver.warm_start(self._trunk_table(tree), self.warm)
        elif self.warm and self.warm_from == "solve":
            earlier = self._earlier(state)
            if earlier is not None:
                solver.warm_start(self._solved_table(tree, earlier), self.warm)
        stop = deadline
        if budget.seconds is not None:
            limit = started + budget.seconds
            stop = limit if stop is None else min(stop, limit)
        first = time.monotonic()
        solver.iterate(1)
        # The reading after the loop costs about one iteration, and a chunk may run long.
        each = time.monotonic() - first
        while solver.iterations < budget.iterations:
            count = min(budget.chunk, budget.iterations - solver.iterations)
            if stop is not None:
                left = stop - time.monotonic() - 3.0 * each
                if left <= 0.0:
                    break
                count = max(1, min(count, int(left / max(each, 1e-6))))
            before = time.monotonic()
            solver.iterate(count)
            each = (time.monotonic() - before) / count
        played = solver.average_strategy()
        if self.warm and self.warm_from == "solve":
            self._remember(tree, state, played)
        if self.floor > 0.0:
            _purify(tree, played, us, self.floor)
        br = solver.best_response_values(them, played)
        base, count = int(tree.slot[node]), int(tree.num_actions[node])
        children = tree.children[node, :count]
        return Decision(
            actions=tree.actions[node],
            strategy=played[base : base + count],
            bounds_after=br[children].copy(),
            iterations=solver.iterations,
            seconds=time.monotonic() - started,
        )

    def _remember(self, tree: SubgameTree, state: HandState, strategy: np.ndarray) -> None:
        """Keep the solve at ``state``'s average strategy at each of its decisions, by betting."""
        rows = {}
        for node in np.flatnonzero(tree.kind == DECISION):
            base, count = int(tree.slot[node]), int(tree.num_actions[node])
            rows[tree.states[node].betting_string()] = (tree.actions[node], strategy[base : base + count].copy())
        self._solved[(state.betting_string(), tuple(state.visible_board()))] = rows

    def _earlier(self, state: HandState) -> dict[str, tuple[tuple[Action, ...], np.ndarray]] | None:
        """The last solve of ``state``'s round at one of our decisions before it on its path."""
        board = tuple(state.visible_board())
        replay = HandState(self.game, board_cards=board)
        found = None
        for _round, actor, action in state.history():
            if actor == self.position and replay.round == state.round:
                found = self._solved.get((replay.betting_string(), board), found)
            replay.apply(action)
        return found

    def _solved_table(self, tree: SubgameTree, earlier: dict[str, tuple[tuple[Action, ...], np.ndarray]]) -> np.ndarray:
        """An earlier solve's strategy over ``tree`` where it had the same decision (rows of 0,
        played uniformly, elsewhere)."""
        table = np.zeros((tree.num_slots, self.space.size))
        for node in np.flatnonzero(tree.kind == DECISION):
            found = earlier.get(tree.states[node].betting_string())
            if found is not None and found[0] == tree.actions[node]:
                base = int(tree.slot[node])
                table[base : base + len(found[0])] = found[1]
        return table

    def _trunk_table(self, tree: SubgameTree) -> np.ndarray:
        """The trunk's strategy over ``tree`` at both positions' decisions, ``[slot, holding]``."""
        assert self.trunk_strategy is not None
        table = self.trunk_strategy(tree, 0)
        theirs = self.trunk_strategy(tree, 1)
        for node in np.flatnonzero((tree.kind == DECISION) & (tree.player == 1)):
            base, count = int(tree.slot[node]), int(tree.num_actions[node])
            table[base : base + count] = theirs[base : base + count]
        return table


def _purify(tree: SubgameTree, strategy: np.ndarray, position: int, floor: float) -> None:
    """At ``position``'s decisions of ``strategy`` (``[slot, holding]``), each holding's actions
    below ``floor`` dropped and the rest renormalised (its likeliest action kept)."""
    for node in np.flatnonzero((tree.kind == DECISION) & (tree.player == position)):
        base, count = int(tree.slot[node]), int(tree.num_actions[node])
        block = strategy[base : base + count]
        top = block.max(axis=0)
        kept = np.where((block >= floor) | (block == top), block, 0.0)
        total = kept.sum(axis=0)
        np.divide(kept, total, out=block, where=total > 0.0)


_CONTROLLER: list[ThreadpoolController] = []


def _blas() -> ThreadpoolController:
    """The process's thread pools, inspected once (inspecting them costs milliseconds)."""
    if not _CONTROLLER:
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0]


__all__ = ["ContinualResolver", "Decision", "OpponentHook", "SolveBudget", "Trunk", "TrunkStrategy"]
