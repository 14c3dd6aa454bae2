"""Matches between strategies: in one process, or over loopback TCP through the dealer.

* :func:`run_inprocess_match` plays a match with the dealer's rules and dealing but no
  sockets and no wire strings: the :class:`~protocol.dealing.Dealer` deals, a fresh
  :class:`~protocol.hand.HandState` runs each hand, and each strategy sees
  ``state.view(position)``. Seats rotate as in the reference dealer: in hand ``h`` position
  ``p`` is played by seat ``(p + h) % numPlayers`` (unless seats are fixed).
* :func:`run_loopback_match` starts the dealer (:mod:`pokerbot.bot.dealer`) and one client per player
  (:mod:`pokerbot.bot.client`) on 127.0.0.1 as tasks of one asyncio event loop.
* :func:`play_plan` runs a :class:`MatchPlan` (either mode, optionally duplicate: every deal
  twice with the seats exchanged) and returns the outcomes.

Amounts are in chips, times in seconds.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from pokerbot.protocol.actions import CALL, Action
from pokerbot.protocol.dealing import Dealer
from pokerbot.protocol.errors import IllegalActionError, PlayerNameError
from pokerbot.protocol.game import Game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.matchlog import format_score_line, format_state_line
from pokerbot.protocol.names import check_player_names, unique_player_names
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
    """Illegal actions each player returned (each repaired as the dealer does); in-process only."""
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


def _repair(state: HandState, action: object) -> Action:
    """What the dealer plays for an illegal response: a no-limit raise clamped into range,
    else a call."""
    if isinstance(action, Action):
        try:
            return state.clamp(action)
        except IllegalActionError:
            pass
    return CALL


def _play_hand(
    state: HandState,
    hand_number: int,
    players: Sequence[Strategy],
    names: Sequence[str],
    illegal: dict[str, int],
    seconds_per_action: float,
) -> None:
    """Play ``state`` to its end; ``players`` and ``names`` are by position. Illegal actions
    are repaired and counted in ``illegal``; a strategy's exception becomes MatchError."""
    monotonic = time.monotonic
    while not state.finished:
        position = state.current_player
        assert position is not None
        view = MatchState(position, hand_number, state.view(position))
        try:
            action = players[position].decide(view, monotonic() + seconds_per_action)
        except Exception as error:
            raise MatchError(f"{names[position]} failed in hand {hand_number}: {error!r}") from error
        if not isinstance(action, Action):
            action = _repair(state, action)
            illegal[names[position]] += 1
        try:
            state.apply(action)
        except IllegalActionError:
            illegal[names[position]] += 1
            state.apply(_repair(state, action))


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
) -> MatchOutcome:
    """Play ``hands`` hands between ``strategies`` (one per seat, named ``names``).

    Dealing is the reference dealer's from ``seed``. An illegal action is repaired as the
    dealer repairs it (a no-limit raise size clamped into range, anything else a call) and
    counted. After each hand every strategy observes its final view; the ACPC ``STATE`` line
    goes to ``log_path`` (flushed every hand) and the ``SCORE`` line ends it.
    Raises :class:`MatchConfigError` for wrong players, :class:`MatchError` when a strategy
    raises.
    """
    check_players(game, len(strategies), names)
    n = game.num_players
    dealer = Dealer(game, seed)
    totals = dict.fromkeys(names, 0.0)
    illegal = dict.fromkeys(names, 0)
    per_hand: list[dict[str, float]] = []
    observers = [
        (seat, strategy) for seat, strategy in enumerate(strategies) if type(strategy).observe is not Strategy.observe
    ]
    with ExitStack() as stack:
        log: TextIO | None = None
        if log_path is not None:
            log = stack.enter_context(log_path.open("w", encoding="utf-8"))
            log.write(f"# name/game/hands/seed {match_name} {game_name} {hands} {seed}\n")
            log.write("# pokerbot in-process match: no sockets, no time limits\n")
        for hand_number in range(hands):
            shift = 0 if fixed_seats else hand_number % n
            seat_of = [(p + shift) % n for p in range(n)]
            deal = dealer.deal()
            state = HandState(game, deal.hole_cards, deal.board_cards)
            _play_hand(
                state,
                hand_number,
                [strategies[s] for s in seat_of],
                [names[s] for s in seat_of],
                illegal,
                seconds_per_action,
            )
            for seat, strategy in observers:
                position = (seat - shift) % n
                try:
                    strategy.observe(MatchState(position, hand_number, state.view(position)))
                except Exception as error:
                    raise MatchError(f"{names[seat]} failed observing hand {hand_number}: {error!r}") from error
            values = state.values()
            hand_values = {names[seat_of[p]]: values[p] for p in range(n)}
            for name, value in hand_values.items():
                totals[name] += value
            per_hand.append(hand_values)
            if log is not None:
                log.write(format_state_line(hand_number, state, [names[s] for s in seat_of]) + "\n")
                log.flush()
            if on_hand is not None:
                on_hand(hand_number)
        if log is not None:
            log.write(format_score_line([totals[name] for name in names], names) + "\n")
    return MatchOutcome(tuple(names), totals, per_hand, hands, log_path, illegal)


async def run_loopback_match_async(
    game: Game,
    hands: int,
    seed: int,
    strategies: Sequence[Strategy],
    names: Sequence[str],
    *,
    fixed_seats: bool = False,
    on_hand: HandCallback | None = None,
    output_dir: Path = Path("."),
    match_name: str = "match",
    game_name: str = "game",
    limits: TimeLimits = TimeLimits(),
    host: str = "127.0.0.1",
    transport: str = "tcp",
) -> MatchOutcome:
    """Serve a match with :func:`bot.dealer.serve_match` on ``host`` (OS-chosen ports) and
    connect one :func:`bot.client.play_match` per strategy, all in the running event loop.
    The dealer enforces ``limits`` and the clients play under the same limits; the seats
    speak ``transport`` (a scheme of :mod:`pokerbot.bot.transports`).

    The dealer writes ``output_dir/<match_name>.log`` (its header names the game
    ``game_name``). The outcome's ``illegal_actions`` are the clients' fallback actions (an
    illegal, late or failed decision replaced by a safe one). Raises :class:`MatchError` when
    the dealer stops before opening its ports or fails, or a client fails before the dealer
    is done.
    """
    from pokerbot.bot.client import play_match
    from pokerbot.bot.dealer import DealerConfig, serve_match
    from pokerbot.bot.transports import transport_for

    check_players(game, len(strategies), names)
    loop = asyncio.get_running_loop()
    ports_ready: asyncio.Future[list[int]] = loop.create_future()

    def set_ports(ports: list[int]) -> None:
        if not ports_ready.done():
            ports_ready.set_result(list(ports))

    config = DealerConfig(
        match_name=match_name,
        game=game,
        hands=hands,
        seed=seed,
        names=list(names),
        fixed_seats=fixed_seats,
        host=host,
        quiet=True,
        write_log=True,
        output_dir=output_dir,
        limits=limits,
        transport=transport,
        game_label=game_name,
    )
    dealer = asyncio.create_task(
        serve_match(config, on_ports=lambda ports: loop.call_soon_threadsafe(set_ports, ports), on_hand=on_hand)
    )
    await asyncio.wait({dealer, ports_ready}, return_when=asyncio.FIRST_COMPLETED)
    if not ports_ready.done():
        result = await dealer
        raise MatchError(f"the dealer stopped before opening its ports: {result.error}")
    seat_transport = transport_for(transport)
    clients = [
        asyncio.create_task(play_match(seat_transport.seat_url(host, port), game, strategy, limits=limits))
        for port, strategy in zip(ports_ready.result(), strategies, strict=True)
    ]
    try:
        await _watch(dealer, clients, names)
    finally:
        for task in (dealer, *clients):
            task.cancel()
        await asyncio.gather(dealer, *clients, return_exceptions=True)
    result = dealer.result()
    fallbacks = {
        name: task.result().fallbacks
        for name, task in zip(names, clients, strict=True)
        if task.done() and not task.cancelled() and task.exception() is None
    }
    return MatchOutcome(
        names=tuple(names),
        totals=dict(result.totals),
        per_hand_values=[dict(values) for values in result.per_hand_values],
        hands_played=result.hands_played,
        log_path=result.log_path,
        illegal_actions=fallbacks,
        error=result.error,
    )


async def _watch(dealer: asyncio.Task[Any], clients: list[asyncio.Task[Any]], names: Sequence[str]) -> None:
    """Wait for the dealer; raise MatchError as soon as a client fails, then let clients end."""
    pending: set[asyncio.Task[Any]] = {dealer, *clients}
    while dealer in pending:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            error = task.exception()
            if error is None:
                continue
            who = "the dealer" if task is dealer else f"the client of {names[clients.index(task)]}"
            raise MatchError(f"{who} failed: {error!r}") from error
    if pending:
        await asyncio.wait(pending, timeout=5.0)


def run_loopback_match(
    game: Game,
    hands: int,
    seed: int,
    strategies: Sequence[Strategy],
    names: Sequence[str],
    *,
    fixed_seats: bool = False,
    on_hand: HandCallback | None = None,
    output_dir: Path = Path("."),
    match_name: str = "match",
    game_name: str = "game",
    limits: TimeLimits = TimeLimits(),
    transport: str = "tcp",
) -> MatchOutcome:
    """:func:`run_loopback_match_async` in a new event loop (same arguments)."""
    return asyncio.run(
        run_loopback_match_async(
            game,
            hands,
            seed,
            strategies,
            names,
            fixed_seats=fixed_seats,
            on_hand=on_hand,
            output_dir=output_dir,
            match_name=match_name,
            game_name=game_name,
            limits=limits,
            transport=transport,
        )
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
        if not registry.info(name.partition(":")[0]).supports(game):
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
            )
        else:
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
            )
        outcomes.append(outcome)
        if outcome.error is not None:
            break
    return outcomes
