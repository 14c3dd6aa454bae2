"""The NFSP side-by-side in Leduc: our curve and OpenSpiel's, one JSON and one plot.

Run: python benchmarks/plot_nfsp_leduc.py OURS/curve.json OPENSPIEL.json [--json docs/rl-nfsp-leduc.json]
[--png docs/rl-nfsp-leduc.png]

``OURS/curve.json`` is what ``pokerbot rl train leduc ... --out OURS`` wrote, ``OPENSPIEL.json``
what ``benchmarks/openspiel_nfsp_leduc.py`` wrote: both exploitability (chips per hand) against
CPU seconds of one training thread. The JSON keeps both curves and, at each of OpenSpiel's
points, our exploitability at that CPU time (the last measurement at or before it) and whether it
is at least as low. The plot is log-log.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def at_or_before(points: list[dict[str, Any]], seconds: float) -> float:
    """The exploitability of the last point measured at or before ``seconds``."""
    earlier = [p for p in points if p["cpu_seconds"] <= seconds + 1e-6]
    return float(earlier[-1]["exploitability"]) if earlier else float("nan")


def main() -> None:
    """Read both curves, write the combined JSON and the plot."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ours", type=Path)
    parser.add_argument("openspiel", type=Path)
    parser.add_argument("--json", type=Path, default=Path("docs/rl-nfsp-leduc.json"))
    parser.add_argument("--png", type=Path, default=Path("docs/rl-nfsp-leduc.png"))
    args = parser.parse_args()
    ours = json.loads(args.ours.read_text(encoding="utf-8"))
    theirs = json.loads(args.openspiel.read_text(encoding="utf-8"))
    comparison = [
        {
            "cpu_seconds": point["cpu_seconds"],
            "openspiel": point["exploitability"],
            "pokerbot": at_or_before(ours["points"], point["cpu_seconds"]),
        }
        for point in theirs["points"]
    ]
    for row in comparison:
        row["pokerbot_at_least_as_low"] = row["pokerbot"] <= row["openspiel"]
    document = {"pokerbot": ours, "openspiel": theirs, "comparison": comparison}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")

    figure, axis = plt.subplots(figsize=(7, 4.5))
    for label, curve in (("pokerbot rl train (NFSP)", ours), ("OpenSpiel PyTorch NFSP (example settings)", theirs)):
        points = [p for p in curve["points"] if p["cpu_seconds"] > 0]
        axis.loglog([p["cpu_seconds"] for p in points], [p["exploitability"] for p in points], marker="o", label=label)
    axis.axhline(0.3, color="grey", linestyle="--", linewidth=1, label="0.3 chips/hand")
    axis.set_xlabel("training time (CPU seconds, one thread)")
    axis.set_ylabel("exploitability (chips/hand)")
    axis.set_title("NFSP in Leduc hold'em: exact exploitability of the average policy")
    axis.grid(True, which="both", alpha=0.3)
    axis.legend()
    figure.tight_layout()
    figure.savefig(args.png, dpi=110)
    print(f"wrote {args.json}\nwrote {args.png}")


if __name__ == "__main__":
    main()
