"""Competition kits: what ``pokerbot kit`` writes, and ``pokerbot kit check`` playing one."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerbot.bot.cli.app import app
from pokerbot.bot.kit.build import KitError, build_kit, changed_files, read_kit
from pokerbot.bot.kit.check import check_kit, static_problems
from pokerbot.protocol.game import load_game
from pokerbot.protocol.limits import TimeLimits


def test_a_kit_holds_script_game_readme_and_manifest(tmp_path: Path) -> None:
    policy = tmp_path / "my policy.json"
    policy.write_text("{}")
    folder = tmp_path / "submission_2pn"
    wheel = tmp_path / "pokerbot_acpc-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"a wheel")
    limits = TimeLimits(100, 1000, 500)
    kit = build_kit(folder, f"policy:{policy}", "holdem-nolimit-2p", limits, summary="S.", wheel=wheel)
    mode = (folder / "startme.sh").stat().st_mode
    assert mode & 0o755 == 0o755
    assert load_game(folder / "game.txt") == load_game("holdem-nolimit-2p")
    assert (folder / "data" / "my policy.json").read_text() == "{}"
    assert kit.strategy == "policy:data/my policy.json"
    script = (folder / "startme.sh").read_text()
    assert "--strategy 'policy:data/my policy.json'" in script
    assert "--t_response 100 --t_hand 1000 --t_per_hand 500" in script
    assert 'cd "$(dirname "$0")"' in script and '--host "$1" --port "$2"' in script
    readme = (folder / "README").read_text()
    assert "Team Name:" in readme and "S." in readme and "submission_2pn" in readme
    manifest = json.loads((folder / "kit.json").read_text())
    shipped = "wheels/pokerbot_acpc-0.1.0-py3-none-any.whl"
    assert set(manifest["files"]) == {"startme.sh", "install.sh", "game.txt", "README", "data/my policy.json", shipped}
    assert manifest["wheel"] == kit.wheel == shipped and (folder / shipped).read_bytes() == b"a wheel"
    # No path of this machine in the scripts: the kit's own venv/, made by install.sh from the wheel.
    install = (folder / "install.sh").read_text()
    assert f'venv/bin/python -m pip install --quiet "{shipped}"' in install and "--prepare-only" in install
    assert str(tmp_path) not in script + install and sys.executable not in script + install
    assert 'PYTHON="${POKERBOT_PYTHON:-venv/bin/python}"' in script and "./install.sh" in readme
    again = read_kit(folder)
    assert again.limits == TimeLimits(100, 1000, 500) and again.strategy == kit.strategy
    assert static_problems(again) == [] and changed_files(again) == []


def test_a_kit_never_overwrites_and_reports_changes(tmp_path: Path) -> None:
    folder = tmp_path / "kit"
    folder.mkdir()
    (folder / "mine.txt").write_text("keep me")
    try:
        build_kit(folder, "always-call", "kuhn", TimeLimits())
    except KitError as error:
        assert "already exists" in str(error)
    else:
        raise AssertionError("a kit was written into a folder that is not empty")
    assert (folder / "mine.txt").read_text() == "keep me"
    kit = build_kit(tmp_path / "fresh", "always-call", "kuhn", TimeLimits())
    (kit.folder / "startme.sh").chmod(0o700)
    with open(kit.folder / "README", "a") as readme:
        readme.write("edited\n")
    problems = static_problems(read_kit(kit.folder))
    assert any("755" in problem for problem in problems)
    assert any(problem.startswith("README is missing or changed") for problem in problems)


def test_a_kit_without_a_wheel_installs_this_version_from_the_package_index(tmp_path: Path) -> None:
    kit = build_kit(tmp_path / "kit", "always-call", "kuhn", TimeLimits(), wheel=None)
    if kit.wheel is None:  # no wheel of this pokerbot on this machine
        install = (kit.folder / "install.sh").read_text()
        assert f"pip install --quiet 'pokerbot-acpc=={kit.pokerbot_version}'" in install
    with pytest.raises(KitError, match="is not a wheel file"):
        build_kit(tmp_path / "other", "always-call", "kuhn", TimeLimits(), wheel=tmp_path / "nothing.whl")


def test_the_start_script_wants_host_and_port(tmp_path: Path) -> None:
    kit = build_kit(tmp_path / "kit", "always-call", "kuhn", TimeLimits())
    done = subprocess.run([str(kit.start_script)], capture_output=True, text=True)
    assert done.returncode == 2 and "usage:" in done.stderr
    env = {**os.environ, "POKERBOT_PYTHON": str(tmp_path / "no-python")}
    done = subprocess.run([str(kit.start_script), "127.0.0.1", "1"], capture_output=True, text=True, env=env)
    assert done.returncode == 1 and "no Python with pokerbot" in done.stderr


def test_kit_command_makes_and_refuses(tmp_path: Path) -> None:
    runner = CliRunner()
    made = runner.invoke(app, ["kit", str(tmp_path / "k"), "--game", "leduc", "--strategy", "always-raise"])
    assert made.exit_code == 0, made.output
    assert "pokerbot kit check" in made.output
    assert stat.S_IMODE((tmp_path / "k" / "startme.sh").stat().st_mode) & 0o755 == 0o755
    unknown = runner.invoke(app, ["kit", str(tmp_path / "k2"), "--game", "leduc", "--strategy", "no-such-bot"])
    assert unknown.exit_code == 2 and "no-such-bot" in unknown.output
    assert not (tmp_path / "k2").exists()
    not_a_kit = runner.invoke(app, ["kit", "check", str(tmp_path)])
    assert not_a_kit.exit_code == 2 and "not a pokerbot kit" in not_a_kit.output


def test_kit_check_plays_every_seat_through_the_start_script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # relative folders, as a user types them
    kit = build_kit(Path("kit"), "always-raise", "kuhn", TimeLimits(20_000, 60_000, 7_000))
    seen = []
    report = check_kit(kit, Path("check"), hands=12, opponent="always-fold", on_match=seen.append)
    assert report.ok, [match.problems for match in report.matches] + report.problems
    assert [match.seat for match in seen] == [1, 2]
    assert all(match.hands == 12 for match in report.matches)
    # The kit really played: always-raise wins the ante of always-fold in every hand.
    assert report.kit_chips == [1.0] * 24
    assert (tmp_path / "check" / "check.seat2.log").exists()
