"""Scripted Karuba players. They read only what their seat may know: every island, the tile
showing and the treasure stacks; never the undrawn order nor the others' pending decisions
(tests check that re-dealing those never changes a bot's choice)."""

from __future__ import annotations

import numpy as np
from numba import njit

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
from karuba_env.kernels import current_tile, legal_mask
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
from treasure_core.header import NUM_PLAYERS
from treasure_core.kernels import tie_key

EMPTY_COST = 4.0  # entering a free field: a tile must be laid there first (a turn), then walked
BLOCKED_COST = 2.0  # a field another of my adventurers stands on (it may move away)
UNREACHABLE = 30.0  # distance charged to an adventurer walled in from its temple
DISTANCE_WEIGHT = 0.5  # points per step of estimated distance to the temple
LAID_BONUS = 0.01  # a tile on the island breaks ties in the final scoring
_INFINITY = 1e9


@njit(cache=True)
def temple_distance(tiles, positions, colour, beach, temple):
    """Estimated steps from adventurer `colour` to its temple (0-based jungle `temple`): a
    shortest path where laid tiles must connect, free fields cost EMPTY_COST, and fields held
    by my other adventurers cost extra (Dijkstra over the 30 fields)."""
    dist = np.full(NUM_CELLS + 1, _INFINITY)
    done = np.zeros(NUM_CELLS + 1, np.bool_)
    position = positions[colour]
    if position == ON_BEACH:
        cell = BEACH_CELL[beach]
        tile = tiles[cell]
        if tile == NO_TILE:
            dist[cell] = EMPTY_COST
        elif TILE_EXITS[tile] & BEACH_SIDE[beach]:
            dist[cell] = 1.0
    else:
        dist[position] = 0.0
    for _ in range(NUM_CELLS + 1):
        best = -1
        for v in range(NUM_CELLS + 1):
            if not done[v] and dist[v] < _INFINITY and (best < 0 or dist[v] < dist[best]):
                best = v
        if best < 0 or best == NUM_CELLS:
            break
        done[best] = True
        exits = TILE_EXITS[tiles[best]] if tiles[best] != NO_TILE else 15
        for d in range(4):
            if not exits & DIRECTIONS[d]:
                continue
            nxt = NEIGHBOUR[best, d]
            if nxt < 0:
                if EDGE_JUNGLE[best, d] == temple and dist[best] + 1.0 < dist[NUM_CELLS]:
                    dist[NUM_CELLS] = dist[best] + 1.0
                continue
            tile = tiles[nxt]
            if tile == NO_TILE:
                cost = EMPTY_COST
            elif TILE_EXITS[tile] & OPPOSITE[d]:
                cost = 1.0
            else:
                continue
            for other in range(NUM_COLOURS):
                if other != colour and positions[other] == nxt:
                    cost += BLOCKED_COST
            if dist[best] + cost < dist[nxt]:
                dist[nxt] = dist[best] + cost
    return min(dist[NUM_CELLS], UNREACHABLE)


@njit(cache=True)
def island_value(state, tiles, positions, points):
    value = points
    for c in range(NUM_COLOURS):
        if positions[c] != IN_TEMPLE:
            beach = state[ADVENTURER_BEACH + c] - 1
            temple = state[TEMPLE_JUNGLE + c] - 1
            value -= DISTANCE_WEIGHT * temple_distance(tiles, positions, c, beach, temple)
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
    best_action, best_value = DISCARD, island_value(state, tiles, positions, 0.0)
    best_key = tie_key(salt, state, DISCARD)
    for action in range(N_PLAY_ACTIONS):
        if not mask[action] or action == DISCARD:
            continue
        points = 0.0
        if action < MOVE_BASE:
            tiles[action] = tile
            value = island_value(state, tiles, positions, points)
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
            value = island_value(state, tiles, positions, points)
            positions[colour] = start
        key = tie_key(salt, state, action)
        if value > best_value or (value == best_value and key > best_key):
            best_value, best_action, best_key = value, action, key
    return best_action


class KarubaBot(KernelBot):
    """Lays tiles that shorten its adventurers' way to their temples, walks them there, and
    picks up crystals and gold on the way."""

    policy = staticmethod(heuristic_action)


# The search's bot playout (treasure_core.codegen: batch.py calls the policy by this name).
playout_policy = heuristic_action
