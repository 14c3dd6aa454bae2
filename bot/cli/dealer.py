"""``pokerbot dealer``: the reference dealer's command line.

    pokerbot dealer MATCHNAME GAME HANDS SEED NAME1 NAME2 ... [options]

GAME is a built-in game name or a game definition file. Reference options: ``-f`` fixed
seats, ``-p port1,port2,...`` (0 = any free port), ``-q`` quiet (no TO/FROM transcript),
``-l``/``-L`` log file off/on, ``-t``/``-T`` transaction file ``MATCHNAME.tlog`` off/on, ``-a``
append to the log (with ``-T``: resume the match from its transaction file, losing no
finished hand), ``--t_response ms``, ``--t_hand ms``, ``--t_per_hand ms``,
``--start_timeout ms``. Additions: ``--host`` (default 127.0.0.1),
``--transport NAME`` (the seats' transport: ``tcp``, the default, or ``ws``; ``--ws`` is
short for ``--transport ws``), ``--token T`` (WebSocket clients must present it as
``Authorization: Bearer T`` or ``?token=T``), ``--max-invalid N`` (a seat's N+1-th invalid
action ends the match), ``--out DIR`` (where MATCHNAME.log goes), ``--bots NAME=STRATEGY,...``
(the dealer plays those seats itself, each strategy a client in this process, and prints only
the other seats' ports).

Standard output: the seat ports, space separated, as the first line; the SCORE line at the
end. Standard error, as the reference: the log header (even with ``-q``), the transcript, and
the SCORE line again; before the match, each seat as it connects (unless ``-q``). Exit
status: 0 after a complete match, 1 when the match broke off (the
error is on standard error, the log keeps every finished hand), 2 on bad usage, 128 + the
signal when SIGINT (130) or SIGTERM (143) stopped it (one line on standard error, nobody
blamed).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from pokerbot.bot.cli.errors import BAD_INPUT, FAILED, locate, print_error
from pokerbot.bot.dealer.server import DealerConfig, MatchResult, serve_match
from pokerbot.protocol.errors import GameDefinitionError
from pokerbot.protocol.game import load_game
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.matchlog import format_score_line
from pokerbot.protocol.transactions import TransactionFormatError

if TYPE_CHECKING:
    from pokerbot.strategies.base import Strategy

COMMAND = "pokerbot dealer"


class _UsageError(Exception):
    """Bad command-line usage: what is wrong, and where (the argument or option)."""

    def __init__(self, what: str, where: str | None = None) -> None:
        super().__init__(what)
        self.what, self.where = what, where


_ARGPARSE_VALUE = re.compile(r"argument (?P<where>[^:]+): (?P<what>.*)")
_ARGPARSE_TYPE = re.compile(r"invalid (?P<type>int|float) value: (?P<value>.*)")
_FIELDS = {
    "match_name": "MATCHNAME",
    "hands": "HANDS",
    "seed": "SEED",
    "names": "NAME ...",
    "ports": "-p",
    "host": "--host",
    "start_timeout_ms": "--start_timeout",
    "transport": "--transport",
    "token": "--token",
    "max_invalid": "--max-invalid",
    "output_dir": "--out",
}
"""Where on the command line each :class:`DealerConfig` field comes from."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        parsed = _ARGPARSE_VALUE.fullmatch(message)
        if parsed is None:
            raise _UsageError(message)
        what = parsed["what"]
        bad_type = _ARGPARSE_TYPE.fullmatch(what)
        if bad_type is not None:
            what = f"{bad_type['value']} is not a {'whole number' if bad_type['type'] == 'int' else 'number'}"
        raise _UsageError(what, parsed["where"].split("/")[0])


def _ports(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"needs comma-separated port numbers, got {text!r}") from None


def _milliseconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"needs a positive number of milliseconds, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``pokerbot dealer`` (reference-style options)."""
    parser = _Parser(
        prog="pokerbot dealer",
        description="Run an ACPC match as the reference dealer does: print one port per seat, wait for a "
        "player at each (pokerbot play --port PORT ...), play the match, print the SCORE line.",
        epilog="Times are in milliseconds, as the reference dealer's flags. Exit status: 0 after a complete "
        "match, 1 when it broke off, 2 on bad usage, 130/143 when SIGINT/SIGTERM stopped it.",
    )
    parser.add_argument("match_name", metavar="MATCHNAME", help="the match's name: the log is MATCHNAME.log")
    parser.add_argument("game", metavar="GAME", help="built-in game name or game definition file")
    parser.add_argument("hands", metavar="HANDS", type=int, help="hands to play")
    parser.add_argument("seed", metavar="SEED", type=int, help="the dealing seed (0..4294967295)")
    parser.add_argument("names", metavar="NAME", nargs="+", help="one name per player, in seat order")
    parser.add_argument("-f", dest="fixed_seats", action="store_true", help="fixed seats (no rotation)")
    parser.add_argument("-p", dest="ports", type=_ports, help="port1,port2,... (0 = any free port)")
    parser.add_argument("-q", dest="quiet", action="store_true", help="no TO/FROM transcript on stderr")
    parser.add_argument("-l", dest="log", action="store_false", default=True, help="no log file")
    parser.add_argument("-L", dest="log", action="store_true", help="write the log file (default)")
    parser.add_argument(
        "-t", dest="transactions", action="store_false", default=False, help="no transaction file (default)"
    )
    parser.add_argument(
        "-T",
        dest="transactions",
        action="store_true",
        help="keep the transaction file MATCHNAME.tlog (resume with -T -a)",
    )
    parser.add_argument(
        "-a", dest="append", action="store_true", help="append to the log (and, with -T, resume from the transactions)"
    )
    defaults = TimeLimits()
    parser.add_argument(
        "--t_response",
        type=_milliseconds,
        default=defaults.response_ms,
        metavar="MS",
        help=f"a response's time limit (default {defaults.response_ms:g})",
    )
    parser.add_argument(
        "--t_hand",
        type=_milliseconds,
        default=defaults.hand_ms,
        metavar="MS",
        help=f"a hand's time limit, per player (default {defaults.hand_ms:g})",
    )
    parser.add_argument(
        "--t_per_hand",
        type=_milliseconds,
        default=defaults.per_hand_ms,
        metavar="MS",
        help=f"the average time per hand over the match, per player (default {defaults.per_hand_ms:g})",
    )
    parser.add_argument(
        "--start_timeout",
        type=_milliseconds,
        default=None,
        metavar="MS",
        help="give up when the seats are not all taken after this long (default: wait)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--transport", default="tcp", help="the seats' transport: tcp (default) or ws")
    parser.add_argument("--ws", dest="transport", action="store_const", const="ws", help="same as --transport ws")
    parser.add_argument("--token", default=None, help="token WebSocket clients must present")
    parser.add_argument(
        "--max-invalid",
        type=int,
        default=None,
        metavar="N",
        help="a seat's N+1-th invalid action ends the match (default: no limit; each is made a call)",
    )
    parser.add_argument(
        "--out", type=Path, default=Path("."), metavar="DIR", help="where MATCHNAME.log goes (default: here)"
    )
    parser.add_argument(
        "--bots",
        type=_bots,
        default={},
        metavar="NAME=STRATEGY,...",
        help="seats the dealer plays itself, each with a strategy (as pokerbot play --strategy): only the "
        "other seats' ports are printed",
    )
    return parser


def _bots(text: str) -> dict[str, str]:
    bots: dict[str, str] = {}
    for part in text.split(","):
        name, equals, strategy = part.partition("=")
        if not equals or not name or not strategy:
            raise argparse.ArgumentTypeError(f"needs NAME=STRATEGY pairs, comma-separated, got {part!r}")
        bots[name] = strategy
    return bots


def config_from_argv(argv: list[str]) -> DealerConfig:
    """The match configuration of a reference-style command line; raises _UsageError."""
    args = build_parser().parse_args(argv)
    try:
        game = load_game(args.game)
    except (GameDefinitionError, OSError) as error:
        raise _UsageError(str(error), "GAME") from None
    limits = TimeLimits(args.t_response, args.t_hand, args.t_per_hand)
    try:
        return DealerConfig(
            hand_values=False,  # the log keeps the hands: memory stays flat however long the match
            match_name=args.match_name,
            game=game,
            game_label=args.game,
            hands=args.hands,
            seed=args.seed,
            names=args.names,
            fixed_seats=args.fixed_seats,
            ports=args.ports,
            host=args.host,
            quiet=args.quiet,
            write_log=args.log,
            append_log=args.append,
            transactions=args.transactions,
            output_dir=args.out,
            limits=limits,
            start_timeout_ms=args.start_timeout,
            transport=args.transport,
            token=args.token,
            max_invalid=args.max_invalid,
        )
    except ValidationError as error:
        first = error.errors()[0]
        what = str(first["msg"]).removeprefix("Value error, ")
        field = str(first["loc"][0]) if first["loc"] else ""
        bounds = {
            "greater_than_equal": "at least {ge}",
            "less_than_equal": "at most {le}",
            "greater_than": "above {gt}",
        }
        if first["type"] in bounds:
            what = f"must be {bounds[first['type']].format(**first.get('ctx', {}))}, got {first['input']}"
        raise _UsageError(what[:1].lower() + what[1:], _FIELDS.get(field, field or None)) from None


def run_dealer(argv: list[str]) -> int:
    """Run ``pokerbot dealer`` with ``argv``; returns the exit status."""
    if any(arg in ("-h", "--help") for arg in argv):
        build_parser().print_help()
        return 0
    try:
        config = config_from_argv(argv)
        bots = _bot_players(config, build_parser().parse_args(argv).bots)
    except _UsageError as error:
        print_error(error.what, locate(error.where, COMMAND))
        return BAD_INPUT

    def print_ports(ports: list[int]) -> None:
        # As the reference: the ports on standard output, then the header on standard error
        # (even with -q). Seats the dealer plays itself (--bots) are not printed.
        print(" ".join(str(port) for seat, port in enumerate(ports) if seat not in bots), flush=True)
        print("\n".join(config.log_header()), file=sys.stderr, flush=True)

    try:
        result = asyncio.run(_serve(config, print_ports, bots))
    except OSError as error:
        print_error(f"cannot serve the match: {error.strerror or error}", locate("-p", COMMAND))
        return FAILED
    except TransactionFormatError as error:
        print_error(f"cannot resume from {config.transaction_path}: {error}", locate("-a", COMMAND))
        return FAILED
    except KeyboardInterrupt:  # before the match's signal handlers were in place
        print("ERROR: stopped by SIGINT", file=sys.stderr)
        return 130
    if result.signal is not None:
        return 128 + result.signal
    if result.error is not None:
        return 1
    score = format_score_line(list(result.totals.values()), list(result.totals))
    print(score, flush=True)
    print(score, file=sys.stderr, flush=True)
    return 0


def _bot_players(config: DealerConfig, bots: dict[str, str]) -> dict[int, Strategy]:
    """The strategies of ``--bots``, by seat, made (seeded from the match's seed and the
    seat's name); raises _UsageError for a name that is no seat's or an unknown strategy."""
    if not bots:
        return {}
    from pokerbot.bot.matches.base import strategy_seed
    from pokerbot.strategies.base import UnknownStrategyError
    from pokerbot.strategies.registry import default_registry

    registry = default_registry()
    players: dict[int, Strategy] = {}
    for name, strategy in bots.items():
        if name not in config.names:
            raise _UsageError(f"{name} is not a player of the match ({', '.join(config.names)})", "--bots")
        try:
            made = registry.create(strategy, config.game, strategy_seed(config.seed, name))
        except UnknownStrategyError as error:
            raise _UsageError(str(error), "--bots") from None
        players[config.names.index(name)] = made
    return players


async def _serve(config: DealerConfig, on_ports: Callable[[list[int]], None], bots: dict[int, Strategy]) -> MatchResult:
    """:func:`serve_match`, the seats of ``bots`` played in this process by their strategies."""
    if not bots:
        return await serve_match(config, on_ports=on_ports, catch_signals=True)
    from pokerbot.bot.client.play import play_match
    from pokerbot.bot.transports import transport_for

    loop = asyncio.get_running_loop()
    clients: list[asyncio.Task[object]] = []

    def start(ports: list[int]) -> None:
        on_ports(ports)
        transport = transport_for(config.transport)
        for seat, strategy in bots.items():
            url = transport.seat_url(config.host, ports[seat])
            clients.append(
                loop.create_task(
                    play_match(url, config.game, strategy, limits=config.limits, token=config.token, say=_silent)
                )
            )

    try:
        return await serve_match(config, on_ports=start, catch_signals=True)
    finally:
        if clients:
            _, pending = await asyncio.wait(clients, timeout=5.0)
            for task in pending:
                task.cancel()


def _silent(_text: str) -> None:
    """The dealer's own players say nothing of the wait: the dealer says who connected."""
