"""Competition kits: a folder that plays one strategy at an ACPC dealer seat, the ACPC way.

:func:`build_kit` writes what a competition asks of an entry (the reference's
``validate_submission.pl`` checks the same things):

* ``startme.sh`` (mode 755): ``startme.sh HOST PORT`` plays the strategy at that seat until
  the dealer closes the connection, under the match's time limits (``pokerbot play`` with
  the reference dealer's ``--t_response``/``--t_hand``/``--t_per_hand`` flags);
* ``game.txt``: the game definition; ``data/``: the files the strategy needs (a policy file,
  a bot's Python file, anything given with ``data``), copied so that the folder stands alone;
* ``README``: what the folder is and how to run it, and the ACPC entry form to fill in;
* ``kit.json``: the manifest (strategy, game, limits, pokerbot version, checksums) that
  :mod:`pokerbot.bot.kit.check` reads.

* ``install.sh``: makes the kit's own Python environment, ``venv/`` beside the script, and
  installs pokerbot in it from the wheel in ``wheels/`` (the one given with ``wheel``, else the
  one this pokerbot was installed from, else the source tree's ``dist/`` build of this
  version: :func:`find_wheel`), or from the package index when the kit has none; then it
  compiles the strategy's code once.

``startme.sh`` runs ``venv/bin/python`` (or ``$POKERBOT_PYTHON``): no path of the machine that
built the kit is written in it, so the folder works wherever it is copied and installed.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import shutil
import stat
import urllib.parse
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, distribution, version
from pathlib import Path

from pokerbot.bot.extras import DISTRIBUTION
from pokerbot.protocol.game import BUILTIN_GAMES, Game, format_game, load_game
from pokerbot.protocol.limits import TimeLimits

MANIFEST = "kit.json"
START_SCRIPT = "startme.sh"
INSTALL_SCRIPT = "install.sh"
VENV_FOLDER = "venv"
WHEEL_FOLDER = "wheels"
EXECUTABLE = stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH
"""The scripts' permissions (755), as the reference validator wants them."""
GAME_FILE = "game.txt"
DATA_FOLDER = "data"
ACPC_FOLDER_NAMES = {
    "holdem-limit-2p": "submission_2pl",
    "holdem-nolimit-2p": "submission_2pn",
    "holdem-limit-3p": "submission_3pl",
}
"""The folder names the reference validator expects for its games (it refuses any other)."""


class KitError(ValueError):
    """A kit cannot be built or read; the message says what and where."""


@dataclass(frozen=True)
class Kit:
    """A built kit: its folder and what its manifest says. Limits in milliseconds."""

    folder: Path
    strategy: str
    game: Game
    game_name: str
    limits: TimeLimits
    python: str
    """The Python the kit runs, relative to the kit's folder (its own ``venv/``)."""
    pokerbot_version: str
    files: dict[str, str]
    """Every file of the kit but the manifest, by relative path: its SHA-256."""
    wheel: str | None = None
    """The wheel ``install.sh`` installs (``wheels/NAME.whl``), None: from the package index."""

    @property
    def start_script(self) -> Path:
        return self.folder / START_SCRIPT

    @property
    def game_path(self) -> Path:
        return self.folder / GAME_FILE

    @property
    def installed(self) -> bool:
        """True once ``install.sh`` made the kit's own Python."""
        return (self.folder / self.python).exists()


def pokerbot_version() -> str:
    """The installed pokerbot's version ("unknown" when run from a bare source tree)."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown"


def find_wheel(version_wanted: str | None = None) -> Path | None:
    """The wheel of this pokerbot, if one is on this machine: the file pip installed it from
    (as pip recorded it), else, for an install from a source tree, that tree's
    ``dist/pokerbot_acpc-VERSION-*.whl`` (``python -m build`` writes it there)."""
    wanted = version_wanted or pokerbot_version()
    try:
        recorded = distribution(DISTRIBUTION).read_text("direct_url.json")
    except PackageNotFoundError:
        return None
    url = json.loads(recorded).get("url", "") if recorded else ""
    if not url.startswith("file://"):
        return None
    source = Path(urllib.parse.unquote(urllib.parse.urlparse(url).path))
    if source.is_file() and source.suffix == ".whl":
        return source
    built = sorted((source / "dist").glob(f"{DISTRIBUTION.replace('-', '_')}-{wanted}-*.whl"))
    return built[-1] if built else None


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _game_name(game: Game) -> str:
    return next((name for name in BUILTIN_GAMES if load_game(name) == game), "custom")


def _copy_strategy_files(strategy: str, data: Path) -> str:
    """Copy every part of ``strategy`` that is an existing file into ``data``; the spec
    rewritten to name the copies (relative to the kit folder, where the script runs)."""
    parts = strategy.split(":")
    for index, part in enumerate(parts):
        path = Path(part).expanduser()
        if part and path.is_file():
            data.mkdir(exist_ok=True)
            target = data / path.name
            if target.exists() and _sha256(target) != _sha256(path):
                raise KitError(f"two different files named {path.name} in the strategy {strategy!r}")
            shutil.copy2(path, target)
            parts[index] = f"{DATA_FOLDER}/{path.name}"
    return ":".join(parts)


def _copy_data(sources: list[Path], data: Path) -> None:
    for source in sources:
        if not source.exists():
            raise KitError(f"data {source} does not exist")
        target = data / source.name
        if target.exists():
            raise KitError(f"data {source}: {DATA_FOLDER}/{source.name} is already in the kit")
        data.mkdir(exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            shutil.copy2(source, target)


def _quote(text: str) -> str:
    """``text`` as one single-quoted shell word."""
    return "'" + text.replace("'", "'\"'\"'") + "'"


def _ms(value: float) -> str:
    return str(int(value)) if value == int(value) else repr(value)


def install_script(strategy: str, wheel: str | None, version_made: str, made: str) -> str:
    """The text of ``install.sh``: the kit's own Python with pokerbot, and its code compiled."""
    source = f'"{wheel}"' if wheel else f"'{DISTRIBUTION}=={version_made}'"
    return f"""#!/bin/sh
# Installs this pokerbot competition kit (made by `pokerbot kit` on {made}): a Python
# environment of its own in {VENV_FOLDER}/ with pokerbot from {wheel or "the package index"}, then the
# strategy's code compiled once (a hold'em agent's first start otherwise takes about a minute).
# Usage: ./install.sh [PYTHON]   (PYTHON: a Python 3.11 or newer, default python3)
set -e
cd "$(dirname "$0")"
"${{1:-python3}}" -m venv {VENV_FOLDER}
{VENV_FOLDER}/bin/python -m pip install --quiet {source}
{VENV_FOLDER}/bin/python -m pokerbot.bot.cli play --game {GAME_FILE} --strategy {_quote(strategy)} --prepare-only
"""


def start_script(strategy: str, limits: TimeLimits, python: str, made: str) -> str:
    """The text of ``startme.sh`` (run as ``startme.sh HOST PORT``)."""
    play = " ".join(
        [
            '"$PYTHON" -m pokerbot.bot.cli play --host "$1" --port "$2"',
            f"--game {GAME_FILE} --strategy {_quote(strategy)}",
            f"--t_response {_ms(limits.response_ms)} --t_hand {_ms(limits.hand_ms)}",
            f"--t_per_hand {_ms(limits.per_hand_ms)}",
        ]
    )
    return f"""#!/bin/sh
# A pokerbot competition kit, made by `pokerbot kit` on {made}.
# Usage (the ACPC way): startme.sh HOST PORT
# Plays until the dealer closes the connection; logs go to standard error.
if [ "$#" -lt 2 ]; then
  echo "usage: $0 HOST PORT" >&2
  exit 2
fi
cd "$(dirname "$0")" || exit 1
PYTHON="${{POKERBOT_PYTHON:-{python}}}"
if [ ! -x "$PYTHON" ]; then
  echo "$0: no Python with pokerbot at $PYTHON: run ./{INSTALL_SCRIPT} first (or set POKERBOT_PYTHON)" >&2
  exit 1
fi
exec {play}
"""


def readme(kit: Kit, summary: str) -> str:
    """The kit's README: what it is, how to run and check it, and the ACPC entry form."""
    limits = kit.limits
    acpc_name = ACPC_FOLDER_NAMES.get(kit.game_name)
    naming = (
        f"The reference validator (`validate_submission.pl`) wants this folder named `{acpc_name}`.\n"
        if acpc_name
        else ""
    )
    return f"""pokerbot competition kit
========================

Strategy: {kit.strategy}
  {summary}
Game: {kit.game_name} (game.txt)
Time limits (ms, the reference dealer's flags): --t_response {_ms(limits.response_ms)} \
--t_hand {_ms(limits.hand_ms)} --t_per_hand {_ms(limits.per_hand_ms)}
Made with pokerbot {kit.pokerbot_version}.

Install (once, on the machine that plays)
-------
    ./install.sh

makes a Python environment of the kit's own in venv/ and installs pokerbot \
{kit.pokerbot_version} in it, from {kit.wheel or f"the package index ({DISTRIBUTION})"}; then it
compiles the strategy's code (a hold'em agent's first start otherwise takes about a minute
before it connects; later ones a second). `./install.sh python3.12` picks the Python.

Run
---
    ./startme.sh HOST PORT

connects to the dealer seat at HOST:PORT (the port the dealer printed for this seat), sends
the protocol version, and plays until the dealer closes the connection. It never waits past
the limits above: when the strategy is slow, a check or call is sent before the deadline.
{naming}
Check
-----
    pokerbot kit check {kit.folder.name}

plays the kit in every seat against pokerbot's dealer under the limits above, as the
reference validator does (the start script, a clean exit after each match, no dealer warning,
no timeout, winnings against the random player).

startme.sh runs the kit's own Python ({kit.python}); to run another one with pokerbot
{kit.pokerbot_version} installed, set POKERBOT_PYTHON to it.

Files
-----
install.sh   makes venv/ and installs pokerbot in it
startme.sh   the start script (HOST PORT)
wheels/      the pokerbot wheel install.sh installs (if any)
game.txt     the game definition
data/        files the strategy needs (if any)
kit.json     manifest: strategy, game, limits, checksums

ACPC entry form (from the reference's README.submission; fill it in)
-------------------------------------------------------------------
Team Name:
Agent Name (can be the same as team name):
Team members (name, team leader y/n, e-mail, academic y/n, affiliation, location):

1) Is your agent dynamic?
2) Does your agent use a (approximate) Nash equilibrium strategy?
3) Does your agent attempt to model your opponents? Online or offline?
4) Would your agent benefit from additional CPU time?
5) Would your agent benefit from additional RAM?
6) Would your agent benefit from additional disk space?

One/Two Paragraph Summary of Technique:
{summary}

References to relevant papers, if any:
"""


def build_kit(
    folder: Path,
    strategy: str,
    game_argument: str,
    limits: TimeLimits,
    *,
    summary: str = "",
    data: list[Path] | None = None,
    wheel: Path | None = None,
) -> Kit:
    """Write a kit for ``strategy`` in ``game_argument`` (a built-in name or a game file).

    ``wheel``: the pokerbot wheel the kit installs (default: :func:`find_wheel`'s, if any;
    without one, ``install.sh`` installs this version from the package index). ``folder`` must
    not exist or be empty (nothing is ever overwritten). Raises :class:`KitError` (or
    GameDefinitionError for a bad game).
    """
    if wheel is not None and not (wheel.is_file() and wheel.suffix == ".whl"):
        raise KitError(f"--wheel {wheel} is not a wheel file (python -m build writes one in dist/)")
    game = load_game(game_argument)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise KitError(f"{folder} already exists and is not an empty folder: choose a new one")
    folder.mkdir(parents=True, exist_ok=True)
    data_folder = folder / DATA_FOLDER
    made = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    python = f"{VENV_FOLDER}/bin/python"
    wheel = wheel or find_wheel()
    try:
        kit_strategy = _copy_strategy_files(strategy, data_folder)
        _copy_data(data or [], data_folder)
        shipped = None
        if wheel is not None:
            (folder / WHEEL_FOLDER).mkdir()
            shutil.copy2(wheel, folder / WHEEL_FOLDER / wheel.name)
            shipped = f"{WHEEL_FOLDER}/{wheel.name}"
        (folder / GAME_FILE).write_text(format_game(game), encoding="utf-8")
        version_made = pokerbot_version()
        for name, text in (
            (START_SCRIPT, start_script(kit_strategy, limits, python, made)),
            (INSTALL_SCRIPT, install_script(kit_strategy, shipped, version_made, made)),
        ):
            script = folder / name
            script.write_text(text, encoding="utf-8")
            script.chmod(script.stat().st_mode | EXECUTABLE)
        kit = Kit(folder, kit_strategy, game, _game_name(game), limits, python, version_made, {}, shipped)
        (folder / "README").write_text(readme(kit, summary), encoding="utf-8")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    files = {
        str(path.relative_to(folder)): _sha256(path)
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != MANIFEST
    }
    manifest = {
        "made": made,
        "pokerbot": kit.pokerbot_version,
        "strategy": kit_strategy,
        "game": kit.game_name,
        "limits_ms": {"t_response": limits.response_ms, "t_hand": limits.hand_ms, "t_per_hand": limits.per_hand_ms},
        "python": python,
        "wheel": shipped,
        "files": files,
    }
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return Kit(folder, kit_strategy, game, kit.game_name, limits, python, kit.pokerbot_version, files, shipped)


def read_kit(folder: Path) -> Kit:
    """The kit in ``folder``; raises :class:`KitError` saying what is missing or wrong."""
    manifest_path = folder / MANIFEST
    if not manifest_path.is_file():
        raise KitError(f"{folder} is not a pokerbot kit: no {MANIFEST} (make one with pokerbot kit {folder})")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        limits_ms = manifest["limits_ms"]
        limits = TimeLimits(limits_ms["t_response"], limits_ms["t_hand"], limits_ms["t_per_hand"])
        game = load_game(folder / GAME_FILE)
        return Kit(
            folder,
            str(manifest["strategy"]),
            game,
            str(manifest["game"]),
            limits,
            str(manifest["python"]),
            str(manifest["pokerbot"]),
            {str(name): str(digest) for name, digest in manifest["files"].items()},
            manifest.get("wheel"),
        )
    except (ValueError, KeyError, TypeError, OSError) as error:
        raise KitError(f"{manifest_path}: cannot read the kit ({type(error).__name__}: {error})") from None


def changed_files(kit: Kit) -> list[str]:
    """Files of the manifest that are missing or differ from their checksum."""
    changed = []
    for name, digest in kit.files.items():
        path = kit.folder / name
        if not path.is_file() or _sha256(path) != digest:
            changed.append(name)
    return changed


__all__ = [
    "ACPC_FOLDER_NAMES",
    "Kit",
    "KitError",
    "build_kit",
    "changed_files",
    "pokerbot_version",
    "read_kit",
    "start_script",
]
