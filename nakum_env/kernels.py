"""Nakum rules as @njit kernels over the flat state (layout and action space in state.py), by
the contract in docs/architecture.md; the batch forms are generated into batch.py."""

import numpy as np

from nakum_env import cenote, chaakbot
from nakum_env.data import (
    BLACK_CUBES,
    BOARD_TILES,
    BOT_DRAW,
    CLAN_INCREASE_COST,
    CLAN_LIMIT,
    CORN,
    CORN_PER_VP,
    GOODS,
    HERITAGE_DEALT,
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
    MASK,
    MASK_PER_VP,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MAX_POSITIONS,
    MAX_SPACES,
    MIN_WORKERS,
    NUM_BOT_CARDS,
    NUM_CLANS,
    NUM_HERITAGE,
    NUM_MARKET,
    NUM_OFFERINGS,
    NUM_RES,
    NUM_TILES,
    OFFERING_COST,
    OFFERING_SACRIFICE,
    OFFERING_VP,
    OFFERINGS_SHOWN,
    OFFERINGS_TO_END,
    OPTION_EXISTS,
    OPTION_GAIN,
    PITUK_SPACES,
    REVEAL_AT_SETUP,
    SKIN,
    SKIN_PER_VP,
    SPACE_DOUBLE,
    SPACE_GAIN,
    SPACE_KIND,
    SPACE_RESOURCE,
    START_WORKERS,
    STEAL_COST,
    STEAL_OPTIONS,
    STEAL_VP,
    TILE_HERITAGE_SPACE,
    TILE_MARKET_SPACE,
    TSEEK,
    TSEEK_OFFERING_VP,
    TSEEK_WAREHOUSE_VP,
    VP,
    WORKERS_PER_COLOUR,
)
from nakum_env.state import (
    AVAILABLE,
    BOT_DECK,
    BOT_DECK_COUNT,
    BOT_DRAWN,
    BOT_FACE_DOWN,
    BOT_MARK,
    CLAN,
    CUBE_INCREASE,
    CUBE_PITUK,
    CUBE_RESERVE,
    EFFECT,
    EFFECT_CARD,
    EFFECT_FAVOUR,
    EFFECT_FREE,
    EFFECT_NONE,
    EFFECT_PAY,
    EFFECT_STEAL,
    ENCAMP_WORKER,
    ENCAMPMENT,
    END_CONDITION,
    END_OFFERINGS,
    EXPLORE,
    EXPLORER,
    FAVOUR,
    FIRST_OFFERING,
    FREE,
    HERITAGE_ACTION,
    HERITAGE_HOLDER,
    HERITAGE_PLAYED,
    HERITAGE_SETUP,
    IDLE,
    INCREASE,
    INCREASE_BLOCKED,
    INCREASE_WORKER,
    LAST_ACTION,
    LAST_ACTOR,
    LEADER,
    MARKET_ACTION,
    MARKET_DECK,
    MARKET_DECK_COUNT,
    MARKET_OWNER,
    MARKET_SLOT,
    MAX_ROUND,
    N_ACTIONS,
    N_CUBE_TARGETS,
    N_OPTION_SLOTS,
    N_SEAT_OFFSETS,
    NEW_WORKERS,
    NO_CARD,
    NO_TILE,
    OFFER_DECK,
    OFFER_DECK_COUNT,
    OFFER_DISCARD,
    OFFER_IN_DECK,
    OFFER_SHOWN,
    OFFER_SLOT,
    OFFER_TAKEN,
    OFFERING,
    OFFERING_OWNER,
    OFFERING_WHERE,
    OFFERINGS_DONE,
    OFFERINGS_MADE,
    OPTION_CUBE,
    OWNED,
    P_CENOTE,
    P_DESTINY,
    P_FOREST,
    PASS,
    PAY_ACTION,
    PENDING,
    PHASE,
    PHASE_DAY,
    PHASE_EFFECT,
    PHASE_HERITAGE,
    PHASE_REVEAL,
    PITUK,
    PITUK_CUBE,
    PITUK_WORKER,
    POSITIONS,
    PYRAMID_WORKERS,
    RES,
    REVEAL,
    REVEALED,
    REVEALS_LEFT,
    ROUND,
    SACRIFICED,
    SOLO_COMPETITORS,
    SPACE,
    SPACE_WORKER,
    START,
    START_BLOCKED,
    START_PLAYER,
    START_WORKER,
    STEAL,
    TILE_AT,
    TSEEK_ON_OFFERINGS,
    V_CENOTE,
    V_DESTINY,
    V_FOREST,
    VARIANT,
)
from treasure_core.header import CURRENT_PLAYER, DECISIONS, INT_ARG, NUM_PLAYERS, RNG, STATE_ARG, TERMINAL
from treasure_core.jit import njit
from treasure_core.kernels import init_header, sort_ascending
from treasure_core.rng import rng_below, rng_seed, rng_shuffle

HERITAGE_SETUP_BASE = HERITAGE_SETUP.start
REVEAL_BASE = REVEAL.start
SPACE_BASE = SPACE.start
MARKET_BASE = MARKET_ACTION.start
HERITAGE_BASE = HERITAGE_ACTION.start
ENCAMPMENT_BASE = ENCAMPMENT.start
EXPLORE_BASE = EXPLORE.start
OFFERING_BASE = OFFERING.start
PITUK_ACTION = PITUK.start
START_ACTION = START_PLAYER.start
INCREASE_ACTION = INCREASE.start
PASS_ACTION = PASS.start
STEAL_BASE = STEAL.start
FREE_BASE = FREE.start
FAVOUR_BASE = FAVOUR.start
FAVOUR_REFRESH = FAVOUR_BASE + 1
# The blocks each phase decides in (takes): the day's run from the spaces to pass, the icons'.
DAY_STOP = PASS.stop
STEAL_STOP = STEAL.stop
FREE_STOP = FREE.stop
FAVOUR_STOP = FAVOUR.stop
SPACE_PLACES = 2  # workers a double space holds in 4-player games
TIEBREAK_FIRST = 32  # tie-break: masks first, then who made an Offering first


# -- small helpers -------------------------------------------------------------------------
@njit(cache=True, inline="always")
def res_at(p, r):
    return RES + p * NUM_RES + r


@njit(cache=True, inline="always")
def option_slot(position, side, option):
    return (position * 2 + side) * MAX_OPTIONS + option


@njit(cache=True, inline="always")
def space_slot(position, space, place):
    return SPACE_WORKER + (position * MAX_SPACES + space) * SPACE_PLACES + place


@njit(cache=True)
def can_pay(state, p, cost):
    """Whether seat p's warehouse (and VP tokens) cover `cost` (a resource vector); with the
    Cenote its tseek' may replace the goods it lacks (none in the base game)."""
    short = 0
    for r in range(NUM_RES):
        lack = cost[r] - state[res_at(p, r)]
        if lack > 0:
            if r >= GOODS:
                return False
            short += lack
    return short <= state[res_at(p, TSEEK)]


@njit(cache=True)
def pay(state, p, cost):
    for r in range(NUM_RES):
        state[res_at(p, r)] -= cost[r]
    if state[PAY_ACTION] >= 0:  # Cenote: the goods the player's tseek' replace (cenote.py)
        cenote.settle_wild(state, p)


@njit(cache=True)
def gain(state, p, amount):
    """Take `amount` from the unlimited general reserve; goods stop at the clan's warehouse
    limit (the rest stays in the reserve), VP have no limit."""
    clan = state[CLAN + p]
    for r in range(NUM_RES):
        value = state[res_at(p, r)] + amount[r]
        if r < GOODS and value > CLAN_LIMIT[clan, r]:
            value = CLAN_LIMIT[clan, r]
        state[res_at(p, r)] = value


@njit(cache=True)
def reserve_workers(state, p):
    """Workers of seat p's colour in the general reserve."""
    return WORKERS_PER_COLOUR - state[OWNED + p] - state[NEW_WORKERS + p] - cenote.limbo_workers(state, p)


@njit(cache=True)
def can_sacrifice(state, p, count):
    """Golden rule: a player never goes below 2 workers (sacrificed workers this day already
    count as lost; the reserve worker joining tonight counts as the player's)."""
    remaining = state[OWNED + p] + state[NEW_WORKERS + p] - state[SACRIFICED + p] - count
    return remaining >= MIN_WORKERS


@njit(cache=True)
def space_capacity(state, tile, space):
    """Rule B: in 4-player games a space with the worker symbol takes 2 workers."""
    if state[NUM_PLAYERS] == 4 and SPACE_DOUBLE[tile, space]:
        return 2
    return 1


@njit(cache=True)
def space_open_for(state, position, space, p):
    """Room on the space for seat p: under its capacity, and never two of one player's."""
    tile = state[TILE_AT + position]
    used = 0
    for place in range(SPACE_PLACES):
        who = state[space_slot(position, space, place)]
        if who != 0:
            used += 1
            if who == p + 1:
                return False
    return used < space_capacity(state, tile, space)


@njit(cache=True)
def put_on_space(state, position, space, p):
    for place in range(SPACE_PLACES):
        if state[space_slot(position, space, place)] == 0:
            state[space_slot(position, space, place)] = p + 1
            return


@njit(cache=True)
def tile_has_basic_worker(state, position):
    for space in range(MAX_SPACES):
        for place in range(SPACE_PLACES):
            if state[space_slot(position, space, place)] != 0:
                return True
    return False


@njit(cache=True)
def all_explored(state):
    """The Pituk wakes once every tile of the board is explored (face up or on expedition)."""
    for position in range(state[POSITIONS]):
        if state[REVEALED + position] == 0 and state[EXPLORER + position] == 0:
            return False
    return True


@njit(cache=True)
def free_pituk_space(state):
    for s in range(PITUK_SPACES):
        if state[PITUK_CUBE + s] == 0 and state[PITUK_WORKER + s] == 0:
            return s
    return -1


@njit(cache=True)
def any_cube(state):
    for target in range(N_CUBE_TARGETS):
        if cube_at(state, target):
            return True
    return False


@njit(cache=True)
def cube_at(state, target):
    if target < N_OPTION_SLOTS:
        return state[OPTION_CUBE + target] == 1
    if target < CUBE_INCREASE:
        return state[PITUK_CUBE + target - CUBE_PITUK] == 1
    if target == CUBE_INCREASE:
        return state[INCREASE_BLOCKED] == 1
    return state[START_BLOCKED] == 1


@njit(cache=True)
def steal_affordable(state, p, card):
    for o in range(STEAL_OPTIONS):
        if STEAL_VP[card, o] > 0 and can_pay(state, p, STEAL_COST[card, o]):
            return True
    return False


# -- cards -----------------------------------------------------------------------------------
@njit(cache=True)
def refill_market(state):
    """Night: the missing Market cards are replenished until there are 5 (left to right)."""
    for slot in range(MARKET_SHOWN):
        if state[MARKET_SLOT + slot] == NO_CARD and state[MARKET_DECK_COUNT] > 0:
            state[MARKET_DECK_COUNT] -= 1
            state[MARKET_SLOT + slot] = state[MARKET_DECK + state[MARKET_DECK_COUNT]]


@njit(cache=True)
def take_market_slot(state, slot):
    """Remove the card in `slot`; the cards to its right shift left (Chaak'Bot's leftmost card)."""
    card = state[MARKET_SLOT + slot]
    for s in range(slot, MARKET_SHOWN - 1):
        state[MARKET_SLOT + s] = state[MARKET_SLOT + s + 1]
    state[MARKET_SLOT + MARKET_SHOWN - 1] = NO_CARD
    return card


@njit(cache=True)
def draw_offering(state):
    """The top of the Offerings deck; an empty deck is first rebuilt from the discards
    (assumed: the base rulebook is silent; the Forest variant states it)."""
    if state[OFFER_DECK_COUNT] == 0:
        count = 0
        for card in range(NUM_OFFERINGS):
            if state[OFFERING_WHERE + card] == OFFER_DISCARD:
                state[OFFER_DECK + count] = card
                state[OFFERING_WHERE + card] = OFFER_IN_DECK
                count += 1
        rng_shuffle(state, RNG, state[OFFER_DECK : OFFER_DECK + count], count)
        state[OFFER_DECK_COUNT] = count
    if state[OFFER_DECK_COUNT] == 0:
        return NO_CARD
    state[OFFER_DECK_COUNT] -= 1
    return state[OFFER_DECK + state[OFFER_DECK_COUNT]]


@njit(cache=True)
def refill_offerings(state):
    for slot in range(OFFERINGS_SHOWN):
        if state[OFFER_SLOT + slot] == NO_CARD:
            card = draw_offering(state)
            state[OFFER_SLOT + slot] = card
            if card != NO_CARD:
                state[OFFERING_WHERE + card] = OFFER_SHOWN


@njit(cache=True)
def replace_offerings(state):
    """The Pituk's favour: the active Offerings are discarded and 2 new ones drawn."""
    for slot in range(OFFERINGS_SHOWN):
        card = state[OFFER_SLOT + slot]
        if card != NO_CARD:
            state[OFFERING_WHERE + card] = OFFER_DISCARD
            state[OFFER_SLOT + slot] = NO_CARD
    if state[VARIANT + V_CENOTE]:  # Cenote: workers on discarded Offerings go to the reserve
        cenote.clear_slot_workers(state)
    refill_offerings(state)


@njit(cache=True)
def play_heritage(state, p, card):
    """Discard a Heritage card from the hand (kept face up by the clan) and get its gains."""
    state[HERITAGE_PLAYED + card] = 1
    gain(state, p, HERITAGE_GAIN[card])


# -- legal actions ---------------------------------------------------------------------------
@njit(cache=True)
def day_legal_mask(state, p, mask):
    count = 0
    n = state[NUM_PLAYERS]
    for position in range(state[POSITIONS]):
        if state[REVEALED + position] == 0:
            # Explore: a face-down tile nobody has explored yet.
            if state[EXPLORER + position] == 0:
                mask[EXPLORE_BASE + position] = 1
                count += 1
            continue
        tile = state[TILE_AT + position]
        for space in range(MAX_SPACES):
            if SPACE_KIND[tile, space] == SPACE_RESOURCE and space_open_for(state, position, space, p):
                mask[SPACE_BASE + position * MAX_SPACES + space] = 1
                count += 1
        space = TILE_MARKET_SPACE[tile]
        if space >= 0 and space_open_for(state, position, space, p):
            for slot in range(MARKET_SHOWN):
                card = state[MARKET_SLOT + slot]
                if card != NO_CARD and can_pay(state, p, MARKET_COST[card]):
                    mask[MARKET_BASE + position * MARKET_SHOWN + slot] = 1
                    count += 1
        space = TILE_HERITAGE_SPACE[tile]
        if space >= 0 and space_open_for(state, position, space, p):
            for card in range(NUM_HERITAGE):
                if state[HERITAGE_HOLDER + card] == p + 1 and state[HERITAGE_PLAYED + card] == 0:
                    mask[HERITAGE_BASE + position * NUM_HERITAGE + card] = 1
                    count += 1
        # An Encampment needs a worker (anyone's) on a basic space of its tile.
        if tile_has_basic_worker(state, position):
            for side in range(2):
                if state[ENCAMP_WORKER + position * 2 + side] != 0:
                    continue
                for option in range(MAX_OPTIONS):
                    slot = option_slot(position, side, option)
                    if OPTION_EXISTS[tile, side, option] and state[OPTION_CUBE + slot] == 0:
                        mask[ENCAMPMENT_BASE + slot] = 1
                        count += 1
    if state[AVAILABLE + p] >= 2:
        for slot in range(OFFERINGS_SHOWN):
            card = state[OFFER_SLOT + slot]
            if state[VARIANT + V_CENOTE]:  # tseek' and workers on the Offerings (cenote.py)
                if cenote.offering_possible(state, p, slot):
                    mask[OFFERING_BASE + slot] = 1
                    count += 1
            elif (
                card != NO_CARD
                and can_pay(state, p, OFFERING_COST[card])
                and can_sacrifice(state, p, OFFERING_SACRIFICE[card])
            ):
                mask[OFFERING_BASE + slot] = 1
                count += 1
        if (
            state[INCREASE_BLOCKED] == 0
            and state[INCREASE_WORKER] == 0
            and reserve_workers(state, p) > 0
            and can_pay(state, p, CLAN_INCREASE_COST[state[CLAN + p]])
        ):
            mask[INCREASE_ACTION] = 1
            count += 1
    if state[VARIANT + V_CENOTE]:
        count += cenote.cenote_legal_mask(state, p, mask)
    # The Pituk wakes when every tile is explored; in the Forest and in solo, from the start.
    if (state[VARIANT + V_FOREST] or all_explored(state) or state[NUM_PLAYERS] == 1) and free_pituk_space(
        state
    ) >= 0:
        mask[PITUK_ACTION] = 1
        count += 1
    if state[START_WORKER] == 0 and state[START] != p and state[START_BLOCKED] == 0:
        mask[START_ACTION] = 1
        count += 1
    if count == 0:
        mask[PASS_ACTION] = 1  # assumed: a worker with nowhere to go stays idle
        count = 1
    _ = n
    return count


@njit(cache=True)
def effect_legal_mask(state, p, mask):
    count = 0
    effect = state[EFFECT]
    if effect == EFFECT_STEAL:
        card = state[EFFECT_CARD]
        for o in range(STEAL_OPTIONS):
            if STEAL_VP[card, o] > 0 and can_pay(state, p, STEAL_COST[card, o]):
                for offset in range(1, competitors(state)):  # solo: Chaak'Bot is the victim
                    mask[STEAL_BASE + o * N_SEAT_OFFSETS + offset - 1] = 1
                    count += 1
    elif effect == EFFECT_FREE:
        for target in range(N_CUBE_TARGETS):
            if cube_at(state, target):
                mask[FREE_BASE + target] = 1
                count += 1
    elif effect == EFFECT_FAVOUR:
        mask[FAVOUR_BASE] = 1
        mask[FAVOUR_REFRESH] = 1
        count = 2
    elif effect == EFFECT_PAY:
        count = cenote.pay_legal_mask(state, p, mask)
    return count


@njit(cache=True)
def phase(state: np.ndarray) -> int:
    return state[PHASE]


@njit(cache=True)
def legal_mask(state: np.ndarray, player: int, mask: np.ndarray) -> int:
    """`player`'s legal actions now: in the set-up Heritage play every seat from the player to
    act on chooses (unseen by the others); otherwise only the player to act."""
    for a in range(N_ACTIONS):
        mask[a] = 0
    if state[TERMINAL] or player < 0 or player >= state[NUM_PLAYERS]:
        return 0
    current = state[PHASE]
    if current == PHASE_HERITAGE:
        if player < state[CURRENT_PLAYER]:
            return 0
        count = 0
        for card in range(NUM_HERITAGE):
            if state[HERITAGE_HOLDER + card] == player + 1 and state[HERITAGE_PLAYED + card] == 0:
                mask[HERITAGE_SETUP_BASE + card] = 1
                count += 1
        return count
    if player != state[CURRENT_PLAYER]:
        return 0
    if current == PHASE_REVEAL:
        count = 0
        for position in range(state[POSITIONS]):
            if state[REVEALED + position] == 0:
                mask[REVEAL_BASE + position] = 1
                count += 1
        return count
    if current == PHASE_DAY:
        return day_legal_mask(state, player, mask)
    return effect_legal_mask(state, player, mask)


# -- set-up --------------------------------------------------------------------------------
@njit(cache=True)
def init(state: np.ndarray, params: np.ndarray, seed: int) -> None:
    init_header(state, params, seed)
    n = state[NUM_PLAYERS]
    # 1. Six of the eight tiles face down around the Pyramid; two back to the box unseen.
    tiles = np.arange(NUM_TILES).astype(np.int32)
    rng_shuffle(state, RNG, tiles, NUM_TILES)
    # The Forest (P_FOREST): all 8 tiles around the Pyramid and the Cenote.
    forest = params[P_FOREST] != 0
    state[POSITIONS] = MAX_POSITIONS if forest else BOARD_TILES
    for position in range(MAX_POSITIONS):
        state[TILE_AT + position] = tiles[position] if position < state[POSITIONS] else NO_TILE
    # 2. Two Offerings; 3. five Market cards.
    for card in range(NUM_OFFERINGS):
        state[OFFER_DECK + card] = card
        state[OFFERING_WHERE + card] = OFFER_IN_DECK
    rng_shuffle(state, RNG, state[OFFER_DECK : OFFER_DECK + NUM_OFFERINGS], NUM_OFFERINGS)
    state[OFFER_DECK_COUNT] = NUM_OFFERINGS
    for slot in range(OFFERINGS_SHOWN):
        state[OFFER_SLOT + slot] = NO_CARD
    refill_offerings(state)
    for card in range(NUM_MARKET):
        state[MARKET_DECK + card] = card
    rng_shuffle(state, RNG, state[MARKET_DECK : MARKET_DECK + NUM_MARKET], NUM_MARKET)
    state[MARKET_DECK_COUNT] = NUM_MARKET
    for slot in range(MARKET_SHOWN):
        state[MARKET_SLOT + slot] = NO_CARD
    refill_market(state)
    # 4.-5. A Clan card, 2 workers and 3 Heritage cards each; the rest of the Heritage to the box.
    clans = np.arange(NUM_CLANS).astype(np.int32)
    rng_shuffle(state, RNG, clans, NUM_CLANS)
    heritage = np.arange(NUM_HERITAGE).astype(np.int32)
    rng_shuffle(state, RNG, heritage, NUM_HERITAGE)
    for p in range(n):
        state[CLAN + p] = clans[p]
        state[OWNED + p] = START_WORKERS
        state[AVAILABLE + p] = START_WORKERS
        for k in range(HERITAGE_DEALT):
            state[HERITAGE_HOLDER + heritage[p * HERITAGE_DEALT + k]] = p + 1
    for p in range(MAX_PLAYERS):
        state[PENDING + p] = NO_CARD
    # 7.-8. Seat 0 starts; a cube blocks "Increase the clan" until the first night.
    state[START] = 0
    state[LEADER] = 0
    state[ROUND] = 1
    state[INCREASE_BLOCKED] = 1
    state[CUBE_RESERVE] = BLACK_CUBES - 1
    state[REVEALS_LEFT] = REVEAL_AT_SETUP[n]
    state[EFFECT_CARD] = NO_CARD
    state[LAST_ACTION] = -1
    state[LAST_ACTOR] = -1
    # 6. Every player plays 1 Heritage card at once: seats choose in order, hidden until all have.
    state[PHASE] = PHASE_HERITAGE
    state[CURRENT_PLAYER] = 0
    # -- Cenote, Destiny, Forest (issue 16): the flags, the tseek', the Destiny cards.
    state[PAY_ACTION] = -1
    state[VARIANT + V_CENOTE] = params[P_CENOTE]
    state[VARIANT + V_DESTINY] = params[P_DESTINY]
    state[VARIANT + V_FOREST] = params[P_FOREST]
    if state[VARIANT + V_CENOTE]:
        cenote.cenote_setup(state)
    if state[VARIANT + V_DESTINY]:
        cenote.deal_destiny(state)
    if n == 1:  # solo (chaakbot.py): 4 Heritage cards, no blocks, Chaak'Bot's deck, the bot starts
        chaakbot.setup(state, params, heritage[n * HERITAGE_DEALT :])


# -- the day -----------------------------------------------------------------------------------
@njit(cache=True)
def start_day(state):
    state[PHASE] = PHASE_DAY
    state[LEADER] = state[START]
    state[CURRENT_PLAYER] = state[START]
    if state[NUM_PLAYERS] == 1:  # solo: Chaak'Bot draws, may make an Offering, may act first
        chaakbot.start_day(state)


@njit(cache=True)
def next_turn(state):
    """The next player clockwise with a worker left; when every worker is placed, the day ends."""
    n = state[NUM_PLAYERS]
    p = state[CURRENT_PLAYER]
    for k in range(1, n + 1):
        q = (p + k) % n
        if state[AVAILABLE + q] > 0:
            state[PHASE] = PHASE_DAY
            state[CURRENT_PLAYER] = q
            return
    end_day(state)


@njit(cache=True)
def end_day(state):
    """End of the game: a player has 2 Offerings and the round is over (no night)."""
    for p in range(competitors(state)):  # solo: Chaak'Bot's Offerings end the game too
        if state[OFFERINGS_DONE + p] >= OFFERINGS_TO_END:
            state[END_CONDITION] = END_OFFERINGS
            state[TERMINAL] = 1
            return
    night(state)


@njit(cache=True)
def night(state):
    n = state[NUM_PLAYERS]
    # 1. Workers come back; the sacrificed go to the reserve; the clan's new workers join.
    for p in range(n):
        state[OWNED + p] += state[NEW_WORKERS + p] - state[SACRIFICED + p]
        state[NEW_WORKERS + p] = 0
        state[SACRIFICED + p] = 0
        state[PYRAMID_WORKERS + p] = 0
        state[IDLE + p] = 0
        state[AVAILABLE + p] = state[OWNED + p]
    state[SPACE_WORKER : SPACE_WORKER + MAX_POSITIONS * MAX_SPACES * SPACE_PLACES] = 0
    state[ENCAMP_WORKER : ENCAMP_WORKER + MAX_POSITIONS * 2] = 0
    for s in range(PITUK_SPACES):
        state[PITUK_WORKER + s] = 0
    state[START_WORKER] = 0
    state[INCREASE_WORKER] = 0
    if state[VARIANT + V_CENOTE]:
        cenote.cenote_night(state)
    # 2. Explored tiles are revealed.
    for position in range(MAX_POSITIONS):
        if state[EXPLORER + position] != 0:
            state[REVEALED + position] = 1
            state[EXPLORER + position] = 0
    # 3.-4. The Market back to 5 cards, the Offerings to 2.
    refill_market(state)
    refill_offerings(state)
    # 5. After the first night "Increase the clan" is open.
    if state[ROUND] == 1 and state[INCREASE_BLOCKED]:
        state[INCREASE_BLOCKED] = 0
        state[CUBE_RESERVE] += 1
    if n == 1:  # solo: Chaak'Bot's cube leaves the start-player space; its cards are discarded
        chaakbot.night(state)
    state[ROUND] = min(state[ROUND] + 1, MAX_ROUND)  # saturates: the guard (GameSpec) cuts far sooner
    start_day(state)


@njit(cache=True)
def set_effect(state, effect, card):
    state[EFFECT] = effect
    state[EFFECT_CARD] = card
    state[PHASE] = PHASE_EFFECT


@njit(cache=True)
def market_icon(state, p, card):
    """The icon of an acquired Market card (rulebook glossary)."""
    icon = MARKET_ICON[card]
    if icon == ICON_STEAL:
        if steal_affordable(state, p, card):
            set_effect(state, EFFECT_STEAL, card)
    elif icon == ICON_PITUK:
        # A Pituk action even if exhausted or not yet available: +1 VP and his favour.
        state[res_at(p, VP)] += 1
        set_effect(state, EFFECT_FAVOUR, card)
    elif icon == ICON_INCREASE:
        # A reserve worker joins in the multiply action, without occupying it.
        if reserve_workers(state, p) > 0:
            state[NEW_WORKERS + p] += 1
    elif icon == ICON_FREE:
        if any_cube(state):  # "If there is no cube, the icon is ignored."
            set_effect(state, EFFECT_FREE, card)


@njit(cache=True)
def day_step(state, p, action):
    if action >= cenote.CENOTE_BASE:  # the Cenote (cenote.py)
        cenote.cenote_step(state, p, action)
        return
    if action < MARKET_BASE:  # a resource space
        position, space = divmod(action - SPACE_BASE, MAX_SPACES)
        put_on_space(state, position, space, p)
        gain(state, p, SPACE_GAIN[state[TILE_AT + position], space])
        state[AVAILABLE + p] -= 1
    elif action < HERITAGE_BASE:  # the Market: pay, gain, keep the card, then its icon
        position, slot = divmod(action - MARKET_BASE, MARKET_SHOWN)
        put_on_space(state, position, TILE_MARKET_SPACE[state[TILE_AT + position]], p)
        state[AVAILABLE + p] -= 1
        card = take_market_slot(state, slot)
        pay(state, p, MARKET_COST[card])
        gain(state, p, MARKET_GAIN[card])
        state[MARKET_OWNER + card] = p + 1
        market_icon(state, p, card)
    elif action < ENCAMPMENT_BASE:  # a Heritage card
        position, card = divmod(action - HERITAGE_BASE, NUM_HERITAGE)
        put_on_space(state, position, TILE_HERITAGE_SPACE[state[TILE_AT + position]], p)
        state[AVAILABLE + p] -= 1
        play_heritage(state, p, card)
    elif action < EXPLORE_BASE:  # an Encampment: a cube covers the option taken
        slot = action - ENCAMPMENT_BASE
        position = slot // (2 * MAX_OPTIONS)
        side = (slot // MAX_OPTIONS) % 2
        option = slot % MAX_OPTIONS
        state[ENCAMP_WORKER + position * 2 + side] = p + 1
        state[OPTION_CUBE + slot] = 1
        state[CUBE_RESERVE] -= 1
        gain(state, p, OPTION_GAIN[state[TILE_AT + position], side, option])
        state[AVAILABLE + p] -= 1
    elif action < OFFERING_BASE:  # Explore: +1 VP; the tile is revealed at night
        state[EXPLORER + action - EXPLORE_BASE] = p + 1
        state[res_at(p, VP)] += 1
        state[AVAILABLE + p] -= 1
    elif action < PITUK_ACTION:  # the Pyramid: 2 workers, the sacrifice, the payment
        slot = action - OFFERING_BASE
        card = state[OFFER_SLOT + slot]
        pay(state, p, OFFERING_COST[card])
        state[AVAILABLE + p] -= 2
        state[PYRAMID_WORKERS + p] += 2
        state[SACRIFICED + p] += OFFERING_SACRIFICE[card]
        if state[VARIANT + V_CENOTE]:
            cenote.offering_completed(state, p, slot)
        state[OFFER_SLOT + slot] = NO_CARD
        state[OFFERING_WHERE + card] = OFFER_TAKEN
        state[OFFERING_OWNER + card] = p + 1
        state[OFFERINGS_DONE + p] += 1
        if state[FIRST_OFFERING + p] == 0:
            state[FIRST_OFFERING + p] = state[OFFERINGS_MADE] + 1
        state[OFFERINGS_MADE] += 1
    elif action == PITUK_ACTION:  # a cube on a Pituk space, +1 VP, then his favour
        s = free_pituk_space(state)
        state[PITUK_WORKER + s] = p + 1
        state[PITUK_CUBE + s] = 1
        state[CUBE_RESERVE] -= 1
        state[res_at(p, VP)] += 1
        state[AVAILABLE + p] -= 1
        set_effect(state, EFFECT_FAVOUR, NO_CARD)
    elif action == START_ACTION:
        state[START_WORKER] = p + 1
        state[START] = p  # the marker now; the player starts the next round
        state[AVAILABLE + p] -= 1
    elif action == INCREASE_ACTION:  # pay, 2 workers, a third from the reserve for next round
        pay(state, p, CLAN_INCREASE_COST[state[CLAN + p]])
        state[INCREASE_WORKER] = p + 1
        state[NEW_WORKERS + p] += 1
        state[AVAILABLE + p] -= 2
    else:  # pass
        state[IDLE + p] += 1
        state[AVAILABLE + p] -= 1


@njit(cache=True)
def effect_step(state, p, action):
    effect = state[EFFECT]
    if effect == EFFECT_STEAL:
        option, offset = divmod(action - STEAL_BASE, N_SEAT_OFFSETS)
        card = state[EFFECT_CARD]
        victim = (p + offset + 1) % competitors(state)
        pay(state, p, STEAL_COST[card, option])
        taken = min(STEAL_VP[card, option], state[res_at(victim, VP)])
        state[res_at(victim, VP)] -= taken
        state[res_at(p, VP)] += taken
    elif effect == EFFECT_FREE:
        target = action - FREE_BASE
        if target < N_OPTION_SLOTS:
            state[OPTION_CUBE + target] = 0
        elif target < CUBE_INCREASE:
            state[PITUK_CUBE + target - CUBE_PITUK] = 0
        elif target == CUBE_INCREASE:
            state[INCREASE_BLOCKED] = 0
        else:
            state[START_BLOCKED] = 0
        state[CUBE_RESERVE] += 1
    elif action == FAVOUR_REFRESH:
        replace_offerings(state)
    state[EFFECT] = EFFECT_NONE
    state[EFFECT_CARD] = NO_CARD
    state[PHASE] = PHASE_DAY


@njit(cache=True)
def legal_in_mask(state, p, action):
    """Whether `action` is in seat p's legal mask (the whole mask computed: for the rare
    decisions whose rule needs it)."""
    mask = np.zeros(N_ACTIONS, np.int8)
    legal_mask(state, p, mask)
    return mask[action] == 1


@njit(cache=True)
def step(state: np.ndarray, action: int) -> None:
    """Apply the decision of the player to act. The drivers check legality (legal_mask) before
    a kernel sees an action, but BatchRunner(check_actions=False) and a user's own loop need
    not, and no action may send a kernel outside its arrays: an action its phase does not
    decide in at all (and, in the set-up, one naming a card or tile that is not there) is
    refused here, changing nothing.

    The refusal is written out in this body, and step_unrefused's few lines after it, rather
    than called: a helper taking the state, called or inlined, makes numba count a reference
    to the array (two atomic operations) around it, which cost more than the checks
    (benchmarks/refusal_cost.py)."""
    if state[TERMINAL] or action < 0 or action >= N_ACTIONS:
        return
    p = state[CURRENT_PLAYER]
    current = state[PHASE]
    effect = state[EFFECT]
    if current == PHASE_HERITAGE:
        card = action - HERITAGE_SETUP_BASE
        if card < 0 or card >= NUM_HERITAGE:
            return
        if state[HERITAGE_HOLDER + card] != p + 1 or state[HERITAGE_PLAYED + card] != 0:
            return
    elif current == PHASE_REVEAL:
        position = action - REVEAL_BASE
        if position < 0 or position >= state[POSITIONS] or state[REVEALED + position] != 0:
            return
    elif current == PHASE_DAY and effect != EFFECT_PAY:
        # A worker's placement: day_legal_mask's rules for that one action.
        if action == PASS_ACTION or cenote.CENOTE_BASE <= action < cenote.WILD_BASE:
            # A pass only when nothing else is legal; the Cenote's rules (cenote.py): rare,
            # so checked against the whole mask.
            if not legal_in_mask(state, p, action):
                return
        elif action < SPACE_BASE or action > PASS_ACTION:
            return
        elif action < EXPLORE_BASE:
            # A space of a face-up tile: a resource space, the Market, a Heritage space or an
            # Encampment option.
            if action < MARKET_BASE:
                position, space = (action - SPACE_BASE) // MAX_SPACES, (action - SPACE_BASE) % MAX_SPACES
            elif action < HERITAGE_BASE:
                position = (action - MARKET_BASE) // MARKET_SHOWN
            elif action < ENCAMPMENT_BASE:
                position = (action - HERITAGE_BASE) // NUM_HERITAGE
            else:
                position = (action - ENCAMPMENT_BASE) // (2 * MAX_OPTIONS)
            if position >= state[POSITIONS] or state[REVEALED + position] == 0:
                return
            tile = state[TILE_AT + position]
            if action < MARKET_BASE:
                if SPACE_KIND[tile, space] != SPACE_RESOURCE:
                    return
            elif action < HERITAGE_BASE:
                card = state[MARKET_SLOT + (action - MARKET_BASE) % MARKET_SHOWN]
                space = TILE_MARKET_SPACE[tile]
                if space < 0 or card == NO_CARD:
                    return
                # can_pay, written out: the goods short of the cost, which tseek' may replace.
                short = 0
                for r in range(NUM_RES):
                    lack = MARKET_COST[card, r] - state[res_at(p, r)]
                    if lack > 0:
                        if r >= GOODS:
                            return
                        short += lack
                if short > state[res_at(p, TSEEK)]:
                    return
            elif action < ENCAMPMENT_BASE:
                card = (action - HERITAGE_BASE) % NUM_HERITAGE
                space = TILE_HERITAGE_SPACE[tile]
                if space < 0 or state[HERITAGE_HOLDER + card] != p + 1 or state[HERITAGE_PLAYED + card] != 0:
                    return
            else:
                # An Encampment needs a worker (anyone's) on a basic space of its tile.
                slot = action - ENCAMPMENT_BASE
                side, option = (slot // MAX_OPTIONS) % 2, slot % MAX_OPTIONS
                if state[ENCAMP_WORKER + position * 2 + side] != 0 or state[OPTION_CUBE + slot] != 0:
                    return
                if not OPTION_EXISTS[tile, side, option]:
                    return
                # tile_has_basic_worker, written out: the tile's basic spaces are contiguous.
                first = space_slot(position, 0, 0)
                occupied = False
                for worker_slot in range(first, first + MAX_SPACES * SPACE_PLACES):
                    if state[worker_slot] != 0:
                        occupied = True
                        break
                if not occupied:
                    return
                space = -1  # no space of its own
            if space >= 0:
                # Room on the space for seat p (space_open_for): under its capacity, and never
                # two of one player's.
                used = 0
                for place in range(SPACE_PLACES):
                    who = state[space_slot(position, space, place)]
                    if who == p + 1:
                        return
                    used += who != 0
                if used >= (SPACE_PLACES if state[NUM_PLAYERS] == 4 and SPACE_DOUBLE[tile, space] else 1):
                    return
        elif action < OFFERING_BASE:
            # Explore: a face-down tile nobody has explored yet.
            position = action - EXPLORE_BASE
            if (
                position >= state[POSITIONS]
                or state[REVEALED + position] != 0
                or state[EXPLORER + position] != 0
            ):
                return
        elif action == PITUK_ACTION:
            # The Pituk wakes when every tile is explored; in the Forest and in solo, from the start.
            awake = state[VARIANT + V_FOREST] or state[NUM_PLAYERS] == 1 or all_explored(state)
            if not awake or free_pituk_space(state) < 0:
                return
        elif action == START_ACTION:
            if state[START_WORKER] != 0 or state[START] == p or state[START_BLOCKED] != 0:
                return
        elif state[AVAILABLE + p] < 2:
            return  # the Offerings and the clan's increase take 2 workers
        elif action == INCREASE_ACTION:
            if state[INCREASE_BLOCKED] != 0 or state[INCREASE_WORKER] != 0 or reserve_workers(state, p) <= 0:
                return
            if not can_pay(state, p, CLAN_INCREASE_COST[state[CLAN + p]]):
                return
        elif state[VARIANT + V_CENOTE]:  # tseek' and workers on the Offerings (cenote.py)
            if not cenote.offering_possible(state, p, action - OFFERING_BASE):
                return
        else:
            card = state[OFFER_SLOT + action - OFFERING_BASE]
            if card == NO_CARD or not can_pay(state, p, OFFERING_COST[card]):
                return
            if not can_sacrifice(state, p, OFFERING_SACRIFICE[card]):
                return
    elif effect == EFFECT_STEAL:
        # An option of the card the player can pay, from a competitor 1 .. n-1 seats on.
        option, offset = (action - STEAL_BASE) // N_SEAT_OFFSETS, (action - STEAL_BASE) % N_SEAT_OFFSETS
        if action < STEAL_BASE or action >= STEAL_STOP or offset + 1 >= competitors(state):
            return
        card = state[EFFECT_CARD]
        if STEAL_VP[card, option] <= 0 or not can_pay(state, p, STEAL_COST[card, option]):
            return
    elif effect == EFFECT_FREE:
        if action < FREE_BASE or action >= FREE_STOP or not cube_at(state, action - FREE_BASE):
            return
    elif effect == EFFECT_FAVOUR:
        if action < FAVOUR_BASE or action >= FAVOUR_STOP:
            return
    elif effect == EFFECT_PAY:
        if not legal_in_mask(state, p, action):  # the Cenote's payment (cenote.pay_legal_mask)
            return
    else:
        return
    # step_unrefused, written out (see above).
    state[DECISIONS] += 1
    if current == PHASE_HERITAGE:
        heritage_step(state, p, action)
        return
    state[LAST_ACTION] = action
    state[LAST_ACTOR] = p
    if current == PHASE_REVEAL:
        reveal_step(state, p, action)
    elif state[NUM_PLAYERS] == 1:  # solo: the human's decision, then Chaak'Bot's turn
        solo_step(state, action)
    elif apply_decision(state, p, action) and state[EFFECT] == EFFECT_NONE:
        next_turn(state)


@njit(cache=True)
def step_unrefused(state: np.ndarray, action: int) -> None:
    """step without the refusal: `action` must be one step would take (benchmarks/
    refusal_cost.py measures what the refusal costs against this)."""
    p = state[CURRENT_PLAYER]
    state[DECISIONS] += 1
    current = state[PHASE]
    if current == PHASE_HERITAGE:
        heritage_step(state, p, action)
        return
    state[LAST_ACTION] = action
    state[LAST_ACTOR] = p
    if current == PHASE_REVEAL:
        reveal_step(state, p, action)
    elif state[NUM_PLAYERS] == 1:  # solo: the human's decision, then Chaak'Bot's turn
        solo_step(state, action)
    elif apply_decision(state, p, action) and state[EFFECT] == EFFECT_NONE:
        next_turn(state)


@njit(cache=True)
def heritage_step(state, p, action):
    """The set-up Heritage play: seats choose in order, hidden until every seat has chosen."""
    state[PENDING + p] = action - HERITAGE_SETUP_BASE  # hidden until every seat has chosen
    if p + 1 < state[NUM_PLAYERS]:
        state[CURRENT_PLAYER] = p + 1
        return
    for q in range(state[NUM_PLAYERS]):
        play_heritage(state, q, state[PENDING + q])
        state[PENDING + q] = NO_CARD
    state[LAST_ACTION] = -1
    state[LAST_ACTOR] = -1
    state[PHASE] = PHASE_REVEAL
    state[CURRENT_PLAYER] = state[START] if state[NUM_PLAYERS] > 1 else 0  # solo: the human reveals


@njit(cache=True)
def reveal_step(state, p, action):
    """The starting player reveals a tile of its choice, then the next player another."""
    state[REVEALED + action - REVEAL_BASE] = 1
    state[REVEALS_LEFT] -= 1
    if state[REVEALS_LEFT] > 0:
        state[CURRENT_PLAYER] = (p + 1) % state[NUM_PLAYERS]
    else:
        start_day(state)


@njit(cache=True)
def apply_decision(state, p, action):
    """Seat p's decision in the day or the effect phase. False while the Cenote's payment waits
    for the player to say which goods its tseek' replace (the action resolves once it has)."""
    current = state[PHASE]
    if state[VARIANT + V_CENOTE] and (current == PHASE_DAY or state[EFFECT] == EFFECT_STEAL):
        if cenote.begin_payment(state, p, action):  # first, which goods its tseek' replace
            return False
    if state[EFFECT] == EFFECT_PAY:
        if not cenote.pay_choice(state, action):
            return False
        resume_paid_action(state, p)
    elif current == PHASE_DAY:
        day_step(state, p, action)
    else:
        effect_step(state, p, action)
    return True


@njit(cache=True)
def resume_paid_action(state, p):
    """The payment decided: the action resolves (kernels.pay spends the tseek' chosen)."""
    action = state[PAY_ACTION]
    if action >= STEAL_BASE:  # a steal icon's option, or the Cenote
        state[EFFECT] = EFFECT_STEAL if action < cenote.CENOTE_BASE else EFFECT_NONE
        state[PHASE] = PHASE_EFFECT if action < cenote.CENOTE_BASE else PHASE_DAY
    else:
        state[EFFECT] = EFFECT_NONE
        state[PHASE] = PHASE_DAY
    if state[EFFECT] == EFFECT_STEAL:
        effect_step(state, p, action)
    else:
        day_step(state, p, action)
    cenote.end_payment(state)


# -- the end -----------------------------------------------------------------------------------
@njit(cache=True)
def score_of(state, p):
    """Offerings + Market cards + VP tokens + stored goods (3 Corn, 2 Skins or 1 Mask per VP)."""
    total = state[res_at(p, VP)]
    total += state[res_at(p, CORN)] // CORN_PER_VP
    total += state[res_at(p, SKIN)] // SKIN_PER_VP
    total += state[res_at(p, MASK)] // MASK_PER_VP
    for card in range(NUM_OFFERINGS):
        if state[OFFERING_OWNER + card] == p + 1:
            total += OFFERING_VP[card]
    for card in range(NUM_MARKET):
        if state[MARKET_OWNER + card] == p + 1:
            total += MARKET_END_VP[card]
    # Cenote: 4 VP per tseek' on its Offerings, 3 per tseek' in the warehouse; Destiny's card.
    total += TSEEK_OFFERING_VP * state[TSEEK_ON_OFFERINGS + p] + TSEEK_WAREHOUSE_VP * state[res_at(p, TSEEK)]
    if state[VARIANT + V_DESTINY]:
        total += cenote.destiny_points(state, p)
    return total


@njit(cache=True)
def scores(state: np.ndarray, scores_out: np.ndarray, tiebreaks_out: np.ndarray) -> None:
    """Final scores; the tie-break is the most Jade Masks, then the first to make an Offering."""
    for p in range(competitors(state)):  # solo: Chaak'Bot's score as competitor 1
        scores_out[p] = score_of(state, p)
        first = state[FIRST_OFFERING + p]
        tiebreaks_out[p] = state[res_at(p, MASK)] * TIEBREAK_FIRST + (TIEBREAK_FIRST - first if first else 0)


@njit(cache=True)
def competitors(state: np.ndarray) -> int:
    """The players; in solo the human and Chaak'Bot (competitor 1)."""
    return SOLO_COMPETITORS if state[NUM_PLAYERS] == 1 else state[NUM_PLAYERS]


# -- hidden information ------------------------------------------------------------------------
@njit(cache=True)
def resample_hidden(state: np.ndarray, player: int, seed: int) -> None:
    """Re-deal what `player` cannot know: the other players' Heritage hands (with the box), their
    pending set-up choices, the Market and Offering deck orders, and which tiles lie face down
    on the board and which in the box. The generator is reseeded from `seed`."""
    rng_seed(state, RNG, seed)
    n = state[NUM_PLAYERS]
    # Heritage: the unplayed cards not in player's hand go back to the others' hands and the box.
    pool = np.empty(NUM_HERITAGE, np.int32)
    size = 0
    hand = np.zeros(MAX_PLAYERS, np.int32)
    for card in range(NUM_HERITAGE):
        holder = state[HERITAGE_HOLDER + card]
        if state[HERITAGE_PLAYED + card] == 0 and holder != player + 1:
            pool[size] = card
            size += 1
            if holder != 0:
                hand[holder - 1] += 1
    rng_shuffle(state, RNG, pool, size)
    k = 0
    for q in range(n):
        for _ in range(hand[q]):
            state[HERITAGE_HOLDER + pool[k]] = q + 1
            k += 1
    for i in range(k, size):
        state[HERITAGE_HOLDER + pool[i]] = 0
    if state[PHASE] == PHASE_HERITAGE and not state[TERMINAL]:
        for q in range(state[CURRENT_PLAYER]):
            if q == player:
                continue
            pick = rng_below(state, RNG, hand[q])
            for card in range(NUM_HERITAGE):
                if state[HERITAGE_HOLDER + card] == q + 1 and state[HERITAGE_PLAYED + card] == 0:
                    if pick == 0:
                        state[PENDING + q] = card
                        break
                    pick -= 1
    # The decks sorted first: the re-deal depends only on what player knows and the seed.
    count = state[MARKET_DECK_COUNT]
    sort_ascending(state[MARKET_DECK : MARKET_DECK + count])
    rng_shuffle(state, RNG, state[MARKET_DECK : MARKET_DECK + count], count)
    count = state[OFFER_DECK_COUNT]
    sort_ascending(state[OFFER_DECK : OFFER_DECK + count])
    rng_shuffle(state, RNG, state[OFFER_DECK : OFFER_DECK + count], count)
    # Tiles: the face-down ones and the boxed ones are indistinguishable to every player.
    on_board = np.zeros(NUM_TILES, np.int32)
    for position in range(state[POSITIONS]):
        if state[REVEALED + position]:
            on_board[state[TILE_AT + position]] = 1
    tiles = np.empty(NUM_TILES, np.int32)
    size = 0
    for t in range(NUM_TILES):
        if not on_board[t]:
            tiles[size] = t
            size += 1
    rng_shuffle(state, RNG, tiles, size)
    k = 0
    for position in range(state[POSITIONS]):
        if not state[REVEALED + position]:
            state[TILE_AT + position] = tiles[k]
            k += 1
    # Destiny: the others' cards (and the box's) until the end, when every card is shown.
    if state[VARIANT + V_DESTINY] and not state[TERMINAL]:
        cenote.resample_destiny(state, player)
    if n == 1:  # solo: Chaak'Bot's deck order and orientations, hard mode's face-down cards
        canonical_bot_cards(state)
        chaakbot.resample(state)


@njit(cache=True)
def canonical_bot_cards(state: np.ndarray) -> None:
    """Chaak'Bot's deck and its face-down drawn cards (the cards the human cannot tell apart)
    sorted together, deck first, before chaakbot.resample shuffles them: so the re-deal depends
    only on what the human knows and the seed."""
    pool = np.empty(NUM_BOT_CARDS, np.int32)
    count = state[BOT_DECK_COUNT]
    size = count
    for i in range(count):
        pool[i] = state[BOT_DECK + i]
    for k in range(BOT_DRAW):
        if chaakbot.drawn_face_down(state, k):
            pool[size] = chaakbot.drawn_card(state, k)
            size += 1
    sort_ascending(pool[:size])
    for i in range(count):
        state[BOT_DECK + i] = pool[i]
    i = count
    for k in range(BOT_DRAW):
        if chaakbot.drawn_face_down(state, k):
            state[BOT_DRAWN + k] = pool[i] + BOT_FACE_DOWN
            i += 1


# -- solo: the human's decision, then Chaak'Bot's turn (its rules in chaakbot.py) ------------------
@njit(cache=True)
def solo_step(state, action):
    """The human's decision in the day or the effect phase; then Chaak'Bot's next card (after
    each of the human's turns), then the human's next worker or the end of the day. A pending
    icon of the bot's own card (the human chose its cube) resumes that card: its combo."""
    card = state[EFFECT_CARD]
    bots_icon = state[EFFECT] != EFFECT_NONE and card != NO_CARD and state[MARKET_OWNER + card] == BOT_MARK
    if not apply_decision(state, 0, action):
        return  # the human says which goods its tseek' replace first (Cenote)
    if state[EFFECT] != EFFECT_NONE:
        return  # the human resolves an icon of its own card first
    if bots_icon:
        chaakbot.finish_card(state)
    elif chaakbot.cards_left(state):
        chaakbot.play_card(state)
        if state[EFFECT] != EFFECT_NONE:
            return
    if state[AVAILABLE] > 0:  # the human's next worker, or the end of the day
        state[PHASE] = PHASE_DAY
        state[CURRENT_PLAYER] = 0
    else:
        end_day(state)


# step's largest parts (GameSpec.step_parts), at the types step calls them with: Chaak'Bot's
# solo turn (with the human's decision) and the reveal, which starts the day; about half of
# step's compile between them.
STEP_PARTS = ((solo_step, (STATE_ARG, INT_ARG)), (reveal_step, (STATE_ARG, INT_ARG, INT_ARG)))
