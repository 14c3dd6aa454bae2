"""SplitMix64 random numbers for compiled code (Steele, Lea and Flood 2014).

The generator's state is a one-element ``uint64`` array (:func:`new_rng`), advanced in place,
so a run saves its generator with its checkpoint and a resumed run draws the same numbers as
an uninterrupted one. The functions are numba-compiled and may be called from compiled code.
"""

from __future__ import annotations

import numba as nb
import numpy as np

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_UNIT = 1.0 / 9007199254740992.0


def new_rng(seed: int, skip: int = 0) -> np.ndarray:
    """A generator state (``uint64[1]``) from an integer seed: the state ``new_rng(seed)``
    reaches after ``skip`` draws (each :func:`next_u64`, :func:`next_float` or
    :func:`next_below` adds one constant to the state), so a computation that draws a known
    count of numbers can start where the run before it would have ended."""
    return np.array([np.uint64((seed + skip * int(_GOLDEN)) % 2**64)], dtype=np.uint64)


@nb.njit(cache=True, inline="always")
def next_u64(state: np.ndarray) -> np.uint64:
    """The next 64 random bits; advances ``state``."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return np.uint64(z ^ (z >> _S31))


@nb.njit(cache=True, inline="always")
def next_float(state: np.ndarray) -> float:
    """A uniform float in [0, 1)."""
    return float(next_u64(state) >> _S11) * _UNIT


@nb.njit(cache=True, inline="always")
def next_below(state: np.ndarray, n: int) -> int:
    """A uniform integer in ``[0, n)``."""
    return min(int(next_float(state) * n), n - 1)


__all__ = ["new_rng", "next_below", "next_float", "next_u64"]
