"""The leak report of a log (``pokerbot log audit``), on hand-written logs and the reference's.

The hand-written heads-up no-limit log below plays one situation a hand (A and B; position 0
posts the big blind of 100, stacks are 20,000): flop shoves deep in the stack from a made hand
and from nothing, a 3-pot turn bet and a river shove, five pre-flop shoves by B that A calls
and sees, one it folds to, then a call of a shove with A9s against what B has shown, one with
aces, and a river fold of the best hand. Sizes, ratios and prices are worked out by hand;
equities against the opponent's cards and random holdings are checked against enumeration
(river hand strength, every run-out of a flop) or long Monte Carlo runs.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerbot.bot.cli.app import app
from pokerbot.protocol.analysis.equity import equity_vs_random as exact_vs_random
from pokerbot.protocol.analysis.headsup import heads_up_equity
from pokerbot.protocol.analysis.preflop import preflop_class_equity
from pokerbot.protocol.analysis.strength import hand_strength
from pokerbot.protocol.audit import (
    CHECKS,
    ROWS,
    SHOWN_SHOVES,
    AuditError,
    Decision,
    Kind,
    audit,
)
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.game import load_game, parse_game
from pokerbot.protocol.matchlog import check_log, read_log

FIXTURES = Path(__file__).parent / "fixtures" / "acpc"
NOLIMIT = load_game("holdem-nolimit-2p")
HAND_WRITTEN = [
    "# name/game/hands/seed audit holdem-nolimit-2p 12 1",
    "STATE:0:cc/r20000c//:9h2h|9sAd/7c3c9d/Kh/5s:-20000|20000:A|B",
    "STATE:1:cc/cr20000f:KdJd|2d4h/KcQs9h:-100|100:B|A",
    "STATE:2:r300c/cc/r2100c/r20000f:AsAh|KsKh/2c7d9h/Jc/3s:2100|-2100:A|B",
    "STATE:3:r20000c///:7c7d|AhAd/Tc8d2h/4s/3c:-20000|20000:A|B",
    "STATE:4:r20000c///:8c8d|KhKd/Tc7d2h/4s/3c:-20000|20000:A|B",
    "STATE:5:r20000c///:JsTs|QhQd/6c7d2h/4s/3c:-20000|20000:A|B",
    "STATE:6:r20000c///:5c5d|AcKc/Tc8d2h/4s/3h:20000|-20000:A|B",
    "STATE:7:r20000c///:2s2h|AdKs/Tc8d3h/4s/7c:20000|-20000:A|B",
    "STATE:8:r20000f:QsJc|7h2c:-100|100:A|B",
    "STATE:9:r20000c///:Ah9h|JcJd/Tc8d2h/4s/3c:-20000|20000:A|B",
    "STATE:10:r20000c///:AsAc|9c9d/Tc8d2h/4s/3c:20000|-20000:A|B",
    "STATE:11:cc/cc/cc/cr300f:QhQd|7s6s/2c8d9h/Ks/3c:-100|100:A|B",
    "SCORE:-38000|38000:A|B",
]


def cards(text: str) -> tuple[int, ...]:
    return cards_from_string(text)


@pytest.fixture(scope="module")
def reports() -> dict[str, list[Decision]]:
    hands = read_log(HAND_WRITTEN, NOLIMIT).hands
    return {player: list(audit(hands, player).decisions) for player in ("A", "B")}


def of(decisions: list[Decision], hand: int) -> list[Decision]:
    return [d for d in decisions if d.hand_number == hand]


def test_the_hand_written_log_is_a_valid_log() -> None:
    report = check_log(HAND_WRITTEN, NOLIMIT)
    assert report.ok, report.problems
    assert report.hands == 12


def test_every_decision_is_counted_once_by_kind_and_round() -> None:
    hands = read_log(HAND_WRITTEN, NOLIMIT).hands
    a, b = audit(hands, "A"), audit(hands, "B")
    assert a.hands == b.hands == 12
    expected_a = {
        "fold": [1, 0, 0, 1],
        "check": [2, 2, 1, 1],
        "call": [2, 0, 0, 0],
        "call of an all-in": [7, 0, 0, 0],
        "bet or raise, 2-3 pots": [0, 0, 1, 0],
        "all-in, SPR 4-6": [0, 0, 0, 1],
        "all-in, SPR above 6": [0, 2, 0, 0],
    }
    expected_b = {
        "fold": [0, 1, 0, 1],
        "check": [1, 3, 1, 0],
        "call": [2, 0, 1, 0],
        "call of an all-in": [0, 1, 0, 0],
        "bet or raise, 0.5-1 pots": [1, 0, 0, 1],
        "all-in, SPR above 6": [8, 0, 0, 0],
    }
    for result, expected in ((a, expected_a), (b, expected_b)):
        counts = result.counts()
        assert list(counts) == list(ROWS)
        assert {row: by_round for row, by_round in counts.items() if any(by_round)} == expected
        actions = sum(len(h.state.history()) for h in hands)
        assert sum(map(sum, a.counts().values())) + sum(map(sum, b.counts().values())) == actions


def test_sizes_ratios_and_prices_worked_out_by_hand(reports: dict[str, list[Decision]]) -> None:
    a, b = reports["A"], reports["B"]
    shove = of(a, 0)[1]  # 19,900 into 200 on the flop, 19,900 behind each
    assert (shove.kind, shove.pot, shove.to_call, shove.raise_to) == (Kind.ALL_IN, 200, 0, 20000)
    assert shove.size == pytest.approx(99.5) and shove.spr == pytest.approx(99.5) and shove.price is None
    call = of(b, 0)[1]
    assert (call.kind, call.to_call, call.stake, call.showdown) == (Kind.CALL_ALL_IN, 19900, 20000, True)
    assert call.price == pytest.approx(19900 / 40000)
    assert of(b, 0)[0].price == pytest.approx(50 / 200)  # the small blind completes
    open_raise = of(b, 2)[0]  # to 300: 200 more over the 200 of the pot after its call
    assert (open_raise.kind, open_raise.size, open_raise.row()) == (Kind.BET, 1.0, "bet or raise, 0.5-1 pots")
    assert open_raise.spr == pytest.approx(19900 / 150)
    turn = of(a, 2)[2]  # 1,800 into 600: 3 pots exactly, not above
    assert (turn.kind, turn.pot, turn.size, turn.row()) == (Kind.BET, 600, 3.0, "bet or raise, 2-3 pots")
    assert turn.spr == pytest.approx(19700 / 600)
    assert of(b, 2)[2].price == pytest.approx(1800 / 4200)
    river = of(a, 2)[3]  # 17,900 into 4,200: the effective stack
    assert (river.kind, river.pot, river.row()) == (Kind.ALL_IN, 4200, "all-in, SPR 4-6")
    assert river.size == pytest.approx(17900 / 4200) and river.spr == pytest.approx(17900 / 4200)
    fold = of(b, 2)[3]
    assert (fold.kind, fold.price, fold.won, fold.showdown) == (Kind.FOLD, pytest.approx(17900 / 40000), -2100, False)
    preflop_shove = of(b, 3)[0]
    assert preflop_shove.kind is Kind.ALL_IN and preflop_shove.size == pytest.approx(19900 / 200)


def _enumerated(hole: str, theirs: str, board: str) -> float:
    """Every run-out, ranked by the dealer's ranker: the oracle of an equity against a hand."""
    mine, other, known = cards(hole), cards(theirs), cards(board)
    rest = [c for c in NOLIMIT.deck if c not in {*mine, *other, *known}]
    score = count = 0.0
    for extra in itertools.combinations(rest, 5 - len(known)):
        a, b = NOLIMIT.ranker((*mine, *known, *extra)), NOLIMIT.ranker((*other, *known, *extra))
        score += 1.0 if a > b else 0.5 if a == b else 0.0
        count += 1
    return score / count


def test_equities_against_random_holdings_and_the_opponents_cards(reports: dict[str, list[Decision]]) -> None:
    a, b = reports["A"], reports["B"]
    shove = of(a, 0)[1]
    assert shove.equity_opponent == pytest.approx(_enumerated("9h2h", "9sAd", "7c3c9d"))
    exact = exact_vs_random(cards("9h2h"), cards("7c3c9d"))
    assert shove.equity_random == pytest.approx(exact, abs=0.015)  # 20,000 draws: 4 standard deviations
    river = of(a, 2)[3]
    assert river.equity_random == pytest.approx(hand_strength(NOLIMIT, cards("AsAh"), cards("2c7d9hJc3s")))
    assert river.equity_opponent == 1.0
    assert of(a, 9)[0].equity_random == preflop_class_equity()["A9s"]
    assert of(b, 2)[3].equity_opponent == 0.0  # kings folded to aces on the river
    assert of(a, 11)[-1].equity_opponent == 1.0  # queens folded to seven high
    assert of(a, 0)[0].equity_random is None  # checks and plain calls get no equity
    assert of(b, 2)[2].equity_random is None


def test_the_hands_the_opponent_has_shown_shoving(reports: dict[str, list[Decision]]) -> None:
    a = reports["A"]
    calls = [d for d in a if d.kind is Kind.CALL_ALL_IN]
    assert [d.hand_number for d in calls] == [3, 4, 5, 6, 7, 9, 10]
    assert [d.shown_shoves for d in calls] == [0, 1, 2, 3, 4, 5, 6]  # the shove A folded to was never shown
    assert all(d.equity_shown_shoves is None for d in calls[:SHOWN_SHOVES])
    a9s, aces = calls[5], calls[6]
    # A9s (Ah9h) against AhAd (left out: it holds the Ah), KhKd, QhQd, AcKc and AdKs
    shown = ["KhKd", "QhQd", "AcKc", "AdKs"]
    long_run = [heads_up_equity(NOLIMIT, (cards("Ah9h"), cards(h)), (), preflop_boards=200_000) for h in shown]
    assert a9s.equity_shown_shoves == pytest.approx(sum(long_run) / 4, abs=0.01)
    assert a9s.equity_shown_shoves is not None and a9s.price is not None
    assert a9s.equity_shown_shoves < a9s.price
    assert aces.equity_shown_shoves is not None and aces.price is not None
    assert aces.equity_shown_shoves > aces.price


def test_the_leak_checks(reports: dict[str, list[Decision]]) -> None:
    hands = read_log(HAND_WRITTEN, NOLIMIT).hands
    failing = {
        player: {check.name: [d.hand_number for d in audit(hands, player).failing(check)] for check in CHECKS}
        for player in ("A", "B")
    }
    assert failing["A"] == {"deep": [0, 1], "weak": [1], "shove-call": [9], "best-fold": [8, 11]}
    assert failing["B"] == {"deep": [], "weak": [], "shove-call": [], "best-fold": [1]}
    assert audit(hands, "A").per_thousand(2) == pytest.approx(1000 * 2 / 12)


def test_the_same_figures_in_every_run() -> None:
    from pokerbot.protocol import audit as module
    from pokerbot.protocol.analysis import headsup

    hands = read_log(HAND_WRITTEN, NOLIMIT).hands
    first = audit(hands, "A")
    module._vs_random.cache_clear()
    headsup._holdem_equity.cache_clear()
    assert audit(hands, "A") == first


def test_an_all_in_to_the_shorter_stack() -> None:
    """Stacks of 20,000 and 5,000: a raise to 5,000 is all-in for either player."""
    game = parse_game(
        "GAMEDEF\nnolimit\nnumPlayers = 2\nnumRounds = 4\nstack = 20000 5000\nblind = 100 50\n"
        "firstPlayer = 2 1 1 1\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\nnumBoardCards = 0 3 1 1\n"
        "END GAMEDEF\n"
    )
    lines = [
        "STATE:0:cr5000c///:AsAh|KsKh/2c7d9h/Jc/3s:5000|-5000:A|B",
        "STATE:1:cc/r4000r5000c//:AsAh|KsKh/2c7d9h/Jc/3s:5000|-5000:A|B",
    ]
    assert check_log([*lines, "SCORE:10000|-10000:A|B"], game).ok
    hands = read_log(lines, game).hands
    a, b = audit(hands, "A").decisions, audit(hands, "B").decisions
    assert [d.kind for d in a] == [Kind.ALL_IN, Kind.CHECK, Kind.BET, Kind.CALL_ALL_IN]
    assert [d.kind for d in b] == [Kind.CALL, Kind.CALL_ALL_IN, Kind.CALL, Kind.ALL_IN]
    assert a[0].spr == pytest.approx(4900 / 200) and a[0].size == pytest.approx(4900 / 200)
    assert a[2].spr == pytest.approx(4900 / 200) and b[3].spr == pytest.approx(4900 / 4100)


def test_a_reference_dealer_log() -> None:
    """Hand 0 of the reference's no-limit log: ``cc/r14664c/cr14774r19997r20000c/``."""
    lines = (FIXTURES / "nolimit2p_s12" / "log.txt").read_text().splitlines()
    hands = read_log(lines, NOLIMIT).hands
    a = audit(hands[:1], "A")
    assert [d.kind for d in a.decisions] == [Kind.CHECK, Kind.BET, Kind.CHECK, Kind.BET, Kind.CALL_ALL_IN]
    assert a.decisions[1].size == pytest.approx(14564 / 200)
    assert a.decisions[3].size == pytest.approx((19997 - 14774) / (29328 + 110 + 110))
    assert a.decisions[4].price == pytest.approx(3 / 40000)  # 3 chips to call into 39,997
    full = audit(hands, "B")
    assert full.hands == 300
    moves = sum(1 for h in hands for _, p, _ in h.state.history() if h.names[p] == "B")
    assert sum(map(sum, full.counts().values())) == moves


def test_limit_has_no_all_in_and_no_ratio() -> None:
    game = load_game("holdem-limit-2p")
    hands = read_log((FIXTURES / "limit2p_s11" / "log.txt").read_text().splitlines(), game).hands
    result = audit(hands[:60], "A")
    raises = [d for d in result.decisions if d.kind in (Kind.BET, Kind.ALL_IN)]
    assert raises and all(d.kind is Kind.BET and d.spr is None for d in raises)
    assert all(d.equity_random is not None for d in raises)


def test_small_games_equity_by_enumeration() -> None:
    kuhn = load_game("kuhn")
    hands = read_log((FIXTURES / "kuhn2p_s16" / "log.txt").read_text().splitlines(), kuhn).hands
    bets = [d for d in audit(hands, "A").decisions if d.kind is Kind.BET]
    assert bets
    for d in bets:  # the king always wins, the queen half the time, the jack never
        assert d.hole is not None
        assert d.equity_random == {0: 0.0, 1: 0.5, 2: 1.0}[sorted(kuhn.deck).index(d.hole[0])]
    leduc = load_game("leduc")
    hands = read_log((FIXTURES / "leduc2p_s17" / "log.txt").read_text().splitlines(), leduc).hands
    flop = [d for d in audit(hands, "B").decisions if d.kind is Kind.BET and d.round == 1]
    assert flop
    for d in flop:
        assert d.hole is not None
        assert d.equity_random == pytest.approx(hand_strength(leduc, d.hole, d.board))


def test_only_heads_up_logs_and_known_players() -> None:
    game = load_game("holdem-limit-3p")
    hands = read_log((FIXTURES / "limit3p_s13" / "log.txt").read_text().splitlines(), game).hands
    with pytest.raises(AuditError, match="heads-up games; this log's game has 3 players"):
        audit(hands, "A")
    with pytest.raises(AuditError, match="'C' played no hand"):
        audit(read_log(HAND_WRITTEN, NOLIMIT).hands, "C")


runner = CliRunner()


@pytest.fixture
def logfile(tmp_path: Path) -> Path:
    path = tmp_path / "audit.log"
    path.write_text("\n".join(HAND_WRITTEN) + "\n", encoding="utf-8")
    return path


def test_log_audit_command(logfile: Path, tmp_path: Path) -> None:
    out = tmp_path / "audit.json"
    result = runner.invoke(app, ["log", "audit", str(logfile), "--seat", "1", "--json", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert "A's decisions, 12 hands" in result.output and "B's decisions" not in result.output
    assert "shove-call" in result.output and "Ah9h" in result.output
    data = json.loads(out.read_text())
    (player,) = data["players"]
    assert player["player"] == "A" and player["hands"] == 12
    assert player["counts"]["call of an all-in"] == {
        "pre-flop": 7,
        "flop": 0,
        "turn": 0,
        "river": 0,
        "total": 7,
        "per_1000": pytest.approx(7000 / 12),
    }
    assert {name: check["hands"] for name, check in player["checks"].items()} == {
        "deep": [0, 1],
        "weak": [1],
        "shove-call": [9],
        "best-fold": [8, 11],
    }
    a9s = next(d for d in player["decisions"] if d["hand"] == 9)
    assert (a9s["kind"], a9s["cards"], a9s["checks_failed"], a9s["shown_shoves"]) == (
        "call of an all-in",
        "Ah9h",
        ["shove-call"],
        5,
    )
    both = runner.invoke(app, ["log", "audit", str(logfile), "--show", "0", "-q"])
    assert both.exit_code == 0 and "A's decisions" in both.output and "B's decisions" in both.output


def test_log_audit_refuses_what_it_cannot_audit(logfile: Path) -> None:
    bad_seat = runner.invoke(app, ["log", "audit", str(logfile), "--seat", "C"])
    assert bad_seat.exit_code == 2 and "'C' is neither a player of the log (A, B) nor 1..2" in bad_seat.output
    three = runner.invoke(app, ["log", "audit", str(FIXTURES / "limit3p_s13" / "log.txt")])
    assert three.exit_code == 2 and "the audit is for heads-up games" in three.output
    negative = runner.invoke(app, ["log", "audit", str(logfile), "--show", "-1"])
    assert negative.exit_code == 2 and "must not be negative" in negative.output
