"""Kernel helpers shared by every game: header set-up, automatic-reset seeds, bots' tie-breaks,
and turning final scores into winners and rewards. Plain @njit functions (no function arguments), so numba
caches them (docs/architecture.md, The kernel contract)."""

import numpy as np
from numba import prange

from treasure_core.header import (
    DECISIONS,
    NUM_PLAYERS,
    P_GUARD_LIMIT,
    P_NUM_PLAYERS,
    P_REWARD_MODE,
    REWARD_MODE,
    REWARD_SCORE_DIFF,
    RNG,
    TERMINAL,
)
from treasure_core.jit import njit
from treasure_core.rng import GOLDEN, mix64, rng_next, rng_seed


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
def guard_reached(state: np.ndarray, params: np.ndarray, counter: int) -> bool:
    """A live game that its guard cuts now: state[counter] has reached params[P_GUARD_LIMIT]
    (GameSpec.guard; 0 means no guard). A truncation, never an end by the rules."""
    limit = params[P_GUARD_LIMIT]
    return state[TERMINAL] == 0 and limit > 0 and state[counter] >= limit


@njit(cache=True)
def tie_key(salt: int, state: np.ndarray, action: int) -> np.uint64:
    """A bot's tie-break between equally valued actions: a hash of its salt (from its seed),
    the decision count and the action. Reproducible for a seed, different across seeds, and it
    never draws from the game's own generator."""
    decision = np.uint64(state[DECISIONS]) * np.uint64(0x100000001B3) + np.uint64(action)
    return mix64(np.uint64(salt) ^ mix64(decision))


@njit(cache=True)
def sort_ascending(values: np.ndarray) -> None:
    """Sort a short array in place, by insertion: numba's `ndarray.sort` compiles a quicksort
    into every process that compiles a caller (about 0.8 s), for the few dozen cards or tiles
    a re-deal puts in order."""
    for i in range(1, values.shape[0]):
        value = values[i]
        j = i - 1
        while j >= 0 and values[j] > value:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = value


@njit(cache=True, inline="always")
def equal_flag(a: int, b: int) -> int:
    """1 when a == b, else 0, for values in int32's range (a state's), without a branch. For
    `out[i] = a == b` numba stores 1.0 or 0.0 by a branch, which the CPU mispredicts on flags
    that vary (an encoder's loop of them costs about four times as much); the zero test of the
    low 32 bits of a ^ b by a subtraction's borrow is not turned back into one."""
    low = (np.int64(a) ^ np.int64(b)) & _LOW_32_BITS
    return ((low - 1) >> 63) & 1


_LOW_32_BITS = 0xFFFFFFFF


@njit(cache=True)
def winners_mask(scores: np.ndarray, tiebreaks: np.ndarray, num_players: int, out: np.ndarray) -> int:
    """out[p] = 1 for every winner among scores[:num_players]: highest score, then highest
    tie-break; ties share victory. Returns the number of winners."""
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
    scores: np.ndarray,
    tiebreaks: np.ndarray,
    num_players: int,
    competitors: int,
    reward_mode: int,
    out: np.ndarray,
) -> None:
    """Final rewards of the players into out[:num_players]. scores[:competitors] holds the
    players first, then any in-kernel opponents (a solo mode's automaton), which win or lose
    like a player but get no reward.

    win_loss: +1 to each winning player (ties share victory), -1 to every other player.
    score_diff: own score minus the mean score of the other competitors (with all competitors
    players, the rewards sum to zero); a lone competitor's reward is its own score.
    """
    if reward_mode == REWARD_SCORE_DIFF:
        total = 0.0
        for p in range(competitors):
            total += scores[p]
        for p in range(num_players):
            if competitors == 1:
                out[p] = scores[p]
            else:
                out[p] = scores[p] - (total - scores[p]) / (competitors - 1)
        return
    winners = np.zeros(competitors, np.int32)
    winners_mask(scores, tiebreaks, competitors, winners)
    for p in range(num_players):
        out[p] = 1.0 if winners[p] else -1.0


# nth_legal's block: its legal entries are counted without a branch, and the walk skips whole
# blocks by their count. 8 was the fastest of 8, 16, 32 and 64 on every game's masks
# (benchmarks/draw_speed.py).
_SCAN_BLOCK = 8


@njit(cache=True, inline="always")
def nth_legal(mask: np.ndarray, pick: int) -> int:
    """The action of `mask`'s pick-th legal (nonzero) entry, counted from 0 (-1 past the last).

    A branch a block of _SCAN_BLOCK entries and none a legal entry: a walk that branched on
    each legal entry paid a mispredicted branch for most of them (Nakum's and Pharaoh's draw
    cost more than a third of their legal mask)."""
    size = mask.shape[0]
    start = 0
    while start + _SCAN_BLOCK <= size:
        in_block = 0
        for action in range(start, start + _SCAN_BLOCK):
            in_block += np.int64(mask[action]) != 0
        if pick < in_block:
            break
        pick -= in_block
        start += _SCAN_BLOCK
    found = -1
    for action in range(start, min(start + _SCAN_BLOCK, size)):
        legal = mask[action] != 0
        found = action if legal & (pick == 0) else found  # true of one entry at most
        pick -= legal
    return found


@njit(cache=True, inline="always")
def sampled_legal(mask: np.ndarray, count: int, base: np.uint64, row: int) -> int:
    """Row `row`'s uniformly random legal action of a batch, `count` legal in `mask` (-1 if
    none): SplitMix64 at base + (row + 1) * GOLDEN, so no draw depends on the thread count."""
    if count == 0:
        return -1
    # A 64-bit word modulo count < 2**16: the bias is below 2**-48.
    return nth_legal(mask, np.int64(mix64(base + np.uint64(row + 1) * GOLDEN) % np.uint64(count)))


@njit(cache=True, parallel=True)
def sample_legal_actions(masks: np.ndarray, seed: int, out: np.ndarray) -> int:
    """A uniformly random legal action for each row of `masks` (n_games, n_actions) into `out`
    (-1 where no action is legal), the draw of the batch kernels' batch_legal_mask at the same
    seed (sampled_legal, base mix64(seed)). Returns the rows with no legal action."""
    base = mix64(np.uint64(seed))
    empty = 0
    for g in prange(masks.shape[0]):
        count = 0
        for action in range(masks.shape[1]):
            count += masks[g, action] != 0
        out[g] = sampled_legal(masks[g], count, base, g)
        if count == 0:
            empty += 1
    return empty


# action_faults' out: the first out-of-range action's game and how many, the first illegal
# one's game and how many (-1 and 0 where there is none).
FAULT_RANGE_FIRST, FAULT_RANGE_COUNT, FAULT_ILLEGAL_FIRST, FAULT_ILLEGAL_COUNT = range(4)
FAULT_FIELDS = 4


@njit(cache=True)
def action_faults(actions: np.ndarray, n_actions: int, masks: np.ndarray, out: np.ndarray) -> None:
    """A batch step's checks in one pass (numpy's took 20 us a step for 1,024 games): which
    actions are outside 0..n_actions-1, and, where `masks` has a row per game (not with 0
    rows), which in-range ones its mask forbids. Read only where in range."""
    out[FAULT_RANGE_FIRST] = -1
    out[FAULT_RANGE_COUNT] = 0
    out[FAULT_ILLEGAL_FIRST] = -1
    out[FAULT_ILLEGAL_COUNT] = 0
    check_legal = masks.shape[0] == actions.shape[0]
    for game in range(actions.shape[0]):
        action = actions[game]
        if action < 0 or action >= n_actions:
            if out[FAULT_RANGE_COUNT] == 0:
                out[FAULT_RANGE_FIRST] = game
            out[FAULT_RANGE_COUNT] += 1
        elif check_legal and masks[game, action] == 0:
            if out[FAULT_ILLEGAL_COUNT] == 0:
                out[FAULT_ILLEGAL_FIRST] = game
            out[FAULT_ILLEGAL_COUNT] += 1


@njit(cache=True, inline="always")
def mask_from_bits(bits: int, out: np.ndarray, start: int) -> int:
    """Set out[start + i] = 1 for each set bit i of `bits` (a bit set of targets), leaving the
    other entries as they are; returns how many (the legal masks' move targets). `bits` is
    non-negative. A shift per bit up to the highest: walking only the set bits (trailing zeros)
    measured slower in Karuba's legal_mask."""
    count = 0
    i = start
    while bits:
        if bits & 1:
            out[i] = 1
            count += 1
        bits >>= 1
        i += 1
    return count
