"""``pokerbot experiment learning-curves``: win rates in windows of hands, several players on the same deals."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerbot.bot.experiments.cli import experiment_app
from pokerbot.bot.experiments.learning_curves import learning_chunks, run_learning_curves, win_rate_windows
from pokerbot.bot.matches.executor import LocalExecutor
from pokerbot.protocol.game import load_game

GAME = load_game("holdem-nolimit-2p")
runner = CliRunner()


def test_windows_of_a_series_in_mbb_per_hand() -> None:
    curve = win_rate_windows([100.0, 300.0, -50.0, -150.0, 20.0], 2, 100)
    assert [(w.first, w.last) for w in curve.windows] == [(0, 1), (2, 3), (4, 4)]
    assert [w.mbb for w in curve.windows] == [2000.0, -1000.0, 200.0]
    # 1.96 times the sample deviation of (100, 300), sqrt(20,000), over sqrt(2), in mbb
    assert curve.windows[0].ci95 == pytest.approx(1.96 * math.sqrt(20_000) / math.sqrt(2) * 10)
    assert math.isnan(curve.windows[2].ci95)  # one hand: no interval
    assert curve.overall.mbb == pytest.approx(1000.0 * 44.0 / 100)
    with pytest.raises(ValueError, match="at least one hand"):
        win_rate_windows([1.0], 0, 100)


def test_every_player_plays_one_whole_match_on_the_same_deals() -> None:
    chunks = learning_chunks(GAME, "nl", "nit", ["a", "b"], 300, 9, duplicate=True)
    assert [(c.match, c.strategies, c.names) for c in chunks] == [
        (0, ("a", "nit"), ("hero", "opponent")),
        (1, ("nit", "a"), ("opponent", "hero")),
        (2, ("b", "nit"), ("hero", "opponent")),
        (3, ("nit", "b"), ("opponent", "hero")),
    ]
    assert {(c.seed, c.first_hand, c.hands, c.index) for c in chunks} == {(9, 0, 300, 0)}


def test_a_player_that_always_folds_loses_its_blinds_in_every_window() -> None:
    """``always-fold`` against ``always-raise``: 50 chips as the small blind, 100 as the big,
    seats alternating: -750 mbb/hand in every window of an even number of hands; in duplicate
    every deal costs exactly 75 chips (no spread at all). ``always-raise`` against itself wins
    and loses the same deals from both sides: 0 in every window in duplicate."""
    curves = run_learning_curves(
        LocalExecutor(), GAME, "nl", "always-raise", ["always-fold", "always-raise"], 40, 4, 10, duplicate=True
    )
    fold, mirror = curves
    assert fold.player == "always-fold" and len(fold.windows) == 4
    assert all(w.mbb == -750.0 and w.ci95 == 0.0 for w in (*fold.windows, fold.overall))
    assert all(w.mbb == 0.0 for w in (*mirror.windows, mirror.overall))
    single = run_learning_curves(LocalExecutor(), GAME, "nl", "always-raise", ["always-fold"], 40, 4, 10)
    assert [w.mbb for w in single[0].windows] == [-750.0] * 4 and single[0].windows[0].ci95 > 0.0


def test_the_command_writes_the_table_the_json_and_the_plot(tmp_path: Path) -> None:
    json_path, plot = tmp_path / "out" / "curves.json", tmp_path / "curves.png"
    result = runner.invoke(
        experiment_app,
        [
            "learning-curves",
            "always-raise",
            "--players",
            "always-fold",
            "always-call",
            "--hands",
            "30",
            "--window",
            "20",
            "--json",
            str(json_path),
            "--plot",
            str(plot),
            "--duplicate",
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "always-fold" in result.output and "21-30" in result.output
    data = json.loads(json_path.read_text())
    assert [p["strategy"] for p in data["players"]] == ["always-fold", "always-call"]
    assert data["players"][0]["windows"][0] == {"first": 1, "last": 20, "mbb_per_hand": -750.0, "mbb_per_hand_ci95": 0}
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nit", "--window", "0"], "must be positive"),
        (["nit", "--players", "miximax:abc"], "miximax:abc"),
        (["nitt"], "unknown strategy 'nitt'"),
        (["nit", "--players", "random", "random"], "named twice"),
        (["nit", "--game", "holdem-nolimit-3p"], "a 2-player game"),
        ([], "name the opponent"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(experiment_app, ["learning-curves", *args])
    assert result.exit_code == 2 and message in result.output
