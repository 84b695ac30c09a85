"""Pig: constant data. The rules are the classic dice game's (John Scarne, "Scarne on Dice",
1945): roll a die as often as you like; a 1 ends your turn and loses what the turn gathered;
"hold" banks the turn total; the first to reach the target wins."""

DIE_SIDES = 6
BUST_FACE = 1  # rule: a 1 loses the turn total and ends the turn

# Options.
MIN_PLAYERS = 1  # one player races the solo automaton (kernels.automaton_turn)
MAX_PLAYERS = 4
DEFAULT_PLAYERS = 2
TARGETS = (50, 100)  # rule: first to reach the target wins (100 in Scarne; 50 for shorter games)
DEFAULT_TARGET = 50
MAX_TARGET = max(TARGETS)

# The solo automaton's rule, and the scripted bot's: hold once the turn holds this many points.
HOLD_AT = 20

# Guard, not a rule of Pig: a game ends after this many rounds (every competitor has had a
# turn), the highest score winning. Every game ends anyway (a turn banks points, or rolls on
# until a 1 or the target), but not within a bound: a policy that never holds reaches the target
# in about one turn in 10 at target 50, one in 98 at target 100. A player who holds at 20
# reaches 100 in about 12 turns, so no real game gets near the cap.
MAX_ROUNDS = 100
