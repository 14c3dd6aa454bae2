"""The k-means card abstraction end to end: built by ``pokerbot abstraction build``, trained on by
``pokerbot solve --buckets kmeans:FILE``, resumed from a checkpoint, measured by ``pokerbot
exploitability``, reloaded from the policy file and played in a match."""

from __future__ import annotations

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from pokerbot.bot.cli.card_abstraction import abstraction_app
from pokerbot.bot.cli.solve import exploitability, solve
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.protocol.actions import CALL
from pokerbot.protocol.analysis.holdings import conflict_mask
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.abstract.player import AbstractPolicyPlayer
from pokerbot.strategies.abstract.policy import AbstractPolicy
from pokerbot.strategies.baselines import RandomPlayer
from pokerbot.strategies.card_abstraction.abstraction import DistributionAbstraction
from pokerbot.strategies.card_abstraction.distribution import load_deal_tables

app = typer.Typer()
app.command("solve")(solve)
app.command("exploitability")(exploitability)
app.add_typer(abstraction_app, name="abstraction")
runner = CliRunner()
TINY = ["--buckets", "5,6,7", "--quantiles", "4", "--fit-boards", "4,8,8", "--holdings", "40"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kmeans")
    out, deals = folder / "tiny.npz", folder / "deals.npz"
    result = runner.invoke(
        app, ["abstraction", "build", str(out), *TINY, "--deals", str(deals), "--boards", "12", "--deals-seed", "2"]
    )
    assert result.exit_code == 0, result.output
    return folder, out, deals


@pytest.mark.slow
def test_a_tiny_abstraction_is_trained_resumed_measured_and_played(built):
    folder, out, deals = built
    game = load_game("holdem-limit-2p")
    abstraction = DistributionAbstraction.load(out, game)
    assert abstraction.num_buckets == (169, 5, 6, 7)
    assert load_deal_tables(deals, abstraction).num_boards == 12
    solve_args = ["solve", "holdem-limit-2p", "--buckets", f"kmeans:{out}", "--deals", str(deals)]
    solve_args += ["--algorithm", "os-mccfr", "--seed", "5", "--checkpoint-every", "2000"]
    whole, half, resumed = folder / "whole.npz", folder / "half.npz", folder / "resumed.npz"
    checkpoint = folder / "run.ckpt.npz"
    result = runner.invoke(app, [*solve_args, "--iterations", "4000", "--out", str(whole)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(
        app, [*solve_args, "--iterations", "2000", "--out", str(half), "--checkpoint", str(checkpoint)]
    )
    assert result.exit_code == 0, result.output
    result = runner.invoke(
        app, [*solve_args, "--iterations", "4000", "--out", str(resumed), "--checkpoint", str(checkpoint)]
    )
    assert result.exit_code == 0, result.output
    policy = AbstractPolicy.load(whole, game)
    assert isinstance(policy.abstraction, DistributionAbstraction)
    assert policy.abstraction.digest() == abstraction.digest() and policy.meta["iterations"] == 4000
    assert np.array_equal(AbstractPolicy.load(resumed, game).probabilities, policy.probabilities)
    result = runner.invoke(
        app, ["exploitability", "holdem-limit-2p", str(whole), "--deals", str(deals), "--samples", "2000"]
    )
    assert result.exit_code == 0, result.output
    assert "abstract exploitability" in result.output
    # a player buckets any board it meets, not only the tables' (every flop it saw is kept)
    player = AbstractPolicyPlayer(game, 1, policy)
    outcome = run_inprocess_match(game, 30, 7, [player, RandomPlayer(game, 2)], ["kmeans", "random"])
    assert outcome.hands_played == 30 and outcome.error is None and not outcome.illegal_actions.get("kmeans")
    assert policy.abstraction._flops
    # a range read through the buckets: holdings alike in every bucket so far weigh alike
    state = HandState(game, [(0, 1), (2, 3)], [4, 17, 30, 43, 51])
    for action in (CALL, CALL, CALL):  # the flop checked to by the first player
        state.apply(action)
    reach = player.reach(state, 1, 0)
    board = state.visible_board()
    live = ~conflict_mask(board)
    assert (reach[~live] == 0).all() and (reach[live] > 0).any()
    key = policy.abstraction.buckets_all(board, 0).astype(np.int64) * 256 + policy.abstraction.buckets_all(board, 1)
    for group in np.unique(key[live]):
        members = reach[live & (key == group)]
        assert np.allclose(members, members[0])


def test_bad_abstraction_input_exits_2(built, tmp_path):
    folder, out, deals = built
    result = runner.invoke(
        app,
        ["solve", "holdem-limit-2p", "--buckets", "kmeans:missing.npz", "--deals", str(deals), "--iterations", "10"]
        + ["--algorithm", "os-mccfr", "--out", str(tmp_path / "o.npz")],
    )
    assert result.exit_code == 2 and "no abstraction file" in result.output
    other = tmp_path / "other.npz"
    assert runner.invoke(app, ["abstraction", "build", str(other), *TINY[:-1], "41"]).exit_code == 0
    result = runner.invoke(
        app,
        ["solve", "holdem-limit-2p", "--buckets", f"kmeans:{other}", "--deals", str(deals), "--iterations", "10"]
        + ["--algorithm", "os-mccfr", "--out", str(tmp_path / "o.npz")],
    )
    assert result.exit_code == 2 and "another card abstraction" in result.output
    result = runner.invoke(app, ["abstraction", "build", str(out), "--buckets", "9"])
    assert result.exit_code == 2 and "remove it or choose another file" in result.output
    result = runner.invoke(app, ["abstraction", "build", str(tmp_path / "x.npz"), "--buckets", "5,6"])
    assert result.exit_code == 2 and "--buckets takes" in result.output
