"""Resumable LBR runs (:mod:`pokerbot.bot.lbr.checkpoint`): a stopped run goes on to the
figure of the run that was never stopped."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from pokerbot.bot.cli.solve import exploitability
from pokerbot.bot.lbr.checkpoint import LbrCheckpoint, LbrCheckpointError
from pokerbot.bot.lbr.matches import RegistryStrategy, run_lbr
from pokerbot.protocol.game import Game, load_game
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.exploit.lbr import LbrSettings

NOLIMIT = load_game("holdem-nolimit-2p")
QUICK = LbrSettings(equity_samples=200)
LEARNER = "miximax:10nodes"
"""A strategy that learns its opponent (the state a checkpoint must keep) and searches cheaply."""

app = typer.Typer()
app.command()(exploitability)
runner = CliRunner()


class Stop(Exception):
    """Stands for a kill in the middle of a run."""


class CountingFactory:
    """Makes the learner and counts how often it was asked to."""

    name = LEARNER

    def __init__(self) -> None:
        self.made = 0

    def __call__(self, game: Game, seed: int | None = None) -> Strategy:
        self.made += 1
        return RegistryStrategy(LEARNER)(game, seed)


def test_a_stopped_run_resumes_to_the_figure_of_the_run_never_stopped(tmp_path):
    """Killed in its second match (the first finished, the second two hands in), the run goes
    on from the files: the finished match is not played again, the second goes on with both
    players as they were (the learner's model included), and every deal's value is the
    uninterrupted run's."""
    whole = run_lbr(NOLIMIT, RegistryStrategy(LEARNER), 8, 5, settings=QUICK)
    checkpoint = LbrCheckpoint(str(tmp_path / "run"), seconds=0.0)
    played = 0

    def stop_after_six() -> None:
        nonlocal played
        played += 1
        if played == 6:
            raise Stop

    with pytest.raises(Stop):
        run_lbr(NOLIMIT, CountingFactory(), 8, 5, settings=QUICK, checkpoint=checkpoint, on_hand=stop_after_six)
    assert checkpoint.hands_done(2) == 6
    factory = CountingFactory()
    resumed = run_lbr(NOLIMIT, factory, 8, 5, settings=QUICK, checkpoint=checkpoint)
    assert factory.made == 1  # the check of its action probabilities; no match made a new opponent
    assert resumed.resumed_hands == 6
    assert resumed.deal_values == whole.deal_values
    assert resumed.mbb_per_hand == whole.mbb_per_hand
    assert resumed.queries_per_hand == whole.queries_per_hand
    assert sorted(path.name for path in (tmp_path / "run").glob("match-*")) == [
        "match-0.json",
        "match-0.pickle",  # the players as they finished: a longer run goes on from them
        "match-1.json",
        "match-1.pickle",
    ]


def test_a_finished_run_is_extended_to_the_figure_of_the_longer_run(tmp_path):
    """20 hands, then the same command with 40: the matches go on from where they finished
    (the learner as it was), to the deals of a run of 40 hands from the start."""
    whole = run_lbr(NOLIMIT, RegistryStrategy(LEARNER), 8, 3, settings=QUICK)
    checkpoint = LbrCheckpoint(str(tmp_path / "run"), seconds=60.0)
    short = run_lbr(NOLIMIT, RegistryStrategy(LEARNER), 4, 3, settings=QUICK, checkpoint=checkpoint)
    assert short.deal_values == whole.deal_values[:2]
    longer = run_lbr(NOLIMIT, RegistryStrategy(LEARNER), 8, 3, settings=QUICK, checkpoint=checkpoint)
    assert longer.resumed_hands == 4
    assert longer.deal_values == whole.deal_values and longer.mbb_per_hand == whole.mbb_per_hand
    assert json.loads((tmp_path / "run" / "run.json").read_text())["hands"] == 8
    with pytest.raises(LbrCheckpointError, match=r"hands was 8, now 6 \(a run can be extended, not shortened\)"):
        run_lbr(NOLIMIT, RegistryStrategy(LEARNER), 6, 3, settings=QUICK, checkpoint=checkpoint)


def test_a_checkpoint_of_another_run_is_refused_and_left_alone(tmp_path):
    folder = tmp_path / "run"
    run_lbr(NOLIMIT, RegistryStrategy("always-fold"), 4, 1, settings=QUICK, checkpoint=LbrCheckpoint(str(folder)))
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    with pytest.raises(LbrCheckpointError, match="seed was 1, now 2"):
        run_lbr(NOLIMIT, RegistryStrategy("always-fold"), 4, 2, settings=QUICK, checkpoint=LbrCheckpoint(str(folder)))
    with pytest.raises(LbrCheckpointError, match="strategy was 'always-fold', now 'always-call'"):
        run_lbr(
            NOLIMIT,
            RegistryStrategy("always-call"),
            4,
            1,
            settings=QUICK,
            strategy_name="always-call",
            checkpoint=LbrCheckpoint(str(folder)),
        )
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before


def test_the_command_resumes_a_finished_run_without_playing_it_again(tmp_path):
    folder = tmp_path / "run"
    arguments = ["holdem-nolimit-2p", "always-fold", "--hands", "20", "--jobs", "1", "-q", "--checkpoint", str(folder)]
    first = runner.invoke(app, [*arguments, "--json", str(tmp_path / "first.json")])
    assert first.exit_code == 0, first.output
    (folder / "match-1.json").write_text(json.dumps({"values": [150.0] * 10, "queries": 0, "illegal": 0}))
    second = runner.invoke(app, [*arguments, "--json", str(tmp_path / "second.json")])
    assert second.exit_code == 0, second.output
    assert "20 of 20 hands already played" in second.output
    data = json.loads((tmp_path / "second.json").read_text())
    assert data["resumed_hands"] == 20
    assert data["mbb_per_hand"] == pytest.approx((750.0 + 1500.0) / 2)  # match 1 read from its file


def test_a_checkpoint_folder_that_is_a_file_exits_2_in_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = runner.invoke(app, ["holdem-nolimit-2p", "always-fold", "--hands", "4", "--checkpoint", str(blocker)])
    assert result.exit_code == 2
    assert "cannot write the checkpoint" in result.output
