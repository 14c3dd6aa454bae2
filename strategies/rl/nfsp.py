"""Neural Fictitious Self-Play (Heinrich and Silver 2016), as Zha et al. (2019) train it in Leduc.

Each player has two networks over the encoded observation
(:mod:`~pokerbot.strategies.rl.encoding`): a Q-network learnt by DQN from a circular replay
buffer of its transitions (an approximate best response to the others' average play), and an
average-policy network learnt by classification from a reservoir buffer of the actions its best
response took (the average of its past best responses). In each hand each player plays its
best response with probability ``anticipatory`` (epsilon-greedy over the legal actions), else
its average policy. The average policy is the output: it approaches a Nash equilibrium.

Hands are played many at a time (``parallel_hands``) through the environment's
:class:`~pokerbot.strategies.rl.env.Table`, so every network evaluation is one batch; the
learning schedule counts steps per player as the sequential algorithm does (one update of each
network every ``learn_every`` of the player's steps). Rewards are big blinds per hand;
transitions are undiscounted.

Needs PyTorch (the ``rl`` extra). Threads: the caller sets ``torch.set_num_threads``.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from pokerbot.protocol.game import Game
from pokerbot.strategies.rl.encoding import Encoding, make_encoding
from pokerbot.strategies.rl.env import Table
from pokerbot.strategies.rl.tabulate import tabulate
from pokerbot.strategies.solvers.policy import Policy

_BINARY_ENCODINGS = frozenset({"leduc", "leduc-infostate", "limit-holdem"})


@dataclass(frozen=True)
class NfspSettings:
    """NFSP's hyper-parameters (defaults: Zha et al.'s (2019) network, 1 hidden layer of 64 ReLU units;
    the buffer sizes, anticipatory parameter, update schedule and SGD of Heinrich and Silver's
    Leduc runs and their Q-network's learning rate, 0.1; the average network's is 0.02, where
    theirs is 0.005 and OpenSpiel's example's 0.01, so that it follows its reservoir sooner)."""

    hidden: int = 64
    replay_capacity: int = 200_000
    reservoir_capacity: int = 2_000_000
    anticipatory: float = 0.1
    batch_size: int = 128
    learn_every: int = 64
    """A player's steps between two updates of each of its networks."""
    rl_learning_rate: float = 0.1
    sl_learning_rate: float = 0.02
    target_update_every: int = 300
    """Q-network updates between two copies into the target network."""
    epsilon_start: float = 0.06
    epsilon_end: float = 0.001
    epsilon_decay_steps: int = 20_000_000
    """A player's steps over which exploration decays from start to end (by the square root of
    the fraction of them taken)."""
    min_buffer: int = 1_000
    parallel_hands: int = 128
    optimizer: str = "sgd"
    """``sgd`` or ``adam`` (for both networks)."""

    def __post_init__(self) -> None:
        if self.optimizer not in ("sgd", "adam"):
            raise ValueError(f"optimizer {self.optimizer!r}: choose sgd or adam")

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready values."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NfspSettings:
        """Settings from :meth:`to_dict`'s output (unknown keys are an error)."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown NFSP settings: {', '.join(unknown)}")
        return cls(**data)

    @classmethod
    def from_strings(cls, items: list[str]) -> NfspSettings:
        """The defaults with ``KEY=VALUE`` items applied (``replay_capacity=30000``), each value
        read as its field's type (ValueError names a bad item)."""
        types = {f.name: type(getattr(cls(), f.name)) for f in fields(cls)}
        changes: dict[str, Any] = {}
        for item in items:
            key, equals, text = item.partition("=")
            key = key.strip().replace("-", "_")
            if not equals or key not in types:
                raise ValueError(f"{item!r}: expected KEY=VALUE with KEY one of {', '.join(types)}")
            kind = types[key]
            try:
                value = kind(float(text)) if kind is int and float(text).is_integer() else kind(text)
            except ValueError:
                raise ValueError(f"{item!r}: {key} takes {kind.__name__} values") from None
            changes[key] = value
        return cls(**changes)


def _mlp(inputs: int, hidden: int, outputs: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(inputs, hidden), nn.ReLU(), nn.Linear(hidden, outputs))


class _Buffer:
    """Observations, masks and extra columns in preallocated arrays: circular or reservoir."""

    def __init__(self, capacity: int, size: int, actions: int, binary: bool, reservoir: bool) -> None:
        dtype = np.uint8 if binary else np.float32
        self.capacity = capacity
        self.reservoir = reservoir
        self.observations = np.zeros((capacity, size), dtype=dtype)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.next_observations = np.zeros((capacity, size), dtype=dtype) if not reservoir else None
        self.next_masks = np.zeros((capacity, actions), dtype=np.bool_) if not reservoir else None
        self.done = np.zeros(capacity, dtype=np.bool_)
        self.added = 0

    def __len__(self) -> int:
        return min(self.added, self.capacity)

    def slot(self, rng: np.random.Generator) -> int | None:
        """Where the next item goes (None: a full reservoir keeps what it has)."""
        added = self.added
        self.added += 1
        if added < self.capacity:
            return added
        if not self.reservoir:
            return added % self.capacity
        index = int(rng.integers(added + 1))
        return index if index < self.capacity else None

    def state(self) -> dict[str, Any]:
        """The arrays (filled part) and counter, for a checkpoint."""
        n = len(self)
        data: dict[str, Any] = {"added": self.added, "observations": self.observations[:n], "actions": self.actions[:n]}
        if not self.reservoir:
            assert self.next_observations is not None and self.next_masks is not None
            data.update(
                rewards=self.rewards[:n],
                next_observations=self.next_observations[:n],
                next_masks=self.next_masks[:n],
                done=self.done[:n],
            )
        return data

    def load(self, data: dict[str, Any]) -> None:
        """Restore :meth:`state`."""
        n = len(data["actions"])
        self.added = int(data["added"])
        self.observations[:n] = data["observations"]
        self.actions[:n] = data["actions"]
        if not self.reservoir:
            assert self.next_observations is not None and self.next_masks is not None
            self.rewards[:n] = data["rewards"]
            self.next_observations[:n] = data["next_observations"]
            self.next_masks[:n] = data["next_masks"]
            self.done[:n] = data["done"]


class _Player:
    """One seat's networks, optimisers and buffers."""

    def __init__(self, encoding: Encoding, settings: NfspSettings, binary: bool) -> None:
        size, actions = encoding.size, encoding.num_actions
        self.q = _mlp(size, settings.hidden, actions)
        self.target = _mlp(size, settings.hidden, actions)
        self.target.load_state_dict(self.q.state_dict())
        self.average = _mlp(size, settings.hidden, actions)
        optimizer = torch.optim.SGD if settings.optimizer == "sgd" else torch.optim.Adam
        self.q_optimizer = optimizer(self.q.parameters(), lr=settings.rl_learning_rate)
        self.average_optimizer = optimizer(self.average.parameters(), lr=settings.sl_learning_rate)
        self.replay = _Buffer(settings.replay_capacity, size, actions, binary, reservoir=False)
        self.supervised = _Buffer(settings.reservoir_capacity, size, actions, binary, reservoir=True)
        self.steps = 0
        self.q_updates = 0


def masked_softmax(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """Softmax of ``logits`` over each row's legal actions (``masks`` true), zero elsewhere."""
    return torch.softmax(logits.masked_fill(~masks, -1e9), dim=-1) * masks


class NFSP:
    """NFSP self-play in ``game`` (any game whose observations ``encoding`` describes; a
    tabular :meth:`average_policy` needs a small limit game such as Leduc)."""

    def __init__(
        self, game: Game, encoding: str | None = None, settings: NfspSettings | None = None, seed: int = 0
    ) -> None:
        self.game = game
        self.encoding = make_encoding(game, encoding)
        self.settings = settings or NfspSettings()
        self.seed = seed
        torch.manual_seed(seed)
        self.rng = np.random.default_rng(seed)
        binary = self.encoding.name in _BINARY_ENCODINGS
        self.players = [_Player(self.encoding, self.settings, binary) for _ in range(game.num_players)]
        self.hands = 0
        """Hands played so far (episodes)."""
        self._start_tables(seed)

    # ---------------------------------------------------------------- self-play
    def _start_tables(self, seed: int) -> None:
        n = self.game.num_players
        self.tables = [Table(self.game, self.encoding, rotate_seats=False) for _ in range(self.settings.parallel_hands)]
        seeds = np.random.default_rng([seed, self.hands]).integers(2**32, size=len(self.tables))
        for table, table_seed in zip(self.tables, seeds):
            table.deal(int(table_seed))
        self._modes = self.rng.random((len(self.tables), n)) < self.settings.anticipatory
        self._pending: list[list[tuple[np.ndarray, int] | None]] = [[None] * n for _ in self.tables]

    def epsilon(self, player: int) -> float:
        """Exploration of ``player``'s best response now."""
        s = self.settings
        fraction = min(self.players[player].steps / s.epsilon_decay_steps, 1.0)
        return s.epsilon_end + (s.epsilon_start - s.epsilon_end) * (1 - math.sqrt(fraction))

    def play(self, steps: int) -> None:
        """Play on for about ``steps`` decisions (all players, all tables), learning as it goes."""
        done = 0
        while done < steps:
            done += self._step_all()

    def _step_all(self) -> int:
        n = self.game.num_players
        encoding = self.encoding
        by_player: list[list[int]] = [[] for _ in range(n)]
        for index, table in enumerate(self.tables):
            position = table.state.current_player
            assert position is not None
            by_player[position].append(index)
        taken = 0
        for p, indices in enumerate(by_player):
            if not indices:
                continue
            observations = np.stack([self.tables[i].observation(p) for i in indices])
            masks = np.stack([encoding.legal_mask(self.tables[i].state) for i in indices]).astype(np.bool_)
            actions = self._choose(p, indices, observations, masks)
            player = self.players[p]
            for row, (i, action) in enumerate(zip(indices, actions)):
                pending = self._pending[i][p]
                if pending is not None:
                    self._add_transition(player, pending, 0.0, observations[row], masks[row], False)
                self._pending[i][p] = (observations[row], int(action))
                if self._modes[i, p]:
                    slot = player.supervised.slot(self.rng)
                    if slot is not None:
                        player.supervised.observations[slot] = observations[row]
                        player.supervised.actions[slot] = action
                table = self.tables[i]
                table.play(int(action))
                if table.state.finished:
                    self._finish(i)
            player.steps += len(indices)
            taken += len(indices)
            self._learn(p, len(indices))
        return taken

    def _choose(self, p: int, indices: list[int], observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        player = self.players[p]
        best = self._modes[indices, p]
        x = torch.from_numpy(observations.astype(np.float32))
        legal = torch.from_numpy(masks)
        with torch.no_grad():
            q = player.q(x).masked_fill(~legal, -1e9).argmax(dim=1).numpy()
            probabilities = masked_softmax(player.average(x), legal).numpy().astype(np.float64)
        rows = len(indices)
        draws = self.rng.random(rows)
        sampled = (probabilities.cumsum(axis=1) < (draws * probabilities.sum(axis=1))[:, None]).sum(axis=1)
        explore = self.rng.random(rows) < self.epsilon(p)
        legal_counts = masks.sum(axis=1)
        picks = (self.rng.random(rows) * legal_counts).astype(np.int64)
        random_legal = np.array([np.flatnonzero(masks[r])[picks[r]] for r in range(rows)], dtype=np.int64)
        greedy = np.where(explore, random_legal, q)
        return np.minimum(np.where(best, greedy, sampled), masks.shape[1] - 1)

    def _add_transition(
        self,
        player: _Player,
        pending: tuple[np.ndarray, int],
        reward: float,
        next_observation: np.ndarray | None,
        next_mask: np.ndarray | None,
        done: bool,
    ) -> None:
        buffer = player.replay
        slot = buffer.slot(self.rng)
        assert slot is not None and buffer.next_observations is not None and buffer.next_masks is not None
        buffer.observations[slot] = pending[0]
        buffer.actions[slot] = pending[1]
        buffer.rewards[slot] = reward
        buffer.done[slot] = done
        if next_observation is None or next_mask is None:
            buffer.next_observations[slot] = 0
            buffer.next_masks[slot] = False
        else:
            buffer.next_observations[slot] = next_observation
            buffer.next_masks[slot] = next_mask

    def _finish(self, index: int) -> None:
        table = self.tables[index]
        rewards = table.rewards()
        for p, player in enumerate(self.players):
            pending = self._pending[index][p]
            if pending is not None:
                self._add_transition(player, pending, rewards[p], None, None, True)
            self._pending[index][p] = None
        self.hands += 1
        table.deal(None)
        self._modes[index] = self.rng.random(self.game.num_players) < self.settings.anticipatory

    # ----------------------------------------------------------------- learning
    def _learn(self, p: int, new_steps: int) -> None:
        s = self.settings
        player = self.players[p]
        before = (player.steps - new_steps) // s.learn_every
        for _ in range(player.steps // s.learn_every - before):
            self._learn_q(player)
            self._learn_average(player)

    def _learn_q(self, player: _Player) -> None:
        s, buffer = self.settings, player.replay
        size = len(buffer)
        if size < max(s.batch_size, s.min_buffer):
            return
        assert buffer.next_observations is not None and buffer.next_masks is not None
        rows = self.rng.integers(size, size=s.batch_size)
        x = torch.from_numpy(buffer.observations[rows].astype(np.float32))
        actions = torch.from_numpy(buffer.actions[rows])
        rewards = torch.from_numpy(buffer.rewards[rows])
        done = torch.from_numpy(buffer.done[rows])
        next_x = torch.from_numpy(buffer.next_observations[rows].astype(np.float32))
        next_masks = torch.from_numpy(buffer.next_masks[rows])
        with torch.no_grad():
            next_q = player.target(next_x).masked_fill(~next_masks, -1e9).max(dim=1).values
            target = rewards + torch.where(done, torch.zeros_like(next_q), next_q)
        q = player.q(x).gather(1, actions.unsqueeze(1)).squeeze(1)
        loss = nn.functional.mse_loss(q, target)
        player.q_optimizer.zero_grad()
        loss.backward()
        player.q_optimizer.step()
        player.q_updates += 1
        if player.q_updates % s.target_update_every == 0:
            player.target.load_state_dict(player.q.state_dict())

    def _learn_average(self, player: _Player) -> None:
        s, buffer = self.settings, player.supervised
        size = len(buffer)
        if size < max(s.batch_size, s.min_buffer):
            return
        rows = self.rng.integers(size, size=s.batch_size)
        x = torch.from_numpy(buffer.observations[rows].astype(np.float32))
        loss = nn.functional.cross_entropy(player.average(x), torch.from_numpy(buffer.actions[rows]))
        player.average_optimizer.zero_grad()
        loss.backward()
        player.average_optimizer.step()

    # ------------------------------------------------------------------ output
    def average_probabilities(self, observations: np.ndarray, masks: np.ndarray, position: int) -> np.ndarray:
        """The average policy of ``position`` at each observation, over the action IDs."""
        with torch.no_grad():
            logits = self.players[position].average(torch.from_numpy(observations.astype(np.float32)))
            return masked_softmax(logits, torch.from_numpy(masks.astype(np.bool_))).numpy()

    def average_policy(self, meta: dict[str, Any] | None = None) -> Policy:
        """Both players' average policies as one tabular policy (each information set answered by
        the network of the position acting there)."""
        if self.game.num_players != 2:
            raise ValueError("the tabular average policy is written for two-player games")

        def probabilities(observations: np.ndarray, masks: np.ndarray, positions: np.ndarray) -> np.ndarray:
            # seat p plays position p (rotate_seats=False): each position's own network answers
            rows = [self.average_probabilities(observations, masks, p) for p in range(self.game.num_players)]
            return np.choose(positions[:, None], rows)

        return tabulate(self.game, self.encoding, probabilities, meta)

    # -------------------------------------------------------------- checkpoints
    def state_dict(self) -> dict[str, Any]:
        """Everything needed to go on training: networks, optimisers, buffers, counters."""
        return {
            "settings": self.settings.to_dict(),
            "encoding": self.encoding.name,
            "seed": self.seed,
            "hands": self.hands,
            "rng": self.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
            "players": [
                {
                    "q": player.q.state_dict(),
                    "target": player.target.state_dict(),
                    "average": player.average.state_dict(),
                    "q_optimizer": player.q_optimizer.state_dict(),
                    "average_optimizer": player.average_optimizer.state_dict(),
                    "replay": player.replay.state(),
                    "supervised": player.supervised.state(),
                    "steps": player.steps,
                    "q_updates": player.q_updates,
                }
                for player in self.players
            ],
        }

    def load_state_dict(self, data: dict[str, Any]) -> None:
        """Restore :meth:`state_dict` (the hands in play restart from the seed and hand count)."""
        self.hands = int(data["hands"])
        self.rng.bit_generator.state = data["rng"]
        torch.set_rng_state(data["torch_rng"])
        for player, saved in zip(self.players, data["players"]):
            player.q.load_state_dict(saved["q"])
            player.target.load_state_dict(saved["target"])
            player.average.load_state_dict(saved["average"])
            player.q_optimizer.load_state_dict(saved["q_optimizer"])
            player.average_optimizer.load_state_dict(saved["average_optimizer"])
            player.replay.load(saved["replay"])
            player.supervised.load(saved["supervised"])
            player.steps = int(saved["steps"])
            player.q_updates = int(saved["q_updates"])
        self._start_tables(self.seed)

    def save(self, target: str | Path) -> None:
        """Write :meth:`state_dict` with :func:`torch.save`."""
        torch.save(self.state_dict(), target)

    @classmethod
    def load(cls, game: Game, source: str | Path) -> NFSP:
        """An NFSP restored from :meth:`save`'s file."""
        data = torch.load(source, weights_only=False)
        nfsp = cls(game, data["encoding"], NfspSettings.from_dict(data["settings"]), int(data["seed"]))
        nfsp.load_state_dict(data)
        return nfsp


__all__ = ["NFSP", "NfspSettings", "masked_softmax"]
