"""The layout of a Karuba state: named offsets into the flat int32 array, the phases and the
action layout (docs/architecture.md, The state).

The shared header (treasure_core.header) comes first; the game's fields follow. Per-player
blocks are [seat, ...] with MAX_PLAYERS rows; rows of seats not in the game stay zero.
"""

from karuba_env.data import MAX_PLAYERS, NUM_BEACH, NUM_CELLS, NUM_COLOURS, NUM_JUNGLE, NUM_TILES
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
LAYOUT_RANDOM = 0
LAYOUT_DRAFT = 1
LAYOUT_FIXED = 2

_fields = Fields(HEADER_SIZE)


PHASE = _fields.add(1)
DISTANCE_RULE = _fields.add(1)  # data.DISTANCE_PERIMETER or data.DISTANCE_DIFFERENCE (option distance_rule)
END_CONDITION = _fields.add(1)
DRAFT_PICKS = _fields.add(1)  # colour pairs placed so far in the draft
DRAFT_COLOUR = _fields.add(1)  # colour whose adventurer is placed and whose temple is next, or NO_COLOUR
ADVENTURER_BEACH = _fields.add(NUM_COLOURS)  # [colour] beach number 1..11 (same on every island)
TEMPLE_JUNGLE = _fields.add(NUM_COLOURS)  # [colour] jungle number 1..11 (same on every island)
STACK = _fields.add(NUM_TILES)  # the leader's shuffled stack, tile numbers, top first
TILES_REVEALED = _fields.add(1)  # the current tile is STACK[TILES_REVEALED - 1]
STACK_TAKEN = _fields.add(NUM_COLOURS)  # [colour] treasures taken from that stack so far
PENDING = _fields.add(MAX_PLAYERS)  # [seat] decision on the current tile, or NO_ACTION (hidden)
LAST_TILE = _fields.add(1)  # the tile resolved last, or NO_TILE
LAST_ACTION = _fields.add(MAX_PLAYERS)  # [seat] decision on LAST_TILE (public once resolved)
CELL_TILE = _fields.add(MAX_PLAYERS * NUM_CELLS)  # [seat, cell] tile number, or NO_TILE
CELL_ITEM = _fields.add(MAX_PLAYERS * NUM_CELLS)  # [seat, cell] crystal/gold still lying there
ADVENTURER_POS = _fields.add(MAX_PLAYERS * NUM_COLOURS)  # [seat, colour] cell, ON_BEACH or IN_TEMPLE
TREASURE = _fields.add(MAX_PLAYERS * NUM_COLOURS)  # [seat, colour] value of the temple treasure taken
CRYSTALS_COLLECTED = _fields.add(MAX_PLAYERS)  # [seat] crystals collected from tiles
GOLD_COLLECTED = _fields.add(MAX_PLAYERS)  # [seat] gold nuggets collected from tiles
TIE_CRYSTALS = _fields.add(MAX_PLAYERS * NUM_COLOURS)  # [seat, colour] crystals making up a same-turn tie
STATE_SIZE = _fields.size
