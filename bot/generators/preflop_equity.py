"""Generate the pre-flop equity table (``protocol/analysis/data/preflop_equity.json``).

Run ``python -m pokerbot.bot.generators.preflop_equity [--out PATH] [--samples N]``
(deterministic, seed 0). Each of the 169 hand classes' value is the chance that the class's
first holding in card order wins (ties half) against a uniformly random opposing hand over a
uniformly random five-card board, card removal included, estimated from ``--samples`` seeded
deals per class (:func:`pokerbot.protocol.analysis.equity.sampled_preflop_equity`; standard
error about 0.0004 with the default 1,500,000). The classes draw one after the other from one
SplitMix64 generator, in the order their first holding comes in
:data:`~pokerbot.protocol.analysis.holdings.HOLDINGS` (:func:`class_order`); each deal draws
:data:`~pokerbot.protocol.analysis.equity.PREFLOP_DRAWS_PER_DEAL` numbers, so
:func:`class_equity` computes any one class alone, starting where the classes before it
leave the generator. The runtime reads the table through
:func:`pokerbot.protocol.analysis.preflop.preflop_class_equity`; the pre-flop chart
(:mod:`pokerbot.strategies.miximax.preflop`) takes its equities against a random hand from it.
"""

from __future__ import annotations

import argparse
import json
from functools import cache
from pathlib import Path

from pokerbot.protocol.analysis.equity import PREFLOP_DRAWS_PER_DEAL, sampled_preflop_equity
from pokerbot.protocol.analysis.holdings import HOLDINGS
from pokerbot.protocol.analysis.preflop import DATA_FILE, hand_class
from pokerbot.protocol.analysis.splitmix import new_rng
from pokerbot.protocol.cards import Card

DEFAULT_SAMPLES = 1_500_000
SEED = 0
DIGITS = 5
"""Decimals kept in the file."""
COMMAND = "python -m pokerbot.bot.generators.preflop_equity"


@cache
def class_order() -> tuple[tuple[str, Card, Card], ...]:
    """Each class with its first holding (lower card first), in the order of those holdings
    in :data:`~pokerbot.protocol.analysis.holdings.HOLDINGS`: the order the classes draw in."""
    order: dict[str, tuple[Card, Card]] = {}
    for first, second in HOLDINGS:
        order.setdefault(hand_class((int(first), int(second))), (int(first), int(second)))
    return tuple((label, first, second) for label, (first, second) in order.items())


def class_equity(label: str, samples: int = DEFAULT_SAMPLES, seed: int = SEED) -> float:
    """The unrounded equity of class ``label`` (module docstring), as the whole table's run
    computes it."""
    for position, (name, first, second) in enumerate(class_order()):
        if name == label:
            state = new_rng(seed, skip=position * samples * PREFLOP_DRAWS_PER_DEAL)
            return float(sampled_preflop_equity(first, second, samples, state))
    raise ValueError(f"{label!r} is not a hand class (such as AA, AKs, AKo)")


def preflop_equities(samples: int = DEFAULT_SAMPLES, seed: int = SEED) -> dict[str, float]:
    """Class name to equity against a random hand (see the module docstring), unrounded, in
    :func:`class_order`."""
    state = new_rng(seed)
    return {label: float(sampled_preflop_equity(a, b, samples, state)) for label, a, b in class_order()}


def main(argv: list[str] | None = None) -> None:
    """Regenerate the shipped table."""
    default_out = Path(__file__).resolve().parents[2] / "protocol" / "analysis" / "data" / DATA_FILE
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--out", type=Path, default=default_out, help=f"default: {default_out}")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="deals per hand class")
    args = parser.parse_args(argv)
    table = preflop_equities(args.samples)
    document = {
        "what": "pre-flop all-in equity against one random hand, per hand class (ties half)",
        "samples_per_class": args.samples,
        "seed": SEED,
        "command": COMMAND,
        "equity": {name: round(value, DIGITS) for name, value in table.items()},
    }
    args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
