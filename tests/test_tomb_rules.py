"""Tomb Trader rules: the rulebook's worked examples (Josh and Chris's deal, Bill's 12 points),
every ability, the FAQ's rulings and the protocol's edge cases, played through the kernels
(docs/games/tomb.md)."""

from __future__ import annotations

import numpy as np
import pytest

from tomb_env import data, kernels
from tomb_env.bots import TombBot
from tomb_env.env import raw_env
from tomb_env.state import (
    ASSIGN_BASE,
    CALL_BASE,
    CARD_ACTIVE,
    CARD_FLIP,
    CARD_FROM,
    CARD_OWNER,
    CARD_PLACE,
    CARD_PUBLIC,
    CARD_ROUND,
    CHARACTER,
    CHOOSE_BASE,
    CLAIM_CARD,
    CLAIM_COUNT,
    DECK,
    DECK_TOP,
    FLIP_LOST,
    FLIP_PENDING,
    FLIP_WON,
    FORCE_BASE,
    FORCE_PASS_ACTION,
    FORCED,
    FROM_DRAWN,
    GOLD,
    LEAVE_ACTION,
    LOCATION,
    N_ACTIONS,
    NEG_LIMIT,
    NEG_PROPOSER,
    OUTCOME,
    OUTCOME_COLLAPSE,
    OUTCOME_DEAL,
    OUTCOME_EMPTY,
    OUTCOME_LONE,
    PHASE,
    PHASE_CALL,
    PHASE_CHOOSE,
    PHASE_FORCE,
    PHASE_NEGOTIATE,
    PLACE_DECK,
    PLACE_DISCARD,
    PLACE_STASH,
    PLACE_TABLE,
    PROPOSE_ACTION,
    ROUND,
    SLOT_CARD,
    SLOT_COUNT,
    SNAKE,
    SWEEP_LEFT,
    TAKE_BASE,
    TRANSFER_BASE,
    VOTE_BASE,
)
from treasure_core.agents import RandomAgent, play_game
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL
from treasure_core.parallel import TreasureParallelEnv

ENVS = {n: raw_env(num_players=n) for n in range(3, 7)}
K = data.KIND
ACCEPT, REJECT = VOTE_BASE + 1, VOTE_BASE
INNER, OUTER = CHOOSE_BASE + data.INNER, CHOOSE_BASE + data.OUTER


def card_of(state: np.ndarray, kind: str, place: int | None = PLACE_DECK) -> int:
    """A card of `kind` (in `place`, if given); a deck card is taken off the table if need be."""
    if place == PLACE_DECK and not any(
        data.CARD_KIND[c] == K[kind] and state[CARD_PLACE + c] == PLACE_DECK for c in range(data.NUM_CARDS)
    ):
        dealt = next(
            c
            for c in range(data.NUM_CARDS)
            if data.CARD_KIND[c] == K[kind] and state[CARD_PLACE + c] == PLACE_TABLE
        )
        plain = next(
            c
            for c in range(data.NUM_CARDS)
            if state[CARD_PLACE + c] == PLACE_DECK
            and data.KIND_EFFECT[data.CARD_KIND[c]] == data.EFFECT_NONE
            and data.KIND_VALUE[data.CARD_KIND[c]] > 0
        )
        swap_deck(state, dealt, plain)
    for card in range(data.NUM_CARDS):
        if data.CARD_KIND[card] == K[kind] and (place is None or state[CARD_PLACE + card] == place):
            return card
    raise AssertionError(f"no {kind} in place {place}")


def swap_deck(state: np.ndarray, a: int, b: int) -> None:
    """Exchange two cards of the deck array with all they carry (table slot or deck position)."""
    ia = int(np.flatnonzero(state[DECK : DECK + data.NUM_CARDS] == a)[0])
    ib = int(np.flatnonzero(state[DECK : DECK + data.NUM_CARDS] == b)[0])
    state[DECK + ia], state[DECK + ib] = b, a
    for field in (CARD_PLACE, CARD_FROM, CARD_ROUND, CARD_PUBLIC):
        state[field + a], state[field + b] = state[field + b], state[field + a]
    for slot in range(2 * data.MAX_LOCATION_CARDS):
        if state[SLOT_CARD + slot] == a:
            state[SLOT_CARD + slot] = b
        elif state[SLOT_CARD + slot] == b:
            state[SLOT_CARD + slot] = a


def table(state: np.ndarray, loc: int, kinds: list[str]) -> list[int]:
    """Put cards of `kinds` in `loc`'s first slots (the round's deal), from the deck."""
    cards = []
    for slot, kind in enumerate(kinds):
        current = int(state[SLOT_CARD + loc * data.MAX_LOCATION_CARDS + slot])
        if data.CARD_KIND[current] != K[kind] or current in cards:
            swap_deck(state, current, card_of(state, kind))
        cards.append(int(state[SLOT_CARD + loc * data.MAX_LOCATION_CARDS + slot]))
    return cards


def give(state: np.ndarray, card: int, owner: int) -> None:
    """Put a deck card straight into a stash (a position to score)."""
    assert state[CARD_PLACE + card] == PLACE_DECK
    top = int(state[DECK_TOP])
    at = int(np.flatnonzero(state[DECK : DECK + data.NUM_CARDS] == card)[0])
    other = int(state[DECK + top])
    state[DECK + top], state[DECK + at] = card, other
    state[DECK_TOP] = top + 1
    state[CARD_PLACE + card] = PLACE_STASH
    state[CARD_OWNER + card] = owner
    state[CARD_FROM + card] = data.INNER
    state[CARD_ROUND + card] = 0


def fresh(n: int, seed: int = 0, characters: list[int] | None = None) -> np.ndarray:
    env = ENVS[n]
    env.reset(seed=seed)
    state = env.get_state()
    if characters is not None:
        for p, c in enumerate(characters):
            state[CHARACTER + p] = c
    return state


def play(state: np.ndarray, *actions: int) -> None:
    mask = np.zeros(N_ACTIONS, np.int8)
    for action in actions:
        kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask)
        assert mask[action], f"{action} is illegal for player {state[CURRENT_PLAYER]}: {np.flatnonzero(mask)}"
        kernels.step(state, action)


def mask_of(state: np.ndarray, player: int) -> np.ndarray:
    mask = np.zeros(N_ACTIONS, np.int8)
    kernels.legal_mask(state, player, mask)
    return mask


def finish_calls(state: np.ndarray) -> None:
    while state[PHASE] == PHASE_CALL and not state[TERMINAL]:
        play(state, CALL_BASE)


# -- the rulebook's examples ---------------------------------------------------------------
def test_bill_scores_12() -> None:
    """Game End: Trinket 1 + Gold Chalice 3 + Crown 4 + 2 gold + the Gambler's +2 for the Crown."""
    state = fresh(4, characters=[data.CHARACTER_NAMES.index("Gambler"), 1, 2, 3])
    for kind in ("Trinket", "Gold Chalice", "Crown"):
        give(state, card_of(state, kind), 0)
    state[GOLD + 0] = 2
    state[GOLD + 1] += 1  # the coin Bill spent (gold is conserved)
    assert kernels.player_score(state, 0) == 12


def test_josh_and_chris_deal() -> None:
    """Josh (the Alchemist) keeps the Ceramic Jar and pays Chris 1 gold for the Trinket and the
    Treasure Map; Chris accepts. Josh is player 0 and proposes (the round's lead)."""
    alchemist = data.CHARACTER_NAMES.index("Alchemist")
    state = fresh(3, characters=[alchemist, 0, 1])
    jar, trinket, chart = table(state, data.INNER, ["Ceramic Jar", "Trinket", "Treasure Map"])
    play(state, INNER, INNER, OUTER)  # Josh, Chris to the Inner Tomb; player 2 alone outside
    assert state[PHASE] == PHASE_NEGOTIATE and state[NEG_PROPOSER + data.INNER] == 0
    # One sweep: Josh's first card and the lone player's first pick happen together.
    assert state[SWEEP_LEFT] == 0b101
    play(state, ASSIGN_BASE + 0, LEAVE_ACTION)  # Jar to Josh; the lone player takes nothing
    play(state, ASSIGN_BASE + 1, ASSIGN_BASE + 1)  # Trinket, Map to Chris
    play(state, TRANSFER_BASE + 0 * 6 + 1, PROPOSE_ACTION)  # Josh pays Chris 1 gold
    assert state[SWEEP_LEFT] == 0b010  # Chris votes
    play(state, ACCEPT)
    assert state[OUTCOME + data.INNER] == OUTCOME_DEAL
    assert (
        state[CARD_OWNER + jar] == 0 and state[CARD_OWNER + trinket] == 1 and state[CARD_OWNER + chart] == 1
    )
    assert state[GOLD + 0] == 2 and state[GOLD + 1] == 4
    assert state[OUTCOME + data.OUTER] == OUTCOME_LONE
    # Josh: Jar 2 + the Alchemist's 1 for it + 2 gold.
    assert kernels.player_score(state, 0) == 2 + 1 + 2


# -- the protocol ---------------------------------------------------------------------------
def test_every_proposal_rejected_collapses() -> None:
    state = fresh(4, seed=3)
    cards = [int(state[SLOT_CARD + s]) for s in range(int(state[SLOT_COUNT]))]
    play(state, INNER, INNER, INNER, INNER)
    assert state[NEG_LIMIT + data.INNER] == 4  # one proposal per player there
    for proposer in (0, 1, 2, 3):
        assert state[NEG_PROPOSER + data.INNER] == proposer
        for _ in cards:
            play(state, ASSIGN_BASE)
        play(state, PROPOSE_ACTION)
        voters = [p for p in range(4) if p != proposer]
        play(state, *([ACCEPT] * 2 + [REJECT])[: len(voters)])
    assert state[OUTCOME + data.INNER] == OUTCOME_COLLAPSE
    assert all(state[CARD_PLACE + c] == PLACE_DISCARD for c in cards)
    # The Outer Tomb, which nobody chose, is discarded too.
    assert state[OUTCOME + data.OUTER] == OUTCOME_EMPTY


def test_one_proposal_option() -> None:
    env = raw_env(num_players=3, proposals=1)
    env.reset(seed=1)
    state = env.get_state()
    play(state, INNER, INNER, INNER)
    assert state[NEG_LIMIT + data.INNER] == 1
    for _ in range(int(state[SLOT_COUNT])):
        play(state, ASSIGN_BASE)
    play(state, PROPOSE_ACTION, ACCEPT, REJECT)
    assert state[OUTCOME + data.INNER] == OUTCOME_COLLAPSE


def test_votes_are_secret_until_all_have_voted() -> None:
    state = fresh(4, seed=4)
    play(state, INNER, INNER, INNER, OUTER)
    for _ in range(int(state[SLOT_COUNT])):
        play(state, ASSIGN_BASE, TAKE_BASE) if state[SWEEP_LEFT] & 0b1000 else play(state, ASSIGN_BASE)
    if state[SWEEP_LEFT] & 0b1000:
        play(state, PROPOSE_ACTION, LEAVE_ACTION)
    else:
        play(state, PROPOSE_ACTION)
    before = mask_of(state, 2).copy()
    play(state, REJECT)  # player 1 votes; player 2's mask and view do not depend on it
    assert np.array_equal(mask_of(state, 2), before)
    env = ENVS[4]
    env.set_state(state)
    twin = state.copy()
    twin[kernels.VOTES + 1] = 1
    assert np.array_equal(env.observe("player_2")["observation"], _observe(twin, 2))


def _observe(state: np.ndarray, player: int) -> np.ndarray:
    env = ENVS[int(state[NUM_PLAYERS])]
    env.set_state(state)
    return env.observe(f"player_{player}")["observation"]


def test_proposer_with_no_gold_cannot_pay() -> None:
    state = fresh(3, seed=2)
    state[GOLD + 0], state[GOLD + 1] = 0, 6
    play(state, INNER, INNER, OUTER)
    for _ in range(int(state[SLOT_COUNT])):
        play(state, ASSIGN_BASE) if not state[SWEEP_LEFT] & 0b100 else play(state, ASSIGN_BASE, LEAVE_ACTION)
    mask = mask_of(state, 0)
    assert not mask[TRANSFER_BASE + 0 * 6 + 1], "a proposer with no gold pays nothing"
    assert mask[TRANSFER_BASE + 1 * 6 + 0] and mask[PROPOSE_ACTION]
    # Never more gold than a player holds.
    state[GOLD + 1] = 1
    play(state, TRANSFER_BASE + 1 * 6 + 0)
    assert not mask_of(state, 0)[TRANSFER_BASE + 1 * 6 + 0]


def test_a_player_with_6_coins_pays_all_6_and_no_more() -> None:
    """ "You may exchange gold coins with other players during this phase": no limit but the
    payer's gold (issue 24 item 1)."""
    state = fresh(3, seed=2)
    state[GOLD + 0], state[GOLD + 1], state[GOLD + 2] = 6, 0, 3
    state[kernels.SUPPLY] = data.GOLD_TOKENS - 9
    play(state, INNER, INNER, OUTER)
    for _ in range(int(state[SLOT_COUNT])):
        play(state, ASSIGN_BASE) if not state[SWEEP_LEFT] & 0b100 else play(state, ASSIGN_BASE, LEAVE_ACTION)
    while state[CURRENT_PLAYER] != 0:
        play(state, LEAVE_ACTION)
    pay = TRANSFER_BASE + 0 * 6 + 1  # player 0 pays player 1
    for _ in range(6):
        assert mask_of(state, 0)[pay]
        play(state, pay)
    assert not mask_of(state, 0)[pay], "nobody pays more than it holds"
    assert not mask_of(state, 0)[TRANSFER_BASE + 1 * 6 + 0], "a payee does not pay back in the same proposal"
    play(state, PROPOSE_ACTION, ACCEPT)
    finish_calls(state)
    assert (state[GOLD + 0], state[GOLD + 1]) == (0, 6)


def test_payments_are_bounded_by_the_gold_there() -> None:
    """The negotiation still ends: a proposal's payments never exceed the gold held there."""
    env = ENVS[4]
    rng = np.random.default_rng(0)
    mask = np.zeros(N_ACTIONS, np.int8)
    for game in range(20):
        env.reset(seed=game)
        state = env._state
        steps = 0
        while not state[TERMINAL]:
            kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask)
            kernels.step(state, int(rng.choice(np.flatnonzero(mask))))
            for loc in range(2):
                there = kernels.players_at(state, loc)
                assert state[kernels.NEG_UNITS + loc] <= kernels.gold_at(state, there)
            steps += 1
        assert steps < 2000


def test_lone_player_takes_up_to_half() -> None:
    assert [data.lone_share(k, 4) for k in range(6)] == [0, 0, 1, 1, 2, 2]
    assert [data.lone_share(k, 3) for k in range(6)] == [0, 1, 1, 2, 2, 3]  # rounded up with 3
    assert all(kernels.lone_share(k, n) == data.lone_share(k, n) for k in range(6) for n in range(3, 7))
    state = fresh(3, seed=5)
    cards = [int(state[SLOT_CARD + s]) for s in range(int(state[SLOT_COUNT]))]  # 3 in the Inner
    play(state, INNER, OUTER, OUTER)
    picks = [TAKE_BASE + 2, TAKE_BASE + 0]
    while state[PHASE] == PHASE_NEGOTIATE:
        seat = int(state[CURRENT_PLAYER])
        legal = np.flatnonzero(mask_of(state, seat))
        if seat == 0:
            assert picks, "3 players: the lone player may take 2 of 3, and no more"
            assert LEAVE_ACTION in legal
            play(state, picks.pop(0))
        else:
            play(state, int(ACCEPT if ACCEPT in legal else legal[0]))
    assert not picks
    assert state[CARD_OWNER + cards[2]] == 0 and state[CARD_OWNER + cards[0]] == 0
    assert state[CARD_PLACE + cards[1]] == PLACE_DISCARD


# -- abilities and the FAQ --------------------------------------------------------------------
def _active(state: np.ndarray, kind: str, owner: int) -> int:
    card = card_of(state, kind)
    give(state, card, owner)
    state[CARD_ACTIVE + card] = 1
    return card


def _next_round(state: np.ndarray, n: int) -> None:
    """Play the round out on a table of plain cards: everyone to the Inner Tomb, every
    proposal accepted."""
    plain = ["Trinket", "Ceramic Jar"] * 3
    for loc in (data.INNER, data.OUTER):
        count = int(state[SLOT_COUNT + loc])
        table(state, loc, plain[:count])
        plain = plain[count:] + ["Gold Chalice"] * 3
    while state[ROUND] == 0 and not state[TERMINAL]:
        seat = int(state[CURRENT_PLAYER])
        legal = np.flatnonzero(mask_of(state, seat))
        for choice in (ACCEPT, INNER, PROPOSE_ACTION, CALL_BASE, FORCE_PASS_ACTION):
            if choice in legal:
                play(state, choice)
                break
        else:
            play(state, int(legal[0]))


def test_snakebite_random_location_and_medical_kit() -> None:
    state = fresh(4, seed=6)
    _active(state, "Snakebite", 1)
    _active(state, "Snakebite", 2)
    kit = card_of(state, "Medical Kit")
    give(state, kit, 2)
    _next_round(state, 4)
    assert state[SNAKE + 1] == 1 and state[SNAKE + 2] == 0, "player 2's Medical Kit blocks the bite"
    assert state[CARD_PUBLIC + kit] == 1, "the kit is shown"
    assert state[PHASE] == PHASE_CHOOSE and not (state[SWEEP_LEFT] >> 1) & 1  # 1 does not choose
    play(state, INNER, INNER, INNER)
    assert state[LOCATION + 1] in (0, 1)


def test_weapons_force_and_the_most_recent_effect_applies() -> None:
    env = raw_env(num_players=4, claim_order="seat")
    env.reset(seed=7)
    state = env.get_state()
    _active(state, "Snakebite", 3)
    knife = _active(state, "Knife", 0)
    whip = _active(state, "Whip", 1)
    _next_round(state, 4)
    assert state[PHASE] == PHASE_FORCE and state[CLAIM_COUNT] == 2
    # Round 2's lead is player 1: the Whip (player 1) claims before the Knife (player 0).
    assert list(state[CLAIM_CARD : CLAIM_CARD + 2]) == [whip, knife] and state[CURRENT_PLAYER] == 1
    first = int(state[CURRENT_PLAYER])
    other = 1 - first
    # The first sends player 3 (bitten) to the Outer Tomb: the force overrides the Snakebite.
    play(state, FORCE_BASE + ((3 - first) % 4 - 1) * 2 + data.OUTER)
    assert state[FORCED + 3] == data.OUTER and state[SNAKE + 3] == 0
    # The second sends player 3 to the Inner Tomb: only the most recent effect applies.
    play(state, FORCE_BASE + ((3 - other) % 4 - 1) * 2 + data.INNER)
    assert state[FORCED + 3] == data.INNER
    assert state[PHASE] == PHASE_CHOOSE and not (state[SWEEP_LEFT] >> 3) & 1
    assert state[CARD_ACTIVE + knife] == 0 and state[CARD_ACTIVE + whip] == 0


def test_whip_is_blocked_by_a_medical_kit_but_the_knife_is_not() -> None:
    env = raw_env(num_players=3, claim_order="seat")
    env.reset(seed=8)
    state = env.get_state()
    _active(state, "Whip", 0)
    _active(state, "Revolver", 0)
    give(state, card_of(state, "Medical Kit"), 2)
    _next_round(state, 3)
    kinds = [data.KIND_NAMES[data.CARD_KIND[c]] for c in state[CLAIM_CARD : CLAIM_CARD + 2]]
    for kind in kinds:
        play(state, FORCE_BASE + (2 - 1) * 2 + data.OUTER)  # player 2, two seats after player 0
        assert (state[FORCED + 2] == data.OUTER) == (kind == "Revolver" or state[FORCED + 2] == data.OUTER)
    assert state[FORCED + 2] == data.OUTER  # the Revolver got through
    assert not mask_of(state, 0)[FORCE_PASS_ACTION]


def test_claims_in_random_order_vary() -> None:
    orders = set()
    for seed in range(12):
        state = fresh(4, seed=seed)
        _active(state, "Knife", 0)
        _active(state, "Whip", 2)
        _next_round(state, 4)
        assert state[CLAIM_COUNT] == 2
        orders.add(tuple(int(state[CARD_OWNER + c]) for c in state[CLAIM_CARD : CLAIM_CARD + 2]))
    assert orders == {(0, 2), (2, 0)}, "the FAQ's random order: both orders occur"


def test_weapons_of_the_last_round_never_act() -> None:
    state = fresh(3, seed=9)
    state[ROUND] = int(state[kernels.NUM_ROUNDS]) - 1
    cards = table(state, data.INNER, ["Knife", "Snakebite", "Dice"])
    play(state, INNER, INNER, INNER)
    for _ in cards:
        play(state, ASSIGN_BASE)
    play(state, PROPOSE_ACTION, ACCEPT, ACCEPT)
    assert all(state[CARD_ACTIVE + c] == 0 for c in cards)
    finish_calls(state)
    assert state[TERMINAL]


def test_dice_and_sarcophagus_coin_calls() -> None:
    results = set()
    for seed in range(10):
        state = fresh(3, seed=seed)
        dice, sarcophagus, trinket = table(state, data.INNER, ["Dice", "Sarcophagus", "Trinket"])
        play(state, INNER, INNER, INNER)
        for _ in range(3):
            play(state, ASSIGN_BASE + 1)  # all to player 1
        play(state, PROPOSE_ACTION, ACCEPT, ACCEPT)
        assert state[CARD_FLIP + dice] == FLIP_PENDING and state[CARD_PUBLIC + dice] == 1
        assert state[PHASE] == PHASE_CALL and state[CURRENT_PLAYER] == 1  # the call is the owner's
        before = kernels.player_score(state, 1)
        play(state, CALL_BASE + seed % 2)
        play(state, CALL_BASE)
        flips = int(state[CARD_FLIP + dice]), int(state[CARD_FLIP + sarcophagus])
        assert set(flips) <= {FLIP_WON, FLIP_LOST}
        results.add(flips)
        gambler = kernels.ability_of(state, 1) == data.ABILITY_LUCK  # never with bonus_only
        gain = (2 if flips[0] == FLIP_WON else 0) + (4 if flips[1] == FLIP_WON else 0)
        if gambler and FLIP_LOST in flips:
            gain += 2 if flips[0] == FLIP_LOST else 4
        assert kernels.player_score(state, 1) == before + gain
    assert len(results) > 1, "the coin comes from the in-state generator"


def test_satchel_draws_the_top_card_face_down_without_effects() -> None:
    state = fresh(3, seed=10)
    satchel, _, _ = table(state, data.INNER, ["Satchel", "Trinket", "Crown"])
    play(state, INNER, INNER, INNER)
    top = int(state[DECK_TOP])
    swap_deck(state, int(state[DECK + top]), card_of(state, "Knife"))
    knife = int(state[DECK + top])
    for _ in range(3):
        play(state, ASSIGN_BASE + 2)
    play(state, PROPOSE_ACTION, ACCEPT, ACCEPT)
    assert state[CARD_OWNER + knife] == 2 and state[CARD_FROM + knife] == FROM_DRAWN
    assert state[CARD_PUBLIC + knife] == 0 and state[CARD_ACTIVE + knife] == 0, "face down, no effect"
    assert kernels.card_effect(state, satchel) == data.EFFECT_DRAW


def test_map_sets_and_combos() -> None:
    collector = data.CHARACTER_NAMES.index("Collector")
    for maps, value in enumerate([0, 1, 3, 6, 10, 15, 21]):
        state = fresh(4, characters=[collector, 0, 2, 3])
        state[GOLD + 1] += state[GOLD + 0]
        state[GOLD + 0] = 0
        for _ in range(maps):
            give(state, card_of(state, "Treasure Map"), 0)
        assert kernels.player_score(state, 0) == value
    state = fresh(4, characters=[collector, 0, 2, 3])
    state[GOLD + 1] += state[GOLD + 0]
    state[GOLD + 0] = 0
    give(state, card_of(state, "Four-Leaf Clover"), 0)
    assert kernels.player_score(state, 0) == 1
    give(state, card_of(state, "Lucky Rock"), 0)
    assert kernels.player_score(state, 0) == 1 + 3 + 1  # the Lucky Rock combo: worth 3 more
    give(state, card_of(state, "Offering Bowl"), 0)
    give(state, card_of(state, "Ancient Statue"), 0)
    # Bowl 1 + 2 (Statue combo) + Collector 1; Statue 3 + Collector 2.
    assert kernels.player_score(state, 0) == 5 + (1 + 2 + 1) + (3 + 2)


def test_character_bonus_per_card_faq() -> None:
    """FAQ: the Collector and the Alchemist get their points for each treasure they collect."""
    alchemist = data.CHARACTER_NAMES.index("Alchemist")
    state = fresh(4, characters=[alchemist, 0, 1, 3])
    state[GOLD + 1] += state[GOLD + 0]
    state[GOLD + 0] = 0
    give(state, card_of(state, "Fortune Deck"), 0)
    assert kernels.player_score(state, 0) == 2 + 3
    give(state, card_of(state, "Fortune Deck"), 0)
    assert kernels.player_score(state, 0) == 2 * (2 + 3)


def _scored(name: str, abilities: int, gold: int = 0) -> np.ndarray:
    """A 4-player state with `name` in seat 0 holding `gold` coins, under the `abilities` reading."""
    character = data.CHARACTER_NAMES.index(name)
    state = fresh(4, characters=[character] + [c for c in range(7) if c != character][:3])
    state[GOLD + 1] += state[GOLD + 0] - gold
    state[GOLD + 0] = gold
    state[kernels.ABILITIES] = abilities
    return state


BONUS_ONLY, ASSUMED = data.ABILITIES_BONUS_ONLY, data.ABILITIES_ASSUMED


def test_abilities_default_to_bonus_only() -> None:
    default = raw_env()
    assert default.options["abilities"] == "bonus_only"
    default.reset(seed=0)  # its own env: the shared ENVS may not have been reset yet on this worker
    assert default.get_state()[kernels.ABILITIES] == BONUS_ONLY
    assumed = raw_env(abilities="assumed")
    assumed.reset(seed=0)
    assert assumed.get_state()[kernels.ABILITIES] == ASSUMED


def test_merchant_coins_and_treasure_points() -> None:
    """A Crown and 3 gold: the treasure is worth 5 (Crown 4 + the Merchant's 1) either way."""
    for abilities, coin in ((BONUS_ONLY, 1), (ASSUMED, data.TRADE_COIN_VALUE)):
        state = _scored("Merchant", abilities, gold=3)
        give(state, card_of(state, "Crown"), 0)
        points = np.array([kernels.player_score(state, p) for p in range(4)])
        assert points[0] == 5 + 3 * coin
        info = ENVS[4].game.extra_info(state, points, np.zeros(4, np.int64))
        assert info["treasure_points"][0] == 5


def test_gamblers_luck_takes_the_first_lost_call_in_time() -> None:
    """The Sarcophagus lost in round 0 comes before the Dice lost in round 1 (a lower card id)."""
    for abilities in (BONUS_ONLY, ASSUMED):
        state = _scored("Gambler", abilities)
        dice, sarcophagus = card_of(state, "Dice"), card_of(state, "Sarcophagus")
        assert dice < sarcophagus
        give(state, dice, 0)
        give(state, sarcophagus, 0)
        state[CARD_ROUND + dice], state[CARD_ROUND + sarcophagus] = 1, 0
        state[CARD_FLIP + dice] = state[CARD_FLIP + sarcophagus] = FLIP_LOST
        lucky = abilities == ASSUMED
        # Dice 1 + 2 (bonus); Sarcophagus 1, or 5 called right, + 2 (bonus).
        assert kernels.player_score(state, 0) == 3 + (5 if lucky else 1) + 2


def test_cartographer_and_exorcist_only_when_assumed() -> None:
    for abilities, maps_value, skull in ((BONUS_ONLY, 3, -3 + 2), (ASSUMED, 6, 0 + 2)):
        state = _scored("Cartographer", abilities)
        for _ in range(2):
            give(state, card_of(state, "Treasure Map"), 0)
        assert kernels.player_score(state, 0) == maps_value
        state = _scored("Exorcist", abilities)
        give(state, card_of(state, "Cursed Skull"), 0)
        assert kernels.player_score(state, 0) == skull


def test_the_mercenarys_threat_hinders_every_other_player() -> None:
    """abilities="assumed": each weapon the Mercenary holds costs every other player 1 point."""
    for abilities, cost in ((BONUS_ONLY, 0), (ASSUMED, 2)):
        state = _scored("Mercenary", abilities)
        before = [kernels.player_score(state, p) for p in range(4)]
        give(state, card_of(state, "Knife"), 0)
        give(state, card_of(state, "Whip"), 0)
        after = [kernels.player_score(state, p) for p in range(4)]
        assert after[0] == before[0] + (1 + 2) + (1 + 2)
        assert after[1:] == [b - cost for b in before[1:]]


def test_tie_breaks_gold_then_cards_then_shared() -> None:
    scores = np.array([10, 10, 10, 5])
    points = np.zeros(4, np.int32)
    from treasure_core.kernels import winners_mask

    assert winners_mask(scores, np.array([3 * 64 + 2, 2 * 64 + 9, 3 * 64 + 1, 0]), 4, points) == 1
    assert points.tolist() == [1, 0, 0, 0]
    assert winners_mask(scores, np.array([3 * 64 + 2, 2 * 64 + 9, 3 * 64 + 2, 0]), 4, points) == 2
    state = fresh(4)
    s, t = np.zeros(6, np.int64), np.zeros(6, np.int64)
    give(state, card_of(state, "Trinket"), 2)
    kernels.scores(state, s, t)
    assert t[2] == 3 * 64 + 1 and t[0] == 3 * 64


# -- hidden information and the drivers -------------------------------------------------------
def test_the_other_location_is_hidden_while_it_negotiates() -> None:
    state = fresh(4, seed=11)
    play(state, INNER, INNER, OUTER, OUTER)
    view = _observe(state, 2).copy()
    play(state, ASSIGN_BASE + 1)  # player 0 gives the Inner's first card to player 1
    play(state, ASSIGN_BASE + 1)  # player 2 (Outer) decides too, in the same sweep
    twin = state.copy()
    twin[kernels.NEG_ASSIGN + 0] = 0
    assert np.array_equal(_observe(twin, 2), _observe(state, 2))
    assert not np.array_equal(_observe(twin, 0), _observe(state, 0))
    assert not np.array_equal(view, _observe(state, 2))  # its own proposal changed


def test_parallel_env_takes_the_location_choice_in_one_step() -> None:
    env = TreasureParallelEnv(ENVS[4].game, num_players=4)
    observations, _ = env.reset(seed=12)
    assert env.deciding_seats() == [0, 1, 2, 3] and env.get_state()[PHASE] == PHASE_CHOOSE
    observations, *_ = env.step({f"player_{p}": INNER if p < 2 else OUTER for p in range(4)})
    state = env.get_state()
    assert state[PHASE] == PHASE_NEGOTIATE and [int(x) for x in state[LOCATION : LOCATION + 4]] == [
        0,
        0,
        1,
        1,
    ]
    assert env.deciding_seats() == [0, 2]  # both proposers at once


def test_hidden_information_in_every_phase() -> None:
    """The resample_hidden property at points of bot and random games in every phase and stage."""
    from treasure_core.conformance import hidden_information_case

    seen = set()
    for n in (3, 4, 5, 6):
        env = ENVS[n]
        for seed in range(2):
            env.reset(seed=seed)
            rng = np.random.default_rng(seed + 1)  # as the conformance suite's cases play
            points = []
            while not env.get_state()[TERMINAL]:
                state = env.get_state()
                loc = max(0, int(state[LOCATION + state[CURRENT_PLAYER]]))
                phase = (int(state[PHASE]), int(state[kernels.NEG_STAGE + loc]))
                if phase not in seen or phase[0] in (PHASE_FORCE, PHASE_CALL) or int(state[4]) % 9 == 0:
                    seen.add(phase)
                    points.append(int(state[4]))
                env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
            for decisions in points + [int(env.get_state()[4])]:
                hidden_information_case(
                    env.game,
                    {"num_players": n},
                    seed=seed,
                    decisions=decisions,
                    resample_seed=decisions,
                    player=decisions,
                )
    phases = {phase for phase, _ in seen}
    stages = {stage for phase, stage in seen if phase == PHASE_NEGOTIATE}
    assert phases == {PHASE_FORCE, PHASE_CHOOSE, PHASE_NEGOTIATE, PHASE_CALL}, phases
    assert stages >= {1, 2, 3, 4}, stages


def test_table_cards_are_public_and_the_deck_is_not() -> None:
    state = fresh(4, seed=13)
    assert all(state[CARD_PUBLIC + int(c)] for c in state[SLOT_CARD : SLOT_CARD + 10] if c >= 0)
    assert all(state[CARD_PLACE + int(c)] == PLACE_TABLE for c in state[SLOT_CARD : SLOT_CARD + 10] if c >= 0)
    twin = state.copy()
    kernels.resample_hidden(twin, 0, 99)
    assert not np.array_equal(twin[DECK : DECK + 52], state[DECK : DECK + 52])
    assert twin[CHARACTER + 0] == state[CHARACTER + 0]


@pytest.mark.parametrize("n", [3, 5])
def test_the_bot_beats_random_play(n: int) -> None:
    env = ENVS[n]
    wins = 0
    games = 40
    for g in range(games):
        seat = g % n
        agents = [TombBot(g) if p == seat else RandomAgent(g * 7 + p) for p in range(n)]
        wins += play_game(env, agents, seed=g)["winner"][seat]
    assert wins / games > 2 / n, f"the bot won {wins} of {games} against random players"
