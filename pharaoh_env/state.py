"""The layout of a Het goud van de Farao state: named offsets into the flat int32 array, the
phases and the action layout (docs/architecture.md, The state; docs/games/pharaoh.md).

The shared header (treasure_core.header) comes first; the game's fields follow. Per-player
blocks are [seat, ...] with MAX_PLAYERS rows; rows of seats not in the game stay zero.
"""

from pharaoh_env.data import (
    ACTIONS_PER_TURN,
    COLLAPSE_DELAY,
    EAST,
    LAMPS_PER_PLAYER,
    MASK_VALUE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NORTH,
    NUM_CELLS,
    NUM_PHOTOS,
    NUM_SLOTS,
    NUM_TILES,
    RING_DISTANCE,
    SOUTH,
    TREASURE_VALUES,
    TURN_CEILING,
    WEST,
)
from treasure_core.header import HEADER_SIZE, PARAMS_HEADER
from treasure_core.layout import ActionLayout, Fields

# Phases (kernels.phase reads PHASE).
PHASE_PLAY = 0  # the player to act spends its 3 actions (or passes), and takes/steals for free
PHASE_ORIENT = 1  # it has just turned a tile over and chooses its orientation
PHASE_PHOTO = 2  # option photo="choice": it picks a photograph from the camera
PHASES = ("play", "orient", "photo")

# CELL_STATUS values.
CLOSED = 0  # face down
OPEN = 1  # face up (the start tile is always open)
REMOVED_CLOSED = 2  # collapsed while still face down (never seen)
REMOVED_OPEN = 3  # collapsed after it was opened

# SLOT_STATE values (a treasure slot is the k-th treasure brought into play; slot 8 is the mask).
IN_STACK = 0  # not in play yet
LYING = 1  # lies on the tile SLOT_AT
CARRIED = 2  # carried by the archaeologist of player SLOT_AT
BANKED = 3  # on the player card of player SLOT_AT
LOST = 4  # removed with a collapsing tile

NOWHERE = -1  # a figure removed with its tile; a cell/player field not set
NOBODY = -1

# Option codes (state fields OPT_*; env.py compiles the options into params).
PHOTO_RANDOM = 0
PHOTO_CHOICE = 1
TREASURES_FACE_DOWN = 0
TREASURES_FACE_UP = 1
TIMER_FINDER_TURNS = 0
TIMER_ROUNDS = 1
REACH_PASSAGE = 0
REACH_ADJACENT = 1
LAMPS_BOTH = 0
LAMPS_HELPER = 1

# What ended the last turn early or happened last (LAST_EVENT bits, for renderings).
EVENT_MUMMY = 1  # a mummy sent figures to the start
EVENT_CURSE = 2  # a curse blew out lamps
EVENT_RING = 4  # a ring of tiles collapsed at the end of the last turn
EVENT_PHOTO = 8  # a photograph was taken

# How the game ended (END_CONDITION).
END_NONE = 0
END_COLLAPSE = 1  # the rings fell until only the start tile remained
# The guard's code (GameSpec.guard, data.guard_rounds): only in infos, the kernels never set it.
END_ROUND_LIMIT = 2
END_NAMES = ("not over", "collapsed", "round limit")

# Rotation targets of the helper: its own tile, then the neighbour N, E, S, W.
ROTATE_TARGETS = 5
ROTATE_TURNS = 3  # a quarter, a half or three quarters clockwise

# The flat action space (docs/games/pharaoh.md, Actions).
ACTIONS = ActionLayout()
ARCH_MOVE = ACTIONS.add(
    "arch_move",
    NUM_CELLS,
    "play, 1 action: the archaeologist moves to cell i (row i // 6, column i % 6): a neighbour through "
    "an open passage, or a tile with an own lamp joined to its own lamp tile by lamp tiles",
)
ARCH_DISCOVER = ACTIONS.add(
    "arch_discover",
    4,
    "play, 1 action: the archaeologist opens the closed tile in direction i (N, E, S, W) through a "
    "passage of its tile, and stands on it",
)
ARCH_LAMP = ACTIONS.add(
    "arch_lamp",
    2,
    "play, 1 action (option lamp_figures=both): the archaeologist places (0) or picks up (1) an own lamp "
    "on its tile",
)
TAKE = ACTIONS.add(
    "take",
    NUM_SLOTS,
    "play, free: the archaeologist picks up treasure slot i lying on its tile (8: the mask)",
)
STEAL = ACTIONS.add(
    "steal",
    NUM_SLOTS,
    "play, free: the archaeologist steals treasure slot i from another archaeologist on its tile",
)
HELPER_MOVE = ACTIONS.add(
    "helper_move", NUM_CELLS, "play, 1 action: the helper moves to cell i (as arch_move)"
)
HELPER_ROTATE = ACTIONS.add(
    "helper_rotate",
    ROTATE_TARGETS * ROTATE_TURNS,
    "play, 1 action: the helper rotates tile i // 3 (0 its own, 1-4 the neighbour N, E, S, W) by "
    "i % 3 + 1 quarter turns clockwise",
)
HELPER_LAMP = ACTIONS.add(
    "helper_lamp", 2, "play, 1 action: the helper places (0) or picks up (1) an own lamp on its tile"
)
ORIENT = ACTIONS.add("orient", 4, "orient: lay the tile just opened turned i quarter turns clockwise")
PHOTO = ACTIONS.add("photo", NUM_PHOTOS, "photo (option photo=choice): take photograph i from the camera")
PASS = ACTIONS.add("pass", 1, "play: end the turn (the actions left are lost)")
ARCH_MOVE_BASE = ARCH_MOVE.start
ARCH_DISCOVER_BASE = ARCH_DISCOVER.start
ARCH_LAMP_BASE = ARCH_LAMP.start
TAKE_BASE = TAKE.start
STEAL_BASE = STEAL.start
HELPER_MOVE_BASE = HELPER_MOVE.start
HELPER_ROTATE_BASE = HELPER_ROTATE.start
HELPER_LAMP_BASE = HELPER_LAMP.start
ORIENT_BASE = ORIENT.start
ORIENT_STOP = ORIENT.stop
PHOTO_BASE = PHOTO.start
PHOTO_STOP = PHOTO.stop
PASS_ACTION = PASS.start
N_ACTIONS = ACTIONS.size
MAX_COMPETITORS = MAX_PLAYERS  # no in-kernel opponents

# Game params after the shared params header (env.py compiles the options into these).
P_PHOTO = PARAMS_HEADER
P_TREASURES = PARAMS_HEADER + 1
P_TIMER = PARAMS_HEADER + 2
P_REACH = PARAMS_HEADER + 3
P_LAMPS = PARAMS_HEADER + 4

# Each field with its name and the range of its slots in any state a kernel may read (the state
# validator checks them, GameSpec.check_state; invariants.py checks how the fields agree).
# Ranges that depend on the player count (a seat < num_players) are checked in the invariants.
MIN_TREASURE_VALUE = int(TREASURE_VALUES.min())
LAST_RING = int(RING_DISTANCE.max())  # the largest grid distance on the pyramid

_fields = Fields(HEADER_SIZE)

# The options, as env.py compiled them (invariants.validate_state: they match the env's params).
OPT_PHOTO = _fields.add(1, "OPT_PHOTO", PHOTO_RANDOM, PHOTO_CHOICE)
OPT_TREASURES = _fields.add(1, "OPT_TREASURES", TREASURES_FACE_DOWN, TREASURES_FACE_UP)
OPT_TIMER = _fields.add(1, "OPT_TIMER", TIMER_FINDER_TURNS, TIMER_ROUNDS)
OPT_REACH = _fields.add(1, "OPT_REACH", REACH_PASSAGE, REACH_ADJACENT)
OPT_LAMPS = _fields.add(1, "OPT_LAMPS", LAMPS_BOTH, LAMPS_HELPER)
PHASE = _fields.add(1, "PHASE", PHASE_PLAY, PHASE_PHOTO)  # PHASE_*
ACTIONS_USED = _fields.add(1, "ACTIONS_USED", 0, ACTIONS_PER_TURN)  # actions spent in this turn
TURN = _fields.add(1, "TURN", 0, TURN_CEILING)  # turns finished so far (saturates at TURN_CEILING)
ROUNDS_DONE = _fields.add(1, "ROUNDS_DONE", 0, TURN_CEILING // MIN_PLAYERS)  # TURN // n: rounds over
# [cell] tile id (data.TILE_LIST); hidden while closed
CELL_TILE = _fields.add(NUM_CELLS, "CELL_TILE", 0, NUM_TILES - 1)
# [cell] CLOSED, OPEN, REMOVED_CLOSED, REMOVED_OPEN
CELL_STATUS = _fields.add(NUM_CELLS, "CELL_STATUS", CLOSED, REMOVED_OPEN)
CELL_ROT = _fields.add(NUM_CELLS, "CELL_ROT", 0, 3)  # [cell] quarter turns clockwise of an opened tile
# [cell] exits of an open tile (bits N, E, S, W); 0 otherwise
CELL_EXITS = _fields.add(NUM_CELLS, "CELL_EXITS", 0, NORTH | EAST | SOUTH | WEST)
LAMP = _fields.add(MAX_PLAYERS * NUM_CELLS, "LAMP", 0, 1)  # [seat, cell] 1: an own lamp stands there
LAMP_SUPPLY = _fields.add(MAX_PLAYERS, "LAMP_SUPPLY", 0, LAMPS_PER_PLAYER)  # [seat] lamps in front of it
LAMP_LOST = _fields.add(MAX_PLAYERS, "LAMP_LOST", 0, LAMPS_PER_PLAYER)  # [seat] removed with tiles
ARCH_CELL = _fields.add(MAX_PLAYERS, "ARCH_CELL", NOWHERE, NUM_CELLS - 1)  # [seat] its cell, or NOWHERE
HELPER_CELL = _fields.add(MAX_PLAYERS, "HELPER_CELL", NOWHERE, NUM_CELLS - 1)  # [seat] likewise
SLOT_STATE = _fields.add(NUM_SLOTS, "SLOT_STATE", IN_STACK, LOST)  # [slot] IN_STACK, LYING, CARRIED, ...
# [slot] the cell (LYING) or the player (CARRIED, BANKED); else NOWHERE
SLOT_AT = _fields.add(NUM_SLOTS, "SLOT_AT", NOWHERE, NUM_CELLS - 1)
# [slot] 2 or 3 (slot 8, the mask: 5); hidden as the rules say
SLOT_VALUE = _fields.add(NUM_SLOTS, "SLOT_VALUE", MIN_TREASURE_VALUE, MASK_VALUE)
TREASURES_DEALT = _fields.add(1, "TREASURES_DEALT", 0, NUM_SLOTS)  # slots brought into play
# The camera, shuffled; [:PHOTOS_TAKEN] are the photos taken, in order
PHOTO_ORDER = _fields.add(NUM_PHOTOS, "PHOTO_ORDER", 0, NUM_PHOTOS - 1)
PHOTOS_TAKEN = _fields.add(1, "PHOTOS_TAKEN", 0, NUM_PHOTOS)  # = the treasure chambers found
PHOTO_OWNER = _fields.add(NUM_PHOTOS, "PHOTO_OWNER", NOBODY, MAX_PLAYERS - 1)  # [photo] its taker, or NOBODY
# The tile just opened, awaiting its orientation (orient phase); else NOWHERE
PENDING_CELL = _fields.add(1, "PENDING_CELL", NOWHERE, NUM_CELLS - 1)
# The chamber whose photograph is being chosen (photo phase); else NOWHERE
CHAMBER_CELL = _fields.add(1, "CHAMBER_CELL", NOWHERE, NUM_CELLS - 1)
# The last chamber found (where the mask lay), or NOWHERE
MASK_CELL = _fields.add(1, "MASK_CELL", NOWHERE, NUM_CELLS - 1)
FINDER = _fields.add(1, "FINDER", NOBODY, MAX_PLAYERS - 1)  # who found the last chamber, or NOBODY
MASK_TURN = _fields.add(1, "MASK_TURN", 0, TURN_CEILING - 1)  # TURN during which the last chamber was found
TIMER = _fields.add(1, "TIMER", 0, COLLAPSE_DELAY)  # finder's turns (or rounds) ended since
COLLAPSE = _fields.add(1, "COLLAPSE", 0, 1)  # 1 once the collapse has started
# The ring (grid distance from MASK_CELL) that collapses next; one past the last once all fell
COLLAPSE_RING = _fields.add(1, "COLLAPSE_RING", 0, LAST_RING + 1)
# Whose turn ends bring the next ring down (the mask's holder), or NOBODY before the collapse
COLLAPSE_PLAYER = _fields.add(1, "COLLAPSE_PLAYER", NOBODY, MAX_PLAYERS - 1)
END_CONDITION = _fields.add(1, "END_CONDITION", END_NONE, END_COLLAPSE)  # END_* (the rules' only)
# EVENT_* bits of the last decision (renderings)
LAST_EVENT = _fields.add(1, "LAST_EVENT", 0, EVENT_MUMMY | EVENT_CURSE | EVENT_RING | EVENT_PHOTO)
LAST_PLAYER = _fields.add(1, "LAST_PLAYER", NOBODY, MAX_PLAYERS - 1)  # who took the last decision
STATE_SIZE = _fields.size
GUARD_COUNTER = ROUNDS_DONE  # the field the guard counts (GameSpec.guard: data.guard_rounds)
STATE_FIELDS = _fields.table()  # GameSpec.state_fields

assert LAMPS_PER_PLAYER < 32
