"""Reinforcement-learning environments on the engine: PettingZoo (every seat) and Gymnasium
(one seat, registry strategies in the others), for any ACPC game.

One episode is one hand. Hands are dealt exactly as the dealer deals a match
(:class:`~pokerbot.protocol.dealing.Dealer`): ``reset(seed=S)`` starts the deals of match
seed ``S`` at its first hand, and each ``reset()`` without a seed deals the next hand of that
match (the first ``reset()`` without any seed draws one). Seats rotate as the dealer rotates
them: agent ``player_j`` (seat ``j``) plays position ``(j - h) % players`` in the ``h``-th hand
of the seed (``rotate_seats=False``: position ``j`` always). So the same seed and the same
actions give the same hands, and the same payoffs, as ``pokerbot match`` with that seed.

Observations are :mod:`~pokerbot.strategies.rl.encoding`'s (Zha et al.'s (2019) for Leduc and heads-up
hold'em); actions are its discrete IDs, with a mask of the legal ones. An action outside the
mask is repaired as the dealer repairs an invalid action: it is played as a check or call (and
counted in ``infos[agent]["illegal_actions"]``). Rewards are each seat's winnings in big blinds
(:attr:`~pokerbot.protocol.game.Game.big_blind`) for the hand, given when it ends.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from pokerbot.protocol.actions import CALL, Action
from pokerbot.protocol.cards import cards_to_string
from pokerbot.protocol.dealing import Dealer
from pokerbot.protocol.errors import IllegalActionError
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy, StrategyRegistry
from pokerbot.strategies.rl.encoding import Encoding, make_encoding

RENDER_MODES = ("ansi", "human")
"""``ansi``: :meth:`render` returns one line of text; ``human``: each step prints it."""
SECONDS_PER_ACTION = 1.0
"""The deadline a seated strategy gets for one decision, in seconds (not enforced)."""


class Table:
    """The hands of one match seed, their seat rotation and one encoding: the core both
    environments share. Positions are 0-based positions in the hand, seats 0-based seats."""

    def __init__(self, game: Game, encoding: Encoding, rotate_seats: bool = True) -> None:
        self.game = game
        self.encoding = encoding
        self.rotate_seats = rotate_seats
        self.seed: int | None = None
        self.hand_number = -1
        """The current hand's number within the seed's deals (0 for the first)."""
        self.state = HandState(game)
        self._dealer: Dealer | None = None

    def deal(self, seed: int | None) -> None:
        """Deal the next hand, or with ``seed`` the first hand of that seed."""
        if seed is not None or self._dealer is None:
            if seed is None:
                seed = secrets.randbits(32)
            if not 0 <= seed <= 0xFFFFFFFF:
                raise ValueError(f"seed {seed} is out of range 0..2**32-1")
            self.seed = seed
            self._dealer = Dealer(self.game, seed)
            self.hand_number = -1
        deal = self._dealer.deal()
        self.hand_number += 1
        self.state = HandState(self.game, deal.hole_cards, deal.board_cards)

    def position_of(self, seat: int) -> int:
        """The position ``seat`` plays in the current hand."""
        if not self.rotate_seats:
            return seat
        return (seat - self.hand_number) % self.game.num_players

    def seat_of(self, position: int) -> int:
        """The seat playing ``position`` in the current hand."""
        if not self.rotate_seats:
            return position
        return (position + self.hand_number) % self.game.num_players

    def view(self, seat: int) -> MatchState:
        """What ``seat`` knows of the current hand, as a strategy sees it."""
        position = self.position_of(seat)
        return MatchState(position, self.hand_number, self.state.view(position))

    def play(self, action_id: int) -> bool:
        """Play ``action_id`` for the player to act; an illegal ID is played as a check or call.
        Returns False when the ID was illegal."""
        action = self.encoding.to_action(self.state, action_id)
        self.state.apply(action or CALL)
        return action is not None

    def play_action(self, action: Action) -> bool:
        """Play an engine action as the dealer takes it: a no-limit size clamped into range,
        anything still illegal as a check or call. Returns False when it was repaired."""
        try:
            played = self.state.apply_clamped(action)
        except IllegalActionError:
            self.state.apply(CALL)
            return False
        return played == action

    def rewards(self) -> list[float]:
        """Each seat's winnings in big blinds for the finished hand."""
        values = self.state.values()
        big_blind = self.game.big_blind
        return [values[self.position_of(seat)] / big_blind for seat in range(self.game.num_players)]

    def observation(self, seat: int) -> np.ndarray:
        """The encoded observation of ``seat``."""
        return self.encoding.encode(self.state, self.position_of(seat))

    def render(self) -> str:
        """One line: hand number, each position's cards, the board so far and the betting."""
        holes = " ".join(cards_to_string(cards) if cards else "??" for cards in self.state.hole_cards)
        board = cards_to_string(self.state.visible_board())
        return f"hand {self.hand_number}: {holes} | {board or '-'} | {self.state.betting_string() or '-'}"


def _game(game: Game | str) -> Game:
    return game if isinstance(game, Game) else load_game(game)


def _check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode {render_mode!r}: choose from {', '.join(RENDER_MODES)}")


def _observation_space(encoding: Encoding) -> spaces.Box:
    return spaces.Box(0.0, encoding.high, shape=(encoding.size,), dtype=np.float32)


class PokerAECEnv(AECEnv):
    """PettingZoo AEC environment of an ACPC game: every seat is an agent (``player_0`` ...).

    ``game`` is a :class:`Game` or a built-in name or game file; ``encoding`` an encoding name
    (default: Zha et al.'s (2019) for the game, :func:`~pokerbot.strategies.rl.encoding.make_encoding`).
    Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``; see the
    module docstring for dealing, seats, repairs and rewards.
    """

    metadata = {"name": "pokerbot_acpc_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(
        self,
        game: Game | str = "leduc",
        encoding: str | None = None,
        rotate_seats: bool = True,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        _check_render_mode(render_mode)
        self.game = _game(game)
        self.encoding = make_encoding(self.game, encoding)
        self.table = Table(self.game, self.encoding, rotate_seats)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = _observation_space(self.encoding)
        mask = spaces.Box(0, 1, shape=(self.encoding.num_actions,), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask}) for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.encoding.num_actions) for agent in self.possible_agents}
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a hand: the next one of the current seed, or the first one of ``seed``."""
        self.table.deal(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {"illegal_actions": 0} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        position = self.table.state.current_player
        if position is not None:
            self.agent_selection = self.possible_agents[self.table.seat_of(position)]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        state = self.table.state
        if state.finished or state.current_player != self.table.position_of(seat):
            mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        else:
            mask = self.encoding.legal_mask(state)
        return {"observation": self.table.observation(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: step() needs an action ID, got None")
        self._cumulative_rewards[agent] = 0.0
        if not self.table.play(int(action)):
            self.infos[agent]["illegal_actions"] += 1
        if self.table.state.finished:
            for agent_name, reward in zip(self.possible_agents, self.table.rewards()):
                self.rewards[agent_name] = reward
                self.terminations[agent_name] = True
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def view(self, agent: str) -> MatchState:
        """What ``agent`` knows of the current hand, as a :class:`Strategy` sees it."""
        return self.table.view(self._seat[agent])

    def render(self) -> str | None:
        text = self.table.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def make_strategy(
    spec: str | Strategy, game: Game, seed: int | None, registry: StrategyRegistry | None = None
) -> Strategy:
    """``spec`` itself, or the registry strategy of that name (``random``, ``equilibrium``,
    ``policy:PATH``, ``file.py:Class`` ...) built for ``game`` with ``seed``."""
    if isinstance(spec, Strategy):
        return spec
    if registry is None:
        from pokerbot.strategies.registry import default_registry

        registry = default_registry()
    return registry.create(spec, game, seed)


class PokerEnv(gymnasium.Env[np.ndarray, np.int64]):
    """Gymnasium environment: the learner in seat ``seat``, strategies in the others.

    ``opponents`` gives one strategy per other seat (in seat order), by registry name or as a
    :class:`Strategy`. Named ones are built again at every ``reset(seed=S)``, with seeds drawn
    from ``S``, so a seed replays the same episodes; given instances keep their state (an
    adaptive strategy goes on learning). Each strategy decides from its own view, plays as the
    dealer repairs (a no-limit size clamped into range) and observes every finished hand.

    The observation is the learner's encoded view; ``info["action_mask"]`` (and
    :meth:`action_masks`) gives its legal action IDs. A hand that ends before the learner's
    first decision (an opponent folds first) is not an episode: ``reset`` deals on, and its
    winnings are reported in ``info["skipped_reward"]`` (big blinds) and
    ``info["skipped_hands"]``. Rewards are in big blinds per hand.
    """

    metadata = {"render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        game: Game | str = "leduc",
        opponents: Sequence[str | Strategy] = ("random",),
        seat: int = 0,
        encoding: str | None = None,
        rotate_seats: bool = True,
        render_mode: str | None = None,
        registry: StrategyRegistry | None = None,
    ) -> None:
        self.game = _game(game)
        n = self.game.num_players
        if len(opponents) != n - 1:
            raise ValueError(f"the game seats {n} players: give {n - 1} opponent(s), got {len(opponents)}")
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is out of range 0..{n - 1}")
        _check_render_mode(render_mode)
        self.render_mode = render_mode
        self.encoding = make_encoding(self.game, encoding)
        self.table = Table(self.game, self.encoding, rotate_seats)
        self.seat = seat
        self._specs = list(opponents)
        self._registry = registry
        self._opponent_seats = [s for s in range(n) if s != seat]
        self.opponents: dict[int, Strategy] = {}
        self._build_opponents(None)
        self.observation_space = _observation_space(self.encoding)
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self.illegal_actions = 0
        """Learner actions outside the mask so far (each played as a check or call)."""

    def _build_opponents(self, seed: int | None) -> None:
        rng = np.random.default_rng(seed)
        for s, spec in zip(self._opponent_seats, self._specs):
            strategy_seed = int(rng.integers(2**32)) if seed is not None else None
            if isinstance(spec, Strategy) and s in self.opponents:
                continue
            self.opponents[s] = make_strategy(spec, self.game, strategy_seed, self._registry)

    def action_masks(self) -> np.ndarray:
        """The learner's legal action IDs (``int8``, 1 = legal)."""
        state = self.table.state
        if state.finished or state.current_player != self.table.position_of(self.seat):
            return np.zeros(self.encoding.num_actions, dtype=np.int8)
        return self.encoding.legal_mask(state)

    def _opponents_play(self) -> None:
        table = self.table
        state = table.state
        while not state.finished:
            position = state.current_player
            assert position is not None
            s = table.seat_of(position)
            if s == self.seat:
                return
            action = self.opponents[s].decide(table.view(s), time.monotonic() + SECONDS_PER_ACTION)
            table.play_action(action if isinstance(action, Action) else CALL)
            state = table.state

    def _hand_over(self) -> None:
        for s, strategy in self.opponents.items():
            if type(strategy).observe is not Strategy.observe:
                strategy.observe(self.table.view(s))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._build_opponents(seed)
        skipped_reward, skipped_hands = 0.0, 0
        self.table.deal(seed)
        self._opponents_play()
        while self.table.state.finished:
            skipped_reward += self.table.rewards()[self.seat]
            skipped_hands += 1
            self._hand_over()
            self.table.deal(None)
            self._opponents_play()
        info = {"action_mask": self.action_masks(), "skipped_reward": skipped_reward, "skipped_hands": skipped_hands}
        return self.table.observation(self.seat), info

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        table = self.table
        if table.state.finished:
            raise RuntimeError("the hand is over: call reset() to deal the next one")
        if not table.play(int(action)):
            self.illegal_actions += 1
        self._opponents_play()
        reward = 0.0
        terminated = table.state.finished
        if terminated:
            reward = table.rewards()[self.seat]
            self._hand_over()
        if self.render_mode == "human":
            self.render()
        return table.observation(self.seat), reward, terminated, False, {"action_mask": self.action_masks()}

    def render(self) -> str | None:
        text = self.table.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text


__all__ = ["RENDER_MODES", "SECONDS_PER_ACTION", "PokerAECEnv", "PokerEnv", "Table", "make_strategy"]
