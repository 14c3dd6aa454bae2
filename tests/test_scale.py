"""Experiments at scale: the executor, matches in chunks merged exactly, tournaments."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerbot.bot.cli.app import app
from pokerbot.bot.matches.base import strategy_seed
from pokerbot.bot.matches.chunks import chunk_seed, play_plan_chunked
from pokerbot.bot.matches.executor import ExecutorError, LocalExecutor, make_executor
from pokerbot.bot.matches.plan import make_plan, play_plan
from pokerbot.bot.matches.tournament import TournamentError, plan_tournament, play_tournament
from pokerbot.protocol.dealer_events import HandLogged
from pokerbot.protocol.dealer_session import DealerSession
from pokerbot.protocol.dealing import Dealer
from pokerbot.protocol.game import load_game
from pokerbot.protocol.hand import CALL
from pokerbot.strategies.base import UnknownStrategyError
from pokerbot.strategies.registry import default_registry

runner = CliRunner()


def _square(item: int, progress) -> int:  # type: ignore[no-untyped-def]
    progress(2)
    return item * item


def _niceness(item: int, progress) -> int:  # type: ignore[no-untyped-def]
    return os.nice(0)


def _fail(item: int, progress) -> int:  # type: ignore[no-untyped-def]
    raise KeyError(f"item {item}")


def test_local_executor_streams_results_and_progress() -> None:
    told: list[int] = []
    with make_executor(jobs=1) as executor:
        assert isinstance(executor, LocalExecutor)
        assert list(executor.run(_square, iter(range(4)), on_progress=told.append)) == [(0, 0), (1, 1), (2, 4), (3, 9)]
        assert executor.map(_square, [5, 6]) == [25, 36]
        with pytest.raises(KeyError, match="item 0"):
            executor.map(_fail, [0])
    assert sum(told) == 8


def test_ray_progress_is_exact_whatever_order_the_reports_arrive_in() -> None:
    """A task's last reports may reach the driver after its result: each finished task's own
    total makes the count exact (nothing lost, nothing counted twice)."""
    from pokerbot.bot.matches.executor import _ProgressTotals

    told: list[int] = []
    totals = _ProgressTotals(told.append)
    totals.running({0: 5, 1: 3})
    totals.finished(0, 12)  # 7 of task 0's 12 were still on their way
    totals.running({0: 7, 1: 2})  # ...and arrive late: already counted
    totals.finished(1, 5)
    assert sum(told) == 17 and told == [5, 3, 7, 2]


def test_ray_lost_mid_run_is_one_line_not_a_traceback() -> None:
    """A node or the progress actor lost while tasks run (here: Ray's wait raising its own
    error) ends the run with an ExecutorError naming it, and the pending tasks cancelled."""
    import types

    import ray.exceptions

    from pokerbot.bot.matches.executor import RayExecutor

    cancelled: list[object] = []

    def lost(*args: object, **kwargs: object) -> None:
        raise ray.exceptions.RaySystemError("the node running the tasks died\n(details)")

    def cancel(reference: object, force: bool) -> None:
        cancelled.append(reference)
        raise ray.exceptions.RaySystemError("no cluster")  # must not hide the first error

    executor = object.__new__(RayExecutor)
    executor.jobs = 2
    executor._ray = types.SimpleNamespace(exceptions=ray.exceptions, wait=lost, cancel=cancel)  # type: ignore[attr-defined]
    executor._remote = types.SimpleNamespace(remote=lambda *args: object())  # type: ignore[attr-defined]
    with pytest.raises(ExecutorError, match=r"^Ray failed while running the tasks: RaySystemError: .*node running"):
        list(executor.run(_square, [1, 2, 3]))
    assert len(cancelled) == 3  # the window of 2 x 2 tasks, 3 items


def test_bad_jobs_is_an_error() -> None:
    with pytest.raises(ExecutorError, match="at least 1"):
        make_executor(jobs=0)


def test_dealer_skips_deals() -> None:
    game = load_game("holdem-nolimit-2p")
    straight, skipping = Dealer(game, 7), Dealer(game, 7)
    for _ in range(5):
        straight.deal()
    skipping.skip(5)
    assert skipping.deal() == straight.deal()


def test_a_session_from_a_later_hand_deals_and_seats_as_the_long_match() -> None:
    game = load_game("leduc")

    def play(session: DealerSession) -> list[HandLogged]:
        logged = [e for e in session.start(0.0) if isinstance(e, HandLogged)]
        while not session.finished:
            logged += [e for e in session.act(session.awaiting, CALL, 0.0) if isinstance(e, HandLogged)]
        return logged

    whole = play(DealerSession(game, 9, 3, ["a", "b"], wire=False))
    tail = play(DealerSession(game, 4, 3, ["a", "b"], wire=False, first_hand=5))
    assert [h.line for h in tail] == [h.line for h in whole[5:]]
    assert tail[0].hand_number == 5


@pytest.mark.parametrize("chunk_hands", [None, 7, 25])
def test_chunked_matches_write_the_long_matchs_log(tmp_path: Path, chunk_hands: int | None) -> None:
    """Deterministic strategies: any chunking gives the unchunked duplicate match, byte for byte."""
    game, registry = load_game("holdem-limit-2p"), default_registry()
    players = ["always-call", "always-raise"]
    whole = make_plan(
        game,
        "holdem-limit-2p",
        50,
        5,
        players,
        registry,
        duplicate=True,
        in_process=True,
        output_dir=tmp_path / "whole",
    )
    play_plan(whole, registry)
    pieces = make_plan(
        game,
        "holdem-limit-2p",
        50,
        5,
        players,
        registry,
        duplicate=True,
        in_process=True,
        output_dir=tmp_path / "pieces",
    )
    merged = play_plan_chunked(pieces, LocalExecutor(), chunk_hands=chunk_hands)
    for name in ("match.log", "match-swapped.log"):
        assert (tmp_path / "pieces" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes()
    assert merged[0].outcome.hands_played == 50


def test_a_single_chunk_is_the_in_process_match_even_for_random_players(tmp_path: Path) -> None:
    game, registry = load_game("leduc"), default_registry()
    players = ["random", "equilibrium"]
    whole = make_plan(game, "leduc", 80, 2, players, registry, in_process=True, output_dir=tmp_path / "a")
    play_plan(whole, registry)
    piece = make_plan(game, "leduc", 80, 2, players, registry, in_process=True, output_dir=tmp_path / "b")
    play_plan_chunked(piece, LocalExecutor(), chunk_hands=None)
    assert (tmp_path / "a" / "match.log").read_bytes() == (tmp_path / "b" / "match.log").read_bytes()
    assert chunk_seed(2, "random", 0) == strategy_seed(2, "random") != chunk_seed(2, "random", 1)


def test_match_command_in_chunks_with_aivat(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = runner.invoke(
        app,
        ["match", "--game", "kuhn", "--players", "equilibrium", "always-call", "--hands", "200", "--duplicate"]
        + ["--jobs", "1", "--chunk-hands", "150", "--aivat", "--out", str(out), "--json", str(out / "r.json"), "-q"],
    )
    assert result.exit_code == 0, result.output
    report = json.loads((out / "r.json").read_text())
    assert report["chunk_hands"] == 150 and report["mode"] == "in-process"
    assert report["aivat"]["known"] == ["always-call", "equilibrium"]
    first = report["aivat"]["players"][0]
    assert first["series_length"] == 200
    assert first["aivat_sd_chips"] < first["sd_chips"]
    assert "AIVAT" in result.output
    lines = (out / "match.log").read_text().splitlines()
    assert sum(line.startswith("STATE:") for line in lines) == 200 and lines[-1].startswith("SCORE:")


def test_match_command_refuses_aivat_in_three_player_games() -> None:
    result = runner.invoke(app, ["match", "--game", "kuhn3p", "--aivat", "-q"])
    assert result.exit_code == 2
    assert "heads-up" in result.output


def test_tournament_plan() -> None:
    game = load_game("leduc")
    plan = plan_tournament(game, "leduc", ["random", "random", "always-call"], 10, 1)
    assert plan.names == ("random", "random-2", "always-call")
    assert len(plan.pairings) == 3 and plan.matches == 6
    given = plan_tournament(game, "leduc", ["random", "always-call"], 10, 1, pairings=[("always-call", "random")])
    assert [(p.first, p.second) for p in given.pairings] == [(1, 0)]
    with pytest.raises(TournamentError, match="no player"):
        plan_tournament(game, "leduc", ["random", "always-call"], 10, 1, pairings=[("random", "nobody")])
    with pytest.raises(TournamentError, match="heads-up"):
        plan_tournament(load_game("kuhn3p"), "kuhn3p", ["random", "always-call", "random"], 10, 1)


def test_tournament_results_are_the_matches_results(tmp_path: Path) -> None:
    """Each pairing of a tournament is the duplicate match ``pokerbot match`` would play."""
    game, registry = load_game("kuhn"), default_registry()
    players = ["equilibrium", "always-call", "random"]
    plan = plan_tournament(game, "kuhn", players, 60, 3, chunk_hands=25, output_dir=tmp_path / "t")
    result = play_tournament(plan, LocalExecutor())
    single = make_plan(
        game,
        "kuhn",
        60,
        3,
        ["equilibrium", "random"],
        registry,
        duplicate=True,
        in_process=True,
        output_dir=tmp_path / "m",
        match_name="equilibrium-vs-random",
    )
    merged = play_plan_chunked(single, LocalExecutor(), chunk_hands=25)
    pairing = next(r for r in result.pairings if (r.pairing.first, r.pairing.second) == (0, 2))
    assert [m.outcome.per_hand_values for m in pairing.matches] == [m.outcome.per_hand_values for m in merged]
    table = result.cross_table()
    assert table[0][2] is not None and table[2][0] is not None
    assert table[0][2].mbb_per_hand == pytest.approx(-table[2][0].mbb_per_hand)
    assert table[0][0] is None
    assert len(result.logs) == 6 and all(path.exists() for path in result.logs)


def test_tournament_command(tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = runner.invoke(
        app,
        ["tournament", "--game", "leduc", "--players", "equilibrium", "always-call", "always-raise", "--hands", "40"]
        + ["--jobs", "1", "--aivat", "--out", str(out), "--json", str(out / "t.json"), "-q"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads((out / "t.json").read_text())
    assert [row["name"] for row in data["ranking"]][0] == "equilibrium"
    assert len(data["pairings"]) == 3 and data["pairings"][0]["aivat"] is not None
    assert data["cross_table_mbb_per_hand"][0][0] is None
    assert (out / "cross-table.png").exists() and (out / "cross-table-aivat.png").exists()
    assert len(list((out / "logs").glob("*.log"))) == 6
    bad = runner.invoke(app, ["tournament", "--game", "leduc", "--players", "random", "no-such-bot", "-q"])
    assert bad.exit_code == 2 and "no-such-bot" in bad.output


@pytest.mark.slow
@pytest.mark.xdist_group("ray")  # one local Ray instance at a time (test_lbr.py has the other)
def test_ray_executor_plays_the_same_tournament(tmp_path: Path) -> None:
    """On a local Ray (two workers) the tournament's logs are the ones played in this process."""
    game = load_game("leduc")
    players = ["equilibrium", "random", "always-raise"]
    here = play_tournament(
        plan_tournament(game, "leduc", players, 40, 8, chunk_hands=15, output_dir=tmp_path / "a"), LocalExecutor()
    )
    told: list[int] = []
    with make_executor(jobs=2) as executor:
        assert "Ray" in executor.description
        ray = play_tournament(
            plan_tournament(game, "leduc", players, 40, 8, chunk_hands=15, output_dir=tmp_path / "b"),
            executor,
            on_hand=told.append,
        )
        # Ray's default would lower the workers' priority by 15 levels (starved on a busy machine)
        assert executor.map(_niceness, [1, 2]) == [os.nice(0)] * 2
    assert sum(told) == 40 * 6
    for first, second in zip(here.logs, ray.logs, strict=True):
        assert first.read_bytes() == second.read_bytes()


# ------------------------------------------------------------------ reproducible agents
def test_node_budget_argument() -> None:
    registry = default_registry()
    game = load_game("holdem-nolimit-2p")
    agent = registry.create("miximax:1500nodes", game, 1)
    assert agent.settings.search.node_budget == 1500  # type: ignore[attr-defined]
    spelled = registry.create("miximax:search.node_budget=1500", game, 1)
    assert spelled.settings == agent.settings  # type: ignore[attr-defined]
    tuned = registry.create("miximax:700nodes,search.temperature=0.5", game, 1)
    assert tuned.settings.search.node_budget == 700  # type: ignore[attr-defined]
    assert tuned.settings.search.temperature == 0.5  # type: ignore[attr-defined]
    with pytest.raises(UnknownStrategyError, match="node budget"):
        registry.create("miximax:0nodes", game, 1)
    with pytest.raises(UnknownStrategyError, match="time budget in seconds per decision, got 'fast'"):
        registry.create("miximax:fast", game, 1)


def _match_log(folder: Path, hash_seed: str, *extra: str) -> bytes:
    argv = ["match", "--game", "holdem-nolimit-2p", "--seed", "3", "--hands", "30", "--out", str(folder), "-q"]
    done = subprocess.run(
        [sys.executable, "-m", "pokerbot.bot.cli", *argv, *extra],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONHASHSEED": hash_seed},
    )
    assert done.returncode == 0, done.stderr
    return (folder / "match.log").read_bytes()


@pytest.mark.slow
@pytest.mark.usefixtures("compiled_holdem_agents")
def test_default_match_is_reproducible_in_process_and_over_tcp(tmp_path: Path) -> None:
    """The default strategies (adaptive with an iteration budget against random): a run in process
    and a run over TCP (loopback, the strategy in a process of its own that observes every
    hand before deciding), each in a fresh process with its own hash seed, write the same log
    byte for byte."""
    first = _match_log(tmp_path / "a", "1", "--in-process")
    assert b"adaptive=30iterations" in first
    assert _match_log(tmp_path / "b", "2") == first


def test_a_tournament_names_players_as_typed_and_writes_logs_of_a_player_named_by_a_path(tmp_path):
    """``policy:PATH`` in a tournament: the tables show it as typed, the logs' file names hold
    no ``/`` of the path (they were written nowhere before)."""
    from typer.testing import CliRunner

    from pokerbot.bot.cli.app import app
    from pokerbot.strategies import solvers

    policy = f"policy:{Path(solvers.__file__).parent / 'data' / 'kuhn.json'}"
    argv = ["tournament", "--game", "kuhn", "--players", policy, "random", "--hands", "10", "--jobs", "1"]
    result = CliRunner().invoke(app, [*argv, "--out", str(tmp_path)], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    tables = "\n".join(line for line in result.output.splitlines() if not line.startswith("wrote "))
    assert policy in tables and "policy=" not in tables
    logs = sorted(path.name for path in (tmp_path / "logs").iterdir())
    assert len(logs) == 2 and all(name.startswith("policy=_") for name in logs)
