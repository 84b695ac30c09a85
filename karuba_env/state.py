"""The layout of a Karuba state: named offsets into the flat int32 array, the phases and the
action layout (docs/architecture.md, The state).

The shared header (treasure_core.header) comes first; the game's fields follow. Per-player
blocks are [seat, ...] with MAX_PLAYERS rows; rows of seats not in the game stay zero.
"""

from karuba_env.data import (
    CRYSTAL,
    DISTANCE_RULES,
    GOLD,
    MAX_PLAYERS,
    MAX_TREASURE,
    NO_ITEM,
    NUM_BEACH,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_JUNGLE,
    NUM_TILES,
    TILE_ITEM,
    TREASURE_VALUES,
)
from treasure_core.header import HEADER_SIZE, PARAMS_HEADER
from treasure_core.layout import ActionLayout, Fields

# Phases (kernels.phase reads PHASE).
PHASE_DRAFT = 0  # players place the adventurer/temple pairs in turn (option layout="draft")
PHASE_PLAY = 1  # a tile is revealed and every player decides on it, simultaneously
PHASES = ("draft", "play")

# Adventurer positions besides the cells 0..NUM_CELLS-1.
ON_BEACH = -1  # still on its starting beach space
IN_TEMPLE = -2  # reached its temple; stays there

NOT_PLACED = 0  # a beach/jungle number before the draft has placed it (numbers start at 1)
NO_TILE = 0
NO_COLOUR = -1
NO_ACTION = -1

# End conditions (rulebook "End of the Game").
END_NONE = 0
END_TILES = 1  # the last of the 36 tiles has been played
END_TEMPLES = 2  # a player has all 4 adventurers in temples
END_NAMES = {
    END_NONE: "not over",
    END_TILES: "all 36 tiles played",
    END_TEMPLES: "all 4 adventurers in temples",
}

# The flat action space (docs/games/karuba.md, Actions). Play: lay the tile on a cell; discard it
# and move an adventurer to a target (a cell, or its own temple); discard it and move nobody.
# Draft: place an adventurer (colour x beach); then its temple (jungle).
MOVE_TARGETS = NUM_CELLS + 1  # cells, then the adventurer's own temple
TEMPLE_TARGET = NUM_CELLS
ACTIONS = ActionLayout()
PLACE = ACTIONS.add("place", NUM_CELLS, "play: lay the tile, unrotated, on cell i (row i // 6, column i % 6)")
MOVE = ACTIONS.add(
    "move",
    NUM_COLOURS * MOVE_TARGETS,
    "play: discard the tile and move adventurer i // 31 (brown, blue, purple, yellow) to target "
    "i % 31 (a cell, or 30: its own temple)",
)
DISCARD_ACTION = ACTIONS.add("discard", 1, "play: discard the tile without moving")
DRAFT_ADVENTURER = ACTIONS.add(
    "draft_adventurer", NUM_COLOURS * NUM_BEACH, "draft: place adventurer i // 11 on beach i % 11 + 1"
)
DRAFT_TEMPLE = ACTIONS.add("draft_temple", NUM_JUNGLE, "draft: place the adventurer's temple on jungle i + 1")
PLACE_BASE = PLACE.start
MOVE_BASE = MOVE.start
DISCARD = DISCARD_ACTION.start
N_PLAY_ACTIONS = DISCARD + 1
DRAFT_ADVENTURER_BASE = DRAFT_ADVENTURER.start
DRAFT_TEMPLE_BASE = DRAFT_TEMPLE.start
N_ACTIONS = ACTIONS.size
MAX_COMPETITORS = MAX_PLAYERS  # no in-kernel opponents

# Game params after the shared params header (env.py compiles the options into these).
P_LAYOUT = PARAMS_HEADER  # LAYOUT_RANDOM, LAYOUT_DRAFT or LAYOUT_FIXED
P_DISTANCE_RULE = PARAMS_HEADER + 1
P_FIXED_BEACH = PARAMS_HEADER + 2  # NUM_COLOURS beach numbers (LAYOUT_FIXED)
P_FIXED_JUNGLE = P_FIXED_BEACH + NUM_COLOURS  # NUM_COLOURS jungle numbers (LAYOUT_FIXED)
# 1: the observation ends with the decision previews; 0 (previews=False): it stops before them.
# Only GAME.dims reads it (the observation's size); observe writes the features its out holds.
P_PREVIEWS = P_FIXED_JUNGLE + NUM_COLOURS
LAYOUT_RANDOM = 0
LAYOUT_DRAFT = 1
LAYOUT_FIXED = 2

# The ranges of the fields: what one island can collect is what the 36 tiles carry.
CRYSTAL_TILES = int((TILE_ITEM == CRYSTAL).sum())
GOLD_TILES = int((TILE_ITEM == GOLD).sum())
# Tie crystals make a treasure up to the top one of its stack.
MAX_TIE = MAX_TREASURE - int(TREASURE_VALUES[TREASURE_VALUES > 0].min())

_fields = Fields(HEADER_SIZE)


PHASE = _fields.add(1, "PHASE", PHASE_DRAFT, PHASE_PLAY)
# data.DISTANCE_PERIMETER or data.DISTANCE_DIFFERENCE (option distance_rule)
DISTANCE_RULE = _fields.add(1, "DISTANCE_RULE", 0, len(DISTANCE_RULES) - 1)
END_CONDITION = _fields.add(1, "END_CONDITION", END_NONE, END_TEMPLES)
DRAFT_PICKS = _fields.add(1, "DRAFT_PICKS", 0, NUM_COLOURS)  # colour pairs placed so far in the draft
# colour whose adventurer is placed and whose temple is next, or NO_COLOUR
DRAFT_COLOUR = _fields.add(1, "DRAFT_COLOUR", NO_COLOUR, NUM_COLOURS - 1)
# [colour] beach number 1..11 (same on every island)
ADVENTURER_BEACH = _fields.add(NUM_COLOURS, "ADVENTURER_BEACH", NOT_PLACED, NUM_BEACH)
# [colour] jungle number 1..11 (same on every island)
TEMPLE_JUNGLE = _fields.add(NUM_COLOURS, "TEMPLE_JUNGLE", NOT_PLACED, NUM_JUNGLE)
STACK = _fields.add(NUM_TILES, "STACK", 1, NUM_TILES)  # the leader's shuffled stack, tile numbers, top first
# the current tile is STACK[TILES_REVEALED - 1]
TILES_REVEALED = _fields.add(1, "TILES_REVEALED", 0, NUM_TILES)
# [colour] treasures taken from that stack so far
STACK_TAKEN = _fields.add(NUM_COLOURS, "STACK_TAKEN", 0, MAX_PLAYERS)
# [seat] decision on the current tile, or NO_ACTION (hidden)
PENDING = _fields.add(MAX_PLAYERS, "PENDING", NO_ACTION, N_PLAY_ACTIONS - 1)
LAST_TILE = _fields.add(1, "LAST_TILE", NO_TILE, NUM_TILES)  # the tile resolved last, or NO_TILE
# [seat] decision on LAST_TILE (public once resolved)
LAST_ACTION = _fields.add(MAX_PLAYERS, "LAST_ACTION", NO_ACTION, N_PLAY_ACTIONS - 1)
# [seat, cell] tile number, or NO_TILE
CELL_TILE = _fields.add(MAX_PLAYERS * NUM_CELLS, "CELL_TILE", NO_TILE, NUM_TILES)
# [seat, cell] crystal/gold still lying there
CELL_ITEM = _fields.add(MAX_PLAYERS * NUM_CELLS, "CELL_ITEM", NO_ITEM, GOLD)
# [seat, colour] cell, ON_BEACH or IN_TEMPLE
ADVENTURER_POS = _fields.add(MAX_PLAYERS * NUM_COLOURS, "ADVENTURER_POS", IN_TEMPLE, NUM_CELLS - 1)
# [seat, colour] value of the temple treasure taken
TREASURE = _fields.add(MAX_PLAYERS * NUM_COLOURS, "TREASURE", 0, MAX_TREASURE)
# [seat] crystals collected from tiles
CRYSTALS_COLLECTED = _fields.add(MAX_PLAYERS, "CRYSTALS_COLLECTED", 0, CRYSTAL_TILES)
# [seat] gold nuggets collected from tiles
GOLD_COLLECTED = _fields.add(MAX_PLAYERS, "GOLD_COLLECTED", 0, GOLD_TILES)
# [seat, colour] crystals making up a same-turn tie
TIE_CRYSTALS = _fields.add(MAX_PLAYERS * NUM_COLOURS, "TIE_CRYSTALS", 0, MAX_TIE)
STATE_SIZE = _fields.size
GUARD_COUNTER = TILES_REVEALED  # no guard: the stack runs out (GameSpec.guard is None), so it is never read
STATE_FIELDS = _fields.table()  # every field's name and range, for GameSpec.state_fields
