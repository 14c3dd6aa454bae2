"""One import namespace: the four folders install as ``pokerbot.*`` and nothing else is top level."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_FOLDERS = ("protocol", "models", "strategies", "bot")
OLD_IMPORT = re.compile(r"^\s*(from|import) (protocol|models|strategies|bot)\b", re.M)


def test_every_package_folder_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    on_disk = {
        "pokerbot." + ".".join(init.parent.relative_to(ROOT).parts)
        for folder in PACKAGE_FOLDERS
        for init in (ROOT / folder).rglob("__init__.py")
    }
    assert on_disk == listed


def test_the_readme_layout_names_every_package_folder():
    """The README's Layout table has one row per package folder, and no row for a folder that is gone."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = text[text.index("## Layout") :].split("\n## ")[0]
    rows = set(re.findall(r"^\| `([a-z_/]+)/` \|", layout, re.M))
    on_disk = {
        "/".join(init.parent.relative_to(ROOT).parts)
        for folder in PACKAGE_FOLDERS
        for init in (ROOT / folder).rglob("__init__.py")
    }
    assert rows == on_disk


def test_no_module_imports_the_old_top_level_names():
    offenders = []
    for folder in (*PACKAGE_FOLDERS, "tests", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            if OLD_IMPORT.search(path.read_text()):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_users_own_models_and_protocol_modules_do_not_clash(tmp_path):
    (tmp_path / "models.py").write_text("WHO = 'the user'\n")
    (tmp_path / "protocol.py").write_text("WHO = 'the user too'\n")
    code = (
        "import pokerbot.protocol, pokerbot.models, models, protocol;"
        "print(models.WHO, '|', protocol.WHO, '|', pokerbot.protocol.load_game('kuhn').num_players)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "the user | the user too | 2"


@pytest.mark.slow
def test_the_distribution_builds_passes_twine_check_and_has_one_top_level_package(tmp_path):
    """``python -m build`` (the sdist, then the wheel from it) and ``twine check --strict``
    clean; the wheel is ``pokerbot-acpc``, holds the ``pokerbot`` package alone with its data,
    and needs Ray only for its ``cluster`` extra."""
    # built from a copy of what the build reads: the build writes its own files (build/,
    # *.egg-info) beside the sources, and the checkout is shared with the other tests
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", config["project"]["readme"], *config["project"]["license-files"]):
        shutil.copy2(ROOT / name, source / name)
    for folder in config["tool"]["setuptools"]["package-dir"].values():
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    dist = tmp_path / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(source)], capture_output=True, text=True
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    assert [line for line in (built.stdout + built.stderr).splitlines() if line.startswith("WARNING")] == []
    (wheel,) = dist.glob("pokerbot_acpc-*.whl")
    (sdist,) = dist.glob("pokerbot_acpc-*.tar.gz")
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdist)], capture_output=True, text=True
    )
    assert checked.returncode == 0 and checked.stdout.count("PASSED") == 2, checked.stdout + checked.stderr
    version = config["project"]["version"]
    assert wheel.name == f"pokerbot_acpc-{version}-py3-none-any.whl"
    metadata = zipfile.ZipFile(wheel).read(f"pokerbot_acpc-{version}.dist-info/METADATA").decode()
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    assert [line for line in requires if line.startswith("Requires-Dist: ray")] == [
        'Requires-Dist: ray>=2.9; extra == "cluster"',
        'Requires-Dist: ray>=2.9; extra == "test"',
    ]
    assert not [line for line in requires if "torch" in line and "extra" not in line]
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top_level == {"pokerbot"}
    assert "pokerbot/protocol/games/kuhn.game" in names
    assert "pokerbot/protocol/analysis/data/preflop_equity.json" in names
    assert any(name.startswith("pokerbot/models/data/") and name.endswith(".prior") for name in names)
    assert {"pokerbot/bot/human/webui/index.html", "pokerbot/bot/human/webui/app.js"} <= set(names)


WITHOUT_RAY = (
    "import sys; sys.modules['ray'] = None; sys.argv[0] = 'pokerbot'; from pokerbot.bot.cli import main; main()"
)
"""``pokerbot`` as installed without the cluster extra: ``import ray`` fails."""


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "--game", "kuhn", "--players", "random", "always-call", "--hands", "10"],
        ["match", "--game", "kuhn", "--hands", "10", "--jobs", "2"],
        ["exploitability", "holdem-nolimit-2p", "always-fold", "--hands", "20", "--jobs", "2"],
        ["exploitability", "holdem-nolimit-2p", "always-fold", "--hands", "20", "--address", "auto"],
    ],
    ids=["tournament", "match-jobs", "lbr-jobs", "lbr-address"],
)
def test_without_ray_the_parallel_commands_say_in_one_line_how_to_install_it(argv, tmp_path):
    run = subprocess.run(
        [sys.executable, "-c", WITHOUT_RAY, *argv, "--out" if argv[0] != "exploitability" else "--json", "out"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode in (1, 2), run.stderr
    (line,) = run.stderr.strip().splitlines()
    assert line.startswith("pokerbot: error: ") and "Ray, which is not installed" in line
    assert "pip install 'pokerbot-acpc[cluster]'" in line


def test_without_ray_a_match_plays(tmp_path):
    run = subprocess.run(
        [sys.executable, "-c", WITHOUT_RAY, "match", "--game", "kuhn", "--hands", "20", "-q", "--jobs", "1"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "20 hands" in run.stdout


def test_the_version_has_its_changelog_section():
    """A release's section is dated; a development version's (``X.Y.Z.devN``) says so."""
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    changelog = (ROOT / "docs" / "changelog.md").read_text(encoding="utf-8")
    first = re.search(r"^## (\S+) \(([^)]*)\)$", changelog, re.M)
    assert first is not None
    whole, base = re.fullmatch(r"(\d+\.\d+\.\d+)(?:\.dev\d+)?", version).group(0, 1)
    if whole == base:  # a release
        assert first.group(1) == version and re.fullmatch(r"\d{4}-\d{2}-\d{2}", first.group(2)), first.group(0)
    else:
        assert first.group(0) == f"## {base} (in development)"


def test_the_docs_index_has_one_line_for_every_page():
    docs = ROOT / "docs"
    index = (docs / "README.md").read_text(encoding="utf-8")
    linked = re.findall(r"^\* \[([\w-]+\.md)\]\(\1\): .+$", index, re.M)
    assert sorted(linked) == sorted(page.name for page in docs.glob("*.md") if page.name != "README.md")
