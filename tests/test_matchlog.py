import random
from pathlib import Path

from typer.testing import CliRunner

from pokerbot.bot.cli.app import app
from pokerbot.protocol.game import load_game
from pokerbot.protocol.matchlog import (
    check_log,
    format_score_line,
    format_state_line,
    format_value,
    parse_score_line,
    parse_state_line,
    same_value,
)
from tests.conftest import FIXTURES, Reference, play_random_hand


def test_reference_logs_check_clean_and_totals_equal_the_score(reference: Reference):
    report = check_log(reference.log_lines, reference.game)
    assert report.ok, report.problems
    assert report.hands == int(reference.log_lines[0].split()[-2])
    assert report.score is not None
    for name, total in zip(report.score.names, report.score.totals):
        assert format_value(report.totals[name]) == format_value(total)


def test_every_reference_state_line_is_rewritten_identically(reference: Reference):
    for line in reference.log_lines:
        if line.startswith("STATE"):
            hand = parse_state_line(line, reference.game)
            assert format_state_line(hand.hand_number, hand.state, hand.names) == line
        elif line.startswith("SCORE"):
            score = parse_score_line(line)
            assert format_score_line(score.totals, score.names) == line


def test_values_are_spelled_as_the_reference_spells_them():
    # C's %.6f without trailing zeros: six decimals at most, never an exponent.
    assert format_value(40000.0) == "40000"
    assert format_value(-1684.5) == "-1684.5"
    assert format_value(20000 / 3) == "6666.666667"
    assert format_value(-0.0) == "0"
    assert format_value(1.5e6) == "1500000"
    assert same_value(6666.666667, 20000 / 3) and same_value(20000 / 3, 20000 / 3)
    assert not same_value(6666.67, 20000 / 3)  # a %g spelling is not the reference's


def test_a_g_formatted_value_is_reported_with_both_spellings():
    lines = (FIXTURES / "ties4p_s22" / "log.txt").read_text().splitlines()
    number, line = next((n, line) for n, line in enumerate(lines, 1) if ".666667" in line)
    lines[number - 1] = line.replace(".666667", ".66667")
    report = check_log(lines, load_game(FIXTURES / "ties4p_s22" / "game.txt"))
    assert not report.ok
    assert report.problems[0].startswith(f"line {number}: hand ")
    assert "logged 4.66667, the rules give 4.666667" in report.problems[0]


def test_written_logs_of_random_play_check_clean():
    game = load_game("holdem-nolimit-3p")
    rng = random.Random(9)
    names = ["x", "y", "z"]
    totals = dict.fromkeys(names, 0.0)
    lines = ["# a header"]
    for hand_number in range(200):
        state = play_random_hand(game, rng)
        seating = [names[(p + hand_number) % 3] for p in range(3)]
        lines.append(format_state_line(hand_number, state, seating))
        for name, value in zip(seating, state.values()):
            totals[name] += value
    lines.append(format_score_line([totals[n] for n in names], names))
    report = check_log(lines, game)
    assert report.ok, report.problems
    assert report.totals == totals


def test_disagreements_are_reported_with_line_numbers():
    lines = (FIXTURES / "kuhn2p_s16" / "log.txt").read_text().splitlines()
    assert lines[4] == "STATE:0:cc:Ks|Qs:1|-1:A|B"
    lines[4] = "STATE:0:cc:Ks|Qs:2|-2:A|B"  # wrong values
    lines[5] = "STATE:1:rc:As|As:2|-2:B|A"  # duplicate card
    lines[6] = "STATE:2:rr:Ks|As:-2|2:A|B"  # illegal: Kuhn allows one raise
    report = check_log(lines, load_game("kuhn"))
    assert not report.ok
    text = "\n".join(report.problems)
    assert "line 5: hand 0: position 0 (A) logged 2, the rules give 1" in text
    assert "line 6:" in text and "As appears twice" in text
    assert "line 7:" in text and "illegal action r" in text
    assert "line 305: SCORE gives" in text


def test_missing_score_line_is_a_problem():
    lines = (FIXTURES / "kuhn2p_s16" / "log.txt").read_text().splitlines()[:-1]
    report = check_log(lines, load_game("kuhn"))
    assert report.problems == [f"line {len(lines)}: no SCORE line"]


runner = CliRunner()


def test_cli_log_check_exit_codes(tmp_path: Path):
    good = FIXTURES / "nolimit2p_s12" / "log.txt"
    result = runner.invoke(app, ["log", "check", str(good), "--game", "holdem-nolimit-2p"])
    assert result.exit_code == 0, result.output
    assert "420910" in result.output and "OK" in result.output
    # mbb/hand = 1000 * 420910 chips / 100 chips / 300 hands
    assert "14,030" in result.output

    bad = tmp_path / "bad.log"
    bad.write_text(good.read_text().replace("SCORE:420910|", "SCORE:420911|"))
    result = runner.invoke(app, ["log", "check", str(bad), "--game", "holdem-nolimit-2p"])
    assert result.exit_code == 1
    assert "line 305: SCORE gives A 420911" in result.output

    result = runner.invoke(app, ["log", "check", str(good), "--game", "nonsense"])
    assert result.exit_code == 2 and "neither a built-in game" in result.output
    result = runner.invoke(app, ["log", "check", str(tmp_path / "absent.log"), "--game", "leduc"])
    assert result.exit_code == 2 and "cannot read" in result.output
