"""Sans-I/O sessions (no sockets): the reference transcripts replayed through DealerSession,
the dealer's repairs, warnings, limits and time budgets, and the ClientSession."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from pokerbot.protocol.dealer_events import DealerWarning, HandLogged, MatchAborted, MatchFinished, Send
from pokerbot.protocol.dealer_session import DealerSession
from pokerbot.protocol.errors import IllegalActionError, ProtocolError
from pokerbot.protocol.game import load_game
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.matchlog import log_header
from pokerbot.protocol.session import (
    ActionRequired,
    ClientSession,
    HandFinished,
    Ignored,
    SessionStateError,
    StateUpdate,
    check_version,
    safe_action,
)
from pokerbot.protocol.wire import format_match_state, parse_match_state

FIXTURES = Path(__file__).parent / "fixtures" / "acpc"
REFERENCE_GAMES = sorted(path.name for path in FIXTURES.iterdir() if path.is_dir())
TRANSCRIPT_LINE = re.compile(r"(TO|FROM) (\d+) at \S+ (.*)$")


def sends(events: list) -> list[tuple[int, str]]:
    return [(event.seat, event.line) for event in events if isinstance(event, Send)]


def of_type(events: list, kind: type) -> list:
    return [event for event in events if isinstance(event, kind)]


# ------------------------------------------------------------ reference transcripts
@pytest.mark.parametrize("name", REFERENCE_GAMES)
def test_reference_transcript_is_reproduced_byte_for_byte(name: str) -> None:
    """Feeding the reference FROM lines gives exactly the reference TO lines and log."""
    folder = FIXTURES / name
    game = load_game(folder / "game.txt")
    seed = int(name.rsplit("_s", 1)[1])
    lines = (folder / "transcript.txt").read_text().splitlines()
    hands = int(lines[0].split()[-2])
    reference = [line for line in (folder / "log.txt").read_text().splitlines() if not line.startswith("#")]
    names = reference[-1].split(":")[2].split("|")
    session = DealerSession(game, hands, seed, names)
    expected: list[str] = []
    produced: list[str] = []
    logged: list[str] = []
    finished: list[MatchFinished] = []

    def take(events: list) -> None:
        assert not of_type(events, DealerWarning) and not of_type(events, MatchAborted)
        produced.extend(f"TO {seat + 1} {line}" for seat, line in sends(events))
        logged.extend(event.line for event in of_type(events, HandLogged))
        finished.extend(of_type(events, MatchFinished))

    take(session.start(0.0))
    for line in lines:
        match = TRANSCRIPT_LINE.match(line)
        if match is None:
            continue
        kind, seat, text = match.groups()
        if kind == "TO":
            expected.append(f"TO {seat} {text}")
        else:
            take(session.receive(int(seat) - 1, text, 0.0))
    assert produced == expected
    assert session.finished and session.error is None and session.hands_played == hands

    # The log, byte for byte: values spelled as the reference spells them (six decimals at most).
    assert logged == reference[:-1]
    assert finished and finished[0].score_line == session.score_line() == reference[-1]
    assert len(session.per_hand_values) == hands
    first = names[0]
    assert sum(values[first] for values in session.per_hand_values) == pytest.approx(session.totals[first])


def test_log_header_matches_the_reference_header() -> None:
    header = (FIXTURES / "kuhn2p_s16" / "log.txt").read_text().splitlines()[:4]
    assert log_header("runs/kuhn2p_s16", "kuhn.limit.2p.game", 300, 16, TimeLimits()) == header
    # Whole milliseconds as integers, never 1.5e+06 (the reference prints them with PRIu64).
    assert log_header("m", "g", 1, 2, TimeLimits(100, 1_500_000, 7000))[1:] == [
        "#--t_response 100",
        "#--t_hand 1500000",
        "#--t_per_hand 7000",
    ]
    assert log_header("m", "g", 1, 2, TimeLimits(0.5, 1000, 7000))[1] == "#--t_response 0.5"


# ------------------------------------------------------------ dealer behaviour
def kuhn_session(**options: object) -> DealerSession:
    return DealerSession(load_game("kuhn"), 3, 16, ["A", "B"], **options)  # type: ignore[arg-type]


class Driver:
    """Plays a DealerSession like well-behaved players: echoes the last state sent."""

    def __init__(self, session: DealerSession) -> None:
        self.session = session
        self.last: dict[int, str] = {}
        self.take(session.start(0.0))

    def take(self, events: list) -> list:
        self.last.update(sends(events))
        return events

    def act(self, action: str, now: float = 0.0) -> list:
        seat = self.session.awaiting
        assert seat is not None
        return self.take(self.session.receive(seat, f"{self.last[seat]}:{action}", now))


def test_seats_rotate_unless_fixed() -> None:
    rotating, fixed = Driver(kuhn_session()), Driver(kuhn_session(fixed_seats=True))
    for driver in (rotating, fixed):
        driver.act("c")
        driver.act("c")
        driver.act("c")
    rotating, fixed = rotating.session, fixed.session
    assert rotating.hand_number == fixed.hand_number == 1
    assert [rotating.names[rotating.seat_of(p)] for p in (0, 1)] == ["B", "A"]
    assert [fixed.names[fixed.seat_of(p)] for p in (0, 1)] == ["A", "B"]
    assert rotating.seat_of(0) == 1 and fixed.seat_of(0) == 0
    assert rotating.position_of(1) == 0 and fixed.position_of(1) == 1


def test_start_opens_hand_zero_for_every_seat() -> None:
    session = kuhn_session()
    assert sends(session.start(0.0)) == [(0, "MATCHSTATE:0:0::Ks|"), (1, "MATCHSTATE:1:0::|Qs")]
    assert session.awaiting == 0
    with pytest.raises(SessionStateError):
        session.start(0.0)


def test_receive_before_start_is_a_caller_error() -> None:
    with pytest.raises(SessionStateError):
        kuhn_session().receive(0, "MATCHSTATE:0:0::Ks|:c", 0.0)


def test_comments_blank_lines_and_unrequested_lines() -> None:
    session = kuhn_session()
    session.start(0.0)
    assert session.receive(0, "# hello", 0.0) == []
    assert session.receive(0, ";x", 0.0) == []
    (empty,) = session.receive(0, "\r\n", 0.0)  # as the reference dealer, which warns of its bad state
    assert isinstance(empty, DealerWarning) and "empty line" in empty.message and "seat 1 (A)" in empty.message
    (warning,) = session.receive(1, "MATCHSTATE:1:0::|Qs:c", 0.0)
    assert isinstance(warning, DealerWarning) and warning.seat == 1
    assert "un-requested" in warning.message and "seat 2 (B)" in warning.message
    assert session.awaiting == 0 and session.invalid_actions == [0, 0]


def test_responses_to_other_states_are_ignored_with_a_warning() -> None:
    session = kuhn_session()
    session.start(0.0)
    (other,) = session.receive(0, "MATCHSTATE:0:0:c:Ks|:c", 0.0)
    assert isinstance(other, DealerWarning) and "another state" in other.message
    (bad,) = session.receive(0, "MATCHSTATE:0:zero::Ks|:c", 0.0)
    assert isinstance(bad, DealerWarning) and "bad state" in bad.message
    (longer,) = session.receive(0, "MATCHSTATE:0:0::Ks|Qs:c", 0.0)
    assert isinstance(longer, DealerWarning)
    assert session.awaiting == 0 and session.invalid_actions == [0, 0]
    events = session.receive(0, "MATCHSTATE:0:0::Ks|:c\r\n", 0.0)
    assert sends(events)[0] == (0, "MATCHSTATE:0:0:c:Ks|")


@pytest.mark.parametrize(
    ("response", "why"),
    [
        ("MATCHSTATE:0:0::Ks|", "no action"),
        ("MATCHSTATE:0:0::Ks|:x", "malformed action"),
        ("MATCHSTATE:0:0::Ks|:", "malformed action"),
        ("MATCHSTATE:0:0::Ks|:f", "invalid action"),
    ],
)
def test_malformed_and_invalid_actions_become_calls(response: str, why: str) -> None:
    session = kuhn_session()
    session.start(0.0)
    events = session.receive(0, response, 0.0)
    (warning,) = of_type(events, DealerWarning)
    assert why in warning.message and "changed to a call" in warning.message
    assert sends(events)[0] == (0, "MATCHSTATE:0:0:c:Ks|")
    assert session.invalid_actions == [1, 0]


def test_lenient_action_letters_are_accepted() -> None:
    session = kuhn_session()
    session.start(0.0)
    assert sends(session.receive(0, "MATCHSTATE:0:0::Ks|:B", 0.0))[0][1] == "MATCHSTATE:0:0:r:Ks|"
    assert sends(session.receive(1, "MATCHSTATE:1:0:r:|Qs:K", 0.0))[0][1] == "MATCHSTATE:0:0:rc:Ks|Qs"


def test_a_limit_raise_past_the_cap_becomes_a_call() -> None:
    session = kuhn_session()
    session.start(0.0)
    session.receive(0, "MATCHSTATE:0:0::Ks|:r", 0.0)
    events = session.receive(1, "MATCHSTATE:1:0:r:|Qs:r", 0.0)
    assert "no raise allowed" in of_type(events, DealerWarning)[0].message
    assert of_type(events, HandLogged)[0].line.startswith("STATE:0:rc:")


def test_nolimit_sizes_are_clamped_without_counting_as_invalid() -> None:
    driver = Driver(DealerSession(load_game("holdem-nolimit-2p"), 2, 1, ["A", "B"]))
    events = driver.act("r1")
    assert "raise to 1 clamped to 200" in of_type(events, DealerWarning)[0].message
    events = driver.act("r999999")
    assert "clamped to 20000" in of_type(events, DealerWarning)[0].message
    assert sends(events)[0][1].split(":")[3] == "r200r20000"
    assert driver.session.invalid_actions == [0, 0]


def test_too_many_invalid_actions_end_the_match() -> None:
    driver = Driver(kuhn_session(max_invalid=1))
    session = driver.session
    driver.act("f")  # seat 1's first invalid action: a call
    events = driver.act("f")  # seat 2's first
    assert of_type(events, HandLogged) and session.hands_played == 1
    assert session.invalid_actions == [1, 1]
    seat = session.awaiting
    (aborted,) = driver.act("f")  # a second one ends the match
    assert isinstance(aborted, MatchAborted) and aborted.seat == seat
    assert "2 invalid actions, more than the limit of 1" in aborted.reason
    assert session.finished and session.error == aborted.reason and session.hands_played == 1
    assert session.receive(0, "anything", 0.0) == []


def test_deadline_is_the_smallest_of_the_three_limits() -> None:
    limits = TimeLimits(response_ms=100, hand_ms=150, per_hand_ms=1000)
    session = DealerSession(load_game("kuhn"), 3, 16, ["A", "B"], limits=limits)
    assert session.deadline() is None
    session.start(10.0)
    assert session.deadline() == pytest.approx(10.1)
    session.receive(0, "MATCHSTATE:0:0::Ks|:c", 10.08)
    assert session.match_seconds[0] == pytest.approx(0.08)
    session.receive(1, "MATCHSTATE:1:0:c:|Qs:r", 10.09)
    assert session.awaiting == 0
    assert session.deadline() == pytest.approx(10.09 + 0.07)  # the hand limit binds
    (aborted,) = session.timeout(10.2)
    assert isinstance(aborted, MatchAborted)
    assert "seat 1 (A) ran out of time in hand 0" in aborted.reason
    assert "per-hand limit of 150 ms" in aborted.reason
    assert session.deadline() is None and session.timeout(11.0) == []


def test_a_late_response_is_a_timeout() -> None:
    session = DealerSession(load_game("kuhn"), 1, 16, ["A", "B"], limits=TimeLimits(response_ms=100))
    session.start(0.0)
    (aborted,) = session.receive(0, "MATCHSTATE:0:0::Ks|:c", 0.5)
    assert isinstance(aborted, MatchAborted) and "response limit of 100 ms" in aborted.reason


def test_the_match_budget_is_per_hand_times_hands() -> None:
    limits = TimeLimits(response_ms=1000, hand_ms=1000, per_hand_ms=50)
    session = DealerSession(load_game("kuhn"), 2, 16, ["A", "B"], limits=limits)
    session.start(0.0)
    assert session.deadline() == pytest.approx(0.1)
    (aborted,) = session.timeout(0.2)
    assert "match limit of 50 ms per hand x 2 hands" in aborted.reason


def test_disconnect_and_abort() -> None:
    session = kuhn_session()
    assert "seat 2 (B) closed the connection" in session.disconnect(1)[0].reason
    session = kuhn_session()
    session.start(0.0)
    (aborted,) = session.disconnect(1, "lost the connection")
    assert aborted.reason == "seat 2 (B) lost the connection in hand 0"
    assert session.disconnect(0) == []
    other = kuhn_session()
    assert other.abort("stopped by the operator")[0].seat is None


def test_zero_hands_finish_at_once() -> None:
    session = DealerSession(load_game("kuhn"), 0, 1, ["A", "B"])
    (finished,) = session.start(0.0)
    assert isinstance(finished, MatchFinished)
    assert finished.score_line == "SCORE:0|0:A|B" and finished.totals == {"A": 0.0, "B": 0.0}


@pytest.mark.parametrize("names", [["A"], ["A", "A"], ["A", "B|C"], ["A", ""], ["A", "B C"]])
def test_bad_names_are_refused(names: list[str]) -> None:
    with pytest.raises(ValueError, match="name"):
        DealerSession(load_game("kuhn"), 1, 1, names)


def test_negative_hands_are_refused() -> None:
    with pytest.raises(ValueError, match="hands"):
        DealerSession(load_game("kuhn"), -1, 1, ["A", "B"])


def test_check_version() -> None:
    check_version("VERSION:2.0.0")
    check_version("VERSION:2.1.3\r\n")
    with pytest.raises(ProtocolError, match="not supported"):
        check_version("VERSION:1.0.0")
    with pytest.raises(ProtocolError):
        check_version("HELLO")


# ------------------------------------------------------------ client session
def test_client_session_events_and_responses() -> None:
    client = ClientSession(load_game("kuhn"))
    assert client.hello() == "VERSION:2.0.0"
    assert client.receive("# welcome") == Ignored("comment: # welcome")
    assert client.receive("  \r\n") == Ignored("blank line")
    event = client.receive("MATCHSTATE:0:0::Ks|\r\n")
    assert isinstance(event, ActionRequired) and client.pending is event.view
    assert client.respond(event.view, LIMIT_RAISE) == "MATCHSTATE:0:0::Ks|:r"
    assert client.pending is None
    assert isinstance(client.receive("MATCHSTATE:0:0:r:Ks|"), StateUpdate)
    finished = client.receive("MATCHSTATE:0:0:rc:Ks|Qs")
    assert isinstance(finished, HandFinished) and finished.view.state.values() == (2.0, -2.0)
    assert client.hands_finished == 1


def test_client_refuses_illegal_and_unrequested_responses() -> None:
    client = ClientSession(load_game("kuhn"))
    event = client.receive("MATCHSTATE:0:0::Ks|")
    assert isinstance(event, ActionRequired)
    with pytest.raises(IllegalActionError, match="cannot fold"):
        client.respond(event.view, FOLD)
    update = client.receive("MATCHSTATE:1:0::|Qs")
    assert isinstance(update, StateUpdate)
    with pytest.raises(SessionStateError, match="no action is requested"):
        client.respond(update.view, CALL)
    with pytest.raises(SessionStateError):
        client.respond(event.view, CALL)  # superseded by a newer state


def test_client_formats_nolimit_raises_and_rejects_garbage() -> None:
    client = ClientSession(load_game("holdem-nolimit-2p"))
    event = client.receive("MATCHSTATE:1:7::|AsKd")
    assert isinstance(event, ActionRequired)
    assert client.respond(event.view, Action.raise_to(300)) == "MATCHSTATE:1:7::|AsKd:r300"
    with pytest.raises(ProtocolError):
        client.receive("MATCHSTATE:1:7:x:|AsKd")


@pytest.mark.parametrize("name", REFERENCE_GAMES)
def test_the_safe_action_is_legal_wherever_a_player_acts(name: str) -> None:
    game = load_game(FIXTURES / name / "game.txt")
    lines = (FIXTURES / name / "transcript.txt").read_text().splitlines()
    checked = 0
    for line in lines[:600]:
        match = TRANSCRIPT_LINE.match(line)
        if match and match.group(1) == "TO":
            view = parse_match_state(match.group(3), game)
            if view.is_my_turn:
                assert view.state.can(safe_action(view))
                checked += 1
    assert checked > 0


# ------------------------------------------------------------ playing without a wire
def test_act_and_view_play_the_same_match_as_lines() -> None:
    """The same actions given as Action objects (act) and as response lines (receive): the
    same STATE lines, values and totals; view() is what the line says."""
    by_line, by_action = Driver(kuhn_session()), kuhn_session(wire=False)
    assert by_action.start(0.0) == []  # no lines formatted without a wire
    lines: list[str] = []
    logged: list[str] = []
    script = ["c", "r", "f", "r", "c", "c", "c"]
    for step in script:
        seat = by_action.awaiting
        assert seat is not None and by_line.session.awaiting == seat
        assert format_match_state(by_action.view(seat)) == by_line.last[seat]
        lines += [event.line for event in of_type(by_line.act(step), HandLogged)]
        action = {"c": CALL, "r": LIMIT_RAISE, "f": FOLD}[step]
        logged += [event.line for event in of_type(by_action.act(seat, action, 0.0), HandLogged)]
    assert logged == lines and len(lines) == 3
    assert by_action.totals == by_line.session.totals and by_action.finished


def test_act_repairs_refuses_and_times_out() -> None:
    session = kuhn_session(wire=False, limits=TimeLimits(response_ms=100))
    session.start(0.0)
    with pytest.raises(SessionStateError, match="seat 2 \\(B\\) is not to act"):
        session.act(1, CALL, 0.01)
    with pytest.raises(SessionStateError, match="use act"):
        session.receive(0, "MATCHSTATE:0:0::Ks|:c", 0.01)
    warning, *_ = session.act(0, FOLD, 0.01)  # nothing to call: folding is invalid
    assert isinstance(warning, DealerWarning) and "invalid action 'f'" in warning.message
    assert "changed to a call" in warning.message and session.invalid_actions == [1, 0]
    (aborted,) = session.act(1, CALL, 0.2)
    assert isinstance(aborted, MatchAborted) and "response limit of 100 ms" in aborted.reason


def test_a_logged_hand_carries_its_final_state_and_seating() -> None:
    session = DealerSession(load_game("kuhn3p"), 2, 5, ["A", "B", "C"], wire=False)
    session.start(0.0)
    hands: list[HandLogged] = []
    while not session.finished:
        seat = session.awaiting
        assert seat is not None
        hands += of_type(session.act(seat, CALL, 0.0), HandLogged)
    assert [hand.seats for hand in hands] == [(0, 1, 2), (1, 2, 0)]
    for hand in hands:
        assert hand.state.finished and hand.line.endswith(":" + "|".join("ABC"[s] for s in hand.seats))
        assert hand.values == dict(zip(["ABC"[s] for s in hand.seats], hand.state.values()))
