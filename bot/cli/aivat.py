"""``pokerbot log aivat``: AIVAT's variance-reduced estimate of a heads-up match from its log.

The log (or the two logs of a duplicate match, the second with the seats exchanged) is read
whole, its game from ``--game`` or else from its header. ``--strategy SEAT=NAME`` says that the
player SEAT (its name in the log, or 1 and 2 for the players in the order the SCORE line names
them) played the registry strategy NAME. Each
such strategy is made again with the seed the match gave it (derived from the match seed in
the log header and the player's name, as ``pokerbot match`` does) and shown every hand in
order, so that it answers as it did in the match; the other players are unknown. Every hand
gets chance corrections; the known players' decisions get action corrections
(:mod:`pokerbot.strategies.aivat.aivat`), valued by the value function ``--value``.
``--lookahead SEAT=NAME`` names an unknown player that is replayed the same way, and the value
after the first round looks one of its decisions ahead
(:mod:`pokerbot.strategies.aivat.lookahead`; heads-up no-limit hold'em, stake value).

Results: per player, the plain and the AIVAT winnings in mbb/hand with 95 % intervals and the
standard deviation per hand (per deal in duplicate) of each. Exit status: 0, 1 when a known
strategy never plays an action of the log, 2 on bad usage or an unreadable log.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from pokerbot.bot.cli.errors import FAILED, fail
from pokerbot.bot.cli.outputs import print_table
from pokerbot.bot.matches.stats import PlayerStats, is_small_game, match_stats
from pokerbot.protocol.errors import GameDefinitionError, LogFormatError
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.matchlog import (
    HEADER_PREFIX,
    LoggedHand,
    builtin_name,
    game_from_header,
    read_header,
    read_log,
)
from pokerbot.protocol.names import safe_player_name

VALUE_FUNCTIONS = ("stake", "equity")
"""The names ``--value`` takes (:mod:`pokerbot.strategies.aivat.values`): ``stake`` is
:class:`StakeValue` (the default), ``equity`` :class:`EquityValue`."""


class AivatInputError(ValueError):
    """A log or a ``--strategy`` given to ``pokerbot log aivat`` cannot be used (the message
    says what and where)."""


@dataclass(frozen=True)
class LogInput:
    """A log read whole: its path, seed (from the header, if any), players in seat order, hands."""

    path: Path
    seed: int | None
    seats: tuple[str, ...]
    hands: list[LoggedHand]


def read_match_log(path: Path, game: str | None) -> tuple[LogInput, Game]:
    """Read the log at ``path`` and its game (``game``, else the header's); raises
    :class:`AivatInputError` naming the file and line, or GameDefinitionError."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as error:
        raise AivatInputError(f"cannot read {path}: {error.strerror}") from None
    header = read_header(lines)
    definition = load_game(game) if game is not None else game_from_header(header, path.parent)[0]
    try:
        log = read_log(lines, definition)
    except LogFormatError as error:
        raise AivatInputError(f"{path}, {error}") from None
    if not log.hands:
        raise AivatInputError(f"{path}: no STATE line: not an ACPC match log")
    seats = log.score.names if log.score else log.hands[0].names
    return LogInput(path, _header_seed(header), tuple(seats), log.hands), definition


def _header_seed(header: Sequence[str]) -> int | None:
    for line in header:
        if line.startswith(HEADER_PREFIX):
            fields = line[len(HEADER_PREFIX) :].split()
            if len(fields) == 4 and fields[3].isdigit():
                return int(fields[3])
    return None


def resolve_strategies(specs: Sequence[str], seats: Sequence[str]) -> dict[str, str]:
    """``SEAT=NAME`` specifications as {player name: strategy name}. SEAT is a player as the
    match named it (``miximax:500nodes``, or the log's spelling, ``miximax=500nodes``) or a
    seat number, 1-based in ``seats`` order."""
    known: dict[str, str] = {}
    for spec in specs:
        player = strategy = None
        for index, char in enumerate(spec):
            if char != "=":
                continue
            left = spec[:index]
            if left in seats or safe_player_name(left) in seats:
                player, strategy = left if left in seats else safe_player_name(left), spec[index + 1 :]
                break
            if left.isdigit() and 1 <= int(left) <= len(seats):
                player, strategy = seats[int(left) - 1], spec[index + 1 :]
                break
        if player is None or not strategy:
            raise AivatInputError(
                f"--strategy {spec!r}: expected SEAT=NAME with SEAT a player of the log "
                f"({', '.join(seats)}) or a seat number 1..{len(seats)}"
            )
        if player in known:
            raise AivatInputError(f"--strategy: player {player!r} is given twice")
        known[player] = strategy
    return known


def aivat_command(
    logs: list[Path] = typer.Argument(
        ..., help="A heads-up match log, or the two logs of a duplicate match (second: seats exchanged)."
    ),
    game: str | None = typer.Option(
        None, "--game", "-g", help="A built-in game name or a game definition file (default: the log header's)."
    ),
    strategy: list[str] = typer.Option(
        [], "--strategy", help="SEAT=NAME: player SEAT (its name, or 1/2) played registry strategy NAME (repeat)."
    ),
    seed: int | None = typer.Option(None, "--seed", help="The match seed (default: the log header's)."),
    imaginary: bool | None = typer.Option(
        None,
        "--imaginary/--no-imaginary",
        help="Average over the known players' possible hole cards (default: on in Kuhn and Leduc).",
    ),
    sample: int = typer.Option(
        0,
        "--sample",
        help="With --imaginary in hold'em: average over this many of the known players' holdings per hand "
        "(drawn from the match seed; every holding is too many).",
    ),
    value: str = typer.Option(
        "stake",
        "--value",
        help="The value function: stake (the equity value plus the fitted betting to come; the default) or "
        "equity (the matched chips won at showdown equity).",
    ),
    lookahead: str | None = typer.Option(
        None,
        "--lookahead",
        help="SEAT=NAME: player SEAT (not known) played registry strategy NAME, replayed so that the value after "
        "the flop looks one of its decisions ahead (heads-up no-limit hold'em, --value stake; a search per "
        "state it could have met).",
    ),
    boards: int = typer.Option(
        6, "--boards", help="With --lookahead: the cards a chance correction averages over where that player is first."
    ),
    json_path: Path | None = typer.Option(None, "--json", help="Write every figure to this JSON file."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """AIVAT's variance-reduced estimate of a heads-up match from its log (or duplicate logs)."""
    from pokerbot.strategies.aivat.aivat import AivatError
    from pokerbot.strategies.base import UnknownStrategyError

    try:
        if not 1 <= len(logs) <= 2:
            raise AivatInputError(f"give one log, or the two logs of a duplicate match; got {len(logs)}")
        match_logs, games = zip(*(read_match_log(path, game) for path in logs), strict=True)
        game_definition = games[0]
        if any(other != game_definition for other in games):
            raise AivatInputError("the two logs are of different games")
        if game_definition.num_players != 2:
            raise AivatInputError(f"AIVAT is for heads-up games; this one has {game_definition.num_players} players")
        known = resolve_strategies(strategy, match_logs[0].seats)
        if sample < 0:
            raise AivatInputError(f"--sample must not be negative, got {sample}")
        if value not in VALUE_FUNCTIONS:
            raise AivatInputError(f"--value must be one of {', '.join(VALUE_FUNCTIONS)}, got {value!r}")
        hero = _lookahead_player(lookahead, game_definition, match_logs[0].seats, known, (value, boards))
        runs = _estimate(game_definition, match_logs, known, seed, (imaginary, sample, value), quiet, hero, boards)
    except (GameDefinitionError, AivatInputError, UnknownStrategyError) as error:
        raise fail(str(error)) from None
    except AivatError as error:
        raise fail(str(error), status=FAILED) from None
    names = list(match_logs[0].seats)
    report = aivat_report(runs, names, game_definition.big_blind)
    title = f"{', '.join(str(p) for p in logs)}: AIVAT ({'known: ' + ', '.join(known) if known else 'no known player'})"
    print_table(aivat_table(title, report, known, game_definition.big_blind))
    if json_path is not None:
        label = game or builtin_name(game_definition)
        data = {"game": label, "logs": [str(p) for p in logs], "known": known, "players": report}
        json_path.write_text(json.dumps(data, indent=2) + "\n")


def _lookahead_player(
    spec: str | None, game: Game, seats: Sequence[str], known: dict[str, str], options: tuple[str, int]
) -> tuple[str, str] | None:
    """``--lookahead SEAT=NAME`` as (player name, strategy name), None without it;
    ``options``: ``--value`` and ``--boards``."""
    from pokerbot.strategies.aivat.aivat import AivatError
    from pokerbot.strategies.aivat.lookahead import lookahead_values

    if spec is None:
        return None
    value, boards = options
    try:
        lookahead_values(game)
    except AivatError as error:
        raise AivatInputError(f"--lookahead: {error}") from None
    ((player, strategy_name),) = resolve_strategies([spec], seats).items()
    if player in known:
        raise AivatInputError(f"--lookahead: player {player!r} is known (--strategy); look ahead of an unknown one")
    if value != "stake":
        raise AivatInputError(f"--lookahead looks ahead with the stake value, not --value {value}")
    if boards < 1:
        raise AivatInputError(f"--boards must be at least 1, got {boards}")
    return player, strategy_name


def _estimate(
    game: Game,
    match_logs: Sequence[LogInput],
    known: dict[str, str],
    seed: int | None,
    observations: tuple[bool | None, int, str],
    quiet: bool,
    hero: tuple[str, str] | None = None,
    boards: int = 6,
) -> list[tuple[list[dict[str, float]], list[dict[str, float]]]]:
    """(outcomes, estimates) per hand for each log, strategies replayed from their seeds;
    ``observations``: imaginary observations (None: the game's default), their sample, and
    the value function's name (:data:`VALUE_FUNCTIONS`); ``hero``: the player and strategy
    of ``--lookahead`` (``boards`` its chance corrections' cards)."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

    from pokerbot.bot.cli.progress import LoggedProgress
    from pokerbot.bot.matches.base import strategy_seed
    from pokerbot.strategies.aivat.aivat import Aivat, imaginary_by_default
    from pokerbot.strategies.aivat.lookahead import LookaheadAivat, LookaheadHero, lookahead_values
    from pokerbot.strategies.aivat.recording import ReplayedStrategy
    from pokerbot.strategies.aivat.series import KnownPlayer, aivat_hands
    from pokerbot.strategies.aivat.values import EquityValue, StakeValue
    from pokerbot.strategies.registry import default_registry

    registry = default_registry()
    for name, strategy_name in [*known.items(), *([hero] if hero else [])]:
        if not registry.info(strategy_name.partition(":")[0]).supports(game):
            raise AivatInputError(f"strategy {strategy_name!r} (player {name}) does not play this game")
    imaginary, sample, value = observations
    if imaginary is None:
        imaginary = imaginary_by_default(game)
    runs = []
    columns = (TextColumn("[bold]AIVAT"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with LoggedProgress(*columns, console=Console(stderr=True), transient=True, disable=quiet) as progress:
        task = progress.add_task("hands", total=sum(len(log.hands) for log in match_logs))
        for log in match_logs:
            match_seed = seed if seed is not None else log.seed
            if (known or hero) and match_seed is None:
                raise AivatInputError(f"{log.path}: no seed in the header; give the match's --seed")
            players: dict[str, KnownPlayer] = {
                name: ReplayedStrategy(registry.create(strategy_name, game, strategy_seed(match_seed or 0, name)))
                for name, strategy_name in known.items()
            }
            outcomes, estimates = [], []
            estimator: Aivat
            if hero is not None:
                replayed = registry.create(hero[1], game, strategy_seed(match_seed or 0, hero[0]))
                looked, unlooked = lookahead_values(game)
                estimator = LookaheadAivat(
                    game,
                    replayed,
                    looked,
                    boards=boards,
                    unlooked=unlooked,
                    imaginary=imaginary,
                    sample=sample,
                    seed=match_seed or 0,
                )
                players[hero[0]] = LookaheadHero(estimator)
            else:
                value_function = EquityValue(game) if value == "equity" else StakeValue(game)
                estimator = Aivat(game, value_function, imaginary=imaginary, sample=sample, seed=match_seed or 0)
            for record in aivat_hands(estimator, log.hands, players):
                outcomes.append(record.outcomes)
                estimates.append(record.estimates)
                progress.advance(task)
            runs.append((outcomes, estimates))
    return runs


def aivat_report(
    runs: Sequence[tuple[Sequence[dict[str, float]], Sequence[dict[str, float]]]], names: Sequence[str], big_blind: int
) -> list[dict[str, Any]]:
    """Per player: the plain and the AIVAT figures (one run, or a duplicate pair: per deal)."""
    plain = match_stats([outcomes for outcomes, _ in runs], names, big_blind)
    corrected = match_stats([estimates for _, estimates in runs], names, big_blind)
    return [_player_figures(p, a) for p, a in zip(plain, corrected, strict=True)]


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else value


def _player_figures(plain: PlayerStats, corrected: PlayerStats) -> dict[str, Any]:
    ratio = corrected.sd / plain.sd if plain.sd and not math.isnan(plain.sd) else math.nan
    return {
        "name": plain.name,
        "series_length": plain.hands,
        "mbb_per_hand": _finite(plain.mbb_per_hand),
        "mbb_per_hand_ci95": _finite(plain.mbb_ci95),
        "chips_per_hand": _finite(plain.mean),
        "sd_chips": _finite(plain.sd),
        "aivat_mbb_per_hand": _finite(corrected.mbb_per_hand),
        "aivat_mbb_per_hand_ci95": _finite(corrected.mbb_ci95),
        "aivat_chips_per_hand": _finite(corrected.mean),
        "aivat_sd_chips": _finite(corrected.sd),
        "sd_ratio": _finite(ratio),
    }


def _fmt(value: float | None, digits: int = 0) -> str:
    return "n/a" if value is None else f"{value:,.{digits}f}"


def aivat_table(
    title: str,
    report: Sequence[dict[str, Any]],
    known: dict[str, str],
    big_blind: int,
    shown: dict[str, str] | None = None,
) -> Table:
    """The figures of :func:`aivat_report` as a table (chips/hand too in small games); ``shown``
    names a player as the user typed it (``miximax:500nodes`` for the log's ``miximax=500nodes``)."""
    small = is_small_game(big_blind)
    digits = 3 if small else 0
    table = Table(title=title)
    for header in ("player", "strategy", "mbb/hand", "AIVAT mbb/hand", "sd/hand", "AIVAT sd/hand", "ratio"):
        table.add_column(header, justify="left" if header in ("player", "strategy") else "right")
    for row in report:
        table.add_row(
            (shown or {}).get(row["name"], row["name"]),
            known.get(row["name"], "unknown"),
            f"{_fmt(row['mbb_per_hand'])} ± {_fmt(row['mbb_per_hand_ci95'])}",
            f"{_fmt(row['aivat_mbb_per_hand'])} ± {_fmt(row['aivat_mbb_per_hand_ci95'])}",
            _fmt(row["sd_chips"], digits),
            _fmt(row["aivat_sd_chips"], digits),
            _fmt(row["sd_ratio"], 3),
        )
    table.caption = "sd in chips per hand (per deal in duplicate); ratio = AIVAT sd / plain sd"
    return table


__all__ = ["AivatInputError", "LogInput", "aivat_command", "aivat_report", "aivat_table", "read_match_log"]
