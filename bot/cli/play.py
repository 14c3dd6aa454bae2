"""``pokerbot play``: connect a strategy (or a person, ``--human``) to a dealer seat and play.

The strategy is a registered name, ``path/to/file.py:Class`` or ``module:Class``
(:mod:`pokerbot.strategies.loading`). With ``--human`` a person plays at this terminal
(:mod:`pokerbot.bot.human.terminal`); the client then sets no time limit of its own (start
the dealer with generous limits, e.g. ``--t_per_hand 3600000``). At the end the final score
(hands, chips won, mbb/hand) is printed on standard output.

Exit status: 0 when the match ended normally (the dealer closed the connection between
hands), 1 when the dealer could not be reached or the match broke off, 2 on bad usage
(unknown game or strategy, no port, a game other than the dealer's: said after the first
line that does not fit). Errors are one line, ``pokerbot: error: WHAT (WHERE)``; logs go to
standard error as console lines, or, with ``--log-format json``, everything (errors too) as
JSON lines. With ``--human`` only warnings are logged, so that the table reads undisturbed.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import threading
import time
from enum import StrEnum

import structlog
import typer

from pokerbot.bot.cli.errors import FAILED, INTERRUPTED, fail
from pokerbot.bot.cli.outputs import plural
from pokerbot.bot.client.play import DealerConnectionError, play_match
from pokerbot.bot.human.terminal import TerminalHuman
from pokerbot.bot.transports import TransportURLError, transport_for
from pokerbot.bot.transports.base import format_host, split_address
from pokerbot.protocol.analysis.ranking import preload_ranker
from pokerbot.protocol.errors import GameDefinitionError
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.matchlog import format_value
from pokerbot.strategies.base import Strategy, UnknownStrategyError
from pokerbot.strategies.registry import default_registry, default_strategy

MAX_PORT = 65535


class LogFormat(StrEnum):
    """How log events are printed."""

    console = "console"
    json = "json"


def configure_logging(log_format: LogFormat, level: int = logging.INFO) -> None:
    """Send structlog events at ``level`` and above to standard error in ``log_format``."""
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer()
        if log_format is LogFormat.json
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )


def play(
    game: str = typer.Option(..., "--game", "-g", help="A built-in game name or a game definition file."),
    strategy: str | None = typer.Option(
        None,
        "--strategy",
        help="A registered strategy name, e.g. always-call, or your own path/to/file.py:Class or module:Class "
        "(omitted or empty: the game's strongest: adaptive in heads-up hold'em, Kuhn and Leduc, miximax in 3-player "
        "hold'em).",
    ),
    human: bool = typer.Option(False, "--human", help="A person plays this seat, typing actions at this terminal."),
    names: str | None = typer.Option(
        None,
        "--names",
        help="With --human: the players' names in seat order, as the dealer was given them (--names me,bot); "
        "the table shows them (default: 'opponent').",
    ),
    host: str = typer.Option("127.0.0.1", "--host", help="The dealer's host."),
    port: int | None = typer.Option(None, "--port", "-p", help="The seat's TCP port (the dealer's first output line)."),
    url: str | None = typer.Option(
        None, "--url", help="The seat's URL instead of --host/--port: tcp://host:port or ws://host:port/path."
    ),
    ws: str | None = typer.Option(None, "--ws", help="Same as --url with a ws:// URL."),
    token: str | None = typer.Option(None, "--token", help="WebSocket token, sent as 'Authorization: Bearer <token>'."),
    time_per_action: float | None = typer.Option(
        None, "--time-per-action", help="Cap on each decision, in seconds (default: the ACPC limits)."
    ),
    t_response: float = typer.Option(
        TimeLimits().response_ms, "--t_response", min=1e-3, help="The dealer's response limit, in ms (as its flag)."
    ),
    t_hand: float = typer.Option(
        TimeLimits().hand_ms, "--t_hand", min=1e-3, help="The dealer's limit per hand, in ms (as its flag)."
    ),
    t_per_hand: float = typer.Option(
        TimeLimits().per_hand_ms, "--t_per_hand", min=1e-3, help="The dealer's average per hand, in ms (as its flag)."
    ),
    seed: int | None = typer.Option(None, "--seed", "-s", help="Seed of the strategy's randomness."),
    log_format: LogFormat = typer.Option(LogFormat.console, "--log-format", help="console or json."),
    connect_timeout: float = typer.Option(
        10.0, "--connect-timeout", help="Keep retrying to connect for this many seconds."
    ),
    prepare_only: bool = typer.Option(
        False,
        "--prepare-only",
        help="Load and prepare the strategy, then exit without connecting: its compiled code is cached, so "
        "later starts take about a second instead of a minute (run it once after installing).",
    ),
) -> None:
    """Play STRATEGY at a dealer seat until the dealer closes the connection."""
    configure_logging(log_format, logging.WARNING if human else logging.INFO)
    log = structlog.get_logger("pokerbot.play")
    try:
        game_definition = load_game(game)
    except GameDefinitionError as error:
        raise fail(str(error), "--game") from None
    if human and strategy:
        raise fail("--human and --strategy exclude each other (the person is the strategy)")
    if port is not None and not 1 <= port <= MAX_PORT:
        raise fail(f"a seat's port is a number in 1..{MAX_PORT}, got {port}", "--port")
    seat = url or ws or (None if port is None else f"tcp://{format_host(host)}:{port}")
    if seat is None and not prepare_only:
        raise fail("give the seat's --port (or its --url)")
    if seat is not None:
        try:
            transport = transport_for(seat)
            split_address(seat)
        except TransportURLError as error:
            raise fail(str(error), "--url" if url or ws else "--host") from None
        if token is not None and not transport.supports_token:
            raise fail(f"--token needs a transport that carries tokens (a ws:// URL), not {seat}", "--token")
    seat_names = [part.strip() for part in names.split(",")] if names else None
    if seat_names is not None and len(seat_names) != game_definition.num_players:
        raise fail(f"give one name per seat: {game_definition.num_players} names, got {len(seat_names)}", "--names")
    name = "human" if human else (strategy or default_strategy(game_definition))
    try:
        player = (
            TerminalHuman(game_definition, seed, names=seat_names)
            if human
            else default_registry().create(name, game_definition, seed)
        )
    except UnknownStrategyError as error:
        raise fail(str(error), "--strategy") from None
    log.info("strategy", name=name, game=game)
    if prepare_only:
        started = time.perf_counter()
        _prepare(player, game_definition)
        typer.echo(f"prepared {name} for {game} in {time.perf_counter() - started:.1f} s")
        return
    assert seat is not None
    # A person's seat sets no time limit of its own (the dealer's limits still apply).
    limits = HUMAN_LIMITS if human else TimeLimits(t_response, t_hand, t_per_hand)
    # Load the strategy's data and the hand ranker now, then take them out of the garbage
    # collector's sight: a full collection walking the agent's models took 0.1-1 s, longer
    # than a response limit, in this process and in the strategy's (forked later, which
    # inherits the freeze).
    _prepare(player, game_definition)
    gc.freeze()
    try:
        result = asyncio.run(
            play_match(
                seat,
                game_definition,
                player,
                limits=limits,
                token=token,
                time_per_action=time_per_action,
                connect_timeout=connect_timeout,
                # A person answers at the terminal of this process; a strategy runs where
                # the client puts it (a process of its own, unless it is cheap).
                isolation="thread" if human else "auto",
                say=lambda text: typer.echo(text, err=True),
            )
        )
    except DealerConnectionError as error:
        if log_format is LogFormat.json:
            log.error("connect_failed", error=str(error))
            raise typer.Exit(FAILED) from None
        raise fail(str(error), "--url" if url or ws else "--port", status=FAILED) from None
    except KeyboardInterrupt:
        if isinstance(player, TerminalHuman):  # the person stopped: what they won so far
            typer.echo(f"\nstopped by Ctrl-C: {player.tally()}")
        raise typer.Exit(INTERRUPTED) from None
    MATCH_PLAYED.set()
    if result.mismatch is not None:
        # The dealer's lines do not fit --game: nothing was played, and the user can fix it.
        raise fail(
            f"the dealer's lines do not fit the game {game}: {result.mismatch}; does it play another game?", "--game"
        )
    typer.echo(score_line(name, result.hands_played, result.chips, game_definition.big_blind, result.observed))
    if result.error is not None:
        if log_format is LogFormat.json:
            log.error("match_failed", error=result.error, hands=result.hands_played)
            raise typer.Exit(FAILED)
        raise fail(result.error, status=FAILED)


MATCH_PLAYED = threading.Event()
"""Set once a match is over: the console script then leaves without the interpreter's teardown
(:func:`pokerbot.bot.cli.main`)."""


def _prepare(player: Strategy, game: Game) -> None:
    """Load what ``player`` needs and compile its code (cached for later starts where the
    install allows), and the game's hand ranker: before the first request, not during it."""
    player.prepare()
    preload_ranker(game.ranker)


HUMAN_LIMITS = TimeLimits(response_ms=1e12, hand_ms=1e12, per_hand_ms=1e12)
"""The client's limits for a person: none of its own (the dealer's limits still apply)."""


def score_line(name: str, hands: int, chips: float, big_blind: int, observed: int) -> str:
    """``final score of NAME: N hands, X chips (Y mbb/hand), M observed``: M is the hands'
    ends the strategy observed."""
    rate = 1000.0 * chips / big_blind / hands if hands else 0.0
    return (
        f"final score of {name}: {plural(hands, 'hand')}, {format_value(chips)} chips ({rate:+.1f} mbb/hand), "
        f"{observed} observed"
    )
