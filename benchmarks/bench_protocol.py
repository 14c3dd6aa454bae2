"""Protocol-layer throughput: MATCHSTATE lines, legal-action queries, 7-card rankings.

Run: python benchmarks/bench_protocol.py [--repeats 5] [--compare OTHER_CHECKOUT]

Inputs are the reference dealer's transcripts in tests/fixtures/acpc (every TO line of every
game). ``MATCHSTATE`` lines are read two ways: each line parsed alone
(:func:`parse_match_state`, the whole hand replayed), and each seat's lines in order through a
:class:`ClientSession`, as a client reads them (only each line's new actions applied). Rates
are per second of this process's CPU time, the median of the repeats, with the machine's load.

``--compare`` runs the same measurements on another checkout of pokerbot (its ``protocol``,
``models``, ``strategies`` and ``bot`` folders imported in place of this one's) in child
processes, the two checkouts alternated round by round, and prints both side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "acpc"
LINE_FIGURES = ("MATCHSTATE lines, each parsed alone", "MATCHSTATE lines, read by a client session")


def load_streams() -> list[tuple[object, list[str]]]:
    """Each seat's TO lines of each reference transcript, in order, with its game."""
    from pokerbot.protocol.game import parse_game

    streams = []
    for folder in sorted(FIXTURES.iterdir()):
        game = parse_game((folder / "game.txt").read_text())
        seats: dict[str, list[str]] = {}
        for line in (folder / "transcript.txt").read_text().splitlines():
            parts = line.split(" ", 4)
            if parts[0] == "TO":
                seats.setdefault(parts[1], []).append(parts[4])
        streams += [(game, lines) for lines in seats.values()]
    return streams


def rate(function: Callable[[], None], count: int) -> float:
    """Operations per CPU second of ``function()`` doing ``count`` operations."""
    start = time.process_time()
    function()
    return count / (time.process_time() - start)


def line_rates() -> dict[str, float]:
    """One round of the two ``MATCHSTATE`` figures (lines per CPU second)."""
    from pokerbot.protocol.session import ClientSession
    from pokerbot.protocol.wire import parse_match_state

    streams = load_streams()
    count = sum(len(lines) for _, lines in streams)

    def alone() -> None:
        for game, lines in streams:
            for line in lines:
                parse_match_state(line, game)

    def session() -> None:
        for game, lines in streams:
            receive = ClientSession(game).receive
            for line in lines:
                receive(line)

    return {LINE_FIGURES[0]: rate(alone, count), LINE_FIGURES[1]: rate(session, count)}


def other_rates() -> dict[str, float]:
    """One round of legal-action queries and 7-card rankings."""
    from pokerbot.protocol.analysis.ranking import rank_generic, rank_standard
    from pokerbot.protocol.wire import parse_match_state

    live = [
        state
        for game, lines in load_streams()
        for state in (parse_match_state(line, game).state for line in lines)
        if not state.finished
    ]

    def query_all() -> None:
        for state in live:
            state.legal_actions()

    rng = random.Random(7)
    hands = [rng.sample(range(52), 7) for _ in range(200_000)]
    small = hands[:20_000]

    def rank_fast() -> None:
        for hand in hands:
            rank_standard(hand)

    def rank_slow() -> None:
        for hand in small:
            rank_generic(hand)

    return {
        "legal-action queries": rate(query_all, len(live)),
        "7-card rankings, compiled ranker": rate(rank_fast, len(hands)),
        "7-card rankings, generic ranker": rate(rank_slow, len(small)),
    }


def shim(checkout: Path, folder: Path) -> dict[str, str]:
    """An environment importing ``pokerbot.*`` from ``checkout`` (links made in ``folder``)."""
    package = folder / "pokerbot"
    package.mkdir()
    for name in ("protocol", "models", "strategies", "bot"):
        (package / name).symlink_to(checkout.resolve() / name)
    return {**os.environ, "PYTHONPATH": str(folder)}


def child_round(environment: dict[str, str] | None) -> dict[str, float]:
    """One round of the line figures in a child process (``environment``: the other checkout)."""
    output = subprocess.run(
        [sys.executable, __file__, "--child"], env=environment, capture_output=True, text=True, check=True
    ).stdout
    return json.loads(output)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--compare", type=Path, default=None, help="another pokerbot checkout, measured alternately")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(line_rates()))
        return

    load = os.getloadavg()
    if args.compare is None:
        rounds = [{**line_rates(), **other_rates()} for _ in range(args.repeats)]
        medians = {name: statistics.median(r[name] for r in rounds) for name in rounds[0]}
        print(f"{'figure':<46}{'per CPU second (median of ' + str(args.repeats) + ')':>32}")
        for name, value in medians.items():
            print(f"{name:<46}{value:>32,.0f}")
        print(
            f"machine load (1, 5, 15 min) before: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; after: "
            + " ".join(f"{x:.1f}" for x in os.getloadavg())
        )
        return
    with tempfile.TemporaryDirectory() as folder:
        environment = shim(args.compare, Path(folder))
        ours: list[dict[str, float]] = []
        theirs: list[dict[str, float]] = []
        for _ in range(args.repeats):
            ours.append(child_round(None))
            theirs.append(child_round(environment))
    print(f"{'lines per CPU second (median of ' + str(args.repeats) + ')':<46}{'this':>12}{'compared':>12}{'ratio':>8}")
    for name in LINE_FIGURES:
        mine = statistics.median(r[name] for r in ours)
        other = statistics.median(r[name] for r in theirs)
        print(f"{name:<46}{mine:>12,.0f}{other:>12,.0f}{mine / other:>8.2f}")
    new_session = statistics.median(r[LINE_FIGURES[1]] for r in ours)
    old_alone = statistics.median(r[LINE_FIGURES[0]] for r in theirs)
    print(f"this checkout's session over the compared one's lines parsed alone: {new_session / old_alone:.1f}x")
    print(
        f"machine load (1, 5, 15 min) before: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; after: "
        + " ".join(f"{x:.1f}" for x in os.getloadavg())
    )


if __name__ == "__main__":
    main()
