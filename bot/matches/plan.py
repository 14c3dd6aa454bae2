"""Matches as asked for on the command line: a checked :class:`MatchPlan`, played by :func:`play_plan`.

:func:`play_plan` runs a plan in either mode (in process, :mod:`pokerbot.bot.matches.inprocess`,
or over loopback through the dealer, :mod:`pokerbot.bot.matches.loopback`), optionally
duplicate (every deal twice with the seats exchanged), and returns the outcomes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pokerbot.bot.matches.base import HandCallback, MatchConfigError, MatchOutcome, check_players, strategy_seed
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.protocol.game import Game
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.names import unique_player_names
from pokerbot.strategies.base import StrategyRegistry


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
            )
        outcomes.append(outcome)
        if outcome.error is not None:
            break
    return outcomes
