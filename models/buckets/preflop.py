"""Pre-flop effective hand strength: all-in equity against one random hand, per hand class.

The 169 classes are pairs, suited and offsuit non-pairs (``AA``, ``AKs``, ``AKo`` ...). A
class's value is the chance that a hand of the class wins (ties half) against a uniformly
random opposing hand over a uniformly random five-card board, card removal included,
estimated by :func:`preflop_equities` from seeded samples (standard error about 0.0004
with the default 1,500,000 deals per class). The table ships as
``models/data/preflop_ehs.json``; regenerate it with
``python -m pokerbot.models.buckets.preflop`` (about a minute).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

import numba as nb
import numpy as np

from pokerbot.models.buckets.evaluator import HAND_CARDS, NUM_HANDS, new_rng, next_below, rank_hand
from pokerbot.protocol.cards import RANK_CHARS

DATA_FILE = "preflop_ehs.json"
DEFAULT_SAMPLES = 1_500_000


def hand_class(first: int, second: int) -> str:
    """The class name of two cards, e.g. ``AKs``, ``T9o``, ``77``."""
    high, low = max(first >> 2, second >> 2), min(first >> 2, second >> 2)
    if high == low:
        return RANK_CHARS[high] * 2
    return RANK_CHARS[high] + RANK_CHARS[low] + ("s" if first & 3 == second & 3 else "o")


def _classes() -> tuple[list[str], np.ndarray]:
    names: list[str] = []
    of_hand = np.zeros(NUM_HANDS, dtype=np.int64)
    for h in range(NUM_HANDS):
        name = hand_class(int(HAND_CARDS[h, 0]), int(HAND_CARDS[h, 1]))
        if name not in names:
            names.append(name)
        of_hand[h] = names.index(name)
    return names, of_hand


CLASS_NAMES, CLASS_OF_HAND = _classes()
"""The 169 class names (in order of first appearance) and each hand's class number."""


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


@cache
def preflop_ehs_table() -> np.ndarray:
    """The shipped pre-flop EHS of each of the 1326 hands (read-only array)."""
    text = resources.files("pokerbot.models").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    by_class = json.loads(text)["equity"]
    table = np.array([by_class[CLASS_NAMES[c]] for c in CLASS_OF_HAND], dtype=np.float64)
    table.setflags(write=False)
    return table


def main() -> None:
    """Regenerate the shipped table (``python -m pokerbot.models.buckets.preflop [OUT]``)."""
    import sys
    from pathlib import Path

    table = preflop_equities()
    document = {
        "what": "pre-flop all-in equity against one random hand, per hand class (ties half)",
        "samples_per_class": DEFAULT_SAMPLES,
        "seed": 0,
        "command": "python -m pokerbot.models.buckets.preflop",
        "equity": {name: round(value, 5) for name, value in table.items()},
    }
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "data" / DATA_FILE
    out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()


__all__ = ["CLASS_NAMES", "CLASS_OF_HAND", "hand_class", "preflop_ehs_table", "preflop_equities"]
