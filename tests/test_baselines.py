"""Baseline strategies: legality everywhere, the example player's frequencies, the push-fold
chart, and exact results where the rules fix them."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action, ActionKind
from pokerbot.protocol.analysis.preflop import combos_of, hand_class
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.dealing import Dealer
from pokerbot.protocol.game import BUILTIN_GAMES, Game, load_game, parse_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.baselines import BASELINES, PushFold, RandomPlayer, effective_stack_bb
from pokerbot.strategies.push_fold_chart import MIN_PUSH_FRACTION, TOTAL_COMBOS, push_fold_chart, push_fraction
from pokerbot.strategies.registry import default_registry

REGISTRY = default_registry()
SEARCHING = {"miximax"}
"""Strategies that search for up to a second a decision: their legality is tested in their own files."""
STRATEGY_NAMES = [name for name in REGISTRY.names() if REGISTRY.info(name).argument is None and name not in SEARCHING]
"""Every fast registered strategy that needs no argument (``policy:PATH`` is tested elsewhere)."""
SUPPORTED_PAIRS = [
    (name, game_name)
    for name in STRATEGY_NAMES
    for game_name in sorted(BUILTIN_GAMES)
    if REGISTRY.info(name).supports(load_game(game_name))
]


def view_of(state: HandState, hand_number: int = 0) -> MatchState:
    """The acting player's view of ``state``."""
    position = state.current_player
    assert position is not None
    return MatchState(position, hand_number, state.view(position))


def test_registry_holds_every_baseline_with_a_one_line_summary() -> None:
    assert {cls.name for cls in BASELINES} <= set(STRATEGY_NAMES)
    for name in STRATEGY_NAMES:
        info = REGISTRY.info(name)
        assert info.summary and "\n" not in info.summary
    for cls in BASELINES:
        assert REGISTRY.create(cls.name, load_game("leduc"), 3).name == cls.name


def play_checked(game: Game, names: list[str], seed: int, hands: int) -> None:
    """Play ``hands`` hands, asserting that every action of every strategy is legal."""
    players = [REGISTRY.create(name, game, seed + seat) for seat, name in enumerate(names)]
    dealer = Dealer(game, seed)
    for hand_number in range(hands):
        deal = dealer.deal()
        state = HandState(game, deal.hole_cards, deal.board_cards)
        while not state.finished:
            view = view_of(state, hand_number)
            seat = (view.position + hand_number) % game.num_players
            action = players[seat].decide(view, math.inf)
            assert isinstance(action, Action)
            state.verify(action)  # raises IllegalActionError with the reason
            state.apply(action)


@pytest.mark.parametrize(("name", "game_name"), SUPPORTED_PAIRS)
def test_every_strategy_is_legal_in_every_game_against_random(name: str, game_name: str) -> None:
    game = load_game(game_name)
    play_checked(game, [name] + ["random"] * (game.num_players - 1), seed=11, hands=150)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game_name=st.sampled_from(sorted(BUILTIN_GAMES)),
    names=st.lists(st.sampled_from(STRATEGY_NAMES), min_size=3, max_size=3),
    seed=st.integers(0, 2**32 - 1000),
)
def test_strategies_only_return_legal_actions_in_any_company(game_name: str, names: list[str], seed: int) -> None:
    game = load_game(game_name)
    names = [name if REGISTRY.info(name).supports(game) else "random" for name in names]
    play_checked(game, names[: game.num_players], seed, hands=10)


def frequencies(player: Strategy, state: HandState, draws: int) -> tuple[Counter[ActionKind], list[int]]:
    view = view_of(state)
    kinds: Counter[ActionKind] = Counter()
    sizes = []
    for _ in range(draws):
        action = player.decide(view, math.inf)
        kinds[action.kind] += 1
        if action.kind is ActionKind.RAISE:
            sizes.append(action.size)
    return kinds, sizes


def assert_close(count: int, draws: int, probability: float) -> None:
    sd = math.sqrt(probability * (1 - probability) / draws)
    assert abs(count / draws - probability) < 4.5 * sd + 1e-12, (count / draws, probability)


def test_random_player_frequencies_where_everything_is_legal() -> None:
    game = load_game("holdem-nolimit-2p")
    state = HandState(game)  # the small blind acts first: fold, call and raise are legal
    legal = state.legal_actions()
    assert legal.can_fold and legal.can_raise
    draws = 20_000
    kinds, sizes = frequencies(RandomPlayer(game, seed=5), state, draws)
    assert_close(kinds[ActionKind.FOLD], draws, 0.06)
    assert_close(kinds[ActionKind.CALL], draws, 0.47)
    assert_close(kinds[ActionKind.RAISE], draws, 0.47)
    low, high = legal.min_raise_to, legal.max_raise_to
    assert low <= min(sizes) and max(sizes) <= high
    mean, spread = (low + high) / 2, (high - low) / math.sqrt(12 * len(sizes))
    assert abs(sum(sizes) / len(sizes) - mean) < 4.5 * spread  # uniform sizes


def test_random_player_renormalises_among_legal_actions() -> None:
    game = load_game("kuhn")
    state = HandState(game)
    state.apply(LIMIT_RAISE)  # a bet: the one raise of the round is used, fold and call remain
    draws = 20_000
    kinds, _ = frequencies(RandomPlayer(game, seed=6), state, draws)
    assert kinds[ActionKind.RAISE] == 0
    assert_close(kinds[ActionKind.FOLD], draws, 0.06 / 0.53)
    check = HandState(game)  # nothing to call: check or bet, half each
    kinds, _ = frequencies(RandomPlayer(game, seed=7), check, draws)
    assert kinds[ActionKind.FOLD] == 0
    assert_close(kinds[ActionKind.CALL], draws, 0.5)


def test_fixed_action_players() -> None:
    nolimit = load_game("holdem-nolimit-2p")
    deal = Dealer(nolimit, 1).deal()
    state = HandState(nolimit, deal.hole_cards, deal.board_cards)
    legal = state.legal_actions()
    fixed = ("always-call", "always-fold", "always-raise", "always-allin")
    decide = {name: REGISTRY.create(name, nolimit, 0).decide(view_of(state), math.inf) for name in fixed}
    assert decide["always-call"] == CALL
    assert decide["always-fold"] == FOLD
    assert decide["always-raise"] == Action.raise_to(legal.min_raise_to)
    assert decide["always-allin"] == Action.raise_to(legal.max_raise_to) == Action.raise_to(20000)
    state.apply(Action.raise_to(20000))  # facing all-in: no raise is legal
    for name in ("always-raise", "always-allin"):
        assert REGISTRY.create(name, nolimit, 0).decide(view_of(state), math.inf) == CALL
    kuhn = load_game("kuhn")
    opening = HandState(kuhn)
    assert REGISTRY.create("always-fold", kuhn, 0).decide(view_of(opening), math.inf) == CALL  # free check
    assert REGISTRY.create("always-raise", kuhn, 0).decide(view_of(opening), math.inf) == LIMIT_RAISE


def test_always_fold_against_always_call_in_kuhn_is_a_showdown_of_the_cards() -> None:
    """Blinds are equal, so nobody may fold: both check, the higher card wins the 1-chip ante."""
    game = load_game("kuhn")
    seed, hands = 42, 300
    players = [REGISTRY.create("always-fold", game, 1), REGISTRY.create("always-call", game, 2)]
    dealer, expected_dealer = Dealer(game, seed), Dealer(game, seed)
    totals = [0.0, 0.0]
    expected = [0, 0]
    for hand_number in range(hands):
        deal = dealer.deal()
        state = HandState(game, deal.hole_cards, deal.board_cards)
        while not state.finished:
            view = view_of(state, hand_number)
            state.apply(players[(view.position + hand_number) % 2].decide(view, math.inf))
        assert state.betting_string() == "cc"
        for position, value in enumerate(state.values()):
            totals[(position + hand_number) % 2] += value
        cards = expected_dealer.deal().hole_cards
        winner = 0 if cards[0][0] > cards[1][0] else 1  # card order is rank order in a 1-suit deck
        expected[(winner + hand_number) % 2] += 1
        expected[(1 - winner + hand_number) % 2] -= 1
    assert totals == [float(v) for v in expected]
    assert sum(abs(v) for v in expected) > 0


def test_push_fold_chart_ranks_all_169_classes_once() -> None:
    chart = push_fold_chart()
    assert len(chart.ranking) == len(set(chart.ranking)) == 169
    assert sum(combos_of(label) for label in chart.ranking) == TOTAL_COMBOS
    assert chart.ranking[0] == "AA" and chart.ranking[1] == "KK"
    assert chart.ranking.index("AKs") < chart.ranking.index("72o")
    assert list(chart.equity[label] for label in chart.ranking) == sorted(chart.equity.values(), reverse=True)
    assert chart.pushed(1e12)  # deep stacks still push the premium hands
    assert len(chart.pushed(1.0)) == 169


@settings(max_examples=200, deadline=None)
@given(
    label=st.deferred(lambda: st.sampled_from(push_fold_chart().ranking)),  # the chart when first drawn
    small=st.floats(0.0, 1000.0, allow_nan=False),
    extra=st.floats(0.0, 1000.0, allow_nan=False),
)
def test_push_fold_chart_is_monotone_in_the_stack(label: str, small: float, extra: float) -> None:
    chart = push_fold_chart()
    if chart.pushes(label, small + extra):
        assert chart.pushes(label, small)
    assert push_fraction(small) >= push_fraction(small + extra) >= MIN_PUSH_FRACTION


def test_hand_classes() -> None:
    assert hand_class(cards_from_string("KsAs")) == "AKs"
    assert hand_class(cards_from_string("2c7d")) == "72o"
    assert hand_class(cards_from_string("TdTh")) == "TT"


def shallow_nolimit(stack: int) -> Game:
    return parse_game(
        "GAMEDEF\nnolimit\nnumPlayers = 2\nnumRounds = 4\n"
        f"stack = {stack} {stack}\nblind = 100 50\nfirstPlayer = 2 1 1 1\n"
        "numSuits = 4\nnumRanks = 13\nnumHoleCards = 2\nnumBoardCards = 0 3 1 1\nEND GAMEDEF\n"
    )


@pytest.mark.parametrize("stack_bb", [3, 10, 25, 200])
def test_push_fold_follows_its_chart(stack_bb: int) -> None:
    game = shallow_nolimit(stack_bb * 100)
    player = PushFold(game, seed=0)
    chart = push_fold_chart()
    dealer = Dealer(game, 9)
    for _ in range(200):
        deal = dealer.deal()
        state = HandState(game, deal.hole_cards, deal.board_cards)
        view = view_of(state)
        assert effective_stack_bb(view) == stack_bb
        action = player.decide(view, math.inf)
        shove = chart.pushes(hand_class(view.hole_cards), stack_bb)
        assert action == (Action.raise_to(stack_bb * 100) if shove else FOLD)


def test_push_fold_pushes_the_top_half_of_ranks_in_small_decks() -> None:
    kuhn = load_game("kuhn")  # ranks Q K A: K and A push, Q checks (or folds to a bet)
    for card, expected in (("Qs", CALL), ("Ks", LIMIT_RAISE), ("As", LIMIT_RAISE)):
        state = HandState(kuhn, [cards_from_string(card), None])
        assert PushFold(kuhn, 0).decide(view_of(state), math.inf) == expected
    for card, expected in (("Qs", FOLD), ("As", CALL)):  # facing a bet, no raise is left
        state = HandState(kuhn, [cards_from_string("Ks"), cards_from_string(card)])
        state.apply(LIMIT_RAISE)
        assert PushFold(kuhn, 0).decide(view_of(state), math.inf) == expected
