"""Every Bayesian opponent model honours the same small interface (the studies' models too)."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import numpy as np
import pytest

from pokerbot.bot.experiments.bootstrap_model import BootstrapModel
from pokerbot.bot.experiments.kuhn_models import KuhnP2Model
from pokerbot.bot.experiments.kuhn_p1_model import KuhnP1Model
from pokerbot.models.bayes import (
    DirichletModel,
    MixtureModel,
    OpponentModel,
    PortfolioModel,
    rank_class,
    record_from_view,
)
from pokerbot.models.bayes.coarse import CoarsenedModel
from pokerbot.protocol.game import load_game
from pokerbot.protocol.infosets import betting_class
from pokerbot.strategies.solvers import equilibrium_policy, kuhn, uniform_policy
from tests.test_bayes_models import random_views

KUHN, LEDUC = load_game("kuhn"), load_game("leduc")
KUHN_EQ = kuhn.nash_policy(1.0).to_json_dict()["infosets"]
LEDUC_EQ = equilibrium_policy(LEDUC).to_json_dict()["infosets"]
LEDUC_UNIFORM = uniform_policy(LEDUC).to_json_dict()["infosets"]


def _bootstrap(seed: int) -> OpponentModel:
    explicit = DirichletModel(LEDUC_EQ, 2.0, key_class=rank_class, samples=16, seed=seed)
    portfolio = PortfolioModel([LEDUC_EQ, LEDUC_UNIFORM], index=explicit.index, seed=seed)
    return BootstrapModel(portfolio, explicit, seed=seed)


def _mixture(seed: int) -> OpponentModel:
    slab = DirichletModel(LEDUC_EQ, 2.0, key_class=rank_class, samples=16, seed=seed)
    spike = PortfolioModel([LEDUC_EQ], index=slab.index)
    blind = CoarsenedModel(DirichletModel(LEDUC_EQ, 2.0, key_class=betting_class, samples=16, seed=seed), slab.index)
    return MixtureModel([spike, slab, blind], [0.4, 0.4, 0.2], seed=seed)


MODELS: dict[str, tuple[object, Callable[[int], OpponentModel]]] = {
    "kuhn-p2": (KUHN, lambda seed: KuhnP2Model("weak", samples=16, seed=seed)),
    "kuhn-p1": (KUHN, lambda seed: KuhnP1Model(samples=16, seed=seed)),
    "dirichlet-kuhn": (KUHN, lambda seed: DirichletModel(KUHN_EQ, 2.0, samples=16, seed=seed)),
    "dirichlet-leduc": (LEDUC, lambda seed: DirichletModel(LEDUC_EQ, 2.0, key_class=rank_class, samples=16, seed=seed)),
    "portfolio": (LEDUC, lambda seed: PortfolioModel([LEDUC_EQ, LEDUC_UNIFORM], key_class=rank_class, seed=seed)),
    "bootstrap": (LEDUC, _bootstrap),
    "mixture": (LEDUC, _mixture),
}


def _check_distribution(entry: dict[str, float]) -> None:
    assert entry and set(entry) <= set("fcr")
    assert all(0.0 <= p <= 1.0 + 1e-12 for p in entry.values())
    assert sum(entry.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_model_conformance(name):
    game, make = MODELS[name]
    model = make(7)
    views = random_views(game, 40, seed=11)
    keys = list(model.predict_policy())
    before = model.predict_infoset(keys[0])
    for view in views:
        model.learn_hand(view)
    assert model.hands_seen == len(views)
    table = model.predict_policy()
    assert set(table) == set(keys)
    for entry in table.values():
        _check_distribution(entry)
    for draw in (model.sample_policy(), model.map_policy()):
        assert set(draw) == set(keys)
        for entry in draw.values():
            _check_distribution(entry)
    assert isinstance(before, dict)
    assert np.isfinite(model.log_predictive(record_from_view(views[-1])))
    clone = pickle.loads(pickle.dumps(model))
    assert clone.predict_policy() == table
    twin = make(7)
    twin.predict_infoset(keys[0])  # the same calls as ``model``: the same random draws
    for view in views:
        twin.learn_hand(view)
    assert twin.predict_policy() == table  # same seed, same data: same posterior
    copy = pickle.loads(pickle.dumps(twin))
    assert twin.sample_policy() == copy.sample_policy()  # the random state pickles too
