"""The layout of a Treasures of Nakbe state: named offsets into the flat int32 array.

The shared header (treasure_core.header) comes first; the game's fields follow.
"""

from nakbe_env.data import MAX_PLAYERS, MAX_TOKEN_VALUE, NUM_EXPLORERS, TOKENS_RETURNED, TRACK_LENGTH
from treasure_core.header import HEADER_SIZE

# Positions: the track is 1..TRACK_LENGTH; these mark the places off it.
GUARDIAN_ROOM = -1
CHAMBER = 0
OFF_BOARD = -2  # caught or escaped: the explorer holds a scoring slot
EXITED = TRACK_LENGTH + 1  # what a move returns when it passes the last space

NO_SLOT = -1
NO_TOKEN = -1
NOBODY = -1

# End conditions (rulebook "End of the Game").
END_NONE = 0
END_EXIT = 1  # A: an explorer leaves the temple
END_LAST_ONE = 2  # B: the Guardian catches the second-to-last explorer
END_LIGHTLESS = 3  # C: every remaining explorer is on a lightless space

# Bits of LAST_EVENTS: what the last decision set off.
EVENT_TRAP = 1
EVENT_TREASURE = 2
EVENT_EXIT = 4
EVENT_ROUND_END = 8
EVENT_CATCH = 16

_offset = HEADER_SIZE


def _field(size: int) -> int:
    global _offset
    start = _offset
    _offset += size
    return start


DIE = _field(1)  # face showing for the player to act (0 once the game is over)
GUARDIAN_POS = _field(1)  # GUARDIAN_ROOM, CHAMBER or a track space
ROUND = _field(1)
END_CONDITION = _field(1)
LAST_PLAYER = _field(1)
LAST_EXPLORER = _field(1)
LAST_ROLL = _field(1)
LAST_FROM = _field(1)
LAST_TO = _field(1)  # where the move ended (after a trap), or EXITED
LAST_EVENTS = _field(1)
LAST_CAUGHT = _field(1)  # the last explorer the Guardian caught in the last decision
EXPLORER_POS = _field(NUM_EXPLORERS)
EXPLORER_DARK = _field(NUM_EXPLORERS)  # 1: on the dark side of its space
EXPLORER_SLOT = _field(NUM_EXPLORERS)  # index into SLOT_VALUES, or NO_SLOT
TEAM_CARD = _field(MAX_PLAYERS)  # seat p holds card TEAM_CARD[p]; seats >= players: the box
SPACE_TOKEN = _field(TRACK_LENGTH + 1)  # face-down token value per space, or NO_TOKEN
RETURNED_TOKENS = _field(TOKENS_RETURNED)  # values of the tokens returned unseen
TOKEN_VALUE_COUNTS = _field(MAX_PLAYERS * (MAX_TOKEN_VALUE + 1))  # [seat, value] -> tokens held
MOVES_BY_SEAT = _field(MAX_PLAYERS * NUM_EXPLORERS)  # [seat, explorer] -> moves made (public)
STATE_SIZE = _offset

TOKEN_KINDS = MAX_TOKEN_VALUE + 1  # values 0..3


def check_invariants(state) -> None:
    """Raise AssertionError if the state breaks a rule that must always hold. Pure Python,
    independent of the kernels, for the fuzz tests."""
    import numpy as np

    from nakbe_env import data, kernels
    from treasure_core.header import CURRENT_PLAYER, DECISIONS, NUM_PLAYERS, TERMINAL

    n = int(state[NUM_PLAYERS])
    assert data.MAX_PLAYERS >= n >= 2, f"num_players {n}"
    assert 0 <= state[CURRENT_PLAYER] < n, "current player out of range"
    positions = state[EXPLORER_POS : EXPLORER_POS + NUM_EXPLORERS]
    slots = state[EXPLORER_SLOT : EXPLORER_SLOT + NUM_EXPLORERS]
    dark = state[EXPLORER_DARK : EXPLORER_DARK + NUM_EXPLORERS]
    guardian = int(state[GUARDIAN_POS])
    assert GUARDIAN_ROOM <= guardian <= TRACK_LENGTH, f"guardian at {guardian}"
    on_board = [int(p) for p in positions if p != OFF_BOARD]
    on_track = [p for p in on_board if p != CHAMBER]
    # Explorers are on distinct spaces, except in the chamber.
    assert len(on_track) == len(set(on_track)), f"two explorers share a space: {positions}"
    for e in range(NUM_EXPLORERS):
        position, slot = int(positions[e]), int(slots[e])
        assert position == OFF_BOARD or CHAMBER <= position <= TRACK_LENGTH, f"explorer {e} at {position}"
        assert (position == OFF_BOARD) == (slot != NO_SLOT), f"explorer {e}: at {position} with slot {slot}"
        assert dark[e] in (0, 1)
        if position == CHAMBER:
            assert dark[e] == 0, "an explorer in the chamber is never dark"
        if position != OFF_BOARD and guardian >= CHAMBER:
            assert position > guardian, f"explorer {e} at {position} is behind the Guardian at {guardian}"
    # Each slot is assigned once; at the end every explorer holds one.
    taken = [int(s) for s in slots if s != NO_SLOT]
    assert len(taken) == len(set(taken)), f"a slot is assigned twice: {slots}"
    assert bool(state[TERMINAL]) == (len(taken) == NUM_EXPLORERS), "terminal iff all slots assigned"
    # Tokens are conserved: board + returned + held = the 15 tokens.
    counts = np.zeros(TOKEN_KINDS, np.int64)
    for space in range(TRACK_LENGTH + 1):
        value = int(state[SPACE_TOKEN + space])
        if value != NO_TOKEN:
            assert data.IS_TREASURE[space], f"token on a non-treasure space {space}"
            counts[value] += 1
    for i in range(TOKENS_RETURNED):
        counts[state[RETURNED_TOKENS + i]] += 1
    held = state[TOKEN_VALUE_COUNTS : TOKEN_VALUE_COUNTS + MAX_PLAYERS * TOKEN_KINDS].reshape(
        MAX_PLAYERS, TOKEN_KINDS
    )
    assert (held[n:] == 0).all(), "tokens held by a seat that is not in the game"
    counts += held.sum(axis=0)
    assert (counts == np.bincount(data.TOKEN_VALUES, minlength=TOKEN_KINDS)).all(), (
        f"tokens not conserved: {counts}"
    )
    # The public move history counts every decision, by seats in the game only.
    moves = state[MOVES_BY_SEAT : MOVES_BY_SEAT + MAX_PLAYERS * NUM_EXPLORERS].reshape(
        MAX_PLAYERS, NUM_EXPLORERS
    )
    assert (moves >= 0).all() and (moves[n:] == 0).all(), "moves by a seat that is not in the game"
    assert moves.sum() == state[DECISIONS], "every decision is one move in the history"
    # Team cards are a deal of the 7 cards.
    assert sorted(state[TEAM_CARD : TEAM_CARD + MAX_PLAYERS]) == list(range(MAX_PLAYERS)), "team cards"
    # Score = team slots + token values.
    points = np.zeros(n, np.int64)
    tiebreaks = np.zeros(n, np.int64)
    kernels.scores(state, points, tiebreaks)
    for p in range(n):
        team = data.TEAM_CARDS[state[TEAM_CARD + p]]
        expected_tokens = int((held[p] * np.arange(TOKEN_KINDS)).sum())
        expected = sum(int(data.SLOT_VALUES[slots[e]]) for e in team if slots[e] != NO_SLOT) + expected_tokens
        assert points[p] == expected and tiebreaks[p] == expected_tokens, f"score of player {p}"
    if not state[TERMINAL]:
        assert state[DIE] in data.DIE_FACES, f"die shows {state[DIE]}"
        mask = np.zeros(NUM_EXPLORERS, np.int8)
        assert kernels.legal_mask(state, mask) > 0, "a live game with no legal move"
