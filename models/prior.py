"""The prior: action and hand-strength trees grown on many hands of many players, frozen.

* :class:`PriorTrainer` grows two river trees (configuration :class:`~models.config.PriorConfig`)
  from finished hands, each seen from every player's view in turn, or from ACPC match logs;
  :meth:`PriorTrainer.finish` freezes them into a :class:`Prior`.
* :func:`save_prior` / :func:`load_prior` write and read prior files (:mod:`pokerbot.models.persist`:
  magic header, format version, compressed pickle; **trusted input only**).
* :func:`load_default_prior` loads the prior shipped with the package for a game, when there
  is one (heads-up limit and no-limit hold'em), on demand: nothing is read at import time and
  nothing is kept in module state.
* :func:`models_for_game` gives a fresh adapting action and hand-strength model pair.

The default priors are built by ``python -m pokerbot.bot.generators.priors`` (see
:mod:`pokerbot.bot.generators.priors` for the command and seed that made the shipped files).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from pokerbot.models import persist
from pokerbot.models.action_classes import NUM_CLASSES
from pokerbot.models.config import ModelConfig, PriorConfig, make_tree
from pokerbot.models.errors import CorruptModelFileError, ModelError, ModelFileError
from pokerbot.models.features import ACTION_FEATURES, SHOWDOWN_FEATURES, quantise, view_rows
from pokerbot.models.frozen import FrozenTree
from pokerbot.models.handstrength import STRENGTH_BINS
from pokerbot.models.hoeffding import ActionModel, HandStrengthModel
from pokerbot.protocol.errors import LogFormatError
from pokerbot.protocol.game import Game
from pokerbot.protocol.matchlog import LoggedHand, parse_state_line
from pokerbot.protocol.wire import MatchState

PRIOR_KIND = "prior"
DEFAULT_PRIOR_FILES: Mapping[tuple[str, int], str] = {
    ("nolimit", 2): "holdem-nolimit-2p.prior",
    ("limit", 2): "holdem-limit-2p.prior",
    ("nolimit", 3): "holdem-nolimit-3p.prior",
    ("limit", 3): "holdem-limit-3p.prior",
}
"""Shipped prior files (in ``models/data/``) by (betting, number of players)."""


@dataclass(frozen=True)
class Prior:
    """Frozen prior trees for one kind of game, and how they were made."""

    betting: str
    num_players: int
    action: FrozenTree
    strength: FrozenTree
    info: Mapping[str, Any] = field(default_factory=dict)

    def fits(self, game: Game) -> bool:
        """True when the prior was trained on games like ``game`` (betting and players)."""
        return game.betting == self.betting and game.num_players == self.num_players

    def action_model(self, config: ModelConfig | None = None) -> ActionModel:
        """A fresh action model with this prior."""
        return ActionModel(self.action, config)

    def strength_model(self, config: ModelConfig | None = None) -> HandStrengthModel:
        """A fresh hand-strength model with this prior (default configuration:
        :data:`~models.config.STRENGTH_CONFIG`)."""
        return HandStrengthModel(self.strength, config)


def _holdem_like(game: Game) -> bool:
    return game.is_standard_deck and game.num_hole_cards == 2 and game.num_board_cards == (0, 3, 1, 1)


class PriorTrainer:
    """Grows the prior trees hand by hand; :meth:`finish` freezes them."""

    def __init__(self, game: Game, config: PriorConfig | None = None) -> None:
        self.game = game
        self.config = config or PriorConfig()
        cfg = self.config
        self._action = make_tree(cfg.tree, cfg.grace_period, cfg.split_confidence, cfg.seed, cfg.max_depth)
        self._strength = make_tree(cfg.tree, cfg.grace_period, cfg.split_confidence, cfg.seed, cfg.max_depth)
        self.hands = 0
        self.action_rows = 0
        self.showdown_rows = 0

    def add_view(self, view: MatchState) -> None:
        """Learn the other players' decisions and revealed hands in one finished view."""
        actions, showdowns = view_rows(view)
        for row in actions:
            self._action.learn_one(dict(zip(ACTION_FEATURES, quantise(row.x, ACTION_FEATURES))), int(row.y))
        for shown in showdowns:
            self._strength.learn_one(dict(zip(SHOWDOWN_FEATURES, quantise(shown.x, SHOWDOWN_FEATURES))), shown.y)
        self.action_rows += len(actions)
        self.showdown_rows += len(showdowns)

    def add_logged_hand(self, hand: LoggedHand) -> None:
        """Learn a hand with every card known, from each player's view in turn."""
        for position in range(self.game.num_players):
            self.add_view(MatchState(position, hand.hand_number, hand.state.view(position)))
        self.hands += 1

    def add_log(self, lines: Iterable[str], source: str = "<log>") -> int:
        """Learn every ``STATE`` line of an ACPC log; returns the hands read. Raises
        :class:`~protocol.errors.LogFormatError` naming the line of a malformed hand."""
        count = 0
        for number, raw in enumerate(lines, start=1):
            line = raw.strip()
            if not line.startswith("STATE:"):
                continue
            try:
                hand = parse_state_line(line, self.game)
            except LogFormatError as error:
                raise LogFormatError(f"{source}, line {number}: {error}") from None
            self.add_logged_hand(hand)
            count += 1
        return count

    def finish(self, info: Mapping[str, Any] | None = None) -> Prior:
        """The frozen prior (the trainer may go on learning afterwards)."""
        smoothing = self.config.smoothing
        details = {
            "hands": self.hands,
            "action_rows": self.action_rows,
            "showdown_rows": self.showdown_rows,
            "config": self.config.model_dump(),
            **(info or {}),
        }
        return Prior(
            betting=self.game.betting,
            num_players=self.game.num_players,
            action=FrozenTree.from_river(self._action, NUM_CLASSES, smoothing),
            strength=FrozenTree.from_river(self._strength, STRENGTH_BINS, smoothing),
            info=details,
        )


def save_prior(prior: Prior, path: Path) -> None:
    """Write ``prior`` to ``path`` (a pokerbot model file of kind ``prior``)."""
    persist.save(prior, PRIOR_KIND, path)


def load_prior(path: Path) -> Prior:
    """Read a prior file; raises :class:`~models.errors.ModelFileError` (foreign, other
    version, corrupt). Model files are trusted input (pickle)."""
    prior = persist.load(path, PRIOR_KIND)
    if not isinstance(prior, Prior):
        raise CorruptModelFileError(f"{path}: the payload is a {type(prior).__name__}, not a Prior")
    return prior


def default_prior_file(game: Game) -> str | None:
    """The name of the shipped prior for ``game`` (in ``models/data/``), or None."""
    if not _holdem_like(game):
        return None
    return DEFAULT_PRIOR_FILES.get((game.betting, game.num_players))


def load_default_prior(game: Game) -> Prior | None:
    """The shipped prior for ``game``, read now, or None when no shipped prior fits it.
    Raises :class:`~models.errors.ModelFileError` when the packaged file is missing or bad."""
    name = default_prior_file(game)
    if name is None:
        return None
    resource = resources.files("pokerbot.models").joinpath("data", name)
    try:
        data = resource.read_bytes()
    except OSError as error:
        raise ModelFileError(f"the packaged prior {name} cannot be read ({error}): reinstall pokerbot") from None
    prior = persist.loads(data, PRIOR_KIND, f"packaged prior {name}")
    if not isinstance(prior, Prior):
        raise CorruptModelFileError(f"packaged prior {name}: the payload is not a Prior")
    return prior


def models_for_game(
    game: Game,
    config: ModelConfig | None = None,
    prior: Prior | None = None,
    strength_config: ModelConfig | None = None,
) -> tuple[ActionModel, HandStrengthModel]:
    """A fresh (action, hand-strength) model pair for ``game``: with ``prior`` when given,
    else the shipped prior when one fits, else uniform priors. Configurations default to
    each model's own default."""
    if prior is None:
        prior = load_default_prior(game)
    elif not prior.fits(game):
        raise ModelError(f"the prior was trained on {prior.num_players}-player {prior.betting} games, not this game")
    if prior is None:
        return ActionModel(None, config), HandStrengthModel(None, strength_config)
    return prior.action_model(config), prior.strength_model(strength_config)


__all__ = [
    "DEFAULT_PRIOR_FILES",
    "PRIOR_KIND",
    "Prior",
    "PriorTrainer",
    "default_prior_file",
    "load_default_prior",
    "load_prior",
    "models_for_game",
    "save_prior",
]
