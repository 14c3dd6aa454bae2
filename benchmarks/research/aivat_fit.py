"""Fit the coefficients of AIVAT's stake value function, and measure what they buy.

AIVAT's estimate is affine in its value function, so one pass over a match computes, for every
hand, the estimate under the equity value and the correction each feature of
:class:`~pokerbot.strategies.aivat.values.StakeValue` adds (a vector-valued value
function). The coefficients that minimise the estimate's variance are then a least-squares
regression, and the figure is **cross-fitted**: each chunk (a duplicate match: its two logs)
is estimated with coefficients fitted on the other chunks only, so the fitted value function
never sees the hands it estimates and the estimate stays unbiased.

Run (the matches of ``docs/results.md``: ``miximax:500nodes`` against ``tight-aggressive``,
500 deals in duplicate each, ``pokerbot match ... --duplicate --aivat --out DIR``):

    python benchmarks/research/aivat_fit.py holdem-nolimit-2p DIR101 DIR102 ... --known tight-aggressive \
        --sample 10 --cache CACHE_DIR

``--hero-known`` also replays the other player (``miximax``), for the action corrections of
its real decisions (deterministic players' corrections are zero); ``--imagine-hero`` also
averages over its holdings (a search per sampled holding and decision).

``--cooler`` (no-limit, an experiment, not shipped) adds features for the money that goes in
when both players hold strong hands: ``E[w 1{the loser's final hand is at least a pair}]``,
``E[w 1{... at least two pair}]``, ``E[w 1{the winner's final hand is at least two pair}]`` and
``E[w 1{... at least three of a kind}]`` (``w`` = +1 when position 0 wins the showdown, -1 when
it loses, 0 on a tie; expectations over the run-outs, so chance-consistent like the equity)
times the chips behind, a coefficient per round, and prints the cross-fitted ratio with them
(``--cooler-features`` picks some of the four). ``--betting`` (an experiment) adds the stake
terms themselves, without the edge (card-free, so chance-consistent): they act only through
the known player's action corrections. ``--by-seat`` fits each seating's coefficients
apart (the value function then depends on who sits where: a value for this pair of players),
``--ridge`` penalises the standardised coefficients. ``--lookahead BOARDS`` computes the vectors
with the look-ahead value (``strategies/aivat/lookahead.py``; cache suffix
``-lookahead6``); with ``--cooler`` too it adds the cooler features' corrections of the
``-cooler4`` vectors (computed first, without ``--lookahead``) unlooked: the fit that ships
``NOLIMIT_LOOKAHEAD_STAKE`` and ``NOLIMIT_LOOKAHEAD_COOLER``. ``--against SUFFIX`` is a bias check: the
mean paired difference per deal from the vectors cached as ``CHUNKSUFFIX.npz`` (another value
function over the same hands, e.g. ``-cooler4``), with the shipped coefficients and with the
equity value alone; unbiased estimates of the same deals differ by noise around zero.

Prints per chunk the standard deviation per deal of the plain, the equity-value AIVAT and the
cross-fitted stake-value AIVAT estimates (chips), the pooled figures (mbb/hand, 95 %) and the
coefficients fitted on every chunk (what ``NOLIMIT_STAKE`` / ``LIMIT_STAKE`` ship). ``--cache``
keeps each chunk's per-hand vectors, each seating's apart (a rerun only fits); the estimates cost what ``pokerbot log
aivat --imaginary --sample N`` costs (some minutes of CPU per 1,000 hands).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from pokerbot.bot.cli.aivat import read_match_log
from pokerbot.bot.matches.base import strategy_seed
from pokerbot.bot.matches.stats import mean_and_ci95
from pokerbot.protocol.cards import cards_to_string
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.aivat.aivat import Aivat
from pokerbot.strategies.aivat.cooler import COOLER_FEATURES, COOLER_TERMS, CoolerTerms
from pokerbot.strategies.aivat.lookahead import LookaheadAivat, LookaheadHero
from pokerbot.strategies.aivat.recording import ReplayedStrategy
from pokerbot.strategies.aivat.series import AivatRecord, aivat_hands
from pokerbot.strategies.aivat.values import StakeValue, default_stake, stake_size
from pokerbot.strategies.registry import default_registry

BETTING_TERMS = 3
"""The ``--betting`` features a round: matched chips, bet to call, chips behind (no edge)."""


class BasisValue:
    """The equity value, then the equity value plus each feature alone (a vector, chips);
    with ``cooler``, the ``--cooler`` features after the stake value's; with ``betting``, the
    ``--betting`` features last."""

    chance_consistent = True

    def __init__(self, game: Game, cooler: bool = False, betting: bool = False) -> None:
        self.stake = StakeValue(game, np.zeros(stake_size(game)))
        self.game = game
        self.cooler = cooler
        self.betting = betting
        self._cooler = CoolerTerms(game, np.zeros(COOLER_TERMS * game.num_rounds))

    def cooler_features(self, state: HandState) -> np.ndarray:
        return self._cooler.features(state)

    def betting_features(self, state: HandState) -> np.ndarray:
        """The stake terms themselves, without the edge (card-free: chance-consistent, the same
        before the deal as after it), a block per round; zeros for a finished hand."""
        out = np.zeros(BETTING_TERMS * self.game.num_rounds)
        if state.finished:
            return out
        matched, most = min(state.spent), max(state.spent)
        start = BETTING_TERMS * state.round
        out[start : start + BETTING_TERMS] = (matched, most - matched, self.game.stacks[0] - most)
        return out

    def value(self, state: HandState) -> np.ndarray:
        base = self.stake.equity_value.value(state)
        extra = [self.cooler_features(state)] if self.cooler else []
        if self.betting:
            extra.append(self.betting_features(state))
        return base + np.concatenate(([0.0], self.stake.features(state), *extra))


def chunk_vectors(
    folder: Path,
    known: str,
    sample: int,
    hero_known: bool = False,
    imagine_hero: bool = False,
    cooler: bool = False,
    betting: bool = False,
    lookahead: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per deal of the duplicate match in ``folder``: the plain outcome of the other player (the
    hero: mean of the two seatings, chips) and its estimates under the basis in each seating
    (``match.log``'s, then ``match-swapped.log``'s: deal x (1 + K) each). Imaginary observations
    over ``known``'s holdings; with ``hero_known`` the hero (the registry strategy its log name
    spells, ``miximax=500nodes`` for ``miximax:500nodes``) is replayed too, for its action
    corrections at its actual cards, and with ``imagine_hero`` its holdings are imagined as well
    (a search for each sampled holding at each decision)."""
    registry = default_registry()
    plain, estimates = [], []
    for name in ("match.log", "match-swapped.log"):
        log, game = read_match_log(folder / name, None)
        if log.seed is None:
            raise SystemExit(f"{folder / name}: no seed in the header")
        players = {known: ReplayedStrategy(registry.create(known, game, strategy_seed(log.seed, known)))}
        hero = next(seat for seat in log.seats if seat != known)
        if hero_known:
            spec = hero.replace("=", ":")
            players[hero] = ReplayedStrategy(registry.create(spec, game, strategy_seed(log.seed, hero)))
        imagine = [known, hero] if imagine_hero else [known]
        if lookahead:
            records = list(_lookahead_records(game, log, players, hero, known, sample, lookahead))
        else:
            estimator = Aivat(game, BasisValue(game, cooler, betting), imaginary=True, sample=sample, seed=log.seed)  # type: ignore[arg-type]
            records = list(aivat_hands(estimator, log.hands, players, imagine=imagine))
        plain.append(np.array([record.outcomes[hero] for record in records]))
        estimates.append(np.array([np.asarray(record.estimates[hero]) for record in records]))
    return (plain[0] + plain[1]) / 2, estimates[0], estimates[1]


def _lookahead_records(
    game: Game, log: Any, players: dict[str, Any], hero: str, known: str, sample: int, boards: int
) -> Iterator[AivatRecord]:
    """The hands of ``log`` estimated with the look-ahead value over the basis
    (:class:`~pokerbot.strategies.aivat.lookahead.LookaheadAivat`: the hero replayed with
    the match's seeds, ``boards`` sampled cards where it acts first after one)."""
    replayed = default_registry().create(hero.replace("=", ":"), game, strategy_seed(log.seed, hero))
    estimator = LookaheadAivat(
        game, replayed, BasisValue(game), boards=boards, imaginary=True, sample=sample, seed=log.seed
    )
    yield from aivat_hands(estimator, log.hands, {**players, hero: LookaheadHero(estimator)}, imagine=[known])
    print(f"  {log.path.name}: {estimator.searches} searches, {estimator.mismatches} mismatches", flush=True)


def design(
    seatings: tuple[np.ndarray, np.ndarray], features: list[int], by_seat: bool
) -> tuple[np.ndarray, np.ndarray]:
    """A chunk's equity-value estimate per deal and the correction of each of ``features``
    (column numbers of the basis, 1 on; deal x features; with ``by_seat`` each feature twice,
    once per seating, so that each seating gets coefficients of its own)."""
    first, second = seatings
    base = (first[:, 0] + second[:, 0]) / 2
    a = (first[:, features] - first[:, :1]) / 2
    b = (second[:, features] - second[:, :1]) / 2
    return base, np.hstack((a, b)) if by_seat else a + b


def fit(chunks: list[tuple[np.ndarray, np.ndarray]], ridge: float = 0.0) -> np.ndarray:
    """The coefficients minimising the variance of ``base + corrections @ c`` over the chunks
    (each a :func:`design`), with a ridge penalty ``ridge`` on the standardised coefficients."""
    base = np.concatenate([chunk[0] for chunk in chunks])
    corrections = np.concatenate([chunk[1] for chunk in chunks])
    target = base - base.mean()
    corrections = corrections - corrections.mean(axis=0)
    if ridge:
        scale = np.sqrt((corrections**2).mean(axis=0)) + 1e-12
        scaled = corrections / scale
        gram = scaled.T @ scaled + ridge * len(target) * np.eye(scaled.shape[1])
        return -np.linalg.solve(gram, scaled.T @ target) / scale
    return -np.linalg.lstsq(corrections, target, rcond=None)[0]


def print_top_deals(folder: Path, plain: np.ndarray, estimate: np.ndarray, count: int) -> None:
    """The ``count`` deals of ``folder`` whose estimates lie farthest from the chunk's mean, with
    their share of the chunk's variance, and each seating's players, cards, betting and result."""
    deviation = estimate - estimate.mean()
    order = np.argsort(-(deviation**2))[:count]
    share = float((deviation[order] ** 2).sum() / (deviation**2).sum())
    print(f"{folder.name}: the {count} deals farthest from the mean carry {share:.0%} of the variance")
    seatings = [list(read_match_log(folder / name, None)[0].hands) for name in ("match.log", "match-swapped.log")]
    for deal in order:
        print(f"  deal {deal}: plain {plain[deal]:+.0f}, estimate {estimate[deal]:+.0f} chips")
        for hands in seatings:
            state = hands[deal].state
            holes = " | ".join(cards_to_string(cards) for cards in state.hole_cards)
            print(
                f"    {' | '.join(hands[deal].names)}: {holes} / {cards_to_string(state.visible_board())} "
                f"{state.betting_string()} -> {state.values()[0]:+.0f}"
            )


def with_cooler(
    chunk: tuple[np.ndarray, np.ndarray, np.ndarray], cache: Path | None, folder: Path
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A look-ahead chunk with the cooler features' corrections of the plain estimator (from the
    ``-cooler4`` vectors, computed first without ``--lookahead``) as columns after its own: the
    cooler terms added to the value unlooked (``LookaheadAivat(unlooked=CoolerTerms)``)."""
    path = (cache or Path()) / f"{folder.name}-cooler4.npz"
    if not path.exists():
        raise SystemExit(f"{path}: --lookahead --cooler needs the cooler vectors (run --cooler first)")
    other = np.load(path)
    plain, first, second = chunk
    if not np.array_equal(other["plain"], plain):
        raise SystemExit(f"{path}: not the same deals as {folder}")
    start = first.shape[1]  # the stake features end where the cooler columns begin in both
    extra = [
        looked[:, :1] + cooled[:, start:] - cooled[:, :1]
        for looked, cooled in ((first, other["first"]), (second, other["second"]))
    ]
    return plain, np.hstack((first, extra[0])), np.hstack((second, extra[1]))


def print_bias_check(
    game: Game,
    folders: list[Path],
    chunks: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
    cache: Path | None,
    suffix: str,
    features: list[int],
) -> None:
    """The mean paired difference, per deal, between these chunks' estimates and those of the
    vectors cached under ``suffix`` (another value function over the same hands), both with the
    shipped stake coefficients and with the equity value alone: two unbiased estimates of the
    same deals differ by noise around zero (chips, 95 %)."""
    if cache is None:
        raise SystemExit("--against reads the other vectors from --cache")
    shipped = np.array(default_stake(game))
    differences: dict[str, list[np.ndarray]] = {"equity": [], "shipped stake": []}
    for folder, (plain, first, second) in zip(folders, chunks):
        other_path = cache / f"{folder.name}{suffix}.npz"
        if not other_path.exists():
            raise SystemExit(f"{other_path}: no cached vectors to compare with")
        other = np.load(other_path)
        if not np.array_equal(other["plain"], plain):
            raise SystemExit(f"{other_path}: not the same deals as {folder}")
        mine = design((first, second), features, False)
        theirs = design((other["first"], other["second"]), features, False)
        differences["equity"].append(mine[0] - theirs[0])
        differences["shipped stake"].append(mine[0] + mine[1] @ shipped - theirs[0] - theirs[1] @ shipped)
    for key, values in differences.items():
        mean, interval = mean_and_ci95(np.concatenate(values))
        print(f"bias check against {suffix} ({key}): {mean:+.1f} +- {interval:.1f} chips/deal")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("chunks", nargs="+", type=Path)
    parser.add_argument("--known", default="tight-aggressive")
    parser.add_argument("--sample", type=int, default=10)
    parser.add_argument("--cache", type=Path)
    parser.add_argument(
        "--hero-known", action="store_true", help="the other player known too (replayed), its holdings not imagined"
    )
    parser.add_argument("--imagine-hero", action="store_true", help="with --hero-known: imagine its holdings too")
    parser.add_argument("--cooler", action="store_true", help="also the cooler features (module docstring)")
    parser.add_argument(
        "--cooler-features",
        default="0,1,2,3",
        help="with --cooler: which (0 loser >= pair, 1 loser >= two pair, 2 winner >= two pair, 3 winner >= trips)",
    )
    parser.add_argument("--betting", action="store_true", help="also the betting features (BasisValue)")
    parser.add_argument(
        "--lookahead",
        type=int,
        default=0,
        metavar="BOARDS",
        help="the look-ahead value (strategies/aivat/lookahead.py) with BOARDS sampled cards; stake features only",
    )
    parser.add_argument(
        "--against",
        metavar="SUFFIX",
        help="a bias check: the paired difference from the cached vectors CACHE/CHUNKSUFFIX.npz (module docstring)",
    )
    parser.add_argument("--by-seat", action="store_true", help="coefficients of their own for each seating")
    parser.add_argument("--ridge", type=float, default=0.0, help="ridge penalty on standardised coefficients")
    parser.add_argument(
        "--top", type=int, default=0, help="print each chunk's N deals that carry the most variance (stake value)"
    )
    args = parser.parse_args()
    game = load_game(args.game)
    if args.cooler and not game.is_nolimit:
        raise SystemExit(f"--cooler multiplies by the chips behind: a no-limit game, not {args.game}")
    stake_columns = stake_size(game)
    stake_features = list(range(1, stake_columns + 1))
    columns = {"stake": stake_features}
    if args.cooler:
        picked = [int(k) for k in args.cooler_features.split(",")]
        columns["cooler"] = stake_features + [
            stake_columns + 1 + COOLER_FEATURES * r + k for r in range(game.num_rounds) for k in picked
        ]
    if args.betting:
        first = stake_columns + 1 + (COOLER_FEATURES * game.num_rounds if args.cooler else 0)
        columns["betting"] = stake_features + list(range(first, first + BETTING_TERMS * game.num_rounds))
    chunks = []
    for folder in args.chunks:
        suffix = ("-cooler4" if args.cooler else "") + ("-betting" if args.betting else "") or "-seats"
        suffix = f"-lookahead{args.lookahead}" if args.lookahead else suffix
        cached = args.cache / f"{folder.name}{suffix}.npz" if args.cache else None
        if cached is not None and cached.exists():
            data = np.load(cached)
            chunks.append((data["plain"], data["first"], data["second"]))
            continue
        plain, first, second = chunk_vectors(
            folder,
            args.known,
            args.sample,
            args.hero_known,
            args.imagine_hero,
            args.cooler,
            args.betting,
            args.lookahead,
        )
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            np.savez(cached, plain=plain, first=first, second=second)
        chunks.append((plain, first, second))
        print(f"{folder}: {len(plain)} deals estimated", flush=True)
    if args.lookahead and args.cooler:
        chunks = [with_cooler(chunk, args.cache, folder) for chunk, folder in zip(chunks, args.chunks)]
    pooled: dict[str, list[np.ndarray]] = {"plain": [], "equity": []}
    for index, (plain, first, second) in enumerate(chunks):
        rows = {"plain": plain, "equity": (first[:, 0] + second[:, 0]) / 2}
        for key, features in columns.items():
            designs = [design((f, s), features, args.by_seat) for _p, f, s in chunks]
            others = [chunk for other, chunk in enumerate(designs) if other != index]
            if not others:
                raise SystemExit("cross-fitting needs at least two chunks")
            base, corrections = designs[index]
            rows[key] = base + corrections @ fit(others, args.ridge)
        sd = {key: float(np.std(value, ddof=1)) for key, value in rows.items()}
        print(
            f"{args.chunks[index].name}: sd per deal "
            + ", ".join(f"{key} {sd[key]:.0f} ({sd[key] / sd['plain']:.3f})" for key in rows)
        )
        for key, value in rows.items():
            pooled.setdefault(key, []).append(value)
        if args.top:
            print_top_deals(args.chunks[index], plain, rows["stake"], args.top)
    big_blind = game.big_blind
    figures = {key: np.concatenate(values) for key, values in pooled.items() if values}
    deals = len(figures["plain"])
    plain_sd = float(np.std(figures["plain"], ddof=1))
    for key, values in figures.items():
        sd = float(np.std(values, ddof=1))
        mean, interval = (1000 * figure / big_blind for figure in mean_and_ci95(values))
        print(
            f"{key:7} {deals} deals: {mean:+,.0f} +- {interval:,.0f} mbb/hand, "
            f"sd {sd:.0f} chips/deal, ratio {sd / plain_sd:.3f}"
        )
    if args.against:
        print_bias_check(game, args.chunks, chunks, args.cache, args.against, stake_features)
    for key, features in columns.items():
        every = [design((f, s), features, args.by_seat) for _p, f, s in chunks]
        print(f"{key} coefficients on every chunk:", ", ".join(f"{c:.6g}" for c in fit(every, args.ridge)))


if __name__ == "__main__":
    main()
