"""``pokerbot abstraction build``: fit the distribution-aware card abstraction and build its
deal tables.

``build OUT.npz --buckets F,T,R --seed S [--deals DEALS.npz --boards N --deals-seed D]`` fits
the flop, turn and river buckets (:mod:`pokerbot.strategies.card_abstraction.distribution`)
and saves them to ``OUT.npz``; when ``OUT.npz`` exists it is read instead (a second run only
adds deal tables). With ``--deals`` it then buckets every holding on ``N`` seeded boards (the
boards of ``pokerbot solve --buckets N --deals-seed D``'s EHS tables) and saves the deal
tables that ``pokerbot solve --buckets kmeans:OUT.npz --deals DEALS.npz`` trains on.

:func:`load_abstraction` and :func:`deal_tables` are ``solve``'s side: the abstraction named
by ``kmeans`` (the shipped one) or ``kmeans:FILE``, its deal tables read from ``--deals`` or
built there first. Bad input exits with status 2 and a one-line message on stderr.
"""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from pokerbot.bot.cli.errors import fail
from pokerbot.bot.cli.progress import LoggedProgress
from pokerbot.protocol.errors import GameDefinitionError
from pokerbot.protocol.game import Game, load_game
from pokerbot.strategies.card_abstraction.abstraction import AbstractionError, DistributionAbstraction
from pokerbot.strategies.card_abstraction.distribution import (
    DEFAULT_QUANTILES,
    build_deal_tables,
    fit_distribution_abstraction,
    load_deal_tables,
    save_deal_tables,
    shipped_abstraction,
)
from pokerbot.strategies.card_abstraction.tables import DealTables, TablesError

PREFIX = "kmeans"
"""``--buckets kmeans`` (the shipped abstraction) or ``--buckets kmeans:FILE``."""

abstraction_app = typer.Typer(help="Build the distribution-aware (k-means) card abstraction.", no_args_is_help=True)


def _columns() -> tuple[object, ...]:
    return (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )


def _counts(text: str, what: str, size: int = 3) -> tuple[int, ...]:
    """``N`` (the same in every round) or ``A,B,C``, positive integers."""
    parts = text.split(",")
    if len(parts) == 1:
        parts = parts * size
    if len(parts) != size or not all(p.strip().isdigit() and int(p) > 0 for p in parts):
        raise AbstractionError(f"{what} takes one positive count or {size} separated by commas, got {text!r}")
    return tuple(int(p) for p in parts)


def is_distribution(buckets: str) -> bool:
    """True when ``--buckets`` names a distribution abstraction (``kmeans`` or ``kmeans:FILE``)."""
    return buckets == PREFIX or buckets.startswith(PREFIX + ":")


def load_abstraction(buckets: str, game: Game) -> DistributionAbstraction:
    """The abstraction named by ``--buckets kmeans`` or ``kmeans:FILE``."""
    if buckets == PREFIX:
        return shipped_abstraction(game)
    path = Path(buckets[len(PREFIX) + 1 :])
    if not path.exists():
        raise AbstractionError(f"no abstraction file {path} (pokerbot abstraction build {path} makes one)")
    return DistributionAbstraction.load(path, game)


def deal_tables(abstraction: DistributionAbstraction, deals: Path, boards: int, seed: int) -> DealTables:
    """The deal tables of ``abstraction`` in ``deals``, built and saved there first when missing."""
    if deals.exists():
        return load_deal_tables(deals, abstraction)
    with LoggedProgress(*_columns(), console=Console(stderr=True)) as progress:
        task = progress.add_task(f"buckets of every holding on {boards} boards", total=boards)
        tables = build_deal_tables(abstraction, boards, seed, lambda done: progress.update(task, completed=done))
    save_deal_tables(tables, deals, abstraction, seed)
    return tables


@abstraction_app.command("build")
def build(
    out: Path = typer.Argument(..., help="The abstraction file (.npz): written, or read when it exists."),
    buckets: str = typer.Option("200", "--buckets", help="Buckets on the flop, turn and river: N or F,T,R."),
    quantiles: int = typer.Option(DEFAULT_QUANTILES, "--quantiles", help="Slices of the equity distributions."),
    fit_boards: str = typer.Option("1000,2000,2000", "--fit-boards", help="Sampled boards to fit: N or F,T,R."),
    holdings: int = typer.Option(200, "--holdings", help="Sampled holdings per fitting board (1..1081)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the fitting samples and of k-means."),
    deals: Path | None = typer.Option(None, "--deals", help="Also build the deal tables for training here."),
    boards: int = typer.Option(10_000, "--boards", help="Boards of the deal tables."),
    deals_seed: int = typer.Option(0, "--deals-seed", help="Seed of the deal tables' boards."),
) -> None:
    """Fit the k-means card abstraction (or read OUT) and build its deal tables for training."""
    started = time.perf_counter()
    try:
        game = load_game("holdem-nolimit-2p")
        counts = _counts(buckets, "--buckets")
        sample_boards = _counts(fit_boards, "--fit-boards")
        if quantiles < 1 or not 1 <= holdings <= 1081 or boards < 1:
            raise AbstractionError("--quantiles and --boards must be positive, --holdings 1..1081")
        if deals is not None and deals.exists():
            raise AbstractionError(f"{deals} exists: remove it or choose another file for new deal tables")
        if out.exists():
            abstraction = DistributionAbstraction.load(out, game)
            if abstraction.num_buckets[1:] != counts:
                raise AbstractionError(
                    f"{out} holds an abstraction of {abstraction.num_buckets[1:]} buckets, not {counts}: "
                    "remove it or choose another file"
                )
            typer.echo(f"{out}: read (buckets {abstraction.num_buckets})")
        else:
            with LoggedProgress(*_columns(), console=Console(stderr=True)) as progress:
                tasks: dict[str, object] = {}

                def report(stage: str, done: int, total: int) -> None:
                    if stage not in tasks:
                        tasks[stage] = progress.add_task(stage, total=total)
                    progress.update(tasks[stage], completed=done, total=total)  # type: ignore[arg-type]

                abstraction = fit_distribution_abstraction(
                    game,
                    (counts[0], counts[1], counts[2]),
                    quantiles=quantiles,
                    boards=(sample_boards[0], sample_boards[1], sample_boards[2]),
                    holdings=holdings,
                    seed=seed,
                    progress=report,
                )
            abstraction.save(out)
            typer.echo(f"{out}: fitted (buckets {abstraction.num_buckets}, {time.perf_counter() - started:.0f} s)")
        if deals is not None:
            deal_tables(abstraction, deals, boards, deals_seed)
            typer.echo(f"{deals}: deal tables on {boards} boards (seed {deals_seed})")
    except (GameDefinitionError, AbstractionError, TablesError) as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"cannot write: {error}", status=1) from None
    typer.echo(f"done in {time.perf_counter() - started:.0f} s")


__all__ = ["PREFIX", "abstraction_app", "deal_tables", "is_distribution", "load_abstraction"]
