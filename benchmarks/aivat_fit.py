"""Fit the coefficients of AIVAT's stake value function, and measure what they buy.

AIVAT's estimate is affine in its value function, so one pass over a match computes, for every
hand, the estimate under the equity value and the correction each feature of
:class:`~pokerbot.strategies.evaluation.values.StakeValue` adds (a vector-valued value
function). The coefficients that minimise the estimate's variance are then a least-squares
regression, and the figure is **cross-fitted**: each chunk (a duplicate match: its two logs)
is estimated with coefficients fitted on the other chunks only, so the fitted value function
never sees the hands it estimates and the estimate stays unbiased.

Run (the chunks of ``docs/experiments.md``: ``miximax:500nodes`` against ``tight-aggressive``,
500 deals in duplicate each, ``pokerbot match ... --duplicate --aivat --out DIR``):

    python benchmarks/aivat_fit.py holdem-nolimit-2p DIR101 DIR102 ... --known tight-aggressive \
        --sample 10 --cache CACHE_DIR

``--hero-known`` also replays the other player (``miximax``), for the action corrections of
its real decisions (deterministic players' corrections are zero); ``--imagine-hero`` also
averages over its holdings (a search per sampled holding and decision).

Prints per chunk the standard deviation per deal of the plain, the equity-value AIVAT and the
cross-fitted stake-value AIVAT estimates (chips), the pooled figures (mbb/hand, 95 %) and the
coefficients fitted on every chunk (what ``NOLIMIT_STAKE`` / ``LIMIT_STAKE`` ship). ``--cache``
keeps each chunk's per-hand vectors (a rerun only fits); the estimates cost what ``pokerbot log
aivat --imaginary --sample N`` costs (some minutes of CPU per 1,000 hands).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from pokerbot.bot.aivat_cli import read_match_log
from pokerbot.bot.match import strategy_seed
from pokerbot.bot.stats import mean_and_ci95
from pokerbot.protocol.game import Game, load_game
from pokerbot.protocol.hand import HandState
from pokerbot.strategies.evaluation.aivat import Aivat
from pokerbot.strategies.evaluation.recording import ReplayedStrategy
from pokerbot.strategies.evaluation.series import aivat_hands
from pokerbot.strategies.evaluation.values import StakeValue, stake_size
from pokerbot.strategies.registry import default_registry


class BasisValue:
    """The equity value, then the equity value plus each feature alone (a vector, chips)."""

    chance_consistent = True

    def __init__(self, game: Game) -> None:
        self.stake = StakeValue(game, np.zeros(stake_size(game)))

    def value(self, state: HandState) -> np.ndarray:
        base = self.stake.equity_value.value(state)
        return base + np.concatenate(([0.0], self.stake.features(state)))


def chunk_vectors(
    folder: Path, known: str, sample: int, hero_known: bool = False, imagine_hero: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Per deal of the duplicate match in ``folder``: the plain outcome of the other player
    (the hero: mean of the two seatings, chips) and its estimates under the basis (deal x
    (1 + K)). Imaginary observations over ``known``'s holdings; with ``hero_known`` the hero
    (the registry strategy its log name spells, ``miximax=500nodes`` for ``miximax:500nodes``)
    is replayed too, for its action corrections at its actual cards, and with ``imagine_hero``
    its holdings are imagined as well (a search for each sampled holding at each decision)."""
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
        estimator = Aivat(game, BasisValue(game), imaginary=True, sample=sample, seed=log.seed)  # type: ignore[arg-type]
        imagine = [known, hero] if imagine_hero else [known]
        records = list(aivat_hands(estimator, log.hands, players, imagine=imagine))
        plain.append(np.array([record.outcomes[hero] for record in records]))
        estimates.append(np.array([np.asarray(record.estimates[hero]) for record in records]))
    return (plain[0] + plain[1]) / 2, (estimates[0] + estimates[1]) / 2


def fit(chunks: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """The coefficients minimising the variance of ``e_0 + sum_j c_j (e_j - e_0)`` over the chunks."""
    estimates = np.concatenate([est for _plain, est in chunks])
    target = estimates[:, 0] - estimates[:, 0].mean()
    corrections = estimates[:, 1:] - estimates[:, :1]
    corrections = corrections - corrections.mean(axis=0)
    return -np.linalg.lstsq(corrections, target, rcond=None)[0]


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
    args = parser.parse_args()
    chunks = []
    for folder in args.chunks:
        cached = args.cache / f"{folder.name}.npz" if args.cache else None
        if cached is not None and cached.exists():
            data = np.load(cached)
            chunks.append((data["plain"], data["estimates"]))
            continue
        plain, estimates = chunk_vectors(folder, args.known, args.sample, args.hero_known, args.imagine_hero)
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            np.savez(cached, plain=plain, estimates=estimates)
        chunks.append((plain, estimates))
        print(f"{folder}: {len(plain)} deals estimated", flush=True)
    pooled: dict[str, list[np.ndarray]] = {"plain": [], "equity": [], "stake": []}
    for index, (plain, estimates) in enumerate(chunks):
        others = [chunk for other, chunk in enumerate(chunks) if other != index]
        if not others:
            raise SystemExit("cross-fitting needs at least two chunks")
        coefficients = fit(others)
        stake = estimates[:, 0] + (estimates[:, 1:] - estimates[:, :1]) @ coefficients
        rows = {"plain": plain, "equity": estimates[:, 0], "stake": stake}
        sd = {key: float(np.std(value, ddof=1)) for key, value in rows.items()}
        print(
            f"{args.chunks[index].name}: sd per deal plain {sd['plain']:.0f}, equity value {sd['equity']:.0f} "
            f"({sd['equity'] / sd['plain']:.3f}), stake value {sd['stake']:.0f} ({sd['stake'] / sd['plain']:.3f})"
        )
        for key, value in rows.items():
            pooled[key].append(value)
    big_blind = load_game(args.game).big_blind
    figures = {key: np.concatenate(values) for key, values in pooled.items()}
    deals = len(figures["plain"])
    plain_sd = float(np.std(figures["plain"], ddof=1))
    for key, values in figures.items():
        sd = float(np.std(values, ddof=1))
        mean, interval = (1000 * figure / big_blind for figure in mean_and_ci95(values))
        print(
            f"{key:7} {deals} deals: {mean:+,.0f} +- {interval:,.0f} mbb/hand, "
            f"sd {sd:.0f} chips/deal, ratio {sd / plain_sd:.3f}"
        )
    print("coefficients on every chunk:", ", ".join(f"{c:.6g}" for c in fit(chunks)))


if __name__ == "__main__":
    main()
