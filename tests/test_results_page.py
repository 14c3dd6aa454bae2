"""docs/results.md is what benchmarks/results_page.py writes from docs/results/*.json, and its
quick figures reproduce: each one's command, run in an empty folder, gives the figure within
its interval."""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "results_page.py"
POKERBOT = Path(sys.executable).parent / "pokerbot"


def _page_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("results_page", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["results_page"] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


PAGE = _page_module()
TABLES = PAGE.load_tables()
QUICK = [
    # the rows of one command on one worker, which runs it once (_RAN)
    pytest.param(row, id=f"{table.path.stem}:{row['what'][:40]}", marks=pytest.mark.xdist_group(row["command"]))
    for table in TABLES
    for row in table.rows
    if "check" in row
]


def _version(text: str) -> tuple[int, ...]:
    assert re.fullmatch(r"\d+\.\d+\.\d+", text), text
    return tuple(int(part) for part in text.split("."))


def test_the_page_is_what_the_script_writes_from_the_result_files():
    assert (ROOT / "docs" / "results.md").read_text(encoding="utf-8") == PAGE.render_page(TABLES)
    done = subprocess.run([sys.executable, SCRIPT, "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_page_answers_the_questions_users_ask():
    sections = {table.section for table in TABLES}
    assert sections == {"Strength", "Speed", "Variance"}
    whats = [(table.path.stem, row["what"]) for table in TABLES for row in table.rows]
    for game in ("nolimit", "limit"):  # the default agent's and the blueprint's LBR bound, per betting
        stems = [what for stem, what in whats if stem == f"lbr-{game}"]
        assert any(what.startswith("`adaptive`") for what in stems) and any("`blueprint`" in what for what in stems)
    assert any(stem.startswith("head-to-head") for stem, _ in whats)
    assert {"speed-reference", "speed-startup", "speed-solvers", "variance-aivat"} <= {stem for stem, _ in whats}


def test_every_row_has_a_figure_a_command_and_a_version_not_newer_than_this_one():
    current = _version(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"])
    for table in TABLES:
        for row in table.rows:
            assert isinstance(row["figure"], int | float), row
            assert row["ci95"] is None or row["ci95"] >= 0, row
            assert row["command"].startswith(("pokerbot ", "python benchmarks/")), row
            assert _version(row["version"]) <= current, row


def test_a_bad_result_file_is_refused_in_one_line_naming_it(tmp_path):
    (tmp_path / "bad.json").write_text(json.dumps({"section": "Strength", "title": "t", "order": 1, "rows": [{}]}))
    with pytest.raises(PAGE.ResultFileError, match=r"^bad.json: row 0 has no what, figure, ci95"):
        PAGE.load_tables(tmp_path)
    (tmp_path / "bad.json").write_text(json.dumps({"section": "Luck", "title": "t", "order": 1, "rows": []}))
    with pytest.raises(PAGE.ResultFileError, match="section 'Luck' is not one of Strength, Speed, Variance"):
        PAGE.load_tables(tmp_path)


def test_figures_print_with_their_interval_and_unit():
    row = {"figure": 1338.4, "ci95": 680, "signed": True}
    assert PAGE.format_figure(row, "mbb/hand") == "**+1,338 ± 680** mbb/hand"
    assert PAGE.format_figure({"figure": 0.000295, "ci95": 0, "decimals": 6}, "") == "**0.000295 (exact)**"
    assert PAGE.format_figure({"figure": 0.37, "ci95": None, "decimals": 2}, "x") == "**0.37** x"


def _field(data: Any, path: str) -> float:
    for key in path.split("/"):
        data = data[int(key)] if isinstance(data, list) else data[key]
    return float(data)


def _run(command: str, folder: Path) -> None:
    for part in command.split(" && "):
        argv = shlex.split(part)
        if argv[0] == "pokerbot":
            argv[0] = str(POKERBOT)
        else:
            assert argv[0] == "python" and argv[1].startswith("benchmarks/"), part
            argv[:2] = [sys.executable, str(ROOT / argv[1])]
        done = subprocess.run(argv, cwd=folder, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{part}\n{done.stdout}\n{done.stderr}"


_RAN: dict[str, Path] = {}
"""The folder each quick command ran in: rows that share a command read one run."""


@pytest.mark.slow
@pytest.mark.parametrize("row", QUICK)
def test_each_quick_figure_reproduces_within_its_interval(row, tmp_path_factory):
    if row["command"] not in _RAN:
        folder = tmp_path_factory.mktemp("quick")
        _run(row["command"], folder)
        _RAN[row["command"]] = folder
    written = _RAN[row["command"]] / row["check"]["json"]
    got = _field(json.loads(written.read_text()), row["check"]["field"])
    tolerance = row["ci95"] or 0.5 * 10.0 ** -int(row.get("decimals", 0))
    assert abs(got - row["figure"]) <= tolerance, (got, row["figure"], tolerance)
