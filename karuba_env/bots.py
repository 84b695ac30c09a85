"""Scripted Karuba players. They read only what their seat may know: every island, the tile
showing and the treasure stacks; never the undrawn order nor the others' pending decisions
(tests check that re-dealing those never changes a bot's choice)."""

from __future__ import annotations

import numpy as np

from karuba_env.data import (
    BEACH_CELL,
    COLS,
    ITEM_POINTS,
    JUNGLE_CELL,
    NEIGHBOUR,
    NUM_CELLS,
    NUM_COLOURS,
    TREASURE_VALUES,
)
from karuba_env.kernels import (
    ALL_FIELDS,
    current_tile,
    island_distance,
    island_paths,
    legal_mask,
    new_scratch,
    path_reach,
    scores,
)
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

DISTANCE_WEIGHT = 0.5  # points per step of estimated distance to the temple
LAID_BONUS = 0.01  # a tile on the island breaks ties in the final scoring


@njit(cache=True)
def island_value(state, tiles, positions, points, reached):
    value = points
    paths = island_paths(tiles)
    for c in range(NUM_COLOURS):
        if positions[c] != IN_TEMPLE:
            beach = state[ADVENTURER_BEACH + c] - 1
            temple = state[TEMPLE_JUNGLE + c] - 1
            value -= DISTANCE_WEIGHT * island_distance(paths, tiles, positions, c, beach, temple, reached)
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
    paths = island_paths(tiles)
    fields = np.int64(0)
    for colour in range(NUM_COLOURS):
        position = state[ADVENTURER_POS + player * NUM_COLOURS + colour]
        if position == IN_TEMPLE:
            continue
        beach = state[ADVENTURER_BEACH + colour] - 1
        reach = path_reach(paths, tiles, beach, position)
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
    reached = new_scratch()
    best_action, best_value = DISCARD, island_value(state, tiles, positions, 0.0, reached)
    best_key = tie_key(salt, state, DISCARD)
    for action in range(N_PLAY_ACTIONS):
        if not mask[action] or action == DISCARD:
            continue
        if action < MOVE_BASE and not (fields >> action) & 1:
            continue
        points = 0.0
        if action < MOVE_BASE:
            tiles[action] = tile
            value = island_value(state, tiles, positions, points, reached)
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
            value = island_value(state, tiles, positions, points, reached)
            positions[colour] = start
        key = tie_key(salt, state, action)
        if value > best_value or (value == best_value and key > best_key):
            best_value, best_action, best_key = value, action, key
    return best_action


class KarubaBot(KernelBot):
    """Lays tiles that shorten its adventurers' way to their temples, walks them there, and
    picks up crystals and gold on the way."""

    policy = staticmethod(heuristic_action)


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
    reached = new_scratch()
    for p in range(n):
        tiles = state[CELL_TILE + p * NUM_CELLS : CELL_TILE + (p + 1) * NUM_CELLS]
        positions = state[ADVENTURER_POS + p * NUM_COLOURS : ADVENTURER_POS + (p + 1) * NUM_COLOURS]
        values[p] = island_value(state, tiles, positions, float(points[p]), reached)
    estimated_rewards(values, n, state[REWARD_MODE], VALUE_SCALE, out)


# The search's playouts (treasure_core.codegen: batch.py calls these by name): the cheap
# focused_action, not the scripted bot (its playouts cost about four times as much).
playout_policy = focused_action
# playout_value (above) scores a playout the search cuts before the end.
