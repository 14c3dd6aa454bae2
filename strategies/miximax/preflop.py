"""The pre-flop chart: a data file of actions by position, bet faced and effective stack.

The file (``strategies/data/preflop_chart.json``) is made by
:mod:`pokerbot.bot.generators.preflop_chart` (the method is documented there) and validated
when loaded (:func:`load_chart`): format name and version, the 169 starting-hand classes in
canonical order, increasing buckets, one action string of 169 codes per (position, bet
faced, stack) cell, a 169 x 169 equity matrix (class against class) with values in [0, 1].
Each class's equity against a random hand is not in the file: it is the protocol's pre-flop
table (:func:`pokerbot.protocol.analysis.preflop.preflop_class_equity`), the one the rest of
the package reads.

**Codes** (one per class, in the order of :data:`pokerbot.protocol.analysis.preflop.CLASSES`):
``f`` fold (check when free), ``c`` check or call, ``r`` raise to ``raise_multiple`` times the bet faced, ``a`` all-in.

**Lookup** (:meth:`PreflopChart.action_code`): ``position`` is ``button`` (the player who
acts first pre-flop heads-up) or ``big-blind``; the bet faced is the opponent's chips in,
in big blinds; the effective stack is the smaller stack, in big blinds. Each uses the
smallest bucket at or above the value (the largest bucket above them all).
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from pokerbot.protocol.analysis.preflop import CLASSES, NUM_CLASSES, class_number, preflop_class_equity

CHART_FORMAT = "pokerbot-preflop-chart"
CHART_VERSION = 1
ACTION_CODES = "fcra"
POSITIONS = ("button", "big-blind")
DEFAULT_CHART_PATH = Path(__file__).resolve().parent.parent / "data" / "preflop_chart.json"
"""Where the generator writes the chart (the packaged file, read through importlib.resources)."""


class PreflopChartError(ValueError):
    """The pre-flop chart file is missing, malformed or inconsistent."""


class _ChartFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    format: str
    version: int
    classes: tuple[str, ...]
    equity_matrix: tuple[tuple[float, ...], ...]
    stack_buckets_bb: tuple[float, ...]
    faced_buckets_bb: tuple[float, ...]
    raise_multiple: float
    charts: dict[str, tuple[tuple[str, ...], ...]]

    @field_validator("format")
    @classmethod
    def _format(cls, value: str) -> str:
        if value != CHART_FORMAT:
            raise ValueError(f"not a pre-flop chart (format {value!r})")
        return value

    @field_validator("version")
    @classmethod
    def _version(cls, value: int) -> int:
        if value != CHART_VERSION:
            raise ValueError(f"chart version {value}, this pokerbot reads version {CHART_VERSION}")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> _ChartFile:
        if self.classes != CLASSES:
            raise ValueError("the classes are not the 169 starting-hand classes in canonical order")
        if len(self.equity_matrix) != NUM_CLASSES or any(
            len(row) != NUM_CLASSES or not all(0 <= e <= 1 for e in row) for row in self.equity_matrix
        ):
            raise ValueError("equity_matrix must be 169 x 169 with values in [0, 1]")
        for name, buckets in (("stack", self.stack_buckets_bb), ("faced", self.faced_buckets_bb)):
            if not buckets or any(b <= a for a, b in zip(buckets, buckets[1:])) or buckets[0] <= 0:
                raise ValueError(f"{name} buckets must be positive and increasing")
        if set(self.charts) != set(POSITIONS):
            raise ValueError(f"charts must be given for exactly {POSITIONS}")
        for position, rows in self.charts.items():
            if len(rows) != len(self.faced_buckets_bb) or any(len(r) != len(self.stack_buckets_bb) for r in rows):
                raise ValueError(f"chart {position!r} must have one row per faced bucket, one cell per stack")
            for row in rows:
                for cell in row:
                    if len(cell) != NUM_CLASSES or not set(cell) <= set(ACTION_CODES):
                        raise ValueError(f"chart {position!r}: every cell needs 169 codes from {ACTION_CODES!r}")
        return self


@dataclass(frozen=True)
class PreflopChart:
    """A validated chart (see the module docstring); amounts in big blinds. ``equity_vs_random``
    is each class's equity against a random hand, in :attr:`classes` order (the protocol's table)."""

    classes: tuple[str, ...]
    equity_vs_random: tuple[float, ...]
    equity_matrix: tuple[tuple[float, ...], ...]
    stack_buckets_bb: tuple[float, ...]
    faced_buckets_bb: tuple[float, ...]
    raise_multiple: float
    charts: dict[str, tuple[tuple[str, ...], ...]]

    def index(self, label: str) -> int:
        """The position of class ``label`` in :attr:`classes`."""
        return class_number(label)

    def action_code(self, label: str, position: str, faced_bb: float, stack_bb: float) -> str:
        """The code (``f``, ``c``, ``r`` or ``a``) for class ``label``."""
        if position not in self.charts:
            raise PreflopChartError(f"unknown position {position!r}: expected one of {POSITIONS}")
        row = self.charts[position][_bucket(self.faced_buckets_bb, faced_bb)]
        return row[_bucket(self.stack_buckets_bb, stack_bb)][self.index(label)]

    def equity(self, label: str, against: str | None = None) -> float:
        """All-in pre-flop equity of ``label`` against class ``against`` (or a random hand)."""
        i = self.index(label)
        if against is None:
            return self.equity_vs_random[i]
        return self.equity_matrix[i][self.index(against)]


def _bucket(buckets: Sequence[float], value: float) -> int:
    return min(bisect_left(buckets, value - 1e-9), len(buckets) - 1)


def parse_chart(text: str, source: str = "<chart>") -> PreflopChart:
    """A chart from JSON text; raises :class:`PreflopChartError` saying what is wrong."""
    try:
        data = _ChartFile.model_validate(json.loads(text))
    except (json.JSONDecodeError, ValidationError) as error:
        raise PreflopChartError(f"{source}: {error}") from None
    by_class = preflop_class_equity()
    return PreflopChart(
        data.classes,
        tuple(by_class[label] for label in data.classes),
        data.equity_matrix,
        data.stack_buckets_bb,
        data.faced_buckets_bb,
        data.raise_multiple,
        dict(data.charts),
    )


def load_chart(path: Path | None = None) -> PreflopChart:
    """The chart at ``path``, or the packaged one; raises :class:`PreflopChartError`."""
    try:
        if path is not None:
            return parse_chart(path.read_text(), str(path))
        text = resources.files("pokerbot.strategies").joinpath("data", "preflop_chart.json").read_text()
    except OSError as error:
        raise PreflopChartError(f"the pre-flop chart cannot be read ({error})") from None
    return parse_chart(text, "packaged preflop_chart.json")


__all__ = [
    "ACTION_CODES",
    "CHART_FORMAT",
    "CHART_VERSION",
    "DEFAULT_CHART_PATH",
    "POSITIONS",
    "PreflopChart",
    "PreflopChartError",
    "load_chart",
    "parse_chart",
]
