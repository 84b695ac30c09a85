"""Observation encoders: what one player may know, and the full-information view.

Every feature is in [0, 1]. Seats in a player's observation are relative: seat k is the
player k places after the observer (k = 0 is the observer). docs/games/nakbe.md names
every slice; OBS_LAYOUT and FULL_LAYOUT below are the source of truth for offsets.
"""

import numpy as np

from nakbe_env.data import (
    DISTINCT_FACES,
    MAX_PLAYERS,
    MAX_TOKEN_VALUE,
    MAX_TOKENS_PLACED,
    NUM_EXPLORERS,
    NUM_SIDES,
    NUM_SPACES,
    NUM_TOKENS,
    SLOT_VALUES,
    TEAM_CARDS,
    TEAM_SIZE,
)
from nakbe_env.kernels import can_move, in_guardian_reach, landing, where_it_ends
from nakbe_env.state import (
    BOX_TOKENS,
    CAMPAIGN,
    DIE,
    EXITED,
    EXPLORER_DARK,
    EXPLORER_POS,
    EXPLORER_SLOT,
    FEATURE_PASSAGE,
    FEATURE_RIVER,
    FEATURE_SNAKES,
    FEATURES,
    GUARDIAN_POS,
    IN_RIVER,
    LIGHT,
    MOVES_BY_SEAT,
    NO_SLOT,
    NO_TOKEN,
    OFF_BOARD,
    SEAT_TOKENS,
    SIDE,
    SNAKES_WAITING,
    SPACE_TOKEN,
    TEAM_CARD,
    TOKEN_KINDS,
    TOKEN_VALUE_COUNTS,
)
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL
from treasure_core.jit import njit
from treasure_core.layout import offsets

BEST_SLOT_VALUE = 8
# What moving each explorer with the die showing would do (public: derived from the board and
# the die), so a learner need not work out skips, traps and passages from one-hot positions.
PREVIEW_GAIN = 0  # spaces gained / 16, clipped to [0, 1]
PREVIEW_BACK = 1  # the move ends behind where it started (the secret passage's fallback)
PREVIEW_EXITS = 2
PREVIEW_CAUGHT = 3  # caught at once (a passage behind the Guardian, the snakes)
PREVIEW_TREASURE = 4  # the move ends on a face-down token
PREVIEW_REACH_AFTER = 5  # afterwards it is the Guardian's next catch
PREVIEW_REACH_NOW = 6  # it is the Guardian's next catch where it stands
PREVIEW_FEATURES = 7
PREVIEW_GAIN_SCALE = 16.0

PUBLIC_LAYOUT = (
    ("side", NUM_SIDES),  # one-hot: temple, jungle (the board the explorers are on)
    ("campaign", 1),  # An Endless Threat: the temple game, then the jungle game
    ("features", 3),  # river, secret passage, snakes in use on the jungle side
    ("snakes_waiting", 1),  # the Snakes Token is still on the board
    ("explorer_space", NUM_EXPLORERS * NUM_SPACES),  # [explorer, space] one-hot; 0 = the start
    ("explorer_dark", NUM_EXPLORERS),  # on the dark side (or in a river)
    ("explorer_in_river", NUM_EXPLORERS),
    ("explorer_off_board", NUM_EXPLORERS),  # caught or escaped
    ("explorer_slot_value", NUM_SIDES * NUM_EXPLORERS),  # [side, explorer]: slot value / 8, 0 if none
    ("guardian_space", NUM_SPACES + 1),  # one-hot; 0 = the Guardian's start, 1 + s = space s
    ("token_on_space", NUM_SPACES),  # a face-down token lies there
    ("die", len(DISTINCT_FACES)),  # one-hot over faces 1, 2, 3, 4, 6; zeros when over
    ("slot_taken", NUM_EXPLORERS),  # this side's scoring slots 1, 2, 3, 4, 5, 6, 8
)
OBS_LAYOUT = PUBLIC_LAYOUT + (
    ("my_team", NUM_EXPLORERS),  # the three explorers on my team card
    ("my_token_values", NUM_SIDES * TOKEN_KINDS),  # [side, value]: tokens I hold / 13
    ("token_counts", NUM_SIDES * MAX_PLAYERS),  # [side, relative seat]: tokens held / 13
    ("seat_in_game", MAX_PLAYERS),  # relative seats that exist
    ("seat_to_act", MAX_PLAYERS),  # relative seat of the player to act, one-hot
    ("move_share", MAX_PLAYERS * NUM_EXPLORERS),  # [relative seat, explorer]: share of its moves
    ("move_preview", NUM_EXPLORERS * PREVIEW_FEATURES),  # [explorer, feature]: moving it with this die
)
FULL_LAYOUT = PUBLIC_LAYOUT + (
    ("token_value_on_space", NUM_SPACES),  # face-down token value / 3 (0 where none)
    ("team_of_seat", MAX_PLAYERS * NUM_EXPLORERS),  # [seat, explorer], absolute seats
    ("token_values_of_seat", NUM_SIDES * MAX_PLAYERS * TOKEN_KINDS),  # [side, seat, value] / 13
    ("box_token_values", NUM_SIDES * TOKEN_KINDS),  # [side, value]: tokens in the box / 15
    ("seat_in_game", MAX_PLAYERS),
    ("seat_to_act", MAX_PLAYERS),
    ("move_share", MAX_PLAYERS * NUM_EXPLORERS),  # [seat, explorer], absolute seats
)


OBS = offsets(OBS_LAYOUT)
FULL = offsets(FULL_LAYOUT)
PUBLIC_SIZE = sum(size for _, size in PUBLIC_LAYOUT)
OBS_SIZE = sum(size for _, size in OBS_LAYOUT)
FULL_SIZE = sum(size for _, size in FULL_LAYOUT)

_SIDE = OBS["side"][0]
_CAMPAIGN = OBS["campaign"][0]
_FEATURES = OBS["features"][0]
_SNAKES_WAITING = OBS["snakes_waiting"][0]
_EXPLORER_SPACE = OBS["explorer_space"][0]
_EXPLORER_DARK = OBS["explorer_dark"][0]
_EXPLORER_RIVER = OBS["explorer_in_river"][0]
_EXPLORER_OFF = OBS["explorer_off_board"][0]
_EXPLORER_SLOT = OBS["explorer_slot_value"][0]
_GUARDIAN = OBS["guardian_space"][0]
_TOKEN_ON = OBS["token_on_space"][0]
_DIE = OBS["die"][0]
_SLOT_TAKEN = OBS["slot_taken"][0]
_MY_TEAM = OBS["my_team"][0]
_MY_TOKENS = OBS["my_token_values"][0]
_TOKEN_COUNTS = OBS["token_counts"][0]
_OBS_SEATS = OBS["seat_in_game"][0]
_OBS_TO_ACT = OBS["seat_to_act"][0]
_OBS_MOVES = OBS["move_share"][0]
_PREVIEW = OBS["move_preview"][0]
_TOKEN_VALUE = FULL["token_value_on_space"][0]
_TEAMS = FULL["team_of_seat"][0]
_SEAT_TOKENS = FULL["token_values_of_seat"][0]
_BOX_TOKENS = FULL["box_token_values"][0]
_FULL_SEATS = FULL["seat_in_game"][0]
_FULL_TO_ACT = FULL["seat_to_act"][0]
_FULL_MOVES = FULL["move_share"][0]


@njit(cache=True)
def write_public(state: np.ndarray, out: np.ndarray) -> None:
    out[:PUBLIC_SIZE] = 0.0
    side = state[SIDE]
    out[_SIDE + side] = 1.0
    out[_CAMPAIGN] = state[CAMPAIGN]
    out[_FEATURES] = state[FEATURES] & FEATURE_RIVER != 0
    out[_FEATURES + 1] = state[FEATURES] & FEATURE_PASSAGE != 0
    out[_FEATURES + 2] = state[FEATURES] & FEATURE_SNAKES != 0
    out[_SNAKES_WAITING] = state[SNAKES_WAITING]
    for e in range(NUM_EXPLORERS):
        position = state[EXPLORER_POS + e]
        if position == OFF_BOARD:
            out[_EXPLORER_OFF + e] = 1.0
        else:
            out[_EXPLORER_SPACE + e * NUM_SPACES + position] = 1.0
        out[_EXPLORER_DARK + e] = state[EXPLORER_DARK + e] != LIGHT
        out[_EXPLORER_RIVER + e] = state[EXPLORER_DARK + e] == IN_RIVER
        for s in range(NUM_SIDES):
            slot = state[EXPLORER_SLOT + s * NUM_EXPLORERS + e]
            if slot != NO_SLOT:
                out[_EXPLORER_SLOT + s * NUM_EXPLORERS + e] = SLOT_VALUES[slot] / BEST_SLOT_VALUE
                if s == side:
                    out[_SLOT_TAKEN + slot] = 1.0
    out[_GUARDIAN + 1 + state[GUARDIAN_POS]] = 1.0  # the Guardian's start (-1) lands on index 0
    for space in range(NUM_SPACES):
        if state[SPACE_TOKEN + space] != NO_TOKEN:
            out[_TOKEN_ON + space] = 1.0
    for f in range(DISTINCT_FACES.shape[0]):
        if DISTINCT_FACES[f] == state[DIE]:
            out[_DIE + f] = 1.0


@njit(cache=True)
def write_move_share(state: np.ndarray, seat: int, out: np.ndarray, start: int) -> None:
    """Which explorers a seat has moved, as shares of its moves: the public history that
    hints at its team."""
    total = 0
    for e in range(NUM_EXPLORERS):
        total += state[MOVES_BY_SEAT + seat * NUM_EXPLORERS + e]
    if total > 0:
        for e in range(NUM_EXPLORERS):
            out[start + e] = state[MOVES_BY_SEAT + seat * NUM_EXPLORERS + e] / total


@njit(cache=True)
def observe(state: np.ndarray, player: int, out: np.ndarray) -> None:
    """What `player` may know: the public board, its own team card and token values, how
    many tokens each player holds, and which explorers each player has moved."""
    write_public(state, out)
    out[PUBLIC_SIZE:] = 0.0
    n = state[NUM_PLAYERS]
    card = state[TEAM_CARD + player]
    for k in range(TEAM_SIZE):
        out[_MY_TEAM + TEAM_CARDS[card, k]] = 1.0
    for side in range(NUM_SIDES):
        base = TOKEN_VALUE_COUNTS + side * SEAT_TOKENS
        for value in range(TOKEN_KINDS):
            out[_MY_TOKENS + side * TOKEN_KINDS + value] = (
                state[base + player * TOKEN_KINDS + value] / MAX_TOKENS_PLACED
            )
        for relative in range(n):
            seat = (player + relative) % n
            held = 0
            for value in range(TOKEN_KINDS):
                held += state[base + seat * TOKEN_KINDS + value]
            out[_TOKEN_COUNTS + side * MAX_PLAYERS + relative] = held / MAX_TOKENS_PLACED
    for relative in range(n):
        seat = (player + relative) % n
        out[_OBS_SEATS + relative] = 1.0
        write_move_share(state, seat, out, _OBS_MOVES + relative * NUM_EXPLORERS)
    out[_OBS_TO_ACT + (state[CURRENT_PLAYER] - player) % n] = 1.0
    write_move_preview(state, out, _PREVIEW)


@njit(cache=True)
def write_move_preview(state: np.ndarray, out: np.ndarray, start: int) -> None:
    """Per explorer that may move with the die showing: where the move leads (zeros for the
    others, and once the game is over)."""
    roll = state[DIE]
    for e in range(NUM_EXPLORERS):
        if state[TERMINAL] or not can_move(state, e, roll):
            continue
        base = start + e * PREVIEW_FEATURES
        position = state[EXPLORER_POS + e]
        out[base + PREVIEW_REACH_NOW] = in_guardian_reach(state, e, position)
        stop = landing(state, e, roll)
        if stop == EXITED:
            out[base + PREVIEW_EXITS] = 1.0
            out[base + PREVIEW_GAIN] = 1.0
            continue
        out[base + PREVIEW_TREASURE] = state[SPACE_TOKEN + stop] != NO_TOKEN
        end = where_it_ends(state, stop)
        if end == OFF_BOARD:
            out[base + PREVIEW_CAUGHT] = 1.0
            continue
        gain = end - position
        out[base + PREVIEW_GAIN] = min(max(gain / PREVIEW_GAIN_SCALE, 0.0), 1.0)
        out[base + PREVIEW_BACK] = gain < 0
        out[base + PREVIEW_REACH_AFTER] = in_guardian_reach(state, e, end)


@njit(cache=True)
def full_state(state: np.ndarray, out: np.ndarray) -> None:
    """Everything, secrets included: for centralised critics and debugging."""
    write_public(state, out)
    out[PUBLIC_SIZE:] = 0.0
    n = state[NUM_PLAYERS]
    for space in range(NUM_SPACES):
        value = state[SPACE_TOKEN + space]
        if value != NO_TOKEN:
            out[_TOKEN_VALUE + space] = value / MAX_TOKEN_VALUE
    for seat in range(n):
        card = state[TEAM_CARD + seat]
        for k in range(TEAM_SIZE):
            out[_TEAMS + seat * NUM_EXPLORERS + TEAM_CARDS[card, k]] = 1.0
        out[_FULL_SEATS + seat] = 1.0
        write_move_share(state, seat, out, _FULL_MOVES + seat * NUM_EXPLORERS)
    for side in range(NUM_SIDES):
        for seat in range(n):
            for value in range(TOKEN_KINDS):
                index = side * SEAT_TOKENS + seat * TOKEN_KINDS + value
                out[_SEAT_TOKENS + index] = state[TOKEN_VALUE_COUNTS + index] / MAX_TOKENS_PLACED
        for value in range(TOKEN_KINDS):
            index = side * TOKEN_KINDS + value
            out[_BOX_TOKENS + index] = state[BOX_TOKENS + index] / NUM_TOKENS
    out[_FULL_TO_ACT + state[CURRENT_PLAYER]] = 1.0
