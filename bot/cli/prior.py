"""``pokerbot train-prior``: grow the opponent-model prior trees from ACPC match logs.

``train-prior LOGS... --game GAME --out PRIOR`` grows the opponent-model prior trees
(:class:`models.prior.PriorTrainer`) from ACPC match logs, each hand from every player's
view in turn, and writes a prior file (magic header, format version, compressed pickle:
trusted input only). The shipped default priors are built by
:mod:`pokerbot.bot.generators.priors`.
"""

from __future__ import annotations

import time
from pathlib import Path

import typer

from pokerbot.bot.cli.errors import fail
from pokerbot.bot.cli.outputs import OutputFolderError, plural, prepare_output
from pokerbot.models.config import PriorConfig
from pokerbot.models.prior import Prior, PriorTrainer, save_prior
from pokerbot.protocol.errors import GameDefinitionError, LogFormatError
from pokerbot.protocol.game import load_game


def train_prior(
    logs: list[Path] = typer.Argument(..., help="ACPC match logs (the dealer's MATCHNAME.log files)."),
    game: str = typer.Option(..., "--game", "-g", help="The logs' game: a built-in name or a game file."),
    out: Path = typer.Option(..., "--out", "-o", help="Where to write the prior file."),
    tree: str = typer.Option("hoeffding", "--tree", help="hoeffding or adaptive (river's Hoeffding adaptive tree)."),
    grace_period: int = typer.Option(100, "--grace-period", help="Instances between split attempts at a leaf."),
    max_depth: int = typer.Option(20, "--max-depth", help="Deepest tree level."),
    split_confidence: float = typer.Option(
        1e-2, "--split-confidence", help="Hoeffding-bound delta (larger splits sooner)."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the adaptive tree's sampling."),
) -> None:
    """Train the opponent-model prior (action and hand-strength trees) from ACPC logs."""
    try:
        game_definition = load_game(game)
        config = PriorConfig(
            tree=tree,  # pydantic checks the value
            grace_period=grace_period,
            max_depth=max_depth,
            split_confidence=split_confidence,
            seed=seed,
        )
    except GameDefinitionError as error:
        raise fail(str(error)) from None
    except ValueError as error:
        raise fail(f"bad option: {error}") from None
    try:
        prepare_output(out)
    except OutputFolderError as error:
        raise fail(str(error)) from None
    trainer = PriorTrainer(game_definition, config)
    started = time.perf_counter()
    for path in logs:
        try:
            with path.open(encoding="utf-8") as lines:
                trainer.add_log(lines, str(path))
        except OSError as error:
            raise fail(f"cannot read {path}: {error.strerror or error}") from None
        except (LogFormatError, UnicodeDecodeError) as error:
            raise fail(str(error)) from None
    if trainer.hands == 0:
        raise fail("the logs hold no hands (no STATE lines)")
    command = (
        f"pokerbot train-prior {' '.join(str(p) for p in logs)} --game {game} --out {out} --tree {tree} "
        f"--grace-period {grace_period} --max-depth {max_depth} --split-confidence {split_confidence:g} --seed {seed}"
    )
    prior = trainer.finish({"command": command, "logs": [str(p) for p in logs]})
    try:
        save_prior(prior, out)
    except OSError as error:
        raise fail(f"cannot write {out}: {error.strerror or error}") from None
    typer.echo(prior_summary(prior, out, time.perf_counter() - started))


def prior_summary(prior: Prior, out: Path, seconds: float) -> str:
    """One line about the prior written to ``out`` in ``seconds``: hands, rows, trees, bytes."""
    info = prior.info
    return (
        f"{out}: {plural(info['hands'], 'hand')}, {plural(info['action_rows'], 'action row')}, "
        f"{plural(info['showdown_rows'], 'showdown row')}; "
        f"action tree {prior.action.n_leaves} leaves (depth {prior.action.depth()}), hand-strength tree "
        f"{prior.strength.n_leaves} leaves (depth {prior.strength.depth()}); "
        f"{out.stat().st_size:,} bytes, {seconds:.1f} s"
    )
