"""Generate the pre-flop EHS table (``models/data/preflop_ehs.json``).

Run ``python -m pokerbot.bot.generators.preflop_ehs [--out PATH] [--samples N]`` (about
a minute on one core; deterministic, seed 0). Each of the 169 hand classes' value is the
chance that the class's first hand in card order wins (ties half) against a uniformly random
opposing hand over a uniformly random five-card board, card removal included, estimated from
``--samples`` seeded deals per class (standard error about 0.0004 with the default
1,500,000). The runtime reads the table through
:func:`pokerbot.models.buckets.preflop.preflop_ehs_table`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numba as nb
import numpy as np

from pokerbot.models.buckets.evaluator import HAND_CARDS, new_rng, next_below, rank_hand
from pokerbot.models.buckets.preflop import CLASS_NAMES, CLASS_OF_HAND, DATA_FILE

DEFAULT_SAMPLES = 1_500_000
COMMAND = "python -m pokerbot.bot.generators.preflop_ehs"


@nb.njit(cache=True)
def _equity(first: int, second: int, samples: int, state: np.ndarray) -> float:
    deck = np.empty(50, dtype=np.int64)
    n = 0
    for card in range(52):
        if card != first and card != second:
            deck[n] = card
            n += 1
    mine = np.empty(7, dtype=np.int64)
    theirs = np.empty(7, dtype=np.int64)
    mine[0], mine[1] = first, second
    score = 0.0
    for _ in range(samples):
        for i in range(7):  # partial Fisher-Yates: 5 board cards, then 2 opponent cards
            j = i + next_below(state, 50 - i)
            deck[i], deck[j] = deck[j], deck[i]
        for i in range(5):
            mine[2 + i] = deck[i]
            theirs[2 + i] = deck[i]
        theirs[0], theirs[1] = deck[5], deck[6]
        a = rank_hand(mine, 7)
        b = rank_hand(theirs, 7)
        score += 1.0 if a > b else 0.5 if a == b else 0.0
    return score / samples


def preflop_equities(samples: int = DEFAULT_SAMPLES, seed: int = 0) -> dict[str, float]:
    """Class name to equity against a random hand (see the module docstring)."""
    state = new_rng(seed)
    table: dict[str, float] = {}
    for number, name in enumerate(CLASS_NAMES):
        hand = int(np.flatnonzero(CLASS_OF_HAND == number)[0])
        table[name] = _equity(int(HAND_CARDS[hand, 0]), int(HAND_CARDS[hand, 1]), samples, state)
    return table


def main() -> None:
    """Regenerate the shipped table."""
    default_out = Path(__file__).resolve().parents[2] / "models" / "data" / DATA_FILE
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
