"""The layout of a Treasures of Nakbe state: named offsets into the flat int32 array, the
phases and the action layout.

The shared header (treasure_core.header) comes first; the game's fields follow
(docs/architecture.md, The state).
"""

import numpy as np

from nakbe_env.data import (
    DIE_FACES,
    MAX_PLAYERS,
    MAX_TOKEN_VALUE,
    MAX_TRACK_LENGTH,
    NUM_EXPLORERS,
    NUM_SIDES,
    NUM_SPACES,
    NUM_TOKENS,
    SLOT_VALUES,
)
from treasure_core.header import HEADER_SIZE, PARAMS_HEADER
from treasure_core.layout import ActionLayout, Fields

# Phases (kernels.phase): a turn is one roll and one move, all game long.
PHASE_MOVE = 0
PHASES = ("move",)

# The action space: which explorer the die moves, or no move when none may.
ACTIONS = ActionLayout()
MOVE = ACTIONS.add("move", NUM_EXPLORERS, "move explorer i (0 Purple .. 6 Black) by the die showing")
MOVE_BASE = MOVE.start
NO_MOVE_BLOCK = ACTIONS.add("no_move", 1, "no explorer may move with the die showing: the turn passes")
NO_MOVE = NO_MOVE_BLOCK.start
N_ACTIONS = ACTIONS.size
MAX_COMPETITORS = MAX_PLAYERS  # no in-kernel opponents

# Positions: the track is 1..TRACK_LENGTHS[side]; these mark the places off it.
GUARDIAN_START = -1  # the Guardian's Room (temple) or the Stone Stairs (jungle)
START = 0  # the Treasure Chamber (temple) or the Jungle Entrance (jungle)
OFF_BOARD = -2  # caught or escaped: the explorer holds a scoring slot
EXITED = NUM_SPACES  # what a move returns when it passes the last space

# Sides of an explorer's space (EXPLORER_DARK).
LIGHT = 0
DARK = 1
IN_RIVER = 2  # counts as dark; the river holds it for one more round (Variants: The River)

NO_SLOT = -1
NO_TOKEN = -1
NOBODY = -1

# End conditions (rulebook "End of the Game"), per side in END_CONDITIONS.
END_NONE = 0
END_EXIT = 1  # A: an explorer leaves the temple
END_LAST_ONE = 2  # B: the second-to-last explorer is caught
END_LIGHTLESS = 3  # C: every remaining explorer is on a lightless space

# Jungle features (bits of FEATURES; options river, secret_passage, snakes).
FEATURE_RIVER = 1
FEATURE_PASSAGE = 2
FEATURE_SNAKES = 4

# Where a trap sends an explorer while the Guardian is still on its start (option trap_origin).
TRAP_FROM_CHAMBER = 0  # 3 forward from space 0 (the Treasure Chamber or the Jungle Entrance)
TRAP_FROM_ROOM = 1  # literal: from the Guardian's Room (Stone Stairs); space 0 is the first step

# Bits of LAST_EVENTS: what the last decision set off.
EVENT_TRAP = 1
EVENT_TREASURE = 2
EVENT_EXIT = 4
EVENT_ROUND_END = 8
EVENT_CATCH = 16  # the Guardian caught someone
EVENT_RIVER = 32
EVENT_PASSAGE = 64
EVENT_PASSAGE_CATCH = 128  # the passage brought the mover back to where the Guardian has been
EVENT_SNAKES = 256
EVENT_NEXT_GAME = 512  # An Endless Threat: the temple game ended and the jungle game began
EVENT_NO_MOVE = 1024  # the die moved nobody (every explorer dark, no 2): the turn passed

# Game params (after the shared params header), written by env.py from the options.
P_FIRST_SIDE = PARAMS_HEADER  # TEMPLE or JUNGLE
P_CAMPAIGN = PARAMS_HEADER + 1  # 1: An Endless Threat, temple game then jungle game
P_FEATURES = PARAMS_HEADER + 2  # FEATURE_* bits
P_TRAP_ORIGIN = PARAMS_HEADER + 3  # TRAP_FROM_CHAMBER or TRAP_FROM_ROOM

# The ranges of the fields (each field's inclusive low..high in every real state).
INT32_MAX = int(np.iinfo(np.int32).max)
MAX_DIE_FACE = int(DIE_FACES.max())
# Round 2 starts with the Guardian on space 0, and each later round moves it at least one
# space (five, or to the first explorer it meets); explorers stay ahead of it, so it stands
# below the last space while a game goes on: round r has it on space r - 2 or beyond.
MAX_ROUND = MAX_TRACK_LENGTH + 1
# A round lasts until every explorer is in the dark, so no rule bounds the decisions of a game;
# this cap lies far beyond any real one (random play takes a few hundred at most, the
# conformance suite calls a game stuck at 5,000) and keeps the counters clear of int32 overflow.
MAX_DECISIONS = 1_000_000

_fields = Fields(HEADER_SIZE)


SIDE = _fields.add(1, "SIDE", 0, NUM_SIDES - 1)  # the side being played: TEMPLE or JUNGLE
CAMPAIGN = _fields.add(1, "CAMPAIGN", 0, 1)  # 1: An Endless Threat (after the temple game, the jungle game)
# FEATURE_* bits in use on the jungle side
FEATURES = _fields.add(1, "FEATURES", 0, FEATURE_RIVER | FEATURE_PASSAGE | FEATURE_SNAKES)
SNAKES_WAITING = _fields.add(1, "SNAKES_WAITING", 0, 1)  # 1 while the Snakes Token is on the board
DIE = _fields.add(1, "DIE", 0, MAX_DIE_FACE)  # face showing for the player to act (0 once the game is over)
# GUARDIAN_START, START or a track space
GUARDIAN_POS = _fields.add(1, "GUARDIAN_POS", GUARDIAN_START, MAX_TRACK_LENGTH)
ROUND = _fields.add(1, "ROUND", 1, MAX_ROUND)  # round of the current game, from 1
# [side]: how the game on that side ended, END_*
END_CONDITIONS = _fields.add(NUM_SIDES, "END_CONDITIONS", END_NONE, END_LIGHTLESS)
LAST_PLAYER = _fields.add(1, "LAST_PLAYER", NOBODY, MAX_PLAYERS - 1)
LAST_EXPLORER = _fields.add(1, "LAST_EXPLORER", NOBODY, NUM_EXPLORERS - 1)
LAST_ROLL = _fields.add(1, "LAST_ROLL", NOBODY, MAX_DIE_FACE)
LAST_FROM = _fields.add(1, "LAST_FROM", NOBODY, MAX_TRACK_LENGTH)
# where the move ended (after a trap, before a passage), or EXITED
LAST_TO = _fields.add(1, "LAST_TO", NOBODY, EXITED)
LAST_EVENTS = _fields.add(1, "LAST_EVENTS", 0, 2 * EVENT_NO_MOVE - 1)
# the last explorer caught in the last decision
LAST_CAUGHT = _fields.add(1, "LAST_CAUGHT", NOBODY, NUM_EXPLORERS - 1)
EXPLORER_POS = _fields.add(NUM_EXPLORERS, "EXPLORER_POS", OFF_BOARD, MAX_TRACK_LENGTH)
EXPLORER_DARK = _fields.add(NUM_EXPLORERS, "EXPLORER_DARK", LIGHT, IN_RIVER)  # LIGHT, DARK or IN_RIVER
# [side, explorer]: SLOT_VALUES index or NO_SLOT
EXPLORER_SLOT = _fields.add(NUM_SIDES * NUM_EXPLORERS, "EXPLORER_SLOT", NO_SLOT, len(SLOT_VALUES) - 1)
# seat p holds card TEAM_CARD[p]; seats >= players: the box
TEAM_CARD = _fields.add(MAX_PLAYERS, "TEAM_CARD", 0, MAX_PLAYERS - 1)
# face-down token value per space of this side, or NO_TOKEN
SPACE_TOKEN = _fields.add(NUM_SPACES, "SPACE_TOKEN", NO_TOKEN, MAX_TOKEN_VALUE)
TOKEN_KINDS = MAX_TOKEN_VALUE + 1  # values 0..3
# [side, value]: tokens back in the box, unseen
BOX_TOKENS = _fields.add(NUM_SIDES * TOKEN_KINDS, "BOX_TOKENS", 0, NUM_TOKENS)
# [side, seat, value] held
TOKEN_VALUE_COUNTS = _fields.add(NUM_SIDES * MAX_PLAYERS * TOKEN_KINDS, "TOKEN_VALUE_COUNTS", 0, NUM_TOKENS)
# [seat, explorer] -> moves made (public)
MOVES_BY_SEAT = _fields.add(MAX_PLAYERS * NUM_EXPLORERS, "MOVES_BY_SEAT", 0, MAX_DECISIONS)
# TRAP_FROM_CHAMBER or TRAP_FROM_ROOM (option trap_origin)
TRAP_ORIGIN = _fields.add(1, "TRAP_ORIGIN", TRAP_FROM_CHAMBER, TRAP_FROM_ROOM)
# turns passed with no move (public): with MOVES_BY_SEAT, every decision
NO_MOVES = _fields.add(1, "NO_MOVES", 0, MAX_DECISIONS)
STATE_SIZE = _fields.size
GUARD_COUNTER = ROUND  # no guard: the rules end every game (GameSpec.guard is None), so it is never read
STATE_FIELDS = _fields.table()  # every field's name and range, for GameSpec.state_fields

SEAT_TOKENS = MAX_PLAYERS * TOKEN_KINDS  # the size of one side's block of TOKEN_VALUE_COUNTS
