"""The search's action abstraction and the reverse mapping of real bet sizes.

Built on :mod:`pokerbot.models.action_classes` (the action classes the opponent model predicts), with
configurable sizes for the search (Kündig's thesis, ch. 6.1 and 6.1.1).

**Abstract actions** (:func:`abstract_actions`) of the player to act: fold (when something
is to be called), check or call, then one bet or raise per configured pot fraction, then
all-in. A fraction ``f`` means a raise-*by* of ``f`` times the pot after the raiser's call
(``pot + call_amount``, the convention of :mod:`pokerbot.models.action_classes`), so a raise *to*
``max_spent + f * (pot + call_amount)`` chips, rounded and clamped to the legal range
(:func:`~pokerbot.models.action_classes.pot_raise_to`). A bet that would put more than
``commit_share`` of the raiser's stack in the pot is dropped: all-in stands for it (thesis
ch. 6.1, rule 4). All-in is present whenever a raise is legal, except when it would be an
overbet of more than ``all_in_max_pot`` times the pot and a smaller raise exists. Sizes are clamped to the legal range
with :meth:`HandState.clamp`; duplicates are removed. Each abstract action carries the
model class (:func:`models.action_classes.classify`) its real action falls into, so the
opponent model's class probabilities can be spread over the search's branches. Limit games
have one raise.

**Reverse mapping** (:func:`reverse_map`) of a real raise onto the abstract raises, by
comparing its raise-by amount ``x`` with the two surrounding abstract raise-by amounts
``A < x < B`` (chips, or pot fractions: both rules are scale-free):

* ``ratio`` (Gilpin et al. 2008, thesis 6.1.1): ``A`` when ``x / A < B / x`` else ``B``;
  betting 190 into a pot of 10 with abstract sizes 5, 10 and all-in 390 gives
  ``190 / 10 = 19 > 390 / 190 = 2.05``: all-in.
* ``pseudo-harmonic`` (Ganzfried & Sandholm 2013), with sizes as pot fractions:
  ``P(A) = ((B - x)(1 + A)) / ((B - A)(1 + x))``
  (:func:`pokerbot.strategies.abstract.translation.pseudo_harmonic`, the abstract players'
  translation); ``A`` when ``P(A) >= 1/2``.
* ``pseudo-harmonic-random``: ``A`` with probability ``P(A)``, drawn from the caller's
  seeded generator.

Sizes below the smallest abstract raise map to it, above the largest to the largest.
Amounts are chips unless said otherwise.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pokerbot.models.action_classes import HALF_POT_FRACTION, POT_FRACTION, ActionClass, classify, pot_raise_to
from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action, ActionKind
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.abstract.translation import pseudo_harmonic

MappingRule = Literal["ratio", "pseudo-harmonic", "pseudo-harmonic-random"]


class AbstractionSettings(BaseModel):
    """Bet sizes of the search and the reverse-mapping rule."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    bet_fractions: tuple[float, ...] = Field((HALF_POT_FRACTION, POT_FRACTION), min_length=0)
    """Raise-by sizes as fractions of the pot after calling (thesis: half pot and pot)."""
    commit_share: float = Field(0.5, gt=0.0, le=1.0)
    """A bet putting more than this share of the raiser's stack in becomes all-in."""
    mapping: MappingRule = "pseudo-harmonic"
    """How an opponent's real raise size is mapped onto the abstract sizes."""
    all_in_max_pot: float | None = Field(None, gt=0.0)
    """The all-in branch is left out when it would raise by more than this many times the pot
    after calling and a smaller raise exists (None, the thesis: always all-in; the agent
    uses 3). Overbet shoves are called mostly by better hands, which the models learn too
    slowly to price."""

    @field_validator("bet_fractions")
    @classmethod
    def _check_fractions(cls, fractions: tuple[float, ...]) -> tuple[float, ...]:
        if any(f <= 0.0 for f in fractions):
            raise ValueError(f"bet fractions must be positive, got {fractions}")
        return tuple(sorted(set(fractions)))


@dataclass(frozen=True, slots=True)
class AbstractAction:
    """A branch of the search: the real action, its model class, and its size.

    ``raise_by`` is the chips added above the bet to match (0 for fold, check and call).
    """

    action: Action
    action_class: ActionClass
    raise_by: int = 0


def _raise_branch(state: HandState, raise_to: int) -> AbstractAction:
    action = state.clamp(Action.raise_to(raise_to))
    return AbstractAction(action, classify(state, action), action.size - state.max_spent)


def abstract_actions(state: HandState, settings: AbstractionSettings) -> tuple[AbstractAction, ...]:
    """The search's branches for the player to act in ``state`` (module docstring), ordered
    fold, check/call, raises by increasing size."""
    legal = state.legal_actions()
    branches: list[AbstractAction] = []
    if legal.can_fold:
        branches.append(AbstractAction(FOLD, ActionClass.FOLD))
    branches.append(AbstractAction(CALL, ActionClass.CALL if legal.call_amount else ActionClass.CHECK))
    if not legal.can_raise:
        return tuple(branches)
    if not state.game.is_nolimit:
        action = state.clamp(LIMIT_RAISE)
        branches.append(AbstractAction(action, classify(state, action), legal.min_raise_to - state.max_spent))
        return tuple(branches)
    stack = state.game.stacks[legal.player]
    base = state.pot + legal.call_amount
    sizes: list[int] = []
    for fraction in settings.bet_fractions:
        raise_to = pot_raise_to(state, fraction, legal)
        if raise_to > settings.commit_share * stack or raise_to >= legal.max_raise_to:
            continue
        if raise_to not in sizes:
            sizes.append(raise_to)
    for raise_to in sizes:
        branches.append(_raise_branch(state, raise_to))
    overbet = (
        settings.all_in_max_pot is not None and legal.max_raise_to - state.max_spent > settings.all_in_max_pot * base
    )
    if not (sizes and overbet):
        branches.append(_raise_branch(state, legal.max_raise_to))
    return tuple(branches)


def map_size(x: float, sizes: tuple[float, ...], rule: MappingRule, rng: random.Random | None = None) -> int:
    """The index in increasing ``sizes`` that the size ``x`` maps to under ``rule``.

    Sizes are raise-by amounts in one unit: the ratio rule is scale-free; the
    pseudo-harmonic rules need pot fractions. ``rng`` is required for the random rule.
    """
    if not sizes:
        raise ValueError("no abstract sizes to map onto")
    if x <= sizes[0]:
        return 0
    if x >= sizes[-1]:
        return len(sizes) - 1
    upper = next(i for i, size in enumerate(sizes) if size >= x)
    if sizes[upper] == x:
        return upper
    low, high = sizes[upper - 1], sizes[upper]
    if rule == "ratio":
        return upper - 1 if x / low < high / x else upper
    p_low = pseudo_harmonic(low, high, x)
    if rule == "pseudo-harmonic":
        return upper - 1 if p_low >= 0.5 else upper
    if rng is None:
        raise ValueError("the pseudo-harmonic-random rule needs a random generator")
    return upper - 1 if rng.random() < p_low else upper


def reverse_map(
    state: HandState, action: Action, settings: AbstractionSettings, rng: random.Random | None = None
) -> AbstractAction:
    """The abstract action standing for the real ``action`` of the player to act in ``state``.

    Folds, checks and calls map to themselves; a raise maps onto the abstract raises of
    ``state`` by its raise-by amount as a pot fraction (of ``pot + call_amount``), under
    ``settings.mapping``.
    """
    real = state.clamp(action)
    branches = abstract_actions(state, settings.model_copy(update={"all_in_max_pot": None}))  # all-in always a target
    if real.kind is not ActionKind.RAISE:
        return next(b for b in branches if b.action.kind is real.kind)
    raises = [b for b in branches if b.action.kind is ActionKind.RAISE]
    if not state.game.is_nolimit:
        return raises[0]
    base = state.pot + state.legal_actions().call_amount
    fractions = tuple(b.raise_by / base for b in raises)
    x = (real.size - state.max_spent) / base
    return raises[map_size(x, fractions, settings.mapping, rng)]


__all__ = [
    "AbstractAction",
    "AbstractionSettings",
    "MappingRule",
    "abstract_actions",
    "map_size",
    "reverse_map",
]
