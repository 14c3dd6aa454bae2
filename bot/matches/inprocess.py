"""Matches between strategies in one process, without sockets.

One match engine plays every match: :class:`~pokerbot.protocol.dealer_session.DealerSession`
(dealing, seat rotation, repairs, the log lines). :func:`run_inprocess_match` drives it in
memory: each strategy gets the view the dealer's line would carry and its action goes straight
back to the session (:meth:`~pokerbot.protocol.dealer_session.DealerSession.act`); with
``wire=True`` every line goes through a :class:`~pokerbot.protocol.session.ClientSession` per
seat instead, as over a network. No time limit is enforced in process (the session's clock
stands still). :func:`pokerbot.bot.matches.loopback.run_loopback_match` plays the same hands
through the dealer and one client per player: with deterministic players, both write the same
log, byte for byte. Amounts are in chips, times in seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TextIO

from pokerbot.bot.matches.base import HandCallback, MatchError, MatchOutcome, StopCheck, check_players
from pokerbot.protocol.actions import Action
from pokerbot.protocol.dealer_events import DealerEvent, DealerWarning, HandLogged, MatchAborted, MatchFinished, Send
from pokerbot.protocol.dealer_session import DealerSession
from pokerbot.protocol.errors import ProtocolError
from pokerbot.protocol.game import Game
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.matchlog import log_header
from pokerbot.protocol.session import ActionRequired, ClientSession, HandFinished, safe_action
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy

DEFAULT_SECONDS_PER_ACTION = 1.0
"""The deadline an in-process strategy gets for one decision, in seconds (not enforced)."""

_STILL = 0.0
"""The in-process session's clock: it stands still, so no time limit ever runs out."""


class _InProcess:
    """Feeds one in-process match's session and strategies to each other."""

    def __init__(
        self,
        session: DealerSession,
        strategies: Sequence[Strategy],
        seconds_per_action: float,
        wire: bool,
    ) -> None:
        self.session = session
        self.strategies = strategies
        self.names = session.names
        self.seconds_per_action = seconds_per_action
        self.illegal = dict.fromkeys(session.names, 0)
        self.clients = [ClientSession(session.game) for _ in strategies] if wire else None
        self.pending: list[MatchState | None] = [None] * len(strategies)
        self.observers = {
            seat for seat, strategy in enumerate(strategies) if type(strategy).observe is not Strategy.observe
        }

    def deliver(self, event: Send) -> None:
        """Wire mode: one line to its seat's client session (a request, or a hand's end)."""
        assert self.clients is not None
        try:
            received = self.clients[event.seat].receive(event.line)
        except ProtocolError as error:  # the engine wrote a line its own parser refuses
            raise MatchError(f"the dealer's line to seat {event.seat + 1} does not parse: {error}") from error
        if isinstance(received, ActionRequired):
            self.pending[event.seat] = received.view
        elif isinstance(received, HandFinished) and event.seat in self.observers:
            self._observe(event.seat, received.view)

    def hand_over(self, event: HandLogged) -> None:
        """Direct mode: show each observing strategy its final view of the hand."""
        for position, seat in enumerate(event.seats):
            if seat in self.observers:
                view = MatchState(position, event.hand_number, event.state.view(position))
                self._observe(seat, view)

    def _observe(self, seat: int, view: MatchState) -> None:
        try:
            self.strategies[seat].observe(view)
        except Exception as error:
            raise MatchError(f"{self.names[seat]} failed observing hand {view.hand_number}: {error!r}") from error

    def play_turn(self) -> list[DealerEvent]:
        """The awaited seat decides; its action goes back to the session."""
        session = self.session
        seat = session.awaiting
        assert seat is not None
        if self.clients is None:
            view = session.view(seat)
        else:
            pending = self.pending[seat]
            assert pending is not None
            view, self.pending[seat] = pending, None
        try:
            action = self.strategies[seat].decide(view, time.monotonic() + self.seconds_per_action)
        except Exception as error:
            raise MatchError(f"{self.names[seat]} failed in hand {view.hand_number}: {error!r}") from error
        if self.clients is None:  # the dealer's repair: a raise clamped into range, else a call
            if not isinstance(action, Action):
                self.illegal[self.names[seat]] += 1
                action = safe_action(view)
            events = session.act(seat, action, _STILL)
            if events and isinstance(events[0], DealerWarning):  # the session repaired the action
                self.illegal[self.names[seat]] += 1
            return events
        if not (isinstance(action, Action) and view.state.can(action)):  # the client's fallback
            self.illegal[self.names[seat]] += 1
            action = safe_action(view)
        return session.receive(seat, self.clients[seat].respond(view, action), _STILL)


def run_inprocess_match(
    game: Game,
    hands: int,
    seed: int,
    strategies: Sequence[Strategy],
    names: Sequence[str],
    fixed_seats: bool = False,
    on_hand: HandCallback | None = None,
    log_path: Path | None = None,
    *,
    match_name: str = "match",
    game_name: str = "game",
    seconds_per_action: float = DEFAULT_SECONDS_PER_ACTION,
    limits: TimeLimits = TimeLimits(),
    wire: bool = False,
    first_hand: int = 0,
    on_hand_logged: Callable[[HandLogged], None] | None = None,
    stop: StopCheck | None = None,
) -> MatchOutcome:
    """Play ``hands`` hands between ``strategies`` (one per seat, named ``names``) in memory.

    The dealer's session deals from ``seed``, rotates the seats (unless ``fixed_seats``) and
    writes the log to ``log_path`` (the dealer's header, naming the game ``game_name`` and
    stating ``limits``, which are not enforced here; one ``STATE`` line per hand, flushed;
    the ``SCORE`` line). An illegal action is repaired as the dealer repairs it (a no-limit
    raise clamped into range, anything else a call) and counted; with ``wire`` each line goes
    through a client session per seat and an illegal action becomes the client's fallback
    call. After each hand every strategy observes its final view. ``first_hand`` plays the
    seed's deals from that hand on, numbered and seated as in a longer match (a piece of one:
    :mod:`pokerbot.bot.matches.chunks`). ``on_hand_logged`` is given each finished hand (values by
    name), after the strategies observed it and before ``on_hand``. ``stop`` is asked before
    every decision; when it gives a reason the match ends there as a shorter one (the hand
    under way dropped, the log marked truncated: :meth:`DealerSession.stop
    <pokerbot.protocol.dealer_session.DealerSession.stop>`; :attr:`MatchOutcome.stopped`). Raises
    :class:`MatchConfigError` for wrong players and :class:`MatchError` when a strategy raises.
    """
    check_players(game, len(strategies), names)
    session = DealerSession(
        game, hands, seed, names, fixed_seats=fixed_seats, limits=limits, wire=wire, first_hand=first_hand
    )
    players = _InProcess(session, strategies, seconds_per_action, wire)
    with ExitStack() as stack:
        log: TextIO | None = None
        if log_path is not None:
            log = stack.enter_context(log_path.open("w", encoding="utf-8"))
            log.write("".join(f"{line}\n" for line in log_header(match_name, game_name, hands, seed, limits)))
        events = session.start(_STILL)
        stopped: str | None = None
        while True:
            for event in events:
                if isinstance(event, Send):
                    if wire:
                        players.deliver(event)
                elif isinstance(event, HandLogged):
                    if not wire:
                        players.hand_over(event)
                    if log is not None:
                        log.write(event.line + "\n")
                        log.flush()
                    if on_hand_logged is not None:
                        on_hand_logged(event)
                    if on_hand is not None:
                        on_hand(event.hand_number)
                elif isinstance(event, MatchFinished):
                    if log is not None:
                        log.write("".join(f"{line}\n" for line in event.log_lines))
                    stopped = event.stopped
                elif isinstance(event, MatchAborted):  # no clock and no invalid-action limit here
                    raise MatchError(f"the match stopped: {event.reason}")
            if session.finished:
                break
            reason = stop() if stop is not None else None
            events = session.stop(reason) if reason is not None else players.play_turn()
    return MatchOutcome(
        tuple(names),
        dict(session.totals),
        list(session.per_hand_values),
        session.hands_played,
        log_path,
        players.illegal,
        stopped=stopped,
    )
