"""The random generator that lives inside a game's state.

SplitMix64 (Steele, Lea and Flood 2014): one 64-bit word of state, kept in two int32 slots
of the state array so that cloning, saving and batching a game also clone, save and batch
its chance. Every draw is a pure function of those words, so the same seed and the same
actions give the same trajectory on every machine.
"""

import numpy as np

from treasure_core.jit import njit

RNG_WORDS = 2  # int32 slots taken by one generator

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
GOLDEN = _GOLDEN  # SplitMix64's increment, for streams derived from one seed
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@njit(cache=True, inline="always")
def _load(state, offset):
    high = np.uint64(np.uint32(state[offset]))
    low = np.uint64(np.uint32(state[offset + 1]))
    return (high << _S32) | low


@njit(cache=True, inline="always")
def _store(state, offset, word):
    state[offset] = np.int32(np.uint32(word >> _S32))
    state[offset + 1] = np.int32(np.uint32(word & _LOW32))


@njit(cache=True, inline="always")
def mix64(word: np.uint64) -> np.uint64:
    """The SplitMix64 output function: a bijective scramble of one 64-bit word."""
    z = word
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def rng_seed(state: np.ndarray, offset: int, seed: int) -> None:
    """Seed the generator at `offset` from any integer seed (reduced to 64 bits)."""
    _store(state, offset, mix64(np.uint64(seed) ^ _GOLDEN))


@njit(cache=True)
def rng_next(state: np.ndarray, offset: int) -> np.uint64:
    """The next 64 random bits, as uint64."""
    word = _load(state, offset) + _GOLDEN
    _store(state, offset, word)
    return mix64(word)


@njit(cache=True)
def rng_below(state: np.ndarray, offset: int, n: int) -> int:
    """A uniform integer in [0, n), without modulo bias (n >= 1)."""
    bound = np.uint64(n)
    # Reject the top partial block so every residue is equally likely.
    limit = np.uint64(0xFFFFFFFFFFFFFFFF) - (np.uint64(0xFFFFFFFFFFFFFFFF) % bound)
    while True:
        draw = rng_next(state, offset)
        if draw < limit:
            return np.int64(draw % bound)


@njit(cache=True)
def rng_shuffle(state: np.ndarray, offset: int, values: np.ndarray, count: int) -> None:
    """Fisher-Yates shuffle of values[:count] in place."""
    for i in range(count - 1, 0, -1):
        j = rng_below(state, offset, i + 1)
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp


@njit(cache=True)
def local_next(word: np.uint64) -> tuple[np.uint64, np.uint64]:
    """A generator held in a local uint64 (for policies inside kernels): (new word, draw)."""
    word = word + _GOLDEN
    return word, mix64(word)
