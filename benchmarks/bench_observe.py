"""What a hand's observation costs per strategy: ``observe`` timed after every hand, by part.

Run: python benchmarks/bench_observe.py [--strategy adaptive:10iterations miximax:500nodes ...]
     [--opponent random] [--game holdem-nolimit-2p] [--hands 200] [--seed 1] [--profile N]
     [--compare OTHER_CHECKOUT --repeats 2]

Each strategy plays ``--hands`` in-process hands against ``--opponent`` (the same deals for
every strategy); each ``observe`` (the hand's end: the ledger's booking and every model's
learning) is timed in CPU seconds of this process, and so are its parts where the strategy
has them (``adaptive`` in hold'em: ``value`` the ledger's valuation of the hand, ``learn``
the action model, ``showdown`` the showdown link, ``player`` the re-solver's own). Reported
per strategy: the median, mean, 95th percentile and maximum of a hand's observation and of
each part in milliseconds, and the machine's load. With ``--profile N`` the N functions of
most cumulative time inside ``observe`` (cProfile, its wall-clock times; the decisions left
out). With ``--compare`` each strategy's match is played
``--repeats`` times by this checkout and by the other one, alternating, each in a fresh
process, and the observations of each checkout's matches are pooled.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pokerbot.bot.matches.base import strategy_seed
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.protocol.actions import Action
from pokerbot.protocol.game import load_game
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.registry import default_registry


class Timed(Strategy):
    """Plays as ``inner``; times every ``observe`` (CPU seconds) and, where known, its parts."""

    def __init__(self, inner: Strategy, profile: cProfile.Profile | None) -> None:
        super().__init__(inner.game)
        self.inner = inner
        self.profile = profile
        self.total: list[float] = []
        self.parts: dict[str, list[float]] = defaultdict(list)
        self._wrap_parts()

    def _wrap_parts(self) -> None:
        """Time the parts: the inner strategy's methods, its learner's and model's."""
        inner: Any = self.inner
        targets: list[tuple[str, Any, str]] = []
        if type(inner).__name__ == "ResolvingExploiter":
            targets = [("value", inner, "_value"), ("player", inner.player, "observe")]
            if inner.learner is not None:
                targets.append(("learn", inner.learner, "learn_hand"))
            targets.append(("showdown", inner.model, "learn_showdown"))
        for label, owner, attribute in targets:
            setattr(owner, attribute, self._timer(label, getattr(owner, attribute)))

    def _timer(self, label: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return method(*args, **kwargs)
            finally:
                self.parts[label].append(time.process_time() - start)

        return timed

    def prepare(self) -> None:
        self.inner.prepare()

    def decide(self, view: MatchState, deadline: float) -> Action:
        return self.inner.decide(view, deadline)

    def observe(self, view: MatchState) -> None:
        start = time.process_time()
        if self.profile is not None:
            self.profile.enable()
        try:
            self.inner.observe(view)
        finally:
            if self.profile is not None:
                self.profile.disable()
            self.total.append(time.process_time() - start)


def _ms(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"median {1e3 * statistics.median(values):7.2f}  mean {1e3 * statistics.fmean(values):7.2f}  "
        f"p95 {1e3 * p95:7.2f}  max {1e3 * max(values):7.2f} ms"
    )


def observe_times(name: str, args: argparse.Namespace, profile: cProfile.Profile | None = None) -> dict[str, Any]:
    """Play ``name``'s match in this process: its observations' CPU seconds, whole and by part."""
    game = load_game(args.game)
    registry = default_registry()
    names = ["hero", "opponent"]
    inner = registry.create(name, game, strategy_seed(args.seed, names[0]))
    inner.prepare()
    timed = Timed(inner, profile)
    opponent = registry.create(args.opponent, game, strategy_seed(args.seed, names[1]))
    started = time.perf_counter()
    run_inprocess_match(game, args.hands, args.seed, [timed, opponent], names)
    return {"observe": timed.total, **timed.parts, "seconds": time.perf_counter() - started}


def _shim(checkout: Path, folder: Path) -> dict[str, str]:
    """An environment importing ``pokerbot.*`` from another checkout (its layer folders linked
    in ``folder``, first on PYTHONPATH)."""
    package = folder / "pokerbot"
    package.mkdir(parents=True, exist_ok=True)
    for layer in ("protocol", "models", "strategies", "bot"):
        link = package / layer
        if not link.exists():
            link.symlink_to(checkout.resolve() / layer)
    return {**os.environ, "PYTHONPATH": str(folder)}


def _print(title: str, times: dict[str, Any]) -> None:
    print(f"\n{title}: {len(times['observe'])} observations")
    for label, values in times.items():
        if label != "seconds":
            print(f"  {label:9} {_ms(values)}")


def main() -> None:
    """Command-line entry."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategy", nargs="+", default=["adaptive:10iterations", "miximax:500nodes"])
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--game", default="holdem-nolimit-2p")
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=int, default=0, help="Print the N costliest functions inside observe.")
    parser.add_argument("--compare", type=Path, default=None, help="Another checkout, its matches alternating.")
    parser.add_argument("--repeats", type=int, default=2, help="With --compare: matches of each checkout.")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(observe_times(args.strategy[0], args)))
        return
    print(f"{args.game}, {args.hands} hands against {args.opponent}, seed {args.seed}, load {os.getloadavg()}")
    for name in args.strategy:
        if args.compare is None:
            profile = cProfile.Profile() if args.profile else None
            times = observe_times(name, args, profile)
            _print(f"{name} ({times['seconds']:.0f} s for the match)", times)
            if profile is not None:
                pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)
            continue
        environments = {"this checkout": None, "compared checkout": _shim(args.compare, Path(tempfile.mkdtemp()))}
        pooled: dict[str, dict[str, list[float]]] = {label: defaultdict(list) for label in environments}
        for _ in range(args.repeats):  # the checkouts alternate, one match each
            for label, environment in environments.items():
                command = [sys.executable, __file__, "--child", "--strategy", name, "--opponent", args.opponent]
                command += ["--game", args.game, "--hands", str(args.hands), "--seed", str(args.seed)]
                output = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
                for part, values in json.loads(output.stdout).items():
                    if part != "seconds":
                        pooled[label][part].extend(values)
        for label, times in pooled.items():
            _print(f"{name}, {label} ({args.repeats} matches)", times)
    print(f"load {os.getloadavg()}")


if __name__ == "__main__":
    main()
