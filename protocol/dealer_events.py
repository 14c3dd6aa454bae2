"""What the dealer's session asks its caller to do or know: events, frozen dataclasses.

:class:`~pokerbot.protocol.dealer_session.DealerSession` returns a list of these from every
call; the caller carries them out in order (send a line, log a hand, end the match).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from pokerbot.protocol.actions import Action
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.matchlog import format_state_line, truncation_line


@dataclass(frozen=True, slots=True)
class Send:
    """Send ``line`` to ``seat`` (0-based; the transcript prints seat + 1)."""

    seat: int
    line: str


@dataclass(frozen=True, slots=True)
class DealerWarning:
    """Something a seat sent was ignored or repaired; the match goes on."""

    seat: int
    message: str


@dataclass(frozen=True)
class HandLogged:
    """A hand ended: each player's value by name, in chips, and its ``STATE`` log line.

    ``state`` is the finished hand (every card; read it, do not change it) and ``seats`` the
    seat that played each position, so that a caller can show each seat its final view.
    """

    hand_number: int
    values: dict[str, float]
    state: HandState = field(compare=False, repr=False)
    seats: tuple[int, ...] = ()

    @cached_property
    def line(self) -> str:
        """The hand's ``STATE`` log line (formatted when first asked for)."""
        names = [name for name in self.values]
        return format_state_line(self.hand_number, self.state, names, list(self.values.values()))


@dataclass(frozen=True, slots=True)
class Acted:
    """The awaited ``seat`` played ``action`` (as played: clamped, or turned into a call), asked
    for at ``requested_at`` and given at ``acted_at`` (monotonic seconds): a line of the
    transaction file. Emitted only by a session made with ``transactions=True``, before the
    states that follow it."""

    seat: int
    hand_number: int
    action: Action
    requested_at: float
    acted_at: float


@dataclass(frozen=True, slots=True)
class MatchFinished:
    """The match is over: the ``SCORE`` line and the totals by name, in chips. ``stopped``:
    why it ended before its last hand (:meth:`DealerSession.stop
    <pokerbot.protocol.dealer_session.DealerSession.stop>`), None when every hand was played."""

    score_line: str
    totals: dict[str, float]
    stopped: str | None = None

    @property
    def log_lines(self) -> list[str]:
        """The log's last lines: the truncation line (a stopped match), then ``SCORE``."""
        return [*([truncation_line(self.stopped)] if self.stopped is not None else []), self.score_line]


@dataclass(frozen=True, slots=True)
class MatchAborted:
    """The match ended early (timeout, disconnect, too many invalid actions).

    ``seat`` is the 0-based seat at fault, or None; ``reason`` is the whole message.
    """

    seat: int | None
    reason: str


DealerEvent = Send | DealerWarning | Acted | HandLogged | MatchFinished | MatchAborted


__all__ = ["Acted", "DealerEvent", "DealerWarning", "HandLogged", "MatchAborted", "MatchFinished", "Send"]
