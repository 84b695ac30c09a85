"""Observation encoders: what a player sees, and the full-state view. Every feature is in
[0, 1]. Pig has perfect information, so the two hold the same features; a player's view numbers
the competitors from itself (k = 0 is the observer, k = 1 the next to play: in solo the
automaton), the full state by seat. Neither encodes the generator: the future dice are chance."""

import numpy as np
from numba import njit
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL
from treasure_core.layout import offsets

from pig_env.data import MAX_ROUNDS, MAX_TARGET
from pig_env.kernels import competitors
from pig_env.state import MAX_COMPETITORS, ROUND, SCORES, TARGET, TURN_TOTAL

OBS_LAYOUT = (
    ("score", MAX_COMPETITORS),  # [competitor]: banked points / target, at most 1
    ("in_game", MAX_COMPETITORS),  # [competitor]: that competitor exists
    ("to_act", MAX_COMPETITORS),  # [competitor]: one-hot, the player to act (zeros once over)
    ("turn_total", 1),  # points gathered in this turn, not yet banked / target
    ("round", 1),  # round / MAX_ROUNDS (the guard that ends a game that would not end)
    ("target", 1),  # target / the largest target
    ("solo", 1),  # one player against the automaton
)
FULL_LAYOUT = OBS_LAYOUT

OBS = offsets(OBS_LAYOUT)
OBS_SIZE = sum(size for _, size in OBS_LAYOUT)
FULL_SIZE = sum(size for _, size in FULL_LAYOUT)

_SCORE = OBS["score"][0]
_IN_GAME = OBS["in_game"][0]
_TO_ACT = OBS["to_act"][0]
_TURN_TOTAL = OBS["turn_total"][0]
_ROUND = OBS["round"][0]
_TARGET = OBS["target"][0]
_SOLO = OBS["solo"][0]


@njit(cache=True)
def write_view(state: np.ndarray, first: int, out: np.ndarray) -> None:
    """The whole table, numbering the competitors from competitor `first`."""
    out[:] = 0.0
    count = competitors(state)
    target = state[TARGET]
    for k in range(count):
        c = (first + k) % count
        out[_SCORE + k] = min(state[SCORES + c] / target, 1.0)
        out[_IN_GAME + k] = 1.0
        if not state[TERMINAL] and c == state[CURRENT_PLAYER]:
            out[_TO_ACT + k] = 1.0
    out[_TURN_TOTAL] = min(state[TURN_TOTAL] / target, 1.0)
    out[_ROUND] = min(state[ROUND] / MAX_ROUNDS, 1.0)  # past the guard in a raw kernel: 1
    out[_TARGET] = target / MAX_TARGET
    out[_SOLO] = 1.0 if state[NUM_PLAYERS] == 1 else 0.0


@njit(cache=True)
def observe(state: np.ndarray, player: int, out: np.ndarray) -> None:
    """What `player` sees: everything (perfect information), from its own seat."""
    write_view(state, player, out)


@njit(cache=True)
def full_state(state: np.ndarray, out: np.ndarray) -> None:
    """Everything, by seat (for centralised critics)."""
    write_view(state, 0, out)
