"""Reinforcement learning on the engine: environments and seed 004's encodings.

* :mod:`~pokerbot.strategies.rl.encoding` - observations and action IDs (seed 004's for Leduc,
  heads-up limit and no-limit hold'em; a generic one for any ACPC game);
* :mod:`~pokerbot.strategies.rl.env` - a PettingZoo AEC environment (every seat an agent) and a
  Gymnasium environment (one learner, registry strategies in the other seats).

Rewards are in big blinds per hand.
"""

from pokerbot.strategies.rl.encoding import Encoding, EncodingError, default_encoding_name, make_encoding
from pokerbot.strategies.rl.env import PokerAECEnv, PokerEnv

__all__ = ["Encoding", "EncodingError", "PokerAECEnv", "PokerEnv", "default_encoding_name", "make_encoding"]
