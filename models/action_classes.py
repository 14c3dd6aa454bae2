"""The action classes (an action abstraction of six classes) shared by the opponent models and the search.

Six action classes (Kündig's thesis, ch. 6.1): fold, check, call, and three bet/raise sizes,
about half the pot, about the pot, and all-in.

**Sizes.** A bet or raise is measured by its *raise-by* amount (chips added on top of a
call: ``raise_to - max_spent``) relative to the *pot before the bet*, which here means the
pot after the raiser would have called (``pot + call_amount``): the conventional
"pot-sized raise" is then a fraction of 1. Class sizes: :data:`HALF_POT_FRACTION` (0.5) and
:data:`POT_FRACTION` (1.0) of that pot; all-in is the whole remaining stack.

**Mapping a real size to a class** (:func:`classify_raise`): a raise that puts the raiser
all-in is :attr:`ActionClass.ALL_IN`. Otherwise the raise-by amount ``c`` goes to the nearest
class size by *relative* distance (Gilpin et al. 2008, thesis ch. 6.1.1: compare ``c / d1``
with ``d2 / c``), i.e. the thresholds are geometric means of neighbouring sizes: below
``sqrt(0.5 * 1.0) = 0.707`` pots it is half-pot (minimum raises included), below
``sqrt(P * A)`` chips (``P`` the pot-raise and ``A`` the all-in raise-by) it is pot, above it
all-in.

**Limit games** have one raise size: every limit raise is :data:`LIMIT_RAISE_CLASS`
(:attr:`ActionClass.POT`), and the legal classes are fold, check or call, and that one.

**Legal classes** are the classes some legal action maps to. The mapping is monotone in the
raise size, so the legal raise classes run from the class of the minimum raise up to
all-in. **Concrete actions** (:func:`class_actions`): each legal class has one
representative real action: all-in is the whole stack; half-pot and pot are their target
sizes, raised to the minimum raise when they are smaller (a minimum raise that is itself
bigger than ~0.7 pots represents the pot class). ``classify(class_actions(s)[k]) == k``
always holds. Amounts are in chips.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import IntEnum

from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action, ActionKind, LegalActions
from pokerbot.protocol.hand import HandState


class ActionClass(IntEnum):
    """An abstract action. Values index probability vectors (0..5), ordered by aggression."""

    FOLD = 0
    CHECK = 1
    CALL = 2
    HALF_POT = 3
    POT = 4
    ALL_IN = 5


NUM_CLASSES = len(ActionClass)
RAISE_CLASSES = (ActionClass.HALF_POT, ActionClass.POT, ActionClass.ALL_IN)
LIMIT_RAISE_CLASS = ActionClass.POT
"""The class of every raise in a limit game (there is one raise size)."""
HALF_POT_FRACTION = 0.5
POT_FRACTION = 1.0
HALF_POT_THRESHOLD = math.sqrt(HALF_POT_FRACTION * POT_FRACTION)
"""Raise-by amounts (in pots) below this map to half-pot, above it to pot or all-in."""


def classify_raise(raise_to: int, max_spent: int, pot: int, call_amount: int, stack: int) -> ActionClass:
    """The class of a no-limit raise to ``raise_to`` chips.

    ``max_spent`` is the bet to match (chips, all rounds counted), ``pot`` the chips in the
    pot before the raise, ``call_amount`` what the raiser had to add to call, ``stack`` the
    raiser's whole stack. See the module docstring for the rule.
    """
    if raise_to >= stack:
        return ActionClass.ALL_IN
    raise_by = raise_to - max_spent
    base = pot + call_amount
    pot_raise = POT_FRACTION * base
    if raise_by < HALF_POT_THRESHOLD * base:
        return ActionClass.HALF_POT
    all_in_by = stack - max_spent
    if pot_raise >= all_in_by or raise_by * raise_by > pot_raise * all_in_by:
        return ActionClass.ALL_IN
    return ActionClass.POT


def classify(state: HandState, action: Action) -> ActionClass:
    """The class of ``action`` taken by the player to act in ``state`` (before it is applied)."""
    kind = action.kind
    if kind is ActionKind.FOLD:
        return ActionClass.FOLD
    legal = state.legal_actions()
    if kind is ActionKind.CALL:
        return ActionClass.CALL if legal.call_amount else ActionClass.CHECK
    if not state.game.is_nolimit:
        return LIMIT_RAISE_CLASS
    stack = state.game.stacks[legal.player]
    return classify_raise(action.size, state.max_spent, state.pot, legal.call_amount, stack)


def pot_raise_to(
    state: HandState, fraction: float, legal: LegalActions | None = None, *, rounding: Callable[[float], int] = round
) -> int:
    """The raise-to amount, in chips, of a raise by ``fraction`` of the pot after calling for the
    player to act in ``state``: ``max_spent + rounding(fraction * (pot + call_amount))``,
    clamped into ``[min_raise_to, max_raise_to]``. ``rounding`` turns the raise-by into chips
    (default: to the nearest, halves to even); ``legal``: ``state.legal_actions()`` when the
    caller has it. The player must be able to raise. Every pot-fraction raise of the package
    (betting trees, translation, the search, the styled players, the human table) is sized here.
    """
    if legal is None:
        legal = state.legal_actions()
    size = state.max_spent + rounding(fraction * (state.pot + legal.call_amount))
    return min(max(size, legal.min_raise_to), legal.max_raise_to)


def target_raise_to(state: HandState, action_class: ActionClass) -> int:
    """The raise-to amount (chips) of a raise class for the player to act, clamped into the
    legal range (:func:`pot_raise_to` of the class's fraction; all-in the whole stack)."""
    legal = state.legal_actions()
    if action_class is ActionClass.ALL_IN:
        return legal.max_raise_to
    fraction = HALF_POT_FRACTION if action_class is ActionClass.HALF_POT else POT_FRACTION
    return pot_raise_to(state, fraction, legal)


def class_actions(state: HandState) -> dict[ActionClass, Action]:
    """Each legal class of the player to act and the real action standing for it (in class order).

    Fold only when there is something to call; check when calling is free, call otherwise;
    the raise classes as described in the module docstring.
    """
    legal = state.legal_actions()
    actions: dict[ActionClass, Action] = {}
    if legal.can_fold:
        actions[ActionClass.FOLD] = FOLD
    actions[ActionClass.CALL if legal.call_amount else ActionClass.CHECK] = CALL
    if not legal.can_raise:
        return actions
    if not state.game.is_nolimit:
        actions[LIMIT_RAISE_CLASS] = LIMIT_RAISE
        return actions
    stack = state.game.stacks[legal.player]
    max_spent, pot, call_amount = state.max_spent, state.pot, legal.call_amount
    lowest = classify_raise(legal.min_raise_to, max_spent, pot, call_amount, stack)
    for action_class in RAISE_CLASSES[RAISE_CLASSES.index(lowest) : -1]:
        size = target_raise_to(state, action_class)
        if classify_raise(size, max_spent, pot, call_amount, stack) is not action_class:
            if action_class is not lowest:
                continue  # no legal size maps to this class (the pot raise is all-in)
            size = legal.min_raise_to
        actions[action_class] = Action.raise_to(size)
    actions[ActionClass.ALL_IN] = Action.raise_to(legal.max_raise_to)
    return actions


def legal_classes(state: HandState) -> tuple[ActionClass, ...]:
    """The classes the player to act may take, in class order."""
    return tuple(sorted(class_actions(state)))


def legal_mask(state: HandState) -> int:
    """The legal classes as a bit mask (bit ``k`` set when class ``k`` is legal)."""
    mask = 0
    for action_class in class_actions(state):
        mask |= 1 << action_class
    return mask


def mask_classes(mask: int) -> tuple[ActionClass, ...]:
    """The classes whose bits are set in ``mask``."""
    return tuple(c for c in ActionClass if mask >> c & 1)


__all__ = [
    "HALF_POT_FRACTION",
    "HALF_POT_THRESHOLD",
    "LIMIT_RAISE_CLASS",
    "NUM_CLASSES",
    "POT_FRACTION",
    "RAISE_CLASSES",
    "ActionClass",
    "class_actions",
    "classify",
    "classify_raise",
    "legal_classes",
    "legal_mask",
    "mask_classes",
    "pot_raise_to",
    "target_raise_to",
]
