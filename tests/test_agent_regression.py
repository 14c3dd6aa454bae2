"""The miximax agent's decisions, pinned: fixed deals, a fixed seed and a node budget (the
search stops at the budget, never at the clock), so a refactoring that changes one decision
fails here. The expected logs are in ``tests/fixtures/agent_decisions.json``; after a change
that is MEANT to change decisions, rewrite them with
``python -m tests.test_agent_regression --write`` and say why in the commit."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.protocol.game import load_game
from pokerbot.protocol.names import unique_player_names
from pokerbot.strategies.miximax.player import AgentSettings, MiximaxAgent
from pokerbot.strategies.miximax.search import SearchSettings
from pokerbot.strategies.registry import default_registry

FIXTURE = Path(__file__).parent / "fixtures" / "agent_decisions.json"
NODES = 600
"""Search nodes per decision: small, so that the test is quick; the clock never binds."""
CASES: dict[str, dict[str, Any]] = {
    "nolimit-2p-vs-random": {"game": "holdem-nolimit-2p", "opponents": ["random"], "hands": 24},
    "nolimit-2p-vs-maniac": {"game": "holdem-nolimit-2p", "opponents": ["maniac"], "hands": 24},
    "nolimit-2p-vs-station-static": {
        "game": "holdem-nolimit-2p",
        "opponents": ["calling-station"],
        "hands": 16,
        "settings": {"learn": False},
    },
    "nolimit-2p-no-models-no-chart": {
        "game": "holdem-nolimit-2p",
        "opponents": ["tight-aggressive"],
        "hands": 8,
        "settings": {"use_models": False, "use_chart": False},
    },
    "nolimit-2p-maximix": {
        "game": "holdem-nolimit-2p",
        "opponents": ["loose-passive"],
        "hands": 16,
        "search": {"temperature": 0.5},
    },
    "limit-2p-vs-random": {"game": "holdem-limit-2p", "opponents": ["random"], "hands": 20},
    "nolimit-3p-vs-random-and-maniac": {"game": "holdem-nolimit-3p", "opponents": ["random", "maniac"], "hands": 18},
    "limit-3p-vs-stations": {"game": "holdem-limit-3p", "opponents": ["calling-station", "nit"], "hands": 18},
}


def play(case: dict[str, Any]) -> list[str]:
    """The case's match log (STATE lines and SCORE), the agent in the first seat."""
    game = load_game(case["game"])
    search = SearchSettings(node_budget=NODES, **case.get("search", {}))
    settings = AgentSettings(time_budget=600.0, search=search, **case.get("settings", {}))
    registry = default_registry()
    agent = MiximaxAgent(game, 5, settings)
    opponents = [registry.create(name, game, 11 + i) for i, name in enumerate(case["opponents"])]
    names = unique_player_names(["miximax", *case["opponents"]])
    with tempfile.TemporaryDirectory() as folder:  # never inside the checkout: runs may overlap
        log = Path(folder) / "regression.log"
        run_inprocess_match(game, case["hands"], 3, [agent, *opponents], names, log_path=log, seconds_per_action=600.0)
        return [line for line in log.read_text().splitlines() if not line.startswith("#")]


@pytest.mark.parametrize("name", sorted(CASES))
def test_decisions_are_pinned(name: str) -> None:
    expected = json.loads(FIXTURE.read_text())[name]
    assert play(CASES[name]) == expected


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python -m tests.test_agent_regression --write")
    FIXTURE.write_text(json.dumps({name: play(case) for name, case in sorted(CASES.items())}, indent=1) + "\n")
    print(f"wrote {FIXTURE}")
