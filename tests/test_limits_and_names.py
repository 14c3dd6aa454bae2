"""The one time-limit type and the one name rule (protocol layer), and that dealer session,
client clock and matches all follow them. Fake clocks only: no wall-clock assertion."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerbot.bot.dealer.server import DealerConfig
from pokerbot.bot.matches.base import MatchConfigError, check_players
from pokerbot.protocol.dealer_events import MatchAborted
from pokerbot.protocol.dealer_session import DealerSession
from pokerbot.protocol.errors import PlayerNameError
from pokerbot.protocol.game import load_game
from pokerbot.protocol.limits import DecisionClock, Remaining, TimeLimits
from pokerbot.protocol.names import check_player_names, name_problem, safe_player_name, unique_player_names

KUHN = load_game("kuhn")


# ------------------------------------------------------------ time limits
def test_remaining_names_the_limit_that_binds() -> None:
    limits = TimeLimits(response_ms=100, hand_ms=150, per_hand_ms=1000)
    assert limits.remaining(hand_seconds=0, match_seconds=0, hands=10) == Remaining(0.1, "response")
    assert limits.remaining(hand_seconds=0.08, match_seconds=0.08, hands=10) == Remaining(pytest.approx(0.07), "hand")
    assert limits.remaining(hand_seconds=0, match_seconds=9.95, hands=10) == Remaining(pytest.approx(0.05), "match")
    tied = TimeLimits(response_ms=250, hand_ms=500, per_hand_ms=1000)
    assert tied.remaining(hand_seconds=0.25, match_seconds=0, hands=10) == Remaining(0.25, "response")  # a tie
    assert limits.remaining(hand_seconds=0.2, match_seconds=0.2, hands=10).seconds < 0  # time is up


def test_descriptions_use_the_reference_units() -> None:
    limits = TimeLimits(response_ms=150, hand_ms=2500.5, per_hand_ms=50)
    assert limits.describe("response", 3) == "the response limit of 150 ms"
    assert limits.describe("hand", 3) == "the per-hand limit of 2500.5 ms"
    assert limits.describe("match", 3) == "the match limit of 50 ms per hand x 3 hands"
    assert limits.response_seconds == 0.15


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), "100", True])
def test_limits_must_be_positive_milliseconds(bad: object) -> None:
    with pytest.raises(ValueError, match="hand_ms must be a"):
        TimeLimits(hand_ms=bad)  # type: ignore[arg-type]


def test_limits_are_frozen_and_the_dealer_config_holds_one() -> None:
    limits = TimeLimits(response_ms=150)
    with pytest.raises(AttributeError):
        limits.response_ms = 1  # type: ignore[misc]
    config = DealerConfig(match_name="m", game=KUHN, hands=1, seed=1, names=["a", "b"], limits=limits)
    assert config.limits is limits
    with pytest.raises(ValueError, match="per_hand_ms must be a positive"):
        DealerConfig(match_name="m", game=KUHN, hands=1, seed=1, names=["a", "b"], limits={"per_hand_ms": 0})


@given(
    response=st.floats(1, 10_000),
    hand=st.floats(1, 10_000),
    per_hand=st.floats(1, 10_000),
    spent=st.lists(st.floats(0, 5), min_size=1, max_size=12),
)
def test_a_client_answering_at_its_cutoff_never_times_out(
    response: float, hand: float, per_hand: float, spent: list[float]
) -> None:
    """On a fake clock: a client that always answers at its hard budget, or earlier, never
    runs out of the dealer's time, whatever the limits (two hands of Kuhn, dealer side)."""
    limits = TimeLimits(response, hand, per_hand)
    session = DealerSession(KUHN, 2, 16, ["A", "B"], limits=limits)
    clocks = [DecisionClock(limits), DecisionClock(limits)]
    now = 0.0
    session.start(now)
    hands_seen = [-1, -1]
    answers = iter(spent * 10)
    while not session.finished:
        seat = session.awaiting
        assert seat is not None
        if hands_seen[seat] != session.hand_number:
            hands_seen[seat] = session.hand_number
            clocks[seat].start_hand()
        _, hard = clocks[seat].budget()
        took = min(next(answers), hard)
        now += took
        position = (seat - session.hand_number) % 2
        line = f"{session_line(session, seat)}:c"
        events = session.receive(seat, line, now)
        clocks[seat].charge(took)
        assert not [event for event in events if isinstance(event, MatchAborted)], (position, events)
    assert session.error is None


def session_line(session: DealerSession, seat: int) -> str:
    """The state line the session last sent to ``seat``."""
    return session._sent[seat]  # noqa: SLF001 - a test looks at what was sent


def test_the_dealer_times_out_what_the_client_would_not_risk() -> None:
    """The same limits: the dealer's response limit is 100 ms, the client's cut-off 50 ms."""
    limits = TimeLimits(response_ms=100)
    clock = DecisionClock(limits)
    clock.start_hand()
    _, hard = clock.budget()
    assert hard == pytest.approx(0.05)
    session = DealerSession(KUHN, 1, 16, ["A", "B"], limits=limits)
    session.start(0.0)
    assert session.deadline() == pytest.approx(0.1)
    assert session.receive(0, "MATCHSTATE:0:0::Ks|:c", hard) != []
    assert session.error is None


# ------------------------------------------------------------ names
@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["A"], "1 player name given, the game has 2 players"),
        (["A", "A"], "player names must be distinct, got A, A"),
        (["A", ""], "must not be empty"),
        (["A", "B|C"], "holds '|'"),
        (["A", "B:C"], "holds ':'"),
        (["A", "B C"], "holds ' '"),
        (["A", "B\tC"], "holds '\\\\t'"),
    ],
)
def test_one_name_rule_everywhere(names: list[str], message: str) -> None:
    with pytest.raises(PlayerNameError, match=message):
        check_player_names(names, 2)
    with pytest.raises(ValueError, match=message):
        DealerSession(KUHN, 1, 1, names)
    with pytest.raises(ValueError, match=message):
        DealerConfig(match_name="m", game=KUHN, hands=1, seed=1, names=names)
    if len(names) == 2:
        with pytest.raises(MatchConfigError, match=message):
            check_players(KUHN, 2, names)


def test_safe_and_unique_names_pass_the_rule() -> None:
    texts = ["policy:dir/p.json", "random", "random", "a b|c\td", "", "x:y"]
    names = unique_player_names(texts)
    assert names == ["policy=dir/p.json", "random", "random-2", "a_b_c_d", "player", "x=y"]
    assert check_player_names(names, len(names)) == tuple(names)
    assert all(name_problem(safe_player_name(text)) is None for text in texts)
    assert name_problem("ok") is None
