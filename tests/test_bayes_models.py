"""Bayesian opponent models (models.bayes): closed forms, marginalisation, posterior updates."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pokerbot.bot.experiments.kuhn_models import (
    PRIORS,
    BetaPrior,
    KuhnP2Model,
    KuhnPrior,
    map_eta,
    map_xi,
    p1_table,
    p2_table,
)
from pokerbot.bot.experiments.kuhn_p1_model import KuhnP1Model
from pokerbot.models.bayes import (
    DirichletModel,
    MixtureModel,
    PortfolioModel,
    rank_class,
    record_from_view,
)
from pokerbot.models.bayes.records import HandRecord
from pokerbot.protocol import infosets as model_keys
from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE
from pokerbot.protocol.cards import card_from_string
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.solvers import kuhn as solver_kuhn

KUHN = load_game("kuhn")
LEDUC = load_game("leduc")
GRID = np.linspace(0.0, 1.0, 200_001)
ACTIONS = {"f": FOLD, "c": CALL, "r": LIMIT_RAISE}


def kuhn_view(p1: str, p2: str, betting: str, position: int = 0) -> MatchState:
    """The final view of a Kuhn hand (paper letters J, Q, K) from ``position``."""
    card = {"J": "Qs", "Q": "Ks", "K": "As"}
    state = HandState(KUHN, [(card_from_string(card[p1]),), (card_from_string(card[p2]),)])
    for char in betting:
        state.apply(ACTIONS[char])
    return MatchState(position, 0, state.view(position))


def random_views(game, count: int, seed: int) -> list[MatchState]:
    """Final views of random-play hands, alternating positions."""
    from pokerbot.protocol.dealing import Dealer

    rng = random.Random(seed)
    dealer = Dealer(game, seed)
    views = []
    for i in range(count):
        deal = dealer.deal()
        state = HandState(game, deal.hole_cards, deal.board_cards)
        while not state.finished:
            legal = state.legal_actions()
            options = [CALL] + ([FOLD] if legal.can_fold else []) + ([LIMIT_RAISE] if legal.can_raise else [])
            state.apply(rng.choice(options))
        views.append(MatchState(i % 2, i, state.view(i % 2)))
    return views


def brute_argmax(log_density: np.ndarray) -> float:
    return float(GRID[np.argmax(log_density)])


def xlog(count: float, values: np.ndarray) -> np.ndarray:
    return count * np.log(np.maximum(values, 1e-300)) if count else np.zeros_like(values)


@pytest.mark.parametrize("seed", range(6))
def test_map_formulas_match_brute_force_maximisation(seed):
    rng = np.random.default_rng(seed)
    a, b, c, d, e, f = rng.integers(0, 12, 6).astype(float) + rng.random(6) * (seed % 2)
    eta = brute_argmax(xlog(a, GRID) + xlog(b, 1 - GRID) + xlog(c, 2 - GRID))
    xi = brute_argmax(xlog(d, GRID) + xlog(e, 1 - GRID) + xlog(f, 1 + GRID))
    if a + b + c > 0:
        assert float(map_eta(a, b, c)) == pytest.approx(eta, abs=2e-5)
    if d + e + f > 0:
        assert float(map_xi(d, e, f)) == pytest.approx(xi, abs=2e-5)


def test_map_formulas_edge_cases():
    assert float(map_eta(0, 0, 0, default=0.3)) == 0.3
    assert float(map_eta(0, 0, 5)) == 0.0  # only K?bP: (2 - eta)^5 is largest at 0
    assert float(map_eta(4, 0, 0)) == pytest.approx(1.0)
    assert float(map_xi(0, 0, 3)) == pytest.approx(1.0)  # only Q?pBp: (1 + xi)^3
    assert float(map_xi(0, 2, 0)) == pytest.approx(0.0)
    assert map_eta(np.array([1.0, 2.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0])).shape == (2,)


def test_kuhn_p2_model_counts_with_fold_marginalisation_and_dominance():
    model = KuhnP2Model("uninformed")
    hands = [
        ("J", "Q", "rc"),
        ("K", "Q", "rc"),
        ("J", "Q", "rf"),
        ("K", "J", "rf"),
        ("K", "Q", "rf"),
        ("Q", "J", "crc"),
        ("K", "J", "crc"),
        ("Q", "J", "cc"),
        ("K", "J", "cc"),
        ("Q", "J", "crf"),
        ("Q", "K", "crf"),
        ("J", "K", "rc"),
        ("Q", "K", "cc"),
    ]
    for p1, p2, betting in hands:
        model.learn_hand(kuhn_view(p1, p2, betting))
    assert model.counts == {
        "JQbB": 1,
        "KQbB": 1,
        "J(Q)bP": 1,
        "K?bP": 2,
        "QJpBb": 1,
        "KJpBb": 1,
        "QJpP": 1,
        "KJpP": 1,
        "Q?pBp": 2,
    }
    a, b, c, d, e, f = model.abc()
    assert model.eta() == pytest.approx(float(map_eta(a, b, c)))
    assert model.xi() == pytest.approx(float(map_xi(d, e, f)))
    model.learn_hand(kuhn_view("J", "Q", "rf", position=1))  # seen as P2: ignored
    assert model.ignored >= 1 and model.hands_seen == len(hands) + 1


def test_kuhn_p2_model_without_data_uses_the_prior_mode():
    model = KuhnP2Model(KuhnPrior(BetaPrior(1.4, 0.6), BetaPrior(1, 1)))
    assert model.eta() == pytest.approx(0.7) and model.xi() == pytest.approx(0.5)
    mode, expected = model.map_policy(), p2_table(0.7, 0.5)
    assert all(mode[key] == pytest.approx(expected[key]) for key in expected)
    mean = model.predict_infoset("Ks:r")  # posterior mean: standard Beta(2.4, 1.6)
    assert mean["c"] == pytest.approx(2.4 / 4.0, abs=2e-3)
    assert set(PRIORS) == {"weak", "weak-bad", "strong", "strong-bad", "uninformed"}


def test_kuhn_tables_match_the_solver_module():
    assert p1_table(0.2, 0.5, 0.7) == solver_kuhn.p1_table(0.2, 0.5, 0.7)
    assert p2_table(0.3, 0.4) == solver_kuhn.p2_table(0.3, 0.4)


def test_generic_dirichlet_map_equals_kuhn_closed_form():
    """A Dirichlet model with the paper's prior (Beta(theta, omega) = Dirichlet(theta+1, omega+1))
    and zero prior mass on dominated actions reproduces the closed-form MAP, folds included."""
    prior = {key: dict(entry) for key, entry in p2_table(0.5, 0.5).items()}
    model = DirichletModel(prior, strength=4.0, min_alpha=1e-9)  # Dirichlet(2, 2) = paper Beta(1, 1)
    closed = KuhnP2Model("weak")
    for p1, p2, betting in [
        ("J", "Q", "rf"),
        ("K", "J", "rf"),
        ("K", "Q", "rf"),
        ("K", "Q", "rc"),
        ("Q", "J", "crf"),
        ("Q", "K", "crf"),
        ("K", "J", "crc"),
        ("Q", "J", "cc"),
        ("J", "Q", "rf"),
    ]:
        view = kuhn_view(p1, p2, betting)
        model.learn_hand(view)
        closed.learn_hand(view)
    mode = model.map_policy()
    assert mode["Ks:r"]["c"] == pytest.approx(closed.eta(), abs=1e-4)
    assert mode["Qs:c"]["r"] == pytest.approx(closed.xi(), abs=1e-4)


def test_kuhn_p1_model_map_matches_brute_force():
    model = KuhnP1Model()
    rng = np.random.default_rng(3)
    model.exponents = rng.integers(0, 7, 8).astype(float)
    alpha, beta, gamma = model.map_parameters()
    grid = np.linspace(0, 1, 81)
    a, b, g = np.meshgrid(grid, grid, grid, indexing="ij")
    values = model.log_posterior(a, b, g)
    best = np.unravel_index(np.argmax(values), values.shape)
    assert model.log_posterior(np.array(alpha), np.array(beta), np.array(gamma)) >= values.max() - 1e-9
    assert abs(alpha - grid[best[0]]) < 0.02 and abs(beta - grid[best[1]]) < 0.02 and abs(gamma - grid[best[2]]) < 0.02


def test_kuhn_p1_model_reads_p2_observations():
    model = KuhnP1Model()
    model.learn_hand(kuhn_view("J", "Q", "rf", position=1))  # P2 (Q) folds to a bet: P1 held J or K
    model.learn_hand(kuhn_view("Q", "K", "crf", position=1))  # P2 (K) bets, P1 folds: J or Q
    model.learn_hand(kuhn_view("J", "K", "rc", position=1))  # showdown: P1 bet the Jack
    assert list(model.exponents) == [1, 0, 0, 0, 0, 0, 1, 1]


def exact_log_evidence(model: DirichletModel, records: list[HandRecord]) -> float:
    """log p(records) under the model's prior, by enumerating every hidden hand."""
    fresh = DirichletModel(
        {k: v for k, v in model.index.to_table(model.index.normalise(model.alpha)).items()},
        model.strength,
        index=model.index,
    )
    fresh.alpha = model.alpha.copy()
    for record in records:
        fresh.learn_record(record)
    from pokerbot.models.bayes.special import log_beta

    exact = fresh.exact_posterior()
    # p(data) = sum over assignments of prod P(h) * B(alpha + completed) / B(alpha)
    import itertools

    base = fresh.alpha + fresh.counts
    total = []
    for choice in itertools.product(*(range(r.paths.shape[0]) for r in fresh.folds.records)):
        counts = base.copy()
        weight = 0.0
        for record, h in zip(fresh.folds.records, choice, strict=True):
            np.add.at(counts, record.paths[h], 1.0)
            weight += float(record.log_weights[h])
        total.append(weight + log_beta(counts, model.index.class_start))
    assert exact.size == len(total)
    log_total = np.logaddexp.reduce(total)
    return float(log_total - log_beta(fresh.alpha, model.index.class_start))


def test_particle_posterior_matches_exact_enumeration():
    table = solver_kuhn.nash_policy(1.0).to_json_dict()["infosets"]
    views = random_views(KUHN, 40, seed=5)
    records = [record_from_view(view) for view in views]
    model = DirichletModel(table, 2.0, samples=6000, seed=1)
    learnt = []
    for record in records:
        compiled = model.index.compile(record)
        if compiled.ambiguous and model.exact_components() * compiled.paths.shape[0] > 512:
            continue
        model.learn_record(record)
        learnt.append(record)
    assert 3 <= len(model.folds) and model.exact_components() <= 512
    exact = model.exact_posterior().mean()
    particles = model.expectation_set().mean()
    assert np.max(np.abs(exact - particles)) < 0.01
    # the sum of sequential predictive probabilities is the marginal likelihood
    scorer = DirichletModel(table, 2.0, samples=6000, seed=2)
    sequential = sum(scorer.learn_and_score(record) for record in learnt)
    assert sequential == pytest.approx(exact_log_evidence(scorer, learnt), abs=0.05)


def test_showdowns_update_the_dirichlet_conjugately():
    table = solver_kuhn.nash_policy(1.0).to_json_dict()["infosets"]
    model = DirichletModel(table, 2.0, samples=8, seed=0)
    model.learn_hand(kuhn_view("K", "Q", "rc"))  # P2 (Q) called the bet: "Ks:r" -> c
    model.learn_hand(kuhn_view("K", "Q", "rc"))
    _, span = model.index.class_slots("Ks:r")
    expected = (model.alpha[span] + np.array([0.0, 2.0])) / (model.alpha[span].sum() + 2.0)
    assert model.predict_infoset("Ks:r") == pytest.approx(dict(zip("fc", expected)))
    assert np.allclose(model.expectation_set().policies, model.expectation_set().policies[0])


def test_dirichlet_infers_the_folders_card_from_dominance():
    table = solver_kuhn.nash_policy(1.0).to_json_dict()["infosets"]
    model = DirichletModel(table, 2.0, samples=64, seed=0)
    model.learn_hand(kuhn_view("J", "Q", "rf"))  # a King never folds: the folder held the Queen
    exact = model.exact_posterior()
    assert exact.size == 2 and exact.weights.max() > 0.999
    assert model.predict_infoset("Ks:r")["f"] > table["Ks:r"]["f"]


def test_portfolio_posterior_is_bayes_rule_with_marginalisation():
    always_call = {
        key: {c: (1.0 if c == "c" else 0.0) for c in e}
        for key, e in solver_kuhn.nash_policy(1.0).to_json_dict()["infosets"].items()
    }
    nash = solver_kuhn.nash_policy(1.0).to_json_dict()["infosets"]
    model = PortfolioModel([nash, always_call], names=["nash", "call"], floor=1e-3)
    view = kuhn_view("K", "J", "rf")  # P2 folded: J (fold 1) or Q (fold 2/3) under Nash
    model.learn_hand(view)
    nash_likelihood = 0.5 * nash["Qs:r"]["f"] + 0.5 * nash["Ks:r"]["f"]
    call_likelihood = 1e-3 / (1 + 1e-3)  # floored fold probability
    expected = nash_likelihood / (nash_likelihood + call_likelihood)
    assert model.weights()[0] == pytest.approx(expected, rel=1e-6)
    assert model.map_policy()["Ks:r"] == pytest.approx(nash["Ks:r"], abs=1e-3)


def test_mixture_of_portfolios_equals_one_portfolio():
    tables = [solver_kuhn.nash_policy(g).to_json_dict()["infosets"] for g in (0.0, 0.5, 1.0)]
    joint = PortfolioModel(tables)
    first = PortfolioModel(tables[:1], index=joint.index)
    rest = PortfolioModel(tables[1:], index=joint.index)
    mixture = MixtureModel([first, rest], [1 / 3, 2 / 3])
    for view in random_views(KUHN, 30, seed=2):
        joint.learn_hand(view)
        mixture.learn_hand(view)
    assert mixture.predictive() == pytest.approx(joint.predictive(), abs=1e-9)


def test_infoset_keys_and_their_classes():
    queen = card_from_string("Qh")
    state = HandState(LEDUC, ((queen,), (card_from_string("Ks"),)), (card_from_string("Kh"),))
    assert model_keys.infoset_key((queen,), state) == "Qh:"
    for action in (LIMIT_RAISE, CALL, LIMIT_RAISE):
        state.apply(action)
    assert model_keys.infoset_key((queen,), state) == "Qh/Kh:rc/r"
    assert rank_class("Qh/Kh:rc/r") == "Q/K:rc/r" and model_keys.betting_class("Qh/Kh:rc/r") == ":rc/r"
    assert model_keys.suits_irrelevant(LEDUC) and model_keys.suits_irrelevant(KUHN)
    assert not model_keys.suits_irrelevant(load_game("holdem-limit-2p"))
