"""Observation encoders: what one player may know, and the full-information view.

Every feature is in [0, 1]. All islands are public; seats in a player's observation are
relative (seat k is the player k places after the observer; k = 0 is the observer). Hidden:
the order of the undrawn tiles, and the other players' decisions on the tile showing.
docs/games/karuba.md names every slice; the *_LAYOUT tables below are the source of truth.
"""

import numpy as np

from karuba_env.data import (
    CRYSTAL,
    GOLD,
    MAX_PLAYERS,
    MAX_TREASURE,
    NUM_BEACH,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_JUNGLE,
    NUM_TILES,
    TILE_EXITS,
    TILE_ITEM,
    TREASURE_VALUES,
)
from karuba_env.state import (
    ADVENTURER_BEACH,
    ADVENTURER_POS,
    CELL_ITEM,
    CELL_TILE,
    CRYSTALS_COLLECTED,
    DRAFT_COLOUR,
    GOLD_COLLECTED,
    IN_TEMPLE,
    N_PLAY_ACTIONS,
    NO_ACTION,
    NO_COLOUR,
    NOT_PLACED,
    ON_BEACH,
    PENDING,
    PHASE,
    PHASE_DRAFT,
    STACK,
    STACK_TAKEN,
    TEMPLE_JUNGLE,
    TIE_CRYSTALS,
    TILES_REVEALED,
    TREASURE,
)
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL
from treasure_core.jit import njit
from treasure_core.layout import offsets

PLACES = NUM_CELLS + 2  # an adventurer's place: a cell, its beach space, or its temple
PLACE_BEACH = NUM_CELLS
PLACE_TEMPLE = NUM_CELLS + 1
MAX_CRYSTAL_TILES = 10  # crystal tiles in the set: the most crystals one island can hold
MAX_GOLD_TILES = 4
MAX_TIE_CRYSTALS = NUM_COLOURS * 3  # per colour at most top (5) minus bottom (2)

PUBLIC_LAYOUT = (
    ("adventurer_beach", NUM_COLOURS * NUM_BEACH),  # [colour, beach] one-hot; zeros until placed
    ("temple_jungle", NUM_COLOURS * NUM_JUNGLE),  # [colour, jungle] one-hot; zeros until placed
    ("draft_phase", 1),  # 1 while the colour pairs are being placed (layout="draft")
    ("draft_colour", NUM_COLOURS),  # the colour whose temple is to be placed next, one-hot
    ("treasure_left", NUM_COLOURS * MAX_PLAYERS),  # [colour, rank from the top] still in the stack
    ("top_treasure", NUM_COLOURS),  # value of the top treasure left / 5 (0 when none)
    ("current_tile", NUM_TILES),  # one-hot on the tile showing (number - 1); zeros in draft/at end
    ("current_exits", 4),  # its exits N, E, S, W
    ("current_item", 2),  # its crystal, gold
    ("tiles_revealed", NUM_TILES),  # [number - 1] revealed so far (the current one included)
    ("revealed_fraction", 1),  # tiles revealed / 36
)
ISLAND_LAYOUT = (  # one block per seat
    ("cell_exits", NUM_CELLS * 4),  # [cell, side N/E/S/W] exits of the tile laid there
    ("cell_item", NUM_CELLS * 2),  # [cell, crystal/gold] an item still lying there
    ("adventurer_place", NUM_COLOURS * PLACES),  # [colour, place] one-hot: cell, 30 beach, 31 temple
    ("temple_treasure", NUM_COLOURS),  # [colour] value of the temple treasure taken / 5
    ("crystals", 1),  # crystals collected from tiles / 10
    ("gold", 1),  # gold nuggets collected / 4
    ("tie_crystals", 1),  # crystals received for same-turn temple ties / 12
    ("tiles_laid", 1),  # tiles on the island / 30 (the tie-break)
)
ISLAND_SIZE = sum(size for _, size in ISLAND_LAYOUT)
OBS_LAYOUT = PUBLIC_LAYOUT + (
    ("islands", MAX_PLAYERS * ISLAND_SIZE),  # [relative seat] ISLAND_LAYOUT blocks
    ("seat_in_game", MAX_PLAYERS),  # relative seats that exist
    ("seat_to_act", MAX_PLAYERS),  # relative seat of the player to act, one-hot
)
FULL_LAYOUT = PUBLIC_LAYOUT + (
    ("islands", MAX_PLAYERS * ISLAND_SIZE),  # [seat] ISLAND_LAYOUT blocks, absolute seats
    ("seat_in_game", MAX_PLAYERS),
    ("seat_to_act", MAX_PLAYERS),
    ("pending", MAX_PLAYERS * N_PLAY_ACTIONS),  # [seat, action] decisions taken on the tile showing
    ("stack_order", NUM_TILES),  # [number - 1] place in the undrawn stack (1 = next) / 36; 0 if drawn
)


OBS = offsets(OBS_LAYOUT)
FULL = offsets(FULL_LAYOUT)
ISLAND = offsets(ISLAND_LAYOUT)
PUBLIC_SIZE = sum(size for _, size in PUBLIC_LAYOUT)
OBS_SIZE = sum(size for _, size in OBS_LAYOUT)
FULL_SIZE = sum(size for _, size in FULL_LAYOUT)

_ADV_BEACH = OBS["adventurer_beach"][0]
_TEMPLE_JUNGLE = OBS["temple_jungle"][0]
_DRAFT_PHASE = OBS["draft_phase"][0]
_DRAFT_COLOUR = OBS["draft_colour"][0]
_TREASURE_LEFT = OBS["treasure_left"][0]
_TOP_TREASURE = OBS["top_treasure"][0]
_CURRENT_TILE = OBS["current_tile"][0]
_CURRENT_EXITS = OBS["current_exits"][0]
_CURRENT_ITEM = OBS["current_item"][0]
_REVEALED = OBS["tiles_revealed"][0]
_REVEALED_FRACTION = OBS["revealed_fraction"][0]
_ISLANDS = OBS["islands"][0]  # the same offset in FULL
_OBS_SEATS = OBS["seat_in_game"][0]
_OBS_TO_ACT = OBS["seat_to_act"][0]
_FULL_SEATS = FULL["seat_in_game"][0]
_FULL_TO_ACT = FULL["seat_to_act"][0]
_PENDING = FULL["pending"][0]
_STACK_ORDER = FULL["stack_order"][0]
_CELL_EXITS = ISLAND["cell_exits"][0]
_CELL_ITEM = ISLAND["cell_item"][0]
_ADV_PLACE = ISLAND["adventurer_place"][0]
_TEMPLE_TREASURE = ISLAND["temple_treasure"][0]
_CRYSTALS = ISLAND["crystals"][0]
_GOLD = ISLAND["gold"][0]
_TIE_CRYSTALS = ISLAND["tie_crystals"][0]
_TILES_LAID = ISLAND["tiles_laid"][0]
assert FULL["islands"][0] == _ISLANDS
assert _OBS_TO_ACT == _OBS_SEATS + MAX_PLAYERS and _OBS_TO_ACT + MAX_PLAYERS == OBS_SIZE
assert TILE_EXITS[0] == 0  # a free field (tile 0) shows no exits
# [tile, side]: 1.0 where the tile has an exit on side N, E, S, W.
_EXIT_FLAGS = np.array([[(int(e) >> side) & 1 for side in range(4)] for e in TILE_EXITS], dtype=np.float32)
# [players, taken]: the top treasure's value / 5, as the float64 quotient rounds to float32.
_TOP_TREASURE_SCALED = (TREASURE_VALUES / MAX_TREASURE).astype(np.float32)


@njit(cache=True)
def write_public(state: np.ndarray, out: np.ndarray) -> None:
    out[:PUBLIC_SIZE] = 0.0
    n = state[NUM_PLAYERS]
    for c in range(NUM_COLOURS):
        if state[ADVENTURER_BEACH + c] != NOT_PLACED:
            out[_ADV_BEACH + c * NUM_BEACH + state[ADVENTURER_BEACH + c] - 1] = 1.0
        if state[TEMPLE_JUNGLE + c] != NOT_PLACED:
            out[_TEMPLE_JUNGLE + c * NUM_JUNGLE + state[TEMPLE_JUNGLE + c] - 1] = 1.0
        taken = state[STACK_TAKEN + c]
        for rank in range(taken, n):
            out[_TREASURE_LEFT + c * MAX_PLAYERS + rank] = 1.0
        if taken < n:
            out[_TOP_TREASURE + c] = _TOP_TREASURE_SCALED[n, taken]
    if state[PHASE] == PHASE_DRAFT:
        out[_DRAFT_PHASE] = 1.0
        if state[DRAFT_COLOUR] != NO_COLOUR:
            out[_DRAFT_COLOUR + state[DRAFT_COLOUR]] = 1.0
    revealed = state[TILES_REVEALED]
    for i in range(revealed):
        out[_REVEALED + state[STACK + i] - 1] = 1.0
    out[_REVEALED_FRACTION] = revealed / NUM_TILES
    if revealed > 0 and not state[TERMINAL]:
        tile = state[STACK + revealed - 1]
        out[_CURRENT_TILE + tile - 1] = 1.0
        for side in range(4):
            out[_CURRENT_EXITS + side] = _EXIT_FLAGS[tile, side]
        item = TILE_ITEM[tile]
        if item == CRYSTAL:
            out[_CURRENT_ITEM] = 1.0
        elif item == GOLD:
            out[_CURRENT_ITEM + 1] = 1.0


@njit(cache=True)
def write_island(state: np.ndarray, seat: int, out: np.ndarray, start: int) -> None:
    """Seat's island (public): tiles, items, adventurers, treasures and collected items, into
    out[start : start + ISLAND_SIZE], every feature written (no clearing first).

    For speed: the cells' slices go in the output's order, each value without a branch (a free
    field's tile 0 has no exits and holds no item), through views of the island's part of the
    state and of the output, which numba compiles to tighter loops than offsets into both."""
    row = out[start : start + ISLAND_SIZE]
    tiles = state[CELL_TILE + seat * NUM_CELLS : CELL_TILE + (seat + 1) * NUM_CELLS]
    items = state[CELL_ITEM + seat * NUM_CELLS : CELL_ITEM + (seat + 1) * NUM_CELLS]
    laid = 0
    for cell in range(NUM_CELLS):
        tile = tiles[cell]
        laid += tile != 0
        for side in range(4):
            row[_CELL_EXITS + cell * 4 + side] = _EXIT_FLAGS[tile, side]
    for cell in range(NUM_CELLS):
        here = tiles[cell] != 0
        item = items[cell]
        row[_CELL_ITEM + cell * 2] = here & (item == CRYSTAL)
        row[_CELL_ITEM + cell * 2 + 1] = here & (item == GOLD)
    row[_ADV_PLACE : _ADV_PLACE + NUM_COLOURS * PLACES] = 0.0
    for c in range(NUM_COLOURS):
        where = state[ADVENTURER_POS + seat * NUM_COLOURS + c]
        place = where
        if where == ON_BEACH:
            place = PLACE_BEACH
        elif where == IN_TEMPLE:
            place = PLACE_TEMPLE
        row[_ADV_PLACE + c * PLACES + place] = 1.0
        row[_TEMPLE_TREASURE + c] = state[TREASURE + seat * NUM_COLOURS + c] / MAX_TREASURE
    tie = 0
    for c in range(NUM_COLOURS):
        tie += state[TIE_CRYSTALS + seat * NUM_COLOURS + c]
    row[_CRYSTALS] = state[CRYSTALS_COLLECTED + seat] / MAX_CRYSTAL_TILES
    row[_GOLD] = state[GOLD_COLLECTED + seat] / MAX_GOLD_TILES
    row[_TIE_CRYSTALS] = tie / MAX_TIE_CRYSTALS
    row[_TILES_LAID] = laid / NUM_CELLS


@njit(cache=True)
def observe(state: np.ndarray, player: int, out: np.ndarray) -> None:
    """What `player` may know: everything but the undrawn order and others' pending decisions."""
    write_public(state, out)
    n = state[NUM_PLAYERS]
    for relative in range(MAX_PLAYERS):
        start = _ISLANDS + relative * ISLAND_SIZE
        if relative < n:
            seat = player + relative
            write_island(state, seat - n if seat >= n else seat, out, start)
        else:
            out[start : start + ISLAND_SIZE] = 0.0  # no such seat
    out[_OBS_SEATS : _OBS_SEATS + 2 * MAX_PLAYERS] = 0.0  # seat_in_game, seat_to_act
    for relative in range(n):
        out[_OBS_SEATS + relative] = 1.0
    out[_OBS_TO_ACT + (state[CURRENT_PLAYER] - player) % n] = 1.0


@njit(cache=True)
def full_state(state: np.ndarray, out: np.ndarray) -> None:
    """Everything, secrets included: for centralised critics and debugging."""
    write_public(state, out)
    out[PUBLIC_SIZE:] = 0.0
    n = state[NUM_PLAYERS]
    for seat in range(n):
        write_island(state, seat, out, _ISLANDS + seat * ISLAND_SIZE)
        out[_FULL_SEATS + seat] = 1.0
        if state[PENDING + seat] != NO_ACTION:
            out[_PENDING + seat * N_PLAY_ACTIONS + state[PENDING + seat]] = 1.0
    out[_FULL_TO_ACT + state[CURRENT_PLAYER]] = 1.0
    revealed = state[TILES_REVEALED]
    for i in range(revealed, NUM_TILES):
        out[_STACK_ORDER + state[STACK + i] - 1] = (i - revealed + 1) / NUM_TILES
