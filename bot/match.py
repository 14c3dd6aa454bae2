"""Matches between strategies: in one process, or over loopback through the dealer.

One match engine plays every match: :class:`~pokerbot.protocol.dealer_session.DealerSession`
(dealing, seat rotation, repairs, the log lines).

* :func:`run_inprocess_match` drives it in memory, without sockets: each strategy gets the
  view the dealer's line would carry and its action goes straight back to the session
  (:meth:`~pokerbot.protocol.dealer_session.DealerSession.act`); with ``wire=True`` every
  line goes through a :class:`~pokerbot.protocol.session.ClientSession` per seat instead, as
  over a network. No time limit is enforced in process (the session's clock stands still).
* :func:`pokerbot.bot.loopback.run_loopback_match` starts the dealer and one client per
  player on 127.0.0.1 in one event loop.
* :func:`play_plan` runs a :class:`MatchPlan` (either mode, optionally duplicate: every deal
  twice with the seats exchanged) and returns the outcomes.

With deterministic players, both modes write the same log, byte for byte. Amounts are in
chips, times in seconds.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from pokerbot.protocol.actions import Action
from pokerbot.protocol.dealer_events import DealerEvent, DealerWarning, HandLogged, MatchAborted, MatchFinished, Send
from pokerbot.protocol.dealer_session import DealerSession
from pokerbot.protocol.errors import PlayerNameError, ProtocolError
from pokerbot.protocol.game import Game
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.matchlog import log_header
from pokerbot.protocol.names import check_player_names, unique_player_names
from pokerbot.protocol.session import ActionRequired, ClientSession, HandFinished, safe_action
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy, StrategyRegistry

DEFAULT_SECONDS_PER_ACTION = 1.0
"""The deadline an in-process strategy gets for one decision, in seconds (not enforced)."""
HandCallback = Callable[[int], None]
"""Called with the hand number (0-based) of every hand that has just finished."""


class MatchError(RuntimeError):
    """A match could not be played to the end (a strategy crashed, the dealer failed, ...)."""


class MatchConfigError(ValueError):
    """A match was asked for with the wrong players (count, names) for its game."""


@dataclass(frozen=True)
class MatchOutcome:
    """The result of one match. ``names`` are the players in seat order (as named)."""

    names: tuple[str, ...]
    totals: dict[str, float]
    """Chips won by each player over the match."""
    per_hand_values: list[dict[str, float]]
    """For every hand, chips won by each player (by name)."""
    hands_played: int
    log_path: Path | None = None
    illegal_actions: dict[str, int] = field(default_factory=dict)
    """Illegal actions each player returned, each repaired (in process: as the dealer repairs
    it; over the wire and in loopback: the client's fallback call)."""
    error: str | None = None


def strategy_seed(match_seed: int, name: str) -> int:
    """The seed of player ``name``'s strategy in a match seeded ``match_seed`` (a 63-bit int).

    It depends on the name, not the seat, so a duplicate match's swapped half gives each
    player the same randomness.
    """
    digest = hashlib.sha256(f"{match_seed}/{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def check_players(game: Game, count: int, names: Sequence[str]) -> None:
    """Raise :class:`MatchConfigError` unless there are ``game.num_players`` players with one
    valid, distinct name each (the protocol's name rule)."""
    if count != game.num_players:
        raise MatchConfigError(f"the game has {game.num_players} players, {count} were given")
    try:
        check_player_names(names, count)
    except PlayerNameError as error:
        raise MatchConfigError(str(error)) from None


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
    :mod:`pokerbot.bot.chunks`). ``on_hand_logged`` is given each finished hand (values by
    name), after the strategies observed it and before ``on_hand``. Raises
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
                        log.write(event.score_line + "\n")
                elif isinstance(event, MatchAborted):  # no clock and no invalid-action limit here
                    raise MatchError(f"the match stopped: {event.reason}")
            if session.finished:
                break
            events = players.play_turn()
    return MatchOutcome(
        tuple(names), dict(session.totals), list(session.per_hand_values), hands, log_path, players.illegal
    )


@dataclass(frozen=True)
class MatchPlan:
    """What to play: game, hands, seed, the strategy of each seat and how."""

    game: Game
    game_name: str
    hands: int
    seed: int
    strategies: tuple[str, ...]
    duplicate: bool = False
    in_process: bool = False
    fixed_seats: bool = False
    output_dir: Path = Path("match-output")
    match_name: str = "match"
    limits: TimeLimits = TimeLimits()
    """The dealer's time limits (enforced in loopback; stated in the log in process)."""

    @property
    def names(self) -> list[str]:
        """Player names in seat order (the strategy names, made unique)."""
        return unique_player_names(self.strategies)


def make_plan(
    game: Game,
    game_name: str,
    hands: int,
    seed: int,
    strategies: Sequence[str],
    registry: StrategyRegistry,
    *,
    duplicate: bool = False,
    in_process: bool = False,
    fixed_seats: bool = False,
    output_dir: Path = Path("match-output"),
    match_name: str = "match",
) -> MatchPlan:
    """A checked :class:`MatchPlan`; raises :class:`MatchConfigError` (players, hands, seed,
    duplicate) or :class:`strategies.base.UnknownStrategyError` (a name not in ``registry``)."""
    if hands < 1:
        raise MatchConfigError(f"--hands must be at least 1, got {hands}")
    if not 0 <= seed <= 0xFFFFFFFF:
        raise MatchConfigError(f"--seed must be in 0..4294967295, got {seed}")
    for name in strategies:
        if not registry.lookup(name).supports(game):
            raise MatchConfigError(f"strategy {name!r} does not play {game_name}")
    check_players(game, len(strategies), unique_player_names(strategies))
    if duplicate and game.num_players != 2:
        raise MatchConfigError(f"--duplicate needs a 2-player game, {game_name} has {game.num_players}")
    return MatchPlan(
        game,
        game_name,
        hands,
        seed,
        tuple(strategies),
        duplicate=duplicate,
        in_process=in_process,
        fixed_seats=fixed_seats,
        output_dir=output_dir,
        match_name=match_name,
    )


def play_plan(plan: MatchPlan, registry: StrategyRegistry, on_hand: HandCallback | None = None) -> list[MatchOutcome]:
    """Play ``plan``: one outcome, or two for a duplicate match (second: seats exchanged)."""
    plan.output_dir.mkdir(parents=True, exist_ok=True)
    seatings = [(list(plan.strategies), plan.names, plan.match_name)]
    if plan.duplicate:
        seatings.append((seatings[0][0][::-1], seatings[0][1][::-1], f"{plan.match_name}-swapped"))
    outcomes = []
    for strategy_names, names, match_name in seatings:
        strategies = [
            registry.create(strategy, plan.game, strategy_seed(plan.seed, name))
            for strategy, name in zip(strategy_names, names, strict=True)
        ]
        if plan.in_process:
            outcome = run_inprocess_match(
                plan.game,
                plan.hands,
                plan.seed,
                strategies,
                names,
                plan.fixed_seats,
                on_hand,
                plan.output_dir / f"{match_name}.log",
                match_name=match_name,
                game_name=plan.game_name,
                limits=plan.limits,
            )
        else:
            from pokerbot.bot.loopback import run_loopback_match  # the dealer and client only when needed

            outcome = run_loopback_match(
                plan.game,
                plan.hands,
                plan.seed,
                strategies,
                names,
                fixed_seats=plan.fixed_seats,
                on_hand=on_hand,
                output_dir=plan.output_dir,
                match_name=match_name,
                game_name=plan.game_name,
                limits=plan.limits,
            )
        outcomes.append(outcome)
        if outcome.error is not None:
            break
    return outcomes
