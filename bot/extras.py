"""The distribution's optional extras: what needs one, and the line that installs it.

``cluster`` (Ray) runs matches, chunks and trials in parallel (``--jobs N`` above 1,
``--address``); ``rl`` (PyTorch, Gymnasium, PettingZoo) trains and hosts learners. A single
match, the dealer, the clients and every tool on logs need neither.
"""

from __future__ import annotations

DISTRIBUTION = "pokerbot-acpc"
"""The name the package index knows pokerbot by (the import package and command are ``pokerbot``)."""


def install_hint(extra: str) -> str:
    """How to install ``extra``: from the package index, or in a clone of the repository."""
    return f"pip install '{DISTRIBUTION}[{extra}]' (in a clone: pip install -e '.[{extra}]')"


__all__ = ["DISTRIBUTION", "install_hint"]
