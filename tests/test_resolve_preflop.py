"""The pre-flop round inside the search: the estimated pre-flop run-out matrix (known
equities), its products by class, and ``adaptive`` re-solving the pre-flop round against
scripted opponent models (folders stolen from, big blinds defended wider against a player who
raises any two, shoves called by their price against the range the model gives them)."""

from __future__ import annotations

import numpy as np
import pytest

from pokerbot.models.action_classes import ActionClass
from pokerbot.protocol.actions import CALL, FOLD, Action, ActionKind
from pokerbot.protocol.analysis.holdings import HOLDINGS, holding_index
from pokerbot.protocol.analysis.matchups import holding_space
from pokerbot.protocol.analysis.preflop import preflop_equity
from pokerbot.protocol.analysis.preflop_matrix import (
    preflop_class_columns,
    preflop_leaves,
    preflop_runout_matrix,
    shared_preflop_matrix,
)
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.registry import default_registry
from pokerbot.strategies.resolve import NOLIMIT_EXPLOIT_FIRST_ROUND
from pokerbot.strategies.resolve.cfr import SubgameSolver
from pokerbot.strategies.resolve.exploiter import ResolvingExploiter
from pokerbot.strategies.resolve.opponent import HoldingModel, StrengthLink
from pokerbot.strategies.resolve.tree import build_subgame


def _h(text: str) -> int:
    return holding_index(cards_from_string(text))


def _equity(matrix: np.ndarray, first: str, second: str) -> float:
    return 0.5 + 0.5 * float(matrix[_h(first), _h(second)])


# ---------------------------------------------------------------- the matrix
def test_the_preflop_matrix_knows_the_classic_matchups():
    matrix = shared_preflop_matrix()
    assert matrix.shape == (1326, 1326) and not matrix.flags.writeable
    assert np.array_equal(matrix, -matrix.T)
    assert matrix[_h("AsAh"), _h("AsKd")] == 0.0  # a shared card: no showdown
    # exact equities (every board enumerated), within the estimate's error
    assert _equity(matrix, "AsAh", "KsKh") == pytest.approx(0.826, abs=0.015)
    assert _equity(matrix, "AsKh", "AdQc") == pytest.approx(0.744, abs=0.015)
    assert _equity(matrix, "7s2h", "AcAd") == pytest.approx(0.124, abs=0.015)
    assert _equity(matrix, "AsKs", "QhQd") == pytest.approx(0.462, abs=0.015)
    # the control variate: each row matches the equity against a random holding
    disjoint = (matrix != 0.0).sum(axis=1) + (matrix == 0.0).sum(axis=1) - 101
    rows = 0.5 + 0.5 * matrix.sum(axis=1, dtype=np.float64) / disjoint
    assert np.abs(rows - preflop_equity()).max() < 0.002


def test_the_estimate_is_seeded_and_its_noise_shrinks_with_boards():
    small = preflop_runout_matrix(boards=100, seed=1)
    assert np.array_equal(small, preflop_runout_matrix(boards=100, seed=1))
    shared = shared_preflop_matrix()
    other = preflop_runout_matrix(boards=100, seed=2)
    assert np.sqrt(np.mean((small - shared) ** 2)) < np.sqrt(np.mean((small - other) ** 2))
    with pytest.raises(ValueError):
        preflop_runout_matrix(boards=0)


def test_products_by_class_equal_the_full_products_for_symmetric_ranges():
    representatives, columns = preflop_class_columns()
    assert columns.shape == (169, 1326)
    space = holding_space(load_game("holdem-nolimit-2p"))
    rng = np.random.default_rng(3)
    from pokerbot.protocol.analysis.preflop import class_of_holding

    by_class = rng.uniform(size=169)
    reach = by_class[class_of_holding()].astype(np.float32)
    full = shared_preflop_matrix() @ reach
    assert np.allclose(columns.T @ reach[representatives], full, atol=1e-3)
    assert preflop_leaves(space, ()) is not None
    assert preflop_leaves(space, (int(HOLDINGS[0][0]), int(HOLDINGS[0][1]), 8)) is None
    assert preflop_leaves(holding_space(load_game("leduc")), ()) is None


def test_a_preflop_solve_is_the_same_by_class():
    game = load_game("holdem-nolimit-2p")
    space = holding_space(game)
    tree = build_subgame(HandState(game))
    ranges = np.ones((2, space.size))
    by_class = SubgameSolver(tree, space, (), ranges)
    by_class.iterate(5)
    full = SubgameSolver(tree, space, (), ranges)
    full._by_class = None  # every product over all 1,326 holdings
    full._matrix = shared_preflop_matrix()
    full.iterate(5)
    assert np.allclose(by_class.average_strategy(), full.average_strategy(), atol=1e-3)


# ---------------------------------------------------------------- adaptive before the flop
def _player(frequencies: dict[ActionClass, float], alpha: float) -> ResolvingExploiter:
    game = load_game("holdem-nolimit-2p")
    player = default_registry().create("adaptive:30iterations", game, seed=1)
    assert isinstance(player, ResolvingExploiter)
    player.model = HoldingModel(player.player.space, lambda state: frequencies, StrengthLink(prior=alpha))
    return player


def _view(game, position: int, hole: str, hand: int, actions: tuple[Action, ...] = ()) -> MatchState:  # type: ignore[no-untyped-def]
    holes = [cards_from_string("2c3c"), cards_from_string("2d3d")]
    holes[position] = cards_from_string(hole)
    state = HandState(game, hole_cards=holes)
    for action in actions:
        state.apply(action)
    return MatchState(position, hand, state.view(position))


def _share(player: ResolvingExploiter, position: int, hand: int, kinds: set[str], actions=()) -> float:  # type: ignore[no-untyped-def]
    """The share of every holding's probability on actions of ``kinds`` (one solve: the
    solve is per public history and hand)."""
    game = player.game
    total = 0.0
    holes = [f"{x}s{y}h" for x in "AKQJT98765432" for y in "AKQJT98765432" if x != y] + [
        f"{x}s{x}h" for x in "AKQJT98765432"
    ]
    for hole in holes:
        probabilities = player.action_probabilities(_view(game, position, hole, hand, actions))
        total += sum(p for a, p in probabilities.items() if str(a)[0] in kinds)
    return total / len(holes)


def test_a_hand_with_the_model_is_re_solved_from_the_first_decision():
    player = _player({ActionClass.FOLD: 0.5, ActionClass.CALL: 0.5, ActionClass.CHECK: 1.0}, 1.0)
    view = _view(player.game, 1, "Kd9s", 1)
    player._weights[1] = 0.0
    assert player.action_probabilities(view) == player.player.trunk.action_probabilities(view)
    player._weights[2] = 0.5
    player.action_probabilities(_view(player.game, 1, "Kd9s", 2))
    assert player.player.first_round == NOLIMIT_EXPLOIT_FIRST_ROUND == 0
    assert player.player._resolvers[1]._decisions  # the pre-flop round was solved


def test_it_steals_from_a_player_who_folds_its_big_blind():
    """The small blind raises far more of its holdings against a big blind that folds 90 % of
    its holdings to a raise (calling with its strongest tenth) than against one that calls
    every raise, and more than the blueprint."""
    folder = _player({ActionClass.FOLD: 0.9, ActionClass.CALL: 0.1, ActionClass.CHECK: 1.0}, 1.0)
    caller = _player({ActionClass.FOLD: 0.0, ActionClass.CALL: 1.0, ActionClass.CHECK: 1.0}, 0.0)
    folder._weights[1] = caller._weights[1] = 0.8
    folder._weights[2] = 0.0
    stolen = _share(folder, 1, 1, {"r"})
    against_caller = _share(caller, 1, 1, {"r"})
    blueprint = _share(folder, 1, 2, {"r"})
    assert stolen > 0.8
    assert stolen > against_caller + 0.3
    assert stolen > blueprint + 0.2


def test_the_big_blind_defends_wider_against_a_player_who_raises_any_two():
    raise_to = Action(ActionKind.RAISE, 300)
    any_two = _player({ActionClass.POT: 1.0, ActionClass.CALL: 1.0, ActionClass.CHECK: 1.0}, 0.0)
    strong = _player({ActionClass.POT: 0.1, ActionClass.FOLD: 0.9, ActionClass.CALL: 1.0, ActionClass.CHECK: 1.0}, 1.0)
    any_two._weights[1] = strong._weights[1] = 0.8
    folds_any_two = _share(any_two, 0, 1, {"f"}, (raise_to,))
    folds_strong = _share(strong, 0, 1, {"f"}, (raise_to,))
    assert folds_any_two < 0.2
    assert folds_strong > folds_any_two + 0.2


def test_a_shove_is_called_by_its_price_against_the_models_range():
    """Against a player who shoves its top 3 %, A9s and KQo fold and aces call; against one
    who shoves any two, A9s and K9o call and 7-2 folds (35 % against any two)."""
    game = load_game("holdem-nolimit-2p")
    shove = (Action(ActionKind.RAISE, game.stacks[1]),)
    passive = {ActionClass.CALL: 1.0, ActionClass.CHECK: 1.0}
    top = _player({ActionClass.ALL_IN: 0.03, ActionClass.FOLD: 0.97, **passive}, 1.0)
    any_two = _player({ActionClass.ALL_IN: 1.0, ActionClass.CALL: 1.0, ActionClass.CHECK: 1.0}, 0.0)
    top._weights[1] = any_two._weights[1] = 0.8

    def call(player: ResolvingExploiter, hole: str) -> float:
        return player.action_probabilities(_view(game, 0, hole, 1, shove)).get(CALL, 0.0)

    assert call(top, "As9s") < 0.05 and call(top, "KdQc") < 0.05
    assert call(top, "AsAd") > 0.95
    assert call(any_two, "As9s") > 0.95 and call(any_two, "Kd9c") > 0.95
    assert call(any_two, "7c2d") < 0.05
    assert FOLD in top.action_probabilities(_view(game, 0, "As9s", 1, shove))
