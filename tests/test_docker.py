"""The Docker files: hadolint, the compose services, and their command lines run locally.

No Docker engine runs here, so the compose test plays a real short match by running each
service's command line (same arguments, same environment defaults) as local processes.
Only what cannot work outside compose is substituted: the service host name ``dealer``
becomes 127.0.0.1, the container folder ``/results`` a temporary folder, and the seat ports
are chosen by the OS (``SEAT_PORTS=0,...``, then the ports the dealer prints).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pokerbot.protocol.game import load_game
from pokerbot.protocol.matchlog import check_log

DOCKER = Path(__file__).resolve().parent.parent / "docker"
_VARIABLE = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}")
POKERBOT = str(Path(sys.executable).parent / "pokerbot")


def interpolate(value: str, environment: dict[str, str]) -> str:
    """Compose's ``${NAME:-default}`` substitution."""
    return _VARIABLE.sub(lambda m: environment.get(m.group(1)) or (m.group(2) or ""), value)


def load(name: str) -> dict:
    return yaml.safe_load((DOCKER / name).read_text())


def test_hadolint_passes():
    hadolint = shutil.which("hadolint") or str(Path(sys.executable).parent / "hadolint")
    result = subprocess.run([hadolint, str(DOCKER / "Dockerfile")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(("name", "players"), [("compose.yaml", 2), ("compose.3p.yaml", 3)])
def test_compose_services(name, players):
    compose = load(name)
    services = compose["services"]
    bots = [f"bot{i}" for i in range(1, players + 1)]
    assert set(services) == {"results", "dealer", *bots}
    dealer = services["dealer"]
    assert "ports" not in dealer, "seat ports must stay on the compose network"
    assert compose["networks"]["match"]["internal"] is True
    assert any(volume.endswith(":/results") for volume in dealer["volumes"])
    for service in services.values():
        assert service.get("restart") == "no"
    for bot in bots:
        assert services[bot]["depends_on"] == ["dealer"]
        assert "--connect-timeout" in services[bot]["command"]


@pytest.mark.parametrize(("name", "players"), [("compose.yaml", 2), ("compose.3p.yaml", 3)])
def test_compose_command_lines_play_a_real_short_match(name, players, tmp_path):
    services = load(name)["services"]
    environment = {"HANDS": "30", "SEAT_PORTS": ",".join(["0"] * players), "MATCH_NAME": "compose-test"}

    def command(service: str) -> list[str]:
        args = [interpolate(str(arg), environment) for arg in services[service]["command"]]
        args = [
            "127.0.0.1" if arg == "dealer" and before == "--host" else arg for before, arg in zip(["", *args], args)
        ]
        return [POKERBOT, *(str(tmp_path) if arg == "/results" else arg for arg in args)]

    env = {**os.environ, "MPLBACKEND": "Agg"}
    dealer = subprocess.Popen(command("dealer"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert dealer.stdout is not None
        ports = dealer.stdout.readline().split()
        assert len(ports) == players, f"dealer printed {ports!r}"
        for seat, port in enumerate(ports, start=1):
            environment[f"SEAT{seat}_PORT"] = port
        bots = [
            subprocess.Popen(command(f"bot{seat}"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            for seat in range(1, players + 1)
        ]
        for seat, bot in enumerate(bots, start=1):
            out, err = bot.communicate(timeout=120)
            assert bot.returncode == 0, err[-2000:]
            if seat == 1:  # BOT1_STRATEGY is empty by default: the game's strongest
                assert "name=miximax" in out + err, (out + err)[-2000:]
        out, err = dealer.communicate(timeout=60)
    finally:
        dealer.kill()
    assert dealer.returncode == 0, err[-2000:]
    assert out.strip().splitlines()[-1].startswith("SCORE:")
    log = tmp_path / "compose-test.log"
    game = load_game(interpolate(services["dealer"]["command"][2], environment))
    report = check_log(log.read_text().splitlines(), game)
    assert report.ok, report.problems
    assert report.hands == 30
