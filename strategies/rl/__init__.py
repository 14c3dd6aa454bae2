"""Reinforcement learning on the engine: environments, the encodings of Zha et al. (2019), NFSP.

* :mod:`~pokerbot.strategies.rl.encoding` - observations and action IDs (Zha et al.'s (2019) for Leduc,
  heads-up limit and no-limit hold'em; a generic one for any ACPC game);
* :mod:`~pokerbot.strategies.rl.env` - a PettingZoo AEC environment (every seat an agent) and a
  Gymnasium environment (one learner, registry strategies in the other seats);
* :mod:`~pokerbot.strategies.rl.tabulate` - a network's policy in a small limit game written as a
  tabular :class:`~pokerbot.strategies.solvers.policy.Policy`, which every tool reads;
* :mod:`~pokerbot.strategies.rl.nfsp` - Neural Fictitious Self-Play (PyTorch, the ``rl`` extra;
  imported only when asked for).

Rewards are in big blinds per hand.
"""

from pokerbot.strategies.rl.encoding import Encoding, EncodingError, default_encoding_name, make_encoding
from pokerbot.strategies.rl.env import PokerAECEnv, PokerEnv

__all__ = ["Encoding", "EncodingError", "PokerAECEnv", "PokerEnv", "default_encoding_name", "make_encoding"]
