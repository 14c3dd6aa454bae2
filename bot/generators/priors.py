"""The builder of the shipped default priors (``models/data/*.prior``).

It plays self-play logs of the styled population and the baselines with
:func:`pokerbot.bot.matches.inprocess.run_inprocess_match` (every group of :data:`POPULATION`
of the game's size, pairs heads-up and triples in three-player games, plays ``--hands`` hands,
seats rotating) and trains the prior on them as ``pokerbot train-prior`` does
(:mod:`pokerbot.bot.cli.prior`). The shipped files were made with::

    python -m pokerbot.bot.generators.priors --seed 7 --hands 1000 --out models/data
    python -m pokerbot.bot.generators.priors --seed 7 --hands 200 --game holdem-nolimit-3p --game holdem-limit-3p \
        --out models/data

(about four minutes on one core for both heads-up games, nine for both three-player
games; the command, seed and row counts are also recorded in each prior's ``info``). The
builder is in ``bot`` rather than in ``models`` because it plays matches, which the layering
keeps out of ``models``.
"""

from __future__ import annotations

import itertools
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import typer

from pokerbot.bot.cli.errors import fail
from pokerbot.bot.cli.prior import prior_summary
from pokerbot.bot.matches.base import strategy_seed
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.models.config import PriorConfig
from pokerbot.models.errors import ModelError
from pokerbot.models.prior import DEFAULT_PRIOR_FILES, PriorTrainer, save_prior
from pokerbot.protocol.errors import GameDefinitionError
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
BUILD_COMMAND = "python -m pokerbot.bot.generators.priors --seed {seed} --hands {hands} --game {game} --out {out}"


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
        typer.echo(prior_summary(prior, path, time.perf_counter() - started))
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
    """``python -m pokerbot.bot.generators.priors``: run :func:`build_default_priors`."""
    typer.run(build_default_priors)


if __name__ == "__main__":
    main()
