"""A scripted Tomb Trader player. It reads only what its seat may know (its character and
stash, the table, public gold and stash sizes, forced locations, its own location's
negotiation); tests check that re-dealing the hidden rest never changes its choice.

It values each card by its worth to its own character (base value, character bonus, the map
set, combos, expected coin flips); it goes where that worth per expected player is highest;
it proposes by worth to itself while giving every player there a fair share of the table's
face value, keeping a card it values above its face and paying gold for the excess; it
accepts a proposal worth at least what rejecting is expected to bring (a fair share less a
slack: smaller while its own proposal is still to come, larger on the last, where the
alternative is a collapse), and never one that leaves another player there well ahead of it
(benchmarks/tomb_exploiters.py: no fixed strategy of tomb_env.exploiters beats it)."""

from __future__ import annotations

import numpy as np

from tomb_env.data import (
    ABILITY_CARTOGRAPHY,
    ABILITY_THREAT,
    ABILITY_WARDING,
    CARTOGRAPHY_MIN_MAPS,
    CHARACTER_BONUS,
    DECK_KIND_EFFECT,
    EFFECT_DICE,
    EFFECT_DRAW,
    EFFECT_LUCKY_COMBO,
    EFFECT_LUCKY_ROCK,
    EFFECT_MAP,
    EFFECT_SARCOPHAGUS,
    EFFECT_SNAKEBITE,
    EFFECT_STATUE,
    EFFECT_STATUE_COMBO,
    KIND_VALUE,
    MAP_SET_VALUE,
    MAX_LOCATION_CARDS,
    MAX_PLAYERS,
    NUM_CARDS,
    NUM_LOCATIONS,
    THREAT_COST,
)
from tomb_env.kernels import (
    ability_of,
    bit_count,
    card_effect,
    card_kind,
    card_value,
    is_weapon,
    legal_mask,
    players_at,
    stash_size,
)
from tomb_env.state import (
    ASSIGN_BASE,
    CARD_OWNER,
    CARD_PLACE,
    CARD_SET,
    CHARACTER,
    CHOOSE_BASE,
    FORCE_BASE,
    FORCE_PASS_ACTION,
    FORCED,
    GOLD,
    LEAVE_ACTION,
    LOCATION,
    LONE_TAKEN,
    N_ACTIONS,
    NEG_ASSIGN,
    NEG_GOLD,
    NEG_LIMIT,
    NEG_MADE,
    NEG_NEXT_SLOT,
    NEG_PROPOSER,
    NEG_STAGE,
    NO_LOCATION,
    PHASE,
    PHASE_CALL,
    PHASE_CHOOSE,
    PHASE_FORCE,
    PLACE_STASH,
    PROPOSE_ACTION,
    SLOT_CARD,
    SLOT_COUNT,
    SNAKE,
    STAGE_ASSIGN,
    STAGE_LONE,
    STAGE_TRANSFER,
    TAKE_BASE,
    TRANSFER_BASE,
    VOTE_ACCEPT,
    VOTE_BASE,
    VOTE_REJECT,
)
from treasure_core.agents import KernelBot
from treasure_core.header import NUM_PLAYERS
from treasure_core.jit import njit
from treasure_core.kernels import tie_key

# The vote (accepts): a proposal within this much of the fair share is accepted ...
ACCEPT_SLACK = 1.0
OWN_LATER_SLACK = 0.5  # ... less while its own proposal is still to come
LAST_SLACK = 1.5  # ... more on the last proposal (the alternative is a collapse)
LEAD_GAP = 2.0  # and none if it leaves another player there more than this ahead of the bot
PAY_MARGIN = 0.5  # the bot pays gold until every other player there is this near the fair share


@njit(cache=True)
def worth(state: np.ndarray, player: int, card: int) -> float:
    """What `card` would add to `player`'s final value, by what `player` holds now."""
    character = state[CHARACTER + player]
    ability = ability_of(state, player)
    maps = 0
    rock = False
    statue = False
    clovers = 0
    bowls = 0
    for c in range(NUM_CARDS):
        if state[CARD_PLACE + c] == PLACE_STASH and state[CARD_OWNER + c] == player:
            effect = card_effect(state, c)
            maps += effect == EFFECT_MAP
            rock = rock or effect == EFFECT_LUCKY_ROCK
            statue = statue or effect == EFFECT_STATUE
            clovers += effect == EFFECT_LUCKY_COMBO
            bowls += effect == EFFECT_STATUE_COMBO
    kind = card_kind(state, card)
    effect = DECK_KIND_EFFECT[state[CARD_SET], kind]
    value = float(KIND_VALUE[kind])
    if effect == EFFECT_MAP:
        carto = ability == ABILITY_CARTOGRAPHY
        have = min(maps + 1 if carto and maps >= CARTOGRAPHY_MIN_MAPS else maps, 6)
        after = min(maps + 2 if carto and maps + 1 >= CARTOGRAPHY_MIN_MAPS else maps + 1, 6)
        value = float(MAP_SET_VALUE[after] - MAP_SET_VALUE[have])
    elif effect == EFFECT_DICE:
        value += 1.0
    elif effect == EFFECT_SARCOPHAGUS:
        value = 3.0
    elif effect == EFFECT_LUCKY_COMBO:
        value += 3.0 if rock else 0.5
    elif effect == EFFECT_STATUE_COMBO:
        value += 2.0 if statue else 0.3
    elif effect == EFFECT_LUCKY_ROCK:
        value += 3.0 * clovers
    elif effect == EFFECT_STATUE:
        value += 2.0 * bowls
    elif effect == EFFECT_DRAW:
        value += 0.8
    elif effect == EFFECT_SNAKEBITE:
        value -= 0.5
    elif is_weapon(effect):
        value += 0.3 + (THREAT_COST if ability == ABILITY_THREAT else 0.0)  # relative: 1 off each other
    if ability == ABILITY_WARDING and value < 0:
        value = 0.0
    return value + CHARACTER_BONUS[character, kind]


@njit(cache=True)
def best(mask, values, salt, state):
    """The legal action of highest value; ties by tie_key."""
    choice = -1
    top = -1e18
    key = np.uint64(0)
    for a in range(N_ACTIONS):
        if not mask[a]:
            continue
        k = tie_key(salt, state, a)
        if choice < 0 or values[a] > top or (values[a] == top and k > key):
            choice, top, key = a, values[a], k
    return choice


@njit(cache=True)
def plan(state, player, loc, owners, shares):
    """The bot's proposal: owners[slot] for every card there; shares[seat] the face value each
    gets. Positive cards by worth to itself while its share stays near the fair share; the
    rest to whoever has least; negative cards to whoever has most."""
    n = state[NUM_PLAYERS]
    there = players_at(state, loc)
    m = 0
    for p in range(n):
        m += (there >> p) & 1
    count = state[SLOT_COUNT + loc]
    total = 0.0
    for slot in range(count):
        total += max(0.0, float(card_value(state, state[SLOT_CARD + loc * MAX_LOCATION_CARDS + slot])))
    fair = total / m
    shares[:] = 0.0
    done = np.zeros(MAX_LOCATION_CARDS, np.bool_)
    for _ in range(count):  # positives, best for the bot first
        pick = -1
        top = -1e18
        for slot in range(count):
            card = state[SLOT_CARD + loc * MAX_LOCATION_CARDS + slot]
            if not done[slot] and card_value(state, card) >= 0 and worth(state, player, card) > top:
                pick, top = slot, worth(state, player, card)
        if pick < 0:
            break
        done[pick] = True
        base = float(card_value(state, state[SLOT_CARD + loc * MAX_LOCATION_CARDS + pick]))
        # Keep it within the fair share, or pay gold for a card it values above its face.
        affordable = shares[player] + base - fair <= state[GOLD + player]
        within = shares[player] == 0.0 or shares[player] + base <= fair + 1.0
        if top > 0 and (within or (top >= base + 1.0 and affordable)):
            owners[pick] = player
        else:
            low = -1
            for p in range(n):
                if (there >> p) & 1 and p != player and (low < 0 or shares[p] < shares[low]):
                    low = p
            owners[pick] = low
        shares[owners[pick]] += base
    for slot in range(count):  # negatives to the richest share
        if done[slot]:
            continue
        base = float(card_value(state, state[SLOT_CARD + loc * MAX_LOCATION_CARDS + slot]))
        high = -1
        for p in range(n):
            if (there >> p) & 1 and (high < 0 or shares[p] > shares[high]):
                high = p
        owners[slot] = high
        shares[high] += base
    return fair


@njit(cache=True)
def heuristic_action(state: np.ndarray, player: int, salt: int = 0) -> int:
    mask = np.zeros(N_ACTIONS, np.int8)
    legal_mask(state, player, mask)
    values = np.zeros(N_ACTIONS, np.float64)
    n = state[NUM_PLAYERS]
    current = state[PHASE]
    if current == PHASE_FORCE:
        # Send the player with the most (gold + stash) to the poorer location.
        table = np.zeros(NUM_LOCATIONS, np.float64)
        for loc in range(NUM_LOCATIONS):
            for slot in range(state[SLOT_COUNT + loc]):
                table[loc] += card_value(state, state[SLOT_CARD + loc * MAX_LOCATION_CARDS + slot])
        poor = 0 if table[0] <= table[1] else 1
        for k in range(1, n):
            seat = (player + k) % n
            values[FORCE_BASE + (k - 1) * NUM_LOCATIONS + poor] = (
                1.0 + state[GOLD + seat] + stash_size(state, seat)
            )
        values[FORCE_PASS_ACTION] = 0.5
        return best(mask, values, salt, state)
    if current == PHASE_CHOOSE:
        for loc in range(NUM_LOCATIONS):
            gain = 0.0
            for slot in range(state[SLOT_COUNT + loc]):
                gain += max(0.0, worth(state, player, state[SLOT_CARD + loc * MAX_LOCATION_CARDS + slot]))
            crowd = 1.0
            for p in range(n):
                if p == player:
                    continue
                if state[FORCED + p] == loc:
                    crowd += 1.0
                elif state[FORCED + p] == NO_LOCATION:
                    crowd += 0.5 if not state[SNAKE + p] else 0.5
            values[CHOOSE_BASE + loc] = gain / crowd
        return best(mask, values, salt, state)
    if current == PHASE_CALL:
        return best(mask, values, salt, state)
    loc = state[LOCATION + player]
    stage = state[NEG_STAGE + loc]
    if stage == STAGE_LONE:
        values[LEAVE_ACTION] = 0.0
        for slot in range(state[SLOT_COUNT + loc]):
            if not state[LONE_TAKEN + loc * MAX_LOCATION_CARDS + slot]:
                values[TAKE_BASE + slot] = worth(
                    state, player, state[SLOT_CARD + loc * MAX_LOCATION_CARDS + slot]
                )
        return best(mask, values, salt, state)
    owners = np.zeros(MAX_LOCATION_CARDS, np.int64)
    shares = np.zeros(MAX_PLAYERS, np.float64)
    if stage == STAGE_ASSIGN:
        plan(state, player, loc, owners, shares)
        seat = owners[state[NEG_NEXT_SLOT + loc]]
        return ASSIGN_BASE + (seat - player) % n
    if stage == STAGE_TRANSFER:
        return transfer_step(state, player, loc, mask)
    return VOTE_BASE + (VOTE_ACCEPT if accepts(state, player, loc) else VOTE_REJECT)


@njit(cache=True)
def face_gains(state, loc, gains):
    """gains[seat]: the face value of the cards the proposal gives it plus its net gold; returns
    the table's face value (negative cards included: every card must be taken)."""
    gains[:] = 0.0
    total = 0.0
    for p in range(MAX_PLAYERS):
        gains[p] = float(state[NEG_GOLD + loc * MAX_PLAYERS + p])
    for slot in range(state[SLOT_COUNT + loc]):
        value = float(card_value(state, state[SLOT_CARD + loc * MAX_LOCATION_CARDS + slot]))
        total += value
        owner = state[NEG_ASSIGN + loc * MAX_LOCATION_CARDS + slot]
        if owner >= 0:
            gains[owner] += value
    return total


@njit(cache=True)
def proposes_later(state, player, loc):
    """Whether `player` makes one of the proposals still to come at `loc` (seat order)."""
    n = state[NUM_PLAYERS]
    there = players_at(state, loc)
    proposer = state[NEG_PROPOSER + loc]
    for _ in range(state[NEG_LIMIT + loc] - state[NEG_MADE + loc]):
        for k in range(1, n + 1):
            seat = (proposer + k) % n
            if (there >> seat) & 1:
                proposer = seat
                break
        if proposer == player:
            return True
    return False


@njit(cache=True)
def accepts(state, player, loc):
    """Accept a proposal worth at least what rejecting is expected to bring: a fair share (of the
    face value, or of its own valuation) less a slack that is smaller while a later proposal of
    its own is still to come and larger on the last one (a collapse gives everyone there
    nothing). Never a proposal that puts another player there well ahead of it: under
    win/loss a deal that makes someone else the winner is worse than a collapse."""
    n = state[NUM_PLAYERS]
    there = players_at(state, loc)
    m = float(bit_count(there))
    gains = np.zeros(MAX_PLAYERS, np.float64)
    total_face = face_gains(state, loc, gains)
    mine_face = gains[player]
    mine_worth = float(state[NEG_GOLD + loc * MAX_PLAYERS + player])
    total_worth = 0.0
    for slot in range(state[SLOT_COUNT + loc]):
        w = worth(state, player, state[SLOT_CARD + loc * MAX_LOCATION_CARDS + slot])
        total_worth += w
        if state[NEG_ASSIGN + loc * MAX_LOCATION_CARDS + slot] == player:
            mine_worth += w
    if state[NEG_MADE + loc] >= state[NEG_LIMIT + loc]:
        slack = LAST_SLACK
    elif proposes_later(state, player, loc):
        slack = OWN_LATER_SLACK
    else:
        slack = ACCEPT_SLACK
    fair_enough = mine_face >= total_face / m - slack or mine_worth >= total_worth / m - slack
    top = -1e18
    for p in range(n):
        if (there >> p) & 1 and p != player:
            top = max(top, gains[p])
    return fair_enough and top - max(mine_face, mine_worth) <= LEAD_GAP


@njit(cache=True)
def transfer_step(state, player, loc, mask):
    """Gold: pay the poorest other player there while it is below the fair face share and the
    bot above it (so the others accept, and the bot keeps the card it values, paying for it)."""
    n = state[NUM_PLAYERS]
    there = players_at(state, loc)
    gains = np.zeros(MAX_PLAYERS, np.float64)
    fair = face_gains(state, loc, gains) / bit_count(there)
    low = -1
    for p in range(n):
        if (there >> p) & 1 and p != player and (low < 0 or gains[p] < gains[low]):
            low = p
    if low >= 0 and gains[low] < fair - PAY_MARGIN and gains[player] - 1.0 >= gains[low]:
        action = TRANSFER_BASE + (low - player) % n  # the bot (0 seats after itself) pays `low`
        if mask[action]:
            return action
    return PROPOSE_ACTION


class TombBot(KernelBot):
    """Values cards for its own character, proposes fair splits by that value, accepts fair deals."""

    policy = staticmethod(heuristic_action)


# The search's bot playout (treasure_core.codegen: batch.py calls the policy by this name).
playout_policy = heuristic_action
