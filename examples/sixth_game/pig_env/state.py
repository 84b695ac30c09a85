"""The layout of a Pig state: named offsets into the flat int32 array, the phases and the
action layout. The shared header (treasure_core.header) comes first; the game's fields follow."""

from treasure_core.header import HEADER_SIZE, PARAMS_HEADER
from treasure_core.layout import ActionLayout, Fields

from pig_env.data import DIE_SIDES, HOLD_AT, MAX_PLAYERS, MAX_TARGET, TARGETS

# Phases (kernels.phase): every decision is the same one, roll or hold.
PHASE_TURN = 0
PHASES = ("turn",)

# The action space.
ACTIONS = ActionLayout()
ROLL = ACTIONS.add("roll", 1, "roll the die: a 1 loses the turn total and ends the turn; 2-6 add to it")
HOLD = ACTIONS.add("hold", 1, "bank the turn total and pass the die (only with points in the turn)")
ROLL_ACTION = ROLL.start
HOLD_ACTION = HOLD.start
N_ACTIONS = ACTIONS.size

# Competitors: the players, or in solo (one player) the player and the automaton.
SOLO_COMPETITORS = 2
AUTOMATON = 1  # the automaton's competitor index in solo (after the player)
MAX_COMPETITORS = max(MAX_PLAYERS, SOLO_COMPETITORS)

NOBODY = -1

# How the game ended (END).
END_NONE = 0
END_TARGET = 1  # a competitor reached the target
END_ROUND_LIMIT = 2  # the guard's code (GameSpec.guard): only in infos, the kernels never set it

# What the last decision did (LAST_EVENTS bits).
EVENT_ROLL = 1  # rolled 2-6: the turn goes on
EVENT_BUST = 2  # rolled a 1: the turn total is lost
EVENT_HOLD = 4  # banked the turn total
EVENT_TARGET = 8  # reached the target: the game is over
EVENT_AUTOMATON = 16  # solo: the automaton played a turn after this decision

# Game params (after the shared params header), written by env.py from the options.
P_TARGET = PARAMS_HEADER

# The ranges of the fields. A turn below the target holds at most target - 1 points; only a
# roll reaches the target, at most a face beyond its last point. The automaton holds at HOLD_AT,
# so its turn is at most HOLD_AT / 2 rolls (of 2 or more) and HOLD_AT - 1 + a face in points.
MAX_AUTOMATON_ROLLS = (HOLD_AT + 1) // 2

# The round counter saturates here, far past the guard (data.MAX_ROUNDS), clear of overflow.
MAX_ROUND_COUNT = 10_000

_fields = Fields(HEADER_SIZE)

TARGET = _fields.add(1, "TARGET", min(TARGETS), MAX_TARGET)  # points to reach
ROUND = _fields.add(1, "ROUND", 1, MAX_ROUND_COUNT)  # from 1; a round is a turn of every competitor
END = _fields.add(1, "END", END_NONE, END_TARGET)  # END_* (the rules' only)
# points gathered in the turn of the player to act, not yet banked
TURN_TOTAL = _fields.add(1, "TURN_TOTAL", 0, MAX_TARGET - 1)
LAST_PLAYER = _fields.add(1, "LAST_PLAYER", NOBODY, MAX_PLAYERS - 1)  # who took the last decision, or NOBODY
LAST_ROLL = _fields.add(1, "LAST_ROLL", 0, DIE_SIDES)  # the face it rolled (0 for a hold)
LAST_EVENTS = _fields.add(1, "LAST_EVENTS", 0, 2 * EVENT_AUTOMATON - 1)  # EVENT_* bits
# solo: rolls in the automaton's last turn (0 before its first)
AUTOMATON_ROLLS = _fields.add(1, "AUTOMATON_ROLLS", 0, MAX_AUTOMATON_ROLLS)
# solo: points it banked in that turn (0: it rolled a 1)
AUTOMATON_GAIN = _fields.add(1, "AUTOMATON_GAIN", 0, HOLD_AT - 1 + DIE_SIDES)
SCORES = _fields.add(MAX_COMPETITORS, "SCORES", 0, MAX_TARGET + DIE_SIDES - 1)  # [competitor]: banked points
STATE_SIZE = _fields.size
GUARD_COUNTER = ROUND  # the field the guard counts (GameSpec.guard: data.MAX_ROUNDS)
STATE_FIELDS = _fields.table()  # every field's name and range, for GameSpec.state_fields
