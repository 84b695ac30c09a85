"""Kernel helpers shared by every game: header set-up, reading it, and turning final scores
into rewards. Plain @njit functions (no function arguments), so numba caches them."""

import numpy as np
from numba import njit

from treasure_core.header import (
    NUM_PLAYERS,
    P_NUM_PLAYERS,
    P_REWARD_MODE,
    REWARD_MODE,
    REWARD_SCORE_DIFF,
    RNG,
)
from treasure_core.rng import rng_next, rng_seed


@njit(cache=True)
def init_header(state: np.ndarray, params: np.ndarray, seed: int) -> None:
    """Zero the state and fill the header: players, reward mode, and the seeded generator."""
    state[:] = 0
    state[NUM_PLAYERS] = params[P_NUM_PLAYERS]
    state[REWARD_MODE] = params[P_REWARD_MODE]
    rng_seed(state, RNG, seed)


@njit(cache=True)
def next_seed(state: np.ndarray) -> int:
    """A fresh 63-bit seed drawn from a game's own generator (for automatic reset)."""
    return np.int64(rng_next(state, RNG) >> np.uint64(1))


@njit(cache=True)
def winners_mask(scores: np.ndarray, tiebreaks: np.ndarray, num_players: int, out: np.ndarray) -> int:
    """out[p] = 1 for every winner: highest score, then highest tie-break; ties share victory."""
    best = 0
    for p in range(1, num_players):
        if scores[p] > scores[best] or (scores[p] == scores[best] and tiebreaks[p] > tiebreaks[best]):
            best = p
    count = 0
    for p in range(num_players):
        out[p] = 1 if scores[p] == scores[best] and tiebreaks[p] == tiebreaks[best] else 0
        count += out[p]
    return count


@njit(cache=True)
def outcome_rewards(
    scores: np.ndarray, tiebreaks: np.ndarray, num_players: int, reward_mode: int, out: np.ndarray
) -> None:
    """Final rewards per player into out[:num_players].

    win_loss: +1 to each winner, -1 to every other player.
    score_diff: own score minus the mean score of the others (sums to zero).
    """
    if reward_mode == REWARD_SCORE_DIFF:
        total = 0.0
        for p in range(num_players):
            total += scores[p]
        for p in range(num_players):
            out[p] = scores[p] - (total - scores[p]) / (num_players - 1)
        return
    winners = np.zeros(num_players, np.int32)
    winners_mask(scores, tiebreaks, num_players, winners)
    for p in range(num_players):
        out[p] = 1.0 if winners[p] else -1.0
