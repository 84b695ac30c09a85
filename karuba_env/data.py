"""Karuba: constant data, as plain tables a player who owns the game can correct.

Each table carries its SOURCE: "rulebook", "public" (tile photographs and open implementations
agree) or "assumed" (the rulebook is silent). docs/games/karuba.md lists the sources and, under
Assumptions, every assumed table.
"""

import numpy as np

MIN_PLAYERS = 2
MAX_PLAYERS = 4

# SOURCE: rulebook (the four colours of adventurers, temples and treasures, in its order).
COLOUR_NAMES = ("brown", "blue", "purple", "yellow")
NUM_COLOURS = 4  # one adventurer and one temple per colour on every island

# SOURCE: public. The island is 6 columns x 5 rows; cell = row * COLS + col, row 0 at the top.
ROWS = 5
COLS = 6
NUM_CELLS = ROWS * COLS
# 11 beach spaces: 1-5 down the left edge beside rows 1-5, 6-11 along the bottom below
# columns 1-6. 11 jungle (temple) spaces: 1-6 along the top above columns 1-6, 7-11 down the
# right edge beside rows 1-5. Beach 1 and jungle 1 meet at the top-left corner.
NUM_BEACH = 11
NUM_JUNGLE = 11

# Exits of a tile, one bit per side.
NORTH = 1
EAST = 2
SOUTH = 4
WEST = 8
DIRECTIONS = np.array([NORTH, EAST, SOUTH, WEST], dtype=np.int32)
DIR_ROW = np.array([-1, 0, 1, 0], dtype=np.int32)
DIR_COL = np.array([0, 1, 0, -1], dtype=np.int32)
OPPOSITE = np.array([SOUTH, WEST, NORTH, EAST], dtype=np.int32)  # the side that faces back

# Items printed on tiles. SOURCE: rulebook (a crystal is worth 1 point, a gold nugget 2).
NO_ITEM = 0
CRYSTAL = 1
GOLD = 2
ITEM_POINTS = np.array([0, 1, 2], dtype=np.int32)

# SOURCE: public (tile photographs). Tile number -> exits and item. Tiles are never rotated.
_TILE_LIST = {
    1: ("EW", ""),
    2: ("EW", ""),
    3: ("ES", "c"),
    4: ("SW", "c"),
    5: ("ESW", ""),
    6: ("ESW", ""),
    7: ("NESW", ""),
    8: ("NESW", ""),
    9: ("NE", "c"),
    10: ("NW", "c"),
    11: ("NEW", "c"),
    12: ("NEW", ""),
    13: ("EW", "c"),
    14: ("EW", "g"),
    15: ("EW", "c"),
    16: ("EW", "g"),
    17: ("NS", ""),
    18: ("NS", ""),
    19: ("EW", ""),
    20: ("EW", ""),
    21: ("ES", ""),
    22: ("SW", ""),
    23: ("NES", ""),
    24: ("NSW", ""),
    25: ("NESW", ""),
    26: ("NESW", ""),
    27: ("NE", "c"),
    28: ("NW", ""),
    29: ("NES", ""),
    30: ("NSW", ""),
    31: ("NS", "c"),
    32: ("NS", "g"),
    33: ("NS", "c"),
    34: ("NS", "g"),
    35: ("NS", ""),
    36: ("NS", ""),
}
NUM_TILES = 36
_SIDE_BITS = {"N": NORTH, "E": EAST, "S": SOUTH, "W": WEST}
_ITEM_CODES = {"": NO_ITEM, "c": CRYSTAL, "g": GOLD}
# Indexed by tile number 1..36 (index 0 = no tile).
TILE_EXITS = np.zeros(NUM_TILES + 1, dtype=np.int32)
TILE_ITEM = np.zeros(NUM_TILES + 1, dtype=np.int32)
for _number, (_sides, _item) in _TILE_LIST.items():
    TILE_EXITS[_number] = sum(_SIDE_BITS[s] for s in _sides)
    TILE_ITEM[_number] = _ITEM_CODES[_item]
TILE_EXIT_COUNT = np.array([bin(int(x)).count("1") for x in TILE_EXITS], dtype=np.int32)

# SOURCE: rulebook. Temple treasures per colour by player count, most valuable first (the
# order of the face-up stack, top to bottom).
TREASURE_VALUES = np.zeros((MAX_PLAYERS + 1, MAX_PLAYERS), dtype=np.int32)
TREASURE_VALUES[2, :2] = (5, 3)
TREASURE_VALUES[3, :3] = (5, 3, 2)
TREASURE_VALUES[4, :4] = (5, 4, 3, 2)
MAX_TREASURE = 5

# SOURCE: rulebook ("a minimum of 3 numbers distance between an adventurer and temple of the
# same color"), the option distance_rule (see docs/games/karuba.md, Assumptions):
#   "perimeter" (default): counted around either corner where the beach meets the jungle,
#       4 <= beach + jungle <= 20; every pair of the rulebook's set-up example obeys it;
#   "difference": a house rule, the two numbers differ by at least 3, |beach - jungle| >= 3; it
#       contradicts the set-up example (Luis's brown pair, beach 6 and jungle 7).
MIN_DISTANCE = 3
DISTANCE_RULES = ("perimeter", "difference")
DISTANCE_PERIMETER = 0
DISTANCE_DIFFERENCE = 1


def _edges() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    beach_cell = np.zeros(NUM_BEACH, np.int32)
    beach_side = np.zeros(NUM_BEACH, np.int32)  # the exit a tile needs to face the beach
    for b in range(5):
        beach_cell[b], beach_side[b] = b * COLS, WEST
    for b in range(5, NUM_BEACH):
        beach_cell[b], beach_side[b] = (ROWS - 1) * COLS + (b - 5), SOUTH
    jungle_cell = np.zeros(NUM_JUNGLE, np.int32)
    jungle_side = np.zeros(NUM_JUNGLE, np.int32)  # the exit a tile needs to face the temple
    for j in range(6):
        jungle_cell[j], jungle_side[j] = j, NORTH
    for j in range(6, NUM_JUNGLE):
        jungle_cell[j], jungle_side[j] = (j - 6) * COLS + COLS - 1, EAST
    return beach_cell, beach_side, jungle_cell, jungle_side


# Index 0 is space number 1.
BEACH_CELL, BEACH_SIDE, JUNGLE_CELL, JUNGLE_SIDE = _edges()


def _neighbours() -> tuple[np.ndarray, np.ndarray]:
    """NEIGHBOUR[cell, d]: the cell one step in direction d, or -1 off the island;
    EDGE_JUNGLE[cell, d]: the jungle space (0-based) one step in direction d, or -1."""
    neighbour = np.full((NUM_CELLS, 4), -1, np.int32)
    edge_jungle = np.full((NUM_CELLS, 4), -1, np.int32)
    for cell in range(NUM_CELLS):
        row, col = divmod(cell, COLS)
        for d in range(4):
            r, c = row + DIR_ROW[d], col + DIR_COL[d]
            if 0 <= r < ROWS and 0 <= c < COLS:
                neighbour[cell, d] = r * COLS + c
    for j in range(NUM_JUNGLE):
        d = int(np.flatnonzero(DIRECTIONS == JUNGLE_SIDE[j])[0])
        edge_jungle[JUNGLE_CELL[j], d] = j
    return neighbour, edge_jungle


NEIGHBOUR, EDGE_JUNGLE = _neighbours()


# SOURCE: assumed. An example fixed layout, legal under both readings of the distance rule:
# (beach, jungle) per colour in COLOUR_NAMES order.
EXAMPLE_LAYOUT = ((3, 9), (5, 2), (8, 11), (10, 5))

assert TILE_EXIT_COUNT[1:].min() >= 2
assert sorted(TILE_ITEM[1:].tolist()).count(CRYSTAL) == 10 and sorted(TILE_ITEM[1:].tolist()).count(GOLD) == 4
