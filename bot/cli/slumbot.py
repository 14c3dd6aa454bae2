"""``pokerbot slumbot ...``: play Slumbot's HTTP API, serve it, or check the two agree.

* ``slumbot play --hands N [--url slumbot+https://HOST] [--strategy S] [--user U
  --password-file F] [--log PATH]``: N hands of a strategy against the API into an ACPC log;
  the same command again continues the log (:mod:`pokerbot.bot.slumbot.match`). Prints one
  line: hands, chips, mbb/hand with a 95 % interval (and against the server's baseline, when
  it sends one).
* ``slumbot serve [--port P] [--strategy S] [--seed S]``: the API on our engine with a strategy
  behind it (:mod:`pokerbot.bot.slumbot.server`); prints its URL, then serves until Ctrl-C.
* ``slumbot check [--hands N] [--seed S] [--strategy S] [--opponent O]``: the same deals
  through a local server and through our dealer, compared hand by hand
  (:mod:`pokerbot.bot.slumbot.check`).

Exit status: 0 when the match is complete (or the check agrees), 1 when it stopped on a
failure (the server refused a request or could not be reached; the hands played are in the
log, and the same command continues it) or the check found differences, 2 on bad input (a URL
that is not ``slumbot+https://`` or ``slumbot+http://``, ``--hands`` below 1, a password file
that cannot be read, a log that is not this match's), 130 when interrupted.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import typer

from pokerbot.bot.cli.errors import FAILED, fail
from pokerbot.bot.cli.outputs import OutputFolderError, announce, prepare_output, write_json_report

slumbot_app = typer.Typer(
    help="Play Slumbot's HTTP API (slumbot.com), serve the same API with our strategies, or check the two agree.",
    no_args_is_help=True,
)

GAME = "holdem-nolimit-2p"


def _notify(message: str) -> None:
    typer.echo(f"pokerbot slumbot: {message}", err=True)


def _password(path: Path | None, user: str | None) -> str | None:
    """The password in ``path`` (its first line), or None; exits 2 on bad input."""
    if (path is None) != (user is None):
        raise fail("--user and --password-file go together", "--user" if user is None else "--password-file")
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise fail(f"cannot read the password file {path}: {reason}", "--password-file") from None
    password = text.splitlines()[0] if text.strip() else ""
    if not password:
        raise fail(f"the password file {path} is empty", "--password-file")
    return password


def _player_name(name: str | None, strategy: str) -> str:
    from pokerbot.bot.slumbot.server import BOT_NAME
    from pokerbot.protocol.names import name_problem, safe_player_name

    player = name if name is not None else safe_player_name(strategy)
    if name is None and player == BOT_NAME:
        player = "pokerbot"
    problem = name_problem(player)
    if problem is not None or player == BOT_NAME:
        raise fail(problem or f"the name {BOT_NAME!r} is the server's player", "--name")
    return player


@slumbot_app.command("play")
def play_command(
    hands: int = typer.Option(..., "--hands", "-n", help="Hands the log is to hold (the match resumes up to them)."),
    url: str = typer.Option(
        "slumbot+https://slumbot.com",
        "--url",
        help="The API's server: slumbot+https://HOST[:PORT], or slumbot+http://HOST:PORT for a local one.",
    ),
    strategy: str | None = typer.Option(
        None, "--strategy", help="A registered strategy, or path/to/file.py:Class (default: adaptive)."
    ),
    user: str | None = typer.Option(None, "--user", help="A registered user of the server (with --password-file)."),
    password_file: Path | None = typer.Option(
        None, "--password-file", help="A file whose first line is --user's password."
    ),
    log_path: Path = typer.Option(
        Path("slumbot.log"), "--log", help="The ACPC log: written hand by hand, continued when it exists."
    ),
    name: str | None = typer.Option(None, "--name", help="The player's name in the log (default: from --strategy)."),
    seed: int | None = typer.Option(
        None, "--seed", "-s", help="Seed of the strategy's randomness (default: the log's, or a new one)."
    ),
    time_per_action: float = typer.Option(10.0, "--time-per-action", help="Seconds each decision may take."),
    timeout: float = typer.Option(60.0, "--timeout", help="Seconds a request may wait for its answer."),
    retries: int = typer.Option(5, "--retries", help="Retries of a request that may be repeated, with back-off."),
    backoff: float = typer.Option(1.0, "--backoff", help="Seconds before the first retry (doubling after)."),
    pause: float = typer.Option(0.0, "--pause", help="Seconds to wait between hands."),
    json_out: str | None = typer.Option(None, "--json", help="Write the result as JSON to this file (- : stdout)."),
) -> None:
    """Play N hands of a strategy against Slumbot's API into an ACPC log; run again to resume."""
    from pokerbot.bot.slumbot.connection import SlumbotConnection, SlumbotURLError

    try:
        connection = SlumbotConnection(
            url, timeout=timeout, retries=max(retries, 0), backoff=backoff, on_retry=_retrying
        )
    except SlumbotURLError as error:
        raise fail(str(error), "--url") from None
    if hands < 1:
        raise fail(f"the match needs at least 1 hand, got {hands}", "--hands")
    for option, value in (("--time-per-action", time_per_action), ("--timeout", timeout)):
        if not value > 0:
            raise fail(f"{option} must be positive, got {value:g}", option)
    for option, value in (("--backoff", backoff), ("--pause", pause)):
        if not value >= 0:
            raise fail(f"{option} must not be negative, got {value:g}", option)
    if seed is not None and not 0 <= seed < 2**32:
        raise fail(f"the seed is a number in 0..2**32-1, got {seed}", "--seed")
    password = _password(password_file, user)
    from pokerbot.bot.slumbot.match import SlumbotLog, SlumbotLogError, SlumbotMatch, replay_logged_hands
    from pokerbot.protocol.game import load_game
    from pokerbot.strategies.base import UnknownStrategyError
    from pokerbot.strategies.registry import default_registry, default_strategy

    game = load_game(GAME)
    strategy_name = strategy or default_strategy(game)
    registry = default_registry()
    try:
        registry.check(strategy_name, game)
    except UnknownStrategyError as error:
        raise fail(str(error), "--strategy") from None
    player = _player_name(name, strategy_name)
    try:
        prepare_output(log_path)
    except OutputFolderError as error:
        raise fail(str(error), "--log") from None
    log = SlumbotLog(log_path, game, player, strategy_name, hands)
    try:
        log.open(seed)
    except SlumbotLogError as error:
        raise fail(str(error), "--log") from None
    except OSError as error:
        raise fail(f"cannot write {log_path}: {error.strerror or error}", "--log") from None
    try:
        try:
            bot = registry.create(strategy_name, game, log.strategy_seed())
        except UnknownStrategyError as error:  # a file the strategy reads, found wrong only now
            raise fail(str(error), "--strategy") from None
        bot.prepare()
        replay_logged_hands(bot, log)
        match = SlumbotMatch(
            game,
            bot,
            connection,
            log,
            user=user,
            password=password,
            seconds_per_action=time_per_action,
            pause=pause,
            notify=_notify,
        )
        result = match.run()
    finally:
        log.close()
    announce([log_path])
    typer.echo(result.summary(game.big_blind))
    if json_out is not None:
        write_json_report(
            {
                "player": player,
                "strategy": strategy_name,
                "server": connection.address.display,
                "hands": result.hands,
                "chips": sum(result.values),
                "values": result.values,
                "baseline_values": result.baseline,
                "played": result.played,
                "abandoned": result.abandoned,
                "fallbacks": result.fallbacks,
                "error": result.error,
            },
            json_out,
        )
    if result.interrupted:
        raise typer.Exit(130)
    if result.error is not None:
        raise fail(f"{result.error}; the log holds {result.hands} hands: run the same command to go on", status=FAILED)


def _retrying(message: str, delay: float) -> None:
    _notify(f"{message}; retrying in {delay:g} s")


@slumbot_app.command("serve")
def serve_command(
    port: int = typer.Option(8001, "--port", "-p", help="The port (0: any free port)."),
    host: str = typer.Option("127.0.0.1", "--host", help="The interface to serve on."),
    strategy: str | None = typer.Option(
        None, "--strategy", help="The bot behind the API: a registered strategy (default: adaptive)."
    ),
    seed: int | None = typer.Option(
        None, "--seed", "-s", help="Every session deals and seeds from it (default: each session draws one)."
    ),
    user: str | None = typer.Option(None, "--user", help="The one user /api/login accepts (default: any)."),
    password_file: Path | None = typer.Option(None, "--password-file", help="A file whose first line is the password."),
    max_sessions: int = typer.Option(16, "--max-sessions", help="Sessions kept at once (the oldest dropped first)."),
    time_per_action: float = typer.Option(10.0, "--time-per-action", help="Seconds each of the bot's decisions gets."),
) -> None:
    """Serve Slumbot's API on our engine with a strategy behind it; prints the URL, Ctrl-C stops."""
    from pokerbot.bot.slumbot.server import SlumbotAPI, SlumbotHTTPServer
    from pokerbot.protocol.game import load_game
    from pokerbot.strategies.base import UnknownStrategyError
    from pokerbot.strategies.registry import default_registry, default_strategy

    if not 0 <= port <= 65535:
        raise fail(f"the port is a number in 0..65535, got {port}", "--port")
    if seed is not None and not 0 <= seed < 2**32:
        raise fail(f"the seed is a number in 0..2**32-1, got {seed}", "--seed")
    if max_sessions < 1:
        raise fail(f"--max-sessions must be at least 1, got {max_sessions}", "--max-sessions")
    password = _password(password_file, user)
    game = load_game(GAME)
    name = strategy or default_strategy(game)
    registry = default_registry()
    try:
        registry.create(name, game, 0).prepare()  # refuses an unknown name; loads and compiles what it needs
    except UnknownStrategyError as error:
        raise fail(str(error), "--strategy") from None
    api = SlumbotAPI(
        game,
        lambda bot_seed: registry.create(name, game, bot_seed),
        seed=seed,
        users=None if user is None or password is None else {user: password},
        max_sessions=max_sessions,
        seconds_per_action=time_per_action,
        on_event=_notify,
    )
    try:
        server = SlumbotHTTPServer(api.handle, host, port)
    except OSError as error:
        raise fail(f"cannot serve on {host}:{port}: {error.strerror or error}", "--port", status=FAILED) from None
    typer.echo(server.url)
    sys.stdout.flush()
    _notify(f"serving the API with {name} at {server.url} (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


@slumbot_app.command("check")
def check_command(
    hands: int = typer.Option(200, "--hands", "-n", help="Hands of each match."),
    seed: int = typer.Option(1, "--seed", "-s", help="The deals' seed (the strategies' seeds derive from it)."),
    strategy: str = typer.Option("random", "--strategy", help="The client's strategy."),
    opponent: str = typer.Option("always-call", "--opponent", help="The strategy behind the API."),
    out: Path | None = typer.Option(
        None, "--out", "-o", help="Folder for api.log and dealer.log (default: a temporary one)."
    ),
) -> None:
    """Play the same deals through the API and through our dealer; the logs must agree hand by hand."""
    from pokerbot.bot.slumbot.check import compare_with_dealer
    from pokerbot.protocol.game import load_game
    from pokerbot.strategies.base import UnknownStrategyError
    from pokerbot.strategies.registry import default_registry

    if hands < 1:
        raise fail(f"the check needs at least 1 hand, got {hands}", "--hands")
    if not 0 <= seed < 2**32:
        raise fail(f"the seed is a number in 0..2**32-1, got {seed}", "--seed")
    game = load_game(GAME)
    registry = default_registry()
    for option, value in (("--strategy", strategy), ("--opponent", opponent)):
        try:
            registry.check(value, game)
        except UnknownStrategyError as error:
            raise fail(str(error), option) from None
    player = _player_name(None, strategy)
    with tempfile.TemporaryDirectory(prefix="pokerbot-slumbot-check-") as scratch:
        folder = out if out is not None else Path(scratch)
        report = compare_with_dealer(
            game,
            registry,
            hands=hands,
            seed=seed,
            strategy=strategy,
            opponent=opponent,
            player=player,
            folder=folder,
            notify=_notify,
        )
    if out is not None:
        announce([out / "api.log", out / "dealer.log"])
    typer.echo(report.api.summary(game.big_blind))
    at_big_blind, at_small_blind = report.seats
    verdict = "agree hand by hand" if not report.differences else f"differ in {len(report.differences)} hands"
    typer.echo(
        f"{report.api.hands} hands through the API, {len(report.dealer_values)} through the dealer (seed {seed}): "
        f"the logs {verdict}; {player} in the big blind in {at_big_blind}, the small blind in {at_small_blind}; "
        f"log check: {'ok' if not report.log_problems else f'{len(report.log_problems)} problems'}"
    )
    for number, mine, theirs in report.differences[:3]:
        typer.echo(f"hand {number}:\n  API:    {mine}\n  dealer: {theirs}", err=True)
    for problem in report.log_problems[:3]:
        typer.echo(f"api.log {problem}", err=True)
    if not report.ok:
        raise fail(report.api.error or "the API's match and the dealer's disagree", status=FAILED)
