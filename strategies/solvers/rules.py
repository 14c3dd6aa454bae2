"""Regret and averaging rules shared by every solver (full-width or Monte-Carlo).

An :class:`UpdateRule` says how one iteration's counterfactual regrets are folded into the
accumulated regrets and how much iteration ``t`` weighs in the average strategy:

* ``cfr`` - plain sums, uniform averaging (Zinkevich et al. 2008);
* ``cfr+`` - regrets floored at 0 after every update, iteration ``t`` weighs ``t``
  (Tammelin 2014);
* ``dcfr`` - discounted CFR (Brown and Sandholm 2019), alpha = 1.5, beta = 0, gamma = 2:
  after iteration ``t`` positive regrets are multiplied by ``t^alpha / (t^alpha + 1)``,
  negative ones by ``t^beta / (t^beta + 1)``, and iteration ``t`` weighs ``t^gamma``;
* ``linear`` - linear CFR, DCFR with alpha = beta = gamma = 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerbot.strategies.solvers.errors import SolverError


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

    def accumulate(self, regrets: np.ndarray, update: np.ndarray, t: int) -> np.ndarray:
        """The accumulated regrets after adding iteration ``t``'s ``update``."""
        total = regrets + update
        if self.floor:
            np.maximum(total, 0.0, out=total)
        if self.alpha is not None and self.beta is not None:
            positive = t**self.alpha / (t**self.alpha + 1.0)
            negative = t**self.beta / (t**self.beta + 1.0)
            total *= np.where(total > 0.0, positive, negative)
        return total

    def weight(self, t: int) -> float:
        """The weight of iteration ``t`` in the average strategy."""
        return float(t) ** self.gamma if self.gamma else 1.0


RULES: dict[str, UpdateRule] = {
    "cfr": UpdateRule("cfr"),
    "cfr+": UpdateRule("cfr+", floor=True, gamma=1.0),
    "dcfr": UpdateRule("dcfr", alpha=1.5, beta=0.0, gamma=2.0),
    "linear": UpdateRule("linear", alpha=1.0, beta=1.0, gamma=1.0),
}
"""The named rules."""


def get_rule(rule: str | UpdateRule) -> UpdateRule:
    """``rule`` itself, or the named rule; raises :class:`SolverError` for an unknown name."""
    if isinstance(rule, UpdateRule):
        return rule
    found = RULES.get(rule)
    if found is None:
        raise SolverError(f"unknown update rule {rule!r}: choose from {', '.join(RULES)}")
    return found


__all__ = ["RULES", "UpdateRule", "get_rule"]
