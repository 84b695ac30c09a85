"""Nakum's expansions (issue 16): the Cenote and its tseek', the payment in which a player
decides which goods its tseek' replace, the Destiny cards and the Forest's set-up. @njit
kernels over the flat state, called from kernels.py through small hooks; with every option off
none of them runs (the fields they read stay zero, PAY_ACTION -1).

Rulebook: "Nakum Cenote Expansion", "Destiny Expansion", "Variant: Nakum Forest".
"""

import numpy as np

from nakum_env.data import (
    CENOTE_BOOST_COST,
    CENOTE_BOOST_VP,
    CLAN_INCREASE_COST,
    DESTINY_COUNT,
    DESTINY_GOODS,
    DESTINY_HERITAGE,
    DESTINY_KIND,
    DESTINY_VP_LOWER,
    DESTINY_VP_UPPER,
    GOODS,
    MARKET_COST,
    MARKET_SHOWN,
    MAX_PLAYERS,
    MIN_WORKERS,
    NUM_DESTINY,
    NUM_HERITAGE,
    NUM_MARKET,
    NUM_RES,
    OFFERING_COST,
    OFFERING_SACRIFICE,
    OFFERINGS_SHOWN,
    STEAL_COST,
    TSEEK,
    TSEEK_START,
    VP,
)
from nakum_env.state import (
    AVAILABLE,
    CENOTE,
    CENOTE_DESTINATIONS,
    CENOTE_USED,
    CENOTE_WORKERS,
    CLAN,
    DESTINY_HOLDER,
    EFFECT,
    EFFECT_CARD,
    EFFECT_PAY,
    HERITAGE_HOLDER,
    HERITAGE_PLAYED,
    INCREASE,
    MARKET_ACTION,
    MARKET_OWNER,
    MARKET_SLOT,
    N_SEAT_OFFSETS,
    NEW_WORKERS,
    NO_CARD,
    OFFER_SLOT,
    OFFER_SLOT_WORKERS,
    OFFERING,
    OWNED,
    PAY_ACTION,
    PAY_DONE,
    PAY_SACRIFICE,
    PAY_WILD,
    PHASE,
    PHASE_EFFECT,
    RES,
    SACRIFICED,
    STEAL,
    TSEEK_ON_OFFERINGS,
    TSEEK_SUPPLY,
    V_CENOTE,
    VARIANT,
    WILD,
    WILD_SACRIFICE,
)
from treasure_core.header import NUM_PLAYERS, RNG
from treasure_core.jit import njit
from treasure_core.rng import rng_shuffle

CENOTE_BASE = CENOTE.start
WILD_BASE = WILD.start
WILD_SACRIFICE_ACTION = WILD_SACRIFICE.start
PAY_DONE_ACTION = PAY_DONE.start
MARKET_BASE = MARKET_ACTION.start
OFFERING_BASE = OFFERING.start
INCREASE_ACTION = INCREASE.start
STEAL_BASE = STEAL.start
STEAL_STOP = STEAL.start + STEAL.size
MARKET_STOP = MARKET_ACTION.start + MARKET_ACTION.size
# What a payment is for (the observation's pay_kind).
PAY_MARKET, PAY_OFFERING, PAY_INCREASE, PAY_STEAL, PAY_CENOTE = 0, 1, 2, 3, 4
N_PAY_KINDS = 5


@njit(cache=True, inline="always")
def res_at(p, r):
    return RES + p * NUM_RES + r


@njit(cache=True)
def can_sacrifice(state, p, count):
    """Golden rule (as kernels.can_sacrifice): never fewer than 2 workers."""
    return state[OWNED + p] + state[NEW_WORKERS + p] - state[SACRIFICED + p] - count >= MIN_WORKERS


@njit(cache=True)
def limbo_workers(state, p):
    """Seat p's sacrificed workers lying on the Cenote or on Offerings (neither in its hands nor in
    the reserve yet)."""
    count = state[CENOTE_WORKERS + p]
    for slot in range(OFFERINGS_SHOWN):
        count += state[OFFER_SLOT_WORKERS + slot * MAX_PLAYERS + p]
    return count


@njit(cache=True)
def slot_carries_workers(state, slot):
    for q in range(MAX_PLAYERS):
        if state[OFFER_SLOT_WORKERS + slot * MAX_PLAYERS + q]:
            return True
    return False


# -- what an action costs -----------------------------------------------------------------------
@njit(cache=True)
def pay_kind(action):
    if action >= CENOTE_BASE:
        return PAY_CENOTE
    if action >= STEAL_BASE:
        return PAY_STEAL
    if action == INCREASE_ACTION:
        return PAY_INCREASE
    if action >= OFFERING_BASE:
        return PAY_OFFERING
    return PAY_MARKET


@njit(cache=True)
def cost_of(state, p, action, good):
    """Units of `good` that `action` costs seat p (0 for an action with no cost)."""
    kind = pay_kind(action)
    if kind == PAY_CENOTE:
        return CENOTE_BOOST_COST[(action - CENOTE_BASE) // CENOTE_DESTINATIONS, good]
    if kind == PAY_STEAL:
        card = state[EFFECT_CARD]
        if card == NO_CARD:
            return 0
        return STEAL_COST[card, (action - STEAL_BASE) // N_SEAT_OFFSETS, good]
    if kind == PAY_INCREASE:
        return CLAN_INCREASE_COST[state[CLAN + p], good]
    if kind == PAY_OFFERING:
        card = state[OFFER_SLOT + action - OFFERING_BASE]
        return OFFERING_COST[card, good] if card != NO_CARD else 0
    if action < MARKET_BASE or action >= MARKET_STOP:
        return 0
    card = state[MARKET_SLOT + (action - MARKET_BASE) % MARKET_SHOWN]
    return MARKET_COST[card, good] if card != NO_CARD else 0


@njit(cache=True)
def costs_goods(state, p, action):
    """Whether the action costs a good (a tseek' could replace it): Market, Pyramid, increase,
    steal and Cenote actions; 0 for every other."""
    if not (
        (action >= MARKET_BASE and action < MARKET_STOP)
        or (action >= OFFERING_BASE and action < OFFERING_BASE + OFFERINGS_SHOWN)
        or action == INCREASE_ACTION
        or (action >= STEAL_BASE and action < STEAL_STOP)
        or (action >= CENOTE_BASE and action < WILD_BASE)
    ):
        return False
    total = 0
    for g in range(GOODS):
        total += cost_of(state, p, action, g)
    return total > 0


# -- the payment: which goods the tseek' replace -----------------------------------------------
@njit(cache=True)
def offering_terms(state, p, action):
    """(sacrifices, own workers on the Offering, whether it carries any worker) for a Pyramid
    action; (0, 0, False) for any other payment."""
    if action < OFFERING_BASE or action >= OFFERING_BASE + OFFERINGS_SHOWN:
        return 0, 0, False
    slot = action - OFFERING_BASE
    card = state[OFFER_SLOT + slot]
    sacrifice = OFFERING_SACRIFICE[card] if card != NO_CARD else 0
    return sacrifice, state[OFFER_SLOT_WORKERS + slot * MAX_PLAYERS + p], slot_carries_workers(state, slot)


@njit(cache=True)
def feasible(state, p, action, w0, w1, w2, paid_sacrifices, finish):
    """Whether seat p can complete the payment of `action` once its tseek' replace w0, w1, w2
    units of corn, skin, mask and pay `paid_sacrifices` sacrifices: with more such choices, or
    (finish) with the goods alone as they stand. An Offering carrying a sacrificed worker needs at
    least one tseek' ("the payment must include at least one tseek'"); a tseek' pays a sacrifice
    only beside the payer's own worker on the Offering."""
    tseek = state[res_at(p, TSEEK)] - w0 - w1 - w2 - paid_sacrifices
    if tseek < 0:
        return False
    short = 0
    left = 0
    for g in range(GOODS):
        wild = w0 if g == 0 else (w1 if g == 1 else w2)
        rest = cost_of(state, p, action, g) - wild
        if rest < 0:
            return False
        left += rest
        have = state[res_at(p, g)]
        if rest > have:
            short += rest - have
    sacrifice, own, reserved = offering_terms(state, p, action)
    if paid_sacrifices > min(sacrifice, own):
        return False
    used = w0 + w1 + w2 + paid_sacrifices
    more = 0 if finish else min(sacrifice, own) - paid_sacrifices
    for extra in range(more + 1):
        need = short + extra
        if finish and need > 0:
            return False
        if need > tseek:
            return False
        if sacrifice > 0 and not can_sacrifice(state, p, sacrifice - paid_sacrifices - extra):
            continue
        if reserved and used + need == 0 and (finish or tseek < 1 or left < 1):
            continue
        return True
    return False


@njit(cache=True)
def offering_possible(state, p, slot):
    """The Pyramid's Offering in `slot` is within seat p's means (goods, tseek', workers)."""
    if state[OFFER_SLOT + slot] == NO_CARD:
        return False
    return feasible(state, p, OFFERING_BASE + slot, 0, 0, 0, 0, False)


@njit(cache=True)
def begin_payment(state, p, action):
    """A costly action of a player holding tseek': first the player decides what they replace
    (EFFECT_PAY); True if so. Otherwise the action resolves at once."""
    if state[res_at(p, TSEEK)] == 0 or not costs_goods(state, p, action):
        return False
    state[PAY_ACTION] = action
    state[EFFECT] = EFFECT_PAY
    state[PHASE] = PHASE_EFFECT
    return True


@njit(cache=True)
def pay_legal_mask(state, p, mask):
    action = state[PAY_ACTION]
    w0, w1, w2 = state[PAY_WILD], state[PAY_WILD + 1], state[PAY_WILD + 2]
    paid = state[PAY_SACRIFICE]
    count = 0
    if feasible(state, p, action, w0 + 1, w1, w2, paid, False):
        mask[WILD_BASE] = 1
        count += 1
    if feasible(state, p, action, w0, w1 + 1, w2, paid, False):
        mask[WILD_BASE + 1] = 1
        count += 1
    if feasible(state, p, action, w0, w1, w2 + 1, paid, False):
        mask[WILD_BASE + 2] = 1
        count += 1
    if feasible(state, p, action, w0, w1, w2, paid + 1, False):
        mask[WILD_SACRIFICE_ACTION] = 1
        count += 1
    if feasible(state, p, action, w0, w1, w2, paid, True):
        mask[PAY_DONE_ACTION] = 1
        count += 1
    return count


@njit(cache=True)
def pay_choice(state, action):
    """One payment decision; True once the player pays the rest (the action then resolves)."""
    if action == PAY_DONE_ACTION:
        return True
    if action == WILD_SACRIFICE_ACTION:
        state[PAY_SACRIFICE] += 1
    else:
        state[PAY_WILD + action - WILD_BASE] += 1
    return False


@njit(cache=True)
def settle_wild(state, p):
    """Inside a payment (kernels.pay): the goods the tseek' replaced stay in the warehouse and the
    tseek' are spent: onto the Offering (4 VP each at the end), or back to the Cenote tile
    (assumed: the rulebook does not say where a tseek' spent elsewhere goes)."""
    used = state[PAY_SACRIFICE]
    for g in range(GOODS):
        state[res_at(p, g)] += state[PAY_WILD + g]
        used += state[PAY_WILD + g]
        state[PAY_WILD + g] = 0
    state[res_at(p, TSEEK)] -= used
    if pay_kind(state[PAY_ACTION]) == PAY_OFFERING:
        state[TSEEK_ON_OFFERINGS + p] += used
    else:
        state[TSEEK_SUPPLY] += used


@njit(cache=True)
def end_payment(state):
    state[PAY_ACTION] = -1
    for g in range(GOODS):
        state[PAY_WILD + g] = 0
    state[PAY_SACRIFICE] = 0


# -- the Cenote ---------------------------------------------------------------------------------
@njit(cache=True)
def cenote_legal_mask(state, p, mask):
    """Once per round, while tseek' are left, a worker the golden rule lets go: sacrificed with
    a boost the player can pay, left on the Cenote or put on a displayed Offering."""
    if state[TSEEK_SUPPLY] == 0 or state[CENOTE_USED + p] or not can_sacrifice(state, p, 1):
        return 0
    count = 0
    for boost in range(len(CENOTE_BOOST_VP)):
        short = 0
        for g in range(GOODS):
            lack = CENOTE_BOOST_COST[boost, g] - state[res_at(p, g)]
            if lack > 0:
                short += lack
        if short > state[res_at(p, TSEEK)]:
            continue
        for where in range(CENOTE_DESTINATIONS):
            if where > 0 and state[OFFER_SLOT + where - 1] == NO_CARD:
                continue
            mask[CENOTE_BASE + boost * CENOTE_DESTINATIONS + where] = 1
            count += 1
    return count


@njit(cache=True)
def cenote_step(state, p, action):
    """Sacrifice at the Cenote: pay the boost, +1 or +2 VP, a tseek' from the tile; the worker
    leaves the player's hands for the Cenote (the reserve at night) or an Offering."""
    boost, where = divmod(action - CENOTE_BASE, CENOTE_DESTINATIONS)
    for g in range(GOODS):
        state[res_at(p, g)] -= CENOTE_BOOST_COST[boost, g]
    if state[PAY_ACTION] >= 0:
        settle_wild(state, p)
    state[res_at(p, VP)] += CENOTE_BOOST_VP[boost]
    state[TSEEK_SUPPLY] -= 1
    state[res_at(p, TSEEK)] += 1
    state[OWNED + p] -= 1
    state[AVAILABLE + p] -= 1
    state[CENOTE_USED + p] = 1
    if where == 0:
        state[CENOTE_WORKERS + p] += 1
    else:
        state[OFFER_SLOT_WORKERS + (where - 1) * MAX_PLAYERS + p] += 1


@njit(cache=True)
def offering_completed(state, p, slot):
    """After the Pyramid's payment: the sacrifices the tseek' paid are not made again; the
    workers on the Offering go to the reserve."""
    state[SACRIFICED + p] -= state[PAY_SACRIFICE]
    for q in range(MAX_PLAYERS):
        state[OFFER_SLOT_WORKERS + slot * MAX_PLAYERS + q] = 0


@njit(cache=True)
def clear_slot_workers(state):
    """The Pituk's favour discards the Offerings: their workers go to the reserve."""
    for i in range(OFFERINGS_SHOWN * MAX_PLAYERS):
        state[OFFER_SLOT_WORKERS + i] = 0


@njit(cache=True)
def cenote_night(state):
    """Night (Cenote): the workers left on the Cenote go to the reserve; the Cenote opens again."""
    for q in range(MAX_PLAYERS):
        state[CENOTE_WORKERS + q] = 0
        state[CENOTE_USED + q] = 0


@njit(cache=True)
def cenote_setup(state):
    state[TSEEK_SUPPLY] = TSEEK_START[state[NUM_PLAYERS]]


# -- Destiny ------------------------------------------------------------------------------------
@njit(cache=True)
def deal_destiny(state):
    """One Destiny card each, at random, with the Heritage cards; the rest to the box."""
    cards = np.arange(NUM_DESTINY).astype(np.int32)
    rng_shuffle(state, RNG, cards, NUM_DESTINY)
    for i in range(NUM_DESTINY):
        state[DESTINY_HOLDER + i] = 0
    for q in range(state[NUM_PLAYERS]):
        state[DESTINY_HOLDER + cards[q]] = q + 1


@njit(cache=True)
def destiny_of(state, p):
    for card in range(NUM_DESTINY):
        if state[DESTINY_HOLDER + card] == p + 1:
            return card
    return -1


@njit(cache=True)
def played_cards(state, p, kind):
    """Heritage cards (the set-up one included) or Market cards seat p played in the game."""
    count = 0
    if kind == DESTINY_HERITAGE:
        for card in range(NUM_HERITAGE):
            if state[HERITAGE_HOLDER + card] == p + 1 and state[HERITAGE_PLAYED + card]:
                count += 1
    else:
        for card in range(NUM_MARKET):
            if state[MARKET_OWNER + card] == p + 1:
                count += 1
    return count


@njit(cache=True)
def destiny_points(state, p):
    """3 VP for the upper requirement, 2 for the lower, either or both; tseek' are no wild cards
    for Destiny."""
    card = destiny_of(state, p)
    if card < 0:
        return 0
    total = 0
    if played_cards(state, p, DESTINY_KIND[card]) >= DESTINY_COUNT[card]:
        total += DESTINY_VP_UPPER
    stored = True
    for g in range(GOODS):
        if state[res_at(p, g)] < DESTINY_GOODS[card, g]:
            stored = False
    if stored:
        total += DESTINY_VP_LOWER
    return total


@njit(cache=True)
def resample_destiny(state, player):
    """Re-deal the Destiny cards `player` cannot see (the others' and the box's)."""
    pool = np.empty(NUM_DESTINY, np.int32)
    size = 0
    for card in range(NUM_DESTINY):
        if state[DESTINY_HOLDER + card] != player + 1:
            pool[size] = card
            size += 1
            state[DESTINY_HOLDER + card] = 0
    rng_shuffle(state, RNG, pool, size)
    k = 0
    for q in range(state[NUM_PLAYERS]):
        if q != player:
            state[DESTINY_HOLDER + pool[k]] = q + 1
            k += 1


@njit(cache=True, inline="always")
def cenote_on(state):
    return state[VARIANT + V_CENOTE] != 0
