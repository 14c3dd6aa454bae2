"""How far LBR's sampled range queries are from the exact ones, against a search-based strategy.

LBR asks a strategy whose answers cost a search (``miximax``) for at most ``--max-queries``
holdings per range update or fold estimate (:mod:`pokerbot.strategies.exploit.range_query`).
This plays ``--hands`` hands of sampled LBR against the strategy and, at every LBR decision
after the flop, runs a shadow LBR that asks every holding on the same views:

* range: the total variation distance between the sampled and the exact posterior range;
* fold: the absolute error of each bet's fold probability;
* decision: whether the exact LBR would take the same action.

Slow by design (the exact side asks about a thousand searches per question):
``python benchmarks/research/lbr_sampling_error.py --hands 6`` takes tens of minutes. A search under a
time budget is itself noisy (two searches of one spot may disagree); ``--node-budget N``
stops every search of the agent after ``N`` nodes instead, so the comparison measures the
sampling alone.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import numpy as np

from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.protocol.actions import Action
from pokerbot.protocol.game import load_game
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.exploit.lbr import LbrSettings, LocalBestResponse
from pokerbot.strategies.miximax.player import AgentSettings, MiximaxAgent
from pokerbot.strategies.miximax.search import SearchSettings
from pokerbot.strategies.registry import default_registry


class Shadowed(LocalBestResponse):
    """Sampled LBR that compares itself with an exact twin at every decision after the flop."""

    def __init__(self, *args: object, exact: LocalBestResponse, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.exact = exact
        self.range_errors: list[float] = []
        self.fold_errors: list[float] = []
        self.same_decision: list[bool] = []

    def decide(self, view: MatchState, deadline: float) -> Action:
        action = super().decide(view, deadline)
        self.exact.update_range(view)
        if view.state.round == 0:
            return action
        sampled = self.range / self.range.sum()
        exact = self.exact.range / self.exact.range.sum()
        self.range_errors.append(0.5 * float(np.abs(sampled - exact).sum()))
        exact_choices = self.exact.value_actions(view)
        by_action = {c.action: c for c in self.last_choices}
        for choice in exact_choices:
            if choice.action.kind.name == "RAISE" and choice.action in by_action:
                self.fold_errors.append(abs(by_action[choice.action].fold_probability - choice.fold_probability))
        best = max(exact_choices, key=lambda c: c.value)
        if len(exact_choices) > 1:
            self.same_decision.append(best.action == action)
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="holdem-nolimit-2p")
    parser.add_argument("--strategy", default="miximax")
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-queries", type=int, default=LbrSettings().max_queries)
    parser.add_argument("--node-budget", type=int, default=None, help="miximax: nodes per search, no clock")
    args = parser.parse_args()
    game = load_game(args.game)
    registry = default_registry()
    errors: dict[str, list[float]] = {"range": [], "fold": []}
    same: list[bool] = []
    start = time.monotonic()
    for seating in (0, 1):
        opponent: Strategy = registry.create(args.strategy, game, args.seed)
        if args.node_budget is not None:
            learn = args.strategy.startswith("miximax") and not args.strategy.startswith("miximax-static")
            search = SearchSettings(node_budget=args.node_budget)
            opponent = MiximaxAgent(game, args.seed, AgentSettings(time_budget=60.0, learn=learn, search=search))
        exact = LocalBestResponse(game, args.seed, opponent, LbrSettings(exact_queries=True))
        lbr = Shadowed(game, args.seed, opponent, LbrSettings(max_queries=args.max_queries), exact=exact)
        players, names = [lbr, opponent], ["lbr", "opponent"]
        if seating:
            players, names = players[::-1], names[::-1]
        run_inprocess_match(game, math.ceil(args.hands / 2), args.seed, players, names, seconds_per_action=60.0)
        errors["range"] += lbr.range_errors
        errors["fold"] += lbr.fold_errors
        same += lbr.same_decision
    budget = f", {args.node_budget} nodes per search" if args.node_budget else ""
    print(
        f"{args.strategy} in {args.game}, {args.hands} hands, max_queries {args.max_queries}, seed {args.seed}{budget}"
    )
    for name, values in errors.items():
        if values:
            print(
                f"{name}: {len(values)} comparisons, median {statistics.median(values):.4f}, "
                f"mean {statistics.fmean(values):.4f}, max {max(values):.4f}"
            )
    if same:
        print(f"same decision as the exact LBR: {sum(same)} of {len(same)} decisions with a choice")
    print(f"{time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
