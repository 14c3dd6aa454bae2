"""Matches as asked for on the command line: a checked :class:`MatchPlan`, played by :func:`play_plan`.

:func:`play_plan` runs a plan in either mode (in process, :mod:`pokerbot.bot.matches.inprocess`,
or over loopback through the dealer, :mod:`pokerbot.bot.matches.loopback`), optionally
duplicate (every deal twice with the seats exchanged), and returns the outcomes.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from pokerbot.bot.matches.base import (
    HandCallback,
    MatchConfigError,
    MatchOutcome,
    StopCheck,
    check_players,
    strategy_seed,
)
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.protocol.game import Game
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.names import unique_player_names
from pokerbot.strategies.base import Strategy, StrategyRegistry


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
        registry.check(name, game)  # its argument, before anything is played or loaded
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


def play_plan(
    plan: MatchPlan,
    registry: StrategyRegistry,
    on_hand: HandCallback | None = None,
    *,
    prepare: Callable[[Sequence[Strategy]], None] | None = None,
    interruptible: bool = False,
) -> list[MatchOutcome]:
    """Play ``plan``: one outcome, or two for a duplicate match (second: seats exchanged).

    ``prepare`` gets each seating's strategies, made, before its first hand (to call their
    :meth:`~pokerbot.strategies.base.Strategy.prepare`, say: data loaded, code compiled).
    With ``interruptible`` (in the main thread) Ctrl-C (SIGINT; over loopback SIGTERM too)
    ends the match after the hands finished, as a shorter one: its outcome says so
    (:attr:`MatchOutcome.stopped`), its log is marked truncated, and no further seating is
    played; a second Ctrl-C in process raises KeyboardInterrupt at once.
    """
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
        if prepare is not None:
            prepare(strategies)
        if plan.in_process:
            with _ctrl_c_stops(interruptible) as stop:
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
                    stop=stop,
                )
        else:
            from pokerbot.bot.matches.loopback import run_loopback_match  # the dealer and client only when needed

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
                interruptible=interruptible,
            )
        outcomes.append(outcome)
        if outcome.error is not None or outcome.stopped is not None:
            break
    return outcomes


@contextlib.contextmanager
def _ctrl_c_stops(enabled: bool) -> Iterator[StopCheck | None]:
    """A :data:`StopCheck` that says ``Ctrl-C`` once SIGINT came, while the block runs (None
    when not ``enabled`` or not in the main thread); a second SIGINT raises KeyboardInterrupt."""
    if not enabled or threading.current_thread() is not threading.main_thread():
        yield None
        return
    pressed = threading.Event()

    def on_sigint(signum: int, frame: object) -> None:
        if pressed.is_set():
            raise KeyboardInterrupt
        pressed.set()

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield lambda: "Ctrl-C" if pressed.is_set() else None
    finally:
        signal.signal(signal.SIGINT, previous)
