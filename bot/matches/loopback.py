"""Matches over a real transport: the dealer and one client per player in one event loop.

:func:`run_loopback_match` serves the match with :func:`pokerbot.bot.dealer.server.serve_match` on
127.0.0.1 (ports chosen by the OS) and connects one :func:`pokerbot.bot.client.play.play_match`
per strategy by the chosen transport (``tcp`` by default; any scheme of
:mod:`pokerbot.bot.transports`). The dealer enforces the time limits and the clients play
under the same limits. The dealer's match engine is the in-process match's
(:class:`~pokerbot.protocol.dealer_session.DealerSession`), so with deterministic players
both write the same log, byte for byte.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pokerbot.bot.client.play import play_match
from pokerbot.bot.dealer.server import DealerConfig, serve_match
from pokerbot.bot.matches.base import HandCallback, MatchError, MatchOutcome, check_players
from pokerbot.bot.transports import transport_for
from pokerbot.protocol.game import Game
from pokerbot.protocol.limits import TimeLimits
from pokerbot.strategies.base import Strategy


async def run_loopback_match_async(
    game: Game,
    hands: int,
    seed: int,
    strategies: Sequence[Strategy],
    names: Sequence[str],
    *,
    fixed_seats: bool = False,
    on_hand: HandCallback | None = None,
    output_dir: Path = Path("."),
    match_name: str = "match",
    game_name: str = "game",
    limits: TimeLimits = TimeLimits(),
    host: str = "127.0.0.1",
    transport: str = "tcp",
    interruptible: bool = False,
) -> MatchOutcome:
    """Serve a match with :func:`pokerbot.bot.dealer.server.serve_match` on ``host`` (OS-chosen ports) and
    connect one :func:`pokerbot.bot.client.play.play_match` per strategy, all in the running event loop.
    The dealer enforces ``limits`` and the clients play under the same limits; the seats
    speak ``transport`` (a scheme of :mod:`pokerbot.bot.transports`). Every strategy observes
    every hand before its next decision (``ordered``), so the match is the one played in
    process, whatever the load, for strategies that are reproducible there.

    The dealer writes ``output_dir/<match_name>.log`` (its header names the game
    ``game_name``). The outcome's ``illegal_actions`` are the clients' fallback actions (an
    illegal, late or failed decision replaced by a safe one). Raises :class:`MatchError` when
    the dealer stops before opening its ports or fails, or a client fails before the dealer
    is done. With ``interruptible`` SIGINT and SIGTERM end the match as a shorter one (the
    log marked truncated, with the ``SCORE`` of the hands finished; :attr:`MatchOutcome.stopped`).
    """
    check_players(game, len(strategies), names)
    loop = asyncio.get_running_loop()
    ports_ready: asyncio.Future[list[int]] = loop.create_future()

    def set_ports(ports: list[int]) -> None:
        if not ports_ready.done():
            ports_ready.set_result(list(ports))

    config = DealerConfig(
        match_name=match_name,
        game=game,
        hands=hands,
        seed=seed,
        names=list(names),
        fixed_seats=fixed_seats,
        host=host,
        quiet=True,
        write_log=True,
        output_dir=output_dir,
        limits=limits,
        transport=transport,
        game_label=game_name,
        stop_keeps_score=interruptible,
    )
    dealer = asyncio.create_task(serve_match(config, on_ports=set_ports, on_hand=on_hand, catch_signals=interruptible))
    waiting: set[asyncio.Future[Any]] = {dealer, ports_ready}
    await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
    if not ports_ready.done():
        result = await dealer
        raise MatchError(f"the dealer stopped before opening its ports: {result.error}")
    seat_transport = transport_for(transport)
    clients = [
        asyncio.create_task(
            play_match(seat_transport.seat_url(host, port), game, strategy, limits=limits, ordered=True)
        )
        for port, strategy in zip(ports_ready.result(), strategies, strict=True)
    ]
    try:
        await _watch(dealer, clients, names)
    finally:
        for task in (dealer, *clients):
            task.cancel()
        await asyncio.gather(dealer, *clients, return_exceptions=True)
    result = dealer.result()
    fallbacks = {
        name: task.result().fallbacks
        for name, task in zip(names, clients, strict=True)
        if task.done() and not task.cancelled() and task.exception() is None
    }
    return MatchOutcome(
        names=tuple(names),
        totals=dict(result.totals),
        per_hand_values=[dict(values) for values in result.per_hand_values],
        hands_played=result.hands_played,
        log_path=result.log_path,
        illegal_actions=fallbacks,
        error=result.error,
        stopped=result.stopped,
    )


async def _watch(dealer: asyncio.Task[Any], clients: list[asyncio.Task[Any]], names: Sequence[str]) -> None:
    """Wait for the dealer; raise MatchError as soon as a client fails, then let clients end."""
    pending: set[asyncio.Task[Any]] = {dealer, *clients}
    while dealer in pending:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            error = task.exception()
            if error is None:
                continue
            who = "the dealer" if task is dealer else f"the client of {names[clients.index(task)]}"
            raise MatchError(f"{who} failed: {error!r}") from error
    if pending:
        await asyncio.wait(pending, timeout=5.0)


def run_loopback_match(
    game: Game,
    hands: int,
    seed: int,
    strategies: Sequence[Strategy],
    names: Sequence[str],
    *,
    fixed_seats: bool = False,
    on_hand: HandCallback | None = None,
    output_dir: Path = Path("."),
    match_name: str = "match",
    game_name: str = "game",
    limits: TimeLimits = TimeLimits(),
    transport: str = "tcp",
    interruptible: bool = False,
) -> MatchOutcome:
    """:func:`run_loopback_match_async` in a new event loop (same arguments)."""
    return asyncio.run(
        run_loopback_match_async(
            game,
            hands,
            seed,
            strategies,
            names,
            fixed_seats=fixed_seats,
            on_hand=on_hand,
            output_dir=output_dir,
            match_name=match_name,
            game_name=game_name,
            limits=limits,
            transport=transport,
            interruptible=interruptible,
        )
    )


__all__ = ["run_loopback_match", "run_loopback_match_async"]
