"""Hand histories: every reference log converts to PHH and back, and pokerkit, an
independent engine, agrees with our values on every hand; PokerStars text reads back in
pokerkit; ``pokerbot log check`` and ``log convert`` on PHH and logs without ``--game``."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from pokerkit import HandHistory
from typer.testing import CliRunner

from pokerbot.bot.cli.app import app
from pokerbot.protocol.errors import LogFormatError
from pokerbot.protocol.game import load_game
from pokerbot.protocol.matchlog import (
    check_log,
    format_state_line,
    game_from_header,
    parse_state_line,
    read_header,
    read_log,
    same_value,
)
from pokerbot.protocol.phh import dumps_phh, hand_to_phh, loads_phh, phh_to_hand, pokerkit_payoffs
from pokerbot.protocol.pokerkit_games import exact_divmod
from pokerbot.protocol.pokerstars import format_pokerstars_match
from tests.conftest import FIXTURES, REFERENCE_NAMES

runner = CliRunner()


def _log(name: str) -> tuple[list[str], object]:
    lines = (FIXTURES / name / "log.txt").read_text().splitlines()
    game, _ = game_from_header(read_header(lines))
    return lines, game


SEVEN = ["kuhn2p_s16", "kuhn3p_s15", "leduc2p_s17", "limit2p_s11", "limit3p_s13", "nolimit2p_s12", "nolimit3p_s14"]
"""The seven reference logs of ../shared/acpc-reference (300 hands each, built-in games)."""


def test_the_seven_reference_logs_name_their_built_in_games() -> None:
    for name in SEVEN:
        lines, game = _log(name)
        assert game == load_game(str(FIXTURES / name / "game.txt"))
        assert len(read_log(lines, game).hands) == 300


@pytest.mark.parametrize("name", REFERENCE_NAMES)
def test_reference_logs_convert_to_phh_and_back_and_pokerkit_agrees_on_every_payoff(name: str) -> None:
    lines = (FIXTURES / name / "log.txt").read_text().splitlines()
    game = load_game(str(FIXTURES / name / "game.txt"))
    hands = read_log(lines, game).hands
    assert len(hands) == sum(line.startswith("STATE") for line in lines) >= 100
    histories = list(loads_phh(dumps_phh(hand_to_phh(hand, game) for hand in hands)))
    assert len(histories) == len(hands)
    for hand, history in zip(hands, histories):
        payoffs = pokerkit_payoffs(history)
        assert payoffs == list(hand.state.values())  # exactly, split pots included
        assert all(same_value(logged, paid) for logged, paid in zip(hand.values, payoffs))
        back = phh_to_hand(history)
        assert format_state_line(back.hand_number, back.state, back.names) == format_state_line(
            hand.hand_number, hand.state, hand.names
        )
    logged = [line for line in lines if line.startswith("STATE")]
    assert [format_state_line(h.hand_number, h.state, h.names) for h in hands] == logged


def test_plain_pokerkit_reads_our_holdem_phh() -> None:
    """FT and NT hands are standard PHH: pokerkit's own HandHistory replays them."""
    for name in ("nolimit2p_s12", "limit3p_s13"):
        lines, game = _log(name)
        hands = read_log(lines, game).hands[:40]
        for hand, history in zip(hands, HandHistory.loads_all(dumps_phh(hand_to_phh(h, game) for h in hands))):
            history.divmod = exact_divmod
            assert [float(v) for v in list(history)[-1].payoffs] == list(hand.state.values())


@pytest.mark.parametrize("name", ["nolimit2p_s12", "nolimit3p_s14"])
def test_pokerstars_text_reads_back_in_pokerkit_with_our_payoffs(name: str) -> None:
    lines, game = _log(name)
    hands = read_log(lines, game).hands
    text = format_pokerstars_match(hands, game, table="t")
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*time_zone_abbreviation.*")  # pokerkit's own field name
        parsed = list(HandHistory.from_pokerstars(text, error_status=True))
    assert len(parsed) == len(hands)
    for hand, history in zip(hands, parsed):
        history.divmod = exact_divmod
        payoffs = dict(zip(history.players or [], list(history)[-1].payoffs))
        assert {player: float(value) for player, value in payoffs.items()} == dict(zip(hand.names, hand.state.values()))


def test_pokerstars_limit_text_and_refusal_of_other_games() -> None:
    lines, game = _log("limit2p_s11")
    hands = read_log(lines, game).hands
    text = format_pokerstars_match(hands, game)
    assert text.count("PokerStars Hand #") == 300 and "Hold'em Limit (10/20)" in text
    first = text.split("\n\n\n")[0]
    assert "B: posts small blind 5\nA: posts big blind 10" in first
    lines, kuhn = _log("kuhn2p_s16")
    with pytest.raises(LogFormatError, match="Texas hold'em only"):
        format_pokerstars_match(read_log(lines, kuhn).hands, kuhn)


def test_phh_with_a_changed_amount_is_caught(tmp_path: Path) -> None:
    lines, game = _log("nolimit2p_s12")
    hands = read_log(lines, game).hands[:5]
    text = dumps_phh(hand_to_phh(hand, game) for hand in hands)
    bad = tmp_path / "bad.phhs"
    bad.write_text(text.replace("'p1 cbr 14564'", "'p1 cbr 99999'", 1))
    assert bad.read_text() != text
    result = runner.invoke(app, ["log", "check", str(bad)])
    assert result.exit_code == 1
    assert "hand 0: action 6 'p1 cbr 99999': raise to 100099 is out of range" in result.output


def test_log_cli_converts_and_checks_without_game(tmp_path: Path) -> None:
    log = FIXTURES / "leduc2p_s17" / "log.txt"
    phh, back, stars = tmp_path / "out" / "l.phhs", tmp_path / "l.log", tmp_path / "s.txt"
    result = runner.invoke(app, ["log", "convert", str(log), "--to", "phh", "--out", str(phh)])
    assert result.exit_code == 0, result.output
    assert "300 hands converted to phh" in result.output and f"wrote {phh}" in result.output
    checked = runner.invoke(app, ["log", "check", str(phh)])
    assert checked.exit_code == 0 and "OK: every hand is legal" in checked.output, checked.output
    result = runner.invoke(app, ["log", "convert", str(phh), "--to", "acpc", "--out", str(back)])
    assert result.exit_code == 0, result.output
    assert [line for line in back.read_text().splitlines() if line.startswith("STATE")] == [
        line for line in log.read_text().splitlines() if line.startswith("STATE")
    ]
    assert check_log(back.read_text().splitlines(), load_game("leduc")).ok
    assert runner.invoke(app, ["log", "check", str(back)]).exit_code == 0  # the header names leduc
    refused = runner.invoke(app, ["log", "convert", str(log), "--to", "pokerstars", "--out", str(stars)])
    assert refused.exit_code == 2 and "Texas hold'em only" in refused.output
    assert not stars.exists()


def test_log_check_stops_after_a_few_errors_with_a_count(tmp_path: Path) -> None:
    lines = (FIXTURES / "limit2p_s11" / "log.txt").read_text().splitlines()
    broken = [line.replace(":A|B", ":A|A") if line.startswith("STATE") else line for line in lines]
    path = tmp_path / "broken.log"
    path.write_text("\n".join(broken) + "\n")
    result = runner.invoke(app, ["log", "check", str(path), "--max-errors", "3"])
    assert result.exit_code == 1
    assert result.output.count("a player appears twice") == 3
    assert "3 problems; checking stopped there" in result.output
    missing = runner.invoke(app, ["log", "check", str(tmp_path / "nope.log")])
    assert missing.exit_code == 2 and "cannot read" in missing.output


def test_a_log_naming_an_unknown_game_asks_for_game(tmp_path: Path) -> None:
    path = tmp_path / "x.log"
    path.write_text("# name/game/hands/seed x mystery.game 1 1\nSCORE:0|0:A|B\n")
    result = runner.invoke(app, ["log", "check", str(path)])
    assert result.exit_code == 2 and "'mystery.game', which is no built-in game or file; give --game" in result.output


UNCALLED = ["STATE:0:r300r20000f:AhKh|2c7d:300|-300:a|b", "STATE:1:cc/r20000f:2c7d|AhKh/2s3s4s:100|-100:a|b"]
"""An all-in folded to before the flop (19,700 uncalled) and on the flop (19,900 uncalled)."""


def test_phh_says_what_each_player_took_from_the_pot_and_its_stack_after_an_uncalled_bet() -> None:
    game = load_game("holdem-nolimit-2p")
    first, second = (hand_to_phh(parse_state_line(line, game), game) for line in UNCALLED)
    assert (first.winnings, first.finishing_stacks) == ([600, 0], [20300, 19700])
    assert (second.winnings, second.finishing_stacks) == ([200, 0], [20100, 19900])
    for written, read in zip((first, second), HandHistory.loads_all(dumps_phh([first, second]))):
        assert read.winnings == written.winnings and read.finishing_stacks == written.finishing_stacks
        assert list(list(read)[-1].stacks) == written.finishing_stacks  # pokerkit returns the bet as we say


def test_pokerstars_text_returns_the_uncalled_bet_and_collects_the_pot_as_it_was() -> None:
    game = load_game("holdem-nolimit-2p")
    hands = [parse_state_line(line, game) for line in UNCALLED]
    first, second = format_pokerstars_match(hands, game).split("\n\n\n")[:2]
    for text, winner, returned, pot in ((first, "a", 19700, 600), (second, "a", 19900, 200)):
        lines = text.splitlines()
        at = lines.index(f"Uncalled bet ({returned}) returned to {winner}")
        assert lines[at + 1] == f"{winner} collected {pot} from pot"
        assert f"Total pot {pot} | Rake 0" in lines
        assert any(
            line.startswith("Seat ") and line.endswith(f"{winner} (big blind) collected ({pot})") for line in lines
        )
