"""What a served match sends and writes, event by event.

:class:`DealerOutput` carries out the events of a
:class:`~pokerbot.protocol.dealer_session.DealerSession` for :mod:`pokerbot.bot.dealer.server`: the
lines each seat is sent (seat to act first), the log and the transaction file
(:class:`~pokerbot.bot.dealer.match_files.MatchFiles`), and on standard error the ``TO`` transcript
lines (unless quiet), the time report after every 100th hand, warnings and errors. A failed
write or send ends the match; :attr:`DealerOutput.error` says why.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pokerbot.bot.dealer.config import DealerConfig
from pokerbot.bot.dealer.match_files import MatchFiles
from pokerbot.bot.transports import LineConnection
from pokerbot.protocol.dealer_events import (
    Acted,
    DealerEvent,
    DealerWarning,
    HandLogged,
    MatchAborted,
    MatchFinished,
    Send,
)
from pokerbot.protocol.dealer_session import DealerSession

_SECONDS_REPORT_EVERY = 100
"""The reference dealer prints each seat's time used after every 100th hand."""
_T = TypeVar("_T")


def stamp(wall: float) -> str:
    """A transcript time: unix seconds with six decimals, as the reference prints them."""
    return f"{wall:.6f}"


class DealerOutput:
    """The sending and writing side of one match.

    ``connections`` is the match's list of seat connections (``None`` for a seat not
    connected), filled in by the match as the seats connect; ``on_hand`` gets each hand
    number once its log line is written.
    """

    def __init__(
        self,
        config: DealerConfig,
        session: DealerSession,
        connections: list[LineConnection | None],
        on_hand: Callable[[int], None] | None,
    ) -> None:
        self.config = config
        self.session = session
        self.connections = connections
        self.on_hand = on_hand
        self.files = MatchFiles(config)
        self.error: str | None = None
        """Why the match ended early (a seat's fault or the dealer's), or None."""

    # ------------------------------------------------------------ standard error
    def stderr(self, lines: list[str]) -> None:
        """Write ``lines`` to standard error at once."""
        if lines:
            sys.stderr.write("".join(f"{line}\n" for line in lines))
            sys.stderr.flush()

    def warn(self, message: str) -> None:
        """A warning on standard error (printed even when quiet)."""
        self.stderr([f"WARNING: {message}"])

    def report_error(self, reason: str) -> None:
        """The match ends before it started (``reason``): say so on standard error."""
        self.error = reason
        self.stderr([f"ERROR: {reason}"])

    # ------------------------------------------------------------ events
    async def carry_out(self, events: list[DealerEvent]) -> None:
        """Send, log and report ``events`` in order; a failed send ends the match."""
        sends = self.record(events)
        if sends and self.error is None:
            await self.send(sends)

    def record(self, events: list[DealerEvent]) -> dict[int, list[str]]:
        """Log and report ``events`` in order; the lines they send, by seat."""
        config, session = self.config, self.session
        transcript = not config.quiet
        err: list[str] = []
        sends: dict[int, list[str]] = {}
        for event in events:
            if isinstance(event, Send):
                sends.setdefault(event.seat, []).append(event.line)
                if transcript:
                    err.append(f"TO {event.seat + 1} at {stamp(time.time())} {event.line}")
            elif isinstance(event, Acted):
                self._write(self.files.write_transaction, event, config.transaction_path, err)
            elif isinstance(event, HandLogged):
                self._log_line(event.line, err)
                if transcript and event.hand_number % _SECONDS_REPORT_EVERY == 0:
                    err.extend(
                        f"Seconds cumulatively spent in match for seat {seat}: {int(used)}"
                        for seat, used in enumerate(session.match_seconds)
                    )
                if self.on_hand is not None:
                    try:
                        self.on_hand(event.hand_number)
                    except Exception as error:  # noqa: BLE001 - the caller's code: end the match, say why
                        self._fail(f"the on_hand callback failed: {error!r}", err)
            elif isinstance(event, DealerWarning):
                err.append(f"WARNING: {event.message}")
            elif isinstance(event, MatchFinished):
                for line in event.log_lines:
                    self._log_line(line, err)
            elif isinstance(event, MatchAborted):
                self.error = event.reason
                err.append(f"ERROR: {event.reason}")
        self.stderr(err)
        return sends

    def _log_line(self, line: str, err: list[str]) -> None:
        """Append ``line`` to the log and flush it; a failed write ends the match."""
        self._write(self.files.write_log, line, self.config.log_path, err)

    def _write(self, write: Callable[[_T], None], item: _T, path: Path, err: list[str]) -> None:
        """``write(item)`` to the file at ``path``; a failed write ends the match."""
        if self.error is not None:
            return
        try:
            write(item)
        except OSError as error:
            self._fail(f"cannot write {path}: {error}", err)

    def _fail(self, reason: str, err: list[str]) -> None:
        """End the match for a reason of the dealer's own (not a seat's)."""
        if self.error is None:
            self.session.abort(reason)
            self.error = reason
            err.append(f"ERROR: {reason}")

    # ------------------------------------------------------------ sending
    def _order(self, sends: dict[int, list[str]]) -> list[int]:
        """The seats to write to: the seat to act first (it can think while the others'
        lines are written)."""
        order = list(sends)
        awaiting = self.session.awaiting
        if order[0] != awaiting and awaiting in sends:
            order.remove(awaiting)
            order.insert(0, awaiting)
        return order

    def send_now(self, sends: dict[int, list[str]]) -> dict[int, list[str]]:
        """Write each seat's lines without waiting, while the seats' buffers are small; the
        lines left for :meth:`send` (from the first backlogged seat on). A broken
        connection ends the match."""
        order = self._order(sends)
        for index, seat in enumerate(order):
            connection = self.connections[seat]
            try:
                if connection is None or not connection.send_now(sends[seat]):
                    return {later: sends[later] for later in order[index:]}
            except ConnectionError as error:
                self.record(self.session.disconnect(seat, f"lost the connection ({error})"))
                return {}
        return {}

    async def send(self, sends: dict[int, list[str]]) -> None:
        """Write each seat's lines; a seat that cannot take them in t_response ends the match."""
        order = self._order(sends)
        connections = [self.connections[seat] for seat in order]
        seat = -1
        try:
            # Writing cannot block while every buffer is far below its high-water mark: the
            # timer guarding against a seat that stopped reading is then not needed.
            if not any(c is None or c.backlogged for c in connections):
                for seat, connection in zip(order, connections):
                    assert connection is not None
                    await connection.send_lines(sends[seat])
                return
            async with asyncio.timeout(self.config.limits.response_seconds):
                for seat, connection in zip(order, connections):
                    assert connection is not None
                    await connection.send_lines(sends[seat])
        except (ConnectionError, TimeoutError) as error:
            why = "stopped reading" if isinstance(error, TimeoutError) else f"lost the connection ({error})"
            await self.carry_out(self.session.disconnect(seat, why))


__all__ = ["DealerOutput", "stamp"]
