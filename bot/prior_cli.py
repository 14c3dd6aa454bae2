"""``pokerbot train-prior`` and the builder of the shipped default priors.

``train-prior LOGS... --game GAME --out PRIOR`` grows the opponent-model prior trees
(:class:`models.prior.PriorTrainer`) from ACPC match logs, each hand from every player's
view in turn, and writes a prior file (magic header, format version, compressed pickle:
trusted input only).

The default priors in ``models/data/`` are built by this module's builder, which plays
self-play logs of the styled population and the baselines with
:func:`bot.match.run_inprocess_match` (every group of :data:`POPULATION` of the game's
size, pairs heads-up and triples in three-player games, plays ``--hands`` hands, seats
rotating) and trains on them. The shipped files were made with::

    python -m pokerbot.bot.prior_cli --seed 7 --hands 1000 --out models/data
    python -m pokerbot.bot.prior_cli --seed 7 --hands 200 --game holdem-nolimit-3p --game holdem-limit-3p \
        --out models/data

(about four minutes on one core for both heads-up games, nine for both three-player
games; the command, seed and row counts are also recorded in each prior's ``info``). The
builder lives here rather than in ``models`` because it plays matches, which the layering
keeps out of ``models``.
"""

from __future__ import annotations

import itertools
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import typer

from pokerbot.bot.match import run_inprocess_match, strategy_seed
from pokerbot.bot.outputs import OutputFolderError, fail, prepare_output
from pokerbot.models.config import PriorConfig
from pokerbot.models.errors import ModelError
from pokerbot.models.prior import DEFAULT_PRIOR_FILES, Prior, PriorTrainer, save_prior
from pokerbot.protocol.errors import GameDefinitionError, LogFormatError
from pokerbot.protocol.game import Game, load_game
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.registry import default_registry
from pokerbot.strategies.styled import STYLES, Switcher, make_styled

POPULATION: tuple[str, ...] = (
    *STYLES,
    Switcher.name,
    "random",
    "always-call",
    "always-raise",
    "push-fold",
)
"""The players of the default priors' self-play: every style and four baselines."""
DEFAULT_GAMES: tuple[str, ...] = ("holdem-nolimit-2p", "holdem-limit-2p")
BUILD_COMMAND = "python -m pokerbot.bot.prior_cli --seed {seed} --hands {hands} --game {game} --out {out}"


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
    typer.echo(_summary(prior, out, time.perf_counter() - started))


def _summary(prior: Prior, out: Path, seconds: float) -> str:
    info = prior.info
    return (
        f"{out}: {info['hands']} hands, {info['action_rows']} action rows, {info['showdown_rows']} showdown rows; "
        f"action tree {prior.action.n_leaves} leaves (depth {prior.action.depth()}), hand-strength tree "
        f"{prior.strength.n_leaves} leaves (depth {prior.strength.depth()}); "
        f"{out.stat().st_size:,} bytes, {seconds:.1f} s"
    )


def _player(name: str, game: Game, seed: int, hands: int) -> Strategy:
    if name == Switcher.name:
        return make_styled(name, game, seed, switch_hand=hands // 2)
    return default_registry().create(name, game, seed)


def self_play_logs(
    game: Game,
    game_name: str,
    hands: int,
    seed: int,
    folder: Path,
    population: Sequence[str] = POPULATION,
    on_group: Callable[[Sequence[str]], None] | None = None,
) -> list[Path]:
    """Play every group of ``game.num_players`` distinct members of ``population`` (every
    pair heads-up, every triple in three-player games) for ``hands`` hands in-process and
    write the logs to ``folder``; dealing and strategy seeds derive from ``seed``."""
    paths = []
    for names in itertools.combinations(population, game.num_players):
        group_seed = strategy_seed(seed, "/".join(names)) & 0xFFFFFFFF
        players = [_player(name, game, strategy_seed(group_seed, name), hands) for name in names]
        match_name = ".".join(names)
        path = folder / f"{match_name}.log"
        run_inprocess_match(
            game, hands, group_seed, players, list(names), log_path=path, match_name=match_name, game_name=game_name
        )
        paths.append(path)
        if on_group is not None:
            on_group(names)
    return paths


def build_default_prior(
    game_name: str, seed: int, hands: int, out_dir: Path, config: PriorConfig | None = None, quiet: bool = False
) -> Path:
    """Build and write the default prior of ``game_name`` (see the module docstring)."""
    game = load_game(game_name)
    file_name = DEFAULT_PRIOR_FILES[(game.betting, game.num_players)]
    trainer = PriorTrainer(game, config or PriorConfig(seed=seed))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        logs = self_play_logs(
            game,
            game_name,
            hands,
            seed,
            Path(folder),
            on_group=None if quiet else lambda names: typer.echo(f"  {game_name}: {' vs '.join(names)}", err=True),
        )
        for path in logs:
            with path.open(encoding="utf-8") as lines:
                trainer.add_log(lines, path.name)
    prior = trainer.finish(
        {
            "command": BUILD_COMMAND.format(seed=seed, hands=hands, game=game_name, out=out_dir),
            "seed": seed,
            "hands_per_group": hands,
            "population": list(POPULATION),
            "game": game_name,
        }
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / file_name
    save_prior(prior, path)
    if not quiet:
        typer.echo(_summary(prior, path, time.perf_counter() - started))
    return path


def build_default_priors(
    seed: int = typer.Option(7, "--seed", help="Master seed of the self-play matches."),
    hands: int = typer.Option(1000, "--hands", help="Hands per group of players (pair or triple)."),
    out: Path = typer.Option(Path("models/data"), "--out", help="Folder for the prior files."),
    games: list[str] = typer.Option(list(DEFAULT_GAMES), "--game", help="Games to build priors for."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress lines."),
) -> None:
    """Build the shipped default priors from styled and baseline self-play."""
    if hands < 1:
        raise fail("--hands must be positive")
    for game_name in games:
        try:
            build_default_prior(game_name, seed, hands, out, quiet=quiet)
        except (GameDefinitionError, KeyError) as error:
            raise fail(f"no default prior for {game_name}: {error}") from None
        except (ModelError, OSError) as error:
            raise fail(str(error)) from None


def main() -> None:
    """``python -m pokerbot.bot.prior_cli``: run :func:`build_default_priors`."""
    typer.run(build_default_priors)


if __name__ == "__main__":
    main()
