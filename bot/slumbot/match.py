"""Play a strategy against Slumbot's API for N hands, into an ACPC log that is the match's state.

:class:`SlumbotMatch` deals hand after hand through a
:class:`~pokerbot.bot.slumbot.connection.SlumbotConnection`, follows each with
:class:`~pokerbot.protocol.slumbot.ClientHand` (every answer checked against the rules), asks
the strategy for each decision (it sees the :class:`~pokerbot.protocol.wire.MatchState` an ACPC
seat would, and observes every finished hand), and writes each finished hand to the log.

The log (:class:`SlumbotLog`) is an ACPC match log: a ``# name/game/hands/seed`` header, a
``# slumbot {...}`` line naming the player and its strategy, one ``STATE`` line per finished
hand (the server's bot named ``slumbot``, every card: the server shows its bot's cards at the
end of every hand), and the ``SCORE`` line once N hands are in. Beside it,
the log's name with the suffix ``.api.jsonl`` keeps each logged hand's figures from the server
(``winnings``, ``baseline_winnings``, the session's counts; never the token). A hand is written
only when it is finished, and flushed at once. The same command run again continues the log up
to N hands: the strategy observes the logged hands again, in order, so that it knows what it
knew, and its randomness is seeded from the log's seed and the hand it resumes at
(:meth:`SlumbotLog.strategy_seed`).

A hand in progress when the match stopped is not in the log and is not resumed: the server
keeps it under a token the client no longer uses (or has lost it), and the next ``new_hand``
deals a fresh one. Likewise a hand is abandoned when an ``act`` got no usable answer (the
server may have played the action: it is not sent twice); more than
:data:`MAX_ABANDONED_IN_A_ROW` abandoned hands in a row stop the match.

Decisions: the strategy gets ``seconds_per_action`` per decision; when it raises, or returns
something illegal, the action is repaired as our dealer repairs it (a no-limit size clamped
into range, anything else a check or call) and counted as a fallback.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from pokerbot.bot.matches.base import strategy_seed
from pokerbot.bot.matches.stats import mean_and_ci95
from pokerbot.bot.slumbot.connection import AnswerLost, SlumbotConnection, SlumbotRequestError
from pokerbot.bot.slumbot.server import BOT_NAME
from pokerbot.protocol.actions import CALL, Action
from pokerbot.protocol.errors import GameDefinitionError, IllegalActionError, LogFormatError
from pokerbot.protocol.game import Game
from pokerbot.protocol.matchlog import (
    HEADER_PREFIX,
    LoggedHand,
    format_score_line,
    format_state_line,
    game_from_header,
    parse_state_line,
)
from pokerbot.protocol.slumbot import SLUMBOT_GAME, ClientHand, HandOver, SlumbotError, Turn
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy

MATCH_NAME = "slumbot"
"""The match name of the log's header."""
INFO_PREFIX = "# slumbot "
MAX_ABANDONED_IN_A_ROW = 3
_SIDECAR_KEYS = (
    "client_pos",
    "action",
    "winnings",
    "won_pot",
    "baseline_winnings",
    "session_num_hands",
    "session_total",
    "session_baseline_total",
)
"""The answer's fields kept in the ``.api.jsonl`` file (never the token)."""


class SlumbotLogError(ValueError):
    """An existing log cannot be continued by this match (the message says why)."""


class SlumbotMatchError(RuntimeError):
    """The match stopped: the server refused a request, could not be reached, or answered
    something that does not fit the rules (the message says which, in which hand)."""


def sidecar_path(log_path: Path) -> Path:
    """The ``.api.jsonl`` file beside ``log_path``."""
    return log_path.with_suffix(".api.jsonl")


def _complete_lines(path: Path) -> list[str]:
    """The complete lines of ``path`` (a torn last line is dropped), without terminators."""
    if not path.exists():
        return []
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    return data[:end].decode("utf-8", errors="replace").splitlines()


def _write_atomically(path: Path, lines: Sequence[str]) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    os.replace(temporary, path)


@dataclass
class SlumbotLog:
    """The match's log and its ``.api.jsonl`` file: read (to resume), appended, finished."""

    path: Path
    game: Game
    player: str
    strategy: str
    hands: int
    """The hands the match is to have."""
    seed: int = 0
    logged: list[LoggedHand] = field(default_factory=list)
    extras: list[dict[str, Any]] = field(default_factory=list)
    """The ``.api.jsonl`` entries of the logged hands, in order."""
    _log: TextIO | None = field(default=None, init=False, repr=False)
    _sidecar: TextIO | None = field(default=None, init=False, repr=False)
    _has_score: bool = field(default=False, init=False, repr=False)

    def strategy_seed(self) -> int:
        """The seed of the player's strategy for this run: the one ``pokerbot match`` gives a
        player of its name in a match of the log's seed when the log is new; when it resumes
        at hand ``k``, another drawn from the same (so a resumed match does not replay the
        randomness of its first hands)."""
        first = len(self.logged)
        return strategy_seed(self.seed, self.player if first == 0 else f"{self.player}/from-{first}")

    @property
    def position_names(self) -> tuple[str, str]:
        """The names of a hand with the player at position 0."""
        return self.player, BOT_NAME

    def open(self, seed: int | None) -> None:
        """Read what the log holds (the match's seed, its hands), make it ready to be continued
        and open both files for appending. ``seed`` (None: the log's, or a new one) must agree
        with the log's. Raises :class:`SlumbotLogError` or OSError."""
        lines = _complete_lines(self.path)
        if lines:
            hands, had_score = self._read(lines, seed)
        else:
            self.seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
            hands, had_score = [], False
        self.logged = hands
        self.hands = max(self.hands, len(hands))
        self._has_score = had_score and len(hands) >= self.hands
        body = [format_state_line(hand.hand_number, hand.state, hand.names) for hand in hands]
        wanted = self._header() + body + ([self._score_line()] if self._has_score else [])
        if lines != wanted:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _write_atomically(self.path, wanted)
        self._open_sidecar()
        self._log = self.path.open("a", encoding="utf-8")

    def _header(self) -> list[str]:
        info = json.dumps({"player": self.player, "strategy": self.strategy}, sort_keys=True)
        return [f"{HEADER_PREFIX}{MATCH_NAME} {SLUMBOT_GAME} {self.hands} {self.seed}", f"{INFO_PREFIX}{info}"]

    def _read(self, lines: list[str], seed: int | None) -> tuple[list[LoggedHand], bool]:
        where = str(self.path)
        header = [line for line in lines if line.startswith("#")]
        try:
            game, label = game_from_header(header, self.path.parent)
        except GameDefinitionError as error:
            raise SlumbotLogError(f"{where}: {error}") from None
        if game != self.game:
            raise SlumbotLogError(f"{where} is a log of {label}, not of {SLUMBOT_GAME}")
        fields = next(line for line in header if line.startswith(HEADER_PREFIX))[len(HEADER_PREFIX) :].split()
        if not fields[3].isdigit():
            raise SlumbotLogError(f"{where}: the header's seed {fields[3]!r} is not a number")
        self.seed = int(fields[3])
        if seed is not None and seed != self.seed:
            raise SlumbotLogError(f"{where} was played with --seed {self.seed}; give that seed, or none")
        info = next((line[len(INFO_PREFIX) :] for line in header if line.startswith(INFO_PREFIX)), None)
        try:
            known = json.loads(info) if info is not None else None
        except json.JSONDecodeError:
            known = None
        if not isinstance(known, dict):
            raise SlumbotLogError(f"{where} is not a log of a match against the API (no '{INFO_PREFIX.strip()}' line)")
        if known.get("player") != self.player or known.get("strategy") != self.strategy:
            raise SlumbotLogError(
                f"{where} holds the hands of {known.get('player')} playing {known.get('strategy')}; "
                f"continue it with the same --name and --strategy, or give another --log"
            )
        hands: list[LoggedHand] = []
        had_score = False
        for number, line in enumerate(lines, start=1):
            if not line or line.startswith("#"):
                continue
            if line.startswith("SCORE"):
                had_score = True
                continue
            try:
                hand = parse_state_line(line, game)
            except LogFormatError as error:
                raise SlumbotLogError(f"{where}, line {number}: {error}") from None
            if hand.hand_number != len(hands) or set(hand.names) != set(self.position_names):
                raise SlumbotLogError(
                    f"{where}, line {number}: expected hand {len(hands)} between {self.player} and {BOT_NAME}"
                )
            hands.append(hand)
        return hands, had_score

    def _open_sidecar(self) -> None:
        path = sidecar_path(self.path)
        extras: list[dict[str, Any]] = []
        lines = _complete_lines(path)
        for line in lines:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(entry, dict) and entry.get("hand") == len(extras) and len(extras) < len(self.logged):
                extras.append(entry)
        kept = [json.dumps(entry, sort_keys=True) for entry in extras]
        if lines != kept:
            _write_atomically(path, kept)
        self.extras = extras
        self._sidecar = path.open("a", encoding="utf-8")

    def write(self, over: HandOver) -> LoggedHand:
        """Log a finished hand (the ``.api.jsonl`` entry first, then the ``STATE`` line)."""
        assert self._log is not None and self._sidecar is not None
        number = len(self.logged)
        names = self.position_names if over.position == 0 else self.position_names[::-1]
        entry = {"hand": number, **{key: over.answer[key] for key in _SIDECAR_KEYS if key in over.answer}}
        self._sidecar.write(json.dumps(entry, sort_keys=True) + "\n")
        self._sidecar.flush()
        self._log.write(format_state_line(number, over.state, names) + "\n")
        self._log.flush()
        hand = LoggedHand(number, over.state, tuple(over.state.values()), names)
        self.logged.append(hand)
        self.extras.append(entry)
        return hand

    def _score_line(self) -> str:
        totals = dict.fromkeys(self.position_names, 0.0)
        for hand in self.logged:
            for name, value in zip(hand.names, hand.values):
                totals[name] += value
        return format_score_line(list(totals.values()), list(totals))

    def finish(self) -> None:
        """Write the ``SCORE`` line when the log holds the match's hands."""
        assert self._log is not None
        if len(self.logged) >= self.hands and not self._has_score:
            self._log.write(self._score_line() + "\n")
            self._log.flush()
            self._has_score = True

    def close(self) -> None:
        """Close both files."""
        for file in (self._log, self._sidecar):
            if file is not None:
                file.close()
        self._log = self._sidecar = None

    def player_values(self) -> list[float]:
        """The player's chips in each logged hand."""
        return [hand.values[hand.names.index(self.player)] for hand in self.logged]

    def baseline_values(self) -> list[float]:
        """Per logged hand with a ``baseline_winnings``, the player's chips minus it."""
        values = self.player_values()
        return [
            values[entry["hand"]] - entry["baseline_winnings"]
            for entry in self.extras
            if isinstance(entry.get("baseline_winnings"), int | float)
        ]


@dataclass
class SlumbotResult:
    """How the match stands: every logged hand's value for the player, what this run did."""

    player: str
    values: list[float]
    baseline: list[float]
    """The player's chips minus ``baseline_winnings``, for the hands the server sent one."""
    played: int = 0
    abandoned: int = 0
    fallbacks: int = 0
    requests: int = 0
    error: str | None = None
    interrupted: bool = False
    """True when the match was interrupted (Ctrl-C)."""

    @property
    def hands(self) -> int:
        """Hands in the log."""
        return len(self.values)

    def summary(self, big_blind: int) -> str:
        """One line: hands, chips, mbb/hand with its 95 % interval (and the baseline's)."""
        total = sum(self.values)
        text = f"{self.player} against {BOT_NAME}: {self.hands} hands, {total:+.0f} chips"
        if self.values:
            text += f", {_rate(self.values, big_blind)}"
        if self.baseline:
            text += f"; against the baseline {_rate(self.baseline, big_blind)} over {len(self.baseline)} hands"
        extras = [f"{count} {what}" for count, what in ((self.abandoned, "abandoned"), (self.fallbacks, "fallbacks"))]
        return text + f" ({self.played} played now, {', '.join(extras)})"


def _rate(values: Sequence[float], big_blind: int) -> str:
    mean, half = mean_and_ci95(values)
    scale = 1000.0 / big_blind
    interval = f" ± {half * scale:.0f}" if half == half else ""
    return f"{mean * scale:+.0f}{interval} mbb/hand"


Notify = Callable[[str], None]


def decide(strategy: Strategy, view: MatchState, seconds: float, notify: Notify) -> tuple[Action, bool]:
    """The strategy's action in ``view``, repaired as our dealer repairs one (a no-limit size
    clamped into range, anything else a check or call); True when it had to be repaired."""
    try:
        action: object = strategy.decide(view, time.monotonic() + seconds)
    except Exception as error:
        notify(f"hand {view.hand_number}: the strategy failed ({error!r}); it checks or calls")
        return CALL, True
    if isinstance(action, Action):
        try:
            played = view.state.clamp(action)
        except IllegalActionError:
            pass
        else:
            return played, played != action
    notify(f"hand {view.hand_number}: the strategy's action {action!r} is illegal; it checks or calls")
    return CALL, True


def replay_logged_hands(strategy: Strategy, log: SlumbotLog) -> None:
    """Show ``strategy`` the final view of every logged hand, in order, as it saw them."""
    if type(strategy).observe is Strategy.observe:
        return
    for hand in log.logged:
        position = hand.names.index(log.player)
        strategy.observe(MatchState(position, hand.hand_number, hand.state.view(position)))


@dataclass
class SlumbotMatch:
    """One match: the strategy, the connection, the log; :meth:`run` plays it to N hands."""

    game: Game
    strategy: Strategy
    connection: SlumbotConnection
    log: SlumbotLog
    user: str | None = None
    password: str | None = None
    seconds_per_action: float = 10.0
    pause: float = 0.0
    """Seconds to wait between hands."""
    notify: Notify = lambda message: None
    sleep: Callable[[float], None] = time.sleep

    def run(self) -> SlumbotResult:
        """Play until the log holds N hands, or the match stops (:attr:`SlumbotResult.error`)."""
        result = SlumbotResult(self.log.player, self.log.player_values(), [])
        try:
            self._play(result)
        except (SlumbotRequestError, SlumbotMatchError) as error:
            result.error = str(error)
        except KeyboardInterrupt:
            result.interrupted = True
            result.error = "interrupted"
        finally:
            result.values = self.log.player_values()
            result.baseline = self.log.baseline_values()
            result.requests = self.connection.requests
        if result.error is None:
            self.log.finish()
        return result

    def _play(self, result: SlumbotResult) -> None:
        token = None
        if self.user is not None:
            try:
                token = self.connection.login(self.user, self.password or "")
            except SlumbotRequestError as error:
                raise SlumbotMatchError(f"cannot log in as {self.user}: {error}") from None
        in_a_row = 0
        while len(self.log.logged) < self.log.hands:
            if self.pause and result.played + result.abandoned:
                self.sleep(self.pause)
            number = len(self.log.logged)
            try:
                answer = self.connection.new_hand(token)
            except SlumbotRequestError as error:
                raise SlumbotMatchError(f"hand {number}: {error}") from None
            token = _token(answer, token)
            hand = ClientHand(self.game, number)
            while True:
                try:
                    step = hand.receive(answer)
                except SlumbotError as error:
                    raise SlumbotMatchError(f"hand {number}: {error}") from None
                if isinstance(step, HandOver):
                    self._finish(step)
                    result.played += 1
                    in_a_row = 0
                    break
                assert isinstance(step, Turn)
                action, repaired = decide(self.strategy, step.view, self.seconds_per_action, self.notify)
                result.fallbacks += repaired
                incr = hand.respond(action)
                try:
                    answer = self.connection.act(token, incr)
                except AnswerLost as error:
                    result.abandoned += 1
                    in_a_row += 1
                    self.notify(f"hand {number} abandoned: {error}")
                    if in_a_row > MAX_ABANDONED_IN_A_ROW:
                        raise SlumbotMatchError(f"{in_a_row} hands in a row abandoned; the last: {error}") from None
                    break
                except SlumbotRequestError as error:
                    raise SlumbotMatchError(
                        f"hand {number}, sending {incr!r} after {hand.last_action!r}: {error}"
                    ) from None
                token = _token(answer, token)

    def _finish(self, over: HandOver) -> None:
        self.log.write(over)
        try:
            self.strategy.observe(over.view)
        except Exception as error:
            self.notify(f"hand {over.hand_number}: the strategy failed observing the hand's end ({error!r})")


def _token(answer: dict[str, Any], token: str | None) -> str | None:
    """The token to use from now on: the answer's, when it carries one (it may change)."""
    new = answer.get("token")
    return new if isinstance(new, str) and new else token


__all__ = [
    "MATCH_NAME",
    "MAX_ABANDONED_IN_A_ROW",
    "SlumbotLog",
    "SlumbotLogError",
    "SlumbotMatch",
    "SlumbotMatchError",
    "SlumbotResult",
    "decide",
    "replay_logged_hands",
    "sidecar_path",
]
