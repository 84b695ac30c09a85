"""A scripted Pig player: hold at 20 (the solo automaton's rule, as a seat's bot). It reads only
the public table (Pig has perfect information)."""

from __future__ import annotations

import numpy as np
from numba import njit
from treasure_core.agents import KernelBot

from pig_env.kernels import holds_at, legal_mask
from pig_env.state import HOLD_ACTION, N_ACTIONS, ROLL_ACTION, TURN_TOTAL


@njit(cache=True)
def hold_at_20(state: np.ndarray, player: int, salt: int = 0) -> int:
    """Roll until the turn holds 20 points, then hold (the target is banked without asking)."""
    mask = np.zeros(N_ACTIONS, np.int8)
    legal_mask(state, player, mask)
    if mask[HOLD_ACTION] and holds_at(state[TURN_TOTAL]):
        return HOLD_ACTION
    return ROLL_ACTION


class PigBot(KernelBot):
    """Holds once the turn holds 20 points, as the solo automaton does."""

    policy = staticmethod(hold_at_20)
