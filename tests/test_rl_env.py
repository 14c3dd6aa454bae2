"""The reinforcement-learning environments: the ecosystem's API checkers, the encodings of Zha et al. (2019)
field by field on hand-built states, action IDs and masks, seeds, payoffs equal to the
in-process match, registry strategies in the other seats."""

from __future__ import annotations

import time

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from pokerbot.protocol.cards import card_from_string, cards_from_string
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.baselines import RandomPlayer
from pokerbot.strategies.rl.encoding import (
    CALL_ID,
    CHECK_ID,
    FOLD_ID,
    NL_ALL_IN,
    NL_CALL,
    NL_CHECK,
    NL_FOLD,
    NL_HALF_POT,
    NL_POT,
    RAISE_ID,
    EncodingError,
    card_index,
    default_encoding_name,
    make_encoding,
)
from pokerbot.strategies.rl.env import PokerAECEnv, PokerEnv

GAMES = ("leduc", "holdem-limit-2p", "holdem-nolimit-2p")


def leduc_state(hole0: str, hole1: str, board: str, *actions: Action) -> HandState:
    game = load_game("leduc")
    state = HandState(game, [(card_from_string(hole0),), (card_from_string(hole1),)], (card_from_string(board),))
    for action in actions:
        state.apply(action)
    return state


def holdem_state(game_name: str, hole0: str, hole1: str, board: str, *actions: Action) -> HandState:
    game = load_game(game_name)
    state = HandState(game, [cards_from_string(hole0), cards_from_string(hole1)], cards_from_string(board))
    for action in actions:
        state.apply(action)
    return state


def ones(vector: np.ndarray) -> list[int]:
    return [int(i) for i in np.flatnonzero(vector)]


# ------------------------------------------------------------------------ API checkers
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test(game: str) -> None:
    api_test(PokerAECEnv(game), num_cycles=200)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env(game: str) -> None:
    check_env(PokerEnv(game, opponents=["random"]), skip_render_check=True)


def test_checkers_pass_on_other_games_and_encodings() -> None:
    api_test(PokerAECEnv("kuhn3p"), num_cycles=100)
    api_test(PokerAECEnv("leduc", encoding="leduc-infostate"), num_cycles=100)
    check_env(PokerEnv("holdem-limit-3p", opponents=["random", "always-call"]), skip_render_check=True)


# ------------------------------------------------------------------ Leduc, 36 entries
def test_leduc_hole_card_entries_0_to_2_lowest_rank_first() -> None:
    encoding = make_encoding(load_game("leduc"))
    assert encoding.name == "leduc" and encoding.size == 36
    for hole, index in (("Qh", 0), ("Ks", 1), ("Ah", 2)):
        observation = encoding.encode(leduc_state(hole, "Qs", "Kh"), 0)
        assert ones(observation[0:3]) == [index]


def test_leduc_public_card_entries_3_to_5_only_once_dealt() -> None:
    encoding = make_encoding(load_game("leduc"))
    before = leduc_state("Qh", "Ks", "Ah", CALL)
    assert ones(encoding.encode(before, 1)[3:6]) == []
    after = leduc_state("Qh", "Ks", "Ah", CALL, CALL)
    assert ones(encoding.encode(after, 1)[3:6]) == [2]
    assert ones(encoding.encode(leduc_state("Qh", "Ks", "Kh", CALL, CALL), 0)[3:6]) == [1]


def test_leduc_chip_entries_6_to_35_own_then_opponent() -> None:
    encoding = make_encoding(load_game("leduc"))
    state = leduc_state("Qh", "Ks", "Ah", LIMIT_RAISE, LIMIT_RAISE)  # position 0 put 3 in, position 1 put 5
    assert state.spent == [3, 5]
    first, second = encoding.encode(state, 0), encoding.encode(state, 1)
    assert ones(first[6:21]) == [3] and ones(first[21:36]) == [5]
    assert ones(second[6:21]) == [5] and ones(second[21:36]) == [3]
    deepest = leduc_state("Qh", "Ks", "Ah", LIMIT_RAISE, LIMIT_RAISE, CALL, LIMIT_RAISE, LIMIT_RAISE)
    assert deepest.spent == [9, 13]
    assert ones(encoding.encode(deepest, 1)[6:21]) == [13]
    assert ones(encoding.encode(deepest, 1)) == [1, 3 + 2, 6 + 13, 21 + 9]


def test_leduc_infostate_entries_cards_then_action_slots() -> None:
    encoding = make_encoding(load_game("leduc"), "leduc-infostate")
    assert encoding.size == 30
    state = leduc_state("Ks", "Qh", "Ah", CALL, LIMIT_RAISE, CALL, LIMIT_RAISE)
    # hole K (1), board A (3 + 2), round 0: call in slot 0, raise in slot 1, call in slot 2,
    # round 1: raise in slot 0.
    assert ones(encoding.encode(state, 0)) == [1, 5, 6 + 1, 6 + 3 + 2, 6 + 6 + 1, 18 + 2]
    folded = leduc_state("Ks", "Qh", "Ah", LIMIT_RAISE, FOLD)
    assert ones(encoding.encode(folded, 1)) == [0, 6 + 2, 6 + 3 + 0]
    # the 36-entry state cannot tell the first player's turn from the second's after a check
    plain = make_encoding(load_game("leduc"))
    first, second = leduc_state("Ks", "Ks", "Ah"), leduc_state("Ks", "Ks", "Ah", CALL)
    assert np.array_equal(plain.encode(first, 0), plain.encode(second, 1))
    assert not np.array_equal(encoding.encode(first, 0), encoding.encode(second, 1))


# ---------------------------------------------------------- limit hold'em, 72 entries
def test_card_index_suit_blocks_spades_hearts_diamonds_clubs_ace_to_king() -> None:
    expected = {"As": 0, "2s": 1, "Ks": 12, "Ah": 13, "Th": 22, "Ad": 26, "Qd": 37, "Ac": 39, "2c": 40, "Kc": 51}
    for text, index in expected.items():
        assert card_index(card_from_string(text)) == index, text
    assert sorted(card_index(card) for card in load_game("holdem-limit-2p").deck) == list(range(52))


def test_limit_holdem_card_entries_0_to_51_hole_and_board_so_far() -> None:
    encoding = make_encoding(load_game("holdem-limit-2p"))
    assert encoding.name == "limit-holdem" and encoding.size == 72
    preflop = holdem_state("holdem-limit-2p", "AsKh", "2c2d", "QdJcTs9h8h")
    assert ones(encoding.encode(preflop, 0)[:52]) == [0, 25]
    assert ones(encoding.encode(preflop, 1)[:52]) == [27, 40]
    flop = holdem_state("holdem-limit-2p", "AsKh", "2c2d", "QdJcTs9h8h", CALL, CALL)
    assert ones(encoding.encode(flop, 0)[:52]) == [0, 9, 25, 37, 49]


def test_limit_holdem_raise_entries_52_to_71_per_round() -> None:
    encoding = make_encoding(load_game("holdem-limit-2p"))
    start = holdem_state("holdem-limit-2p", "AsKh", "2c2d", "QdJcTs9h8h")
    assert ones(encoding.encode(start, 0)[52:]) == [0, 5, 10, 15]
    state = holdem_state(
        "holdem-limit-2p", "AsKh", "2c2d", "QdJcTs9h8h", LIMIT_RAISE, LIMIT_RAISE, CALL, CALL, LIMIT_RAISE
    )  # two raises pre-flop, one on the flop so far
    assert ones(encoding.encode(state, 1)[52:]) == [2, 5 + 1, 10, 15]
    capped = holdem_state("holdem-limit-2p", "AsKh", "2c2d", "QdJcTs9h8h", *[LIMIT_RAISE] * 3)
    assert ones(encoding.encode(capped, 0)[52:57]) == [3]


# ------------------------------------------------------- no-limit hold'em, 54 entries
def test_nolimit_holdem_entries_cards_then_own_and_opponent_chips() -> None:
    encoding = make_encoding(load_game("holdem-nolimit-2p"))
    assert encoding.name == "nolimit-holdem" and encoding.size == 54 and encoding.high == 20000
    state = holdem_state("holdem-nolimit-2p", "AsKh", "2c2d", "QdJcTs9h8h", Action.raise_to(300))
    first, second = encoding.encode(state, 0), encoding.encode(state, 1)
    assert ones(first[:52]) == [0, 25] and ones(second[:52]) == [27, 40]
    assert (first[52], first[53]) == (100, 300)
    assert (second[52], second[53]) == (300, 100)


# ----------------------------------------------------------------- generic encoding
def test_generic_encoding_of_three_player_kuhn() -> None:
    game = load_game("kuhn3p")
    assert default_encoding_name(game) == "generic"
    encoding = make_encoding(game)
    deck = len(game.deck)  # 4 cards: Js Qs Ks As
    assert encoding.size == 2 * deck + 3 + 3 + 1 + 5 + 3
    state = HandState(game, [cards_from_string(c) for c in ("Js", "Ks", "As")], ())
    state.apply(LIMIT_RAISE)  # position 0 bets
    state.apply(FOLD)
    observation = encoding.encode(state, 2)
    assert ones(observation[:deck]) == [3]  # As, the last card of the deck
    assert ones(observation[deck : 2 * deck]) == []
    chips = observation[2 * deck : 2 * deck + 3]  # from position 2 round the table: 2, 0, 1
    assert list(chips) == pytest.approx([1 / game.stacks[2], 2 / game.stacks[0], 1 / game.stacks[1]])
    assert list(observation[2 * deck + 3 : 2 * deck + 6]) == [0, 0, 1]  # position 1 folded
    assert observation[2 * deck + 6] == 1  # round 0
    assert ones(observation[2 * deck + 7 : 2 * deck + 12]) == [1]  # one raise
    assert ones(observation[-3:]) == [2]


def test_encoding_refuses_another_game() -> None:
    with pytest.raises(EncodingError, match="describes Leduc hold'em only"):
        make_encoding(load_game("kuhn"), "leduc")
    with pytest.raises(EncodingError, match="unknown encoding 'chess'"):
        make_encoding(load_game("kuhn"), "chess")


# --------------------------------------------------------------------- action IDs
def test_limit_action_ids_and_masks() -> None:
    encoding = make_encoding(load_game("leduc"))
    start = leduc_state("Qh", "Ks", "Ah")
    assert list(encoding.legal_mask(start)) == [0, 1, 0, 1]  # raise or check
    assert encoding.to_action(start, CHECK_ID) == CALL
    assert encoding.to_action(start, CALL_ID) is None and encoding.to_action(start, FOLD_ID) is None
    facing = leduc_state("Qh", "Ks", "Ah", LIMIT_RAISE)
    assert list(encoding.legal_mask(facing)) == [1, 1, 1, 0]
    capped = leduc_state("Qh", "Ks", "Ah", LIMIT_RAISE, LIMIT_RAISE)
    assert list(encoding.legal_mask(capped)) == [1, 0, 1, 0]
    assert encoding.action_id(facing, FOLD) == FOLD_ID and encoding.action_id(start, CALL) == CHECK_ID
    assert encoding.action_id(facing, CALL) == CALL_ID and encoding.action_id(facing, LIMIT_RAISE) == RAISE_ID
    assert list(encoding.legal_mask(leduc_state("Qh", "Ks", "Ah", LIMIT_RAISE, FOLD))) == [0, 0, 0, 0]


def test_nolimit_action_ids_half_pot_pot_all_in() -> None:
    encoding = make_encoding(load_game("holdem-nolimit-2p"))
    start = holdem_state("holdem-nolimit-2p", "AsKh", "2c2d", "QdJcTs9h8h")  # blinds 100 / 50, position 1 acts
    assert list(encoding.legal_mask(start)) == [1, 0, 1, 0, 1, 1]  # half pot (+75 to 125) is too small
    assert encoding.to_action(start, NL_POT) == Action.raise_to(200)
    assert encoding.to_action(start, NL_ALL_IN) == Action.raise_to(20000)
    assert encoding.to_action(start, NL_HALF_POT) is None
    raised = holdem_state("holdem-nolimit-2p", "AsKh", "2c2d", "QdJcTs9h8h", Action.raise_to(200))  # pot 300
    assert list(encoding.legal_mask(raised)) == [1, 0, 1, 0, 1, 1]  # +150 to 250 is below the minimum, 300
    assert encoding.to_action(raised, NL_POT) == Action.raise_to(400)
    big = holdem_state("holdem-nolimit-2p", "AsKh", "2c2d", "QdJcTs9h8h", Action.raise_to(400))  # pot 500
    assert list(encoding.legal_mask(big)) == [1, 0, 1, 0, 0, 1]  # +500 to 600 is below the minimum, 700
    flop = holdem_state("holdem-nolimit-2p", "AsKh", "2c2d", "QdJcTs9h8h", CALL, CALL)  # pot 200
    assert list(encoding.legal_mask(flop)) == [0, 1, 0, 1, 1, 1]
    assert encoding.to_action(flop, NL_HALF_POT) == Action.raise_to(200)
    assert encoding.to_action(flop, NL_CHECK) == CALL and encoding.to_action(flop, NL_FOLD) is None
    assert encoding.action_id(flop, Action.raise_to(300)) == NL_POT
    assert encoding.action_id(flop, Action.raise_to(250)) is None
    shove = holdem_state("holdem-nolimit-2p", "AsKh", "2c2d", "QdJcTs9h8h", Action.raise_to(20000))
    assert list(encoding.legal_mask(shove)) == [1, 0, 1, 0, 0, 0]
    assert encoding.action_id(shove, CALL) == NL_CALL


@pytest.mark.parametrize("game", GAMES)
def test_mask_is_exactly_the_ids_that_play(game: str) -> None:
    env = PokerAECEnv(game)
    rng = np.random.default_rng(4)
    env.reset(seed=4)
    checked = 0
    for _ in range(100):
        for agent in env.agent_iter():
            _, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            state, mask = env.table.state, env.observe(agent)["action_mask"]
            assert [int(env.encoding.to_action(state, i) is not None) for i in range(len(mask))] == list(mask)
            checked += 1
            env.step(int(rng.choice(np.flatnonzero(mask))))
        env.reset()
    assert checked > 200


# --------------------------------------------------------------- dealing and seeds
def _random_rollout(env: PokerAECEnv, seed: int, hands: int) -> list[tuple[tuple[int, ...], dict[str, float]]]:
    rng = np.random.default_rng(0)
    history = []
    env.reset(seed=seed)
    for hand in range(hands):
        if hand:
            env.reset()
        taken = []
        rewards = {}
        for agent in env.agent_iter():
            _, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                rewards[agent] = reward
                env.step(None)
                continue
            action = int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"])))
            taken.append(action)
            env.step(action)
        history.append((tuple(taken), rewards))
    return history


def test_same_seed_same_episodes() -> None:
    first = _random_rollout(PokerAECEnv("holdem-nolimit-2p"), 7, 20)
    second = _random_rollout(PokerAECEnv("holdem-nolimit-2p"), 7, 20)
    other = _random_rollout(PokerAECEnv("holdem-nolimit-2p"), 8, 20)
    assert first == second and first != other


def test_hands_and_seats_follow_the_dealer() -> None:
    env = PokerAECEnv("leduc")
    env.reset(seed=3)
    first = env.table.state.hole_cards
    assert env.table.position_of(0) == 0 and env.agent_selection == "player_0"
    env.reset()
    assert env.table.hand_number == 1 and env.table.position_of(0) == 1
    assert env.agent_selection == "player_1"  # position 0 acts first in Leduc
    env.reset(seed=3)
    assert env.table.state.hole_cards == first


def test_illegal_action_is_played_as_a_check_or_call() -> None:
    env = PokerAECEnv("leduc")
    env.reset(seed=1)
    env.step(FOLD_ID)  # nothing to call: not legal
    assert env.table.state.betting_string() == "c"
    assert env.infos["player_0"]["illegal_actions"] == 1


# -------------------------------------------------- payoffs equal the in-process match
class RandomIds(Strategy):
    """Uniform over the legal action IDs of the environment's encoding: every action it takes
    is one the environment can express (no-limit sizes included)."""

    name = "random-ids"

    def decide(self, view: MatchState, deadline: float) -> Action:
        encoding = make_encoding(self.game)
        legal = np.flatnonzero(encoding.legal_mask(view.state))
        action = encoding.to_action(view.state, int(legal[self.rng.randrange(len(legal))]))
        assert action is not None
        return action


def _env_payoffs(game: Game, seed: int, hands: int, players: list[Strategy]) -> list[list[float]]:
    env = PokerAECEnv(game)
    encoding = env.encoding
    totals: list[list[float]] = []
    for hand in range(hands):
        env.reset(seed=seed if hand == 0 else None)
        rewards = {}
        for agent in env.agent_iter():
            _, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                rewards[agent] = reward
                env.step(None)
                continue
            view = env.view(agent)
            action = players[int(agent.rpartition("_")[2])].decide(view, time.monotonic() + 1)
            action_id = encoding.action_id(env.table.state, action)
            assert action_id is not None
            env.step(action_id)
        totals.append([rewards[f"player_{s}"] for s in range(game.num_players)])
    return totals


@pytest.mark.parametrize(
    ("game_name", "player"),
    [("leduc", RandomPlayer), ("holdem-limit-2p", RandomPlayer), ("holdem-nolimit-2p", RandomIds)],
)
def test_payoffs_equal_the_inprocess_match_on_the_same_seed(game_name: str, player: type[Strategy]) -> None:
    game, hands, seed = load_game(game_name), 300, 11
    outcome = run_inprocess_match(game, hands, seed, [player(game, 1), player(game, 2)], ["a", "b"])
    expected = [[values["a"] / game.big_blind, values["b"] / game.big_blind] for values in outcome.per_hand_values]
    assert _env_payoffs(game, seed, hands, [player(game, 1), player(game, 2)]) == expected
    assert any(row[0] != 0 for row in expected)


# ----------------------------------------------------------- the Gymnasium environment
def test_gymnasium_env_seats_registry_strategies_and_replays_seeds() -> None:
    env = PokerEnv("leduc", opponents=["equilibrium"], encoding="leduc-infostate")

    def rollout(seed: int) -> list[tuple[float, tuple[int, ...]]]:
        observations: list[tuple[float, tuple[int, ...]]] = []
        _, info = env.reset(seed=seed)
        for _ in range(50):
            terminated = False
            while not terminated:
                legal = np.flatnonzero(info["action_mask"])
                observation, reward, terminated, _, info = env.step(int(legal[-1]))
            observations.append((reward, tuple(ones(observation))))
            _, info = env.reset()
        return observations

    assert rollout(5) == rollout(5)
    assert env.opponents[1].name == "policy"
    assert sum(reward for reward, _ in rollout(5)) != 0


def test_gymnasium_env_reports_hands_without_a_learner_decision() -> None:
    env = PokerEnv("holdem-limit-2p", opponents=["always-fold"])
    skipped = 0
    total = 0.0
    _, info = env.reset(seed=2)
    for _ in range(20):
        skipped += info["skipped_hands"]
        total += info["skipped_reward"]
        terminated = False
        while not terminated:
            _, reward, terminated, _, info = env.step(CALL_ID if info["action_mask"][CALL_ID] else CHECK_ID)
        _, info = env.reset()
    assert skipped > 0 and total == pytest.approx(skipped * 0.5)  # the small blind the folder gives up


def test_gymnasium_env_bad_arguments() -> None:
    with pytest.raises(ValueError, match="give 1 opponent"):
        PokerEnv("leduc", opponents=[])
    with pytest.raises(ValueError, match="seat 2 is out of range"):
        PokerEnv("leduc", seat=2)
