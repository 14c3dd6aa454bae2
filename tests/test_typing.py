"""mypy (configured in pyproject.toml): ``protocol``, ``strategies.resolve`` and
``strategies.solvers`` clean under ``--strict``'s checks (per-module options in pyproject.toml), the
rest clean; one run over every layer.

The folders install as ``pokerbot.protocol`` ... ``pokerbot.bot`` through setuptools' package-dir
mapping, which mypy cannot follow. So mypy runs on a tree of its own outside the repository,
``pokerbot/{protocol,models,strategies,bot}`` as symbolic links to the folders, kept between
runs (with mypy's caches) in the temporary directory, one per checkout.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("protocol", "models", "strategies", "bot")


@pytest.fixture(scope="module")
def tree() -> Path:
    """The ``pokerbot`` tree mypy reads: one symbolic link per layer folder."""
    digest = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    base = Path(tempfile.gettempdir()) / f"pokerbot-mypy-{digest}"
    package = base / "pokerbot"
    package.mkdir(parents=True, exist_ok=True)
    for layer in LAYERS:
        link = package / layer
        if link.is_symlink() and link.resolve() == ROOT / layer:
            continue
        # made aside, then renamed over: two test processes may build the tree at once
        fresh = package / f".{layer}-{os.getpid()}"
        fresh.unlink(missing_ok=True)
        fresh.symlink_to(ROOT / layer, target_is_directory=True)
        os.replace(fresh, link)
    return base


def _mypy(tree: Path, cache: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    command = [
        sys.executable,
        "-m",
        "mypy",
        "--config-file",
        str(ROOT / "pyproject.toml"),
        "--cache-dir",
        str(tree / cache),
        "--no-error-summary",
        *arguments,
    ]
    return subprocess.run(command, cwd=tree, capture_output=True, text=True)


@pytest.mark.slow
def test_every_layer_is_clean(tree: Path) -> None:
    packages = [argument for layer in LAYERS for argument in ("-p", f"pokerbot.{layer}")]
    result = _mypy(tree, "cache", *packages)
    assert result.returncode == 0, result.stdout + result.stderr
