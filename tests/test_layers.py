"""The architecture: protocol <- models <- strategies <- bot, and protocol is sans-I/O."""

import ast
import subprocess
import sys
from pathlib import Path

import grimp
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("pokerbot.protocol", "pokerbot.models", "pokerbot.strategies", "pokerbot.bot")


def test_import_linter_contracts_hold(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml")) == 0


def import_cycles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another in a circle (strongly connected
    components of more than one module, or a module importing itself), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(imports):
        if root in index:
            continue
        work = [(root, iter(sorted(imports[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, edges = work[-1]
            for imported in edges:
                if imported not in index:
                    index[imported] = low[imported] = len(index)
                    stack.append(imported)
                    on_stack.add(imported)
                    work.append((imported, iter(sorted(imports.get(imported, ())))))
                    break
                if imported in on_stack:
                    low[module] = min(low[module], index[imported])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1 or module in imports.get(module, ()):
                        cycles.append(sorted(group))
    return sorted(cycles)


def test_import_cycles_are_found():
    imports = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}, "f": {"d"}}
    assert import_cycles(imports) == [["a", "b", "c"], ["e"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_is_part_of_an_import_cycle():
    """Every import counts, at any depth of a function or under ``TYPE_CHECKING``: a module
    that needs another's piece imports it from below, never around a circle."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    imports = {module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules}
    assert len(imports) > 100
    assert import_cycles(imports) == []


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


def test_card_abstraction_and_opponent_models_stand_apart():
    """Card abstraction imports nothing of pokerbot but :mod:`protocol`; what a player asks of
    an opponent model comes from :mod:`models`, so the solvers' subpackages import nothing of
    another agent's (``miximax``) for one."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)

    def inside(package: str) -> set[str]:
        return {package, *graph.find_descendants(package)}

    def imported_by(package: str) -> set[str]:
        return {imported for module in inside(package) for imported in graph.find_modules_directly_imported_by(module)}

    card_abstraction = inside("pokerbot.strategies.card_abstraction")
    assert {"pokerbot.strategies.card_abstraction.abstraction", "pokerbot.strategies.card_abstraction.tables"} <= (
        card_abstraction
    )
    outside = imported_by("pokerbot.strategies.card_abstraction") - card_abstraction
    assert outside and {m for m in outside if not m.startswith("pokerbot.protocol.")} == set()
    for solver in ("pokerbot.strategies.resolve", "pokerbot.strategies.abstract"):
        assert {m for m in imported_by(solver) if m.startswith("pokerbot.strategies.miximax")} == set(), solver
