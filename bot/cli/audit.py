"""``pokerbot log audit``: a leak report of a player's decisions in a heads-up ACPC log.

The log is read whole, its game from ``--game`` or else from its header; ``--seat`` names the
player to audit (its name in the log, or 1 and 2 for the players in the order the SCORE line
names them; default: each in turn). For each player: the decisions by kind and round with
counts per 1,000 hands, the leak checks with the hands that fail them, and the hands
themselves (every one that fails a check, and the ``--show`` largest of each kind of bet,
all-in, call of an all-in and fold) with their sizes, stack-to-pot ratios, prices and
equities (:mod:`pokerbot.protocol.audit` defines them all). ``--json F`` writes every figure
and every decision but the checks and plain calls (``--json -`` prints it, the tables going to
standard error).

Exit status: 0, 2 on bad usage, an unreadable log or a game other than heads-up.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from pokerbot.bot.cli.aivat import AivatInputError, read_match_log
from pokerbot.bot.cli.errors import fail
from pokerbot.bot.cli.outputs import OutputFolderError, plural, prepare_output, print_table, write_json_report
from pokerbot.protocol.cards import cards_to_string
from pokerbot.protocol.errors import GameDefinitionError

if TYPE_CHECKING:
    from rich.table import Table

    from pokerbot.protocol.audit import Audit, Check, Decision
    from pokerbot.protocol.matchlog import LoggedHand

HOLDEM_ROUNDS = ("pre-flop", "flop", "turn", "river")
SHOWN_CHECK_HANDS = 20
"""Hand numbers a check's row of the table names (all of them are in the hands table and the JSON)."""


def round_names(num_rounds: int) -> list[str]:
    """Column names of a game's rounds: pre-flop, flop, turn, river (the first ones of them)."""
    return list(HOLDEM_ROUNDS[:num_rounds]) if num_rounds <= 4 else [f"round {r + 1}" for r in range(num_rounds)]


def audit_command(
    logfile: Path = typer.Argument(..., help="A heads-up ACPC match log (the dealer's MATCHNAME.log)."),
    seat: str | None = typer.Option(
        None,
        "--seat",
        help="The player to audit: its name in the log, or 1/2 in the SCORE line's order (default: each).",
    ),
    game: str | None = typer.Option(
        None, "--game", "-g", help="A built-in game name or a game definition file (default: the log header's)."
    ),
    show: int = typer.Option(3, "--show", help="Hands listed for each kind of bet, all-in, all-in call and fold."),
    json_out: str | None = typer.Option(
        None, "--json", help="Write every figure and decision to this file (- prints)."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """A leak report of a player's decisions: by kind per 1,000 hands, leak checks, the hands."""
    from pokerbot.protocol.audit import AuditError

    if show < 0:
        raise fail(f"must not be negative, got {show}", "--show")
    if json_out is not None and json_out != "-":
        try:
            prepare_output(Path(json_out))
        except OutputFolderError as error:
            raise fail(str(error), "--json") from None
    try:
        log, definition = read_match_log(logfile, game)
    except (AivatInputError, GameDefinitionError) as error:
        raise fail(str(error)) from None
    chosen = list(log.seats) if seat is None else [_player(seat, log.seats)]
    try:
        audits = _audits(log.hands, chosen, quiet)
    except AuditError as error:
        raise fail(str(error), str(logfile)) from None
    rounds = round_names(definition.num_rounds)
    for result in audits:  # with --json -, standard output is the JSON's alone
        print_report(logfile.name, result, rounds, show, err=json_out == "-")
    if json_out is not None:
        write_json_report({"log": str(logfile), "players": [audit_json(result, rounds) for result in audits]}, json_out)


def _audits(hands: Sequence[LoggedHand], chosen: Sequence[str], quiet: bool) -> list[Audit]:
    """The audit of each chosen player, with a progress bar on standard error."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

    from pokerbot.bot.cli.progress import LoggedProgress
    from pokerbot.protocol.audit import audit

    columns = (TextColumn("[bold]audit"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with LoggedProgress(*columns, console=Console(stderr=True), transient=True, disable=quiet) as progress:
        task = progress.add_task("hands", total=len(hands) * len(chosen))
        return [audit(hands, player, lambda: progress.advance(task)) for player in chosen]


def _player(seat: str, seats: Sequence[str]) -> str:
    """The player ``--seat`` names: a player's name, or its 1-based place among ``seats``."""
    if seat in seats:
        return seat
    if seat.isdigit() and 1 <= int(seat) <= len(seats):
        return seats[int(seat) - 1]
    raise fail(f"{seat!r} is neither a player of the log ({', '.join(seats)}) nor 1..{len(seats)}", "--seat")


def print_report(name: str, result: Audit, rounds: Sequence[str], show: int, *, err: bool = False) -> None:
    """The three tables of one player's audit on standard output (standard error with ``err``)."""
    print_table(counts_table(name, result, rounds), err=err)
    print_table(checks_table(result), err=err)
    listed = listed_decisions(result, show)
    if listed:
        print_table(hands_table(result, listed, rounds), err=err)


def counts_table(name: str, result: Audit, rounds: Sequence[str]) -> Table:
    """Decisions by row and round, with the total and its rate per 1,000 hands."""
    from rich.table import Table

    big_blind = plural(result.big_blind, "chip")
    table = Table(title=f"{name}: {result.player}'s decisions, {plural(result.hands, 'hand')} (big blind {big_blind})")
    table.add_column("decision")
    for column in (*rounds, "total", "per 1,000 hands"):
        table.add_column(column, justify="right")
    for row, by_round in result.counts().items():
        total = sum(by_round)
        table.add_row(row, *(str(count) for count in by_round), str(total), f"{result.per_thousand(total):.1f}")
    table.caption = "size: raise-by over the pot after the call; SPR: effective stack behind over the pot"
    return table


def checks_table(result: Audit) -> Table:
    """Each leak check: how many decisions fail it, per 1,000 hands, and in which hands."""
    from rich.table import Table

    from pokerbot.protocol.audit import CHECKS

    table = Table(title=f"{result.player}: leak checks")
    for column in ("check", "what it counts", "count", "per 1,000 hands", "hands"):
        table.add_column(column, justify="right" if column in ("count", "per 1,000 hands") else "left")
    for check in CHECKS:
        failing = result.failing(check)
        numbers = [str(decision.hand_number) for decision in failing[:SHOWN_CHECK_HANDS]]
        more = len(failing) - len(numbers)
        table.add_row(
            check.name,
            check.description,
            str(len(failing)),
            f"{result.per_thousand(len(failing)):.1f}",
            " ".join(numbers) + (f" (+{more})" if more > 0 else ""),
        )
    return table


def _severity(decision: Decision) -> float:
    """How much a decision stands out in its row: the biggest bets, the deepest all-ins, the
    calls of all-ins furthest below their price, the folds furthest above theirs."""
    from pokerbot.protocol.audit import Kind

    if decision.kind is Kind.BET:
        return decision.size or 0.0
    if decision.kind is Kind.ALL_IN:
        return float("inf") if decision.spr is None else decision.spr
    equity = decision.equity_shown_shoves if decision.equity_shown_shoves is not None else decision.equity_opponent
    if equity is None or decision.price is None:
        return float("-inf")
    return decision.price - equity if decision.kind is Kind.CALL_ALL_IN else equity - decision.price


def listed_decisions(result: Audit, show: int) -> list[Decision]:
    """Every decision that fails a check, then the ``show`` most striking of each row of
    bets, all-ins, calls of all-ins and folds (:func:`_severity`), in the log's order."""
    from pokerbot.protocol.audit import CHECKS, Kind

    listed = {id(d): d for check in CHECKS for d in result.failing(check)}
    by_row: dict[str, list[Decision]] = {}
    for decision in result.decisions:
        if decision.kind not in (Kind.CHECK, Kind.CALL):
            by_row.setdefault(decision.row(), []).append(decision)
    for decisions in by_row.values():
        for decision in sorted(decisions, key=_severity, reverse=True)[:show]:
            listed[id(decision)] = decision
    order = {id(d): index for index, d in enumerate(result.decisions)}
    return sorted(listed.values(), key=lambda d: order[id(d)])


def _number(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def _cards(cards: Sequence[int] | None) -> str:
    return "-" if cards is None else cards_to_string(cards) or "-"


def hands_table(result: Audit, decisions: Sequence[Decision], rounds: Sequence[str]) -> Table:
    """One row per decision: its hand, cards, pot, call, price, size, SPR, equities, result."""
    from rich.table import Table

    from pokerbot.protocol.audit import CHECKS

    big_blind = result.big_blind
    table = Table(title=f"{result.player}: the hands")
    left = ("decision", "cards", "board", "their cards", "shown", "checks failed")
    columns = (
        *("hand", "round", "decision", "cards", "board", "their cards", "pot (bb)", "call (bb)", "price"),
        *("size (pots)", "SPR", "eq. random", "eq. theirs", "eq. shoves", "shown", "won (bb)", "checks failed"),
    )
    for column in columns:
        table.add_column(column, justify="left" if column in left else "right")
    for d in decisions:
        failed = [check.name for check in CHECKS if check.fails(d, big_blind)]
        shoves = f"{_number(d.equity_shown_shoves)} ({d.shown_shoves})" if d.shown_shoves else "-"
        table.add_row(
            str(d.hand_number),
            rounds[d.round],
            d.row(),
            _cards(d.hole),
            _cards(d.board),
            _cards(d.opponent_hole),
            _number(d.pot / big_blind, 1),
            _number(d.to_call / big_blind, 1) if d.to_call else "-",
            _number(d.price),
            _number(d.size),
            _number(d.spr, 1),
            _number(d.equity_random),
            _number(d.equity_opponent),
            shoves,
            "yes" if d.showdown else "no",
            _number(d.won / big_blind, 1),
            " ".join(failed) or "-",
        )
    table.caption = "eq.: equity against a random holding, the opponent's cards, its shown pre-flop all-ins (count)"
    return table


def decision_json(decision: Decision, rounds: Sequence[str], checks: Sequence[Check], big_blind: int) -> dict[str, Any]:
    """One decision's figures (chips as in the log, equities in [0, 1])."""
    return {
        "hand": decision.hand_number,
        "round": rounds[decision.round],
        "kind": decision.kind.value,
        "row": decision.row(),
        "cards": _cards(decision.hole),
        "board": cards_to_string(decision.board),
        "their_cards": _cards(decision.opponent_hole),
        "pot": decision.pot,
        "to_call": decision.to_call,
        "raise_to": decision.raise_to,
        "stake": decision.stake,
        "price": decision.price,
        "size_pots": decision.size,
        "spr": decision.spr,
        "equity_random": decision.equity_random,
        "equity_opponent": decision.equity_opponent,
        "equity_shown_shoves": decision.equity_shown_shoves,
        "shown_shoves": decision.shown_shoves,
        "showdown": decision.showdown,
        "won": decision.won,
        "checks_failed": [check.name for check in checks if check.fails(decision, big_blind)],
    }


def audit_json(result: Audit, rounds: Sequence[str]) -> dict[str, Any]:
    """One player's audit as JSON: counts, checks and every decision but checks and plain calls."""
    from pokerbot.protocol.audit import CHECKS, Kind

    counts = {
        row: {**dict(zip(rounds, by_round)), "total": sum(by_round), "per_1000": result.per_thousand(sum(by_round))}
        for row, by_round in result.counts().items()
    }
    checks = {}
    for check in CHECKS:
        failing = result.failing(check)
        checks[check.name] = {
            "description": check.description,
            "count": len(failing),
            "per_1000": result.per_thousand(len(failing)),
            "hands": [decision.hand_number for decision in failing],
        }
    decisions = [
        decision_json(d, rounds, CHECKS, result.big_blind)
        for d in result.decisions
        if d.kind not in (Kind.CHECK, Kind.CALL)
    ]
    return {
        "player": result.player,
        "hands": result.hands,
        "big_blind": result.big_blind,
        "counts": counts,
        "checks": checks,
        "decisions": decisions,
    }


__all__ = ["audit_command", "audit_json", "round_names"]
