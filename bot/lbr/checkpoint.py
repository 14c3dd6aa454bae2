"""Resumable LBR runs: each match's progress on disk, so that a run stopped by a crash, a
kill or the end of a session goes on where it stopped (``pokerbot exploitability ... --method
lbr --checkpoint DIR``).

A long LBR run against a search (thousands of hands at seconds per hand) outlives many
sessions. With a checkpoint folder every match of the run (:func:`~pokerbot.bot.lbr.matches.plan_lbr`)
keeps there:

* ``run.json``: what the run is (game, strategy, hands, seed, match length, LBR's settings).
  A second run with the same folder must be the same run, else it stops with one line that
  names the first difference; nothing in the folder is touched. It may ask for more hands:
  the run is extended (its matches go on from where they finished, as if it had been asked
  for that many from the start), never shortened.
* ``match-<i>.pickle``: match ``i`` in progress, written at the end of a hand at most every
  ``seconds`` (default :data:`CHECKPOINT_SECONDS`): LBR's winnings so far and both players as
  they are after that hand (pickled together: LBR keeps the opponent it asks, the opponent
  keeps what it learned). Resuming deals on from the next hand
  (:func:`~pokerbot.bot.matches.inprocess.run_inprocess_match` ``first_hand``), so the finished run is
  the run that was never stopped, hand for hand (a test checks it).
* ``match-<i>.json``: match ``i`` finished (its winnings per hand); a resumed run does not
  play it again. Its pickle stays beside it, so that a longer run can go on with the players
  as they finished.

Files are replaced atomically (written beside, then renamed), so a kill while writing leaves
the previous checkpoint. Pickles run code when loaded: resume only folders you wrote, with
the same version of the code (a changed strategy would play the rest of a match differently).
The folder must be reachable by every worker (one machine, or a shared file system).
"""

from __future__ import annotations

import copyreg
import io
import json
import os
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import eval7

from pokerbot.strategies.exploit.lbr import LbrError

CHECKPOINT_SECONDS = 60.0
"""How often a match in progress is written to its checkpoint (seconds, at the end of a hand)."""
RUN_FILE = "run.json"
EXTENSIBLE = "hands"
"""The one field of ``run.json`` a later run may change, upwards only: it extends the run."""


class LbrCheckpointError(LbrError):
    """A checkpoint folder that cannot be used: another run's, unreadable, or not writable."""


@dataclass
class MatchProgress:
    """A match stopped after ``len(values)`` hands: LBR's winnings per hand so far (chips),
    LBR's illegal actions so far, and the two players (LBR, opponent) as they are after them."""

    values: list[float]
    illegal: int
    players: tuple[Any, Any]


@dataclass(frozen=True)
class LbrCheckpoint:
    """The checkpoint folder of one LBR run (module docstring); picklable, so it travels with
    each match to its worker."""

    directory: str
    seconds: float = CHECKPOINT_SECONDS
    """At most how often a match in progress is written (0: after every hand)."""

    def bind(self, run: dict[str, Any]) -> None:
        """Tie the folder to ``run`` (plain JSON data describing the run): the folder is
        created with ``run.json``, or its ``run.json`` must describe the same run. Raises
        :class:`LbrCheckpointError`."""
        folder = Path(self.directory)
        path = folder / RUN_FILE
        normal = json.loads(json.dumps(run))
        if path.exists():
            try:
                stored = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                raise LbrCheckpointError(f"cannot read the checkpoint {path}: {error}") from None
            for key in sorted(set(stored) | set(normal)):
                if key == EXTENSIBLE and isinstance(stored.get(key), int) and stored[key] < normal.get(key, 0):
                    continue  # a longer run: the matches go on from where they are
                if stored.get(key) != normal.get(key):
                    longer = " (a run can be extended, not shortened)" if key == EXTENSIBLE else ""
                    raise LbrCheckpointError(
                        f"the checkpoint {folder} is of another run: {key} was {stored.get(key)!r}, "
                        f"now {normal.get(key)!r}{longer} (use another --checkpoint folder)"
                    )
            if stored != normal:
                try:
                    _write_atomically(path, (json.dumps(normal, indent=2) + "\n").encode("utf-8"))
                except OSError as error:
                    raise LbrCheckpointError(f"cannot write the checkpoint {path}: {error}") from None
        else:
            try:
                folder.mkdir(parents=True, exist_ok=True)
                _write_atomically(path, (json.dumps(normal, indent=2) + "\n").encode("utf-8"))
            except OSError as error:
                raise LbrCheckpointError(f"cannot write the checkpoint {path}: {error}") from None

    def finished(self, index: int) -> tuple[list[float], int, int] | None:
        """Match ``index`` if it is finished: its values (chips per hand), questions asked,
        illegal actions."""
        path = self._path(index, "json")
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return [float(v) for v in data["values"]], int(data["queries"]), int(data["illegal"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise LbrCheckpointError(f"cannot read the checkpoint {path}: {error}") from None

    def save_finished(
        self, index: int, values: list[float], queries: int, illegal: int, progress: MatchProgress
    ) -> None:
        """Keep finished match ``index``, and its players as they finished (``progress``: a
        longer run goes on from them)."""
        self._write(self._path(index, "pickle"), dumps(progress))
        text = json.dumps({"values": values, "queries": queries, "illegal": illegal})
        self._write(self._path(index, "json"), (text + "\n").encode("utf-8"))

    def progress(self, index: int) -> MatchProgress | None:
        """Match ``index`` in progress, or None where it has not started (or finished)."""
        path = self._path(index, "pickle")
        if not path.exists():
            return None
        try:
            with path.open("rb") as file:
                loaded = pickle.load(file)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError) as error:
            raise LbrCheckpointError(f"cannot read the checkpoint {path}: {error}") from None
        if not isinstance(loaded, MatchProgress):
            raise LbrCheckpointError(f"{path} is not a match in progress")
        return loaded

    def save_progress(self, index: int, progress: MatchProgress) -> None:
        """Keep match ``index`` in progress (replacing the previous one)."""
        self._write(self._path(index, "pickle"), dumps(progress))

    def hands_done(self, matches: int) -> int:
        """Hands of the first ``matches`` matches already played (finished or in progress)."""
        total = 0
        for index in range(matches):
            done = self.finished(index)
            if done is not None:
                total += len(done[0])
            else:
                progress = self.progress(index)
                total += len(progress.values) if progress is not None else 0
        return total

    def _path(self, index: int, suffix: str) -> Path:
        return Path(self.directory) / f"match-{index}.{suffix}"

    def _write(self, path: Path, data: bytes) -> None:
        try:
            _write_atomically(path, data)
        except OSError as error:
            raise LbrCheckpointError(f"cannot write the checkpoint {path}: {error}") from None


def dumps(value: object) -> bytes:
    """``value`` pickled; eval7's cards (which do not pickle themselves) as their text."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    table = copyreg.dispatch_table.copy()
    table[eval7.Card] = _reduce_card
    pickler.dispatch_table = table
    pickler.dump(value)
    return buffer.getvalue()


def _reduce_card(card: eval7.Card) -> tuple[type, tuple[str]]:
    return eval7.Card, (str(card),)


def _write_atomically(path: Path, data: bytes) -> None:
    """``data`` into ``path``: written beside it, then renamed over it."""
    partial = path.with_name(path.name + ".partial")
    with partial.open("wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(partial, path)


__all__ = ["CHECKPOINT_SECONDS", "LbrCheckpoint", "LbrCheckpointError", "MatchProgress", "dumps"]
