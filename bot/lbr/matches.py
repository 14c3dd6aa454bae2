"""How exploitable is a strategy: local best response (LBR) matches, duplicate, on every core.

:func:`run_lbr` is the library entry point (``pokerbot exploitability GAME STRATEGY --method
lbr`` calls it): ``hands`` hands of :class:`~pokerbot.strategies.exploit.lbr.LocalBestResponse`
against the strategy a factory makes, in duplicate: the deals are played twice with the
seats exchanged, each seating by a fresh opponent, so LBR holds each player's cards once.

* **Matches.** The deals are cut into segments of at most ``match_hands`` deals; each
  segment is two in-process matches (:func:`pokerbot.bot.matches.inprocess.run_inprocess_match`), one per
  seating. An adaptive opponent learns within its match as it always does, so the figure is
  its exploitability in matches of that length (default: all deals in one segment).
* **Seeds.** Segment ``i`` deals from ``seed`` (``i = 0``) or a seed derived from it; the
  opponent's and LBR's seeds derive from the segment's (:func:`pokerbot.bot.matches.base.strategy_seed`),
  the same in both seatings. The result depends on ``seed`` only, not on the executor or
  its number of workers: it is reproducible wherever the opponent is (a search under a time budget is not).
* **Where.** The matches are tasks of an :class:`~pokerbot.bot.matches.executor.Executor`
  (:mod:`pokerbot.bot.matches.executor`: this process by default, a local Ray or a Ray cluster, as
  for every long command: ``--jobs`` / ``--address``). On Ray the factory and settings must
  be picklable (:class:`RegistryStrategy` is).
* **Figure.** LBR's winnings per hand in milli-big-blinds; the 95% interval is
  ``1.96 sd / sqrt(deals)`` over the deals' duplicate means (each deal's two hands averaged).
* **Resuming.** With a checkpoint folder (:class:`~pokerbot.bot.lbr.checkpoint.LbrCheckpoint`)
  each match keeps its progress there and a run started again goes on from it, to the
  figure of the run never stopped.
* **Units.** :func:`plan_lbr` gives the matches (picklable units), :func:`play_lbr_match`
  plays one anywhere, :func:`summarize_lbr` turns their results, in plan order, into the same
  :class:`LbrResult` as :func:`run_lbr` (which is these three on an executor).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from pokerbot.bot.lbr.checkpoint import LbrCheckpoint, LbrCheckpointError, MatchProgress
from pokerbot.bot.matches.base import strategy_seed
from pokerbot.bot.matches.executor import Executor, LocalExecutor, Progress
from pokerbot.bot.matches.inprocess import run_inprocess_match
from pokerbot.protocol.dealer_events import HandLogged
from pokerbot.protocol.dealing import Dealer
from pokerbot.protocol.game import Game, format_game
from pokerbot.protocol.hand import HandState
from pokerbot.protocol.wire import MatchState
from pokerbot.strategies.base import ActionProbabilitiesError, Strategy
from pokerbot.strategies.exploit.lbr import LbrError, LbrSettings, LocalBestResponse, plays_lbr
from pokerbot.strategies.registry import default_registry

OpponentFactory = Callable[[Game, int | None], Strategy]
"""``factory(game, seed)``: a fresh opponent strategy."""
LBR_NAME, OPPONENT_NAME = "lbr", "opponent"


@dataclass(frozen=True)
class RegistryStrategy:
    """A picklable factory of the registry strategy ``name`` (``miximax:0.05`` included)."""

    name: str

    def __call__(self, game: Game, seed: int | None = None) -> Strategy:
        return default_registry().create(self.name, game, seed)


@dataclass(frozen=True)
class LbrResult:
    """The outcome of :func:`run_lbr`; amounts are LBR's winnings (the opponent's losses)."""

    game: str
    strategy: str
    hands: int
    """Hands played (twice the deals)."""
    deals: int
    seed: int
    match_hands: int
    mbb_per_hand: float
    mbb_per_hand_ci95: float
    """Half-width of the 95% interval."""
    chips_per_hand: float
    seconds: float
    hands_per_second: float
    queries_per_hand: float
    """Questions asked of the opponent's action probabilities per hand."""
    illegal_actions: int
    """LBR's illegal actions (always 0; counted by the match engine)."""
    settings: dict[str, Any] = field(default_factory=dict)
    resumed_hands: int = 0
    """Hands played by an earlier run whose checkpoint this one resumed (``seconds`` and
    ``hands_per_second`` count only the hands played by this one)."""
    deal_values: list[float] = field(default_factory=list)
    """LBR's mean winnings (chips) over the two hands of each deal, in dealing order (segment
    by segment): for paired comparisons on the same deals."""
    method: str = "lbr"
    pooled_seeds: list[int] = field(default_factory=list)
    """The seeds of the runs pooled into this result (:func:`pool_lbr`); empty for one run."""

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return asdict(self)


@dataclass(frozen=True)
class LbrMatch:
    """One seating of one segment: a unit of work that runs anywhere (picklable when the
    factory is): :func:`play_lbr_match` plays it."""

    game: Game
    opponent: OpponentFactory
    settings: LbrSettings
    deals: int
    seed: int
    """Dealing seed of the segment (the players' seeds derive from it)."""
    lbr_first: bool
    """LBR in the first seat (position 0 of every hand's seating rotation)."""
    index: int = 0
    """The match's place in its run (its checkpoint files are named by it)."""
    checkpoint: LbrCheckpoint | None = None
    """Where the match keeps its progress (:mod:`pokerbot.bot.lbr.checkpoint`), if anywhere."""


@dataclass(frozen=True)
class LbrPlayed:
    """What one :class:`LbrMatch` gave: LBR's winnings per hand (chips, dealing order), the
    questions it asked of the opponent, its illegal actions (always 0)."""

    values: list[float]
    queries: int
    illegal: int
    resumed: int = 0
    """Of ``values``, the hands played before, by a run this one resumed (its checkpoint)."""


def segment_seed(seed: int, segment: int) -> int:
    """The dealing seed of segment ``segment`` (0-based) of a run seeded ``seed``."""
    return seed if segment == 0 else strategy_seed(seed, f"segment-{segment}") & 0xFFFFFFFF


def plan_lbr(
    game: Game,
    opponent: OpponentFactory,
    hands: int,
    seed: int,
    *,
    settings: LbrSettings | None = None,
    match_hands: int | None = None,
    strategy_name: str = "",
    game_name: str = "",
    checkpoint: LbrCheckpoint | None = None,
) -> list[LbrMatch]:
    """The matches of a run (module docstring), in pairs of seatings of one segment: play
    them with :func:`play_lbr_match` anywhere (an executor, a cluster) and give the results,
    in the same order, to :func:`summarize_lbr`. With ``checkpoint`` the matches keep their
    progress there and go on from it (:mod:`pokerbot.bot.lbr.checkpoint`). Raises
    :class:`~pokerbot.strategies.exploit.lbr.LbrError` for a game LBR does not play, bad
    counts, an opponent without action probabilities, or a checkpoint of another run."""
    if not plays_lbr(game):
        raise LbrError("LBR plays heads-up hold'em only (52 cards, two hole cards, five board cards)")
    if hands < 2 or hands % 2:
        raise LbrError(f"--hands must be a positive even number (each deal is played twice), got {hands}")
    if not 0 <= seed <= 0xFFFFFFFF:
        raise LbrError(f"--seed must be in 0..4294967295, got {seed}")
    deals = hands // 2
    length = deals if match_hands is None else match_hands
    if length < 1:
        raise LbrError(f"--match-hands must be positive, got {length}")
    settings = settings or LbrSettings()
    _check_probabilities(game, opponent, strategy_name or "the strategy")
    if checkpoint is not None:
        checkpoint.bind(
            {
                "game": game_name,
                "game_definition": format_game(game),
                "strategy": strategy_name or getattr(opponent, "name", repr(opponent)),
                "hands": hands,
                "seed": seed,
                "match_hands": match_hands,  # as asked: None, every deal in one segment, follows --hands
                "settings": settings.model_dump(),
            }
        )
    matches: list[LbrMatch] = []
    for segment in range(math.ceil(deals / length)):
        size = min(length, deals - segment * length)
        for first in (True, False):
            matches.append(
                LbrMatch(game, opponent, settings, size, segment_seed(seed, segment), first, len(matches), checkpoint)
            )
    return matches


def play_lbr_match(match: LbrMatch, on_hand: Callable[[int], None] | None = None) -> LbrPlayed:
    """Play one match of :func:`plan_lbr` in this process (``on_hand(hand_number)`` after
    each hand played here), from its checkpoint where it has one."""
    checkpoint = match.checkpoint
    progress = None
    if checkpoint is not None:
        finished = checkpoint.finished(match.index)
        if finished is not None and len(finished[0]) >= match.deals:
            values, queries, illegal = finished
            return LbrPlayed(values, queries, illegal, resumed=len(values))
        progress = checkpoint.progress(match.index)
        if finished is not None and (progress is None or len(progress.values) != len(finished[0])):
            raise LbrCheckpointError(
                f"match {match.index} of the checkpoint {checkpoint.directory} finished after "
                f"{len(finished[0])} hands and kept no players to go on with: the run cannot be extended "
                "(use another --checkpoint folder)"
            )
    if progress is None:
        opponent = match.opponent(match.game, strategy_seed(match.seed, OPPONENT_NAME))
        lbr = LocalBestResponse(match.game, strategy_seed(match.seed, LBR_NAME), opponent, match.settings)
        progress = MatchProgress([], 0, (lbr, opponent))
    lbr, opponent = progress.players
    resumed = len(progress.values)
    players, names = ([lbr, opponent], [LBR_NAME, OPPONENT_NAME])
    if not match.lbr_first:
        players, names = players[::-1], names[::-1]
    saved = time.monotonic()

    def after_hand(hand: HandLogged) -> None:
        nonlocal saved
        progress.values.append(hand.values[LBR_NAME])
        if checkpoint is not None and len(progress.values) < match.deals:
            if time.monotonic() - saved >= checkpoint.seconds:
                checkpoint.save_progress(match.index, progress)
                saved = time.monotonic()
        if on_hand is not None:
            on_hand(hand.hand_number)

    outcome = run_inprocess_match(
        match.game, match.deals - resumed, match.seed, players, names, first_hand=resumed, on_hand_logged=after_hand
    )
    illegal = progress.illegal = progress.illegal + outcome.illegal_actions.get(LBR_NAME, 0)
    if checkpoint is not None:
        checkpoint.save_finished(match.index, progress.values, lbr.queries, illegal, progress)
    return LbrPlayed(progress.values, lbr.queries, illegal, resumed)


def run_lbr(
    game: Game,
    opponent: OpponentFactory,
    hands: int,
    seed: int,
    *,
    settings: LbrSettings | None = None,
    match_hands: int | None = None,
    executor: Executor | None = None,
    game_name: str = "",
    strategy_name: str = "",
    on_hand: Callable[[], None] | None = None,
    checkpoint: LbrCheckpoint | None = None,
) -> LbrResult:
    """LBR against ``opponent`` over ``hands`` hands (an even number: deals twice), seeded
    ``seed`` (module docstring): :func:`plan_lbr`, :func:`play_lbr_match` as tasks of
    ``executor`` (default: one after another in this process), :func:`summarize_lbr`.
    ``on_hand`` is called after every hand played (progress); ``checkpoint`` keeps the run's
    progress and resumes it (:mod:`pokerbot.bot.lbr.checkpoint`). Raises
    :class:`~pokerbot.strategies.exploit.lbr.LbrError` as :func:`plan_lbr` does."""
    matches = plan_lbr(
        game,
        opponent,
        hands,
        seed,
        settings=settings,
        match_hands=match_hands,
        strategy_name=strategy_name,
        game_name=game_name,
        checkpoint=checkpoint,
    )
    start = time.monotonic()

    def report(count: int) -> None:
        for _ in range(count):
            if on_hand is not None:
                on_hand()

    played = (executor or LocalExecutor()).map(_play_task, matches, on_progress=report)
    seconds = time.monotonic() - start
    return summarize_lbr(matches, played, seconds, seed=seed, game_name=game_name, strategy_name=strategy_name)


def lbr_matches(hands: int, match_hands: int | None) -> int:
    """How many matches (tasks) a run of ``hands`` hands in segments of ``match_hands`` deals
    is: two seatings per segment (for sizing an executor; 0 for counts :func:`plan_lbr` refuses)."""
    deals = hands // 2
    length = deals if match_hands is None else match_hands
    return 2 * math.ceil(deals / length) if deals > 0 and length > 0 else 0


def _play_task(match: LbrMatch, progress: Progress) -> LbrPlayed:
    """One match as an executor's task: every finished hand is one unit of progress."""
    return play_lbr_match(match, lambda hand: progress(1))


def _check_probabilities(game: Game, opponent: OpponentFactory, name: str) -> None:
    """Fail early, in one line, when the opponent cannot give its action probabilities (a user's
    strategy may not implement :meth:`~pokerbot.strategies.base.Strategy.action_probabilities`)."""
    deal = Dealer(game, 0).deal()
    state = HandState(game, deal.hole_cards, deal.board_cards)
    position = state.current_player
    if position is None:
        return
    try:
        opponent(game, 0).action_probabilities(MatchState(position, 0, state.view(position)))
    except ActionProbabilitiesError:
        raise LbrError(
            f"{name} does not give its action probabilities (Strategy.action_probabilities), which LBR needs"
        ) from None


def summarize_lbr(
    matches: list[LbrMatch],
    played: list[LbrPlayed],
    seconds: float,
    *,
    seed: int,
    game_name: str = "",
    strategy_name: str = "",
) -> LbrResult:
    """The figure of a run from its matches (:func:`plan_lbr`) and what each gave, in the same
    order; ``seconds`` is the wall time it took."""
    if len(matches) != len(played) or not matches:
        raise LbrError(f"{len(played)} results for {len(matches)} matches")
    means: list[float] = []
    for first, second in zip(played[0::2], played[1::2]):
        means.extend((a + b) / 2.0 for a, b in zip(first.values, second.values))
    return LbrResult(
        game=game_name,
        strategy=strategy_name,
        seed=seed,
        match_hands=matches[0].deals,
        **_figures(means, matches[0].game, seconds, sum(p.resumed for p in played)),
        queries_per_hand=sum(p.queries for p in played) / (2 * len(means)),
        illegal_actions=sum(p.illegal for p in played),
        settings=matches[0].settings.model_dump(),
    )


def _figures(means: list[float], game: Game, seconds: float, resumed_hands: int) -> dict[str, Any]:
    """The :class:`LbrResult` fields that follow from the deals' duplicate means (chips), the
    wall time and the hands an earlier run played: counts, the figure and its 95% interval,
    the rate."""
    deals, hands = len(means), 2 * len(means)
    chips = statistics.fmean(means)
    sd = statistics.stdev(means) if deals > 1 else 0.0
    scale = 1000.0 / game.big_blind
    return {
        "hands": hands,
        "deals": deals,
        "mbb_per_hand": chips * scale,
        "mbb_per_hand_ci95": 1.96 * sd / math.sqrt(deals) * scale if deals > 1 else math.inf,
        "chips_per_hand": chips,
        "seconds": seconds,
        "hands_per_second": (hands - resumed_hands) / seconds if seconds > 0 else math.inf,
        "resumed_hands": resumed_hands,
        "deal_values": means,
    }


def pool_lbr(results: Sequence[LbrResult], game: Game) -> LbrResult:
    """One figure from runs of the same cell (game, strategy, LBR settings) on different
    seeds: their deals together, as one run of all of them would report them (``seed`` is
    the first run's, ``pooled_seeds`` all of them; ``seconds`` summed; ``match_hands`` the
    shortest match among them: a strategy that learns within a match is measured at one
    match length, so pool only runs of the same length for it). Raises :class:`LbrError`
    for runs of different cells or a seed given twice."""
    if not results:
        raise LbrError("nothing to pool: give at least one LBR result")
    first = results[0]
    for result in results[1:]:
        for key in ("game", "strategy", "settings"):
            if getattr(result, key) != getattr(first, key):
                raise LbrError(
                    f"cannot pool runs of different cells: {key} {getattr(first, key)!r} and {getattr(result, key)!r}"
                )
    seeds = [seed for result in results for seed in (result.pooled_seeds or [result.seed])]
    if len(set(seeds)) != len(seeds):
        raise LbrError(f"cannot pool runs that share a seed (the same deals twice): seeds {seeds}")
    if any(len(result.deal_values) != result.deals for result in results):
        raise LbrError("cannot pool a result without its deal values (an LBR JSON from before 2026-11-25)")
    means = [value for result in results for value in result.deal_values]
    seconds = sum(result.seconds for result in results)
    return replace(
        first,
        **_figures(means, game, seconds, sum(result.resumed_hands for result in results)),
        queries_per_hand=sum(result.queries_per_hand * result.hands for result in results) / (2 * len(means)),
        illegal_actions=sum(result.illegal_actions for result in results),
        match_hands=min(result.match_hands for result in results),
        pooled_seeds=seeds,
    )


__all__ = [
    "LbrMatch",
    "LbrPlayed",
    "LbrResult",
    "OpponentFactory",
    "RegistryStrategy",
    "lbr_matches",
    "play_lbr_match",
    "plan_lbr",
    "pool_lbr",
    "run_lbr",
    "segment_seed",
    "summarize_lbr",
]
