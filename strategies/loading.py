"""Loading strategies that are not built in: from a file, a module, or an installed package.

Three ways to name a strategy of your own, wherever a strategy name is asked for
(``pokerbot play --strategy``, ``pokerbot match --players``):

* ``path/to/mybot.py:MyBot``: the class ``MyBot`` of a Python file (the file is imported as
  a module of its own; it may import ``pokerbot.*`` and anything installed);
* ``package.module:MyBot``: the class ``MyBot`` of an importable module (``mybot:MyBot``
  finds ``mybot.py`` in the current folder, as ``python -m`` would);
* an installed package's name for it, declared as an entry point of the group
  ``pokerbot.strategies`` (``mybot = "mypackage.bots:MyBot"`` in its ``pyproject.toml``).

What is loaded must be a :class:`~pokerbot.strategies.base.Strategy` subclass (built as
``MyBot(game, seed)``) or a function ``factory(game, seed)`` returning a Strategy. Loading
problems raise :class:`~pokerbot.strategies.base.UnknownStrategyError` with a one-line
message that says which file or module and what went wrong.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterator
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

from pokerbot.protocol.game import Game
from pokerbot.strategies.base import Strategy, StrategyFactory, UnknownStrategyError

ENTRY_POINT_GROUP = "pokerbot.strategies"
"""The entry-point group where installed packages declare their strategies by name."""


def is_spec(name: str) -> bool:
    """True when ``name`` names a class to load (``file.py:Class`` or ``module:Class``)
    rather than a registered strategy: it has a ``:`` and a class name after it, and a file
    path or dotted module before it (registered names have neither ``.`` nor ``/``)."""
    source, colon, attribute = name.rpartition(":")
    if not colon or not source or not attribute.isidentifier():
        return False
    if source.endswith(".py") or "/" in source or "\\" in source:
        return True
    return all(part.isidentifier() for part in source.split("."))


def _module_from_file(path: Path) -> ModuleType:
    """Import the Python file ``path`` as a module of its own (a name unique to the file)."""
    if not path.is_file():
        raise UnknownStrategyError(f"strategy file {path} does not exist")
    resolved = path.resolve()
    digest = hashlib.sha256(str(resolved).encode()).hexdigest()[:12]
    module_name = f"pokerbot_user_{resolved.stem.replace('-', '_')}_{digest}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, resolved)
    if spec is None or spec.loader is None:
        raise UnknownStrategyError(f"strategy file {path} cannot be imported (is it a .py file?)")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[module_name]
        raise UnknownStrategyError(f"importing {path} failed: {_describe(error)}") from None
    return module


def _module_by_name(name: str) -> ModuleType:
    """Import ``name``; the current folder is searched too (first), as ``python -m`` does."""
    added = "" not in sys.path and "." not in sys.path
    if added:
        sys.path.insert(0, "")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is not None and (name == error.name or name.startswith(f"{error.name}.")):
            raise UnknownStrategyError(
                f"no strategy or module named {name!r} (a module must be installed or in this folder)"
            ) from None
        raise UnknownStrategyError(f"importing {name} failed: {_describe(error)}") from None
    except Exception as error:
        raise UnknownStrategyError(f"importing {name} failed: {_describe(error)}") from None
    finally:
        if added:
            sys.path.remove("")


def _describe(error: BaseException) -> str:
    """One line: the exception's type and message, with the file and line of a syntax error."""
    if isinstance(error, SyntaxError):
        return f"SyntaxError: {error.msg} (line {error.lineno})"
    return f"{type(error).__name__}: {error}".splitlines()[0]


def _checked_factory(obj: Any, where: str) -> StrategyFactory:
    """``obj`` as a factory ``(game, seed) -> Strategy`` whose result is checked."""
    if isinstance(obj, type):
        if not issubclass(obj, Strategy):
            raise UnknownStrategyError(f"{where} is a class but not a pokerbot.strategies.base.Strategy subclass")
        if getattr(obj, "__abstractmethods__", None):
            missing = ", ".join(sorted(obj.__abstractmethods__))
            raise UnknownStrategyError(f"{where} does not implement {missing}")
    elif not callable(obj):
        raise UnknownStrategyError(f"{where} is neither a Strategy subclass nor a factory function")

    def build(game: Game, seed: int | None) -> Strategy:
        try:
            strategy = obj(game, seed)
        except UnknownStrategyError:
            raise
        except Exception as error:
            raise UnknownStrategyError(f"{where}(game, seed) failed: {_describe(error)}") from None
        if not isinstance(strategy, Strategy):
            raise UnknownStrategyError(f"{where}(game, seed) returned {type(strategy).__name__}, not a Strategy")
        return strategy

    return build


def load_factory(spec: str) -> StrategyFactory:
    """The factory of ``file.py:Class`` or ``module:Class``; raises UnknownStrategyError."""
    source, _, attribute = spec.rpartition(":")
    if source.endswith(".py") or "/" in source or "\\" in source:
        module = _module_from_file(Path(source))
    else:
        module = _module_by_name(source)
    obj = getattr(module, attribute, None)
    if obj is None:
        defined = sorted(
            name
            for name, value in vars(module).items()
            if isinstance(value, type) and issubclass(value, Strategy) and value.__module__ == module.__name__
        )
        known = f" (its strategies: {', '.join(defined)})" if defined else " (it defines no Strategy subclass)"
        raise UnknownStrategyError(f"{source} has no {attribute!r}{known}")
    return _checked_factory(obj, f"{source}:{attribute}")


def installed_strategies() -> Iterator[tuple[str, EntryPoint]]:
    """Every strategy that installed packages declare in the ``pokerbot.strategies`` group."""
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        yield entry.name, entry


def entry_point_factory(entry: EntryPoint) -> StrategyFactory:
    """A factory that loads ``entry`` when first called (importing a package can be slow)."""
    loaded: list[StrategyFactory] = []
    where = f"{entry.value} (entry point {entry.name!r})"

    def build(game: Game, seed: int | None) -> Strategy:
        if not loaded:
            try:
                obj = entry.load()
            except Exception as error:
                raise UnknownStrategyError(f"loading {where} failed: {_describe(error)}") from None
            loaded.append(_checked_factory(obj, where))
        return loaded[0](game, seed)

    return build


def entry_point_summary(entry: EntryPoint) -> str:
    """A one-line summary of an installed strategy, without importing it."""
    package = entry.dist.name if entry.dist is not None else "an installed package"
    return f"Installed by {package} ({entry.value})."


SpecLoader = Callable[[str], StrategyFactory]

__all__ = [
    "ENTRY_POINT_GROUP",
    "SpecLoader",
    "entry_point_factory",
    "entry_point_summary",
    "installed_strategies",
    "is_spec",
    "load_factory",
]
