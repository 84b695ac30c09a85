"""Observation encoders: what one player may know, and the full-information view.

Every feature is in [0, 1]. Seats in a player's observation are relative (seat k is the
player k places after the observer; k = 0 is the observer). Hidden from a player: the others'
Heritage hands (only their sizes show), their set-up Heritage choice until all have chosen,
the deck orders, the identity of face-down tiles and which 2 tiles are in the box.
docs/games/nakum.md names every slice; the *_LAYOUT tables below are the source of truth.
"""

import numpy as np

from nakum_env import cenote
from nakum_env.cenote import N_PAY_KINDS
from nakum_env.data import (
    BOT_DRAW,
    BOT_SEAT,
    CLAN_LIMIT,
    GOODS,
    MARKET_SHOWN,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MAX_POSITIONS,
    MAX_SPACES,
    NUM_BOT_CARDS,
    NUM_CLANS,
    NUM_DESTINY,
    NUM_HERITAGE,
    NUM_MARKET,
    NUM_OFFERINGS,
    NUM_TILES,
    OFFERINGS_SHOWN,
    PITUK_SPACES,
    SOLO_HERITAGE_DEALT,
    TSEEK,
    VP,
    WORKERS_PER_COLOUR,
)
from nakum_env.state import (
    AVAILABLE,
    BOT_ACTED,
    BOT_DECK,
    BOT_DECK_COUNT,
    BOT_DRAWN,
    BOT_FACE_DOWN,
    BOT_MARK,
    BOT_ORIENT,
    CENOTE_USED,
    CENOTE_WORKERS,
    CLAN,
    CUBE_RESERVE,
    DESTINY_HOLDER,
    EFFECT,
    EFFECT_CARD,
    ENCAMP_WORKER,
    EXPLORER,
    FIRST_OFFERING,
    HERITAGE_HOLDER,
    HERITAGE_PLAYED,
    IDLE,
    INCREASE_BLOCKED,
    INCREASE_WORKER,
    MARKET_DECK,
    MARKET_DECK_COUNT,
    MARKET_OWNER,
    MARKET_SLOT,
    NEW_WORKERS,
    NO_CARD,
    OFFER_DECK,
    OFFER_DECK_COUNT,
    OFFER_DISCARD,
    OFFER_SLOT,
    OFFER_SLOT_WORKERS,
    OFFERING_OWNER,
    OFFERING_WHERE,
    OFFERINGS_DONE,
    OPTION_CUBE,
    OWNED,
    PAY_ACTION,
    PAY_SACRIFICE,
    PAY_WILD,
    PENDING,
    PHASE,
    PHASE_DAY,
    PHASES,
    PITUK_CUBE,
    PITUK_WORKER,
    POSITIONS,
    PYRAMID_WORKERS,
    RES,
    REVEALED,
    ROUND,
    SACRIFICED,
    SPACE_WORKER,
    START,
    START_BLOCKED,
    START_WORKER,
    TILE_AT,
    TSEEK_ON_OFFERINGS,
    TSEEK_SUPPLY,
    V_SOLO_HARD,
    VARIANT,
)
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL
from treasure_core.jit import njit
from treasure_core.kernels import equal_flag
from treasure_core.layout import offsets

NUM_RES = 5
MAX_ROUNDS_SCALE = 30.0  # rounds, VP: scaled and clipped to 1
MAX_VP_SCALE = 60.0
MAX_TSEEK = 6.0
SPACE_PLACES = 2
N_EFFECTS = 4

PUBLIC_LAYOUT = (
    ("phase", len(PHASES)),  # one-hot
    ("round", 1),  # round / 30, clipped
    ("effect", N_EFFECTS),  # the pending effect, one-hot (0: none)
    ("effect_card", NUM_MARKET),  # the Market card whose icon is pending
    ("position_in_use", MAX_POSITIONS),  # positions of this board (6)
    ("revealed", MAX_POSITIONS),  # [position] face up
    ("tile", MAX_POSITIONS * NUM_TILES),  # [position, tile] one-hot, face-up tiles only
    ("option_cube", MAX_POSITIONS * 2 * MAX_OPTIONS),  # [position, side, option] covered
    ("pituk_cube", PITUK_SPACES),  # [space] used up
    ("increase_blocked", 1),  # the set-up cube on "Increase the clan"
    ("start_blocked", 1),  # solo: Chaak'Bot's cube on the start-player space
    ("cube_reserve", 1),  # black cubes off the board / 17
    ("market", MARKET_SHOWN * NUM_MARKET),  # [slot, card] one-hot
    ("market_deck", 1),  # cards left in the Market deck / 22
    ("offering", OFFERINGS_SHOWN * NUM_OFFERINGS),  # [slot, card] one-hot
    ("offering_discard", NUM_OFFERINGS),  # [card] in the discard pile
    ("offering_deck", 1),  # cards left in the Offering deck / 12
)
SEAT_LAYOUT = (  # one block per seat
    ("in_game", 1),
    ("to_act", 1),
    ("start_marker", 1),
    ("clan", NUM_CLANS),  # one-hot
    ("goods", GOODS),  # corn, skin, mask / the clan's warehouse limit
    ("vp", 1),  # VP tokens / 60, clipped
    ("tseek", 1),  # reserved (Cenote) / 6
    ("workers", 7),  # owned, available, joining tonight, reserve, on the Pyramid, sacrificed, idle; / 4
    ("offerings_done", 1),  # / 2, clipped
    ("first_offering", 1),  # 1 / (1 + the Offerings made before its first); 0 none
    ("hand_size", 1),  # Heritage cards in hand / 3 (solo: / 4)
    ("heritage_played", NUM_HERITAGE),  # [card] played by this seat
    ("market_owned", NUM_MARKET),  # [card] acquired by this seat
    ("offerings_owned", NUM_OFFERINGS),  # [card] completed by this seat
    ("explorer", MAX_POSITIONS),  # [position] on expedition there
    ("space_worker", MAX_POSITIONS * MAX_SPACES),  # [position, space] a worker there
    ("encamp_worker", MAX_POSITIONS * 2),  # [position, side] on the firepit
    ("special_worker", PITUK_SPACES + 2),  # on Pituk space 0, 1, the start space, the increase space
)
SEAT_SIZE = sum(size for _, size in SEAT_LAYOUT)
OBS_LAYOUT = PUBLIC_LAYOUT + (
    ("seats", MAX_PLAYERS * SEAT_SIZE),  # [relative seat] SEAT_LAYOUT blocks
    ("hand", NUM_HERITAGE),  # own Heritage cards in hand
    ("pending", NUM_HERITAGE),  # own set-up choice, until revealed
)
FULL_LAYOUT = PUBLIC_LAYOUT + (
    ("seats", MAX_PLAYERS * SEAT_SIZE),  # [seat] SEAT_LAYOUT blocks, absolute seats
    ("hands", MAX_PLAYERS * NUM_HERITAGE),  # [seat, card] in hand
    ("pendings", MAX_PLAYERS * NUM_HERITAGE),  # [seat, card] set-up choices
    ("hidden_tile", MAX_POSITIONS * NUM_TILES),  # [position, tile] face-down identities
    ("boxed_tile", NUM_TILES),  # [tile] in the box
    ("market_order", NUM_MARKET),  # [card] place in the deck (1 = next) / 22; 0 not in it
    ("offering_order", NUM_OFFERINGS),  # [card] place in the deck (1 = next) / 12
)
# -- Cenote, Destiny, Forest (issue 16): one block at the end of both views --
EXPANSION_LAYOUT = (
    ("variant", 3),  # cenote, destiny, forest in play
    ("tseek_supply", 1),  # tseek' left on the Cenote tile / 6
    ("cenote_used", MAX_PLAYERS),  # [seat] sent a worker to the Cenote this round
    ("cenote_workers", MAX_PLAYERS),  # [seat] sacrificed workers left on the Cenote
    ("slot_workers", OFFERINGS_SHOWN * MAX_PLAYERS),  # [slot, seat] sacrificed workers on the Offering / 2
    ("tseek_on_offerings", MAX_PLAYERS),  # [seat] tseek' on its completed Offerings / 6
    ("paying", 1),  # a payment is being decided (the pay_* slices describe it)
    ("pay_kind", N_PAY_KINDS),  # Market, Offering, increase, steal, Cenote
    ("pay_action_slot", max(MARKET_SHOWN, OFFERINGS_SHOWN)),  # the Market or Offering slot paid for
    ("pay_left", GOODS),  # goods still to pay / 6
    ("pay_wild", GOODS),  # goods its tseek' replace so far / 6
    ("pay_sacrifices", 2),  # sacrifices left, sacrifices its tseek' pay; / 2
    ("destiny", MAX_PLAYERS * NUM_DESTINY),  # [seat, card]: own card; everyone's at the end
)
EXPANSION_SIZE = sum(size for _, size in EXPANSION_LAYOUT)
OBS_LAYOUT = OBS_LAYOUT + (("expansions", EXPANSION_SIZE),)  # seats relative, as above
FULL_LAYOUT = FULL_LAYOUT + (("expansions", EXPANSION_SIZE),)  # seats absolute, every Destiny card
EXPANSION = offsets(EXPANSION_LAYOUT)
# solo: Chaak'Bot's block, after the base observation (and the full view) in solo games only.
BOT_GOODS_SCALE = 10.0  # Chaak'Bot has no warehouse limit: goods / 10, clipped
BOT_LAYOUT = (
    ("hard", 1),  # 1: hard mode
    ("start_marker", 1),  # Chaak'Bot holds the starting player marker
    ("goods", GOODS),  # corn, skin, mask / 10, clipped
    ("vp", 1),  # VP tokens / 60, clipped
    ("offerings_done", 1),  # / 2, clipped
    ("first_offering", 1),  # 1 / (1 + the Offerings made before its first); 0 none
    ("market_owned", NUM_MARKET),  # [card] acquired by Chaak'Bot
    ("offerings_owned", NUM_OFFERINGS),  # [card] completed by Chaak'Bot
    ("explorer", MAX_POSITIONS),  # [position] its expedition marker there
    ("encamp_block", MAX_POSITIONS * 2),  # [position, side] its marker on the firepit
    ("drawn", BOT_DRAW * NUM_BOT_CARDS),  # [slot, card] the day's cards the viewer sees
    ("drawn_orientation", BOT_DRAW * 2),  # [slot, orientation] of those
    ("drawn_face_down", BOT_DRAW),  # [slot] a card lies there face down (hard mode)
    ("played", BOT_DRAW),  # [slot] played today
    ("resting", 1),  # it completed an Offering this morning and rests
    ("discard", NUM_BOT_CARDS),  # [card] in the face-up discard pile
    ("deck", 1),  # cards left in its deck / 8
)
BOT_SIZE = sum(size for _, size in BOT_LAYOUT)
BOT_HIDDEN_LAYOUT = (  # the full view only
    ("bot_deck_order", NUM_BOT_CARDS),  # [card] place in the deck (1 = next) / 8; 0 not in it
    ("bot_orientation", NUM_BOT_CARDS),  # [card] orientation of every card
)
SOLO_OBS_LAYOUT = OBS_LAYOUT + (("chaakbot", BOT_SIZE),)
SOLO_FULL_LAYOUT = FULL_LAYOUT + (("chaakbot", BOT_SIZE),) + BOT_HIDDEN_LAYOUT
OBS = offsets(OBS_LAYOUT)
FULL = offsets(FULL_LAYOUT)
SEAT = offsets(SEAT_LAYOUT)
PUBLIC_SIZE = sum(size for _, size in PUBLIC_LAYOUT)
OBS_SIZE = sum(size for _, size in OBS_LAYOUT)
FULL_SIZE = sum(size for _, size in FULL_LAYOUT)
SOLO_OBS_SIZE = sum(size for _, size in SOLO_OBS_LAYOUT)
SOLO_FULL_SIZE = sum(size for _, size in SOLO_FULL_LAYOUT)
BOT = offsets(BOT_LAYOUT)
SOLO_FULL = offsets(SOLO_FULL_LAYOUT)
_BOT_OBS = offsets(SOLO_OBS_LAYOUT)["chaakbot"][0]
_BOT_FULL = SOLO_FULL["chaakbot"][0]
_BOT_ORDER = SOLO_FULL["bot_deck_order"][0]
_BOT_ORIENTATION = SOLO_FULL["bot_orientation"][0]
_B_HARD = BOT["hard"][0]
_B_START = BOT["start_marker"][0]
_B_GOODS = BOT["goods"][0]
_B_VP = BOT["vp"][0]
_B_OFFERINGS_DONE = BOT["offerings_done"][0]
_B_FIRST = BOT["first_offering"][0]
_B_MARKET = BOT["market_owned"][0]
_B_OFFERINGS = BOT["offerings_owned"][0]
_B_EXPLORER = BOT["explorer"][0]
_B_ENCAMP = BOT["encamp_block"][0]
_B_DRAWN = BOT["drawn"][0]
_B_DRAWN_ORIENTATION = BOT["drawn_orientation"][0]
_B_FACE_DOWN = BOT["drawn_face_down"][0]
_B_PLAYED = BOT["played"][0]
_B_RESTING = BOT["resting"][0]
_B_DISCARD = BOT["discard"][0]
_B_DECK = BOT["deck"][0]

_PHASE = OBS["phase"][0]
_ROUND = OBS["round"][0]
_EFFECT = OBS["effect"][0]
_EFFECT_CARD = OBS["effect_card"][0]
_IN_USE = OBS["position_in_use"][0]
_REVEALED = OBS["revealed"][0]
_TILE = OBS["tile"][0]
_OPTION_CUBE = OBS["option_cube"][0]
_PITUK_CUBE = OBS["pituk_cube"][0]
_INCREASE_BLOCKED = OBS["increase_blocked"][0]
_START_BLOCKED = OBS["start_blocked"][0]
_CUBE_RESERVE = OBS["cube_reserve"][0]
_MARKET = OBS["market"][0]
_MARKET_DECK = OBS["market_deck"][0]
_OFFERING = OBS["offering"][0]
_OFFERING_DISCARD = OBS["offering_discard"][0]
_OFFERING_DECK = OBS["offering_deck"][0]
_SEATS = OBS["seats"][0]
assert FULL["seats"][0] == _SEATS
_HAND = OBS["hand"][0]
_PENDING = OBS["pending"][0]
_HANDS = FULL["hands"][0]
_PENDINGS = FULL["pendings"][0]
_HIDDEN_TILE = FULL["hidden_tile"][0]
_BOXED = FULL["boxed_tile"][0]
_MARKET_ORDER = FULL["market_order"][0]
_OFFERING_ORDER = FULL["offering_order"][0]
_EXPANSIONS = OBS["expansions"][0]
_FULL_EXPANSIONS = FULL["expansions"][0]
_X_VARIANT = EXPANSION["variant"][0]
_X_SUPPLY = EXPANSION["tseek_supply"][0]
_X_USED = EXPANSION["cenote_used"][0]
_X_CENOTE = EXPANSION["cenote_workers"][0]
_X_SLOT = EXPANSION["slot_workers"][0]
_X_ON_OFFERINGS = EXPANSION["tseek_on_offerings"][0]
_X_PAYING = EXPANSION["paying"][0]
_X_KIND = EXPANSION["pay_kind"][0]
_X_PAY_SLOT = EXPANSION["pay_action_slot"][0]
_X_LEFT = EXPANSION["pay_left"][0]
_X_WILD = EXPANSION["pay_wild"][0]
_X_SACRIFICES = EXPANSION["pay_sacrifices"][0]
_X_DESTINY = EXPANSION["destiny"][0]
_S_IN_GAME = SEAT["in_game"][0]
_S_TO_ACT = SEAT["to_act"][0]
_S_START = SEAT["start_marker"][0]
_S_CLAN = SEAT["clan"][0]
_S_GOODS = SEAT["goods"][0]
_S_VP = SEAT["vp"][0]
_S_TSEEK = SEAT["tseek"][0]
_S_WORKERS = SEAT["workers"][0]
_S_OFFERINGS_DONE = SEAT["offerings_done"][0]
_S_FIRST = SEAT["first_offering"][0]
_S_HAND_SIZE = SEAT["hand_size"][0]
_S_HERITAGE = SEAT["heritage_played"][0]
_S_MARKET = SEAT["market_owned"][0]
_S_OFFERINGS = SEAT["offerings_owned"][0]
_S_EXPLORER = SEAT["explorer"][0]
_S_SPACE = SEAT["space_worker"][0]
_S_ENCAMP = SEAT["encamp_worker"][0]
_S_SPECIAL = SEAT["special_worker"][0]
# observe writes its slices in this order, with nothing between them.
assert _HAND == _SEATS + MAX_PLAYERS * SEAT_SIZE and _PENDING == _HAND + NUM_HERITAGE
assert _EXPANSIONS == _PENDING + NUM_HERITAGE and _BOT_OBS == _EXPANSIONS + EXPANSION_SIZE
assert OBS_SIZE == _BOT_OBS and SEAT_SIZE == _S_SPECIAL + PITUK_SPACES + 2
assert SPACE_PLACES == 2  # write_seat reads both places of a space


@njit(cache=True)
def write_public(state: np.ndarray, out: np.ndarray) -> None:
    out[:PUBLIC_SIZE] = 0.0
    out[_PHASE + state[PHASE]] = 1.0
    out[_ROUND] = min(state[ROUND] / MAX_ROUNDS_SCALE, 1.0)
    out[_EFFECT + state[EFFECT]] = 1.0
    if state[EFFECT_CARD] != NO_CARD:
        out[_EFFECT_CARD + state[EFFECT_CARD]] = 1.0
    for position in range(state[POSITIONS]):
        out[_IN_USE + position] = 1.0
        if state[REVEALED + position]:
            out[_REVEALED + position] = 1.0
            out[_TILE + position * NUM_TILES + state[TILE_AT + position]] = 1.0
    for slot in range(MAX_POSITIONS * 2 * MAX_OPTIONS):
        out[_OPTION_CUBE + slot] = state[OPTION_CUBE + slot]
    for s in range(PITUK_SPACES):
        out[_PITUK_CUBE + s] = state[PITUK_CUBE + s]
    out[_INCREASE_BLOCKED] = state[INCREASE_BLOCKED]
    out[_START_BLOCKED] = state[START_BLOCKED]
    out[_CUBE_RESERVE] = state[CUBE_RESERVE] / 17.0
    for slot in range(MARKET_SHOWN):
        if state[MARKET_SLOT + slot] != NO_CARD:
            out[_MARKET + slot * NUM_MARKET + state[MARKET_SLOT + slot]] = 1.0
    out[_MARKET_DECK] = state[MARKET_DECK_COUNT] / NUM_MARKET
    for slot in range(OFFERINGS_SHOWN):
        if state[OFFER_SLOT + slot] != NO_CARD:
            out[_OFFERING + slot * NUM_OFFERINGS + state[OFFER_SLOT + slot]] = 1.0
    for card in range(NUM_OFFERINGS):
        if state[OFFERING_WHERE + card] == OFFER_DISCARD:
            out[_OFFERING_DISCARD + card] = 1.0
    out[_OFFERING_DECK] = state[OFFER_DECK_COUNT] / NUM_OFFERINGS


@njit(cache=True)
def write_seat(state: np.ndarray, seat: int, out: np.ndarray, start: int) -> None:
    """Seat's public block into out[start : start + SEAT_SIZE], every feature written (no
    clearing first).

    For speed: in the output's order, each flag without a branch (equal_flag), through views
    of the block and of the state's owner tables, which numba compiles to tighter loops than
    offsets."""
    row = out[start : start + SEAT_SIZE]
    mark = seat + 1
    row[_S_IN_GAME] = 1.0
    row[_S_TO_ACT] = equal_flag(state[CURRENT_PLAYER], seat) & equal_flag(state[TERMINAL], 0)
    row[_S_START] = equal_flag(state[START], seat)
    clan = state[CLAN + seat]
    for c in range(NUM_CLANS):
        row[_S_CLAN + c] = equal_flag(c, clan)
    res = RES + seat * NUM_RES
    for r in range(GOODS):
        row[_S_GOODS + r] = state[res + r] / CLAN_LIMIT[clan, r]
    row[_S_VP] = min(state[res + VP] / MAX_VP_SCALE, 1.0)
    row[_S_TSEEK] = min(state[res + TSEEK] / MAX_TSEEK, 1.0)
    owned = state[OWNED + seat]
    new = state[NEW_WORKERS + seat]
    row[_S_WORKERS] = owned / WORKERS_PER_COLOUR
    row[_S_WORKERS + 1] = state[AVAILABLE + seat] / WORKERS_PER_COLOUR
    row[_S_WORKERS + 2] = new / WORKERS_PER_COLOUR
    row[_S_WORKERS + 3] = (WORKERS_PER_COLOUR - owned - new) / WORKERS_PER_COLOUR
    row[_S_WORKERS + 4] = min(state[PYRAMID_WORKERS + seat] / WORKERS_PER_COLOUR, 1.0)
    row[_S_WORKERS + 5] = state[SACRIFICED + seat] / WORKERS_PER_COLOUR
    row[_S_WORKERS + 6] = state[IDLE + seat] / WORKERS_PER_COLOUR
    row[_S_OFFERINGS_DONE] = min(state[OFFERINGS_DONE + seat] / 2.0, 1.0)
    first = state[FIRST_OFFERING + seat]
    row[_S_FIRST] = 1.0 / first if first else 0.0
    holders = state[HERITAGE_HOLDER : HERITAGE_HOLDER + NUM_HERITAGE]
    played = state[HERITAGE_PLAYED : HERITAGE_PLAYED + NUM_HERITAGE]
    in_hand = 0
    for card in range(NUM_HERITAGE):
        held = equal_flag(holders[card], mark)
        face_down = equal_flag(played[card], 0)
        row[_S_HERITAGE + card] = held & (1 - face_down)
        in_hand += held & face_down
    # / 3 (solo: / the 4 Heritage cards the human holds)
    row[_S_HAND_SIZE] = in_hand / (3.0 if state[NUM_PLAYERS] > 1 else SOLO_HERITAGE_DEALT)
    owners = state[MARKET_OWNER : MARKET_OWNER + NUM_MARKET]
    for card in range(NUM_MARKET):
        row[_S_MARKET + card] = equal_flag(owners[card], mark)
    owners = state[OFFERING_OWNER : OFFERING_OWNER + NUM_OFFERINGS]
    for card in range(NUM_OFFERINGS):
        row[_S_OFFERINGS + card] = equal_flag(owners[card], mark)
    owners = state[EXPLORER : EXPLORER + MAX_POSITIONS]
    for position in range(MAX_POSITIONS):
        row[_S_EXPLORER + position] = equal_flag(owners[position], mark)
    # [position, space]: a worker on either of its places
    owners = state[SPACE_WORKER : SPACE_WORKER + MAX_POSITIONS * MAX_SPACES * SPACE_PLACES]
    for spot in range(MAX_POSITIONS * MAX_SPACES):
        row[_S_SPACE + spot] = equal_flag(owners[spot * SPACE_PLACES], mark) | equal_flag(
            owners[spot * SPACE_PLACES + 1], mark
        )
    owners = state[ENCAMP_WORKER : ENCAMP_WORKER + MAX_POSITIONS * 2]
    for spot in range(MAX_POSITIONS * 2):
        row[_S_ENCAMP + spot] = equal_flag(owners[spot], mark)
    for s in range(PITUK_SPACES):
        row[_S_SPECIAL + s] = equal_flag(state[PITUK_WORKER + s], mark)
    row[_S_SPECIAL + PITUK_SPACES] = equal_flag(state[START_WORKER], mark)
    row[_S_SPECIAL + PITUK_SPACES + 1] = equal_flag(state[INCREASE_WORKER], mark)


@njit(cache=True)
def observe(state: np.ndarray, player: int, out: np.ndarray) -> None:
    """What `player` may know: the public table, every seat's public block (relative seats),
    its own hand and its own pending set-up choice. Each slice is written once, in order."""
    write_public(state, out)
    n = state[NUM_PLAYERS]
    for relative in range(MAX_PLAYERS):
        start = _SEATS + relative * SEAT_SIZE
        if relative < n:
            seat = player + relative
            write_seat(state, seat - n if seat >= n else seat, out, start)
        else:
            out[start : start + SEAT_SIZE] = 0.0  # no such seat
    mark = player + 1
    for card in range(NUM_HERITAGE):
        in_hand = state[HERITAGE_HOLDER + card] == mark and not state[HERITAGE_PLAYED + card]
        out[_HAND + card] = 1.0 if in_hand else 0.0
    out[_PENDING : _PENDING + NUM_HERITAGE] = 0.0
    if state[PENDING + player] != NO_CARD:
        out[_PENDING + state[PENDING + player]] = 1.0
    write_expansions(state, player, False, out, _EXPANSIONS)
    if n == 1:  # solo: Chaak'Bot as the human sees it
        write_bot(state, out, _BOT_OBS, False)


@njit(cache=True)
def full_state(state: np.ndarray, out: np.ndarray) -> None:
    """Everything, secrets included: for centralised critics and debugging."""
    write_public(state, out)
    out[PUBLIC_SIZE:] = 0.0
    n = state[NUM_PLAYERS]
    for seat in range(n):
        write_seat(state, seat, out, _SEATS + seat * SEAT_SIZE)
        if state[PENDING + seat] != NO_CARD:
            out[_PENDINGS + seat * NUM_HERITAGE + state[PENDING + seat]] = 1.0
    for card in range(NUM_HERITAGE):
        holder = state[HERITAGE_HOLDER + card]
        if holder != 0 and not state[HERITAGE_PLAYED + card]:
            out[_HANDS + (holder - 1) * NUM_HERITAGE + card] = 1.0
    boxed = np.ones(NUM_TILES, np.int32)
    for position in range(state[POSITIONS]):
        tile = state[TILE_AT + position]
        boxed[tile] = 0
        if not state[REVEALED + position]:
            out[_HIDDEN_TILE + position * NUM_TILES + tile] = 1.0
    for t in range(NUM_TILES):
        out[_BOXED + t] = boxed[t]
    count = state[MARKET_DECK_COUNT]
    for i in range(count):
        out[_MARKET_ORDER + state[MARKET_DECK + i]] = (count - i) / NUM_MARKET
    count = state[OFFER_DECK_COUNT]
    for i in range(count):
        out[_OFFERING_ORDER + state[OFFER_DECK + i]] = (count - i) / NUM_OFFERINGS
    write_expansions(state, 0, True, out, _FULL_EXPANSIONS)
    if n == 1:  # solo: Chaak'Bot, every card face up, and its deck
        write_bot(state, out, _BOT_FULL, True)
        count = state[BOT_DECK_COUNT]
        for i in range(count):
            out[_BOT_ORDER + state[BOT_DECK + i]] = (count - i) / NUM_BOT_CARDS
        for card in range(NUM_BOT_CARDS):
            out[_BOT_ORIENTATION + card] = state[BOT_ORIENT + card]


@njit(cache=True)
def write_expansions(state: np.ndarray, player: int, everything: bool, out: np.ndarray, start: int) -> None:
    """The Cenote's, the payment's and the Destiny cards' slices, seats relative to `player`;
    another seat's Destiny card only when `everything` or at the end."""
    out[start : start + EXPANSION_SIZE] = 0.0
    n = state[NUM_PLAYERS]
    for flag in range(3):
        out[start + _X_VARIANT + flag] = state[VARIANT + flag]
    out[start + _X_SUPPLY] = state[TSEEK_SUPPLY] / MAX_TSEEK
    for relative in range(n):
        seat = (player + relative) % n
        out[start + _X_USED + relative] = state[CENOTE_USED + seat]
        out[start + _X_CENOTE + relative] = state[CENOTE_WORKERS + seat]
        for slot in range(OFFERINGS_SHOWN):
            workers = state[OFFER_SLOT_WORKERS + slot * MAX_PLAYERS + seat]
            out[start + _X_SLOT + slot * MAX_PLAYERS + relative] = workers / 2.0
        out[start + _X_ON_OFFERINGS + relative] = min(state[TSEEK_ON_OFFERINGS + seat] / MAX_TSEEK, 1.0)
        for card in range(NUM_DESTINY):
            if state[DESTINY_HOLDER + card] == seat + 1 and (everything or seat == player or state[TERMINAL]):
                out[start + _X_DESTINY + relative * NUM_DESTINY + card] = 1.0
    action = state[PAY_ACTION]
    if action >= 0:
        payer = state[CURRENT_PLAYER]
        out[start + _X_PAYING] = 1.0
        kind = cenote.pay_kind(action)
        out[start + _X_KIND + kind] = 1.0
        if kind == cenote.PAY_MARKET:
            out[start + _X_PAY_SLOT + (action - cenote.MARKET_BASE) % MARKET_SHOWN] = 1.0
        elif kind == cenote.PAY_OFFERING:
            out[start + _X_PAY_SLOT + action - cenote.OFFERING_BASE] = 1.0
        for g in range(GOODS):
            left = cenote.cost_of(state, payer, action, g) - state[PAY_WILD + g]
            out[start + _X_LEFT + g] = min(max(left, 0) / MAX_TSEEK, 1.0)
            out[start + _X_WILD + g] = min(state[PAY_WILD + g] / MAX_TSEEK, 1.0)
        sacrifice, _, _ = cenote.offering_terms(state, payer, action)
        out[start + _X_SACRIFICES] = min(max(sacrifice - state[PAY_SACRIFICE], 0) / 2.0, 1.0)
        out[start + _X_SACRIFICES + 1] = min(state[PAY_SACRIFICE] / 2.0, 1.0)


@njit(cache=True)
def write_bot(state: np.ndarray, out: np.ndarray, start: int, everything: bool) -> None:
    """Chaak'Bot's block into out[start : start + BOT_SIZE]; its face-down cards (hard mode)
    show only as face down unless `everything` (the full view)."""
    out[start : start + BOT_SIZE] = 0.0
    out[start + _B_HARD] = state[VARIANT + V_SOLO_HARD]
    if state[START] == BOT_SEAT:
        out[start + _B_START] = 1.0
    for r in range(GOODS):
        out[start + _B_GOODS + r] = min(state[RES + BOT_SEAT * NUM_RES + r] / BOT_GOODS_SCALE, 1.0)
    out[start + _B_VP] = min(state[RES + BOT_SEAT * NUM_RES + VP] / MAX_VP_SCALE, 1.0)
    out[start + _B_OFFERINGS_DONE] = min(state[OFFERINGS_DONE + BOT_SEAT] / 2.0, 1.0)
    if state[FIRST_OFFERING + BOT_SEAT]:
        out[start + _B_FIRST] = 1.0 / state[FIRST_OFFERING + BOT_SEAT]
    for card in range(NUM_MARKET):
        if state[MARKET_OWNER + card] == BOT_MARK:
            out[start + _B_MARKET + card] = 1.0
    for card in range(NUM_OFFERINGS):
        if state[OFFERING_OWNER + card] == BOT_MARK:
            out[start + _B_OFFERINGS + card] = 1.0
    for position in range(MAX_POSITIONS):
        if state[EXPLORER + position] == BOT_MARK:
            out[start + _B_EXPLORER + position] = 1.0
        for side in range(2):
            if state[ENCAMP_WORKER + position * 2 + side] == BOT_MARK:
                out[start + _B_ENCAMP + position * 2 + side] = 1.0
    # The discard pile: every card but those in the deck or drawn (no scratch array: the
    # block is written in place, every step of a batch).
    discard = start + _B_DISCARD
    out[discard : discard + NUM_BOT_CARDS] = 1.0
    for i in range(state[BOT_DECK_COUNT]):
        out[discard + state[BOT_DECK + i]] = 0.0
    for k in range(BOT_DRAW):
        value = state[BOT_DRAWN + k]
        if value == NO_CARD:
            continue
        card = value - BOT_FACE_DOWN if value >= BOT_FACE_DOWN else value
        out[discard + card] = 0.0
        if value >= BOT_FACE_DOWN:
            out[start + _B_FACE_DOWN + k] = 1.0
        if value < BOT_FACE_DOWN or everything:
            out[start + _B_DRAWN + k * NUM_BOT_CARDS + card] = 1.0
            out[start + _B_DRAWN_ORIENTATION + k * 2 + state[BOT_ORIENT + card]] = 1.0
        if k < state[BOT_ACTED]:
            out[start + _B_PLAYED + k] = 1.0
    if state[BOT_DRAWN] == NO_CARD and state[PHASE] >= PHASE_DAY:
        out[start + _B_RESTING] = 1.0
    out[start + _B_DECK] = state[BOT_DECK_COUNT] / NUM_BOT_CARDS
