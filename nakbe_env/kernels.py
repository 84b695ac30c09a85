"""Treasures of Nakbe rules as @njit kernels over the flat state (layout in state.py)."""

import numpy as np
from numba import njit, prange

from nakbe_env.data import (
    BEST_SLOT,
    DIE_FACES,
    FREE_MOVE_FACE,
    GUARDIAN_STEPS,
    IS_LIGHTLESS,
    IS_TRAP,
    MAX_PLAYERS,
    NUM_EXPLORERS,
    NUM_TOKENS,
    SLOT_VALUES,
    TEAM_CARDS,
    TEAM_SIZE,
    TOKEN_VALUES,
    TOKENS_PLACED,
    TOKENS_RETURNED,
    TRACK_LENGTH,
    TRAP_STEPS,
    TREASURE_SPACES,
)
from nakbe_env.state import (
    CHAMBER,
    DIE,
    END_CONDITION,
    END_EXIT,
    END_LAST_ONE,
    END_LIGHTLESS,
    EVENT_CATCH,
    EVENT_EXIT,
    EVENT_ROUND_END,
    EVENT_TRAP,
    EVENT_TREASURE,
    EXITED,
    EXPLORER_DARK,
    EXPLORER_POS,
    EXPLORER_SLOT,
    GUARDIAN_POS,
    GUARDIAN_ROOM,
    LAST_CAUGHT,
    LAST_EVENTS,
    LAST_EXPLORER,
    LAST_FROM,
    LAST_PLAYER,
    LAST_ROLL,
    LAST_TO,
    MOVES_BY_SEAT,
    NO_SLOT,
    NO_TOKEN,
    NOBODY,
    OFF_BOARD,
    RETURNED_TOKENS,
    ROUND,
    SPACE_TOKEN,
    TEAM_CARD,
    TOKEN_KINDS,
    TOKEN_VALUE_COUNTS,
)
from treasure_core.header import CURRENT_PLAYER, DECISIONS, NUM_PLAYERS, REWARD_MODE, RNG, TERMINAL
from treasure_core.kernels import init_header, next_seed, outcome_rewards
from treasure_core.rng import local_next, rng_below, rng_seed, rng_shuffle

_TREASURE_SPACES = np.array(TREASURE_SPACES, dtype=np.int32)


# -- set-up ------------------------------------------------------------------------------
@njit(cache=True)
def init(state: np.ndarray, params: np.ndarray, seed: int) -> None:
    init_header(state, params, seed)
    # Team cards: shuffled, one per seat; the rest stay in the box unseen.
    for card in range(MAX_PLAYERS):
        state[TEAM_CARD + card] = card
    rng_shuffle(state, RNG, state[TEAM_CARD : TEAM_CARD + MAX_PLAYERS], MAX_PLAYERS)
    # Treasure tokens: shuffled, 13 face down on the treasure spaces, 2 returned unseen.
    tokens = TOKEN_VALUES.copy()
    rng_shuffle(state, RNG, tokens, NUM_TOKENS)
    for space in range(TRACK_LENGTH + 1):
        state[SPACE_TOKEN + space] = NO_TOKEN
    for i in range(TOKENS_PLACED):
        state[SPACE_TOKEN + _TREASURE_SPACES[i]] = tokens[i]
    for i in range(TOKENS_RETURNED):
        state[RETURNED_TOKENS + i] = tokens[TOKENS_PLACED + i]
    for e in range(NUM_EXPLORERS):
        state[EXPLORER_POS + e] = CHAMBER
        state[EXPLORER_DARK + e] = 0
        state[EXPLORER_SLOT + e] = NO_SLOT
    state[GUARDIAN_POS] = GUARDIAN_ROOM
    state[ROUND] = 1
    for field in (LAST_PLAYER, LAST_EXPLORER, LAST_FROM, LAST_TO, LAST_CAUGHT):
        state[field] = NOBODY
    state[CURRENT_PLAYER] = 0  # "The oldest player starts": seat 0
    roll_die(state)


@njit(cache=True)
def roll_die(state):
    state[DIE] = DIE_FACES[rng_below(state, RNG, DIE_FACES.shape[0])]


# -- the track ---------------------------------------------------------------------------
@njit(cache=True)
def explorer_at(state, space, ignore):
    """The explorer on a track space (other than `ignore`), or NOBODY."""
    for e in range(NUM_EXPLORERS):
        if e != ignore and state[EXPLORER_POS + e] == space:
            return e
    return NOBODY


@njit(cache=True)
def advance(state: np.ndarray, start: int, count: int, mover: int, skip_traps: bool) -> int:
    """Where `count` forward steps from `start` end, skipping occupied spaces (and traps when
    skip_traps); EXITED when they pass the last space."""
    space = start
    remaining = count
    while remaining > 0:
        space += 1
        if space > TRACK_LENGTH:
            return EXITED
        if explorer_at(state, space, mover) != NOBODY:
            continue
        if skip_traps and IS_TRAP[space]:
            continue
        remaining -= 1
    return space


@njit(cache=True)
def trap_landing(state, explorer):
    # Trap: back to the Guardian, then 3 forward, skipping occupied spaces and traps.
    origin = state[GUARDIAN_POS]
    if origin == GUARDIAN_ROOM:
        origin = CHAMBER  # the room is off the track; the track starts at the chamber
    return advance(state, origin, TRAP_STEPS, explorer, True)


@njit(cache=True)
def destination(state: np.ndarray, explorer: int, roll: int) -> int:
    """Where moving `explorer` by `roll` ends, traps included (public information only)."""
    space = advance(state, state[EXPLORER_POS + explorer], roll, explorer, False)
    if space != EXITED and IS_TRAP[space]:
        space = trap_landing(state, explorer)
    return space


@njit(cache=True)
def can_move(state, explorer, roll):
    position = state[EXPLORER_POS + explorer]
    if position == OFF_BOARD:
        return False
    # A 2 moves anyone; other faces only explorers in the chamber or in the light.
    return roll == FREE_MOVE_FACE or position == CHAMBER or state[EXPLORER_DARK + explorer] == 0


@njit(cache=True)
def legal_mask(state: np.ndarray, mask: np.ndarray) -> int:
    count = 0
    for e in range(NUM_EXPLORERS):
        legal = state[TERMINAL] == 0 and can_move(state, e, state[DIE])
        mask[e] = 1 if legal else 0
        count += mask[e]
    return count


# -- scoring slots -----------------------------------------------------------------------
@njit(cache=True)
def slot_taken(state, slot):
    for e in range(NUM_EXPLORERS):
        if state[EXPLORER_SLOT + e] == slot:
            return True
    return False


@njit(cache=True)
def remove_explorer(state, explorer, lowest):
    """Take the explorer off the board onto the lowest (catch) or highest free slot."""
    slot = 0 if lowest else BEST_SLOT
    step = 1 if lowest else -1
    while slot_taken(state, slot):
        slot += step
    state[EXPLORER_SLOT + explorer] = slot
    state[EXPLORER_POS + explorer] = OFF_BOARD
    state[EXPLORER_DARK + explorer] = 0


@njit(cache=True)
def explorers_left(state):
    count = 0
    for e in range(NUM_EXPLORERS):
        if state[EXPLORER_POS + e] != OFF_BOARD:
            count += 1
    return count


@njit(cache=True)
def explorer_nearest(state, to_exit):
    """The explorer nearest the exit (to_exit) or nearest the Guardian; ties, which only
    happen in the chamber, go to the lower explorer index."""
    best = NOBODY
    for e in range(NUM_EXPLORERS):
        position = state[EXPLORER_POS + e]
        if position == OFF_BOARD:
            continue
        if best == NOBODY:
            best = e
        elif to_exit and position > state[EXPLORER_POS + best]:
            best = e
        elif not to_exit and position < state[EXPLORER_POS + best]:
            best = e
    return best


@njit(cache=True)
def finish(state, condition):
    state[END_CONDITION] = condition
    state[TERMINAL] = 1
    state[DIE] = 0


@njit(cache=True)
def end_by_exit(state, explorer):
    # A: the escapee takes the "8"; the rest fill the highest free slots, nearest the exit first.
    remove_explorer(state, explorer, False)
    while explorers_left(state) > 0:
        remove_explorer(state, explorer_nearest(state, True), False)
    finish(state, END_EXIT)


@njit(cache=True)
def end_if_last_one(state):
    # B: the last explorer in the temple takes the remaining slot (the "8").
    if explorers_left(state) == 1:
        remove_explorer(state, explorer_nearest(state, True), False)
        finish(state, END_LAST_ONE)


@njit(cache=True)
def all_on_lightless(state):
    for e in range(NUM_EXPLORERS):
        position = state[EXPLORER_POS + e]
        if position != OFF_BOARD and (position == CHAMBER or not IS_LIGHTLESS[position]):
            return False
    return True


@njit(cache=True)
def end_by_lightless(state):
    # C: the Guardian catches them one by one from the back; the last one gets the "8".
    while explorers_left(state) > 1:
        victim = explorer_nearest(state, False)
        state[GUARDIAN_POS] = state[EXPLORER_POS + victim]
        remove_explorer(state, victim, True)
        state[LAST_CAUGHT] = victim
        state[LAST_EVENTS] |= EVENT_CATCH
    remove_explorer(state, explorer_nearest(state, True), False)
    finish(state, END_LIGHTLESS)


# -- a turn ------------------------------------------------------------------------------
@njit(cache=True)
def all_dark(state):
    for e in range(NUM_EXPLORERS):
        position = state[EXPLORER_POS + e]
        # Explorers still in the chamber can always move: they are never "in the dark".
        if position != OFF_BOARD and (position == CHAMBER or state[EXPLORER_DARK + e] == 0):
            return False
    return True


@njit(cache=True)
def end_round(state):
    state[LAST_EVENTS] |= EVENT_ROUND_END
    guardian = state[GUARDIAN_POS]
    if guardian == GUARDIAN_ROOM:
        guardian = CHAMBER
    else:
        # The Guardian moves 5 forward and stops on the first explorer it meets.
        for _ in range(GUARDIAN_STEPS):
            if guardian == TRACK_LENGTH:
                break
            guardian += 1
            victim = explorer_at(state, guardian, NOBODY)
            if victim != NOBODY:
                remove_explorer(state, victim, True)
                state[LAST_CAUGHT] = victim
                state[LAST_EVENTS] |= EVENT_CATCH
                break
    state[GUARDIAN_POS] = guardian
    end_if_last_one(state)
    if state[TERMINAL]:
        return
    if all_on_lightless(state):
        end_by_lightless(state)
        return
    # Everyone returns to the light, except on lightless spaces.
    for e in range(NUM_EXPLORERS):
        position = state[EXPLORER_POS + e]
        if position != OFF_BOARD:
            state[EXPLORER_DARK + e] = IS_LIGHTLESS[position]
    state[ROUND] += 1


@njit(cache=True)
def take_token(state, player, space):
    # The mover takes the treasure, whoever's explorer it was; its value stays secret.
    value = state[SPACE_TOKEN + space]
    if value != NO_TOKEN:
        state[SPACE_TOKEN + space] = NO_TOKEN
        state[TOKEN_VALUE_COUNTS + player * TOKEN_KINDS + value] += 1
        state[LAST_EVENTS] |= EVENT_TREASURE


@njit(cache=True)
def step(state: np.ndarray, action: int) -> None:
    """Move explorer `action` by the die showing, resolve everything that follows, and roll
    for the next player. The caller checks legality (legal_mask)."""
    player = state[CURRENT_PLAYER]
    roll = state[DIE]
    start = state[EXPLORER_POS + action]
    state[DECISIONS] += 1
    state[LAST_PLAYER] = player
    state[LAST_EXPLORER] = action
    state[LAST_ROLL] = roll
    state[LAST_FROM] = start
    state[LAST_CAUGHT] = NOBODY
    state[LAST_EVENTS] = 0
    state[MOVES_BY_SEAT + player * NUM_EXPLORERS + action] += 1
    space = advance(state, start, roll, action, False)
    if space != EXITED and IS_TRAP[space]:
        state[LAST_EVENTS] |= EVENT_TRAP
        space = trap_landing(state, action)
    state[LAST_TO] = space
    if space == EXITED:
        state[LAST_EVENTS] |= EVENT_EXIT
        end_by_exit(state, action)
        return
    state[EXPLORER_POS + action] = space
    state[EXPLORER_DARK + action] = 1  # after moving, an explorer goes to the dark side
    take_token(state, player, space)
    if all_on_lightless(state):
        end_by_lightless(state)
        return
    if all_dark(state):
        end_round(state)
        if state[TERMINAL]:
            return
    state[CURRENT_PLAYER] = (player + 1) % state[NUM_PLAYERS]
    roll_die(state)


# -- the end -----------------------------------------------------------------------------
@njit(cache=True)
def team_points(state, card):
    total = 0
    for k in range(TEAM_SIZE):
        slot = state[EXPLORER_SLOT + TEAM_CARDS[card, k]]
        if slot != NO_SLOT:
            total += SLOT_VALUES[slot]
    return total


@njit(cache=True)
def treasure_points(state, player):
    total = 0
    for value in range(TOKEN_KINDS):
        total += value * state[TOKEN_VALUE_COUNTS + player * TOKEN_KINDS + value]
    return total


@njit(cache=True)
def scores(state: np.ndarray, scores_out: np.ndarray, tiebreaks_out: np.ndarray) -> None:
    """Team slots plus treasure values; the tie-break is the treasure points."""
    for p in range(state[NUM_PLAYERS]):
        tiebreaks_out[p] = treasure_points(state, p)
        scores_out[p] = team_points(state, state[TEAM_CARD + p]) + tiebreaks_out[p]


@njit(cache=True)
def returns(state: np.ndarray, out: np.ndarray) -> None:
    n = state[NUM_PLAYERS]
    points = np.zeros(n, np.int64)
    tiebreaks = np.zeros(n, np.int64)
    scores(state, points, tiebreaks)
    outcome_rewards(points, tiebreaks, n, state[REWARD_MODE], out)


# -- hidden information ------------------------------------------------------------------
@njit(cache=True)
def resample_hidden(state: np.ndarray, player: int, seed: int) -> None:
    """Re-deal everything `player` cannot know, consistently with what it has seen: the other
    team cards (and those in the box), the values of face-down, returned and other players'
    tokens, and the generator (the future dice)."""
    rng_seed(state, RNG, seed)
    cards = np.empty(MAX_PLAYERS, np.int32)
    count = 0
    for seat in range(MAX_PLAYERS):
        if seat != player:
            cards[count] = state[TEAM_CARD + seat]
            count += 1
    rng_shuffle(state, RNG, cards, count)
    count = 0
    for seat in range(MAX_PLAYERS):
        if seat != player:
            state[TEAM_CARD + seat] = cards[count]
            count += 1
    # Pool the token values player has not seen, shuffle, and deal them back to the same places.
    pool = np.empty(NUM_TOKENS, np.int32)
    count = 0
    for space in range(TRACK_LENGTH + 1):
        if state[SPACE_TOKEN + space] != NO_TOKEN:
            pool[count] = state[SPACE_TOKEN + space]
            count += 1
    for i in range(TOKENS_RETURNED):
        pool[count] = state[RETURNED_TOKENS + i]
        count += 1
    held = np.zeros(MAX_PLAYERS, np.int32)
    for seat in range(state[NUM_PLAYERS]):
        if seat != player:
            for value in range(TOKEN_KINDS):
                for _ in range(state[TOKEN_VALUE_COUNTS + seat * TOKEN_KINDS + value]):
                    pool[count] = value
                    count += 1
                    held[seat] += 1
                state[TOKEN_VALUE_COUNTS + seat * TOKEN_KINDS + value] = 0
    rng_shuffle(state, RNG, pool, count)
    count = 0
    for space in range(TRACK_LENGTH + 1):
        if state[SPACE_TOKEN + space] != NO_TOKEN:
            state[SPACE_TOKEN + space] = pool[count]
            count += 1
    for i in range(TOKENS_RETURNED):
        state[RETURNED_TOKENS + i] = pool[count]
        count += 1
    for seat in range(state[NUM_PLAYERS]):
        for _ in range(held[seat]):
            state[TOKEN_VALUE_COUNTS + seat * TOKEN_KINDS + pool[count]] += 1
            count += 1


# -- batched forms -----------------------------------------------------------------------
# numba cannot cache a kernel that takes another kernel as an argument, so every game spells
# out its own short prange loops over the generic per-game kernels.
@njit(cache=True, parallel=True)
def batch_init(states: np.ndarray, params: np.ndarray, seeds: np.ndarray) -> None:
    for i in prange(states.shape[0]):
        init(states[i], params, seeds[i])


@njit(cache=True, parallel=True)
def batch_step(
    states: np.ndarray,
    actions: np.ndarray,
    params: np.ndarray,
    rewards_out: np.ndarray,
    dones_out: np.ndarray,
) -> None:
    for i in prange(states.shape[0]):
        state = states[i]
        step(state, actions[i])
        dones_out[i] = state[TERMINAL] != 0
        rewards_out[i, :] = 0.0
        if dones_out[i]:
            returns(state, rewards_out[i])
            init(state, params, next_seed(state))


@njit(cache=True, parallel=True)
def batch_legal_mask(states: np.ndarray, masks_out: np.ndarray) -> None:
    for i in prange(states.shape[0]):
        legal_mask(states[i], masks_out[i])


@njit(cache=True, parallel=True)
def random_playout(
    states: np.ndarray, params: np.ndarray, steps: int, seed: int, finished_out: np.ndarray
) -> int:
    """Each game takes `steps` uniformly random legal actions, restarting when it ends."""
    n_actions = NUM_EXPLORERS
    for i in prange(states.shape[0]):
        state = states[i]
        mask = np.zeros(n_actions, np.int8)
        word = np.uint64(seed) ^ (np.uint64(i) * np.uint64(0x9E3779B97F4A7C15))
        for _ in range(steps):
            count = legal_mask(state, mask)
            word, draw = local_next(word)
            pick = np.int64(draw % np.uint64(count))
            action = 0
            for a in range(n_actions):
                if mask[a]:
                    if pick == 0:
                        action = a
                        break
                    pick -= 1
            step(state, action)
            if state[TERMINAL]:
                finished_out[i] += 1
                init(state, params, next_seed(state))
    return states.shape[0] * steps
