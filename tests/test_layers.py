"""The architecture: protocol <- models <- strategies <- bot, and protocol is sans-I/O."""

import ast
import subprocess
import sys
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent


def test_import_linter_contracts_hold(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml")) == 0


def test_protocol_modules_import_no_io_modules_even_lazily():
    forbidden = {"socket", "asyncio", "threading", "multiprocessing", "subprocess", "selectors", "websockets"}
    for path in (ROOT / "protocol").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module.split(".")[0]]
            assert not forbidden.intersection(names), f"{path.name} imports {names}"


def test_ruff_lint_and_format_are_clean():
    """ruff (configured in pyproject.toml): lint, import order and formatting."""
    ruff = [sys.executable, "-m", "ruff"]
    lint = subprocess.run([*ruff, "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    formatting = subprocess.run(
        [*ruff, "format", "--check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert formatting.returncode == 0, formatting.stdout + formatting.stderr
