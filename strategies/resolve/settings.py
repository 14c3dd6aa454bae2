"""The re-solving player's settings, and the registry argument that sets them.

``resolve``, ``resolve-exploit`` and ``adaptive`` (in hold'em) take one argument, a re-solve's
budget per decision: none (a clock of :data:`DEFAULT_SECONDS`), ``SECONDS`` (a clock) or
``Niterations`` (N iterations and no clock: the same seed replays the same match on any
machine). :func:`parse_settings` turns it into a :class:`ResolveSettings`; the other fields keep
the class's defaults. Light: no solver, no numba, so that a bad argument is refused before
anything slow is loaded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pokerbot.strategies.betting.sizing import BetSizing

if TYPE_CHECKING:
    from pokerbot.strategies.resolve.continual import SolveBudget

DEFAULT_SECONDS = 1.0
"""The clock budget of a re-solve when the strategy is named without an argument."""
CLOCK_ITERATIONS = 100_000
"""The iteration budget of a solve under a clock: more than a decision's clock allows, so that
the clock stops the solve."""
_ITERATIONS = re.compile(r"^(\d+)iterations?$")


@dataclass(frozen=True)
class ResolveSettings:
    """How the player re-solves (:mod:`.player`). ``iterations``: the most iterations a solve
    runs; ``seconds``: a clock budget per decision, or None for iterations alone; with less than
    ``min_seconds`` left before the deadline less ``margin`` (seconds) the trunk decides;
    ``sizing``: no-limit bet sizes (default :class:`~pokerbot.strategies.betting.sizing.BetSizing`);
    ``warm``: the iterations a solve's warm start from the trunk's strategy counts as (0: none; a
    trunk that knows its ranges only); ``floor``: actions a solve gives a holding less than this
    probability of are not played (:class:`~.continual.ContinualResolver`)."""

    iterations: int = 200
    seconds: float | None = None
    min_seconds: float = 0.05
    margin: float = 0.05
    sizing: BetSizing = field(default_factory=BetSizing)
    warm: int = 0
    floor: float = 0.0

    def budget(self, seconds: float | None = None) -> SolveBudget:
        """A solve's budget: :attr:`iterations` at most, within ``seconds`` when given."""
        from pokerbot.strategies.resolve.continual import SolveBudget

        return SolveBudget(iterations=self.iterations, seconds=seconds)


def parse_settings(argument: str | None) -> ResolveSettings:
    """The settings of a strategy's registry argument (module docstring): none, a clock of
    :data:`DEFAULT_SECONDS`; ``Niterations``, N iterations and no clock; ``SECONDS``, that clock
    (with :data:`CLOCK_ITERATIONS`). Raises ValueError, in one line, for anything else."""
    if not argument:
        return ResolveSettings(iterations=CLOCK_ITERATIONS, seconds=DEFAULT_SECONDS)
    match = _ITERATIONS.match(argument)
    if match:
        count = int(match.group(1))
        if count < 1:
            raise ValueError("the iteration budget must be at least 1")
        return ResolveSettings(iterations=count)
    try:
        seconds = float(argument)
    except ValueError:
        raise ValueError(f"expected SECONDS or Niterations, got {argument!r}") from None
    if not seconds > 0:
        raise ValueError("the time budget must be positive")
    return ResolveSettings(iterations=CLOCK_ITERATIONS, seconds=seconds)


__all__ = ["CLOCK_ITERATIONS", "DEFAULT_SECONDS", "ResolveSettings", "parse_settings"]
