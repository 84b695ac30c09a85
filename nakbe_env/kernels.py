"""Treasures of Nakbe rules as @njit kernels over the flat state (layout in state.py), by the
contract in docs/architecture.md; the batch forms are generated into batch.py.

Both board sides run through the same kernels: per-space tables are indexed by state[SIDE].
"""

import numpy as np

from nakbe_env.data import (
    BEST_SLOT,
    DIE_FACES,
    FREE_MOVE_FACE,
    GUARDIAN_STEPS,
    JUNGLE,
    LIGHTLESS,
    MAX_PLAYERS,
    NUM_EXPLORERS,
    NUM_SIDES,
    NUM_SPACES,
    NUM_TOKENS,
    PASSAGE,
    PASSAGE_OTHER_END,
    RIVER,
    SLOT_VALUES,
    SNAKE_COLUMN,
    SNAKES,
    SPACE_FLAGS,
    TEAM_CARDS,
    TEAM_SIZE,
    TEMPLE,
    TOKEN_VALUES,
    TOKENS_PLACED,
    TRACK_LENGTHS,
    TRAP,
    TRAP_STEPS,
    TREASURE_SPACES,
)
from nakbe_env.state import (
    BOX_TOKENS,
    CAMPAIGN,
    DARK,
    DIE,
    END_CONDITIONS,
    END_EXIT,
    END_LAST_ONE,
    END_LIGHTLESS,
    EVENT_CATCH,
    EVENT_EXIT,
    EVENT_NEXT_GAME,
    EVENT_NO_MOVE,
    EVENT_PASSAGE,
    EVENT_PASSAGE_CATCH,
    EVENT_RIVER,
    EVENT_ROUND_END,
    EVENT_SNAKES,
    EVENT_TRAP,
    EVENT_TREASURE,
    EXITED,
    EXPLORER_DARK,
    EXPLORER_POS,
    EXPLORER_SLOT,
    FEATURE_PASSAGE,
    FEATURE_RIVER,
    FEATURE_SNAKES,
    FEATURES,
    GUARDIAN_POS,
    GUARDIAN_START,
    IN_RIVER,
    LAST_CAUGHT,
    LAST_EVENTS,
    LAST_EXPLORER,
    LAST_FROM,
    LAST_PLAYER,
    LAST_ROLL,
    LAST_TO,
    LIGHT,
    MOVE_BASE,
    MOVES_BY_SEAT,
    NO_MOVE,
    NO_MOVES,
    NO_SLOT,
    NO_TOKEN,
    NOBODY,
    OFF_BOARD,
    P_CAMPAIGN,
    P_FEATURES,
    P_FIRST_SIDE,
    P_TRAP_ORIGIN,
    PHASE_MOVE,
    ROUND,
    SEAT_TOKENS,
    SIDE,
    SNAKES_WAITING,
    SPACE_TOKEN,
    START,
    TEAM_CARD,
    TOKEN_KINDS,
    TOKEN_VALUE_COUNTS,
    TRAP_FROM_ROOM,
    TRAP_ORIGIN,
)
from treasure_core.header import CURRENT_PLAYER, DECISIONS, NUM_PLAYERS, RNG, TERMINAL
from treasure_core.jit import njit
from treasure_core.kernels import init_header, sort_ascending
from treasure_core.rng import rng_below, rng_seed, rng_shuffle


# -- set-up ------------------------------------------------------------------------------
@njit(cache=True)
def init(state: np.ndarray, params: np.ndarray, seed: int) -> None:
    init_header(state, params, seed)
    state[CAMPAIGN] = params[P_CAMPAIGN]
    # The jungle features do nothing in a single temple game: keep them out of its state.
    jungle_ahead = params[P_CAMPAIGN] or params[P_FIRST_SIDE] == JUNGLE
    state[FEATURES] = params[P_FEATURES] if jungle_ahead else 0
    state[TRAP_ORIGIN] = params[P_TRAP_ORIGIN]
    # Team cards: shuffled, one per seat; the rest stay in the box unseen.
    for card in range(MAX_PLAYERS):
        state[TEAM_CARD + card] = card
    rng_shuffle(state, RNG, state[TEAM_CARD : TEAM_CARD + MAX_PLAYERS], MAX_PLAYERS)
    for i in range(NUM_SIDES * SEAT_TOKENS):
        state[TOKEN_VALUE_COUNTS + i] = 0
    for i in range(NUM_SIDES * TOKEN_KINDS):
        state[BOX_TOKENS + i] = 0
    for i in range(NUM_SIDES * NUM_EXPLORERS):
        state[EXPLORER_SLOT + i] = NO_SLOT
    for i in range(NUM_SIDES):
        state[END_CONDITIONS + i] = 0
    for field in (LAST_PLAYER, LAST_EXPLORER, LAST_ROLL, LAST_FROM, LAST_TO, LAST_CAUGHT):
        state[field] = NOBODY
    state[LAST_EVENTS] = 0
    # An Endless Threat always opens on the Temple side.
    set_up_side(state, TEMPLE if params[P_CAMPAIGN] else params[P_FIRST_SIDE])


@njit(cache=True)
def set_up_side(state, side):
    """Lay out one side of the board: its tokens, the explorers at the start, the Guardian on
    its starting space; seat 0 ("the oldest player") starts."""
    state[SIDE] = side
    state[SNAKES_WAITING] = 1 if side == JUNGLE and state[FEATURES] & FEATURE_SNAKES else 0
    # Treasure tokens: shuffled, face down on the treasure spaces, the rest returned unseen.
    tokens = TOKEN_VALUES.copy()
    rng_shuffle(state, RNG, tokens, NUM_TOKENS)
    for space in range(NUM_SPACES):
        state[SPACE_TOKEN + space] = NO_TOKEN
    placed = TOKENS_PLACED[side]
    for i in range(placed):
        state[SPACE_TOKEN + TREASURE_SPACES[side, i]] = tokens[i]
    for i in range(placed, NUM_TOKENS):
        state[BOX_TOKENS + side * TOKEN_KINDS + tokens[i]] += 1
    for e in range(NUM_EXPLORERS):
        state[EXPLORER_POS + e] = START
        state[EXPLORER_DARK + e] = LIGHT
    state[GUARDIAN_POS] = GUARDIAN_START
    state[ROUND] = 1
    state[CURRENT_PLAYER] = 0
    roll_die(state)


@njit(cache=True)
def roll_die(state):
    state[DIE] = DIE_FACES[rng_below(state, RNG, DIE_FACES.shape[0])]


# -- the track ---------------------------------------------------------------------------
@njit(cache=True)
def space_has(state, space, kind):
    return SPACE_FLAGS[state[SIDE], space] & kind != 0


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
    last = TRACK_LENGTHS[state[SIDE]]
    # One bit per space holding another explorer (spaces fit in 64 bits; see data.py).
    occupied = np.int64(0)
    for e in range(NUM_EXPLORERS):
        position = state[EXPLORER_POS + e]
        if e != mover and position > START:
            occupied |= np.int64(1) << position
    space = start
    remaining = count
    while remaining > 0:
        space += 1
        if space > last:
            return EXITED
        if (occupied >> space) & 1:
            continue
        if skip_traps and space_has(state, space, TRAP):
            continue
        remaining -= 1
    return space


@njit(cache=True)
def trap_landing(state, explorer):
    # Trap: back to the Guardian, then 3 forward, skipping occupied spaces and traps.
    if state[GUARDIAN_POS] != GUARDIAN_START:
        return advance(state, state[GUARDIAN_POS], TRAP_STEPS, explorer, True)
    if state[TRAP_ORIGIN] == TRAP_FROM_ROOM:
        # Literal: from the Guardian's Room, whose next space is space 0 (the Guardian's own
        # way); space 0 holds any number of explorers, so it is never skipped.
        return advance(state, START, TRAP_STEPS - 1, explorer, True)
    return advance(state, START, TRAP_STEPS, explorer, True)  # from space 0, the track's start


@njit(cache=True)
def landing(state: np.ndarray, explorer: int, roll: int) -> int:
    """Where moving `explorer` by `roll` ends, after a trap (public information only)."""
    space = advance(state, state[EXPLORER_POS + explorer], roll, explorer, False)
    if space != EXITED and space_has(state, space, TRAP):
        space = trap_landing(state, explorer)
    return space


@njit(cache=True)
def passage_in_use(state, space):
    return state[FEATURES] & FEATURE_PASSAGE != 0 and space_has(state, space, PASSAGE)


@njit(cache=True)
def behind_guardian(state, space):
    # "on a space occupied by the Guardian, or on any space that the Guardian already passed"
    return state[GUARDIAN_POS] >= START and space <= state[GUARDIAN_POS]


@njit(cache=True)
def snakes_strike(state, space):
    return state[SNAKES_WAITING] != 0 and space_has(state, space, SNAKES)


@njit(cache=True)
def destination(state: np.ndarray, explorer: int, roll: int) -> int:
    """Where moving `explorer` by `roll` leaves it: a space, EXITED, or OFF_BOARD when the
    move ends in a catch (a passage back behind the Guardian, or the snakes)."""
    return where_it_ends(state, landing(state, explorer, roll))


@njit(cache=True)
def where_it_ends(state: np.ndarray, space: int) -> int:
    """Where a move that stops on `space` (after any trap) leaves the explorer: `space`, the
    far end of a secret passage, EXITED, or OFF_BOARD for a catch."""
    if space == EXITED:
        return space
    if passage_in_use(state, space):
        space = PASSAGE_OTHER_END[state[SIDE], space]
        if behind_guardian(state, space):
            return OFF_BOARD
    if snakes_strike(state, space):
        return OFF_BOARD
    return space


@njit(cache=True)
def in_guardian_reach(state: np.ndarray, explorer: int, position: int) -> bool:
    """Would the Guardian's next 5-space move stop on `explorer` standing at `position` (the
    first explorer ahead of the Guardian, within reach)?"""
    guardian = state[GUARDIAN_POS]
    if guardian == GUARDIAN_START or position == START or position - guardian > GUARDIAN_STEPS:
        return False
    for e in range(NUM_EXPLORERS):
        other = state[EXPLORER_POS + e]
        if e != explorer and other != OFF_BOARD and guardian < other < position:
            return False
    return True


@njit(cache=True)
def can_move(state, explorer, roll):
    return movable(state[EXPLORER_POS + explorer], state[EXPLORER_DARK + explorer], roll)


@njit(cache=True)
def movable(position, dark, roll):
    """Whether an explorer at `position` (in the dark or the light) moves with `roll`: a 2
    moves anyone on the board; other faces only explorers at the start or in the light."""
    if position == OFF_BOARD:
        return False
    return roll == FREE_MOVE_FACE or position == START or dark == LIGHT


@njit(cache=True)
def phase(state: np.ndarray) -> int:
    """Every turn is one roll and one move (PHASES)."""
    return PHASE_MOVE


@njit(cache=True)
def legal_mask(state: np.ndarray, player: int, mask: np.ndarray) -> int:
    """The explorers `player` may move with the die showing, or else only "no move"; none
    unless it is its turn."""
    deciding = state[TERMINAL] == 0 and player == state[CURRENT_PLAYER] and phase(state) == PHASE_MOVE
    count = 0
    for e in range(NUM_EXPLORERS):
        legal = deciding and can_move(state, e, state[DIE])
        mask[MOVE_BASE + e] = 1 if legal else 0
        count += mask[MOVE_BASE + e]
    # A round that starts with everyone dark: a die other than 2 moves nobody.
    mask[NO_MOVE] = 1 if deciding and count == 0 else 0
    return count + mask[NO_MOVE]


# -- scoring slots -----------------------------------------------------------------------
@njit(cache=True)
def slot_taken(state, slot):
    base = EXPLORER_SLOT + state[SIDE] * NUM_EXPLORERS
    for e in range(NUM_EXPLORERS):
        if state[base + e] == slot:
            return True
    return False


@njit(cache=True)
def remove_explorer(state, explorer, lowest):
    """Take the explorer off the board onto this side's lowest (catch) or highest free slot."""
    slot = 0 if lowest else BEST_SLOT
    step = 1 if lowest else -1
    while slot_taken(state, slot):
        slot += step
    state[EXPLORER_SLOT + state[SIDE] * NUM_EXPLORERS + explorer] = slot
    state[EXPLORER_POS + explorer] = OFF_BOARD
    state[EXPLORER_DARK + explorer] = LIGHT


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
    happen at the start, go to the lower explorer index."""
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
    """This side's game is over. In An Endless Threat the temple game hands over to the
    jungle game; otherwise the episode ends."""
    state[END_CONDITIONS + state[SIDE]] = condition
    if state[CAMPAIGN] and state[SIDE] == TEMPLE:
        # End of the first game: the remaining temple tokens leave the board unseen; team
        # cards, collected tokens and scoring tokens are kept.
        for space in range(NUM_SPACES):
            value = state[SPACE_TOKEN + space]
            if value != NO_TOKEN:
                state[BOX_TOKENS + TEMPLE * TOKEN_KINDS + value] += 1
        state[LAST_EVENTS] |= EVENT_NEXT_GAME
        set_up_side(state, JUNGLE)
        return
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
def catch(state, explorer, event):
    """A catch (by the Guardian, the passage or the snakes) takes the lowest free slot. When
    it leaves one explorer, that one takes the remaining slot (the "8") and the game ends (B).
    Returns True when the game on this side is over."""
    remove_explorer(state, explorer, True)
    state[LAST_CAUGHT] = explorer
    state[LAST_EVENTS] |= event
    if explorers_left(state) == 1:
        remove_explorer(state, explorer_nearest(state, True), False)
        finish(state, END_LAST_ONE)
        return True
    return False


@njit(cache=True)
def all_on_lightless(state):
    for e in range(NUM_EXPLORERS):
        position = state[EXPLORER_POS + e]
        if position != OFF_BOARD and (position == START or not space_has(state, position, LIGHTLESS)):
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
        # Explorers still at the start can always move: they are never "in the dark".
        if position != OFF_BOARD and (position == START or state[EXPLORER_DARK + e] == LIGHT):
            return False
    return True


@njit(cache=True)
def end_round(state):
    """The Guardian moves and the explorers turn to the light. Returns True when the game
    on this side ended."""
    state[LAST_EVENTS] |= EVENT_ROUND_END
    guardian = state[GUARDIAN_POS]
    if guardian == GUARDIAN_START:
        state[GUARDIAN_POS] = START
    else:
        # The Guardian moves 5 forward and stops on the first explorer it meets.
        last = TRACK_LENGTHS[state[SIDE]]
        for _ in range(GUARDIAN_STEPS):
            if guardian == last:
                break
            guardian += 1
            victim = explorer_at(state, guardian, NOBODY)
            if victim != NOBODY:
                state[GUARDIAN_POS] = guardian
                if catch(state, victim, EVENT_CATCH):
                    return True
                break
        state[GUARDIAN_POS] = guardian
    if all_on_lightless(state):
        end_by_lightless(state)
        return True
    # Everyone returns to the light, except on lightless spaces; an explorer in a river goes
    # to the dark side instead and returns to the light a round later.
    for e in range(NUM_EXPLORERS):
        position = state[EXPLORER_POS + e]
        if position == OFF_BOARD:
            continue
        if state[EXPLORER_DARK + e] == IN_RIVER:
            state[EXPLORER_DARK + e] = DARK
        elif space_has(state, position, LIGHTLESS):
            state[EXPLORER_DARK + e] = DARK
        else:
            state[EXPLORER_DARK + e] = LIGHT
    state[ROUND] += 1
    return False


@njit(cache=True)
def take_token(state, player, space):
    # The mover takes the treasure, whoever's explorer it was; its value stays secret.
    value = state[SPACE_TOKEN + space]
    if value != NO_TOKEN:
        state[SPACE_TOKEN + space] = NO_TOKEN
        state[TOKEN_VALUE_COUNTS + state[SIDE] * SEAT_TOKENS + player * TOKEN_KINDS + value] += 1
        state[LAST_EVENTS] |= EVENT_TREASURE


@njit(cache=True)
def use_passage(state, explorer, space):
    """Secret passage: to the opposite end, on the dark side, swapping with an explorer there;
    caught if that end is where the Guardian is or has been. Returns True when the game on
    this side ended."""
    state[LAST_EVENTS] |= EVENT_PASSAGE
    other_end = PASSAGE_OTHER_END[state[SIDE], space]
    if behind_guardian(state, other_end):
        state[LAST_EVENTS] |= EVENT_PASSAGE_CATCH
        return catch(state, explorer, 0)
    occupant = explorer_at(state, other_end, explorer)
    if occupant != NOBODY:
        state[EXPLORER_POS + occupant] = space
        state[EXPLORER_DARK + occupant] = DARK
    state[EXPLORER_POS + explorer] = other_end
    state[EXPLORER_DARK + explorer] = DARK
    return False


@njit(cache=True)
def release_snakes(state, explorer):
    """The Snakes: the explorer on the token is removed, then every explorer in the left
    column, bottom to top; once per game. Returns True when the game on this side ended."""
    state[SNAKES_WAITING] = 0
    if catch(state, explorer, EVENT_SNAKES):
        return True
    for i in range(SNAKE_COLUMN.shape[0]):
        victim = explorer_at(state, SNAKE_COLUMN[i], NOBODY)
        if victim != NOBODY and catch(state, victim, EVENT_SNAKES):
            return True
    return False


@njit(cache=True)
def step(state: np.ndarray, action: int) -> None:
    """Apply the decision of the player to act. The drivers check legality (legal_mask) before
    a kernel sees an action, but BatchRunner(check_actions=False) and a user's own loop need
    not: any action legal_mask would not allow is refused here, changing nothing (no action may
    send a kernel outside its arrays). The checks read the state in this body (movable takes
    the values): a helper taking the state costs numba a reference count on the array."""
    if state[TERMINAL] or phase(state) != PHASE_MOVE:
        return
    roll = state[DIE]
    if action == NO_MOVE:
        # Only when the die moves nobody.
        for e in range(NUM_EXPLORERS):
            if movable(state[EXPLORER_POS + e], state[EXPLORER_DARK + e], roll):
                return
        no_move_step(state)
        return
    explorer = action - MOVE_BASE
    if explorer < 0 or explorer >= NUM_EXPLORERS:
        return
    if movable(state[EXPLORER_POS + explorer], state[EXPLORER_DARK + explorer], roll):
        move_step(state, explorer)


@njit(cache=True)
def step_unrefused(state: np.ndarray, action: int) -> None:
    """step without the refusal: `action` must be legal (benchmarks/refusal_cost.py measures
    what the refusal costs against this)."""
    if action == NO_MOVE:
        no_move_step(state)
    else:
        move_step(state, action - MOVE_BASE)


@njit(cache=True)
def no_move_step(state):
    """The die moves nobody (every explorer dark, no 2): the turn is over, and since every
    explorer is still in the dark, so is the round."""
    player = state[CURRENT_PLAYER]
    state[DECISIONS] += 1
    state[NO_MOVES] += 1
    state[LAST_PLAYER] = player
    state[LAST_EXPLORER] = NOBODY
    state[LAST_ROLL] = state[DIE]
    state[LAST_FROM] = NOBODY
    state[LAST_TO] = NOBODY
    state[LAST_CAUGHT] = NOBODY
    state[LAST_EVENTS] = EVENT_NO_MOVE
    if end_of_turn(state):
        return
    state[CURRENT_PLAYER] = (player + 1) % state[NUM_PLAYERS]
    roll_die(state)


@njit(cache=True)
def move_step(state, explorer):
    """Move `explorer` by the die showing, resolve everything that follows, and roll for the
    next player."""
    player = state[CURRENT_PLAYER]
    roll = state[DIE]
    start = state[EXPLORER_POS + explorer]
    state[DECISIONS] += 1
    state[LAST_PLAYER] = player
    state[LAST_EXPLORER] = explorer
    state[LAST_ROLL] = roll
    state[LAST_FROM] = start
    state[LAST_CAUGHT] = NOBODY
    state[LAST_EVENTS] = 0
    state[MOVES_BY_SEAT + player * NUM_EXPLORERS + explorer] += 1
    if resolve_move(state, player, explorer, start, roll):
        return  # over, or the campaign's jungle game is set up with its first roll
    state[CURRENT_PLAYER] = (player + 1) % state[NUM_PLAYERS]
    roll_die(state)


@njit(cache=True)
def resolve_move(state, player, explorer, start, roll):
    """The move and everything it sets off. Returns True when the game on this side ended."""
    space = advance(state, start, roll, explorer, False)
    if space != EXITED and space_has(state, space, TRAP):
        state[LAST_EVENTS] |= EVENT_TRAP
        space = trap_landing(state, explorer)
    state[LAST_TO] = space
    if space == EXITED:
        state[LAST_EVENTS] |= EVENT_EXIT
        end_by_exit(state, explorer)
        return True
    state[EXPLORER_POS + explorer] = space
    state[EXPLORER_DARK + explorer] = DARK  # after moving, an explorer goes to the dark side
    take_token(state, player, space)
    if state[FEATURES] & FEATURE_RIVER and space_has(state, space, RIVER):
        state[EXPLORER_DARK + explorer] = IN_RIVER
        state[LAST_EVENTS] |= EVENT_RIVER
    if passage_in_use(state, space):
        if use_passage(state, explorer, space):
            return True
    elif snakes_strike(state, space):
        if release_snakes(state, explorer):
            return True
    if all_on_lightless(state):
        end_by_lightless(state)
        return True
    return end_of_turn(state)


@njit(cache=True)
def end_of_turn(state):
    """ "If, at the end of a turn, all Explorers on the board are in the dark, then the round
    ends." A round may start with everyone dark (one just out of a river, the rest on
    lightless spaces); the next player still rolls, and a 2 moves a dark explorer. Returns
    True when the game on this side ended."""
    if all_dark(state):
        return end_round(state)
    return False


# -- the end -----------------------------------------------------------------------------
@njit(cache=True)
def team_points(state, card):
    """Slot values of the card's explorers, summed over both sides (Endless Threat)."""
    total = 0
    for side in range(NUM_SIDES):
        for k in range(TEAM_SIZE):
            slot = state[EXPLORER_SLOT + side * NUM_EXPLORERS + TEAM_CARDS[card, k]]
            if slot != NO_SLOT:
                total += SLOT_VALUES[slot]
    return total


@njit(cache=True)
def treasure_points(state, player):
    total = 0
    for side in range(NUM_SIDES):
        for value in range(TOKEN_KINDS):
            total += value * state[TOKEN_VALUE_COUNTS + side * SEAT_TOKENS + player * TOKEN_KINDS + value]
    return total


@njit(cache=True)
def scores(state: np.ndarray, scores_out: np.ndarray, tiebreaks_out: np.ndarray) -> None:
    """Team slots plus treasure values; the tie-break is the treasure points."""
    for p in range(state[NUM_PLAYERS]):
        tiebreaks_out[p] = treasure_points(state, p)
        scores_out[p] = team_points(state, state[TEAM_CARD + p]) + tiebreaks_out[p]


@njit(cache=True)
def competitors(state: np.ndarray) -> int:
    """Only the players compete: no in-kernel opponents."""
    return state[NUM_PLAYERS]


# -- hidden information ------------------------------------------------------------------
@njit(cache=True)
def resample_hidden(state: np.ndarray, player: int, seed: int) -> None:
    """Re-deal everything `player` cannot know, consistently with what it has seen: the other
    team cards (and those in the box), the values of face-down, boxed and other players'
    tokens (each side's 15 tokens among themselves), and the generator (the future dice)."""
    rng_seed(state, RNG, seed)
    cards = np.empty(MAX_PLAYERS, np.int32)
    count = 0
    for seat in range(MAX_PLAYERS):
        if seat != player:
            cards[count] = state[TEAM_CARD + seat]
            count += 1
    sort_ascending(cards[:count])  # canonical: the re-deal depends only on what player knows and the seed
    rng_shuffle(state, RNG, cards, count)
    count = 0
    for seat in range(MAX_PLAYERS):
        if seat != player:
            state[TEAM_CARD + seat] = cards[count]
            count += 1
    for side in range(NUM_SIDES):
        resample_tokens(state, player, side)


@njit(cache=True)
def resample_tokens(state, player, side):
    """Pool one side's token values `player` has not seen, shuffle, and deal them back to the
    same places: face-down spaces, the box, and the other seats' holdings."""
    pool = np.empty(NUM_TOKENS, np.int32)
    count = 0
    on_board = state[SIDE] == side
    if on_board:
        for space in range(NUM_SPACES):
            if state[SPACE_TOKEN + space] != NO_TOKEN:
                pool[count] = state[SPACE_TOKEN + space]
                count += 1
    boxed = 0
    for value in range(TOKEN_KINDS):
        for _ in range(state[BOX_TOKENS + side * TOKEN_KINDS + value]):
            pool[count] = value
            count += 1
            boxed += 1
        state[BOX_TOKENS + side * TOKEN_KINDS + value] = 0
    held = np.zeros(MAX_PLAYERS, np.int32)
    base = TOKEN_VALUE_COUNTS + side * SEAT_TOKENS
    for seat in range(state[NUM_PLAYERS]):
        if seat != player:
            for value in range(TOKEN_KINDS):
                for _ in range(state[base + seat * TOKEN_KINDS + value]):
                    pool[count] = value
                    count += 1
                    held[seat] += 1
                state[base + seat * TOKEN_KINDS + value] = 0
    sort_ascending(pool[:count])  # canonical (resample_hidden)
    rng_shuffle(state, RNG, pool, count)
    count = 0
    if on_board:
        for space in range(NUM_SPACES):
            if state[SPACE_TOKEN + space] != NO_TOKEN:
                state[SPACE_TOKEN + space] = pool[count]
                count += 1
    for _ in range(boxed):
        state[BOX_TOKENS + side * TOKEN_KINDS + pool[count]] += 1
        count += 1
    for seat in range(state[NUM_PLAYERS]):
        for _ in range(held[seat]):
            state[base + seat * TOKEN_KINDS + pool[count]] += 1
            count += 1
