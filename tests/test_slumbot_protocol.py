"""Slumbot's API strings and answers against our engine (sans-I/O): the documented examples,
an independent chip count as the oracle, the reference dealer's log, and both sides of a hand."""

from __future__ import annotations

import random

import pytest

from pokerbot.protocol.actions import CALL, FOLD, Action
from pokerbot.protocol.dealing import Deal, Dealer
from pokerbot.protocol.errors import IllegalActionError
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.matchlog import read_log
from pokerbot.protocol.slumbot import (
    ClientHand,
    HandOver,
    ServerHand,
    SlumbotError,
    Turn,
    check_game,
    format_action_string,
    incr_of,
    parse_action_string,
    parse_incr,
)
from tests.conftest import load_reference, random_action

GAME = load_game("holdem-nolimit-2p")


def chips_by_street(text: str) -> tuple[int, int]:
    """Each position's chips in the pot after a Slumbot action string, counted the API's way,
    with nothing of our engine: a street's bet sizes are what the bettor has put in on that
    street, the blinds count on the first; the small blind (position 1) acts first pre-flop,
    the big blind (position 0) first after."""
    put = [0, 0]  # this street
    before = 0  # each player's chips from the streets before (equal for both)
    put[0], put[1] = 100, 50
    actor = 1
    i = 0
    while i < len(text):
        char = text[i]
        i += 1
        if char == "/":
            before += max(put)
            put = [0, 0]
            actor = 0
            continue
        if char == "b":
            digits = ""
            while i < len(text) and text[i].isdigit():
                digits += text[i]
                i += 1
            put[actor] = int(digits)
        elif char == "c":
            put[actor] = max(put)
        elif char == "f":
            break
        actor = 1 - actor
    return before + put[0], before + put[1]


# ------------------------------------------------------------- the documented strings
def test_client_pos_0_is_the_big_blind_second_preflop_first_after() -> None:
    state = HandState(GAME)
    assert state.spent == [100, 50] and state.current_player == 1
    state = parse_action_string("b200c/", GAME)
    assert state.current_player == 0


@pytest.mark.parametrize(
    ("text", "acpc", "spent"),
    [
        ("b200c/kk/kk/kb200", "r200c/cc/cc/cr400", [200, 400]),
        ("b20000c///", "r20000c///", [20000, 20000]),
        ("b200c/kb400", "r200c/cr600", [200, 600]),  # a pot-size bet on the flop: 600 each when called
        ("b200c/kb200c/b400f", "r200c/cr400c/r800f", [800, 400]),
        ("b400c/kk/b200b400c/kk", "r400c/cc/r600r800c/cc", [800, 800]),
        ("cb300c/b200b600c/", "cr300c/r500r900c/", [900, 900]),
        ("ck/", "cc/", [100, 100]),
    ],
)
def test_documented_strings_read_as_acpc_betting(text: str, acpc: str, spent: list[int]) -> None:
    state = parse_action_string(text, GAME)
    assert state.betting_string() == acpc
    assert state.spent == spent
    assert format_action_string(state) == text


@pytest.mark.parametrize(("short", "full"), [("b20000c", "b20000c///"), ("ck", "ck/"), ("b200c/kk", "b200c/kk/")])
def test_the_slash_after_the_last_street_may_be_left_out(short: str, full: str) -> None:
    assert parse_action_string(short, GAME).history() == parse_action_string(full, GAME).history()
    assert format_action_string(parse_action_string(short, GAME)) == full


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("kk", "'k' (check) facing a bet: 50 chips to call"),
        ("cc", "'c' (call) with nothing to call"),
        ("b100", "out of range: a bet this street is b200..b20000"),
        ("b200c/b50", "offset 6: 'b50' is out of range: a bet this street is b100..b19800"),
        ("b200/", "offset 4: '/' where no street has ended"),
        ("b200c//", "1 '/' must follow, got 2"),
        ("b200ck", "1 '/' must follow, got 0"),
        ("b20000c/k", "3 '/' must follow, got 1"),
        ("x", "unexpected character 'x'"),
        ("b", "'b' without a size"),
        ("f/", "'/' where no street has ended"),
        ("fk", "after the end of the hand"),
    ],
)
def test_malformed_or_illegal_strings_say_where_and_why(text: str, why: str) -> None:
    with pytest.raises(SlumbotError, match="offset") as error:
        parse_action_string(text, GAME)
    assert why in str(error.value)


def test_random_hands_round_trip_and_match_the_independent_count() -> None:
    rng = random.Random(60)
    for _ in range(400):
        state = HandState(GAME)
        while not state.finished:
            text = format_action_string(state)
            again = parse_action_string(text, GAME)
            assert again.history() == state.history()
            assert list(chips_by_street(text)) == state.spent, text
            state.apply(random_action(state, rng))
        text = format_action_string(state)
        assert parse_action_string(text, GAME).history() == state.history()
        assert list(chips_by_street(text)) == state.spent, text


def test_every_hand_of_the_reference_dealers_log_converts_both_ways() -> None:
    reference = load_reference("nolimit2p_s12")
    hands = read_log(reference.log_lines, reference.game).hands
    assert len(hands) == 300
    for hand in hands:
        text = format_action_string(hand.state)
        assert "r" not in text
        again = parse_action_string(text, GAME)
        assert again.betting_string() == hand.state.betting_string()
        assert list(chips_by_street(text)) == hand.state.spent


# ------------------------------------------------------------------ one action
def test_incr_spells_checks_calls_and_street_sized_bets() -> None:
    state = HandState(GAME)
    assert incr_of(state, CALL) == "c" and incr_of(state, FOLD) == "f"
    assert incr_of(state, Action.raise_to(300)) == "b300"
    state.apply(CALL)
    assert incr_of(state, CALL) == "k"
    state.apply(CALL)  # the flop: 100 each in
    assert incr_of(state, Action.raise_to(250)) == "b150"
    with pytest.raises(IllegalActionError):
        incr_of(state, FOLD)
    assert parse_incr(state, "b150") == Action.raise_to(250)
    assert parse_incr(state, "k") == CALL
    for bad, why in [("c", "nothing to call"), ("b50", "b100..b19900"), ("k/", "not one action"), ("", "not one")]:
        with pytest.raises(SlumbotError, match=why):
            parse_incr(state, bad)


def test_check_game_refuses_games_the_strings_cannot_describe() -> None:
    check_game(GAME)
    for name in ("holdem-limit-2p", "holdem-nolimit-3p"):
        with pytest.raises(SlumbotError):
            check_game(load_game(name))


# ---------------------------------------------------------- both sides of a hand
def _play(deal: Deal, client_pos: int, rng: random.Random) -> tuple[ServerHand, HandOver, list[dict]]:
    """A hand between a random server bot and a random client, answer by answer."""
    server = ServerHand(GAME, deal, client_pos, 7)
    client = ClientHand(GAME, 7)
    answers = []
    old = ""
    while True:
        while server.bot_to_act:
            server.play_bot(random_action(server.state, rng))
        answer = server.answer(old)
        answers.append(answer)
        step = client.receive(answer)
        if isinstance(step, HandOver):
            return server, step, answers
        assert isinstance(step, Turn)
        assert step.view.position == client_pos and step.view.is_my_turn
        assert step.view.state.hole_cards[1 - client_pos] is None
        old = server.action_string
        server.play_client(client.respond(random_action(step.view.state, rng)))


@pytest.mark.parametrize("client_pos", [0, 1])
def test_a_client_and_a_server_hand_agree_on_every_card_and_chip(client_pos: int) -> None:
    rng = random.Random(client_pos)
    dealer = Dealer(GAME, 5)
    for _ in range(100):
        deal = dealer.deal()
        server, over, answers = _play(deal, client_pos, rng)
        assert over.state.history() == server.state.history()
        assert over.state.hole_cards == list(deal.hole_cards)
        assert over.state.visible_board() == server.state.visible_board()
        assert over.winnings == server.state.values()[client_pos] == answers[-1]["winnings"]
        pot = server.state.pot
        assert answers[-1]["won_pot"] in (pot, -pot, 0)
        assert (answers[-1]["won_pot"] > 0) == (over.winnings > 0)
        assert answers[0]["old_action"] == ""
        # the view the client's strategy observes: the bot's cards only at a showdown
        seen = over.view.state.hole_cards[1 - client_pos]
        assert (seen is not None) == server.state.showdown()


def test_when_the_bot_acts_first_the_new_hand_answer_carries_its_action() -> None:
    deal = Dealer(GAME, 1).deal()
    server = ServerHand(GAME, deal, 0, 0)  # the client is the big blind: the bot opens
    assert server.bot_to_act
    server.play_bot(Action.raise_to(250))
    answer = server.answer("")
    assert answer["action"] == "b250" and answer["client_pos"] == 0 and answer["board"] == []
    assert "winnings" not in answer
    folded = ServerHand(GAME, deal, 0, 0)
    folded.play_bot(FOLD)
    end = folded.answer("")
    assert end["action"] == "f" and end["winnings"] == 50 and end["won_pot"] == 150
    assert len(end["bot_hole_cards"]) == 2
    over = ClientHand(GAME, 0).receive(end)
    assert isinstance(over, HandOver) and over.winnings == 50


def test_the_server_repairs_its_bots_illegal_action_as_the_dealer_does() -> None:
    server = ServerHand(GAME, Dealer(GAME, 1).deal(), 0, 0)
    assert server.play_bot(Action.raise_to(10**6)) == Action.raise_to(20000)
    server = ServerHand(GAME, Dealer(GAME, 1).deal(), 0, 0)
    assert server.play_bot("nonsense") == CALL


def test_the_server_refuses_an_illegal_incr_and_keeps_the_hand() -> None:
    server = ServerHand(GAME, Dealer(GAME, 1).deal(), 1, 0)  # the client is the small blind: it opens
    for bad in ("k", "b100", "b20001", "bb", "c/"):
        with pytest.raises(SlumbotError):
            server.play_client(bad)
    assert server.action_string == ""
    server.play_client("c")
    with pytest.raises(SlumbotError, match="not the client's turn"):
        server.play_client("k")


def _answer(action: str, **extra: object) -> dict:
    base: dict = {"action": action, "client_pos": 0, "hole_cards": ["Ac", "9d"], "board": []}
    base.update(extra)
    return base


def test_the_client_checks_each_answer_against_the_last() -> None:
    hand = ClientHand(GAME, 0)
    turn = hand.receive(_answer("b200", old_action=""))
    assert isinstance(turn, Turn) and turn.view.state.spent == [100, 200]
    assert hand.respond(CALL) == "c"
    with pytest.raises(SlumbotError, match="does not continue"):
        hand.receive(_answer("b200b600", board=[]))
    hand = ClientHand(GAME, 0)
    hand.receive(_answer("b200"))
    hand.respond(CALL)
    with pytest.raises(SlumbotError, match="does not fit"):
        hand.receive(_answer("b200c/", board=["2c", "3c"]))
    hand = ClientHand(GAME, 0)
    hand.receive(_answer("b200"))
    hand.respond(CALL)
    with pytest.raises(SlumbotError, match="position or hole cards changed"):
        hand.receive(_answer("b200c/", hole_cards=["Ac", "9h"], board=["2c", "3c", "4c"]))
    with pytest.raises(SlumbotError, match="the server says: Illegal action"):
        ClientHand(GAME, 0).receive({"error_msg": "Illegal action"})
    with pytest.raises(SlumbotError, match="'client_pos' must be 0 or 1"):
        ClientHand(GAME, 0).receive(_answer("", client_pos=2))
    with pytest.raises(SlumbotError, match="bot is to act"):
        ClientHand(GAME, 0).receive(_answer(""))


def test_the_end_of_a_hand_needs_the_bots_cards_and_the_rules_winnings() -> None:
    end = _answer("b200f", winnings=-100)
    with pytest.raises(SlumbotError, match="bot_hole_cards"):
        ClientHand(GAME, 0).receive(end)
    with pytest.raises(SlumbotError, match="gives the client 100 chips"):
        ClientHand(GAME, 0).receive({**end, "winnings": 100, "bot_hole_cards": ["Kd", "Qd"]})
    with pytest.raises(SlumbotError, match="no 'winnings'"):
        ClientHand(GAME, 0).receive({**end, "winnings": None, "bot_hole_cards": ["Kd", "Qd"]})
    with pytest.raises(SlumbotError, match="already in the hand"):
        ClientHand(GAME, 0).receive({**end, "bot_hole_cards": ["Ac", "Qd"]})
    over = ClientHand(GAME, 0).receive({**end, "bot_hole_cards": ["Kd", "Qd"], "baseline_winnings": -50})
    assert isinstance(over, HandOver)
    assert over.winnings == -100 and over.baseline_winnings == -50
    assert over.view.state.hole_cards[1] is None  # a fold shows nothing at the seat
    assert over.state.hole_cards[1] is not None  # the log has every card
