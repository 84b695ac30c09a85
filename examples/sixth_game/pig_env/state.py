"""The layout of a Pig state: named offsets into the flat int32 array, the phases and the
action layout. The shared header (treasure_core.header) comes first; the game's fields follow."""

from treasure_core.header import HEADER_SIZE, PARAMS_HEADER
from treasure_core.layout import ActionLayout, Fields

from pig_env.data import MAX_PLAYERS

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
END_ROUND_CAP = 2  # MAX_ROUNDS were played (data.py: a guard, not a rule)

# What the last decision did (LAST_EVENTS bits).
EVENT_ROLL = 1  # rolled 2-6: the turn goes on
EVENT_BUST = 2  # rolled a 1: the turn total is lost
EVENT_HOLD = 4  # banked the turn total
EVENT_TARGET = 8  # reached the target: the game is over
EVENT_AUTOMATON = 16  # solo: the automaton played a turn after this decision

# Game params (after the shared params header), written by env.py from the options.
P_TARGET = PARAMS_HEADER

_fields = Fields(HEADER_SIZE)

TARGET = _fields.add(1)  # points to reach
ROUND = _fields.add(1)  # from 1; a round is a turn of every competitor
END = _fields.add(1)  # END_*
TURN_TOTAL = _fields.add(1)  # points gathered in the turn of the player to act, not yet banked
LAST_PLAYER = _fields.add(1)  # who took the last decision, or NOBODY
LAST_ROLL = _fields.add(1)  # the face it rolled (0 for a hold)
LAST_EVENTS = _fields.add(1)  # EVENT_* bits
AUTOMATON_ROLLS = _fields.add(1)  # solo: rolls in the automaton's last turn (0 before its first)
AUTOMATON_GAIN = _fields.add(1)  # solo: points it banked in that turn (0: it rolled a 1)
SCORES = _fields.add(MAX_COMPETITORS)  # [competitor]: banked points
STATE_SIZE = _fields.size
