"""Slumbot's API end to end on this machine: the local server, the client, faults and resuming.

The client plays a local server (:mod:`pokerbot.bot.slumbot.server`) over HTTP; faults are
injected by wrapping the server's request handler: a 500, a slow answer past the client's
timeout, a body that is not JSON, an illegal action reported by the server, a restart that
forgets every session, a server gone. Each must leave a log that ``check_log`` accepts, with
no hand lost, and a match that the same command continues.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pokerbot.bot.cli.app import app
from pokerbot.bot.matches.base import strategy_seed
from pokerbot.bot.slumbot.check import compare_with_dealer
from pokerbot.bot.slumbot.connection import (
    AnswerLost,
    RequestRefused,
    ServerUnavailable,
    SlumbotConnection,
    SlumbotURLError,
    parse_server_url,
)
from pokerbot.bot.slumbot.match import SlumbotLog, SlumbotLogError, SlumbotMatch, replay_logged_hands, sidecar_path
from pokerbot.bot.slumbot.server import BOT_NAME, Reply, SlumbotAPI, SlumbotHTTPServer
from pokerbot.protocol.actions import CALL, Action
from pokerbot.protocol.game import load_game
from pokerbot.protocol.matchlog import check_log, read_log
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import Strategy
from pokerbot.strategies.registry import default_registry

GAME = load_game("holdem-nolimit-2p")
REGISTRY = default_registry()
CLI = [sys.executable, "-m", "pokerbot.bot.cli"]


def make_api(opponent: str = "always-call", seed: int | None = 7, **options: Any) -> SlumbotAPI:
    return SlumbotAPI(GAME, lambda bot_seed: REGISTRY.create(opponent, GAME, bot_seed), seed=seed, **options)


class Faults:
    """The server's handler with scripted faults: ``rules[(path, n)]`` hits the n-th request
    (1-based) to ``path``. A fault that plays the request first (``after``) leaves the server's
    hand changed, as a server that failed after doing its work."""

    def __init__(self, api: SlumbotAPI, rules: dict[tuple[str, int], str], delay: float = 0.0) -> None:
        self.api = api
        self.rules = rules
        self.delay = delay
        self.counts: dict[str, int] = {}
        self.lock = threading.Lock()
        self.baseline = False

    def __call__(self, method: str, path: str, body: bytes) -> Reply:
        with self.lock:
            self.counts[path] = self.counts.get(path, 0) + 1
            fault = self.rules.get((path, self.counts[path]))
            if fault == "restart":  # every session forgotten, as a server started again
                self.api = make_api(seed=self.api.seed)
            api = self.api
        if fault == "500":
            return Reply(500, b"<html>Internal Server Error</html>")
        if fault == "illegal":
            return Reply(400, {"error_msg": "Illegal action"})
        reply = api.handle(method, path, body)
        if fault == "500-after":
            return Reply(500, b"")
        if fault == "slow":
            time.sleep(self.delay)
        if fault == "garbled":
            return Reply(200, b'{"old_action": "", "action": "b2')
        if self.baseline and isinstance(reply.body, dict) and "winnings" in reply.body:
            reply.body["baseline_winnings"] = reply.body["winnings"] - 10
        return reply


@pytest.fixture
def served() -> Iterator[Callable[..., tuple[SlumbotHTTPServer, Faults]]]:
    servers: list[SlumbotHTTPServer] = []

    def start(rules: dict[tuple[str, int], str] | None = None, delay: float = 0.0, **api: Any) -> Any:
        faults = Faults(make_api(**api), rules or {}, delay)
        server = SlumbotHTTPServer(faults)
        server.start()
        servers.append(server)
        return server, faults

    yield start
    for server in servers:
        server.stop()


def play(
    url: str, log_path: Path, hands: int, *, timeout: float = 5.0, retries: int = 3, **options: Any
) -> tuple[Any, list[str]]:
    """Play (or continue) a match of ``random`` into ``log_path``; the result and what it told."""
    messages: list[str] = []
    log = SlumbotLog(log_path, GAME, "random", "random", hands)
    log.open(options.pop("seed", 11))
    strategy = REGISTRY.create("random", GAME, log.strategy_seed())
    replay_logged_hands(strategy, log)
    connection = SlumbotConnection(
        url,
        timeout=timeout,
        retries=retries,
        backoff=0.01,
        on_retry=lambda message, delay: messages.append(f"{message}; retrying in {delay:g} s"),
    )
    try:
        result = SlumbotMatch(GAME, strategy, connection, log, notify=messages.append, **options).run()
    finally:
        log.close()
    return result, messages


def assert_sound_log(path: Path, hands: int, complete: bool = True) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    logged = read_log(lines, GAME)
    assert [hand.hand_number for hand in logged.hands] == list(range(hands))
    if complete:
        report = check_log(lines, GAME)
        assert report.ok, report.problems
        assert report.hands == hands
    entries = [json.loads(line) for line in sidecar_path(path).read_text().splitlines()]
    assert [entry["hand"] for entry in entries] == list(range(hands))
    for entry, hand in zip(entries, logged.hands):
        assert entry["winnings"] == hand.values[hand.names.index("random")]


# ------------------------------------------------------------------- the server
def test_the_servers_answers_follow_the_documented_api() -> None:
    api = make_api("always-raise")
    first = api.handle("POST", "/api/new_hand", b"{}")
    assert first.status == 200 and isinstance(first.body, dict)
    token = first.body["token"]
    # hand 0: the client is the big blind, so the answer carries the bot's opening raise
    assert first.body["client_pos"] == 0 and first.body["action"] == "b200" and first.body["old_action"] == ""
    assert len(first.body["hole_cards"]) == 2 and first.body["board"] == [] and "winnings" not in first.body
    illegal = api.handle("POST", "/api/act", json.dumps({"token": token, "incr": "k"}).encode())
    assert illegal.status == 400 and isinstance(illegal.body, dict)
    assert illegal.body["error_msg"].startswith("Illegal action 'k' after 'b200'")
    called = api.handle("POST", "/api/act", json.dumps({"token": token, "incr": "c"}).encode())
    assert isinstance(called.body, dict)  # the big blind acts first on the flop: the client
    assert called.body["old_action"] == "b200" and called.body["action"] == "b200c/"
    assert len(called.body["board"]) == 3
    checked = api.handle("POST", "/api/act", json.dumps({"token": token, "incr": "k"}).encode())
    assert isinstance(checked.body, dict) and checked.body["action"] == "b200c/kb100"
    folded = api.handle("POST", "/api/act", json.dumps({"token": token, "incr": "f"}).encode())
    assert isinstance(folded.body, dict)
    end = folded.body
    assert end["action"] == "b200c/kb100f" and end["winnings"] == -200 and end["won_pot"] == -500
    assert end["session_num_hands"] == 1 and end["session_total"] == -200 and len(end["bot_hole_cards"]) == 2
    assert "baseline_winnings" not in end
    second = api.handle("POST", "/api/new_hand", json.dumps({"token": token}).encode())
    assert isinstance(second.body, dict)
    assert second.body["token"] == token and second.body["client_pos"] == 1 and second.body["action"] == ""


def test_the_server_refuses_what_the_api_does_not_take() -> None:
    api = make_api()
    cases = [
        (("GET", "/api/new_hand", b""), 405, "takes POST"),
        (("POST", "/api/nope", b"{}"), 404, "no such endpoint"),
        (("POST", "/api/new_hand", b"{nope"), 400, "not JSON"),
        (("POST", "/api/new_hand", b"[1]"), 400, "a JSON object"),
        (("POST", "/api/act", b'{"incr": "c"}'), 400, "needs the session's 'token'"),
        (("POST", "/api/act", b'{"token": "x", "incr": "c"}'), 400, "unknown token"),
        (("POST", "/api/login", b'{"username": 1}'), 400, "needs 'username' and 'password'"),
    ]
    for request, status, message in cases:
        reply = api.handle(*request)
        assert reply.status == status and isinstance(reply.body, dict) and message in reply.body["error_msg"]
    token = api.handle("POST", "/api/new_hand", b"").body["token"]  # type: ignore[index]
    bad = api.handle("POST", "/api/act", json.dumps({"token": token, "incr": 5}).encode())
    assert bad.status == 400
    # an unknown token on new_hand starts a session, with a new token
    fresh = api.handle("POST", "/api/new_hand", b'{"token": "forgotten"}')
    assert isinstance(fresh.body, dict) and fresh.body["token"] not in ("forgotten", token)


def test_a_new_hand_abandons_the_hand_in_progress_and_sessions_are_bounded() -> None:
    api = make_api(max_sessions=2)
    token = api.handle("POST", "/api/new_hand", b"").body["token"]  # type: ignore[index]
    again = api.handle("POST", "/api/new_hand", json.dumps({"token": token}).encode()).body
    assert isinstance(again, dict) and again["client_pos"] == 1  # the second deal of the session
    folded = api.handle("POST", "/api/act", json.dumps({"token": token, "incr": "f"}).encode()).body
    assert isinstance(folded, dict) and folded["session_num_hands"] == 1  # the abandoned hand is not counted
    for _ in range(3):
        api.handle("POST", "/api/new_hand", b"")
    assert api.sessions() == 2
    lost = api.handle("POST", "/api/act", json.dumps({"token": token, "incr": "f"}).encode())
    assert lost.status == 400


def test_login_takes_the_configured_user_only() -> None:
    api = make_api(users={"alice": "secret"})
    wrong = api.handle("POST", "/api/login", b'{"username": "alice", "password": "guess"}')
    assert wrong.status == 400 and wrong.body == {"error_msg": "Invalid username or password"}
    right = api.handle("POST", "/api/login", b'{"username": "alice", "password": "secret"}')
    assert right.status == 200 and isinstance(right.body, dict) and right.body["token"]


def test_over_http_every_answer_is_json(served: Any) -> None:
    server, _ = served()
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    connection.request("GET", "/api/act")
    response = connection.getresponse()
    assert response.status == 405 and response.getheader("Content-Type") == "application/json"
    assert "error_msg" in json.loads(response.read())
    connection.close()


# ------------------------------------------------------------------- the client
@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("tcp://slumbot.com:1", "the scheme must be slumbot+https or slumbot+http"),
        ("https://slumbot.com", "not 'https'"),
        ("slumbot+https://", "no host"),
        ("slumbot+http://host:99999", "the port is not a number"),
        ("slumbot+https://me:pw@slumbot.com", "credentials go in --user"),
    ],
)
def test_a_wrong_url_is_refused(url: str, why: str) -> None:
    with pytest.raises(SlumbotURLError, match=re.escape(why)):
        parse_server_url(url)
    assert parse_server_url("slumbot+https://slumbot.com").port == 443
    assert parse_server_url("slumbot+http://127.0.0.1:8001/x/").prefix == "/x"


def test_a_match_against_the_local_server_logs_every_hand(served: Any, tmp_path: Path) -> None:
    server, faults = served()
    faults.baseline = True
    result, messages = play(server.url, tmp_path / "m.log", 40)
    assert result.error is None and result.hands == result.played == 40 and messages == []
    assert_sound_log(tmp_path / "m.log", 40)
    assert result.baseline == [10.0] * 40  # the player's chips minus (chips - 10)
    assert "against the baseline +100 ± 0 mbb/hand over 40 hands" in result.summary(100)
    log = (tmp_path / "m.log").read_text().splitlines()
    assert log[0] == "# name/game/hands/seed slumbot holdem-nolimit-2p 40 11" and log[-1].startswith("SCORE:")
    positions = [line.split(":")[-1] for line in log if line.startswith("STATE:")]
    assert positions[:2] == ["random|slumbot", "slumbot|random"]  # the seats alternate, big blind first


def test_a_500_on_new_hand_is_retried(served: Any, tmp_path: Path) -> None:
    server, _ = served({("/api/new_hand", 3): "500", ("/api/new_hand", 4): "500"})
    result, messages = play(server.url, tmp_path / "m.log", 10)
    assert result.error is None and result.abandoned == 0 and result.hands == 10
    assert messages == [
        "new_hand: server error HTTP 500; retrying in 0.01 s",
        "new_hand: server error HTTP 500; retrying in 0.02 s",
    ]
    assert_sound_log(tmp_path / "m.log", 10)


@pytest.mark.parametrize(
    ("fault", "said"),
    [
        ("500-after", "act: server error HTTP 500; the server may have played the action"),
        ("slow", "act: no answer within 0.3 s; the server may have played the action"),
        ("garbled", 'act: the answer is not a JSON object: b\'{"old_action": "", "action": "b2\''),
    ],
)
def test_an_act_without_a_usable_answer_abandons_the_hand_and_is_never_repeated(
    fault: str, said: str, served: Any, tmp_path: Path
) -> None:
    server, faults = served({("/api/act", 2): fault}, delay=0.6)
    result, messages = play(server.url, tmp_path / "m.log", 10, timeout=0.3)
    assert result.error is None and result.abandoned == 1 and result.hands == 10
    assert len(messages) == 1 and said in messages[0] and messages[0].startswith("hand ")
    assert_sound_log(tmp_path / "m.log", 10)
    # one act each time: the lost one was not sent again
    assert faults.counts["/api/new_hand"] == 11


def test_a_slow_or_garbled_new_hand_is_retried(served: Any, tmp_path: Path) -> None:
    server, _ = served({("/api/new_hand", 1): "slow", ("/api/new_hand", 2): "garbled"}, delay=0.6)
    result, messages = play(server.url, tmp_path / "m.log", 5, timeout=0.3)
    assert result.error is None and result.hands == 5
    assert messages[0] == "new_hand: no answer within 0.3 s; retrying in 0.01 s"
    assert messages[1].startswith("new_hand: the answer is not a JSON object")


def test_hands_abandoned_in_a_row_stop_the_match(served: Any, tmp_path: Path) -> None:
    server, _ = served({("/api/act", n): "500-after" for n in range(1, 10)})
    result, messages = play(server.url, tmp_path / "m.log", 10)
    assert result.error == (
        "4 hands in a row abandoned; the last: act: server error HTTP 500; the server may have played the action"
    )
    assert result.hands == result.played and result.abandoned == 4 and len(messages) == 4


def test_an_illegal_action_reported_by_the_server_stops_the_match_which_resumes(served: Any, tmp_path: Path) -> None:
    server, _ = served({("/api/act", 5): "illegal"})
    log_path = tmp_path / "m.log"
    result, _ = play(server.url, log_path, 20)
    assert result.error is not None and result.error.startswith(f"hand {result.hands}, sending '")
    assert result.error.endswith("the server says: Illegal action (HTTP 400)")
    assert 0 < result.hands < 20
    assert_sound_log(log_path, result.hands, complete=False)
    assert not log_path.read_text().splitlines()[-1].startswith("SCORE")
    again, _ = play(server.url, log_path, 20)
    assert again.error is None and again.hands == 20 and again.played == 20 - result.hands
    assert_sound_log(log_path, 20)


def test_a_restarted_server_forgets_the_session_the_match_stops_and_resumes(served: Any, tmp_path: Path) -> None:
    server, _ = served({("/api/act", 6): "restart"})
    log_path = tmp_path / "m.log"
    result, _ = play(server.url, log_path, 15)
    assert result.error is not None and "unknown token" in result.error and "(HTTP 400)" in result.error
    assert_sound_log(log_path, result.hands, complete=False)
    again, _ = play(server.url, log_path, 15)
    assert again.error is None and again.hands == 15
    assert_sound_log(log_path, 15)


def test_a_server_gone_is_retried_then_reported(served: Any, tmp_path: Path) -> None:
    server, _ = served()
    url = server.url
    server.stop()
    result, messages = play(url, tmp_path / "m.log", 5, retries=2)
    assert result.error is not None and result.error.startswith("hand 0: new_hand: cannot connect to slumbot+http://")
    assert result.error.endswith("(tried 3 times)") and len(messages) == 2
    assert result.hands == 0 and (tmp_path / "m.log").read_text().count("\n") == 2  # the header alone


def test_the_connection_refuses_4xx_at_once_and_never_repeats_an_act(served: Any) -> None:
    server, faults = served({("/api/act", 2): "500"})
    connection = SlumbotConnection(server.url, retries=3, backoff=0.01)
    with pytest.raises(RequestRefused, match="unknown token"):
        connection.act("nobody", "c")
    token = connection.new_hand(None)["token"]
    with pytest.raises(AnswerLost):
        connection.act(token, "c")
    assert faults.counts["/api/act"] == 2
    with pytest.raises(RequestRefused, match="Invalid username"):
        SlumbotConnection(served(users={"a": "b"})[0].url).login("a", "c")
    server.stop()
    with pytest.raises(ServerUnavailable, match="tried once"):
        SlumbotConnection(server.url, retries=0).new_hand(None)


# ------------------------------------------------------------------- resuming
class Recorder(Strategy):
    """Checks or calls, and keeps every hand's end it observes."""

    def __init__(self) -> None:
        super().__init__(GAME, 0)
        self.seen: list[MatchState] = []

    def decide(self, view: MatchState, deadline: float) -> Action:
        return CALL

    def observe(self, view: MatchState) -> None:
        self.seen.append(view)


def test_resuming_shows_the_strategy_the_logged_hands_as_it_saw_them(served: Any, tmp_path: Path) -> None:
    server, _ = served(opponent="random")
    log_path = tmp_path / "m.log"
    play(server.url, log_path, 12)
    log = SlumbotLog(log_path, GAME, "random", "random", 20)
    log.open(None)
    log.close()
    assert log.seed == 11 and len(log.logged) == 12
    assert log.strategy_seed() == strategy_seed(11, "random/from-12") != strategy_seed(11, "random")
    recorder = Recorder()
    replay_logged_hands(recorder, log)
    assert [view.hand_number for view in recorder.seen] == list(range(12))
    for view, hand in zip(recorder.seen, log.logged):
        assert view.position == hand.names.index("random") and view.state.finished
        shown = view.state.hole_cards[1 - view.position] is not None
        assert shown == hand.state.showdown()
    # the log's header now asks for 20 hands; its SCORE line went, to come back at the end
    lines = log_path.read_text().splitlines()
    assert lines[0].endswith(" 20 11") and not lines[-1].startswith("SCORE")


def test_a_torn_last_line_is_cut_and_the_match_goes_on(served: Any, tmp_path: Path) -> None:
    server, _ = served()
    log_path = tmp_path / "m.log"
    play(server.url, log_path, 6)
    text = log_path.read_text().splitlines(keepends=True)
    log_path.write_text("".join(text[:-2]) + text[-2][:20])  # hand 5 cut mid-line, no SCORE
    result, _ = play(server.url, log_path, 8)
    assert result.error is None and result.played == 3
    assert_sound_log(log_path, 8)


def test_a_log_of_another_match_is_not_continued(tmp_path: Path) -> None:
    log_path = tmp_path / "m.log"
    log = SlumbotLog(log_path, GAME, "random", "random", 5)
    log.open(3)
    log.close()
    for player, strategy, seed, why in [
        ("alice", "random", None, "holds the hands of random playing random"),
        ("random", "always-call", None, "holds the hands of random playing random"),
        ("random", "random", 4, "was played with --seed 3"),
    ]:
        with pytest.raises(SlumbotLogError, match=why):
            SlumbotLog(log_path, GAME, player, strategy, 5).open(seed)
    (tmp_path / "dealer.log").write_text("# name/game/hands/seed m holdem-nolimit-2p 1 1\n")
    with pytest.raises(SlumbotLogError, match="not a log of a match against the API"):
        SlumbotLog(tmp_path / "dealer.log", GAME, "random", "random", 5).open(None)


# ------------------------------------------------------------------ the check
def test_the_api_and_the_dealer_play_the_same_deals_to_the_same_values(tmp_path: Path) -> None:
    report = compare_with_dealer(
        GAME,
        REGISTRY,
        hands=200,
        seed=60,
        strategy="random",
        opponent="always-call",
        player="random",
        folder=tmp_path,
    )
    assert report.ok, (report.api.error, report.differences[:1], report.log_problems[:3])
    assert report.seats == (100, 100)  # both of the client's seats
    assert report.api.values == report.dealer_values
    assert len({value for value in report.dealer_values}) > 20  # hands of every kind, not 200 folds


def test_the_check_sees_a_server_that_plays_otherwise(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pokerbot.bot.slumbot.server as server_module

    monkeypatch.setattr(server_module, "strategy_seed", lambda seed, name: strategy_seed(seed + 1, name))
    report = compare_with_dealer(
        GAME, REGISTRY, hands=30, seed=60, strategy="random", opponent="random", player="random", folder=tmp_path
    )
    assert not report.ok and report.differences and report.api.error is None


def test_slumbot_check_command(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["slumbot", "check", "--hands", "40", "--seed", "2", "--out", str(tmp_path)], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    assert "40 hands through the API, 40 through the dealer (seed 2): the logs agree hand by hand" in result.output
    assert "random in the big blind in 20, the small blind in 20; log check: ok" in result.output
    assert (tmp_path / "api.log").exists() and (tmp_path / "dealer.log").exists()


# ------------------------------------------------------------- the commands
def _cli(arguments: str, cwd: Path, **options: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*CLI, *shlex.split(arguments)],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "POKERBOT_TRACEBACK": "1"},
        **options,
    )


def _serve(cwd: Path, port: int = 0) -> tuple[subprocess.Popen[str], str]:
    server = _cli(f"slumbot serve --port {port} --strategy random --seed 4", cwd)
    assert server.stdout is not None
    return server, server.stdout.readline().strip()


@pytest.mark.slow
def test_the_server_killed_and_restarted_mid_match(tmp_path: Path) -> None:
    """``slumbot serve`` killed (SIGKILL) while ``slumbot play`` runs, started again on the same
    port: the client rides the gap with its retries or stops with one line; the log is sound
    and the same command completes the match."""
    server, url = _serve(tmp_path)
    port = int(url.rsplit(":", 1)[1])
    play_command = f"slumbot play --url {url} --hands 150 --strategy random --log m.log --backoff 0.3 --retries 6"
    client = _cli(play_command, tmp_path)
    log_path = tmp_path / "m.log"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (log_path.exists() and log_path.read_text().count("STATE:") >= 30):
            time.sleep(0.05)
        server.send_signal(signal.SIGKILL)
        server.wait()
        time.sleep(0.5)
        server, _ = _serve(tmp_path, port)
        out, err = client.communicate(timeout=120)
    finally:
        client.kill()
    lines = [line for line in err.splitlines() if line.startswith("pokerbot: error: ")]
    if client.returncode == 0:  # the kill hit a new_hand or an answer in flight: the match went on
        assert "150 hands" in out and not lines
    else:  # the kill came between two requests: the restarted server does not know the token
        assert client.returncode == 1 and len(lines) == 1 and "unknown token" in lines[0]
        assert re.search(r"the log holds \d+ hands: run the same command to go on \(pokerbot slumbot play\)$", lines[0])
    assert "retrying in 0.3 s" in err
    again = _cli(play_command, tmp_path)
    out, err = again.communicate(timeout=120)
    server.kill()
    assert again.returncode == 0, err
    assert out.startswith("random against slumbot: 150 hands")
    assert_sound_log(log_path, 150)
    checked = _cli("log check m.log", tmp_path)
    assert checked.wait(timeout=120) == 0


def test_play_command_against_a_served_api_with_a_login(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("hunter2\n")
    server = _cli("slumbot serve --port 0 --strategy always-call --user ann --password-file pw", tmp_path)
    assert server.stdout is not None
    url = server.stdout.readline().strip()
    try:
        wrong = _cli(f"slumbot play --url {url} --hands 3 --strategy random --user bob --password-file pw", tmp_path)
        _, err = wrong.communicate(timeout=120)
        assert wrong.returncode == 1
        assert err.splitlines()[-1] == (
            "pokerbot: error: cannot log in as bob: login: the server says: Invalid username or password (HTTP 400); "
            "the log holds 0 hands: run the same command to go on (pokerbot slumbot play)"
        )
        right = _cli(
            f"slumbot play --url {url} --hands 3 --strategy random --user ann --password-file pw --json r.json",
            tmp_path,
        )
        out, err = right.communicate(timeout=120)
        assert right.returncode == 0, err
        assert out.startswith("random against slumbot: 3 hands") and "wrote slumbot.log" in err
        report = json.loads((tmp_path / "r.json").read_text())
        assert report["hands"] == 3 and len(report["values"]) == 3 and report["server"] == url
    finally:
        server.kill()
    assert BOT_NAME in (tmp_path / "slumbot.log").read_text()
