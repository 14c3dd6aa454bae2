"""Hand-written scenarios for the state machine, with the numbers worked out by hand."""

import pytest

from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action, ActionKind
from pokerbot.protocol.cards import cards_from_string
from pokerbot.protocol.errors import IllegalActionError, IncompleteHandError
from pokerbot.protocol.game import load_game, parse_game
from pokerbot.protocol.hand import MAX_ACTIONS_PER_ROUND, HandState, replay

R = Action.raise_to


def hunl() -> HandState:
    return HandState(load_game("holdem-nolimit-2p"))


def test_nolimit_preflop_small_blind_acts_first_with_min_raise_to_two_big_blinds():
    state = hunl()
    legal = state.legal_actions()
    assert state.current_player == 1  # firstPlayer = 2: the small blind at position 1
    assert (legal.can_fold, legal.call_amount, legal.can_raise) == (True, 50, True)
    assert (legal.min_raise_to, legal.max_raise_to) == (200, 20000)


def test_big_blind_cannot_fold_when_checking_is_free():
    state = hunl()
    state.apply(CALL)
    legal = state.legal_actions()
    assert legal.player == 0 and not legal.can_fold and legal.call_amount == 0
    with pytest.raises(IllegalActionError, match="cannot fold"):
        state.verify(FOLD)
    assert not state.can(FOLD)


def test_round_change_resets_minimum_raise_and_first_player():
    state = replay(load_game("holdem-nolimit-2p"), [CALL, CALL])
    assert state.round == 1 and state.current_player == 0
    assert state.legal_actions().min_raise_to == 200  # big blind + 100 spent
    state.apply(R(300))
    assert state.legal_actions().min_raise_to == 500  # re-raise by at least 200
    state.apply(R(500))
    assert state.legal_actions().min_raise_to == 700
    assert state.betting_string() == "cc/r300r500"


def test_raise_below_minimum_is_illegal_but_clamped_like_the_reference_dealer():
    state = hunl()
    with pytest.raises(IllegalActionError, match="raise to 150 is out of range.*200..20000"):
        state.verify(R(150))
    assert state.clamp(R(150)) == R(200)
    assert state.clamp(R(99999)) == R(20000)
    assert state.clamp(Action(ActionKind.CALL, 7)) == CALL


def test_all_in_and_call_skip_to_the_showdown_with_every_round_marked():
    state = hunl()
    state.apply(R(20000))
    legal = state.legal_actions()
    assert legal.call_amount == 19900 and not legal.can_raise
    state.apply(CALL)
    assert state.finished and state.round == 3 and state.current_player is None
    assert state.betting_string() == "r20000c///"
    with pytest.raises(IllegalActionError, match="hand is over"):
        state.verify(CALL)


def test_limit_raises_are_capped_per_round():
    game = load_game("holdem-limit-2p")  # maxRaises 3 4 4 4, raiseSize 10 10 20 20
    state = replay(game, [LIMIT_RAISE, LIMIT_RAISE, LIMIT_RAISE])
    assert state.spent == [30, 40] and state.max_spent == 40
    legal = state.legal_actions()
    assert not legal.can_raise and legal.call_amount == 10
    with pytest.raises(IllegalActionError, match="already has 3 raises"):
        state.verify(LIMIT_RAISE)
    state.apply(CALL)
    assert state.round == 1
    assert state.legal_actions().min_raise_to == 50  # flop raise size is 10
    with pytest.raises(IllegalActionError, match="carries no size"):
        state.verify(R(50))


def test_limit_raise_that_exceeds_the_stack_puts_the_player_all_in():
    game = load_game("kuhn3p")  # stacks 2, blinds 1, raise 1
    state = HandState(game)
    assert state.legal_actions().min_raise_to == 2
    state.apply(LIMIT_RAISE)
    assert state.is_all_in(0) and state.num_active() == 2
    state.apply(CALL)
    state.apply(FOLD)
    assert state.finished and state.betting_string() == "rcf"


SIDE_POT_GAME = parse_game(
    """GAMEDEF
nolimit
numPlayers = 3
numRounds = 1
stack = 101 300 300
blind = 0 10 10
firstPlayer = 1
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 5
END GAMEDEF
"""
)


def side_pot_hand(holes: str) -> HandState:
    hole = [cards_from_string(h) for h in holes.split("|")]
    state = HandState(SIDE_POT_GAME, hole, cards_from_string("2c7d9hJsKc"))
    for action in (R(101), R(200), CALL):
        state.apply(action)
    return state


def test_side_pots_follow_the_reference_arithmetic():
    # Spent 101, 200, 200. Main pot 3 x 101 = 303; side pot 2 x 99 = 198.
    state = side_pot_hand("3c4d|AcAd|AhAs")  # aces tie, the all-in player loses
    assert state.finished and state.spent == [101, 200, 200]
    assert state.values() == (-101.0, 50.5, 50.5)  # 303 split in two: 151.5 - 101
    # The short stack's queens win the main pot (303 - 101 = +202); of the other two, K-J-9-7-6
    # beats K-J-9-7-4 and wins the side pot (198), getting back 99 of its 200.
    assert side_pot_hand("QcQd|3c4d|5c6d").values() == (202.0, -200.0, -2.0)
    assert side_pot_hand("QcQd|5c6d|3c4d").values() == (202.0, -2.0, -200.0)


def test_side_pot_winner_of_the_side_pot_only():
    state = side_pot_hand("QcQd|AcAd|3c4d")  # aces take both pots: 303 + 198 - 200
    assert state.values() == (-101.0, 301.0, -200.0)
    state = side_pot_hand("AcAd|QcQd|3c4d")
    # aces win the main pot (303), queens win the side pot (198).
    assert state.values() == (202.0, -2.0, -200.0)


def test_round_zero_board_cards_print_right_after_the_hole_cards():
    from pokerbot.protocol.wire import format_cards

    state = side_pot_hand("AcAd|QcQd|3c4d")
    assert format_cards(state, None) == "AcAd|QcQd|3c4d2c7d9hJsKc"


def test_values_need_a_finished_hand_and_the_showdown_cards():
    state = hunl()
    with pytest.raises(IncompleteHandError, match="not over"):
        state.values()
    state = replay(load_game("holdem-nolimit-2p"), [R(20000), CALL])
    with pytest.raises(IncompleteHandError):
        state.values()


def test_fold_values_do_not_need_cards_and_sum_to_zero():
    state = replay(load_game("holdem-nolimit-2p"), [R(300), FOLD])  # the big blind folds
    assert state.values() == (-100.0, 100.0)
    state = replay(load_game("holdem-nolimit-2p"), [FOLD])  # the small blind folds
    assert state.values() == (50.0, -50.0)


def test_first_player_who_is_all_in_is_skipped():
    game = parse_game(
        """GAMEDEF
nolimit
numPlayers = 3
numRounds = 2
stack = 100 1000 1000
blind = 10 10 10
firstPlayer = 1 1
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3
END GAMEDEF
"""
    )
    state = replay(game, [R(100), CALL, CALL])
    assert state.round == 1 and state.is_all_in(0)
    assert state.current_player == 1


def test_raising_stops_near_the_cap_of_actions_per_round():
    game = parse_game(
        """GAMEDEF
nolimit
numPlayers = 2
numRounds = 1
stack = 1000000 1000000
blind = 2 1
firstPlayer = 2
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 5
END GAMEDEF
"""
    )
    state = HandState(game)
    while state.legal_actions().can_raise:
        state.apply(R(state.legal_actions().min_raise_to))
    assert len(state.actions[0]) == MAX_ACTIONS_PER_ROUND - game.num_players + 1
    with pytest.raises(IllegalActionError, match="cap of 64 actions"):
        state.verify(R(10**5))


def test_view_hides_cards_until_showdown_and_never_shows_folds():
    game = load_game("holdem-nolimit-3p")
    holes = [cards_from_string(h) for h in ("AcAd", "KcKd", "QcQd")]
    board = cards_from_string("2c7d9hJs3s")
    state = HandState(game, holes, board)
    view = state.view(1)
    assert view.hole_cards == [None, holes[1], None] and view.board_cards == ()
    # Preflop position 2 acts first and calls, the small blind (position 0) folds.
    for action in (CALL, FOLD, CALL, CALL, CALL, CALL, CALL, CALL, CALL):
        state.apply(action)
    assert state.finished and state.showdown() and state.folded == [True, False, False]
    final = state.view(1)
    assert final.hole_cards == [None, holes[1], holes[2]]
    assert final.board_cards == board
