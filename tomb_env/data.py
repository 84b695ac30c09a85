"""Tomb Trader: constant data, as plain tables a player who owns the game can correct.

No public card list exists. Every table carries its SOURCE: "rulebook" (the rulebook states
it) or "assumed" (designed here; docs/games/tomb.md lists each under Assumptions). Each table
is one literal, so a correction is one edit.
"""

import numpy as np

MIN_PLAYERS = 3
MAX_PLAYERS = 6
DEFAULT_PLAYERS = 4

# SOURCE: rulebook (Setup, Game End): 3 gold each, 21 gold tokens, 1 point per gold.
START_GOLD = 3
GOLD_TOKENS = 21

# SOURCE: rulebook. The two locations; a round deals to both.
LOCATION_NAMES = ("Inner Tomb", "Outer Tomb")
INNER = 0
OUTER = 1
NUM_LOCATIONS = 2

# Effects (rulebook, Ability Reference).
EFFECT_NONE = 0
EFFECT_MEDKIT = 1  # immune to Snakebite and Whip while you hold it
EFFECT_WHIP = 2  # next round: choose another player's location (a Medical Kit blocks it)
EFFECT_KNIFE = 3  # next round: choose another player's location
EFFECT_REVOLVER = 4  # next round: choose another player's location
EFFECT_SNAKEBITE = 5  # next round: your location is chosen at random
EFFECT_DICE = 6  # on collection: call a coin flip; right: worth 2 more
EFFECT_SARCOPHAGUS = 7  # on collection: call a coin flip; right: worth 5
EFFECT_LUCKY_COMBO = 8  # worth 3 more if you hold the Lucky Rock
EFFECT_STATUE_COMBO = 9  # worth 2 more if you hold the Ancient Statue
EFFECT_DRAW = 10  # on collection: take the deck's top card face down, its effects not triggered
EFFECT_MAP = 11  # set scoring: MAP_SET_VALUE[number of maps]
EFFECT_LUCKY_ROCK = 12  # the Lucky Rock itself (no effect of its own)
EFFECT_STATUE = 13  # the Ancient Statue itself (no effect of its own)
WEAPON_EFFECTS = (EFFECT_WHIP, EFFECT_KNIFE, EFFECT_REVOLVER)
FLIP_EFFECTS = (EFFECT_DICE, EFFECT_SARCOPHAGUS)

DICE_BONUS = 2  # rulebook: "worth 2 more"
SARCOPHAGUS_WON_VALUE = 5  # rulebook: "worth 5"
LUCKY_COMBO_BONUS = 3  # rulebook: "worth 3 more"
STATUE_COMBO_BONUS = 2  # rulebook: "worth 2 more"
# SOURCE: rulebook (Treasure Map): One 1, Two 3, Three 6, Four 10, Five 15, Six+ 21.
MAP_SET_VALUE = np.array([0, 1, 3, 6, 10, 15, 21], dtype=np.int32)

# Two decks, option `deck`. No public card list exists (the rulebook: 52 Tomb Treasure Cards).
DECK_LIBRARY = 0  # "library" (default): the table below, with six invented kinds
DECK_RULEBOOK = 1  # "rulebook": only the kinds the rulebook names (RULEBOOK_DECK)
DECK_NAMES = ("library", "rulebook")

# (name, value, library count, library effect, SOURCE of the kind). The names and effects
# marked "rulebook" are the rulebook's, and the values of Trinket (1), Gold Chalice (3) and
# Crown (4); every other value and every count is assumed. The kinds marked "assumed" are
# invented, for the library deck only: the rulebook names no card with the Lucky Rock or
# Statue combo icon (Four-Leaf Clover, Offering Bowl), nor a card with the card-deck icon
# (Satchel), and no negative card but the Snakebite (Curse Scroll, Cursed Skull, Rotten
# Bandages: about -15 points in all, for a game where "Some treasures are negative").
KINDS = (
    ("Trinket", 1, 6, EFFECT_NONE, "rulebook"),
    ("Gold Chalice", 3, 3, EFFECT_NONE, "rulebook"),
    ("Crown", 4, 2, EFFECT_NONE, "rulebook"),
    ("Ceramic Jar", 2, 4, EFFECT_NONE, "rulebook"),
    ("Fortune Deck", 2, 2, EFFECT_NONE, "rulebook"),
    ("Treasure Map", 0, 6, EFFECT_MAP, "rulebook"),
    ("Snakebite", -1, 3, EFFECT_SNAKEBITE, "rulebook"),
    ("Knife", 1, 2, EFFECT_KNIFE, "rulebook"),
    ("Whip", 1, 2, EFFECT_WHIP, "rulebook"),
    ("Revolver", 2, 1, EFFECT_REVOLVER, "rulebook"),
    ("Medical Kit", 1, 2, EFFECT_MEDKIT, "rulebook"),
    ("Dice", 1, 2, EFFECT_DICE, "rulebook"),
    ("Lucky Rock", 1, 1, EFFECT_LUCKY_ROCK, "rulebook"),
    ("Sarcophagus", 1, 1, EFFECT_SARCOPHAGUS, "rulebook"),
    ("Ancient Statue", 3, 1, EFFECT_STATUE, "rulebook"),
    ("Satchel", 0, 2, EFFECT_DRAW, "assumed"),
    ("Four-Leaf Clover", 1, 2, EFFECT_LUCKY_COMBO, "assumed"),
    ("Offering Bowl", 1, 2, EFFECT_STATUE_COMBO, "assumed"),
    ("Curse Scroll", -2, 3, EFFECT_NONE, "assumed"),
    ("Cursed Skull", -3, 2, EFFECT_NONE, "assumed"),
    ("Rotten Bandages", -1, 3, EFFECT_NONE, "assumed"),
)
# deck="rulebook": (count, effect) of each kind the rulebook names; 52 cards, the round card's
# 47 (3-4 players) and 50 (5-6) plus the two Fortune Decks' draws. SOURCE: the kinds and effects
# are the rulebook's; the counts are assumed (as many weapons as the library deck: MAX_CLAIMS).
# The Fortune Deck carries the card-deck icon ("take the top card of the Treasure Deck"), whose
# name fits it; no card carries the Lucky Rock or Statue combo icons (none is named).
RULEBOOK_DECK = {
    "Trinket": (10, EFFECT_NONE),
    "Gold Chalice": (5, EFFECT_NONE),
    "Crown": (3, EFFECT_NONE),
    "Ceramic Jar": (7, EFFECT_NONE),
    "Fortune Deck": (2, EFFECT_DRAW),
    "Treasure Map": (6, EFFECT_MAP),
    "Snakebite": (4, EFFECT_SNAKEBITE),
    "Knife": (2, EFFECT_KNIFE),
    "Whip": (2, EFFECT_WHIP),
    "Revolver": (1, EFFECT_REVOLVER),
    "Medical Kit": (3, EFFECT_MEDKIT),
    "Dice": (3, EFFECT_DICE),
    "Lucky Rock": (1, EFFECT_LUCKY_ROCK),
    "Sarcophagus": (2, EFFECT_SARCOPHAGUS),
    "Ancient Statue": (1, EFFECT_STATUE),
}
KIND_NAMES = tuple(k[0] for k in KINDS)
NUM_KINDS = len(KINDS)
KIND = {name: i for i, name in enumerate(KIND_NAMES)}
KIND_SOURCE = tuple(k[4] for k in KINDS)
KIND_VALUE = np.array([k[1] for k in KINDS], dtype=np.int32)  # the same in both decks
# [deck, kind] count and effect
DECK_KIND_COUNT = np.zeros((len(DECK_NAMES), NUM_KINDS), dtype=np.int32)
DECK_KIND_EFFECT = np.zeros((len(DECK_NAMES), NUM_KINDS), dtype=np.int32)
DECK_KIND_COUNT[DECK_LIBRARY] = [k[2] for k in KINDS]
DECK_KIND_EFFECT[DECK_LIBRARY] = [k[3] for k in KINDS]
for _name, (_count, _effect) in RULEBOOK_DECK.items():
    DECK_KIND_COUNT[DECK_RULEBOOK, KIND[_name]] = _count
    DECK_KIND_EFFECT[DECK_RULEBOOK, KIND[_name]] = _effect
assert all(KIND_SOURCE[KIND[name]] == "rulebook" for name in RULEBOOK_DECK)
NUM_CARDS = int(DECK_KIND_COUNT[DECK_LIBRARY].sum())
assert int(DECK_KIND_COUNT[DECK_RULEBOOK].sum()) == NUM_CARDS
# [deck, card id] -> kind: ids run kind by kind in the table's order.
DECK_CARD_KIND = np.stack([np.repeat(np.arange(NUM_KINDS, dtype=np.int32), c) for c in DECK_KIND_COUNT])
MAX_OF_KIND = int(DECK_KIND_COUNT.max())
# The library deck's tables (tests and tools that play the default deck).
KIND_COUNT = DECK_KIND_COUNT[DECK_LIBRARY]
KIND_EFFECT = DECK_KIND_EFFECT[DECK_LIBRARY]
CARD_KIND = DECK_CARD_KIND[DECK_LIBRARY]

# Character abilities, option `abilities`: "bonus_only" (the rulebook: each character's bonus
# list and nothing more) or "assumed" (these, SOURCE: assumed; the rulebook says only "Some have
# additional effects as well to help you or hinder other players!"). Each ability acts only on
# the final score, so nothing in play reveals a character; each name says which general rule
# it overrides, or whom it hinders.
ABILITIES_BONUS_ONLY = 0
ABILITIES_ASSUMED = 1
ABILITY_NONE = 0
# Gambler, overrides the coin-flip rule: his first lost call of the game (in time order: by
# round, then in the order the calls are made) scores as won.
ABILITY_LUCK = 1
# Cartographer, overrides the map table: his maps score as if one more were held (with two+).
ABILITY_CARTOGRAPHY = 2
CARTOGRAPHY_MIN_MAPS = 2
# Merchant, overrides "Each gold coin they have is worth 1 point": his are worth 2 each.
ABILITY_TRADE = 3
TRADE_COIN_VALUE = 2
# Exorcist, overrides the cards' values: his treasures of negative value score 0.
ABILITY_WARDING = 4
# Mercenary, hinders the others: each Whip, Knife and Revolver in his stash at the end costs
# every other player 1 point.
ABILITY_THREAT = 5
THREAT_COST = 1
ABILITY_NAMES = ("none", "luck", "cartography", "trade", "warding", "threat")

# SOURCE: the names Gambler, Collector and Alchemist and the Gambler's +2 for the Crown (Bill's
# example) are the rulebook's; the Alchemist's Fortune Deck bonus follows the Josh/Chris
# example; everything else is assumed. (name, ability, {treasure: bonus per card}).
CHARACTERS = (
    ("Gambler", ABILITY_LUCK, {"Crown": 2, "Dice": 2, "Sarcophagus": 2, "Fortune Deck": 1}),
    (
        "Collector",
        ABILITY_NONE,
        {
            "Trinket": 1,
            "Ceramic Jar": 1,
            "Gold Chalice": 1,
            "Crown": 1,
            "Ancient Statue": 2,
            "Offering Bowl": 1,
        },
    ),
    ("Alchemist", ABILITY_NONE, {"Fortune Deck": 3, "Ceramic Jar": 1, "Medical Kit": 2, "Lucky Rock": 2}),
    ("Cartographer", ABILITY_CARTOGRAPHY, {"Satchel": 2, "Whip": 1, "Knife": 1, "Ceramic Jar": 1}),
    ("Mercenary", ABILITY_THREAT, {"Knife": 2, "Revolver": 3, "Whip": 2, "Snakebite": 2, "Medical Kit": 2}),
    ("Merchant", ABILITY_TRADE, {"Gold Chalice": 1, "Crown": 1, "Trinket": 1}),
    (
        "Exorcist",
        ABILITY_WARDING,
        {"Ancient Statue": 1, "Medical Kit": 1, "Curse Scroll": 1, "Cursed Skull": 2, "Rotten Bandages": 1},
    ),
)
CHARACTER_NAMES = tuple(c[0] for c in CHARACTERS)
NUM_CHARACTERS = len(CHARACTERS)
CHARACTER_ABILITY = np.array([c[1] for c in CHARACTERS], dtype=np.int32)
CHARACTER_BONUS = np.zeros((NUM_CHARACTERS, NUM_KINDS), dtype=np.int32)
for _c, (_name, _ability, _bonus) in enumerate(CHARACTERS):
    for _kind, _points in _bonus.items():
        CHARACTER_BONUS[_c, KIND[_kind]] = _points

# SOURCE: rulebook: 7 rounds for 3-4 players, 6 for 5-6; the counts are assumed (the round
# card's two sides), within 52 with room for the Satchels' draws. [round] -> (Inner, Outer).
ROUND_CARD_3_4 = ((3, 2), (3, 2), (3, 3), (4, 3), (4, 3), (4, 4), (5, 4))
ROUND_CARD_5_6 = ((4, 3), (4, 3), (4, 4), (5, 4), (5, 4), (5, 5))
MAX_ROUNDS = max(len(ROUND_CARD_3_4), len(ROUND_CARD_5_6))
MAX_LOCATION_CARDS = max(max(r) for r in ROUND_CARD_3_4 + ROUND_CARD_5_6)
# [num_players, round, location] -> cards dealt (0 past the last round).
ROUND_DEAL = np.zeros((MAX_PLAYERS + 1, MAX_ROUNDS, NUM_LOCATIONS), dtype=np.int32)
NUM_ROUNDS = np.zeros(MAX_PLAYERS + 1, dtype=np.int32)
for _n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
    _card = ROUND_CARD_3_4 if _n <= 4 else ROUND_CARD_5_6
    NUM_ROUNDS[_n] = len(_card)
    for _r, _pair in enumerate(_card):
        ROUND_DEAL[_n, _r] = _pair
assert NUM_CARDS == 52
assert all(
    sum(map(sum, c)) + int(DECK_KIND_COUNT[d][DECK_KIND_EFFECT[d] == EFFECT_DRAW].sum()) <= NUM_CARDS
    for c in (ROUND_CARD_3_4, ROUND_CARD_5_6)
    for d in range(len(DECK_NAMES))
)
assert MIN_PLAYERS * 0 + MAX_PLAYERS * START_GOLD <= GOLD_TOKENS


def lone_share(cards: int, num_players: int) -> int:
    """Rulebook: a lone player takes up to half the treasures, rounded down (up with 3 players)."""
    return (cards + 1) // 2 if num_players == 3 else cards // 2
