"""Treasures of Nakbe: constant data, as plain tables a player who owns the game can correct.

Each table carries its SOURCE: "rulebook", "derived" (from the rulebook's examples) or
"assumed" (GAME_DATA.md: no public source; listed under Assumptions in docs/games/nakbe.md).
"""

import numpy as np

# SOURCE: rulebook (the explorers it names). The order is ours, chosen so that the team of
# Example 6 (Yellow, Blue, Purple) is team card 0 below.
EXPLORER_NAMES = ("purple", "yellow", "green", "blue", "red", "brown", "black")
NUM_EXPLORERS = 7
MAX_PLAYERS = 7  # one team card each

# SOURCE: rulebook ("faces 1, 3, 4, 6, and two faces showing 2").
DIE_FACES = np.array([1, 2, 2, 3, 4, 6], dtype=np.int32)
DISTINCT_FACES = np.array([1, 2, 3, 4, 6], dtype=np.int32)
FREE_MOVE_FACE = 2  # "If you roll a 2, move one Explorer (even in the dark)"

# SOURCE: assumed (GAME_DATA.md): the 7 lines of the Fano plane; every explorer is on 3
# cards and any two cards share exactly one explorer.
TEAM_CARDS = np.array(
    [
        [0, 1, 3],
        [1, 2, 4],
        [2, 3, 5],
        [3, 4, 6],
        [4, 5, 0],
        [5, 6, 1],
        [6, 0, 2],
    ],
    dtype=np.int32,
)
TEAM_SIZE = 3

# SOURCE: derived (Examples 3 to 6): caught explorers take the lowest free slot, the
# escapee the "8", the rest from nearest the exit downward.
SLOT_VALUES = np.array([1, 2, 3, 4, 5, 6, 8], dtype=np.int32)
BEST_SLOT = 6  # index of the "8"

# SOURCE: rulebook (9 x 1, 3 x 2, 1 x 3, 2 x 0; 13 placed face down, 2 returned unseen).
TOKEN_VALUES = np.array([0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3], dtype=np.int32)
NUM_TOKENS = 15
MAX_TOKEN_VALUE = 3
TOKENS_PLACED = 13
TOKENS_RETURNED = NUM_TOKENS - TOKENS_PLACED

# SOURCE: rulebook.
GUARDIAN_STEPS = 5  # the Guardian moves forward 5 spaces at the end of a round
TRAP_STEPS = 3  # a trapped explorer moves 3 forward from the Guardian's space

# Temple side. SOURCE: assumed (GAME_DATA.md: no public layout). Space 0 is the Treasure
# Chamber (start, any number of explorers) in the centre; spaces 1..47 spiral outward to the
# exit beyond space 47. The Guardian's Room is off the track, next to the chamber.
TRACK_LENGTH = 47
TREASURE_SPACES = (3, 5, 8, 12, 16, 18, 21, 25, 28, 33, 35, 42, 45)
TRAP_SPACES = (6, 14, 23, 31, 40)
LIGHTLESS_SPACES = (11, 20, 29, 38)

# (row, col) on a 7 x 7 grid, for drawing: index = space number (0 = chamber).
SPACE_GRID = np.array(
    [
        (3, 3),
        (4, 4),
        (4, 3),
        (4, 2),
        (3, 2),
        (2, 2),
        (2, 3),
        (2, 4),
        (2, 5),
        (3, 5),
        (4, 5),
        (5, 5),
        (5, 4),
        (5, 3),
        (5, 2),
        (5, 1),
        (4, 1),
        (3, 1),
        (2, 1),
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
        (1, 5),
        (1, 6),
        (2, 6),
        (3, 6),
        (4, 6),
        (5, 6),
        (6, 6),
        (6, 5),
        (6, 4),
        (6, 3),
        (6, 2),
        (6, 1),
        (6, 0),
        (5, 0),
        (4, 0),
        (3, 0),
        (2, 0),
        (1, 0),
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (0, 5),
        (0, 6),
    ],
    dtype=np.int32,
)
GUARDIAN_ROOM_GRID = (3, 4)
GRID_ROWS = 7
GRID_COLS = 7


def _flags(spaces: tuple[int, ...]) -> np.ndarray:
    flags = np.zeros(TRACK_LENGTH + 1, dtype=np.int32)
    flags[list(spaces)] = 1
    return flags


IS_TREASURE = _flags(TREASURE_SPACES)
IS_TRAP = _flags(TRAP_SPACES)
IS_LIGHTLESS = _flags(LIGHTLESS_SPACES)

assert len(TREASURE_SPACES) == TOKENS_PLACED
assert not (IS_TREASURE & IS_TRAP).any() and not (IS_TRAP & IS_LIGHTLESS).any()
assert SPACE_GRID.shape == (TRACK_LENGTH + 1, 2)
assert len({tuple(rc) for rc in SPACE_GRID} | {GUARDIAN_ROOM_GRID}) == TRACK_LENGTH + 2
