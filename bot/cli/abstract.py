"""Abstract-game commands: ``pokerbot solve GAME --buckets ...``, ``pokerbot train-rnr``,
and ``pokerbot exploitability GAME POLICY.npz``.

``solve GAME --buckets N|exact --algorithm os-mccfr|es-mccfr|mcts|mcrnr --iterations N --out
POLICY.npz`` trains on the abstract game (hold'em: ``N`` EHS buckets per round, ``--scheme
width|percentile``; small games: ``exact``). Hold'em deals come from ``--deals TABLES.npz``,
built there first when missing (``--boards`` boards from ``--deals-seed``, about 0.1 s a
board). ``--checkpoint FILE`` resumes the run saved there (if it exists) and saves it every
``--checkpoint-every`` iterations; ``--snapshots DIR`` also writes the policy at each of
those points (for exploitability curves). A fixed ``--seed`` reproduces a run.

``solve GAME --buckets ... --algorithm es-mccfr --rule linear|dcfr|cfr`` trains a blueprint
instead (:mod:`pokerbot.strategies.abstract.training`: discounted external sampling with
negative-regret pruning after ``--prune-after`` iterations, float32 tables, an 8-bit policy
file): ``--jobs N`` workers on a local Ray, or ``--address`` a Ray cluster's workers, each
running its share of every ``--sync-every`` iterations on its own copy of the tables, summed at
each sync; ``--actions blueprint`` the no-limit betting abstraction. Every checkpoint prints a
line with iterations a second, the sync cost and the abstract exploitability estimate
(``--estimate-deals`` deals; a responder remembering one round of buckets), also appended to
``--curve FILE.json``.

``train-rnr LOGS... --game G --player NAME --buckets N --out MODEL.npz`` learns Ponsen, de Jong and Lanctot's (2011)
opponent model (a tree per round) from ACPC logs and writes it as a policy table of the
abstract game, the ``--model`` of ``solve --algorithm mcrnr``.

Bad input exits with status 2 and a one-line message on stderr.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from pokerbot.bot.cli.card_abstraction import deal_tables as distribution_tables
from pokerbot.bot.cli.card_abstraction import is_distribution, load_abstraction
from pokerbot.bot.cli.errors import fail
from pokerbot.bot.cli.outputs import write_json_report
from pokerbot.bot.cli.progress import LoggedProgress
from pokerbot.bot.matches.executor import ExecutorError, Progress, make_executor
from pokerbot.models.errors import ModelDataError
from pokerbot.models.round_trees import learn_from_logs
from pokerbot.protocol.errors import GameDefinitionError
from pokerbot.protocol.game import Game, load_game
from pokerbot.strategies.abstract.best_response import exploitability as abstract_exploitability
from pokerbot.strategies.abstract.betting import SIZINGS
from pokerbot.strategies.abstract.game import AbstractGame
from pokerbot.strategies.abstract.opponent import model_table
from pokerbot.strategies.abstract.policy import AbstractPolicy, AbstractPolicyError
from pokerbot.strategies.abstract.solver import ALGORITHMS, AbstractSolver, AbstractSolverError
from pokerbot.strategies.abstract.training import (
    Trainer,
    TrainingError,
    TrainingSettings,
    WorkOrder,
    WorkResult,
    run_order,
)
from pokerbot.strategies.card_abstraction.abstraction import (
    SCHEMES,
    AbstractionError,
    DistributionAbstraction,
    EhsAbstraction,
    ExactAbstraction,
)
from pokerbot.strategies.card_abstraction.distribution import load_deal_tables
from pokerbot.strategies.card_abstraction.tables import EhsTables, TablesError, build_ehs_tables

DEFAULT_BOARDS = 10_000


class CommandError(ValueError):
    """Bad input for an abstract-game command (the message is shown as is)."""


def _columns() -> tuple[object, ...]:
    return (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )


def load_tables(path: Path, boards: int, seed: int) -> EhsTables:
    """EHS tables from ``path``, built and saved there first when the file does not exist."""
    if path.exists():
        return EhsTables.load(path)
    with LoggedProgress(*_columns(), console=Console(stderr=True)) as progress:
        task = progress.add_task(f"EHS of every hand on {boards} boards", total=boards, status="")
        tables = build_ehs_tables(boards, seed, lambda done: progress.update(task, completed=done))
    tables.save(path)
    return tables


def make_game(
    game: Game,
    buckets: str,
    scheme: str,
    deals: Path | None,
    boards: int,
    deals_seed: int,
    actions: str | None = None,
) -> AbstractGame:
    """The abstract game of ``buckets`` (a count, ``exact``, or ``kmeans[:FILE]``) and, in a
    no-limit game, the named betting abstraction ``actions`` (:data:`SIZINGS`; None: the default)."""
    sizing = None
    if actions is not None:
        if actions not in SIZINGS:
            raise CommandError(f"unknown --actions {actions!r}: choose from {', '.join(SIZINGS)}")
        if not game.is_nolimit:
            raise CommandError("--actions names a no-limit betting abstraction")
        sizing = SIZINGS[actions]
    if buckets == "exact":
        return AbstractGame.build(ExactAbstraction(game), sizing=sizing)
    if is_distribution(buckets):
        if deals is None:
            raise CommandError("k-means buckets need --deals DEALS.npz (built there when missing)")
        abstraction = load_abstraction(buckets, game)
        return AbstractGame.build(abstraction, distribution_tables(abstraction, deals, boards, deals_seed), sizing)
    if not buckets.isdigit() or int(buckets) < 1:
        raise CommandError(f"--buckets takes a positive count, 'exact' or 'kmeans[:FILE]', got {buckets!r}")
    if scheme not in SCHEMES:
        raise CommandError(f"unknown --scheme {scheme!r}: choose from {', '.join(SCHEMES)}")
    if deals is None:
        raise CommandError("hold'em buckets need --deals TABLES.npz (built there when missing)")
    source = load_tables(deals, boards, deals_seed)
    return AbstractGame.build(EhsAbstraction.create(game, int(buckets), scheme, source), source, sizing)


def run_solve(
    game_name: str,
    algorithm: str,
    iterations: int,
    out: Path,
    seed: int,
    buckets: str,
    scheme: str,
    deals: Path | None,
    boards: int,
    deals_seed: int,
    checkpoint: Path | None,
    checkpoint_every: int,
    snapshots: Path | None,
    epsilon: float,
    exploration: float | None,
    model: Path | None,
    p: float,
    actions: str | None = None,
) -> None:
    """``pokerbot solve ... --buckets`` (see the module docstring)."""
    try:
        if algorithm not in ALGORITHMS:
            raise CommandError(
                f"unknown algorithm {algorithm!r} for abstract games: choose from {', '.join(ALGORITHMS)}"
            )
        if iterations < 1 or checkpoint_every < 1:
            raise CommandError("--iterations and --checkpoint-every must be positive")
        game = load_game(game_name)
        abstract = make_game(game, buckets, scheme, deals, boards, deals_seed, actions)
        table = None
        if algorithm == "mcrnr":
            if model is None:
                raise CommandError("mcrnr needs --model MODEL.npz (pokerbot train-rnr)")
            table = AbstractPolicy.load(model, game).probabilities
        if checkpoint is not None and checkpoint.exists():
            solver = AbstractSolver.load(checkpoint, abstract)
        else:
            solver = AbstractSolver(
                abstract, algorithm, seed, epsilon=epsilon, exploration=exploration, model=table, p=p
            )
        if snapshots is not None:
            snapshots.mkdir(parents=True, exist_ok=True)
    except (
        CommandError,
        GameDefinitionError,
        AbstractionError,
        TablesError,
        AbstractSolverError,
        AbstractPolicyError,
        OSError,
    ) as error:
        raise fail(str(error)) from None

    def on_chunk(run: AbstractSolver) -> None:
        progress.update(task, completed=run.iterations, status=f"{run.iterations / max(run.seconds, 1e-9):,.0f} it/s")
        if run.iterations % checkpoint_every == 0 or run.iterations == iterations:
            if not console.is_terminal:  # a log file gets one line per checkpoint instead of a bar
                typer.echo(f"{run.iterations} iterations, {run.seconds:.0f} s solver time", err=True)
            if checkpoint is not None:
                run.save(checkpoint)
            if snapshots is not None:
                run.policy().save(snapshots / f"policy-{run.iterations:012d}.npz")

    chunk = min(checkpoint_every, 1_000_000)
    console = Console(stderr=True)
    with LoggedProgress(*_columns(), console=console) as progress:
        task = progress.add_task(f"{algorithm} on {game_name}", total=iterations, status="")
        progress.update(task, completed=solver.iterations)
        solver.run(iterations, chunk=chunk, on_chunk=on_chunk)
    policy = solver.policy()
    policy.meta["game_name"] = game_name
    try:
        policy.save(out)
    except OSError as error:
        raise fail(f"cannot write {out}: {error}") from None
    typer.echo(
        f"{algorithm} on {game_name} (abstract game: {abstract.tree.num_nodes:,} nodes, "
        f"{abstract.tree.num_infosets:,} information sets): {solver.iterations:,} iterations, "
        f"{solver.seconds:.1f} s solver time, {solver.iterations / max(solver.seconds, 1e-9):,.0f} iterations/s"
    )
    typer.echo(f"policy: {out}")


def train_rnr(
    logs: list[Path] = typer.Argument(..., help="ACPC log files (STATE lines) holding the player's hands."),
    game: str = typer.Option(..., "--game", "-g", help="The game of the logs (built-in name or file)."),
    player: str = typer.Option(..., "--player", help="The name of the player to model, as in the logs."),
    out: Path = typer.Option(..., "--out", "-o", help="Where to write the model (a policy table, .npz)."),
    buckets: str = typer.Option("10", "--buckets", help="Buckets per round (hold'em, equal width) or 'exact'."),
    cards: str = typer.Option("showdown", "--cards", help="When the bucket is known: showdown or all."),
) -> None:
    """Learn Ponsen, de Jong and Lanctot's (2011) opponent model (a tree per round) from ACPC logs, for MCRNR."""
    try:
        game_def = load_game(game)
        if cards not in ("showdown", "all"):
            raise CommandError(f"--cards must be showdown or all, got {cards!r}")
        if buckets == "exact":
            abstraction: EhsAbstraction | ExactAbstraction = ExactAbstraction(game_def)
        elif buckets.isdigit() and int(buckets) > 0:
            abstraction = EhsAbstraction.create(game_def, int(buckets), "width")
        else:
            raise CommandError(f"--buckets takes a positive count or 'exact', got {buckets!r}")
        started = time.perf_counter()
        lines = (line for path in logs for line in path.read_text(encoding="utf-8").splitlines())
        model, hands = learn_from_logs(lines, game_def, player, abstraction.bucket, cards)
        from pokerbot.strategies.abstract.betting import build_betting_tree

        tree = build_betting_tree(game_def, abstraction.num_buckets)
        meta = {"model_of": player, "hands": hands, "cards": cards, **model.summary()}
        AbstractPolicy(tree, abstraction, model_table(tree, model), meta).save(out)
    except (CommandError, GameDefinitionError, AbstractionError, ModelDataError, OSError) as error:
        raise fail(str(error)) from None
    typer.echo(
        f"model of {player}: {hands} hands, decisions per round {model.rows}, "
        f"leaves per round {model.summary()['leaves']} ({time.perf_counter() - started:.1f} s); wrote {out}"
    )


def abstract_report(
    game_name: str,
    policy_path: Path,
    deals: Path | None,
    samples: int,
    seed: int,
    json_out: str | None = None,
    memory: int | None = None,
) -> None:
    """``pokerbot exploitability GAME POLICY.npz``: abstract exploitability (see
    :mod:`pokerbot.strategies.abstract.best_response`; ``memory``: rounds of its own buckets
    the responder remembers, None for all); ``json_out``: also write the report as JSON to
    this file (``-``: print only the JSON)."""
    try:
        game = load_game(game_name)
        policy = AbstractPolicy.load(policy_path, game)
        if isinstance(policy.abstraction, ExactAbstraction):
            abstract = AbstractGame.build(policy.abstraction)
        elif isinstance(policy.abstraction, DistributionAbstraction):
            if deals is None or not deals.exists():
                raise CommandError("k-means policies need --deals DEALS.npz (their deal tables)")
            abstract = AbstractGame.build(policy.abstraction, load_deal_tables(deals, policy.abstraction))
        else:
            if deals is None or not deals.exists():
                raise CommandError("hold'em policies need --deals TABLES.npz (an existing EHS tables file)")
            abstract = AbstractGame.build(policy.abstraction, EhsTables.load(deals))
        started = time.perf_counter()
        report = abstract_exploitability(abstract, policy.probabilities, samples, seed, memory)
    except (CommandError, GameDefinitionError, AbstractionError, TablesError, AbstractPolicyError, OSError) as error:
        raise fail(str(error)) from None
    scale = 1000.0 / game.big_blind
    data = {
        "game": game_name,
        "policy": str(policy_path),
        "meta": policy.meta,
        "exact": report.exact,
        "deals": report.deals,
        "memory": memory,
        "best_response_upper": list(report.upper),
        "best_response_lower": list(report.lower),
        "exploitability_upper_mbb": report.exploitability_upper * scale,
        "exploitability_lower_mbb": report.exploitability_lower * scale,
        "seconds": round(time.perf_counter() - started, 1),
    }
    if json_out is not None:
        write_json_report(data, json_out)
        if json_out == "-":
            return
    if report.exact:
        typer.echo(f"exploitability: {report.exploitability_upper:.6f} chips/hand (exact)")
    else:
        typer.echo(
            f"abstract exploitability: {data['exploitability_lower_mbb']:.1f} .. "
            f"{data['exploitability_upper_mbb']:.1f} mbb/hand "
            f"(best response fitted on {samples:,} deals, played on another {samples:,}"
            f"{'' if memory is None else f'; it remembers its buckets of the last {memory} round(s)'})"
        )
    for position in (0, 1):
        typer.echo(
            f"position {position} best response: {report.lower[position]:+.4f} .. "
            f"{report.upper[position]:+.4f} chips/hand"
        )


def _train_task(order: WorkOrder, progress: Progress) -> WorkResult:
    """One worker's share of a sync (a task of the executor: on Ray, a copy of the tables)."""
    result = run_order(order)
    progress(order.count)
    return result


def run_train(
    game_name: str,
    rule: str,
    iterations: int,
    out: Path,
    seed: int,
    buckets: str,
    scheme: str,
    deals: Path | None,
    boards: int,
    deals_seed: int,
    checkpoint: Path | None,
    checkpoint_every: int,
    snapshots: Path | None,
    actions: str | None,
    settings: TrainingSettings,
    jobs: int,
    address: str | None,
    estimate_deals: int,
    curve: Path | None,
) -> None:
    """``pokerbot solve ... --buckets ... --algorithm es-mccfr --rule R`` (the module docstring)."""
    try:
        if iterations < 1 or checkpoint_every < 1 or estimate_deals < 0:
            raise CommandError("--iterations and --checkpoint-every must be positive, --estimate-deals at least 0")
        if checkpoint_every % settings.sync_every:
            raise CommandError("--sync-every must divide --checkpoint-every")
        game = load_game(game_name)
        abstract = make_game(game, buckets, scheme, deals, boards, deals_seed, actions)
        if checkpoint is not None and checkpoint.exists():
            trainer = Trainer.load(checkpoint, abstract)
        else:
            trainer = Trainer(abstract, replace(settings, rule=rule), seed, jobs)
        if snapshots is not None:
            snapshots.mkdir(parents=True, exist_ok=True)
        executor = make_executor(trainer.workers, address)
    except (
        CommandError,
        GameDefinitionError,
        AbstractionError,
        TablesError,
        TrainingError,
        ExecutorError,
        OSError,
    ) as error:
        raise fail(str(error)) from None
    scale = 1000.0 / game.big_blind
    tree = abstract.tree
    typer.echo(
        f"blueprint training on {game_name}: {tree.num_nodes:,} nodes, {tree.num_infosets:,} information sets, "
        f"tables {trainer.memory_bytes / 2**20:,.0f} MB; {trainer.workers} worker(s) on {executor.description}",
        err=True,
    )
    wall_started = time.perf_counter()
    sync_overhead = 0.0
    console = Console(stderr=True)
    with executor, LoggedProgress(*_columns(), console=console) as progress:
        task = progress.add_task(f"es-mccfr ({trainer.settings.rule}) on {game_name}", total=iterations, status="")
        progress.update(task, completed=trainer.iterations)
        while trainer.iterations < iterations:
            orders = trainer.orders(iterations)
            started = time.perf_counter()
            results = executor.map(_train_task, orders)
            trainer.merge(orders, results)
            sync_overhead += time.perf_counter() - started - max(r.seconds for r in results)
            rate = trainer.iterations / max(trainer.seconds, 1e-9)
            progress.update(task, completed=trainer.iterations, status=f"{rate:,.0f} it/s")
            if trainer.iterations % checkpoint_every and trainer.iterations < iterations:
                continue
            if checkpoint is not None:
                trainer.save(checkpoint)
            if snapshots is not None:
                trainer.policy().save(snapshots / f"policy-{trainer.iterations:012d}.npz", compact=True)
            point: dict[str, object] = {
                "iterations": trainer.iterations,
                "solver_seconds": round(trainer.seconds, 1),
                "wall_seconds": round(time.perf_counter() - wall_started, 1),
                "iterations_per_second": round(rate),
                "sync_seconds": round(sync_overhead + trainer.sync_seconds, 2),
            }
            line = f"{trainer.iterations:,} iterations, {rate:,.0f} it/s, sync {point['sync_seconds']} s in all"
            if estimate_deals:
                report = abstract_exploitability(abstract, trainer.average(), estimate_deals, seed + 7, 1)
                low, high = report.exploitability_lower * scale, report.exploitability_upper * scale
                point.update(exploitability_lower_mbb=round(low, 1), exploitability_upper_mbb=round(high, 1))
                line += f", abstract exploitability {low:,.0f} .. {high:,.0f} mbb/hand"
            typer.echo(line, err=True)
            if curve is not None:
                with curve.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(point) + "\n")
    policy = trainer.policy()
    policy.meta["game_name"] = game_name
    try:
        policy.save(out, compact=True)
    except OSError as error:
        raise fail(f"cannot write {out}: {error}") from None
    typer.echo(
        f"es-mccfr ({trainer.settings.rule}) on {game_name}: {trainer.iterations:,} iterations, "
        f"{trainer.seconds:.1f} s solver time, {trainer.iterations / max(trainer.seconds, 1e-9):,.0f} iterations/s"
    )
    typer.echo(f"policy: {out}")


__all__ = ["DEFAULT_BOARDS", "abstract_report", "load_tables", "make_game", "run_solve", "run_train", "train_rnr"]
