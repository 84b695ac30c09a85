"""The layout of a Treasures of Nakbe state: named offsets into the flat int32 array.

The shared header (treasure_core.header) comes first; the game's fields follow.
"""

from nakbe_env.data import MAX_PLAYERS, MAX_TOKEN_VALUE, NUM_EXPLORERS, NUM_SIDES, NUM_SPACES
from treasure_core.header import HEADER_SIZE, PARAMS_HEADER
from treasure_core.layout import Fields

# Positions: the track is 1..TRACK_LENGTHS[side]; these mark the places off it.
GUARDIAN_START = -1  # the Guardian's Room (temple) or the Stone Stairs (jungle)
START = 0  # the Treasure Chamber (temple) or the Jungle Entrance (jungle)
OFF_BOARD = -2  # caught or escaped: the explorer holds a scoring slot
EXITED = NUM_SPACES  # what a move returns when it passes the last space

# Sides of an explorer's space (EXPLORER_DARK).
LIGHT = 0
DARK = 1
IN_RIVER = 2  # counts as dark; the river holds it for one more round (Variants: The River)

NO_SLOT = -1
NO_TOKEN = -1
NOBODY = -1

# End conditions (rulebook "End of the Game"), per side in END_CONDITIONS.
END_NONE = 0
END_EXIT = 1  # A: an explorer leaves the temple
END_LAST_ONE = 2  # B: the second-to-last explorer is caught
END_LIGHTLESS = 3  # C: every remaining explorer is on a lightless space

# Jungle features (bits of FEATURES; options river, secret_passage, snakes).
FEATURE_RIVER = 1
FEATURE_PASSAGE = 2
FEATURE_SNAKES = 4

# Bits of LAST_EVENTS: what the last decision set off.
EVENT_TRAP = 1
EVENT_TREASURE = 2
EVENT_EXIT = 4
EVENT_ROUND_END = 8
EVENT_CATCH = 16  # the Guardian caught someone
EVENT_RIVER = 32
EVENT_PASSAGE = 64
EVENT_PASSAGE_CATCH = 128  # the passage brought the mover back to where the Guardian has been
EVENT_SNAKES = 256
EVENT_NEXT_GAME = 512  # An Endless Threat: the temple game ended and the jungle game began

# Game params (after the shared params header), written by env.py from the options.
P_FIRST_SIDE = PARAMS_HEADER  # TEMPLE or JUNGLE
P_CAMPAIGN = PARAMS_HEADER + 1  # 1: An Endless Threat, temple game then jungle game
P_FEATURES = PARAMS_HEADER + 2  # FEATURE_* bits

_fields = Fields(HEADER_SIZE)


SIDE = _fields.add(1)  # the side being played: TEMPLE or JUNGLE
CAMPAIGN = _fields.add(1)  # 1: An Endless Threat (after the temple game, the jungle game)
FEATURES = _fields.add(1)  # FEATURE_* bits in use on the jungle side
SNAKES_WAITING = _fields.add(1)  # 1 while the Snakes Token is on the board
DIE = _fields.add(1)  # face showing for the player to act (0 once the game is over)
GUARDIAN_POS = _fields.add(1)  # GUARDIAN_START, START or a track space
ROUND = _fields.add(1)  # round of the current game, from 1
END_CONDITIONS = _fields.add(NUM_SIDES)  # [side]: how the game on that side ended, END_*
LAST_PLAYER = _fields.add(1)
LAST_EXPLORER = _fields.add(1)
LAST_ROLL = _fields.add(1)
LAST_FROM = _fields.add(1)
LAST_TO = _fields.add(1)  # where the move ended (after a trap, before a passage), or EXITED
LAST_EVENTS = _fields.add(1)
LAST_CAUGHT = _fields.add(1)  # the last explorer caught in the last decision
EXPLORER_POS = _fields.add(NUM_EXPLORERS)
EXPLORER_DARK = _fields.add(NUM_EXPLORERS)  # LIGHT, DARK or IN_RIVER
EXPLORER_SLOT = _fields.add(NUM_SIDES * NUM_EXPLORERS)  # [side, explorer]: SLOT_VALUES index or NO_SLOT
TEAM_CARD = _fields.add(MAX_PLAYERS)  # seat p holds card TEAM_CARD[p]; seats >= players: the box
SPACE_TOKEN = _fields.add(NUM_SPACES)  # face-down token value per space of this side, or NO_TOKEN
TOKEN_KINDS = MAX_TOKEN_VALUE + 1  # values 0..3
BOX_TOKENS = _fields.add(NUM_SIDES * TOKEN_KINDS)  # [side, value]: tokens back in the box, unseen
TOKEN_VALUE_COUNTS = _fields.add(NUM_SIDES * MAX_PLAYERS * TOKEN_KINDS)  # [side, seat, value] held
MOVES_BY_SEAT = _fields.add(MAX_PLAYERS * NUM_EXPLORERS)  # [seat, explorer] -> moves made (public)
STATE_SIZE = _fields.size

SEAT_TOKENS = MAX_PLAYERS * TOKEN_KINDS  # the size of one side's block of TOKEN_VALUE_COUNTS


def check_invariants(state) -> None:
    """Raise AssertionError if the state breaks a rule that must always hold. Pure Python,
    independent of the kernels, for the fuzz tests."""
    import numpy as np

    from nakbe_env import data, kernels
    from treasure_core.header import CURRENT_PLAYER, DECISIONS, NUM_PLAYERS, TERMINAL

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
        other = 1 - side
        assert state[END_CONDITIONS + other] == END_NONE, "a single game plays one side only"
        assert (
            state[EXPLORER_SLOT + other * NUM_EXPLORERS : EXPLORER_SLOT + (other + 1) * NUM_EXPLORERS]
            == NO_SLOT
        ).all()
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
    assert moves.sum() == state[DECISIONS], "every decision is one move in the history"
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
    if not state[TERMINAL]:
        assert state[DIE] in data.DIE_FACES, f"die shows {state[DIE]}"
        mask = np.zeros(NUM_EXPLORERS, np.int8)
        assert kernels.legal_mask(state, mask) > 0, "a live game with no legal move"
