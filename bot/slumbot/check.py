"""The same deals through the API and through our dealer, compared hand by hand.

:func:`compare_with_dealer` plays ``hands`` hands of ``strategy`` (the client, named
``player``) against ``opponent`` behind a local API server (:mod:`.server`, over HTTP on a
free port), writing ``api.log``; then the same match in memory through our dealer
(:func:`~pokerbot.bot.matches.inprocess.run_inprocess_match`), writing ``dealer.log``: the
dealing from ``seed``, the seats alternating from the client in the big blind, each strategy
seeded by :func:`~pokerbot.bot.matches.base.strategy_seed` from ``seed`` and its name. With
strategies whose play depends on their seed and what they have seen alone (not on a clock:
``adaptive:30iterations``, not ``adaptive``), every ``STATE`` line of the two logs agrees:
betting, cards, values, seats. The API's log is also replayed by
:func:`~pokerbot.protocol.matchlog.check_log`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pokerbot.bot.matches.base import strategy_seed
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.bot.slumbot.connection import SlumbotConnection
from pokerbot.bot.slumbot.match import SlumbotLog, SlumbotMatch, SlumbotResult, sidecar_path
from pokerbot.bot.slumbot.server import BOT_NAME, SlumbotAPI, SlumbotHTTPServer
from pokerbot.protocol.game import Game
from pokerbot.protocol.matchlog import check_log
from pokerbot.protocol.slumbot import SLUMBOT_GAME
from pokerbot.strategies.base import StrategyRegistry

CHECK_TIMEOUT_SECONDS = 3600.0
"""How long the check's client waits for the local server's answer (a loaded machine is slow)."""
API_LOG = "api.log"
DEALER_LOG = "dealer.log"


@dataclass
class CheckReport:
    """What the comparison found. Values are the client's chips per hand."""

    hands: int
    api: SlumbotResult
    dealer_values: list[float]
    differences: list[tuple[int, str, str]] = field(default_factory=list)
    """``(hand, API line, dealer line)`` of every hand whose ``STATE`` lines differ."""
    seats: tuple[int, int] = (0, 0)
    """Hands the client played at ``client_pos`` 0 and 1."""
    log_problems: list[str] = field(default_factory=list)
    """What ``check_log`` found wrong in the API's log."""

    @property
    def ok(self) -> bool:
        """True when the API's match played every hand, like the dealer's, into a sound log."""
        return (
            self.api.error is None
            and self.api.hands == self.hands == len(self.dealer_values)
            and not self.differences
            and not self.log_problems
        )


def _state_lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("STATE:")]


def compare_with_dealer(
    game: Game,
    registry: StrategyRegistry,
    *,
    hands: int,
    seed: int,
    strategy: str,
    opponent: str,
    player: str,
    folder: Path,
    notify: Callable[[str], None] = lambda message: None,
) -> CheckReport:
    """Play both matches into ``folder`` (``api.log``, ``dealer.log``) and compare them."""
    folder.mkdir(parents=True, exist_ok=True)
    api_path, dealer_path = folder / API_LOG, folder / DEALER_LOG
    for stale in (api_path, sidecar_path(api_path)):
        stale.unlink(missing_ok=True)
    api = SlumbotAPI(game, lambda bot_seed: registry.create(opponent, game, bot_seed), seed=seed, on_event=notify)
    client = registry.create(strategy, game, strategy_seed(seed, player))
    client.prepare()
    registry.create(opponent, game, 0).prepare()  # the server's bot then starts without loading or compiling
    server = SlumbotHTTPServer(api.handle)
    server.start()
    log = SlumbotLog(api_path, game, player, strategy, hands)
    try:
        log.open(seed)
        # no fault is expected here, and a hand abandoned for a slow answer would shift the deals
        connection = SlumbotConnection(server.url, timeout=CHECK_TIMEOUT_SECONDS, retries=0)
        result = SlumbotMatch(game, client, connection, log, notify=notify).run()
    finally:
        log.close()
        server.stop()
    players = [
        registry.create(strategy, game, strategy_seed(seed, player)),
        registry.create(opponent, game, strategy_seed(seed, BOT_NAME)),
    ]
    outcome = run_inprocess_match(
        game, hands, seed, players, [player, BOT_NAME], log_path=dealer_path, game_name=SLUMBOT_GAME
    )
    api_lines, dealer_lines = _state_lines(api_path), _state_lines(dealer_path)
    differences = [
        (number, mine, theirs) for number, (mine, theirs) in enumerate(zip(api_lines, dealer_lines)) if mine != theirs
    ]
    log_problems = check_log(api_path.read_text(encoding="utf-8").splitlines(), game).problems
    big_blind = sum(1 for line in api_lines if line.endswith(f":{player}|{BOT_NAME}"))  # position 0 first
    return CheckReport(
        hands=hands,
        api=result,
        dealer_values=[values[player] for values in outcome.per_hand_values],
        differences=differences,
        seats=(big_blind, len(api_lines) - big_blind),
        log_problems=log_problems,
    )


__all__ = ["API_LOG", "DEALER_LOG", "CheckReport", "compare_with_dealer"]
