"""The 169 pre-flop hand classes of hold'em and their equity against a random hand.

The two-card holdings fall into 169 classes: the 13 pairs (``AA``, 6 holdings each), the 78
suited (``AKs``, 4 each) and the 78 offsuit non-pairs (``AKo``, 12 each). :data:`CLASSES`
lists them in the canonical order ``AA AKs AKo AQs AQo ... 32s 32o 22`` (for each high rank
from the ace down: the pair, then suited and offsuit with each lower rank, high to low).

:func:`preflop_class_equity` is each class's all-in equity against one uniformly random
opposing hand over a uniformly random five-card board (ties half, card removal included),
from the shipped table ``protocol/analysis/data/preflop_equity.json``: a seeded Monte Carlo
of 1,500,000 deals per class (standard error about 0.0004), made by
``python -m pokerbot.bot.generators.preflop_equity`` with
:func:`~pokerbot.protocol.analysis.equity.sampled_preflop_equity`. :func:`preflop_equity` is
the same per holding, an array over :data:`~pokerbot.protocol.analysis.holdings.HOLDINGS`:
the pre-flop effective hand strength of the card abstraction.

The class functions are pure Python (numpy is imported only by the per-holding arrays).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import TYPE_CHECKING

from pokerbot.protocol.cards import RANK_CHARS, Card, make_card

if TYPE_CHECKING:
    import numpy as np

NUM_CLASSES = 169
DATA_FILE = "preflop_equity.json"
"""The shipped table, in ``protocol/analysis/data``."""


def _canonical() -> tuple[str, ...]:
    labels: list[str] = []
    for high in range(len(RANK_CHARS) - 1, -1, -1):
        labels.append(RANK_CHARS[high] * 2)
        for low in range(high - 1, -1, -1):
            labels.append(RANK_CHARS[high] + RANK_CHARS[low] + "s")
            labels.append(RANK_CHARS[high] + RANK_CHARS[low] + "o")
    return tuple(labels)


CLASSES = _canonical()
"""The 169 class names in canonical order (module docstring)."""


def hand_class(cards: Sequence[Card]) -> str:
    """The class of two hole cards, e.g. ``AKs``, ``T9o``, ``77`` (high rank first)."""
    if len(cards) != 2 or cards[0] == cards[1]:
        raise ValueError(f"a hand class needs two distinct cards, got {list(cards)}")
    high, low = max(cards[0] >> 2, cards[1] >> 2), min(cards[0] >> 2, cards[1] >> 2)
    if high == low:
        return RANK_CHARS[high] * 2
    return RANK_CHARS[high] + RANK_CHARS[low] + ("s" if cards[0] & 3 == cards[1] & 3 else "o")


def class_combos(label: str) -> tuple[tuple[Card, Card], ...]:
    """Every holding of class ``label`` (6 for a pair, 4 suited, 12 offsuit), as (high card,
    low card) pairs in order of the high card's suit, then the low card's."""
    if label not in _CLASS_NUMBER:
        raise ValueError(f"{label!r} is not a hand class (such as AA, AKs, AKo)")
    high, low = RANK_CHARS.index(label[0]), RANK_CHARS.index(label[1])
    combos = []
    for a in range(4):
        for b in range(4):
            if high == low and b <= a:
                continue
            if len(label) == 3 and (label[2] == "s") != (a == b):
                continue
            combos.append((make_card(high, a), make_card(low, b)))
    return tuple(combos)


def combos_of(label: str) -> int:
    """The number of holdings of class ``label``: 6 for a pair, 4 suited, 12 offsuit."""
    return len(class_combos(label))


_CLASS_NUMBER = {label: number for number, label in enumerate(CLASSES)}


def class_number(label: str) -> int:
    """The position of class ``label`` in :data:`CLASSES`."""
    number = _CLASS_NUMBER.get(label)
    if number is None:
        raise ValueError(f"{label!r} is not a hand class (such as AA, AKs, AKo)")
    return number


@cache
def class_of_holding() -> np.ndarray:
    """The class number (in :data:`CLASSES`) of each of the 1,326 holdings (read-only int64)."""
    import numpy as np

    from pokerbot.protocol.analysis.holdings import HOLDINGS

    numbers = np.array([_CLASS_NUMBER[hand_class((int(a), int(b)))] for a, b in HOLDINGS], dtype=np.int64)
    numbers.setflags(write=False)
    return numbers


@cache
def preflop_class_equity() -> Mapping[str, float]:
    """The shipped equity against a random hand of each class (module docstring), read-only."""
    text = resources.files("pokerbot.protocol.analysis").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    by_class = json.loads(text)["equity"]
    if set(by_class) != set(CLASSES):
        raise ValueError(f"{DATA_FILE} does not give the 169 hand classes")
    return MappingProxyType({label: float(by_class[label]) for label in CLASSES})


@cache
def preflop_equity() -> np.ndarray:
    """:func:`preflop_class_equity` of each of the 1,326 holdings (read-only float64)."""
    import numpy as np

    by_class = preflop_class_equity()
    table = np.array([by_class[CLASSES[c]] for c in class_of_holding()], dtype=np.float64)
    table.setflags(write=False)
    return table


__all__ = [
    "CLASSES",
    "DATA_FILE",
    "NUM_CLASSES",
    "class_combos",
    "class_number",
    "class_of_holding",
    "combos_of",
    "hand_class",
    "preflop_class_equity",
    "preflop_equity",
]
