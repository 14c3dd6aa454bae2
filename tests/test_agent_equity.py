"""The search's showdown win models against exact enumerations."""

from __future__ import annotations

import pytest

from pokerbot.models.hoeffding import HandStrengthModel
from pokerbot.protocol.analysis.strength import hand_strength
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.miximax.equity import ModelWinModel, RangeWinModel

GAME = load_game("holdem-nolimit-2p")
HOLE = cards_from_string("AhKh")


def test_river_equity_is_the_exact_percentile_rank() -> None:
    board = cards_from_string("Qh7h2c5d9s")
    model = RangeWinModel(GAME, HOLE)
    assert hand_strength(GAME, HOLE, board) == 372.5 / 990  # wins + ties / 2 over 990 holdings
    assert model.equity(board) == pytest.approx(372.5 / 990, abs=1e-6)  # eval7 returns float32


def test_turn_equity_averages_every_river_exactly() -> None:
    turn = cards_from_string("Qh7h2c5d")
    rivers = [c for c in GAME.deck if c not in set(HOLE) | set(turn)]
    expected = sum(hand_strength(GAME, HOLE, (*turn, c)) for c in rivers) / len(rivers)
    assert RangeWinModel(GAME, HOLE, exact_missing=1).equity(turn) == pytest.approx(expected, abs=1e-6)
    assert RangeWinModel(GAME, HOLE, seed=2).equity(turn) == pytest.approx(expected, abs=0.04)  # Monte Carlo


def test_flop_equity_is_seeded_monte_carlo() -> None:
    flop = cards_from_string("Qh7h2c")
    first = RangeWinModel(GAME, HOLE, seed=5).equity(flop)
    assert first == RangeWinModel(GAME, HOLE, seed=5).equity(flop)
    assert first == pytest.approx(0.727, abs=0.03)  # 200 000-draw Monte Carlo: 0.727


def test_model_with_a_uniform_prediction_gives_the_equity() -> None:
    # a model predicting uniform strength bins: P(opponent beats s) = 1 - s, so P(win) = s
    board = cards_from_string("Qh7h2c5d9s")
    state = HandState(GAME, [None, HOLE], board)
    model = ModelWinModel(GAME, HOLE, HandStrengthModel(), opponent=0)
    assert model.win_probability(state, board) == pytest.approx(372.5 / 990, abs=1e-6)
