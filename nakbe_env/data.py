"""Treasures of Nakbe: constant data, as plain tables a player who owns the game can correct.

Each table carries its SOURCE: "rulebook", "derived" (from the rulebook's examples) or
"assumed" (no public source: listed under Assumptions in docs/games/nakbe.md).
The board has two sides; every per-space table is indexed [side, space].
"""

import numpy as np

# SOURCE: rulebook (the explorers it names). The order is ours, chosen so that the team of
# Example 6 (Yellow, Blue, Purple) is team card 0 and that of Example 7 (Red, Brown, Black)
# team card 1 below.
EXPLORER_NAMES = ("purple", "yellow", "green", "blue", "red", "brown", "black")
NUM_EXPLORERS = 7
MAX_PLAYERS = 7  # one team card each

# SOURCE: rulebook ("faces 1, 3, 4, 6, and two faces showing 2").
DIE_FACES = np.array([1, 2, 2, 3, 4, 6], dtype=np.int32)
DISTINCT_FACES = np.array([1, 2, 3, 4, 6], dtype=np.int32)
FREE_MOVE_FACE = 2  # "If you roll a 2, move one Explorer (even in the dark)"

# SOURCE: assumed (docs/games/nakbe.md, Assumptions, Team cards). Every explorer is on 3 cards;
# the teams of Examples 6 and 7 are cards 0 and 1; of the sets that fit, one with the most
# pairs of cards sharing exactly one explorer: 17 of the 21 pairs share one, 2 share two and
# 2 (cards 0 and 1 among them) share none.
TEAM_CARDS = np.array(
    [
        [0, 1, 3],  # Example 6: purple, yellow, blue
        [4, 5, 6],  # Example 7: red, brown, black
        [0, 1, 4],
        [0, 2, 5],
        [1, 2, 6],
        [2, 3, 4],
        [3, 5, 6],
    ],
    dtype=np.int32,
)
TEAM_SIZE = 3

# SOURCE: derived (Examples 3 to 6): caught explorers take the lowest free slot, the
# escapee the "8", the rest from nearest the exit downward. The advanced Temple and Jungle
# Scoring Tokens carry the same values (rulebook, An Endless Threat).
SLOT_VALUES = np.array([1, 2, 3, 4, 5, 6, 8], dtype=np.int32)
BEST_SLOT = 6  # index of the "8"

# SOURCE: rulebook (9 x 1, 3 x 2, 1 x 3, 2 x 0, for each side's 15 tokens).
TOKEN_VALUES = np.array([0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3], dtype=np.int32)
NUM_TOKENS = 15
MAX_TOKEN_VALUE = 3

# SOURCE: rulebook.
GUARDIAN_STEPS = 5  # the Guardian moves forward 5 spaces at the end of a round
TRAP_STEPS = 3  # a trapped explorer moves 3 forward from the Guardian's space

# Board sides.
TEMPLE = 0
JUNGLE = 1
NUM_SIDES = 2
SIDE_NAMES = ("temple", "jungle")
START_NAMES = ("Treasure Chamber", "Jungle Entrance")  # space 0: any number of explorers
GUARDIAN_START_NAMES = ("Guardian's Room", "Stone Stairs")  # off the track, beside space 0

# -- Temple side. SOURCE: assumed (no public layout; docs/games/nakbe.md, Assumptions).
# Space 0 is the Treasure Chamber in the centre; spaces 1..47 spiral outward to the exit
# beyond space 47.
TEMPLE_TRACK_LENGTH = 47
TEMPLE_TREASURES = (3, 5, 8, 12, 16, 18, 21, 25, 28, 33, 35, 42, 45)  # rulebook: 13 spaces
TEMPLE_TRAPS = (6, 14, 23, 31, 40)
# Lightless spaces early on the track, where the Guardian soon sweeps: all remaining explorers
# on them (end C) stays rare, as the rulebook says (docs/games/nakbe.md, Assumptions).
TEMPLE_LIGHTLESS = (7, 15, 22)
# (row, col) on a 7 x 7 grid: index = space number (0 = chamber).
TEMPLE_GRID = (
    (3, 3), (4, 4), (4, 3), (4, 2), (3, 2), (2, 2), (2, 3), (2, 4), (2, 5), (3, 5),
    (4, 5), (5, 5), (5, 4), (5, 3), (5, 2), (5, 1), (4, 1), (3, 1), (2, 1), (1, 1),
    (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 6), (3, 6), (4, 6), (5, 6), (6, 6),
    (6, 5), (6, 4), (6, 3), (6, 2), (6, 1), (6, 0), (5, 0), (4, 0), (3, 0), (2, 0),
    (1, 0), (0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6),
)  # fmt: skip
TEMPLE_GUARDIAN_GRID = (3, 4)  # the Guardian's Room
TEMPLE_GRID_SHAPE = (7, 7)
TEMPLE_EXIT_NOTE = "exit after space 47 (top right)"

# -- Jungle side. SOURCE: assumed (no public layout; docs/games/nakbe.md, Assumptions).
# The Stone Stairs and the Jungle Entrance (space 0) sit at the bottom right. The track runs up
# and down the columns from the right, along the bottom to the Snakes Token at the bottom left
# (space 30, mid-track), up "the left column" (grid column 0) the snakes sweep towards the
# exit, and on up and down columns 1 and 2 to the exit beyond space 48 at the top.
JUNGLE_TRACK_LENGTH = 48
JUNGLE_TREASURES = (3, 9, 12, 17, 24, 27, 32, 38, 41, 45)  # rulebook: 10 spaces
JUNGLE_TRAPS = (15, 29, 43)
JUNGLE_LIGHTLESS = (5, 11, 19)  # early, as on the Temple side (end C stays rare)
JUNGLE_RIVERS = (18, 33)  # rulebook: two river spaces
# The two ends of the secret passage, 9 spaces apart: a shortcut forward, and a fallback that
# usually lands ahead of the Guardian.
JUNGLE_PASSAGE = (14, 23)
JUNGLE_SNAKES = 30  # where the Snakes Token starts: the bottom left
JUNGLE_GRID = (
    (6, 6),  # 0: Jungle Entrance
    (5, 6), (4, 6), (3, 6), (2, 6), (1, 6), (0, 6),  # 1-6 up the right column
    (0, 5), (1, 5), (2, 5), (3, 5), (4, 5), (5, 5), (6, 5),  # 7-13 down
    (6, 4), (5, 4), (4, 4), (3, 4), (2, 4), (1, 4), (0, 4),  # 14-20 up
    (0, 3), (1, 3), (2, 3), (3, 3), (4, 3), (5, 3), (6, 3),  # 21-27 down
    (6, 2), (6, 1), (6, 0),  # 28-30 along the bottom to the bottom left
    (5, 0), (4, 0), (3, 0), (2, 0), (1, 0), (0, 0),  # 31-36 up the left column
    (0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1),  # 37-42 down
    (5, 2), (4, 2), (3, 2), (2, 2), (1, 2), (0, 2),  # 43-48 up to the exit
)  # fmt: skip
JUNGLE_GUARDIAN_GRID = (6, 7)  # the Stone Stairs
JUNGLE_GRID_SHAPE = (7, 8)
JUNGLE_EXIT_NOTE = "exit after space 48 (top, third column)"

# -- Both sides as arrays the kernels index by [side, ...].
TRACK_LENGTHS = np.array([TEMPLE_TRACK_LENGTH, JUNGLE_TRACK_LENGTH], dtype=np.int32)
MAX_TRACK_LENGTH = max(TEMPLE_TRACK_LENGTH, JUNGLE_TRACK_LENGTH)
NUM_SPACES = MAX_TRACK_LENGTH + 1  # the start (space 0) and the longer track
TOKENS_PLACED = np.array([len(TEMPLE_TREASURES), len(JUNGLE_TREASURES)], dtype=np.int32)
MAX_TOKENS_PLACED = int(TOKENS_PLACED.max())
EXIT_NOTES = (TEMPLE_EXIT_NOTE, JUNGLE_EXIT_NOTE)

# Space kinds, as bits of SPACE_FLAGS[side, space].
TREASURE = 1
TRAP = 2
LIGHTLESS = 4
RIVER = 8
PASSAGE = 16
SNAKES = 32
NO_SPACE = -1


def _side_flags(length: int, kinds: dict[int, tuple[int, ...]]) -> np.ndarray:
    flags = np.zeros(NUM_SPACES, dtype=np.int32)
    for bit, spaces in kinds.items():
        for space in spaces:
            assert 1 <= space <= length, f"space {space} is off a {length}-space track"
            assert not flags[space], f"space {space} has two special kinds"
            flags[space] |= bit
    return flags


SPACE_FLAGS = np.stack(
    [
        _side_flags(
            TEMPLE_TRACK_LENGTH, {TREASURE: TEMPLE_TREASURES, TRAP: TEMPLE_TRAPS, LIGHTLESS: TEMPLE_LIGHTLESS}
        ),
        _side_flags(
            JUNGLE_TRACK_LENGTH,
            {
                TREASURE: JUNGLE_TREASURES,
                TRAP: JUNGLE_TRAPS,
                LIGHTLESS: JUNGLE_LIGHTLESS,
                RIVER: JUNGLE_RIVERS,
                PASSAGE: JUNGLE_PASSAGE,
                SNAKES: (JUNGLE_SNAKES,),
            },
        ),
    ]
)

# TREASURE_SPACES[side, i]: where the i-th face-down token goes (padded with NO_SPACE).
TREASURE_SPACES = np.full((NUM_SIDES, MAX_TOKENS_PLACED), NO_SPACE, dtype=np.int32)
TREASURE_SPACES[TEMPLE, : len(TEMPLE_TREASURES)] = TEMPLE_TREASURES
TREASURE_SPACES[JUNGLE, : len(JUNGLE_TREASURES)] = JUNGLE_TREASURES

# PASSAGE_OTHER_END[side, space]: the far end of a secret passage, else NO_SPACE.
PASSAGE_OTHER_END = np.full((NUM_SIDES, NUM_SPACES), NO_SPACE, dtype=np.int32)
PASSAGE_OTHER_END[JUNGLE, JUNGLE_PASSAGE[0]] = JUNGLE_PASSAGE[1]
PASSAGE_OTHER_END[JUNGLE, JUNGLE_PASSAGE[1]] = JUNGLE_PASSAGE[0]

# SPACE_GRID[side, space] = (row, col) for drawing; (-1, -1) past a shorter track's end.
SPACE_GRID = np.full((NUM_SIDES, NUM_SPACES, 2), -1, dtype=np.int32)
SPACE_GRID[TEMPLE, : TEMPLE_TRACK_LENGTH + 1] = TEMPLE_GRID
SPACE_GRID[JUNGLE, : JUNGLE_TRACK_LENGTH + 1] = JUNGLE_GRID
GUARDIAN_START_GRID = (TEMPLE_GUARDIAN_GRID, JUNGLE_GUARDIAN_GRID)
GRID_SHAPES = (TEMPLE_GRID_SHAPE, JUNGLE_GRID_SHAPE)

# The snakes' path: the jungle track spaces in grid column 0, bottom to top (rulebook: "Resolve
# the column from bottom to top").
SNAKE_COLUMN = np.array(
    sorted(
        (space for space in range(1, JUNGLE_TRACK_LENGTH + 1) if JUNGLE_GRID[space][1] == 0),
        key=lambda space: -JUNGLE_GRID[space][0],
    ),
    dtype=np.int32,
)

for _side, (_grid, _room) in enumerate(zip((TEMPLE_GRID, JUNGLE_GRID), GUARDIAN_START_GRID, strict=True)):
    assert len(_grid) == TRACK_LENGTHS[_side] + 1
    assert len(set(_grid) | {_room}) == len(_grid) + 1, "two spaces share a grid cell"
    _rows, _cols = GRID_SHAPES[_side]
    assert all(0 <= r < _rows and 0 <= c < _cols for r, c in (*_grid, _room))
assert NUM_SPACES <= 63, "kernels.advance keeps the occupied spaces in the bits of one int64"
assert SNAKE_COLUMN[0] == JUNGLE_SNAKES, "the Snakes Token starts at the bottom of the left column"
assert all(TRACK_LENGTHS[side] > GUARDIAN_STEPS for side in range(NUM_SIDES))
