"""ACPC match logs (the dealer's ``MATCHNAME.log``): read, write and check.

A log is ``#`` header lines, one line per hand::

    STATE:<handNumber>:<betting>:<all hole cards and the board>:<value per position>:<names>

and a final ``SCORE:<total per player>:<names>`` in the order the players were named.
Values are chips won per position (real numbers: split pots can be fractional); names say
who sat at each position in that hand, since seats rotate. Parsing replays every hand
through :class:`~protocol.hand.HandState`, with the same legality as the dealer.

Values are spelled as the reference dealer spells them: C's ``%.6f`` with the trailing zeros
and a bare decimal point removed (``40000``, ``1684.5``, ``6666.666667``). The checker compares
values as the reference prints them: a logged value agrees with the computed one when both
have that same spelling (so a more precise logged value agrees too; a ``%g`` value such as
``4.66667`` for ``4.666667`` does not).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pokerbot.protocol.errors import GameDefinitionError, LogFormatError, ProtocolError
from pokerbot.protocol.game import BUILTIN_GAMES, Game, load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.wire import MAX_HAND_NUMBER, format_cards, read_cards, replay_betting


@dataclass(frozen=True, slots=True)
class LoggedHand:
    """One ``STATE`` line: the finished hand with every card, its values and the seating."""

    hand_number: int
    state: HandState
    values: tuple[float, ...]
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LoggedScore:
    """The ``SCORE`` line: each player's total in chips, in the order players were named."""

    totals: tuple[float, ...]
    names: tuple[str, ...]


def format_value(value: float) -> str:
    """A chip value as the reference dealer prints it: ``40000``, ``-1684.5``, ``0.333333``.

    C's ``%.6f`` (correctly rounded, as Python's), then trailing zeros and a bare ``.`` removed.
    """
    return f"{value + 0.0:.6f}".rstrip("0").rstrip(".")


def _values(text: str, what: str) -> tuple[float, ...]:
    values = []
    for item in text.split("|"):
        try:
            value = float(item)
        except ValueError:
            raise LogFormatError(f"{what}: {item[:20]!r} is not a number") from None
        if not math.isfinite(value):
            raise LogFormatError(f"{what}: {item[:20]!r} is not a finite number")
        values.append(value)
    return tuple(values)


def _names(text: str, count: int) -> tuple[str, ...]:
    names = tuple(text.split("|"))
    if len(names) != count or any(not name for name in names):
        raise LogFormatError(f"names: expected {count} non-empty '|'-separated names, got {text[:40]!r}")
    if len(set(names)) != len(names):
        raise LogFormatError(f"names: a player appears twice in {text[:40]!r}")
    return names


def parse_state_line(line: str, game: Game) -> LoggedHand:
    """Parse one ``STATE`` line; raises LogFormatError saying what is wrong."""
    fields = line.rstrip("\r\n").split(":")
    if len(fields) != 6 or fields[0] != "STATE":
        raise LogFormatError("expected STATE:<hand>:<betting>:<cards>:<values>:<names>")
    _, hand_text, betting, cards, values_text, names_text = fields
    if not hand_text.isdigit() or len(hand_text) > 10 or int(hand_text) > MAX_HAND_NUMBER:
        raise LogFormatError(f"hand number: {hand_text[:20]!r} is not a hand number")
    state = HandState(game)
    offset = len("STATE:") + len(hand_text) + 1
    try:
        replay_betting(betting, state, offset)
        if not state.finished:
            raise LogFormatError(f"betting {betting!r} does not finish the hand")
        read_cards(cards, state, None, offset + len(betting) + 1)
    except ProtocolError as error:
        raise LogFormatError(str(error)) from None
    values = _values(values_text, "values")
    if len(values) != game.num_players:
        raise LogFormatError(f"values: {len(values)} given, the game has {game.num_players} players")
    return LoggedHand(int(hand_text), state, values, _names(names_text, game.num_players))


def format_state_line(
    hand_number: int, state: HandState, names: Sequence[str], values: Sequence[float] | None = None
) -> str:
    """The ``STATE`` line of a finished hand whose cards are all known; ``values`` (in chips,
    by position) are computed from ``state`` unless given."""
    values_text = "|".join(format_value(v) for v in (state.values() if values is None else values))
    return f"STATE:{hand_number}:{state.betting_string()}:{format_cards(state, None)}:{values_text}:{'|'.join(names)}"


def parse_score_line(line: str) -> LoggedScore:
    """Parse the ``SCORE`` line; raises LogFormatError."""
    fields = line.rstrip("\r\n").split(":")
    if len(fields) != 3 or fields[0] != "SCORE":
        raise LogFormatError("expected SCORE:<totals>:<names>")
    totals = _values(fields[1], "totals")
    return LoggedScore(totals, _names(fields[2], len(totals)))


def format_score_line(totals: Sequence[float], names: Sequence[str]) -> str:
    """The ``SCORE`` line for ``totals`` in chips, in the order players were named."""
    return f"SCORE:{'|'.join(format_value(v) for v in totals)}:{'|'.join(names)}"


def same_value(logged: float, computed: float) -> bool:
    """True when the reference dealer prints ``logged`` and ``computed`` the same way."""
    return format_value(logged) == format_value(computed)


REFERENCE_GAME_FILES: dict[str, str] = {
    "kuhn.limit.2p.game": "kuhn",
    "kuhn.limit.3p.game": "kuhn3p",
    "leduc.limit.2p.game": "leduc",
    "holdem.limit.2p.reverse_blinds.game": "holdem-limit-2p",
    "holdem.nolimit.2p.reverse_blinds.game": "holdem-nolimit-2p",
    "holdem.limit.3p.game": "holdem-limit-3p",
    "holdem.nolimit.3p.game": "holdem-nolimit-3p",
}
"""The reference dealer's game files (as its log headers name them) that are built-in games."""
HEADER_PREFIX = "# name/game/hands/seed "
TRUNCATED_PREFIX = "# truncated: "
"""The comment line before the ``SCORE`` line of a match stopped before its last hand (a log
of the hands played, valid as such): ``# truncated: WHY``."""


def truncation_line(reason: str) -> str:
    """The log's comment line marking a match stopped early, ``reason`` saying why."""
    return f"{TRUNCATED_PREFIX}{' '.join(reason.split())}"


def game_label_of(header: Sequence[str]) -> str | None:
    """The game a log header names (``# name/game/hands/seed NAME GAME HANDS SEED``), or None."""
    for line in header:
        if line.startswith(HEADER_PREFIX):
            fields = line[len(HEADER_PREFIX) :].split()
            if len(fields) == 4:
                return fields[1]
    return None


def game_from_header(header: Sequence[str], folder: Path | None = None) -> tuple[Game, str]:
    """The game a log's header names, and how it was found; raises GameDefinitionError.

    The label is a built-in game name, one of the reference dealer's game files
    (:data:`REFERENCE_GAME_FILES`), or a game file: looked for as written, then in ``folder``
    (the log's folder).
    """
    label = game_label_of(header)
    if label is None:
        raise GameDefinitionError("the log has no '# name/game/hands/seed' header line naming its game; give --game")
    if label in BUILTIN_GAMES:
        return load_game(label), label
    builtin = REFERENCE_GAME_FILES.get(Path(label).name)
    if builtin is not None:
        return load_game(builtin), builtin
    for candidate in (Path(label), *(() if folder is None else (folder / label, folder / Path(label).name))):
        if candidate.is_file():
            return load_game(str(candidate)), str(candidate)
    raise GameDefinitionError(
        f"the log's header names the game {label!r}, which is no built-in game or file; give --game"
    )


def read_header(lines: Iterable[str]) -> list[str]:
    """The ``#`` lines at the top of a log."""
    header = []
    for line in lines:
        if not line.startswith("#"):
            break
        header.append(line.rstrip("\r\n"))
    return header


@dataclass
class LogReport:
    """What :func:`check_log` found: totals by player and every disagreement."""

    hands: int = 0
    totals: dict[str, float] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    score: LoggedScore | None = None
    header: list[str] = field(default_factory=list)
    stopped_at: int | None = None
    """The line where checking stopped after ``max_problems`` problems (None: read to the end)."""
    truncated: str | None = None
    """Why the match was stopped before its last hand, as its log says (None: not truncated)."""

    @property
    def ok(self) -> bool:
        """True when every line agreed with the rules."""
        return not self.problems


def check_log(lines: Iterable[str], game: Game, max_problems: int = 50) -> LogReport:
    """Replay a log: legality, cards, each value, and the ``SCORE`` against the sums.

    Problems are reported as ``line N: what disagrees``; checking goes on after a problem
    and stops at the ``max_problems``-th (:attr:`LogReport.stopped_at` says where).
    """
    report = LogReport()

    def problem(number: int, message: str) -> None:
        if len(report.problems) < max_problems:
            report.problems.append(f"line {number}: {message}")

    last_number = 0
    for number, raw in enumerate(lines, start=1):
        if len(report.problems) >= max_problems:
            report.stopped_at = number - 1
            return report
        last_number = number
        line = raw.rstrip("\r\n")
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith(TRUNCATED_PREFIX):
                report.truncated = line[len(TRUNCATED_PREFIX) :]
            elif report.hands == 0 and report.score is None:
                report.header.append(line)
            continue
        if report.score is not None:
            problem(number, "content after the SCORE line")
            continue
        if line.startswith("SCORE"):
            try:
                report.score = parse_score_line(line)
            except LogFormatError as error:
                problem(number, str(error))
                continue
            for name, total in zip(report.score.names, report.score.totals):
                computed = report.totals.get(name)
                if computed is None:
                    problem(number, f"SCORE names {name!r}, who played no hand")
                elif not same_value(total, computed):
                    problem(
                        number,
                        f"SCORE gives {name} {format_value(total)}, the hands add up to {format_value(computed)}",
                    )
            for name in report.totals.keys() - set(report.score.names):
                problem(number, f"SCORE leaves out {name!r}")
            continue
        try:
            hand = parse_state_line(line, game)
            computed_values = hand.state.values()
        except LogFormatError as error:
            problem(number, str(error))
            continue
        report.hands += 1
        for position, (logged, computed) in enumerate(zip(hand.values, computed_values)):
            if not same_value(logged, computed):
                problem(
                    number,
                    f"hand {hand.hand_number}: position {position} ({hand.names[position]}) logged "
                    f"{format_value(logged)}, the rules give {format_value(computed)}",
                )
            report.totals[hand.names[position]] = report.totals.get(hand.names[position], 0.0) + computed
    if report.score is None:
        problem(last_number, "no SCORE line")
    return report


@dataclass(frozen=True)
class MatchLog:
    """A whole log: its header lines, every hand in order, and the SCORE line (if any)."""

    header: list[str]
    hands: list[LoggedHand]
    score: LoggedScore | None


def read_log(lines: Iterable[str], game: Game) -> MatchLog:
    """Parse every line of a log; raises LogFormatError naming the first bad line."""
    header: list[str] = []
    hands: list[LoggedHand] = []
    score: LoggedScore | None = None
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        try:
            if not line:
                continue
            if line.startswith("#"):
                if not hands:
                    header.append(line)
            elif line.startswith("SCORE"):
                score = parse_score_line(line)
            else:
                hands.append(parse_state_line(line, game))
        except LogFormatError as error:
            raise LogFormatError(f"line {number}: {error}") from None
    return MatchLog(header, hands, score)


def builtin_name(game: Game) -> str | None:
    """The built-in name of ``game``, if it is one."""
    return next((name for name in BUILTIN_GAMES if load_game(name) == game), None)


def format_log(hands: Sequence[LoggedHand], game_label: str, match_name: str = "match", seed: int = 0) -> list[str]:
    """An ACPC log (without line ends) of ``hands``: header, STATE lines and the SCORE line
    (totals in the order of the first hand's players)."""
    lines = [f"{HEADER_PREFIX}{match_name} {game_label} {len(hands)} {seed}"]
    totals: dict[str, float] = {}
    for hand in hands:
        lines.append(format_state_line(hand.hand_number, hand.state, hand.names))
        for name, value in zip(hand.names, hand.state.values()):
            totals[name] = totals.get(name, 0.0) + value
    if hands:
        names = list(hands[0].names) + sorted(set(totals) - set(hands[0].names))
        lines.append(format_score_line([totals[name] for name in names], names))
    return lines


def log_header(match_name: str, game_label: str, hands: int, seed: int, limits: TimeLimits) -> list[str]:
    """The ``#`` header lines of a match log, exactly as the reference dealer writes them.

    Limits are whole milliseconds there (``#--t_hand 1500000``, never ``1.5e+06``); a
    fractional limit keeps its fraction, spelled as log values are.
    """
    return [
        f"# name/game/hands/seed {match_name} {game_label} {hands} {seed}",
        f"#--t_response {format_value(limits.response_ms)}",
        f"#--t_hand {format_value(limits.hand_ms)}",
        f"#--t_per_hand {format_value(limits.per_hand_ms)}",
    ]
