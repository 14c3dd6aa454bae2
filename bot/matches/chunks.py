"""Long in-process matches in pieces: played anywhere (:mod:`pokerbot.bot.matches.executor`), put back
together exactly.

A match of ``hands`` hands is cut into chunks of ``chunk_hands`` consecutive hands. Chunk ``k``
plays hands ``k * chunk_hands ...`` of the same seed: the same deals, hand numbers and seat
rotation as the long match (:class:`~pokerbot.protocol.dealer_session.DealerSession`'s
``first_hand``). Its strategies are new, seeded from the match seed and the player's name as
the long match seeds them (:func:`pokerbot.bot.matches.base.strategy_seed`) for chunk 0, and from the
name and the chunk's number after it (:func:`chunk_seed`). The merged result is one match:
the per-hand values in hand order, the totals, one ACPC log (the dealer's header, every
``STATE`` line, the ``SCORE`` line), the statistics over the whole series. So a match in one
chunk is the match :func:`pokerbot.bot.matches.inprocess.run_inprocess_match` plays, byte for byte, and a
chunked match depends on the chunk size, never on how many workers played it or in what
order; a strategy that learns learns within its chunk.

With ``aivat``, each chunk's strategies are wrapped in
:class:`~pokerbot.strategies.aivat.recording.RecordingStrategy` and the chunk's hands are
estimated where they were played (heads-up games): every strategy that says its action
probabilities is a known player.
"""

from __future__ import annotations

import math
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pokerbot.bot.matches.base import MatchOutcome, strategy_seed
from pokerbot.bot.matches.executor import Executor, Progress
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.bot.matches.plan import MatchPlan
from pokerbot.protocol.game import Game
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.matchlog import format_score_line, log_header, parse_state_line

DEFAULT_CHUNK_HANDS = 1000
"""Hands per chunk when a match is split (``pokerbot match --jobs``)."""


def chunk_seed(match_seed: int, name: str, chunk: int) -> int:
    """The seed of player ``name``'s strategy in chunk ``chunk`` of a match seeded ``match_seed``
    (chunk 0: the seed the whole match would give it)."""
    return strategy_seed(match_seed, name if chunk == 0 else f"{name}/chunk-{chunk}")


@dataclass(frozen=True)
class Chunk:
    """One piece of one match (one seating): what a worker needs to play it."""

    match: int
    """The match's index in the caller's list."""
    index: int
    """The chunk's number in its match (0-based)."""
    game: Game
    game_name: str
    seed: int
    first_hand: int
    hands: int
    strategies: tuple[str, ...]
    names: tuple[str, ...]
    fixed_seats: bool = False
    aivat: bool = False
    imaginary: bool | None = None
    """Imaginary observations for AIVAT (None: the default for the game)."""


@dataclass(frozen=True)
class ChunkResult:
    """What a chunk gives back (chips by player name; ``lines``: its ``STATE`` lines)."""

    match: int
    index: int
    per_hand_values: list[dict[str, float]]
    lines: list[str]
    illegal_actions: dict[str, int]
    seconds: float
    estimates: list[dict[str, float]] | None = None
    """AIVAT's estimate of each hand (with ``aivat``)."""
    known: tuple[str, ...] = ()
    """The players AIVAT knew the probabilities of."""


def play_chunk(chunk: Chunk, progress: Progress) -> ChunkResult:
    """Play ``chunk`` in this process (``progress(1)`` after every hand); see the module docstring."""
    from pokerbot.strategies.registry import default_registry

    started = time.perf_counter()
    registry = default_registry()
    game = chunk.game
    players = [
        registry.create(strategy, game, chunk_seed(chunk.seed, name, chunk.index))
        for strategy, name in zip(chunk.strategies, chunk.names, strict=True)
    ]
    recorders = []
    if chunk.aivat:
        from pokerbot.strategies.aivat.aivat import imaginary_by_default
        from pokerbot.strategies.aivat.recording import RecordingStrategy

        imaginary = imaginary_by_default(game) if chunk.imaginary is None else chunk.imaginary
        recorders = [RecordingStrategy(player, imaginary=imaginary) for player in players]
        players = list(recorders)
    with tempfile.TemporaryDirectory(prefix="pokerbot-chunk-") as folder:
        log = Path(folder) / "chunk.log"
        outcome = run_inprocess_match(
            game,
            chunk.hands,
            chunk.seed,
            players,
            chunk.names,
            chunk.fixed_seats,
            lambda _hand: progress(1),
            log,
            game_name=chunk.game_name,
            first_hand=chunk.first_hand,
        )
        lines = [line for line in log.read_text(encoding="utf-8").splitlines() if line.startswith("STATE:")]
    estimates = None
    known: tuple[str, ...] = ()
    if recorders:
        estimates, known = _estimate(game, lines, chunk.names, recorders, imaginary)
    return ChunkResult(
        chunk.match,
        chunk.index,
        outcome.per_hand_values,
        lines,
        dict(outcome.illegal_actions),
        time.perf_counter() - started,
        estimates,
        known,
    )


def _estimate(
    game: Game, lines: list[str], names: Sequence[str], recorders: Sequence[object], imaginary: bool
) -> tuple[list[dict[str, float]], tuple[str, ...]]:
    from pokerbot.strategies.aivat.aivat import Aivat
    from pokerbot.strategies.aivat.recording import RecordingStrategy
    from pokerbot.strategies.aivat.series import aivat_hands

    known = {
        name: recorder
        for name, recorder in zip(names, recorders, strict=True)
        if isinstance(recorder, RecordingStrategy) and recorder.known
    }
    hands = (parse_state_line(line, game) for line in lines)
    estimates = [record.estimates for record in aivat_hands(Aivat(game, imaginary=imaginary), hands, known)]
    return estimates, tuple(known)


def plan_chunks(
    match: int,
    game: Game,
    game_name: str,
    hands: int,
    seed: int,
    strategies: Sequence[str],
    names: Sequence[str],
    chunk_hands: int | None,
    *,
    fixed_seats: bool = False,
    aivat: bool = False,
    imaginary: bool | None = None,
) -> list[Chunk]:
    """The chunks of match ``match``: ``hands`` hands cut every ``chunk_hands`` (None: one chunk)."""
    size = hands if chunk_hands is None else chunk_hands
    if size < 1:
        raise ValueError(f"--chunk-hands must be at least 1, got {size}")
    return [
        Chunk(
            match,
            index,
            game,
            game_name,
            seed,
            index * size,
            min(size, hands - index * size),
            tuple(strategies),
            tuple(names),
            fixed_seats,
            aivat,
            imaginary,
        )
        for index in range(math.ceil(hands / size))
    ]


@dataclass
class MergedMatch:
    """A match put back together from its chunks (:func:`merge`)."""

    outcome: MatchOutcome
    estimates: list[dict[str, float]] | None
    known: tuple[str, ...]
    lines: list[str] = field(repr=False)
    seconds: float
    """Time the chunks took, added up (seconds of work, not of waiting)."""


def merge(results: Iterable[ChunkResult], names: Sequence[str], hands: int, log_path: Path | None) -> MergedMatch:
    """One match from its chunks' results (any order): values and lines in hand order, totals,
    and the AIVAT estimates (if every chunk has them; known players: those known in all)."""
    ordered = sorted(results, key=lambda result: result.index)
    per_hand = [values for result in ordered for values in result.per_hand_values]
    totals = dict.fromkeys(names, 0.0)
    for values in per_hand:
        for name, value in values.items():
            totals[name] += value
    illegal = dict.fromkeys(names, 0)
    for result in ordered:
        for name, count in result.illegal_actions.items():
            illegal[name] += count
    estimates = None
    known: tuple[str, ...] = ()
    if ordered and all(result.estimates is not None for result in ordered):
        estimates = [values for result in ordered for values in result.estimates or []]
        known = tuple(name for name in names if all(name in result.known for result in ordered))
    lines = [line for result in ordered for line in result.lines]
    outcome = MatchOutcome(tuple(names), totals, per_hand, len(per_hand), log_path, illegal)
    return MergedMatch(outcome, estimates, known, lines, sum(result.seconds for result in ordered))


def write_log(
    path: Path,
    merged: MergedMatch,
    *,
    match_name: str,
    game_name: str,
    hands: int,
    seed: int,
    limits: TimeLimits = TimeLimits(),
) -> None:
    """The merged match's ACPC log: the dealer's header, the hands, the ``SCORE`` line."""
    names = merged.outcome.names
    header = log_header(match_name, game_name, hands, seed, limits)
    score = format_score_line([merged.outcome.totals[name] for name in names], names)
    path.write_text("".join(f"{line}\n" for line in [*header, *merged.lines, score]), encoding="utf-8")


def play_matches(
    executor: Executor,
    chunks: Sequence[Chunk],
    *,
    on_hand: Progress | None = None,
    on_chunk: Callable[[ChunkResult], None] | None = None,
) -> dict[int, list[ChunkResult]]:
    """Play every chunk on ``executor``; their results grouped by match."""
    grouped: dict[int, list[ChunkResult]] = {}
    for _index, result in executor.run(play_chunk, chunks, on_progress=on_hand):
        grouped.setdefault(result.match, []).append(result)
        if on_chunk is not None:
            on_chunk(result)
    return grouped


def play_plan_chunked(
    plan: MatchPlan,
    executor: Executor,
    *,
    chunk_hands: int | None,
    aivat: bool = False,
    on_hand: Progress | None = None,
) -> list[MergedMatch]:
    """:func:`pokerbot.bot.matches.plan.play_plan` for an in-process plan, in chunks on ``executor``:
    one merged match, or two for a duplicate plan (second: seats exchanged); logs written."""
    plan.output_dir.mkdir(parents=True, exist_ok=True)
    seatings = [(tuple(plan.strategies), tuple(plan.names), plan.match_name)]
    if plan.duplicate:
        seatings.append((seatings[0][0][::-1], seatings[0][1][::-1], f"{plan.match_name}-swapped"))
    chunks = [
        chunk
        for match, (strategies, names, _) in enumerate(seatings)
        for chunk in plan_chunks(
            match,
            plan.game,
            plan.game_name,
            plan.hands,
            plan.seed,
            strategies,
            names,
            chunk_hands,
            fixed_seats=plan.fixed_seats,
            aivat=aivat,
        )
    ]
    grouped = play_matches(executor, chunks, on_hand=on_hand)
    merged = []
    for match, (_strategies, names, match_name) in enumerate(seatings):
        path = plan.output_dir / f"{match_name}.log"
        result = merge(grouped[match], names, plan.hands, path)
        write_log(
            path,
            result,
            match_name=match_name,
            game_name=plan.game_name,
            hands=plan.hands,
            seed=plan.seed,
            limits=plan.limits,
        )
        merged.append(result)
    return merged


__all__ = [
    "DEFAULT_CHUNK_HANDS",
    "Chunk",
    "ChunkResult",
    "MergedMatch",
    "chunk_seed",
    "merge",
    "plan_chunks",
    "play_chunk",
    "play_matches",
    "play_plan_chunked",
    "write_log",
]
