"""The time limits of an ACPC match: one type, and one rule for the time a player has left.

The reference dealer enforces three limits on every player (its flags, in milliseconds):
``--t_response`` bounds one response, ``--t_hand`` a player's total response time in one
hand, ``--t_per_hand`` the average per hand over the match (a player's match budget is
``t_per_hand`` times the number of hands). :class:`TimeLimits` holds them;
:meth:`TimeLimits.remaining` says how much time is left and which limit binds. The dealer
session, the client's decision clock and the matches all ask it, so they cannot disagree.

Pure: no clock is read here; callers pass the seconds used so far.
"""

from __future__ import annotations

import collections
import math
from dataclasses import dataclass
from typing import Literal

LimitName = Literal["response", "hand", "match"]
"""Which of the three limits: one response, one hand, or the whole match."""


@dataclass(frozen=True, slots=True)
class Remaining:
    """Seconds left before a player runs out of time, and the limit that binds first."""

    seconds: float
    limit: LimitName


@dataclass(frozen=True, slots=True)
class TimeLimits:
    """The reference dealer's time limits, in milliseconds (its flags' units and defaults).

    ``response_ms`` bounds one response; ``hand_ms`` a player's total response time in one
    hand; ``per_hand_ms`` the average per hand over the match. Every limit must be positive
    and finite (ValueError otherwise).
    """

    response_ms: float = 600_000
    hand_ms: float = 600_000
    per_hand_ms: float = 7_000

    def __post_init__(self) -> None:
        for field_name in ("response_ms", "hand_ms", "per_hand_ms"):
            value = getattr(self, field_name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"time limit {field_name} must be a number of milliseconds, got {value!r}")
            if not math.isfinite(value) or value <= 0:
                raise ValueError(f"time limit {field_name} must be a positive number of milliseconds, got {value!r}")

    @property
    def response_seconds(self) -> float:
        """The response limit, in seconds."""
        return self.response_ms / 1000

    def remaining(self, *, hand_seconds: float, match_seconds: float, hands: int) -> Remaining:
        """Time left for a player's next response, in seconds, and the limit that binds.

        ``hand_seconds`` and ``match_seconds`` are the player's response time used so far in
        the current hand and in the match; ``hands`` is the number of hands whose budget the
        player may spend (the dealer: every hand of the match; a careful client: the hands
        started so far, so that it never spends time of hands to come). Ties go to the
        earlier of response, hand, match. The result may be negative (time is up).
        """
        response = self.response_ms / 1000
        hand = self.hand_ms / 1000 - hand_seconds
        match = self.per_hand_ms * hands / 1000 - match_seconds
        if response <= hand and response <= match:
            return Remaining(response, "response")
        if hand <= match:
            return Remaining(hand, "hand")
        return Remaining(match, "match")

    def describe(self, limit: LimitName, hands: int) -> str:
        """``limit`` in words, as a timeout message names it (``hands``: the match's length)."""
        if limit == "response":
            return f"the response limit of {self.response_ms:g} ms"
        if limit == "hand":
            return f"the per-hand limit of {self.hand_ms:g} ms"
        return f"the match limit of {self.per_hand_ms:g} ms per hand x {hands} hands"


MARGIN_FRACTION = 0.05
"""A client answers this share of the time it has before the dealer's limit (seconds: at least
:data:`MARGIN_MIN_SECONDS`), for the network and the scheduler, plus the latest lateness it
observed (:meth:`DecisionClock.note_lateness`)."""
MARGIN_MIN_SECONDS = 0.05
RESPONSE_OVERHEAD_SECONDS = 0.005
"""What the dealer's clock counts for a response beyond the client's own measure (the request's
way in, the answer's way out, the dealer's delay in reading it), charged to the hand and the
match with every answer: over a long hand on a busy machine these add up past the margin of
one response."""
LATENESS_MEMORY = 100
"""How many answers back an observed lateness still widens the margin."""
SOFT_FRACTION = 0.9
"""Without ``time_per_action`` the strategy's deadline is this share of the hard budget."""


class DecisionClock:
    """A client's time budgets for decisions, in seconds, from the ACPC limits and an optional
    cap: what it has used is told to it (:meth:`charge`); it reads no clock."""

    def __init__(self, limits: TimeLimits | None = None, time_per_action: float | None = None) -> None:
        if time_per_action is not None and time_per_action <= 0:
            raise ValueError(f"time per action must be positive, got {time_per_action} s")
        self.limits = limits or TimeLimits()
        self.time_per_action = time_per_action
        self.hands_started = 0
        self.hand_seconds = 0.0
        self.match_seconds = 0.0
        self._lateness: collections.deque[float] = collections.deque(maxlen=LATENESS_MEMORY)
        self._worst = 0.0

    def start_hand(self) -> None:
        """A new hand began: its own budget starts afresh and the match bank grows."""
        self.hands_started += 1
        self.hand_seconds = 0.0

    def available(self) -> float:
        """Seconds the dealer allows for the next response (before any margin); the match
        budget counts only the hands started so far, so time of later hands is never spent."""
        remaining = self.limits.remaining(
            hand_seconds=self.hand_seconds, match_seconds=self.match_seconds, hands=max(1, self.hands_started)
        )
        return remaining.seconds

    @property
    def margin_extra(self) -> float:
        """Seconds added to the margin: the worst lateness of the last :data:`LATENESS_MEMORY`
        answers (0 while every answer left on time)."""
        return self._worst

    def note_lateness(self, seconds: float) -> None:
        """An answer left ``seconds`` after its cut-off (0 or less: on time). The margin of the
        next decisions grows by the worst of the recent latenesses, and shrinks back as
        answers leave on time."""
        late = max(0.0, seconds)
        lateness = self._lateness
        dropped = lateness[0] if len(lateness) == lateness.maxlen else 0.0
        lateness.append(late)
        if late >= self._worst:
            self._worst = late
        elif dropped >= self._worst:
            self._worst = max(lateness)

    def budget(self) -> tuple[float, float]:
        """(soft, hard) seconds for the next decision: the strategy's deadline, and the cut-off."""
        available = self.available()
        margin = max(MARGIN_MIN_SECONDS, MARGIN_FRACTION * available) + self._worst
        hard = max(0.0, available - margin)
        cap = self.time_per_action
        if cap is None:
            return hard * SOFT_FRACTION, hard
        return min(cap, hard), min(hard, cap * 1.1 + 0.02)

    def charge(self, seconds: float) -> None:
        """Count ``seconds`` spent answering one request."""
        self.hand_seconds += seconds
        self.match_seconds += seconds

    def charge_response(self, seconds: float) -> None:
        """Count one answer that took ``seconds`` by the client's clock, with the
        :data:`RESPONSE_OVERHEAD_SECONDS` the dealer's clock adds to it."""
        self.charge(seconds + RESPONSE_OVERHEAD_SECONDS)


__all__ = ["DecisionClock", "LimitName", "Remaining", "TimeLimits"]
