"""The safe hold'em agent (``safe-miximax``): decision time by part and street, and the ledger's path.

Run: python benchmarks/bench_adaptive.py [--game holdem-nolimit-2p] [--opponent random]
     [--hands 200] [--budget 0.05] [--seed 1] [--seconds-per-action S]

The agent (``safe-miximax:BUDGET``) plays ``--hands`` in-process hands against ``--opponent``,
each decision given ``--seconds-per-action`` (the deadline a client would pass; 0.045 is
what a 100 ms response limit leaves); every decision is timed (wall clock, seconds) and
grouped by the part that played the hand (blueprint or exploiter) and by street. Reported
per group: decisions, median, p95 and max seconds. Then every ``observe`` (after each hand:
the ledger's settlement, then each part's learning), timed the same way by the part that
played the hand, with the exploiter's share of it. Then the ledger: hands played by the
exploiter, and the share of the exploiter, the total booked (big blinds) and the
demonstrated winnings (big blinds) every tenth of the match.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.protocol.actions import Action
from pokerbot.protocol.game import load_game
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.registry import default_registry
from pokerbot.strategies.safe.agent import SafeExploiter

STREETS = ("pre-flop", "flop", "turn", "river")


class TimedAdaptive(SafeExploiter):
    """The agent, recording ``(part, street, seconds)`` per decision."""

    records: list[tuple[str, int, float]]
    observations: list[tuple[str, float, float]]
    """(part that played the hand, seconds of the whole observe, seconds of the exploiter's)."""

    def decide(self, view: MatchState, deadline: float) -> Action:
        if not hasattr(self, "records"):
            self.records = []
        part = "exploiter" if self.playing(view) is self.exploiter else "blueprint"
        start = time.perf_counter()
        action = super().decide(view, deadline)
        self.records.append((part, view.state.round, time.perf_counter() - start))
        return action

    def observe(self, view: MatchState) -> None:
        if not hasattr(self, "observations"):
            self.observations = []
        part = "exploiter" if self._parts.get(view.hand_number) is self.exploiter else "blueprint"
        exploiter = self.exploiter
        learning = 0.0

        def timed_observe(seen: MatchState) -> None:
            nonlocal learning
            begun = time.perf_counter()
            type(exploiter).observe(exploiter, seen)
            learning = time.perf_counter() - begun

        exploiter.observe = timed_observe  # type: ignore[method-assign]
        start = time.perf_counter()
        try:
            super().observe(view)
        finally:
            del exploiter.observe
        self.observations.append((part, time.perf_counter() - start, learning))


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def main() -> None:
    """Command-line entry."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="holdem-nolimit-2p")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--budget", default="0.05", help="the exploiter's budget: seconds (0.05) or nodes (500nodes)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--initial", type=float, default=None, help="the ledger's initial stake B0 (big blinds)")
    parser.add_argument(
        "--seconds-per-action", type=float, default=None, help="each decision's deadline (default: the match's)"
    )
    args = parser.parse_args()
    game = load_game(args.game)
    registry = default_registry()
    made = registry.create(f"safe-miximax:{args.budget}", game, args.seed)
    assert isinstance(made, SafeExploiter)
    settings = made.ledger.settings
    if args.initial is not None:
        settings = settings.model_copy(update={"initial": args.initial})
    agent = TimedAdaptive(game, args.seed, blueprint=made.blueprint, exploiter=made.exploiter, settings=settings)
    agent.records, agent.observations = [], []
    opponent = registry.create(args.opponent, game, args.seed + 1)
    started = time.perf_counter()
    timing = {} if args.seconds_per_action is None else {"seconds_per_action": args.seconds_per_action}
    run_inprocess_match(game, args.hands, args.seed, [agent, opponent], ["adaptive", args.opponent], **timing)
    print(
        f"{args.game}: safe-miximax:{args.budget} (initial {settings.initial:g} BB) vs {args.opponent}, "
        f"{args.hands} hands, seed {args.seed}, "
        f"{time.perf_counter() - started:.0f} s"
    )
    groups: dict[tuple[str, int], list[float]] = defaultdict(list)
    for part, street, seconds in agent.records:
        groups[(part, street)].append(seconds)
    print("part       street    decisions  median_s   p95_s     max_s")
    for (part, street), seconds in sorted(groups.items()):
        print(
            f"{part:<10} {STREETS[street]:<9} {len(seconds):>9}  {statistics.median(seconds):8.4f}"
            f"  {_p95(seconds):8.4f}  {max(seconds):8.4f}"
        )
    every = [s for _, _, s in agent.records]
    print(f"all decisions: {len(every)}, p95 {_p95(every):.4f} s, max {max(every):.4f} s")
    print("observe after  hands  median_s   p95_s     max_s  exploiter's share of the max")
    for part in ("blueprint", "exploiter"):
        rows = [(whole, learning) for played, whole, learning in agent.observations if played == part]
        if rows:
            wholes = [whole for whole, _ in rows]
            slowest = max(rows)
            print(
                f"{part:<13} {len(rows):>6}  {statistics.median(wholes):8.4f}  {_p95(wholes):8.4f}  "
                f"{slowest[0]:8.4f}  {slowest[1] / slowest[0]:.2f}"
            )
    big_blind = game.big_blind
    total = 0.0
    print(f"exploiter played {agent.exploited_hands} of {agent.ledger.hands} hands")
    print("hand   share  booked_bb  won_bb")
    step = max(1, len(agent.history) // 10)
    for index, entry in enumerate(agent.history, start=1):
        total += entry.booked
        if index % step == 0:
            print(f"{index:>5}  {entry.share:5.2f}  {total / big_blind:9.1f}  {entry.won / big_blind:6.1f}")


if __name__ == "__main__":
    main()
