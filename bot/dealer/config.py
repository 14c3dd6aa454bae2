"""What a match served by the dealer needs (:class:`DealerConfig`) and how it ended
(:class:`MatchResult`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from pokerbot.bot.transports import TRANSPORTS, transport_for
from pokerbot.protocol.game import BUILTIN_GAMES, Game, load_game
from pokerbot.protocol.limits import TimeLimits
from pokerbot.protocol.matchlog import log_header
from pokerbot.protocol.names import check_player_names


class DealerConfig(BaseModel):
    """Everything a match needs. Times in milliseconds, amounts in chips.

    ``limits`` are the time limits (the reference dealer's defaults unless given).
    ``transport`` is the seats' transport, a scheme of :data:`pokerbot.bot.transports.TRANSPORTS`.
    ``ports`` gives one port per seat (0 = chosen by the OS; None = all 0).
    ``max_invalid`` is how many invalid or malformed actions a seat may make (each turned
    into a call); one more ends the match; None = no limit (the reference's default).
    ``game_label`` is how the log header names the game (the reference prints its file);
    None names a built-in game by its name, any other game ``custom``.
    ``transactions`` keeps the transaction file ``MATCHNAME.tlog`` (the reference's ``-T``);
    with ``append_log`` (``-a``) an existing one is replayed first: the match resumes.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    match_name: str = Field(min_length=1)
    game: Game
    hands: int = Field(ge=0)
    seed: int = Field(ge=0, le=2**32 - 1)
    names: list[str]
    fixed_seats: bool = False
    ports: list[int] | None = None
    host: str = "127.0.0.1"
    quiet: bool = True
    write_log: bool = True
    append_log: bool = False
    transactions: bool = False
    output_dir: Path = Path(".")
    limits: TimeLimits = TimeLimits()
    start_timeout_ms: float | None = Field(default=None, gt=0)
    transport: str = "tcp"
    token: str | None = None
    max_invalid: int | None = Field(default=None, ge=0)
    game_label: str | None = None
    stop_keeps_score: bool = False
    """A signal (SIGINT, SIGTERM) ends the match as a shorter one: the log gets the ``SCORE``
    of the hands finished after a line marking it truncated (``pokerbot match``). False: the
    match is aborted as the reference dealer's is, the log without ``SCORE`` (resumable with
    the transaction file)."""
    hand_values: bool = True
    """Keep every hand's values for :attr:`MatchResult.per_hand_values` (False: the totals
    alone, memory flat in the number of hands; the log keeps the hands)."""

    @field_validator("transport")
    @classmethod
    def _known_transport(cls, scheme: str) -> str:
        if not transport_for(scheme).can_listen:
            servable = ", ".join(name for name, transport in TRANSPORTS.items() if transport.can_listen)
            raise ValueError(f"the dealer cannot serve {scheme} (it serves {servable})")
        return scheme

    @field_validator("names")
    @classmethod
    def _one_name_per_seat(cls, names: list[str], info: ValidationInfo) -> list[str]:
        game = info.data.get("game")
        if game is not None:
            check_player_names(names, game.num_players)
        return names

    @field_validator("ports")
    @classmethod
    def _one_port_per_seat(cls, ports: list[int] | None, info: ValidationInfo) -> list[int] | None:
        game = info.data.get("game")
        if ports is not None and game is not None:
            if len(ports) != game.num_players:
                given = f"{len(ports)} {'port' if len(ports) == 1 else 'ports'} given"
                raise ValueError(f"{given}, the game has {game.num_players} seats")
            for port in ports:
                if not 0 <= port <= 65535:
                    raise ValueError(f"port {port} is out of range 0..65535")
        return ports

    @field_validator("token")
    @classmethod
    def _carried(cls, token: str | None, info: ValidationInfo) -> str | None:
        transport = info.data.get("transport")
        if token is not None and transport is not None and not TRANSPORTS[transport].supports_token:
            carriers = ", ".join(name for name, carrier in TRANSPORTS.items() if carrier.supports_token)
            raise ValueError(f"a token needs a transport that carries one ({carriers}), not {transport}")
        return token

    def log_header(self) -> list[str]:
        """The ``#`` header lines of the log (the reference also prints them on standard error).

        The game is named by ``game_label``, else by its built-in name, else ``custom``.
        """
        label = self.game_label or next((name for name in BUILTIN_GAMES if load_game(name) == self.game), "custom")
        return log_header(self.match_name, label, self.hands, self.seed, self.limits)

    @property
    def log_path(self) -> Path:
        """Where ``MATCHNAME.log`` goes."""
        return self.output_dir / f"{self.match_name}.log"

    @property
    def transaction_path(self) -> Path:
        """Where the transaction file ``MATCHNAME.tlog`` goes."""
        return self.output_dir / f"{self.match_name}.tlog"


@dataclass(frozen=True)
class MatchResult:
    """How a match ended. Chips; ``per_hand_values[i]`` is hand ``i``'s value by name."""

    totals: dict[str, float]
    hands_played: int
    log_path: Path | None
    error: str | None
    per_hand_values: list[dict[str, float]]
    signal: int | None = None
    """The signal (SIGINT, SIGTERM) that stopped the match, if one did."""
    stopped: str | None = None
    """Why the match ended early as a shorter one (:attr:`DealerConfig.stop_keeps_score`)."""


__all__ = ["DealerConfig", "MatchResult"]
