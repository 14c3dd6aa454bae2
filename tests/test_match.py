"""Matches: the in-process engine against the rules, logs, determinism, duplicate mode,
statistics, the ``pokerbot match`` command and (when the dealer exists) loopback."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerbot.bot.cli.app import app
from pokerbot.bot.cli.match import COMPILING, bankroll_figure
from pokerbot.bot.matches.base import MatchConfigError, MatchError, MatchOutcome, strategy_seed
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.bot.matches.loopback import run_loopback_match
from pokerbot.bot.matches.plan import make_plan, play_plan
from pokerbot.bot.matches.stats import duplicate_series, match_stats, mean_and_ci95, player_series, summarize
from pokerbot.protocol.actions import Action, ActionKind
from pokerbot.protocol.dealing import Dealer
from pokerbot.protocol.game import BUILTIN_GAMES, Game, load_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.matchlog import check_log, parse_state_line
from pokerbot.protocol.names import unique_player_names
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies import solvers
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.registry import default_registry

REGISTRY = default_registry()


def create(strategies: list[str], game: Game, seed: int = 1) -> list[Strategy]:
    names = unique_player_names(strategies)
    return [REGISTRY.create(strategy, game, strategy_seed(seed, name)) for strategy, name in zip(strategies, names)]


def expected_values(
    game: Game, seed: int, hands: int, strategies: list[Strategy], names: list[str]
) -> list[dict[str, float]]:
    """Per-hand values by name, played directly on the engine (deterministic strategies)."""
    dealer = Dealer(game, seed)
    n = game.num_players
    result = []
    for hand_number in range(hands):
        deal = dealer.deal()
        state = HandState(game, deal.hole_cards, deal.board_cards)
        while not state.finished:
            p = state.current_player
            assert p is not None
            view = MatchState(p, hand_number, state.view(p))
            state.apply(strategies[(p + hand_number) % n].decide(view, math.inf))
        result.append({names[(p + hand_number) % n]: v for p, v in enumerate(state.values())})
    return result


@pytest.mark.parametrize("game_name", ["holdem-nolimit-2p", "kuhn3p", "holdem-limit-3p"])
def test_inprocess_values_are_the_engines(game_name: str) -> None:
    game = load_game(game_name)
    strategy_names = ["always-raise", "always-call", "always-fold"][: game.num_players]
    outcome = run_inprocess_match(game, 200, 7, create(strategy_names, game), strategy_names)
    assert outcome.per_hand_values == expected_values(game, 7, 200, create(strategy_names, game), strategy_names)
    assert outcome.hands_played == 200
    for name in strategy_names:
        assert outcome.totals[name] == pytest.approx(sum(player_series(outcome.per_hand_values, name)))
    assert outcome.illegal_actions == dict.fromkeys(strategy_names, 0)


@pytest.mark.parametrize("game_name", ["holdem-nolimit-2p", "leduc", "holdem-nolimit-3p"])
def test_log_passes_check_log_with_the_outcomes_totals(game_name: str, tmp_path: Path) -> None:
    game = load_game(game_name)
    names = unique_player_names(["random"] * game.num_players)
    log_path = tmp_path / "m.log"
    outcome = run_inprocess_match(game, 300, 3, create(["random"] * game.num_players, game), names, log_path=log_path)
    lines = log_path.read_text().splitlines()
    report = check_log(lines, game)
    assert report.ok, report.problems
    assert report.hands == 300
    assert report.score is not None and list(report.score.names) == names
    for name in names:
        assert report.totals[name] == pytest.approx(outcome.totals[name])
    state_lines = [line for line in lines if line.startswith("STATE")]
    for line, values in zip(state_lines, outcome.per_hand_values, strict=True):
        hand = parse_state_line(line, game)
        assert dict(zip(hand.names, hand.values, strict=True)) == pytest.approx(values)


def test_seats_rotate_and_can_be_fixed(tmp_path: Path) -> None:
    game = load_game("kuhn3p")
    names = ["a", "b", "c"]
    log_path = tmp_path / "m.log"
    run_inprocess_match(game, 4, 1, create(["random"] * 3, game), names, log_path=log_path)
    seatings = [parse_state_line(line, game).names for line in log_path.read_text().splitlines() if line[:5] == "STATE"]
    assert seatings == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b"), ("a", "b", "c")]
    run_inprocess_match(game, 3, 1, create(["random"] * 3, game), names, fixed_seats=True, log_path=log_path)
    seatings = [parse_state_line(line, game).names for line in log_path.read_text().splitlines() if line[:5] == "STATE"]
    assert seatings == [("a", "b", "c")] * 3


def test_same_seed_same_result_and_another_seed_differs(tmp_path: Path) -> None:
    game = load_game("holdem-nolimit-2p")

    def run(seed: int) -> list[dict[str, float]]:
        plan = make_plan(
            game, "holdem-nolimit-2p", 200, seed, ["random", "random"], REGISTRY, in_process=True, output_dir=tmp_path
        )
        return play_plan(plan, REGISTRY)[0].per_hand_values

    assert run(5) == run(5)
    assert run(5) != run(6)


@pytest.mark.parametrize("game_name", ["holdem-nolimit-2p", "kuhn", "holdem-limit-2p"])
def test_duplicate_always_call_pair_is_exactly_zero(game_name: str, tmp_path: Path) -> None:
    game = load_game(game_name)
    plan = make_plan(
        game,
        game_name,
        100,
        4,
        ["always-call", "always-call"],
        REGISTRY,
        in_process=True,
        duplicate=True,
        output_dir=tmp_path,
    )
    first, second = play_plan(plan, REGISTRY)
    assert first.names == ("always-call", "always-call-2") and second.names == first.names[::-1]
    assert any(first.per_hand_values)
    for name in first.names:
        assert duplicate_series(first.per_hand_values, second.per_hand_values, name) == [0.0] * 100
    stats = match_stats([first.per_hand_values, second.per_hand_values], plan.names, game.big_blind)
    assert [(s.total, s.mean, s.ci95) for s in stats] == [(0.0, 0.0, 0.0)] * 2
    assert (tmp_path / "match.log").exists() and (tmp_path / "match-swapped.log").exists()


def test_confidence_intervals_on_known_data() -> None:
    mean, half = mean_and_ci95([1.0, 2.0, 3.0, 4.0, 5.0])
    assert mean == 3.0
    assert half == pytest.approx(1.96 * math.sqrt(2.5) / math.sqrt(5))
    assert math.isnan(mean_and_ci95([7.0])[1]) and mean_and_ci95([7.0])[0] == 7.0
    stats = summarize("p", [100.0, -100.0, 300.0, -100.0], big_blind=100)
    assert stats.total == 200.0 and stats.mean == 50.0
    assert stats.mbb_per_hand == 500.0
    assert stats.mbb_ci95 == pytest.approx(1000 * 1.96 * math.sqrt(110_000 / 3) / 2 / 100)  # 4 hands
    assert stats.interval == pytest.approx((50.0 - stats.ci95, 50.0 + stats.ci95))
    assert duplicate_series([{"a": 4.0}, {"a": -2.0}], [{"a": -2.0}, {"a": 0.0}], "a") == [1.0, -1.0]


class Cheater(Strategy):
    """Always asks for an out-of-range raise, or a fold when checking is free."""

    name = "cheater"

    def decide(self, view: MatchState, deadline: float) -> Action:
        legal = view.state.legal_actions()
        if legal.can_fold is False and view.state.round % 2:
            return Action(ActionKind.FOLD)
        return Action.raise_to(10**9)


def test_illegal_actions_are_repaired_as_the_dealer_does_and_counted() -> None:
    game = load_game("holdem-nolimit-2p")
    players = [Cheater(game, 1), REGISTRY.create("always-call", game, 2)]
    outcome = run_inprocess_match(game, 20, 1, players, ["cheater", "caller"])
    assert outcome.illegal_actions["cheater"] == 20  # each first raise is clamped to all-in
    assert outcome.illegal_actions["caller"] == 0


def test_wrong_players_and_crashing_strategies_raise_clear_errors() -> None:
    game = load_game("kuhn")
    with pytest.raises(MatchConfigError, match="2 players, 3 were given"):
        run_inprocess_match(game, 1, 1, create(["random"] * 3, game), ["a", "b", "c"])
    with pytest.raises(MatchConfigError, match="distinct"):
        run_inprocess_match(game, 1, 1, create(["random"] * 2, game), ["a", "a"])
    with pytest.raises(MatchConfigError, match="2-player"):
        make_plan(load_game("kuhn3p"), "kuhn3p", 1, 1, ["random"] * 3, REGISTRY, duplicate=True)

    class Broken(Strategy):
        def decide(self, view: MatchState, deadline: float) -> Action:
            raise ZeroDivisionError("boom")

    with pytest.raises(MatchError, match="a failed in hand 0"):
        run_inprocess_match(game, 1, 1, [Broken(game), Broken(game)], ["a", "b"])
    assert unique_player_names(["random", "random", "random-2"]) == ["random", "random-2", "random-2-2"]


def test_cli_in_process_writes_json_log_and_plot(tmp_path: Path) -> None:
    out, report = tmp_path / "out", tmp_path / "r.json"
    result = CliRunner().invoke(
        app,
        [
            "match",
            "--in-process",
            "--hands",
            "50",
            "--quiet",
            "--json",
            str(report),
            "--out",
            str(out),
            "--players",
            "push-fold",
            "random",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "push-fold" in result.output and "mbb/hand" in result.output
    data = json.loads(report.read_text())
    assert data["game"] == "holdem-nolimit-2p" and data["seed"] == 1 and data["series_length"] == 50
    players = {p["name"]: p for p in data["players"]}
    assert players["push-fold"]["total_chips"] == -players["random"]["total_chips"]
    assert (out / "bankroll.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    log = (out / "match.log").read_text().splitlines()
    checked = check_log(log, load_game("holdem-nolimit-2p"))
    assert checked.ok and checked.hands == 50
    assert checked.totals["push-fold"] == pytest.approx(players["push-fold"]["total_chips"])


def test_cli_duplicate_in_a_small_game_reports_chips_per_hand(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "match",
            "--in-process",
            "-q",
            "-g",
            "kuhn",
            "-n",
            "30",
            "--duplicate",
            "--out",
            str(tmp_path),
            "--players",
            "always-call,always-call",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "chips/hand" in result.output and "duplicate" in result.output


def test_cli_table_is_whole_in_a_pipe_and_names_players_as_typed(tmp_path: Path) -> None:
    """Standard output a pipe, ``COLUMNS=40``: the table keeps every column whole (no ``…``),
    the player is named as typed (``policy:PATH``), the totals are in antes (Kuhn)."""
    policy = f"policy:{Path(solvers.__file__).parent / 'data' / 'kuhn.json'}"
    argv = ["match", "-g", "kuhn", "-n", "4", "--in-process", "-q", "--out", str(tmp_path), "--players", policy]
    done = subprocess.run(
        [sys.executable, "-m", "pokerbot.bot.cli", *argv, "always-call"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "40"},
    )
    assert done.returncode == 0, done.stderr
    assert "…" not in done.stdout
    rows = {line.split("│")[1].strip(): line for line in done.stdout.splitlines() if line.startswith("│")}
    assert set(rows) == {policy, "always-call"}
    assert "total (antes)" in done.stdout and "big blind" not in done.stdout
    assert all(len(row) == len(rows[policy]) and row.rstrip().endswith("│") for row in rows.values())
    assert "4 hands" in done.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--players", "random", "nobody"], "unknown strategy 'nobody'"),
        (["--players", "random", "random", "random"], "the game has 2 players, 3 were given"),
        (["--game", "no-such-game"], "no-such-game"),
        (["--hands", "0"], "--hands must be at least 1"),
        (["--game", "kuhn3p", "--duplicate"], "2-player"),
    ],
)
def test_cli_bad_usage_exits_2_saying_what_is_wrong(arguments: list[str], message: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["match", "--in-process", "-q", "--out", str(tmp_path), *arguments])
    assert result.exit_code == 2
    assert message in result.output


def test_loopback_match_agrees_with_in_process(tmp_path: Path) -> None:
    game = load_game("leduc")
    common = {"in_process": False, "output_dir": tmp_path}
    plan = make_plan(game, "leduc", 40, 2, ["random", "always-raise"], REGISTRY, **common)
    (loopback,) = play_plan(plan, REGISTRY)
    assert loopback.error is None and loopback.hands_played == 40
    local_plan = make_plan(
        game, "leduc", 40, 2, ["random", "always-raise"], REGISTRY, in_process=True, output_dir=tmp_path / "local"
    )
    (local,) = play_plan(local_plan, REGISTRY)
    assert loopback.per_hand_values == local.per_hand_values
    assert loopback.log_path is not None and check_log(loopback.log_path.read_text().splitlines(), game).ok


def test_cli_loopback_by_default_with_progress_bar(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    result = CliRunner().invoke(
        app,
        ["match", "-g", "kuhn3p", "-n", "30", "--out", str(tmp_path), "--json", str(report)],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text())
    assert data["mode"] == "loopback" and [p["name"] for p in data["players"]] == ["equilibrium", "random", "random-2"]
    assert sum(p["total_chips"] for p in data["players"]) == pytest.approx(0.0)
    assert check_log((tmp_path / "match.log").read_text().splitlines(), load_game("kuhn3p")).ok


class Sluggish(Strategy):
    """Takes 1.2 s over every decision: three times the response limit below."""

    name = "sluggish"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.decisions = 0

    def decide(self, view: MatchState, deadline: float) -> Action:
        self.decisions += 1
        time.sleep(1.2)
        return Action(ActionKind.FOLD)


def test_loopback_clients_play_under_the_dealers_limits(tmp_path: Path) -> None:
    """A 400 ms response limit and a strategy that needs 1.2 s: its client, told the limits,
    sends its fallback before the dealer's deadline (half the limit: 200 ms to spare on a busy
    machine), and the match runs to its end."""
    game = load_game("kuhn")
    slow = Sluggish(game)
    outcome = run_loopback_match(
        game,
        12,
        5,
        [slow, REGISTRY.create("random", game, 1)],
        ["sluggish", "random"],
        output_dir=tmp_path,
        limits=TimeLimits(response_ms=400),
    )
    assert outcome.error is None and outcome.hands_played == 12
    assert outcome.illegal_actions["sluggish"] >= 1  # fallbacks sent (the strategy runs in a process of its own)
    assert outcome.illegal_actions["random"] == 0
    log = (tmp_path / "match.log").read_text().splitlines()
    assert "#--t_response 400" in log and check_log(log, game).ok


@pytest.mark.parametrize("game_name", sorted(BUILTIN_GAMES))
def test_one_engine_in_process_over_the_wire_and_over_tcp_byte_for_byte(game_name: str, tmp_path: Path) -> None:
    """always-call against random, one seed: the in-process match (straight and through an
    in-memory wire) and the loopback TCP match write the same log, byte for byte."""
    game = load_game(game_name)
    strategy_names = ["always-call"] + ["random"] * (game.num_players - 1)
    names = unique_player_names(strategy_names)
    logs = []
    for mode in ("direct", "wire", "tcp"):
        folder = tmp_path / mode
        folder.mkdir()
        players = create(strategy_names, game, seed=9)
        options = {"match_name": "same", "game_name": game_name}
        if mode == "tcp":
            outcome = run_loopback_match(game, 40, 9, players, names, output_dir=folder, **options)
        else:
            log_path = folder / "same.log"
            outcome = run_inprocess_match(
                game, 40, 9, players, names, log_path=log_path, wire=mode == "wire", **options
            )
        assert outcome.error is None and outcome.hands_played == 40
        logs.append((folder / "same.log").read_bytes())
    assert logs[0] == logs[1] == logs[2]
    lines = logs[0].decode().splitlines()
    assert lines[0] == f"# name/game/hands/seed same {game_name} 40 9" and lines[-1].startswith("SCORE:")
    assert check_log(lines, game).ok


COMPILING_BOT = '''
import numba

from pokerbot.protocol import CALL
from pokerbot.strategies.base import Strategy


class Compiles(Strategy):
    """Compiles a function of its own (never cached) when prepared, then always calls."""

    name = "compiles"

    def prepare(self):
        numba.njit(lambda x: x + 1)(1)

    def decide(self, view, deadline):
        return CALL
'''


def test_cli_says_it_compiles_before_the_first_hand_and_names_players_as_typed_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A strategy whose preparation compiles code: the match says so once, before the first
    hand (code loaded from numba's cache would say nothing); the player spelled ``file:Class``
    and ``policy:PATH`` is shown so in the table, the progress line and the plot, never in the
    log's spelling (``=`` for ``:``)."""
    (tmp_path / "compiling_bot.py").write_text(COMPILING_BOT)
    policy = f"policy:{Path(solvers.__file__).parent / 'data' / 'kuhn.json'}"
    argv = ["match", "-g", "kuhn", "-n", "30", "--out", "out", "--players", "compiling_bot.py:Compiles", policy]
    done = subprocess.run(
        [sys.executable, "-m", "pokerbot.bot.cli", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if "compiling the solver (first run only" in line]
    assert said == [f"compiling_bot.py:Compiles: {COMPILING}"]
    assert done.stderr.index(said[0]) < done.stderr.index("wrote ")
    assert "=" not in done.stdout + done.stderr.replace("kuhn.json", "")
    assert "compiling_bot.py:Compiles" in done.stdout and policy in done.stdout
    log = (tmp_path / "out" / "match.log").read_text()
    assert "compiling_bot.py=Compiles" in log  # the log's names hold no ':'
    outcome_names = log.splitlines()[-1].split(":")[-1].split("|")
    monkeypatch.chdir(tmp_path)
    plan = make_plan(load_game("kuhn"), "kuhn", 30, 1, ["compiling_bot.py:Compiles", policy], REGISTRY)
    values = [dict.fromkeys(outcome_names, 0.0)] * 30
    outcome = MatchOutcome(tuple(plan.names), dict.fromkeys(plan.names, 0.0), values, 30)
    (axes,) = bankroll_figure(plan, [outcome]).axes
    assert axes.get_legend_handles_labels()[1] == ["compiling_bot.py:Compiles", policy]


def test_cli_refuses_zero_jobs(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["match", "-g", "kuhn", "-n", "10", "--jobs", "0", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "--jobs must be at least 1, got 0" in result.output
