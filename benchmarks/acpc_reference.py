"""The reference ACPC dealer and example player, built from source outside the repository.

Benchmarks that compare with the reference call :func:`reference_build`: it copies the C
source (``$ACPC_SERVER``, else ``/work/shared/acpc-server``) to a cache folder outside the
repository (``$XDG_CACHE_HOME/pokerbot-acpc``, default ``~/.cache/pokerbot-acpc``) and runs
``make`` there once. Nothing of it is ever written into the project's tree.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

DEFAULT_SOURCE = Path("/work/shared/acpc-server")


class ReferenceUnavailableError(RuntimeError):
    """The reference source is not there, or it did not build."""


@dataclass(frozen=True)
class ReferenceBuild:
    """Paths of a built reference: ``dealer``, ``example_player`` and the game files."""

    folder: Path

    @property
    def dealer(self) -> Path:
        return self.folder / "dealer"

    @property
    def example_player(self) -> Path:
        return self.folder / "example_player"

    def game_file(self, game_name: str) -> Path:
        """The reference's own file for one of our built-in hold'em games."""
        files = {
            "holdem-limit-2p": "holdem.limit.2p.reverse_blinds.game",
            "holdem-nolimit-2p": "holdem.nolimit.2p.reverse_blinds.game",
            "holdem-limit-3p": "holdem.limit.3p.game",
            "holdem-nolimit-3p": "holdem.nolimit.3p.game",
            "kuhn": "kuhn.limit.2p.game",
            "kuhn3p": "kuhn.limit.3p.game",
            "leduc": "leduc.limit.2p.game",
        }
        return self.folder / files[game_name]


def reference_build(source: Path | None = None) -> ReferenceBuild:
    """Build (once, cached by the source's content) and return the reference dealer."""
    source = source or Path(os.environ.get("ACPC_SERVER", DEFAULT_SOURCE))
    if not (source / "dealer.c").exists():
        raise ReferenceUnavailableError(f"no reference dealer source at {source} (set ACPC_SERVER)")
    digest = hashlib.sha256()
    for path in sorted(source.glob("*.[ch]")):
        digest.update(path.name.encode() + path.read_bytes())
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "pokerbot-acpc"
    folder = cache / digest.hexdigest()[:16]
    build = ReferenceBuild(folder)
    if build.dealer.exists() and build.example_player.exists():
        return build
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(source, folder)
    done = subprocess.run(["make", "-C", str(folder), "dealer", "example_player"], capture_output=True, text=True)
    if done.returncode != 0 or not build.dealer.exists():
        raise ReferenceUnavailableError(f"make failed in {folder}: {done.stderr.strip()[-500:]}")
    return build


__all__ = ["ReferenceBuild", "ReferenceUnavailableError", "reference_build"]
