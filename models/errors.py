"""Exception types of the opponent-model layer."""

from __future__ import annotations


class ModelError(ValueError):
    """Base class of every error the models layer raises on bad input."""


class ModelFileError(ModelError):
    """A model file cannot be loaded; the message says which file and why."""


class ForeignModelFileError(ModelFileError):
    """The file is not a pokerbot model file (its magic header is missing)."""


class ModelVersionError(ModelFileError):
    """The file is a pokerbot model file of a format version this code does not read."""


class CorruptModelFileError(ModelFileError):
    """The file has our header but its payload is damaged or of the wrong kind."""


class ModelDataError(ModelError):
    """Training data cannot be used: a log line is not a hand, or the logs hold no decision of
    the player to model."""


class UnsupportedTreeError(ModelError):
    """A river tree uses a node type that :class:`models.frozen.FrozenTree` cannot copy."""


__all__ = [
    "CorruptModelFileError",
    "ForeignModelFileError",
    "ModelDataError",
    "ModelError",
    "ModelFileError",
    "ModelVersionError",
    "UnsupportedTreeError",
]
