"""Observation encoders: what one player may know, and the full-information view.

Every feature is in [0, 1]; seats are relative (seat k is the player k places after the
observer, k = 0 the observer). A player sees: the table (both locations' cards are dealt face
up), every player's gold, stash size and revealed location, the cards whose place is public
(discards, face-up effect cards, a lone player's take, a Medical Kit once shown), who took
which card in the deals it was at, its own character and whole stash, and the negotiation at
its own location only. Hidden: the other characters, the rest of the stashes, the deck order,
choices and votes not yet revealed, the other location's negotiation.
docs/games/tomb.md names every slice; the *_LAYOUT tables below are the source of truth.
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from tomb_env.data import (
    DECK_CARD_KIND,
    DECK_KIND_COUNT,
    DECK_KIND_EFFECT,
    EFFECT_DICE,
    EFFECT_SARCOPHAGUS,
    GOLD_TOKENS,
    MAX_LOCATION_CARDS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MIN_PLAYERS,
    NUM_CARDS,
    NUM_CHARACTERS,
    NUM_KINDS,
    NUM_LOCATIONS,
)
from tomb_env.kernels import card_effect, card_kind, known_score
from tomb_env.state import (
    CALL_CARD,
    CARD_ACTIVE,
    CARD_FLIP,
    CARD_FROM,
    CARD_OWNER,
    CARD_PLACE,
    CARD_PUBLIC,
    CARD_ROUND,
    CARD_SET,
    CHARACTER,
    CHOICE,
    CLAIM_CARD,
    CLAIM_COUNT,
    CLAIM_NEXT,
    DECK,
    DECK_TOP,
    FLIP_WON,
    FORCED,
    GOLD,
    HISTORY,
    LAST_ASSIGN,
    LAST_GOLD,
    LAST_VALID,
    LAST_VOTES,
    LOCATION,
    LONE_LIMIT,
    LONE_TAKEN,
    NEG_ASSIGN,
    NEG_GOLD,
    NEG_LIMIT,
    NEG_MADE,
    NEG_PROPOSER,
    NEG_STAGE,
    NEG_UNITS,
    NO_CARD,
    NO_LOCATION,
    NOBODY,
    NUM_ROUNDS,
    OUTCOME,
    PAYMENT_BOUND,
    PHASE,
    PHASE_CALL,
    PHASE_FORCE,
    PHASE_NEGOTIATE,
    PLACE_DISCARD,
    PLACE_STASH,
    ROUND,
    SLOT_CARD,
    SNAKE,
    VOTE_NONE,
    VOTES,
)
from treasure_core.header import NUM_PLAYERS, TERMINAL
from treasure_core.jit import njit
from treasure_core.layout import offsets

NUM_PHASES = 4
NUM_STAGES = 5
NUM_OUTCOMES = 5
GOLD_SWING = GOLD_TOKENS  # a proposal moves a seat's gold by at most this much
MAX_STASH = NUM_CARDS  # one stash can hold up to 49 cards in a real game: scale by the deck
MAX_ACTIVE = MAX_LOCATION_CARDS  # a seat's waiting weapons and Snakebites come from one deal
# The shares the encoder adds up, as float64 (the kernel's sum is float64, rounded once into the
# float32 output; a Python float would make the Python twin add in float32).
_STASH_SHARE = np.float64(1.0 / MAX_STASH)
_ACTIVE_SHARE = np.float64(1.0 / MAX_ACTIVE)
SCORE_LOW = -15
SCORE_SPAN = 80
# [deck, kind]: 1 / the kind's count in the deck, as the float64 division gives it (0 where a
# deck has none), so the per-card loop adds without dividing; the same values bit for bit.
_KIND_SHARE = np.divide(
    1.0, DECK_KIND_COUNT, out=np.zeros(DECK_KIND_COUNT.shape, np.float64), where=DECK_KIND_COUNT > 0
)

OBS_LAYOUT = (
    ("phase", NUM_PHASES),  # one-hot: force, choose, negotiate, call
    ("round", MAX_ROUNDS),  # one-hot on the round under way
    ("last_round", 1),  # 1 in the game's last round
    ("num_players", MAX_PLAYERS - MIN_PLAYERS + 1),  # one-hot, 3..6
    ("deck_left", 1),  # cards in the deck / 52
    ("character", NUM_CHARACTERS),  # own character, one-hot
    ("own_score", 1),  # own value so far, (score + 15) / 80 clipped
    ("seat_present", MAX_PLAYERS),  # [seat] 1 if that seat is in the game
    ("gold", MAX_PLAYERS),  # [seat] gold / 21
    ("stash_size", MAX_PLAYERS),  # [seat] stash cards / NUM_CARDS
    ("table", NUM_LOCATIONS * MAX_LOCATION_CARDS * NUM_KINDS),  # [location, slot, kind] dealt face up
    ("known", MAX_PLAYERS * NUM_KINDS),  # [seat, kind] cards known to be in that stash / kind count
    ("own_flips_won", 2),  # own Dice won / 2, own Sarcophagus won
    ("discard", NUM_KINDS),  # [kind] discarded / kind count
    ("active", MAX_PLAYERS),  # [seat] weapons and Snakebites waiting for the next round / MAX_LOCATION_CARDS
    ("forced", MAX_PLAYERS * NUM_LOCATIONS),  # [seat, location] forced there this round
    ("bitten", MAX_PLAYERS),  # [seat] location to be drawn at random this round
    ("location", MAX_PLAYERS * NUM_LOCATIONS),  # [seat, location] revealed location this round
    ("own_choice", NUM_LOCATIONS),  # own secret choice, once made
    ("history", MAX_ROUNDS * MAX_PLAYERS * NUM_LOCATIONS),  # [round, seat, location] past locations
    ("outcomes", MAX_ROUNDS * NUM_LOCATIONS * NUM_OUTCOMES),  # [round, location, outcome] once known
    ("claimer", MAX_PLAYERS),  # [seat] using a weapon now
    ("claim_kind", 3),  # that weapon: Whip, Knife, Revolver
    ("caller", MAX_PLAYERS),  # [seat] calling a coin flip now
    ("call_kind", 2),  # for a Dice, a Sarcophagus
    # The negotiation at the observer's own location (zeros elsewhere).
    ("stage", NUM_STAGES),  # one-hot: idle, assign, transfer, vote, lone
    ("proposer", MAX_PLAYERS),  # [seat] proposing (or alone there)
    ("proposals_made", 1),  # / 6
    ("proposals_allowed", 1),  # / 6
    ("transfer_units", 1),  # gold payments so far / 21
    ("assign", MAX_LOCATION_CARDS * (MAX_PLAYERS + 1)),  # [slot, seat or 6: not yet] the proposal
    ("proposal_gold", MAX_PLAYERS),  # [seat] (net gold + 4) / 8
    ("own_vote", 3),  # one-hot: not voted, reject, accept
    ("last_valid", 1),  # 1 once a proposal has failed there this round
    ("last_assign", MAX_LOCATION_CARDS * (MAX_PLAYERS + 1)),  # the failed proposal
    ("last_gold", MAX_PLAYERS),  # its net gold, (net + 4) / 8
    ("last_votes", MAX_PLAYERS * 3),  # [seat, none/reject/accept] its revealed votes
    ("lone_taken", MAX_LOCATION_CARDS),  # [slot] the lone player takes it
    ("lone_limit", 1),  # its share / 5
)
OBS = offsets(OBS_LAYOUT)
OBS_SIZE = sum(size for _, size in OBS_LAYOUT)
FULL_LAYOUT = (
    ("views", MAX_PLAYERS * OBS_SIZE),  # every seat's own observation (absolute seat order)
    ("deck_order", NUM_CARDS),  # [card] position in the deck from the top / 52, 0 if not in it
)
FULL = offsets(FULL_LAYOUT)
FULL_SIZE = sum(size for _, size in FULL_LAYOUT)

_VIEWS = FULL["views"][0]
_DECK_ORDER = FULL["deck_order"][0]
_PHASE = OBS["phase"][0]
_ROUND = OBS["round"][0]
_LAST_ROUND = OBS["last_round"][0]
_NUM_PLAYERS = OBS["num_players"][0]
_DECK_LEFT = OBS["deck_left"][0]
_CHARACTER = OBS["character"][0]
_OWN_SCORE = OBS["own_score"][0]
_PRESENT = OBS["seat_present"][0]
_GOLD = OBS["gold"][0]
_STASH = OBS["stash_size"][0]
_TABLE = OBS["table"][0]
_KNOWN = OBS["known"][0]
_FLIPS = OBS["own_flips_won"][0]
_DISCARD = OBS["discard"][0]
_ACTIVE = OBS["active"][0]
_FORCED = OBS["forced"][0]
_BITTEN = OBS["bitten"][0]
_LOCATION = OBS["location"][0]
_CHOICE = OBS["own_choice"][0]
_HISTORY = OBS["history"][0]
_OUTCOMES = OBS["outcomes"][0]
_CLAIMER = OBS["claimer"][0]
_CLAIM_KIND = OBS["claim_kind"][0]
_CALLER = OBS["caller"][0]
_CALL_KIND = OBS["call_kind"][0]
_STAGE = OBS["stage"][0]
_PROPOSER = OBS["proposer"][0]
_MADE = OBS["proposals_made"][0]
_ALLOWED = OBS["proposals_allowed"][0]
_UNITS = OBS["transfer_units"][0]
_ASSIGN = OBS["assign"][0]
_PGOLD = OBS["proposal_gold"][0]
_VOTE = OBS["own_vote"][0]
_LAST_VALID = OBS["last_valid"][0]
_LAST_ASSIGN = OBS["last_assign"][0]
_LAST_GOLD = OBS["last_gold"][0]
_LAST_VOTES = OBS["last_votes"][0]
_LONE_TAKEN = OBS["lone_taken"][0]
_LONE_LIMIT = OBS["lone_limit"][0]
_WEAPON_KIND_BASE = 2  # EFFECT_WHIP, KNIFE, REVOLVER are 2, 3, 4


@njit(cache=True)
def knows_owner(state: np.ndarray, player: int, card: int) -> bool:
    """Does `player` know who holds stashed `card`? Its own cards; public ones; and the cards of
    deals at a location it was at."""
    owner = state[CARD_OWNER + card]
    if owner == player or state[CARD_PUBLIC + card]:
        return True
    source = state[CARD_FROM + card]
    if source < 0 or source >= NUM_LOCATIONS:
        return False  # drawn face down from the deck
    return state[HISTORY + state[CARD_ROUND + card] * MAX_PLAYERS + player] == source


@njit(cache=True)
def _assign_block(state, out, base, field, loc, player, n):
    for slot in range(MAX_LOCATION_CARDS):
        seat = state[field + loc * MAX_LOCATION_CARDS + slot]
        if state[SLOT_CARD + loc * MAX_LOCATION_CARDS + slot] == NO_CARD:
            continue
        rel = MAX_PLAYERS if seat == NOBODY else (seat - player) % n
        out[base + slot * (MAX_PLAYERS + 1) + rel] = 1.0


@njit(cache=True)
def observe(state: np.ndarray, player: int, out: np.ndarray) -> None:
    out[:] = 0.0
    n = state[NUM_PLAYERS]
    if player >= n:
        return
    r = state[ROUND]
    rounds = state[NUM_ROUNDS]
    out[_PHASE + state[PHASE]] = 1.0
    if r < MAX_ROUNDS:
        out[_ROUND + r] = 1.0
    if r == rounds - 1:
        out[_LAST_ROUND] = 1.0
    out[_NUM_PLAYERS + n - MIN_PLAYERS] = 1.0
    out[_DECK_LEFT] = (NUM_CARDS - state[DECK_TOP]) / NUM_CARDS
    out[_CHARACTER + state[CHARACTER + player]] = 1.0
    score = (known_score(state, player) - SCORE_LOW) / SCORE_SPAN
    out[_OWN_SCORE] = min(1.0, max(0.0, score))
    for k in range(n):
        seat = (player + k) % n
        out[_PRESENT + k] = 1.0
        out[_GOLD + k] = state[GOLD + seat] / GOLD_TOKENS
        if state[FORCED + seat] != NO_LOCATION:
            out[_FORCED + k * NUM_LOCATIONS + state[FORCED + seat]] = 1.0
        out[_BITTEN + k] = state[SNAKE + seat]
        if state[LOCATION + seat] != NO_LOCATION:
            out[_LOCATION + k * NUM_LOCATIONS + state[LOCATION + seat]] = 1.0
        for past in range(min(r + 1, MAX_ROUNDS)):
            where = state[HISTORY + past * MAX_PLAYERS + seat]
            if where != NO_LOCATION:
                out[_HISTORY + (past * MAX_PLAYERS + k) * NUM_LOCATIONS + where] = 1.0
    for slot in range(NUM_LOCATIONS * MAX_LOCATION_CARDS):
        card = state[SLOT_CARD + slot]
        if card != NO_CARD:
            out[_TABLE + slot * NUM_KINDS + card_kind(state, card)] = 1.0
    deck = state[CARD_SET]  # read once: the stores below into out would make it re-read
    stashed = np.uint64(0)  # bit c: card c is in a stash
    for card in range(NUM_CARDS):
        place = state[CARD_PLACE + card]
        kind = DECK_CARD_KIND[deck, card]
        # Every card adds to its kind's discard share, 0.0 unless discarded: no branch to
        # mispredict on places that vary card by card, and x + 0.0 is x bit for bit.
        out[_DISCARD + kind] += _KIND_SHARE[deck, kind] * (place == PLACE_DISCARD)
        stashed |= np.uint64(place == PLACE_STASH) << np.uint64(card)
    while stashed:  # the stashed cards in card order, lowest bit first
        card = np.int64(trailing_zeros(stashed))
        stashed &= stashed - np.uint64(1)
        kind = DECK_CARD_KIND[deck, card]
        owner = state[CARD_OWNER + card]
        k = (owner - player) % n
        out[_STASH + k] += _STASH_SHARE
        if knows_owner(state, player, card):
            out[_KNOWN + k * NUM_KINDS + kind] += _KIND_SHARE[deck, kind]
        if state[CARD_ACTIVE + card]:
            out[_ACTIVE + k] += _ACTIVE_SHARE
        if owner == player and state[CARD_FLIP + card] == FLIP_WON:
            if DECK_KIND_EFFECT[deck, kind] == EFFECT_DICE:
                out[_FLIPS] += 0.5
            elif DECK_KIND_EFFECT[deck, kind] == EFFECT_SARCOPHAGUS:
                out[_FLIPS + 1] = 1.0
    if state[CHOICE + player] != NO_LOCATION:
        out[_CHOICE + state[CHOICE + player]] = 1.0
    # Outcomes: past rounds; this round's only once its deals are done (the call phase).
    known_rounds = r + 1 if state[PHASE] == PHASE_CALL or state[TERMINAL] else r
    for past in range(min(known_rounds, MAX_ROUNDS)):
        for loc in range(NUM_LOCATIONS):
            out[
                _OUTCOMES + (past * NUM_LOCATIONS + loc) * 5 + state[OUTCOME + past * NUM_LOCATIONS + loc]
            ] = 1.0
    if state[TERMINAL]:
        return
    if state[PHASE] == PHASE_FORCE and state[CLAIM_NEXT] < state[CLAIM_COUNT]:
        card = state[CLAIM_CARD + state[CLAIM_NEXT]]
        out[_CLAIMER + (state[CARD_OWNER + card] - player) % n] = 1.0
        out[_CLAIM_KIND + card_effect(state, card) - _WEAPON_KIND_BASE] = 1.0
    if state[PHASE] == PHASE_CALL and state[CALL_CARD] != NO_CARD:
        card = state[CALL_CARD]
        out[_CALLER + (state[CARD_OWNER + card] - player) % n] = 1.0
        out[_CALL_KIND + (0 if card_effect(state, card) == EFFECT_DICE else 1)] = 1.0
    loc = state[LOCATION + player]
    if state[PHASE] != PHASE_NEGOTIATE or loc == NO_LOCATION:
        return
    out[_STAGE + state[NEG_STAGE + loc]] = 1.0
    proposer = state[NEG_PROPOSER + loc]
    if proposer != NOBODY:
        out[_PROPOSER + (proposer - player) % n] = 1.0
    out[_MADE] = state[NEG_MADE + loc] / MAX_PLAYERS
    out[_ALLOWED] = min(state[NEG_LIMIT + loc], MAX_PLAYERS) / MAX_PLAYERS
    out[_UNITS] = state[NEG_UNITS + loc] / PAYMENT_BOUND  # = GOLD_TOKENS
    _assign_block(state, out, _ASSIGN, NEG_ASSIGN, loc, player, n)
    for k in range(n):
        seat = (player + k) % n
        net = state[NEG_GOLD + loc * MAX_PLAYERS + seat]
        out[_PGOLD + k] = min(1.0, max(0.0, (net + GOLD_SWING) / (2 * GOLD_SWING)))
        if state[LAST_VALID + loc]:
            last = state[LAST_GOLD + loc * MAX_PLAYERS + seat]
            out[_LAST_GOLD + k] = min(1.0, max(0.0, (last + GOLD_SWING) / (2 * GOLD_SWING)))
            if state[LOCATION + seat] == loc:
                out[_LAST_VOTES + k * 3 + state[LAST_VOTES + seat] + 1] = 1.0
    out[_VOTE + state[VOTES + player] - VOTE_NONE] = 1.0
    if state[LAST_VALID + loc]:
        out[_LAST_VALID] = 1.0
        _assign_block(state, out, _LAST_ASSIGN, LAST_ASSIGN, loc, player, n)
    for slot in range(MAX_LOCATION_CARDS):
        out[_LONE_TAKEN + slot] = state[LONE_TAKEN + loc * MAX_LOCATION_CARDS + slot]
    out[_LONE_LIMIT] = state[LONE_LIMIT + loc] / MAX_LOCATION_CARDS


@njit(cache=True)
def full_state(state: np.ndarray, out: np.ndarray) -> None:
    """Every secret: each seat's own view (its character, stash, choice, vote and location's
    negotiation) side by side, and the deck's order."""
    out[:] = 0.0
    views = _VIEWS
    for p in range(state[NUM_PLAYERS]):
        observe(state, p, out[views + p * OBS_SIZE : views + (p + 1) * OBS_SIZE])
    order = _DECK_ORDER
    top = state[DECK_TOP]
    for i in range(top, NUM_CARDS):
        out[order + state[DECK + i]] = (i - top + 1) / NUM_CARDS
