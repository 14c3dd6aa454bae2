"""OpenSpiel's PyTorch NFSP in Leduc, timed and measured as ``pokerbot rl train`` is.

Run: python benchmarks/openspiel_nfsp_leduc.py --seconds 600 [--eval-every 30] [--seed 0] --json OUT

Trains ``open_spiel.python.pytorch.nfsp.NFSP`` with the settings of OpenSpiel's own example
``nfsp_leduc_pytorch.py`` (one hidden layer of 128, SGD at 0.01, replay 200,000, reservoir
2,000,000, anticipatory 0.1, batch 128, learn every 64 steps, target update every 19,200
steps, exploration 0.06 to 0.001) for ``--seconds`` of this process's CPU time (one thread,
evaluations excluded), and measures the average policy's exploitability with OpenSpiel's own
``exploitability.exploitability`` every ``--eval-every`` CPU seconds: the same clock and the same
unit (chips per hand) as ``pokerbot rl train``'s ``curve.json``. Needs the ``bench`` and ``rl``
extras (``open_spiel``, ``torch``).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from open_spiel.python import policy, rl_environment
from open_spiel.python.algorithms import exploitability
from open_spiel.python.pytorch import nfsp

EXAMPLE_SETTINGS: dict[str, Any] = {
    "replay_buffer_capacity": int(2e5),
    "reservoir_buffer_capacity": int(2e6),
    "min_buffer_size_to_learn": 1000,
    "anticipatory_param": 0.1,
    "batch_size": 128,
    "learn_every": 64,
    "rl_learning_rate": 0.01,
    "sl_learning_rate": 0.01,
    "optimizer_str": "sgd",
    "loss_str": "mse",
    "update_target_network_every": 19200,
    "discount_factor": 1.0,
    "epsilon_decay_duration": int(20e6),
    "epsilon_start": 0.06,
    "epsilon_end": 0.001,
}
"""The keyword arguments of OpenSpiel's ``nfsp_leduc_pytorch.py`` example."""
HIDDEN = [128]


class AveragePolicies(policy.Policy):  # type: ignore[misc]
    """Both agents' average policies as one OpenSpiel policy (as the example evaluates them)."""

    def __init__(self, env: Any, agents: list[Any]) -> None:
        super().__init__(env.game, list(range(2)))
        self._agents = agents
        self._obs: dict[str, Any] = {"info_state": [None, None], "legal_actions": [None, None]}

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        player = state.current_player()
        legal = state.legal_actions(player)
        self._obs["current_player"] = player
        self._obs["info_state"][player] = state.information_state_tensor(player)
        self._obs["legal_actions"][player] = legal
        step = rl_environment.TimeStep(observations=self._obs, rewards=None, discounts=None, step_type=None)
        with self._agents[player].temp_mode_as(nfsp.MODE.AVERAGE_POLICY):
            probabilities = self._agents[player].step(step, is_evaluation=True).probs
        return {action: float(probabilities[action]) for action in legal}


def main() -> None:
    """Train, measure, write the curve."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, required=True, help="CPU seconds of training")
    parser.add_argument("--eval-every", type=float, default=30.0, help="CPU seconds between evaluations")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, required=True, help="where to write the curve")
    args = parser.parse_args()

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    random.seed(args.seed)
    env = rl_environment.Environment("leduc_poker", players=2)
    env.seed(args.seed)
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [nfsp.NFSP(p, size, actions, HIDDEN, **EXAMPLE_SETTINGS) for p in range(2)]
    average = AveragePolicies(env, agents)
    points: list[dict[str, float]] = []
    trained, hands = 0.0, 0

    def write() -> None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        document = {
            "game": "leduc_poker",
            "algorithm": "open_spiel.python.pytorch.nfsp (the nfsp_leduc_pytorch.py example's settings)",
            "hidden_layers": HIDDEN,
            "settings": EXAMPLE_SETTINGS,
            "seed": args.seed,
            "command": f"python benchmarks/openspiel_nfsp_leduc.py --seconds {args.seconds:g} --seed {args.seed}",
            "time": "CPU seconds of the training process, one thread, evaluations excluded",
            "python": platform.python_version(),
            "points": points,
        }
        args.json.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")

    def measure() -> None:
        value = float(exploitability.exploitability(env.game, average))
        points.append({"cpu_seconds": round(trained, 2), "hands": hands, "exploitability": value})
        print(f"{trained:8.0f} CPU s  {hands:>10,} hands  exploitability {value:.4f}", flush=True)
        write()  # after every point: a run stopped early keeps its curve

    measure()
    while trained < args.seconds - 1e-9:
        budget = min(args.eval_every, args.seconds - trained)
        start = time.process_time()
        while time.process_time() - start < budget:
            for _ in range(100):
                step = env.reset()
                while not step.last():
                    player = step.observations["current_player"]
                    step = env.step([agents[player].step(step).action])
                for agent in agents:
                    agent.step(step)
                hands += 1
        trained += time.process_time() - start
        measure()
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
