"""``pokerbot solve`` and ``pokerbot exploitability``: solve small games, measure policies.

``solve GAME --algorithm A (--iterations N | --seconds S) --out POLICY.json [--seed S]
[--plot PNG] [--rule R] [--samples K]`` runs a solver from :mod:`pokerbot.strategies.solvers` with a progress bar
showing
exploitability checkpoints, writes the average policy as JSON and optionally a log-log plot
of exploitability against iterations and solver seconds.

``exploitability GAME STRATEGY [--method exact|lbr] [--json OUT]`` measures how much a best
response wins:

* ``--method exact`` (the default in small games: Kuhn, Leduc, 3-player Kuhn): STRATEGY is a
  policy file or ``uniform``; prints NashConv, exploitability, each position's best-response
  value and the profile's value (chips per hand); an abstract policy (``.npz``, any game) gets
  its abstract exploitability (:func:`pokerbot.bot.cli.abstract.abstract_report`, ``--deals``,
  ``--samples``, ``--seed``);
* ``--method lbr`` (the default in heads-up hold'em): STRATEGY is a registry strategy
  (``miximax``, ``tight-aggressive:...``); plays local best response against it
  (:func:`pokerbot.bot.lbr.matches.run_lbr`: ``--hands`` in duplicate, ``--seed``, on every
  core, a progress bar) and prints LBR's winnings in mbb/hand with the 95% interval, a lower
  bound on the strategy's exploitability; ``--checkpoint DIR`` keeps the run's progress
  there, and the same command run again goes on where it stopped
  (:mod:`pokerbot.bot.lbr.checkpoint`).

``--json OUT`` writes the report as JSON (``-``: to standard output).

Bad input (unknown game, a game too large or no-limit, a policy for another game, a corrupt
policy file, bad options) exits with status 2 and a one-line message on stderr.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, TextColumn, TimeElapsedColumn

from pokerbot.bot.cli.errors import fail
from pokerbot.bot.cli.outputs import OutputFolderError, announce, prepare_output, write_json_report
from pokerbot.bot.cli.progress import LoggedProgress
from pokerbot.bot.matches.executor import ADDRESS_HELP, JOBS_HELP
from pokerbot.protocol.errors import GameDefinitionError
from pokerbot.protocol.game import Game, load_game
from pokerbot.strategies.exploit.lbr import LIMIT_VARIANTS, VARIANTS, LbrError, LbrSettings, parse_betting, plays_lbr
from pokerbot.strategies.regret import RULES
from pokerbot.strategies.solvers.errors import SolverError
from pokerbot.strategies.solvers.exploitability import evaluate
from pokerbot.strategies.solvers.policy import Policy, describe_game
from pokerbot.strategies.solvers.profile import missing_keys, uniform_policy
from pokerbot.strategies.solvers.solve import ALGORITHMS, Checkpoint, SolveResult
from pokerbot.strategies.solvers.solve import solve as run_solver
from pokerbot.strategies.solvers.tree import PublicTree, build_tree


def _load_tree(game_name: str) -> tuple[Game, PublicTree]:
    try:
        game = load_game(game_name)
        return game, build_tree(game)
    except (GameDefinitionError, SolverError) as error:
        raise fail(str(error)) from None


def solve(
    game: str = typer.Argument(..., help="A built-in game (kuhn, kuhn3p, leduc) or a game definition file."),
    algorithm: str = typer.Option("cfr+", "--algorithm", help=f"One of: {', '.join(ALGORITHMS)}."),
    iterations: int | None = typer.Option(None, "--iterations", "-i", help="Iterations to run."),
    seconds: float | None = typer.Option(None, "--seconds", help="Solver seconds to run (evaluations excluded)."),
    out: Path = typer.Option(..., "--out", "-o", help="Where to write the policy JSON."),
    seed: int | None = typer.Option(None, "--seed", help="Seed of the sampling solvers."),
    plot: Path | None = typer.Option(None, "--plot", help="Write a log-log convergence plot (PNG) here."),
    checkpoints: int = typer.Option(20, "--checkpoints", help="About how many exploitability evaluations."),
    rule: str | None = typer.Option(None, "--rule", help=f"Override the update rule: {', '.join(RULES)}."),
    samples: int | None = typer.Option(None, "--samples", help="Samples per iteration (os-mccfr, es-mccfr)."),
    buckets: str | None = typer.Option(
        None,
        "--buckets",
        help="Solve the abstract game: EHS buckets per round (hold'em), 'exact' (small games), or 'kmeans' / "
        "'kmeans:FILE' (the k-means card abstraction: pokerbot abstraction build).",
    ),
    scheme: str = typer.Option("width", "--scheme", help="With --buckets: width (equal width) or percentile."),
    deals: Path | None = typer.Option(
        None, "--deals", help="With --buckets: EHS tables, or k-means deal tables (built when missing)."
    ),
    boards: int = typer.Option(10_000, "--boards", help="Boards of new EHS or deal tables."),
    deals_seed: int = typer.Option(0, "--deals-seed", help="Seed of the boards of new EHS or deal tables."),
    checkpoint: Path | None = typer.Option(None, "--checkpoint", help="With --buckets: resume from / save to."),
    checkpoint_every: int = typer.Option(10_000_000, "--checkpoint-every", help="Iterations between checkpoints."),
    snapshots: Path | None = typer.Option(None, "--snapshots", help="With --buckets: a policy at each checkpoint."),
    epsilon: float = typer.Option(0.6, "--epsilon", help="With --buckets: exploration of os-mccfr and mcrnr."),
    exploration: float | None = typer.Option(None, "--exploration", help="MCTS's C in chips (17 big blinds)."),
    model: Path | None = typer.Option(None, "--model", help="mcrnr: the opponent model (pokerbot train-rnr)."),
    p: float = typer.Option(0.75, "--p", help="mcrnr: confidence in the model."),
    actions: str | None = typer.Option(
        None, "--actions", help="With --buckets, no-limit: the betting abstraction, pot (default) or blueprint."
    ),
    jobs: int = typer.Option(1, "--jobs", help="With --buckets and --rule: workers (more than 1 start Ray)."),
    address: str | None = typer.Option(None, "--address", help=f"With --buckets and --rule: {ADDRESS_HELP}"),
    prune_after: int | None = typer.Option(
        None, "--prune-after", help="With --rule: iterations before pruning (-1: never; default 2,000,000)."
    ),
    sync_every: int | None = typer.Option(
        None, "--sync-every", help="With --rule: iterations between the workers' syncs (default 1,000,000)."
    ),
    discount_every: int | None = typer.Option(
        None, "--discount-every", help="With --rule: iterations between discounts (default 1,000,000)."
    ),
    discount_until: int | None = typer.Option(
        None, "--discount-until", help="With --rule: no discount after this many (default 100,000,000)."
    ),
    estimate_deals: int = typer.Option(
        20_000, "--estimate-deals", help="With --rule: deals of the exploitability estimate at checkpoints (0: none)."
    ),
    curve: Path | None = typer.Option(None, "--curve", help="With --rule: append each checkpoint's figures (JSON)."),
) -> None:
    """Solve GAME with a CFR-family algorithm and write the average policy to --out."""
    if buckets is not None:
        from pokerbot.bot.cli.abstract import run_solve

        if iterations is None:
            raise fail("abstract games are solved for --iterations")
        if rule is not None:
            from pokerbot.bot.cli.abstract import run_train

            if algorithm != "es-mccfr":
                raise fail("--rule with --buckets trains with es-mccfr only")
            from pokerbot.strategies.abstract.training import TrainingSettings

            given = {
                "discount_every": discount_every, "discount_until": discount_until, "prune_after": prune_after,
                "sync_every": sync_every,
            }  # fmt: skip
            settings = TrainingSettings(rule=rule, **{k: v for k, v in given.items() if v is not None})
            run_train(
                game, rule, iterations, out, seed or 0, buckets, scheme, deals, boards, deals_seed, checkpoint,
                checkpoint_every, snapshots, actions, settings, jobs, address, estimate_deals, curve,
            )  # fmt: skip
            return
        run_solve(
            game, algorithm, iterations, out, seed or 0, buckets, scheme, deals, boards, deals_seed, checkpoint,
            checkpoint_every, snapshots, epsilon, exploration, model, p, actions,
        )  # fmt: skip
        return
    if algorithm not in ALGORITHMS:
        raise fail(f"unknown algorithm {algorithm!r}: choose from {', '.join(ALGORITHMS)}")
    if (iterations is None) == (seconds is None):
        raise fail("give exactly one of --iterations and --seconds")
    if (iterations is not None and iterations < 1) or (seconds is not None and seconds <= 0):
        raise fail("--iterations and --seconds must be positive")
    if checkpoints < 1:
        raise fail("--checkpoints must be positive")
    options: dict[str, Any] = {}
    if rule is not None:
        if rule not in RULES:
            raise fail(f"unknown rule {rule!r}: choose from {', '.join(RULES)}")
        options["rule"] = rule
    if samples is not None:
        if algorithm not in ("os-mccfr", "es-mccfr") or samples < 1:
            raise fail("--samples takes a positive number and applies to os-mccfr and es-mccfr only")
        options["samples"] = samples
    try:
        prepare_output(out)
        prepare_output(plot)
    except OutputFolderError as error:
        raise fail(str(error)) from None
    game_def, tree = _load_tree(game)
    console = Console(stderr=True)
    total = float(iterations if iterations is not None else seconds)  # type: ignore[arg-type]
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
    )
    with LoggedProgress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(f"{algorithm} on {game}", total=total, status="")

        def on_progress(done: int, elapsed: float) -> None:
            progress.update(task, completed=done if iterations is not None else min(elapsed, total))

        def on_checkpoint(point: Checkpoint) -> None:
            progress.update(task, status=f"it {point.iterations}  exploitability {point.exploitability:.6f}")

        try:
            result = run_solver(
                tree,
                algorithm,
                iterations=iterations,
                seconds=seconds,
                seed=seed,
                checkpoints=checkpoints,
                on_checkpoint=on_checkpoint,
                on_progress=on_progress,
                **options,
            )
        except SolverError as error:
            raise fail(str(error)) from None
        progress.update(task, completed=total)
    policy = result.policy.with_meta(game_name=game)
    try:
        policy.save(out)
        if plot is not None:
            write_plot(result, plot, f"{algorithm} on {game}")
    except OSError as error:
        raise fail(f"cannot write output: {error}") from None
    report = result.report
    typer.echo(
        f"{algorithm} on {game} ({describe_game(game_def)}): {result.iterations} iterations, "
        f"{result.seconds:.3f} s solver time"
    )
    typer.echo(f"exploitability {report.exploitability:.6f} chips/hand (NashConv {report.nash_conv:.6f})")
    typer.echo("values per position: " + ", ".join(f"{v:+.6f}" for v in report.values))
    typer.echo(f"policy: {out} ({len(policy)} information sets)")
    announce([out, plot])


def write_plot(result: SolveResult, path: Path, title: str) -> None:
    """A log-log plot of exploitability against iterations and against solver seconds."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = [c for c in result.checkpoints if c.exploitability > 0]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.loglog([c.iterations for c in points], [c.exploitability for c in points], marker="o")
    left.set_xlabel("iterations")
    right.loglog([max(c.seconds, 1e-6) for c in points], [c.exploitability for c in points], marker="o")
    right.set_xlabel("solver seconds")
    for axis in (left, right):
        axis.set_ylabel("exploitability (chips/hand)")
        axis.grid(True, which="both", alpha=0.3)
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


METHODS = ("auto", "exact", "lbr")


def exploitability(
    game: str = typer.Argument(..., help="A built-in game or a game definition file."),
    strategy: str = typer.Argument(
        ..., help="exact: a policy JSON file or 'uniform'; lbr: a strategy name (e.g. miximax, random)."
    ),
    method: str = typer.Option("auto", "--method", help="exact (small games), lbr (heads-up hold'em), or auto."),
    json_out: str | None = typer.Option(None, "--json", help="Write the report as JSON to this file ('-': print it)."),
    hands: int = typer.Option(3000, "--hands", "-n", help="lbr: hands to play (even: every deal twice)."),
    seed: int | None = typer.Option(
        None, "--seed", "-s", help="lbr: dealing seed (default 0); abstract policies: seed of the deal samples (12345)."
    ),
    jobs: int | None = typer.Option(
        None,
        "--jobs",
        "--workers",
        help=f"lbr: {JOBS_HELP} Default: every core, at most one per match.",
        show_default=False,
    ),
    address: str | None = typer.Option(None, "--address", help=f"lbr: {ADDRESS_HELP}"),
    match_hands: int | None = typer.Option(
        None, "--match-hands", help="lbr: deals per match (an adaptive strategy learns within one; default: all)."
    ),
    betting: str | None = typer.Option(
        None,
        "--betting",
        help="lbr: LBR's actions per round (default fc/fc/fcp/fcpa; f c p h a r s: fold call pot half all-in "
        "raise, s the paper's 56 sizes), or 'all': every variant on the same deals, and the highest.",
    ),
    variant: str | None = typer.Option(
        None,
        "--variant",
        help="lbr: one of the variants 'all' plays, alone (no-limit: fcp, fcpa, fc56, fcp-called; limit: fcr, "
        "fcr-called): one cell of the table, resumable with --checkpoint.",
    ),
    max_queries: int = typer.Option(
        24, "--max-queries", help="lbr: holdings asked per range update of a search-based strategy."
    ),
    exact_queries: bool = typer.Option(False, "--exact-queries", help="lbr: ask every holding, even of a search."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="lbr: no progress bar."),
    checkpoint: Path | None = typer.Option(
        None, "--checkpoint", help="lbr: keep the run's progress in this folder; run again to resume it."
    ),
    deals: Path | None = typer.Option(
        None, "--deals", help="Abstract (.npz) hold'em policies: the EHS tables (k-means policies: their deal tables)."
    ),
    samples: int = typer.Option(500_000, "--samples", help="Abstract hold'em policies: deals per sample."),
    memory: int | None = typer.Option(
        None,
        "--memory",
        help="Abstract policies: rounds of its own buckets the best response remembers (default: all; "
        "1 measures 100-bucket policies on samples that fit in memory).",
    ),
) -> None:
    """How much a best response wins against STRATEGY in GAME (exact, or local best response)."""
    if method not in METHODS:
        raise fail(f"unknown method {method!r}: choose from {', '.join(METHODS)}")
    if json_out not in (None, "-"):
        try:
            prepare_output(Path(json_out))  # before the work: a bad path never costs a finished run
        except OutputFolderError as error:
            raise fail(str(error)) from None
    if memory is not None and memory < 1:
        raise fail(f"--memory must be at least 1 round, got {memory}")
    if strategy.endswith(".npz") and method != "lbr":
        from pokerbot.bot.cli.abstract import abstract_report

        abstract_report(game, Path(strategy), deals, samples, 12345 if seed is None else seed, json_out, memory)
        return
    try:
        game_def = load_game(game)
    except GameDefinitionError as error:
        raise fail(str(error)) from None
    if method == "auto":
        method = "lbr" if plays_lbr(game_def) else "exact"
    if method == "exact":
        _exact(game, strategy, json_out)
        return
    if max_queries < 2:
        raise fail(f"--max-queries must be at least 2, got {max_queries}")
    try:
        if betting is not None and betting != "all":
            parse_betting(betting, game_def.num_rounds)
    except LbrError as error:
        raise fail(str(error)) from None
    table = VARIANTS if game_def.is_nolimit else LIMIT_VARIANTS
    if variant is not None:
        if betting is not None:
            raise fail("give --betting or --variant, not both")
        if variant not in table:
            raise fail(f"--variant {variant!r}: this game's variants are {', '.join(table)}")
        text, called = table[variant]
        variants = {
            "": LbrSettings(betting=text, called_equity=called, max_queries=max_queries, exact_queries=exact_queries)
        }
    elif betting == "all":
        variants = {
            name: LbrSettings(betting=text, called_equity=called, max_queries=max_queries, exact_queries=exact_queries)
            for name, (text, called) in table.items()
        }
    else:
        variants = {"": LbrSettings(betting=betting, max_queries=max_queries, exact_queries=exact_queries)}
    where = (jobs, address, checkpoint)
    from pokerbot.bot.cli.lbr import lbr_report

    lbr_report(game, game_def, strategy, hands, seed or 0, where, match_hands, variants, json_out, quiet)


def _exact(game: str, policy: str, json_out: str | None) -> None:
    """NashConv and the best-response values of a policy in a small game."""
    game_def, tree = _load_tree(game)
    try:
        loaded = uniform_policy(tree) if policy == "uniform" else Policy.load(policy, game_def)
        report = evaluate(tree, loaded)
    except SolverError as error:
        raise fail(str(error)) from None
    missing = len(missing_keys(tree, loaded))
    if json_out is not None:
        write_json_report(
            {"method": "exact", "game": game, "policy": policy, "missing_infosets": missing, **report.to_dict()},
            json_out,
        )
        if json_out == "-":
            return
    typer.echo(f"game: {game} ({describe_game(game_def)})")
    note = f", {missing} missing (played uniformly)" if missing else ""
    typer.echo(f"policy: {policy} ({len(loaded)} information sets{note})")
    typer.echo(f"NashConv:       {report.nash_conv:.6f} chips/hand")
    typer.echo(f"exploitability: {report.exploitability:.6f} chips/hand (NashConv / {tree.num_players} players)")
    typer.echo("position  value        best response")
    for position, (value, best) in enumerate(zip(report.values, report.best_response_values, strict=True)):
        typer.echo(f"{position:<9} {value:+.6f}   {best:+.6f}")


__all__ = ["METHODS", "exploitability", "solve", "write_plot"]
