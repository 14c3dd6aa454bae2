"""``pokerbot log ...``: check and convert hand histories (ACPC logs, PHH, PokerStars text).

* ``log check FILE``: an ACPC log is replayed through the engine (legality, cards, every
  value, the SCORE line); a PHH file (``.phh``/``.phhs``, or text that reads as PHH) is
  replayed by our engine and by pokerkit, whose payoffs must agree. The game comes from
  ``--game``, else from the log's header or the PHH hands themselves. Checking stops after
  ``--max-errors`` problems, with a count.
* ``log convert FILE --to phh|pokerstars|acpc --out PATH``: an ACPC log to PHH or PokerStars
  text, or a PHH file back to an ACPC log.
* ``log aivat`` (:mod:`~pokerbot.bot.cli.aivat`) and ``log audit`` (:mod:`~pokerbot.bot.cli.audit`):
  a match's variance-reduced winnings, a player's leak report.

Exit status: 0 when everything agrees (or was converted), 1 when a check finds disagreements,
2 when the input cannot be read or the conversion is impossible (the message says where).
"""

from __future__ import annotations

import datetime
from enum import StrEnum
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from pokerbot.bot.cli.aivat import aivat_command
from pokerbot.bot.cli.audit import audit_command
from pokerbot.bot.cli.errors import FAILED, fail
from pokerbot.bot.cli.outputs import OutputFolderError, announce, plural, prepare_output, print_table
from pokerbot.protocol.errors import GameDefinitionError, LogFormatError
from pokerbot.protocol.game import Game, format_game, load_game
from pokerbot.protocol.matchlog import (
    LoggedHand,
    LogReport,
    builtin_name,
    check_log,
    format_log,
    format_value,
    game_from_header,
    read_header,
    read_log,
)
from pokerbot.protocol.phh import (
    PokerbotHandHistory,
    acpc_game_of,
    check_phh,
    dumps_phh,
    hand_to_phh,
    loads_phh,
    looks_like_phh,
    phh_to_hand,
)
from pokerbot.protocol.pokerstars import format_pokerstars_match

log_app = typer.Typer(help="Check and convert hand histories (ACPC logs, PHH, PokerStars).", no_args_is_help=True)
GAME_HELP = "A built-in game name or a game definition file (default: the log's header, or the PHH hands' own)."


class Format(StrEnum):
    """Hand-history formats ``log convert`` writes."""

    phh = "phh"
    pokerstars = "pokerstars"
    acpc = "acpc"


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise fail(f"cannot read {path}: {error.strerror or error}", "LOGFILE") from None


def _is_phh(path: Path, text: str) -> bool:
    return path.suffix in (".phh", ".phhs") or looks_like_phh(text)


def _game(game: str | None, header: list[str], folder: Path) -> tuple[Game, str]:
    """The game from ``--game``, else from the log's header; exits 2 with the reason."""
    try:
        if game is not None:
            definition = load_game(game)
            return definition, builtin_name(definition) or game
        return game_from_header(header, folder)
    except (GameDefinitionError, OSError) as error:
        raise fail(str(error), "--game" if game is not None else "LOGFILE") from None


@log_app.command("check")
def check(
    logfile: Path = typer.Argument(..., help="An ACPC match log (the dealer's MATCHNAME.log) or a PHH file."),
    game: str | None = typer.Option(None, "--game", "-g", help=GAME_HELP),
    max_errors: int = typer.Option(10, "--max-errors", help="Stop checking after this many problems."),
) -> None:
    """Replay every hand of LOGFILE and check it.

    Checks legality, cards, every value and the SCORE line (an ACPC log), or our values
    against pokerkit's payoffs (PHH); prints per-player totals, hands and mbb/hand. Exit 0
    when everything agrees, 1 with the places of the disagreements, 2 when it cannot be read.
    """
    if max_errors < 1:
        raise fail(f"must be at least 1, got {max_errors}", "--max-errors")
    text = _read(logfile)
    if _is_phh(logfile, text):
        try:
            histories = list(loads_phh(text))
            definition = load_game(game) if game is not None else None
        except LogFormatError as error:
            raise fail(str(error), str(logfile)) from None
        except GameDefinitionError as error:
            raise fail(str(error), "--game") from None
        report = check_phh(histories, definition, max_errors)
        played = (definition or _first_game(histories)) if histories else None
    else:
        played, _ = _game(game, read_header(text.splitlines()), logfile.parent)
        report = check_log(text.splitlines(), played, max_errors)
    _print_report(logfile, report, played)


def _first_game(histories: list[PokerbotHandHistory]) -> Game:
    """The game of the first PHH hand (for the big blind of the totals table)."""
    try:
        return acpc_game_of(histories[0])
    except LogFormatError:
        return load_game("holdem-nolimit-2p")


def _print_report(logfile: Path, report: LogReport, game: Game | None) -> None:
    console, errors = Console(), Console(stderr=True)
    big_blind = game.big_blind if game is not None else 1
    stake = "" if game is None else f" ({'ante' if game.has_antes else 'big blind'} {plural(big_blind, 'chip')})"
    table = Table(title=f"{logfile.name}: {plural(report.hands, 'hand')}{stake}")
    table.add_column("player")
    table.add_column("total (chips)", justify="right")
    table.add_column("mbb/hand", justify="right")
    names = list(report.score.names) if report.score else sorted(report.totals)
    for name in names:
        total = report.totals.get(name, 0.0)
        per_hand = 1000.0 * total / big_blind / report.hands if report.hands else 0.0
        table.add_row(name, format_value(total), f"{per_hand:,.0f}")
    print_table(table)
    if report.ok:
        truncated = f" The match was {report.truncated}." if report.truncated else ""
        console.print(f"OK: every hand is legal and every value agrees.{truncated}", markup=False, soft_wrap=True)
        return
    for problem in report.problems:
        errors.print(f"{logfile}: {problem}", markup=False, soft_wrap=True)
    where = f"; checking stopped there (at line or hand {report.stopped_at})" if report.stopped_at else ""
    errors.print(f"{logfile}: {plural(len(report.problems), 'problem')}{where}", markup=False, soft_wrap=True)
    raise typer.Exit(1)


@log_app.command("convert")
def convert(
    logfile: Path = typer.Argument(..., help="An ACPC match log, or a PHH file (to convert back to ACPC)."),
    to: Format = typer.Option(..., "--to", help="phh, pokerstars (hold'em only) or acpc (from PHH)."),
    out: Path = typer.Option(..., "--out", "-o", help="The file to write (.phhs for PHH)."),
    game: str | None = typer.Option(None, "--game", "-g", help=GAME_HELP),
) -> None:
    """Convert LOGFILE's hands to PHH, PokerStars text, or (from PHH) an ACPC log."""
    text = _read(logfile)
    try:
        prepare_output(out)
    except OutputFolderError as error:
        raise fail(str(error), "--out") from None
    try:
        if _is_phh(logfile, text):
            if to is not Format.acpc:
                raise fail(f"{logfile} is PHH already: convert it --to acpc", "--to")
            definition = load_game(game) if game is not None else None
            hands = [phh_to_hand(history, definition, index) for index, history in enumerate(loads_phh(text))]
            written = _write_acpc(hands, out, logfile.stem)
        else:
            if to is Format.acpc:
                raise fail(f"{logfile} is an ACPC log already: convert it --to phh or --to pokerstars", "--to")
            lines = text.splitlines()
            definition, _ = _game(game, read_header(lines), logfile.parent)
            hands = read_log(lines, definition).hands
            event = logfile.stem
            if to is Format.phh:
                content = dumps_phh(hand_to_phh(hand, definition, event=event) for hand in hands)
            else:
                stamp = datetime.datetime.fromtimestamp(logfile.stat().st_mtime)
                content = format_pokerstars_match(hands, definition, table=event, when=stamp)
            out.write_text(content, encoding="utf-8")
            written = [out]
    except LogFormatError as error:
        raise fail(str(error), str(logfile)) from None
    except GameDefinitionError as error:
        raise fail(str(error), "--game") from None
    except OSError as error:
        raise fail(f"cannot write {out}: {error.strerror or error}", "--out", status=FAILED) from None
    typer.echo(f"{plural(len(hands), 'hand')} converted to {to.value}")
    announce(written)


def _write_acpc(hands: list[LoggedHand], out: Path, match_name: str) -> list[Path]:
    """The ACPC log of PHH hands (all of one game); a game that is not built in is written
    next to it as ``<out>.game`` and named in the header."""
    if not hands:
        raise LogFormatError("no hands to convert")
    game = hands[0].state.game
    if any(hand.state.game != game for hand in hands):
        raise LogFormatError("the hands are of different games (stacks or blinds change): one ACPC log has one game")
    label = builtin_name(game)
    written = [out]
    if label is None:
        game_file = out.with_name(out.name + ".game")
        game_file.write_text(format_game(game), encoding="utf-8")
        label = game_file.name
        written.append(game_file)
    out.write_text("\n".join(format_log(hands, label, match_name.replace(" ", "_"))) + "\n", encoding="utf-8")
    return written


log_app.command("aivat")(aivat_command)
log_app.command("audit")(audit_command)
