"""Solo play against Chaak'Bot (rulebook, "Solitaire Play: Chaak'Bot"): the bot as @njit
kernels over the state, called from kernels.py's solo hooks (init, start_day, step, night,
scores, resample_hidden).

The human is seat 0 (num_players == 1); Chaak'Bot is competitor 1 and keeps its warehouse, its
Offerings and its Market cards in seat 1's rows (data.BOT_SEAT, marks state.BOT_MARK). Its 8
cards (data.BOT_CARDS) lie in BOT_DECK / BOT_DRAWN, or face up in the discard pile (neither).
"""

import numpy as np

from nakum_env.cenote import slot_carries_workers
from nakum_env.data import (
    BOT_ACTIONS,
    BOT_COMBO,
    BOT_DRAW,
    BOT_GAIN,
    BOT_GAIN_OF,
    BOT_HEARTS,
    BOT_KIND,
    BOT_MARKET,
    BOT_POSITION,
    BOT_SEAT,
    BOT_SIDE,
    BOT_TILE,
    COMBO_MASK,
    COMBO_NONE,
    COMBO_START,
    HERITAGE_DEALT,
    ICON_FREE,
    ICON_STEAL,
    MARKET_COST,
    MARKET_GAIN,
    MARKET_ICON,
    MARKET_SHOWN,
    MASK,
    MAX_OPTIONS,
    NUM_BOT_CARDS,
    NUM_RES,
    OFFERING_COST,
    OFFERING_SACRIFICE,
    OFFERINGS_SHOWN,
    OPTION_EXISTS,
    PITUK_SPACES,
    SOLO_HERITAGE_DEALT,
    STEAL_COST,
    STEAL_OPTIONS,
    STEAL_VP,
    VP,
)
from nakum_env.state import (
    BOT_ACTED,
    BOT_DECK,
    BOT_DECK_COUNT,
    BOT_DRAWN,
    BOT_FACE_DOWN,
    BOT_MARK,
    BOT_ORIENT,
    CUBE_RESERVE,
    EFFECT,
    EFFECT_CARD,
    EFFECT_FREE,
    EFFECT_NONE,
    ENCAMP_WORKER,
    EXPLORER,
    FIRST_OFFERING,
    HERITAGE_HOLDER,
    INCREASE_BLOCKED,
    LEADER,
    MARKET_OWNER,
    MARKET_SLOT,
    N_OPTION_SLOTS,
    NO_CARD,
    OFFER_SLOT,
    OFFER_TAKEN,
    OFFERING_OWNER,
    OFFERING_WHERE,
    OFFERINGS_DONE,
    OFFERINGS_MADE,
    OPTION_CUBE,
    P_SOLO_HARD,
    PHASE,
    PHASE_EFFECT,
    PITUK_CUBE,
    POSITIONS,
    RES,
    REVEALED,
    START,
    START_BLOCKED,
    START_WORKER,
    TILE_AT,
    V_SOLO_HARD,
    VARIANT,
)
from treasure_core.header import CURRENT_PLAYER, RNG
from treasure_core.jit import njit
from treasure_core.rng import rng_below, rng_shuffle

HUMAN = 0


# -- small helpers (chaakbot.py does not import kernels.py, which calls it) -------------------------
@njit(cache=True, inline="always")
def res_at(p, r):
    return RES + p * NUM_RES + r


@njit(cache=True)
def can_pay(state, p, cost):
    for r in range(NUM_RES):
        if state[res_at(p, r)] < cost[r]:
            return False
    return True


@njit(cache=True)
def pay(state, p, cost):
    for r in range(NUM_RES):
        state[res_at(p, r)] -= cost[r]


@njit(cache=True)
def take_market_slot(state, slot):
    """Remove the card in `slot`; the cards to its right shift left."""
    for s in range(slot, MARKET_SHOWN - 1):
        state[MARKET_SLOT + s] = state[MARKET_SLOT + s + 1]
    state[MARKET_SLOT + MARKET_SHOWN - 1] = NO_CARD


@njit(cache=True)
def any_cube(state):
    """A black cube on the board (what the free-an-Encampment icon can remove)."""
    for slot in range(N_OPTION_SLOTS):
        if state[OPTION_CUBE + slot]:
            return True
    for space in range(PITUK_SPACES):
        if state[PITUK_CUBE + space]:
            return True
    return state[INCREASE_BLOCKED] == 1 or state[START_BLOCKED] == 1


@njit(cache=True, inline="always")
def hard_mode(state):
    return state[VARIANT + V_SOLO_HARD] == 1


@njit(cache=True, inline="always")
def drawn_card(state, k):
    """The card in draw slot k (face up or down), or NO_CARD."""
    value = state[BOT_DRAWN + k]
    return value - BOT_FACE_DOWN if value >= BOT_FACE_DOWN else value


@njit(cache=True, inline="always")
def drawn_face_down(state, k):
    return state[BOT_DRAWN + k] >= BOT_FACE_DOWN


@njit(cache=True, inline="always")
def turn_up(state, k):
    if state[BOT_DRAWN + k] >= BOT_FACE_DOWN:
        state[BOT_DRAWN + k] -= BOT_FACE_DOWN


@njit(cache=True)
def resting(state):
    """Chaak'Bot completed an Offering this morning: its cards are discarded, it rests all day."""
    return state[BOT_DRAWN] == NO_CARD


@njit(cache=True)
def cards_left(state):
    """Chaak'Bot still has a card to play today."""
    return not resting(state) and state[BOT_ACTED] < BOT_DRAW


@njit(cache=True)
def bot_gain(state, amount):
    """Chaak'Bot has no warehouse limit."""
    for r in range(NUM_RES):
        state[res_at(BOT_SEAT, r)] += amount[r]


# -- the deck ------------------------------------------------------------------------------------
@njit(cache=True)
def in_play(state, card, drawn_upto):
    """Whether `card` is in the deck or in the first `drawn_upto` draw slots (else: discarded)."""
    for i in range(state[BOT_DECK_COUNT]):
        if state[BOT_DECK + i] == card:
            return True
    for k in range(drawn_upto):
        if drawn_card(state, k) == card:
            return True
    return False


@njit(cache=True)
def reshuffle(state, drawn_upto):
    """The discard pile becomes the deck, shuffled, each card turned at random."""
    count = 0
    for card in range(NUM_BOT_CARDS):
        if not in_play(state, card, drawn_upto):
            state[BOT_DECK + count] = card
            state[BOT_ORIENT + card] = rng_below(state, RNG, 2)
            count += 1
    rng_shuffle(state, RNG, state[BOT_DECK : BOT_DECK + count], count)
    state[BOT_DECK_COUNT] = count


@njit(cache=True)
def draw(state):
    """3 cards (face down in hard mode). With fewer than 3 left, the rest of the deck is drawn,
    the discards reshuffled (orientations at random) and the 3 completed from the new deck."""
    hidden = BOT_FACE_DOWN if hard_mode(state) else 0  # hard mode: "drawn hidden"
    for k in range(BOT_DRAW):
        if state[BOT_DECK_COUNT] == 0:
            reshuffle(state, k)
        state[BOT_DECK_COUNT] -= 1
        state[BOT_DRAWN + k] = state[BOT_DECK + state[BOT_DECK_COUNT]] + hidden
    state[BOT_ACTED] = 0


@njit(cache=True)
def discard_drawn(state):
    for k in range(BOT_DRAW):
        state[BOT_DRAWN + k] = NO_CARD
    state[BOT_ACTED] = 0


# -- set-up ----------------------------------------------------------------------------------------
@njit(cache=True)
def setup(state, params, heritage_order):
    """The 2-player preparation (1 tile revealed: data.REVEAL_AT_SETUP) with the solo changes:
    the human holds 4 Heritage cards; "Increase the clan" and the Pituk are open from the start;
    Chaak'Bot starts. Its 8 cards are shuffled, each turned at random."""
    state[VARIANT + V_SOLO_HARD] = params[P_SOLO_HARD]
    for k in range(HERITAGE_DEALT, SOLO_HERITAGE_DEALT):
        state[HERITAGE_HOLDER + heritage_order[k]] = HUMAN + 1
    if state[INCREASE_BLOCKED]:
        state[INCREASE_BLOCKED] = 0
        state[CUBE_RESERVE] += 1
    state[START] = BOT_SEAT
    state[LEADER] = BOT_SEAT
    for k in range(BOT_DRAW):
        state[BOT_DRAWN + k] = NO_CARD
    state[BOT_DECK_COUNT] = 0
    reshuffle(state, 0)


# -- the bot's turn --------------------------------------------------------------------------------
@njit(cache=True)
def offering_check(state):
    """Morning: can Chaak'Bot complete a displayed Offering (left slot first)? First its
    resources, then the hearts on its 3 cards for the sacrifices (hard mode turns the cards up
    to count them). If so it takes the Offering, pays, discards its cards and rests all day."""
    for slot in range(OFFERINGS_SHOWN):
        card = state[OFFER_SLOT + slot]
        if card == NO_CARD or not can_pay(state, BOT_SEAT, OFFERING_COST[card]):
            continue
        if slot_carries_workers(state, slot):
            continue  # Cenote: a worker on it asks for a tseek', and Chaak'Bot never has one
        need = OFFERING_SACRIFICE[card]
        if need > 0:
            hearts = 0
            for k in range(BOT_DRAW):
                turn_up(state, k)
                bot_card = drawn_card(state, k)
                hearts += BOT_HEARTS[bot_card, state[BOT_ORIENT + bot_card]]
            if hearts < need:
                continue
        pay(state, BOT_SEAT, OFFERING_COST[card])
        state[OFFER_SLOT + slot] = NO_CARD
        state[OFFERING_WHERE + card] = OFFER_TAKEN
        state[OFFERING_OWNER + card] = BOT_MARK
        state[OFFERINGS_DONE + BOT_SEAT] += 1
        if state[FIRST_OFFERING + BOT_SEAT] == 0:
            state[FIRST_OFFERING + BOT_SEAT] = state[OFFERINGS_MADE] + 1
        state[OFFERINGS_MADE] += 1
        discard_drawn(state)
        return


@njit(cache=True)
def market(state):
    """The leftmost Market card it can afford: it pays and gains; Pituk and increase-the-clan
    cards are kept without their benefit; a steal takes the most VP it can pay for from the
    human; a free-an-Encampment icon is the human's choice (EFFECT_FREE, the bot's card). The
    cards to its right shift left. None affordable: the action is lost."""
    for slot in range(MARKET_SHOWN):
        card = state[MARKET_SLOT + slot]
        if card == NO_CARD or not can_pay(state, BOT_SEAT, MARKET_COST[card]):
            continue
        take_market_slot(state, slot)
        pay(state, BOT_SEAT, MARKET_COST[card])
        bot_gain(state, MARKET_GAIN[card])
        state[MARKET_OWNER + card] = BOT_MARK
        icon = MARKET_ICON[card]
        if icon == ICON_STEAL:
            best = -1
            for o in range(STEAL_OPTIONS):
                if STEAL_VP[card, o] > 0 and can_pay(state, BOT_SEAT, STEAL_COST[card, o]):
                    if best < 0 or STEAL_VP[card, o] > STEAL_VP[card, best]:
                        best = o
            if best >= 0:
                pay(state, BOT_SEAT, STEAL_COST[card, best])
                taken = min(STEAL_VP[card, best], state[res_at(HUMAN, VP)])
                state[res_at(HUMAN, VP)] -= taken
                state[res_at(BOT_SEAT, VP)] += taken
        elif icon == ICON_FREE and any_cube(state):
            state[EFFECT] = EFFECT_FREE
            state[EFFECT_CARD] = card
            state[PHASE] = PHASE_EFFECT
            state[CURRENT_PLAYER] = HUMAN
        return


@njit(cache=True)
def tile_action(state, position, side):
    """Explore tile no. position + 1 if it is face down and unexplored (+1 VP, a marker there
    until the night); once face up, block its Encampment on `side` (a marker on the firepit for
    the day). No such tile, Encampment, or one already taken or depleted: ignored."""
    if position >= state[POSITIONS]:
        return
    if not state[REVEALED + position]:
        if state[EXPLORER + position] == 0:
            state[EXPLORER + position] = BOT_MARK
            state[res_at(BOT_SEAT, VP)] += 1
        return
    tile = state[TILE_AT + position]
    if state[ENCAMP_WORKER + position * 2 + side] != 0:
        return
    for option in range(MAX_OPTIONS):
        covered = state[OPTION_CUBE + (position * 2 + side) * MAX_OPTIONS + option]
        if OPTION_EXISTS[tile, side, option] and not covered:
            state[ENCAMP_WORKER + position * 2 + side] = BOT_MARK
            return


@njit(cache=True)
def combo(state):
    """The centre symbols of the card played and of the next one (normal mode) or the previous
    one (hard mode; none for the first card) match: a Mask, or the starting player marker with
    a cube on the start-player space until the night (if no worker stands there)."""
    k = state[BOT_ACTED]
    other = k - 1 if hard_mode(state) else k + 1
    if other < 0 or other >= BOT_DRAW:
        return
    card, partner = drawn_card(state, k), drawn_card(state, other)
    symbol = BOT_COMBO[card, state[BOT_ORIENT + card]]
    if symbol == COMBO_NONE or symbol != BOT_COMBO[partner, state[BOT_ORIENT + partner]]:
        return
    if symbol == COMBO_MASK:
        state[res_at(BOT_SEAT, MASK)] += 1
    elif symbol == COMBO_START:
        state[START] = BOT_SEAT  # "It does not matter if the bot is already the starting player."
        if state[START_BLOCKED] == 0 and state[START_WORKER] == 0 and state[CUBE_RESERVE] > 0:
            state[START_BLOCKED] = 1
            state[CUBE_RESERVE] -= 1


@njit(cache=True)
def play_card(state):
    """The actions on top of the next card, left to right; stops at a Market card whose cube
    the human chooses (a Market icon is always a top's last action), else the combo."""
    k = state[BOT_ACTED]
    turn_up(state, k)
    card = drawn_card(state, k)
    orientation = state[BOT_ORIENT + card]
    for i in range(BOT_ACTIONS):
        kind = BOT_KIND[card, orientation, i]
        if kind == BOT_GAIN:
            bot_gain(state, BOT_GAIN_OF[card, orientation, i])
        elif kind == BOT_MARKET:
            market(state)
            if state[EFFECT] != EFFECT_NONE:
                return
        elif kind == BOT_TILE:
            tile_action(state, BOT_POSITION[card, orientation, i], BOT_SIDE[card, orientation, i])
    finish_card(state)


@njit(cache=True)
def finish_card(state):
    combo(state)
    state[BOT_ACTED] += 1


# -- hooks called from kernels.py ------------------------------------------------------------------
@njit(cache=True)
def start_day(state):
    """Morning: Chaak'Bot draws 3 cards and checks the Offerings; if it holds the starting
    player marker (and does not rest), it plays its first card before the human's turn."""
    state[CURRENT_PLAYER] = HUMAN
    draw(state)
    offering_check(state)
    if state[START] == BOT_SEAT and cards_left(state):
        play_card(state)


@njit(cache=True)
def night(state):
    """Chaak'Bot's markers leave the Pyramid tile (its start-player cube); its cards are
    discarded (the explorers and firepit markers leave with everyone's workers)."""
    if state[START_BLOCKED]:
        state[START_BLOCKED] = 0
        state[CUBE_RESERVE] += 1
    discard_drawn(state)


@njit(cache=True)
def resample(state):
    """Re-deal what the human cannot know: the deck's order and orientations, and in hard mode
    the face-down drawn cards among them (the face-up ones and the discards are public)."""
    pool = np.empty(NUM_BOT_CARDS, np.int32)
    size = state[BOT_DECK_COUNT]
    for i in range(size):
        pool[i] = state[BOT_DECK + i]
    for k in range(BOT_DRAW):
        if drawn_face_down(state, k):
            pool[size] = drawn_card(state, k)
            size += 1
    rng_shuffle(state, RNG, pool, size)
    for i in range(size):
        state[BOT_ORIENT + pool[i]] = rng_below(state, RNG, 2)
    count = state[BOT_DECK_COUNT]
    for i in range(count):
        state[BOT_DECK + i] = pool[i]
    i = count
    for k in range(BOT_DRAW):
        if drawn_face_down(state, k):
            state[BOT_DRAWN + k] = pool[i] + BOT_FACE_DOWN
            i += 1
