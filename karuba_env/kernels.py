"""Karuba rules as @njit kernels over the flat state (layout and action space in state.py), by
the contract in docs/architecture.md; the batch forms are generated into batch.py."""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from karuba_env.data import (
    BEACH_CELL,
    BEACH_SIDE,
    COLS,
    CRYSTAL,
    DIRECTIONS,
    DISTANCE_PERIMETER,
    EAST,
    GOLD,
    JUNGLE_CELL,
    JUNGLE_SIDE,
    MIN_DISTANCE,
    NEIGHBOUR,
    NO_ITEM,
    NORTH,
    NUM_BEACH,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_JUNGLE,
    NUM_TILES,
    SOUTH,
    TILE_EXIT_COUNT,
    TILE_EXITS,
    TILE_ITEM,
    TREASURE_VALUES,
    WEST,
)
from karuba_env.state import (
    ADVENTURER_BEACH,
    ADVENTURER_POS,
    CELL_ITEM,
    CELL_TILE,
    CRYSTALS_COLLECTED,
    DISCARD,
    DISTANCE_RULE,
    DRAFT_ADVENTURER_BASE,
    DRAFT_COLOUR,
    DRAFT_PICKS,
    DRAFT_TEMPLE_BASE,
    END_CONDITION,
    END_TEMPLES,
    END_TILES,
    GOLD_COLLECTED,
    IN_TEMPLE,
    LAST_ACTION,
    LAST_TILE,
    LAYOUT_DRAFT,
    LAYOUT_FIXED,
    LAYOUT_RANDOM,
    MOVE_BASE,
    MOVE_TARGETS,
    N_ACTIONS,
    NO_ACTION,
    NO_COLOUR,
    NO_TILE,
    NOT_PLACED,
    ON_BEACH,
    P_DISTANCE_RULE,
    P_FIXED_BEACH,
    P_FIXED_JUNGLE,
    P_LAYOUT,
    PENDING,
    PHASE,
    PHASE_DRAFT,
    PHASE_PLAY,
    PLACE_BASE,
    STACK,
    STACK_TAKEN,
    TEMPLE_JUNGLE,
    TEMPLE_TARGET,
    TIE_CRYSTALS,
    TILES_REVEALED,
    TREASURE,
)
from treasure_core.header import CURRENT_PLAYER, DECISIONS, NUM_PLAYERS, RNG, TERMINAL
from treasure_core.jit import njit
from treasure_core.kernels import init_header, mask_from_bits, sort_ascending
from treasure_core.rng import rng_below, rng_seed, rng_shuffle


# -- the island --------------------------------------------------------------------------
@njit(cache=True)
def distance_allowed(rule: int, beach: int, jungle: int) -> bool:
    """Setup: "a minimum of 3 numbers distance between an adventurer and temple of the same
    color" (numbers from 1). perimeter: counted around the nearer corner where beach and
    jungle meet (beach 1/jungle 1 top left, beach 11/jungle 11 bottom right); difference:
    the two numbers differ by at least 3."""
    if rule == DISTANCE_PERIMETER:
        return (
            beach + jungle - 1 >= MIN_DISTANCE
            and (NUM_BEACH + 1 - beach) + (NUM_JUNGLE + 1 - jungle) - 1 >= MIN_DISTANCE
        )
    return abs(beach - jungle) >= MIN_DISTANCE


@njit(cache=True, inline="always")
def tile_at(state, player, cell):
    return state[CELL_TILE + player * NUM_CELLS + cell]


@njit(cache=True, inline="always")
def current_tile(state):
    return state[STACK + state[TILES_REVEALED] - 1]


@njit(cache=True)
def reachable(state: np.ndarray, player: int, colour: int, steps: int, out: np.ndarray, start: int) -> int:
    """Set out[start + target] = 1 for each target of reachable_targets, leaving the other
    entries of out[start : start + MOVE_TARGETS] as they are; returns how many."""
    return mask_from_bits(reachable_targets(state, player, colour, steps), out, start)


def _path_neighbours() -> np.ndarray:
    """PATH_NEIGHBOURS[tile, cell]: the island cells next to `cell` on the sides where `tile`
    has an exit, as a bit set (NO_TILE: none). Two neighbouring tiles connect when each holds
    the other's cell here, so a search step needs no loop over the four sides."""
    table = np.zeros((NUM_TILES + 1, NUM_CELLS), np.int64)
    for tile in range(1, NUM_TILES + 1):
        for cell in range(NUM_CELLS):
            for d in range(4):
                if TILE_EXITS[tile] & DIRECTIONS[d] and NEIGHBOUR[cell, d] >= 0:
                    table[tile, cell] |= np.int64(1) << np.int64(NEIGHBOUR[cell, d])
    return table


PATH_NEIGHBOURS = _path_neighbours()


@njit(cache=True)
def reachable_targets(state, player, colour, steps):
    """The targets (cells, then TEMPLE_TARGET), as a bit set, where adventurer `colour` of
    `player` may end a move of up to `steps` steps. A step goes to a neighbouring tile along
    connected paths (both tiles have an exit on the shared side), from the beach onto the tile
    beside it (exit facing the beach), or from a tile into the temple of the adventurer's own
    colour (exit facing it). Another adventurer's tile is neither entered nor passed over."""
    position = state[ADVENTURER_POS + player * NUM_COLOURS + colour]
    if position == IN_TEMPLE:
        return np.int64(0)  # "The adventurer will then stay put at the temple"
    island = CELL_TILE + player * NUM_CELLS
    closed = np.int64(0)  # visited or blocked
    for other in range(NUM_COLOURS):
        where = state[ADVENTURER_POS + player * NUM_COLOURS + other]
        if other != colour and where >= 0:
            closed |= np.int64(1) << where
    # The temple is entered from the jungle cell beside it, through an exit facing it.
    temple = state[TEMPLE_JUNGLE + colour] - 1
    temple_cell = JUNGLE_CELL[temple]
    temple_door = np.int64(0)
    if TILE_EXITS[state[island + temple_cell]] & JUNGLE_SIDE[temple]:
        temple_door = np.int64(1) << temple_cell
    targets = np.int64(0)
    if position == ON_BEACH:
        beach = state[ADVENTURER_BEACH + colour] - 1
        cell = BEACH_CELL[beach]
        tile = state[island + cell]
        if tile == NO_TILE or not (TILE_EXITS[tile] & BEACH_SIDE[beach]) or (closed >> cell) & 1:
            return np.int64(0)
        frontier = np.int64(1) << cell
        targets = frontier
        steps -= 1
    else:
        frontier = np.int64(1) << position
    closed |= frontier
    for _ in range(steps):
        if frontier & temple_door:
            targets |= np.int64(1) << TEMPLE_TARGET
        grown = np.int64(0)
        remaining = frontier
        while remaining:
            cell = trailing_zeros(remaining)
            remaining &= remaining - 1
            near = PATH_NEIGHBOURS[state[island + cell], cell] & ~closed
            while near:
                nxt = trailing_zeros(near)
                near &= near - 1
                if (PATH_NEIGHBOURS[state[island + nxt], nxt] >> cell) & 1:
                    grown |= np.int64(1) << nxt
        if grown == 0:
            break
        closed |= grown
        frontier = grown
        targets |= grown
    return targets


def _within() -> np.ndarray:
    """WITHIN[cell, radius]: the cells at most `radius` steps (rows plus columns) from `cell`,
    as a bit set, for every radius a move's search needs (up to MAX_STEPS)."""
    table = np.zeros((NUM_CELLS, MAX_STEPS + 1), np.int64)
    for cell in range(NUM_CELLS):
        for other in range(NUM_CELLS):
            distance = abs(cell // COLS - other // COLS) + abs(cell % COLS - other % COLS)
            for radius in range(distance, MAX_STEPS + 1):
                table[cell, radius] |= np.int64(1) << np.int64(other)
    return table


MAX_STEPS = int(TILE_EXIT_COUNT.max())  # a move's steps: the exits of the tile showing
WITHIN = _within()


@njit(cache=True)
def move_reaches(state, player, colour, steps, target):
    """Whether reachable_targets(state, player, colour, steps) holds `target`, searched toward
    it: a cell enters the search only while the target is still in reach from it (WITHIN), so
    a legal move's search is short. Exact: a shortest path's cells all pass that test."""
    position = state[ADVENTURER_POS + player * NUM_COLOURS + colour]
    if position == IN_TEMPLE:
        return False  # "The adventurer will then stay put at the temple"
    island = CELL_TILE + player * NUM_CELLS
    closed = np.int64(0)  # visited or blocked
    for other in range(NUM_COLOURS):
        where = state[ADVENTURER_POS + player * NUM_COLOURS + other]
        if other != colour and where >= 0:
            closed |= np.int64(1) << where
    budget = steps  # the steps left once on the start cell
    goal = target
    if target == TEMPLE_TARGET:
        # Into the temple from the jungle cell beside it, through an exit facing it: one step.
        temple = state[TEMPLE_JUNGLE + colour] - 1
        goal = JUNGLE_CELL[temple]
        if not TILE_EXITS[state[island + goal]] & JUNGLE_SIDE[temple]:
            return False
        budget -= 1
    if position == ON_BEACH:
        beach = state[ADVENTURER_BEACH + colour] - 1
        start = BEACH_CELL[beach]
        tile = state[island + start]
        if tile == NO_TILE or not (TILE_EXITS[tile] & BEACH_SIDE[beach]) or (closed >> start) & 1:
            return False
        budget -= 1  # the step onto the beach's tile, itself a target
        if start == goal:
            return budget >= 0
    else:
        start = position
        if start == goal:
            return target == TEMPLE_TARGET and budget >= 0  # not back onto its own cell
    frontier = np.int64(1) << start
    closed |= frontier
    for taken in range(budget):
        grown = np.int64(0)
        remaining = frontier
        while remaining:
            cell = trailing_zeros(remaining)
            remaining &= remaining - 1
            near = PATH_NEIGHBOURS[state[island + cell], cell] & ~closed
            while near:
                nxt = trailing_zeros(near)
                near &= near - 1
                if (PATH_NEIGHBOURS[state[island + nxt], nxt] >> cell) & 1:
                    grown |= np.int64(1) << nxt
        grown &= WITHIN[goal, budget - taken - 1]
        if (grown >> goal) & 1:
            return True
        if grown == 0:
            return False
        closed |= grown
        frontier = grown
    return False


# -- the path look-ahead ------------------------------------------------------------------
# An estimate of each adventurer's way to its temple, over laid and free fields alike: the
# scripted bot's measure (bots.island_value) and the observation's preview of what each
# decision would do to it (observe.write_preview).
EMPTY_COST = 4.0  # entering a free field: a tile must be laid there first (a turn), then walked
BLOCKED_COST = 2.0  # a field another of my adventurers stands on (it may move away)
UNREACHABLE = 30.0  # distance charged to an adventurer walled in from its temple
LIMIT = int(UNREACHABLE)  # the costs in whole steps
FAR = LIMIT + 1  # the cost of a field not reached within LIMIT
_EMPTY = int(EMPTY_COST)
_BLOCKED = int(BLOCKED_COST)
DEAREST = _EMPTY + _BLOCKED  # the dearest step: a costlier field is never reached after a gap this long
ALL_FIELDS = (1 << NUM_CELLS) - 1
_NOT_FIRST_COLUMN = sum(1 << cell for cell in range(NUM_CELLS) if cell % COLS != 0)
_NOT_LAST_COLUMN = sum(1 << cell for cell in range(NUM_CELLS) if cell % COLS != COLS - 1)
# [tile] the ways a step may leave a field holding it (a free field: every way, a tile laid there may).
_OPEN_WAYS = TILE_EXITS.astype(np.int64)
_OPEN_WAYS[NO_TILE] = NORTH | EAST | SOUTH | WEST


@njit(cache=True)
def new_scratch():
    """The look-ahead's working array, made once per use: [cost] the bit set of the fields first
    reached at that cost."""
    return np.zeros(LIMIT + 1, np.int64)


@njit(cache=True)
def island_sides(tiles):
    """The island's fields as bit sets: the laid ones, and for each way (north, east, south,
    west) those open that way (a free field is open every way: a tile laid there may be)."""
    north = east = south = west = laid = np.int64(0)
    for cell in range(NUM_CELLS):
        tile = tiles[cell]
        ways = _OPEN_WAYS[tile]
        north |= (ways & 1) << cell  # NORTH, EAST, SOUTH, WEST are the bits 1, 2, 4, 8
        east |= ((ways >> 1) & 1) << cell
        south |= ((ways >> 2) & 1) << cell
        west |= ((ways >> 3) & 1) << cell
        laid |= np.int64(tile != NO_TILE) << cell
    return laid, north, east, south, west


@njit(cache=True, inline="always")
def paths_of(sides):
    """The island's steps as bit sets: the laid fields, and for each way (north, east, south,
    west) the fields a step may leave by that way: open there onto a neighbour open back
    (island_sides; "adventurers may only move along the paths")."""
    laid, north, east, south, west = sides
    return (
        laid,
        north & (south << COLS),
        east & (west >> 1) & _NOT_LAST_COLUMN,
        south & (north >> COLS),
        west & (east << 1) & _NOT_FIRST_COLUMN,
    )


@njit(cache=True)
def island_paths(tiles):
    """paths_of(island_sides(tiles))."""
    return paths_of(island_sides(tiles))


@njit(cache=True, inline="always")
def tile_joins(sides, exits, fields):
    """The fields (a bit set) where a tile opening `exits` would join a path to one of
    `fields`: a neighbour on a side it opens that opens back (island_sides)."""
    _, north, east, south, west = sides
    joined = np.int64(0)
    if exits & NORTH:
        joined |= (fields & south) << COLS  # the neighbour above opens south
    if exits & EAST:
        joined |= ((fields & west) >> 1) & _NOT_LAST_COLUMN
    if exits & SOUTH:
        joined |= (fields & north) >> COLS
    if exits & WEST:
        joined |= ((fields & east) << 1) & _NOT_FIRST_COLUMN
    return joined & ALL_FIELDS


@njit(cache=True, inline="always")
def tile_links(sides, exits, cell):
    """The neighbours (a bit set) a tile opening `exits` laid on `cell` would join by a path
    (tile_joins the other way round)."""
    _, north, east, south, west = sides
    bit = np.int64(1) << cell
    linked = np.int64(0)
    if exits & NORTH:
        linked |= (bit >> COLS) & south
    if exits & EAST:
        linked |= (bit << 1) & _NOT_FIRST_COLUMN & west
    if exits & SOUTH:
        linked |= (bit << COLS) & north
    if exits & WEST:
        linked |= (bit >> 1) & _NOT_LAST_COLUMN & east
    return linked


@njit(cache=True, inline="always")
def step_from(paths, fields):
    """The fields one step along the paths from the bit set `fields` (island_paths)."""
    _, north, east, south, west = paths
    return (
        ((fields & north) >> COLS)
        | ((fields & east) << 1)
        | ((fields & south) << COLS)
        | ((fields & west) >> 1)
    )


@njit(cache=True, inline="always")
def others_blocking(positions, colour):
    """The fields (a bit set) where the other adventurers of `positions` stand."""
    blocked = np.int64(0)
    for other in range(NUM_COLOURS):
        if other != colour and positions[other] >= 0:
            blocked |= np.int64(1) << positions[other]
    return blocked


@njit(cache=True, inline="always")
def field_cost(laid, blocked, cell):
    """The steps charged for entering `cell`: 1 onto a laid tile, EMPTY_COST onto a free field
    (a tile must be laid there first), BLOCKED_COST more where one of `blocked` stands (bit
    sets of fields, as spread's costs)."""
    return (1 if (laid >> cell) & 1 else _EMPTY) + ((blocked >> cell) & 1) * _BLOCKED


@njit(cache=True, inline="always")
def seed_start(tiles, position, beach, reached):
    """Clear `reached` and seed it with the adventurer's first field: its own (cost 0), or from
    its beach space the field beside it (1 onto a tile facing the beach, EMPTY_COST onto a free
    field). False when a laid tile there turns its back on the beach."""
    reached[:] = 0
    if position == ON_BEACH:
        cell = BEACH_CELL[beach]
        tile = tiles[cell]
        if tile == NO_TILE:
            reached[_EMPTY] = np.int64(1) << cell
        elif TILE_EXITS[tile] & BEACH_SIDE[beach]:
            reached[1] = np.int64(1) << cell
        else:
            return False
    else:
        reached[0] = np.int64(1) << position
    return True


# spread keeps the last steps in registers, one per cost a field can have: written for these.
assert (1, 1 + _BLOCKED, _EMPTY, _EMPTY + _BLOCKED) == (1, 3, 4, 6)


@njit(cache=True, inline="always")
def spread(paths, blocked, reached, stop, limit, extra=0, fields_in=ALL_FIELDS):
    """A shortest-path search over the 30 fields, all of them at once: reached[d] is the bit set
    of the fields first reached at cost d (the caller seeds it, and clears the rest). A step
    follows the paths (island_paths) and costs field_cost of the field it enters, so a field
    of cost w is first reached at d when a neighbour was at d - w. Returns the cost at which
    the field `stop` is reached (FAR if never), and goes on `extra` costs past it (at most to
    `limit`, and no further than anything is left to reach; the later reached[] stay clear).
    `fields_in`: the bits that stand for fields (two_lanes: two searches in one)."""
    laid = paths[0]
    costs_1 = laid & ~blocked
    costs_3 = laid & blocked
    costs_4 = ~laid & ~blocked & fields_in
    costs_6 = ~laid & blocked & fields_in  # an adventurer on a free field: no state has one
    seen = np.int64(0)
    found = FAR
    # The fields one step on from those reached at d - 1, ..., d - 6.
    on_1 = on_2 = on_3 = on_4 = on_5 = on_6 = np.int64(0)
    horizon = DEAREST + 1  # past the dearest seed (way_costs': the door's cost and a step)
    for d in range(limit + 1):
        fields = reached[d] | (on_1 & costs_1) | (on_3 & costs_3) | (on_4 & costs_4) | (on_6 & costs_6)
        fields &= ~seen
        reached[d] = fields
        seen |= fields
        if found == FAR and stop >= 0 and (fields >> stop) & 1:
            found = d
            limit = min(limit, d + extra)
        if d >= limit:
            break
        on_6, on_5, on_4, on_3, on_2 = on_5, on_4, on_3, on_2, on_1
        on_1 = step_from(paths, fields)
        if on_1:
            horizon = d + DEAREST
        elif d >= horizon:
            break  # no step left that could reach a field
    return found


@njit(cache=True, inline="always")
def door_open(tiles, temple):
    """Whether the field beside jungle space `temple` (0-based) opens onto it (a free one may)."""
    tile = tiles[JUNGLE_CELL[temple]]
    return tile == NO_TILE or TILE_EXITS[tile] & JUNGLE_SIDE[temple] != 0


@njit(cache=True)
def island_distance(paths, tiles, positions, colour, beach, temple, reached):
    """temple_distance over island_paths(tiles) made once for the island's adventurers."""
    if not seed_start(tiles, positions[colour], beach, reached) or not door_open(tiles, temple):
        return UNREACHABLE
    # Into the temple is one step more, so the door within LIMIT - 1.
    door = spread(paths, others_blocking(positions, colour), reached, JUNGLE_CELL[temple], LIMIT - 1)
    return float(min(door + 1, LIMIT))


@njit(cache=True)
def temple_distance(tiles, positions, colour, beach, temple, reached):
    """Estimated steps from adventurer `colour` to its temple (0-based jungle `temple`): a
    shortest path (spread) where laid tiles must connect, free fields cost EMPTY_COST, and
    fields held by my other adventurers cost extra; at most UNREACHABLE. `reached` is
    new_scratch()'s array, overwritten."""
    return island_distance(island_paths(tiles), tiles, positions, colour, beach, temple, reached)


LANE = 32  # two_lanes: the second search's fields are bits 32 .. 61
BOTH_LANES = ALL_FIELDS | (ALL_FIELDS << LANE)


@njit(cache=True, inline="always")
def two_lanes(masks):
    """Bit sets over the fields (island_paths, or blocked fields) doubled: one search in bits
    0 .. 29, another in bits 32 .. 61 (a step never crosses: no field steps off the island)."""
    laid, north, east, south, west = masks
    return (
        laid | (laid << LANE),
        north | (north << LANE),
        east | (east << LANE),
        south | (south << LANE),
        west | (west << LANE),
    )


COST_BITS = 5  # a cost 0 .. FAR in binary: way_costs' bit planes
assert FAR == (1 << COST_BITS) - 1  # a field never reached reads FAR: set in every plane


@njit(cache=True)
def way_costs(paths, tiles, positions, colour, beach, temple, beyond, reached):
    """island_distance and its costs both ways, in one search of two lanes: the forward lane
    the cost of reaching a field from the adventurer's place (its own cost included), for the
    costs below the distance (the others cannot shorten it); the backward lane the cost of a
    way from just before a field into the temple (paths join both ways: spread from the door),
    the field's own cost included, for the ways of at most `beyond` steps more than the distance
    (an adventurer standing on it has that cost less its field_cost to go, and the door is found
    at distance - 1, so the backward lane goes beyond + 2 costs past it). FAR elsewhere.

    Returns the distance and the costs as COST_BITS bit planes of both lanes (cost_at reads a
    field's): no per-field array to fill. reached[d] keeps the fields of both lanes first
    reached at cost d (the forward lane's beyond the distance included), all clear when
    walled in (the distance UNREACHABLE)."""
    door = JUNGLE_CELL[temple]
    if not seed_start(tiles, positions[colour], beach, reached) or not door_open(tiles, temple):
        reached[:] = 0  # the beach's seed, when the door is shut
        return UNREACHABLE, (BOTH_LANES, BOTH_LANES, BOTH_LANES, BOTH_LANES, BOTH_LANES)
    blocked = others_blocking(positions, colour)
    # The door's own cost, then the step into the temple: at most DEAREST + 1.
    reached[field_cost(paths[0], blocked, door) + 1] |= np.int64(1) << (door + LANE)
    lanes = two_lanes(paths)
    arrival = spread(lanes, blocked | (blocked << LANE), reached, door, LIMIT, beyond + 2, BOTH_LANES)
    distance = min(arrival + 1, LIMIT)
    seen = np.int64(0)
    plane_0 = plane_1 = plane_2 = plane_3 = plane_4 = np.int64(0)
    for d in range(LIMIT + 1):  # without branches, for speed
        fields = reached[d] & ~(ALL_FIELDS & -np.int64(d >= distance))
        seen |= fields
        plane_0 |= fields & -np.int64(d & 1)
        plane_1 |= fields & -np.int64((d >> 1) & 1)
        plane_2 |= fields & -np.int64((d >> 2) & 1)
        plane_3 |= fields & -np.int64((d >> 3) & 1)
        plane_4 |= fields & -np.int64((d >> 4) & 1)
    unseen = BOTH_LANES & ~seen
    planes = (plane_0 | unseen, plane_1 | unseen, plane_2 | unseen, plane_3 | unseen, plane_4 | unseen)
    return float(distance), planes


@njit(cache=True, inline="always")
def cost_at(planes, bit):
    """The cost way_costs' bit planes hold at `bit`: a field, or a field + LANE backward."""
    plane_0, plane_1, plane_2, plane_3, plane_4 = planes
    return (
        ((plane_0 >> bit) & 1)
        | (((plane_1 >> bit) & 1) << 1)
        | (((plane_2 >> bit) & 1) << 2)
        | (((plane_3 >> bit) & 1) << 3)
        | (((plane_4 >> bit) & 1) << 4)
    )


@njit(cache=True, inline="always")
def paths_with(paths, cell, tile):
    """island_paths with `tile` laid on the free field `cell`: the sides it does not open close
    the steps out of the field, and into it."""
    laid, north, east, south, west = paths
    bit = np.int64(1) << cell
    exits = TILE_EXITS[tile]
    if not exits & NORTH:
        north &= ~bit
        south &= ~(bit >> COLS)
    if not exits & EAST:
        east &= ~bit
        west &= ~(bit << 1)
    if not exits & SOUTH:
        south &= ~bit
        north &= ~(bit << COLS)
    if not exits & WEST:
        west &= ~bit
        east &= ~(bit >> 1)
    return laid | bit, north, east, south, west


@njit(cache=True, inline="always")
def laid_reach(paths, reach):
    """The laid fields joined by paths (island_paths) to the laid fields of the bit set
    `reach`, as a bit set."""
    laid = paths[0]
    grown = reach
    while grown:
        grown = step_from(paths, grown) & laid & ~reach
        reach |= grown
    return reach


@njit(cache=True)
def path_reach(paths, tiles, beach, position):
    """The fields an adventurer could walk to over the laid tiles, paths joined (other
    adventurers ignored), as a bit set: from its field, or from the beach onto a tile facing it."""
    if position == ON_BEACH:
        cell = BEACH_CELL[beach]
        tile = tiles[cell]
        if tile == NO_TILE or not TILE_EXITS[tile] & BEACH_SIDE[beach]:
            return np.int64(0)
        position = cell
    return laid_reach(paths, np.int64(1) << position)


@njit(cache=True)
def temple_reach(paths, tiles, temple):
    """The laid fields joined by paths to the temple at jungle space `temple` (0-based), as a
    bit set: empty unless a laid tile beside it opens onto it."""
    door = JUNGLE_CELL[temple]
    if tiles[door] == NO_TILE or not door_open(tiles, temple):
        return np.int64(0)
    return laid_reach(paths, np.int64(1) << door)


@njit(cache=True)
def player_legal_mask(state: np.ndarray, player: int, mask: np.ndarray) -> int:
    """The legal play-phase decisions of `player` on the tile showing (they depend only on its
    own island, so every player's are known before anyone decides)."""
    mask[:] = 0
    tile = current_tile(state)
    count = 1
    mask[DISCARD] = 1  # discarding without moving is always allowed
    for cell in range(NUM_CELLS):
        if tile_at(state, player, cell) == NO_TILE:  # "only on free fields", unrotated
            mask[PLACE_BASE + cell] = 1
            count += 1
    steps = TILE_EXIT_COUNT[tile]
    for colour in range(NUM_COLOURS):
        count += reachable(state, player, colour, steps, mask, MOVE_BASE + colour * MOVE_TARGETS)
    return count


@njit(cache=True)
def draft_legal_mask(state: np.ndarray, mask: np.ndarray) -> int:
    mask[:] = 0
    count = 0
    colour = state[DRAFT_COLOUR]
    if colour == NO_COLOUR:
        # "Each player chooses an adventurer and places it on any number on the beach."
        for c in range(NUM_COLOURS):
            if state[ADVENTURER_BEACH + c] != NOT_PLACED:
                continue
            for b in range(1, NUM_BEACH + 1):
                if not number_taken(state, ADVENTURER_BEACH, b):
                    mask[DRAFT_ADVENTURER_BASE + c * NUM_BEACH + b - 1] = 1
                    count += 1
        return count
    # "Next, place the temple of the same color on a number in the jungle" (distance rule).
    beach = state[ADVENTURER_BEACH + colour]
    for j in range(1, NUM_JUNGLE + 1):
        if not number_taken(state, TEMPLE_JUNGLE, j) and distance_allowed(state[DISTANCE_RULE], beach, j):
            mask[DRAFT_TEMPLE_BASE + j - 1] = 1
            count += 1
    return count


@njit(cache=True)
def number_taken(state, field, number):
    """Whether a colour already has `number` at `field` (ADVENTURER_BEACH or TEMPLE_JUNGLE)."""
    for c in range(NUM_COLOURS):
        if state[field + c] == number:
            return True
    return False


@njit(cache=True)
def phase(state: np.ndarray) -> int:
    return state[PHASE]


@njit(cache=True)
def legal_mask(state: np.ndarray, player: int, mask: np.ndarray) -> int:
    """`player`'s legal actions now. In the draft one player places at a time; in play every
    player decides on the tile showing, unseen by the others: the seats from the player to act
    on have yet to decide, and those before it have decided (their masks are empty)."""
    current = phase(state)
    live = state[TERMINAL] == 0
    if live and current == PHASE_DRAFT and player == state[CURRENT_PLAYER]:
        return draft_legal_mask(state, mask)
    if live and current == PHASE_PLAY and state[CURRENT_PLAYER] <= player < state[NUM_PLAYERS]:
        return player_legal_mask(state, player, mask)
    for a in range(N_ACTIONS):
        mask[a] = 0
    return 0


# -- set-up ------------------------------------------------------------------------------
@njit(cache=True)
def random_layout(state):
    """A uniformly random legal layout: distinct beach and distinct jungle numbers, each
    colour's pair obeying the distance rule (rejection sampling)."""
    beaches = np.arange(1, NUM_BEACH + 1).astype(np.int32)
    jungles = np.arange(1, NUM_JUNGLE + 1).astype(np.int32)
    while True:
        rng_shuffle(state, RNG, beaches, NUM_BEACH)
        rng_shuffle(state, RNG, jungles, NUM_JUNGLE)
        legal = True
        for c in range(NUM_COLOURS):
            if not distance_allowed(state[DISTANCE_RULE], beaches[c], jungles[c]):
                legal = False
        if legal:
            for c in range(NUM_COLOURS):
                state[ADVENTURER_BEACH + c] = beaches[c]
                state[TEMPLE_JUNGLE + c] = jungles[c]
            return


@njit(cache=True)
def init(state: np.ndarray, params: np.ndarray, seed: int) -> None:
    init_header(state, params, seed)
    n = state[NUM_PLAYERS]
    state[DISTANCE_RULE] = params[P_DISTANCE_RULE]
    state[DRAFT_COLOUR] = NO_COLOUR
    state[LAST_TILE] = NO_TILE
    for seat in range(n):
        state[PENDING + seat] = NO_ACTION
        state[LAST_ACTION + seat] = NO_ACTION
        for c in range(NUM_COLOURS):
            state[ADVENTURER_POS + seat * NUM_COLOURS + c] = ON_BEACH
    layout = params[P_LAYOUT]
    if layout == LAYOUT_RANDOM:
        random_layout(state)
    elif layout == LAYOUT_FIXED:
        for c in range(NUM_COLOURS):
            state[ADVENTURER_BEACH + c] = params[P_FIXED_BEACH + c]
            state[TEMPLE_JUNGLE + c] = params[P_FIXED_JUNGLE + c]
    # The leader shuffles their 36 tiles into a face-down stack.
    for t in range(NUM_TILES):
        state[STACK + t] = t + 1
    rng_shuffle(state, RNG, state[STACK : STACK + NUM_TILES], NUM_TILES)
    state[CURRENT_PLAYER] = 0
    if layout == LAYOUT_DRAFT:
        state[PHASE] = PHASE_DRAFT
    else:
        start_play(state)


@njit(cache=True)
def start_play(state):
    state[PHASE] = PHASE_PLAY
    reveal_next(state)


@njit(cache=True)
def reveal_next(state):
    # The leader reveals the next tile; every player decides on it, in seat order.
    state[TILES_REVEALED] += 1
    state[CURRENT_PLAYER] = 0


# -- a decision --------------------------------------------------------------------------
@njit(cache=True)
def draft_step(state, action):
    n = state[NUM_PLAYERS]
    if action >= DRAFT_TEMPLE_BASE:
        colour = state[DRAFT_COLOUR]
        state[TEMPLE_JUNGLE + colour] = action - DRAFT_TEMPLE_BASE + 1
        state[DRAFT_COLOUR] = NO_COLOUR
        state[DRAFT_PICKS] += 1
        if state[DRAFT_PICKS] == NUM_COLOURS:
            start_play(state)
        else:
            # Pairs go round the table: with 2 or 3 players some place two.
            state[CURRENT_PLAYER] = state[DRAFT_PICKS] % n
    else:
        colour = (action - DRAFT_ADVENTURER_BASE) // NUM_BEACH
        state[ADVENTURER_BEACH + colour] = (action - DRAFT_ADVENTURER_BASE) % NUM_BEACH + 1
        state[DRAFT_COLOUR] = colour  # the same player places its temple next


@njit(cache=True)
def apply_decision(state, player, tile, action):
    """One player's decision on `tile`, on its own island (arrivals are paid afterwards)."""
    if action < MOVE_BASE:
        cell = action - PLACE_BASE
        state[CELL_TILE + player * NUM_CELLS + cell] = tile
        # A crystal or gold tile gets its item from the middle of the table.
        state[CELL_ITEM + player * NUM_CELLS + cell] = TILE_ITEM[tile]
    elif action < DISCARD:
        colour = (action - MOVE_BASE) // MOVE_TARGETS
        target = (action - MOVE_BASE) % MOVE_TARGETS
        if target == TEMPLE_TARGET:
            state[ADVENTURER_POS + player * NUM_COLOURS + colour] = IN_TEMPLE
            return
        state[ADVENTURER_POS + player * NUM_COLOURS + colour] = target
        # Collected by finishing the move on the tile.
        item = state[CELL_ITEM + player * NUM_CELLS + target]
        if item == CRYSTAL:
            state[CRYSTALS_COLLECTED + player] += 1
        elif item == GOLD:
            state[GOLD_COLLECTED + player] += 1
        state[CELL_ITEM + player * NUM_CELLS + target] = NO_ITEM


@njit(cache=True)
def temple_arrival(action):
    """The colour an action moves into its temple, or NO_COLOUR."""
    if MOVE_BASE <= action < DISCARD and (action - MOVE_BASE) % MOVE_TARGETS == TEMPLE_TARGET:
        return (action - MOVE_BASE) // MOVE_TARGETS
    return NO_COLOUR


@njit(cache=True)
def pay_arrivals(state):
    """Temple treasures for this tile's arrivals. Several players reaching one colour on the
    same tile all score the top treasure's value: they take the next treasures of the stack in
    seat order and make up the difference with crystals (the Luis/Miriam/Christina example)."""
    n = state[NUM_PLAYERS]
    for colour in range(NUM_COLOURS):
        taken = state[STACK_TAKEN + colour]
        top = TREASURE_VALUES[n, taken]
        for p in range(n):
            if temple_arrival(state[LAST_ACTION + p]) == colour:
                value = TREASURE_VALUES[n, taken]
                state[TREASURE + p * NUM_COLOURS + colour] = value
                state[TIE_CRYSTALS + p * NUM_COLOURS + colour] = top - value
                taken += 1
        state[STACK_TAKEN + colour] = taken


@njit(cache=True)
def all_in_temples(state, player):
    for c in range(NUM_COLOURS):
        if state[ADVENTURER_POS + player * NUM_COLOURS + c] != IN_TEMPLE:
            return False
    return True


@njit(cache=True)
def resolve_tile(state):
    """Every player has decided on the tile: reveal and apply the decisions together, pay the
    temples, then end the game or reveal the next tile."""
    n = state[NUM_PLAYERS]
    tile = current_tile(state)
    state[LAST_TILE] = tile
    for p in range(n):
        action = state[PENDING + p]
        state[LAST_ACTION + p] = action
        state[PENDING + p] = NO_ACTION
        apply_decision(state, p, tile, action)
    pay_arrivals(state)
    for p in range(n):
        if all_in_temples(state, p):
            state[END_CONDITION] = END_TEMPLES
            state[TERMINAL] = 1
            return
    if state[TILES_REVEALED] == NUM_TILES:
        state[END_CONDITION] = END_TILES  # the last tile has been played
        state[TERMINAL] = 1
        return
    reveal_next(state)


@njit(cache=True)
def step(state: np.ndarray, action: int) -> None:
    """Apply the decision of the player to act. The drivers check legality (legal_mask) before
    a kernel sees an action, but BatchRunner(check_actions=False) and a user's own loop need
    not: any action legal_mask would not allow is refused here, changing nothing (no action may
    send a kernel outside its arrays), then step_unrefused's few lines follow, written out.

    The refusal reads the state in this body (the rules of draft_legal_mask and
    player_legal_mask, for one action): a helper taking the state, called or inlined, makes
    numba count a reference to the array (two atomic operations) around it, which cost more
    than the checks (benchmarks/refusal_cost.py). A move's search is the exception, called:
    inlined, it slowed every other action's step (measured: the kernel loop's ratio 1.18
    against 1.08 called)."""
    if state[TERMINAL] or action < 0 or action >= N_ACTIONS:
        return
    current = phase(state)
    if current == PHASE_DRAFT:
        colour = state[DRAFT_COLOUR]
        if colour == NO_COLOUR:
            # An adventurer not yet placed, on a beach number no colour has.
            index = action - DRAFT_ADVENTURER_BASE
            if index < 0 or index >= NUM_COLOURS * NUM_BEACH:
                return
            number = index % NUM_BEACH + 1
            if state[ADVENTURER_BEACH + index // NUM_BEACH] != NOT_PLACED:
                return
            for other in range(NUM_COLOURS):
                if state[ADVENTURER_BEACH + other] == number:
                    return
        else:
            # Its temple on a free jungle number, by the distance rule.
            number = action - DRAFT_TEMPLE_BASE + 1
            if number < 1 or number > NUM_JUNGLE:
                return
            for other in range(NUM_COLOURS):
                if state[TEMPLE_JUNGLE + other] == number:
                    return
            if not distance_allowed(state[DISTANCE_RULE], state[ADVENTURER_BEACH + colour], number):
                return
    elif current == PHASE_PLAY:
        player = state[CURRENT_PLAYER]
        if player < 0 or player >= state[NUM_PLAYERS]:
            return
        if PLACE_BASE <= action < PLACE_BASE + NUM_CELLS:
            # "only on free fields"
            if state[CELL_TILE + player * NUM_CELLS + action - PLACE_BASE] != NO_TILE:
                return
        elif MOVE_BASE <= action < MOVE_BASE + NUM_COLOURS * MOVE_TARGETS:
            colour, target = (action - MOVE_BASE) // MOVE_TARGETS, (action - MOVE_BASE) % MOVE_TARGETS
            steps = TILE_EXIT_COUNT[state[STACK + state[TILES_REVEALED] - 1]]
            if not move_reaches(state, player, colour, steps, target):
                return
        elif action != DISCARD:  # discarding without moving is always allowed
            return
    else:
        return
    # step_unrefused, written out (see above).
    state[DECISIONS] += 1
    if current == PHASE_DRAFT:
        draft_step(state, action)
    else:
        play_step(state, action)


@njit(cache=True)
def step_unrefused(state: np.ndarray, action: int) -> None:
    """step without the refusal: `action` must be legal (benchmarks/refusal_cost.py measures
    what the refusal costs against this)."""
    state[DECISIONS] += 1
    current = phase(state)
    if current == PHASE_DRAFT:
        draft_step(state, action)
    elif current == PHASE_PLAY:
        play_step(state, action)


@njit(cache=True)
def play_step(state, action):
    """One player's decision on the tile showing, kept hidden until every player has decided."""
    player = state[CURRENT_PLAYER]
    state[PENDING + player] = action  # hidden from the others until all have decided
    if player + 1 < state[NUM_PLAYERS]:
        state[CURRENT_PLAYER] = player + 1
    else:
        resolve_tile(state)


# -- the end -----------------------------------------------------------------------------
@njit(cache=True)
def tiles_laid(state, player):
    count = 0
    for cell in range(NUM_CELLS):
        if tile_at(state, player, cell) != NO_TILE:
            count += 1
    return count


@njit(cache=True)
def scores(state: np.ndarray, scores_out: np.ndarray, tiebreaks_out: np.ndarray) -> None:
    """Temple treasures + crystals (tie crystals included) + 2 per gold nugget; the tie-break
    is the number of tiles on the island."""
    for p in range(state[NUM_PLAYERS]):
        total = state[CRYSTALS_COLLECTED + p] + 2 * state[GOLD_COLLECTED + p]
        for c in range(NUM_COLOURS):
            total += state[TREASURE + p * NUM_COLOURS + c] + state[TIE_CRYSTALS + p * NUM_COLOURS + c]
        scores_out[p] = total
        tiebreaks_out[p] = tiles_laid(state, p)


@njit(cache=True)
def competitors(state: np.ndarray) -> int:
    """Only the players compete: no in-kernel opponents."""
    return state[NUM_PLAYERS]


# -- hidden information ------------------------------------------------------------------
@njit(cache=True)
def resample_hidden(state: np.ndarray, player: int, seed: int) -> None:
    """Re-deal what `player` cannot know: the order of the undrawn tiles, and the decisions the
    other players have already taken on the tile showing (each uniform over that player's legal
    decisions). The generator is reseeded from `seed`."""
    rng_seed(state, RNG, seed)
    revealed = state[TILES_REVEALED]
    # Canonical first: the re-deal depends only on what player knows and the seed.
    sort_ascending(state[STACK + revealed : STACK + NUM_TILES])
    rng_shuffle(state, RNG, state[STACK + revealed : STACK + NUM_TILES], NUM_TILES - revealed)
    if state[TERMINAL] or state[PHASE] != PHASE_PLAY:
        return
    mask = np.zeros(N_ACTIONS, np.int8)
    for other in range(state[CURRENT_PLAYER]):
        if other == player:
            continue
        count = player_legal_mask(state, other, mask)
        pick = rng_below(state, RNG, count)
        for a in range(N_ACTIONS):
            if mask[a]:
                if pick == 0:
                    state[PENDING + other] = a
                    break
                pick -= 1
