"""Invariants of a Tomb Trader state: what must hold in every reachable state, checked in pure
Python and numpy, independently of the kernels (the scores are recomputed here and compared
with kernels.scores). The conformance suite's fuzz calls check_invariants after every step."""

from __future__ import annotations

import numpy as np

from tomb_env import data, kernels
from tomb_env.state import (
    CARD_FLIP,
    CARD_FROM,
    CARD_LINK,
    CARD_OWNER,
    CARD_PLACE,
    CHARACTER,
    DECK,
    DECK_TOP,
    FLIP_LOST,
    FLIP_NONE,
    FLIP_PENDING,
    FLIP_WON,
    FROM_DRAWN,
    GOLD,
    MAX_COMPETITORS,
    N_ACTIONS,
    NEG_GOLD,
    NO_CARD,
    NUM_ROUNDS,
    PHASE,
    PHASE_CALL,
    PHASE_NEGOTIATE,
    PHASES,
    PLACE_DECK,
    PLACE_DISCARD,
    PLACE_STASH,
    PLACE_TABLE,
    ROUND,
    SLOT_CARD,
    SLOT_COUNT,
    SUPPLY,
    SWEEP,
    SWEEP_LEFT,
)
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL

MAX_PLAYERS = data.MAX_PLAYERS
NUM_CARDS = data.NUM_CARDS
SLOTS = data.MAX_LOCATION_CARDS
CARD_KIND = data.CARD_KIND.tolist()
KIND_EFFECT = data.KIND_EFFECT.tolist()
KIND_NAMES = data.KIND_NAMES


def score_of(state: np.ndarray, player: int) -> int:
    """The rulebook's final value, recomputed from the stash (Game End, FAQ, Ability Reference)."""
    character = int(state[CHARACTER + player])
    ability = int(data.CHARACTER_ABILITY[character])
    places = state[CARD_PLACE : CARD_PLACE + NUM_CARDS].tolist()
    owners = state[CARD_OWNER : CARD_OWNER + NUM_CARDS].tolist()
    cards = [c for c in range(NUM_CARDS) if places[c] == PLACE_STASH and owners[c] == player]
    kinds = [KIND_NAMES[CARD_KIND[c]] for c in cards]
    maps = kinds.count("Treasure Map")
    if ability == data.ABILITY_CARTOGRAPHY and maps >= data.CARTOGRAPHY_MIN_MAPS:
        maps += 1
    total = int(data.MAP_SET_VALUE[min(maps, 6)])
    lucky, statue = "Lucky Rock" in kinds, "Ancient Statue" in kinds
    luck = ability == data.ABILITY_LUCK
    for card, kind in zip(cards, kinds, strict=True):
        k = data.KIND[kind]
        value = 0 if kind == "Treasure Map" else int(data.KIND_VALUE[k])
        won = state[CARD_FLIP + card] == FLIP_WON
        if state[CARD_FLIP + card] == FLIP_LOST and luck:
            won, luck = True, False
        if kind == "Dice" and won:
            value += 2
        if kind == "Sarcophagus" and won:
            value = 5
        if data.KIND_EFFECT[k] == data.EFFECT_LUCKY_COMBO and lucky:
            value += 3
        if data.KIND_EFFECT[k] == data.EFFECT_STATUE_COMBO and statue:
            value += 2
        if ability == data.ABILITY_WARDING:
            value = max(value, 0)
        total += value + int(data.CHARACTER_BONUS[character, k])
    gold = int(state[GOLD + player])
    return total + (2 * gold if ability == data.ABILITY_TRADE else gold)


def check_invariants(state: np.ndarray) -> None:
    """Raise AssertionError if the state breaks a rule that must always hold."""
    n = int(state[NUM_PLAYERS])
    assert data.MIN_PLAYERS <= n <= MAX_PLAYERS, f"num_players {n}"
    assert 0 <= state[PHASE] < len(PHASES), f"phase {state[PHASE]}"
    assert 0 <= state[ROUND] <= state[NUM_ROUNDS] == data.NUM_ROUNDS[n], f"round {state[ROUND]}"
    # Characters: distinct, one each.
    characters = [int(state[CHARACTER + p]) for p in range(n)]
    assert len(set(characters)) == n and all(0 <= c < data.NUM_CHARACTERS for c in characters), characters
    # Cards are conserved across the deck, the locations, the stashes and the discard.
    deck = [int(x) for x in state[DECK : DECK + NUM_CARDS]]
    assert sorted(deck) == list(range(NUM_CARDS)), "the deck array is not a permutation"
    top = int(state[DECK_TOP])
    places = state[CARD_PLACE : CARD_PLACE + NUM_CARDS]
    assert set(np.flatnonzero(places == PLACE_DECK).tolist()) == set(deck[top:]), "deck cards"
    on_table = [int(c) for c in state[SLOT_CARD : SLOT_CARD + 2 * SLOTS] if c != NO_CARD]
    assert set(np.flatnonzero(places == PLACE_TABLE).tolist()) == set(on_table), "table cards"
    for loc in range(2):
        slots = state[SLOT_CARD + loc * SLOTS : SLOT_CARD + (loc + 1) * SLOTS]
        count = int(state[SLOT_COUNT + loc])
        assert all(c != NO_CARD for c in slots[:count]) and all(c == NO_CARD for c in slots[count:]), "slots"
    assert set(places.tolist()) <= {PLACE_DECK, PLACE_TABLE, PLACE_STASH, PLACE_DISCARD}, "card places"
    owners = state[CARD_OWNER : CARD_OWNER + NUM_CARDS].tolist()
    links = state[CARD_LINK : CARD_LINK + NUM_CARDS].tolist()
    flips = state[CARD_FLIP : CARD_FLIP + NUM_CARDS].tolist()
    where = places.tolist()
    for card in range(NUM_CARDS):
        owner = owners[card]
        if where[card] == PLACE_STASH:
            assert 0 <= owner < n, f"card {card} in the stash of seat {owner}"
        else:
            assert owner == -1, f"card {card} not stashed has owner {owner}"
        link = links[card]
        if link != NO_CARD:
            assert KIND_EFFECT[CARD_KIND[card]] == data.EFFECT_DRAW, f"card {card} links {link}"
            assert state[CARD_FROM + link] == FROM_DRAWN and owners[link] == owner, "Satchel draw"
        flip = flips[card]
        if flip != FLIP_NONE:
            assert flip in (FLIP_WON, FLIP_LOST, FLIP_PENDING), f"flip {flip}"
            assert KIND_EFFECT[CARD_KIND[card]] in data.FLIP_EFFECTS and where[card] == PLACE_STASH, "flip"
    drawn = np.flatnonzero(state[CARD_FROM : CARD_FROM + NUM_CARDS] == FROM_DRAWN).tolist()
    assert sorted(drawn) == sorted(x for x in links if x != NO_CARD), "every drawn card is a Satchel's draw"
    # Gold is conserved; a proposal never takes more gold than a player holds.
    gold = [int(state[GOLD + p]) for p in range(n)]
    assert all(g >= 0 for g in gold) and sum(gold) + int(state[SUPPLY]) == data.GOLD_TOKENS, f"gold {gold}"
    for loc in range(2):
        net = state[NEG_GOLD + loc * MAX_PLAYERS : NEG_GOLD + (loc + 1) * MAX_PLAYERS]
        assert int(net.sum()) == 0 and all(gold[p] + int(net[p]) >= 0 for p in range(n)), f"payments {net}"
    # The sweep: the player to act is its lowest seat still to decide.
    mask = np.zeros(N_ACTIONS, np.int8)
    if state[TERMINAL]:
        assert state[SWEEP_LEFT] == 0, "a sweep after the end"
        assert all(kernels.legal_mask(state, p, mask) == 0 for p in range(MAX_PLAYERS)), "masks after the end"
    else:
        left = int(state[SWEEP_LEFT])
        assert left and left & ~int(state[SWEEP]) == 0 and left < (1 << n), f"sweep {state[SWEEP]} {left}"
        assert state[CURRENT_PLAYER] == (left & -left).bit_length() - 1, "current player"
        # A live state always has a legal action.
        assert kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask) > 0, "no legal action"
        if state[PHASE] == PHASE_CALL:
            assert (places == PLACE_TABLE).sum() == 0, "cards on the table in the call phase"
        if state[PHASE] != PHASE_NEGOTIATE:
            assert all(int(x) == 0 for x in state[NEG_GOLD : NEG_GOLD + 2 * MAX_PLAYERS]), "stale payments"
    scores = np.zeros(MAX_COMPETITORS, np.int64)
    tiebreaks = np.zeros(MAX_COMPETITORS, np.int64)
    kernels.scores(state, scores, tiebreaks)
    expected = [score_of(state, p) for p in range(n)]
    assert scores[:n].tolist() == expected, f"kernels.scores {scores[:n].tolist()}, expected {expected}"
