"""The model file format: a magic header, a format version, then a compressed pickle.

Layout::

    b"POKERBOT-MODEL\\n"        magic (15 bytes)
    b"format 1\\n"              the format version
    b"kind <name>\\n"           what the payload is (``prior``, ``action-model``, ...)
    zlib(pickle(object))

A file without the magic raises :class:`~models.errors.ForeignModelFileError`, another
version :class:`~models.errors.ModelVersionError`, a damaged payload or another kind
:class:`~models.errors.CorruptModelFileError` (all :class:`~models.errors.ModelFileError`).

**Model files are trusted input**: the payload is a pickle, and unpickling a malicious file
runs arbitrary code. Load only files you built or got from a source you trust; the header
checks catch mistakes (a wrong or damaged file), not attacks.
"""

from __future__ import annotations

import io
import pickle
import zlib
from pathlib import Path
from typing import Any

from pokerbot.models.errors import CorruptModelFileError, ForeignModelFileError, ModelFileError, ModelVersionError

MAGIC = b"POKERBOT-MODEL\n"
FORMAT_VERSION = 1
COMPRESSION_LEVEL = 9


OLD_TOP_LEVEL_PACKAGES = frozenset({"protocol", "models", "strategies", "bot"})


class _Unpickler(pickle.Unpickler):
    """Reads files written before the packages moved under ``pokerbot.`` (``models.x`` -> ``pokerbot.models.x``)."""

    def find_class(self, module: str, name: str) -> Any:
        if module.partition(".")[0] in OLD_TOP_LEVEL_PACKAGES:
            module = f"pokerbot.{module}"
        return super().find_class(module, name)


def dumps(obj: Any, kind: str) -> bytes:
    """The file bytes holding ``obj`` as a payload of ``kind`` (one word)."""
    if not kind or any(ch.isspace() for ch in kind):
        raise ValueError(f"kind must be one word, got {kind!r}")
    payload = zlib.compress(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL), COMPRESSION_LEVEL)
    return MAGIC + f"format {FORMAT_VERSION}\nkind {kind}\n".encode() + payload


def save(obj: Any, kind: str, path: Path) -> None:
    """Write ``obj`` to ``path`` (see the module docstring for the layout)."""
    path.write_bytes(dumps(obj, kind))


def loads(data: bytes, kind: str, source: str = "<bytes>") -> Any:
    """The object in model-file bytes ``data``, which must hold a payload of ``kind``."""
    if not data.startswith(MAGIC):
        raise ForeignModelFileError(f"{source}: not a pokerbot model file (no {MAGIC.strip().decode()} header)")
    rest = data[len(MAGIC) :]
    version_line, _, rest = rest.partition(b"\n")
    kind_line, _, payload = rest.partition(b"\n")
    version_text = version_line.decode("ascii", "replace")
    if not version_text.startswith("format ") or not version_text[7:].isdigit():
        raise CorruptModelFileError(f"{source}: damaged header: {version_text[:40]!r} is not a format line")
    version = int(version_text[7:])
    if version != FORMAT_VERSION:
        raise ModelVersionError(
            f"{source}: model file format {version}, this pokerbot reads format {FORMAT_VERSION}: rebuild the file"
        )
    found = kind_line.decode("ascii", "replace").removeprefix("kind ")
    if found != kind:
        raise CorruptModelFileError(f"{source}: holds a {found!r}, a {kind!r} was expected")
    try:
        return _Unpickler(io.BytesIO(zlib.decompress(payload))).load()
    except Exception as error:  # zlib.error, UnpicklingError, EOFError, AttributeError, ...
        raise CorruptModelFileError(f"{source}: damaged model payload ({type(error).__name__}: {error})") from None


def load(path: Path, kind: str) -> Any:
    """The object in model file ``path``, which must hold a payload of ``kind``."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ModelFileError(f"{path}: cannot read model file: {error.strerror or error}") from None
    return loads(data, kind, str(path))


__all__ = ["FORMAT_VERSION", "MAGIC", "dumps", "load", "loads", "save"]
