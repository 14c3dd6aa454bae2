"""Real-time re-solving: the subgame solver against brute force, safety, the exact Leduc testbed."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pokerbot.protocol.actions import CALL, LIMIT_RAISE, Action
from pokerbot.protocol.analysis.matchups import HoldingSpace
from pokerbot.protocol.game import load_game, parse_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import UnknownStrategyError
from pokerbot.strategies.betting.sizing import BetSizing
from pokerbot.strategies.registry import default_registry
from pokerbot.strategies.resolve.cfr import SubgameSolver
from pokerbot.strategies.resolve.continual import ContinualResolver, SolveBudget
from pokerbot.strategies.resolve.exact import resolved_policy
from pokerbot.strategies.resolve.tree import DECISION, LEAF, TERMINAL, build_subgame
from pokerbot.strategies.solvers import exploitability, solve

# A hold'em-shaped game small enough for brute force: two hole cards from ten, a three-card
# flop and a one-card river, no-limit with short stacks.
SMALL_NOLIMIT = """GAMEDEF
nolimit
numPlayers = 2
numRounds = 2
stack = 1000 1000
blind = 20 10
firstPlayer = 2 1
numSuits = 2
numRanks = 5
numHoleCards = 2
numBoardCards = 3 1
END GAMEDEF
"""


def _small_river_state() -> HandState:
    game = parse_game(SMALL_NOLIMIT)
    deck = sorted(game.deck)
    state = HandState(game, board_cards=(deck[0], deck[3], deck[6], deck[9]))
    state.apply(CALL)
    state.apply(CALL)
    return state


def _brute_values(space, tree, board, strategy, ranges, player, best=False):  # type: ignore[no-untyped-def]
    """Counterfactual values of ``player`` at the root, pair by pair, by recursion over the tree."""
    ranks = space.ranks(board)
    values = np.zeros(space.size)
    valid = space.valid(board)
    for h in range(space.size):
        if not valid[h]:
            continue

        def value(node, reach, h=h):  # type: ignore[no-untyped-def]
            kind = tree.kind[node]
            if kind == TERMINAL and tree.folder[node] >= 0:  # a fold
                folder = tree.folder[node]
                amount = tree.spent[node, folder]
                return sum(
                    reach[o] * (-amount if folder == player else amount)
                    for o in range(space.size)
                    if valid[o] and not space.conflicts[h, o]
                )
            if kind == TERMINAL:  # a showdown
                return sum(
                    reach[o] * tree.stake[node] * np.sign(ranks[h] - ranks[o])
                    for o in range(space.size)
                    if valid[o] and not space.conflicts[h, o]
                )
            base, count = tree.slot[node], tree.num_actions[node]
            children = [
                value(tree.children[node, k], reach if tree.player[node] == player else reach * strategy[base + k])
                for k in range(count)
            ]
            if tree.player[node] != player:
                return sum(children)
            if best:
                return max(children)
            return sum(strategy[base + k, h] * children[k] for k in range(count))

        values[h] = value(0, ranges[1 - player])
    return values


def test_subgame_values_and_best_responses_match_brute_force():
    state = _small_river_state()
    space = HoldingSpace(state.game)
    tree = build_subgame(state, BetSizing(bets=((0.5, 1.0),) * 2, raises=((1.0,),) * 2, max_raises=2))
    assert {int(k) for k in tree.kind} == {DECISION, TERMINAL}
    assert {bool(f >= 0) for f in tree.folder[tree.kind == TERMINAL]} == {True, False}  # folds and showdowns
    board = tuple(state.visible_board())
    rng = np.random.default_rng(7)
    ranges = rng.random((2, space.size))
    solver = SubgameSolver(tree, space, board, ranges)
    solver.iterate(3)
    strategy = solver.average_strategy()
    valid = space.valid(board)
    for player in (0, 1):
        expected = _brute_values(space, tree, board, strategy, ranges * valid, player)
        assert solver.expected_values(player)[0][valid] == pytest.approx(expected[valid], rel=1e-5, abs=1e-4)
        best = _brute_values(space, tree, board, strategy, ranges * valid, player, best=True)
        assert solver.best_response_values(player)[0][valid] == pytest.approx(best[valid], rel=1e-5, abs=1e-4)


def test_a_river_subgame_converges_against_its_exact_best_response():
    state = _small_river_state()
    space = HoldingSpace(state.game)
    tree = build_subgame(state)
    solver = SubgameSolver(tree, space, tuple(state.visible_board()), np.ones((2, space.size)))
    solver.iterate(20)
    early = solver.exploitability()
    solver.iterate(480)
    late = solver.exploitability()
    assert late < early / 5
    assert late < 0.005 * state.pot


def test_a_warm_start_plays_its_strategy_first_and_a_converged_one_stays_converged():
    state = _small_river_state()
    space = HoldingSpace(state.game)
    tree = build_subgame(state)
    board = tuple(state.visible_board())
    valid = space.valid(board)
    ranges = np.ones((2, space.size))
    converged = SubgameSolver(tree, space, board, ranges)
    converged.iterate(500)
    equilibrium = converged.average_strategy()
    rng = np.random.default_rng(5)
    other = rng.random(equilibrium.shape)
    warm = SubgameSolver(tree, space, board, ranges)
    warm.warm_start(other, 10)
    assert warm.iterations == 0
    start = warm.average_strategy()  # its own rows normalised, before any iteration
    node = int(np.flatnonzero(tree.kind == DECISION)[1])
    base, count = int(tree.slot[node]), int(tree.num_actions[node])
    block = other[base : base + count][:, valid]
    assert start[base : base + count][:, valid] == pytest.approx(block / block.sum(axis=0), rel=1e-5)
    with pytest.raises(ValueError, match="before its first iteration"):
        converged.warm_start(other, 10)
    cold = SubgameSolver(tree, space, board, ranges)
    cold.iterate(10)
    from_equilibrium = SubgameSolver(tree, space, board, ranges)
    from_equilibrium.warm_start(equilibrium, 30)
    from_equilibrium.iterate(10)
    assert from_equilibrium.iterations == 10
    # 10 iterations from the equilibrium stay near it; 10 from the uniform strategy do not
    assert from_equilibrium.exploitability() < 0.5 * cold.exploitability()
    assert from_equilibrium.exploitability() < 2.0 * converged.exploitability() + 0.002 * state.pot


def test_the_gadget_keeps_the_opponent_at_its_earlier_values():
    """Re-solving with the opponent's best-response values as bounds: its best response to the
    new strategy gains at most the solver's error over them (safety)."""
    state = _small_river_state()
    space = HoldingSpace(state.game)
    tree = build_subgame(state)
    board = tuple(state.visible_board())
    rng = np.random.default_rng(3)
    ours = rng.random(space.size)
    first = SubgameSolver(tree, space, board, np.stack([ours, rng.random(space.size)]))
    first.iterate(300)
    bounds = first.best_response_values(1)[0]
    again = SubgameSolver(tree, space, board, np.stack([ours, np.ones(space.size)]), gadget=(1, bounds))
    again.iterate(300)
    after = again.best_response_values(1)[0]
    valid = space.valid(board)
    excess = np.maximum(after - bounds, 0.0)[valid].sum() / ours[valid].sum()
    assert excess < 0.01 * state.pot


def test_a_tree_holds_the_opponents_real_bet_of_any_size():
    game = load_game("holdem-nolimit-2p")
    state = HandState(game, board_cards=tuple(range(5)))
    state.apply(CALL)
    state.apply(CALL)
    odd = Action.raise_to(100 + 137)
    tree = build_subgame(state, BetSizing(), path=[odd])
    node = tree.child(0, odd)
    assert tree.kind[node] == DECISION
    assert tree.kind[tree.child(node, CALL)] == LEAF


# ---------------------------------------------------------------- the exact Leduc testbed
@pytest.fixture(scope="module")
def leduc_blueprint():  # type: ignore[no-untyped-def]
    game = load_game("leduc")
    return game, solve(game, "cfr", iterations=20, checkpoints=1).policy


def test_resolving_leduc_from_an_undertrained_blueprint_is_less_exploitable(leduc_blueprint):
    game, blueprint = leduc_blueprint
    before = exploitability(game, blueprint)
    resolved = resolved_policy(game, SolveBudget(iterations=200), first_round=1, trunk=blueprint)
    after = exploitability(game, resolved)
    assert before == pytest.approx(0.45315, abs=1e-4)
    assert after < before / 3


def test_the_safe_start_bounds_the_first_re_solve_by_the_blueprints_values(leduc_blueprint):
    # The gadget with the opponent's best-response values against the blueprint's last round:
    # no holding gains more than against the blueprint, so the player is less exploitable
    # than its blueprint, though less so than when starting from the blueprint's ranges.
    game, blueprint = leduc_blueprint
    before = exploitability(game, blueprint)
    safe = exploitability(
        game, resolved_policy(game, SolveBudget(iterations=200), first_round=1, trunk=blueprint, start="blueprint")
    )
    assert safe < 0.75 * before
    assert safe > 0.13088 + 0.05  # the range start's 0.13088 (docs/resolve.md) is lower


def test_a_floor_drops_the_unlikely_actions_of_what_is_played():
    game = load_game("leduc")
    space = HoldingSpace(game)

    def uniform(state: HandState) -> tuple[np.ndarray, np.ndarray]:
        return np.ones(space.size), np.ones(space.size)

    state = HandState(game)
    state.apply(LIMIT_RAISE)  # the second player faces a raise: fold, call, raise
    budget = SolveBudget(iterations=30)
    free = ContinualResolver(game, 1, uniform, 0).decision(state, budget).strategy
    floored = ContinualResolver(game, 1, uniform, 0, floor=0.2).decision(state, budget).strategy
    assert ((free > 0.0) & (free < 0.2)).any()  # what the floor drops
    assert not ((floored > 0.0) & (floored < 0.2)).any()
    assert floored.sum(axis=0) == pytest.approx(np.ones(space.size))
    kept = free >= 0.2
    ratio = floored[kept] / free[kept]
    assert (ratio >= 1.0 - 1e-6).all()  # the rest renormalised
    with pytest.raises(ValueError, match="floor"):
        ContinualResolver(game, 1, uniform, 0, floor=0.5)


@pytest.mark.slow
def test_at_the_shipped_budget_neither_a_warm_start_nor_a_floor_lowers_leducs_exploitability(leduc_blueprint):
    # docs/resolve.md's table (benchmarks/resolve_leduc.py --shipped): 30 iterations a solve, the
    # CFR-20 blueprint's first round; the shipped settings (no warm start, no floor) are the lowest.
    game, blueprint = leduc_blueprint
    budget = SolveBudget(iterations=30)

    def exploitability_with(warm: int, floor: float, warm_from: str = "trunk") -> float:
        policy = resolved_policy(
            game, budget, first_round=1, trunk=blueprint, warm=warm, warm_from=warm_from, floor=floor
        )
        return exploitability(game, policy)

    shipped, warm, floor = exploitability_with(0, 0.0), exploitability_with(10, 0.0), exploitability_with(0, 0.1)
    earlier = exploitability_with(10, 0.0, "solve")
    assert (shipped, warm, floor, earlier) == pytest.approx((0.17343, 0.27619, 0.20176, 0.18290), abs=1e-4)
    assert shipped < min(warm, floor, earlier)


# ---------------------------------------------------------------- the player
def test_resolve_is_registered_and_reads_its_budget():
    registry = default_registry()
    game = load_game("leduc")
    player = registry.create("resolve:50iterations", game, seed=1)
    assert player.settings.iterations == 50 and player.settings.seconds is None
    with pytest.raises(UnknownStrategyError, match="Niterations"):
        registry.create("resolve:fast", game, seed=1)
    with pytest.raises(UnknownStrategyError):
        registry.create("resolve", load_game("holdem-nolimit-3p"), seed=1)


def test_resolve_plays_leduc_legally_with_probabilities_of_one_solve():
    game = load_game("leduc")
    player = default_registry().create("resolve:50iterations", game, seed=2)
    deck = sorted(game.deck)
    state = HandState(game, hole_cards=[(deck[0],), (deck[5],)], board_cards=(deck[2],))
    state.apply(LIMIT_RAISE)
    view = MatchState(1, 0, state.view(1))
    probabilities = player.action_probabilities(view)
    assert sum(probabilities.values()) == pytest.approx(1.0)
    assert all(state.can(action) for action in probabilities)
    action = player.decide(view, deadline=float("inf"))
    assert action in probabilities
    # the same public state with another holding is read from the same solve
    other = MatchState(1, 0, HandState(game, hole_cards=[(deck[0],), (deck[4],)], board_cards=(deck[2],)))
    other.state.apply(LIMIT_RAISE)
    assert set(player.action_probabilities(other)) <= set(itertools.chain(probabilities, [CALL, LIMIT_RAISE]))


def test_the_final_range_is_the_product_of_our_solved_probabilities():
    """Our range at a hand's end, holding by holding: the probability that this hand's solves
    took each of our actions (Leduc, re-solved from the first decision)."""
    game = load_game("leduc")
    player = default_registry().create("resolve:20iterations", game, seed=2)
    deck = sorted(game.deck)
    state = HandState(game, hole_cards=[(deck[0],), (deck[5],)], board_cards=(deck[2],))
    ours: list[tuple[HandState, Action]] = []
    for action in (CALL, LIMIT_RAISE, CALL, CALL, CALL):  # we (seat 1) raise, then check behind in the second round
        if state.current_player == 1:
            player.action_probabilities(MatchState(1, 7, state.view(1)))
            ours.append((state.copy(), action))
        state.apply(action)
    assert state.finished and len(ours) == 2
    view = MatchState(1, 7, state.view(1))
    reach = player.final_range(view)
    assert reach is not None
    resolver, budget = player._resolvers[1], player.settings.budget(None)
    space = player.space
    expected = np.zeros(space.size)
    for h in range(space.size):
        hole = tuple(int(c) for c in space.cards[h])
        if deck[2] in hole:  # a holding on the board seen where re-solving started: none here
            continue
        weight = 1.0
        for at, action in ours:
            weight *= resolver.probabilities(at, hole, budget).get(action, 0.0)
        expected[h] = weight
    assert reach == pytest.approx(expected)
    assert reach[space.index((deck[5],))] > 0.0  # we played our own holding's way
    assert player.final_range(MatchState(1, 8, state.view(1))) is None  # another hand: not known


def test_resolve_plays_heads_up_no_limit_legally_and_reproducibly():
    from pokerbot.bot.matches.inprocess import run_inprocess_match

    game = load_game("holdem-nolimit-2p")
    registry = default_registry()
    outcomes = []
    for _ in range(2):
        players = [registry.create("resolve:5iterations", game, 5), registry.create("random", game, 6)]
        outcome = run_inprocess_match(game, 4, 11, players, ["resolve", "random"])
        assert not any(outcome.illegal_actions.values())
        outcomes.append(outcome.totals)
    assert outcomes[0] == outcomes[1]


def test_the_warm_start_reads_the_blueprints_probabilities_onto_the_subgames_actions():
    import dataclasses

    from pokerbot.protocol.cards import cards_from_string
    from pokerbot.strategies.resolve.player import PlayerSetup, ResolvingPlayer, _nearest

    game = load_game("holdem-nolimit-2p")
    shipped = default_registry().create("resolve:30iterations", game, 3)
    assert isinstance(shipped, ResolvingPlayer)
    assert (shipped.settings.warm, shipped.settings.floor) == (0, 0.0)  # what pokerbot match ships
    settings = dataclasses.replace(shipped.settings, warm=10)
    setup = PlayerSetup(trunk=shipped.trunk, range_of=shipped.range_of, first_round=1, settings=settings)
    player = ResolvingPlayer(game, 3, setup)
    board = tuple(cards_from_string("As7d2c9h4s"))
    state = HandState(game, board_cards=board)
    state.apply(Action.raise_to(300))
    state.apply(CALL)  # the flop: the big blind to act first
    hole = tuple(cards_from_string("KhQh"))
    player._start(MatchState(1, 0, state.view(1)))  # hand 0, the big blind's seat
    tree = build_subgame(state)
    table = player._trunk_strategy(tree, state.current_player)
    space = player.space
    h = space.index(hole)
    expected = np.zeros(int(tree.num_actions[0]))
    real = HandState(game, hole_cards=[(), hole], board_cards=board)
    for action in state.history():
        real.apply(action[2])
    blueprint = shipped.trunk.action_probabilities(MatchState(1, 0, real.view(1)))
    for action, p in blueprint.items():
        expected[_nearest(tree.actions[0], action)] += p
    assert table[: tree.num_actions[0], h] == pytest.approx(expected, abs=1e-9)
    ours = np.flatnonzero((tree.kind == DECISION) & (tree.player == state.current_player))
    valid = space.valid(board)
    for node in ours:  # a distribution for every holding at every decision of the position
        base, count = int(tree.slot[node]), int(tree.num_actions[node])
        assert table[base : base + count][:, valid].sum(axis=0) == pytest.approx(np.ones(int(valid.sum())))


def test_in_limit_resolve_plays_the_blueprint_to_the_river_and_re_solves_the_river():
    from pokerbot.bot.matches.inprocess import run_inprocess_match
    from pokerbot.strategies.resolve import LIMIT_FIRST_ROUND

    game = load_game("holdem-limit-2p")
    player = default_registry().create("resolve:5iterations", game, 5)
    assert player.first_round == LIMIT_FIRST_ROUND == 3
    solves = []
    resolver = player._resolvers[0]
    original = type(resolver).probabilities

    def counted(self, state, *args, **kwargs):  # type: ignore[no-untyped-def]
        solves.append(state.round)
        return original(self, state, *args, **kwargs)

    type(resolver).probabilities = counted  # type: ignore[method-assign]
    try:
        outcome = run_inprocess_match(
            game, 6, 11, [player, default_registry().create("always-call", game, 6)], ["resolve", "call"]
        )
    finally:
        type(resolver).probabilities = original  # type: ignore[method-assign]
    assert not any(outcome.illegal_actions.values())
    assert solves and set(solves) == {3}  # every solve on the river, none before


def test_with_no_time_left_resolve_plays_the_blueprint():
    game = load_game("holdem-nolimit-2p")
    player = default_registry().create("resolve:0.5", game, 3)
    state = HandState(game, hole_cards=[(0, 5), (12, 49)], board_cards=(20, 30, 40, 44, 48))
    for _ in range(3):
        state.apply(CALL)
    view = MatchState(1, 0, state.view(1))
    action = player.decide(view, deadline=0.0)
    assert state.can(action) and player.fallbacks == 1


def test_a_restricted_response_in_the_subgame_moves_from_equilibrium_to_best_response():
    """p = 1: our strategy is a best response to the model; p = 0: the equilibrium. What we win
    against the model grows with p, and so does what a best response wins against us."""
    from pokerbot.strategies.resolve.cfr import OpponentModel

    state = _small_river_state()
    space = HoldingSpace(state.game)
    tree = build_subgame(state)
    board = tuple(state.visible_board())
    ranges = np.ones((2, space.size))
    calls = np.zeros((tree.num_slots, space.size))  # the model: position 1 checks or calls, always
    for node in np.flatnonzero(tree.kind == DECISION):
        k = tree.actions[node].index(CALL)
        calls[tree.slot[node] + k] = 1.0
    won, conceded = [], []
    for p in (0.0, 0.5, 1.0):
        solver = SubgameSolver(tree, space, board, ranges, model=OpponentModel(1, calls, ranges[1], p))
        solver.iterate(300)
        won.append(solver.value_against_model(0))
        valid = space.valid(board)
        mass = solver.joint_mass()
        conceded.append(float(ranges[1][valid] @ solver.best_response_values(1)[0][valid]) / mass)
        if p == 1.0:
            table = solver.average_strategy()
            theirs = np.repeat(tree.player[tree.kind == DECISION] == 1, tree.num_actions[tree.kind == DECISION])
            table[theirs] = calls[theirs]
            best = float(ranges[0][valid] @ solver.best_response_values(0, table)[0][valid]) / mass
            assert won[-1] == pytest.approx(best, rel=0.01)
    assert won[0] < won[1] < won[2]
    assert conceded[0] < conceded[2]
