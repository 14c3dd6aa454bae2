"""The shared conformance checks, run over every opponent model configuration.

Each model: probabilities are non-negative, sum to 1 and cover only legal classes; it
survives a pickling round trip (same predictions, same learning afterwards); learning does
not change its inputs; two models built alike and fed alike agree (seeded determinism);
cached predictions always equal a fresh computation, and learning invalidates the cache.
"""

from __future__ import annotations

import copy
import functools
import pickle
import random
from collections.abc import Callable

import pytest

from pokerbot.models.action_classes import mask_classes
from pokerbot.models.blended import BlendedClassifier
from pokerbot.models.config import ModelConfig, PriorConfig
from pokerbot.models.features import LEGAL_KEY, ActionRow, ShowdownRow, view_rows
from pokerbot.models.hoeffding import ActionModel, HandStrengthModel
from pokerbot.models.prior import Prior, PriorTrainer
from pokerbot.protocol.game import load_game
from pokerbot.protocol.wire import MatchState
from tests.conftest import play_random_hand

GAME = load_game("holdem-nolimit-2p")


@functools.cache
def hands() -> tuple[tuple[list[ActionRow], list[ShowdownRow]], ...]:
    """Rows of 160 random hands, from position 0's view (computed once)."""
    rng = random.Random(21)
    return tuple(view_rows(MatchState(0, n, play_random_hand(GAME, rng).view(0))) for n in range(160))


@functools.cache
def small_prior() -> Prior:
    """A prior grown on 120 random hands (both views), with eager splits."""
    trainer = PriorTrainer(GAME, PriorConfig(grace_period=20, split_confidence=0.1, seed=3))
    rng = random.Random(8)
    for n in range(120):
        state = play_random_hand(GAME, rng)
        for position in (0, 1):
            trainer.add_view(MatchState(position, n, state.view(position)))
    return trainer.finish()


ModelFactory = Callable[[], BlendedClassifier]
FACTORIES: dict[str, ModelFactory] = {
    "action-uniform-prior": lambda: ActionModel(),
    "action-prior-adaptive-tree": lambda: ActionModel(small_prior().action, ModelConfig(seed=4)),
    "action-prior-hoeffding-tree": lambda: ActionModel(small_prior().action, ModelConfig(opponent_tree="hoeffding")),
    "action-no-tree-context-weights": lambda: ActionModel(
        small_prior().action, ModelConfig(opponent_tree="none", weight_level=1, decays=(0.95,))
    ),
    "action-prior-only": lambda: ActionModel(small_prior().action, ModelConfig(adapt=False)),
    "strength-uniform-prior": lambda: HandStrengthModel(),
    "strength-prior": lambda: HandStrengthModel(small_prior().strength, ModelConfig(seed=4)),
}


def rows_for(model: BlendedClassifier) -> list[ActionRow | ShowdownRow]:
    index = 0 if isinstance(model, ActionModel) else 1
    return [row for pair in hands() for row in pair[index]]


def learn(model: BlendedClassifier, rows: list) -> None:
    for row in rows:
        model.learn_one(row.x, row.y)


@pytest.fixture(params=sorted(FACTORIES))
def factory(request: pytest.FixtureRequest) -> ModelFactory:
    return FACTORIES[request.param]


def test_probabilities_sum_to_one_over_legal_classes(factory: ModelFactory) -> None:
    model = factory()
    rows = rows_for(model)
    learn(model, rows[: len(rows) // 2])
    for row in rows[len(rows) // 2 :]:
        proba = model.predict_proba_one(row.x)
        assert sum(proba.values()) == pytest.approx(1.0)
        assert all(p >= 0.0 for p in proba.values())
        if LEGAL_KEY in row.x:
            assert set(proba) == set(mask_classes(int(row.x[LEGAL_KEY])))
        else:
            assert set(proba) == set(range(model.n_classes))
        vector = model.predict_vector(row.x)
        assert all(vector[k] == p for k, p in proba.items()) and sum(vector) == pytest.approx(1.0)


def test_pickling_round_trip(factory: ModelFactory) -> None:
    model = factory()
    rows = rows_for(model)
    learn(model, rows[:150])
    model.predict_proba_one(rows[0].x)  # fill the cache: it must not break pickling
    clone = pickle.loads(pickle.dumps(model))
    assert clone.cache_entries == 0
    for row in rows[150:200]:
        assert clone.predict_proba_one(row.x) == model.predict_proba_one(row.x)
    learn(model, rows[200:260])
    learn(clone, rows[200:260])
    for row in rows[260:300]:
        assert clone.predict_proba_one(row.x) == model.predict_proba_one(row.x)


def test_learning_does_not_change_inputs(factory: ModelFactory) -> None:
    model = factory()
    for row in rows_for(model)[:120]:
        before = copy.deepcopy(row.x)
        model.learn_one(row.x, row.y)
        model.predict_proba_one(row.x)
        assert row.x == before


def test_seeded_determinism(factory: ModelFactory) -> None:
    first, second = factory(), factory()
    rows = rows_for(first)
    learn(first, rows[:200])
    learn(second, rows[:200])
    for row in rows[200:260]:
        assert first.predict_proba_one(row.x) == second.predict_proba_one(row.x)
    assert first.weights() == second.weights()


def test_cached_predictions_equal_fresh_ones_and_learning_invalidates(factory: ModelFactory) -> None:
    model = factory()
    rows = rows_for(model)
    probe = rows[0].x
    for start in range(0, min(60, len(rows)), 10):
        cached = model.predict_proba_one(probe)
        assert model.predict_proba_one(probe) is cached  # a cache hit
        model.clear_cache()
        assert model.predict_proba_one(probe) == cached  # the cache held the fresh answer
        learn(model, rows[start : start + 10])
        assert model.cache_entries == (0 if model.config.adapt else 1)
    if model.config.adapt:
        assert model.predict_proba_one(probe) != fresh_like(model).predict_proba_one(probe)


def fresh_like(model: BlendedClassifier) -> BlendedClassifier:
    """A model like ``model`` that has learnt nothing."""
    return type(model)(model.prior, model.config)


def test_learning_moves_predictions_toward_what_is_seen() -> None:
    model = ActionModel(small_prior().action)
    row = next(row for pair in hands() for row in pair[0] if row.x["stage"] == 0 and row.x["to_call"] > 0)
    before = model.predict_proba_one(row.x)[row.y]
    for _ in range(30):
        model.learn_one(row.x, row.y)
    assert model.predict_proba_one(row.x)[row.y] > max(before, 0.8)


def test_prob_beats_is_monotone_and_bounded() -> None:
    model = HandStrengthModel(small_prior().strength)
    learn(model, rows_for(model))
    x = rows_for(model)[0].x
    values = [model.prob_beats(x, s / 40) for s in range(41)]
    assert values[0] == pytest.approx(1.0) and values[-1] == pytest.approx(0.0)
    assert all(a >= b - 1e-12 for a, b in zip(values, values[1:]))
    vector = model.predict_vector(x)
    assert model.prob_beats(x, 0.75) == pytest.approx(sum(vector[8:]) + vector[7] * 0.5)


def test_learn_hand_learns_the_opponent_only() -> None:
    rng = random.Random(4)
    action_model, strength_model = ActionModel(), HandStrengthModel()
    state = play_random_hand(GAME, rng)
    view = MatchState(1, 0, state.view(1))
    learnt = action_model.learn_hand(view)
    assert learnt == sum(1 for _, actor, _ in state.history() if actor == 0)
    assert action_model.observations == learnt
    assert strength_model.learn_hand(view) == int(state.showdown())
