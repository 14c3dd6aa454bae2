"""One home per concept: the package sources define eval7's card table, the unused deck and
the pre-flop equities against a random hand once each."""

import ast
import json
from functools import cache
from pathlib import Path

import pytest

from pokerbot.protocol.analysis.preflop import CLASSES, preflop_class_equity
from pokerbot.strategies.miximax.preflop import load_chart

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("protocol", "models", "strategies", "bot")
DECK_SIZES = {"52", "NUM_CARDS"}


@cache
def package_sources() -> tuple[tuple[str, str], ...]:
    """Every module of the package: its path and its text."""
    return tuple(
        (str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
        for layer in LAYERS
        for path in sorted((ROOT / layer).rglob("*.py"))
    )


def functions_with(tree: ast.AST, found) -> set[str]:
    """The names of the functions (``<module>`` for top-level code) in which ``found(node)``
    holds for some node."""
    names = set()

    def visit(node: ast.AST, owner: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            owner = node.name
        if found(node):
            names.add(owner)
        for child in ast.iter_child_nodes(node):
            visit(child, owner)

    visit(tree, "<module>")
    return names


def eval7_card_calls(tree: ast.AST):
    """A test for the calls of eval7's card constructor in ``tree`` (``eval7.Card(...)``, under
    whatever names the module imports eval7 or its ``Card`` as)."""
    modules, constructors = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {alias.asname or alias.name for alias in node.names if alias.name == "eval7"}
        elif isinstance(node, ast.ImportFrom) and node.module == "eval7":
            constructors |= {alias.asname or alias.name for alias in node.names if alias.name == "Card"}

    def found(node: ast.AST) -> bool:
        if not isinstance(node, ast.Call):
            return False
        function = node.func
        if isinstance(function, ast.Attribute):
            return function.attr == "Card" and isinstance(function.value, ast.Name) and function.value.id in modules
        return isinstance(function, ast.Name) and function.id in constructors

    return found


def unused_deck_loop(node: ast.AST) -> bool:
    """A loop over the 52-card deck that keeps the cards a test lets through: a comprehension
    with a condition, or a ``for`` loop whose body is one ``if``."""

    def over_deck(iterator: ast.AST) -> bool:
        return (
            isinstance(iterator, ast.Call)
            and isinstance(iterator.func, ast.Name)
            and iterator.func.id == "range"
            and len(iterator.args) == 1
            and ast.unparse(iterator.args[0]) in DECK_SIZES
        )

    if isinstance(node, ast.comprehension):
        return over_deck(node.iter) and bool(node.ifs)
    if isinstance(node, ast.For):
        return over_deck(node.iter) and len(node.body) == 1 and isinstance(node.body[0], ast.If)
    return False


def homes(scan, needles: tuple[str, ...]) -> list[tuple[str, str]]:
    """Where in the package ``scan(tree)`` finds something: (file, function) pairs. Only the
    modules whose text holds one of ``needles`` (which what is looked for cannot lack) are
    parsed."""
    places = []
    for path, text in package_sources():
        if any(needle in text for needle in needles):
            tree = ast.parse(text)
            places += [(path, name) for name in sorted(functions_with(tree, scan(tree)))]
    return places


def test_the_scans_find_what_they_look_for():
    made = ast.parse(
        "import eval7\ndef table():\n    return [eval7.Card(t) for t in 'x']\n"
        "from eval7 import Card as C\nONE = C('As')\nfrom pydantic import Card\nTWO = Card()\n"
    )
    assert functions_with(made, eval7_card_calls(made)) == {"table", "<module>"}
    assert functions_with(ast.parse("from x import Card\nCard('As')\n"), eval7_card_calls(made)) == set()
    loops = ast.parse(
        "rest = [c for c in range(52) if c not in used]\n"
        "def f():\n    for card in range(NUM_CARDS):\n        if not used[card]:\n            pass\n"
        "def g():\n    for first in range(NUM_CARDS):\n        for second in range(first):\n            pass\n"
    )
    assert functions_with(loops, unused_deck_loop) == {"<module>", "f"}


def test_eval7_cards_are_built_in_one_place():
    assert homes(eval7_card_calls, ("eval7",)) == [("protocol/analysis/eval7_cards.py", "eval7_cards")]


def test_the_unused_deck_is_computed_in_one_place():
    assert homes(lambda tree: unused_deck_loop, tuple(f"range({size})" for size in DECK_SIZES)) == [
        ("protocol/analysis/showdown.py", "unused_cards")
    ]


@pytest.mark.parametrize("folder", ["strategies/data", "models", "bot"])
def test_no_other_data_file_holds_equities_against_a_random_hand(folder):
    for path in (ROOT / folder).rglob("*.json"):
        assert "equity_vs_random" not in json.loads(path.read_text(encoding="utf-8")), path


def test_the_chart_reads_its_equities_against_a_random_hand_from_the_protocol_table():
    table = preflop_class_equity()
    assert load_chart().equity_vs_random == tuple(table[label] for label in CLASSES)
