"""The CFR family's regret rules: regret matching, and how regrets and averages are discounted.

Every regret minimiser of the package (the small-game solvers of :mod:`~pokerbot.strategies.solvers`,
the abstract-game kernels of :mod:`~pokerbot.strategies.abstract.kernels`, the re-solver of
:mod:`~pokerbot.strategies.resolve.cfr`) plays :func:`regret_match` and takes its discounts
from an :class:`UpdateRule`.

**Regret matching** (Hart and Mas-Colell 2000): each action's probability is its positive
regret over the sum of the positive regrets, uniform when no regret is positive.
:func:`regret_match` is a numba function (inlined into the kernels that call it) over a block
of rows ``[action, column]``: one column per private hand, holding or sample, each column its
own distribution. The sum of the positive regrets is accumulated in the dtype of the caller's
scratch ``total`` (float64 for float64 or float32 tables; the re-solver's gadget sums in
float32), action by action.

**Update rules.** An :class:`UpdateRule` says how one iteration's regrets are folded into the
accumulated regrets and how much iteration ``t`` weighs in the average strategy:

* ``cfr`` - plain sums, uniform averaging (Zinkevich et al. 2008);
* ``cfr+`` - regrets floored at 0 after every update, iteration ``t`` weighs ``t``
  (Tammelin 2014);
* ``dcfr`` - discounted CFR (Brown and Sandholm 2019), alpha = 1.5, beta = 0, gamma = 2
  (:data:`DCFR_ALPHA`, :data:`DCFR_BETA`, :data:`DCFR_GAMMA`): after iteration ``t`` positive
  regrets are multiplied by ``t^alpha / (t^alpha + 1)``, negative ones by
  ``t^beta / (t^beta + 1)`` (:meth:`UpdateRule.discounts`), and iteration ``t`` weighs
  ``t^gamma`` (:meth:`UpdateRule.weight`); equivalently the running sum of the average
  strategy is multiplied by ``(t / (t + 1))^gamma`` before iteration ``t + 1``'s term is added
  with weight 1 (:meth:`UpdateRule.average_decay`, the re-solver's form);
* ``linear`` - linear CFR, DCFR with alpha = beta = gamma = 1.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numba as nb
import numpy as np
from numba.extending import overload

DCFR_ALPHA, DCFR_BETA, DCFR_GAMMA = 1.5, 0.0, 2.0
"""Discounted CFR's exponents (Brown and Sandholm 2019's recommended values)."""


class UnknownRuleError(ValueError):
    """No update rule has the name asked for."""


@dataclass(frozen=True)
class UpdateRule:
    """How regrets accumulate and iterations weigh in the average (see the module docstring)."""

    name: str
    floor: bool = False
    """Floor accumulated regrets at 0 after every update (regret matching+)."""
    alpha: float | None = None
    """Discount exponent of positive regrets (None: no discounting)."""
    beta: float | None = None
    """Discount exponent of negative regrets (None: no discounting)."""
    gamma: float = 0.0
    """Iteration ``t`` weighs ``t ** gamma`` in the average strategy."""

    @property
    def discounted(self) -> bool:
        """Whether accumulated regrets are discounted (``alpha`` and ``beta`` set)."""
        return self.alpha is not None and self.beta is not None

    def discounts(self, t: float) -> tuple[float, float]:
        """The factors ``(positive, negative)`` that multiply the positive and the negative
        accumulated regrets after iteration ``t`` (1-based): ``t^alpha / (t^alpha + 1)`` and
        ``t^beta / (t^beta + 1)``; ``(1, 1)`` for a rule without discounting."""
        if self.alpha is None or self.beta is None:
            return 1.0, 1.0
        return t**self.alpha / (t**self.alpha + 1.0), t**self.beta / (t**self.beta + 1.0)

    def accumulate(self, regrets: np.ndarray, update: np.ndarray, t: int) -> np.ndarray:
        """The accumulated regrets after adding iteration ``t``'s ``update``."""
        total = regrets + update
        if self.floor:
            np.maximum(total, 0.0, out=total)
        if self.discounted:
            positive, negative = self.discounts(t)
            total *= np.where(total > 0.0, positive, negative)
        return total

    def weight(self, t: int) -> float:
        """The weight of iteration ``t`` in the average strategy, ``t ** gamma``."""
        return float(t) ** self.gamma if self.gamma else 1.0

    def average_decay(self, t: float) -> float:
        """``(t / (t + 1)) ** gamma``: the factor on the average strategy's running sum after
        iteration ``t`` when every iteration adds its term with weight 1 (the same average as
        weighting iteration ``t`` by ``t ** gamma``, the sum kept at the scale of one term)."""
        return (t / (t + 1.0)) ** self.gamma


RULES: dict[str, UpdateRule] = {
    "cfr": UpdateRule("cfr"),
    "cfr+": UpdateRule("cfr+", floor=True, gamma=1.0),
    "dcfr": UpdateRule("dcfr", alpha=DCFR_ALPHA, beta=DCFR_BETA, gamma=DCFR_GAMMA),
    "linear": UpdateRule("linear", alpha=1.0, beta=1.0, gamma=1.0),
}
"""The named rules."""


def get_rule(rule: str | UpdateRule) -> UpdateRule:
    """``rule`` itself, or the named rule; :class:`UnknownRuleError` for an unknown name."""
    if isinstance(rule, UpdateRule):
        return rule
    found = RULES.get(rule)
    if found is None:
        raise UnknownRuleError(f"unknown update rule {rule!r}: choose from {', '.join(RULES)}")
    return found


def regret_match(
    regrets: np.ndarray, first: int, count: int, out: np.ndarray, total: np.ndarray, reverse: bool
) -> None:
    """Regret matching over the rows ``first .. first + count - 1`` of ``regrets`` (one decision's
    actions), written to the same rows of ``out``: each action's positive regret over the sum of
    the positive regrets, ``1 / count`` where no regret is positive. ``regrets`` and ``out`` are
    ``[action]`` (one distribution: an abstract-game information set) or ``[action, column]``
    (a distribution per column: hands or holdings side by side). ``total``: scratch of one entry
    per column (one for a vector), whose dtype the sums are kept in.

    The positive regrets are summed from the first row down, or with ``reverse`` from the last
    row up (for up to three actions, the order of NumPy's ``add.reduceat`` over the rows: the
    small-game engine's). For numba-compiled code (inlined where it is called); the vector and
    the block forms are compiled apart, the block with the columns innermost."""
    raise TypeError("regret_match runs inside numba-compiled code: call it from an njit function")


@overload(regret_match, inline="always")
def _regret_match(
    regrets: Any, first: Any, count: Any, out: Any, total: Any, reverse: Any
) -> Callable[[np.ndarray, int, int, np.ndarray, np.ndarray, bool], None]:
    """The compiled form for the argument types (numba types): a vector, or a block (numba
    wants the implementations' parameters annotated as the overload's)."""
    if regrets.ndim == 1:

        def vector(regrets: Any, first: Any, count: Any, out: Any, total: Any, reverse: Any) -> None:
            total[0] = 0.0
            t = total[0]
            for i in range(count):
                r = regrets[first + (count - 1 - i if reverse else i)]
                if r > 0.0:
                    t += r
            if t > 0.0:
                for k in range(count):
                    r = regrets[first + k]
                    out[first + k] = r / t if r > 0.0 else 0.0
            else:
                for k in range(count):
                    out[first + k] = 1.0 / count

        return vector

    def block(regrets: Any, first: Any, count: Any, out: Any, total: Any, reverse: Any) -> None:
        columns = regrets.shape[1]
        for h in range(columns):
            total[h] = 0.0
        for i in range(count):
            k = count - 1 - i if reverse else i
            for h in range(columns):
                r = regrets[first + k, h]
                total[h] += r if r > 0.0 else 0.0
        uniform = 1.0 / count
        for k in range(count):
            for h in range(columns):
                r = regrets[first + k, h]
                t = total[h]
                out[first + k, h] = (r / t if r > 0.0 else 0.0) if t > 0.0 else uniform

    return block


@nb.njit(cache=True)
def regret_match_groups(
    regrets: np.ndarray, out: np.ndarray, firsts: np.ndarray, counts: np.ndarray, total: np.ndarray, reverse: bool
) -> None:
    """:func:`regret_match` of every group of rows ``firsts[g] .. firsts[g] + counts[g] - 1``."""
    for g in range(firsts.shape[0]):
        regret_match(regrets, firsts[g], counts[g], out, total, reverse)


__all__ = [
    "DCFR_ALPHA",
    "DCFR_BETA",
    "DCFR_GAMMA",
    "RULES",
    "UnknownRuleError",
    "UpdateRule",
    "get_rule",
    "regret_match",
    "regret_match_groups",
]
