"""The header every game's state array starts with, and the params header.

Every game keeps these few fields at the same offsets, so the drivers, the batch runner and
the tests read the player to act, the end of the game and the random generator the same way
for every game: state[CURRENT_PLAYER] and state[TERMINAL] play the roles of the contract's
current_player() and is_terminal() (docs/architecture.md, The state). A game's own fields
start at HEADER_SIZE (see its state.py).
"""

import numba
import numpy as np

from treasure_core.rng import RNG_WORDS

STATE_DTYPE = np.int32
# numba's types of a kernel's arguments, to compile a kernel ahead by them (GameSpec.step_parts):
# a state (or one row of a batch of them) and, as treasure_core.jit compiles it, any integer.
STATE_ARG = numba.types.Array(numba.from_dtype(STATE_DTYPE), 1, "C")
INT_ARG = numba.types.int64

# State header.
NUM_PLAYERS = 0
CURRENT_PLAYER = 1
TERMINAL = 2
REWARD_MODE = 3
DECISIONS = 4  # decisions taken so far in this game
RNG = 5  # RNG_WORDS slots
HEADER_SIZE = RNG + RNG_WORDS

# Params header: options compiled to integers by env.py; a game appends its own.
P_NUM_PLAYERS = 0
P_REWARD_MODE = 1
# The game's guard (GameSpec.guard): a game still going once state[GUARD_COUNTER] reaches this
# is cut by the drivers, a truncation; 0 means no guard.
P_GUARD_LIMIT = 2
PARAMS_HEADER = 3

# Reward modes.
REWARD_WIN_LOSS = 0
REWARD_SCORE_DIFF = 1
REWARD_MODES = {"win_loss": REWARD_WIN_LOSS, "score_diff": REWARD_SCORE_DIFF}
