"""Game solving for small ACPC limit games: trees, CFR-family solvers, best responses, policies.

The pieces, bottom up:

* :mod:`~strategies.solvers.tree` - the public game tree of a game small enough to
  enumerate (Kuhn, 3-player Kuhn, Leduc and similar limit games), flattened to numpy arrays;
  information sets are keyed in ACPC notation (:mod:`~protocol.infosets`);
* :mod:`~strategies.solvers.engine` - vectorised reach / value passes over all hands;
* :mod:`~strategies.solvers.cfr`, :mod:`~strategies.solvers.mccfr` - CFR, CFR+, DCFR,
  outcome- and external-sampling MCCFR (:mod:`~strategies.solvers.solve` runs them with
  exploitability checkpoints);
* :mod:`~strategies.solvers.exploitability` - exact best responses, NashConv,
  exploitability and profile values for any number of players;
* :mod:`~strategies.solvers.rnr` - restricted Nash responses (RNR, MCRNR, data-biased);
* :mod:`~strategies.solvers.policy` - tabular policies with a JSON format bound to the game;
* :mod:`~strategies.solvers.kuhn` - Kuhn's Nash family, Southey et al.'s opponents and EV formula;
* :mod:`~strategies.solvers.player` - :class:`PolicyStrategy`, which plays a policy;
* :mod:`~strategies.solvers.equilibria` - shipped equilibria for ``kuhn``, ``leduc``, ``kuhn3p``.

Amounts are chips (per hand for values and exploitability).
"""

from pokerbot.protocol.infosets import infoset_key
from pokerbot.strategies.solvers.cfr import CFR, DCFR, CFRPlus, Solver
from pokerbot.strategies.solvers.equilibria import EQUILIBRIUM_GAMES, equilibrium_policy, has_equilibrium
from pokerbot.strategies.solvers.errors import (
    NoEquilibriumError,
    PolicyError,
    PolicyGameMismatchError,
    SolverError,
    UnsupportedGameError,
)
from pokerbot.strategies.solvers.exploitability import ExploitabilityReport, evaluate, exploitability, nash_conv
from pokerbot.strategies.solvers.mccfr import ExternalSamplingMCCFR, OutcomeSamplingMCCFR
from pokerbot.strategies.solvers.player import PolicyStrategy
from pokerbot.strategies.solvers.policy import Policy, PolicyDistance, compare, mix
from pokerbot.strategies.solvers.profile import mix_strategies, policy_from_profile, profile_from_policy, uniform_policy
from pokerbot.strategies.solvers.rnr import (
    RestrictedResponse,
    confidence_from_counts,
    data_biased_response,
    mc_restricted_nash_response,
    restricted_nash_response,
)
from pokerbot.strategies.solvers.solve import ALGORITHMS, Checkpoint, SolveResult, make_solver, solve
from pokerbot.strategies.solvers.tree import PublicTree, TreeLimits, build_tree

__all__ = [
    "ALGORITHMS",
    "CFR",
    "DCFR",
    "EQUILIBRIUM_GAMES",
    "CFRPlus",
    "Checkpoint",
    "ExploitabilityReport",
    "ExternalSamplingMCCFR",
    "NoEquilibriumError",
    "OutcomeSamplingMCCFR",
    "Policy",
    "PolicyDistance",
    "PolicyError",
    "PolicyGameMismatchError",
    "PolicyStrategy",
    "PublicTree",
    "RestrictedResponse",
    "SolveResult",
    "Solver",
    "SolverError",
    "TreeLimits",
    "UnsupportedGameError",
    "build_tree",
    "compare",
    "confidence_from_counts",
    "data_biased_response",
    "equilibrium_policy",
    "evaluate",
    "exploitability",
    "has_equilibrium",
    "infoset_key",
    "make_solver",
    "mc_restricted_nash_response",
    "mix",
    "mix_strategies",
    "nash_conv",
    "policy_from_profile",
    "profile_from_policy",
    "restricted_nash_response",
    "solve",
    "uniform_policy",
]
