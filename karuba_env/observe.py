"""Observation encoders: what one player may know, and the full-information view.

Every feature is in [0, 1]. All islands are public; seats in a player's observation are
relative (seat k is the player k places after the observer; k = 0 is the observer). Hidden:
the order of the undrawn tiles, and the other players' decisions on the tile showing.
docs/games/karuba.md names every slice; the *_LAYOUT tables below are the source of truth.

The observation ends with a preview of what each legal decision would do to the observer's
adventurers (write_preview) and their distances to their temples, both by the scripted bot's
estimate (kernels.temple_distance) and from the observer's own island and the tile showing
alone: a policy need not find paths over one-hot fields itself.
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from karuba_env.data import (
    BEACH_CELL,
    BEACH_SIDE,
    CRYSTAL,
    GOLD,
    ITEM_POINTS,
    JUNGLE_CELL,
    JUNGLE_SIDE,
    MAX_PLAYERS,
    MAX_TREASURE,
    NUM_BEACH,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_JUNGLE,
    NUM_TILES,
    TILE_EXIT_COUNT,
    TILE_EXITS,
    TILE_ITEM,
    TREASURE_VALUES,
)
from karuba_env.kernels import (
    ALL_FIELDS,
    DEAREST,
    FAR,
    LANE,
    LIMIT,
    UNREACHABLE,
    cost_at,
    current_tile,
    island_distance,
    island_paths,
    island_sides,
    new_scratch,
    others_blocking,
    path_reach,
    paths_of,
    paths_with,
    reachable_targets,
    temple_reach,
    tile_joins,
    tile_links,
    way_costs,
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
    MOVE_TARGETS,
    N_PLAY_ACTIONS,
    NO_ACTION,
    NO_COLOUR,
    NO_TILE,
    NOT_PLACED,
    ON_BEACH,
    PENDING,
    PHASE,
    PHASE_DRAFT,
    PHASE_PLAY,
    STACK,
    STACK_TAKEN,
    TEMPLE_JUNGLE,
    TEMPLE_TARGET,
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
MAX_ITEM_POINTS = int(ITEM_POINTS.max())  # a gold nugget
# The preview's features, by decision (write_preview); a distance is temple_distance's estimate.
PLACE_CLOSER = 0  # laying the tile there shortens the adventurer's way by this / PREVIEW_GAIN_SCALE
PLACE_FARTHER = 1  # ... lengthens it by this (a tile turning its back on the way) / PREVIEW_GAIN_SCALE
PLACE_COMPLETES = 2  # ... joins the adventurer to its temple by laid paths (not joined before)
PLACE_ITEM = 3  # ... puts the tile's item where the adventurer can walk over laid paths: points / 2
PLACE_FEATURES = 4
MOVE_CLOSER = 0  # the move shortens the adventurer's way by this / PREVIEW_GAIN_SCALE
MOVE_FARTHER = 1  # ... lengthens it by this (walking away, for an item) / PREVIEW_GAIN_SCALE
MOVE_DISTANCE = 2  # the distance left from the target / UNREACHABLE: 0 in the temple
MOVE_TREASURE = 3  # the temple treasure it takes / 5 (above 0 exactly for the temple)
MOVE_ITEM = 4  # the item it collects on the target: points / 2
MOVE_FEATURES = 5
PREVIEW_GAIN_SCALE = 8.0  # steps: two free fields' worth (a gain beyond it reads 1)

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
    # [cell, colour, PLACE_*]: laying the tile showing on that free field, for each adventurer
    ("place_preview", NUM_CELLS * NUM_COLOURS * PLACE_FEATURES),
    # [colour, target, MOVE_*]: discarding it and moving that adventurer there (the move block's order)
    ("move_preview", NUM_COLOURS * MOVE_TARGETS * MOVE_FEATURES),
    ("adventurer_distance", NUM_COLOURS),  # [colour] its distance to its temple / 30: 0 in it
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
# previews=False: the observation stops where the preview starts (karuba_v1's 1,464 features).
OBS_SIZE_WITHOUT_PREVIEWS = OBS["place_preview"][0]
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
_PLACE_PREVIEW = OBS["place_preview"][0]
_MOVE_PREVIEW = OBS["move_preview"][0]
_DISTANCE = OBS["adventurer_distance"][0]
_CELL_EXITS = ISLAND["cell_exits"][0]
_CELL_ITEM = ISLAND["cell_item"][0]
_ADV_PLACE = ISLAND["adventurer_place"][0]
_TEMPLE_TREASURE = ISLAND["temple_treasure"][0]
_CRYSTALS = ISLAND["crystals"][0]
_GOLD = ISLAND["gold"][0]
_TIE_CRYSTALS = ISLAND["tie_crystals"][0]
_TILES_LAID = ISLAND["tiles_laid"][0]
assert FULL["islands"][0] == _ISLANDS
assert _OBS_TO_ACT == _OBS_SEATS + MAX_PLAYERS and _OBS_TO_ACT + MAX_PLAYERS == _PLACE_PREVIEW
assert _DISTANCE + NUM_COLOURS == OBS_SIZE  # observe clears the preview's slices as one
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
    """What `player` may know: everything but the undrawn order and others' pending decisions.
    The preview only when `out` holds it (OBS_SIZE; OBS_SIZE_WITHOUT_PREVIEWS: none)."""
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
    if out.size < OBS_SIZE:
        return  # previews=False: the driver's out (GAME.dims) stops before the preview
    out[_PLACE_PREVIEW:] = 0.0  # place_preview, move_preview, adventurer_distance
    if not write_preview(state, player, out):  # which writes the distances when it previews
        write_distances(state, player, out)


# write_preview's working array: spread's costs 0 .. LIMIT, then way_fields' pad (a backward
# cost FAR, and the costs past it that it looks up: zeros; at most a distance below LIMIT and
# a field's cost), then a copy of the island to lay the tile on (trial: int32 like the state's
# own island, so island_distance compiles for one integer width; one allocation a call).
_REACHED_SIZE = LIMIT + DEAREST
assert _REACHED_SIZE > FAR
_TRIAL = _REACHED_SIZE
_TRIAL_WORDS = (NUM_CELLS + 1) // 2  # int64 words holding NUM_CELLS int32 fields


@njit(cache=True)
def write_preview(state: np.ndarray, player: int, out: np.ndarray) -> bool:
    """What each legal decision of `player` on the tile showing would do to its adventurers'
    ways to their temples, by temple_distance's estimate (the scripted bot's), from its own
    island, the tile and the treasure stacks alone; the features of illegal decisions stay 0.
    Writes its adventurer_distance on the way; False when it has no decision to preview (the
    draft, the end, or it has decided) and wrote nothing."""
    n = state[NUM_PLAYERS]
    if state[TERMINAL] or state[PHASE] != PHASE_PLAY or not state[CURRENT_PLAYER] <= player < n:
        return False
    tile = current_tile(state)
    tiles = state[CELL_TILE + player * NUM_CELLS : CELL_TILE + (player + 1) * NUM_CELLS]
    positions = state[ADVENTURER_POS + player * NUM_COLOURS : ADVENTURER_POS + (player + 1) * NUM_COLOURS]
    sides = island_sides(tiles)
    paths = paths_of(sides)
    work = np.empty(_REACHED_SIZE + _TRIAL_WORDS, np.int64)
    reached = work[:_REACHED_SIZE]
    trial = work[_TRIAL:].view(np.int32)[:NUM_CELLS]  # the island with the tile laid on one field
    for cell in range(NUM_CELLS):  # a loop, not trial[:] = tiles: no shape check to compile
        trial[cell] = tiles[cell]
    steps = TILE_EXIT_COUNT[tile]  # "as many steps as there are paths leading to the edge"
    for colour in range(NUM_COLOURS):
        if positions[colour] == IN_TEMPLE:
            continue  # "stays put at the temple": nothing changes it
        beach = state[ADVENTURER_BEACH + colour] - 1
        temple = state[TEMPLE_JUNGLE + colour] - 1
        # A move of `steps` over laid fields leaves at most `steps` more to go than now: costs
        # beyond that change no feature (nor, for a tile, beyond now).
        distance, costs = way_costs(paths, tiles, positions, colour, beach, temple, steps, reached)
        now = int(distance)
        out[_DISTANCE + colour] = now / UNREACHABLE
        preview_places(tile, tiles, positions, colour, beach, temple, sides, now, costs, trial, reached, out)
        preview_moves(state, player, colour, steps, now, costs, out)
    return True


@njit(cache=True, inline="always")
def preview_places(tile, tiles, positions, colour, beach, temple, sides, now, costs, trial, reached, out):
    """place_preview for one adventurer (write_preview), `now` its distance, costs and reached
    its way_costs (reached padded: _REACHED_SIZE); `trial` a copy of the island.

    Laying the tile on a free field i changes only the ways through i, and makes each of them
    cheaper by EMPTY_COST - 1, so the cheapest way through i is read from the two cost maps
    over the neighbours the tile would join (tile_links). When that beats `now` it is exact: a
    neighbour's cost that ran through i itself would make it dearer than `now`. When it does
    not, the distance stays, unless every cheapest way passes i and no way through the tile is
    as cheap (a way read as cheap as `now` is real, by the same argument): then the tile turns
    its back on the way, and island_distance, with the tile laid, measures how far it sends it."""
    laid = sides[0]
    position = positions[colour]
    exits = TILE_EXITS[tile]
    blocked = others_blocking(positions, colour)
    beach_entry = np.int64(0)  # the free field it would step onto from the beach over the tile
    if position == ON_BEACH and exits & BEACH_SIDE[beach]:
        beach_entry = (np.int64(1) << BEACH_CELL[beach]) & ~laid
    temple_entry = np.int64(0)  # the free field it would step into the temple from
    if exits & JUNGLE_SIDE[temple]:
        temple_entry = (np.int64(1) << JUNGLE_CELL[temple]) & ~laid
    near_start, near_temple, every = way_fields(laid, blocked, reached, costs, now)
    from_start = beach_entry | tile_joins(sides, exits, near_start)
    to_end = temple_entry | tile_joins(sides, exits, near_temple)
    shorter = from_start & to_end & ~laid
    passes = every & ~laid
    # Laid paths (other adventurers aside, as they move on): completing a way, and items.
    paths = paths_of(sides)
    reach = path_reach(paths, tiles, beach, position)
    joins_start = (beach_entry | tile_joins(sides, exits, reach)) & ~laid
    completes = np.int64(0)
    if joins_start:  # else no field completes a way: the temple's reach is not needed
        to_temple = temple_reach(paths, tiles, temple)
        if (reach & to_temple) == 0:
            completes = joins_start & (temple_entry | tile_joins(sides, exits, to_temple))
    item = ITEM_POINTS[TILE_ITEM[tile]] / MAX_ITEM_POINTS
    fields = shorter | passes | joins_start
    while fields:
        cell = trailing_zeros(fields)
        fields &= fields - 1
        bit = np.int64(1) << cell
        after = now
        arrive = 1 if beach_entry & bit else FAR
        leave = 1 if temple_entry & bit else FAR
        if (shorter | passes) & bit:
            near = tile_links(sides, exits, cell)
            while near:
                other = trailing_zeros(near)
                near &= near - 1
                arrive = min(arrive, cost_at(costs, other) + 1)
                leave = min(leave, cost_at(costs, other + LANE))
            after = min(arrive + leave, now)
        if after == now and passes & bit and arrive + leave > now:
            trial[cell] = tile
            island = paths_with(paths, cell, tile)
            after = int(island_distance(island, trial, positions, colour, beach, temple, reached))
            trial[cell] = NO_TILE
        base = _PLACE_PREVIEW + (cell * NUM_COLOURS + colour) * PLACE_FEATURES
        out[base + PLACE_CLOSER] = min(max(now - after, 0) / PREVIEW_GAIN_SCALE, 1.0)
        out[base + PLACE_FARTHER] = min(max(after - now, 0) / PREVIEW_GAIN_SCALE, 1.0)
        out[base + PLACE_COMPLETES] = (completes & bit) != 0
        if joins_start & bit:
            out[base + PLACE_ITEM] = item


@njit(cache=True, inline="always")
def preview_moves(state, player, colour, steps, now, costs, out):
    """move_preview for one adventurer (write_preview): its legal targets (reachable_targets,
    the legal mask's own), `now` its distance, costs its way_costs."""
    n = state[NUM_PLAYERS]
    targets = reachable_targets(state, player, colour, steps)
    while targets:
        target = trailing_zeros(targets)
        targets &= targets - 1
        base = _MOVE_PREVIEW + (colour * MOVE_TARGETS + target) * MOVE_FEATURES
        left = 0
        if target == TEMPLE_TARGET:
            # "takes the most valuable treasure of this temple color remaining"
            out[base + MOVE_TREASURE] = TREASURE_VALUES[n, state[STACK_TAKEN + colour]] / MAX_TREASURE
        else:
            # its own field: laid, and no one else's
            left = min(cost_at(costs, target + LANE) - 1, LIMIT)
            # "an adventurer must finish their turn on the tile" to collect its item
            out[base + MOVE_ITEM] = (
                ITEM_POINTS[state[CELL_ITEM + player * NUM_CELLS + target]] / MAX_ITEM_POINTS
            )
        out[base + MOVE_CLOSER] = min(max(now - left, 0) / PREVIEW_GAIN_SCALE, 1.0)
        out[base + MOVE_FARTHER] = min(max(left - now, 0) / PREVIEW_GAIN_SCALE, 1.0)
        out[base + MOVE_DISTANCE] = left / UNREACHABLE


@njit(cache=True, inline="always")
def way_fields(laid, blocked, reached, costs, now):
    """For preview_places, as bit sets, read from way_costs' reached (padded: _REACHED_SIZE)
    and costs: the fields reached from the start below now - 2, those below now - 1 from the
    temple (a way through a new tile costs 1 to enter it and at least 1 to go on: only such
    neighbours can make it shorter than now), and those every cheapest way passes.

    A field of cost c reached at a lies on a cheapest way when its backward cost is
    now - a + c. A cheapest way spends each cost 1 .. now - 1 on exactly one of its fields,
    and a field on a cheapest way always the costs max(a - c + 1, 1) .. a, so a way through
    another field sharing one of them avoids it: a field lies on every cheapest way exactly
    when no other such field shares one of its costs."""
    costs_1 = laid & ~blocked  # by field_cost
    costs_3 = laid & blocked
    costs_4 = ~laid & ~blocked & ALL_FIELDS
    costs_6 = ~laid & blocked & ALL_FIELDS
    near_start = np.int64(0)
    near_temple = np.int64(0)
    for d in range(now - 2):
        near_start |= reached[d]
    for d in range(now - 1):
        near_temple |= reached[d]
    near_start &= ALL_FIELDS
    near_temple = near_temple >> LANE
    if now >= LIMIT:
        return near_start, near_temple, np.int64(0)  # out of reach (or beyond): no tile lengthens it
    plane_0, plane_1, plane_2, plane_3, plane_4 = costs
    reached[FAR] = plane_0 & plane_1 & plane_2 & plane_3 & plane_4 & ~ALL_FIELDS  # backward FAR
    on_ways = np.int64(0)
    for arrival in range(now):  # without branches, for speed
        to_go = now - arrival  # a field's backward cost on a cheapest way, less its own
        on_ways |= reached[arrival] & (
            (costs_1 & (reached[to_go + 1] >> LANE))
            | (costs_3 & (reached[to_go + 3] >> LANE))
            | (costs_4 & (reached[to_go + 4] >> LANE))
            | (costs_6 & (reached[to_go + 6] >> LANE))
        )
    on_ways &= ALL_FIELDS
    shared = np.int64(0)  # the fields on cheapest ways that share a cost with another
    for cost in range(1, now):  # the fields spending `cost`: reached at cost .. cost + c - 1
        within_1 = reached[cost]
        within_3 = within_1 | reached[cost + 1] | reached[cost + 2]
        within_4 = within_3 | reached[cost + 3]
        within_6 = within_4 | reached[cost + 4] | reached[cost + 5]
        spending = on_ways & (
            (costs_1 & within_1) | (costs_3 & within_3) | (costs_4 & within_4) | (costs_6 & within_6)
        )
        shared |= spending & -np.int64((spending & (spending - 1)) != 0)
    return near_start, near_temple, on_ways & ~shared


@njit(cache=True)
def write_distances(state: np.ndarray, player: int, out: np.ndarray) -> None:
    """adventurer_distance: temple_distance of each of the player's adventurers / UNREACHABLE
    (0 in its temple); zeros in the draft (the layout is not placed yet)."""
    if state[PHASE] != PHASE_PLAY:
        return
    tiles = state[CELL_TILE + player * NUM_CELLS : CELL_TILE + (player + 1) * NUM_CELLS]
    positions = state[ADVENTURER_POS + player * NUM_COLOURS : ADVENTURER_POS + (player + 1) * NUM_COLOURS]
    paths = island_paths(tiles)
    reached = new_scratch()
    for colour in range(NUM_COLOURS):
        if positions[colour] != IN_TEMPLE:
            beach = state[ADVENTURER_BEACH + colour] - 1
            temple = state[TEMPLE_JUNGLE + colour] - 1
            distance = island_distance(paths, tiles, positions, colour, beach, temple, reached)
            out[_DISTANCE + colour] = distance / UNREACHABLE


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
