"""The layout of a Nakum state: named offsets into the flat int32 array, the phases and the
action layout (docs/architecture.md, The state; docs/games/nakum.md, State fields).

The shared header (treasure_core.header) comes first. Per-seat blocks have MAX_PLAYERS rows
(seat-major); rows of seats not in the game stay zero. Seats are written seat + 1 where 0
means "nobody". The fields marked "reserved" belong to the Cenote, Destiny and Forest; they
are zero in the base game. The solo block (BOT_*, START_BLOCKED, VARIANT[3]) is Chaak'Bot's
(nakum_env/chaakbot.py; the bot is competitor 1 and uses seat 1's rows).
"""

from nakum_env.data import (
    BLACK_CUBES,
    BOARD_TILES,
    BOT_DRAW,
    BOT_SEAT,
    GOODS,
    MARKET_SHOWN,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MAX_POSITIONS,
    MAX_SPACES,
    MAX_TSEEK,
    MIN_WORKERS,
    NUM_BOOSTS,
    NUM_BOT_CARDS,
    NUM_CLANS,
    NUM_DESTINY,
    NUM_HERITAGE,
    NUM_MARKET,
    NUM_OFFERINGS,
    NUM_RES,
    NUM_TILES,
    OFFERINGS_SHOWN,
    PITUK_SPACES,
    REVEAL_AT_SETUP,
    STEAL_OPTIONS,
    WORKERS_PER_COLOUR,
)
from treasure_core.header import HEADER_SIZE, PARAMS_HEADER
from treasure_core.layout import ActionLayout, Fields

# Phases (kernels.phase reads PHASE).
PHASE_HERITAGE = 0  # set-up: every player plays 1 of its 3 Heritage cards, simultaneously
PHASE_REVEAL = 1  # set-up: the first players reveal a face-down tile each (1 with 2 players)
PHASE_DAY = 2  # one worker per action, in turn order
PHASE_EFFECT = 3  # the player to act resolves a Market icon or the Pituk's favour
PHASES = ("heritage", "reveal", "day", "effect")

# Pending effects (PHASE_EFFECT).
EFFECT_NONE = 0
EFFECT_STEAL = 1  # a steal icon: choose an option and a victim
EFFECT_FREE = 2  # a free-an-Encampment icon: remove a black cube
EFFECT_FAVOUR = 3  # the Pituk's favour: refresh the Offerings or keep them
# Cenote (nakum_env/cenote.py): the player decides which goods its tseek' replace in a payment.
EFFECT_PAY = 4

# Where a card is. Heritage: HERITAGE_HOLDER seat + 1 (0: the box); HERITAGE_PLAYED 1 once played.
# Offerings: OFFERING_WHERE; OFFERING_OWNER seat + 1 when taken.
OFFER_IN_DECK, OFFER_SHOWN, OFFER_DISCARD, OFFER_TAKEN = 0, 1, 2, 3
NO_CARD = -1
NO_TILE = -1

# End conditions.
END_NONE = 0
END_OFFERINGS = 1  # a player has 2 Offerings: the round finished, no night
# The guard's code (GameSpec.guard, data.MAX_ROUNDS): only in infos, the kernels never set it.
END_ROUND_LIMIT = 2
END_NAMES = ("not over", "two offerings", "round limit")

# Cube targets of the free-an-Encampment icon, after the Encampment options.
N_OPTION_SLOTS = MAX_POSITIONS * 2 * MAX_OPTIONS  # [position, side, option]
CUBE_PITUK = N_OPTION_SLOTS  # + Pituk space
CUBE_INCREASE = N_OPTION_SLOTS + PITUK_SPACES  # the first-round block on "Increase the clan"
CUBE_START = CUBE_INCREASE + 1  # Chaak'Bot's block on the start-player space (solo)
N_CUBE_TARGETS = CUBE_START + 1
N_SEAT_OFFSETS = MAX_PLAYERS - 1  # other players, as seats after the actor

# The flat action space (docs/games/nakum.md, Actions).
ACTIONS = ActionLayout()
HERITAGE_SETUP = ACTIONS.add("heritage_setup", NUM_HERITAGE, "set-up: play Heritage card i (simultaneous)")
REVEAL = ACTIONS.add("reveal", MAX_POSITIONS, "set-up: reveal the face-down tile at position i")
SPACE = ACTIONS.add(
    "space", MAX_POSITIONS * MAX_SPACES, "worker on resource space i % 3 of the tile at position i // 3"
)
MARKET_ACTION = ACTIONS.add(
    "market",
    MAX_POSITIONS * MARKET_SHOWN,
    "worker on the Market space of position i // 5; acquire the Market card in slot i % 5",
)
HERITAGE_ACTION = ACTIONS.add(
    "heritage",
    MAX_POSITIONS * NUM_HERITAGE,
    "worker on the Heritage space of position i // 12; play Heritage card i % 12",
)
ENCAMPMENT = ACTIONS.add(
    "encampment",
    N_OPTION_SLOTS,
    "worker on Encampment (i // 2) % 2 (left, right) of position i // 4; take its option i % 2",
)
EXPLORE = ACTIONS.add("explore", MAX_POSITIONS, "worker explores the face-down tile at position i (+1 VP)")
OFFERING = ACTIONS.add("offering", OFFERINGS_SHOWN, "2 workers to the Pyramid: make the Offering in slot i")
PITUK = ACTIONS.add("pituk", 1, "worker to the Grand Priest Pituk (+1 VP, then his favour)")
START_PLAYER = ACTIONS.add("start_player", 1, "worker takes the starting player marker")
INCREASE = ACTIONS.add("increase", 1, "2 workers increase the clan (+1 worker from the reserve next round)")
PASS = ACTIONS.add("pass", 1, "the worker stays idle (only when nothing else is legal)")
STEAL = ACTIONS.add(
    "steal", STEAL_OPTIONS * N_SEAT_OFFSETS, "steal icon: option i // 3 from the player i % 3 + 1 seats on"
)
FREE = ACTIONS.add(
    "free",
    N_CUBE_TARGETS,
    "free icon: remove the cube from Encampment option i (< 32), Pituk space i - 32, or block i - 34",
)
FAVOUR = ACTIONS.add("favour", 2, "the Pituk's favour: 0 keep the Offerings, 1 replace them with 2 new")
# -- Cenote (issue 16; nakum_env/cenote.py) --
CENOTE_DESTINATIONS = 1 + OFFERINGS_SHOWN  # left on the Cenote, or on the Offering in slot 0 / 1
CENOTE = ACTIONS.add(
    "cenote",
    NUM_BOOSTS * CENOTE_DESTINATIONS,
    "worker sacrificed at the Cenote for a tseek', boost i // 3 (0 none, 1: +1 VP, 2: +2 VP); "
    "left on the Cenote (i % 3 = 0) or on the Offering in slot i % 3 - 1",
)
WILD = ACTIONS.add("wild", GOODS, "paying: a tseek' replaces 1 good i (corn, skin, mask)")
WILD_SACRIFICE = ACTIONS.add(
    "wild_sacrifice", 1, "paying an Offering with your worker on it: a tseek' pays 1 sacrifice"
)
PAY_DONE = ACTIONS.add("pay_done", 1, "paying: the rest in goods; the action goes on")
N_ACTIONS = ACTIONS.size
MAX_COMPETITORS = MAX_PLAYERS  # the solo mode's Chaak'Bot is competitor 1
SOLO_COMPETITORS = 2  # solo: the human (seat 0) and Chaak'Bot
BOT_MARK = BOT_SEAT + 1  # seat marks (seat + 1) of Chaak'Bot's markers, cards and Offerings
BOT_FACE_DOWN = NUM_BOT_CARDS  # added to a drawn card's id while it lies face down (hard mode)

# Game params after the shared params header (env.py compiles the options into these).
# -- Cenote, Destiny, Forest (issue 16) --
P_CENOTE = PARAMS_HEADER  # 1: the Cenote tile (the Forest turns it on)
P_DESTINY = PARAMS_HEADER + 1  # 1: a secret Destiny card each
P_FOREST = PARAMS_HEADER + 2  # 1: all 8 tiles, the Pituk from the first turn
# -- solo (issue 16): solo itself is num_players == 1 --
P_SOLO_HARD = PARAMS_HEADER + 3  # 1: Chaak'Bot's hard mode (solo only)
# VARIANT's flags (init copies the params there; the kernels read only the state).
V_CENOTE, V_DESTINY, V_FOREST, V_SOLO_HARD = 0, 1, 2, 3

# No rule bounds the days or a player's VP tokens: these caps lie far beyond any real game (a
# game ends in tens of days) and keep the kernels' increments clear of int32 overflow.
MAX_ROUND = 10_000
MAX_RESOURCE = 10_000

# Every field with its name and inclusive range (GameSpec.state_fields; the validator checks each
# slot against it, and invariants.check_invariants the consistency between fields).
_fields = Fields(HEADER_SIZE)
PHASE = _fields.add(1, "PHASE", 0, len(PHASES) - 1)  # PHASE_*
ROUND = _fields.add(1, "ROUND", 1, MAX_ROUND)  # 1, 2, ...: the current day
END_CONDITION = _fields.add(1, "END_CONDITION", END_NONE, END_OFFERINGS)  # END_* (the rules' only)
START = _fields.add(1, "START", 0, MAX_PLAYERS - 1)  # seat holding the starting player marker
LEADER = _fields.add(
    1, "LEADER", 0, MAX_PLAYERS - 1
)  # seat that began the current day (the marker may move during it)
REVEALS_LEFT = _fields.add(1, "REVEALS_LEFT", 0, max(REVEAL_AT_SETUP))  # set-up tiles still to reveal
INCREASE_BLOCKED = _fields.add(1, "INCREASE_BLOCKED", 0, 1)  # 1: the set-up cube covers "Increase the clan"
START_BLOCKED = _fields.add(
    1, "START_BLOCKED", 0, 1
)  # solo: Chaak'Bot's cube on the start-player space until the night
CUBE_RESERVE = _fields.add(1, "CUBE_RESERVE", 0, BLACK_CUBES)  # black cubes off the board
OFFERINGS_MADE = _fields.add(1, "OFFERINGS_MADE", 0, NUM_OFFERINGS)  # Offerings completed so far, by everyone
EFFECT = _fields.add(1, "EFFECT", EFFECT_NONE, EFFECT_PAY)  # EFFECT_* pending for the player to act
EFFECT_CARD = _fields.add(
    1, "EFFECT_CARD", NO_CARD, NUM_MARKET - 1
)  # the Market card whose icon is pending, or NO_CARD
LAST_ACTION = _fields.add(1, "LAST_ACTION", -1, N_ACTIONS - 1)  # the last action taken (public), or -1
LAST_ACTOR = _fields.add(1, "LAST_ACTOR", -1, MAX_PLAYERS - 1)  # who took it
# The board: positions around the Pyramid.
POSITIONS = _fields.add(1, "POSITIONS", BOARD_TILES, MAX_POSITIONS)  # positions in use (6; the Forest: 8)
TILE_AT = _fields.add(
    MAX_POSITIONS, "TILE_AT", NO_TILE, NUM_TILES - 1
)  # [position] tile id, or NO_TILE (hidden while face down)
REVEALED = _fields.add(MAX_POSITIONS, "REVEALED", 0, 1)  # [position] 1 once face up
EXPLORER = _fields.add(
    MAX_POSITIONS, "EXPLORER", 0, MAX_PLAYERS
)  # [position] seat + 1 of the expedition (face down until night)
SPACE_WORKER = _fields.add(
    MAX_POSITIONS * MAX_SPACES * 2, "SPACE_WORKER", 0, MAX_PLAYERS
)  # [position, space, place] seat + 1
ENCAMP_WORKER = _fields.add(
    MAX_POSITIONS * 2, "ENCAMP_WORKER", 0, MAX_PLAYERS
)  # [position, side] seat + 1 on the firepit
OPTION_CUBE = _fields.add(
    N_OPTION_SLOTS, "OPTION_CUBE", 0, 1
)  # [position, side, option] 1: covered by a cube
PITUK_CUBE = _fields.add(PITUK_SPACES, "PITUK_CUBE", 0, 1)  # [space] 1: used up
PITUK_WORKER = _fields.add(PITUK_SPACES, "PITUK_WORKER", 0, MAX_PLAYERS)  # [space] seat + 1 this day
START_WORKER = _fields.add(1, "START_WORKER", 0, MAX_PLAYERS)  # seat + 1 on the start-player space
INCREASE_WORKER = _fields.add(
    1, "INCREASE_WORKER", 0, MAX_PLAYERS
)  # seat + 1 whose 2 workers (and a reserve worker) are there
# Cards.
MARKET_DECK = _fields.add(
    NUM_MARKET, "MARKET_DECK", 0, NUM_MARKET - 1
)  # the draw pile, bottom first (hidden order)
MARKET_DECK_COUNT = _fields.add(1, "MARKET_DECK_COUNT", 0, NUM_MARKET)
MARKET_SLOT = _fields.add(
    MARKET_SHOWN, "MARKET_SLOT", NO_CARD, NUM_MARKET - 1
)  # [slot] card id, or NO_CARD; filled from the left
MARKET_OWNER = _fields.add(NUM_MARKET, "MARKET_OWNER", 0, MAX_PLAYERS)  # [card] seat + 1 who acquired it
OFFER_DECK = _fields.add(
    NUM_OFFERINGS, "OFFER_DECK", 0, NUM_OFFERINGS - 1
)  # the draw pile, bottom first (hidden order)
OFFER_DECK_COUNT = _fields.add(1, "OFFER_DECK_COUNT", 0, NUM_OFFERINGS)
OFFER_SLOT = _fields.add(
    OFFERINGS_SHOWN, "OFFER_SLOT", NO_CARD, NUM_OFFERINGS - 1
)  # [slot] card id, or NO_CARD
OFFERING_WHERE = _fields.add(NUM_OFFERINGS, "OFFERING_WHERE", OFFER_IN_DECK, OFFER_TAKEN)  # [card] OFFER_*
OFFERING_OWNER = _fields.add(
    NUM_OFFERINGS, "OFFERING_OWNER", 0, MAX_PLAYERS
)  # [card] seat + 1 who completed it
HERITAGE_HOLDER = _fields.add(
    NUM_HERITAGE, "HERITAGE_HOLDER", 0, MAX_PLAYERS
)  # [card] seat + 1 holding or having played it; 0 box
HERITAGE_PLAYED = _fields.add(NUM_HERITAGE, "HERITAGE_PLAYED", 0, 1)  # [card] 1 once played (public)
PENDING = _fields.add(
    MAX_PLAYERS, "PENDING", NO_CARD, NUM_HERITAGE - 1
)  # [seat] set-up Heritage choice, hidden until all chose; -1
# The players.
CLAN = _fields.add(MAX_PLAYERS, "CLAN", 0, NUM_CLANS - 1)  # [seat] clan id (public)
RES = _fields.add(MAX_PLAYERS * NUM_RES, "RES", 0, MAX_RESOURCE)  # [seat, resource] warehouse and VP tokens
OWNED = _fields.add(
    MAX_PLAYERS, "OWNED", 0, WORKERS_PER_COLOUR
)  # [seat] workers in the player's hands (not in the reserve)
AVAILABLE = _fields.add(
    MAX_PLAYERS, "AVAILABLE", 0, WORKERS_PER_COLOUR
)  # [seat] workers still to place this day
NEW_WORKERS = _fields.add(
    MAX_PLAYERS, "NEW_WORKERS", 0, WORKERS_PER_COLOUR
)  # [seat] reserve workers joining at night (increase)
PYRAMID_WORKERS = _fields.add(
    MAX_PLAYERS, "PYRAMID_WORKERS", 0, WORKERS_PER_COLOUR
)  # [seat] workers on the Pyramid this day
SACRIFICED = _fields.add(
    MAX_PLAYERS, "SACRIFICED", 0, WORKERS_PER_COLOUR
)  # [seat] of those, knocked down (to the reserve at night)
IDLE = _fields.add(MAX_PLAYERS, "IDLE", 0, WORKERS_PER_COLOUR)  # [seat] workers that passed this day
OFFERINGS_DONE = _fields.add(MAX_PLAYERS, "OFFERINGS_DONE", 0, NUM_OFFERINGS)  # [seat] Offerings completed
FIRST_OFFERING = _fields.add(
    MAX_PLAYERS, "FIRST_OFFERING", 0, NUM_OFFERINGS
)  # [seat] 1 + how many Offerings preceded its first; 0 none
# The expansions (issue 16): zero in the base game. VARIANT[3] and the BOT_* block are solo's.
VARIANT = _fields.add(4, "VARIANT", 0, 1)  # cenote, destiny, forest, solo-hard flags
TSEEK_SUPPLY = _fields.add(1, "TSEEK_SUPPLY", 0, MAX_TSEEK)  # tseek' left on the Cenote tile
CENOTE_USED = _fields.add(MAX_PLAYERS, "CENOTE_USED", 0, 1)  # [seat] sent a worker to the Cenote this round
CENOTE_WORKERS = _fields.add(
    MAX_PLAYERS, "CENOTE_WORKERS", 0, 1
)  # [seat] sacrificed workers left on the Cenote
OFFER_SLOT_WORKERS = _fields.add(
    OFFERINGS_SHOWN * MAX_PLAYERS, "OFFER_SLOT_WORKERS", 0, WORKERS_PER_COLOUR - MIN_WORKERS
)  # [slot, seat] workers on Offerings
TSEEK_ON_OFFERINGS = _fields.add(
    MAX_PLAYERS, "TSEEK_ON_OFFERINGS", 0, MAX_TSEEK
)  # [seat] tseek' paid into completed Offerings
DESTINY_HOLDER = _fields.add(
    NUM_DESTINY, "DESTINY_HOLDER", 0, MAX_PLAYERS
)  # [card] seat + 1 holding the Destiny card
# solo (Chaak'Bot, nakum_env/chaakbot.py): the bot's deck; a card in neither the deck nor the
# day's draw is in the discard pile (face up).
BOT_DECK = _fields.add(
    NUM_BOT_CARDS, "BOT_DECK", 0, NUM_BOT_CARDS - 1
)  # Chaak'Bot's draw pile (card ids, bottom first; hidden order)
BOT_DECK_COUNT = _fields.add(1, "BOT_DECK_COUNT", 0, NUM_BOT_CARDS)
BOT_ORIENT = _fields.add(NUM_BOT_CARDS, "BOT_ORIENT", 0, 1)  # [card] orientation (hidden in the deck)
BOT_DRAWN = _fields.add(
    BOT_DRAW, "BOT_DRAWN", NO_CARD, BOT_FACE_DOWN + NUM_BOT_CARDS - 1
)  # the day's 3 cards, left to right: card id, + BOT_FACE_DOWN while hidden (hard mode), or NO_CARD
BOT_ACTED = _fields.add(1, "BOT_ACTED", 0, BOT_DRAW)  # the day's cards Chaak'Bot has played
# -- Cenote (issue 16): the payment being decided (EFFECT_PAY) --
PAY_ACTION = _fields.add(1, "PAY_ACTION", -1, N_ACTIONS - 1)  # the action being paid for, or -1
PAY_WILD = _fields.add(GOODS, "PAY_WILD", 0, MAX_TSEEK)  # [good] units its tseek' replace so far
PAY_SACRIFICE = _fields.add(
    1, "PAY_SACRIFICE", 0, WORKERS_PER_COLOUR - MIN_WORKERS
)  # sacrifices its tseek' pay (own workers on the Offering)
STATE_SIZE = _fields.size
GUARD_COUNTER = ROUND  # the field the guard counts (GameSpec.guard: data.MAX_ROUNDS)
STATE_FIELDS = _fields.table()
