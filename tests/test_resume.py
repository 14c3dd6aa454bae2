"""Transaction files and resumed matches; a dealer stopped by a signal."""

from __future__ import annotations

import asyncio
import hashlib
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pokerbot.bot.cli.dealer import config_from_argv
from pokerbot.bot.client.play import play_match
from pokerbot.bot.dealer.server import DealerConfig
from pokerbot.protocol.actions import CALL, FOLD, LIMIT_RAISE, Action
from pokerbot.protocol.dealer_events import Acted, HandLogged, MatchFinished, Send
from pokerbot.protocol.dealer_session import DealerSession
from pokerbot.protocol.game import load_game
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.matchlog import check_log, parse_state_line
from pokerbot.protocol.transactions import Transaction, TransactionFormatError, read_transactions
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy
from tests.test_dealer import ReplayStrategy, run_match, start_dealer

FOLDER = Path(__file__).parent / "fixtures" / "transactions"
GAME = load_game(FOLDER / "leduc.limit.2p.game")
REFERENCE_LOG = (FOLDER / "leduc_s31.log").read_text().splitlines()
CLI = [sys.executable, "-m", "pokerbot.bot.cli"]


def reference_transactions() -> list[Transaction]:
    with open(FOLDER / "leduc_s31.tlog") as lines:
        return list(read_transactions(lines, GAME))


def new_session(**options: object) -> DealerSession:
    return DealerSession(GAME, 40, 31, ["A", "B"], transactions=True, **options)  # type: ignore[arg-type]


# ------------------------------------------------------------ the session
def test_replaying_the_reference_transactions_gives_its_log() -> None:
    session = new_session()
    events = session.resume(reference_transactions())
    logged = [event.line for event in events if isinstance(event, HandLogged)]
    assert logged == [line for line in REFERENCE_LOG if line.startswith("STATE")]
    (finished,) = session.start(0.0)
    assert isinstance(finished, MatchFinished) and finished.score_line == REFERENCE_LOG[-1]


def test_a_session_resumed_mid_hand_goes_on_where_it_stopped() -> None:
    transactions = reference_transactions()
    session = new_session()
    replayed = session.resume(transactions[:101])
    assert session.hands_played == len(replayed) and session.hand_number == transactions[101].hand_number
    events = session.start(10.0)
    lines = [event.line for event in events if isinstance(event, Send)]
    assert len(lines) == 2 and all(f":{session.hand_number}:" in line for line in lines)
    logged = [event.line for event in replayed if isinstance(event, HandLogged)]
    recorded: list[Transaction] = []
    for transaction in transactions[101:]:
        seat = session.awaiting
        assert seat is not None
        for event in session.act(seat, transaction.action, 10.0):
            if isinstance(event, HandLogged):
                logged.append(event.line)
            elif isinstance(event, Acted):
                recorded.append(Transaction(event.action, event.hand_number, event.requested_at, event.acted_at))
            elif isinstance(event, MatchFinished):
                assert event.score_line == REFERENCE_LOG[-1]
    assert logged == [line for line in REFERENCE_LOG if line.startswith("STATE")]
    assert [(t.action, t.hand_number) for t in recorded] == [(t.action, t.hand_number) for t in transactions[101:]]
    assert session.finished and session.error is None


def test_a_transaction_file_that_does_not_fit_is_refused() -> None:
    transactions = reference_transactions()
    wrong_hand = Transaction(CALL, 5, 0.0, 0.0)
    with pytest.raises(TransactionFormatError, match="transaction 1: hand 5, expected 0"):
        new_session().resume([wrong_hand])
    with pytest.raises(TransactionFormatError, match="transaction 1: f is not legal in hand 0 after ''"):
        new_session().resume([Transaction(FOLD, 0, 0.0, 0.0)])  # nothing to call: no fold
    slow = Transaction(transactions[0].action, 0, 100.0, 100.5)
    with pytest.raises(TransactionFormatError, match="ran out of time"):
        new_session(limits=TimeLimits(response_ms=200)).resume([slow])
    with pytest.raises(TransactionFormatError, match="hands are already over"):
        DealerSession(GAME, 1, 31, ["A", "B"]).resume(transactions)


# ------------------------------------------------------------ the dealer
def test_the_transaction_file_is_kept_only_with_capital_t() -> None:
    base = ["m", "kuhn", "3", "1", "A", "B"]
    assert not config_from_argv(base).transactions
    assert config_from_argv([*base, "-T"]).transactions
    assert not config_from_argv([*base, "-T", "-t"]).transactions
    assert config_from_argv([*base, "-T", "-a"]).append_log


async def test_our_dealer_resumes_a_reference_transaction_file(tmp_path: Path) -> None:
    """The reference dealer 'crashed' after 101 actions, before logging hand 18: resumed by
    our dealer with the same actions, the log is the reference's log, byte for byte."""
    tlog = (FOLDER / "leduc_s31.tlog").read_text().splitlines(keepends=True)
    (tmp_path / "leduc_s31.tlog").write_text("".join(tlog[:101]) + tlog[101][:7])  # a torn last line
    kept = [line for line in REFERENCE_LOG[:-1] if not line.startswith("STATE") or int(line.split(":")[1]) < 18]
    (tmp_path / "leduc_s31.log").write_text("\n".join(kept) + "\n")
    replays = {
        hand.hand_number: [action for _, _, action in hand.state.history()]
        for hand in (parse_state_line(line, GAME) for line in REFERENCE_LOG if line.startswith("STATE"))
    }
    config = DealerConfig(
        match_name="leduc_s31",
        game=GAME,
        game_label="leduc.limit.2p.game",
        hands=40,
        seed=31,
        names=["A", "B"],
        output_dir=tmp_path,
        transactions=True,
        append_log=True,
    )
    result, clients = await run_match(config, [ReplayStrategy(GAME, replays) for _ in range(2)])
    assert result.error is None and all(client.error is None for client in clients)
    assert (tmp_path / "leduc_s31.log").read_text().splitlines() == REFERENCE_LOG
    assert (tmp_path / "leduc_s31.tlog").read_text().count("\n") == len(tlog)


class Hashing(Strategy):
    """Deterministic but varied play: the action is a hash of the hand and its betting (so a
    client restarted mid-match plays as the one before it would have)."""

    name = "hashing"
    cheap = True

    def decide(self, view: MatchState, deadline: float) -> Action:
        state = view.state
        legal = state.legal_actions()
        options = [CALL, *([FOLD] if legal.can_fold else []), *([LIMIT_RAISE] if legal.can_raise else [])]
        digest = hashlib.sha256(f"{view.hand_number}:{state.betting_string()}".encode()).digest()
        return options[digest[0] % len(options)]


async def _serve_with_clients(folder: Path, *extra: str, kill_at: int | None = None) -> int:
    """``pokerbot dealer`` (a process) with two in-process clients; SIGKILL it once the log
    has ``kill_at`` hands. The dealer's exit status."""
    folder.mkdir(exist_ok=True)
    dealer = subprocess.Popen(
        [*CLI, "dealer", "m", "leduc", "300", "5", "A", "B", "-T", "-q", "--out", str(folder), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert dealer.stdout is not None
    ports = (await asyncio.to_thread(dealer.stdout.readline)).split()
    clients = [
        asyncio.create_task(play_match(f"tcp://127.0.0.1:{int(port)}", GAME, Hashing(GAME), connect_timeout=30))
        for port in ports
    ]
    log = folder / "m.log"
    async with asyncio.timeout(120):
        while kill_at is not None:
            if log.exists() and log.read_text().count("\nSTATE:") >= kill_at:
                dealer.kill()
                break
            await asyncio.sleep(0.005)
        await asyncio.gather(*clients)
        return await asyncio.to_thread(dealer.wait)


@pytest.mark.slow
async def test_a_dealer_killed_at_hand_150_resumes_to_the_same_log(tmp_path: Path) -> None:
    assert await _serve_with_clients(tmp_path / "whole") == 0
    whole = (tmp_path / "whole" / "m.log").read_text()
    assert await _serve_with_clients(tmp_path / "killed", kill_at=150) == -signal.SIGKILL
    assert await _serve_with_clients(tmp_path / "killed", "-a") == 0
    assert (tmp_path / "killed" / "m.log").read_text() == whole
    assert (tmp_path / "killed" / "m.tlog").read_text() != ""
    assert check_log(whole.splitlines(), GAME).ok


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_the_dealer_with_one_line_and_no_blame(tmp_path: Path, signum: int) -> None:
    dealer = subprocess.Popen(
        [*CLI, "dealer", "m", "kuhn", "5", "1", "A", "B", "-q", "--out", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert dealer.stdout is not None
    dealer.stdout.readline()  # the ports: the dealer waits for its seats
    dealer.send_signal(signum)
    _, err = dealer.communicate(timeout=30)
    assert dealer.returncode == 128 + signum
    errors = [line for line in err.splitlines() if line.startswith("ERROR")]
    assert errors == [f"ERROR: stopped by {signal.Signals(signum).name} before the match started"]


async def test_a_signal_in_a_match_keeps_every_finished_hand(tmp_path: Path) -> None:
    config = DealerConfig(
        match_name="m", game=load_game("kuhn"), hands=10_000, seed=1, names=["A", "B"], output_dir=tmp_path
    )
    dealer, ports = await start_dealer(config, catch_signals=True)
    clients = [
        asyncio.create_task(play_match(f"tcp://127.0.0.1:{port}", config.game, Hashing(config.game))) for port in ports
    ]
    while not (tmp_path / "m.log").exists() or (tmp_path / "m.log").read_text().count("STATE:") < 20:
        await asyncio.sleep(0.01)
    signal.raise_signal(signal.SIGINT)
    result = await dealer
    await asyncio.gather(*clients)
    assert result.signal == signal.SIGINT and result.error is not None
    assert result.error.startswith(f"stopped by SIGINT in hand {result.hands_played}: the log keeps the ")
    assert "seat" not in result.error
    lines = (tmp_path / "m.log").read_text().splitlines()
    assert sum(line.startswith("STATE") for line in lines) == result.hands_played
