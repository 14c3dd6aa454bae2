"""The learned agent ``nfsp`` (the shipped NFSP policy of Leduc): a registry strategy like any
other, at a dealer seat over TCP and in the environment's other seat."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.bot.matches.loopback import run_loopback_match
from pokerbot.protocol.game import load_game
from pokerbot.strategies.registry import default_registry, nfsp_leduc_policy
from pokerbot.strategies.rl.env import PokerEnv
from pokerbot.strategies.solvers.exploitability import evaluate

LEDUC = load_game("leduc")


def test_nfsp_is_registered_for_leduc_only() -> None:
    registry = default_registry()
    assert registry.info("nfsp").supports(LEDUC)
    assert not registry.info("nfsp").supports(load_game("kuhn"))
    assert registry.create("nfsp", LEDUC, 1).name == "nfsp"


def test_the_shipped_policy_says_what_it_is() -> None:
    policy = nfsp_leduc_policy()
    assert len(policy) == 936 and policy.meta["algorithm"] == "nfsp"
    assert abs(evaluate(LEDUC, policy).exploitability - policy.meta["exploitability"]) < 1e-9


def test_nfsp_plays_over_tcp_against_the_dealer(tmp_path: Path) -> None:
    registry = default_registry()
    players = [registry.create("nfsp", LEDUC, 1), registry.create("random", LEDUC, 2)]
    outcome = run_loopback_match(LEDUC, 20, 5, players, ["nfsp", "random"], output_dir=tmp_path)
    assert outcome.error is None and outcome.hands_played == 20
    assert outcome.illegal_actions == {"nfsp": 0, "random": 0}


def test_nfsp_beats_random_in_a_duplicate_match() -> None:
    registry = default_registry()
    totals = 0.0
    for names in (["nfsp", "random"], ["random", "nfsp"]):  # the same deals, seats swapped
        players = [registry.create(name, LEDUC, 7) for name in names]
        totals += run_inprocess_match(LEDUC, 1000, 3, players, names).totals["nfsp"]
    assert totals / 2000 > 0.5  # chips per hand


def test_the_environment_seats_nfsp_as_the_opponent() -> None:
    env = PokerEnv(LEDUC, opponents=["nfsp"])
    _, info = env.reset(seed=1)
    rewards = []
    for _ in range(200):
        terminated = False
        while not terminated:
            legal = np.flatnonzero(info["action_mask"])
            _, reward, terminated, _, info = env.step(int(legal[0]))
        rewards.append(reward)
        _, info = env.reset()
    assert env.opponents[1].name == "nfsp" and sum(rewards) < 0  # a fixed first-legal-action player loses
