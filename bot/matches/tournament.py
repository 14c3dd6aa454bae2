"""Tournaments: every pairing of a list of heads-up strategies, played on the executor.

:func:`plan_tournament` makes the pairings (round-robin, or the ones given) and
:func:`play_tournament` plays them: each pairing is a match of ``hands`` deals from the same
seed (every pairing sees the same cards), duplicate by default (each deal twice, seats
exchanged), cut into chunks (:mod:`pokerbot.bot.matches.chunks`) that all go to one executor
(:mod:`pokerbot.bot.matches.executor`) at once. Each match is merged exactly as one long match,
its ACPC log written to ``<out>/logs/``.

Figures (:class:`TournamentResult`): for each pairing, each player's winnings in mbb/hand with
a 95 % interval (per deal in duplicate) and, with ``aivat``, AIVAT's; the cross-table (row
player against column player); a ranking by the mean of each player's results against its
opponents (its interval from the pairings' intervals as if independent: the pairings share
their deals, so it is a guide, not a test).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokerbot.bot.matches.chunks import ChunkResult, MergedMatch, merge, plan_chunks, play_matches, write_log
from pokerbot.bot.matches.executor import Executor, Progress
from pokerbot.bot.matches.stats import PlayerStats, match_stats
from pokerbot.protocol.game import Game
from pokerbot.protocol.names import unique_player_names

LOG_FOLDER = "logs"


class TournamentError(ValueError):
    """A tournament was asked for with players or pairings that cannot be played."""


@dataclass(frozen=True)
class Pairing:
    """Two players (indices into the tournament's players), the first seated first."""

    first: int
    second: int


@dataclass(frozen=True)
class TournamentPlan:
    """What to play: the game, the players (registry names) and their pairings."""

    game: Game
    game_name: str
    strategies: tuple[str, ...]
    names: tuple[str, ...]
    pairings: tuple[Pairing, ...]
    hands: int
    seed: int
    duplicate: bool = True
    chunk_hands: int | None = None
    aivat: bool = False
    output_dir: Path = Path("tournament-output")

    def match_name(self, pairing: Pairing, swapped: bool = False) -> str:
        """``<first>-vs-<second>`` (``-swapped`` for the duplicate half), a file name: a path in
        a player's name (``policy=dir/p.json``) is written with ``_`` for ``/``."""
        name = f"{self.names[pairing.first]}-vs-{self.names[pairing.second]}".replace("/", "_").replace("\\", "_")
        return f"{name}-swapped" if swapped else name

    @property
    def matches(self) -> int:
        """Matches played: one per pairing, two in duplicate."""
        return len(self.pairings) * (2 if self.duplicate else 1)


def plan_tournament(
    game: Game,
    game_name: str,
    strategies: Sequence[str],
    hands: int,
    seed: int,
    *,
    pairings: Sequence[tuple[str, str]] | None = None,
    duplicate: bool = True,
    chunk_hands: int | None = None,
    aivat: bool = False,
    output_dir: Path = Path("tournament-output"),
) -> TournamentPlan:
    """A checked plan: a round-robin of ``strategies`` (or the given ``pairings`` of them, by
    strategy or player name); raises :class:`TournamentError`."""
    if game.num_players != 2:
        raise TournamentError(f"tournaments are heads-up; this game has {game.num_players} players")
    if hands < 1:
        raise TournamentError(f"--hands must be at least 1, got {hands}")
    if not 0 <= seed <= 0xFFFFFFFF:
        raise TournamentError(f"--seed must be in 0..4294967295, got {seed}")
    if chunk_hands is not None and chunk_hands < 1:
        raise TournamentError(f"--chunk-hands must be at least 1, got {chunk_hands}")
    names = unique_player_names(strategies)
    if pairings is None:
        if len(names) < 2:
            raise TournamentError(f"a tournament needs at least two players, got {len(names)}")
        chosen = [Pairing(i, j) for i, j in itertools.combinations(range(len(names)), 2)]
    else:
        chosen = [
            Pairing(_index(first, strategies, names), _index(second, strategies, names)) for first, second in pairings
        ]
        for pairing in chosen:
            if pairing.first == pairing.second:
                raise TournamentError(f"a player cannot meet itself: {names[pairing.first]}")
        if len({frozenset((p.first, p.second)) for p in chosen}) != len(chosen):
            raise TournamentError("a pairing is given twice")
    return TournamentPlan(
        game,
        game_name,
        tuple(strategies),
        tuple(names),
        tuple(chosen),
        hands,
        seed,
        duplicate,
        chunk_hands,
        aivat,
        output_dir,
    )


def _index(name: str, strategies: Sequence[str], names: Sequence[str]) -> int:
    """A player by its player name, or by its strategy name when that is unambiguous."""
    if name in names:
        return list(names).index(name)
    matches = [i for i, strategy in enumerate(strategies) if strategy == name]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise TournamentError(f"pairing names {name!r}, which several players play: use {', '.join(names)}")
    raise TournamentError(f"pairing names {name!r}, which is no player of the tournament ({', '.join(names)})")


@dataclass
class PairingResult:
    """One pairing's merged matches (one, or two in duplicate) and its figures."""

    pairing: Pairing
    matches: list[MergedMatch]
    stats: list[PlayerStats]
    """The two players' figures (first, second), per deal in duplicate."""
    aivat: list[PlayerStats] | None = None
    known: tuple[str, ...] = ()


@dataclass
class TournamentResult:
    """Every pairing's result; the cross-table and the ranking derive from them."""

    plan: TournamentPlan
    pairings: list[PairingResult]
    seconds: float = 0.0
    executor: str = ""
    logs: list[Path] = field(default_factory=list)

    def cross_table(self, aivat: bool = False) -> list[list[PlayerStats | None]]:
        """``table[i][j]``: player i's figures against player j (None: they did not meet)."""
        count = len(self.plan.names)
        table: list[list[PlayerStats | None]] = [[None] * count for _ in range(count)]
        for result in self.pairings:
            figures = result.aivat if aivat else result.stats
            if figures is None:
                continue
            first, second = result.pairing.first, result.pairing.second
            table[first][second], table[second][first] = figures[0], figures[1]
        return table

    def ranking(self, aivat: bool = False) -> list[tuple[int, float, float]]:
        """(player, mean mbb/hand against its opponents, 95 % half-width), best first."""
        rows = []
        for player, results in enumerate(self.cross_table(aivat)):
            met = [stats for stats in results if stats is not None]
            if not met:
                continue
            mean = sum(stats.mbb_per_hand for stats in met) / len(met)
            half = math.sqrt(sum(stats.mbb_ci95**2 for stats in met if not math.isnan(stats.mbb_ci95))) / len(met)
            rows.append((player, mean, half))
        return sorted(rows, key=lambda row: -row[1])


def play_tournament(
    plan: TournamentPlan,
    executor: Executor,
    *,
    on_hand: Progress | None = None,
    on_match: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play every pairing of ``plan`` on ``executor`` (module docstring); ``on_match`` is told
    of every match (seating) finished, ``on_hand`` of hands played."""
    seatings: list[tuple[Pairing, bool]] = [
        (pairing, swapped) for pairing in plan.pairings for swapped in ((False, True) if plan.duplicate else (False,))
    ]
    chunks = []
    for match, (pairing, swapped) in enumerate(seatings):
        order = (pairing.second, pairing.first) if swapped else (pairing.first, pairing.second)
        chunks.extend(
            plan_chunks(
                match,
                plan.game,
                plan.game_name,
                plan.hands,
                plan.seed,
                [plan.strategies[i] for i in order],
                [plan.names[i] for i in order],
                plan.chunk_hands,
                aivat=plan.aivat,
            )
        )
    per_match = {match: sum(1 for chunk in chunks if chunk.match == match) for match in range(len(seatings))}
    done: dict[int, int] = {}

    def chunk_done(result: ChunkResult) -> None:
        done[result.match] = done.get(result.match, 0) + 1
        if done[result.match] == per_match[result.match] and on_match is not None:
            on_match(result.match)

    grouped = play_matches(executor, chunks, on_hand=on_hand, on_chunk=chunk_done)
    folder = plan.output_dir / LOG_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    merged: dict[tuple[Pairing, bool], MergedMatch] = {}
    logs = []
    for match, (pairing, swapped) in enumerate(seatings):
        order = (pairing.second, pairing.first) if swapped else (pairing.first, pairing.second)
        names = [plan.names[i] for i in order]
        name = plan.match_name(pairing, swapped)
        path = folder / f"{name}.log"
        result = merge(grouped[match], names, plan.hands, path)
        write_log(path, result, match_name=name, game_name=plan.game_name, hands=plan.hands, seed=plan.seed)
        merged[(pairing, swapped)] = result
        logs.append(path)
    results = [_pairing_result(plan, pairing, merged) for pairing in plan.pairings]
    return TournamentResult(plan, results, logs=logs)


def _pairing_result(
    plan: TournamentPlan, pairing: Pairing, merged: dict[tuple[Pairing, bool], MergedMatch]
) -> PairingResult:
    matches = [merged[(pairing, False)]] + ([merged[(pairing, True)]] if plan.duplicate else [])
    names = [plan.names[pairing.first], plan.names[pairing.second]]
    big_blind = plan.game.big_blind
    stats = match_stats([m.outcome.per_hand_values for m in matches], names, big_blind)
    aivat = None
    known: tuple[str, ...] = ()
    if plan.aivat and all(m.estimates is not None for m in matches):
        aivat = match_stats([m.estimates or [] for m in matches], names, big_blind)
        known = tuple(sorted(set.intersection(*(set(m.known) for m in matches))))
    return PairingResult(pairing, matches, stats, aivat, known)


def result_json(result: TournamentResult) -> dict[str, Any]:
    """Every figure of the tournament, JSON-ready (mbb/hand, chips, seconds; nan as null)."""
    plan = result.plan

    def figures(stats: PlayerStats | None) -> dict[str, Any] | None:
        if stats is None:
            return None
        return {
            "mbb_per_hand": _finite(stats.mbb_per_hand),
            "mbb_per_hand_ci95": _finite(stats.mbb_ci95),
            "chips_per_hand": _finite(stats.mean),
            "sd_chips": _finite(stats.sd),
            "series_length": stats.hands,
            "total_chips": stats.total,
        }

    return {
        "game": plan.game_name,
        "hands": plan.hands,
        "seed": plan.seed,
        "duplicate": plan.duplicate,
        "chunk_hands": plan.chunk_hands or plan.hands,
        "aivat": plan.aivat,
        "executor": result.executor,
        "elapsed_seconds": round(result.seconds, 3),
        "players": [{"name": n, "strategy": s} for n, s in zip(plan.names, plan.strategies, strict=True)],
        "pairings": [
            {
                "players": [plan.names[r.pairing.first], plan.names[r.pairing.second]],
                "results": [figures(stats) for stats in r.stats],
                "aivat": [figures(stats) for stats in r.aivat] if r.aivat else None,
                "aivat_known": list(r.known),
                "logs": [str(m.outcome.log_path) for m in r.matches],
            }
            for r in result.pairings
        ],
        "cross_table_mbb_per_hand": [[_cell(c) for c in row] for row in result.cross_table()],
        "ranking": [
            {"name": plan.names[player], "mbb_per_hand": _finite(mean), "ci95": _finite(half)}
            for player, mean, half in result.ranking()
        ],
        "aivat_ranking": (
            [
                {"name": plan.names[player], "mbb_per_hand": _finite(mean), "ci95": _finite(half)}
                for player, mean, half in result.ranking(aivat=True)
            ]
            if plan.aivat
            else None
        ),
    }


def _finite(value: float) -> float | None:
    return None if math.isnan(value) else value


def _cell(stats: PlayerStats | None) -> list[float | None] | None:
    return None if stats is None else [_finite(stats.mbb_per_hand), _finite(stats.mbb_ci95)]


def heat_map(result: TournamentResult, path: Path, aivat: bool = False) -> Path:
    """The cross-table as a heat map (mbb/hand of the row player, red losing, green winning),
    each cell labelled with its value and 95 % half-width. Matplotlib's Agg canvas, no pyplot."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names = result.plan.names
    table = result.cross_table(aivat)
    values = [[math.nan if c is None else c.mbb_per_hand for c in row] for row in table]
    finite = [abs(v) for row in values for v in row if not math.isnan(v)]
    scale = max(finite) if finite else 1.0
    size = max(4.0, 1.3 * len(names) + 2.5)
    figure = Figure(figsize=(size, size * 0.8), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    image = axes.imshow(values, cmap="RdYlGn", vmin=-scale, vmax=scale)
    axes.set_xticks(range(len(names)), labels=names, rotation=30, ha="right")
    axes.set_yticks(range(len(names)), labels=names)
    for i, row in enumerate(table):
        for j, cell in enumerate(row):
            if cell is not None:
                text = f"{cell.mbb_per_hand:,.0f}\n± {cell.mbb_ci95:,.0f}" if not math.isnan(cell.mbb_ci95) else "n/a"
                axes.text(j, i, text, ha="center", va="center", fontsize=8)
    figure.colorbar(image, ax=axes, label="mbb/hand (row player)")
    kind = "AIVAT" if aivat else ("duplicate" if result.plan.duplicate else "plain")
    unit = "deals" if result.plan.duplicate else "hands"
    axes.set_title(f"{result.plan.game_name}: {result.plan.hands} {unit} per pairing, {kind}")
    figure.tight_layout()
    figure.savefig(path)
    return path


__all__ = [
    "Pairing",
    "PairingResult",
    "TournamentError",
    "TournamentPlan",
    "TournamentResult",
    "heat_map",
    "plan_tournament",
    "play_tournament",
    "result_json",
]
