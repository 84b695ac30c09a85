"""The layout of a Tomb Trader state: named offsets into the flat int32 array, the phases and
the action layout (docs/architecture.md, The state; docs/games/tomb.md).

The shared header (treasure_core.header) comes first; the game's fields follow. Per-player
blocks have MAX_PLAYERS rows, per-card blocks NUM_CARDS, per-location blocks NUM_LOCATIONS
(Inner, Outer); rows of seats not in the game stay at their empty value.
"""

from tomb_env import data
from tomb_env.data import (
    GOLD_TOKENS,
    MAX_LOCATION_CARDS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MIN_PLAYERS,
    NUM_CARDS,
    NUM_CHARACTERS,
    NUM_LOCATIONS,
    lone_share,
)
from treasure_core.header import HEADER_SIZE, PARAMS_HEADER
from treasure_core.layout import ActionLayout, Fields

# Phases (kernels.phase reads PHASE). A round: deal, "force" (weapons used in claim order),
# "choose" (secret simultaneous location choice), "negotiate" (both locations at once),
# "call" (coin calls of the Dice and Sarcophagi collected).
PHASE_FORCE = 0
PHASE_CHOOSE = 1
PHASE_NEGOTIATE = 2
PHASE_CALL = 3
PHASES = ("force", "choose", "negotiate", "call")

NOBODY = -1
NO_CARD = -1
NO_LOCATION = -1

# Where a card is (CARD_PLACE).
PLACE_DECK = 0
PLACE_TABLE = 1  # dealt face up to a location this round (CARD_FROM says which)
PLACE_STASH = 2  # in CARD_OWNER's stash
PLACE_DISCARD = 3  # discarded, face up
# How a stashed card came (CARD_FROM besides INNER / OUTER): drawn by a Satchel.
FROM_DRAWN = 2
FROM_NONE = -1

# A coin flip (CARD_FLIP).
FLIP_NONE = 0
FLIP_WON = 1
FLIP_LOST = 2
FLIP_PENDING = 3  # collected this round, the call not yet made

# A card's effect for the next round (CARD_ACTIVE): 1 while a weapon or a Snakebite waits.
# Negotiation stage of a location (NEG_STAGE).
STAGE_IDLE = 0  # no negotiation (nobody there, or finished)
STAGE_ASSIGN = 1  # the proposer gives the next card to a player there
STAGE_TRANSFER = 2  # the proposer adds gold payments, then calls the vote
STAGE_VOTE = 3  # the others vote, secretly and simultaneously
STAGE_LONE = 4  # a lone player picks up to its share
# Outcome of a location (OUTCOME).
OUTCOME_NONE = 0  # still open
OUTCOME_EMPTY = 1  # nobody went there: its treasure is discarded
OUTCOME_DEAL = 2  # a proposal was accepted unanimously
OUTCOME_COLLAPSE = 3  # every proposal failed: the treasure is discarded
OUTCOME_LONE = 4  # one player took its share; the rest is discarded
OUTCOME_NAMES = ("open", "nobody there", "deal", "collapsed", "lone player")

VOTE_NONE = -1
VOTE_REJECT = 0
VOTE_ACCEPT = 1

# Gold payments in a proposal are 1 coin each, from a payer to a payee at the location; a
# player pays at most what it holds and never both pays and receives in one proposal, so a
# proposal makes at most as many payments as the gold held there (21 tokens in all).
PAYMENT_BOUND = GOLD_TOKENS  # not a cap: the field ranges (the gold there is the real bound)
MAX_CLAIMS = 5  # weapons in the game: at most this many uses in one round

# Claim order of simultaneous weapon uses (option claim_order).
CLAIM_RANDOM = 0
CLAIM_SEAT = 1
PROPOSALS_PER_PLAYER = 0  # option proposals="per_player"
MAX_FIXED_PROPOSALS = 2  # option proposals=1 or 2

# The flat action space (docs/games/tomb.md, Actions). Seats in actions are relative: the
# player k seats after the one deciding (k = 0: itself).
ACTIONS = ActionLayout()
FORCE = ACTIONS.add(
    "force",
    (MAX_PLAYERS - 1) * NUM_LOCATIONS,
    "force: use the weapon on the player 1 + i // 2 seats after you, sending it to location i % 2 "
    "(0 Inner, 1 Outer)",
)
FORCE_PASS = ACTIONS.add("force_pass", 1, "force: do not use the weapon")
CHOOSE = ACTIONS.add("choose", NUM_LOCATIONS, "choose: play location card i (0 Inner, 1 Outer), face down")
ASSIGN = ACTIONS.add(
    "assign", MAX_PLAYERS, "negotiate, proposer: give the next card to the player i seats after you"
)
TRANSFER = ACTIONS.add(
    "transfer",
    MAX_PLAYERS * MAX_PLAYERS,
    "negotiate, proposer: the player i // 6 seats after you pays 1 gold to the player i % 6 seats after "
    "you (repeat for more; a payer pays at most what it holds and does not also receive)",
)
PROPOSE = ACTIONS.add("propose", 1, "negotiate, proposer: the proposal is complete; call the vote")
VOTE = ACTIONS.add("vote", 2, "negotiate: vote on the proposal, secretly (0 reject, 1 accept)")
TAKE = ACTIONS.add("take", MAX_LOCATION_CARDS, "negotiate, lone player: take the card in slot i")
LEAVE = ACTIONS.add("leave", 1, "negotiate, lone player: take no more; the rest is discarded")
CALL = ACTIONS.add("call", 2, "call: call the coin flip (0 heads, 1 tails)")
FORCE_BASE = FORCE.start
FORCE_PASS_ACTION = FORCE_PASS.start
CHOOSE_BASE = CHOOSE.start
ASSIGN_BASE = ASSIGN.start
TRANSFER_BASE = TRANSFER.start
PROPOSE_ACTION = PROPOSE.start
VOTE_BASE = VOTE.start
TAKE_BASE = TAKE.start
LEAVE_ACTION = LEAVE.start
CALL_BASE = CALL.start
N_ACTIONS = ACTIONS.size
MAX_COMPETITORS = MAX_PLAYERS  # no in-kernel opponents

# Game params after the shared params header (env.py compiles the options into these).
P_PROPOSALS = PARAMS_HEADER  # PROPOSALS_PER_PLAYER, or a fixed number of proposals
P_CLAIM_ORDER = PARAMS_HEADER + 1  # CLAIM_RANDOM or CLAIM_SEAT
P_ABILITIES = PARAMS_HEADER + 2  # data.ABILITIES_BONUS_ONLY or data.ABILITIES_ASSUMED
P_DECK = PARAMS_HEADER + 3  # data.DECK_LIBRARY or data.DECK_RULEBOOK

# Bounds of the fields (each field's range holds in every real state, under every option).
MIN_ROUNDS = int(data.NUM_ROUNDS[MIN_PLAYERS:].min())
ALL_SEATS = (1 << MAX_PLAYERS) - 1  # a set of seats, as bits
MAX_LONE_SHARE = lone_share(MAX_LOCATION_CARDS, MIN_PLAYERS)

_fields = Fields(HEADER_SIZE)
PHASE = _fields.add(1, "PHASE", 0, len(PHASES) - 1)  # PHASE_*
PROPOSAL_RULE = _fields.add(1, "PROPOSAL_RULE", PROPOSALS_PER_PLAYER, MAX_FIXED_PROPOSALS)  # from P_PROPOSALS
CLAIM_ORDER = _fields.add(1, "CLAIM_ORDER", CLAIM_RANDOM, CLAIM_SEAT)  # from P_CLAIM_ORDER
# from P_ABILITIES
ABILITIES = _fields.add(1, "ABILITIES", data.ABILITIES_BONUS_ONLY, data.ABILITIES_ASSUMED)
CARD_SET = _fields.add(1, "CARD_SET", data.DECK_LIBRARY, data.DECK_RULEBOOK)  # from P_DECK: which deck
ROUND = _fields.add(1, "ROUND", 0, MAX_ROUNDS)  # the round under way, from 0
NUM_ROUNDS = _fields.add(1, "NUM_ROUNDS", MIN_ROUNDS, MAX_ROUNDS)  # 7 (3-4 players) or 6 (5-6)
# the round's lead seat: proposals and claims in seat order from it
LEAD = _fields.add(1, "LEAD", 0, MAX_PLAYERS - 1)
SUPPLY = _fields.add(1, "SUPPLY", 0, GOLD_TOKENS)  # gold tokens not held by a player
DECK_TOP = _fields.add(1, "DECK_TOP", 0, NUM_CARDS)  # DECK[DECK_TOP:] is the deck, top first
# card ids in deal order (hidden: the order of the undealt part)
DECK = _fields.add(NUM_CARDS, "DECK", 0, NUM_CARDS - 1)
CARD_PLACE = _fields.add(NUM_CARDS, "CARD_PLACE", PLACE_DECK, PLACE_DISCARD)  # [card] PLACE_*
# [card] the seat whose stash holds it, or NOBODY
CARD_OWNER = _fields.add(NUM_CARDS, "CARD_OWNER", NOBODY, MAX_PLAYERS - 1)
# [card] INNER / OUTER dealt there, FROM_DRAWN, FROM_NONE in the deck
CARD_FROM = _fields.add(NUM_CARDS, "CARD_FROM", FROM_NONE, FROM_DRAWN)
# [card] the round it was dealt or drawn in, or -1
CARD_ROUND = _fields.add(NUM_CARDS, "CARD_ROUND", -1, MAX_ROUNDS - 1)
# [card] 1: every player knows where it is (face up once)
CARD_PUBLIC = _fields.add(NUM_CARDS, "CARD_PUBLIC", 0, 1)
CARD_FLIP = _fields.add(NUM_CARDS, "CARD_FLIP", FLIP_NONE, FLIP_PENDING)  # [card] FLIP_*
# [card] 1: its effect acts in the next round (weapon, Snakebite)
CARD_ACTIVE = _fields.add(NUM_CARDS, "CARD_ACTIVE", 0, 1)
# [Satchel] the card it drew, or NO_CARD
CARD_LINK = _fields.add(NUM_CARDS, "CARD_LINK", NO_CARD, NUM_CARDS - 1)
# [location, slot] card dealt, or NO_CARD
SLOT_CARD = _fields.add(NUM_LOCATIONS * MAX_LOCATION_CARDS, "SLOT_CARD", NO_CARD, NUM_CARDS - 1)
# [location] cards dealt this round
SLOT_COUNT = _fields.add(NUM_LOCATIONS, "SLOT_COUNT", 0, MAX_LOCATION_CARDS)
# [seat] character (hidden until the end)
CHARACTER = _fields.add(MAX_PLAYERS, "CHARACTER", -1, NUM_CHARACTERS - 1)
GOLD = _fields.add(MAX_PLAYERS, "GOLD", 0, GOLD_TOKENS)  # [seat] gold coins (public)
# [seat] this round's location once revealed, or NO_LOCATION
LOCATION = _fields.add(MAX_PLAYERS, "LOCATION", NO_LOCATION, NUM_LOCATIONS - 1)
# [seat] location forced by a weapon this round, or NO_LOCATION
FORCED = _fields.add(MAX_PLAYERS, "FORCED", NO_LOCATION, NUM_LOCATIONS - 1)
SNAKE = _fields.add(MAX_PLAYERS, "SNAKE", 0, 1)  # [seat] 1: bitten, its location is drawn at the reveal
# [seat] secret location choice, or NO_LOCATION (hidden)
CHOICE = _fields.add(MAX_PLAYERS, "CHOICE", NO_LOCATION, NUM_LOCATIONS - 1)
# [round, seat] where each player was (public)
HISTORY = _fields.add(MAX_ROUNDS * MAX_PLAYERS, "HISTORY", NO_LOCATION, NUM_LOCATIONS - 1)
# [round, location] OUTCOME_*
OUTCOME = _fields.add(MAX_ROUNDS * NUM_LOCATIONS, "OUTCOME", OUTCOME_NONE, OUTCOME_LONE)
SWEEP = _fields.add(1, "SWEEP", 0, ALL_SEATS)  # seats deciding together in this step of the game (bits)
# those of them still to decide (bits); CURRENT_PLAYER is the lowest
SWEEP_LEFT = _fields.add(1, "SWEEP_LEFT", 0, ALL_SEATS)
# this round's weapon uses, in claim order
CLAIM_CARD = _fields.add(MAX_CLAIMS, "CLAIM_CARD", NO_CARD, NUM_CARDS - 1)
CLAIM_COUNT = _fields.add(1, "CLAIM_COUNT", 0, MAX_CLAIMS)
CLAIM_NEXT = _fields.add(1, "CLAIM_NEXT", 0, MAX_CLAIMS)
# the card whose coin call is being made, or NO_CARD
CALL_CARD = _fields.add(1, "CALL_CARD", NO_CARD, NUM_CARDS - 1)
NEG_STAGE = _fields.add(NUM_LOCATIONS, "NEG_STAGE", STAGE_IDLE, STAGE_LONE)  # [location] STAGE_*
# [location] seat proposing, or NOBODY
NEG_PROPOSER = _fields.add(NUM_LOCATIONS, "NEG_PROPOSER", NOBODY, MAX_PLAYERS - 1)
# [location] proposals made (the current one included)
NEG_MADE = _fields.add(NUM_LOCATIONS, "NEG_MADE", 0, MAX_PLAYERS)
NEG_LIMIT = _fields.add(NUM_LOCATIONS, "NEG_LIMIT", 0, MAX_PLAYERS)  # [location] proposals allowed
# [location] the slot the proposer assigns next
NEG_NEXT_SLOT = _fields.add(NUM_LOCATIONS, "NEG_NEXT_SLOT", 0, MAX_LOCATION_CARDS)
# [location] gold payments in the current proposal
NEG_UNITS = _fields.add(NUM_LOCATIONS, "NEG_UNITS", 0, PAYMENT_BOUND)
# [location, slot] seat, or NOBODY
NEG_ASSIGN = _fields.add(NUM_LOCATIONS * MAX_LOCATION_CARDS, "NEG_ASSIGN", NOBODY, MAX_PLAYERS - 1)
# [location, seat] net gold of the proposal
NEG_GOLD = _fields.add(NUM_LOCATIONS * MAX_PLAYERS, "NEG_GOLD", -PAYMENT_BOUND, PAYMENT_BOUND)
# [seat] vote on its location's proposal (hidden until all voted)
VOTES = _fields.add(MAX_PLAYERS, "VOTES", VOTE_NONE, VOTE_ACCEPT)
# [location] 1: a proposal failed there this round
LAST_VALID = _fields.add(NUM_LOCATIONS, "LAST_VALID", 0, 1)
# [location, slot] the failed proposal
LAST_ASSIGN = _fields.add(NUM_LOCATIONS * MAX_LOCATION_CARDS, "LAST_ASSIGN", NOBODY, MAX_PLAYERS - 1)
# [location, seat] its net gold
LAST_GOLD = _fields.add(NUM_LOCATIONS * MAX_PLAYERS, "LAST_GOLD", -PAYMENT_BOUND, PAYMENT_BOUND)
# [seat] its revealed votes, VOTE_NONE for the proposer
LAST_VOTES = _fields.add(MAX_PLAYERS, "LAST_VOTES", VOTE_NONE, VOTE_ACCEPT)
# [location, slot] 1: the lone player takes it
LONE_TAKEN = _fields.add(NUM_LOCATIONS * MAX_LOCATION_CARDS, "LONE_TAKEN", 0, 1)
# [location] how many the lone player may take
LONE_LIMIT = _fields.add(NUM_LOCATIONS, "LONE_LIMIT", 0, MAX_LONE_SHARE)
STATE_SIZE = _fields.size
GUARD_COUNTER = ROUND  # no guard: the rules end every game (GameSpec.guard is None), so it is never read
STATE_FIELDS = _fields.table()  # every field with its range (GameSpec.state_fields)


def seat_bit(seat: int) -> int:
    return 1 << seat
