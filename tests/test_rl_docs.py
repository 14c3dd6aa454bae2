"""docs/rl.md's Python examples run (the training example on fewer hands)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).parent.parent / "docs" / "rl.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_training_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    example = python_blocks()[0]
    assert example.count("\n") <= 25 and "range(20_000)" in example
    exec(compile(example.replace("range(20_000)", "range(300)").replace("-5000:", "-100:"), str(DOC), "exec"), {})
    assert re.fullmatch(r"last 5,000 hands: [+-]\d\.\d{3} big blinds per hand\n", capsys.readouterr().out)


def test_the_every_seat_example_runs() -> None:
    namespace: dict[str, object] = {}
    exec(compile(python_blocks()[1], str(DOC), "exec"), namespace)
    assert namespace["env"].agents == []  # type: ignore[attr-defined]
