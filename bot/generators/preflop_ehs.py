"""Generate the pre-flop equity table (``protocol/analysis/data/preflop_equity.json``).

Run ``python -m pokerbot.bot.generators.preflop_ehs [--out PATH] [--samples N]``
(deterministic, seed 0). Each of the 169 hand classes' value is the chance that the class's
first holding in card order wins (ties half) against a uniformly random opposing hand over a
uniformly random five-card board, card removal included, estimated from ``--samples`` seeded
deals per class (:func:`pokerbot.protocol.analysis.equity.sampled_preflop_equity`; standard
error about 0.0004 with the default 1,500,000). The classes draw one after the other from one
generator, in the order their first holding comes in
:data:`~pokerbot.protocol.analysis.holdings.HOLDINGS`. The runtime reads the table through
:func:`pokerbot.protocol.analysis.preflop.preflop_class_equity`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pokerbot.protocol.analysis.equity import sampled_preflop_equity
from pokerbot.protocol.analysis.holdings import HOLDINGS
from pokerbot.protocol.analysis.preflop import DATA_FILE, hand_class
from pokerbot.protocol.analysis.splitmix import new_rng

DEFAULT_SAMPLES = 1_500_000
COMMAND = "python -m pokerbot.bot.generators.preflop_ehs"


def preflop_equities(samples: int = DEFAULT_SAMPLES, seed: int = 0) -> dict[str, float]:
    """Class name to equity against a random hand (see the module docstring)."""
    state = new_rng(seed)
    table: dict[str, float] = {}
    for first, second in HOLDINGS:
        name = hand_class((int(first), int(second)))
        if name not in table:
            table[name] = sampled_preflop_equity(int(first), int(second), samples, state)
    return table


def main() -> None:
    """Regenerate the shipped table."""
    default_out = Path(__file__).resolve().parents[2] / "protocol" / "analysis" / "data" / DATA_FILE
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--out", type=Path, default=default_out, help=f"default: {default_out}")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="deals per hand class")
    args = parser.parse_args()
    table = preflop_equities(args.samples)
    document = {
        "what": "pre-flop all-in equity against one random hand, per hand class (ties half)",
        "samples_per_class": args.samples,
        "seed": 0,
        "command": COMMAND,
        "equity": {name: round(value, 5) for name, value in table.items()},
    }
    args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
