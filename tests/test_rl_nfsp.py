"""NFSP (PyTorch, the ``rl`` extra): learning, the tabular export, checkpoints, the command."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason='NFSP needs PyTorch, in the rl extra: pip install -e ".[rl]"')

from typer.testing import CliRunner  # noqa: E402

from pokerbot.bot.cli.app import app  # noqa: E402
from pokerbot.protocol.game import load_game  # noqa: E402
from pokerbot.strategies.rl.nfsp import NFSP, NfspSettings  # noqa: E402
from pokerbot.strategies.rl.tabulate import infoset_state  # noqa: E402
from pokerbot.strategies.solvers.exploitability import evaluate  # noqa: E402
from pokerbot.strategies.solvers.profile import uniform_policy  # noqa: E402


@pytest.fixture(autouse=True)
def one_thread() -> None:
    torch.set_num_threads(1)


SMALL = NfspSettings(replay_capacity=5_000, reservoir_capacity=20_000, min_buffer=200, parallel_hands=32)


def test_nfsp_learns_kuhn_below_uniform() -> None:
    game = load_game("kuhn")
    nfsp = NFSP(game, settings=SMALL, seed=1)
    uniform = evaluate(game, uniform_policy(game)).exploitability
    nfsp.play(15_000)
    assert nfsp.hands > 5_000
    assert evaluate(game, nfsp.average_policy()).exploitability < 0.8 * uniform  # 0.35 against 0.46


def test_the_table_is_the_networks_policy_at_every_information_set() -> None:
    game = load_game("leduc")
    nfsp = NFSP(game, "leduc-infostate", SMALL, seed=2)
    nfsp.play(3_000)
    policy = nfsp.average_policy()
    assert len(policy) == 936
    for key in ("Qh:", "Ks:r", "As/Kh:rc/r", "Qs/Qh:cc/cr"):
        state = infoset_state(game, key)
        position = state.current_player
        assert position is not None
        observation = nfsp.encoding.encode(state, position)[None]
        mask = nfsp.encoding.legal_mask(state)[None]
        row = nfsp.average_probabilities(observation, mask, position)[0]
        expected = [row[i] for i in np.flatnonzero(mask[0])]  # IDs call/raise/fold/check, legal ones
        table = policy.action_probabilities(key)
        by_id = {0: "c", 1: "r", 2: "f", 3: "c"}
        for action_id, probability in zip(np.flatnonzero(mask[0]), expected):
            assert table[by_id[int(action_id)]] == pytest.approx(probability, abs=1e-6)


def test_a_checkpoint_restores_the_learner(tmp_path: Path) -> None:
    game = load_game("leduc")
    nfsp = NFSP(game, "leduc-infostate", SMALL, seed=3)
    nfsp.play(5_000)
    path = tmp_path / "nfsp.pt"
    nfsp.save(str(path))
    restored = NFSP.load(game, str(path))
    assert restored.hands == nfsp.hands and restored.players[1].steps == nfsp.players[1].steps
    assert restored.average_policy() == nfsp.average_policy()
    assert len(restored.players[0].supervised) == len(nfsp.players[0].supervised)


def test_rl_train_command_writes_a_policy_every_tool_reads(tmp_path: Path) -> None:
    runner = CliRunner()
    out, checkpoint = tmp_path / "out", tmp_path / "checkpoint"
    arguments = ["rl", "train", "kuhn", "--seconds", "1", "--eval-every", "0.5", "--out", str(out)]
    result = runner.invoke(app, [*arguments, "--checkpoint", str(checkpoint), "-q"])
    assert result.exit_code == 0, result.output
    curve = json.loads((out / "curve.json").read_text())
    assert curve["points"][0]["cpu_seconds"] == 0 and curve["points"][-1]["cpu_seconds"] >= 1
    report = runner.invoke(app, ["exploitability", "kuhn", str(out / "policy.json"), "--json", "-"])
    assert report.exit_code == 0, report.output
    measured = json.loads(report.output[report.output.index("{") :])["exploitability"]
    assert measured == pytest.approx(curve["points"][-1]["exploitability"])
    again = runner.invoke(app, [*arguments[:4], "2", *arguments[5:], "--checkpoint", str(checkpoint), "-q"])
    assert again.exit_code == 0, again.output
    resumed = json.loads((out / "curve.json").read_text())["points"]
    assert resumed[: len(curve["points"])] == curve["points"] and resumed[-1]["cpu_seconds"] >= 2


def test_rl_train_refuses_no_limit() -> None:
    result = CliRunner().invoke(app, ["rl", "train", "holdem-nolimit-2p", "--seconds", "1", "--out", "x"])
    assert result.exit_code == 2


def test_settings_from_key_value_strings() -> None:
    items = ["replay_capacity=30000", "optimizer=sgd", "rl-learning-rate=0.1", "hidden=1e2"]
    settings = NfspSettings.from_strings(items)
    assert settings == NfspSettings(replay_capacity=30_000, optimizer="sgd", rl_learning_rate=0.1, hidden=100)
    for bad in (["replay_capacity"], ["colour=red"], ["hidden=3.5"], ["optimizer=rmsprop"]):
        with pytest.raises(ValueError, match="replay_capacity|colour|hidden|rmsprop"):
            NfspSettings.from_strings(bad)


def test_rl_train_set_changes_a_setting_and_refuses_an_unknown_one(tmp_path: Path) -> None:
    runner = CliRunner()
    arguments = ["rl", "train", "kuhn", "--seconds", "0.5", "--eval-every", "0.5", "--out", str(tmp_path), "-q"]
    result = runner.invoke(app, [*arguments, "--set", "optimizer=sgd", "--set", "hidden=16"])
    assert result.exit_code == 0, result.output
    curve = json.loads((tmp_path / "curve.json").read_text())
    assert curve["settings"]["optimizer"] == "sgd" and curve["settings"]["hidden"] == 16
    assert curve["command"].endswith("--set optimizer=sgd --set hidden=16")
    bad = runner.invoke(app, [*arguments, "--set", "colour=red"])
    assert bad.exit_code == 2 and "colour=red" in bad.output and "--set" in bad.output
