"""Abstract games end to end: betting trees against the dealer's rules, players of abstract
policies in matches, the opponent model of MCRNR, and the command line."""

from __future__ import annotations

import random

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from pokerbot.bot.cli.abstract import train_rnr
from pokerbot.bot.cli.solve import exploitability, solve
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.models.round_trees import RoundTreeModel, decision_rows
from pokerbot.protocol.actions import CALL, LIMIT_RAISE
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.abstract.betting import BettingTreeError, build_betting_tree
from pokerbot.strategies.abstract.game import AbstractGame
from pokerbot.strategies.abstract.opponent import model_table
from pokerbot.strategies.abstract.player import AbstractPolicyPlayer
from pokerbot.strategies.abstract.policy import AbstractPolicy
from pokerbot.strategies.abstract.shipped import BLUEPRINTS, SHIPPED, SHIPPED_GAMES, blueprint_name, plays_shipped
from pokerbot.strategies.abstract.solver import AbstractSolver
from pokerbot.strategies.baselines import RandomPlayer
from pokerbot.strategies.registry import default_registry

app = typer.Typer()
app.command("solve")(solve)
app.command("exploitability")(exploitability)
app.command("train-rnr")(train_rnr)
runner = CliRunner()
LEDUC_POLICY = pytest.mark.xdist_group("abstract-best-response")
"""The tests of ``leduc_policy`` share a worker (it is solved once), the one of the abstract best
response (test_abstract_solvers.py), which the command line's exploitability runs."""


def test_terminal_values_are_the_dealers():
    game = load_game("holdem-limit-2p")
    tree = build_betting_tree(game, (10,) * 4)
    assert len(tree.decision_nodes) == 6378 and tree.num_infosets == 63_780
    rng = random.Random(2)
    for _ in range(300):
        cards = rng.sample(range(52), 9)
        state = HandState(game, [tuple(cards[0:2]), tuple(cards[2:4])], cards[4:])
        while not state.finished:
            legal = [a for a in tree.actions[tree.node_of(state)] if state.can(a)]
            state.apply(rng.choice(legal))
        node = tree.node_of(state)
        ranks = state.showdown_ranks() if state.showdown() else [0, 0]
        sign = (ranks[0] > ranks[1]) - (ranks[0] < ranks[1])
        assert tree.terminal_value(node, sign) == pytest.approx(state.values()[0])


def test_a_hand_outside_the_tree_is_refused():
    tree = build_betting_tree(load_game("kuhn"), (3,))
    state = HandState(load_game("kuhn"))
    state.apply(LIMIT_RAISE)
    with pytest.raises(BettingTreeError):
        tree.child(tree.node_of(state), LIMIT_RAISE)


@pytest.fixture(scope="module")
def leduc_policy() -> AbstractPolicy:
    solver = AbstractSolver(AbstractGame.exact(load_game("leduc")), "es-mccfr", seed=4)
    solver.run(20_000)
    return solver.policy()


@LEDUC_POLICY
def test_the_player_plays_its_policy(leduc_policy):
    game = leduc_policy.game
    player = AbstractPolicyPlayer(game, 1, leduc_policy)
    state = HandState(game, [tuple(game.deck[:1]), tuple(game.deck[1:2])], game.deck[2:3])
    state.apply(CALL)
    view = MatchState(1, 0, state.view(1))
    node = leduc_policy.tree.node_of(state)
    bucket = leduc_policy.abstraction.bucket(view.hole_cards, (), 0)
    assert list(player.distribution(view).values()) == pytest.approx(list(leduc_policy.row(node, bucket)))
    probabilities = player.action_probabilities(view)
    assert sum(probabilities.values()) == pytest.approx(1.0) and all(state.can(a) for a in probabilities)
    assert player.probability_key(view) == bucket
    outcome = run_inprocess_match(game, 300, 7, [player, RandomPlayer(game, 2)], ["policy", "random"])
    assert outcome.illegal_actions == {"policy": 0, "random": 0}
    assert outcome.totals["policy"] > 0


def test_the_round_trees_learn_a_player_and_become_a_table():
    game = load_game("leduc")
    abstract = AbstractGame.exact(game)
    model = RoundTreeModel(game.num_rounds, grace_period=20)
    rng = random.Random(5)
    for _ in range(4500):  # position 0 always raises when it may, position 1 always calls
        cards = rng.sample(list(game.deck), 3)
        state = HandState(game, [(cards[0],), (cards[1],)], cards[2:])
        while not state.finished:
            state.apply(LIMIT_RAISE if state.current_player == 0 and state.can(LIMIT_RAISE) else CALL)
        for position in (0, 1):
            for r, x, action in decision_rows(state, position, abstract.abstraction.bucket, cards="all"):
                model.learn(r, x, action)
    table = model_table(abstract.tree, model)
    root = abstract.tree.infoset_base[0]
    raise_column = abstract.tree.actions[0].index(LIMIT_RAISE)
    assert abstract.tree.player[0] == 0 and table[root, raise_column] > 0.9  # position 0 acts first: it raises
    assert np.allclose(table.sum(axis=1), 1.0)


@LEDUC_POLICY
@pytest.mark.slow
def test_solve_train_rnr_and_exploitability_from_the_command_line(tmp_path, leduc_policy):
    game = load_game("leduc")
    log = tmp_path / "match.log"
    player = AbstractPolicyPlayer(game, 1, leduc_policy)
    run_inprocess_match(game, 400, 3, [player, RandomPlayer(game, 2)], ["eq", "rnd"], log_path=log)
    model = tmp_path / "model.npz"
    result = runner.invoke(
        app, ["train-rnr", str(log), "--game", "leduc", "--player", "rnd", "--buckets", "exact", "--out", str(model)]
    )
    assert result.exit_code == 0, result.output
    assert AbstractPolicy.load(model).meta["hands"] == 400
    out, checkpoint = tmp_path / "rnr.npz", tmp_path / "run.npz"
    arguments = [
        "solve",
        "leduc",
        "--buckets",
        "exact",
        "--algorithm",
        "mcrnr",
        "--iterations",
        "40000",
        "--model",
        str(model),
    ]
    arguments += ["--out", str(out), "--checkpoint", str(checkpoint), "--checkpoint-every", "20000", "--seed", "3"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    assert AbstractPolicy.load(out).meta["iterations"] == 40_000 and checkpoint.exists()
    result = runner.invoke(app, ["exploitability", "leduc", str(out)])
    assert result.exit_code == 0 and "exact" in result.output


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["solve", "leduc", "--buckets", "exact", "--algorithm", "cfr+", "--iterations", "10"], "unknown algorithm"),
        (
            ["solve", "holdem-limit-2p", "--buckets", "10", "--algorithm", "os-mccfr", "--iterations", "10"],
            "need --deals",
        ),
        (["solve", "leduc", "--buckets", "ten", "--algorithm", "os-mccfr", "--iterations", "10"], "positive count"),
        (["solve", "leduc", "--buckets", "exact", "--algorithm", "mcrnr", "--iterations", "10"], "needs --model"),
        (["train-rnr", "missing.log", "--game", "leduc", "--player", "x", "--buckets", "exact"], "missing.log"),
    ],
)
def test_bad_input_exits_2(arguments, message, tmp_path):
    result = runner.invoke(app, [*arguments, "--out", str(tmp_path / "o.npz")])
    assert result.exit_code == 2
    assert message in result.output


def test_a_responder_without_memory_is_refused_in_one_line():
    result = runner.invoke(app, ["exploitability", "holdem-limit-2p", "policy.npz", "--memory", "0"])
    assert result.exit_code == 2
    assert "--memory must be at least 1 round, got 0" in result.output


def test_shipped_names_and_blueprints():
    registry = default_registry()
    limit, nolimit, kuhn = load_game("holdem-limit-2p"), load_game("holdem-nolimit-2p"), load_game("kuhn")
    assert set(SHIPPED) == {"mccfr10", "mccfr100", "mcts10", "mcrnr10", "mccfr10-nl"} == set(SHIPPED_GAMES)
    for name in (*SHIPPED, "blueprint"):
        assert name in registry.names()
    assert plays_shipped(limit) and plays_shipped(nolimit) and not plays_shipped(kuhn)
    assert plays_shipped(limit, "mccfr10") and not plays_shipped(nolimit, "mccfr10")
    assert plays_shipped(nolimit, "mccfr10-nl") and not plays_shipped(limit, "mccfr10-nl")
    assert blueprint_name(limit) == BLUEPRINTS["holdem-limit-2p"] and blueprint_name(kuhn) is None
    assert blueprint_name(nolimit) == "mccfr10-nl"


@pytest.mark.parametrize(
    ("name", "game_name"), [*((n, SHIPPED_GAMES[n]) for n in SHIPPED), *(("blueprint", g) for g in BLUEPRINTS)]
)
def test_shipped_players_play_their_games(name, game_name):
    game = load_game(game_name)
    registry = default_registry()
    player = registry.create(name, game, seed=1)
    outcome = run_inprocess_match(game, 30, 5, [player, RandomPlayer(game, 2)], [name, "random"])
    assert outcome.illegal_actions == {name: 0, "random": 0}
    assert player.policy.meta["iterations"] > 10_000_000


def test_policy_name_plays_a_saved_abstract_policy(tmp_path):
    """``policy:PATH`` with a ``.npz`` from ``pokerbot solve`` plays it like the shipped name does;
    a file that is no abstract policy fails with its path in the message."""
    from importlib import resources

    registry = default_registry()
    game = load_game("holdem-limit-2p")
    source = resources.files("pokerbot.strategies").joinpath("abstract", "data", "mcrnr10.npz")
    saved = tmp_path / "saved.npz"
    saved.write_bytes(source.read_bytes())
    from_file = registry.create(f"policy:{saved}", game, seed=3)
    shipped = registry.create("mcrnr10", game, seed=3)
    assert isinstance(from_file, AbstractPolicyPlayer)
    assert np.array_equal(from_file.policy.probabilities, shipped.policy.probabilities)
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="broken.npz"):
        registry.create(f"policy:{broken}", game, seed=3)
