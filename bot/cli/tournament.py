"""``pokerbot tournament``: a round-robin of heads-up strategies, played in parallel.

Every pairing of ``--players`` (or each ``--pairing A,B``) plays ``--hands`` deals of the same
seed, duplicate unless ``--no-duplicate``, on the executor (``--jobs``, ``--address``;
:mod:`pokerbot.bot.matches.executor`), in chunks of ``--chunk-hands`` (default: one chunk per match;
a learning strategy learns within its chunk). Results: a cross-table of mbb/hand with 95 %
intervals, a ranking, ``<out>/cross-table.png`` (and ``cross-table-aivat.png`` with
``--aivat``), every match's ACPC log in ``<out>/logs/`` and, with ``--json``, every figure.
Exit status: 0 on success, 1 when a match fails, 2 on bad usage.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from pokerbot.bot.cli.errors import FAILED, fail
from pokerbot.bot.cli.outputs import OutputFolderError, announce, prepare_output, print_table, remove_empty, shown_names
from pokerbot.bot.cli.progress import LoggedProgress
from pokerbot.bot.matches.base import MatchError
from pokerbot.bot.matches.executor import ADDRESS_HELP, JOBS_HELP, ExecutorError, make_executor
from pokerbot.bot.matches.tournament import (
    TournamentError,
    TournamentResult,
    heat_map,
    plan_tournament,
    play_tournament,
    result_json,
)
from pokerbot.protocol.errors import GameDefinitionError
from pokerbot.protocol.game import load_game
from pokerbot.strategies.base import UnknownStrategyError

TOURNAMENT_CONTEXT: dict[str, Any] = {"allow_extra_args": True}
"""Lets ``--players A B C`` take several values (the extra arguments after the first)."""


def tournament_command(
    ctx: typer.Context,
    game: str = typer.Option("holdem-nolimit-2p", "--game", "-g", help="A built-in game name or a game file."),
    players: list[str] | None = typer.Option(None, "--players", help="The strategies: --players A B C ..."),
    hands: int = typer.Option(1000, "--hands", "-n", help="Hands of each match (deals, in duplicate)."),
    seed: int = typer.Option(1, "--seed", "-s", help="Dealing seed of every match (0..2**32-1)."),
    pairing: list[str] | None = typer.Option(
        None, "--pairing", help="Play only these pairings: --pairing A,B (repeat); default: round-robin."
    ),
    duplicate: bool = typer.Option(True, "--duplicate/--no-duplicate", help="Every deal twice, seats exchanged."),
    aivat: bool = typer.Option(False, "--aivat", help="Also AIVAT's variance-reduced cross-table."),
    jobs: int | None = typer.Option(None, "--jobs", help=f"{JOBS_HELP} Default: every core."),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    chunk_hands: int | None = typer.Option(None, "--chunk-hands", help="Hands per chunk (default: whole matches)."),
    json_path: Path | None = typer.Option(None, "--json", help="Write every figure to this JSON file."),
    out: Path = typer.Option(Path("tournament-output"), "--out", "-o", help="Folder for the logs and the heat map."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars."),
) -> None:
    """Play a round-robin tournament of heads-up strategies in parallel; print the cross-table."""
    try:
        definition = load_game(game)
        strategies = _players(players, ctx.args)
        _check_strategies(strategies, definition)
        pairs = [_pair(text) for text in pairing] if pairing else None
        plan = plan_tournament(
            definition,
            game,
            strategies,
            hands,
            seed,
            pairings=pairs,
            duplicate=duplicate,
            chunk_hands=chunk_hands,
            aivat=aivat,
            output_dir=out,
        )
    except (GameDefinitionError, UnknownStrategyError, TournamentError) as error:
        raise fail(str(error)) from None
    created: list[Path] = []
    try:
        prepare_output(out, folder=True, created=created)
        prepare_output(json_path, created=created)
    except OutputFolderError as error:
        remove_empty(created)
        raise fail(str(error), "--out" if str(out) in str(error) else "--json") from None
    started = time.perf_counter()
    try:
        with make_executor(jobs, address) as executor:
            result = _play(plan, executor, quiet)
            result.executor = executor.description
    except BaseException as error:
        remove_empty(created)  # no folder left behind with nothing in it
        if isinstance(error, ExecutorError | UnknownStrategyError):
            raise fail(str(error)) from None
        if isinstance(error, MatchError | OSError):
            raise fail(str(error), status=FAILED) from None
        raise
    result.seconds = time.perf_counter() - started
    print_table(_cross_table(result, aivat=False))
    if aivat:
        print_table(_cross_table(result, aivat=True))
    print_table(_ranking(result))
    written: list[Path | None] = [heat_map(result, out / "cross-table.png")]
    if aivat:
        written.append(heat_map(result, out / "cross-table-aivat.png", aivat=True))
    if json_path is not None:
        json_path.write_text(json.dumps(result_json(result), indent=2) + "\n")
        written.append(json_path)
    announce([*result.logs, *written])


def _players(options: Sequence[str] | None, extra: Sequence[str]) -> list[str]:
    if extra and not options:
        raise TournamentError(f"unexpected arguments {' '.join(extra)!r} (players go after --players)")
    given = [part for item in [*(options or ()), *extra] for part in item.split(",") if part]
    if len(given) < 2:
        raise TournamentError("a tournament needs at least two players: --players A B ...")
    return given


def _pair(text: str) -> tuple[str, str]:
    parts = [part for part in text.split(",") if part]
    if len(parts) != 2:
        raise TournamentError(f"--pairing {text!r}: expected two players, A,B")
    return parts[0], parts[1]


def _check_strategies(strategies: Sequence[str], game: Any) -> None:
    """Build each strategy once here, so that a bad name fails before any work starts."""
    from pokerbot.strategies.registry import default_registry

    registry = default_registry()
    for name in strategies:
        registry.create(name, game, 0)


def _play(plan: Any, executor: Any, quiet: bool) -> TournamentResult:
    columns = (
        TextColumn("[bold]{task.description:>8}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    hands = plan.hands * plan.matches
    with LoggedProgress(*columns, console=Console(stderr=True), transient=True, disable=quiet) as progress:
        matches = progress.add_task("matches", total=plan.matches)
        played = progress.add_task("hands", total=hands)
        return play_tournament(
            plan,
            executor,
            on_hand=lambda count: progress.advance(played, count),
            on_match=lambda _match: progress.advance(matches),
        )


def _fmt(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:,.0f}"


def _cross_table(result: TournamentResult, aivat: bool) -> Table:
    plan = result.plan
    kind = "AIVAT" if aivat else ("duplicate" if plan.duplicate else "plain")
    title = (
        f"{plan.game_name}: {plan.hands} {'deals' if plan.duplicate else 'hands'} per pairing, seed {plan.seed}, "
        f"{kind}, mbb/hand of the row player ± 95% ({result.executor}, {result.seconds:.1f} s)"
    )
    table = Table(title=title)
    table.add_column("")
    shown = shown_names(plan.strategies)
    for name in shown:
        table.add_column(name, justify="right")
    for name, row in zip(shown, result.cross_table(aivat), strict=True):
        table.add_row(name, *("" if c is None else f"{_fmt(c.mbb_per_hand)} ± {_fmt(c.mbb_ci95)}" for c in row))
    return table


def _ranking(result: TournamentResult) -> Table:
    plan = result.plan
    table = Table(title="ranking: mean mbb/hand against the opponents met")
    for header in ("rank", "player", "mbb/hand", "95%"):
        table.add_column(header, justify="right" if header in ("rank", "mbb/hand", "95%") else "left")
    for rank, (player, mean, half) in enumerate(result.ranking(), start=1):
        table.add_row(str(rank), shown_names(plan.strategies)[player], _fmt(mean), f"± {_fmt(half)}")
    return table


__all__ = ["TOURNAMENT_CONTEXT", "tournament_command"]
