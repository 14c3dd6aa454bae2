"""The long commands' progress bar, readable where no terminal shows it."""

from __future__ import annotations

import io

from rich.console import Console

from pokerbot.bot.cli.progress import LoggedProgress


def _run(console: Console, **options: object) -> str:
    with LoggedProgress(console=console, log_seconds=0.0, **options) as progress:  # type: ignore[arg-type]
        task = progress.add_task("lbr vs miximax", total=4_000)
        progress.advance(task, 1_000)
        progress.update(task, completed=2_500, status="it 100")
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_plain_lines_where_no_terminal_shows_the_bar() -> None:
    text = _run(Console(file=io.StringIO(), force_terminal=False, width=100))
    lines = text.splitlines()
    assert lines[0] == "lbr vs miximax: 1,000/4,000 (25%), 0:00:00 elapsed"
    assert lines[1] == "lbr vs miximax: 2,500/4,000 (62%), 0:00:00 elapsed; it 100"


def test_no_plain_lines_on_a_terminal_or_when_disabled() -> None:
    assert "elapsed" not in _run(Console(file=io.StringIO(), force_terminal=True, width=100))
    assert _run(Console(file=io.StringIO(), force_terminal=False), disable=True) == ""


def test_at_most_one_line_per_period() -> None:
    console = Console(file=io.StringIO(), force_terminal=False, width=100)
    with LoggedProgress(console=console, log_seconds=3600.0, transient=True) as progress:
        task = progress.add_task("solve", total=10)
        for _ in range(10):
            progress.advance(task)
    assert "elapsed" not in console.file.getvalue()
