"""The re-solving player's whole strategy as a table, in games small enough to walk (Leduc).

Continual re-solving is a function of the public history (:mod:`.continual`), so in a small
game the player's complete strategy can be written down: :func:`resolved_policy` walks every
public state of the game, re-solves where the player acts in a re-solved round, and reads the
trunk's policy before. The table is a :class:`~pokerbot.strategies.solvers.Policy`, whose
exploitability :func:`~pokerbot.strategies.solvers.exploitability` computes exactly: the
testbed that compares re-solving with its blueprint.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action, ActionKind
from pokerbot.protocol.analysis.matchups import HoldingSpace, holding_space
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.infosets import infoset_key
from pokerbot.strategies.betting.sizing import BetSizing
from pokerbot.strategies.resolve.continual import ContinualResolver, OpponentHook, SolveBudget
from pokerbot.strategies.resolve.leaves import BlueprintLeaves
from pokerbot.strategies.resolve.tree import DECISION, SubgameTree
from pokerbot.strategies.solvers.policy import Policy


def policy_range(policy: Policy, space: HoldingSpace) -> Callable[[HandState, int], np.ndarray]:
    """``range_of(state, position)`` for a tabular ``policy``: the product of its probabilities
    of ``position``'s actions so far, for every holding (0 for holdings on a board card)."""

    def range_of(state: HandState, position: int) -> np.ndarray:
        board = tuple(state.visible_board())
        reach = space.valid(board).astype(np.float64)
        replay = HandState(state.game, board_cards=board)
        for _round, actor, action in state.history():
            if actor == position:
                for h in np.flatnonzero(reach):
                    hole = tuple(int(c) for c in space.cards[h])
                    key = infoset_key(hole, replay)
                    reach[h] *= policy.action_probabilities(key).get(_char(action), 0.0)
            replay.apply(action)
        return reach

    return range_of


def policy_table(policy: Policy, space: HoldingSpace) -> Callable[[SubgameTree, int], np.ndarray]:
    """``trunk_strategy(tree, position)`` for a tabular ``policy``: its probability of every
    action at each of ``position``'s decisions of ``tree``, for every holding, ``[slot, holding]``
    (0 for holdings on a board card)."""

    def table(tree: SubgameTree, position: int) -> np.ndarray:
        out = np.zeros((tree.num_slots, space.size))
        for node in np.flatnonzero((tree.kind == DECISION) & (tree.player == position)):
            state = tree.states[node]
            valid = space.valid(tuple(state.visible_board()))
            base = int(tree.slot[node])
            for h in np.flatnonzero(valid):
                hole = tuple(int(c) for c in space.cards[h])
                found = policy.action_probabilities(infoset_key(hole, state))
                for k, action in enumerate(tree.actions[node]):
                    out[base + k, h] = found.get(_char(action), 0.0)
        return out

    return table


def resolved_policy(
    game: Game,
    budget: SolveBudget,
    first_round: int = 0,
    trunk: Policy | None = None,
    sizing: BetSizing | None = None,
    start: str = "range",
    opponent: OpponentHook | None = None,
    *,
    warm: int = 0,
    warm_from: str = "trunk",
    floor: float = 0.0,
    leaves: BlueprintLeaves | None = None,
) -> Policy:
    """The re-solving player's strategy at every information set of a small limit ``game``,
    both positions: re-solved from ``first_round`` on (iterations only, so it is a fixed
    function), ``trunk``'s before it (needed when ``first_round > 0``; at round 0 both ranges
    start uniform, as at the start of the hand). ``leaves``: multi-valued leaves (default: the
    run-out)."""
    if game.is_nolimit:
        raise ValueError("the exact testbed walks limit games")
    if first_round > 0 and trunk is None:
        raise ValueError("a trunk policy plays the rounds before the first re-solved one")
    space = holding_space(game)
    trunk_strategy = None
    if trunk is not None:
        range_of = policy_range(trunk, space)
        trunk_strategy = policy_table(trunk, space)

        def trunk_ranges(state: HandState) -> tuple[np.ndarray, np.ndarray]:
            return range_of(state, 0), range_of(state, 1)
    else:

        def trunk_ranges(state: HandState) -> tuple[np.ndarray, np.ndarray]:
            valid = space.valid(tuple(state.visible_board())).astype(np.float64)
            return valid, valid.copy()

    table: dict[str, tuple[str, list[float]]] = {}
    deck = sorted(game.deck)
    boards = list(itertools.permutations(deck, game.total_board_cards)) if game.total_board_cards else [()]
    for board in boards:
        resolvers = [
            ContinualResolver(
                game,
                p,
                trunk_ranges,
                first_round,
                sizing,
                space,
                start,
                opponent,
                trunk_strategy,
                warm=warm,
                warm_from=warm_from,
                floor=floor,
                leaves=leaves,
            )
            for p in (0, 1)
        ]
        _walk(HandState(game, board_cards=board), resolvers, trunk, budget, space, table)
    return Policy.from_arrays(game, table, {"algorithm": "continual re-solving", "iterations": budget.iterations})


def _walk(
    state: HandState,
    resolvers: list[ContinualResolver],
    trunk: Policy | None,
    budget: SolveBudget,
    space: HoldingSpace,
    table: dict[str, tuple[str, list[float]]],
) -> None:
    if state.finished:
        return
    position = int(state.current_player)  # type: ignore[arg-type]
    legal = state.legal_actions()
    actions = [a for a, ok in ((FOLD, legal.can_fold), (CALL, True), (LIMIT_RAISE, legal.can_raise)) if ok]
    chars = "".join(_char(a) for a in actions)
    board = tuple(state.visible_board())
    valid = space.valid(board)
    resolver = resolvers[position]
    for h in np.flatnonzero(valid):
        hole = tuple(int(c) for c in space.cards[h])
        key = infoset_key(hole, state)
        if key in table:
            continue
        if state.round >= resolver.first_round:
            probabilities = resolver.probabilities(state, hole, budget)
            row = [probabilities.get(a, 0.0) for a in actions]
        else:
            assert trunk is not None
            found = trunk.action_probabilities(key)
            row = [found.get(c, 0.0) for c in chars]
        total = sum(row)
        table[key] = (chars, [p / total for p in row])
    for action in actions:
        child = state.copy()
        child.apply(action)
        _walk(child, resolvers, trunk, budget, space, table)


def _char(action: Action) -> str:
    return "fcr"[int(action.kind)] if action.kind is not ActionKind.RAISE else "r"


__all__ = ["policy_range", "policy_table", "resolved_policy"]
