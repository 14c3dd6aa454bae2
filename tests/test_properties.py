"""Properties of random legal play in every built-in game."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerbot.protocol.actions import ActionKind
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.hand import HandState
from tests.conftest import play_random_hand, random_action


def check_hand(game: Game, rng: random.Random) -> HandState:
    deal_seed = rng.randrange(2**32)
    final = play_random_hand(game, rng, seed=deal_seed)
    # Replay while checking the invariants after every action.
    state = HandState(game, final.hole_cards, final.board_cards)
    for round_index, position, action in final.history():
        assert state.round == round_index and state.current_player == position
        legal = state.legal_actions()
        before = state.spent[position]
        raises_before = state.num_raises()
        state.apply(action)
        spent = state.spent[position]
        assert 0 <= spent <= game.stacks[position]  # no one bets more than the stack
        if action.kind is ActionKind.RAISE:
            assert raises_before < game.max_raises[round_index]
            assert legal.min_raise_to <= spent <= legal.max_raise_to
            if not game.is_nolimit:
                assert spent == min(legal.min_raise_to, game.stacks[position])
        elif action.kind is ActionKind.CALL:
            assert spent - before == legal.call_amount
        else:
            assert spent == before
    assert state.finished
    values = state.values()
    assert abs(sum(values)) < 1e-9  # values sum to zero: no chips created or lost
    for position, value in enumerate(values):
        assert value >= -state.spent[position]  # nobody loses more than they put in
        assert value <= state.pot - state.spent[position]  # nobody wins more than the others put in
    if not state.showdown():
        winners = [p for p, folded in enumerate(state.folded) if not folded]
        assert len(winners) == 1 and values[winners[0]] == state.pot - state.spent[winners[0]]
    return state


def test_random_play_in_every_builtin_game(builtin_game):
    rng = random.Random(2024)
    for _ in range(300):
        check_hand(builtin_game, rng)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["holdem-nolimit-2p", "holdem-nolimit-3p", "kuhn3p", "leduc"]), st.integers(0, 2**32 - 1))
def test_random_play_properties_hypothesis(name, seed):
    check_hand(load_game(name), random.Random(seed))


def test_limit_raises_add_exactly_the_raise_size_unless_all_in():
    game = load_game("holdem-limit-3p")
    rng = random.Random(5)
    for _ in range(200):
        state = HandState(game)
        while not state.finished:
            action = random_action(state, rng)
            before = state.max_spent
            state.apply(action)
            if action.kind is ActionKind.RAISE:
                assert state.max_spent - before == game.raise_sizes[state.history()[-1][0]]
