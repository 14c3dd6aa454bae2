"""Local best response: known answers, the range update against brute force, legality."""

from __future__ import annotations

import dataclasses
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pokerbot.bot.lbr.matches import (
    RegistryStrategy,
    lbr_matches,
    plan_lbr,
    play_lbr_match,
    pool_lbr,
    run_lbr,
    summarize_lbr,
)
from pokerbot.bot.matches.executor import make_executor
from pokerbot.protocol.actions import CALL, FOLD, Action
from pokerbot.protocol.analysis.equity import equity_vs_random_all
from pokerbot.protocol.analysis.holdings import HOLDINGS, NUM_HOLDINGS
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import Game, load_game, parse_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import ActionProbabilities, Strategy
from pokerbot.strategies.exploit.lbr import LbrError, LbrSettings, LocalBestResponse, parse_betting
from pokerbot.strategies.registry import default_registry

NOLIMIT = load_game("holdem-nolimit-2p")
LIMIT = load_game("holdem-limit-2p")
QUICK = LbrSettings(equity_samples=200)
"""Fewer pre-flop equity samples where the figure does not matter (the tests stay fast)."""


@pytest.mark.parametrize("game", [NOLIMIT, LIMIT], ids=["nolimit", "limit"])
def test_lbr_against_always_fold_wins_750_mbb(game):
    """LBR wins the big blind as the small blind (no-limit: it limps and bets the turn; limit:
    it raises, or limps and bets the flop) and the small blind as the big blind: 750
    mbb/hand, the paper's figure, in both games."""
    result = run_lbr(game, RegistryStrategy("always-fold"), 60, 1, settings=QUICK)
    assert result.mbb_per_hand == pytest.approx(750.0, rel=0.02)
    assert result.illegal_actions == 0 and result.hands == 60 and result.deals == 30
    assert result.chips_per_hand == pytest.approx(0.75 * game.big_blind, rel=0.02)


def river_spot() -> tuple[HandState, int]:
    """A no-limit river where LBR (position 0, the big blind) faces a bet after the opponent
    raised pre-flop, bet the flop and checked the turn; returns the state and LBR's position."""
    state = HandState(NOLIMIT, [cards_from_string("AhKd"), None], cards_from_string("Ts9h4c2s3d"))
    for action in (Action.raise_to(250), CALL, CALL, Action.raise_to(500), CALL, CALL, CALL, CALL):
        state.apply(action)
    state.apply(Action.raise_to(1500))
    assert state.current_player == 0
    return state, 0


def brute_force_range(opponent: Strategy, state: HandState, me: int) -> np.ndarray:
    """P(every opponent action | h) for each holding, replaying the hand for each one."""
    weights = np.zeros(NUM_HOLDINGS)
    used = set(state.hole_cards[me]) | set(state.visible_board())
    history = state.history()
    for h, (low, high) in enumerate(HOLDINGS):
        if low in used or high in used:
            continue
        replay = HandState(state.game, [state.hole_cards[me], (int(high), int(low))], state.board_cards)
        weight = 1.0
        for _round, actor, action in history:
            if actor != me:
                view = MatchState(actor, 0, replay.view(actor))
                weight *= opponent.action_probability(view, action)
            replay.apply(action)
        weights[h] = weight
    return weights / weights.sum()


def played_river_spot(opponent: Strategy, game: Game) -> tuple[HandState, int]:
    """A river decision of LBR (position 0, always calling) after the opponent raised at
    least once, the opponent playing its own sampled actions with dealt cards."""
    from pokerbot.protocol.dealing import Dealer

    dealer = Dealer(game, 5)
    for _ in range(2000):
        deal = dealer.deal()
        state = HandState(game, deal.hole_cards, deal.board_cards)
        while not state.finished and not (state.round == 3 and state.current_player == 0):
            position = state.current_player
            if position == 0:
                state.apply(CALL)
            else:
                state.apply(opponent.decide(MatchState(1, 0, state.view(1)), math.inf))
        if not state.finished and any(a.kind.name == "RAISE" for _r, p, a in state.history() if p == 1):
            return state, 0
    raise AssertionError("no river spot found")


@pytest.mark.parametrize("game", [NOLIMIT, LIMIT], ids=["nolimit", "limit"])
@pytest.mark.parametrize("name", ["tight-aggressive", "loose-aggressive", "maniac", "random"])
def test_range_update_equals_brute_force_enumeration(game, name):
    opponent = default_registry().create(name, game, 4)
    state, me = played_river_spot(opponent, game)
    lbr = LocalBestResponse(game, 1, opponent)
    view = MatchState(me, 0, state.view(me))
    lbr.update_range(view)
    expected = brute_force_range(opponent, state, me)
    np.testing.assert_allclose(lbr.range / lbr.range.sum(), expected, atol=1e-12)


class Costly(Strategy):
    """A strategy that declares its probabilities costly (LBR then samples holdings): bets the
    river all-in with the holdings stronger than ``threshold`` (equity against a random hand;
    0.66: about the top third), checks otherwise."""

    name = "costly"

    def __init__(self, game: Game, seed: int | None = None, threshold: float = 0.66) -> None:
        super().__init__(game, seed)
        self.threshold = threshold

    def costly_probabilities(self, view: MatchState) -> bool:
        return True

    def decide(self, view: MatchState, deadline: float) -> Action:
        return max(self.action_probabilities(view).items(), key=lambda item: item[1])[0]

    def action_probabilities(self, view: MatchState) -> ActionProbabilities:
        state = view.state
        board = tuple(state.visible_board())
        if len(board) < 5:
            return {CALL: 1.0}
        win, tie = equity_vs_random_all(board)
        strength = (win + tie / 2)[_index(view.hole_cards)]
        legal = state.legal_actions()
        if strength > self.threshold and legal.can_raise:
            return {Action.raise_to(legal.max_raise_to): 1.0}
        return {CALL: 1.0}


def _index(cards: tuple[int, ...]) -> int:
    from pokerbot.protocol.analysis.holdings import holding_index

    return holding_index(cards)


def test_a_sampled_range_update_finds_a_threshold_strategy_s_range():
    state = HandState(NOLIMIT, [cards_from_string("AhKd"), None], cards_from_string("Ts9h4c2s3d"))
    for action in (CALL, CALL, CALL, CALL, CALL, CALL, CALL):
        state.apply(action)
    state.apply(Action.raise_to(20000))
    exact = LocalBestResponse(NOLIMIT, 1, Costly(NOLIMIT), LbrSettings(exact_queries=True))
    sampled = LocalBestResponse(NOLIMIT, 1, Costly(NOLIMIT), LbrSettings(max_queries=16))
    view = MatchState(0, 0, state.view(0))
    exact.update_range(view)
    sampled.update_range(view)
    opponent_actions = 4  # three checks and the all-in
    assert sampled.queries <= 16 * opponent_actions < exact.queries
    exact_range = exact.range / exact.range.sum()
    sampled_range = sampled.range / sampled.range.sum()
    assert 0.5 * np.abs(exact_range - sampled_range).sum() < 0.05  # total variation distance


@pytest.mark.parametrize("threshold", [0.97, 0.99])
def test_a_sampled_range_update_finds_a_rare_action(threshold):
    """A river shove with the top 2% (1%) of holdings: evenly spaced samples all check, so the
    sampled update looks for the holdings that shove (strongest first) and finds the exact range."""
    state = HandState(NOLIMIT, [cards_from_string("AhKd"), None], cards_from_string("Ts9h4c2s3d"))
    for action in (CALL, CALL, CALL, CALL, CALL, CALL, CALL):
        state.apply(action)
    state.apply(Action.raise_to(20000))
    view = MatchState(0, 0, state.view(0))
    exact = LocalBestResponse(NOLIMIT, 1, Costly(NOLIMIT, threshold=threshold), LbrSettings(exact_queries=True))
    sampled = LocalBestResponse(NOLIMIT, 1, Costly(NOLIMIT, threshold=threshold), LbrSettings(max_queries=16))
    exact.update_range(view)
    sampled.update_range(view)
    assert 0 < np.count_nonzero(exact.range) < 40
    np.testing.assert_allclose(sampled.range / sampled.range.sum(), exact.range / exact.range.sum(), atol=1e-12)


@pytest.mark.parametrize("game", [NOLIMIT, LIMIT], ids=["nolimit", "limit"])
@pytest.mark.parametrize("name", ["random", "maniac", "always-raise", "always-allin", "push-fold"])
def test_lbr_never_makes_an_illegal_action(game, name):
    result = run_lbr(game, RegistryStrategy(name), 16, 3, settings=QUICK)
    assert result.illegal_actions == 0


def short_stacks() -> Game:
    text = """GAMEDEF
nolimit
numPlayers = 2
numRounds = 4
stack = 1500 900
blind = 20 10
firstPlayer = 2 1 1 1
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""
    return parse_game(text)


def test_lbr_plays_unequal_short_stacks_legally():
    for name in ("random", "always-allin", "tight-aggressive"):
        result = run_lbr(short_stacks(), RegistryStrategy(name), 24, 2, settings=QUICK)
        assert result.illegal_actions == 0


def test_every_candidate_action_is_legal_and_valued():
    state, me = river_spot()
    opponent = default_registry().create("tight-aggressive", NOLIMIT, 4)
    lbr = LocalBestResponse(NOLIMIT, 1, opponent)
    view = MatchState(me, 0, state.view(me))
    lbr.update_range(view)
    choices = lbr.value_actions(view)
    assert [c.action for c in choices[:2]] == [FOLD, CALL]
    assert {c.action.size for c in choices[2:]} == {4500, 20000}  # pot raise: 1,500 + (2,000 + 1,000 to call), all-in
    for choice in choices:
        assert state.can(choice.action) and math.isfinite(choice.value)
    assert choices[0].value == -500.0  # folding loses what LBR put in


def test_the_paper_s_56_sizes_are_its_pot_fractions_clamped_and_merged():
    state, me = river_spot()
    opponent = default_registry().create("tight-aggressive", NOLIMIT, 4)
    lbr = LocalBestResponse(NOLIMIT, 1, opponent, LbrSettings(betting="fc/fc/fcs/fcs"))
    view = MatchState(me, 0, state.view(me))
    lbr.update_range(view)
    sizes = [c.action.size for c in lbr.value_actions(view)[2:]]
    legal = state.legal_actions()
    after_call = state.pot + legal.call_amount
    expected = {
        min(max(state.max_spent + int(0.05 * 1.15**k * after_call), legal.min_raise_to), 20000) for k in range(56)
    }
    assert sizes == sorted(expected | {20000})
    assert len(sizes) == len(set(sizes)) and sizes[-1] == 20000 and sizes[0] == legal.min_raise_to


def test_lbr_bets_into_a_folder_and_checks_down_against_a_caller():
    state = HandState(NOLIMIT, [cards_from_string("7c2d"), None], cards_from_string("AsKsQs8h9h"))
    for action in (CALL, CALL, CALL, CALL, CALL, CALL):
        state.apply(action)
    view = MatchState(0, 0, state.view(0))
    folder = LocalBestResponse(NOLIMIT, 1, default_registry().create("always-fold", NOLIMIT, 1))
    caller = LocalBestResponse(NOLIMIT, 1, default_registry().create("always-call", NOLIMIT, 1))
    assert folder.decide(view, math.inf).kind.name == "RAISE"
    assert all(c.fold_probability == pytest.approx(1.0) for c in folder.last_choices if c.action.kind.name == "RAISE")
    assert caller.decide(view, math.inf) == CALL  # 7-high cannot bet into a caller


def test_results_are_reproducible_for_a_seed():
    first = run_lbr(NOLIMIT, RegistryStrategy("tight-aggressive"), 10, 8, settings=QUICK)
    second = run_lbr(NOLIMIT, RegistryStrategy("tight-aggressive"), 10, 8, settings=QUICK)
    assert first.deal_values == second.deal_values and len(first.deal_values) == 5
    assert first.mbb_per_hand == second.mbb_per_hand
    assert first.mbb_per_hand_ci95 == second.mbb_per_hand_ci95


@pytest.mark.slow
@pytest.mark.xdist_group("ray")  # one local Ray instance at a time (test_scale.py has the other)
def test_a_local_ray_gives_the_same_result_as_this_process():
    """The matches as tasks of a local Ray (two workers) give this process's figure, and the
    progress of every hand reaches the caller."""
    one = run_lbr(NOLIMIT, RegistryStrategy("random"), 20, 4, match_hands=5, settings=QUICK)
    ticks: list[int] = []
    with make_executor(2) as executor:
        two = run_lbr(
            NOLIMIT,
            RegistryStrategy("random"),
            20,
            4,
            executor=executor,
            match_hands=5,
            settings=QUICK,
            on_hand=lambda: ticks.append(1),
        )
    assert one.deal_values == two.deal_values and one.mbb_per_hand == two.mbb_per_hand and len(ticks) == 20


def test_runs_on_two_seeds_pool_into_one_figure_over_all_their_deals(tmp_path):
    """pool_lbr (and benchmarks/research/lbr_pool.py on the runs' JSON) reports the deals of both runs
    as one run would; it refuses runs of another cell or a seed given twice."""
    factory = RegistryStrategy("tight-aggressive")
    first = run_lbr(NOLIMIT, factory, 12, 8, settings=QUICK, game_name="holdem-nolimit-2p", strategy_name="ta")
    second = run_lbr(NOLIMIT, factory, 8, 9, settings=QUICK, game_name="holdem-nolimit-2p", strategy_name="ta")
    pooled = pool_lbr([first, second], NOLIMIT)
    values = first.deal_values + second.deal_values
    assert pooled.deal_values == values and pooled.hands == 20 and pooled.deals == 10
    assert pooled.mbb_per_hand == pytest.approx(np.mean(values) * 1000 / NOLIMIT.big_blind)
    half = 1.96 * np.std(values, ddof=1) / math.sqrt(10) * 1000 / NOLIMIT.big_blind
    assert pooled.mbb_per_hand_ci95 == pytest.approx(half) and pooled.pooled_seeds == [8, 9]
    assert pooled.match_hands == 4  # the shorter run's matches (4 deals; the first's 6)
    with pytest.raises(LbrError, match="share a seed"):
        pool_lbr([first, first], NOLIMIT)
    with pytest.raises(LbrError, match="different cells: strategy"):
        pool_lbr([first, dataclasses.replace(second, strategy="other")], NOLIMIT)
    paths = [tmp_path / "a.json", tmp_path / "b.json"]
    for path, result in zip(paths, (first, second)):
        path.write_text(json.dumps(result.to_dict()), encoding="utf-8")
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "research" / "lbr_pool.py"
    out = tmp_path / "pooled.json"
    done = subprocess.run([sys.executable, script, *paths, "--json", out], capture_output=True, text=True, check=True)
    assert "20 hands" in done.stdout and json.loads(out.read_text())["mbb_per_hand"] == pooled.mbb_per_hand
    refused = subprocess.run([sys.executable, script, paths[0], paths[0]], capture_output=True, text=True)
    assert refused.returncode == 2 and refused.stderr.startswith("error: cannot pool runs that share a seed")


def test_lbr_matches_counts_the_tasks_of_a_run():
    assert lbr_matches(20, 5) == 4 and lbr_matches(20, None) == 2 and lbr_matches(22, 5) == 6
    assert lbr_matches(0, None) == 0 and lbr_matches(20, 0) == 0
    assert lbr_matches(22, 5) == len(plan_lbr(NOLIMIT, RegistryStrategy("random"), 22, 1, match_hands=5))


def test_planned_matches_played_one_by_one_give_run_lbr_s_figure():
    """The units another executor (Ray) would play, in any order, summarised in plan order."""
    factory = RegistryStrategy("tight-aggressive")
    matches = plan_lbr(NOLIMIT, factory, 12, 6, settings=QUICK, match_hands=2)
    assert len(matches) == 6 and [m.lbr_first for m in matches[:2]] == [True, False]
    played = {i: play_lbr_match(matches[i]) for i in reversed(range(len(matches)))}
    summary = summarize_lbr(matches, [played[i] for i in range(len(matches))], 1.0, seed=6)
    direct = run_lbr(NOLIMIT, factory, 12, 6, settings=QUICK, match_hands=2)
    assert summary.deal_values == direct.deal_values and summary.mbb_per_hand == direct.mbb_per_hand
    assert summary.match_hands == 2 and summary.hands == 12


def test_betting_sets_parse_and_reject_bad_letters():
    assert parse_betting("fc/fc/fcpa/fcpa", 4) == ("fc", "fc", "fcpa", "fcpa")
    assert parse_betting("FCR", 4) == ("fcr",) * 4
    assert parse_betting("fc/fc/fcs/fcs", 4)[3] == "fcs"
    for bad in ("fx", "f/fc", "", "fc//fc"):
        with pytest.raises(LbrError):
            parse_betting(bad, 4)
    with pytest.raises(ValueError):
        LbrSettings(betting="zz")


def test_lbr_refuses_games_it_does_not_play():
    with pytest.raises(LbrError, match="heads-up hold'em"):
        LocalBestResponse(load_game("leduc"), 1, default_registry().create("random", load_game("leduc"), 1))
    with pytest.raises(LbrError, match="even"):
        run_lbr(NOLIMIT, RegistryStrategy("random"), 7, 1)


@pytest.mark.slow
def test_lbr_exploits_always_call_more_than_miximax_does():
    """On the same 200 deals (duplicate, seed 11) LBR wins more from always-call than the
    project's best exploiter of it, miximax, did (recorded: tests/fixtures; 1,000 deals in
    docs/lbr.md)."""
    recorded = json.loads((Path(__file__).parent / "fixtures" / "miximax_vs_always_call_seed11.json").read_text())
    miximax = recorded["deal_values"]
    result = run_lbr(NOLIMIT, RegistryStrategy("always-call"), 2 * len(miximax), 11)
    assert sum(result.deal_values) > sum(miximax)


def test_preflop_equity_against_a_uniform_range_is_the_class_table():
    """A range still uniform pre-flop (a random hand) is valued with the abstraction's exact
    class table, which the Monte Carlo agrees with; a range that is not keeps the Monte Carlo."""
    from pokerbot.protocol.analysis.equity import equity_vs_ranges
    from pokerbot.protocol.analysis.holdings import conflict_mask, holding_index
    from pokerbot.protocol.analysis.preflop import preflop_equity

    lbr = LocalBestResponse(NOLIMIT, 3, default_registry().create("always-call", NOLIMIT, 3))
    for text in ("AsAh", "7c2d", "JhTh"):
        hole = tuple(cards_from_string(text))
        uniform = np.where(conflict_mask(hole), 0.0, 1.0 / 1225)
        table = float(preflop_equity()[holding_index(hole)])
        assert lbr._equity(hole, (), uniform) == table
        sampled = float(equity_vs_ranges(hole, (), uniform, samples=4000, seed=1)[0])
        assert abs(sampled - table) < 0.025  # 3 standard deviations of 4,000 samples
        skewed = uniform.copy()
        skewed[np.flatnonzero(skewed)[:300]] *= 2.0
        assert lbr._equity(hole, (), skewed) != table
    assert lbr._equity(tuple(cards_from_string("AsAh")), tuple(cards_from_string("2c3d4h")), uniform) != table


@pytest.mark.parametrize("name", ["always-call", "always-raise", "always-allin", "always-fold", "random"])
def test_strategies_that_ignore_their_cards_say_so_and_answer_alike(name):
    """A strategy flagged ``ignores_cards`` (LBR asks it once per range) gives every holding
    the same probabilities and the key ``()``."""
    opponent = default_registry().create(name, NOLIMIT, 1)
    assert opponent.ignores_cards
    state, _me = river_spot()
    state = HandState(NOLIMIT, [None, None], state.board_cards)
    state.apply(Action.raise_to(300))
    answers = []
    for text in ("AsAh", "7c2d", "JhTh"):
        view = state.view(1)
        view.hole_cards = [None, tuple(cards_from_string(text))]
        answers.append(opponent.action_probabilities(MatchState(1, 0, view)))
        assert opponent.probability_key(MatchState(1, 0, view)) == ()
    assert answers[0] == answers[1] == answers[2]
    assert not default_registry().create("tight-aggressive", NOLIMIT, 1).ignores_cards
