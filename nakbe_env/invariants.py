"""Invariants of a Treasures of Nakbe state: the rules that must hold in every reachable state,
checked in pure Python and numpy, independently of the kernels (scores are recomputed here).
The conformance suite's fuzz calls check_invariants after every step."""

from __future__ import annotations

import numpy as np

from nakbe_env import data, kernels
from nakbe_env.state import (
    BOX_TOKENS,
    CAMPAIGN,
    DARK,
    DIE,
    END_CONDITIONS,
    END_NONE,
    EXPLORER_DARK,
    EXPLORER_POS,
    EXPLORER_SLOT,
    FEATURE_RIVER,
    FEATURE_SNAKES,
    FEATURES,
    GUARDIAN_POS,
    GUARDIAN_START,
    IN_RIVER,
    LIGHT,
    MAX_DECISIONS,
    MAX_PLAYERS,
    MOVES_BY_SEAT,
    N_ACTIONS,
    NO_MOVE,
    NO_MOVES,
    NO_SLOT,
    NO_TOKEN,
    NUM_EXPLORERS,
    NUM_SPACES,
    OFF_BOARD,
    P_CAMPAIGN,
    P_FEATURES,
    P_FIRST_SIDE,
    P_TRAP_ORIGIN,
    ROUND,
    SEAT_TOKENS,
    SIDE,
    SNAKES_WAITING,
    SPACE_TOKEN,
    START,
    TEAM_CARD,
    TOKEN_KINDS,
    TOKEN_VALUE_COUNTS,
    TRAP_FROM_CHAMBER,
    TRAP_FROM_ROOM,
    TRAP_ORIGIN,
)
from treasure_core.header import CURRENT_PLAYER, DECISIONS, NUM_PLAYERS, TERMINAL


def validate_state(state: np.ndarray, params: np.ndarray) -> str | None:
    """What in a state (fields in range) disagrees with the env's options, or None."""
    campaign = int(params[P_CAMPAIGN])
    if int(state[CAMPAIGN]) != campaign:
        return f"CAMPAIGN is {int(state[CAMPAIGN])}; the option campaign gives {campaign}"
    if not campaign and int(state[SIDE]) != int(params[P_FIRST_SIDE]):
        return f"SIDE is {int(state[SIDE])}; the option board gives {int(params[P_FIRST_SIDE])}"
    jungle_ahead = campaign or int(params[P_FIRST_SIDE]) == data.JUNGLE
    features = int(params[P_FEATURES]) if jungle_ahead else 0
    if int(state[FEATURES]) != features:
        return f"FEATURES is {int(state[FEATURES])}; the jungle options (river, ...) give {features}"
    origin = int(params[P_TRAP_ORIGIN])
    if int(state[TRAP_ORIGIN]) != origin:
        return f"TRAP_ORIGIN is {int(state[TRAP_ORIGIN])}; the option trap_origin gives {origin}"
    return None


def check_invariants(state: np.ndarray) -> None:
    """Raise AssertionError if the state breaks a rule that must always hold."""
    n = int(state[NUM_PLAYERS])
    side = int(state[SIDE])
    all_slots = state[EXPLORER_SLOT : EXPLORER_SLOT + data.NUM_SIDES * NUM_EXPLORERS].reshape(
        data.NUM_SIDES, NUM_EXPLORERS
    )
    assert data.MAX_PLAYERS >= n >= 2, f"num_players {n}"
    assert 0 <= state[CURRENT_PLAYER] < n, "current player out of range"
    assert side in (data.TEMPLE, data.JUNGLE), f"side {side}"
    if state[CAMPAIGN]:
        assert state[TERMINAL] == 0 or side == data.JUNGLE, "a campaign ends only after the jungle game"
        assert (side == data.JUNGLE) == (state[END_CONDITIONS + data.TEMPLE] != END_NONE), "game order"
    else:
        assert state[END_CONDITIONS + 1 - side] == END_NONE, "a single game plays one side only"
    other = 1 - side
    if state[END_CONDITIONS + other] == END_NONE:
        assert (all_slots[other] == NO_SLOT).all(), f"slots on side {other}, which has not been played"
    assert bool(state[TERMINAL]) == (state[END_CONDITIONS + side] != END_NONE), "terminal iff this game ended"
    if side != data.JUNGLE or not state[FEATURES] & FEATURE_SNAKES:
        assert state[SNAKES_WAITING] == 0, "snakes only on the jungle side, when in use"
    track_length = int(data.TRACK_LENGTHS[side])
    flags = data.SPACE_FLAGS[side]
    positions = state[EXPLORER_POS : EXPLORER_POS + NUM_EXPLORERS]
    slots = all_slots[side]
    dark = state[EXPLORER_DARK : EXPLORER_DARK + NUM_EXPLORERS]
    guardian = int(state[GUARDIAN_POS])
    assert GUARDIAN_START <= guardian <= track_length, f"guardian at {guardian}"
    # Round 2 starts with the Guardian on space 0, and each round after moves it on (state.py,
    # MAX_ROUND): the round counter never outruns the Guardian.
    assert state[ROUND] - 2 <= guardian, f"round {state[ROUND]} with the Guardian at {guardian}"
    on_board = [int(p) for p in positions if p != OFF_BOARD]
    on_track = [p for p in on_board if p != START]
    # Explorers are on distinct spaces, except at the start.
    assert len(on_track) == len(set(on_track)), f"two explorers share a space: {positions}"
    for e in range(NUM_EXPLORERS):
        position, slot = int(positions[e]), int(slots[e])
        assert position == OFF_BOARD or START <= position <= track_length, f"explorer {e} at {position}"
        assert (position == OFF_BOARD) == (slot != NO_SLOT), f"explorer {e}: at {position} with slot {slot}"
        assert dark[e] in (LIGHT, DARK, IN_RIVER)
        if position == OFF_BOARD:
            assert dark[e] == LIGHT, f"explorer {e} is off the board, on its dark side"
            continue
        assert not flags[position] & data.TRAP, f"explorer {e} stays on a trap"
        if position == START:
            assert dark[e] == LIGHT, "an explorer at the start is never dark"
        if dark[e] == IN_RIVER:
            assert flags[position] & data.RIVER and state[FEATURES] & FEATURE_RIVER, "in a river off a river"
        if guardian >= START:
            assert position > guardian, f"explorer {e} at {position} is behind the Guardian at {guardian}"
        if state[SNAKES_WAITING]:
            assert position != data.JUNGLE_SNAKES, "an explorer sits on the Snakes Token"
    # Each slot of each side is assigned once; a finished side has every explorer on a slot.
    for s in range(data.NUM_SIDES):
        side_slots = [
            int(x)
            for x in state[EXPLORER_SLOT + s * NUM_EXPLORERS : EXPLORER_SLOT + (s + 1) * NUM_EXPLORERS]
            if x != NO_SLOT
        ]
        assert len(side_slots) == len(set(side_slots)), f"a slot is assigned twice on side {s}"
        finished = state[END_CONDITIONS + s] != END_NONE
        assert finished == (len(side_slots) == NUM_EXPLORERS), f"side {s}: finished iff all slots assigned"
        if not finished:
            # A catch that leaves one explorer ends the game.
            assert len(side_slots) <= NUM_EXPLORERS - 2, f"side {s}: a live game with one explorer left"
    # Tokens are conserved per side: board + box + held = that side's 15 tokens.
    held = state[TOKEN_VALUE_COUNTS : TOKEN_VALUE_COUNTS + data.NUM_SIDES * SEAT_TOKENS].reshape(
        data.NUM_SIDES, MAX_PLAYERS, TOKEN_KINDS
    )
    assert (held[:, n:] == 0).all(), "tokens held by a seat that is not in the game"
    full_set = np.bincount(data.TOKEN_VALUES, minlength=TOKEN_KINDS)
    for s in range(data.NUM_SIDES):
        counts = (
            held[s].sum(axis=0) + state[BOX_TOKENS + s * TOKEN_KINDS : BOX_TOKENS + (s + 1) * TOKEN_KINDS]
        )
        if s == side:
            for space in range(NUM_SPACES):
                value = int(state[SPACE_TOKEN + space])
                if value != NO_TOKEN:
                    assert flags[space] & data.TREASURE, f"token on a non-treasure space {space}"
                    counts[value] += 1
        played = s == side or state[END_CONDITIONS + s] != END_NONE
        expected = full_set if played else np.zeros(TOKEN_KINDS, np.int64)
        assert (counts == expected).all(), f"side {s}: tokens not conserved: {counts}"
    # The public move history counts every decision, by seats in the game only.
    moves = state[MOVES_BY_SEAT : MOVES_BY_SEAT + MAX_PLAYERS * NUM_EXPLORERS].reshape(
        MAX_PLAYERS, NUM_EXPLORERS
    )
    assert (moves >= 0).all() and (moves[n:] == 0).all(), "moves by a seat that is not in the game"
    assert state[NO_MOVES] >= 0, "turns passed"
    assert moves.sum() + state[NO_MOVES] == state[DECISIONS], "every decision is a move or a pass"
    assert state[DECISIONS] <= MAX_DECISIONS, f"{state[DECISIONS]} decisions: above {MAX_DECISIONS}"
    assert state[TRAP_ORIGIN] in (TRAP_FROM_CHAMBER, TRAP_FROM_ROOM), "trap origin"
    # Team cards are a deal of the 7 cards.
    assert sorted(state[TEAM_CARD : TEAM_CARD + MAX_PLAYERS]) == list(range(MAX_PLAYERS)), "team cards"
    # Score = team slots on both sides + token values from both sides.
    points = np.zeros(n, np.int64)
    tiebreaks = np.zeros(n, np.int64)
    kernels.scores(state, points, tiebreaks)
    for p in range(n):
        team = data.TEAM_CARDS[state[TEAM_CARD + p]]
        expected_tokens = int((held[:, p] * np.arange(TOKEN_KINDS)).sum())
        expected = expected_tokens + sum(
            int(data.SLOT_VALUES[all_slots[s, e]])
            for s in range(data.NUM_SIDES)
            for e in team
            if all_slots[s, e] != NO_SLOT
        )
        assert points[p] == expected and tiebreaks[p] == expected_tokens, f"score of player {p}"
    if state[TERMINAL]:
        assert state[DIE] == 0, f"the game is over and the die shows {state[DIE]}"
    else:
        assert state[DIE] in data.DIE_FACES, f"die shows {state[DIE]}"
        mask = np.zeros(N_ACTIONS, np.int8)
        player = int(state[CURRENT_PLAYER])
        assert kernels.legal_mask(state, player, mask) > 0, "a live game with no legal action"
        # "No move" only when every explorer on the board is dark and the die is not a 2.
        everyone_dark = all(
            positions[e] != START and dark[e] != LIGHT
            for e in range(NUM_EXPLORERS)
            if positions[e] != OFF_BOARD
        )
        assert bool(mask[NO_MOVE]) == (everyone_dark and state[DIE] != data.FREE_MOVE_FACE), "no move"
        assert not (mask[NO_MOVE] and mask[:NO_MOVE].any()), "no move beside a move"
