"""Het goud van de Farao: constant data, as plain tables a player who owns the game can correct.

Each table carries its SOURCE: "rulebook" (shared/rulebooks/het_goud_van_de_farao.txt) or
"assumed" (no public component list; ../shared/GAME_DATA.md records the decisions).
docs/games/pharaoh.md lists every assumed table under Assumptions.
"""

import numpy as np

MIN_PLAYERS = 2
MAX_PLAYERS = 4

# SOURCE: rulebook ("arrange the pyramid tiles in a 6 x 6 square"). cell = row * COLS + col,
# row 0 at the top.
ROWS = 6
COLS = 6
NUM_CELLS = ROWS * COLS

# SOURCE: assumed. The start tile (entrance) lies in the middle of the bottom edge: row 6,
# column 3 (counting from 1). The other 35 cells hold the shuffled pyramid tiles.
START_CELL = (ROWS - 1) * COLS + 2

# Exits of a tile, one bit per side; directions in the order N, E, S, W.
NORTH = 1
EAST = 2
SOUTH = 4
WEST = 8
DIRECTIONS = np.array([NORTH, EAST, SOUTH, WEST], dtype=np.int32)
DIRECTION_NAMES = ("north", "east", "south", "west")
OPPOSITE = np.array([SOUTH, WEST, NORTH, EAST], dtype=np.int32)  # the side that faces back
_DR = (-1, 0, 1, 0)
_DC = (0, 1, 0, -1)
# [cell, direction] -> the neighbouring cell, or -1 off the pyramid.
NEIGHBOUR = np.array(
    [
        [
            (r + _DR[d]) * COLS + (c + _DC[d]) if 0 <= r + _DR[d] < ROWS and 0 <= c + _DC[d] < COLS else -1
            for d in range(4)
        ]
        for r in range(ROWS)
        for c in range(COLS)
    ],
    dtype=np.int32,
)
# [cell, cell] -> grid (Manhattan) distance: the collapse removes ring after ring of it.
RING_DISTANCE = np.array(
    [
        [abs(a // COLS - b // COLS) + abs(a % COLS - b % COLS) for b in range(NUM_CELLS)]
        for a in range(NUM_CELLS)
    ],
    dtype=np.int32,
)


def rotate_exits(exits: int, quarter_turns: int) -> int:
    """Exits after `quarter_turns` clockwise quarter turns (N -> E -> S -> W -> N)."""
    for _ in range(quarter_turns % 4):
        exits = ((exits << 1) | (exits >> 3)) & 15
    return exits


# [exits, quarter turns] -> exits after the turns, for the kernels.
ROTATED = np.array([[rotate_exits(e, k) for k in range(4)] for e in range(16)], dtype=np.int32)

# Tile kinds.
CORRIDOR = 0
CHAMBER = 1
START = 2

# SOURCE: assumed (GAME_DATA.md): the 30 corridor tiles are 10 corners, 8 straights,
# 8 T-junctions and 4 crossroads, no dead ends; the 5 treasure chambers have one opening; the
# start tile is open on every side. Exits are given unrotated; a tile's orientation is chosen
# when it is discovered. Tile ids: 0-29 corridors, 30-34 chambers, 35 the start tile.
_CORNER, _STRAIGHT, _T_JUNCTION, _CROSSROADS = NORTH | EAST, NORTH | SOUTH, NORTH | EAST | SOUTH, 15
TILE_LIST = (
    [("corner", _CORNER)] * 10
    + [("straight", _STRAIGHT)] * 8
    + [("T-junction", _T_JUNCTION)] * 8
    + [("crossroads", _CROSSROADS)] * 4
    + [("chamber", NORTH)] * 5
    + [("start", 15)]
)
NUM_TILES = len(TILE_LIST)  # 36: one per cell
NUM_PYRAMID_TILES = NUM_TILES - 1  # the 35 shuffled face down
START_TILE = NUM_TILES - 1
NUM_CHAMBERS = sum(1 for name, _ in TILE_LIST if name == "chamber")
TILE_NAMES = tuple(name for name, _ in TILE_LIST)
TILE_EXITS = np.array([exits for _, exits in TILE_LIST], dtype=np.int32)
TILE_KIND = np.array(
    [CHAMBER if name == "chamber" else START if name == "start" else CORRIDOR for name, _ in TILE_LIST],
    dtype=np.int32,
)

# SOURCE: rulebook ("treasures are worth 2 or 3 points"; the mask 5) and assumed (4 x 2 and 4 x 3).
TREASURE_VALUES = np.array([2, 2, 2, 2, 3, 3, 3, 3], dtype=np.int32)
NUM_TREASURES = len(TREASURE_VALUES)
MASK_VALUE = 5
MASK_SLOT = NUM_TREASURES  # the mask is always the last treasure brought into play
NUM_SLOTS = NUM_TREASURES + 1

# SOURCE: assumed (GAME_DATA.md): the 5 photographs, each worth 1 point (rulebook), as
# (treasures placed, mummy, curse). The treasures add up to the 8 tokens; the mask joins the
# fifth chamber found.
PHOTO_LIST = ((2, 0, 0), (2, 0, 0), (2, 1, 0), (1, 0, 1), (1, 0, 0))
NUM_PHOTOS = len(PHOTO_LIST)
PHOTO_POINTS = 1
PHOTO_TREASURES = np.array([t for t, _, _ in PHOTO_LIST], dtype=np.int32)
PHOTO_MUMMY = np.array([m for _, m, _ in PHOTO_LIST], dtype=np.int32)
PHOTO_CURSE = np.array([c for _, _, c in PHOTO_LIST], dtype=np.int32)
assert PHOTO_TREASURES.sum() == NUM_TREASURES and NUM_PHOTOS == NUM_CHAMBERS

# SOURCE: rulebook.
LAMPS_PER_PLAYER = 5  # 20 lamps for 4 players
ACTIONS_PER_TURN = 3
COLLAPSE_DELAY = 3  # the collapse starts after 3 turns of the finder (or 3 rounds, an option)
ARCHAEOLOGIST_PENALTY = 2
HELPER_PENALTY = 1

# SOURCE: assumed; a guard, not a rule (GameSpec.guard, docs/games/pharaoh.md, The guard).
# Players can keep the last chambers face down for a very long time (walled off, or never
# opened), and the collapse, the only end, starts after the last chamber is found. Once
# guard_rounds(n) rounds (n turns each) are over the drivers cut the game: a truncation, never
# an end with a winner. The limit is GUARD_TURNS turns of all players together, in rounds, so
# every player count gets the same number of turns: random play then reaches the collapse in
# 97-99% of games (benchmarks/pharaoh_endings.py; its 95th percentile is about 3,700 turns with
# 2 players, 2,900 with 3 and 2,500 with 4).
GUARD_TURNS = 5000


def guard_rounds(num_players: int) -> int:
    """The guard's limit in rounds for `num_players` (GUARD_TURNS turns)."""
    return GUARD_TURNS // num_players


# The turn counter saturates here (the kernels never end a game by it; the guard cuts far sooner).
TURN_CEILING = 1 << 20

PLAYER_COLOURS = ("red", "blue", "green", "yellow")
