"""Invariants of a Het goud van de Farao state: the rules that must hold in every reachable
state, checked in pure Python and numpy, independently of the kernels (scores are recomputed
here). The conformance suite's fuzz calls check_invariants after every step."""

from __future__ import annotations

import numpy as np

from pharaoh_env import data, kernels
from pharaoh_env.state import (
    ACTIONS_USED,
    ARCH_CELL,
    BANKED,
    CARRIED,
    CELL_EXITS,
    CELL_ROT,
    CELL_STATUS,
    CELL_TILE,
    CHAMBER_CELL,
    CLOSED,
    COLLAPSE,
    COLLAPSE_RING,
    END_COLLAPSE,
    END_CONDITION,
    END_NONE,
    END_TURN_CAP,
    FINDER,
    HELPER_CELL,
    IN_STACK,
    LAMP,
    LAMP_LOST,
    LAMP_SUPPLY,
    LOST,
    LYING,
    MASK_CELL,
    N_ACTIONS,
    NOBODY,
    NOWHERE,
    OPEN,
    PENDING_CELL,
    PHASE,
    PHASE_ORIENT,
    PHASE_PHOTO,
    PHASE_PLAY,
    PHOTO_ORDER,
    PHOTO_OWNER,
    PHOTOS_TAKEN,
    REMOVED_CLOSED,
    REMOVED_OPEN,
    SLOT_AT,
    SLOT_STATE,
    SLOT_VALUE,
    TIMER,
    TREASURES_DEALT,
    TURN,
)
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL


def check_invariants(state: np.ndarray) -> None:
    """Raise AssertionError if the state breaks a rule that must always hold."""
    s = state.tolist()
    n = s[NUM_PLAYERS]
    cells = data.NUM_CELLS
    assert data.MIN_PLAYERS <= n <= data.MAX_PLAYERS, f"num_players {n}"
    assert 0 <= s[CURRENT_PLAYER] < n, "current player out of range"
    phase = s[PHASE]
    assert phase in (PHASE_PLAY, PHASE_ORIENT, PHASE_PHOTO), f"phase {phase}"
    assert 0 <= s[ACTIONS_USED] <= data.ACTIONS_PER_TURN, f"actions used {s[ACTIONS_USED]}"
    # The tiles: one of each, the start tile on its cell and never removed.
    tiles = s[CELL_TILE : CELL_TILE + cells]
    assert sorted(tiles) == list(range(data.NUM_TILES)), "the cells do not hold the 36 tiles"
    assert tiles[data.START_CELL] == data.START_TILE and s[CELL_STATUS + data.START_CELL] == OPEN
    status = s[CELL_STATUS : CELL_STATUS + cells]
    assert set(status) <= {CLOSED, OPEN, REMOVED_CLOSED, REMOVED_OPEN}, f"cell status {status}"
    for cell in range(cells):
        rot, exits = s[CELL_ROT + cell], s[CELL_EXITS + cell]
        expected = data.rotate_exits(int(data.TILE_EXITS[tiles[cell]]), rot) if status[cell] == OPEN else 0
        assert 0 <= rot < 4 and exits == expected, f"cell {cell}: exits {exits}, expected {expected}"
    existing = {c for c in range(cells) if status[c] == OPEN}
    # Figures only on existing open tiles (or removed with one).
    for p in range(data.MAX_PLAYERS):
        for field, name in ((ARCH_CELL, "archaeologist"), (HELPER_CELL, "helper")):
            where = s[field + p]
            if p >= n:
                assert where == 0, f"a {name} for seat {p}, not in the game"
            else:
                assert where == NOWHERE or where in existing, f"player {p}'s {name} on cell {where}"
    # Each player's lamps: supply + on the board + lost = 5; lamps only on open pyramid tiles.
    lamps = state[LAMP : LAMP + data.MAX_PLAYERS * cells].reshape(data.MAX_PLAYERS, cells)
    assert not lamps[n:].any(), "lamps of a seat not in the game"
    for p in range(n):
        on_board = [c for c in range(cells) if lamps[p, c]]
        assert set(lamps[p].tolist()) <= {0, 1}
        total = s[LAMP_SUPPLY + p] + len(on_board) + s[LAMP_LOST + p]
        assert total == data.LAMPS_PER_PLAYER and s[LAMP_SUPPLY + p] >= 0, f"player {p}'s lamps: {total}"
        for c in on_board:
            assert c in existing and c != data.START_CELL, f"player {p}'s lamp on cell {c}"
    # Treasures conserved: the 8 values and the mask, slots dealt in order.
    values = s[SLOT_VALUE : SLOT_VALUE + data.NUM_SLOTS]
    assert sorted(values[: data.NUM_TREASURES]) == sorted(data.TREASURE_VALUES.tolist()), f"values {values}"
    assert values[data.MASK_SLOT] == data.MASK_VALUE
    dealt = s[TREASURES_DEALT]
    taken = s[PHOTOS_TAKEN]
    photos = s[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS]
    assert sorted(photos) == list(range(data.NUM_PHOTOS)), f"the camera {photos}"
    expected_dealt = int(sum(data.PHOTO_TREASURES[photos[:taken]])) + (1 if taken == data.NUM_PHOTOS else 0)
    assert dealt == expected_dealt, f"{dealt} treasures in play after the photographs {photos[:taken]}"
    owners = s[PHOTO_OWNER : PHOTO_OWNER + data.NUM_PHOTOS]
    for k, photo in enumerate(photos):
        assert (owners[photo] != NOBODY) == (k < taken) and owners[photo] < n, f"photo {photo} owner"
    for slot in range(data.NUM_SLOTS):
        where, at = s[SLOT_STATE + slot], s[SLOT_AT + slot]
        assert (where == IN_STACK) == (slot >= dealt), f"slot {slot} state {where}, {dealt} dealt"
        if where == LYING:
            assert at in existing and at != data.START_CELL, f"slot {slot} lies on cell {at}"
        elif where == CARRIED:
            assert 0 <= at < n and s[ARCH_CELL + at] not in (NOWHERE, data.START_CELL), f"slot {slot} carrier"
        elif where == BANKED:
            assert 0 <= at < n, f"slot {slot} banked by {at}"
        else:
            assert where in (IN_STACK, LOST) and at == NOWHERE, f"slot {slot}: {where} at {at}"
    # Chambers: one photograph per chamber found (the one awaiting its photograph aside).
    chambers_open = sum(
        1
        for c in range(cells)
        if status[c] in (OPEN, REMOVED_OPEN) and data.TILE_KIND[tiles[c]] == data.CHAMBER
    )
    pending = s[PENDING_CELL]
    waiting = phase == PHASE_PHOTO or (
        phase == PHASE_ORIENT and data.TILE_KIND[tiles[pending]] == data.CHAMBER
    )
    assert chambers_open == taken + (1 if waiting else 0), (
        f"{chambers_open} chambers open, {taken} photographs"
    )
    if phase == PHASE_ORIENT:
        assert pending in existing and s[ARCH_CELL + s[CURRENT_PLAYER]] == pending
    else:
        assert pending == NOWHERE
    assert (s[CHAMBER_CELL] != NOWHERE) == (phase == PHASE_PHOTO)
    # The mask and the collapse.
    if taken == data.NUM_PHOTOS:
        assert s[MASK_CELL] != NOWHERE and 0 <= s[FINDER] < n
        assert 0 <= s[TIMER] <= data.COLLAPSE_DELAY
    else:
        assert s[MASK_CELL] == NOWHERE and s[COLLAPSE] == 0 and s[FINDER] == NOBODY
    removed = [c for c in range(cells) if status[c] in (REMOVED_CLOSED, REMOVED_OPEN)]
    if s[END_CONDITION] == END_TURN_CAP:
        assert s[TERMINAL] and s[TURN] >= data.MAX_TURNS, "the turn cap before its time"
    elif s[COLLAPSE]:
        centre, ring = s[MASK_CELL], s[COLLAPSE_RING]
        for c in range(cells):
            if c != data.START_CELL:
                gone = c in removed
                assert gone == (data.RING_DISTANCE[centre, c] < ring), f"cell {c} and ring {ring}"
    else:
        assert not removed, "tiles removed before the collapse"
    # Scores = photographs + banked values - penalties.
    points = np.zeros(n, np.int64)
    tiebreaks = np.zeros(n, np.int64)
    kernels.scores(state, points, tiebreaks)
    for p in range(n):
        expected = sum(1 for photo in range(data.NUM_PHOTOS) if owners[photo] == p)
        expected += sum(
            values[slot]
            for slot in range(data.NUM_SLOTS)
            if s[SLOT_STATE + slot] == BANKED and s[SLOT_AT + slot] == p
        )
        expected -= 2 * (s[ARCH_CELL + p] == NOWHERE) + (s[HELPER_CELL + p] == NOWHERE)
        assert points[p] == expected, f"player {p}'s score {points[p]} != {expected}"
    standing = [c for c in range(cells) if status[c] in (CLOSED, OPEN) and c != data.START_CELL]
    assert s[END_CONDITION] == (END_NONE if not s[TERMINAL] else s[END_CONDITION]), "end condition"
    assert s[TURN] <= data.MAX_TURNS, f"turn {s[TURN]} beyond the turn cap"
    if s[TERMINAL]:
        assert s[END_CONDITION] in (END_COLLAPSE, END_TURN_CAP), f"end condition {s[END_CONDITION]}"
        assert not standing, "the game ended before only the start tile remained"
        assert all(s[SLOT_STATE + slot] in (IN_STACK, BANKED, LOST) for slot in range(data.NUM_SLOTS)), (
            "treasure left"
        )
        return
    assert standing, "only the start tile remains, yet the game goes on"
    mask = np.zeros(N_ACTIONS, np.int8)
    assert kernels.legal_mask(state, s[CURRENT_PLAYER], mask) > 0, "a live game with no legal action"
