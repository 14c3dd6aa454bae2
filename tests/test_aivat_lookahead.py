"""AIVAT's look-ahead value (strategies/aivat/lookahead): exactly unbiased on Leduc with a
randomising hero and with an unlooked part, a miximax snapshot that answers as the agent would,
the cooler terms, ``--lookahead`` in ``pokerbot log aivat``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerbot.bot.cli.app import app
from pokerbot.protocol.actions import CALL
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.aivat.aivat import Aivat, AivatError
from pokerbot.strategies.aivat.cooler import CoolerTerms
from pokerbot.strategies.aivat.exact import finished_hands
from pokerbot.strategies.aivat.lookahead import LookaheadAivat, lookahead_values
from pokerbot.strategies.aivat.values import StakeValue
from pokerbot.strategies.miximax.player import MiximaxAgent
from pokerbot.strategies.registry import default_registry
from pokerbot.strategies.solvers import PolicyStrategy, equilibrium_policy
from pokerbot.strategies.solvers.policy import Policy

runner = CliRunner()
LEDUC_STAKE = (0.7, -1.3, 2.1, 0.4, -0.9, 1.7)


@pytest.fixture(scope="module")
def leduc() -> Game:
    return load_game("leduc")


def pure(game: Game) -> Policy:
    """The equilibrium's most likely action at every information set (a deterministic player)."""
    policy = equilibrium_policy(game)
    table = {}
    for key in policy:
        chars, probabilities = policy.actions(key), policy.probabilities(key)
        best = max(range(len(chars)), key=lambda i: probabilities[i])
        table[key] = (chars, [1.0 if i == best else 0.0 for i in range(len(chars))])
    return Policy.from_arrays(game, table)


@pytest.mark.slow
@pytest.mark.parametrize(("deterministic", "imaginary"), [(True, True), (False, False)])
def test_lookahead_is_exactly_unbiased_in_leduc(leduc: Game, deterministic: bool, imaginary: bool) -> None:
    """Position 0 known (the equilibrium; its holdings imagined or not), position 1 the hero, unknown:
    the equilibrium's most likely actions (a deterministic hero: the snapshots replay it
    exactly, every looked-ahead answer at the hand's own states is the action it took), or the
    equilibrium itself (it randomises: its looked-ahead answer, its most likely action, is often
    not the action it took). Over every hand's exact probability the look-ahead estimate's mean
    is the outcome's to the last digit, and the estimates are not the stake value's."""
    known = PolicyStrategy(leduc, 1, equilibrium_policy(leduc))
    hero_policy = pure(leduc) if deterministic else equilibrium_policy(leduc)
    hands = finished_hands(leduc, [known, PolicyStrategy(leduc, 2, hero_policy)])
    value = StakeValue(leduc, LEDUC_STAKE)
    unlooked = StakeValue(leduc, (0.2, 0.5, -0.4, 0.9, 0.3, -0.6)) if deterministic else None
    looking = LookaheadAivat(
        leduc, PolicyStrategy(leduc, 3, hero_policy), value, unlooked=unlooked, imaginary=imaginary
    )
    plain = Aivat(leduc, value, imaginary=imaginary)
    oracles = {0: known.action_probabilities}
    mean_u = mean_a = 0.0
    changed = 0
    for number, (p, state) in enumerate(hands):
        looking.start(number, 1, state)
        estimate = looking.hand(state, number, oracles).value
        looking.finish(state)
        mean_u += p * state.values()[0]
        mean_a += p * estimate
        if number % 5 == 0:  # a fifth of the hands against the stake value alone
            changed += abs(estimate - plain.hand(state, number, oracles).value) > 1e-9
    assert mean_a == pytest.approx(mean_u, abs=1e-12)
    assert changed > len(hands) // 50
    assert looking.searches > 0
    assert (looking.mismatches == 0) == deterministic


def test_lookahead_needs_its_hand_started(leduc: Game) -> None:
    hero = PolicyStrategy(leduc, 2, equilibrium_policy(leduc))
    looking = LookaheadAivat(leduc, hero, StakeValue(leduc, LEDUC_STAKE))
    state = finished_hands(leduc, [hero, hero])[0][1]
    with pytest.raises(AivatError, match="start"):
        looking.hand(state, 0, {})
    with pytest.raises(AivatError, match="hold'em"):
        lookahead_values(leduc)
    with pytest.raises(AivatError, match="at least one board"):
        LookaheadAivat(leduc, hero, StakeValue(leduc, LEDUC_STAKE), boards=0)


def test_miximax_snapshot_answers_as_the_agent_and_shares_what_never_changes() -> None:
    """A snapshot taken mid-hand (after a flop decision) decides the turn as the agent does, and
    asking it leaves the agent as it was; it shares the chart, the opponent models and the
    showdown model's holdings rather than copying them."""
    game = load_game("holdem-nolimit-2p")
    agent = default_registry().create("miximax:150nodes", game, 5)
    assert isinstance(agent, MiximaxAgent)
    state = HandState(game, [cards_from_string("AsKd"), cards_from_string("7h7c")], cards_from_string("Ks8d2c5h9s"))
    state.apply(CALL)
    state.apply(CALL)  # the small blind calls, the big blind checks: the flop
    me = state.current_player
    assert me is not None
    agent.decide(MatchState(me, 0, state.view(me)), float("inf"))
    state.apply(CALL)
    state.apply(CALL)  # both check the flop
    assert state.round == 2 and state.current_player == me
    turn = MatchState(me, 0, state.view(me))
    snapshot = agent.snapshot()
    asked = snapshot.action_probabilities(turn)
    assert asked == agent.snapshot().action_probabilities(turn)
    assert snapshot.decide(turn, float("inf")) == agent.decide(turn, float("inf"))
    assert isinstance(snapshot, MiximaxAgent) and snapshot.preflop is agent.preflop
    assert agent._models is not None and snapshot._models is not None
    assert all(snapshot._models[k].action is models.action for k, models in agent._models.items())
    assert snapshot._hand is not None and agent._hand is not None
    mine, theirs = snapshot._hand[1], agent._hand[1]
    assert isinstance(mine, dict) and isinstance(theirs, dict)
    (opponent,) = theirs
    assert mine[opponent] is not theirs[opponent]
    assert mine[opponent].read_only_parts()[0] is theirs[opponent].read_only_parts()[0]


@pytest.mark.slow
def test_log_aivat_lookahead(tmp_path: Path) -> None:
    """``--lookahead`` replays the unknown miximax: figures other than the stake value's, the same
    plain ones; the same figures twice; bad uses are one-line errors (exit 2)."""
    folder = tmp_path / "m"
    played = runner.invoke(
        app,
        ["match", "--game", "holdem-nolimit-2p", "--players", "miximax:100nodes", "tight-aggressive"]
        + ["--hands", "6", "--duplicate", "--in-process", "--seed", "4", "--out", str(folder), "-q"],
    )
    assert played.exit_code == 0, played.output
    logs = [str(folder / "match.log"), str(folder / "match-swapped.log")]
    base = ["log", "aivat", *logs, "--strategy", "tight-aggressive=tight-aggressive", "-q"]
    figures = []
    for extra in (["--lookahead", "1=miximax:100nodes"], ["--lookahead", "1=miximax:100nodes"], []):
        out = tmp_path / f"a{len(figures)}.json"
        result = runner.invoke(app, [*base, *extra, "--json", str(out)])
        assert result.exit_code == 0, result.output
        figures.append(json.loads(out.read_text())["players"][0])
    assert figures[0] == figures[1]
    assert figures[0]["aivat_mbb_per_hand"] != figures[2]["aivat_mbb_per_hand"]
    assert figures[0]["mbb_per_hand"] == figures[2]["mbb_per_hand"]
    for extra, message in (
        (["--lookahead", "tight-aggressive=tight-aggressive"], "is known"),
        (["--lookahead", "1=miximax:100nodes", "--value", "equity"], "stake value"),
        (["--lookahead", "1=miximax:100nodes", "--boards", "0"], "--boards must be at least 1"),
        (["--lookahead", "nobody=miximax"], "expected SEAT=NAME"),
    ):
        result = runner.invoke(app, [*base, *extra])
        assert result.exit_code == 2 and message in result.output, result.output


def test_cooler_terms_on_a_hand_built_board_and_chance_consistent() -> None:
    """AsAh against KsKh on 2c 7d 9h Js 3c: the loser holds a pair (not two pair), position 0
    wins: the first term is the chips behind, the second 0; exchanging the holdings negates
    them; on the turn the expectations are the average over the 44 river cards."""
    game = load_game("holdem-nolimit-2p")
    terms = CoolerTerms(game, (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 3.0))
    aces, kings = cards_from_string("AsAh"), cards_from_string("KsKh")
    board = cards_from_string("2c7d9hJs3c")
    state = HandState(game, [aces, kings], board)
    while state.round < 3:
        state.apply(CALL)
    behind = game.stacks[0] - max(state.spent)
    assert terms.value(state) == pytest.approx(2.0 * behind)
    state.hole_cards = [kings, aces]
    assert terms.value(state) == pytest.approx(-2.0 * behind)
    turn = board[:4]
    left = [card for card in game.deck if card not in (*aces, *kings, *turn)]
    river = sum(terms.scores((aces, kings), (*turn, card)) for card in left) / len(left)
    assert river == pytest.approx(terms.scores((aces, kings), turn))
    with pytest.raises(ValueError, match="8 coefficients"):
        CoolerTerms(game, (1.0,))
