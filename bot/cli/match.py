"""``pokerbot match``: play a match between strategies and report who won, with what certainty.

Loopback (the default) runs the dealer and one client per player on 127.0.0.1 in one event
loop; ``--in-process`` plays the same hands without sockets. ``--jobs N``, ``--address``,
``--chunk-hands`` or ``--aivat`` play in process, in chunks of consecutive hands on the
executor (:mod:`pokerbot.bot.matches.chunks`, :mod:`pokerbot.bot.matches.executor`: one long match, merged
exactly; a learning strategy learns within its chunk); ``--aivat`` adds AIVAT's
variance-reduced figures (heads-up). Results: a table (chips,
mbb/hand and its 95 % confidence interval, totals in big blinds), optionally ``--json``, and in
``--out`` the match log(s) and ``bankroll.png`` (cumulative big blinds per player against hand
number); the paths written are printed on standard error.
Exit status: 0 on success, 1 when the match fails, 2 on bad usage.
"""

from __future__ import annotations

import functools
import json
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
from rich.table import Table

from pokerbot.bot.cli.aivat import aivat_report, aivat_table
from pokerbot.bot.cli.errors import FAILED, INTERRUPTED, fail
from pokerbot.bot.cli.outputs import (
    OutputFolderError,
    announce,
    plural,
    prepare_output,
    print_table,
    remove_empty,
    shown_names,
)
from pokerbot.bot.cli.progress import LoggedProgress, compile_notice
from pokerbot.bot.matches.base import MatchConfigError, MatchError, MatchOutcome
from pokerbot.bot.matches.chunks import DEFAULT_CHUNK_HANDS, MergedMatch
from pokerbot.bot.matches.executor import ADDRESS_HELP, JOBS_HELP, ExecutorError, make_executor
from pokerbot.bot.matches.plan import MatchPlan, make_plan, play_plan
from pokerbot.bot.matches.stats import PlayerStats, is_small_game, match_stats
from pokerbot.protocol.errors import GameDefinitionError
from pokerbot.protocol.game import Game, load_game
from pokerbot.strategies.base import Strategy, StrategyRegistry, UnknownStrategyError
from pokerbot.strategies.registry import default_registry, default_strategy

if TYPE_CHECKING:
    from matplotlib.figure import Figure

DEFAULT_GAME = "holdem-nolimit-2p"
DEFAULT_HANDS = 100
"""Hands of a match by default: the quick start's heads-up no-limit match of the default agent,
its solver compiled on the first run, takes under two minutes on two cores (README)."""
DEFAULT_OPPONENT = "random"
MATCH_CONTEXT_SETTINGS: dict[str, Any] = {"allow_extra_args": True}
"""Lets ``--players A B C`` take several values (the extra arguments after the first)."""
BANKROLL_PLOT = "bankroll.png"
COMPILING = "compiling the solver (first run only; later runs load it in seconds)"
"""Said when a strategy's code is first compiled (before the first hand)."""
LOOPBACK_MODULES = ("pokerbot.bot.dealer.server", "pokerbot.bot.client.play")


def match_command(
    ctx: typer.Context,
    game: str = typer.Option(DEFAULT_GAME, "--game", "-g", help="A built-in game name or a game definition file."),
    hands: int = typer.Option(DEFAULT_HANDS, "--hands", "-n", help="Hands to play (deals, in duplicate mode)."),
    seed: int = typer.Option(1, "--seed", "-s", help="Dealing seed (0..2**32-1); strategies' seeds derive from it."),
    players: list[str] | None = typer.Option(
        None,
        "--players",
        help=f"Strategy of each seat: --players A B ..., a registered name or your own file.py:Class or "
        f"module:Class (default: the game's strongest, e.g. adaptive:30iterations in heads-up no-limit hold'em, then "
        f"{DEFAULT_OPPONENT}).",
    ),
    duplicate: bool = typer.Option(False, "--duplicate", help="Play every deal twice, seats exchanged (2 players)."),
    json_path: Path | None = typer.Option(None, "--json", help="Write every figure to this JSON file."),
    out: Path = typer.Option(Path("match-output"), "--out", "-o", help="Folder for the log(s) and bankroll.png."),
    in_process: bool = typer.Option(False, "--in-process", help="No dealer or sockets: play in this process."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    fixed_seats: bool = typer.Option(False, "--fixed-seats", help="Seats do not rotate between hands."),
    name: str = typer.Option("match", "--name", help="Match name: the log is <out>/<name>.log."),
    jobs: int | None = typer.Option(
        None, "--jobs", help=f"{JOBS_HELP} Plays chunks of hands in process (without it: one match, no chunks)."
    ),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    chunk_hands: int | None = typer.Option(
        None,
        "--chunk-hands",
        help=f"Hands per chunk (in process; default {DEFAULT_CHUNK_HANDS} with --jobs or --address, else all).",
    ),
    aivat: bool = typer.Option(False, "--aivat", help="Also AIVAT's variance-reduced winnings (heads-up, in process)."),
) -> None:
    """Play a match between strategies (by registry name) and report the winnings."""
    registry = default_registry()
    chunked = jobs is not None or address is not None or chunk_hands is not None or aivat
    try:
        if jobs is not None and jobs < 1:
            raise MatchConfigError(f"--jobs must be at least 1, got {jobs}")
        if chunked and chunk_hands is None and (jobs not in (None, 1) or address is not None):
            chunk_hands = DEFAULT_CHUNK_HANDS
        if chunk_hands is not None and chunk_hands < 1:
            raise MatchConfigError(f"--chunk-hands must be at least 1, got {chunk_hands}")
        game_definition = load_game(game)
        if aivat and game_definition.num_players != 2:
            raise MatchConfigError(f"--aivat is for heads-up games; {game} has {game_definition.num_players} players")
        strategy_names = _players(players, ctx.args, game_definition)
        plan = make_plan(
            game_definition,
            game,
            hands,
            seed,
            strategy_names,
            registry,
            duplicate=duplicate,
            in_process=in_process or chunked,
            fixed_seats=fixed_seats,
            output_dir=out,
            match_name=name,
        )
    except GameDefinitionError as error:
        raise fail(str(error), "--game") from None
    except UnknownStrategyError as error:
        raise fail(str(error), "--players") from None
    except MatchConfigError as error:
        raise fail(str(error)) from None
    created: list[Path] = []
    try:
        prepare_output(out, folder=True, created=created)
        prepare_output(json_path, created=created)
    except OutputFolderError as error:
        remove_empty(created)
        raise fail(str(error), "--out" if str(out) in str(error) else "--json") from None
    started = time.perf_counter()
    merged: list[MergedMatch] = []
    try:
        if chunked:
            merged = _play_chunked(plan, quiet, jobs, address, chunk_hands, aivat)
            outcomes = [match.outcome for match in merged]
        else:
            outcomes = _play(plan, registry, quiet)
    except BaseException as error:
        remove_empty(created)  # no folder left behind with nothing in it
        if isinstance(error, KeyboardInterrupt):
            raise fail("stopped by Ctrl-C before a hand was finished", status=INTERRUPTED) from None
        if isinstance(error, ExecutorError | UnknownStrategyError):  # a strategy found bad when it is built
            raise fail(str(error)) from None
        if isinstance(error, ModuleNotFoundError) and error.name in LOOPBACK_MODULES:
            raise fail(f"loopback mode needs {error.name}, which is missing; use --in-process") from None
        if isinstance(error, MatchError | OSError):
            raise fail(str(error), status=FAILED) from None
        raise
    elapsed = time.perf_counter() - started
    stats = match_stats([o.per_hand_values for o in outcomes], plan.names, game_definition.big_blind)
    print_table(_table(plan, stats, elapsed))
    figures = None
    if aivat:
        figures = aivat_figures(merged, plan.names, game_definition.big_blind)
        known = {name: s for name, s in zip(plan.names, plan.strategies, strict=True) if name in figures["known"]}
        shown = dict(zip(plan.names, shown_names(plan.strategies), strict=True))
        title = f"AIVAT ({'known: ' + ', '.join(shown[name] for name in known) if known else 'no known player'})"
        print_table(aivat_table(title, figures["players"], known, game_definition.big_blind, shown))
    plot = _plot(plan, outcomes)
    if json_path is not None:
        report = _report(plan, outcomes, stats, elapsed, plot)
        if chunked:
            report["chunk_hands"] = chunk_hands or plan.hands
        if figures is not None:
            report["aivat"] = figures
        json_path.write_text(json.dumps(report, indent=2) + "\n")
    announce([*(o.log_path for o in outcomes), plot, json_path])
    failed = [o.error for o in outcomes if o.error is not None]
    if failed:
        raise fail(f"the match stopped early: {failed[0]}", status=FAILED)
    stopped = [o.stopped for o in outcomes if o.stopped is not None]
    if stopped:
        typer.echo(f"{stopped[0]}: the table and the log (marked truncated) hold the hands finished", err=True)
        raise typer.Exit(INTERRUPTED)


def _players(options: Sequence[str] | None, extra: Sequence[str], game: Game) -> list[str]:
    """Strategy names from ``--players A --players B``, ``--players A B`` or ``--players A,B``."""
    if extra and not options:
        raise MatchConfigError(f"unexpected arguments {' '.join(extra)!r} (players go after --players)")
    given = [part for item in [*(options or ()), *extra] for part in item.split(",") if part]
    if not given:
        return [default_strategy(game, fast=True)] + [DEFAULT_OPPONENT] * (game.num_players - 1)
    return given


def _play(plan: MatchPlan, registry: StrategyRegistry, quiet: bool) -> list[MatchOutcome]:
    """Play ``plan`` under a progress bar (none when ``quiet``); Ctrl-C ends it after the
    hands finished (:func:`~pokerbot.bot.matches.plan.play_plan`'s ``interruptible``)."""
    console = Console(stderr=True)

    def prepare(strategies: Sequence[Strategy]) -> None:
        """Each strategy's data loaded and code compiled, before the first hand; a first
        compile says so (it takes about a minute for a hold'em agent)."""
        for strategy, shown in zip(strategies, shown_names(plan.strategies), strict=True):
            with compile_notice(
                functools.partial(console.print, f"{shown}: {COMPILING}", highlight=False, soft_wrap=True)
            ):
                strategy.prepare()

    if quiet:
        return play_plan(plan, registry, prepare=prepare, interruptible=True)
    total = plan.hands * (2 if plan.duplicate else 1)
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with LoggedProgress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(" vs ".join(shown_names(plan.strategies)), total=total)
        return play_plan(
            plan, registry, on_hand=lambda _hand: progress.advance(task), prepare=prepare, interruptible=True
        )


def _play_chunked(
    plan: MatchPlan, quiet: bool, jobs: int | None, address: str | None, chunk_hands: int | None, aivat: bool
) -> list[MergedMatch]:
    """Play ``plan`` in chunks on the executor, under a progress bar (none when ``quiet``)."""
    from pokerbot.bot.matches.chunks import play_plan_chunked

    total = plan.hands * (2 if plan.duplicate else 1)
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with (
        make_executor(jobs or 1, address) as executor,
        LoggedProgress(*columns, console=Console(stderr=True), transient=True, disable=quiet) as progress,
    ):
        task = progress.add_task(" vs ".join(shown_names(plan.strategies)), total=total)
        return play_plan_chunked(
            plan, executor, chunk_hands=chunk_hands, aivat=aivat, on_hand=lambda count: progress.advance(task, count)
        )


def aivat_figures(merged: Sequence[MergedMatch], names: Sequence[str], big_blind: int) -> dict[str, Any]:
    """The AIVAT figures of a (duplicate) match played with ``aivat``: known players and, per
    player, plain and AIVAT winnings with intervals and standard deviations."""
    runs = [(match.outcome.per_hand_values, match.estimates or []) for match in merged]
    known = sorted(set.intersection(*(set(match.known) for match in merged))) if merged else []
    return {"known": known, "players": aivat_report(runs, names, big_blind)}


def _fmt(value: float, digits: int = 0) -> str:
    return "n/a" if math.isnan(value) else f"{value:,.{digits}f}"


def _table(plan: MatchPlan, stats: Sequence[PlayerStats], elapsed: float) -> Table:
    """The results table: one row per player."""
    hands = stats[0].hands if stats else 0
    played = f"{plural(hands, 'deal')}, duplicate" if plan.duplicate else plural(hands, "hand")
    mode = "in-process" if plan.in_process else "loopback"
    table = Table(title=f"{plan.game_name}: {played}, seed {plan.seed}, {mode}, {elapsed:.1f} s")
    unit = "antes" if plan.game.has_antes else "big blinds"
    for header in ("player", f"total ({unit})", "mbb/hand", "95% CI"):
        table.add_column(header, justify="left" if header == "player" else "right")
    small = is_small_game(plan.game.big_blind)
    if small:
        table.add_column("chips/hand", justify="right")
    for player, typed in zip(stats, shown_names(plan.strategies), strict=True):
        row = [
            typed,
            _fmt(player.total / plan.game.big_blind, 2),
            _fmt(player.mbb_per_hand),
            f"± {_fmt(player.mbb_ci95)}",
        ]
        if small:
            row.append(f"{_fmt(player.mean, 3)} ± {_fmt(player.ci95, 3)}")
        table.add_row(*row)
    return table


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else value


def _report(
    plan: MatchPlan, outcomes: Sequence[MatchOutcome], stats: Sequence[PlayerStats], elapsed: float, plot: Path
) -> dict[str, Any]:
    """Every figure of the match, JSON-ready (chips, mbb/hand, seconds; nan becomes null)."""
    return {
        "game": plan.game_name,
        "seed": plan.seed,
        "hands": plan.hands,
        "big_blind": plan.game.big_blind,
        "mode": "in-process" if plan.in_process else "loopback",
        "duplicate": plan.duplicate,
        "fixed_seats": plan.fixed_seats,
        "series_length": stats[0].hands if stats else 0,
        "elapsed_seconds": round(elapsed, 3),
        "players": [
            {
                "name": player.name,
                "strategy": strategy,
                "total_chips": player.total,
                "chips_per_hand": _finite(player.mean),
                "chips_per_hand_ci95": _finite(player.ci95),
                "mbb_per_hand": _finite(player.mbb_per_hand),
                "mbb_per_hand_ci95": _finite(player.mbb_ci95),
                "illegal_actions": sum(o.illegal_actions.get(player.name, 0) for o in outcomes),
            }
            for player, strategy in zip(stats, plan.strategies, strict=True)
        ],
        "runs": [
            {
                "names": list(o.names),
                "hands_played": o.hands_played,
                "totals": o.totals,
                "log": str(o.log_path) if o.log_path else None,
                "error": o.error,
            }
            for o in outcomes
        ],
        "bankroll_plot": str(plot),
    }


def _plot(plan: MatchPlan, outcomes: Sequence[MatchOutcome]) -> Path:
    """Write ``bankroll.png`` (:func:`bankroll_figure`) in the output folder."""
    path = plan.output_dir / BANKROLL_PLOT
    bankroll_figure(plan, outcomes).savefig(path)
    return path


def bankroll_figure(plan: MatchPlan, outcomes: Sequence[MatchOutcome]) -> Figure:
    """Cumulative winnings per player by hand (by deal, summing both seatings, in duplicate
    mode), the players named as typed. Matplotlib's Agg canvas, no pyplot."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    deals = min(len(o.per_hand_values) for o in outcomes)
    for player, shown in zip(plan.names, shown_names(plan.strategies), strict=True):
        running, series = 0.0, [0.0]
        big_blind = plan.game.big_blind
        for hand in range(deals):
            running += sum(o.per_hand_values[hand].get(player, 0.0) for o in outcomes) / big_blind
            series.append(running)
        axes.plot(range(deals + 1), series, label=shown, linewidth=1.2)
    axes.axhline(0.0, color="grey", linewidth=0.6)
    axes.set_xlabel("deal" if plan.duplicate else "hand")
    axes.set_ylabel(f"cumulative winnings ({'antes' if plan.game.has_antes else 'big blinds'})")
    axes.set_title(f"{plan.game_name}, seed {plan.seed}" + (" (duplicate)" if plan.duplicate else ""))
    axes.legend(loc="best")
    figure.tight_layout()
    return figure
