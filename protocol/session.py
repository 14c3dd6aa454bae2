"""Sans-I/O sessions of the ACPC protocol: the player's side (the dealer's is in
:mod:`pokerbot.protocol.dealer_session`).

In the style of the ``websockets`` library, these classes never touch a socket, a thread or a
clock: the caller feeds them the lines it read (without caring how) and the current time
(a :func:`time.monotonic` timestamp in seconds, passed as an argument), and gets back what
to send and what happened. The transports in ``bot/`` carry them over TCP or WebSocket.

Lines given to and returned by the sessions carry no terminator; a TCP transport adds
``\\r\\n``, a WebSocket transport sends one line per text message.

* :class:`ClientSession`: :meth:`~ClientSession.hello` is the version line; each line the
  dealer sends becomes an :class:`ActionRequired`, :class:`StateUpdate`,
  :class:`HandFinished` or :class:`Ignored` event; :meth:`~ClientSession.respond` formats
  the reply and refuses an illegal action.
* :class:`~pokerbot.protocol.dealer_session.DealerSession`: the dealer's side.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerbot.protocol.actions import CALL, Action
from pokerbot.protocol.errors import ProtocolError
from pokerbot.protocol.game import Game
from pokerbot.protocol.wire import (
    VERSION_LINE,
    MatchState,
    MatchStateReader,
    format_action,
    is_comment,
    parse_version,
    strip_terminator,
)

PROTOCOL_MAJOR_VERSION = 2
"""The protocol major version both sides speak (``VERSION:2.x.y`` is accepted)."""


class SessionStateError(RuntimeError):
    """A session method was called at the wrong moment (a programming error of the caller)."""


def check_version(line: str) -> None:
    """Accept a player's ``VERSION:2.x.y`` line; raise ProtocolError saying what is wrong."""
    major, _, _ = parse_version(line)
    if major != PROTOCOL_MAJOR_VERSION:
        raise ProtocolError(f"version {major}.x.x is not supported: this dealer speaks {VERSION_LINE}")


def safe_action(view: MatchState) -> Action:
    """The action a player falls back on: a check when nothing is owed, else a call.

    Both are the ACPC ``c``, which is legal in every state where the player is to act.
    """
    return CALL


# ------------------------------------------------------------------ client side
@dataclass(frozen=True, slots=True)
class ActionRequired:
    """The dealer asks the receiving player to act in ``view``."""

    view: MatchState


@dataclass(frozen=True, slots=True)
class StateUpdate:
    """A state of a hand in progress where someone else is to act."""

    view: MatchState


@dataclass(frozen=True, slots=True)
class HandFinished:
    """The final state of a hand (showdown cards included when there was a showdown)."""

    view: MatchState


@dataclass(frozen=True, slots=True)
class Ignored:
    """A line that carries no state (a comment or a blank line); ``reason`` says which."""

    reason: str


ClientEvent = ActionRequired | StateUpdate | HandFinished | Ignored


class ClientSession:
    """The player's side of one match of ``game``.

    Feed every line the dealer sends to :meth:`receive`; answer each :class:`ActionRequired`
    with :meth:`respond`. ``hands_finished`` counts the :class:`HandFinished` events. Lines
    are read by a :class:`~pokerbot.protocol.wire.MatchStateReader`: each applies only the
    actions that are new since the previous line of its hand.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.hands_finished = 0
        self._reader = MatchStateReader(game)
        self._pending: MatchState | None = None

    def hello(self) -> str:
        """The first line to send: ``VERSION:2.0.0``."""
        return VERSION_LINE

    def receive(self, line: str) -> ClientEvent:
        """Turn one line from the dealer into an event; raises ProtocolError when malformed."""
        if line[:1] != "M":  # else a match state or a bad line, which the reader tells apart
            text = strip_terminator(line)
            if not text or text.isspace():
                return Ignored("blank line")
            if is_comment(text):
                return Ignored(f"comment: {text}")
        view = self._reader.parse(line)
        if view._turn:  # never at the end of the hand, when nobody is to act
            self._pending = view
            return ActionRequired(view)
        self._pending = None
        if self._reader.peek().finished:
            self.hands_finished += 1
            return HandFinished(view)
        return StateUpdate(view)

    @property
    def pending(self) -> MatchState | None:
        """The view of the last :class:`ActionRequired` not answered yet, if any."""
        return self._pending

    def respond(self, view: MatchState, action: Action) -> str:
        """The reply to ``view``: the state as received, ``:`` and ``action``.

        ``view`` must be the view of the last :class:`ActionRequired` (else
        :class:`SessionStateError`); an illegal action raises :class:`IllegalActionError`,
        so an illegal action is never sent.
        """
        if self._pending is None or view is not self._pending:
            raise SessionStateError(
                f"no action is requested for hand {view.hand_number} at betting "
                f"{view.state.betting_string()!r}: answer the latest ActionRequired view"
            )
        self._reader.peek().verify(action)  # the state of the last line: the pending view's
        self._pending = None
        return f"{view._line}:{format_action(action, self.game)}"


__all__ = [
    "PROTOCOL_MAJOR_VERSION",
    "ActionRequired",
    "ClientEvent",
    "ClientSession",
    "HandFinished",
    "Ignored",
    "SessionStateError",
    "StateUpdate",
    "check_version",
    "safe_action",
]
