"""The files a served match keeps: its log and its transaction file, and resuming from them.

``MATCHNAME.log`` gets the header, one ``STATE`` line per hand and the ``SCORE`` line;
``MATCHNAME.tlog`` (with ``transactions``, the reference's ``-T``) one line per action, written
and flushed before the states that follow the action are sent. Every line is flushed at once,
so a dealer killed at any moment loses no finished hand and no action taken.

Resuming (``-T -a`` after a crash, as with the reference dealer): the transaction file is
replayed through :meth:`~pokerbot.protocol.dealer_session.DealerSession.resume` and the match
goes on from the action where it stopped. Unlike the reference, which appends a second header
to the log and loses a hand whose log line was not written yet, the log is continued: a torn
last line is cut, the header is not repeated, and every hand the replay finished that the log
lacks is written. An interrupted match resumed this way ends with the log an uninterrupted
one would have written.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from pokerbot.bot.dealer.config import DealerConfig
from pokerbot.protocol.dealer_events import Acted, HandLogged
from pokerbot.protocol.dealer_session import DealerSession
from pokerbot.protocol.transactions import Transaction, format_transaction, read_transactions


def _complete_lines(path: Path) -> list[str]:
    """The complete lines of ``path`` (a torn last line, the writer killed mid-line, is cut off
    the file too), without terminators; [] when there is no file."""
    if not path.exists():
        return []
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if end < len(data):
        with open(path, "r+b") as file:
            file.truncate(end)
    return data[:end].decode("utf-8", errors="replace").splitlines()


class MatchFiles:
    """The open log and transaction file of one match (either may be off)."""

    def __init__(self, config: DealerConfig) -> None:
        self.config = config
        self.log: TextIO | None = None
        self.transactions: TextIO | None = None
        self.resumed_hands = 0
        """Hands finished by the replayed transaction file."""
        self._wall_offset = 0.0

    def open(self, session: DealerSession) -> None:
        """Open the files (replaying a transaction file into ``session`` when resuming) and
        write what the log lacks. Raises OSError, or TransactionFormatError for a transaction
        file that does not fit this match."""
        config = self.config
        config.output_dir.mkdir(parents=True, exist_ok=True)
        replayed: list[HandLogged] = []
        resuming = config.transactions and config.append_log and config.transaction_path.exists()
        if resuming:
            lines = _complete_lines(config.transaction_path)
            events = session.resume(read_transactions((line + "\n" for line in lines), config.game))
            replayed = [event for event in events if isinstance(event, HandLogged)]
            self.resumed_hands = len(replayed)
        if config.transactions:
            self.transactions = config.transaction_path.open("a" if config.append_log else "w", encoding="utf-8")
        if config.write_log:
            self._open_log(replayed if resuming else None)

    def _open_log(self, replayed: list[HandLogged] | None) -> None:
        """Open the log; when resuming (``replayed`` given) continue this match's part of it."""
        config = self.config
        header = config.log_header()
        logged: set[int] = set()
        has_header = False
        if replayed is not None:
            lines = _complete_lines(config.log_path)
            start = max((i for i, line in enumerate(lines) if line == header[0]), default=-1)
            has_header = start >= 0 and not any(line.startswith("SCORE") for line in lines[start:])
            if has_header:
                logged = {int(line.split(":")[1]) for line in lines[start:] if line.startswith("STATE:")}
        self.log = config.log_path.open("a" if config.append_log else "w", encoding="utf-8")
        if not has_header:
            self.write_log("\n".join(header))
        for event in replayed or []:
            if event.hand_number not in logged:
                self.write_log(event.line)

    def set_clock(self, monotonic_now: float, wall_now: float) -> None:
        """How the session's monotonic seconds map to the wall clock the files record."""
        self._wall_offset = wall_now - monotonic_now

    def write_log(self, line: str) -> None:
        """Append ``line`` to the log and flush it (OSError when it cannot be written)."""
        if self.log is not None:
            self.log.write(line + "\n")
            self.log.flush()

    def write_transaction(self, event: Acted) -> None:
        """Append the action ``event`` to the transaction file and flush it (OSError when it fails)."""
        if self.transactions is None:
            return
        offset = self._wall_offset
        line = format_transaction(
            Transaction(event.action, event.hand_number, event.requested_at + offset, event.acted_at + offset),
            self.config.game,
        )
        self.transactions.write(line + "\n")
        self.transactions.flush()

    def close(self) -> None:
        """Close both files."""
        for file in (self.log, self.transactions):
            if file is not None:
                file.close()
        self.log = self.transactions = None


__all__ = ["MatchFiles"]
