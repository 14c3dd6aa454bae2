"""Priors: training from logs, the model file format and its errors, the shipped priors,
and ``pokerbot train-prior``."""

from __future__ import annotations

import pickle
import zlib
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from pokerbot.bot.cli.prior import train_prior
from pokerbot.bot.generators.priors import build_default_priors, self_play_logs
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.models import persist
from pokerbot.models.config import PriorConfig
from pokerbot.models.errors import (
    CorruptModelFileError,
    ForeignModelFileError,
    ModelError,
    ModelFileError,
    ModelVersionError,
)
from pokerbot.models.prior import (
    Prior,
    PriorTrainer,
    default_prior_file,
    load_default_prior,
    load_prior,
    models_for_game,
    save_prior,
)
from pokerbot.protocol.errors import LogFormatError
from pokerbot.protocol.game import load_game
from pokerbot.strategies.registry import default_registry

NOLIMIT = load_game("holdem-nolimit-2p")
LIMIT = load_game("holdem-limit-2p")
app = typer.Typer()
app.command("train-prior")(train_prior)
app.command("build-default-priors")(build_default_priors)
runner = CliRunner()


@pytest.fixture(scope="module")
def match_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An ACPC log of 60 no-limit hands, maniac against calling-station."""
    path = tmp_path_factory.mktemp("logs") / "match.log"
    registry = default_registry()
    players = [registry.create(name, NOLIMIT, seed) for seed, name in enumerate(("maniac", "calling-station"))]
    run_inprocess_match(NOLIMIT, 60, 5, players, ["maniac", "calling-station"], log_path=path)
    return path


def test_trainer_reads_every_view_of_a_log(match_log: Path) -> None:
    trainer = PriorTrainer(NOLIMIT, PriorConfig(grace_period=10))
    assert trainer.add_log(match_log.read_text().splitlines(), "match.log") == 60
    prior = trainer.finish({"note": "test"})
    assert (prior.betting, prior.num_players, prior.fits(NOLIMIT), prior.fits(LIMIT)) == ("nolimit", 2, True, False)
    assert prior.info["hands"] == 60 and prior.info["note"] == "test"
    assert prior.info["action_rows"] >= 60 and prior.info["showdown_rows"] > 0
    assert sum(prior.action.predict({})) == pytest.approx(1.0)


def test_trainer_names_the_line_of_a_bad_hand() -> None:
    trainer = PriorTrainer(NOLIMIT)
    with pytest.raises(LogFormatError, match="bad.log, line 2"):
        trainer.add_log(["# header", "STATE:0:ff:AsKs|2c2d:0|0:a|b"], "bad.log")


def test_prior_file_round_trip(tmp_path: Path, match_log: Path) -> None:
    trainer = PriorTrainer(NOLIMIT)
    trainer.add_log(match_log.read_text().splitlines())
    prior = trainer.finish()
    path = tmp_path / "p.prior"
    save_prior(prior, path)
    loaded = load_prior(path)
    assert isinstance(loaded, Prior) and loaded.info == prior.info
    assert loaded.action.dists == prior.action.dists
    assert path.read_bytes().startswith(persist.MAGIC)


def test_foreign_files_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.prior"
    path.write_text('{"not": "a model"}')
    with pytest.raises(ForeignModelFileError, match="not a pokerbot model file"):
        load_prior(path)
    path.write_bytes(pickle.dumps({"a": 1}))  # a bare pickle is not accepted either
    with pytest.raises(ForeignModelFileError):
        load_prior(path)


def test_corrupt_and_mismatched_files_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.prior"
    good = persist.dumps(PriorTrainer(NOLIMIT).finish(), "prior")
    path.write_bytes(good[: len(good) // 2])  # truncated
    with pytest.raises(CorruptModelFileError, match="damaged model payload"):
        load_prior(path)
    path.write_bytes(persist.MAGIC + b"format 1\nkind prior\n" + b"\x00garbage")
    with pytest.raises(CorruptModelFileError):
        load_prior(path)
    path.write_bytes(persist.MAGIC + b"garbage\n")
    with pytest.raises(CorruptModelFileError, match="not a format line"):
        load_prior(path)
    path.write_bytes(good.replace(b"format 1", b"format 9", 1))
    with pytest.raises(ModelVersionError, match="format 9"):
        load_prior(path)
    path.write_bytes(persist.dumps([1, 2, 3], "prior"))
    with pytest.raises(CorruptModelFileError, match="not a Prior"):
        load_prior(path)
    path.write_bytes(persist.dumps(PriorTrainer(NOLIMIT).finish(), "action-model"))
    with pytest.raises(CorruptModelFileError, match="'prior' was expected"):
        load_prior(path)
    path.write_bytes(persist.MAGIC + b"format 1\nkind prior\n" + zlib.compress(b"not a pickle"))
    with pytest.raises(CorruptModelFileError):
        load_prior(path)
    with pytest.raises(ModelFileError, match="cannot read"):
        load_prior(tmp_path / "missing.prior")


@pytest.mark.parametrize("name", ["holdem-nolimit-2p", "holdem-limit-2p", "holdem-nolimit-3p", "holdem-limit-3p"])
def test_shipped_priors_load_and_fit(name: str) -> None:
    game = load_game(name)
    prior = load_default_prior(game)
    assert prior is not None and prior.fits(game) and prior.info["game"] == name
    assert (prior.betting, prior.num_players) == (game.betting, game.num_players)
    assert prior.action.n_leaves > 5
    assert "command" in prior.info and "seed" in prior.info
    action_model, strength_model = models_for_game(game)
    assert action_model.prior.dists == prior.action.dists
    assert strength_model.prior.dists == prior.strength.dists


def test_games_without_a_shipped_prior_get_uniform_models() -> None:
    leduc = load_game("leduc")
    assert default_prior_file(leduc) is None and load_default_prior(leduc) is None
    action_model, _ = models_for_game(leduc)
    assert action_model.prior.n_leaves == 1
    with pytest.raises(ModelError, match="2-player nolimit"):
        models_for_game(LIMIT, prior=load_default_prior(NOLIMIT))


def test_train_prior_command(tmp_path: Path, match_log: Path) -> None:
    out = tmp_path / "trained.prior"
    result = runner.invoke(app, ["train-prior", str(match_log), "--game", "holdem-nolimit-2p", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "60 hands" in result.output
    assert load_prior(out).info["hands"] == 60


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "nonsense"], "nonsense"),
        (["--game", "holdem-limit-2p"], "line 5"),  # a no-limit log read as limit: its first STATE line
        (["--game", "holdem-nolimit-2p", "--tree", "oak"], "bad option"),
    ],
)
def test_train_prior_bad_input(tmp_path: Path, match_log: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["train-prior", str(match_log), *args, "--out", str(tmp_path / "p")])
    assert result.exit_code == 2 and message in result.output


def test_train_prior_refuses_an_empty_or_missing_log(tmp_path: Path) -> None:
    empty = tmp_path / "empty.log"
    empty.write_text("# nothing\n")
    out = str(tmp_path / "p")
    result = runner.invoke(app, ["train-prior", str(empty), "--game", "holdem-nolimit-2p", "--out", out])
    assert result.exit_code == 2 and "no hands" in result.output
    result = runner.invoke(
        app, ["train-prior", str(tmp_path / "nope.log"), "--game", "holdem-nolimit-2p", "--out", str(tmp_path / "p")]
    )
    assert result.exit_code == 2 and "cannot read" in result.output


def test_default_prior_builder_is_reproducible(tmp_path: Path) -> None:
    args = ["build-default-priors", "--hands", "3", "--seed", "5", "--game", "holdem-limit-2p", "-q"]
    first = runner.invoke(app, [*args, "--out", str(tmp_path / "a")])
    second = runner.invoke(app, [*args, "--out", str(tmp_path / "b")])
    assert first.exit_code == 0 and second.exit_code == 0, first.output
    a, b = load_prior(tmp_path / "a" / "holdem-limit-2p.prior"), load_prior(tmp_path / "b" / "holdem-limit-2p.prior")
    assert a.action.dists == b.action.dists and a.info["hands"] == b.info["hands"] == 3 * 78


def test_self_play_groups_match_the_game_size(tmp_path: Path) -> None:
    game = load_game("holdem-limit-3p")
    population = ("tight-aggressive", "maniac", "random", "always-call")
    groups: list[tuple[str, ...]] = []
    logs = self_play_logs(
        game, "holdem-limit-3p", 4, 3, tmp_path, population, on_group=lambda g: groups.append(tuple(g))
    )
    assert len(logs) == len(groups) == 4  # every triple of four players
    assert {frozenset(g) for g in groups} == {frozenset(population) - {name} for name in population}
    trainer = PriorTrainer(game)
    for path in logs:
        assert trainer.add_log(path.read_text().splitlines(), path.name) == 4
    prior = trainer.finish()
    assert prior.num_players == 3 and prior.fits(game) and not prior.fits(LIMIT)
    assert prior.info["action_rows"] > 0
