"""Prequential evaluation and ``pokerbot experiment model-learning``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerbot.bot.experiments.model_evaluation import prequential, quadratic_loss
from pokerbot.bot.experiments.model_learning import experiment_app, play_views
from pokerbot.models.config import ModelConfig
from pokerbot.models.hoeffding import ActionModel, HandStrengthModel
from pokerbot.protocol.game import load_game
from pokerbot.protocol.wire import MatchState
from tests.conftest import play_random_hand

GAME = load_game("holdem-nolimit-2p")
runner = CliRunner()


def test_quadratic_loss() -> None:
    assert quadratic_loss({0: 1.0, 1: 0.0}, 0) == 0.0
    assert quadratic_loss({0: 0.5, 1: 0.5}, 1) == pytest.approx(0.5)
    assert quadratic_loss({0: 0.2, 1: 0.3, 2: 0.5}, 2) == pytest.approx(0.04 + 0.09 + 0.25)
    assert quadratic_loss({0: 1.0}, 3) == 2.0  # an outcome given no probability at all


def test_prequential_predicts_before_learning() -> None:
    rng = random.Random(9)
    views = [MatchState(0, n, play_random_hand(GAME, rng).view(0)) for n in range(25)]
    frozen = ModelConfig(adapt=False)
    models = {
        "prior": (ActionModel(None, frozen), HandStrengthModel(None, frozen)),
        "adapting": (ActionModel(), HandStrengthModel()),
    }
    report = prequential(views, models, every=10)
    assert [(b.first, b.last) for b in report.blocks] == [(0, 9), (10, 19), (20, 24)]
    first_hand = prequential(views[:1], {"a": (ActionModel(), HandStrengthModel())}, every=10)
    uniform = prequential(views[:1], {"u": (ActionModel(None, frozen), HandStrengthModel(None, frozen))}, every=10)
    assert first_hand.overall["a"].action_loss == uniform.overall["u"].action_loss  # nothing learnt yet
    overall = report.overall["adapting"]
    assert overall.decisions == sum(b.scores["adapting"].decisions for b in report.blocks) > 0
    assert models["adapting"][0].observations == overall.decisions
    assert models["prior"][0].observations == 0
    data = report.to_dict()
    assert data["blocks"][0]["adapting"]["decisions"] == report.blocks[0].scores["adapting"].decisions
    with pytest.raises(ValueError):
        prequential(views, models, every=0)


def test_play_views_gives_the_heros_final_views() -> None:
    views = play_views(GAME, "tight-aggressive", "maniac", 12, 3)
    assert [view.hand_number for view in views] == list(range(12))
    assert all(view.state.finished and view.state.hole_cards[view.position] for view in views)


def test_model_learning_command(tmp_path: Path) -> None:
    json_path, plot = tmp_path / "curve.json", tmp_path / "curve.png"
    result = runner.invoke(
        experiment_app,
        [
            "model-learning",
            "--opponent",
            "calling-station",
            "--hands",
            "40",
            "--every",
            "20",
            "--json",
            str(json_path),
            "--plot",
            str(plot),
            "--seed",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(json_path.read_text())
    assert data["opponent"] == "calling-station" and data["every"] == 20 and len(data["blocks"]) == 2
    assert set(data["overall"]) == {"prior", "adapting"}
    assert data["overall"]["adapting"]["action_loss"] < data["overall"]["prior"]["action_loss"]
    assert plot.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--opponent", "nobody"], "unknown strategy"),
        (["--opponent", "random", "--game", "holdem-nolimit-3p"], "2-player"),
        (["--opponent", "random", "--hands", "0"], "positive"),
    ],
)
def test_model_learning_bad_input(args: list[str], message: str) -> None:
    result = runner.invoke(experiment_app, ["model-learning", *args])
    assert result.exit_code == 2 and message in result.output
