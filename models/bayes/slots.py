"""A flat numbering of an opponent's parameters: one *slot* per (information-set class, action).

A behaviour policy of the opponent is then a vector over slots whose entries sum to 1 in
each class (the classes are the information sets, or suit-free classes of them, see
:func:`protocol.infosets.rank_class`). Slots of one class are contiguous, actions in
``fcr`` order, so per-class sums are one :func:`numpy.add.reduceat`. Many policies at once
are arrays ``[policy, slot]``.

:meth:`SlotIndex.compile` turns a :class:`~models.bayes.records.HandRecord` into index
paths (one row of slots per candidate opponent hand), so the likelihood of a hand under many
policies is a gather and a sum of logs; :class:`RecordBatch` stacks many records (padded
with a sentinel slot of probability 1) for one vectorised pass.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from pokerbot.models.bayes.errors import PriorError, UnknownInfosetError
from pokerbot.models.bayes.records import HandRecord
from pokerbot.protocol.infosets import identity_class

ACTION_ORDER = "fcr"
Table = Mapping[str, Mapping[str, float]]
"""A tabular policy as plain data: information-set key -> {action char: probability}."""
KeyClass = Callable[[str], str]
"""Maps an information-set key to the class whose parameters it shares."""


@dataclass(frozen=True, slots=True)
class CompiledRecord:
    """A hand record as slot paths: ``paths[h, d]`` is the slot of decision ``d`` if the
    opponent held candidate ``h``; ``log_weights[h]`` the log probability of candidate ``h``
    (candidates with the same path are merged)."""

    paths: np.ndarray
    log_weights: np.ndarray
    shown: bool

    @property
    def ambiguous(self) -> bool:
        """True when more than one distinct path is possible (the cards were not seen)."""
        return self.paths.shape[0] > 1


class SlotIndex:
    """Slots of the information-set classes of ``table``'s keys (see the module docstring).

    ``key_class`` maps keys to classes (default: every key its own class); it must be a
    module-level function so the index pickles. Every key of a class must allow the same
    actions.
    """

    def __init__(self, table: Table, key_class: KeyClass = identity_class) -> None:
        if not table:
            raise PriorError("a slot index needs at least one information set")
        self.key_class = key_class
        classes: dict[str, str] = {}
        members: dict[str, list[str]] = {}
        for key, entry in table.items():
            chars = "".join(char for char in ACTION_ORDER if char in entry)
            if not chars or len(chars) != len(entry):
                raise PriorError(f"{key!r}: actions must be among 'f', 'c', 'r', got {sorted(entry)}")
            name = key_class(key)
            if classes.setdefault(name, chars) != chars:
                raise PriorError(f"{key!r}: its class {name!r} mixes action sets {classes[name]!r} and {chars!r}")
            members.setdefault(name, []).append(key)
        self.classes: tuple[str, ...] = tuple(classes)
        self.class_actions: tuple[str, ...] = tuple(classes.values())
        self.members: dict[str, tuple[str, ...]] = {name: tuple(keys) for name, keys in members.items()}
        self.class_index: dict[str, int] = {name: i for i, name in enumerate(self.classes)}
        sizes = np.array([len(chars) for chars in self.class_actions], dtype=np.int64)
        self.class_start = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        self.class_size = sizes
        self.num_slots = int(sizes.sum())
        self.group_of_slot = np.repeat(np.arange(len(sizes)), sizes)
        self.slot_action: tuple[str, ...] = tuple(char for chars in self.class_actions for char in chars)
        self.sentinel = self.num_slots
        """An extra slot index whose probability is 1: pads paths (see :func:`with_sentinel`)."""

    @property
    def num_classes(self) -> int:
        """Information-set classes."""
        return len(self.classes)

    # ------------------------------------------------------------------ lookups
    def slot(self, key: str, action: str) -> int:
        """The slot of ``action`` at information set ``key``; UnknownInfosetError if absent."""
        name = self.key_class(key)
        index = self.class_index.get(name)
        if index is None:
            raise UnknownInfosetError(f"no parameters for information set {key!r} (class {name!r})")
        offset = self.class_actions[index].find(action)
        if offset < 0:
            raise UnknownInfosetError(f"{key!r}: action {action!r} is not among {self.class_actions[index]!r}")
        return int(self.class_start[index]) + offset

    def class_slots(self, key: str) -> tuple[str, slice]:
        """The actions and the slot range of ``key``'s class."""
        name = self.key_class(key)
        index = self.class_index.get(name)
        if index is None:
            raise UnknownInfosetError(f"no parameters for information set {key!r} (class {name!r})")
        start = int(self.class_start[index])
        return self.class_actions[index], slice(start, start + int(self.class_size[index]))

    # ------------------------------------------------------------ conversions
    def normalise(self, values: np.ndarray) -> np.ndarray:
        """``values`` (``[..., slot]``, non-negative) scaled to sum to 1 in every class;
        a class summing to 0 becomes uniform."""
        totals = np.add.reduceat(values, self.class_start, axis=-1)
        totals = np.take(totals, self.group_of_slot, axis=-1)
        uniform = 1.0 / self.class_size[self.group_of_slot]
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(totals > 0.0, values / totals, uniform)

    def from_table(self, table: Table, floor: float = 0.0) -> np.ndarray:
        """The policy vector of ``table``: per class the mean of its member keys' entries
        (keys the table lacks are skipped; a class with none is uniform), each probability
        raised to at least ``floor`` and renormalised."""
        sums = np.zeros(self.num_slots)
        found = np.zeros(self.num_classes)
        for key, entry in table.items():
            index = self.class_index.get(self.key_class(key))
            if index is None:
                continue
            start = int(self.class_start[index])
            for offset, char in enumerate(self.class_actions[index]):
                sums[start + offset] += float(entry.get(char, 0.0))
            found[index] += 1
        counts = found[self.group_of_slot]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(counts > 0, sums / np.maximum(counts, 1), 0.0)
        policy = self.normalise(mean)
        if floor > 0.0:
            policy = self.normalise(np.maximum(policy, floor))
        return policy

    def to_table(self, policy: np.ndarray, keys: Iterable[str] | None = None) -> dict[str, dict[str, float]]:
        """``policy`` as a plain table for every member key (or only ``keys``)."""
        wanted = None if keys is None else set(keys)
        table: dict[str, dict[str, float]] = {}
        for index, name in enumerate(self.classes):
            start = int(self.class_start[index])
            entry = {char: float(policy[start + offset]) for offset, char in enumerate(self.class_actions[index])}
            for key in self.members[name]:
                if wanted is None or key in wanted:
                    table[key] = dict(entry)
        return table

    def entry(self, policy: np.ndarray, key: str) -> dict[str, float]:
        """``policy``'s action probabilities at ``key``."""
        chars, span = self.class_slots(key)
        return {char: float(p) for char, p in zip(chars, policy[span], strict=True)}

    # -------------------------------------------------------------- records
    def compile(self, record: HandRecord) -> CompiledRecord:
        """The slot paths of ``record`` (see :class:`CompiledRecord`)."""
        rows: dict[tuple[int, ...], int] = {}
        for candidate in record.candidates:
            path = tuple(self.slot(candidate + decision.suffix, decision.action) for decision in record.decisions)
            rows[path] = rows.get(path, 0) + 1
        total = sum(rows.values())
        paths = np.array(list(rows), dtype=np.int64).reshape(len(rows), len(record.decisions))
        log_weights = np.log(np.array(list(rows.values()), dtype=np.float64) / total)
        return CompiledRecord(paths, log_weights, record.shown)


def with_sentinel(log_probs: np.ndarray) -> np.ndarray:
    """``log_probs`` (``[..., slot]``) with one more column of 0 (log 1) for the sentinel."""
    pad = np.zeros((*log_probs.shape[:-1], 1))
    return np.concatenate([log_probs, pad], axis=-1)


def safe_log(values: np.ndarray) -> np.ndarray:
    """``log(values)`` with values clipped at 1e-300 (never ``-inf``)."""
    return np.log(np.maximum(values, 1e-300))


def record_log_likelihood(log_probs: np.ndarray, record: CompiledRecord) -> np.ndarray:
    """Log likelihood of ``record`` under each policy of ``log_probs`` (``[M, slot]``), hidden
    cards summed out: ``log sum_h P(h) prod_d p(path[h, d])``. Returns ``[M]``."""
    if record.paths.shape[1] == 0:
        return np.zeros(log_probs.shape[0])
    terms = log_probs[:, record.paths].sum(axis=-1) + record.log_weights
    return _logsumexp(terms, axis=-1)


def _logsumexp(values: np.ndarray, axis: int) -> np.ndarray:
    top = np.max(values, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    return np.squeeze(top, axis=axis) + np.log(np.sum(np.exp(values - top), axis=axis))


class RecordBatch:
    """Many compiled records stacked for one vectorised likelihood pass (padded)."""

    def __init__(self, sentinel: int) -> None:
        self.sentinel = sentinel
        self.records: list[CompiledRecord] = []
        self._stacked: tuple[np.ndarray, np.ndarray] | None = None

    def __len__(self) -> int:
        return len(self.records)

    def append(self, record: CompiledRecord) -> None:
        """Add one record."""
        self.records.append(record)
        self._stacked = None

    def stacked(self) -> tuple[np.ndarray, np.ndarray]:
        """``(paths [F, H, D], log_weights [F, H])``, padded with the sentinel and ``-inf``."""
        if self._stacked is None:
            count = len(self.records)
            hands = max((r.paths.shape[0] for r in self.records), default=1)
            depth = max((r.paths.shape[1] for r in self.records), default=1)
            paths = np.full((count, hands, max(depth, 1)), self.sentinel, dtype=np.int64)
            weights = np.full((count, hands), -np.inf)
            for i, record in enumerate(self.records):
                h, d = record.paths.shape
                paths[i, :h, :d] = record.paths
                weights[i, :h] = record.log_weights
            self._stacked = (paths, weights)
        return self._stacked

    def __getstate__(self) -> dict[str, object]:
        return {"sentinel": self.sentinel, "records": self.records, "_stacked": None}


__all__ = [
    "ACTION_ORDER",
    "CompiledRecord",
    "KeyClass",
    "RecordBatch",
    "SlotIndex",
    "Table",
    "record_log_likelihood",
    "safe_log",
    "with_sentinel",
]
