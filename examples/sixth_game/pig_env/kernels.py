"""Pig's rules as @njit kernels over the flat state (layout in state.py), by the kernel
contract of treasure_core (docs/architecture.md); the batch forms are generated into batch.py.

Each die roll is chance drawn from the generator in the state (treasure_core.rng), so the same
seed and the same decisions give the same game everywhere."""

import numpy as np
from numba import njit
from treasure_core.header import CURRENT_PLAYER, DECISIONS, NUM_PLAYERS, RNG, TERMINAL
from treasure_core.kernels import init_header
from treasure_core.rng import rng_below, rng_seed

from pig_env.data import BUST_FACE, DIE_SIDES, HOLD_AT
from pig_env.state import (
    AUTOMATON,
    AUTOMATON_GAIN,
    AUTOMATON_ROLLS,
    END,
    END_TARGET,
    EVENT_AUTOMATON,
    EVENT_BUST,
    EVENT_HOLD,
    EVENT_ROLL,
    EVENT_TARGET,
    HOLD_ACTION,
    LAST_EVENTS,
    LAST_PLAYER,
    LAST_ROLL,
    MAX_ROUND_COUNT,
    NOBODY,
    P_TARGET,
    PHASE_TURN,
    ROLL_ACTION,
    ROUND,
    SCORES,
    SOLO_COMPETITORS,
    TARGET,
    TURN_TOTAL,
)


# -- set-up ------------------------------------------------------------------------------
@njit(cache=True)
def init(state: np.ndarray, params: np.ndarray, seed: int) -> None:
    """Everyone at 0 points; seat 0 rolls first (init_header zeroes the state)."""
    init_header(state, params, seed)
    state[TARGET] = params[P_TARGET]
    state[ROUND] = 1
    state[LAST_PLAYER] = NOBODY


@njit(cache=True)
def phase(state: np.ndarray) -> int:
    """Every decision is roll or hold (PHASES)."""
    return PHASE_TURN


@njit(cache=True)
def competitors(state: np.ndarray) -> int:
    """The players; in solo, the player and the automaton."""
    n = state[NUM_PLAYERS]
    return SOLO_COMPETITORS if n == 1 else n


# -- decisions ---------------------------------------------------------------------------
@njit(cache=True)
def legal_mask(state: np.ndarray, player: int, mask: np.ndarray) -> int:
    """Roll, and hold once the turn holds points; nothing for a seat that is not to act."""
    deciding = state[TERMINAL] == 0 and player == state[CURRENT_PLAYER]
    mask[ROLL_ACTION] = 1 if deciding else 0
    # A hold banks the turn total: with nothing gathered yet the player must roll (this also
    # keeps a game from stalling on holds of 0).
    mask[HOLD_ACTION] = 1 if deciding and state[TURN_TOTAL] > 0 else 0
    return np.int64(mask[ROLL_ACTION]) + np.int64(mask[HOLD_ACTION])


@njit(cache=True)
def holds_at(turn_total: int) -> bool:
    """The automaton's rule (and the scripted bot's): hold once the turn holds HOLD_AT."""
    return turn_total >= HOLD_AT


@njit(cache=True)
def roll_die(state: np.ndarray) -> int:
    return 1 + rng_below(state, RNG, DIE_SIDES)


@njit(cache=True)
def bank(state: np.ndarray, competitor: int) -> None:
    # Rule: holding adds the turn total to the competitor's score.
    state[SCORES + competitor] += state[TURN_TOTAL]
    state[TURN_TOTAL] = 0


@njit(cache=True)
def add_roll(state: np.ndarray, competitor: int, face: int) -> bool:
    """One roll for `competitor`; True while its turn goes on."""
    if face == BUST_FACE:
        # Rule: a 1 loses the turn total and ends the turn.
        state[TURN_TOTAL] = 0
        return False
    state[TURN_TOTAL] += face
    if state[SCORES + competitor] + state[TURN_TOTAL] >= state[TARGET]:
        # Rule: the first to reach the target wins. Holding would win at once, so the turn
        # total is banked without asking (an assumption: some tables insist on the hold).
        bank(state, competitor)
        state[END] = END_TARGET
        state[TERMINAL] = 1
        return False
    return True


@njit(cache=True)
def automaton_turn(state: np.ndarray) -> None:
    """The solo opponent's whole turn: it rolls until the turn holds HOLD_AT (then it holds)
    or it reaches the target, unless a 1 ends the turn first."""
    before = state[SCORES + AUTOMATON]
    rolls = 0
    while True:
        rolls += 1
        if not add_roll(state, AUTOMATON, roll_die(state)):
            break
        if holds_at(state[TURN_TOTAL]):
            bank(state, AUTOMATON)
            break
    state[AUTOMATON_ROLLS] = rolls
    state[AUTOMATON_GAIN] = state[SCORES + AUTOMATON] - before
    state[LAST_EVENTS] |= EVENT_AUTOMATON


@njit(cache=True)
def end_turn(state: np.ndarray) -> None:
    """Pass the die to the next seat (in solo the automaton plays its turn first, and the
    die comes back to the player). After the last seat a new round starts (the drivers' guard,
    GameSpec.guard, cuts a game that goes on past data.MAX_ROUNDS rounds)."""
    state[TURN_TOTAL] = 0
    n = state[NUM_PLAYERS]
    if n == 1:
        automaton_turn(state)
        if state[TERMINAL]:
            return
    following = (state[CURRENT_PLAYER] + 1) % n
    if following == 0:
        state[ROUND] = min(state[ROUND] + 1, MAX_ROUND_COUNT)
    state[CURRENT_PLAYER] = following


@njit(cache=True)
def step(state: np.ndarray, action: int) -> None:
    """Apply the decision of the player to act; the caller checks legality (legal_mask)."""
    if phase(state) == PHASE_TURN:
        turn_step(state, action)


@njit(cache=True)
def turn_step(state: np.ndarray, action: int) -> None:
    """Roll or hold, then (if the turn is over) the next turn, the automaton's included."""
    player = state[CURRENT_PLAYER]
    state[DECISIONS] += 1
    state[LAST_PLAYER] = player
    state[LAST_ROLL] = 0
    if action == HOLD_ACTION:
        bank(state, player)
        state[LAST_EVENTS] = EVENT_HOLD
        end_turn(state)
        return
    face = roll_die(state)
    state[LAST_ROLL] = face
    if add_roll(state, player, face):
        state[LAST_EVENTS] = EVENT_ROLL
        return
    if state[TERMINAL]:
        state[LAST_EVENTS] = EVENT_ROLL | EVENT_TARGET
        return
    state[LAST_EVENTS] = EVENT_BUST
    end_turn(state)


# -- the end -----------------------------------------------------------------------------
@njit(cache=True)
def scores(state: np.ndarray, scores_out: np.ndarray, tiebreaks_out: np.ndarray) -> None:
    """Banked points of every competitor (the automaton after the player in solo); no tie-break."""
    for c in range(competitors(state)):
        scores_out[c] = state[SCORES + c]
        tiebreaks_out[c] = 0


# -- hidden information ------------------------------------------------------------------
@njit(cache=True)
def resample_hidden(state: np.ndarray, player: int, seed: int) -> None:
    """Perfect information: nothing is hidden. The future dice are chance, not hidden state,
    so only the generator is reseeded."""
    rng_seed(state, RNG, seed)
