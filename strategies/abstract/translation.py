"""Action translation: a real no-limit hand located in an abstract betting tree, and the tree's
actions played in the real hand.

A no-limit tree (:class:`~pokerbot.strategies.betting.sizing.BetSizing`) holds a few
raise sizes per decision; real opponents bet anything. :class:`TreeTranslator` walks the real
betting history down the tree:

* **Opponent raises** are mapped with the *pseudo-harmonic* mapping (Ganzfried and Sandholm,
  "Action translation in extensive-form games with large action spaces", IJCAI 2013). Sizes
  are pot fractions ``x = (raise_to - max_spent) / (pot after calling)``, the tree's own
  definition; a real ``x`` between the tree's neighbouring sizes ``A < x < B`` goes to ``A``
  with probability :func:`pseudo_harmonic` ``= (B - x)(1 + A) / ((B - A)(1 + x))`` and to
  ``B`` otherwise. Check/call counts as the size ``A = 0``, so a small bet may be read as a
  check. A real all-in is the tree's all-in when the tree has one; above the tree's largest
  size the largest is taken. The draw is a fixed function of (seed, hand number, the
  action's place in the hand): the same hand is always read the same way, whoever asks.
* **Our own raises** came from the tree: each is read as the tree action whose real
  translation it equals (else the nearest size).
* Folds and calls are themselves (a fold where the tree has none reads as its call).

Then :meth:`TreeTranslator.real_actions` turns the tree's actions at the located node into
real ones on the real state: a tree raise keeps its pot fraction (raise to ``max_spent +
x * pot after calling`` of the *real* pot, rounded, clamped into the legal range:
:func:`~pokerbot.models.action_classes.pot_raise_to`) and the
tree's all-in stays all-in; a raise that is no longer legal (the opponent is all-in)
becomes a call. Two tree actions that land on the same real action add up.

**Stacks and all-ins.** Translation can leave the tree and the real hand apart: a real raise
read as a call that closes the round in the tree, while the real hand waits for our answer,
or a raise the tree has no room for (its raise cap reached). :meth:`TreeTranslator.locate`
then reports the position as *off the tree* (``synced`` False); the walk keeps going and
re-synchronises as soon as the real hand reaches the tree's node again (our call of that
raise ends the round in both). Off the tree the player falls back on its own rule (the
abstract player calls when its hand strength beats the pot odds, else folds; it checks
when it can). Limit trees contain every real betting sequence, so nothing is translated.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pokerbot.models.action_classes import pot_raise_to
from pokerbot.protocol.actions import CALL, FOLD, Action, ActionKind
from pokerbot.protocol.errors import IllegalActionError
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.abstract.betting import DECISION, BettingTree


def pseudo_harmonic(low: float, high: float, x: float) -> float:
    """The probability of reading a bet of pot fraction ``x`` as the smaller tree size ``low``
    (rather than ``high``), ``low <= x <= high`` (clipped into that interval): ``(high - x)(1 +
    low) / ((high - low)(1 + x))``; 1 at ``low``, 0 at ``high``. Sizes are fractions of the pot."""
    if high <= low:
        return 1.0
    x = min(max(x, low), high)
    return (high - x) * (1.0 + low) / ((high - low) * (1.0 + x))


def real_fraction(state: HandState, raise_to: int) -> float:
    """The pot fraction of raising to ``raise_to`` chips in ``state``: the raise over the pot
    after calling (0 for a call)."""
    player = state.current_player
    assert player is not None
    call_amount = state.max_spent - state.spent[player]
    return (raise_to - state.max_spent) / max(state.pot + call_amount, 1)


@dataclass(frozen=True)
class TreePosition:
    """Where a real hand stands in the tree: ``node``, and whether the real hand is at that
    node (``synced``: same round and same player to act)."""

    node: int
    synced: bool


class TreeTranslator:
    """Locates real hands in ``tree`` and plays its actions in them (module docstring).

    ``seed`` fixes the pseudo-harmonic draws (with the hand number and the action's place).
    """

    def __init__(self, tree: BettingTree, seed: int | None = None) -> None:
        self.tree = tree
        self.seed = 0 if seed is None else seed
        self.stacks = tree.game.stacks

    # ------------------------------------------------------------ tree sizes
    def tree_sizes(self, node: int) -> list[tuple[float, int, bool]]:
        """``(pot fraction, action index, is all-in)`` of the check/call (fraction 0) and every
        raise at ``node``, by increasing fraction."""
        tree = self.tree
        player = int(tree.player[node])
        spent = tree.spent[node]
        max_spent = int(spent.max())
        after_call = int(spent.sum()) + max_spent - int(spent[player])
        sizes: list[tuple[float, int, bool]] = []
        for k, action in enumerate(tree.actions[node]):
            if action.kind is ActionKind.CALL:
                sizes.append((0.0, k, False))
            elif action.kind is ActionKind.RAISE:
                all_in = action.size >= self.stacks[player]
                sizes.append(((action.size - max_spent) / max(after_call, 1), k, all_in))
        sizes.sort()
        return sizes

    def real_action(self, node: int, k: int, state: HandState) -> Action:
        """Tree action ``k`` of ``node`` played in the real ``state`` (module docstring)."""
        action = self.tree.actions[node][k]
        if action.kind is ActionKind.FOLD:
            return FOLD if state.can(FOLD) else CALL
        if action.kind is ActionKind.CALL or not self.tree.game.is_nolimit:
            return action if state.can(action) else CALL
        legal = state.legal_actions()
        if not legal.can_raise:
            return CALL
        player = int(self.tree.player[node])
        if action.size >= self.stacks[player]:
            return Action.raise_to(legal.max_raise_to)
        fraction = next(f for f, index, _ in self.tree_sizes(node) if index == k)
        return Action.raise_to(pot_raise_to(state, fraction, legal))

    def real_actions(self, node: int, state: HandState) -> list[Action]:
        """Every tree action of ``node`` played in ``state``, in the node's order."""
        return [self.real_action(node, k, state) for k in range(int(self.tree.num_actions[node]))]

    # -------------------------------------------------------------- locating
    def _synced(self, node: int, state: HandState) -> bool:
        tree = self.tree
        if tree.kind[node] != DECISION or state.finished:
            return False
        return int(tree.player[node]) == state.current_player and int(tree.round[node]) == state.round

    def _draw(self, hand_number: int, index: int) -> float:
        return random.Random(f"{self.seed}:{hand_number}:{index}").random()

    def _read(self, node: int, state: HandState, action: Action, own: bool, draw: float) -> int:
        """The index of the tree action at ``node`` that real ``action`` in ``state`` is read as."""
        tree = self.tree
        actions = tree.actions[node]
        if action.kind is ActionKind.FOLD:
            return actions.index(FOLD) if FOLD in actions else actions.index(CALL)
        if action.kind is ActionKind.CALL or not tree.game.is_nolimit:
            return actions.index(action) if action in actions else actions.index(CALL)
        sizes = self.tree_sizes(node)
        player = state.current_player
        assert player is not None
        if action.size >= self.stacks[player]:
            for _, k, all_in in sizes:
                if all_in:
                    return k
        if own:
            for k in range(len(actions)):
                if actions[k].kind is ActionKind.RAISE and self.real_action(node, k, state) == action:
                    return k
        x = real_fraction(state, action.size)
        if own:  # our raise made off the tree (another player's choice): the nearest tree raise
            raises = [size for size in sizes if actions[size[1]].kind is ActionKind.RAISE] or sizes
            return min(raises, key=lambda size: (abs(size[0] - x), -size[0]))[1]
        if x >= sizes[-1][0]:
            return sizes[-1][1]
        for (low, k_low, _), (high, k_high, _) in zip(sizes, sizes[1:], strict=False):
            if low <= x <= high:
                return k_low if draw < pseudo_harmonic(low, high, x) else k_high
        return sizes[0][1]

    def locate(self, state: HandState, position: int, hand_number: int = 0) -> TreePosition:
        """Where the real hand ``state`` stands in the tree; ``position`` is ours (our actions
        are read exactly, the others' by the pseudo-harmonic mapping)."""
        tree = self.tree
        real = HandState(tree.game)
        node = 0
        for index, (_round, actor, action) in enumerate(state.history()):
            if self._synced(node, real) and int(tree.player[node]) == actor:
                k = self._read(node, real, action, actor == position, self._draw(hand_number, index))
                node = int(tree.children[node, k])
            try:
                real.apply(action)
            except IllegalActionError:
                return TreePosition(node, False)
        return TreePosition(node, self._synced(node, real))


__all__ = ["TreePosition", "TreeTranslator", "pseudo_harmonic", "real_fraction"]
