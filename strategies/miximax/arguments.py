"""The registry argument of ``miximax`` (and of ``adaptive``'s exploiter): ``[BUDGET][,KEY=VALUE...]``.

Parsed here, apart from the agent, so that a malformed argument is refused at once, before
the agent's modules (and the libraries they bring) are imported. Budgets are per decision:
seconds, or search nodes (``2000nodes``).
"""

from __future__ import annotations

from typing import Any


def parse_budget(text: str) -> float:
    """A registry argument ``SECONDS`` (the time budget of a decision); ValueError if not one."""
    try:
        seconds = float(text)
    except ValueError:
        raise ValueError(
            f"the argument is a time budget in seconds per decision, got {text!r} (or a node budget: 2000nodes)"
        ) from None
    if not 0.0 < seconds <= 60.0:
        raise ValueError(f"the time budget must be in (0, 60] seconds per decision, got {text!r}")
    return seconds


NODES_SUFFIX = "nodes"
MAX_NODE_BUDGET = 100_000_000


def parse_node_budget(text: str) -> int | None:
    """The node budget of a registry argument ``NODESnodes`` (``2000nodes``), None for any
    other argument; ValueError for a bad count."""
    if not text.endswith(NODES_SUFFIX):
        return None
    count = text[: -len(NODES_SUFFIX)]
    if not count.isdigit() or not 1 <= int(count) <= MAX_NODE_BUDGET:
        raise ValueError(f"a node budget is 1..{MAX_NODE_BUDGET} search nodes per decision (2000nodes), got {text!r}")
    return int(count)


def parse_settings(argument: str) -> tuple[float | None, dict[str, Any]]:
    """A registry argument ``[BUDGET][,KEY=VALUE...]``: the budget of a decision, ``SECONDS``
    (the time budget) or ``NODESnodes`` (the search's node budget, the same as
    ``search.node_budget=NODES``: reproducible play), and :class:`AgentSettings` fields
    (``range_showdowns=0``, ``use_models=false``, a nested one as ``search.temperature=0``);
    ValueError if malformed. Values are validated by the settings."""
    budget: float | None = None
    updates: dict[str, Any] = {}
    for index, item in enumerate(part.strip() for part in argument.split(",")):
        key, equals, value = item.partition("=")
        if not equals:
            if index:
                raise ValueError(f"a setting is KEY=VALUE, got {item!r} (the budget comes first)")
            nodes = parse_node_budget(item)
            if nodes is None:
                budget = parse_budget(item)
            else:
                updates.setdefault("search", {})["node_budget"] = nodes
            continue
        *parents, field = key.strip().split(".")
        target = updates
        for parent in parents:
            target = target.setdefault(parent, {})
            if not isinstance(target, dict):
                raise ValueError(f"{parent!r} is given both as a value and as a group of settings")
        target[field] = value.strip()
    return budget, updates


__all__ = ["MAX_NODE_BUDGET", "NODES_SUFFIX", "parse_budget", "parse_node_budget", "parse_settings"]
