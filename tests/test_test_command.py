"""The README's test command passes on a machine without Chromium: the browser tests are
skipped there, with one line saying how to run them; where ``CI`` is set they never are."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _browser_tests(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """tests/test_web.py in a pytest of its own, as if Chromium were not installed."""
    environment = {key: value for key, value in os.environ.items() if key not in ("CI", "PYTEST_XDIST_WORKER")}
    environment.update(POKERBOT_CHROMIUM=str(tmp_path / "no-chromium"), **env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "tests/test_web.py"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_without_chromium_the_browser_tests_are_skipped_with_one_line_saying_how_to_run_them(tmp_path: Path) -> None:
    run = _browser_tests(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    said = [line for line in run.stdout.splitlines() if "apt-get install chromium chromium-driver" in line]
    assert len(said) == 1 and said[0].startswith("browser tests skipped: "), run.stdout
    assert "skipped" in run.stdout.splitlines()[-1] and "passed" not in run.stdout.splitlines()[-1]


def test_where_ci_is_set_the_browser_tests_fail_without_chromium(tmp_path: Path) -> None:
    run = _browser_tests(tmp_path, CI="true")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "skipped" not in run.stdout.splitlines()[-1]
    assert "CI is set" in run.stdout
