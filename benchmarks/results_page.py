"""Write ``docs/results.md`` from the result files ``docs/results/*.json``.

    python benchmarks/results_page.py            # writes docs/results.md
    python benchmarks/results_page.py --check    # exit status 1 if docs/results.md is not what it would write

Each result file is one table of the page::

    {
      "section": "Strength",                  # the page's section (Strength, Speed, Variance)
      "title": "...", "order": 10,            # the table's heading, and its place in the section
      "intro": "...",                         # markdown before the table (optional)
      "notes": "...",                         # markdown after it (optional)
      "unit": "mbb/hand",                     # the rows' unit unless a row names its own
      "rows": [
        {
          "what": "...", "game": "...",       # what is measured; the game (optional)
          "figure": 1338, "ci95": 680,        # the figure and the half-width of its 95 % interval
                                              # (0: exact; null: no interval was measured)
          "unit": "...", "decimals": 0,       # optional: the row's unit, digits after the point
          "signed": true,                     # optional: print a + on positive figures
          "sample": "6,000 hands",            # what the figure was measured on
          "command": "pokerbot ...",          # the command that reproduces it
          "version": "0.1.0",                 # the pokerbot version it was measured on
          "note": "...",                      # optional: printed under the table
          "check": {"json": "OUT.json", "field": "a/b"}   # optional: a cheap figure; see below
        }
      ]
    }

A row with ``check`` is cheap (seconds): ``tests/test_results_page.py`` runs its command in an
empty folder, reads ``field`` (keys separated by ``/``) from the JSON file the command wrote,
and checks it is within ``ci95`` of the figure (or within half a unit of its last printed digit
when the figure is exact). The same test checks that ``docs/results.md`` is what this script
writes from the files, so the two never drift.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results"
PAGE = ROOT / "docs" / "results.md"
SECTIONS = ("Strength", "Speed", "Variance")

HEADER = """\
# Results

<!-- Written by `python benchmarks/results_page.py` from docs/results/*.json: edit those, then run it. -->

The figures a user asks for, each with its 95 % interval, the command that reproduces it and
the pokerbot version it was measured on. Win rates are in mbb/hand (thousandths of a big blind
per hand) from the first player's side, small games in chips per hand. Strength figures use
budgets that never read the clock (`miximax:500nodes`: about 0.05 s a decision on an idle core;
`adaptive:30iterations`, `resolve:100iterations`: solves of that many iterations), so the same
command gives the same figure under any load; speed figures depend on the
machine and say how they were taken. How the figures moved from version to version is in
[changelog.md](changelog.md); what each measure means is on its topic page
([lbr.md](lbr.md), [safe.md](safe.md), [aivat.md](aivat.md), [performance.md](performance.md)).
The rows marked *quick* run in seconds, and a test checks that they reproduce.
"""


class ResultFileError(ValueError):
    """A result file that cannot be read; the message names the file and the field."""


@dataclass(frozen=True)
class Table:
    """One result file: a table of the page."""

    path: Path
    section: str
    title: str
    order: int
    unit: str
    intro: str
    notes: str
    rows: list[dict[str, Any]]


REQUIRED_ROW = ("what", "figure", "ci95", "sample", "command", "version")


def load_table(path: Path) -> Table:
    """The table of one result file; raises :class:`ResultFileError` saying what and where."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ResultFileError(f"{path.name}: {error}") from None
    for key in ("section", "title", "order", "rows"):
        if key not in data:
            raise ResultFileError(f"{path.name}: no {key!r}")
    if data["section"] not in SECTIONS:
        raise ResultFileError(f"{path.name}: section {data['section']!r} is not one of {', '.join(SECTIONS)}")
    for index, row in enumerate(data["rows"]):
        missing = [key for key in REQUIRED_ROW if key not in row]
        if missing:
            raise ResultFileError(f"{path.name}: row {index} has no {', '.join(missing)}")
        if "unit" not in row and "unit" not in data:
            raise ResultFileError(f"{path.name}: row {index} has no unit, nor has the file")
    return Table(
        path,
        data["section"],
        data["title"],
        int(data["order"]),
        data.get("unit", ""),
        data.get("intro", ""),
        data.get("notes", ""),
        list(data["rows"]),
    )


def load_tables(folder: Path = RESULTS) -> list[Table]:
    """Every result file of ``folder``, in page order."""
    tables = [load_table(path) for path in sorted(folder.glob("*.json"))]
    return sorted(tables, key=lambda table: (SECTIONS.index(table.section), table.order, table.path.name))


def format_number(value: float, decimals: int, signed: bool) -> str:
    """``value`` with thousands separators and ``decimals`` digits, a + when ``signed``."""
    text = f"{value:,.{decimals}f}"
    return f"+{text}" if signed and value > 0 else text


def format_figure(row: dict[str, Any], unit: str) -> str:
    """The figure with its interval and unit, as the page prints it."""
    decimals = int(row.get("decimals", 0))
    figure = format_number(row["figure"], decimals, bool(row.get("signed", False)))
    interval = row["ci95"]
    if interval is None:
        text = figure
    elif interval == 0:
        text = f"{figure} (exact)"
    else:
        text = f"{figure} ± {format_number(interval, decimals, False)}"
    return f"**{text}** {unit}".rstrip()


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_table(table: Table) -> str:
    """The markdown of one table: heading, intro, rows, notes."""
    has_game = any("game" in row for row in table.rows)
    head = ["what", *(["game"] if has_game else []), "figure (95 % interval)", "measured on", "command", "version"]
    lines = [f"### {table.title}", ""]
    if table.intro:
        lines += [table.intro.strip(), ""]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    notes = []
    for row in table.rows:
        what = row["what"]
        if "note" in row:
            notes.append(row["note"])
            what += f" [{len(notes)}]"
        if "check" in row:
            what += " *(quick)*"
        cells = [what]
        if has_game:
            cells.append(f"`{row['game']}`" if row.get("game") else "")
        cells += [
            format_figure(row, row.get("unit", table.unit)),
            row["sample"],
            f"`{row['command']}`",
            row["version"],
        ]
        lines.append("| " + " | ".join(_cell(cell) for cell in cells) + " |")
    lines.append("")
    for number, note in enumerate(notes, 1):
        lines += [f"[{number}] {note.strip()}", ""]
    if table.notes:
        lines += [table.notes.strip(), ""]
    return "\n".join(lines)


def render_page(tables: list[Table]) -> str:
    """The whole page."""
    parts = [HEADER]
    for section in SECTIONS:
        chosen = [table for table in tables if table.section == section]
        if chosen:
            parts.append(f"## {section}\n")
            parts += [render_table(table) for table in chosen]
    return "\n".join(parts).rstrip() + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that docs/results.md is up to date")
    args = parser.parse_args()
    try:
        text = render_page(load_tables())
    except ResultFileError as error:
        print(f"error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    if args.check:
        if PAGE.read_text(encoding="utf-8") != text:
            print("docs/results.md is out of date: run python benchmarks/results_page.py", file=sys.stderr)
            raise SystemExit(1)
        return
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
