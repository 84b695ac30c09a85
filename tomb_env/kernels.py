"""Tomb Trader rules as @njit kernels over the flat state (layout and action space in state.py),
by the contract in docs/architecture.md; the batch forms are generated into batch.py.

A round: deal face up to both locations; apply the Snakebites; the weapons of the last round
are used one by one in claim order ("force"); the free players choose a location secretly and
at once ("choose"); both locations negotiate at the same time ("negotiate"); the deals are
executed and the collection effects follow (Satchel draws, then the coin calls, "call").

Simultaneous decisions go in sweeps: SWEEP holds the seats that decide together, SWEEP_LEFT
those still to decide (CURRENT_PLAYER is the lowest); a decision taken in a sweep is hidden
from the others until the sweep ends. In the negotiation one sweep holds every location's
deciders at once: each proposer's next step, or all of one location's voters.
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from tomb_env.data import (
    ABILITIES_ASSUMED,
    ABILITY_CARTOGRAPHY,
    ABILITY_LUCK,
    ABILITY_NONE,
    ABILITY_THREAT,
    ABILITY_TRADE,
    ABILITY_WARDING,
    CARTOGRAPHY_MIN_MAPS,
    CHARACTER_ABILITY,
    CHARACTER_BONUS,
    DECK_CARD_KIND,
    DECK_KIND_EFFECT,
    DICE_BONUS,
    EFFECT_DICE,
    EFFECT_DRAW,
    EFFECT_KNIFE,
    EFFECT_LUCKY_COMBO,
    EFFECT_LUCKY_ROCK,
    EFFECT_MAP,
    EFFECT_MEDKIT,
    EFFECT_REVOLVER,
    EFFECT_SARCOPHAGUS,
    EFFECT_SNAKEBITE,
    EFFECT_STATUE,
    EFFECT_STATUE_COMBO,
    EFFECT_WHIP,
    GOLD_TOKENS,
    KIND_VALUE,
    LUCKY_COMBO_BONUS,
    MAP_SET_VALUE,
    MAX_LOCATION_CARDS,
    MAX_PLAYERS,
    NUM_CARDS,
    NUM_CHARACTERS,
    NUM_LOCATIONS,
    ROUND_DEAL,
    SARCOPHAGUS_WON_VALUE,
    START_GOLD,
    STATUE_COMBO_BONUS,
    THREAT_COST,
    TRADE_COIN_VALUE,
)
from tomb_env.data import NUM_ROUNDS as ROUNDS_FOR
from tomb_env.state import (
    ABILITIES,
    ASSIGN_BASE,
    CALL_BASE,
    CALL_CARD,
    CARD_ACTIVE,
    CARD_FLIP,
    CARD_FROM,
    CARD_LINK,
    CARD_OWNER,
    CARD_PLACE,
    CARD_PUBLIC,
    CARD_ROUND,
    CARD_SET,
    CHARACTER,
    CHOICE,
    CHOOSE_BASE,
    CLAIM_CARD,
    CLAIM_COUNT,
    CLAIM_NEXT,
    CLAIM_ORDER,
    CLAIM_SEAT,
    DECK,
    DECK_TOP,
    FLIP_LOST,
    FLIP_PENDING,
    FLIP_WON,
    FORCE_BASE,
    FORCE_PASS_ACTION,
    FORCED,
    FROM_DRAWN,
    FROM_NONE,
    GOLD,
    HISTORY,
    LAST_ASSIGN,
    LAST_GOLD,
    LAST_VALID,
    LAST_VOTES,
    LEAD,
    LEAVE_ACTION,
    LOCATION,
    LONE_LIMIT,
    LONE_TAKEN,
    MAX_CLAIMS,
    N_ACTIONS,
    NEG_ASSIGN,
    NEG_GOLD,
    NEG_LIMIT,
    NEG_MADE,
    NEG_NEXT_SLOT,
    NEG_PROPOSER,
    NEG_STAGE,
    NEG_UNITS,
    NO_CARD,
    NO_LOCATION,
    NOBODY,
    NUM_ROUNDS,
    OUTCOME,
    OUTCOME_COLLAPSE,
    OUTCOME_DEAL,
    OUTCOME_EMPTY,
    OUTCOME_LONE,
    P_ABILITIES,
    P_CLAIM_ORDER,
    P_DECK,
    P_PROPOSALS,
    PHASE,
    PHASE_CALL,
    PHASE_CHOOSE,
    PHASE_FORCE,
    PHASE_NEGOTIATE,
    PLACE_DECK,
    PLACE_DISCARD,
    PLACE_STASH,
    PLACE_TABLE,
    PROPOSAL_RULE,
    PROPOSALS_PER_PLAYER,
    PROPOSE_ACTION,
    ROUND,
    SLOT_CARD,
    SLOT_COUNT,
    SNAKE,
    STAGE_ASSIGN,
    STAGE_IDLE,
    STAGE_LONE,
    STAGE_TRANSFER,
    STAGE_VOTE,
    SUPPLY,
    SWEEP,
    SWEEP_LEFT,
    TAKE_BASE,
    TRANSFER_BASE,
    VOTE_ACCEPT,
    VOTE_BASE,
    VOTE_NONE,
    VOTE_REJECT,
    VOTES,
)
from treasure_core.header import CURRENT_PLAYER, DECISIONS, NUM_PLAYERS, RNG, TERMINAL
from treasure_core.jit import njit
from treasure_core.kernels import init_header, sort_ascending
from treasure_core.rng import rng_below, rng_seed, rng_shuffle


# -- small helpers ---------------------------------------------------------------------------
@njit(cache=True, inline="always")
def is_weapon(effect):
    return effect == EFFECT_WHIP or effect == EFFECT_KNIFE or effect == EFFECT_REVOLVER


@njit(cache=True, inline="always")
def is_flip(effect):
    return effect == EFFECT_DICE or effect == EFFECT_SARCOPHAGUS


@njit(cache=True, inline="always")
def card_kind(state, card):
    """A card's kind in the game's deck (option deck)."""
    return DECK_CARD_KIND[state[CARD_SET], card]


@njit(cache=True, inline="always")
def card_effect(state, card):
    return DECK_KIND_EFFECT[state[CARD_SET], DECK_CARD_KIND[state[CARD_SET], card]]


@njit(cache=True)
def card_value(state, card):
    """A card's printed value."""
    return KIND_VALUE[card_kind(state, card)]


@njit(cache=True)
def lone_share(cards: int, num_players: int) -> int:
    """A lone player takes up to half the treasures, rounded down (rounded up with 3 players)."""
    if num_players == 3:
        return (cards + 1) // 2
    return cards // 2


@njit(cache=True)
def players_at(state: np.ndarray, location: int) -> int:
    """Bits of the seats at `location` this round."""
    bits = 0
    for p in range(state[NUM_PLAYERS]):
        if state[LOCATION + p] == location:
            bits |= 1 << p
    return bits


@njit(cache=True)
def bit_count(bits):
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


@njit(cache=True)
def lowest_seat(bits):
    seat = 0
    while not (bits >> seat) & 1:
        seat += 1
    return seat


@njit(cache=True)
def find_kit(state, player):
    """A Medical Kit in `player`'s stash, or NO_CARD."""
    for card in range(NUM_CARDS):
        if (
            state[CARD_PLACE + card] == PLACE_STASH
            and state[CARD_OWNER + card] == player
            and card_effect(state, card) == EFFECT_MEDKIT
        ):
            return card
    return NO_CARD


@njit(cache=True)
def start_sweep(state, bits):
    state[SWEEP] = bits
    state[SWEEP_LEFT] = bits
    state[CURRENT_PLAYER] = lowest_seat(bits)


# -- set-up and the round --------------------------------------------------------------------
@njit(cache=True)
def init(state: np.ndarray, params: np.ndarray, seed: int) -> None:
    """Setup: shuffle the deck, 3 gold each, a secret character each; then the first round."""
    init_header(state, params, seed)
    n = state[NUM_PLAYERS]
    state[PROPOSAL_RULE] = params[P_PROPOSALS]
    state[CLAIM_ORDER] = params[P_CLAIM_ORDER]
    state[ABILITIES] = params[P_ABILITIES]
    state[CARD_SET] = params[P_DECK]
    state[NUM_ROUNDS] = ROUNDS_FOR[n]
    state[SUPPLY] = GOLD_TOKENS - START_GOLD * n
    characters = np.arange(NUM_CHARACTERS).astype(np.int32)
    rng_shuffle(state, RNG, characters, NUM_CHARACTERS)
    for p in range(MAX_PLAYERS):
        state[CHARACTER + p] = characters[p] if p < n else -1
        state[GOLD + p] = START_GOLD if p < n else 0
        state[VOTES + p] = VOTE_NONE
        state[LAST_VOTES + p] = VOTE_NONE
    for card in range(NUM_CARDS):
        state[DECK + card] = card
        state[CARD_OWNER + card] = NOBODY
        state[CARD_FROM + card] = FROM_NONE
        state[CARD_ROUND + card] = -1
        state[CARD_LINK + card] = NO_CARD
    rng_shuffle(state, RNG, state[DECK : DECK + NUM_CARDS], NUM_CARDS)
    state[HISTORY : HISTORY + ROUND_DEAL.shape[1] * MAX_PLAYERS] = NO_LOCATION
    state[CALL_CARD] = NO_CARD
    advance(state, START_ROUND)


@njit(cache=True)
def clear_negotiation(state):
    for loc in range(NUM_LOCATIONS):
        state[NEG_STAGE + loc] = STAGE_IDLE
        state[NEG_PROPOSER + loc] = NOBODY
        state[NEG_MADE + loc] = 0
        state[NEG_LIMIT + loc] = 0
        state[NEG_NEXT_SLOT + loc] = 0
        state[NEG_UNITS + loc] = 0
        state[LAST_VALID + loc] = 0
        state[LONE_LIMIT + loc] = 0
        for slot in range(MAX_LOCATION_CARDS):
            state[NEG_ASSIGN + loc * MAX_LOCATION_CARDS + slot] = NOBODY
            state[LAST_ASSIGN + loc * MAX_LOCATION_CARDS + slot] = NOBODY
            state[LONE_TAKEN + loc * MAX_LOCATION_CARDS + slot] = 0
        for p in range(MAX_PLAYERS):
            state[NEG_GOLD + loc * MAX_PLAYERS + p] = 0
            state[LAST_GOLD + loc * MAX_PLAYERS + p] = 0
    for p in range(MAX_PLAYERS):
        state[VOTES + p] = VOTE_NONE
        state[LAST_VOTES + p] = VOTE_NONE


@njit(cache=True)
def start_round(state):
    """Deal face up to the Inner and the Outer Tomb, apply the Snakebites, queue the weapons."""
    n = state[NUM_PLAYERS]
    r = state[ROUND]
    state[LEAD] = r % n
    for p in range(MAX_PLAYERS):
        state[LOCATION + p] = NO_LOCATION
        state[FORCED + p] = NO_LOCATION
        state[SNAKE + p] = 0
        state[CHOICE + p] = NO_LOCATION
    clear_negotiation(state)
    for loc in range(NUM_LOCATIONS):
        count = 0
        for slot in range(ROUND_DEAL[n, r, loc]):
            if state[DECK_TOP] < NUM_CARDS:
                card = state[DECK + state[DECK_TOP]]
                state[DECK_TOP] += 1
                state[SLOT_CARD + loc * MAX_LOCATION_CARDS + slot] = card
                state[CARD_PLACE + card] = PLACE_TABLE
                state[CARD_FROM + card] = loc
                state[CARD_ROUND + card] = r
                state[CARD_PUBLIC + card] = 1  # dealt face up
                count += 1
        for slot in range(count, MAX_LOCATION_CARDS):
            state[SLOT_CARD + loc * MAX_LOCATION_CARDS + slot] = NO_CARD
        state[SLOT_COUNT + loc] = count
    # Snakebite: "next turn, choose your location at random"; a Medical Kit makes you immune
    # (shown when it blocks the bite).
    for card in range(NUM_CARDS):
        if state[CARD_ACTIVE + card] and card_effect(state, card) == EFFECT_SNAKEBITE:
            state[CARD_ACTIVE + card] = 0
            owner = state[CARD_OWNER + card]
            kit = find_kit(state, owner)
            if kit != NO_CARD:
                state[CARD_PUBLIC + kit] = 1
            else:
                state[SNAKE + owner] = 1
    # Weapons of the last round, in claim order: seat order from the lead, or at random
    # (FAQ: "whoever says first ... if you can't agree, randomly determine").
    count = 0
    for k in range(n):
        seat = (state[LEAD] + k) % n
        for card in range(NUM_CARDS):
            if (
                state[CARD_ACTIVE + card]
                and state[CARD_OWNER + card] == seat
                and is_weapon(card_effect(state, card))
                and count < MAX_CLAIMS
            ):
                state[CLAIM_CARD + count] = card
                count += 1
    for k in range(count, MAX_CLAIMS):
        state[CLAIM_CARD + k] = NO_CARD
    if state[CLAIM_ORDER] != CLAIM_SEAT:
        rng_shuffle(state, RNG, state[CLAIM_CARD : CLAIM_CARD + MAX_CLAIMS], count)
    state[CLAIM_COUNT] = count
    state[CLAIM_NEXT] = 0


# The round's steps hand over to each other through advance(): each returns the next step, or
# STOP once a sweep of decisions has started (no kernel calls another in a circle).
STOP = 0
NEXT_CLAIM = 1
CHOOSE = 2
REVEAL = 3
NEGOTIATION_SWEEP = 4
END_ROUND = 5
NEXT_CALL = 6
START_ROUND = 7


@njit(cache=True)
def advance(state, event):
    while event != STOP:
        if event == START_ROUND:
            start_round(state)
            event = NEXT_CLAIM
        elif event == NEXT_CLAIM:
            event = next_claim(state)
        elif event == CHOOSE:
            event = start_choose(state)
        elif event == REVEAL:
            reveal(state)
            event = NEGOTIATION_SWEEP
        elif event == NEGOTIATION_SWEEP:
            event = negotiation_sweep(state)
        elif event == END_ROUND:
            end_round(state)
            event = NEXT_CALL
        else:
            event = next_call(state)


@njit(cache=True)
def next_claim(state):
    if state[CLAIM_NEXT] < state[CLAIM_COUNT]:
        state[PHASE] = PHASE_FORCE
        card = state[CLAIM_CARD + state[CLAIM_NEXT]]
        start_sweep(state, 1 << state[CARD_OWNER + card])
        return STOP
    return CHOOSE


@njit(cache=True)
def start_choose(state):
    free = 0
    for p in range(state[NUM_PLAYERS]):
        if state[FORCED + p] == NO_LOCATION and not state[SNAKE + p]:
            free |= 1 << p
    if free:
        state[PHASE] = PHASE_CHOOSE
        start_sweep(state, free)
        return STOP
    return REVEAL


@njit(cache=True)
def reveal(state):
    """All location cards are turned over together; a bitten player's location is drawn."""
    n = state[NUM_PLAYERS]
    r = state[ROUND]
    for p in range(n):
        if state[FORCED + p] != NO_LOCATION:
            state[LOCATION + p] = state[FORCED + p]
        elif state[SNAKE + p]:
            state[LOCATION + p] = rng_below(state, RNG, NUM_LOCATIONS)
        else:
            state[LOCATION + p] = state[CHOICE + p]
        state[CHOICE + p] = NO_LOCATION
        state[HISTORY + r * MAX_PLAYERS + p] = state[LOCATION + p]
    state[PHASE] = PHASE_NEGOTIATE
    for loc in range(NUM_LOCATIONS):
        there = players_at(state, loc)
        count = state[SLOT_COUNT + loc]
        m = bit_count(there)
        if m == 0:
            state[OUTCOME + r * NUM_LOCATIONS + loc] = OUTCOME_EMPTY
        elif m == 1:
            state[LONE_LIMIT + loc] = lone_share(count, n)
            if state[LONE_LIMIT + loc] == 0:
                state[OUTCOME + r * NUM_LOCATIONS + loc] = OUTCOME_LONE
            else:
                state[NEG_STAGE + loc] = STAGE_LONE
                state[NEG_PROPOSER + loc] = lowest_seat(there)
        elif count == 0:
            state[OUTCOME + r * NUM_LOCATIONS + loc] = OUTCOME_DEAL
        else:
            rule = state[PROPOSAL_RULE]
            state[NEG_LIMIT + loc] = m if rule == PROPOSALS_PER_PLAYER else rule
            state[NEG_PROPOSER + loc] = next_at(state, there, state[LEAD])
            start_proposal(state, loc)


@njit(cache=True)
def next_at(state, there, start):
    """The first seat of `there` in seat order from `start`."""
    n = state[NUM_PLAYERS]
    for k in range(n):
        seat = (start + k) % n
        if (there >> seat) & 1:
            return seat
    return NOBODY


@njit(cache=True)
def start_proposal(state, loc):
    state[NEG_STAGE + loc] = STAGE_ASSIGN
    state[NEG_MADE + loc] += 1
    state[NEG_NEXT_SLOT + loc] = 0
    state[NEG_UNITS + loc] = 0
    for slot in range(MAX_LOCATION_CARDS):
        state[NEG_ASSIGN + loc * MAX_LOCATION_CARDS + slot] = NOBODY
    for p in range(MAX_PLAYERS):
        state[NEG_GOLD + loc * MAX_PLAYERS + p] = 0


@njit(cache=True)
def negotiation_sweep(state):
    """The next sweep: every location's deciders at once; the round ends when none is left."""
    bits = 0
    for loc in range(NUM_LOCATIONS):
        stage = state[NEG_STAGE + loc]
        if stage == STAGE_ASSIGN or stage == STAGE_TRANSFER or stage == STAGE_LONE:
            bits |= 1 << state[NEG_PROPOSER + loc]
        elif stage == STAGE_VOTE:
            bits |= players_at(state, loc) & ~(1 << state[NEG_PROPOSER + loc])
    if bits:
        start_sweep(state, bits)
        return STOP
    return END_ROUND


@njit(cache=True)
def tally(state, loc):
    """Votes are revealed together: unanimous acceptance makes the deal; otherwise the next
    proposal, or the location collapses when every proposal has failed."""
    r = state[ROUND]
    there = players_at(state, loc)
    proposer = state[NEG_PROPOSER + loc]
    accepted = True
    for p in range(state[NUM_PLAYERS]):
        if (there >> p) & 1 and p != proposer:
            if state[VOTES + p] != VOTE_ACCEPT:
                accepted = False
    if accepted:
        state[OUTCOME + r * NUM_LOCATIONS + loc] = OUTCOME_DEAL
        state[NEG_STAGE + loc] = STAGE_IDLE
    else:
        state[LAST_VALID + loc] = 1
        for slot in range(MAX_LOCATION_CARDS):
            state[LAST_ASSIGN + loc * MAX_LOCATION_CARDS + slot] = state[
                NEG_ASSIGN + loc * MAX_LOCATION_CARDS + slot
            ]
        for p in range(MAX_PLAYERS):
            state[LAST_GOLD + loc * MAX_PLAYERS + p] = state[NEG_GOLD + loc * MAX_PLAYERS + p]
        if state[NEG_MADE + loc] < state[NEG_LIMIT + loc]:
            state[NEG_PROPOSER + loc] = next_at(state, there, proposer + 1)
            start_proposal(state, loc)
        else:
            state[OUTCOME + r * NUM_LOCATIONS + loc] = OUTCOME_COLLAPSE  # the tomb collapses
            state[NEG_STAGE + loc] = STAGE_IDLE
    for p in range(state[NUM_PLAYERS]):
        if (there >> p) & 1:
            state[LAST_VOTES + p] = VOTE_NONE if p == proposer or accepted else state[VOTES + p]
            state[VOTES + p] = VOTE_NONE


@njit(cache=True)
def to_stash(state, card, owner, public):
    state[CARD_PLACE + card] = PLACE_STASH
    state[CARD_OWNER + card] = owner
    state[CARD_PUBLIC + card] = public


@njit(cache=True)
def discard(state, card):
    state[CARD_PLACE + card] = PLACE_DISCARD
    state[CARD_OWNER + card] = NOBODY
    state[CARD_PUBLIC + card] = 1


@njit(cache=True)
def end_round(state):
    """Everyone leaves with the treasure agreed; the rest is discarded. Stashes are face down;
    a card whose effect is still to act stays face up (weapons, Snakebite), and a coin flip is
    made in the open. Then the collection effects: Satchel draws, then the coin calls."""
    r = state[ROUND]
    last_round = r == state[NUM_ROUNDS] - 1
    for loc in range(NUM_LOCATIONS):
        outcome = state[OUTCOME + r * NUM_LOCATIONS + loc]
        lone = state[NEG_PROPOSER + loc]
        for slot in range(state[SLOT_COUNT + loc]):
            card = state[SLOT_CARD + loc * MAX_LOCATION_CARDS + slot]
            effect = card_effect(state, card)
            shown = 1 if (is_weapon(effect) or effect == EFFECT_SNAKEBITE or is_flip(effect)) else 0
            if outcome == OUTCOME_DEAL:
                to_stash(state, card, state[NEG_ASSIGN + loc * MAX_LOCATION_CARDS + slot], shown)
            elif outcome == OUTCOME_LONE and state[LONE_TAKEN + loc * MAX_LOCATION_CARDS + slot]:
                to_stash(state, card, lone, 1)  # the rest is discarded face up: all can tell
            else:
                discard(state, card)
                continue
            if (is_weapon(effect) or effect == EFFECT_SNAKEBITE) and not last_round:
                state[CARD_ACTIVE + card] = 1
            if is_flip(effect):
                state[CARD_FLIP + card] = FLIP_PENDING
        if outcome == OUTCOME_DEAL:
            for p in range(MAX_PLAYERS):
                state[GOLD + p] += state[NEG_GOLD + loc * MAX_PLAYERS + p]
        for slot in range(MAX_LOCATION_CARDS):
            state[SLOT_CARD + loc * MAX_LOCATION_CARDS + slot] = NO_CARD
        state[SLOT_COUNT + loc] = 0
    # Satchel: "take the top card of the Treasure Deck face-down (effects don't trigger)".
    for card in range(NUM_CARDS):
        if (
            card_effect(state, card) == EFFECT_DRAW
            and state[CARD_PLACE + card] == PLACE_STASH
            and state[CARD_ROUND + card] == r
            and state[CARD_FROM + card] != FROM_DRAWN
            and state[CARD_LINK + card] == NO_CARD
            and state[DECK_TOP] < NUM_CARDS
        ):
            drawn = state[DECK + state[DECK_TOP]]
            state[DECK_TOP] += 1
            to_stash(state, drawn, state[CARD_OWNER + card], 0)
            state[CARD_FROM + drawn] = FROM_DRAWN
            state[CARD_ROUND + drawn] = r
            state[CARD_LINK + card] = drawn
    clear_negotiation(state)
    for p in range(MAX_PLAYERS):
        state[LOCATION + p] = NO_LOCATION
        state[FORCED + p] = NO_LOCATION
        state[SNAKE + p] = 0


@njit(cache=True)
def next_call(state):
    for card in range(NUM_CARDS):
        if state[CARD_FLIP + card] == FLIP_PENDING:
            state[PHASE] = PHASE_CALL
            state[CALL_CARD] = card
            start_sweep(state, 1 << state[CARD_OWNER + card])
            return STOP
    state[CALL_CARD] = NO_CARD
    state[ROUND] += 1
    if state[ROUND] >= state[NUM_ROUNDS]:
        state[TERMINAL] = 1
        state[SWEEP] = 0
        state[SWEEP_LEFT] = 0
        state[CURRENT_PLAYER] = 0
        return STOP
    return START_ROUND


# -- legal actions ---------------------------------------------------------------------------
@njit(cache=True)
def phase(state: np.ndarray) -> int:
    return state[PHASE]


@njit(cache=True)
def can_pay(state, loc, payer):
    """Never more gold than a player holds (the payer keeps a non-negative balance), and a
    player who receives in this proposal does not also pay (so payments cannot go round)."""
    net = state[NEG_GOLD + loc * MAX_PLAYERS + payer]
    return net <= 0 and state[GOLD + payer] + net >= 1


@njit(cache=True)
def can_receive(state, loc, payee):
    """A player who pays in this proposal does not also receive."""
    return state[NEG_GOLD + loc * MAX_PLAYERS + payee] >= 0


@njit(cache=True)
def negotiation_mask(state, player, mask):
    n = state[NUM_PLAYERS]
    loc = state[LOCATION + player]
    stage = state[NEG_STAGE + loc]
    there = players_at(state, loc)
    count = 0
    if stage == STAGE_ASSIGN:
        for k in range(n):
            if (there >> ((player + k) % n)) & 1:
                mask[ASSIGN_BASE + k] = 1
                count += 1
    elif stage == STAGE_TRANSFER:
        mask[PROPOSE_ACTION] = 1
        count = 1
        for i in range(n):
            payer = (player + i) % n
            if not (there >> payer) & 1 or not can_pay(state, loc, payer):
                continue
            for j in range(n):
                payee = (player + j) % n
                if j != i and (there >> payee) & 1 and can_receive(state, loc, payee):
                    mask[TRANSFER_BASE + i * MAX_PLAYERS + j] = 1
                    count += 1
    elif stage == STAGE_VOTE:
        mask[VOTE_BASE + VOTE_REJECT] = 1
        mask[VOTE_BASE + VOTE_ACCEPT] = 1
        count = 2
    elif stage == STAGE_LONE:
        mask[LEAVE_ACTION] = 1
        count = 1
        for slot in range(state[SLOT_COUNT + loc]):
            if not state[LONE_TAKEN + loc * MAX_LOCATION_CARDS + slot]:
                mask[TAKE_BASE + slot] = 1
                count += 1
    return count


@njit(cache=True)
def legal_mask(state: np.ndarray, player: int, mask: np.ndarray) -> int:
    """The legal actions of any seat: empty unless it is in the sweep and has not decided."""
    mask[:] = 0
    if state[TERMINAL] or player >= state[NUM_PLAYERS] or not (state[SWEEP_LEFT] >> player) & 1:
        return 0
    current = state[PHASE]
    if current == PHASE_FORCE:
        # "choose another player. You choose their location for them"; or do not use it.
        count = 1
        mask[FORCE_PASS_ACTION] = 1
        for k in range(1, state[NUM_PLAYERS]):
            for loc in range(NUM_LOCATIONS):
                mask[FORCE_BASE + (k - 1) * NUM_LOCATIONS + loc] = 1
                count += 1
        return count
    if current == PHASE_CHOOSE:
        mask[CHOOSE_BASE] = 1
        mask[CHOOSE_BASE + 1] = 1
        return 2
    if current == PHASE_CALL:
        mask[CALL_BASE] = 1
        mask[CALL_BASE + 1] = 1
        return 2
    return negotiation_mask(state, player, mask)


# -- step ------------------------------------------------------------------------------------
@njit(cache=True)
def force_step(state, player, action):
    card = state[CLAIM_CARD + state[CLAIM_NEXT]]
    state[CARD_ACTIVE + card] = 0  # its effect is over, used or not
    if action != FORCE_PASS_ACTION:
        k = 1 + (action - FORCE_BASE) // NUM_LOCATIONS
        loc = (action - FORCE_BASE) % NUM_LOCATIONS
        target = (player + k) % state[NUM_PLAYERS]
        kit = find_kit(state, target) if card_effect(state, card) == EFFECT_WHIP else NO_CARD
        if kit != NO_CARD:
            state[CARD_PUBLIC + kit] = 1  # immune to the Whip: the kit is shown
        else:
            # FAQ: only the most recent effect applies.
            state[FORCED + target] = loc
            state[SNAKE + target] = 0
    state[CLAIM_NEXT] += 1


@njit(cache=True)
def negotiation_step(state, player, action):
    n = state[NUM_PLAYERS]
    loc = state[LOCATION + player]
    stage = state[NEG_STAGE + loc]
    if stage == STAGE_ASSIGN:
        slot = state[NEG_NEXT_SLOT + loc]
        state[NEG_ASSIGN + loc * MAX_LOCATION_CARDS + slot] = (player + action - ASSIGN_BASE) % n
        state[NEG_NEXT_SLOT + loc] = slot + 1
        if slot + 1 == state[SLOT_COUNT + loc]:
            state[NEG_STAGE + loc] = STAGE_TRANSFER  # every card has a taker; now the gold
    elif stage == STAGE_TRANSFER:
        if action == PROPOSE_ACTION:
            state[NEG_STAGE + loc] = STAGE_VOTE
        else:
            i = (action - TRANSFER_BASE) // MAX_PLAYERS
            j = (action - TRANSFER_BASE) % MAX_PLAYERS
            state[NEG_GOLD + loc * MAX_PLAYERS + (player + i) % n] -= 1
            state[NEG_GOLD + loc * MAX_PLAYERS + (player + j) % n] += 1
            state[NEG_UNITS + loc] += 1
    elif stage == STAGE_VOTE:
        state[VOTES + player] = action - VOTE_BASE  # secret until every voter has voted
    elif stage == STAGE_LONE:
        r = state[ROUND]
        done = action == LEAVE_ACTION
        if not done:
            state[LONE_TAKEN + loc * MAX_LOCATION_CARDS + action - TAKE_BASE] = 1
            taken = 0
            for slot in range(MAX_LOCATION_CARDS):
                taken += state[LONE_TAKEN + loc * MAX_LOCATION_CARDS + slot]
            done = taken >= state[LONE_LIMIT + loc]
        if done:
            state[NEG_STAGE + loc] = STAGE_IDLE
            state[OUTCOME + r * NUM_LOCATIONS + loc] = OUTCOME_LONE


@njit(cache=True)
def end_sweep(state):
    current = state[PHASE]
    if current == PHASE_FORCE:
        advance(state, NEXT_CLAIM)
    elif current == PHASE_CHOOSE:
        advance(state, REVEAL)
    elif current == PHASE_CALL:
        advance(state, NEXT_CALL)
    else:
        for loc in range(NUM_LOCATIONS):
            # Only a vote this sweep took (a proposal called in it is voted on in the next).
            if state[NEG_STAGE + loc] == STAGE_VOTE and not (state[SWEEP] >> state[NEG_PROPOSER + loc]) & 1:
                tally(state, loc)
        advance(state, NEGOTIATION_SWEEP)


@njit(cache=True)
def step(state: np.ndarray, action: int) -> None:
    """Apply the decision of the player to act. The drivers check legality (legal_mask) before
    a kernel sees an action, but BatchRunner(check_actions=False) and a user's own loop need
    not: any action legal_mask would not allow is refused here, changing nothing (no action may
    send a kernel outside its arrays), then step_unrefused's few lines follow, written out.

    The refusal reads the state in this body (the rules of legal_mask and negotiation_mask,
    for one action): a helper taking the state, called or inlined, makes numba count a
    reference to the array (two atomic operations) around it, which cost more than the checks
    (benchmarks/refusal_cost.py)."""
    if state[TERMINAL] or action < 0 or action >= N_ACTIONS:
        return
    n = state[NUM_PLAYERS]
    player = state[CURRENT_PLAYER]
    if player < 0 or player >= n or not (state[SWEEP_LEFT] >> player) & 1:
        return  # only a seat in the sweep that has not decided
    current = state[PHASE]
    if current == PHASE_FORCE:
        # Another player (1 .. n-1 seats on) and a location, or do not use the weapon.
        if action != FORCE_PASS_ACTION and not 0 <= action - FORCE_BASE < (n - 1) * NUM_LOCATIONS:
            return
    elif current == PHASE_CHOOSE:
        if not 0 <= action - CHOOSE_BASE < NUM_LOCATIONS:
            return
    elif current == PHASE_CALL:
        if action != CALL_BASE and action != CALL_BASE + 1:
            return
    else:
        loc = state[LOCATION + player]
        stage = state[NEG_STAGE + loc]
        if stage == STAGE_ASSIGN:
            # The next card to a seat at the location, counted from the player.
            k = action - ASSIGN_BASE
            if k < 0 or k >= n or state[LOCATION + (player + k) % n] != loc:
                return
        elif stage == STAGE_TRANSFER:
            if action != PROPOSE_ACTION:
                # One gold from the i-th seat on to the j-th (can_pay, can_receive).
                index = action - TRANSFER_BASE
                if index < 0 or index >= MAX_PLAYERS * MAX_PLAYERS:
                    return
                i, j = index // MAX_PLAYERS, index % MAX_PLAYERS
                if i >= n or j >= n or i == j:
                    return
                payer, payee = (player + i) % n, (player + j) % n
                if state[LOCATION + payer] != loc or state[LOCATION + payee] != loc:
                    return
                net = state[NEG_GOLD + loc * MAX_PLAYERS + payer]
                if net > 0 or state[GOLD + payer] + net < 1:
                    return
                if state[NEG_GOLD + loc * MAX_PLAYERS + payee] < 0:
                    return
        elif stage == STAGE_VOTE:
            if action != VOTE_BASE + VOTE_REJECT and action != VOTE_BASE + VOTE_ACCEPT:
                return
        elif stage == STAGE_LONE:
            if action != LEAVE_ACTION:
                slot = action - TAKE_BASE
                if slot < 0 or slot >= state[SLOT_COUNT + loc]:
                    return
                if state[LONE_TAKEN + loc * MAX_LOCATION_CARDS + slot]:
                    return
        else:
            return  # no negotiation there
    # step_unrefused, written out (see above).
    state[DECISIONS] += 1
    if current == PHASE_FORCE:
        force_step(state, player, action)
    elif current == PHASE_CHOOSE:
        state[CHOICE + player] = action - CHOOSE_BASE  # face down until everyone has chosen
    elif current == PHASE_CALL:
        card = state[CALL_CARD]
        won = rng_below(state, RNG, 2) == action - CALL_BASE
        state[CARD_FLIP + card] = FLIP_WON if won else FLIP_LOST
    else:
        negotiation_step(state, player, action)
    left = state[SWEEP_LEFT] & ~(1 << player)
    state[SWEEP_LEFT] = left
    if left:
        state[CURRENT_PLAYER] = lowest_seat(left)
    else:
        end_sweep(state)


@njit(cache=True)
def step_unrefused(state: np.ndarray, action: int) -> None:
    """step without the refusal: `action` must be legal (benchmarks/refusal_cost.py measures
    what the refusal costs against this)."""
    state[DECISIONS] += 1
    player = state[CURRENT_PLAYER]
    current = state[PHASE]
    if current == PHASE_FORCE:
        force_step(state, player, action)
    elif current == PHASE_CHOOSE:
        state[CHOICE + player] = action - CHOOSE_BASE  # face down until everyone has chosen
    elif current == PHASE_CALL:
        card = state[CALL_CARD]
        won = rng_below(state, RNG, 2) == action - CALL_BASE
        state[CARD_FLIP + card] = FLIP_WON if won else FLIP_LOST
    else:
        negotiation_step(state, player, action)
    left = state[SWEEP_LEFT] & ~(1 << player)
    state[SWEEP_LEFT] = left
    if left:
        state[CURRENT_PLAYER] = lowest_seat(left)
    else:
        end_sweep(state)


@njit(cache=True)
def ability_of(state: np.ndarray, player: int) -> int:
    """`player`'s character's ability under the option `abilities` (none with bonus_only)."""
    if state[ABILITIES] != ABILITIES_ASSUMED:
        return ABILITY_NONE
    return CHARACTER_ABILITY[state[CHARACTER + player]]


@njit(cache=True)
def coin_value(state: np.ndarray, player: int) -> int:
    """Points per gold coin: 1 (Game End), 2 for the Merchant's trade ability."""
    return TRADE_COIN_VALUE if ability_of(state, player) == ABILITY_TRADE else 1


@njit(cache=True)
def weapons_held(state: np.ndarray, player: int) -> int:
    count = 0
    for card in range(NUM_CARDS):
        if (
            state[CARD_PLACE + card] == PLACE_STASH
            and state[CARD_OWNER + card] == player
            and is_weapon(card_effect(state, card))
        ):
            count += 1
    return count


@njit(cache=True)
def threat_against(state: np.ndarray, player: int) -> int:
    """Points `player` loses to another player's threat ability (the Mercenary's weapons)."""
    lost = 0
    for other in range(state[NUM_PLAYERS]):
        if other != player and ability_of(state, other) == ABILITY_THREAT:
            lost += THREAT_COST * weapons_held(state, other)
    return lost


@njit(cache=True, inline="always")
def warded(ability: int, value: int) -> int:
    """A card's value under the Warding ability: a negative value counts 0."""
    return 0 if ability == ABILITY_WARDING and value < 0 else value


@njit(cache=True)
def known_score(state: np.ndarray, player: int) -> int:
    """`player`'s value as it can know it before the end: player_score without a Mercenary's
    threat (abilities="assumed"), which depends on the others' hidden characters. One pass over
    the cards: the combos and the Gambler's call depend on cards seen later, so each such card's
    value is kept both ways and the right one is added at the end."""
    character = state[CHARACTER + player]
    ability = ability_of(state, player)
    deck = state[CARD_SET]
    maps = 0
    lucky = False
    statue = False
    total = 0
    lucky_combo_on = 0  # the Lucky Combos' values with the Lucky Rock's bonus, and without
    lucky_combo_off = 0
    statue_combo_on = 0
    statue_combo_off = 0
    first_lost = NO_CARD  # the first lost coin call in time (by round, then card id)
    first_lost_gain = 0  # what the Gambler's luck (it scores as won) adds to that card
    # The player's stash as bits, found without a branch on places and owners that vary card
    # by card (each a likely mispredict), then walked in card order, lowest bit first.
    own = np.uint64(0)
    for card in range(NUM_CARDS):
        mine = (state[CARD_PLACE + card] == PLACE_STASH) & (state[CARD_OWNER + card] == player)
        own |= np.uint64(mine) << np.uint64(card)
    while own:
        card = np.int64(trailing_zeros(own))
        own &= own - np.uint64(1)
        kind = DECK_CARD_KIND[deck, card]
        effect = DECK_KIND_EFFECT[deck, kind]
        value = KIND_VALUE[kind]
        bonus = CHARACTER_BONUS[character, kind]  # FAQ: for each treasure
        flip = state[CARD_FLIP + card]
        if (
            ability == ABILITY_LUCK
            and flip == FLIP_LOST
            and (first_lost == NO_CARD or state[CARD_ROUND + card] < state[CARD_ROUND + first_lost])
        ):
            first_lost = card
            first_lost_gain = 0  # unless it is a Dice or a Sarcophagus (below)
        if effect == EFFECT_MAP:
            maps += 1
        elif effect == EFFECT_LUCKY_ROCK:
            lucky = True
        elif effect == EFFECT_STATUE:
            statue = True
        if effect == EFFECT_LUCKY_COMBO:
            lucky_combo_on += warded(ability, value + LUCKY_COMBO_BONUS) + bonus
            lucky_combo_off += warded(ability, value) + bonus
            continue
        if effect == EFFECT_STATUE_COMBO:
            statue_combo_on += warded(ability, value + STATUE_COMBO_BONUS) + bonus
            statue_combo_off += warded(ability, value) + bonus
            continue
        won = value  # its value had its coin call been won
        if effect == EFFECT_DICE:
            won = value + DICE_BONUS
        elif effect == EFFECT_SARCOPHAGUS:
            won = SARCOPHAGUS_WON_VALUE
        counted = warded(ability, won if flip == FLIP_WON else value)
        total += counted + bonus
        if card == first_lost:
            first_lost_gain = warded(ability, won) - counted
    total += first_lost_gain  # the Gambler's first lost call scores as won
    total += lucky_combo_on if lucky else lucky_combo_off
    total += statue_combo_on if statue else statue_combo_off
    if ability == ABILITY_CARTOGRAPHY and maps >= CARTOGRAPHY_MIN_MAPS:
        maps += 1
    total += MAP_SET_VALUE[min(maps, MAP_SET_VALUE.shape[0] - 1)]
    return total + coin_value(state, player) * state[GOLD + player]


@njit(cache=True)
def player_score(state: np.ndarray, player: int) -> int:
    """Treasure values (Treasure Map as a set, the combos, the coin flips) plus the character's
    bonus per card (FAQ: for each treasure) plus gold; with abilities="assumed" the character's
    ability and the Mercenary's threat."""
    return known_score(state, player) - threat_against(state, player)


@njit(cache=True)
def stash_size(state: np.ndarray, player: int) -> int:
    count = 0
    for card in range(NUM_CARDS):
        if state[CARD_PLACE + card] == PLACE_STASH and state[CARD_OWNER + card] == player:
            count += 1
    return count


@njit(cache=True)
def scores(state: np.ndarray, scores_out: np.ndarray, tiebreaks_out: np.ndarray) -> None:
    """Final value; ties go to the most gold, then the most treasure cards (one tie-break
    number: gold * 64 + cards); still tied, victory is shared."""
    for p in range(state[NUM_PLAYERS]):
        scores_out[p] = player_score(state, p)
        tiebreaks_out[p] = state[GOLD + p] * 64 + stash_size(state, p)


@njit(cache=True)
def competitors(state: np.ndarray) -> int:
    """Only the players compete: no in-kernel opponents."""
    return state[NUM_PLAYERS]


# -- hidden information ----------------------------------------------------------------------
@njit(cache=True)
def random_seat(state, bits):
    pick = rng_below(state, RNG, bit_count(bits))
    for p in range(MAX_PLAYERS):
        if (bits >> p) & 1:
            if pick == 0:
                return p
            pick -= 1
    return NOBODY


@njit(cache=True)
def random_transfers(state, there, out, units):
    """`units` random unit payments among the seats `there` into the net vector `out` (zeroed
    first), each payer keeping a non-negative balance."""
    out[:] = 0
    for _ in range(units):
        payers = 0
        payees = 0
        for p in range(MAX_PLAYERS):
            if (there >> p) & 1 and out[p] <= 0 and state[GOLD + p] + out[p] >= 1:
                payers |= 1 << p
            if (there >> p) & 1 and out[p] >= 0:
                payees |= 1 << p
        if payers == 0:
            return
        payer = random_seat(state, payers)
        payee = random_seat(state, payees & ~(1 << payer))  # someone: the nets sum to 0
        out[payer] -= 1
        out[payee] += 1


@njit(cache=True)
def redeal_stashes(state, player):
    """Past deals at a location `player` was not at: which of those players took which face-down
    card is re-dealt, each keeping as many cards from that deal (a Satchel's draw with it)."""
    n = state[NUM_PLAYERS]
    cards = np.empty(MAX_LOCATION_CARDS, np.int32)  # int32 like the other shuffles: one rng_shuffle
    capacity = np.zeros(MAX_PLAYERS, np.int64)
    owner = np.empty(MAX_LOCATION_CARDS, np.int64)
    # Once over, ROUND == NUM_ROUNDS: no row of HISTORY or OUTCOME past the last round.
    for r in range(min(state[ROUND] + 1, state[NUM_ROUNDS])):
        if state[HISTORY + r * MAX_PLAYERS] == NO_LOCATION:
            continue
        for loc in range(NUM_LOCATIONS):
            if (
                state[OUTCOME + r * NUM_LOCATIONS + loc] != OUTCOME_DEAL
                or state[HISTORY + r * MAX_PLAYERS + player] == loc
            ):
                continue
            count = 0
            capacity[:] = 0
            for card in range(NUM_CARDS):
                if (
                    state[CARD_PLACE + card] == PLACE_STASH
                    and state[CARD_FROM + card] == loc
                    and state[CARD_ROUND + card] == r
                    and not state[CARD_PUBLIC + card]
                    and not (
                        state[CARD_LINK + card] != NO_CARD and state[CARD_PUBLIC + state[CARD_LINK + card]]
                    )
                ):
                    cards[count] = card
                    count += 1
                    capacity[state[CARD_OWNER + card]] += 1 if state[CARD_LINK + card] == NO_CARD else 2
            if count < 2:
                continue
            for _attempt in range(8):
                left = capacity.copy()
                rng_shuffle(state, RNG, cards, count)
                ok = True
                for i in range(count):
                    need = 1 if state[CARD_LINK + cards[i]] == NO_CARD else 2
                    fits = 0
                    for p in range(n):
                        if left[p] >= need:
                            fits |= 1 << p
                    if fits == 0:
                        ok = False
                        break
                    owner[i] = random_seat(state, fits)
                    left[owner[i]] -= need
                if ok:
                    for i in range(count):
                        state[CARD_OWNER + cards[i]] = owner[i]
                        link = state[CARD_LINK + cards[i]]
                        if link != NO_CARD:
                            state[CARD_OWNER + link] = owner[i]
                    break


@njit(cache=True)
def redeal_unseen(state, player):
    """The deck's order and the cards others drew face down with a Satchel: one pool, shuffled."""
    positions = np.empty(NUM_CARDS, np.int64)
    satchel_at = np.full(NUM_CARDS, -1, np.int64)  # [deck index] the Satchel that drew it
    ids = np.empty(NUM_CARDS, np.int32)
    count = 0
    top = state[DECK_TOP]
    for i in range(top):
        card = state[DECK + i]
        if (
            state[CARD_FROM + card] == FROM_DRAWN
            and state[CARD_OWNER + card] != player
            and not state[CARD_PUBLIC + card]
        ):
            for s in range(NUM_CARDS):
                if state[CARD_LINK + s] == card:
                    satchel_at[i] = s
            positions[count] = i
            ids[count] = card
            count += 1
    for i in range(top, NUM_CARDS):
        positions[count] = i
        ids[count] = state[DECK + i]
        count += 1
    sort_ascending(ids[:count])  # canonical: the re-deal depends only on what player knows and the seed
    rng_shuffle(state, RNG, ids, count)
    for k in range(count):
        i = positions[k]
        card = ids[k]
        state[DECK + i] = card
        s = satchel_at[i]
        if s >= 0:
            state[CARD_LINK + s] = card
            state[CARD_PLACE + card] = PLACE_STASH
            state[CARD_OWNER + card] = state[CARD_OWNER + s]
            state[CARD_FROM + card] = FROM_DRAWN
            state[CARD_ROUND + card] = state[CARD_ROUND + s]
        else:
            state[CARD_PLACE + card] = PLACE_DECK
            state[CARD_OWNER + card] = NOBODY
            state[CARD_FROM + card] = FROM_NONE
            state[CARD_ROUND + card] = -1
        state[CARD_PUBLIC + card] = 0


@njit(cache=True)
def gold_at(state, there):
    """The gold the seats `there` hold: a bound on one proposal's payments."""
    total = 0
    for p in range(MAX_PLAYERS):
        if (there >> p) & 1:
            total += state[GOLD + p]
    return total


@njit(cache=True)
def redeal_negotiation(state, player):
    """The other location's negotiation: its proposals, payments, votes and lone picks."""
    n = state[NUM_PLAYERS]
    if state[ROUND] >= state[NUM_ROUNDS]:
        return  # the game is over: no negotiation under way (and no OUTCOME row for ROUND)
    mine = state[LOCATION + player]
    net = np.zeros(MAX_PLAYERS, np.int32)
    for loc in range(NUM_LOCATIONS):
        if loc == mine:
            continue
        there = players_at(state, loc)
        count = state[SLOT_COUNT + loc]
        stage = state[NEG_STAGE + loc]
        outcome = state[OUTCOME + state[ROUND] * NUM_LOCATIONS + loc]
        if stage == STAGE_LONE or outcome == OUTCOME_LONE:
            taken = 0
            for slot in range(MAX_LOCATION_CARDS):
                taken += state[LONE_TAKEN + loc * MAX_LOCATION_CARDS + slot]
                state[LONE_TAKEN + loc * MAX_LOCATION_CARDS + slot] = 0
            slots = np.arange(count).astype(np.int32)
            rng_shuffle(state, RNG, slots, count)
            for k in range(taken):
                state[LONE_TAKEN + loc * MAX_LOCATION_CARDS + slots[k]] = 1
            continue
        if bit_count(there) < 2:
            continue
        if stage != STAGE_IDLE or outcome == OUTCOME_DEAL:
            assigned = count if outcome == OUTCOME_DEAL else state[NEG_NEXT_SLOT + loc]
            for slot in range(assigned):
                state[NEG_ASSIGN + loc * MAX_LOCATION_CARDS + slot] = random_seat(state, there)
            units = state[NEG_UNITS + loc]
            if outcome == OUTCOME_DEAL:
                units = rng_below(state, RNG, gold_at(state, there) + 1)
            random_transfers(state, there, net, units)
            for p in range(MAX_PLAYERS):  # loops, not slices: no shape check to compile
                state[NEG_GOLD + loc * MAX_PLAYERS + p] = net[p]
        if state[LAST_VALID + loc]:
            for slot in range(count):
                state[LAST_ASSIGN + loc * MAX_LOCATION_CARDS + slot] = random_seat(state, there)
            random_transfers(state, there, net, rng_below(state, RNG, gold_at(state, there) + 1))
            for p in range(MAX_PLAYERS):
                state[LAST_GOLD + loc * MAX_PLAYERS + p] = net[p]
            voters = 0
            for p in range(n):
                if (there >> p) & 1 and state[LAST_VOTES + p] != VOTE_NONE:
                    voters |= 1 << p
                    state[LAST_VOTES + p] = rng_below(state, RNG, 2)
            rejected = False
            for p in range(n):
                if (voters >> p) & 1 and state[LAST_VOTES + p] == VOTE_REJECT:
                    rejected = True
            if not rejected and voters:
                state[LAST_VOTES + random_seat(state, voters)] = VOTE_REJECT  # it failed


@njit(cache=True)
def resample_hidden(state: np.ndarray, player: int, seed: int) -> None:
    """Re-deal what `player` cannot know, consistently with what it has seen: the other
    characters; who took which face-down card in deals it was not at; the deck's order with
    the cards others drew face down; the others' secret location choices and votes not yet
    revealed; the other location's negotiation. The generator is reseeded from `seed`."""
    rng_seed(state, RNG, seed)
    n = state[NUM_PLAYERS]
    others = np.empty(NUM_CHARACTERS, np.int32)
    count = 0
    for c in range(NUM_CHARACTERS):
        if c != state[CHARACTER + player]:
            others[count] = c
            count += 1
    rng_shuffle(state, RNG, others, count)
    k = 0
    for p in range(n):
        if p != player:
            state[CHARACTER + p] = others[k]
            k += 1
    redeal_stashes(state, player)
    redeal_unseen(state, player)
    if state[TERMINAL]:
        return
    decided = state[SWEEP] & ~state[SWEEP_LEFT]
    if state[PHASE] == PHASE_CHOOSE:
        for p in range(n):
            if p != player and (decided >> p) & 1:
                state[CHOICE + p] = rng_below(state, RNG, NUM_LOCATIONS)
    if state[PHASE] == PHASE_NEGOTIATE:
        for p in range(n):
            if p != player and state[VOTES + p] != VOTE_NONE:
                state[VOTES + p] = rng_below(state, RNG, 2)
        redeal_negotiation(state, player)
