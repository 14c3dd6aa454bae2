"""A match waiting for its players says so: the dealer prints who has connected, and every
client waiting for the start says how many seats are taken (or, at a dealer that does not
tell, that it waits); ``--bots`` lets the dealer play seats itself."""

from __future__ import annotations

import os
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

CLI = [sys.executable, "-m", "pokerbot.bot.cli"]
TIMEOUT = 120.0


def _read_until(stream: object, text: str, timeout: float = TIMEOUT) -> str:
    """What ``stream`` (a pipe) gives until a line holds ``text``."""
    seen = ""
    deadline = time.monotonic() + timeout
    fd = stream.fileno()  # type: ignore[attr-defined]
    while text not in seen:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"no {text!r} in {seen!r}"
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            chunk = os.read(fd, 65536).decode()
            assert chunk, f"the stream ended without {text!r}: {seen!r}"
            seen += chunk
    return seen


def test_the_dealer_says_who_connected_and_a_waiting_client_how_many_seats_are_taken(tmp_path: Path) -> None:
    dealer = subprocess.Popen(
        [*CLI, "dealer", "wait", "kuhn", "20", "1", "alice", "bob", "-p", "0,0", "--out", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    clients: list[subprocess.Popen[bytes]] = []
    try:
        assert dealer.stdout is not None and dealer.stderr is not None
        ports = dealer.stdout.readline().decode().split()
        for port in ports:
            argv = [*CLI, "play", "--port", port, "--game", "kuhn", "--strategy", "always-call"]
            clients.append(subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
            if len(clients) == 1:
                said = _read_until(dealer.stderr, "1 of 2 seats connected")
                assert "seat 1 (alice) connected from 127.0.0.1:" in said
                assert clients[0].stderr is not None
                waiting = _read_until(clients[0].stderr, "\n", timeout=TIMEOUT)
                while "waiting for the dealer" not in waiting:
                    waiting += _read_until(clients[0].stderr, "\n")
                assert "waiting for the dealer: 1 of 2 seats connected" in waiting
        assert "seat 2 (bob) connected from " in _read_until(dealer.stderr, "2 of 2 seats connected")
        for client in clients:
            out, err = client.communicate(timeout=TIMEOUT)
            assert client.returncode == 0, err
            assert b"final score of always-call: 20 hands" in out
        assert dealer.wait(timeout=TIMEOUT) == 0
    finally:
        for process in (dealer, *clients):
            process.kill()


def test_at_a_silent_dealer_the_client_says_it_waits(tmp_path: Path) -> None:
    """A dealer that accepts the connection and says nothing (as the reference's, until every
    seat is taken): the client says it waits for the match to start."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        client = subprocess.Popen(
            [*CLI, "play", "--port", str(port), "--game", "kuhn", "--strategy", "always-call"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            connection, _ = server.accept()
            with connection:
                assert client.stderr is not None
                said = _read_until(client.stderr, "waiting for the dealer to start the match")
                assert "seats connected" not in said
        finally:
            client.kill()
            client.wait()


def test_the_dealer_plays_its_bots_seats_and_prints_the_other_ports(tmp_path: Path) -> None:
    dealer = subprocess.Popen(
        [*CLI, "dealer", "bots", "kuhn", "20", "1", "alice", "bob", "-p", "0,0", "-q", "--bots", "bob=random"]
        + ["--out", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert dealer.stdout is not None
        ports = dealer.stdout.readline().split()
        assert len(ports) == 1
        play = subprocess.run(
            [*CLI, "play", "--port", ports[0], "--game", "kuhn", "--strategy", "always-call"],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert play.returncode == 0, play.stderr
        score, _ = dealer.communicate(timeout=TIMEOUT)
        assert dealer.returncode == 0 and score.startswith("SCORE:") and score.rstrip().endswith(":alice|bob")
    finally:
        dealer.kill()
    bad = subprocess.run(
        [*CLI, "dealer", "x", "kuhn", "5", "1", "alice", "bob", "--bots", "carol=random"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2
    assert (
        bad.stderr.strip()
        == "pokerbot: error: carol is not a player of the match (alice, bob) (pokerbot dealer --bots)"
    )
