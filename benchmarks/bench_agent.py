"""Miximax agent: decision time per street and nodes per second; optional duplicate matches.

Run: python benchmarks/bench_agent.py [--game holdem-nolimit-2p] [--hands 40]
     [--budget 0.5] [--opponent always-call] [--match always-call,always-fold,random]
     [--match-hands 200] [--match-budget 0.1] [--match-settings KEY=VALUE,...] [--seed 1]

**Timing**: the agent (default settings but ``time_budget = --budget`` seconds) plays
``--hands`` in-process hands against ``--opponent``; every decision is timed (seconds,
wall clock) and grouped by street (pre-flop decisions use the chart). Reported per street:
decisions, median, p95 and max seconds, and for searched decisions the median depth of
the deepest completed iteration, the share of complete searches and nodes per second
(nodes visited / seconds searched, summed over the street).

**Matches** (``--match``): for each opponent a duplicate in-process match of
``--match-hands`` deals (seed ``--seed``) with the agent's budget ``--match-budget`` and
its other settings changed by ``--match-settings`` (``use_models=false``,
``range_showdowns=0``: the fields of ``AgentSettings``, as ``miximax:SECONDS,KEY=VALUE``);
reported as the agent's mbb/hand with its 95 % confidence interval (per deal, averaged over
the two seatings: :func:`pokerbot.bot.matches.stats.match_stats`). This is the same computation as
``pokerbot match --in-process --duplicate`` once ``miximax`` is registered.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.bot.matches.plan import make_plan, play_plan
from pokerbot.bot.matches.stats import match_stats
from pokerbot.protocol.actions import Action
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy, StrategyInfo, StrategyRegistry
from pokerbot.strategies.miximax.player import AgentSettings, MiximaxAgent, parse_settings
from pokerbot.strategies.registry import default_registry

STREETS = ("pre-flop", "flop", "turn", "river")


class TimedAgent(MiximaxAgent):
    """The agent, recording ``(street, seconds, nodes, depth, complete)`` per decision."""

    def __init__(self, game: Game, seed: int | None, settings: AgentSettings) -> None:
        super().__init__(game, seed, settings)
        self.records: list[tuple[int, float, int, int, bool]] = []
        self.observe_seconds: list[float] = []

    def observe(self, view: MatchState) -> None:
        start = time.perf_counter()
        super().observe(view)
        self.observe_seconds.append(time.perf_counter() - start)

    def decide(self, view: MatchState, deadline: float) -> Action:
        self.last_result = None
        start = time.perf_counter()
        action = super().decide(view, deadline)
        seconds = time.perf_counter() - start
        result = self.last_result
        if result is None:
            self.records.append((view.state.round, seconds, 0, 0, True))
        else:
            self.records.append((view.state.round, seconds, result.nodes, result.depth, result.complete))
        return action


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def timing(game: Game, hands: int, budget: float, opponent: str, seed: int) -> None:
    """Print the per-street timing table."""
    registry = default_registry()
    agent = TimedAgent(game, seed, AgentSettings(time_budget=budget))
    others = [registry.create(opponent, game, seed + seat) for seat in range(1, game.num_players)]
    names = ["miximax", *(f"{opponent}{seat}" for seat in range(1, game.num_players))]
    run_inprocess_match(game, hands, seed, [agent, *others], names)
    by_street: dict[int, list[tuple[int, float, int, int, bool]]] = defaultdict(list)
    for record in agent.records:
        by_street[record[0]].append(record)
    print(f"{game.betting} vs {opponent}, {hands} hands, budget {budget} s")
    print("street    decisions  median_s   p95_s     max_s     depth  complete  nodes/s")
    for street, records in sorted(by_street.items()):
        seconds = [r[1] for r in records]
        searched = [r for r in records if r[2] > 0]
        nodes = sum(r[2] for r in searched)
        spent = sum(r[1] for r in searched)
        depth = statistics.median([r[3] for r in searched]) if searched else 0
        complete = sum(r[4] for r in searched) / len(searched) if searched else 1.0
        rate = nodes / spent if spent else 0.0
        print(
            f"{STREETS[street]:<9} {len(records):>9}  {statistics.median(seconds):8.4f}  {_p95(seconds):8.4f}"
            f"  {max(seconds):8.4f}  {depth:>5}  {complete:8.2f}  {rate:8.0f}"
        )
    if agent.observe_seconds:
        seen = agent.observe_seconds
        print(f"{'observe':<9} {len(seen):>9}  {statistics.median(seen):8.4f}  {_p95(seen):8.4f}  {max(seen):8.4f}")


def matches(
    game: Game, game_name: str, opponents: list[str], hands: int, budget: float, seed: int, changes: str = ""
) -> None:
    """Print the agent's duplicate-match result against each opponent (``changes``: settings
    as ``KEY=VALUE,...``)."""
    built_in = default_registry()
    registry = StrategyRegistry()  # the built-in strategies, "miximax" replaced by this agent
    for name in built_in.names():
        if name != "miximax":
            registry.register(built_in.info(name))
    _, updates = parse_settings(f"{budget},{changes}" if changes else str(budget))
    settings = AgentSettings(time_budget=budget, **updates)

    def factory(game: Game, seed: int | None) -> Strategy:
        return MiximaxAgent(game, seed, settings)

    registry.register(StrategyInfo(name="miximax", factory=factory, summary="bench"))
    for opponent in opponents:
        plan = make_plan(
            game,
            game_name,
            hands,
            seed,
            ["miximax", opponent],
            registry,
            duplicate=True,
            in_process=True,
            match_name=f"bench-miximax-{opponent}",
        )
        start = time.monotonic()
        outcomes = play_plan(plan, registry)
        stats = match_stats([o.per_hand_values for o in outcomes], plan.names, game.big_blind)
        mine = next(s for s in stats if s.name == "miximax")
        print(
            f"miximax vs {opponent}: {mine.mbb_per_hand:+.0f} mbb/hand ± {mine.mbb_ci95:.0f} (95 % CI), "
            f"{hands} deals duplicate, seed {seed}, budget {budget} s{', ' + changes if changes else ''}, "
            f"{time.monotonic() - start:.0f} s"
        )


def main() -> None:
    """Command-line entry."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="holdem-nolimit-2p")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--budget", type=float, default=AgentSettings().time_budget)
    parser.add_argument("--opponent", default="always-call")
    parser.add_argument("--match", default="")
    parser.add_argument("--match-hands", type=int, default=200)
    parser.add_argument("--match-budget", type=float, default=0.1)
    parser.add_argument("--match-settings", default="", help="agent settings for the matches: KEY=VALUE,...")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = load_game(args.game)
    if args.hands > 0:
        timing(game, args.hands, args.budget, args.opponent, args.seed)
    if args.match:
        matches(
            game,
            args.game,
            [o for o in args.match.split(",") if o],
            args.match_hands,
            args.match_budget,
            args.seed,
            args.match_settings,
        )


if __name__ == "__main__":
    main()
