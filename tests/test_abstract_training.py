"""Blueprint training (strategies/abstract/training.py): discounted external-sampling MCCFR with
pruning, run by one or two workers, on Leduc with exact buckets (the abstract game is the game):
convergence against the exact best response, checkpoints resumed bit for bit, pruning that
skips what it should, the discounts of the update rules, and the 8-bit policy file."""

from __future__ import annotations

import json

import numpy as np
import pytest
import typer
from click.testing import Result
from typer.testing import CliRunner

from pokerbot.bot.cli.card_abstraction import abstraction_app
from pokerbot.bot.cli.solve import solve
from pokerbot.protocol.game import load_game
from pokerbot.strategies.abstract import kernels
from pokerbot.strategies.abstract.game import AbstractGame
from pokerbot.strategies.abstract.policy import AbstractPolicy, quantise
from pokerbot.strategies.abstract.training import Trainer, TrainingError, TrainingSettings
from pokerbot.strategies.card_abstraction.abstraction import DistributionAbstraction
from pokerbot.strategies.card_abstraction.distribution import load_deal_tables
from pokerbot.strategies.regret import RULES
from pokerbot.strategies.solvers import evaluate

LEDUC_VALUE = -0.0856064
SMALL = TrainingSettings(rule="linear", discount_every=1_000, discount_until=20_000, prune_after=1_000, sync_every=500)
"""Leduc's big blind is 2 chips: pruning below -600 chips, regrets floored at -620."""


@pytest.fixture(scope="module")
def leduc_game() -> AbstractGame:
    return AbstractGame.exact(load_game("leduc"))


def _exploitability(game: AbstractGame, trainer: Trainer) -> tuple[float, float]:
    report = evaluate(game.game, trainer.policy().to_solver_policy())
    return report.exploitability, report.values[0]


@pytest.mark.parametrize("workers", [1, 2])
def test_linear_discounting_with_pruning_approaches_the_leduc_equilibrium(leduc_game, workers):
    trainer = Trainer(leduc_game, SMALL, seed=5, workers=workers)
    trainer.run(3_000)
    early, _ = _exploitability(leduc_game, trainer)
    trainer.run(100_000)
    late, value = _exploitability(leduc_game, trainer)
    assert late < 0.1 and late < early / 2
    assert value == pytest.approx(LEDUC_VALUE, abs=0.02)
    assert trainer.regrets.dtype == np.float32 and trainer.iterations == 100_000


def test_a_checkpointed_run_resumes_bit_for_bit(leduc_game, tmp_path):
    for workers in (1, 2):
        whole = Trainer(leduc_game, SMALL, seed=9, workers=workers)
        whole.run(4_000)
        first = Trainer(leduc_game, SMALL, seed=9, workers=workers)
        first.run(2_500)  # past a discount, past the start of pruning
        first.save(tmp_path / "run.npz")
        resumed = Trainer.load(tmp_path / "run.npz", leduc_game)
        resumed.run(4_000)
        assert resumed.iterations == whole.iterations == 4_000
        assert np.array_equal(resumed.regrets, whole.regrets)
        assert np.array_equal(resumed.cumulative, whole.cumulative)
        assert np.array_equal(resumed.rngs, whole.rngs)
    other = Trainer(leduc_game, SMALL, seed=9, workers=2)
    assert not np.array_equal(other.rngs[0], other.rngs[1])


def test_a_checkpoint_of_other_settings_is_refused(leduc_game, tmp_path):
    Trainer(leduc_game, SMALL, seed=1).save(tmp_path / "run.npz")
    kuhn = AbstractGame.exact(load_game("kuhn"))
    with pytest.raises(TrainingError, match="another game"):
        Trainer.load(tmp_path / "run.npz", kuhn)
    (tmp_path / "bad.npz").write_bytes(b"nothing")
    with pytest.raises(TrainingError, match="not a training checkpoint"):
        Trainer.load(tmp_path / "bad.npz", leduc_game)
    for bad in (
        {"rule": "cfr+"},
        {"rule": "nope"},
        {"sync_every": 300},
        {"prune_share": 1.5},
        {"floor": 0.0, "prune_below": -1.0},
    ):
        with pytest.raises(TrainingError):
            Trainer(leduc_game, TrainingSettings(**{**SMALL.__dict__, **bad}))


def test_pruning_skips_the_traversers_actions_below_the_threshold_except_the_last_round_and_the_ends(
    leduc_game,
):
    tree = leduc_game.tree
    everything = TrainingSettings(rule="cfr", prune_after=0, prune_share=1.0, prune_below=1e9, floor=-1e9)
    trainer = Trainer(leduc_game, everything, seed=3)
    trainer.run(2_000)
    pruned, last_round, ends, fallback = 0, 0, 0, 0
    for node in tree.decision_nodes:
        rows = slice(int(tree.infoset_base[node]), int(tree.infoset_base[node] + tree.num_buckets[tree.round[node]]))
        n = int(tree.num_actions[node])
        terminal = [bool(tree.num_actions[tree.children[node, k]] == 0) for k in range(n)]
        for k in range(n):
            touched = bool(np.any(trainer.regrets[0, rows, k] != 0.0))
            if tree.round[node] == 1:
                last_round += touched
            elif terminal[k]:
                ends += touched
            elif not any(terminal):  # every action below the threshold: all explored
                fallback += touched
            else:
                assert not touched  # every regret is below 1e9 chips: pruned
                pruned += 1
    assert pruned > 0 and last_round > 0 and ends > 0 and fallback > 0
    plain = Trainer(leduc_game, TrainingSettings(rule="cfr", prune_after=-1), seed=3)
    plain.run(2_000)
    assert np.count_nonzero(plain.regrets) > np.count_nonzero(trainer.regrets)


@pytest.mark.parametrize("name", ["linear", "dcfr"])
def test_a_discount_multiplies_as_the_update_rule_says(name):
    rule = RULES[name]
    regrets = np.array([[[4.0, -2.0, 0.0]]], dtype=np.float32)
    cumulative = np.array([[[3.0, 1.0, 0.0]]], dtype=np.float32)
    positive, negative = rule.discounts(3)
    kernels.discount(kernels.SolverArrays(regrets, cumulative, np.zeros((1, 1), dtype=np.int64)),
                     positive, negative, rule.average_decay(3))  # fmt: skip
    assert regrets[0, 0].tolist() == pytest.approx([4.0 * positive, -2.0 * negative, 0.0])
    assert cumulative[0, 0].tolist() == pytest.approx([3.0 * rule.average_decay(3), rule.average_decay(3), 0.0])
    if name == "linear":
        assert positive == negative == rule.average_decay(3) == pytest.approx(3 / 4)


def test_quantised_rows_sum_to_255_and_stay_within_one_step():
    rng = np.random.default_rng(0)
    probabilities = rng.dirichlet(np.ones(5), size=2_000)
    probabilities[:10, 3:] = 0.0
    probabilities[:10, :3] /= probabilities[:10, :3].sum(axis=1, keepdims=True)
    probabilities[10] = 0.0
    stored = quantise(probabilities)
    assert stored.dtype == np.uint8
    assert (stored[:10].astype(int).sum(axis=1) == 255).all() and stored[10].sum() == 0
    assert (stored[11:].astype(int).sum(axis=1) == 255).all()
    assert np.abs(stored / 255.0 - probabilities).max() <= 1 / 255 + 1e-12
    assert (stored[:10, 3:] == 0).all()
    assert quantise(np.array([[1 / 3, 1 / 3, 1 / 3]])).tolist() == [[85, 85, 85]]


def test_an_8_bit_policy_file_loads_as_the_policy_it_stores(leduc_game, tmp_path):
    trainer = Trainer(leduc_game, SMALL, seed=2)
    trainer.run(1_000)
    policy = trainer.policy()
    policy.save(tmp_path / "p.npz", compact=True)
    loaded = AbstractPolicy.load(tmp_path / "p.npz", leduc_game.game)
    assert np.abs(loaded.probabilities - policy.probabilities).max() <= 1 / 255 + 1e-12
    assert loaded.meta["training"]["rule"] == "linear" and loaded.meta["iterations"] == 1_000


# ------------------------------------------------------------------ the command
runner = CliRunner()
app = typer.Typer()
app.command("solve")(solve)
app.add_typer(abstraction_app, name="abstraction")
TINY = ["--buckets", "5,6,7", "--quantiles", "4", "--fit-boards", "4,8,8", "--holdings", "40"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = tmp_path_factory.mktemp("train")
    out, deals = folder / "tiny.npz", folder / "deals.npz"
    result = runner.invoke(
        app, ["abstraction", "build", str(out), *TINY, "--deals", str(deals), "--boards", "12", "--deals-seed", "2"]
    )
    assert result.exit_code == 0, result.output
    return folder, out, deals


def _train(tiny, *extra: str) -> Result:
    folder, out, deals = tiny
    arguments = ["solve", "holdem-limit-2p", "--buckets", f"kmeans:{out}", "--deals", str(deals), "--seed", "5"]
    arguments += ["--algorithm", "es-mccfr", "--rule", "linear", "--sync-every", "500", "--discount-every", "1000"]
    arguments += ["--prune-after", "1000", "--checkpoint-every", "1500", "--estimate-deals", "300", *extra]
    return runner.invoke(app, arguments)


@pytest.mark.slow
def test_a_tiny_abstraction_trained_checkpointed_and_resumed_equals_the_uninterrupted_run(tiny):
    folder = tiny[0]
    whole, half, resumed = folder / "whole.npz", folder / "half.npz", folder / "resumed.npz"
    checkpoint, curve = folder / "run.ckpt.npz", folder / "curve.json"
    result = _train(tiny, "--iterations", "4500", "--out", str(whole), "--checkpoint", str(folder / "whole.ckpt.npz"))
    assert result.exit_code == 0, result.output
    assert "abstract exploitability" in result.output and "it/s" in result.output
    result = _train(tiny, "--iterations", "3000", "--out", str(half), "--checkpoint", str(checkpoint))
    assert result.exit_code == 0, result.output
    result = _train(
        tiny, "--iterations", "4500", "--out", str(resumed), "--checkpoint", str(checkpoint), "--curve", str(curve)
    )
    assert result.exit_code == 0, result.output
    game = load_game("holdem-limit-2p")
    with np.load(folder / "whole.ckpt.npz") as a, np.load(checkpoint) as b:
        assert all(np.array_equal(a[key], b[key]) for key in ("regrets", "cumulative", "rngs", "counters"))
    assert np.array_equal(
        AbstractPolicy.load(whole, game).probabilities, AbstractPolicy.load(resumed, game).probabilities
    )
    points = [json.loads(line) for line in curve.read_text().splitlines()]
    assert [p["iterations"] for p in points] == [4500]
    assert points[0]["exploitability_lower_mbb"] <= points[0]["exploitability_upper_mbb"]


@pytest.mark.slow
def test_two_workers_on_ray_train_what_two_workers_in_this_process_train(tiny):
    pytest.importorskip("ray")
    folder, out, deals = tiny
    result = _train(tiny, "--iterations", "2000", "--jobs", "2", "--out", str(folder / "ray.npz"))
    assert result.exit_code == 0, result.output
    game = load_game("holdem-limit-2p")
    abstraction = DistributionAbstraction.load(out, game)
    abstract = AbstractGame.build(abstraction, load_deal_tables(deals, abstraction))
    settings = TrainingSettings(rule="linear", sync_every=500, discount_every=1000, prune_after=1000)
    local = Trainer(abstract, settings, seed=5, workers=2)
    local.run(2000)
    stored = AbstractPolicy.load(folder / "ray.npz", game).probabilities
    assert np.array_equal(stored, quantise(local.average()) / 255.0)


def test_training_settings_and_bad_input_are_refused_in_one_line(tiny):
    result = _train(tiny, "--iterations", "1000", "--out", "x.npz", "--sync-every", "700")
    assert result.exit_code == 2 and "--sync-every must divide --checkpoint-every" in result.output
    leduc = ["solve", "leduc", "--buckets", "exact", "--iterations", "9", "--out", "x.npz"]
    result = runner.invoke(app, [*leduc, "--algorithm", "os-mccfr", "--rule", "linear"])
    assert result.exit_code == 2 and "es-mccfr only" in result.output
    result = runner.invoke(app, [*leduc, "--algorithm", "os-mccfr", "--actions", "blueprint"])
    assert result.exit_code == 2 and "no-limit" in result.output
