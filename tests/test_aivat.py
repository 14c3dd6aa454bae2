"""AIVAT (strategies/aivat): unbiased to the last digit on Kuhn and Leduc, correction terms
on hand-built hands, the equity arithmetic, and ``pokerbot log aivat``."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from pokerbot.bot.cli.app import app
from pokerbot.bot.matches.base import strategy_seed
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.bot.matches.stats import mean_and_ci95
from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from pokerbot.protocol.analysis.headsup import heads_up_equity
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.matchlog import parse_state_line
from pokerbot.protocol.wire import MatchState, replay_betting
from pokerbot.strategies.aivat.aivat import Aivat, AivatError
from pokerbot.strategies.aivat.exact import AivatMoments, aivat_moments, finished_hands
from pokerbot.strategies.aivat.recording import RecordingStrategy
from pokerbot.strategies.aivat.series import aivat_hands
from pokerbot.strategies.aivat.values import VALUE_PREFLOP_BOARDS, EquityValue, StakeValue, default_stake
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.baselines import AlwaysCall
from pokerbot.strategies.solvers import PolicyStrategy, equilibrium_policy

KUHN_VALUE = -1.0 / 18.0
LEDUC_VALUE = -0.0856064


def cards(text: str) -> tuple[int, ...]:
    return cards_from_string(text)


def moments(aivat: Aivat, hands: list[tuple[float, HandState]], players: Sequence[Strategy], known: Sequence[int]):
    """(E[u], E[AIVAT], sd of u, sd of AIVAT) over the exact distribution of ``hands``."""
    exact = aivat_moments(aivat, hands, {position: players[position].action_probabilities for position in known})
    return exact.outcome_mean, exact.estimate_mean, exact.outcome_sd, exact.estimate_sd


@pytest.fixture(scope="module")
def kuhn() -> Game:
    return load_game("kuhn")


@pytest.fixture(scope="module")
def leduc() -> Game:
    return load_game("leduc")


def equilibrium(game: Game) -> PolicyStrategy:
    return PolicyStrategy(game, 1, equilibrium_policy(game))


LEDUC_EQUILIBRIA = pytest.mark.xdist_group("aivat-leduc-equilibria")
"""The tests over the hands of the Leduc equilibrium against itself: on one worker, so that the
hands and their moments are computed once (session fixtures: the slow ones among these tests
run first, apart from the others of this module)."""


@pytest.fixture(scope="session")
def leduc_equilibria() -> tuple[list[Strategy], list[tuple[float, HandState]]]:
    """The Leduc equilibrium in both positions and every finished hand with its probability."""
    leduc = load_game("leduc")
    players: list[Strategy] = [equilibrium(leduc), equilibrium(leduc)]
    return players, finished_hands(leduc, players)


@pytest.fixture(scope="session")
def leduc_equilibria_moments(leduc_equilibria) -> Callable[..., AivatMoments]:
    """``moments(imaginary, imagined=None)``: :func:`aivat_moments` over ``leduc_equilibria``'s
    hands, both players known, each answer computed once."""
    players, hands = leduc_equilibria
    oracles = {position: players[position].action_probabilities for position in (0, 1)}
    leduc = load_game("leduc")

    @functools.cache
    def moments(imaginary: bool, imagined: tuple[int, ...] | None = None) -> AivatMoments:
        return aivat_moments(Aivat(leduc, imaginary=imaginary), hands, oracles, imagined)

    return moments


# ------------------------------------------------------------------ unbiasedness, exactly
@pytest.mark.parametrize(
    ("known", "imaginary"), [((), False), ((0,), False), ((1,), False), ((0, 1), False), ((0,), True), ((0, 1), True)]
)
def test_kuhn_expectation_is_exactly_the_game_value(kuhn: Game, known: tuple[int, ...], imaginary: bool) -> None:
    players = [equilibrium(kuhn), equilibrium(kuhn)]
    hands = finished_hands(kuhn, players)
    mean_u, mean_a, sd_u, sd_a = moments(Aivat(kuhn, imaginary=imaginary), hands, players, known)
    assert mean_u == pytest.approx(KUHN_VALUE, abs=1e-6)
    assert mean_a == pytest.approx(mean_u, abs=1e-12)
    assert sd_a < 0.55 * sd_u


def test_kuhn_variance_falls_with_more_known(kuhn: Game) -> None:
    players = [equilibrium(kuhn), equilibrium(kuhn)]
    hands = finished_hands(kuhn, players)
    sds = [
        moments(Aivat(kuhn, imaginary=imaginary), hands, players, known)[3]
        for known, imaginary in [((), False), ((0,), False), ((0, 1), False), ((0, 1), True)]
    ]
    assert sds == sorted(sds, reverse=True)
    assert sds[-1] < 0.5 * sds[0]


def test_leduc_expectation_is_exactly_the_value_with_imaginary_observations(leduc: Game) -> None:
    """Leduc, the equilibrium against always-call: both players known, imaginary observations of
    both players' cards (posterior over 30 holdings per hand)."""
    players: list[Strategy] = [equilibrium(leduc), AlwaysCall(leduc, 2)]
    hands = finished_hands(leduc, players)
    exact = sum(p * state.values()[0] for p, state in hands)
    mean_u, mean_a, sd_u, sd_a = moments(Aivat(leduc, imaginary=True), hands, players, (0, 1))
    assert mean_u == pytest.approx(exact, abs=1e-12)
    assert mean_a == pytest.approx(exact, abs=1e-12)
    assert sd_a < 0.5 * sd_u


@LEDUC_EQUILIBRIA
@pytest.mark.slow
@pytest.mark.parametrize("imagined", [(0,), (1,)])
def test_imagining_one_of_two_known_players_is_exactly_unbiased(leduc_equilibria_moments, imagined) -> None:
    """Both players known, the holdings of one imagined (the other, say a search, keeps its
    action corrections at its actual cards): the exact expectation is still the value, and the
    variance lies between imagining none and imagining both."""
    one = leduc_equilibria_moments(True, imagined)
    none = leduc_equilibria_moments(False)
    both = leduc_equilibria_moments(True)
    assert one.outcome_mean == pytest.approx(LEDUC_VALUE, abs=1e-6)
    assert one.estimate_mean == pytest.approx(one.outcome_mean, abs=1e-12)
    assert both.estimate_sd < one.estimate_sd < none.estimate_sd


@pytest.mark.parametrize("known", [(0,), (0, 1)])
def test_sampled_imaginary_observations_are_unbiased_over_the_sample(kuhn: Game, known: tuple[int, ...]) -> None:
    """Kuhn with the full posterior replaced by one holding drawn at random (plus the actual
    one) for each imagined player, as hold'em does (two imagined players: every pair of their
    drawn holdings that shares no card): averaged over 200 draws (seeds) the exact expectation
    over the deals is the game's value within two confidence intervals, with less variance
    than without."""
    import pokerbot.strategies.aivat.aivat as aivat_module

    players = [equilibrium(kuhn), equilibrium(kuhn)]
    hands = finished_hands(kuhn, players)
    means, sds = [], []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(aivat_module, "MAX_IMAGINARY", 1)
        for seed in range(200):
            _u, mean_a, _sd_u, sd_a = moments(Aivat(kuhn, imaginary=True, sample=1, seed=seed), hands, players, known)
            means.append(mean_a)
            sds.append(sd_a)
    mean, ci = mean_and_ci95(means)
    assert abs(mean - KUHN_VALUE) < 2 * ci
    plain = moments(Aivat(kuhn), hands, players, known)[3]
    assert sum(sds) / len(sds) < plain


@LEDUC_EQUILIBRIA
def test_leduc_equilibrium_value_with_both_known(leduc_equilibria_moments) -> None:
    exact = leduc_equilibria_moments(False)
    assert exact.outcome_mean == pytest.approx(LEDUC_VALUE, abs=1e-6)
    assert exact.estimate_mean == pytest.approx(exact.outcome_mean, abs=1e-12)
    assert exact.estimate_sd < 0.5 * exact.outcome_sd


class _Enumerated:
    """The equity value without its chance-consistency shortcut: AIVAT enumerates the cards."""

    chance_consistent = False

    def __init__(self, game: Game) -> None:
        self.inner = EquityValue(game)

    def value(self, state: HandState) -> float:
        return self.inner.value(state)


@LEDUC_EQUILIBRIA
def test_chance_consistency_shortcut_equals_enumeration(leduc: Game, leduc_equilibria) -> None:
    players, hands = leduc_equilibria
    oracles = {0: players[0].action_probabilities}
    shortcut, enumerated = Aivat(leduc), Aivat(leduc, _Enumerated(leduc))
    for _p, state in hands[::37]:
        first, second = shortcut.hand(state, 0, oracles), enumerated.hand(state, 0, oracles)
        assert first.chance == pytest.approx(second.chance, abs=1e-12)
        assert first.value == pytest.approx(second.value, abs=1e-12)


class _EnumeratedStake:
    """A stake value (arbitrary coefficients) without the shortcut: AIVAT enumerates the cards."""

    chance_consistent = False

    def __init__(self, inner: StakeValue) -> None:
        self.inner = inner

    def value(self, state: HandState) -> float:
        return self.inner.value(state)


# Arbitrary coefficients for Leduc (3 stake terms x 2 rounds): any gives an unbiased
# estimate, which is what the tests below check.
LEDUC_STAKE = (0.7, -1.3, 2.1, 0.4, -0.9, 1.7)


def test_stake_value_is_chance_consistent(leduc: Game) -> None:
    """The shortcut (the value before a card is the value at the same betting with the cards
    known so far) equals the enumeration over every card that could have come, pre-flop odd
    powers and the later round's edge alike."""
    players = [equilibrium(leduc), AlwaysCall(leduc, 2)]
    stake = StakeValue(leduc, LEDUC_STAKE)
    oracles = {0: players[0].action_probabilities}
    shortcut, enumerated = Aivat(leduc, stake), Aivat(leduc, _EnumeratedStake(stake))
    checked = 0
    for _p, state in finished_hands(leduc, players)[::11]:
        first, second = shortcut.hand(state, 0, oracles), enumerated.hand(state, 0, oracles)
        assert first.chance == pytest.approx(second.chance, abs=1e-9)
        assert first.value == pytest.approx(second.value, abs=1e-9)
        checked += first.chance != Aivat(leduc).hand(state, 0, oracles).chance
    assert checked > 0  # the coefficients changed some corrections


def test_stake_value_keeps_the_estimate_exactly_unbiased(leduc: Game) -> None:
    players: list[Strategy] = [equilibrium(leduc), AlwaysCall(leduc, 2)]
    hands = finished_hands(leduc, players)
    exact = sum(p * state.values()[0] for p, state in hands)
    for known in ((), (0,), (0, 1)):
        mean_u, mean_a, _sd_u, _sd_a = moments(Aivat(leduc, StakeValue(leduc, LEDUC_STAKE)), hands, players, known)
        assert mean_a == pytest.approx(exact, abs=1e-12)


def test_stake_value_features_and_defaults(leduc: Game) -> None:
    """Leduc defaults to the equity value (no fitted coefficients); hold'em ships fitted ones.
    Pre-flop, AsAh against KsKh has the features x m, x BB, x (bet to call), x (behind) with
    x = 2e - 1; on the flop the flop's four, the others 0."""
    state = HandState(leduc, [cards("Ks"), cards("Qs")], [])
    assert StakeValue(leduc).value(state) == EquityValue(leduc).value(state)
    game = load_game("holdem-nolimit-2p")
    assert len(default_stake(game)) == len(StakeValue(game).coefficients) == 4 * 4
    assert len(default_stake(load_game("holdem-limit-2p"))) == 3 * 4
    holdem = HandState(game, [cards("AsAh"), cards("KsKh")], [])
    stake = StakeValue(game, (0.0,) * 16)
    x = 2 * stake.equity_value.equity(cards("AsAh"), cards("KsKh"), ()) - 1
    terms = [50.0, 100.0, 50.0, 19900.0]  # matched, big blind, the small blind's call, behind
    assert stake.features(holdem) == pytest.approx([t * x for t in terms] + [0.0] * 12)
    replay_betting("cr300c/", holdem, 0)
    assert not holdem.finished and holdem.round == 1
    flop = stake.features(holdem)
    assert list(flop[:4]) == [0.0] * 4 and list(flop[8:]) == [0.0] * 8
    assert flop[4:8] == pytest.approx(np.multiply([300.0, 100.0, 0.0, 19700.0], x))
    weighted = StakeValue(game, (0.0,) * 4 + (0.5, 1.0, 0.0, 0.01) + (0.0,) * 8)
    assert weighted.value(holdem) == pytest.approx(x * 300 + x * (150 + 100 + 197))


# ------------------------------------------------------------------ hand-built hands
def finished(game: Game, holes: str, board: str, betting: str) -> HandState:
    first, second = holes.split("|")
    state = HandState(game, [cards(first), cards(second)], cards(board))
    replay_betting(betting, state, 0)
    assert state.finished
    return state


def test_kuhn_hand_built_corrections(kuhn: Game) -> None:
    """K against Q, bet and called: u = +2. The deal is worth (2 * 1 - 1) * 1 (K always wins,
    one chip each matched), so its correction is -1; Q's call, known with P(fold) = 2/3, is
    corrected by 2/3 * 1 + 1/3 * 2 - 2 = -2/3: the estimate is 2 - 1 - 2/3 = 1/3."""
    state = finished(kuhn, "Ks|Qs", "", "rc")
    estimate = Aivat(kuhn).hand(state, 0, {1: lambda view: {FOLD: 2 / 3, CALL: 1 / 3}})
    assert estimate.outcome == 2.0
    assert estimate.chance == pytest.approx(-1.0)
    assert estimate.action == pytest.approx(-2 / 3)
    assert estimate.value == pytest.approx(1 / 3)
    assert Aivat(kuhn).hand(state, 0, {}).value == pytest.approx(1.0)


def test_holdem_turn_all_in_is_valued_at_its_equity(tmp_path: Path) -> None:
    """AsKs against QhQc, checked to the turn (2s7s9h8d), all-in and called, the ace of
    diamonds on the river: u = +20,000. With no known player the estimate is the sum, over the
    calls, of the chips they matched times (2 e - 1) at the time: the small blind's pre-flop
    call (50 chips, e pre-flop) and the turn call (19,900 chips, e = 15/44 exactly)."""
    game = load_game("holdem-nolimit-2p")
    state = finished(game, "AsKs|QhQc", "2s7s9h8dAd", "cc/cc/r20000c/")
    estimate = Aivat(game, EquityValue(game)).hand(state, 0, {})
    pre = heads_up_equity(game, [cards("AsKs"), cards("QhQc")], (), preflop_boards=VALUE_PREFLOP_BOARDS)
    assert estimate.outcome == 20000.0
    assert estimate.value == pytest.approx((2 * pre - 1) * 50 + (2 * 15 / 44 - 1) * 19900)
    assert estimate.action == 0.0


def test_holdem_known_river_call(tmp_path: Path) -> None:
    """The same hand with position 1 known on the turn: it calls the all-in with probability
    1/4, folds otherwise. Its correction is 3/4 * v(fold) + 1/4 * v(call) - v(call), with
    v(fold) = +100 (position 1's chips in) and v(call) = (2 * 15/44 - 1) * 20,000."""
    game = load_game("holdem-nolimit-2p")
    state = finished(game, "AsKs|QhQc", "2s7s9h8dAd", "cc/cc/r20000c/")
    called = (2 * 15 / 44 - 1) * 20000

    def oracle(view: MatchState) -> dict[Action, float]:
        return {FOLD: 0.75, CALL: 0.25} if view.state.max_spent == 20000 else {CALL: 1.0}

    estimate = Aivat(game, EquityValue(game)).hand(state, 0, {1: oracle})
    assert estimate.action == pytest.approx(0.75 * 100 + 0.25 * called - called)


def test_a_known_player_that_never_plays_the_action_is_an_error(kuhn: Game) -> None:
    state = finished(kuhn, "Ks|Qs", "", "rc")
    with pytest.raises(AivatError, match="never plays c"):
        Aivat(kuhn).hand(state, 0, {1: lambda view: {FOLD: 1.0}})


def test_imaginary_observations_in_holdem_take_a_sample() -> None:
    """Every holding is too many in hold'em: without a sample it is an error; with one, the
    known player's other holdings count by its probabilities (here: it raises, except with
    aces), and the outcome of a fold does not depend on them."""
    game = load_game("holdem-limit-2p")
    state = finished(game, "AsAd|QhQc", "", "rf")
    with pytest.raises(AivatError, match="small games"):
        Aivat(game, imaginary=True).hand(state, 0, {1: lambda view: {LIMIT_RAISE: 1.0}})

    def raises_but_aces(view: MatchState) -> dict[Action, float]:
        aces = sum(card >> 2 == 12 for card in view.hole_cards)
        return {CALL: 1.0} if aces == 2 else {LIMIT_RAISE: 1.0}

    estimate = Aivat(game, imaginary=True, sample=20).hand(state, 0, {1: raises_but_aces})
    assert estimate.outcome == -10.0  # position 0 folds its big blind of 10 chips
    assert estimate.base == -10.0


class CountingValue:
    """The equity value, counting the hole cards it is asked about."""

    chance_consistent = True

    def __init__(self, game: Game) -> None:
        self.inner = EquityValue(game)
        self.holdings: set[tuple[object, ...]] = set()

    def value(self, state: HandState) -> float:
        self.holdings.add(tuple(state.hole_cards))
        return self.inner.value(state)


def test_imagined_holdings_the_known_players_never_play_this_way_cost_no_value() -> None:
    """A holding whose reach is zero adds nothing to the estimate, so the value function is
    never asked about it: with a player who raises only with aces, the sample of 40 holdings
    asks the value function about the aces among them and the actual cards only."""
    game = load_game("holdem-limit-2p")
    state = finished(game, "7s2d|AhAc", "", "rf")

    def raises_only_aces(view: MatchState) -> dict[Action, float]:
        aces = sum(card >> 2 == 12 for card in view.hole_cards)
        return {LIMIT_RAISE: 1.0} if aces == 2 else {CALL: 1.0}

    value = CountingValue(game)
    estimate = Aivat(game, value, imaginary=True, sample=40).hand(state, 0, {1: raises_only_aces})
    asked = {holes[1] for holes in value.holdings if holes[1] is not None}
    assert all(card >> 2 == 12 for holding in asked for card in holding)
    assert cards("AhAc") in asked
    plain = Aivat(game, EquityValue(game)).hand(state, 0, {1: raises_only_aces})
    assert estimate.outcome == plain.outcome


def test_two_imagined_players_average_over_every_pair_of_their_drawn_holdings() -> None:
    """With both players imagined, each gets its own sample and every pair of the drawn
    holdings that shares no card counts: a hand where both players call whatever they hold
    (reach 1 everywhere) asks the value function about far more pairs than holdings drawn."""
    game = load_game("holdem-limit-2p")
    state = finished(game, "7s2d|AhAc", "2c3c4h9dTs", "cc/cc/cc/cc")
    calls: dict[int, object] = {0: lambda view: {CALL: 1.0}, 1: lambda view: {CALL: 1.0}}
    value = CountingValue(game)
    estimate = Aivat(game, value, imaginary=True, sample=5).hand(state, 0, calls)  # type: ignore[arg-type]
    pairs = {holes for holes in value.holdings if holes[0] is not None}
    assert len(pairs) > 2 * (5 + 1)
    assert all(len({*holes[0], *holes[1]}) == 4 for holes in pairs)
    assert estimate.action == 0.0  # a player who always calls has nothing to correct


# ------------------------------------------------------------------ equity
def test_holdem_equity() -> None:
    game = load_game("holdem-nolimit-2p")
    ak, qq = cards("AsKd"), cards("QhQc")
    assert heads_up_equity(game, [cards("AsKs"), qq], cards("2s7s9h8d")) == pytest.approx(15 / 44)
    assert heads_up_equity(game, [cards("AsKs"), qq], cards("2s7s9h8dAd")) == 1.0
    pre = heads_up_equity(game, [ak, qq], ())
    assert pre == heads_up_equity(game, [ak, qq], ())
    assert pre + heads_up_equity(game, [qq, ak], ()) == pytest.approx(1.0, abs=1e-15)
    assert pre == pytest.approx(0.43, abs=0.01)  # AKo against QQ: about 43 %


def test_small_game_equity(kuhn: Game, leduc: Game) -> None:
    assert heads_up_equity(leduc, [cards("Ks"), cards("Qs")], ()) == 0.75
    assert heads_up_equity(leduc, [cards("Ks"), cards("Qs")], cards("Qh")) == 0.0
    assert heads_up_equity(kuhn, [cards("Qs"), cards("As")], ()) == 0.0


# ------------------------------------------------------------------ matches and logs
def test_recorded_match_agrees_with_the_kuhn_value_and_with_the_replayed_log(kuhn: Game, tmp_path: Path) -> None:
    """1,000 Kuhn hands of the equilibrium against itself, fixed seats: AIVAT with both known
    (recorded in the match) is within its interval of -1/18, with a third of the plain standard
    deviation; replaying the log with the same seeds gives the same estimates."""
    names = ["first", "second"]
    recorders = [
        RecordingStrategy(PolicyStrategy(kuhn, strategy_seed(9, name), equilibrium_policy(kuhn)), imaginary=True)
        for name in names
    ]
    log = tmp_path / "kuhn.log"
    run_inprocess_match(kuhn, 1000, 9, recorders, names, fixed_seats=True, log_path=log)
    hands = [parse_state_line(line, kuhn) for line in log.read_text().splitlines() if line.startswith("STATE")]
    records = list(aivat_hands(Aivat(kuhn, imaginary=True), hands, dict(zip(names, recorders))))
    plain = [r.outcomes["first"] for r in records]
    corrected = [r.estimates["first"] for r in records]
    mean, ci = mean_and_ci95(corrected)
    assert abs(mean - KUHN_VALUE) <= ci
    assert _sd(corrected) < 0.35 * _sd(plain)
    from pokerbot.strategies.aivat.recording import ReplayedStrategy

    replayed = {
        name: ReplayedStrategy(PolicyStrategy(kuhn, strategy_seed(9, name), equilibrium_policy(kuhn))) for name in names
    }
    again = [r.estimates["first"] for r in aivat_hands(Aivat(kuhn, imaginary=True), hands, replayed)]
    assert again == corrected


def _sd(values: Sequence[float]) -> float:
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))


runner = CliRunner()


@pytest.fixture(scope="module")
def leduc_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("aivat")
    result = runner.invoke(
        app,
        ["match", "--game", "leduc", "--players", "equilibrium", "always-call", "--hands", "300", "--duplicate"]
        + ["--in-process", "--seed", "4", "--out", str(folder), "-q"],
    )
    assert result.exit_code == 0, result.output
    return folder


def test_log_aivat_command(leduc_logs: Path) -> None:
    out = leduc_logs / "aivat.json"
    result = runner.invoke(
        app,
        ["log", "aivat", str(leduc_logs / "match.log"), str(leduc_logs / "match-swapped.log"), "--game", "leduc"]
        + ["--strategy", "1=equilibrium", "--strategy", "always-call=always-call", "--json", str(out), "-q"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    first = data["players"][0]
    assert first["name"] == "equilibrium" and first["series_length"] == 300
    assert first["aivat_sd_chips"] < 0.7 * first["sd_chips"]
    assert data["known"] == {"equilibrium": "equilibrium", "always-call": "always-call"}


def test_log_aivat_errors(leduc_logs: Path, tmp_path: Path) -> None:
    log = str(leduc_logs / "match.log")
    wrong = runner.invoke(app, ["log", "aivat", log, "--game", "leduc", "--strategy", "always-call=always-fold"])
    assert wrong.exit_code == 1
    assert "never plays" in wrong.output
    bad = runner.invoke(app, ["log", "aivat", log, "--game", "leduc", "--strategy", "nobody=always-call"])
    assert bad.exit_code == 2
    assert "expected SEAT=NAME" in bad.output
    broken = tmp_path / "broken.log"
    broken.write_text("STATE:0:cc/r:Ks|Qs/Kh:1|-1:a|b\n")
    result = runner.invoke(app, ["log", "aivat", str(broken), "--game", "leduc"])
    assert result.exit_code == 2
    assert "line 1" in result.output


@pytest.mark.slow
def test_log_aivat_imaginary_sample_in_holdem(tmp_path: Path) -> None:
    """In hold'em ``--imaginary`` needs ``--sample`` (one line says so); with it the known
    player's other holdings are averaged, a sample drawn from the match seed: the same figures
    on every run, and other figures than without imaginary observations."""
    folder = tmp_path / "m"
    played = runner.invoke(
        app,
        ["match", "--game", "holdem-limit-2p", "--players", "tight-aggressive", "calling-station", "--hands", "4"]
        + ["--in-process", "--seed", "2", "--out", str(folder), "-q"],
    )  # three of the four hands reach the river
    assert played.exit_code == 0, played.output
    base = ["log", "aivat", str(folder / "match.log"), "--strategy", "1=tight-aggressive", "-q"]
    refused = runner.invoke(app, [*base, "--imaginary"])
    assert refused.exit_code == 1 and "--sample N" in refused.output
    figures = []
    for extra in (["--imaginary", "--sample", "4"], ["--imaginary", "--sample", "4"], []):
        out = tmp_path / f"a{len(figures)}.json"
        result = runner.invoke(app, [*base, *extra, "--json", str(out)])
        assert result.exit_code == 0, result.output
        figures.append(json.loads(out.read_text())["players"][0])
    assert figures[0] == figures[1]
    assert figures[0]["aivat_mbb_per_hand"] != figures[2]["aivat_mbb_per_hand"]
    assert figures[0]["mbb_per_hand"] == figures[2]["mbb_per_hand"]
    negative = runner.invoke(app, [*base, "--sample", "-1"])
    assert negative.exit_code == 2 and "--sample must not be negative" in negative.output
    # --value equity: the former value function, other figures than the default stake value.
    out = tmp_path / "equity.json"
    equity = runner.invoke(app, [*base, "--value", "equity", "--json", str(out)])
    assert equity.exit_code == 0, equity.output
    assert json.loads(out.read_text())["players"][0]["aivat_mbb_per_hand"] != figures[2]["aivat_mbb_per_hand"]
    unknown = runner.invoke(app, [*base, "--value", "neural"])
    assert unknown.exit_code == 2 and "--value must be one of stake, equity, got 'neural'" in unknown.output


def test_a_seat_is_named_as_the_match_was_given_it_or_as_its_log_spells_it() -> None:
    from pokerbot.bot.cli.aivat import resolve_strategies

    seats = ["miximax=500nodes", "tight-aggressive"]
    assert resolve_strategies(["miximax:500nodes=miximax:500nodes"], seats) == {"miximax=500nodes": "miximax:500nodes"}
    assert resolve_strategies(["miximax=500nodes=miximax:500nodes"], seats) == {"miximax=500nodes": "miximax:500nodes"}
    assert resolve_strategies(["2=tight-aggressive"], seats) == {"tight-aggressive": "tight-aggressive"}
