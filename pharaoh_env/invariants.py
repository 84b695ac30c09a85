"""Invariants of a Het goud van de Farao state: the rules that must hold in every reachable
state, checked in pure Python and numpy, independently of the kernels (scores are recomputed
here). The conformance suite's fuzz calls check_invariants after every step.

check_invariants is also the consistency half of the state validator (GameSpec.check_state runs
it after every field was found in its range, state.STATE_FIELDS, and after validate_state): it
is safe on any state whose fields are in range, and checks everything a kernel indexes by before
it calls one (a seat below the player count, a figure on an open tile, a pending tile where the
phase needs one, the counts of photographs and treasures dealt, the collapse's rings)."""

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
    COLLAPSE_PLAYER,
    COLLAPSE_RING,
    END_COLLAPSE,
    END_CONDITION,
    END_NONE,
    FINDER,
    HELPER_CELL,
    IN_STACK,
    LAMP,
    LAMP_LOST,
    LAMP_SUPPLY,
    LAST_EVENT,
    LAST_PLAYER,
    LOST,
    LYING,
    MASK_CELL,
    MASK_TURN,
    N_ACTIONS,
    NOBODY,
    NOWHERE,
    OPEN,
    OPT_LAMPS,
    OPT_PHOTO,
    OPT_REACH,
    OPT_TIMER,
    OPT_TREASURES,
    P_LAMPS,
    P_PHOTO,
    P_REACH,
    P_TIMER,
    P_TREASURES,
    PENDING_CELL,
    PHASE,
    PHASE_ORIENT,
    PHASE_PHOTO,
    PHASE_PLAY,
    PHOTO_CHOICE,
    PHOTO_ORDER,
    PHOTO_OWNER,
    PHOTOS_TAKEN,
    REMOVED_CLOSED,
    REMOVED_OPEN,
    ROUNDS_DONE,
    SLOT_AT,
    SLOT_STATE,
    SLOT_VALUE,
    TIMER,
    TREASURES_DEALT,
    TURN,
)
from treasure_core.header import CURRENT_PLAYER, DECISIONS, NUM_PLAYERS, TERMINAL

# The most decisions in one turn: 3 actions, an orientation and a photograph after each discovery,
# a take or steal of each treasure slot (each once: what a player holds stays with it in its turn),
# and the pass. DECISIONS never exceeds it per turn begun.
MAX_DECISIONS_PER_TURN = 3 * data.ACTIONS_PER_TURN + data.NUM_SLOTS + 1

# (field name, state field, params slot, option) of each option the state keeps.
_OPTION_FIELDS = (
    ("OPT_PHOTO", OPT_PHOTO, P_PHOTO, "photo"),
    ("OPT_TREASURES", OPT_TREASURES, P_TREASURES, "treasures"),
    ("OPT_TIMER", OPT_TIMER, P_TIMER, "collapse_timer"),
    ("OPT_REACH", OPT_REACH, P_REACH, "rotate_reach"),
    ("OPT_LAMPS", OPT_LAMPS, P_LAMPS, "lamp_figures"),
)


def validate_state(state: np.ndarray, params: np.ndarray) -> str | None:
    """What in a state (fields in range) disagrees with the env's options, or None: the kernels
    read the options from the state, so a state of another option set is refused."""
    for name, field, slot, option in _OPTION_FIELDS:
        if int(state[field]) != int(params[slot]):
            return f"{name} is {int(state[field])}; the option {option} gives {int(params[slot])}"
    return None


def check_invariants(state: np.ndarray) -> None:
    """Raise AssertionError, naming the field, if the state breaks a rule that must always hold.
    Safe on any state whose fields are in their ranges (state.STATE_FIELDS)."""
    s = [int(x) for x in state.tolist()]
    n = s[NUM_PLAYERS]
    cells = data.NUM_CELLS
    assert data.MIN_PLAYERS <= n <= data.MAX_PLAYERS, f"NUM_PLAYERS is {n}"
    current = s[CURRENT_PLAYER]
    assert 0 <= current < n, f"CURRENT_PLAYER {current} with {n} players"
    terminal = s[TERMINAL]
    assert terminal in (0, 1), f"TERMINAL is {terminal}"
    phase = s[PHASE]
    assert phase in (PHASE_PLAY, PHASE_ORIENT, PHASE_PHOTO), f"PHASE is {phase}"
    used = s[ACTIONS_USED]
    assert 0 <= used <= data.ACTIONS_PER_TURN, f"ACTIONS_USED is {used}"
    turn = s[TURN]
    assert 0 <= turn <= data.TURN_CEILING, f"TURN is {turn}"
    assert s[ROUNDS_DONE] == turn // n, f"ROUNDS_DONE {s[ROUNDS_DONE]} after TURN {turn} turns"
    end = s[END_CONDITION]
    taken = s[PHOTOS_TAKEN]
    assert 0 <= taken <= data.NUM_PHOTOS, f"PHOTOS_TAKEN is {taken}"
    collapse = s[COLLAPSE]
    assert collapse in (0, 1), f"COLLAPSE is {collapse}"

    # Turns pass to the left from seat 0, one at a time; the last turn of a game does not pass on.
    if turn < data.TURN_CEILING:  # (a saturated counter no longer tells whose turn it is)
        assert current == (turn - terminal) % n, f"CURRENT_PLAYER {current} after TURN {turn}"
    decisions = s[DECISIONS]
    most = (turn + 1 - terminal) * MAX_DECISIONS_PER_TURN  # also keeps DECISIONS far from overflowing
    assert turn <= decisions <= most, f"DECISIONS {decisions} after TURN {turn} turns (at most {most})"
    if s[DECISIONS] == 0:
        assert s[LAST_EVENT] == 0, f"LAST_EVENT {s[LAST_EVENT]} before any decision"
    assert (s[LAST_PLAYER] == NOBODY) == (s[DECISIONS] == 0) and s[LAST_PLAYER] < n, (
        f"LAST_PLAYER {s[LAST_PLAYER]} after {s[DECISIONS]} decisions"
    )
    # The end: terminal iff an end condition, and only the collapse ends a game (the guard
    # truncates, in the drivers).
    assert (end != END_NONE) == bool(terminal), f"END_CONDITION {end} with TERMINAL {terminal}"
    if terminal:
        assert phase == PHASE_PLAY and used == 0, "a finished game mid-turn (PHASE, ACTIONS_USED)"
        assert end == END_COLLAPSE and collapse, "END_CONDITION collapse without the collapse"

    # The tiles: one of each, the start tile open on its cell, never rotated nor removed.
    tiles = s[CELL_TILE : CELL_TILE + cells]
    status = s[CELL_STATUS : CELL_STATUS + cells]
    assert sorted(tiles) == list(range(data.NUM_TILES)), "CELL_TILE does not hold the 36 tiles once each"
    assert tiles[data.START_CELL] == data.START_TILE, "CELL_TILE: the start tile off its cell"
    assert status[data.START_CELL] == OPEN and s[CELL_ROT + data.START_CELL] == 0, "the start tile"
    for cell in range(cells):
        rot, exits, tile = s[CELL_ROT + cell], s[CELL_EXITS + cell], tiles[cell]
        assert status[cell] in (CLOSED, OPEN, REMOVED_CLOSED, REMOVED_OPEN), f"CELL_STATUS[{cell}]"
        assert 0 <= rot < 4, f"CELL_ROT[{cell}] is {rot}"
        expected = int(data.ROTATED[data.TILE_EXITS[tile], rot]) if status[cell] == OPEN else 0
        assert exits == expected, f"CELL_EXITS[{cell}] is {exits}, expected {expected}"
        if status[cell] in (CLOSED, REMOVED_CLOSED):
            assert rot == 0, f"CELL_ROT[{cell}] is {rot} on a tile never opened"
    is_chamber = [int(data.TILE_KIND[tile]) == data.CHAMBER for tile in tiles]
    existing = {c for c in range(cells) if status[c] == OPEN}
    removed = [c for c in range(cells) if status[c] in (REMOVED_CLOSED, REMOVED_OPEN)]
    # Only the collapse removes tiles, figures, lamps and treasures.
    falling = bool(collapse)
    assert falling or not removed, "CELL_STATUS: tiles removed before the collapse"

    # Seats not in the game are all zero; figures of the others on open tiles or lost with one.
    for p in range(n, data.MAX_PLAYERS):
        for field, name in (
            (ARCH_CELL, "ARCH_CELL"),
            (HELPER_CELL, "HELPER_CELL"),
            (LAMP_SUPPLY, "LAMP_SUPPLY"),
            (LAMP_LOST, "LAMP_LOST"),
        ):
            assert s[field + p] == 0, f"{name}[{p}] is {s[field + p]} for a seat not in the game"
    for p in range(n):
        for field, name in ((ARCH_CELL, "ARCH_CELL"), (HELPER_CELL, "HELPER_CELL")):
            where = s[field + p]
            assert where in existing or (where == NOWHERE and falling), f"{name}[{p}] on cell {where}"
    # Each player's lamps: supply + on the board + lost = 5; lamps only on open pyramid tiles.
    lamps = np.asarray(state[LAMP : LAMP + data.MAX_PLAYERS * cells]).reshape(data.MAX_PLAYERS, cells)
    assert not lamps[n:].any(), "LAMP: lamps of a seat not in the game"
    for p in range(n):
        row = lamps[p].tolist()
        assert set(row) <= {0, 1}, f"LAMP[{p}] holds {sorted(set(row))}"
        on_board = [c for c in range(cells) if row[c]]
        supply, lost = s[LAMP_SUPPLY + p], s[LAMP_LOST + p]
        assert supply >= 0 and lost >= 0, f"LAMP_SUPPLY[{p}] {supply}, LAMP_LOST[{p}] {lost}"
        total = supply + len(on_board) + lost
        assert total == data.LAMPS_PER_PLAYER, f"player {p}'s lamps (LAMP_SUPPLY, LAMP, LAMP_LOST): {total}"
        assert falling or lost == 0, f"LAMP_LOST[{p}] is {lost} before the collapse"
        for c in on_board:
            assert c in existing and c != data.START_CELL, f"LAMP[{p}]: a lamp on cell {c}"

    # The phase and what it waits for: the tile just opened (orient), the chamber (photo).
    pending, chamber = s[PENDING_CELL], s[CHAMBER_CELL]
    arch_now = s[ARCH_CELL + current]
    if phase == PHASE_ORIENT:
        assert pending in existing and pending != data.START_CELL, f"PENDING_CELL {pending} (orient phase)"
        assert s[CELL_ROT + pending] == 0, "CELL_ROT: the tile to orient was turned already"
        assert arch_now == pending, "ARCH_CELL: the archaeologist is not on the tile it opened"
    else:
        assert pending == NOWHERE, f"PENDING_CELL {pending} outside the orient phase"
    if phase == PHASE_PHOTO:
        assert s[OPT_PHOTO] == PHOTO_CHOICE, "PHASE photo with option photo=random"
        assert chamber in existing and is_chamber[chamber], f"CHAMBER_CELL {chamber} in the photo phase"
        assert arch_now == chamber, "ARCH_CELL: the archaeologist is not in the chamber it found"
    else:
        assert chamber == NOWHERE, f"CHAMBER_CELL {chamber} outside the photo phase"
    if phase != PHASE_PLAY:
        assert used >= 1, f"ACTIONS_USED {used}: a tile opened without an action"

    # The camera: each photograph once; [:taken] the ones taken, each by a player in the game.
    photos = s[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS]
    assert sorted(photos) == list(range(data.NUM_PHOTOS)), f"PHOTO_ORDER is {photos}"
    owners = s[PHOTO_OWNER : PHOTO_OWNER + data.NUM_PHOTOS]
    for k, photo in enumerate(photos):
        owner = owners[photo]
        assert (owner != NOBODY) == (k < taken) and owner < n, f"PHOTO_OWNER[{photo}] is {owner}"
    # Chambers: one photograph per chamber found (the one awaiting its photograph aside).
    chambers_open = sum(1 for c in range(cells) if status[c] in (OPEN, REMOVED_OPEN) and is_chamber[c])
    waiting = phase == PHASE_PHOTO or (phase == PHASE_ORIENT and is_chamber[pending])
    assert chambers_open == taken + (1 if waiting else 0), (
        f"PHOTOS_TAKEN {taken} with {chambers_open} chambers open"
    )

    # Treasures conserved: the 8 values and the mask, slots dealt in order, photo by photo.
    values = s[SLOT_VALUE : SLOT_VALUE + data.NUM_SLOTS]
    assert sorted(values[: data.NUM_TREASURES]) == sorted(data.TREASURE_VALUES.tolist()), (
        f"SLOT_VALUE is {values}"
    )
    assert values[data.MASK_SLOT] == data.MASK_VALUE, f"SLOT_VALUE[{data.MASK_SLOT}] (the mask)"
    dealt = s[TREASURES_DEALT]
    expected_dealt = int(sum(data.PHOTO_TREASURES[photos[:taken]])) + (1 if taken == data.NUM_PHOTOS else 0)
    assert dealt == expected_dealt, f"TREASURES_DEALT {dealt} after the photographs {photos[:taken]}"
    for slot in range(data.NUM_SLOTS):
        where, at = s[SLOT_STATE + slot], s[SLOT_AT + slot]
        assert (where == IN_STACK) == (slot >= dealt), f"SLOT_STATE[{slot}] is {where}, {dealt} dealt"
        if where == LYING:  # no rule puts a treasure down: it lies where a photograph put it
            assert at in existing and is_chamber[at], f"SLOT_AT[{slot}]: lies on cell {at}"
        elif where == CARRIED:
            assert 0 <= at < n, f"SLOT_AT[{slot}]: carried by {at}"
            carrier = s[ARCH_CELL + at]  # never on the start tile: banked there
            assert carrier in existing - {data.START_CELL}, f"SLOT_AT[{slot}]: carried on {carrier}"
        elif where == BANKED:
            assert 0 <= at < n, f"SLOT_AT[{slot}]: banked by {at}"
        else:
            assert where in (IN_STACK, LOST) and at == NOWHERE, f"SLOT_STATE[{slot}] {where} at {at}"
            assert where != LOST or falling, f"SLOT_STATE[{slot}]: lost before the collapse"
    # Free takes and steals keep a turn going after its third action; nothing left ends it.
    if not terminal and phase == PHASE_PLAY and used == data.ACTIONS_PER_TURN:
        free = (
            arch_now >= 0
            and arch_now != data.START_CELL
            and any(
                (s[SLOT_STATE + slot] == LYING and s[SLOT_AT + slot] == arch_now)
                or (
                    s[SLOT_STATE + slot] == CARRIED
                    and s[SLOT_AT + slot] != current
                    and s[ARCH_CELL + s[SLOT_AT + slot]] == arch_now
                )
                for slot in range(data.NUM_SLOTS)
            )
        )
        assert free, "ACTIONS_USED 3 with nothing to take or steal, yet the turn goes on"

    # The mask and the collapse.
    mask_cell, finder = s[MASK_CELL], s[FINDER]
    if taken == data.NUM_PHOTOS:
        assert 0 <= mask_cell < cells and status[mask_cell] in (OPEN, REMOVED_OPEN), f"MASK_CELL {mask_cell}"
        assert is_chamber[mask_cell], f"MASK_CELL {mask_cell}: not a chamber"
        assert finder == owners[photos[-1]], f"FINDER {finder}: the last photograph's owner"
        assert 0 <= s[MASK_TURN] <= turn and finder == s[MASK_TURN] % n, f"MASK_TURN {s[MASK_TURN]}"
        assert 0 <= s[TIMER] <= data.COLLAPSE_DELAY, f"TIMER is {s[TIMER]}"
    else:
        assert mask_cell == NOWHERE and finder == NOBODY, f"MASK_CELL {mask_cell}, FINDER {finder}"
        assert s[MASK_TURN] == 0 and s[TIMER] == 0, f"MASK_TURN {s[MASK_TURN]}, TIMER {s[TIMER]}"
        assert not collapse, "COLLAPSE before the mask was found"
    ring, collapser = s[COLLAPSE_RING], s[COLLAPSE_PLAYER]
    if not collapse:
        assert ring == 0 and collapser == NOBODY, f"COLLAPSE_RING {ring}, COLLAPSE_PLAYER {collapser}"
        assert s[TIMER] < data.COLLAPSE_DELAY, f"TIMER {s[TIMER]} and no collapse"
        if taken == data.NUM_PHOTOS:
            # The mask lies in its chamber, or its holder has not left the chamber yet.
            where, at = s[SLOT_STATE + data.MASK_SLOT], s[SLOT_AT + data.MASK_SLOT]
            assert (where == LYING and at == mask_cell) or (
                where == CARRIED and s[ARCH_CELL + at] == mask_cell
            ), "SLOT_STATE: the mask left its chamber, yet no collapse"
    else:
        assert 0 <= collapser < n, f"COLLAPSE_PLAYER is {collapser}"
        assert 0 <= ring <= data.RING_DISTANCE.max() + 1, f"COLLAPSE_RING is {ring}"
        for c in range(cells):
            if c != data.START_CELL:
                gone = status[c] in (REMOVED_CLOSED, REMOVED_OPEN)
                assert gone == (data.RING_DISTANCE[mask_cell, c] < ring), (
                    f"CELL_STATUS[{c}] and COLLAPSE_RING {ring}"
                )

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
    if terminal:
        assert not standing, "CELL_STATUS: the game ended before only the start tile remained"
        assert all(s[SLOT_STATE + slot] in (IN_STACK, BANKED, LOST) for slot in range(data.NUM_SLOTS)), (
            "SLOT_STATE: a treasure left in a finished game"
        )
        return
    assert standing, "CELL_STATUS: only the start tile remains, yet the game goes on"
    mask = np.zeros(N_ACTIONS, np.int8)
    assert kernels.legal_mask(state, current, mask) > 0, "a live game with no legal action"
