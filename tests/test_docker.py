"""The Docker files: hadolint, shellcheck, the compose services, and their command lines run locally.

The suite needs no Docker engine (``docker/e2e.sh``, run by ``.ci/run`` after the suite, builds
the image and plays the compose matches in real containers). Here the compose test plays a real
short match by running each service's command line (same arguments, same environment defaults)
as local processes. Only what cannot work outside compose is substituted: the service host name
``dealer`` becomes 127.0.0.1, the container folder ``/results`` a temporary folder, and the seat
ports are chosen by the OS (``SEAT_PORTS=0,...``, then the ports the dealer prints).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from pokerbot.protocol.game import load_game
from pokerbot.protocol.matchlog import check_log

ROOT = Path(__file__).resolve().parent.parent
DOCKER = ROOT / "docker"
E2E = DOCKER / "e2e.sh"
_VARIABLE = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}")
POKERBOT = str(Path(sys.executable).parent / "pokerbot")


def interpolate(value: str, environment: dict[str, str]) -> str:
    """Compose's ``${NAME:-default}`` substitution."""
    return _VARIABLE.sub(lambda m: environment.get(m.group(1)) or (m.group(2) or ""), value)


def load(name: str) -> dict:
    return yaml.safe_load((DOCKER / name).read_text())


def tool(name: str) -> str:
    """A linter installed with the test extras (in the venv's bin folder, or on PATH)."""
    return shutil.which(name) or str(Path(sys.executable).parent / name)


def test_hadolint_passes():
    result = subprocess.run([tool("hadolint"), str(DOCKER / "Dockerfile")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_shellcheck_passes():
    scripts = [str(E2E), str(ROOT / ".ci" / "run")]
    result = subprocess.run([tool("shellcheck"), *scripts], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_dockerfile_copies_everything_the_install_needs():
    """Every package folder, the readme and the license files are copied into the build stage
    and let through by .dockerignore (which keeps the rest, e.g. .venv and .git, out of the context)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    needed = {"pyproject.toml", project["project"]["readme"], *project["project"]["license-files"]}
    needed |= set(project["tool"]["setuptools"]["package-dir"].values())
    copied: set[str] = set()
    for line in (DOCKER / "Dockerfile").read_text().splitlines():
        words = line.split()
        if words[:1] == ["COPY"] and not any(word.startswith("--from") for word in words):
            copied |= set(words[1:-1])
    assert needed <= copied, f"not copied into the image: {sorted(needed - copied)}"
    allowed = {line[1:] for line in (ROOT / ".dockerignore").read_text().splitlines() if line.startswith("!")}
    assert needed | {"docker/requirements.txt"} <= allowed, sorted(needed - allowed)


def test_requirements_pin_every_runtime_dependency():
    """The image installs docker/requirements.txt, then pokerbot without dependencies."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pinned = {}
    for line in (DOCKER / "requirements.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            requirement = Requirement(line)
            pinned[canonicalize_name(requirement.name)] = requirement
    for dependency in map(Requirement, project["project"]["dependencies"]):
        name = canonicalize_name(dependency.name)
        assert name in pinned, f"{dependency.name} is not in docker/requirements.txt"
        (version,) = [spec.version for spec in pinned[name].specifier if spec.operator == "=="]
        assert dependency.specifier.contains(version), f"{name}=={version} does not satisfy {dependency}"


def run_e2e_function(script: str, env: dict[str, str] | None = None) -> str:
    """Runs bash code after sourcing docker/e2e.sh (which defines its functions and runs nothing)."""
    result = subprocess.run(
        ["bash", "-c", f'source "{E2E}"; {script}'], capture_output=True, text=True, env={**os.environ, **(env or {})}
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_e2e_carries_the_host_pip_index_settings_but_not_local_indexes(tmp_path):
    config = tmp_path / "pip.conf"
    config.write_text(
        "[global]\nindex-url = https://mirror.example/simple\n"
        "extra-index-url = file:///opt/local/simple https://extra.example/simple\ntrusted-host = mirror.example\n"
    )
    env = {"PIP_CONFIG_FILE": str(config), "PIP_INDEX_URL": "", "PIP_EXTRA_INDEX_URL": "", "PIP_TRUSTED_HOST": ""}
    out = run_e2e_function(
        "pip_setting index-url PIP_INDEX_URL; pip_setting extra-index-url PIP_EXTRA_INDEX_URL; "
        "pip_setting trusted-host PIP_TRUSTED_HOST; PIP_INDEX_URL=/opt/wheels pip_setting index-url PIP_INDEX_URL",
        env,
    )
    assert out.splitlines() == ["https://mirror.example/simple", "https://extra.example/simple", "mirror.example", ""]


def test_e2e_adds_only_the_certificates_the_base_image_lacks(tmp_path):
    def pem(body: str) -> str:
        return f"-----BEGIN CERTIFICATE-----\n{body}\n-----END CERTIFICATE-----\n"

    host, image = tmp_path / "host.crt", tmp_path / "image.crt"
    host.write_text(pem("AAAA") + "# a comment\n" + pem("BBBB") + pem("CCCC"))
    image.write_text(pem("BBBB"))
    out = run_e2e_function(f'missing_certificates "{host}" "{image}"')
    assert out == pem("AAAA") + pem("CCCC")


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
    assert "name" not in compose, "docker-compose v1 rejects a top-level name (use -p)"
    assert "version" not in compose
    for service in services.values():
        assert service.get("restart") == "no"
        assert service.get("init") is True, "containers must stop at once (init forwards signals)"
        assert service["build"]["args"]["BASE_IMAGE"] == "${BASE_IMAGE:-python:3.11-slim}"

    def flag_value(command: list[str], flag: str) -> str:
        return command[command.index(flag) + 1]

    for bot in bots:
        assert services[bot]["depends_on"] == ["dealer"]
        assert "--connect-timeout" in services[bot]["command"]
        for limit in ("--t_response", "--t_hand", "--t_per_hand"):  # the bots play under the dealer's limits
            assert flag_value(services[bot]["command"], limit) == flag_value(dealer["command"], limit)


@pytest.mark.slow
@pytest.mark.usefixtures("compiled_holdem_agents")
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
            out, err = bot.communicate(timeout=600)
            assert bot.returncode == 0, err[-2000:]
            if seat == 1:  # BOT1_STRATEGY is empty by default: the game's strongest
                strongest = "adaptive" if players == 2 else "miximax"
                assert f"name={strongest}" in out + err, (out + err)[-2000:]
        out, err = dealer.communicate(timeout=300)
    finally:
        dealer.kill()
    assert dealer.returncode == 0, err[-2000:]
    assert out.strip().splitlines()[-1].startswith("SCORE:")
    log = tmp_path / "compose-test.log"
    game = load_game(interpolate(services["dealer"]["command"][2], environment))
    report = check_log(log.read_text().splitlines(), game)
    assert report.ok, report.problems
    assert report.hands == 30
