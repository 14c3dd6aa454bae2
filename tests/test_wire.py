"""The wire format against the reference dealer's transcripts, a bad-input corpus and fuzzing."""

import functools
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerbot.protocol.actions import CALL, Action, ActionKind
from pokerbot.protocol.errors import ProtocolError
from pokerbot.protocol.game import load_game
from pokerbot.protocol.wire import (
    VERSION_LINE,
    MatchState,
    MatchStateReader,
    format_match_state,
    format_response,
    parse_action,
    parse_match_state,
    parse_response,
    parse_version,
)
from tests.conftest import Reference, load_reference, play_random_hand


def test_every_reference_line_parses_and_formats_back_byte_identical(reference: Reference):
    count = 0
    for line in reference.transcript:
        parts = line.split(" ", 4)
        if parts[0] == "TO":
            state_line = parts[4]
            assert format_match_state(parse_match_state(state_line, reference.game)) == state_line
            count += 1
    assert count > 1000


def test_every_reference_response_is_legal_and_its_clamped_action_is_what_the_dealer_played(
    reference: Reference,
):
    """Each FROM action, clamped as the dealer does, equals the action in the dealer's next state."""
    game = reference.game
    pending: dict[str, Action] = {}  # the position's expected state -> action
    checked = 0
    for line in reference.transcript:
        parts = line.split(" ", 4)
        if parts[0] == "FROM":
            match_state, action = parse_response(parts[4], game)
            assert match_state.is_my_turn
            played = match_state.state.clamp(action)
            after = match_state.state.copy()
            after.apply(played)
            pending[after.betting_string()] = played
        elif parts[0] == "TO" and pending:
            state = parse_match_state(parts[4], game).state
            betting = state.betting_string()
            if betting in pending:
                history = state.history()
                assert history[-1][2] == pending.pop(betting)
                checked += 1
    assert checked > 500 and not pending


def test_version_line():
    assert parse_version(VERSION_LINE + "\r\n") == (2, 0, 0)
    with pytest.raises(ProtocolError):
        parse_version("VERSION:2.0")


def test_response_round_trip_and_lenient_actions():
    game = load_game("holdem-nolimit-2p")
    state = parse_match_state("MATCHSTATE:1:0::|Jd4c", game)
    line = format_response(state, Action.raise_to(300))
    assert line == "MATCHSTATE:1:0::|Jd4c:r300"
    assert parse_response(line + "\r\n", game)[1] == Action.raise_to(300)
    assert parse_action("k", game) == CALL and parse_action("F", game).kind is ActionKind.FOLD
    assert parse_action("b400", game) == Action.raise_to(400)
    limit = load_game("holdem-limit-2p")
    assert parse_action("r", limit) == Action(ActionKind.RAISE)


HUNL_LINE = "MATCHSTATE:0:0:cc/r14664c/:6s8d|/3cKsJc/2d"

BAD_LINES = [
    "",
    "MATCHSTATE",
    "MATCHSTATE:0:0:cc/r14664c/:6s8d|/3cKsJc",  # truncated: the turn card is missing
    "MATCHSTATE:0:0:cc/r14664c/:6s8d|/3cKsJc/2",  # truncated card
    "MATCHSTATE:0:0:cc/r14664c/:6s|/3cKsJc/2d",  # one hole card
    "MATCHSTATE:0:0:cc/r14664c/:6s8d8c|/3cKsJc/2d",  # three hole cards
    "MATCHSTATE:0:0:cc/r14664c/:6s8d|/3cKsJc/6s",  # duplicate card
    "MATCHSTATE:0:0:cc/r14664c/:6s8d|/3cKsJcQd/2d",  # four flop cards
    "MATCHSTATE:0:0:cc/r14664c/:6s8d|Jd4c/3cKsJc/2d",  # opponent's cards before showdown
    "MATCHSTATE:0:0:cc/r14664c/:|Jd4c/3cKsJc/2d",  # own cards missing
    "MATCHSTATE:0:0:cc/r14664c/:6s8d/3cKsJc/2d",  # missing '|'
    "MATCHSTATE:0:0:cc/r14664c/:6s8d||/3cKsJc/2d",  # too many players
    "MATCHSTATE:0:0:cc/r14664c:6s8d|/3cKsJc/2d",  # missing '/' after the round
    "MATCHSTATE:0:0:ccr14664c/:6s8d|/3cKsJc/2d",  # missing '/' between rounds
    "MATCHSTATE:0:0:c/c/r14664c/:6s8d|/3cKsJc/2d",  # '/' too early
    "MATCHSTATE:0:0:cc/r100c/:6s8d|/3cKsJc/2d",  # raise below the minimum
    "MATCHSTATE:0:0:cc/r20001c/:6s8d|/3cKsJc/2d",  # raise above the stack
    "MATCHSTATE:0:0:cc/rc/:6s8d|/3cKsJc/2d",  # no-limit raise without size
    "MATCHSTATE:0:0:cc/r14664x/:6s8d|/3cKsJc/2d",  # unknown action
    "MATCHSTATE:0:0:f/:6s8d|/3cKsJc",  # betting after the hand ended
    "MATCHSTATE:0:0:cc/r14664c/ccc:6s8d|/3cKsJc/2d",  # missing '/' before the river action
    "MATCHSTATE:0:0:cc/r99999999999999999999c/:6s8d|/3cKsJc/2d",  # huge number
    "MATCHSTATE:2:0:cc/r14664c/:6s8d|/3cKsJc/2d",  # position out of range
    "MATCHSTATE:-1:0::6s8d|",  # negative position
    "MATCHSTATE:0:99999999999:cc/r14664c/:6s8d|/3cKsJc/2d",  # hand number too large
    "MATCHSTATE:00:0::6s8d|",  # non-canonical number
    "MATCHSTATE:0:0:cc/r14664c/:6s8d|/3cKsJc/2d:extra",  # extra field
    "MATCHSTATE;0;0;;6s8d|",  # wrong separators
    "matchstate:0:0::6s8d|",  # wrong case
    "MATCHSTATE:0:0::6s8d|\x00",
    "MATCHSTATE:0:0::6s8d| ",
    "MATCHSTATE:0:0::6s8é|",  # non-ASCII
    "MATCHSTATE:0:0::6s8d|" + "x" * 100_000,  # 100 KB line
    "MATCHSTATE:0:0:" + "c" * 5000 + ":6s8d|",
    "MATCHSTATE:0:0::1s8d|",  # not a card
    "MATCHSTATE:0:0::6S8D|",  # wrong case suit
    " MATCHSTATE:0:0::6s8d|",
]


@pytest.mark.parametrize("line", BAD_LINES, ids=range(len(BAD_LINES)))
def test_bad_lines_raise_protocol_error_and_nothing_else(line):
    game = load_game("holdem-nolimit-2p")
    with pytest.raises(ProtocolError):
        parse_match_state(line, game)


def test_cards_outside_a_small_deck_are_rejected():
    with pytest.raises(ProtocolError, match="not in this game's deck"):
        parse_match_state("MATCHSTATE:0:0::2c|", load_game("kuhn"))


def test_error_messages_say_where():
    game = load_game("holdem-nolimit-2p")
    with pytest.raises(ProtocolError, match=r"offset 18: illegal action r100"):
        parse_match_state("MATCHSTATE:0:0:cc/r100c/:6s8d|/3cKsJc/2d", game)


def test_the_good_line_of_the_corpus_parses():
    state = parse_match_state(HUNL_LINE, load_game("holdem-nolimit-2p"))
    assert state.state.round == 2 and state.state.current_player == 0 and state.is_my_turn
    assert state.state.spent == [14664, 14664]


@settings(max_examples=1500, deadline=None)
@given(st.text(max_size=120))
def test_fuzz_arbitrary_text_only_ever_raises_protocol_error(text):
    for name in ("holdem-nolimit-2p", "leduc", "holdem-limit-3p"):
        try:
            parse_match_state("MATCHSTATE:" + text, load_game(name))
            parse_response(text, load_game(name))
        except ProtocolError:
            pass


@functools.cache
def _sent_lines(name: str, first: int, prefix: str) -> tuple[str, ...]:
    """The match states among the first ``first`` lines of a reference transcript sent ``prefix``."""
    transcript = load_reference(name).transcript[:first]
    return tuple(line.split(" ", 4)[4] for line in transcript if line.startswith(prefix))


@settings(max_examples=1500, deadline=None)
@given(st.data())
def test_fuzz_mutated_real_lines_only_ever_raise_protocol_error(data):
    reference = load_reference("nolimit3p_s14")
    lines = _sent_lines("nolimit3p_s14", 400, "TO ")
    line = data.draw(st.sampled_from(lines))
    position = data.draw(st.integers(0, len(line)))
    insert = data.draw(st.text(alphabet="0123456789rcf/|:AKQsdhc ", max_size=4))
    cut = data.draw(st.integers(0, 3))
    mutated = line[:position] + insert + line[position + cut :]
    try:
        parsed = parse_match_state(mutated, reference.game)
    except ProtocolError:
        return
    assert format_match_state(parsed) == mutated


@pytest.mark.parametrize(
    "name", ["kuhn", "kuhn3p", "leduc", "holdem-limit-2p", "holdem-nolimit-2p", "holdem-limit-3p", "holdem-nolimit-3p"]
)
def test_format_parse_round_trip_over_random_play(name):
    game = load_game(name)
    rng = random.Random(11)
    for hand_number in range(150):
        final = play_random_hand(game, rng)
        # Replay the hand, formatting every position's view after every action.
        from pokerbot.protocol.hand import HandState

        state = HandState(game, final.hole_cards, final.board_cards)
        actions = [action for _, _, action in final.history()]
        for step in range(len(actions) + 1):
            for position in range(game.num_players):
                view = MatchState(position, hand_number, state.view(position))
                line = format_match_state(view)
                again = parse_match_state(line, game)
                assert format_match_state(again) == line
                assert again.state.betting_string() == state.betting_string()
            if step < len(actions):
                state.apply(actions[step])


def _equal_views(a: MatchState, b: MatchState) -> bool:
    x, y = a.state, b.state
    return (a.position, a.hand_number) == (b.position, b.hand_number) and all(
        getattr(x, name) == getattr(y, name)
        for name in ("spent", "round", "actions", "folded", "finished", "hole_cards", "board_cards", "current_player")
    )


def test_the_incremental_reader_equals_a_full_parse_on_every_reference_line(reference: Reference):
    """Each seat's lines, in order, through one reader: the same views as parsing each alone."""
    readers: dict[str, MatchStateReader] = {}
    previous: dict[str, MatchState] = {}
    for line in reference.transcript:
        parts = line.split(" ", 4)
        if parts[0] != "TO":
            continue
        reader = readers.setdefault(parts[1], MatchStateReader(reference.game))
        view = reader.parse(parts[4])
        assert _equal_views(view, parse_match_state(parts[4], reference.game))
        assert format_match_state(view) == parts[4]
        if parts[1] in previous:  # every view owns its state
            earlier = previous[parts[1]]
            assert earlier.state is not view.state
        previous[parts[1]] = view
    for seat, view in previous.items():
        again = parse_match_state(format_match_state(view), reference.game)
        assert _equal_views(view, again), seat


@settings(max_examples=600, deadline=None)
@given(st.data())
def test_fuzz_the_incremental_reader_after_a_good_line(data):
    """After a real line, a mutated next line reads exactly as a full parse does (or both fail)."""
    reference = load_reference("nolimit2p_s12")
    lines = _sent_lines("nolimit2p_s12", 600, "TO 1 ")
    index = data.draw(st.integers(0, len(lines) - 2))
    following = lines[index + 1]
    position = data.draw(st.integers(0, len(following)))
    insert = data.draw(st.text(alphabet="0123456789rcf/|:AKQsdhc", max_size=3))
    mutated = following[:position] + insert + following[position + data.draw(st.integers(0, 2)) :]
    reader = MatchStateReader(reference.game)
    reader.parse(lines[index])
    try:
        expected = parse_match_state(mutated, reference.game)
    except ProtocolError as error:
        with pytest.raises(ProtocolError) as raised:
            reader.parse(mutated)
        assert str(raised.value) == str(error)
        return
    assert _equal_views(reader.parse(mutated), expected)


def test_a_reader_view_keeps_the_state_of_its_own_line_whenever_it_is_read():
    """A view read before the next line, one read after it, and one never read: each state is
    the state of its own line, and the reader copies only for the view that took its state."""
    reference = load_reference("nolimit2p_s12")
    lines = [line.split(" ", 4)[4] for line in reference.transcript if line.startswith("TO 1 ")][:40]
    reader = MatchStateReader(reference.game)
    views = []
    for index, line in enumerate(lines):
        view = reader.parse(line)
        if index % 3 == 0:
            assert view.state is reader.peek()  # taken at once: the reader's own state, no copy
        views.append(view)
    for line, view in zip(lines, views, strict=True):
        assert _equal_views(view, parse_match_state(line, reference.game))
        assert format_match_state(view) == line
    states = [view.state for view in views]
    assert len({id(state) for state in states}) == len(states)


def test_a_view_pickles_and_compares_as_its_position_hand_and_state():
    game = load_game("holdem-nolimit-2p")
    reader = MatchStateReader(game)
    view = reader.parse("MATCHSTATE:1:7:r300:|Jd4c")
    again = pickle.loads(pickle.dumps(view))
    assert (again.position, again.hand_number, format_match_state(again)) == (1, 7, "MATCHSTATE:1:7:r300:|Jd4c")
    assert view == MatchState(1, 7, view.state) and view != MatchState(1, 7, view.state.copy())
    with pytest.raises(AttributeError):
        view.position = 0  # type: ignore[misc]


def _seat_stream(game_name: str, seed: int, hands: int, seat: int) -> list[str]:
    """One seat's ``MATCHSTATE`` lines over ``hands`` random legal hands: a line after every
    action, the seat's position moving round the table from hand to hand, as dealers send them."""
    from pokerbot.protocol.hand import HandState

    game = load_game(game_name)
    rng = random.Random(seed)
    lines = []
    for hand_number in range(hands):
        final = play_random_hand(game, rng)
        position = (seat + hand_number) % game.num_players
        state = HandState(game, final.hole_cards, final.board_cards)
        actions = [action for _, _, action in final.history()]
        for step in range(len(actions) + 1):
            lines.append(format_match_state(MatchState(position, hand_number, state.view(position))))
            if step < len(actions):
                state.apply(actions[step])
    return lines


def _show_hole_cards(line: str, game, rng: random.Random) -> str:
    """``line`` with cards of the game's deck put in one hole-card group that was empty."""
    from pokerbot.protocol.cards import CARD_STRINGS

    front, _, cards = line.rpartition(":")
    holes, slash, board = cards.partition("/")
    groups = holes.split("|")
    empty = [p for p, group in enumerate(groups) if not group]
    if not empty:
        return line
    shown = rng.sample(sorted(game.deck_set), game.num_hole_cards)
    groups[rng.choice(empty)] = "".join(CARD_STRINGS[card] for card in shown)
    return f"{front}:{'|'.join(groups)}{slash}{board}"


def _rewrite_betting(line: str, rng: random.Random) -> str:
    """``line`` with one character of its betting replaced (an earlier action rewritten)."""
    prefix, position, hand, betting, cards = line.split(":")
    if not betting:
        return line
    at = rng.randrange(len(betting))
    betting = betting[:at] + rng.choice("cfr/1") + betting[at + 1 :]
    return ":".join((prefix, position, hand, betting, cards))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_client_session_reads_every_line_as_parsing_it_alone_does(data):
    """Random legal hands of every kind of game through one ClientSession, with lines dropped
    (several new actions at once), repeated, taken from earlier in the match, rewritten (an
    earlier action changed, a prefix that differs) or cut: each event's view is the line's view
    read alone, or both raise the same ProtocolError; the session goes on after a bad line."""
    from pokerbot.protocol.session import ActionRequired, ClientSession, HandFinished, Ignored, StateUpdate

    name = data.draw(
        st.sampled_from(
            ["kuhn", "kuhn3p", "leduc", "holdem-limit-2p", "holdem-nolimit-2p", "holdem-limit-3p", "holdem-nolimit-3p"]
        )
    )
    game = load_game(name)
    seed = data.draw(st.integers(0, 2**32 - 1))
    lines = _seat_stream(name, seed, data.draw(st.integers(1, 4)), data.draw(st.integers(0, game.num_players - 1)))
    rng = random.Random(seed)
    session = ClientSession(game)
    fed = []
    for index, line in enumerate(lines):
        change = data.draw(
            st.sampled_from(["as is"] * 6 + ["drop", "repeat", "earlier", "rewrite", "mutate", "cut", "show"])
        )
        if change == "drop":
            continue
        if change == "repeat":
            fed.append(line)
        elif change == "earlier":
            fed.append(lines[rng.randrange(index + 1)])
        elif change == "rewrite":
            line = _rewrite_betting(line, rng)
        elif change == "mutate":
            at = rng.randrange(len(line) + 1)
            line = line[:at] + rng.choice("0123456789rcf/|:AKQsdh\n") + line[at + rng.randrange(2) :]
        elif change == "cut":
            line = line[: rng.randrange(len(line))]
        elif change == "show":
            line = _show_hole_cards(line, game, rng)
        fed.append(line)
    for line in fed:
        if not line.strip():
            assert session.receive(line) == Ignored("blank line")
            continue
        try:
            alone = parse_match_state(line, game)
        except ProtocolError as error:
            with pytest.raises(ProtocolError) as raised:
                session.receive(line)
            assert str(raised.value) == str(error)
            continue
        event = session.receive(line)
        if alone.state.finished:
            assert isinstance(event, HandFinished)
        elif alone.is_my_turn:
            assert isinstance(event, ActionRequired)
            assert session.respond(event.view, CALL) == f"{line.rstrip()}:c"
        else:
            assert isinstance(event, StateUpdate)
        assert _equal_views(event.view, alone)
        assert format_match_state(event.view) == format_match_state(alone)


def test_a_remembered_no_limit_raise_is_judged_again_in_each_state():
    """A raise size a reader has seen before is legal in one state and not in another: the
    second reading raises what parsing the line alone raises."""
    game = load_game("holdem-nolimit-2p")
    reader = MatchStateReader(game)
    good = ["MATCHSTATE:0:0::AhKh|", "MATCHSTATE:0:0:r300:AhKh|", "MATCHSTATE:1:1::|QsQd", "MATCHSTATE:1:1:r300:|QsQd"]
    for line in good:
        assert _equal_views(reader.parse(line), parse_match_state(line, game))
    bad = "MATCHSTATE:1:1:r300r300:|QsQd"
    with pytest.raises(ProtocolError) as alone:
        parse_match_state(bad, game)
    with pytest.raises(ProtocolError) as read:
        reader.parse(bad)
    assert str(read.value) == str(alone.value) and "illegal action r300" in str(alone.value)


def test_the_first_line_of_each_hand_is_read_at_any_position():
    """Positions move from hand to hand; the first line of the next hand at another position,
    and one that skips a hand number, read as they do alone."""
    game = load_game("holdem-limit-3p")
    reader = MatchStateReader(game)
    good = ["MATCHSTATE:0:0::AhKh||", "MATCHSTATE:0:0:r:AhKh||", "MATCHSTATE:2:1::||7c7d", "MATCHSTATE:1:3::|2c3c|"]
    for line in good:
        view = reader.parse(line)
        assert _equal_views(view, parse_match_state(line, game))
        assert format_match_state(view) == line
    for bad in ["MATCHSTATE:3:4::|||", "MATCHSTATE:01:4::|2c3c|", "MATCHSTATE:1:4::|2c2c|", "MATCHSTATE:1:4::|2c3c|Ad"]:
        with pytest.raises(ProtocolError) as alone:
            parse_match_state(bad, game)
        with pytest.raises(ProtocolError) as read:
            reader.parse(bad)
        assert str(read.value) == str(alone.value)
