"""The reference dealer's transaction file: read and write its lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerbot.protocol.actions import CALL, FOLD, Action, ActionKind
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.matchlog import parse_state_line
from pokerbot.protocol.transactions import (
    Transaction,
    TransactionFormatError,
    format_transaction,
    parse_transaction,
    read_transactions,
)

FOLDER = Path(__file__).parent / "fixtures" / "transactions"


def test_every_reference_line_reads_and_is_rewritten_identically() -> None:
    game = load_game(FOLDER / "leduc.limit.2p.game")
    lines = (FOLDER / "leduc_s31.tlog").read_text().splitlines()
    for line in lines:
        assert format_transaction(parse_transaction(line, game), game) == line


def test_the_reference_transactions_rebuild_its_log() -> None:
    game = load_game(FOLDER / "leduc.limit.2p.game")
    with open(FOLDER / "leduc_s31.tlog") as lines:
        transactions = list(read_transactions(lines, game))
    logged = [
        parse_state_line(line, game)
        for line in (FOLDER / "leduc_s31.log").read_text().splitlines()
        if line.startswith("STATE")
    ]
    index = 0
    for hand in logged:
        state = HandState(game)
        while not state.finished:
            transaction = transactions[index]
            assert transaction.hand_number == hand.hand_number and transaction.seconds >= 0
            state.apply(transaction.action)
            index += 1
        assert state.betting_string() == hand.state.betting_string()
    assert index == len(transactions)


def test_no_limit_raises_and_times() -> None:
    game = load_game("holdem-nolimit-2p")
    transaction = Transaction(Action(ActionKind.RAISE, 1200), 7, 1795502674.8198251, 1795502674.9999999)
    line = format_transaction(transaction, game)
    assert line == "r1200 7 1795502674.819825 1795502675.000000"
    again = parse_transaction(line, game)
    assert again.action == transaction.action and again.hand_number == 7
    assert again.received == pytest.approx(1795502675.0)
    assert format_transaction(Transaction(FOLD, 0, 1.0, 2.5), game) == "f 0 1.000000 2.500000"
    assert parse_transaction("c 3 10 11.5", game) == Transaction(CALL, 3, 10.0, 11.5)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("c 0 1.0", "expected"),
        ("x 0 1.0 2.0", "action"),
        ("r 0 1.0 2.0", "no-limit raise needs a size"),
        ("c -1 1.0 2.0", "hand number"),
        ("c 0 1.0 2.0e3", "received"),
        ("c 0 abc 2.0", "sent"),
    ],
)
def test_bad_lines_say_what_is_wrong(line: str, message: str) -> None:
    with pytest.raises(TransactionFormatError, match=message):
        parse_transaction(line, load_game("holdem-nolimit-2p"))


def test_a_torn_last_line_is_dropped_and_errors_name_the_line() -> None:
    game = load_game("leduc")
    assert list(read_transactions(["c 0 1.0 2.0\n", "\n", "r 0 3.0 4.0"], game)) == [Transaction(CALL, 0, 1.0, 2.0)]
    with pytest.raises(TransactionFormatError, match="line 2: "):
        list(read_transactions(["c 0 1.0 2.0\n", "c zero 1.0 2.0\n"], game))
