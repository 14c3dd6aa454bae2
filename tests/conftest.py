"""Shared test helpers: the reference fixtures and random legal play."""

from __future__ import annotations

import fcntl
import functools
import os
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from pokerbot.protocol.actions import Action, ActionKind
from pokerbot.protocol.dealing import Dealer
from pokerbot.protocol.game import BUILTIN_GAMES, Game, load_game, parse_game
from pokerbot.protocol.hand import HandState

FIXTURES = Path(__file__).parent / "fixtures" / "acpc"
REFERENCE_NAMES = sorted(path.name for path in FIXTURES.iterdir())
"""Reference folders, e.g. ``nolimit2p_s12`` (game and dealer seed 12)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` first, each kept in its place among them: the parallel workers
    (``-n auto``) take the longest tests at the start, and finish together on short ones."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line when the browser tests were skipped (no Chromium here): why, and how to run them."""
    reasons = {
        str(report.longrepr[2]).removeprefix("Skipped: ")
        for report in terminalreporter.stats.get("skipped", [])
        if isinstance(report.longrepr, tuple) and "the browser tests need" in str(report.longrepr[2])
    }
    for reason in sorted(reasons):
        terminalreporter.write_line(f"browser tests skipped: {reason}", yellow=True)


@dataclass(frozen=True)
class Reference:
    """One reference run of the ACPC dealer: game, seed and files (each read once)."""

    name: str
    game: Game
    seed: int
    folder: Path

    @property
    def transcript(self) -> list[str]:
        return list(_lines(self.folder / "transcript.txt"))

    @property
    def log_lines(self) -> list[str]:
        return list(_lines(self.folder / "log.txt"))


@functools.cache
def _lines(path: Path) -> tuple[str, ...]:
    return tuple(path.read_text().splitlines())


@functools.cache
def load_reference(name: str) -> Reference:
    folder = FIXTURES / name
    game = parse_game((folder / "game.txt").read_text(), source=name)
    return Reference(name, game, int(name.rsplit("_s", 1)[1]), folder)


@pytest.fixture(params=REFERENCE_NAMES)
def reference(request: pytest.FixtureRequest) -> Reference:
    return load_reference(request.param)


@pytest.fixture(scope="session")
def compiled_holdem_agents(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The default hold'em agents' numba code compiled into its cache (what ``pokerbot play
    --prepare-only`` does, heads-up and three-player no-limit, here in the test process), once
    per run, before a test starts agents in processes of their own: each then loads it in a
    second instead of compiling it for a minute beside the others. Parallel workers take
    turns: the first compiles."""
    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent  # the workers' folders are in the run's
    with open(run / "compiled-holdem-agents.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = run / "compiled-holdem-agents"
        if not done.exists():
            from pokerbot.strategies.registry import default_registry, default_strategy

            for name in ("holdem-nolimit-2p", "holdem-nolimit-3p"):
                game = load_game(name)
                default_registry().create(default_strategy(game), game, 1).prepare()
            done.touch()


@pytest.fixture(params=sorted(BUILTIN_GAMES))
def builtin_game(request: pytest.FixtureRequest) -> Game:
    return load_game(request.param)


def random_action(state: HandState, rng: random.Random) -> Action:
    """A uniformly chosen legal action kind; no-limit sizes favour the bounds."""
    legal = state.legal_actions()
    kinds = [ActionKind.CALL]
    if legal.can_fold:
        kinds.append(ActionKind.FOLD)
    if legal.can_raise:
        kinds += [ActionKind.RAISE, ActionKind.RAISE]
    kind = rng.choice(kinds)
    if kind is not ActionKind.RAISE:
        return Action(kind)
    if not state.game.is_nolimit:
        return Action(kind)
    low, high = legal.min_raise_to, legal.max_raise_to
    size = rng.choice([low, high, rng.randint(low, high), min(high, low + 1)])
    return Action(kind, size)


def play_random_hand(game: Game, rng: random.Random, seed: int | None = None) -> HandState:
    """A finished hand of random legal play with cards dealt by the reference dealing."""
    deal = Dealer(game, rng.randrange(2**32) if seed is None else seed).deal()
    state = HandState(game, deal.hole_cards, deal.board_cards)
    while not state.finished:
        state.apply(random_action(state, rng))
    return state


class FakeClock:
    """``monotonic()`` that advances ``tick`` seconds at every read: time passes only as the
    search looks at the clock, so the machine's load cannot move the result."""

    def __init__(self, tick: float, start: float = 1000.0) -> None:
        self.tick = tick
        self.now = start

    def monotonic(self) -> float:
        self.now += self.tick
        return self.now
