"""The Het goud van de Farao state validator (issue 18): a state handed in from outside (a
replay, a search tree, a data set) that no game can reach is a ValueError naming the field,
and changes nothing; before it, each of these reached a kernel: an index out of the state, a
read of the wrong tile, or a collapse that never ends. Fields' ranges: pharaoh_env.state;
how they must agree: pharaoh_env.invariants."""

from __future__ import annotations

import numpy as np
import pytest

from pharaoh_env import data
from pharaoh_env.env import GAME, raw_env
from pharaoh_env.invariants import MAX_DECISIONS_PER_TURN
from pharaoh_env.state import (
    ARCH_CELL,
    CARRIED,
    CELL_STATUS,
    CELL_TILE,
    COLLAPSE,
    COLLAPSE_RING,
    LYING,
    NOWHERE,
    OPEN,
    OPT_PHOTO,
    PENDING_CELL,
    PHASE,
    PHASE_ORIENT,
    PHOTOS_TAKEN,
    SLOT_AT,
    SLOT_STATE,
    STATE_FIELDS,
    TREASURES_DEALT,
    TURN,
)
from treasure_core.batch import BatchRunner
from treasure_core.header import CURRENT_PLAYER, DECISIONS, HEADER_SIZE, TERMINAL

INT32_MAX = 2**31 - 1

ENV = raw_env(num_players=2)
RUNNER = BatchRunner(GAME, 2, seed=0, num_threads=1, num_players=2)


def _played(seed: int, until=lambda state: False, steps: int = 10**6) -> np.ndarray:
    """A real 2-player state: random play from `seed` until `until` holds (or `steps` decisions)."""
    ENV.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        state = ENV.get_state()
        if ENV.is_over() or until(state):
            break
        ENV.step(int(rng.choice(ENV.legal_actions())))
    return ENV.get_state()


def _refused(state: np.ndarray, field: str) -> str:
    """set_state and set_states refuse `state` with a ValueError naming `field`, changing nothing."""
    ENV.reset(seed=1)
    before, seat = ENV.get_state(), ENV.agent_selection
    with pytest.raises(ValueError, match=field) as error:
        ENV.set_state(state)
    assert np.array_equal(ENV.get_state(), before) and ENV.agent_selection == seat
    batch_before = RUNNER.states.copy()
    with pytest.raises(ValueError, match=field):
        RUNNER.set_states(np.stack([state, state]))
    assert np.array_equal(RUNNER.states, batch_before)
    return str(error.value)


@pytest.mark.parametrize(
    ("field", "offset", "value"),
    [
        ("ARCH_CELL", ARCH_CELL, INT32_MAX),  # observe wrote the archaeologist past the observation
        ("SLOT_AT", SLOT_AT, 10**6),
        ("CELL_TILE", CELL_TILE + 3, -100),  # TILE_EXITS[-100]
        ("PHASE", PHASE, 7),
        ("COLLAPSE_RING", COLLAPSE_RING, 12),
    ],
)
def test_a_word_out_of_its_fields_range_is_refused(field: str, offset: int, value: int) -> None:
    state = _played(0, steps=30)
    state[offset] = value
    message = _refused(state, field)
    assert str(value) in message and "it must be from" in message, message


def test_another_option_sets_state_is_refused() -> None:
    state = _played(0, steps=5)
    state[OPT_PHOTO] = 1  # photo=choice, while the env plays photo=random
    assert "option photo" in _refused(state, "OPT_PHOTO")


def test_a_seat_not_in_the_game_is_refused() -> None:
    state = _played(0, steps=5)
    state[ARCH_CELL + 3] = data.START_CELL  # a figure for seat 3 of 2
    _refused(state, r"ARCH_CELL\[3\]")
    state = _played(0, steps=5)
    state[CURRENT_PLAYER] = 3
    _refused(state, "CURRENT_PLAYER")


def test_the_orient_phase_without_a_tile_to_orient_is_refused() -> None:
    """orient_legal_mask reads the tile of PENDING_CELL: NOWHERE read the slot before CELL_TILE."""
    state = _played(0, until=lambda s: s[PHASE] == 0 and s[TURN] >= 2)
    state[PHASE] = PHASE_ORIENT
    _refused(state, "PENDING_CELL")


def test_the_start_tile_as_the_tile_to_orient_is_refused() -> None:
    state = _played(2, until=lambda s: s[PHASE] == PHASE_ORIENT)
    assert state[PHASE] == PHASE_ORIENT
    state[PENDING_CELL] = data.START_CELL  # the start tile is never turned over
    _refused(state, "PENDING_CELL")


def test_treasures_dealt_must_follow_the_photographs() -> None:
    """resolve_photo deals slot TREASURES_DEALT onwards: too many dealt wrote past the slots."""
    state = _played(0, until=lambda s: s[PHOTOS_TAKEN] >= 2)
    assert state[PHOTOS_TAKEN] >= 2
    state[TREASURES_DEALT] = data.NUM_SLOTS
    _refused(state, "TREASURES_DEALT")


def test_a_treasure_lies_only_in_a_chamber_and_is_carried_only_by_a_player() -> None:
    state = _played(0, until=lambda s: (s[SLOT_STATE : SLOT_STATE + data.NUM_SLOTS] == LYING).any())
    slot = int(np.flatnonzero(state[SLOT_STATE : SLOT_STATE + data.NUM_SLOTS] == LYING)[0])
    corridor = next(
        c
        for c in range(data.NUM_CELLS)
        if state[CELL_STATUS + c] == OPEN
        and c != data.START_CELL
        and data.TILE_KIND[state[CELL_TILE + c]] == data.CORRIDOR
    )
    moved = state.copy()
    moved[SLOT_AT + slot] = corridor
    _refused(moved, "SLOT_AT")
    carried = state.copy()
    carried[SLOT_STATE + slot] = CARRIED
    carried[SLOT_AT + slot] = 3  # carried by seat 3 of 2: ARCH_CELL + 3 is a seat not in the game
    _refused(carried, "SLOT_AT")


SEED_COLLAPSING = 0  # a random 2-player game that reaches the collapse


def test_a_collapse_whose_rings_disagree_with_the_pyramid_is_refused() -> None:
    """collapse_ring removes the next ring until something falls: a ring past cells still
    standing looped for ever."""
    state = _played(SEED_COLLAPSING, until=lambda s: s[COLLAPSE] == 1 and not s[TERMINAL])
    assert state[COLLAPSE] and not state[TERMINAL], f"seed {SEED_COLLAPSING} has changed: pick another game"
    GAME.check_state(state, ENV.params)
    state[COLLAPSE_RING] = data.RING_DISTANCE.max() + 1
    _refused(state, "COLLAPSE_RING")


def test_decisions_near_overflow_are_refused() -> None:
    """DECISIONS = 2**31 - 1 is in the header's range, but the next decision wrapped it."""
    state = _played(0, steps=30)
    state[DECISIONS] = INT32_MAX
    _refused(state, "DECISIONS")
    state[DECISIONS] = (int(state[TURN]) + 1) * MAX_DECISIONS_PER_TURN + 1
    _refused(state, "DECISIONS")


def test_garbage_is_refused_and_a_consistent_edit_plays_on() -> None:
    rng = np.random.default_rng(0)
    garbage = rng.integers(-(2**31), INT32_MAX, ENV.get_state().size, endpoint=True).astype(np.int32)
    garbage[:HEADER_SIZE] = _played(0, steps=1)[:HEADER_SIZE]  # past the header, into the fields
    _refused(garbage, "bad state")
    # The archaeologist of the seat not to act, carrying nothing, put on another open tile: a
    # state the game can play on.
    state = _played(1, until=lambda s: s[TURN] >= 6 and s[PHASE] == 0)
    seat = 1 - int(state[CURRENT_PLAYER])
    opened = [
        c
        for c in range(data.NUM_CELLS)
        if state[CELL_STATUS + c] == OPEN and c not in (data.START_CELL, int(state[ARCH_CELL + seat]))
    ]
    carrying = (state[SLOT_STATE : SLOT_STATE + data.NUM_SLOTS] == CARRIED) & (
        state[SLOT_AT : SLOT_AT + data.NUM_SLOTS] == seat
    )
    assert opened and not carrying.any(), "seed 1 has changed: pick another state"
    state[ARCH_CELL + seat] = opened[0]
    ENV.set_state(state)
    assert np.array_equal(ENV.get_state(), state)
    for player in range(2):
        GAME.check_state(ENV.resample_hidden(player, player), ENV.params)
    rng = np.random.default_rng(1)
    while not ENV.is_over():
        ENV.step(int(rng.choice(ENV.legal_actions())))
        GAME.check_invariants(ENV.get_state())


def test_every_field_is_named_with_its_range() -> None:
    names = [part.name for part in STATE_FIELDS]
    assert len(names) == len(set(names)) and GAME.state_fields == STATE_FIELDS
    assert all(part.low <= part.high for part in STATE_FIELDS)
    assert NOWHERE == -1 and {part.name: part.low for part in STATE_FIELDS}["ARCH_CELL"] == NOWHERE
