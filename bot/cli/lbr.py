"""``pokerbot exploitability GAME STRATEGY --method lbr``: local best response against a
registry strategy, with a progress bar, on the executor, kept in a checkpoint folder if asked
(:func:`lbr_report`; :mod:`pokerbot.bot.cli.solve` parses the options)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, TextColumn, TimeElapsedColumn

from pokerbot.bot.cli.errors import fail
from pokerbot.bot.cli.outputs import write_json_report
from pokerbot.bot.cli.progress import LoggedProgress
from pokerbot.bot.lbr.checkpoint import LbrCheckpoint
from pokerbot.bot.lbr.matches import LbrResult, RegistryStrategy, lbr_matches, plan_lbr, run_lbr
from pokerbot.bot.matches.base import MatchError
from pokerbot.bot.matches.executor import ExecutorError, make_executor
from pokerbot.protocol.game import Game
from pokerbot.strategies.base import UnknownStrategyError
from pokerbot.strategies.exploit.lbr import LbrError, LbrSettings, plays_lbr
from pokerbot.strategies.registry import default_registry
from pokerbot.strategies.solvers.policy import describe_game


def lbr_report(
    game: str,
    game_def: Game,
    strategy: str,
    hands: int,
    seed: int,
    where: tuple[int | None, str | None, Path | None],
    match_hands: int | None,
    variants: dict[str, LbrSettings],
    json_out: str | None,
    quiet: bool,
) -> None:
    """Local best response against a registry strategy (module docstring), on the executor of
    ``where`` (``--jobs``, ``--address``; default: one job per core, at most one per match),
    kept in and resumed from ``where``'s checkpoint folder if any. With several ``variants``
    (name to settings) each plays the same deals, in a checkpoint subfolder of its own, and the
    report gives each and the highest: the lower bound."""
    jobs, address, folder = where

    try:
        default_registry().create(strategy, game_def, 0)  # a bad name fails here, in one line
    except UnknownStrategyError as error:
        raise fail(str(error)) from None
    if jobs is not None and jobs < 1:
        raise fail(f"--jobs must be positive, got {jobs}")
    if not plays_lbr(game_def):
        raise fail("LBR plays heads-up hold'em only (52 cards, two hole cards, five board cards)")
    if hands < 2 or hands % 2:
        raise fail(f"--hands must be a positive even number (each deal is played twice), got {hands}")
    several = len(variants) > 1
    results: dict[str, LbrResult] = {}
    for name, settings in variants.items():
        kept_in = folder / name if folder is not None and several else folder
        results[name] = _run(
            game,
            game_def,
            strategy,
            hands,
            seed,
            (jobs, address, kept_in),
            match_hands,
            settings,
            quiet,
            f"lbr {name} vs {strategy}" if several else f"lbr vs {strategy}",
        )
    if not several:
        result = next(iter(results.values()))
        if json_out is not None:
            write_json_report(result.to_dict(), json_out)
            if json_out == "-":
                return
        typer.echo(f"game: {game} ({describe_game(game_def)})")
        typer.echo(f"strategy: {strategy}; {result.hands} hands ({result.deals} deals in duplicate), seed {seed}")
        typer.echo(
            f"LBR wins {result.mbb_per_hand:+,.0f} ± {result.mbb_per_hand_ci95:,.0f} mbb/hand "
            f"(95% interval): a lower bound on the exploitability of {strategy}"
        )
        resumed = f" (and {result.resumed_hands} hands resumed from {folder})" if result.resumed_hands else ""
        typer.echo(
            f"{result.seconds:.1f} s, {result.hands_per_second:.2f} hands/s{resumed}, "
            f"{result.queries_per_hand:.1f} questions/hand"
        )
        return
    best = max(results, key=lambda name: results[name].mbb_per_hand)
    if json_out is not None:
        report = {
            "game": game,
            "strategy": strategy,
            "seed": seed,
            "hands": hands,
            "variants": {name: result.to_dict() for name, result in results.items()},
            "maximum": {
                "variant": best,
                "mbb_per_hand": results[best].mbb_per_hand,
                "mbb_per_hand_ci95": results[best].mbb_per_hand_ci95,
            },
        }
        write_json_report(report, json_out)
        if json_out == "-":
            return
    typer.echo(f"game: {game} ({describe_game(game_def)})")
    typer.echo(f"strategy: {strategy}; {hands} hands ({hands // 2} deals in duplicate) per variant, seed {seed}")
    for name, result in results.items():
        betting = result.settings.get("betting") or ""
        typer.echo(
            f"  {name:<12} {betting:<16} {result.mbb_per_hand:+10,.0f} ± {result.mbb_per_hand_ci95:,.0f} mbb/hand"
        )
    typer.echo(
        f"LBR wins at most {results[best].mbb_per_hand:+,.0f} ± {results[best].mbb_per_hand_ci95:,.0f} mbb/hand "
        f"({best}): the highest variant, a lower bound on the exploitability of {strategy}"
    )


def _run(
    game: str,
    game_def: Game,
    strategy: str,
    hands: int,
    seed: int,
    where: tuple[int | None, str | None, Path | None],
    match_hands: int | None,
    settings: LbrSettings,
    quiet: bool,
    description: str,
) -> LbrResult:
    """One LBR run with its progress bar (see :func:`lbr_report`)."""
    jobs, address, folder = where
    console = Console(stderr=True)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} hands"),
        TimeElapsedColumn(),
    )
    kept = LbrCheckpoint(str(folder)) if folder is not None else None
    run: dict[str, Any] = {
        "settings": settings,
        "match_hands": match_hands,
        "strategy_name": strategy,
        "game_name": game,
        "checkpoint": kept,
    }
    done = 0
    if kept is not None:
        try:  # the checkpoint is checked (and its hands counted) before Ray starts
            done = kept.hands_done(len(plan_lbr(game_def, RegistryStrategy(strategy), hands, seed, **run)))
        except LbrError as error:
            raise fail(str(error)) from None
        if done:
            typer.echo(f"resuming from {folder}: {done} of {hands} hands already played", err=True)
    resume_note = f"; the same command resumes it from {folder}" if folder is not None else ""
    if jobs is None and address is None:
        jobs = max(1, min(os.cpu_count() or 1, lbr_matches(hands, match_hands)))
    try:
        executor = make_executor(jobs, address)
    except ExecutorError as error:  # Ray missing, no cluster there: nothing played yet
        raise fail(str(error), "--address" if address else "--jobs") from None
    try:
        with executor, LoggedProgress(*columns, console=console, transient=False, disable=quiet) as progress:
            task = progress.add_task(description, total=hands, completed=done)
            return run_lbr(
                game_def,
                RegistryStrategy(strategy),
                hands,
                seed,
                executor=executor,
                on_hand=lambda: progress.advance(task),
                **run,
            )
    except (LbrError, MatchError) as error:
        raise fail(str(error)) from None
    except ExecutorError as error:  # Ray lost mid-run: what the checkpoint kept is kept
        raise fail(f"{error}{resume_note}") from None
    except KeyboardInterrupt:
        typer.echo(f"interrupted{resume_note}", err=True)
        raise typer.Exit(130) from None


__all__ = ["lbr_report"]
