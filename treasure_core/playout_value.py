"""Generic help for a game's playout_value (treasure_core.codegen, docs/search.md): the search's
estimate of the returns when a playout is cut before the game ends."""

from __future__ import annotations

import numpy as np

from treasure_core.header import REWARD_SCORE_DIFF
from treasure_core.jit import njit


@njit(cache=True)
def estimated_rewards(
    values: np.ndarray, num_players: int, reward_mode: int, scale: float, out: np.ndarray
) -> None:
    """Rewards in the range of `returns` from each player's estimated final score values[p]:
    own minus the mean of the others; under win_loss squashed into (-1, 1) by tanh(lead /
    scale), so a lead of `scale` points counts about 0.76 of a win."""
    total = 0.0
    for p in range(num_players):
        total += values[p]
    for p in range(num_players):
        lead = values[p] - (total - values[p]) / max(num_players - 1, 1)
        out[p] = lead if reward_mode == REWARD_SCORE_DIFF else np.tanh(lead / scale)
