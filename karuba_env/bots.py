"""Scripted Karuba players. They read only what their seat may know: every island, the tile
showing and the treasure stacks; never the undrawn order nor the others' pending decisions
(tests check that re-dealing those never changes a bot's choice)."""

from __future__ import annotations

import numpy as np

from karuba_env.data import (
    BEACH_CELL,
    BEACH_SIDE,
    COLS,
    DIRECTIONS,
    EDGE_JUNGLE,
    ITEM_POINTS,
    JUNGLE_CELL,
    NEIGHBOUR,
    NUM_CELLS,
    NUM_COLOURS,
    OPPOSITE,
    TILE_EXITS,
    TREASURE_VALUES,
)
from karuba_env.kernels import current_tile, legal_mask, scores
from karuba_env.state import (
    ADVENTURER_BEACH,
    ADVENTURER_POS,
    CELL_ITEM,
    CELL_TILE,
    DISCARD,
    DRAFT_ADVENTURER_BASE,
    DRAFT_COLOUR,
    DRAFT_TEMPLE_BASE,
    IN_TEMPLE,
    MOVE_BASE,
    MOVE_TARGETS,
    N_ACTIONS,
    N_PLAY_ACTIONS,
    NO_TILE,
    ON_BEACH,
    PHASE,
    PHASE_DRAFT,
    STACK_TAKEN,
    TEMPLE_JUNGLE,
    TEMPLE_TARGET,
)
from treasure_core.agents import KernelBot
from treasure_core.header import NUM_PLAYERS, REWARD_MODE
from treasure_core.jit import njit
from treasure_core.kernels import tie_key
from treasure_core.playout_value import estimated_rewards

EMPTY_COST = 4.0  # entering a free field: a tile must be laid there first (a turn), then walked
BLOCKED_COST = 2.0  # a field another of my adventurers stands on (it may move away)
UNREACHABLE = 30.0  # distance charged to an adventurer walled in from its temple
DISTANCE_WEIGHT = 0.5  # points per step of estimated distance to the temple
LAID_BONUS = 0.01  # a tile on the island breaks ties in the final scoring
ALL_FIELDS = np.int64((1 << NUM_CELLS) - 1)  # greedy_action: every field
_LIMIT = int(UNREACHABLE)  # temple_distance's costs in whole steps
_EMPTY = int(EMPTY_COST)
_BLOCKED = int(BLOCKED_COST)


# The index of a single set bit (below 64): a de Bruijn multiply and a table, not a shift loop.
_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_BIT_INDEX = np.zeros(64, np.int64)
for _bit in range(64):
    _BIT_INDEX[((_DE_BRUIJN << np.uint64(_bit)) >> np.uint64(58)) & np.uint64(63)] = _bit


@njit(cache=True, inline="always")
def single_bit_index(bit):
    return _BIT_INDEX[((np.uint64(bit) * _DE_BRUIJN) >> np.uint64(58)) & np.uint64(63)]


@njit(cache=True)
def new_scratch():
    """temple_distance's working arrays (its buckets and distances), made once per bot move."""
    return np.zeros(_LIMIT + 1, np.int64), np.zeros(NUM_CELLS, np.int64)


@njit(cache=True)
def temple_distance(tiles, positions, colour, beach, temple, buckets, dist):
    """Estimated steps from adventurer `colour` to its temple (0-based jungle `temple`): a
    shortest path where laid tiles must connect, free fields cost EMPTY_COST, and fields held
    by my other adventurers cost extra; at most UNREACHABLE. Every cost is a whole number of
    steps, so the fields are taken in order of distance from buckets of bit sets (Dial's
    form of Dijkstra over the 30 fields), up to UNREACHABLE. `buckets` and `dist` are
    new_scratch()'s arrays, overwritten."""
    limit = _LIMIT
    buckets[:] = 0  # [d] the fields first reached at distance d
    dist[:] = limit + 1
    blocked = np.int64(0)
    for other in range(NUM_COLOURS):
        if other != colour and positions[other] >= 0:
            blocked |= np.int64(1) << positions[other]
    position = positions[colour]
    if position == ON_BEACH:
        cell = BEACH_CELL[beach]
        tile = tiles[cell]
        if tile == NO_TILE:
            dist[cell] = _EMPTY
        elif TILE_EXITS[tile] & BEACH_SIDE[beach]:
            dist[cell] = 1
        else:
            return UNREACHABLE
        buckets[dist[cell]] |= np.int64(1) << cell
    else:
        dist[position] = 0
        buckets[0] = np.int64(1) << position
    best_temple = limit
    for d in range(limit):
        if d + 1 >= best_temple:
            break  # every field left is at least d away: none reaches the temple sooner
        while buckets[d]:
            bits = buckets[d]
            low = bits & -bits
            buckets[d] = bits ^ low
            cell = single_bit_index(low)
            if dist[cell] != d:
                continue  # reached sooner since
            exits = TILE_EXITS[tiles[cell]] if tiles[cell] != NO_TILE else 15
            for way in range(4):
                if not exits & DIRECTIONS[way]:
                    continue
                nxt = NEIGHBOUR[cell, way]
                if nxt < 0:
                    if EDGE_JUNGLE[cell, way] == temple:
                        best_temple = min(best_temple, d + 1)
                    continue
                tile = tiles[nxt]
                if tile == NO_TILE:
                    cost = _EMPTY
                elif TILE_EXITS[tile] & OPPOSITE[way]:
                    cost = 1
                else:
                    continue
                if (blocked >> nxt) & 1:
                    cost += _BLOCKED
                if d + cost < dist[nxt] and d + cost <= limit:
                    dist[nxt] = d + cost
                    buckets[d + cost] |= np.int64(1) << nxt
    return float(best_temple)


@njit(cache=True)
def island_value(state, tiles, positions, points, buckets, dist):
    value = points
    for c in range(NUM_COLOURS):
        if positions[c] != IN_TEMPLE:
            beach = state[ADVENTURER_BEACH + c] - 1
            temple = state[TEMPLE_JUNGLE + c] - 1
            value -= DISTANCE_WEIGHT * temple_distance(tiles, positions, c, beach, temple, buckets, dist)
    for cell in range(NUM_CELLS):
        if tiles[cell] != NO_TILE:
            value += LAID_BONUS
    return value


@njit(cache=True)
def draft_action(state, mask):
    """Draft: the first colour and beach offered; its temple on the nearest legal jungle space
    (every island gets the same layout, so this favours nobody)."""
    if mask[DRAFT_TEMPLE_BASE:].sum() == 0:
        for a in range(DRAFT_ADVENTURER_BASE, DRAFT_TEMPLE_BASE):
            if mask[a]:
                return a
    beach_cell = BEACH_CELL[state[ADVENTURER_BEACH + state[DRAFT_COLOUR]] - 1]
    best, best_distance = -1, 1 << 30
    for a in range(DRAFT_TEMPLE_BASE, N_ACTIONS):
        if mask[a]:
            cell = JUNGLE_CELL[a - DRAFT_TEMPLE_BASE]
            distance = abs(cell // COLS - beach_cell // COLS) + abs(cell % COLS - beach_cell % COLS)
            if distance < best_distance:
                best, best_distance = a, distance
    return best


@njit(cache=True)
def heuristic_action(state: np.ndarray, player: int, salt: int = 0) -> int:
    """Greedy one-decision look-ahead on the player's own island: points now (temple
    treasures, crystals, gold) minus the estimated distance of each adventurer to its temple."""
    return greedy_action(state, player, salt, ALL_FIELDS)


@njit(cache=True)
def focused_action(state: np.ndarray, player: int, salt: int = 0) -> int:
    """heuristic_action weighing only the tiles laid beside an adventurer's path (or on its
    beach field): the search's playout player (playout_policy), about a quarter of the
    bot's work a move."""
    tiles = state[CELL_TILE + player * NUM_CELLS : CELL_TILE + (player + 1) * NUM_CELLS]
    fields = np.int64(0)
    for colour in range(NUM_COLOURS):
        position = state[ADVENTURER_POS + player * NUM_COLOURS + colour]
        if position == IN_TEMPLE:
            continue
        beach = state[ADVENTURER_BEACH + colour] - 1
        reach = path_reach(tiles, beach, position)
        if reach == 0:
            fields |= np.int64(1) << BEACH_CELL[beach]
        for cell in range(NUM_CELLS):
            if (reach >> cell) & 1:
                for way in range(4):
                    if NEIGHBOUR[cell, way] >= 0:
                        fields |= np.int64(1) << NEIGHBOUR[cell, way]
    return greedy_action(state, player, salt, fields)


@njit(cache=True)
def greedy_action(state, player, salt, fields):
    """heuristic_action, laying the tile only on the fields of the bit set `fields`."""
    mask = np.zeros(N_ACTIONS, np.int8)
    legal_mask(state, player, mask)
    if state[PHASE] == PHASE_DRAFT:
        return draft_action(state, mask)
    n = state[NUM_PLAYERS]
    tile = current_tile(state)
    tiles = state[CELL_TILE + player * NUM_CELLS : CELL_TILE + (player + 1) * NUM_CELLS].copy()
    positions = state[
        ADVENTURER_POS + player * NUM_COLOURS : ADVENTURER_POS + (player + 1) * NUM_COLOURS
    ].copy()
    buckets, dist = new_scratch()
    best_action, best_value = DISCARD, island_value(state, tiles, positions, 0.0, buckets, dist)
    best_key = tie_key(salt, state, DISCARD)
    for action in range(N_PLAY_ACTIONS):
        if not mask[action] or action == DISCARD:
            continue
        if action < MOVE_BASE and not (fields >> action) & 1:
            continue
        points = 0.0
        if action < MOVE_BASE:
            tiles[action] = tile
            value = island_value(state, tiles, positions, points, buckets, dist)
            tiles[action] = NO_TILE
        else:
            colour, target = divmod(action - MOVE_BASE, MOVE_TARGETS)
            start = positions[colour]
            if target == TEMPLE_TARGET:
                positions[colour] = IN_TEMPLE
                taken = state[STACK_TAKEN + colour]
                points = TREASURE_VALUES[n, taken]
            else:
                positions[colour] = target
                points = ITEM_POINTS[state[CELL_ITEM + player * NUM_CELLS + target]]
            value = island_value(state, tiles, positions, points, buckets, dist)
            positions[colour] = start
        key = tie_key(salt, state, action)
        if value > best_value or (value == best_value and key > best_key):
            best_value, best_action, best_key = value, action, key
    return best_action


class KarubaBot(KernelBot):
    """Lays tiles that shorten its adventurers' way to their temples, walks them there, and
    picks up crystals and gold on the way."""

    policy = staticmethod(heuristic_action)


@njit(cache=True)
def path_reach(tiles, beach, position):
    """The fields an adventurer could walk to over the laid tiles, paths joined (other
    adventurers ignored), as a bit set: from its field, or from the beach onto a tile facing it."""
    if position == ON_BEACH:
        cell = BEACH_CELL[beach]
        tile = tiles[cell]
        if tile == NO_TILE or not TILE_EXITS[tile] & BEACH_SIDE[beach]:
            return np.int64(0)
        position = cell
    reach = np.int64(1) << position
    frontier = reach
    while frontier:
        grown = np.int64(0)
        for cell in range(NUM_CELLS):
            if not (frontier >> cell) & 1:
                continue
            exits = TILE_EXITS[tiles[cell]]
            for d in range(4):
                nxt = NEIGHBOUR[cell, d]
                if exits & DIRECTIONS[d] and nxt >= 0 and not (reach >> nxt) & 1:
                    tile = tiles[nxt]
                    if tile != NO_TILE and TILE_EXITS[tile] & OPPOSITE[d]:
                        grown |= np.int64(1) << nxt
        reach |= grown
        frontier = grown
    return reach


VALUE_SCALE = 3.0  # points of lead that count about 0.76 of a win (estimated_rewards)


@njit(cache=True)
def playout_value(state: np.ndarray, out: np.ndarray) -> None:
    """The search's value of a playout cut before the end (treasure_core.codegen): each
    player's lead in the bot's island_value (points now minus DISTANCE_WEIGHT per estimated
    step of each adventurer to its temple), in the range of the returns."""
    n = state[NUM_PLAYERS]
    points = np.zeros(n, np.int64)
    tiebreaks = np.zeros(n, np.int64)
    scores(state, points, tiebreaks)
    values = np.zeros(n, np.float64)
    buckets, dist = new_scratch()
    for p in range(n):
        tiles = state[CELL_TILE + p * NUM_CELLS : CELL_TILE + (p + 1) * NUM_CELLS]
        positions = state[ADVENTURER_POS + p * NUM_COLOURS : ADVENTURER_POS + (p + 1) * NUM_COLOURS]
        values[p] = island_value(state, tiles, positions, float(points[p]), buckets, dist)
    estimated_rewards(values, n, state[REWARD_MODE], VALUE_SCALE, out)


# The search's playouts (treasure_core.codegen: batch.py calls these by name): the cheap
# focused_action, not the scripted bot (its playouts cost about four times as much).
playout_policy = focused_action
# playout_value (above) scores a playout the search cuts before the end.
