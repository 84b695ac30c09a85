"""A scripted Nakum player. It reads only what its seat may know: the public table, its own
hand and warehouse; never the others' hands, the deck orders or the face-down tiles (tests
check that re-dealing those never changes its choice)."""

from __future__ import annotations

import numpy as np

from nakum_env import cenote
from nakum_env.cenote import CENOTE_BASE, PAY_DONE_ACTION, WILD_BASE, WILD_SACRIFICE_ACTION
from nakum_env.data import (
    CENOTE_BOOST_COST,
    CENOTE_BOOST_VP,
    CLAN_INCREASE_COST,
    CLAN_LIMIT,
    GOODS,
    HERITAGE_GAIN,
    ICON_FREE,
    ICON_INCREASE,
    ICON_PITUK,
    ICON_STEAL,
    MARKET_COST,
    MARKET_END_VP,
    MARKET_GAIN,
    MARKET_ICON,
    MARKET_SHOWN,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MAX_SPACES,
    NUM_HERITAGE,
    NUM_RES,
    OFFERING_COST,
    OFFERING_SACRIFICE,
    OFFERING_VP,
    OFFERINGS_SHOWN,
    OPTION_GAIN,
    SPACE_GAIN,
    STEAL_COST,
    STEAL_VP,
    VP,
    WORKERS_PER_COLOUR,
)
from nakum_env.kernels import (
    ENCAMPMENT_BASE,
    EXPLORE_BASE,
    FAVOUR_REFRESH,
    FREE_BASE,
    HERITAGE_BASE,
    HERITAGE_SETUP_BASE,
    INCREASE_ACTION,
    MARKET_BASE,
    OFFERING_BASE,
    PASS_ACTION,
    PITUK_ACTION,
    REVEAL_BASE,
    SPACE_BASE,
    START_ACTION,
    STEAL_BASE,
    competitors,
    legal_mask,
)
from nakum_env.state import (
    CENOTE_DESTINATIONS,
    CLAN,
    EFFECT_CARD,
    MARKET_SLOT,
    N_ACTIONS,
    N_OPTION_SLOTS,
    N_SEAT_OFFSETS,
    NEW_WORKERS,
    NO_CARD,
    OFFER_SLOT,
    OFFER_SLOT_WORKERS,
    OWNED,
    PAY_ACTION,
    RES,
    ROUND,
    SACRIFICED,
    TILE_AT,
)
from treasure_core.agents import KernelBot
from treasure_core.jit import njit
from treasure_core.kernels import tie_key

GOOD_VALUE = (1.0 / 3.0, 0.5, 1.0)  # final-score value of one corn, skin, mask
NEED_BONUS = 1.5  # a good that the target Offering still lacks
OFFERING_BONUS = 20.0  # an Offering beats everything else
WORKER_VALUE = 4.0  # one more worker for the rounds to come
NEEDED_WORKER_VALUE = 6.0  # one that a displayed Offering's sacrifice needs
EXPLORE_BONUS = 0.3


@njit(cache=True)
def target_needs(state, p, needs):
    """needs[r]: the cost of the most reachable displayed Offering (the fewest missing goods,
    minus a quarter of its VP), the bot's target; returns its slot or -1."""
    best, best_key = -1, 1e9
    workers = state[OWNED + p] + state[NEW_WORKERS + p] - state[SACRIFICED + p]
    for slot in range(OFFERINGS_SHOWN):
        card = state[OFFER_SLOT + slot]
        if card == NO_CARD:
            continue
        missing = 0.0
        for r in range(GOODS):
            missing += max(0, OFFERING_COST[card, r] - state[RES + p * NUM_RES + r])
        # A sacrifice needs more workers than the golden rule's 2.
        missing += 2.0 * max(0, OFFERING_SACRIFICE[card] + 2 - workers)
        key = missing - OFFERING_VP[card] / 4.0
        if key < best_key:
            best, best_key = slot, key
    for r in range(NUM_RES):
        needs[r] = 0
    if best >= 0:
        for r in range(GOODS):
            needs[r] = OFFERING_COST[state[OFFER_SLOT + best], r]
    return best


@njit(cache=True)
def bundle_value(state, p, gain, cost, target):
    """The value of paying `cost` then gaining `gain`, at final-score rates, plus a bonus for
    each good that closes the gap to `target` (the aimed Offering's cost); goods beyond the
    warehouse limit are worth nothing."""
    clan = state[CLAN + p]
    value = 0.0
    for r in range(GOODS):
        have = state[RES + p * NUM_RES + r]
        got = min(gain[r], max(0, CLAN_LIMIT[clan, r] - have + cost[r]))
        after = have - cost[r] + got
        closed = max(0, target[r] - have) - max(0, target[r] - after)
        value += GOOD_VALUE[r] * (got - cost[r]) + NEED_BONUS * closed
    value += gain[VP] - cost[VP]
    return value


@njit(cache=True)
def action_value(state, p, action, needs):
    zero = np.zeros(NUM_RES, np.int32)
    if action < REVEAL_BASE:  # the set-up Heritage play: the most valuable card
        return bundle_value(state, p, HERITAGE_GAIN[action - HERITAGE_SETUP_BASE], zero, needs)
    if action < SPACE_BASE:  # the set-up reveal: the first face-down position
        return -(action - REVEAL_BASE) * 0.01
    if action < MARKET_BASE:
        position, space = divmod(action - SPACE_BASE, MAX_SPACES)
        return bundle_value(state, p, SPACE_GAIN[state[TILE_AT + position], space], zero, needs)
    if action < HERITAGE_BASE:
        card = state[market_slot_field(action)]
        icon = MARKET_ICON[card]
        value = bundle_value(state, p, MARKET_GAIN[card], MARKET_COST[card], needs) + MARKET_END_VP[card]
        if icon == ICON_STEAL:
            value += 1.0
        elif icon == ICON_PITUK:
            value += 1.2
        elif icon == ICON_INCREASE:
            value += worker_value(state, p)
        elif icon == ICON_FREE:
            value += 0.2
        return value
    if action < ENCAMPMENT_BASE:
        card = (action - HERITAGE_BASE) % NUM_HERITAGE
        return bundle_value(state, p, HERITAGE_GAIN[card], zero, needs) - 0.2  # keep it for later
    if action < EXPLORE_BASE:
        slot = action - ENCAMPMENT_BASE
        position = slot // (2 * MAX_OPTIONS)
        side = (slot // MAX_OPTIONS) % 2
        option = slot % MAX_OPTIONS
        return bundle_value(state, p, OPTION_GAIN[state[TILE_AT + position], side, option], zero, needs)
    if action < OFFERING_BASE:
        return 1.0 + EXPLORE_BONUS
    if action < PITUK_ACTION:
        card = state[OFFER_SLOT + action - OFFERING_BASE]
        return OFFERING_BONUS + OFFERING_VP[card]
    if action == PITUK_ACTION:
        return 1.2
    if action == START_ACTION:
        return 0.4
    if action == INCREASE_ACTION:
        cost = CLAN_INCREASE_COST[state[CLAN + p]]
        return worker_value(state, p) + bundle_value(state, p, zero, cost, needs)
    if action == PASS_ACTION:
        return -100.0
    return 0.0


@njit(cache=True, inline="always")
def market_slot_field(action):
    """The state field of the Market slot a market action acquires."""
    return MARKET_SLOT + (action - MARKET_BASE) % MARKET_SHOWN


@njit(cache=True)
def worker_value(state, p):
    """A new worker: needed outright when a displayed Offering's sacrifice asks for more
    workers than the golden rule leaves; otherwise worth more early than late."""
    workers = state[OWNED + p] + state[NEW_WORKERS + p]
    if workers >= WORKERS_PER_COLOUR:
        return 0.0
    for slot in range(OFFERINGS_SHOWN):
        card = state[OFFER_SLOT + slot]
        if card != NO_CARD and OFFERING_SACRIFICE[card] + 2 > workers - state[SACRIFICED + p]:
            return NEEDED_WORKER_VALUE
    return WORKER_VALUE / (1.0 + 0.3 * state[ROUND]) * (1.0 if workers < 3 else 0.5)


@njit(cache=True)
def effect_value(state, p, action, needs):
    if action >= FAVOUR_REFRESH - 1:
        # Refresh the Offerings when the target one is still far away.
        missing = 0
        for r in range(GOODS):
            missing += max(0, needs[r] - state[RES + p * NUM_RES + r])
        return 1.0 if (action == FAVOUR_REFRESH) == (missing > 3) else 0.0
    if action >= FREE_BASE:
        target = action - FREE_BASE
        return 1.0 if target < N_OPTION_SLOTS else 0.5
    option, offset = divmod(action - STEAL_BASE, N_SEAT_OFFSETS)
    victim = (p + offset + 1) % competitors(state)  # solo: Chaak'Bot
    card = state[EFFECT_CARD]
    zero = np.zeros(NUM_RES, np.int32)
    taken = min(STEAL_VP[card, option], state[RES + victim * NUM_RES + VP])
    return (
        2.0 * taken
        + bundle_value(state, p, zero, STEAL_COST[card, option], needs)
        + 0.01 * state[RES + victim * NUM_RES + VP]
    )


@njit(cache=True)
def heuristic_action(state: np.ndarray, player: int, salt: int = 0) -> int:
    """Greedy: make an Offering when it can; otherwise the action whose goods best close the gap
    to the most reachable Offering, valued at final-score rates; a worker more early on."""
    mask = np.zeros(N_ACTIONS, np.int8)
    legal_mask(state, player, mask)
    needs = np.zeros(NUM_RES, np.int32)
    target_needs(state, player, needs)
    best, best_value, best_key = -1, -1e18, np.uint64(0)
    for action in range(N_ACTIONS):
        if not mask[action]:
            continue
        if action >= CENOTE_BASE:  # the Cenote and its payments (issue 16)
            value = cenote_value(state, player, action)
        elif action >= STEAL_BASE:
            value = effect_value(state, player, action, needs)
        else:
            value = action_value(state, player, action, needs)
        key = tie_key(salt, state, action)
        if value > best_value + 1e-9 or (abs(value - best_value) <= 1e-9 and key > best_key):
            best, best_value, best_key = action, value, key
    return best


# -- Cenote (issue 16) ---------------------------------------------------------------------------
TSEEK_VALUE = 3.0  # a tseek' kept in the warehouse scores 3 VP
SACRIFICE_COST = 2.0  # a worker fewer for the rounds to come


@njit(cache=True)
def cenote_value(state, p, action):
    """The Cenote: a tseek' (3 VP kept, a wild card) and the boost's VP for a worker; onto an
    Offering the bot means to make (its worker there lets its tseek' pay a sacrifice). Paying:
    a tseek' spent on an Offering scores 4 instead of 3 and keeps a good; spent elsewhere it
    loses 3 VP, so only when the goods fall short (the mask leaves no other way)."""
    if action >= PAY_DONE_ACTION:
        return 0.0
    if action == WILD_SACRIFICE_ACTION:
        return SACRIFICE_COST + 1.0
    if action >= WILD_BASE:
        good = action - WILD_BASE
        if cenote.pay_kind(state[PAY_ACTION]) == cenote.PAY_OFFERING:
            return 1.0 + GOOD_VALUE[good]
        return GOOD_VALUE[good] - TSEEK_VALUE
    boost, where = divmod(action - CENOTE_BASE, CENOTE_DESTINATIONS)
    value = TSEEK_VALUE + CENOTE_BOOST_VP[boost] - SACRIFICE_COST
    for g in range(GOODS):
        value -= GOOD_VALUE[g] * CENOTE_BOOST_COST[boost, g]
    if where > 0:
        # Onto a sacrifice Offering it can still make: its workers there (this one too) and
        # the workers it keeps cover the sacrifices; else the worker would be lost there.
        slot = where - 1
        card = state[OFFER_SLOT + slot]
        on_it = state[OFFER_SLOT_WORKERS + slot * MAX_PLAYERS + p] + 1
        kept = state[OWNED + p] - 1 + state[NEW_WORKERS + p] - state[SACRIFICED + p]
        makeable = kept - max(0, OFFERING_SACRIFICE[card] - on_it) >= 2
        value += 0.5 if OFFERING_SACRIFICE[card] > 0 and makeable else -1.0
    return value


class NakumBot(KernelBot):
    """Gathers what the most reachable Offering lacks, grows its clan early, and makes
    Offerings as soon as it can."""

    policy = staticmethod(heuristic_action)


# The search's bot playout (treasure_core.codegen: batch.py calls the policy by this name).
playout_policy = heuristic_action
