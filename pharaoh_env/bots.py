"""A scripted Het goud van de Farao player. It reads only what its seat may know: the open
pyramid, the figures, lamps and treasure slots, the values it has seen (an unseen treasure
counts 2.5) and the photographs left in the camera; never a face-down tile nor the camera's
order (tests check that re-dealing those never changes its choice)."""

from __future__ import annotations

import numpy as np
from numba import njit

from pharaoh_env.data import (
    DIRECTIONS,
    NEIGHBOUR,
    NUM_CELLS,
    NUM_SLOTS,
    OPPOSITE,
    PHOTO_CURSE,
    PHOTO_MUMMY,
    PHOTO_TREASURES,
    ROTATED,
    START_CELL,
    TILE_EXITS,
)
from pharaoh_env.kernels import connected, legal_mask, value_known
from pharaoh_env.state import (
    ACTIONS_USED,
    ARCH_CELL,
    ARCH_DISCOVER_BASE,
    ARCH_MOVE_BASE,
    CARRIED,
    CELL_EXITS,
    CELL_STATUS,
    CELL_TILE,
    CLOSED,
    COLLAPSE,
    HELPER_CELL,
    HELPER_LAMP_BASE,
    HELPER_MOVE_BASE,
    HELPER_ROTATE_BASE,
    LYING,
    MASK_CELL,
    N_ACTIONS,
    OPEN,
    ORIENT_BASE,
    PASS_ACTION,
    PENDING_CELL,
    PHASE,
    PHASE_ORIENT,
    PHASE_PHOTO,
    PHOTO_BASE,
    SLOT_AT,
    SLOT_STATE,
    SLOT_VALUE,
    STEAL_BASE,
    TAKE_BASE,
    TIMER,
)
from treasure_core.agents import KernelBot
from treasure_core.kernels import tie_key

UNSEEN_VALUE = 2.5  # the mean of 4 x 2 and 4 x 3
FAR = 1 << 20


@njit(cache=True)
def distance_to(state, goals, dist):
    """Open-route distances from every cell to the nearest cell of the bit set `goals`."""
    for c in range(NUM_CELLS):
        dist[c] = FAR
    queue = np.empty(NUM_CELLS, np.int64)
    tail = 0
    for c in range(NUM_CELLS):
        if (goals >> c) & 1:
            dist[c] = 0
            queue[tail] = c
            tail += 1
    head = 0
    while head < tail:
        c = queue[head]
        head += 1
        for d in range(4):
            other = connected(state, c, d)
            if other >= 0 and dist[other] == FAR:
                dist[other] = dist[c] + 1
                queue[tail] = other
                tail += 1


@njit(cache=True)
def best_move(state, mask, base, dist, here, salt):
    """The legal move of the block at `base` that gets closest to the goal (strictly closer than
    `here`), ties broken by tie_key; -1 if none."""
    best, best_dist, best_key = -1, dist[here], np.uint64(0)
    for c in range(NUM_CELLS):
        action = base + c
        if not mask[action]:
            continue
        key = tie_key(salt, state, action)
        if dist[c] < best_dist or (best >= 0 and dist[c] == best_dist and key > best_key):
            best, best_dist, best_key = action, dist[c], key
    return best


@njit(cache=True)
def orientation_value(state, cell, exits):
    """Exits that join an open neighbour (a way back) count 3, exits towards closed tiles 1."""
    value = 0.0
    for d in range(4):
        if not exits & DIRECTIONS[d]:
            continue
        other = NEIGHBOUR[cell, d]
        if other < 0:
            continue
        status = state[CELL_STATUS + other]
        if status == OPEN and state[CELL_EXITS + other] & OPPOSITE[d]:
            value += 3.0
        elif status == CLOSED:
            value += 1.0
    return value


@njit(cache=True)
def heuristic_action(state: np.ndarray, player: int, salt: int = 0) -> int:
    """Take every treasure in reach; carry treasures home; walk to lying treasures; discover
    tiles (oriented to keep a way back); run home once the collapse has started; when stuck,
    rotate or wander."""
    mask = np.zeros(N_ACTIONS, np.int8)
    legal_mask(state, player, mask)
    best, best_value, best_key = PASS_ACTION, -1e9, np.uint64(0)
    if state[PHASE] == PHASE_ORIENT:
        cell = state[PENDING_CELL]
        exits = TILE_EXITS[state[CELL_TILE + cell]]
        for rot in range(4):
            action = ORIENT_BASE + rot
            if mask[action]:
                value = orientation_value(state, cell, ROTATED[exits, rot])
                key = tie_key(salt, state, action)
                if value > best_value or (value == best_value and key > best_key):
                    best, best_value, best_key = action, value, key
        return best
    if state[PHASE] == PHASE_PHOTO:
        for photo in range(PHOTO_TREASURES.size):
            action = PHOTO_BASE + photo
            if mask[action]:
                value = (
                    UNSEEN_VALUE * PHOTO_TREASURES[photo]
                    - 1.5 * PHOTO_MUMMY[photo]
                    - 0.5 * PHOTO_CURSE[photo]
                )
                key = tie_key(salt, state, action)
                if value > best_value or (value == best_value and key > best_key):
                    best, best_value, best_key = action, value, key
        return best
    # Free: take or steal the most valuable treasure in reach.
    for slot in range(NUM_SLOTS):
        for action in (TAKE_BASE + slot, STEAL_BASE + slot):
            if mask[action]:
                value = state[SLOT_VALUE + slot] if value_known(state, slot, player) else UNSEEN_VALUE
                if value > best_value:
                    best, best_value = action, value
    if best != PASS_ACTION:
        return best
    if state[ACTIONS_USED] >= 3:
        return PASS_ACTION
    dist = np.empty(NUM_CELLS, np.int64)
    arch = state[ARCH_CELL + player]
    helper = state[HELPER_CELL + player]
    # The collapse has started or the timer runs out: go home.
    collapsing = state[COLLAPSE] != 0 or (state[MASK_CELL] >= 0 and state[TIMER] >= 2)
    start = np.int64(1) << START_CELL
    if arch >= 0:
        carrying = False
        for slot in range(NUM_SLOTS):
            if state[SLOT_STATE + slot] == CARRIED and state[SLOT_AT + slot] == player:
                carrying = True
        if carrying or (collapsing and not (state[MASK_CELL] == arch and state[COLLAPSE] == 0)):
            if arch != START_CELL:
                distance_to(state, start, dist)
                move = best_move(state, mask, ARCH_MOVE_BASE, dist, arch, salt)
                if move >= 0:
                    return move
        else:
            lying = np.int64(0)
            for slot in range(NUM_SLOTS):
                if state[SLOT_STATE + slot] == LYING:
                    lying |= np.int64(1) << state[SLOT_AT + slot]
            if lying:
                distance_to(state, lying, dist)
                move = best_move(state, mask, ARCH_MOVE_BASE, dist, arch, salt)
                if move >= 0:
                    return move
            if not collapsing:
                # Discover: any closed tile the archaeologist can open.
                for d in range(4):
                    action = ARCH_DISCOVER_BASE + d
                    if mask[action]:
                        key = tie_key(salt, state, action)
                        if best == PASS_ACTION or key > best_key:
                            best, best_key = action, key
                if best != PASS_ACTION:
                    return best
                # Walk to the nearest tile with a passage towards a closed tile.
                frontier = np.int64(0)
                for c in range(NUM_CELLS):
                    exits = state[CELL_EXITS + c]
                    for d in range(4):
                        other = NEIGHBOUR[c, d]
                        if exits & DIRECTIONS[d] and other >= 0 and state[CELL_STATUS + other] == CLOSED:
                            frontier |= np.int64(1) << c
                if frontier:
                    distance_to(state, frontier, dist)
                    move = best_move(state, mask, ARCH_MOVE_BASE, dist, arch, salt)
                    if move >= 0:
                        return move
    if helper >= 0 and collapsing and helper != START_CELL:
        distance_to(state, start, dist)
        move = best_move(state, mask, HELPER_MOVE_BASE, dist, helper, salt)
        if move >= 0:
            return move
    if collapsing:
        return PASS_ACTION
    # Stuck: the helper goes to an open tile beside a closed one, in the archaeologist's part of
    # the pyramid, and turns it to open a passage towards the closed tile.
    if helper >= 0 and arch >= 0:
        distance_to(state, np.int64(1) << arch, dist)
        border = np.int64(0)
        for c in range(NUM_CELLS):
            if c == START_CELL or dist[c] == FAR or state[CELL_STATUS + c] != OPEN:
                continue
            for d in range(4):
                other = NEIGHBOUR[c, d]
                if other >= 0 and state[CELL_STATUS + other] == CLOSED:
                    border |= np.int64(1) << c
        exits = state[CELL_EXITS + helper] if helper >= 0 else 0
        facing_closed = False
        for d in range(4):
            other = NEIGHBOUR[helper, d]
            if exits & DIRECTIONS[d] and other >= 0 and state[CELL_STATUS + other] == CLOSED:
                facing_closed = True
        if (border >> helper) & 1 and not facing_closed:
            for turns in range(1, 4):
                action = HELPER_ROTATE_BASE + turns - 1  # target 0: its own tile
                if mask[action]:
                    value = orientation_value(state, helper, ROTATED[exits, turns])
                    key = tie_key(salt, state, action)
                    if value > best_value or (value == best_value and key > best_key):
                        best, best_value, best_key = action, value, key
            if best != PASS_ACTION and best_value >= 4.0:
                return best
            best, best_value = PASS_ACTION, -1e9
        elif border:
            distance_to(state, border, dist)
            move = best_move(state, mask, HELPER_MOVE_BASE, dist, helper, salt)
            if move >= 0:
                return move
    # Still stuck: rotate a tile with the helper, or wander with either figure.
    for action in range(HELPER_ROTATE_BASE, HELPER_LAMP_BASE):
        if mask[action]:
            key = tie_key(salt, state, action)
            if best == PASS_ACTION or key > best_key:
                best, best_key = action, key
    for c in range(NUM_CELLS):
        for action in (ARCH_MOVE_BASE + c, HELPER_MOVE_BASE + c):
            if mask[action]:
                key = tie_key(salt, state, action)
                if best == PASS_ACTION or key > best_key:
                    best, best_key = action, key
    return best


class PharaohBot(KernelBot):
    """Explores, carries treasures home and leaves the pyramid when it collapses."""

    policy = staticmethod(heuristic_action)
