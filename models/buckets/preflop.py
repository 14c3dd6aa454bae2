"""Pre-flop effective hand strength: all-in equity against one random hand, per hand class.

The 169 classes are pairs, suited and offsuit non-pairs (``AA``, ``AKs``, ``AKo`` ...). A
class's value is the chance that a hand of the class wins (ties half) against a uniformly
random opposing hand over a uniformly random five-card board, card removal included,
estimated from seeded samples (standard error about 0.0004 with 1,500,000 deals per class).
The table ships as ``models/data/preflop_ehs.json``; its generator is
``python -m pokerbot.bot.generators.preflop_ehs`` (about a minute).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

import numpy as np

from pokerbot.models.buckets.evaluator import HAND_CARDS, NUM_HANDS
from pokerbot.protocol.cards import RANK_CHARS

DATA_FILE = "preflop_ehs.json"


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


@cache
def preflop_ehs_table() -> np.ndarray:
    """The shipped pre-flop EHS of each of the 1326 hands (read-only array)."""
    text = resources.files("pokerbot.models").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    by_class = json.loads(text)["equity"]
    table = np.array([by_class[CLASS_NAMES[c]] for c in CLASS_OF_HAND], dtype=np.float64)
    table.setflags(write=False)
    return table


__all__ = ["CLASS_NAMES", "CLASS_OF_HAND", "DATA_FILE", "hand_class", "preflop_ehs_table"]
