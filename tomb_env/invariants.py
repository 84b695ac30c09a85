"""Invariants of a Tomb Trader state: what must hold in every reachable state, checked in pure
Python and numpy, independently of the kernels (the scores are recomputed here and compared
with kernels.scores). The conformance suite's fuzz calls check_invariants after every step."""

from __future__ import annotations

import numpy as np

from tomb_env import data, kernels
from tomb_env.state import (
    ABILITIES,
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
    CLAIM_CARD,
    CLAIM_COUNT,
    CLAIM_NEXT,
    DECK,
    DECK_TOP,
    FLIP_LOST,
    FLIP_NONE,
    FLIP_PENDING,
    FLIP_WON,
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
    LOCATION,
    LONE_LIMIT,
    LONE_TAKEN,
    MAX_CLAIMS,
    MAX_COMPETITORS,
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
    OUTCOME_NONE,
    PAYMENT_BOUND,
    PHASE,
    PHASE_CALL,
    PHASE_CHOOSE,
    PHASE_FORCE,
    PHASE_NEGOTIATE,
    PHASES,
    PLACE_DECK,
    PLACE_DISCARD,
    PLACE_STASH,
    PLACE_TABLE,
    PROPOSAL_RULE,
    PROPOSALS_PER_PLAYER,
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
    VOTE_NONE,
    VOTE_REJECT,
    VOTES,
)
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL

MAX_PLAYERS = data.MAX_PLAYERS
MAX_ROUNDS = data.MAX_ROUNDS
NUM_LOCATIONS = data.NUM_LOCATIONS
NUM_CARDS = data.NUM_CARDS
SLOTS = data.MAX_LOCATION_CARDS
DECK_CARD_KIND = data.DECK_CARD_KIND.tolist()  # [deck][card]
DECK_KIND_EFFECT = data.DECK_KIND_EFFECT.tolist()  # [deck][kind]
KIND_NAMES = data.KIND_NAMES
FLIP_EFFECTS = data.FLIP_EFFECTS
TIMED_EFFECTS = (*data.WEAPON_EFFECTS, data.EFFECT_SNAKEBITE)  # act in the next round
ALL_CARDS = list(range(NUM_CARDS))
DEAL = data.ROUND_DEAL.tolist()  # [players][round] -> [cards to Inner, to Outer]
NO_DEAL = [0] * NUM_LOCATIONS
DEAL_OR_COLLAPSE = (OUTCOME_DEAL, OUTCOME_COLLAPSE)
NO_SEATS = [NOBODY] * SLOTS
NO_GOLD = [0] * MAX_PLAYERS
# The negotiation block (NEG_STAGE .. LONE_LIMIT) as clear_negotiation leaves it, votes aside.
NEG_END = LONE_LIMIT + NUM_LOCATIONS
CLEARED_NEGOTIATION = [0] * (NEG_END - NEG_STAGE)
for _start, _size in (
    (NEG_PROPOSER, NUM_LOCATIONS),
    (NEG_ASSIGN, NUM_LOCATIONS * SLOTS),
    (VOTES, MAX_PLAYERS),
    (LAST_ASSIGN, NUM_LOCATIONS * SLOTS),
    (LAST_VOTES, MAX_PLAYERS),
):
    CLEARED_NEGOTIATION[_start - NEG_STAGE : _start - NEG_STAGE + _size] = [-1] * _size


def score_of(state: np.ndarray, player: int) -> int:
    """The rulebook's final value, recomputed from the stash (Game End, FAQ, Ability Reference)."""
    character = int(state[CHARACTER + player])
    assumed = state[ABILITIES] == data.ABILITIES_ASSUMED
    ability = int(data.CHARACTER_ABILITY[character]) if assumed else data.ABILITY_NONE
    places = state[CARD_PLACE : CARD_PLACE + NUM_CARDS].tolist()
    owners = state[CARD_OWNER : CARD_OWNER + NUM_CARDS].tolist()
    card_kind, kind_effect = DECK_CARD_KIND[state[CARD_SET]], DECK_KIND_EFFECT[state[CARD_SET]]
    cards = [c for c in range(NUM_CARDS) if places[c] == PLACE_STASH and owners[c] == player]
    kinds = [KIND_NAMES[card_kind[c]] for c in cards]
    maps = kinds.count("Treasure Map")
    if ability == data.ABILITY_CARTOGRAPHY and maps >= data.CARTOGRAPHY_MIN_MAPS:
        maps += 1
    total = int(data.MAP_SET_VALUE[min(maps, 6)])
    lucky, statue = "Lucky Rock" in kinds, "Ancient Statue" in kinds
    lost = sorted((int(state[CARD_ROUND + c]), c) for c in cards if state[CARD_FLIP + c] == FLIP_LOST)
    lucky_call = lost[0][1] if lost and ability == data.ABILITY_LUCK else None  # first in time
    for card, kind in zip(cards, kinds, strict=True):
        k = data.KIND[kind]
        value = 0 if kind == "Treasure Map" else int(data.KIND_VALUE[k])
        won = state[CARD_FLIP + card] == FLIP_WON or card == lucky_call
        if kind == "Dice" and won:
            value += 2
        if kind == "Sarcophagus" and won:
            value = 5
        if kind_effect[k] == data.EFFECT_LUCKY_COMBO and lucky:
            value += 3
        if kind_effect[k] == data.EFFECT_STATUE_COMBO and statue:
            value += 2
        if ability == data.ABILITY_WARDING:
            value = max(value, 0)
        total += value + int(data.CHARACTER_BONUS[character, k])
    gold = int(state[GOLD + player])
    total += gold * (data.TRADE_COIN_VALUE if ability == data.ABILITY_TRADE else 1)
    threats = [
        q
        for q in range(int(state[NUM_PLAYERS]))
        if assumed and q != player and data.CHARACTER_ABILITY[state[CHARACTER + q]] == data.ABILITY_THREAT
    ]
    for q in threats:  # the Mercenary's weapons cost every other player a point each
        weapons = [c for c in ALL_CARDS if places[c] == PLACE_STASH and owners[c] == q]
        total -= data.THREAT_COST * sum(kind_effect[card_kind[c]] in data.WEAPON_EFFECTS for c in weapons)
    return total


def _card(card: int) -> str:
    return f"card {card} ({KIND_NAMES[DECK_CARD_KIND[data.DECK_LIBRARY][card]]} in the library deck)"


def check_invariants(state: np.ndarray) -> None:
    """Raise AssertionError if the state breaks a rule that must always hold.

    It is also the consistency half of the state validator (GameSpec.check_state runs it on a
    state handed in from outside, once every field is in its range): every value a kernel
    indexes by is checked here before the kernels (legal_mask, scores) are called."""
    s = state.tolist()
    n = s[NUM_PLAYERS]
    assert data.MIN_PLAYERS <= n <= MAX_PLAYERS, f"num_players {n}"
    phase, terminal, r = s[PHASE], s[TERMINAL], s[ROUND]
    assert 0 <= phase < len(PHASES), f"PHASE {phase}"
    rounds = int(data.NUM_ROUNDS[n])
    assert s[NUM_ROUNDS] == rounds, f"NUM_ROUNDS is {s[NUM_ROUNDS]}; {n} players play {rounds}"
    if terminal:
        assert r == rounds, f"ROUND {r} at the end of a game of {rounds} rounds"
    else:
        assert 0 <= r < rounds, f"ROUND {r} in a live game of {rounds} rounds"
    dealt_round = r - 1 if terminal else r  # the last round dealt
    assert s[LEAD] == dealt_round % n, f"LEAD {s[LEAD]} in round {dealt_round}"
    live = not terminal
    table_phase = live and phase != PHASE_CALL  # the round's cards are on the table
    # Seats: the rows of seats not in the game stay empty; characters distinct, one each.
    for p in range(n, MAX_PLAYERS):
        assert (s[CHARACTER + p], s[GOLD + p], s[LOCATION + p], s[FORCED + p]) == (-1, 0, -1, -1), f"seat {p}"
        assert (s[SNAKE + p], s[CHOICE + p], s[VOTES + p], s[LAST_VOTES + p]) == (0, -1, -1, -1), f"seat {p}"
        assert all(s[HISTORY + rr * MAX_PLAYERS + p] == NO_LOCATION for rr in range(MAX_ROUNDS)), (
            f"HISTORY seat {p}"
        )
    characters = s[CHARACTER : CHARACTER + n]
    assert len(set(characters)) == n and min(characters) >= 0, f"CHARACTER {characters}"
    # Where each player was: every revealed round, nothing beyond.
    history = [s[HISTORY + rr * MAX_PLAYERS : HISTORY + rr * MAX_PLAYERS + n] for rr in range(MAX_ROUNDS)]
    revealed = r + 1 if live and phase in (PHASE_NEGOTIATE, PHASE_CALL) else r  # rounds with HISTORY
    for rr in range(MAX_ROUNDS):
        if rr < revealed:
            assert min(history[rr]) >= 0, f"HISTORY of round {rr}: {history[rr]}"
        else:
            assert max(history[rr]) == NO_LOCATION, f"HISTORY of round {rr} before its reveal: {history[rr]}"
    # Outcomes: every finished location's, matching how many were there.
    settled = r + 1 if live and phase == PHASE_CALL else r  # rounds whose outcomes are all known
    outcome = [
        s[OUTCOME + rr * NUM_LOCATIONS : OUTCOME + (rr + 1) * NUM_LOCATIONS] for rr in range(MAX_ROUNDS)
    ]
    for rr in range(MAX_ROUNDS):
        for loc in range(NUM_LOCATIONS):
            o = outcome[rr][loc]
            if rr < settled:
                there = history[rr].count(loc)
                want = (OUTCOME_EMPTY,) if there == 0 else (OUTCOME_LONE,) if there == 1 else DEAL_OR_COLLAPSE
                assert o in want, f"OUTCOME of round {rr} location {loc} is {o} with {there} there"
            elif rr > r or not (live and phase == PHASE_NEGOTIATE):
                assert o == OUTCOME_NONE, f"OUTCOME of round {rr} location {loc} is {o} before it is known"
    # Cards are conserved across the deck, the locations, the stashes and the discard.
    deck = s[DECK : DECK + NUM_CARDS]
    assert sorted(deck) == ALL_CARDS, "the DECK array is not a permutation"
    top = s[DECK_TOP]
    undealt = set(deck[top:])
    places = s[CARD_PLACE : CARD_PLACE + NUM_CARDS]
    owners = s[CARD_OWNER : CARD_OWNER + NUM_CARDS]
    froms = s[CARD_FROM : CARD_FROM + NUM_CARDS]
    dealt_in = s[CARD_ROUND : CARD_ROUND + NUM_CARDS]
    public = s[CARD_PUBLIC : CARD_PUBLIC + NUM_CARDS]
    flips = s[CARD_FLIP : CARD_FLIP + NUM_CARDS]
    active = s[CARD_ACTIVE : CARD_ACTIVE + NUM_CARDS]
    links = s[CARD_LINK : CARD_LINK + NUM_CARDS]
    claims = s[CLAIM_CARD : CLAIM_CARD + MAX_CLAIMS]
    claim_count, claim_next = s[CLAIM_COUNT], s[CLAIM_NEXT]
    claims_live = table_phase  # this round's claims (a new round makes new ones)
    if claims_live:
        assert claim_next <= claim_count, f"CLAIM_NEXT {claim_next} past CLAIM_COUNT {claim_count}"
        pending = claims[claim_next:claim_count] if phase == PHASE_FORCE else []
    dealt = [[0] * NUM_LOCATIONS for _ in range(MAX_ROUNDS)]
    weapons_due = []  # the weapons collected in the last round: this round's claims
    for card in range(NUM_CARDS):
        place, owner, source, when = places[card], owners[card], froms[card], dealt_in[card]
        effect = DECK_KIND_EFFECT[s[CARD_SET]][DECK_CARD_KIND[s[CARD_SET]][card]]
        if place == PLACE_DECK:
            assert card in undealt, f"{_card(card)} in the deck is not in DECK[DECK_TOP:]"
            assert (owner, source, when, public[card]) == (NOBODY, FROM_NONE, -1, 0), (
                f"{_card(card)} in the deck"
            )
            assert (flips[card], active[card], links[card]) == (FLIP_NONE, 0, NO_CARD), (
                f"{_card(card)} in the deck"
            )
            continue
        assert card not in undealt, f"{_card(card)} out of the deck is in DECK[DECK_TOP:]"
        assert source != FROM_NONE and 0 <= when <= dealt_round, (
            f"{_card(card)}: CARD_FROM {source}, CARD_ROUND {when}"
        )
        if place == PLACE_STASH:
            assert 0 <= owner < n, f"{_card(card)} in the stash of seat {owner}"
        else:
            assert owner == NOBODY, f"{_card(card)} not stashed has owner {owner}"
        if source == FROM_DRAWN:
            assert place == PLACE_STASH, f"{_card(card)} drawn by a Satchel is not stashed"
            assert (flips[card], active[card], links[card]) == (FLIP_NONE, 0, NO_CARD), f"{_card(card)} drawn"
            continue
        dealt[when][source] += 1
        if place == PLACE_TABLE:
            assert table_phase and when == r, f"{_card(card)} on the table, dealt in round {when}"
            assert public[card] and (flips[card], active[card], links[card]) == (FLIP_NONE, 0, NO_CARD), (
                _card(card)
            )
            continue
        if when == r and live and phase != PHASE_CALL:
            raise AssertionError(f"{_card(card)} dealt this round has left the table before the round's end")
        result = outcome[when][source]
        if place == PLACE_DISCARD:
            assert public[card] and result != OUTCOME_DEAL, f"{_card(card)} discarded from a deal"
            assert (flips[card], active[card], links[card]) == (FLIP_NONE, 0, NO_CARD), (
                f"{_card(card)} discarded"
            )
            continue
        # Stashed from a location: taken there by a player who was there.
        assert result in (OUTCOME_DEAL, OUTCOME_LONE), (
            f"{_card(card)} stashed from a location whose outcome is {result}"
        )
        assert history[when][owner] == source, f"{_card(card)} stashed by seat {owner}, who was not there"
        link = links[card]
        if effect == data.EFFECT_DRAW:
            assert 0 <= link < NUM_CARDS and link != card, (
                f"{_card(card)}: a stashed Satchel's CARD_LINK is {link}"
            )
            assert froms[link] == FROM_DRAWN and owners[link] == owner and dealt_in[link] == when, (
                "Satchel draw"
            )
        else:
            assert link == NO_CARD, f"{_card(card)} is no Satchel, yet CARD_LINK is {link}"
        flip = flips[card]
        if effect in FLIP_EFFECTS:
            assert flip != FLIP_NONE, f"{_card(card)} collected without its coin call"
            assert flip != FLIP_PENDING or (live and phase == PHASE_CALL), (
                f"{_card(card)}: a coin call left pending"
            )
        else:
            assert flip == FLIP_NONE, f"{_card(card)}: CARD_FLIP {flip}"
        timed = effect in TIMED_EFFECTS
        if timed and when == r - 1 and effect != data.EFFECT_SNAKEBITE:
            weapons_due.append(card)
        if live and phase == PHASE_CALL:
            due = timed and when == r and r != rounds - 1  # acts in the next round
        elif live and phase == PHASE_FORCE:
            due = card in pending
        else:
            due = False
        assert active[card] == due, f"{_card(card)}: CARD_ACTIVE {active[card]}"
    drawn = [c for c in range(NUM_CARDS) if froms[c] == FROM_DRAWN]
    linked = [x for x in links if x != NO_CARD]
    assert sorted(drawn) == sorted(linked), "every drawn card is one Satchel's draw"
    for rr in range(MAX_ROUNDS):
        want = DEAL[n][rr] if rr <= dealt_round else NO_DEAL
        assert dealt[rr] == want, f"round {rr} dealt {dealt[rr]} cards to the locations, not {want}"
    if claims_live:
        assert sorted(claims[:claim_count]) == sorted(weapons_due), (
            f"CLAIM_CARD {claims}, the weapons {weapons_due}"
        )
        assert all(c == NO_CARD for c in claims[claim_count:]), f"CLAIM_CARD {claims} past CLAIM_COUNT"
        if phase != PHASE_FORCE:
            assert claim_next == claim_count, f"CLAIM_NEXT {claim_next} of {claim_count} after the claims"
    # The table: this round's deal, slot by slot.
    table_cards = []
    for loc in range(NUM_LOCATIONS):
        slots = s[SLOT_CARD + loc * SLOTS : SLOT_CARD + (loc + 1) * SLOTS]
        count = s[SLOT_COUNT + loc]
        want = DEAL[n][r][loc] if table_phase else 0
        assert count == want, f"SLOT_COUNT[{loc}] is {count}, not {want}"
        assert min(slots[:count], default=0) >= 0 and max(slots[count:], default=-1) == NO_CARD, (
            f"SLOT_CARD {slots}"
        )
        for card in slots[:count]:
            assert froms[card] == loc and places[card] == PLACE_TABLE, (
                f"card {card} in slot of location {loc}"
            )
        table_cards += slots[:count]
    on_table = [c for c in range(NUM_CARDS) if places[c] == PLACE_TABLE]
    assert sorted(table_cards) == on_table, "the cards on the table are the slots' cards, once each"
    # Gold is conserved.
    gold = s[GOLD : GOLD + n]
    assert sum(gold) + s[SUPPLY] == data.GOLD_TOKENS, f"GOLD {gold} and SUPPLY {s[SUPPLY]}"
    # The coin call.
    pending_calls = [c for c in range(NUM_CARDS) if flips[c] == FLIP_PENDING]
    if live and phase == PHASE_CALL:
        assert pending_calls and s[CALL_CARD] == pending_calls[0], (
            f"CALL_CARD {s[CALL_CARD]}, {pending_calls}"
        )
    else:
        assert s[CALL_CARD] == NO_CARD, f"CALL_CARD {s[CALL_CARD]} outside the call phase"
    # This round's locations.
    locations = s[LOCATION : LOCATION + n]
    forced = s[FORCED : FORCED + n]
    snake = s[SNAKE : SNAKE + n]
    choice = s[CHOICE : CHOICE + n]
    sweep, left = s[SWEEP], s[SWEEP_LEFT]
    decided = sweep & ~left
    if not table_phase:
        assert max(locations + forced + choice) == NO_LOCATION and max(snake) == 0, (
            "a location after the round"
        )
    else:
        assert all(not (snake[p] and forced[p] != NO_LOCATION) for p in range(n)), (
            f"SNAKE {snake} FORCED {forced}"
        )
        if phase == PHASE_NEGOTIATE:
            assert locations == history[r] and max(choice) == NO_LOCATION, f"LOCATION {locations}"
            assert all(f in (NO_LOCATION, w) for f, w in zip(forced, locations, strict=True)), (
                f"FORCED {forced}"
            )
        else:
            assert max(locations) == NO_LOCATION, f"LOCATION {locations} before the reveal"
            for p in range(n):
                chose = phase == PHASE_CHOOSE and (decided >> p) & 1
                assert (choice[p] != NO_LOCATION) == bool(chose), f"CHOICE {choice}, sweep {sweep} {left}"
    # The sweep: the player to act is its lowest seat still to decide.
    if terminal:
        assert sweep == left == 0 and s[CURRENT_PLAYER] == 0, f"a sweep after the end: {sweep} {left}"
    else:
        assert left and left & ~sweep == 0 and sweep < (1 << n), f"SWEEP {sweep} SWEEP_LEFT {left}"
        assert s[CURRENT_PLAYER] == (left & -left).bit_length() - 1, (
            "CURRENT_PLAYER is not SWEEP_LEFT's lowest"
        )
        if phase == PHASE_FORCE:
            assert claim_next < claim_count, f"the force phase with CLAIM_NEXT {claim_next} of {claim_count}"
            assert sweep == left == 1 << owners[claims[claim_next]], (
                f"SWEEP {sweep} is not the weapon's owner"
            )
        elif phase == PHASE_CALL:
            assert sweep == left == 1 << owners[s[CALL_CARD]], f"SWEEP {sweep} is not the caller"
        elif phase == PHASE_CHOOSE:
            free = sum(1 << p for p in range(n) if forced[p] == NO_LOCATION and not snake[p])
            assert sweep == free, f"SWEEP {sweep}, the free players {free}"
    _check_negotiation(s, n, r, live and phase == PHASE_NEGOTIATE, locations, gold, outcome)
    mask = np.zeros(N_ACTIONS, np.int8)
    if terminal:
        assert all(kernels.legal_mask(state, p, mask) == 0 for p in range(MAX_PLAYERS)), "masks after the end"
    else:
        # A live state always has a legal action, for every seat still to decide.
        for p in range(n):
            if (left >> p) & 1:
                assert kernels.legal_mask(state, p, mask) > 0, f"no legal action for seat {p}"
    scores = np.zeros(MAX_COMPETITORS, np.int64)
    tiebreaks = np.zeros(MAX_COMPETITORS, np.int64)
    kernels.scores(state, scores, tiebreaks)
    expected = [score_of(state, p) for p in range(n)]
    assert scores[:n].tolist() == expected, f"kernels.scores {scores[:n].tolist()}, expected {expected}"


def _check_negotiation(
    s: list, n: int, r: int, negotiating: bool, locations: list, gold: list, outcome: list
) -> None:
    """Both locations' negotiations: cleared outside the negotiation phase; in it, each stage
    with the proposer, the proposal and the votes it implies; the sweep its deciders."""
    votes = s[VOTES : VOTES + n]
    last_votes = s[LAST_VOTES : LAST_VOTES + n]
    if not negotiating:
        assert s[NEG_STAGE:NEG_END] == CLEARED_NEGOTIATION, "a negotiation outside the negotiation phase"
        assert max(votes + last_votes) == VOTE_NONE, "votes outside the negotiation phase"
        return
    sweep, left = s[SWEEP], s[SWEEP_LEFT]
    decided = sweep & ~left
    rule = s[PROPOSAL_RULE]
    deciders = 0
    voting = 0  # the seats voting in this sweep
    for loc in range(NUM_LOCATIONS):
        there = [p for p in range(n) if locations[p] == loc]
        bits = sum(1 << p for p in there)
        m = len(there)
        count = s[SLOT_COUNT + loc]
        result = outcome[r][loc]
        stage, proposer = s[NEG_STAGE + loc], s[NEG_PROPOSER + loc]
        made, limit, next_slot, units = (s[f + loc] for f in (NEG_MADE, NEG_LIMIT, NEG_NEXT_SLOT, NEG_UNITS))
        assign = s[NEG_ASSIGN + loc * SLOTS : NEG_ASSIGN + (loc + 1) * SLOTS]
        net = s[NEG_GOLD + loc * MAX_PLAYERS : NEG_GOLD + (loc + 1) * MAX_PLAYERS]
        last_valid = s[LAST_VALID + loc]
        last_assign = s[LAST_ASSIGN + loc * SLOTS : LAST_ASSIGN + (loc + 1) * SLOTS]
        last_net = s[LAST_GOLD + loc * MAX_PLAYERS : LAST_GOLD + (loc + 1) * MAX_PLAYERS]
        taken = s[LONE_TAKEN + loc * SLOTS : LONE_TAKEN + (loc + 1) * SLOTS]
        lone_limit = s[LONE_LIMIT + loc]
        where = f"location {loc} ({m} there, {count} cards)"
        bargaining = m >= 2 and count > 0
        if not bargaining:
            assert (made, limit, next_slot, units, last_valid) == (0, 0, 0, 0, 0), f"a proposal at {where}"
            assert assign == last_assign == NO_SEATS and net == last_net == NO_GOLD, f"a proposal at {where}"
        if m != 1:
            assert lone_limit == 0 and max(taken) == 0, f"a lone player's take at {where}"
        if m == 0:
            assert (result, stage, proposer) == (OUTCOME_EMPTY, STAGE_IDLE, NOBODY), f"nobody at {where}"
        elif m == 1:
            assert lone_limit == data.lone_share(count, n), f"LONE_LIMIT {lone_limit} at {where}"
            assert max(taken[count:], default=0) == 0 and sum(taken) <= lone_limit, f"LONE_TAKEN {taken}"
            if lone_limit == 0:
                assert (result, stage, proposer) == (OUTCOME_LONE, STAGE_IDLE, NOBODY), f"no share at {where}"
            else:
                assert proposer == there[0], f"NEG_PROPOSER {proposer} is not the lone player at {where}"
                open_ = (result, stage) == (OUTCOME_NONE, STAGE_LONE) and sum(taken) < lone_limit
                assert open_ or (result, stage) == (OUTCOME_LONE, STAGE_IDLE), f"the lone player at {where}"
                if stage == STAGE_LONE:
                    deciders |= 1 << proposer
                elif (sweep >> proposer) & 1:
                    assert (decided >> proposer) & 1, f"the lone player done at {where} is still to decide"
                    deciders |= 1 << proposer
        elif count == 0:
            assert (result, stage, proposer) == (OUTCOME_DEAL, STAGE_IDLE, NOBODY), f"no cards at {where}"
        else:
            want = m if rule == PROPOSALS_PER_PLAYER else rule
            assert limit == want and 1 <= made <= limit, f"NEG_MADE {made} NEG_LIMIT {limit} at {where}"
            assert proposer in there, f"NEG_PROPOSER {proposer} is not at {where}"
            assert (last_valid == 1) == (made > 1 or result == OUTCOME_COLLAPSE), f"LAST_VALID at {where}"
            assert result != OUTCOME_COLLAPSE or made == limit, (
                f"a collapse before the last proposal at {where}"
            )
            # A settled deal's payments are re-dealt by resample_hidden up to the gold there,
            # its NEG_UNITS left as it was.
            paid = 0 if stage == STAGE_ASSIGN else PAYMENT_BOUND if stage == STAGE_IDLE else units
            _check_proposal(assign, net, count, there, gold, paid, where)
            if stage == STAGE_ASSIGN:
                assert result == OUTCOME_NONE and 0 <= next_slot < count, (
                    f"NEG_NEXT_SLOT {next_slot} at {where}"
                )
                assert min(assign[:next_slot], default=0) >= 0 and max(assign[next_slot:]) == NOBODY, assign
                assert units == 0, f"NEG_UNITS {units} before the payments at {where}"
                deciders |= 1 << proposer
            else:
                assert next_slot == count and min(assign[:count]) >= 0, f"NEG_ASSIGN {assign} at {where}"
                if stage == STAGE_TRANSFER:
                    assert result == OUTCOME_NONE, f"OUTCOME {result} while proposing at {where}"
                    deciders |= 1 << proposer
                elif stage == STAGE_VOTE:
                    assert result == OUTCOME_NONE, f"OUTCOME {result} while voting at {where}"
                    if (sweep >> proposer) & 1:  # the vote was called in this sweep
                        assert (decided >> proposer) & 1, f"the proposer at {where} is still to decide"
                        deciders |= 1 << proposer
                    else:
                        voting |= bits & ~(1 << proposer)
                        deciders |= bits & ~(1 << proposer)
                else:
                    assert stage == STAGE_IDLE and result in DEAL_OR_COLLAPSE, f"stage {stage} at {where}"
            if last_valid:
                _check_proposal(last_assign, last_net, count, there, gold, PAYMENT_BOUND, where)
                assert min(last_assign[:count]) >= 0, f"LAST_ASSIGN {last_assign} at {where}"
                cast = [last_votes[p] for p in there]
                if result == OUTCOME_DEAL:
                    assert max(cast) == VOTE_NONE, f"LAST_VOTES {cast} after the deal at {where}"
                else:
                    assert cast.count(VOTE_NONE) == 1 and VOTE_REJECT in cast, f"LAST_VOTES {cast} at {where}"
            else:
                assert last_assign == NO_SEATS and last_net == NO_GOLD, f"a failed proposal at {where}"
        if not (bargaining and last_valid):
            assert all(last_votes[p] == VOTE_NONE for p in there), f"LAST_VOTES at {where}"
    assert sweep == deciders, f"SWEEP {sweep}, the negotiation's deciders {deciders}"
    for p in range(n):
        assert (votes[p] != VOTE_NONE) == bool((voting & decided) >> p & 1), (
            f"VOTES {votes}, sweep {sweep} {left}"
        )


def _check_proposal(
    assign: list, net: list, count: int, there: list, gold: list, units: int, where: str
) -> None:
    """A proposal gives the cards to players there and moves at most `units` coins among them,
    no payer paying more than it holds."""
    assert all(seat == NOBODY or seat in there for seat in assign[:count]), f"cards to {assign} at {where}"
    assert max(assign[count:], default=NOBODY) == NOBODY, f"NEG_ASSIGN {assign} past the cards at {where}"
    assert all(net[p] == 0 for p in range(MAX_PLAYERS) if p not in there), f"payments {net} at {where}"
    assert sum(net) == 0 and sum(x for x in net if x > 0) <= units, f"payments {net} at {where}"
    assert all(gold[p] + net[p] >= 0 for p in there), f"payments {net} beyond gold {gold} at {where}"
    assert sum(x for x in net if x > 0) <= sum(gold[p] for p in there), (
        f"payments {net} beyond the gold at {where}"
    )
