"""``pokerbot experiment learning-curves``: how fast each strategy learns to beat one opponent.

Every player of ``--players`` (default ``adaptive:30iterations``, ``miximax:500nodes`` and
``blueprint`` in heads-up no-limit hold'em) plays one whole match of ``--hands`` hands against
``OPPONENT``, all on the same deals (the same seed; the opponent's strategy seeded alike in
every match), optionally in duplicate (every deal again with the seats exchanged; a deal's
value is the mean of its two seatings). A match is never cut into chunks, so a learning
player learns over all of it; the matches run one after the other or, with ``--jobs``, side
by side on the executor of :mod:`pokerbot.bot.matches.executor`.

The curve of a player is its win rate in consecutive windows of ``--window`` hands (deals in
duplicate), in milli-big-blinds per hand with the 95 % normal-approximation interval of each
window (:func:`pokerbot.bot.matches.stats.mean_and_ci95`), and over the whole match. Output:
a table (one row a window, one column a player), optionally ``--json`` and a ``--plot`` PNG
(each player's windows as a line in its 95 % band). Exit status 2 on bad input, 1 when a
match fails.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
from rich.table import Table

from pokerbot.bot.cli.errors import FAILED, fail
from pokerbot.bot.cli.outputs import OutputFolderError, announce, plural, prepare_output, print_table
from pokerbot.bot.cli.progress import LoggedProgress
from pokerbot.bot.matches.base import MatchError
from pokerbot.bot.matches.chunks import Chunk, plan_chunks, play_matches
from pokerbot.bot.matches.executor import ADDRESS_HELP, JOBS_HELP, Executor, ExecutorError, make_executor
from pokerbot.bot.matches.stats import duplicate_series, mean_and_ci95, player_series
from pokerbot.protocol.errors import GameDefinitionError
from pokerbot.protocol.game import Game, load_game
from pokerbot.strategies.base import UnknownStrategyError
from pokerbot.strategies.registry import default_registry

DEFAULT_PLAYERS = ("adaptive:30iterations", "miximax:500nodes", "blueprint")
"""The players compared by default: the re-solving exploiter and the search agent at the
budgets ``pokerbot match`` seats them (reproducible under any load), and the equilibrium
blueprint that learns nothing."""
HERO, OPPONENT = "hero", "opponent"
"""The seats' names in every match: the opponent's strategy is seeded alike in each."""


@dataclass(frozen=True)
class Window:
    """One window of a curve: hands ``first`` to ``last`` (0-based, inclusive) and the win
    rate over them, in mbb/hand, with the half-width of its 95 % interval (nan below 2 hands)."""

    first: int
    last: int
    mbb: float
    ci95: float


@dataclass(frozen=True)
class Curve:
    """A player's learning curve against the opponent: its windows, and the whole match."""

    player: str
    windows: tuple[Window, ...]
    overall: Window


def win_rate_windows(series: Sequence[float], window: int, big_blind: int) -> Curve:
    """The curve of a per-hand (per-deal) series of chips: consecutive windows of ``window``
    values (the last may be shorter), and the whole series; the player is left blank."""
    if window < 1:
        raise ValueError(f"a window holds at least one hand, got {window}")

    def rate(first: int, last: int) -> Window:
        mean, ci95 = mean_and_ci95(series[first : last + 1])
        return Window(first, last, 1000.0 * mean / big_blind, 1000.0 * ci95 / big_blind)

    windows = tuple(rate(first, min(first + window, len(series)) - 1) for first in range(0, len(series), window))
    return Curve("", windows, rate(0, len(series) - 1))


def learning_chunks(
    game: Game, game_name: str, opponent: str, players: Sequence[str], hands: int, seed: int, duplicate: bool
) -> list[Chunk]:
    """One whole-match chunk per player and seating: match ``2 k`` (and ``2 k + 1``, the seats
    exchanged, in duplicate) is player ``k``'s."""
    chunks = []
    for k, player in enumerate(players):
        seatings = [((player, opponent), (HERO, OPPONENT))]
        if duplicate:
            seatings.append(((opponent, player), (OPPONENT, HERO)))
        for s, (strategies, names) in enumerate(seatings):
            chunks.extend(plan_chunks(2 * k + s, game, game_name, hands, seed, strategies, names, None))
    return chunks


def run_learning_curves(
    executor: Executor,
    game: Game,
    game_name: str,
    opponent: str,
    players: Sequence[str],
    hands: int,
    seed: int,
    window: int,
    *,
    duplicate: bool = False,
    on_hand: Callable[[int], None] | None = None,
) -> list[Curve]:
    """Play every player's match against ``opponent`` on ``executor`` and return the curves,
    in the order of ``players`` (module docstring). Raises :class:`MatchError` when a match
    stops early."""
    chunks = learning_chunks(game, game_name, opponent, players, hands, seed, duplicate)
    grouped = play_matches(executor, chunks, on_hand=on_hand)
    curves = []
    for k, player in enumerate(players):
        first = grouped[2 * k][0].per_hand_values
        if duplicate:
            series = duplicate_series(first, grouped[2 * k + 1][0].per_hand_values, HERO)
        else:
            series = player_series(first, HERO)
        if len(series) < hands:
            raise MatchError(f"{player}'s match stopped after {plural(len(series), 'hand')}")
        curve = win_rate_windows(series, window, game.big_blind)
        curves.append(Curve(player, curve.windows, curve.overall))
    return curves


def _fmt(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:+,.0f}"


def curves_table(curves: Sequence[Curve], title: str, unit: str) -> Table:
    """One row a window, one column a player: mbb/hand ± the 95 % half-width."""
    table = Table(title=title, caption=f"win rate in mbb/hand ± 95 % interval, per window of {unit}")
    table.add_column(unit, justify="right")
    for curve in curves:
        table.add_column(curve.player, justify="right")

    def cell(window: Window) -> str:
        return f"{_fmt(window.mbb)} ± {'-' if math.isnan(window.ci95) else f'{window.ci95:,.0f}'}"

    for index, window in enumerate(curves[0].windows):
        table.add_row(f"{window.first + 1}-{window.last + 1}", *(cell(curve.windows[index]) for curve in curves))
    table.add_row("all", *(cell(curve.overall) for curve in curves), end_section=True)
    return table


def write_curves_plot(curves: Sequence[Curve], path: Path, title: str, unit: str) -> None:
    """Each player's windows as a line at the windows' ends, in its shaded 95 % band; a zero
    line. Matplotlib's Agg canvas, no pyplot."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9, 5), dpi=80)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for curve in curves:
        ends = [window.last + 1 for window in curve.windows]
        rates = [window.mbb for window in curve.windows]
        widths = [0.0 if math.isnan(window.ci95) else window.ci95 for window in curve.windows]
        (line,) = axes.plot(
            ends, rates, marker="o", linewidth=1.4, label=f"{curve.player} ({_fmt(curve.overall.mbb)} overall)"
        )
        axes.fill_between(
            ends,
            [r - w for r, w in zip(rates, widths, strict=True)],
            [r + w for r, w in zip(rates, widths, strict=True)],
            color=line.get_color(),
            alpha=0.15,
        )
    axes.axhline(0.0, color="grey", linewidth=0.6)
    axes.set_xlabel(f"{unit} (end of each window)")
    axes.set_ylabel("win rate in the window (mbb/hand, 95 % band)")
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    axes.legend(loc="best")
    figure.tight_layout()
    figure.savefig(path)


def _report(curves: Sequence[Curve], options: dict[str, Any]) -> dict[str, Any]:
    def window(w: Window) -> dict[str, Any]:
        return {
            "first": w.first + 1,
            "last": w.last + 1,
            "mbb_per_hand": None if math.isnan(w.mbb) else round(w.mbb, 1),
            "mbb_per_hand_ci95": None if math.isnan(w.ci95) else round(w.ci95, 1),
        }

    return {
        **options,
        "players": [
            {"strategy": c.player, "overall": window(c.overall), "windows": [window(w) for w in c.windows]}
            for c in curves
        ],
    }


def learning_curves(
    ctx: typer.Context,
    opponent: str | None = typer.Argument(
        None, metavar="OPPONENT", help="The opponent (a registry name or file.py:Class)."
    ),
    players: list[str] | None = typer.Option(
        None,
        "--players",
        help=f"The players compared, each against OPPONENT: --players A B ... (default: {' '.join(DEFAULT_PLAYERS)}).",
    ),
    hands: int = typer.Option(1000, "--hands", "-n", help="Hands of each match (deals, in duplicate)."),
    window: int = typer.Option(100, "--window", "-w", help="Hands (deals) in each window of the curves."),
    game: str = typer.Option("holdem-nolimit-2p", "--game", "-g", help="A built-in heads-up game or a game file."),
    seed: int = typer.Option(1, "--seed", "-s", help="Dealing seed (0..2**32-1), the same for every player."),
    duplicate: bool = typer.Option(False, "--duplicate", help="Every deal twice, seats exchanged."),
    jobs: int | None = typer.Option(None, "--jobs", help=f"{JOBS_HELP} (default 1)."),
    address: str | None = typer.Option(None, "--address", help=ADDRESS_HELP),
    json_path: Path | None = typer.Option(None, "--json", help="Write the curves to this JSON file."),
    plot: Path | None = typer.Option(None, "--plot", help="Write the curves to this PNG file."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Win rate in windows of hands of several players against OPPONENT, on the same deals."""
    if not opponent:
        raise fail("name the opponent: pokerbot experiment learning-curves OPPONENT (e.g. nit)")
    if hands < 1 or window < 1:
        raise fail(f"--hands and --window must be positive, got {hands} and {window}")
    if not 0 <= seed <= 0xFFFFFFFF:
        raise fail(f"--seed must be in 0..4294967295, got {seed}", "--seed")
    if ctx.args and not players:
        raise fail(f"unexpected arguments {' '.join(ctx.args)!r} (players go after --players)")
    chosen = [part for item in [*(players or DEFAULT_PLAYERS), *ctx.args] for part in item.split(",") if part]
    if len(set(chosen)) != len(chosen):
        raise fail(f"a player is named twice: {' '.join(chosen)}", "--players")
    try:
        game_definition = load_game(game)
    except GameDefinitionError as error:
        raise fail(str(error), "--game") from None
    if game_definition.num_players != 2:
        raise fail(f"the experiment needs a 2-player game, {game} has {game_definition.num_players} players", "--game")
    registry = default_registry()
    for name in (*chosen, opponent):
        try:
            registry.check(name, game_definition)  # its argument too, before anything is built
        except UnknownStrategyError as error:
            raise fail(str(error), "--players" if name in chosen else "OPPONENT") from None
    try:
        prepare_output(json_path)
        prepare_output(plot)
    except OutputFolderError as error:
        raise fail(str(error)) from None
    unit = "deals" if duplicate else "hands"
    total = hands * len(chosen) * (2 if duplicate else 1)
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    started = time.perf_counter()
    try:
        with (
            make_executor(jobs or 1, address) as executor,
            LoggedProgress(*columns, console=Console(stderr=True), transient=True, disable=quiet) as progress,
        ):
            task = progress.add_task(f"learning curves against {opponent}", total=total)
            curves = run_learning_curves(
                executor,
                game_definition,
                game,
                opponent,
                chosen,
                hands,
                seed,
                window,
                duplicate=duplicate,
                on_hand=lambda count: progress.advance(task, count),
            )
    except (ExecutorError, UnknownStrategyError) as error:
        raise fail(str(error)) from None
    except MatchError as error:
        raise fail(str(error), status=FAILED) from None
    elapsed = time.perf_counter() - started
    played = f"{plural(hands, 'deal')}, duplicate" if duplicate else plural(hands, "hand")
    title = f"learning curves against {opponent} ({game}, {played}, seed {seed})"
    print_table(curves_table(curves, f"against {opponent}: {played}, seed {seed}, {elapsed:.0f} s", unit))
    try:
        if json_path is not None:
            options = {
                "opponent": opponent,
                "game": game,
                "hands": hands,
                "window": window,
                "seed": seed,
                "duplicate": duplicate,
                "seconds": round(elapsed, 1),
            }
            json_path.write_text(json.dumps(_report(curves, options), indent=2) + "\n", encoding="utf-8")
        if plot is not None:
            write_curves_plot(curves, plot, title, unit)
    except OSError as error:
        raise fail(f"cannot write output: {error}") from None
    announce([json_path, plot])


__all__ = [
    "DEFAULT_PLAYERS",
    "Curve",
    "Window",
    "learning_chunks",
    "learning_curves",
    "run_learning_curves",
    "win_rate_windows",
    "write_curves_plot",
]
