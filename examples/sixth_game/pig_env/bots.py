"""A scripted Pig player: hold at 20 (the solo automaton's rule, as a seat's bot). It reads only
the public table (Pig has perfect information)."""

from __future__ import annotations

import numpy as np
from numba import njit
from treasure_core.agents import KernelBot
from treasure_core.kernels import tie_key

from pig_env.data import HOLD_AT
from pig_env.kernels import holds_at, legal_mask
from pig_env.state import HOLD_ACTION, N_ACTIONS, ROLL_ACTION, TURN_TOTAL


@njit(cache=True)
def hold_at_20(state: np.ndarray, player: int, salt: int = 0) -> int:
    """Roll until the turn holds 20 points, then hold (the target is banked without asking).
    One more roll gains (20 - turn total) / 6 on average (a 1 loses the turn total, 2-6 add
    4 on average), so at exactly 20 rolling and holding are worth the same: that tie goes to
    the higher tie_key of the bot's salt."""
    mask = np.zeros(N_ACTIONS, np.int8)
    legal_mask(state, player, mask)
    if mask[HOLD_ACTION] and state[TURN_TOTAL] == HOLD_AT:
        if tie_key(salt, state, ROLL_ACTION) > tie_key(salt, state, HOLD_ACTION):
            return ROLL_ACTION
        return HOLD_ACTION
    if mask[HOLD_ACTION] and holds_at(state[TURN_TOTAL]):
        return HOLD_ACTION
    return ROLL_ACTION


class PigBot(KernelBot):
    """Holds once the turn holds 20 points, as the solo automaton does; at exactly 20, where
    rolling on is worth as much, its seed decides."""

    policy = staticmethod(hold_at_20)


# The search's bot playout (treasure_core.codegen: batch.py calls the policy by this name).
playout_policy = hold_at_20
