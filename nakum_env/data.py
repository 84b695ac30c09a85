"""Nakum's component data as plain tables (docs/games/nakum.md, Assumptions).

No public list of Nakum's tiles or cards exists. Every table below is ASSUMED unless its
SOURCE says otherwise: designed for this library, balanced so that games end (someone
completes 2 Offerings) in a sensible number of rounds, and replaceable in one edit. The
rulebook fixes only the counts (1 Pyramid + 8 jungle tiles, 22 Market, 12 Heritage, 12
Offering, 4 Clan cards, 17 black cubes, 4 workers per colour), the Yucateca's increase cost
(2 Skins) and the Offering "El pobre" (2 Corn, 1 Skin, 1 sacrifice, 7 VP).

Amounts are vectors over RESOURCES: corn, skin, mask, victory points, tseek' (the Cenote's
skull, reserved for the Cenote expansion; always 0 in the base game's tables).
"""

import numpy as np

MIN_PLAYERS = 1  # 1: solo against Chaak'Bot (in-kernel, competitor 1)
MAX_PLAYERS = 4  # seats; the solo mode keeps Chaak'Bot's warehouse and cards in seat 1's rows
WORKERS_PER_COLOUR = 4  # SOURCE: rulebook (16 workers, 4 per colour)
START_WORKERS = 2  # SOURCE: rulebook (2 to the player, 2 to the reserve)
MIN_WORKERS = 2  # SOURCE: rulebook, the golden rule
BLACK_CUBES = 17  # SOURCE: rulebook
HERITAGE_DEALT = 3  # SOURCE: rulebook (the solo player gets SOLO_HERITAGE_DEALT)
MARKET_SHOWN = 5  # SOURCE: rulebook
OFFERINGS_SHOWN = 2  # SOURCE: rulebook
# A guard, not a rule: a game that a fixed strategy prolongs for ever (no one ever completes
# 2 Offerings) ends after this many rounds, the highest score winning. Random play ends in at most
# 34 rounds and the bot's in 12 (docs/games/nakum.md).
MAX_ROUNDS = 60
OFFERINGS_TO_END = 2  # SOURCE: rulebook
PITUK_SPACES = 2  # SOURCE: rulebook ("can be used 2 times before being used up")
BOARD_TILES = 6  # SOURCE: rulebook (6 of the 8 around the Pyramid; the Forest variant: 8)
REVEAL_AT_SETUP = (0, 1, 1, 2, 2)  # [players] SOURCE: rulebook (2 tiles; 1 with 2 players and solo)
CORN_PER_VP, SKIN_PER_VP, MASK_PER_VP = 3, 2, 1  # SOURCE: rulebook, final score

CORN, SKIN, MASK, VP, TSEEK = 0, 1, 2, 3, 4
RESOURCES = ("corn", "skin", "mask", "VP", "tseek'")
NUM_RES = 5
GOODS = 3  # corn, skin, mask: the resources a warehouse limits
SHORT = ("C", "S", "M", "VP", "T")


def amount(corn: int = 0, skin: int = 0, mask: int = 0, vp: int = 0, tseek: int = 0) -> list[int]:
    return [corn, skin, mask, vp, tseek]


NONE = amount()

# -- clans ---------------------------------------------------------------------------------
# SOURCE: assumed, except the Yucateca's increase cost (rulebook: two Skins). Each warehouse
# holds goods worth about 7 VP at the final-score rates; each increase costs about 1 VP.
CLANS = (
    # name, warehouse limit (corn, skin, mask), cost to increase the clan
    ("Yucateca", (6, 4, 3), amount(skin=2)),
    ("Itza", (8, 4, 2), amount(corn=3)),
    ("Lacandona", (5, 6, 2), amount(corn=1, skin=1)),
    ("Kiche", (4, 4, 4), amount(mask=1)),
)
NUM_CLANS = len(CLANS)
CLAN_NAMES = tuple(c[0] for c in CLANS)
CLAN_LIMIT = np.array([c[1] for c in CLANS], np.int32)  # [clan, good]
CLAN_INCREASE_COST = np.array([c[2] for c in CLANS], np.int32)  # [clan, resource]
YUCATECA = CLAN_NAMES.index("Yucateca")

# -- jungle tiles --------------------------------------------------------------------------
# SOURCE: assumed. Each tile has MAX_SPACES basic spaces and up to two Encampments (left and
# right: Chaak'Bot's cards block "the Encampment on the left or right"), each with up to
# MAX_OPTIONS options, each covered by a black cube once taken. A basic space is a resource
# space, a Market space (acquire a Market card) or a Heritage space (play a Heritage card); at
# most one of each of the last two per tile. "double" marks the worker symbol: 2 workers of
# different players in 4-player games.
SPACE_RESOURCE, SPACE_MARKET, SPACE_HERITAGE = 0, 1, 2
SPACE_KINDS = ("resource", "market", "heritage")
MAX_SPACES = 3
MAX_OPTIONS = 2
SIDES = ("left", "right")
R, MK, HE = SPACE_RESOURCE, SPACE_MARKET, SPACE_HERITAGE
TILES = (
    # name, spaces (kind, gain, double), encampments: (left options, right options)
    (
        "Milpa",
        ((R, amount(corn=2), True), (R, amount(corn=1, skin=1), False), (MK, NONE, False)),
        ((amount(vp=1, mask=1), amount(corn=3)), ()),
    ),
    (
        "Selva",
        ((R, amount(skin=1), True), (R, amount(corn=2), False), (HE, NONE, False)),
        ((), (amount(skin=2, vp=1), amount(mask=1, skin=1))),
    ),
    (
        "Cantera",
        ((R, amount(mask=1), True), (R, amount(corn=2), False), (MK, NONE, False)),
        ((amount(mask=2),), ()),
    ),
    (
        "Rio",
        ((R, amount(corn=1, skin=1), True), (R, amount(corn=2), False), (HE, NONE, False)),
        ((), (amount(vp=2), amount(corn=2, skin=1))),
    ),
    (
        "Tianguis",
        ((MK, NONE, True), (R, amount(skin=1), False), (R, amount(corn=2), False)),
        ((amount(vp=1, skin=1),), ()),
    ),
    (
        "Templo",
        ((R, amount(vp=1), True), (R, amount(mask=1), False), (R, amount(corn=1), False)),
        ((), (amount(vp=2, corn=1),)),
    ),
    (
        "Caza",
        ((R, amount(skin=2), True), (R, amount(corn=1), False), (MK, NONE, False)),
        ((amount(mask=1, corn=1), amount(skin=1, vp=1)), ()),
    ),
    (
        "Aldea",
        ((HE, NONE, True), (R, amount(corn=2), False), (R, amount(mask=1), False)),
        ((), (amount(mask=1, vp=1),)),
    ),
)
NUM_TILES = len(TILES)  # SOURCE: rulebook (8 jungle tiles besides the Pyramid)
MAX_POSITIONS = NUM_TILES  # board positions around the Pyramid (6 used; the Forest uses 8)
TILE_NAMES = tuple(t[0] for t in TILES)
SPACE_KIND = np.array([[s[0] for s in t[1]] for t in TILES], np.int32)  # [tile, space]
SPACE_GAIN = np.array([[s[1] for s in t[1]] for t in TILES], np.int32)  # [tile, space, resource]
SPACE_DOUBLE = np.array([[int(s[2]) for s in t[1]] for t in TILES], np.int32)  # [tile, space]
OPTION_EXISTS = np.zeros((NUM_TILES, 2, MAX_OPTIONS), np.int32)  # [tile, side, option]
OPTION_GAIN = np.zeros((NUM_TILES, 2, MAX_OPTIONS, NUM_RES), np.int32)
for _t, _tile in enumerate(TILES):
    for _side, _options in enumerate(_tile[2]):
        for _o, _gain in enumerate(_options):
            OPTION_EXISTS[_t, _side, _o] = 1
            OPTION_GAIN[_t, _side, _o] = _gain


def _space_of(kind: int) -> np.ndarray:
    """[tile] the index of its space of `kind` (at most one per tile), or -1."""
    return np.array([next((i for i, s in enumerate(t[1]) if s[0] == kind), -1) for t in TILES], np.int32)


assert all(sum(s[0] == kind for s in t[1]) <= 1 for t in TILES for kind in (MK, HE))
TILE_MARKET_SPACE = _space_of(MK)
TILE_HERITAGE_SPACE = _space_of(HE)

# -- Market cards --------------------------------------------------------------------------
# SOURCE: assumed, except card 7 (the rulebook's example: pay 1 Mask, get 2 Corn, 1 VP at the
# end). Icons (rulebook glossary): steal, Pituk, increase the clan, free an Encampment.
ICON_NONE, ICON_STEAL, ICON_PITUK, ICON_INCREASE, ICON_FREE = 0, 1, 2, 3, 4
ICON_NAMES = ("none", "steal", "Pituk", "increase the clan", "free an Encampment")
STEAL_OPTIONS = 2
MARKET = (
    # cost, gain, end VP, icon, steal options ((cost, VP stolen), ...)
    (NONE, amount(corn=1, skin=1), 0, ICON_NONE, ()),
    (NONE, amount(corn=2), 0, ICON_NONE, ()),
    (NONE, amount(mask=1), 0, ICON_NONE, ()),
    (NONE, amount(skin=2), 0, ICON_NONE, ()),
    (NONE, amount(corn=1), 1, ICON_NONE, ()),
    (NONE, amount(skin=1), 1, ICON_NONE, ()),
    (NONE, amount(corn=1, vp=1), 0, ICON_NONE, ()),
    (amount(mask=1), amount(corn=2), 1, ICON_NONE, ()),  # SOURCE: rulebook example
    (amount(corn=2), amount(mask=1), 1, ICON_NONE, ()),
    (amount(skin=1), amount(mask=1), 0, ICON_NONE, ()),
    (amount(corn=2), amount(skin=2), 0, ICON_NONE, ()),
    (amount(mask=1), amount(vp=2), 1, ICON_NONE, ()),
    (amount(corn=3), amount(vp=2), 1, ICON_NONE, ()),
    (amount(skin=2), amount(mask=1, corn=1), 1, ICON_NONE, ()),
    (NONE, NONE, 0, ICON_STEAL, ((amount(corn=1), 1), (amount(mask=1), 2))),
    (NONE, NONE, 0, ICON_STEAL, ((amount(corn=2), 1), (amount(corn=1, skin=1), 2))),
    (NONE, NONE, 0, ICON_PITUK, ()),
    (amount(corn=1), NONE, 1, ICON_PITUK, ()),
    (amount(corn=1, skin=1), NONE, 0, ICON_INCREASE, ()),
    (amount(mask=1), NONE, 1, ICON_INCREASE, ()),
    (NONE, amount(skin=1), 0, ICON_FREE, ()),
    (NONE, amount(corn=1), 1, ICON_FREE, ()),
)
NUM_MARKET = len(MARKET)  # SOURCE: rulebook (22)
MARKET_COST = np.array([m[0] for m in MARKET], np.int32)
MARKET_GAIN = np.array([m[1] for m in MARKET], np.int32)
MARKET_END_VP = np.array([m[2] for m in MARKET], np.int32)
MARKET_ICON = np.array([m[3] for m in MARKET], np.int32)
STEAL_COST = np.zeros((NUM_MARKET, STEAL_OPTIONS, NUM_RES), np.int32)
STEAL_VP = np.zeros((NUM_MARKET, STEAL_OPTIONS), np.int32)  # 0: no such option
for _m, _card in enumerate(MARKET):
    for _o, (_cost, _vp) in enumerate(_card[4]):
        STEAL_COST[_m, _o] = _cost
        STEAL_VP[_m, _o] = _vp

# -- Heritage cards ------------------------------------------------------------------------
# SOURCE: assumed. Each gives goods and/or VP worth about 1-1.5 VP.
HERITAGE = (
    amount(corn=3),
    amount(skin=2),
    amount(mask=1),
    amount(vp=1, corn=1),
    amount(corn=2, skin=1),
    amount(skin=1, mask=1),
    amount(vp=2),
    amount(corn=1, mask=1),
    amount(corn=1, skin=1),
    amount(skin=3),
    amount(corn=2, vp=1),
    amount(mask=1, vp=1),
)
NUM_HERITAGE = len(HERITAGE)  # SOURCE: rulebook (12)
HERITAGE_GAIN = np.array(HERITAGE, np.int32)

# -- Offering cards ------------------------------------------------------------------------
# SOURCE: assumed, except "El pobre" (rulebook) and El Cazador's 4 Skins and 1 sacrifice (the
# Cenote example, whose VP is assumed). VP ~ 2 per VP of goods + 2 per sacrifice + 2.
OFFERINGS = (
    # name, cost, sacrifices, VP
    ("El pobre", amount(corn=2, skin=1), 1, 7),  # SOURCE: rulebook example
    ("El Cazador", amount(skin=4), 1, 8),  # SOURCE: rulebook (Cenote example), VP assumed
    ("El Campesino", amount(corn=4, skin=1), 0, 6),
    ("El Artesano", amount(corn=2, skin=1, mask=1), 0, 6),
    ("El Guerrero", amount(skin=2, mask=1), 1, 8),
    ("El Sacerdote", amount(corn=1, mask=2), 0, 6),
    ("El Rey", amount(corn=2, skin=2, mask=2), 2, 14),
    ("La Cosecha", amount(corn=3, skin=2), 0, 6),
    ("El Jaguar", amount(corn=1, skin=3), 0, 6),
    ("El Jade", amount(corn=2, mask=2), 1, 8),
    ("El Mercader", amount(corn=2, skin=2, mask=1), 0, 7),
    ("La Reina", amount(corn=1, skin=3, mask=1), 2, 12),
)
NUM_OFFERINGS = len(OFFERINGS)  # SOURCE: rulebook (12)
OFFERING_NAMES = tuple(o[0] for o in OFFERINGS)
OFFERING_COST = np.array([o[1] for o in OFFERINGS], np.int32)
OFFERING_SACRIFICE = np.array([o[2] for o in OFFERINGS], np.int32)
OFFERING_VP = np.array([o[3] for o in OFFERINGS], np.int32)
EL_POBRE = OFFERING_NAMES.index("El pobre")

# Every good has a basic space on at least 3 tiles, so that any 6 of the 8 hold a source of it
# that never runs out (else a game whose Offerings need it could never end).
_SOURCES = (SPACE_GAIN[:, :, :GOODS] > 0) & (SPACE_KIND == SPACE_RESOURCE)[:, :, None]  # [tile, space, good]
assert (_SOURCES.any(1).sum(0) >= 3).all()
# Every Offering is payable from every clan's warehouse (limits cover the costs).
assert (OFFERING_COST[:, :GOODS].max(0) <= CLAN_LIMIT.min(0)).all()
# The black cubes suffice: every Encampment option, both Pituk spaces, the first-round block
# on "Increase the clan" and Chaak'Bot's start-player cube (solo).
assert OPTION_EXISTS.sum() + PITUK_SPACES + 2 <= BLACK_CUBES

# -- Cenote, Destiny, Forest (issue 16; nakum_env/cenote.py) ---------------------------------
# [players] SOURCE: rulebook (4/5/6 tseek' for 2/3/4 players; solo takes the 2-player preparation)
TSEEK_START = (0, 4, 4, 5, 6)
MAX_TSEEK = max(TSEEK_START)
TSEEK_OFFERING_VP = 4  # SOURCE: rulebook, each tseek' on a completed Offering
TSEEK_WAREHOUSE_VP = 3  # SOURCE: rulebook, each tseek' in the warehouse
# The Cenote's boost: "as indicated on the tile itself, discarding Resources to gain 1 or 2
# immediate additional VP". SOURCE: assumed, except the 1 Mask for 2 VP (the rulebook's purple
# player example). [boost] cost, VP; boost 0 is the bare sacrifice.
CENOTE_BOOSTS = ((NONE, 0), (amount(skin=1), 1), (amount(mask=1), 2))
NUM_BOOSTS = len(CENOTE_BOOSTS)
CENOTE_BOOST_COST = np.array([b[0] for b in CENOTE_BOOSTS], np.int32)
CENOTE_BOOST_VP = np.array([b[1] for b in CENOTE_BOOSTS], np.int32)
FOREST_TILES = NUM_TILES  # SOURCE: rulebook (the Forest: all 8 tiles around the Pyramid and the Cenote)
# Destiny cards: the upper requirement (cards of one kind played during the game, 3 VP), the
# lower one (goods in the warehouse at the end, 2 VP). SOURCE: assumed, except card 0 (the
# rulebook's example: 3 Heritage cards; 3 Corn and 2 Skins). The set-up Heritage card counts
# as played (assumed). A player plays at most 3 Heritage cards (HERITAGE_DEALT).
DESTINY_HERITAGE, DESTINY_MARKET = 0, 1
DESTINY_KINDS = ("Heritage", "Market")
DESTINY_VP_UPPER, DESTINY_VP_LOWER = 3, 2  # SOURCE: rulebook
DESTINY = (
    # upper kind, upper count, lower goods
    (DESTINY_HERITAGE, 3, amount(corn=3, skin=2)),  # SOURCE: rulebook example
    (DESTINY_MARKET, 3, amount(mask=2)),
    (DESTINY_HERITAGE, 2, amount(corn=4)),
    (DESTINY_MARKET, 4, amount(corn=1, skin=1, mask=1)),
    (DESTINY_MARKET, 2, amount(skin=3)),
    (DESTINY_HERITAGE, 3, amount(corn=2, mask=1)),
)
NUM_DESTINY = len(DESTINY)  # SOURCE: rulebook (6)
DESTINY_KIND = np.array([d[0] for d in DESTINY], np.int32)
DESTINY_COUNT = np.array([d[1] for d in DESTINY], np.int32)
DESTINY_GOODS = np.array([d[2] for d in DESTINY], np.int32)
assert (DESTINY_COUNT[DESTINY_KIND == DESTINY_HERITAGE] <= HERITAGE_DEALT).all()
assert (DESTINY_GOODS[:, :GOODS] <= CLAN_LIMIT.min(0)).all()  # every clan can store each lower goal
# -- solo: Chaak'Bot -------------------------------------------------------------------------
# SOURCE: rulebook for the counts and the rules (8 cards with two orientations, 3 drawn per
# round, hearts checked for sacrifices, centre symbols for combos, a Mask or the starting
# player as combo bonus, tile numbers clockwise from 12 o'clock); the card faces are ASSUMED
# (no public list), except card 0's first orientation, the rulebook's example ("blocking the
# Encampment on the right of tile no. 5, gets a Skin and explores tile 1 ... the first of the
# combos ... a Mask"). A top holds up to BOT_ACTIONS actions, done left to right: a gain of
# goods and VP, the Market, or a tile action (tile no. k: explore it while face down, block the
# Encampment on `side` once face up). A Market icon is always a top's last action, so that the
# human's choice of cube for a free-an-Encampment card comes just before the combo.
SOLO_HERITAGE_DEALT = 4  # SOURCE: rulebook (the human player gets 4 Heritage cards)
SOLO_SETUP_PLAYERS = 2  # SOURCE: rulebook (the 2-player preparation: 1 tile revealed)
BOT_SEAT = 1  # Chaak'Bot is competitor 1: its warehouse and cards use seat 1's rows
NUM_BOT_CARDS = 8  # SOURCE: rulebook
BOT_DRAW = 3  # SOURCE: rulebook
BOT_ACTIONS = 3
BOT_NONE, BOT_GAIN, BOT_MARKET, BOT_TILE = 0, 1, 2, 3
BOT_ACTION_NAMES = ("none", "gain", "Market", "tile")
COMBO_NONE, COMBO_MASK, COMBO_START = 0, 1, 2
COMBO_NAMES = ("none", "Mask", "starting player")
LEFT, RIGHT = 0, 1


def gain_action(corn: int = 0, skin: int = 0, mask: int = 0, vp: int = 0) -> tuple:
    return (BOT_GAIN, amount(corn, skin, mask, vp), 0, LEFT)


def tile_action(number: int, side: int) -> tuple:
    return (BOT_TILE, NONE, number, side)


MARKET_ICON_ACTION = (BOT_MARKET, NONE, 0, LEFT)
BOT_CARDS = (
    # [orientation] (actions left to right, centre symbol, hearts)
    (
        # SOURCE: rulebook example (block right of tile 5, a Skin, explore tile 1; the Mask combo)
        ((tile_action(5, RIGHT), gain_action(skin=1), tile_action(1, LEFT)), COMBO_MASK, 0),
        ((gain_action(corn=1), MARKET_ICON_ACTION), COMBO_START, 1),
    ),
    (
        ((gain_action(corn=1), tile_action(3, LEFT)), COMBO_MASK, 0),
        ((gain_action(vp=1), MARKET_ICON_ACTION), COMBO_NONE, 0),
    ),
    (
        ((gain_action(vp=1), tile_action(2, RIGHT)), COMBO_START, 0),
        ((gain_action(corn=2), tile_action(6, LEFT)), COMBO_NONE, 1),
    ),
    (
        ((tile_action(4, LEFT), gain_action(skin=1)), COMBO_NONE, 1),
        ((gain_action(corn=1), MARKET_ICON_ACTION), COMBO_MASK, 0),
    ),
    (
        ((tile_action(1, RIGHT), MARKET_ICON_ACTION), COMBO_START, 0),
        ((gain_action(skin=1), tile_action(4, RIGHT)), COMBO_NONE, 0),
    ),
    (
        ((gain_action(corn=2), tile_action(5, LEFT)), COMBO_MASK, 0),
        ((tile_action(2, LEFT), gain_action(vp=1)), COMBO_START, 1),
    ),
    (
        ((gain_action(skin=1), MARKET_ICON_ACTION), COMBO_NONE, 1),
        ((tile_action(6, RIGHT), gain_action(mask=1)), COMBO_MASK, 0),
    ),
    (
        ((tile_action(3, RIGHT), MARKET_ICON_ACTION), COMBO_START, 0),
        ((gain_action(corn=1, skin=1),), COMBO_NONE, 1),
    ),
)
assert len(BOT_CARDS) == NUM_BOT_CARDS
BOT_KIND = np.zeros((NUM_BOT_CARDS, 2, BOT_ACTIONS), np.int32)  # [card, orientation, i] BOT_*
BOT_GAIN_OF = np.zeros((NUM_BOT_CARDS, 2, BOT_ACTIONS, NUM_RES), np.int32)
BOT_POSITION = np.zeros((NUM_BOT_CARDS, 2, BOT_ACTIONS), np.int32)  # tile no. k is position k - 1
BOT_SIDE = np.zeros((NUM_BOT_CARDS, 2, BOT_ACTIONS), np.int32)
BOT_COMBO = np.zeros((NUM_BOT_CARDS, 2), np.int32)  # [card, orientation] centre symbol COMBO_*
BOT_HEARTS = np.zeros((NUM_BOT_CARDS, 2), np.int32)
for _c, _card in enumerate(BOT_CARDS):
    for _o, (_actions, _combo, _hearts) in enumerate(_card):
        assert all(a[0] != BOT_MARKET for a in _actions[:-1]), "a Market icon is a top's last action"
        BOT_COMBO[_c, _o] = _combo
        BOT_HEARTS[_c, _o] = _hearts
        for _i, (_kind, _gain, _number, _side) in enumerate(_actions):
            BOT_KIND[_c, _o, _i] = _kind
            BOT_GAIN_OF[_c, _o, _i] = _gain
            BOT_POSITION[_c, _o, _i] = _number - 1
            BOT_SIDE[_c, _o, _i] = _side
assert (BOT_POSITION < BOARD_TILES).all()
