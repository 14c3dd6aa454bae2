"""Action probabilities of every hold'em strategy: a distribution over legal actions, the one
``decide`` samples from, asked without changing what the strategy does."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.dealing import Dealer
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import ActionProbabilitiesError, Strategy
from pokerbot.strategies.baselines import RandomPlayer
from pokerbot.strategies.miximax.player import AgentSettings, MiximaxAgent
from pokerbot.strategies.miximax.search import SearchSettings
from pokerbot.strategies.registry import default_registry

HOLDEM = ("holdem-nolimit-2p", "holdem-limit-2p")
CHEAP = [
    "always-call",
    "always-fold",
    "always-raise",
    "always-allin",
    "random",
    "push-fold",
    "tight-aggressive",
    "tight-passive",
    "loose-aggressive",
    "loose-passive",
    "calling-station",
    "maniac",
    "nit",
    "bluffer",
    "switcher",
]


def decision_views(game: Game, hands: int, seed: int) -> list[MatchState]:
    """The acting player's view at every decision of ``hands`` hands of random play."""
    dealer = Dealer(game, seed)
    rng = random.Random(seed)
    players = [RandomPlayer(game, rng.randrange(1 << 30)) for _ in range(game.num_players)]
    views = []
    for number in range(hands):
        deal = dealer.deal()
        state = HandState(game, deal.hole_cards, deal.board_cards)
        while not state.finished:
            position = state.current_player
            assert position is not None
            view = MatchState(position, number, state.view(position))
            views.append(view)
            state.apply(players[position].decide(view, math.inf))
    return views


def check_distribution(view: MatchState, probabilities: dict[Action, float]) -> None:
    assert probabilities, "no action"
    assert sum(probabilities.values()) == pytest.approx(1.0, abs=1e-9)
    for action, probability in probabilities.items():
        assert probability >= 0.0
        assert view.state.can(action), f"{action} is illegal at {view.state}"


@pytest.mark.parametrize("game_name", HOLDEM)
@pytest.mark.parametrize("name", CHEAP)
def test_probabilities_are_a_distribution_over_legal_actions(game_name, name):
    game = load_game(game_name)
    strategy = default_registry().create(name, game, 3)
    for view in decision_views(game, 12, 5)[:40]:
        check_distribution(view, strategy.action_probabilities(view))


@pytest.mark.parametrize("game_name", HOLDEM)
def test_miximax_probabilities_are_its_decision(game_name):
    game = load_game(game_name)
    for name in ("miximax:0.01", "miximax-static:0.01"):
        agent = default_registry().create(name, game, 3)
        views = decision_views(game, 6, 2)
        for view in views[::3][:8]:
            probabilities = agent.action_probabilities(view)
            check_distribution(view, probabilities)
            assert list(probabilities.values()) == [1.0]
            assert agent.decide(view, math.inf) in probabilities  # the kept answer is replayed


def empirical(strategy: Strategy, view: MatchState, draws: int) -> Counter[Action]:
    counts: Counter[Action] = Counter()
    for seed in range(draws):
        strategy.rng.seed(seed)
        counts[strategy.decide(view, math.inf)] += 1
    return counts


@pytest.mark.parametrize("game_name", HOLDEM)
@pytest.mark.parametrize("name", ["random", "tight-aggressive", "maniac", "loose-aggressive", "bluffer"])
def test_decide_samples_from_the_probabilities(game_name, name):
    game = load_game(game_name)
    strategy = default_registry().create(name, game, 1)
    views = [v for v in decision_views(game, 30, 9) if v.state.round > 0][:4]
    views += [v for v in decision_views(game, 10, 4) if v.state.round == 0][:2]
    draws = 1500
    for view in views:
        probabilities = strategy.action_probabilities(view)
        counts = empirical(strategy, view, draws)
        if name == "random" and game.is_nolimit:  # sizes are uniform: compare the kinds
            by_kind: dict[object, float] = {}
            for action, p in probabilities.items():
                by_kind[action.kind] = by_kind.get(action.kind, 0.0) + p
            seen: Counter[object] = Counter()
            for action, n in counts.items():
                seen[action.kind] += n
            pairs = [(by_kind.get(k, 0.0), seen[k]) for k in set(by_kind) | set(seen)]
        else:
            pairs = [(probabilities.get(a, 0.0), counts[a]) for a in set(probabilities) | set(counts)]
        for p, n in pairs:
            tolerance = 4.5 * math.sqrt(max(p * (1 - p), 1e-4) / draws) + 0.005
            assert abs(n / draws - p) <= tolerance, (view.state, probabilities, counts)


@pytest.mark.parametrize("name", ["always-call", "always-fold", "always-raise", "always-allin", "push-fold"])
def test_deterministic_strategies_give_their_action(name):
    game = load_game("holdem-nolimit-2p")
    strategy = default_registry().create(name, game, 1)
    for view in decision_views(game, 10, 3):
        assert strategy.action_probabilities(view) == {strategy.decide(view, math.inf): 1.0}


def with_hole(view: MatchState, cards: str) -> MatchState:
    state = view.state.copy()
    state.hole_cards = list(state.hole_cards)
    state.hole_cards[view.position] = cards_from_string(cards)
    return MatchState(view.position, view.hand_number, state)


def test_holdings_of_one_class_get_the_same_probabilities_preflop():
    game = load_game("holdem-nolimit-2p")
    view = decision_views(game, 1, 1)[0]
    for name in ("push-fold", "tight-aggressive", "nit"):
        strategy = default_registry().create(name, game, 1)
        for first, second in (("AhKh", "AsKs"), ("7c2d", "7h2s"), ("QdQc", "QhQs")):
            a, b = with_hole(view, first), with_hole(view, second)
            assert strategy.probability_key(a) == strategy.probability_key(b)
            assert strategy.action_probabilities(a) == strategy.action_probabilities(b)
    caller = default_registry().create("always-call", game, 1)
    assert caller.probability_key(with_hole(view, "AhKh")) == caller.probability_key(with_hole(view, "7c2d"))


def test_styled_probabilities_follow_hand_strength_on_the_river():
    game = load_game("holdem-nolimit-2p")
    state = HandState(game, [None, None], cards_from_string("Ts9h4c2s3d"))
    for action in (CALL, CALL, CALL, CALL, CALL, CALL, Action.raise_to(300)):
        state.apply(action)
    position = state.current_player
    nit = default_registry().create("nit", game, 1)
    view = MatchState(position, 0, state)
    nuts, air = with_hole(view, "5h6h"), with_hole(view, "7c8d")
    assert nit.action_probabilities(nuts).get(FOLD, 0.0) == 0.0
    assert nit.action_probabilities(air)[FOLD] == pytest.approx(1.0)


def test_styled_probabilities_in_three_player_holdem():
    game = load_game("holdem-nolimit-3p")
    strategy = default_registry().create("loose-aggressive", game, 1)
    for view in decision_views(game, 6, 2)[:25]:
        check_distribution(view, strategy.action_probabilities(view))


def test_random_action_probability_matches_the_table():
    for game_name in HOLDEM:
        game = load_game(game_name)
        player = default_registry().create("random", game, 1)
        for view in decision_views(game, 4, 7)[:12]:
            table = player.action_probabilities(view)
            legal = view.state.legal_actions()
            candidates = [FOLD, CALL, LIMIT_RAISE, Action.raise_to(legal.min_raise_to), Action.raise_to(10**6)]
            for action in candidates:
                assert player.action_probability(view, action) == pytest.approx(table.get(action, 0.0))


def test_a_strategy_without_probabilities_says_so():
    class Silent(Strategy):
        def decide(self, view: MatchState, deadline: float) -> Action:
            return CALL

    game = load_game("holdem-nolimit-2p")
    view = decision_views(game, 1, 1)[0]
    with pytest.raises(ActionProbabilitiesError, match="does not give"):
        Silent(game).action_probabilities(view)


def test_asking_miximax_changes_nothing_it_does():
    """Hypothetical questions leave the agent as it was; a question about the real view is
    replayed by the decision that follows (node-budgeted searches are deterministic)."""
    game = load_game("holdem-nolimit-2p")
    settings = AgentSettings(time_budget=30.0, search=SearchSettings(node_budget=400))
    views = [v for v in decision_views(game, 8, 6) if v.state.round > 0][:3]
    asked, fresh, cached = (MiximaxAgent(game, 9, settings) for _ in range(3))
    for view in views:
        for other in ("AhAd", "7c2d", "KsQs"):
            if not set(cards_from_string(other)) & set(view.state.visible_board() + view.hole_cards):
                asked.action_probabilities(with_hole(view, other))
        expected = fresh.decide(view, math.inf)
        assert asked.decide(view, math.inf) == expected
        probabilities = cached.action_probabilities(view)
        assert cached.decide(view, math.inf) == expected and probabilities == {expected: 1.0}
        assert asked.rng.getstate() == fresh.rng.getstate() == cached.rng.getstate()
