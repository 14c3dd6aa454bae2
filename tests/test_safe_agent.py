"""The safety rule of the adaptive hold'em agent (strategies/safe), on hand-built cases."""

from __future__ import annotations

import itertools
import math
import random
import time

import numpy as np
import pytest
from scipy.stats import norm

from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.protocol.actions import CALL, FOLD, Action
from pokerbot.protocol.analysis.equity import equity_vs_ranges
from pokerbot.protocol.analysis.holdings import HOLDING_INDEX, NUM_HOLDINGS
from pokerbot.protocol.analysis.preflop import preflop_equity
from pokerbot.protocol.cards import cards_from_string as parse_cards
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.baselines import AlwaysCall, AlwaysFold, AlwaysRaise
from pokerbot.strategies.registry import default_registry, default_strategy
from pokerbot.strategies.safe.agent import MAX_OPEN_HANDS, SafeExploiter
from pokerbot.strategies.safe.ledger import RiskLedger, SafetySettings
from pokerbot.strategies.safe.values import FLOP_RUNOUTS, board_equity, hand_value, luck_features

NOLIMIT = load_game("holdem-nolimit-2p")
LIMIT = load_game("holdem-limit-2p")
BB = NOLIMIT.big_blind


def ledger(**settings: float) -> RiskLedger:
    return RiskLedger(SafetySettings(**settings), BB)


def test_nothing_is_risked_before_anything_is_won():
    book = ledger()
    assert book.won() == 0.0 and book.share() == 0.0
    book.settle(0, -500.0)
    assert book.share() == 0.0


def test_the_bound_is_the_total_less_z_spreads():
    """Ten hands that each won 2 big blinds: s shrinks from the prior 10 big blinds (weight
    30 hands) towards the sample's 0; won = total - z s sqrt(n)."""
    book = ledger(risk=10.0, prior_spread=10.0, prior_hands=30.0, confidence=0.95)
    for position in itertools.islice(itertools.cycle((0, 1)), 10):
        book.settle(position, 2 * BB)
    s = math.sqrt(30 * (10 * BB) ** 2 / (30 + 9))
    assert book.spread() == pytest.approx(s)
    won = 20 * BB - norm.ppf(0.95) * s * math.sqrt(10)
    assert book.won() == pytest.approx(won)
    assert book.share() == max(0.0, min(1.0, won / (10 * BB)))


def test_a_generous_opponent_unlocks_the_exploiter_and_losses_lock_it_again():
    book = ledger(risk=10.0)
    for _ in range(5):
        book.settle(0, 50 * BB)  # an opponent that pays off big
    assert book.share() == 1.0
    for _ in range(5):
        book.settle(1, -60 * BB)  # the exploiter lost it all back
    assert book.total < 0 and book.share() == 0.0


def test_share_is_the_won_amount_over_the_risk():
    book = ledger(risk=20.0, prior_spread=1.0, prior_hands=0.0, confidence=0.5)  # z = 0: the total itself
    book.settle(0, 3 * BB)
    assert book.won() == pytest.approx(3 * BB)
    assert book.share() == pytest.approx(3 / 20)


def test_reference_values_are_booked_per_position():
    book = ledger(reference=(0.5, -0.5), confidence=0.5)
    book.settle(0, 0.5 * BB)
    book.settle(1, -0.5 * BB)
    assert book.total == pytest.approx(0.0)
    book.settle(1, 0.0)
    assert book.total == pytest.approx(0.5 * BB)


def test_an_allowance_is_credited_per_hand():
    book = ledger(allowance=0.25, confidence=0.5, risk=1.0)
    for _ in range(4):
        book.settle(0, 0.0)
    assert book.won() == pytest.approx(1.0 * BB)
    assert book.share() == 1.0


def test_an_initial_stake_exploits_from_the_first_hand_until_it_is_lost():
    """``B0`` = ``R``: the first hand is the exploiter's; losing the stake (and more, by the
    confidence term) hands the play back to the blueprint; winning keeps it."""
    book = ledger(initial=10.0, risk=10.0, prior_spread=5.0)
    assert book.won() == 0.0 and book.share() == 1.0
    book.settle(0, -10 * BB)
    assert book.share() == 0.0
    rich = ledger(initial=10.0, risk=10.0, prior_spread=5.0)
    rich.settle(0, 20 * BB)
    assert rich.budget() == pytest.approx(rich.won() + 10 * BB)
    assert rich.share() == 1.0


def test_a_cap_books_at_most_so_many_big_blinds_a_hand():
    """A cap of 20 big blinds books a lucky 190-big-blind hand as 20 (the exploiter stays off),
    where without it the same hand unlocks the exploiter; losses are booked in full."""
    capped, uncapped = ledger(cap=20.0), ledger()
    for book in (capped, uncapped):
        book.settle(0, 190 * BB)
    assert capped.total == pytest.approx(20 * BB) and capped.share() == 0.0
    assert uncapped.total == pytest.approx(190 * BB) and uncapped.share() == 1.0
    capped.settle(1, -50 * BB)
    assert capped.total == pytest.approx(-30 * BB)


def test_spared_hands_count_neither_in_the_total_nor_in_the_spread():
    """With ``spare=1`` the bound is the one of the same ledger without its best hand: one
    lucky 190-big-blind hand among small ones leaves the exploiter off (on without ``spare``),
    and a second big win takes the first one's place in the bound."""
    spared, plain, without = ledger(spare=1), ledger(), ledger()
    hands = [2.0, -3.0, 190.0, 1.0, -1.0, 4.0]
    for k, value in enumerate(hands):
        spared.settle(k % 2, value * BB)
        plain.settle(k % 2, value * BB)
        if value != 190.0:
            without.settle(k % 2, value * BB)
    assert spared.total == pytest.approx(plain.total)  # the ledger itself keeps every hand
    assert spared.spread() == pytest.approx(without.spread())
    assert spared.won() == pytest.approx(without.won()) and spared.share() == 0.0
    assert plain.share() == 1.0
    # a second big win: the 190 is still spared, the 150 counts
    spared.settle(0, 150 * BB)
    without.settle(0, 150 * BB)
    assert spared.won() == pytest.approx(without.won())
    # losses are never spared: with two to spare and one win, only the win is left out
    losing, counted = ledger(spare=2), ledger()
    for value in (-50.0, -20.0, 3.0):
        losing.settle(0, value * BB)
        counted.settle(0, value * BB)
    without_best = ledger()
    for value in (-50.0, -20.0):
        without_best.settle(0, value * BB)
    assert losing.won() == pytest.approx(without_best.won())
    assert counted.won() != pytest.approx(without_best.won())


def test_the_spread_is_each_hands_deviation_from_its_parts_mean():
    """Six blueprint hands of 2 or 4 big blinds and six exploiter hands of 40 or 44: around
    each part's mean every hand deviates by 1 or 2 big blinds; around the common mean (the
    rule before, ``spread_by_part=False``) by about 20, which the exploiter's winnings are, not
    noise. Without a prior, s^2 is the pooled within-part variance (n - 2 degrees of freedom)."""
    blueprint, exploiter = [2.0, 4.0] * 3, [40.0, 44.0] * 3
    by_part, pooled = ledger(prior_hands=0.0), ledger(prior_hands=0.0, spread_by_part=False)
    for book in (by_part, pooled):
        for k, value in enumerate(blueprint):
            book.settle(k % 2, value * BB)
        for k, value in enumerate(exploiter):
            book.settle(k % 2, value * BB, exploited=True)
    within = 6 * 1.0**2 + 6 * 2.0**2
    assert by_part.spread() == pytest.approx(math.sqrt(within / 10) * BB)
    values = np.array(blueprint + exploiter)
    assert pooled.spread() == pytest.approx(values.std(ddof=1) * BB)
    assert by_part.total == pooled.total
    z = norm.ppf(0.95)
    assert by_part.won() == pytest.approx(values.sum() * BB - z * by_part.spread() * math.sqrt(12))
    assert by_part.won() > pooled.won()
    # one part only: the same as the common mean
    alone, alone_pooled = ledger(), ledger(spread_by_part=False)
    for book in (alone, alone_pooled):
        for k, value in enumerate(exploiter):
            book.settle(k % 2, value * BB, exploited=True)
    assert alone.spread() == pytest.approx(alone_pooled.spread())
    # a spared hand leaves its own part: the 44s' part loses one of them
    spared = ledger(prior_hands=0.0, spare=1)
    for k, value in enumerate(blueprint):
        spared.settle(k % 2, value * BB)
    for k, value in enumerate(exploiter):
        spared.settle(k % 2, value * BB, exploited=True)
    rest = np.array([40.0, 44.0, 40.0, 44.0, 40.0])
    within_rest = 6 * 1.0**2 + ((rest - rest.mean()) ** 2).sum()
    assert spared.spread() == pytest.approx(math.sqrt(within_rest / 9) * BB)


def test_the_factory_takes_the_ledger_settings():
    from pokerbot.strategies.safe.agent import default_settings, safe_exploiter_factory

    assert safe_exploiter_factory(NOLIMIT, 1).ledger.settings == default_settings(NOLIMIT)
    capped = default_settings(NOLIMIT).model_copy(update={"cap": 20.0})
    assert safe_exploiter_factory(NOLIMIT, 1, "200nodes", capped).ledger.settings.cap == 20.0


def test_bad_settings_are_refused():
    with pytest.raises(ValueError):
        SafetySettings(risk=0.0)
    with pytest.raises(ValueError):
        SafetySettings(confidence=1.0)
    with pytest.raises(ValueError):
        SafetySettings(initial=-1.0)
    with pytest.raises(ValueError):
        SafetySettings(cap=0.0)
    with pytest.raises(ValueError):
        ledger().settle(2, 1.0)


def _allin_hand(mine: str, theirs: str, board: str, actions: list[Action]) -> HandState:
    state = HandState(NOLIMIT, [parse_cards(mine), parse_cards(theirs)], parse_cards(board))
    for action in actions:
        state.apply(action)
    assert state.finished and state.showdown()
    return state


def _brute_equity(mine: str, theirs: str, board: str) -> float:
    cards = parse_cards(mine + theirs + board)
    deck = [c for c in range(52) if c not in cards]
    score = 0.0
    runs = list(itertools.combinations(deck, 5 - len(parse_cards(board))))
    for run in runs:
        full = (*parse_cards(board), *run)
        a = NOLIMIT.ranker((*parse_cards(mine), *full))
        b = NOLIMIT.ranker((*parse_cards(theirs), *full))
        score += 1.0 if a > b else 0.5 if a == b else 0.0
    return score / len(runs)


def test_an_all_in_on_the_flop_is_valued_by_its_equity():
    """Position 0 (big blind) bets all-in on the flop and is called: the hand is worth the
    equity over the turn and river times the 20,000 matched chips, whatever came."""
    actions = [CALL, CALL, Action.raise_to(NOLIMIT.stacks[0]), CALL]
    state = _allin_hand("AhAd", "KsQs", "2s7sJc4d9h", actions)
    equity = _brute_equity("AhAd", "KsQs", "2s7sJc")
    assert hand_value(state, 0, luck=False) == pytest.approx((2 * equity - 1) * 20000)
    assert hand_value(state, 1, luck=False) == pytest.approx((1 - 2 * equity) * 20000)
    assert state.values()[0] == 20000  # the board that came: aces held


def test_a_pre_flop_all_in_is_valued_by_a_monte_carlo_equity():
    actions = [Action.raise_to(NOLIMIT.stacks[1]), CALL]  # the small blind shoves, the big blind calls
    state = _allin_hand("AhAd", "KcKs", "2s7sJc4d9h", actions)
    value = hand_value(state, 0, samples=20000, luck=False)
    assert value == pytest.approx((2 * 0.82 - 1) * 20000, abs=0.02 * 20000)  # AA against KK: about 82 %


def test_a_river_showdown_and_a_fold_are_the_chips_won_less_the_card_luck():
    river = _allin_hand("AhAd", "KsQs", "2s7sJc4d9h", [CALL, CALL, CALL, CALL, CALL, CALL, Action.raise_to(300), CALL])
    assert hand_value(river, 0, luck=False) == river.values()[0] == 300
    folded = HandState(NOLIMIT, [parse_cards("AhAd"), parse_cards("KsQs")], parse_cards("2s7sJc4d9h"))
    folded.apply(FOLD)
    assert hand_value(folded, 0, luck=False) == 50 and hand_value(folded, 1, luck=False) == -50
    # the luck of the deal (the small blind folded): aces get 2 m (e - mean e) taken off, m = the 50 chips matched
    table = preflop_equity()
    aces = float(table[int(HOLDING_INDEX[parse_cards("Ah")[0], parse_cards("Ad")[0]])])
    assert hand_value(folded, 0) == pytest.approx(50 - 2 * 50 * (aces - table.mean()))
    # checked down: the deal and every street's change of equity against a random holding
    board = parse_cards("2s7sJc4d9h")
    equities = [aces] + [
        float(equity_vs_ranges(parse_cards("AhAd"), board[:n], np.ones(NUM_HOLDINGS))[0]) for n in (3, 4, 5)
    ]
    luck = 2 * 50 * (aces - table.mean()) + sum(2 * 100 * (b - a) for a, b in itertools.pairwise(equities))
    checked = _allin_hand("AhAd", "KsQs", "2s7sJc4d9h", [CALL, CALL] + [CALL] * 6)
    assert hand_value(checked, 0) == pytest.approx(checked.values()[0] - luck)
    # round by round: the matched chips' terms are the corrections taken off; the chips behind
    # (the stack less the big blind's 100 at every deal here) weigh the same equity moves
    matched, behind = luck_features(checked, 0)
    assert matched.sum() == pytest.approx(checked.values()[0] - hand_value(checked, 0))
    assert matched[0] == pytest.approx(2 * 50 * (aces - table.mean()))
    assert behind == pytest.approx(matched / np.array([50, 100, 100, 100]) * (NOLIMIT.stacks[0] - 100))


def test_the_chance_corrections_have_mean_zero_over_the_card():
    """For a fixed hand and flop, the turn's correction averaged over every card we have not
    seen is zero: the value stays unbiased."""
    hole, flop = parse_cards("Th9h"), parse_cards("8h2cJd")
    seen = set(hole) | set(flop)
    before = float(equity_vs_ranges(hole, flop, np.ones(NUM_HOLDINGS))[0])
    changes = [
        float(equity_vs_ranges(hole, (*flop, card), np.ones(NUM_HOLDINGS))[0]) - before
        for card in range(52)
        if card not in seen
    ]
    assert len(changes) == 47 and max(map(abs, changes)) > 0.2
    assert sum(changes) / 47 == pytest.approx(0.0, abs=1e-12)


class Recorder(Strategy):
    """A fixed action, counting the hands it played."""

    def __init__(self, game, action: Action) -> None:
        super().__init__(game, 0)
        self.action = action
        self.hands: set[int] = set()
        self.observed = 0

    def decide(self, view, deadline):
        self.hands.add(view.hand_number)
        return self.action if view.state.can(self.action) else CALL

    def action_probabilities(self, view):
        return {self.action if view.state.can(self.action) else CALL: 1.0}

    def observe(self, view):
        self.observed += 1


def test_the_agent_starts_on_the_blueprint_and_exploits_a_generous_opponent():
    """Against always-fold every hand wins the blinds (0.75 big blinds a hand): once the
    total clears the confidence bound (after about 120 hands with the prior spread of 10 big
    blinds) the exploiter plays, more and more often."""
    blueprint, exploiter = Recorder(NOLIMIT, Action.raise_to(300)), Recorder(NOLIMIT, Action.raise_to(300))
    agent = SafeExploiter(NOLIMIT, 3, blueprint=blueprint, exploiter=exploiter)
    outcome = run_inprocess_match(NOLIMIT, 400, 1, [agent, AlwaysFold(NOLIMIT)], ["agent", "fold"])
    assert outcome.illegal_actions == {"agent": 0, "fold": 0}
    assert min(exploiter.hands) > 100
    assert agent.exploited_hands == len(exploiter.hands) > 100
    assert agent.history[-1].share == 1.0 and all(entry.value > 0 for entry in agent.history)
    assert blueprint.observed == exploiter.observed == 400 == agent.ledger.hands


def test_the_agent_keeps_to_the_blueprint_when_nothing_is_won():
    """Against always-call with the blueprint calling down too, every hand is a coin flip:
    the ledger never shows winnings at 95 % and the exploiter plays almost never."""
    blueprint, exploiter = Recorder(NOLIMIT, CALL), Recorder(NOLIMIT, Action.raise_to(20000))
    agent = SafeExploiter(NOLIMIT, 4, blueprint=blueprint, exploiter=exploiter)
    run_inprocess_match(NOLIMIT, 300, 2, [agent, AlwaysCall(NOLIMIT)], ["agent", "call"])
    assert len(exploiter.hands) < 15
    assert agent.exploited_hands == len(exploiter.hands)


def test_the_hand_draw_is_fixed_per_hand_and_answers_for_the_player_of_the_hand():
    blueprint, exploiter = Recorder(NOLIMIT, FOLD), Recorder(NOLIMIT, Action.raise_to(300))
    settings = SafetySettings(confidence=0.5, risk=48.0)  # no confidence margin: share = total / risk
    agent = SafeExploiter(NOLIMIT, 5, blueprint=blueprint, exploiter=exploiter, settings=settings)
    for _ in range(3):
        agent.ledger.settle(0, 8 * BB)
    share = agent.ledger.share()
    assert share == pytest.approx(0.5)
    state = HandState(NOLIMIT, [None, parse_cards("AhAd")])
    players = []
    for hand in range(400):
        view = MatchState(1, hand, state)
        first = agent.action_probabilities(view)
        assert agent.action_probabilities(view) == first  # asked again: the same answer
        players.append(agent.playing(view))
    assert players.count(exploiter) / 400 == pytest.approx(share, abs=0.08)


def test_a_hand_is_settled_by_the_part_that_played_it_when_the_next_hand_came_first():
    """A strategy process answers a waiting request before it observes the hand before it, so
    the agent may decide hand 1 before it settles hand 0: hand 0 is still booked to the part
    that played it (once, a single slot for the current hand booked it to hand 1's part)."""
    blueprint, exploiter = Recorder(NOLIMIT, CALL), Recorder(NOLIMIT, Action.raise_to(300))
    settings = SafetySettings(initial=20.0, risk=20.0)  # the exploiter from the first hand
    agent = SafeExploiter(NOLIMIT, 6, blueprint=blueprint, exploiter=exploiter, settings=settings)
    cards = [None, parse_cards("AhAd")]
    for hand in (0, 1):
        agent.decide(MatchState(1, hand, HandState(NOLIMIT, cards)), time.monotonic() + 1.0)
    assert exploiter.hands == {0, 1}
    for hand in (0, 1):
        state = HandState(NOLIMIT, cards)
        state.apply(FOLD)
        agent.observe(MatchState(1, hand, state))
    assert agent.exploited_hands == 2 and agent.ledger.hands == 2
    # Hands asked about and never settled (their ends skipped by a client behind) are forgotten.
    for hand in range(2, 2 + 3 * MAX_OPEN_HANDS):
        agent.playing(MatchState(1, hand, HandState(NOLIMIT, cards)))
    assert len(agent._parts) == MAX_OPEN_HANDS


def test_the_safe_agent_is_safe_miximax_and_adaptive_the_default_in_holdem():
    registry = default_registry()
    assert default_strategy(NOLIMIT) == "adaptive" and default_strategy(LIMIT) == "adaptive"
    assert default_strategy(NOLIMIT, fast=True) == "adaptive:30iterations"
    assert default_strategy(LIMIT, fast=True) == "adaptive:30iterations"
    assert default_strategy(load_game("holdem-nolimit-3p")) == "miximax"
    assert default_strategy(load_game("leduc")) == "adaptive"
    agent = registry.create("safe-miximax:0.01", LIMIT, seed=1)
    assert isinstance(agent, SafeExploiter) and agent.exploiter.settings.time_budget == 0.01
    outcome = run_inprocess_match(LIMIT, 20, 3, [agent, AlwaysRaise(LIMIT)], ["safe", "raise"])
    assert outcome.illegal_actions == {"safe": 0, "raise": 0}
    with pytest.raises(ValueError, match="time budget only in hold'em"):
        registry.create("adaptive:0.01", load_game("leduc"), seed=1)
    with pytest.raises(ValueError, match="does not play this game"):
        registry.create("safe-miximax", load_game("leduc"), seed=1)


def test_a_flop_equity_estimate_is_the_mean_of_sampled_run_outs():
    """On a flop the ledger averages the exact equities on sampled run-outs (a turn and a
    river card) of the unseen cards, drawn without replacement: an unbiased estimate."""
    hole, flop = parse_cards("Th9h"), parse_cards("8h2cJd")
    uniform = np.ones(NUM_HOLDINGS)
    exact = float(equity_vs_ranges(hole, flop, uniform)[0])
    generator = random.Random(5)
    estimate = board_equity(hole, flop, generator)
    unseen = [c for c in range(52) if c not in set(hole) | set(flop)]
    picks = random.Random(5).sample(list(itertools.combinations(unseen, 2)), FLOP_RUNOUTS)
    expected = np.mean([float(equity_vs_ranges(hole, (*flop, *pick), uniform)[0]) for pick in picks])
    assert estimate == pytest.approx(expected) and estimate != pytest.approx(exact, abs=1e-9)
    turn = (*flop, parse_cards("3s")[0])
    assert board_equity(hole, turn, generator) == pytest.approx(float(equity_vs_ranges(hole, turn, uniform)[0]))


def test_prepare_readies_both_parts():
    class Prepared(Recorder):
        prepared = 0

        def prepare(self) -> None:
            self.prepared += 1

    blueprint, exploiter = Prepared(NOLIMIT, CALL), Prepared(NOLIMIT, CALL)
    SafeExploiter(NOLIMIT, 1, blueprint=blueprint, exploiter=exploiter).prepare()
    assert blueprint.prepared == exploiter.prepared == 1
