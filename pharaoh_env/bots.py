"""A scripted Het goud van de Farao player. It reads only what its seat may know: the open
pyramid, the figures, lamps and treasure slots, the values it has seen (an unseen treasure
counts 2.5) and the photographs left in the camera; never a face-down tile nor the camera's
order (tests check that re-dealing those never changes its choice)."""

from __future__ import annotations

import numpy as np

from pharaoh_env.data import (
    ACTIONS_PER_TURN,
    ARCHAEOLOGIST_PENALTY,
    DIRECTIONS,
    HELPER_PENALTY,
    MASK_SLOT,
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
from pharaoh_env.kernels import (
    connected,
    legal_mask,
    rotation_target,
    scores,
    set_orientation,
    value_known,
)
from pharaoh_env.state import (
    ACTIONS_USED,
    ARCH_CELL,
    ARCH_DISCOVER_BASE,
    ARCH_LAMP_BASE,
    ARCH_MOVE_BASE,
    CARRIED,
    CELL_EXITS,
    CELL_ROT,
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
    PHASE_PLAY,
    PHOTO_BASE,
    REMOVED_CLOSED,
    ROTATE_TURNS,
    ROUNDS_DONE,
    SLOT_AT,
    SLOT_STATE,
    SLOT_VALUE,
    STEAL_BASE,
    TAKE_BASE,
    TIMER,
)
from treasure_core.agents import KernelBot
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, REWARD_MODE
from treasure_core.jit import njit
from treasure_core.kernels import tie_key
from treasure_core.playout_value import estimated_rewards

UNSEEN_VALUE = 2.5  # the mean of 4 x 2 and 4 x 3
FAR = 1 << 20
LONG_GAME_ROUNDS = 60  # past this many rounds the bot mixes in wandering (bots' p95 is under 50)


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


NO_PLAN = -1  # planned_action: no plan applies, the figures are stuck


@njit(cache=True)
def carries(state: np.ndarray, player: int) -> bool:
    """Whether the player's archaeologist carries a treasure."""
    for slot in range(NUM_SLOTS):
        if state[SLOT_STATE + slot] == CARRIED and state[SLOT_AT + slot] == player:
            return True
    return False


@njit(cache=True)
def collapse_looms(state: np.ndarray) -> bool:
    """The collapse has started or the timer runs out: the bots go home."""
    return state[COLLAPSE] != 0 or (state[MASK_CELL] >= 0 and state[TIMER] >= 2)


@njit(cache=True)
def planned_action(
    state: np.ndarray, mask: np.ndarray, player: int, salt: int, dist: np.ndarray, may_wander: bool
) -> int:
    """The bot's plans in a free turn, shared by heuristic_action and playout_action: take,
    carry home, walk to a lying treasure, discover, walk towards a closed tile, and in the
    collapse run home. An action (PASS_ACTION when the turn is over), or NO_PLAN when the
    figures are stuck. `may_wander`: a game far longer than usual plays wander's moves."""
    # Free: take or steal the most valuable treasure in reach; the mask (whose carrying off
    # starts the collapse) only with an open route home planned from here.
    best, best_value, best_key = PASS_ACTION, -1e9, np.uint64(0)
    arch = state[ARCH_CELL + player]
    home_known = False
    if arch >= 0 and (mask[TAKE_BASE + MASK_SLOT] or mask[STEAL_BASE + MASK_SLOT]):
        distance_to(state, np.int64(1) << START_CELL, dist)
        home_known = dist[arch] < FAR
    for slot in range(NUM_SLOTS):
        if slot == MASK_SLOT and not home_known:
            continue
        for action in (TAKE_BASE + slot, STEAL_BASE + slot):
            if mask[action]:
                value = state[SLOT_VALUE + slot] if value_known(state, slot, player) else UNSEEN_VALUE
                if value > best_value:
                    best, best_value = action, value
    if best != PASS_ACTION:
        return best
    if state[ACTIONS_USED] >= ACTIONS_PER_TURN:
        return PASS_ACTION
    helper = state[HELPER_CELL + player]
    collapsing = collapse_looms(state)
    if (
        may_wander
        and not collapsing
        and state[ROUNDS_DONE] >= LONG_GAME_ROUNDS
        and (tie_key(salt, state, N_ACTIONS) & 1)
    ):
        # A game far longer than the bot's usual: its plan is going round in circles (the
        # figures in parts of the pyramid no plan joins). Every other decision it plays a legal
        # move, rotation or discovery by its tie key, as a random player would, until the
        # plans work again.
        escape = wander(state, mask, salt)  # may_wander: the scripted bot only
        if escape >= 0:
            return escape
    start = np.int64(1) << START_CELL
    carrying = carries(state, player)
    if arch >= 0:
        going_home = collapsing and not (state[MASK_CELL] == arch and state[COLLAPSE] == 0)
        if (carrying or going_home) and arch != START_CELL:
            distance_to(state, start, dist)
            move = best_move(state, mask, ARCH_MOVE_BASE, dist, arch, salt)
            if move >= 0:
                return move
            # No way home: open one, by discovering (below) or by a rotation.
        if not carrying and not going_home:
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
            # Discover: any closed tile the archaeologist can open (it may open a way home too).
            for d in range(4):
                action = ARCH_DISCOVER_BASE + d
                if mask[action]:
                    key = tie_key(salt, state, action)
                    if best == PASS_ACTION or key > best_key:
                        best, best_key = action, key
            if best != PASS_ACTION:
                return best
            if not carrying:
                # Walk to the nearest tile with a passage towards a closed tile.
                frontier = discover_spots(state)
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
    if collapsing or helper < 0 or arch < 0:
        return PASS_ACTION
    return NO_PLAN


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
    dist = np.empty(NUM_CELLS, np.int64)
    plan = planned_action(state, mask, player, salt, dist, True)
    if plan != NO_PLAN:
        return plan
    arch = state[ARCH_CELL + player]
    helper = state[HELPER_CELL + player]
    carrying = carries(state, player)
    # Stuck: the helper opens a way by rotation, a rotation that brings the archaeologist closer
    # to its goal (home when it carries, else a closed tile to discover) or widens its reach;
    # never one that leaves it worse off (that walls off the last closed tiles).
    rotation, stand = best_rotation(state, mask, player, arch, helper, carrying, salt)
    if rotation >= 0 and stand == arch:
        return rotation
    if rotation >= 0:
        distance_to(state, np.int64(1) << stand, dist)
        move = best_move(state, mask, ARCH_MOVE_BASE, dist, arch, salt)
        if move >= 0:
            return move
    # Nothing to turn from here. A tile beside a closed one can always be turned towards it
    # while the archaeologist stands on it: the archaeologist walks to the nearest such border
    # tile, and the helper to it or next to it (its reach), then turns it (best_rotation).
    border = border_cells(state)
    to_arch = np.empty(NUM_CELLS, np.int64)
    to_helper = np.empty(NUM_CELLS, np.int64)
    distance_to(state, np.int64(1) << arch, to_arch)
    distance_to(state, np.int64(1) << helper, to_helper)
    best_cost, meet, post = FAR, -1, -1
    for c in range(NUM_CELLS):
        if not (border >> c) & 1 or to_arch[c] >= FAR:
            continue
        for d in range(5):  # the helper on the tile (d 4) or on an open neighbour
            spot = c if d == 4 else NEIGHBOUR[c, d]
            if spot < 0 or state[CELL_STATUS + spot] != OPEN or to_helper[spot] >= FAR:
                continue
            cost = to_arch[c] + to_helper[spot]
            if cost < best_cost:
                best_cost, meet, post = cost, c, spot
    if meet >= 0:
        if arch != meet:
            distance_to(state, np.int64(1) << meet, dist)
            move = best_move(state, mask, ARCH_MOVE_BASE, dist, arch, salt)
            if move >= 0:
                return move
        if helper != post:
            distance_to(state, np.int64(1) << post, dist)
            move = best_move(state, mask, HELPER_MOVE_BASE, dist, helper, salt)
            if move >= 0:
                return move
    # Still stuck: the archaeologist walks towards its helper (the helper's part may connect).
    distance_to(state, np.int64(1) << helper, dist)
    move = best_move(state, mask, ARCH_MOVE_BASE, dist, arch, salt)
    if move >= 0:
        return move
    return PASS_ACTION


@njit(cache=True)
def walls_off(trial, helper, index):
    """Whether the helper's rotation `index` would leave no open tile facing a closed one (the
    last closed tiles walled off: no discovery could ever follow). `trial` is given back as it
    came."""
    cell = rotation_target(trial, helper, index // ROTATE_TURNS)
    if cell < 0:
        return False
    rot = trial[CELL_ROT + cell]
    set_orientation(trial, cell, (rot + index % ROTATE_TURNS + 1) % 4)
    walled = discover_spots(trial) == 0
    set_orientation(trial, cell, rot)
    return walled


@njit(cache=True)
def wander(state, mask, salt):
    """A legal move, rotation or discovery of either figure, by tie key; -1 if none. Never a
    rotation that walls off the last closed tiles while a way to them is open."""
    best, best_key = -1, np.uint64(0)
    ways_open = discover_spots(state) != 0
    trial = state.copy()
    helper = state[HELPER_CELL + state[CURRENT_PLAYER]]
    for action in range(ARCH_MOVE_BASE, HELPER_LAMP_BASE):
        if mask[action] and not ARCH_LAMP_BASE <= action < TAKE_BASE:
            rotation = HELPER_ROTATE_BASE <= action < HELPER_LAMP_BASE
            if rotation and ways_open and walls_off(trial, helper, action - HELPER_ROTATE_BASE):
                continue
            key = tie_key(salt, state, action)
            if best < 0 or key > best_key:
                best, best_key = action, key
    return best


@njit(cache=True)
def discover_spots(state):
    """Open tiles with a passage towards a closed tile, as a bit set."""
    spots = np.int64(0)
    for c in range(NUM_CELLS):
        exits = state[CELL_EXITS + c]
        for d in range(4):
            other = NEIGHBOUR[c, d]
            if exits & DIRECTIONS[d] and other >= 0 and state[CELL_STATUS + other] == CLOSED:
                spots |= np.int64(1) << c
    return spots


@njit(cache=True)
def border_cells(state):
    """Open pyramid tiles beside a closed tile (one can be turned to face it), as a bit set."""
    border = np.int64(0)
    for c in range(NUM_CELLS):
        if c == START_CELL or state[CELL_STATUS + c] != OPEN:
            continue
        for d in range(4):
            other = NEIGHBOUR[c, d]
            if other >= 0 and state[CELL_STATUS + other] == CLOSED:
                border |= np.int64(1) << c
    return border


GOAL_HOME = 0  # way_score's goals: the start tile (a carrier)
GOAL_DISCOVER = 1  # a tile with a passage towards a closed tile
GOAL_BORDER = 2  # a tile beside a closed tile


@njit(cache=True)
def way_score(state, arch, goal, dist):
    """How far the archaeologist is from its goal (lower is better): 64 x the open-route
    distance to the nearest goal cell (GOAL_*), minus the cells it reaches (FAR x 64 without
    any route)."""
    distance_to(state, np.int64(1) << arch, dist)
    if goal == GOAL_HOME:
        goals = np.int64(1) << START_CELL
    elif goal == GOAL_DISCOVER:
        goals = discover_spots(state)
    else:
        goals = border_cells(state)
    nearest = FAR
    reach = 0
    for c in range(NUM_CELLS):
        if dist[c] < FAR:
            reach += 1
            if (goals >> c) & 1 and dist[c] < nearest:
                nearest = dist[c]
    return nearest * 64 - reach


@njit(cache=True)
def best_rotation(state, mask, player, arch, helper, carrying, salt):
    """The helper's legal rotation that most improves way_score, for the first goal that one
    improves (a carrier's way home, a tile to discover from, a tile beside a closed one), and
    the cell the archaeologist must stand on first (itself if none): a tile of its part of the
    pyramid, turned while it stands there, takes it along. (-1, arch) if none improves any."""
    dist = np.empty(NUM_CELLS, np.int64)
    trial = state.copy()
    distance_to(state, np.int64(1) << arch, dist)
    reach = np.int64(0)
    for c in range(NUM_CELLS):
        if dist[c] < FAR:
            reach |= np.int64(1) << c
    for goal in range(GOAL_BORDER + 1):
        if goal == GOAL_HOME and not carrying:
            continue
        now = way_score(state, arch, goal, dist)
        best, best_score, best_key, best_stand = -1, now, np.uint64(0), arch
        for index in range(HELPER_LAMP_BASE - HELPER_ROTATE_BASE):
            action = HELPER_ROTATE_BASE + index
            if not mask[action]:
                continue
            cell = rotation_target(state, helper, index // ROTATE_TURNS)
            rot = state[CELL_ROT + cell]
            set_orientation(trial, cell, (rot + index % ROTATE_TURNS + 1) % 4)
            score = way_score(trial, arch, goal, dist)
            stand = arch
            if cell != arch and (reach >> cell) & 1:
                # The archaeologist walks onto the tile first (one step counts 64).
                standing = way_score(trial, cell, goal, dist) + 64
                if standing < score:
                    score, stand = standing, cell
            set_orientation(trial, cell, rot)
            key = tie_key(salt, state, action)
            if score < best_score or (best >= 0 and score == best_score and key > best_key):
                best, best_score, best_key, best_stand = action, score, key, stand
        if best >= 0:
            return best, best_stand
    return -1, arch


class PharaohBot(KernelBot):
    """Explores, carries treasures home and leaves the pyramid when it collapses."""

    policy = staticmethod(heuristic_action)


@njit(cache=True)
def opening_rotation(
    state: np.ndarray, mask: np.ndarray, arch: int, helper: int, salt: int, dist: np.ndarray
) -> int:
    """The helper's legal rotation ("Rotate 1 pyramid tile") that gives the archaeologist the
    shortest open way home, if it has none now; -1 if none does. Only a tile the archaeologist
    reaches, or one beside those, can join it to the start tile: one breadth-first search for
    each of their rotations, the playout's cheap stand-in for the bot's best_rotation."""
    distance_to(state, np.int64(1) << arch, dist)
    near = np.int64(0)  # the tiles the archaeologist reaches and their neighbours
    for c in range(NUM_CELLS):
        if dist[c] < FAR:
            near |= np.int64(1) << c
            for d in range(4):
                if NEIGHBOUR[c, d] >= 0:
                    near |= np.int64(1) << NEIGHBOUR[c, d]
    if dist[START_CELL] < FAR:
        return -1  # a way home is open
    best, best_dist, best_key = -1, FAR, np.uint64(0)
    trial = state[:0]  # the state copy to turn tiles on, once a rotation is worth trying
    for index in range(HELPER_LAMP_BASE - HELPER_ROTATE_BASE):
        action = HELPER_ROTATE_BASE + index
        if not mask[action]:
            continue
        cell = rotation_target(state, helper, index // ROTATE_TURNS)
        if not (near >> cell) & 1:
            continue
        if trial.size == 0:
            trial = state.copy()
        rot = state[CELL_ROT + cell]
        set_orientation(trial, cell, (rot + index % ROTATE_TURNS + 1) % 4)
        distance_to(trial, np.int64(1) << START_CELL, dist)
        set_orientation(trial, cell, rot)
        key = tie_key(salt, state, action)
        if dist[arch] < best_dist or (best >= 0 and dist[arch] == best_dist and key > best_key):
            best, best_dist, best_key = action, dist[arch], key
    return best


@njit(cache=True)
def playout_action(state: np.ndarray, player: int, salt: int = 0) -> int:
    """heuristic_action's take, carry-home, walk-to-treasure, discover and run-home rules
    without its rotation search (best_rotation, the border walk, wander): walled in on its way
    home, its helper turns the tile that opens it (opening_rotation), or walks to the
    archaeologist; else stuck, a legal move or rotation of either figure by its tie key. The
    search's playout player (playout_policy): the scripted bot's plans at a fraction of its
    cost a move."""
    if state[PHASE] != PHASE_PLAY:  # orientation and photograph: the bot's cheap choices
        return heuristic_action(state, player, salt)
    mask = np.zeros(N_ACTIONS, np.int8)
    legal_mask(state, player, mask)
    dist = np.empty(NUM_CELLS, np.int64)
    plan = planned_action(state, mask, player, salt, dist, False)
    arch = state[ARCH_CELL + player]
    helper = state[HELPER_CELL + player]
    collapsing = collapse_looms(state)
    carrying = carries(state, player)
    # Walled in on the way home, with a treasure or in the collapse (planned_action found no
    # way): the helper turns the tile that opens it.
    cut_off = (carrying and plan == NO_PLAN) or (
        plan == PASS_ACTION
        and collapsing
        and state[ACTIONS_USED] < ACTIONS_PER_TURN
        and arch >= 0
        and arch != START_CELL
    )
    if cut_off and arch >= 0 and helper >= 0:
        rotation = opening_rotation(state, mask, arch, helper, salt, dist)
        if rotation >= 0:
            return rotation
        if helper != arch and not collapsing:  # none in its reach: it walks to the archaeologist
            distance_to(state, np.int64(1) << arch, dist)
            move = best_move(state, mask, HELPER_MOVE_BASE, dist, helper, salt)
            if move >= 0:
                return move
    if plan != NO_PLAN:
        return plan
    best, best_key = PASS_ACTION, np.uint64(0)
    # Stuck: a move of either figure or a rotation, by tie key (a random player's way out).
    for action in range(ARCH_MOVE_BASE, HELPER_LAMP_BASE):
        if mask[action] and not ARCH_LAMP_BASE <= action < HELPER_MOVE_BASE:
            key = tie_key(salt, state, action)
            if best == PASS_ACTION or key > best_key:
                best, best_key = action, key
    return best


# The search's bot playout (treasure_core.codegen: batch.py calls the policy by this name):
# playout_action, the bot's plans without its rotation search (the bot itself costs about
# seven random moves a move).
playout_policy = playout_action


CARRY_SHARE = 0.8  # of a carried treasure's value, with an open way home at distance 0
CARRY_DECAY = 0.04  # less per step of that way
STRANDED_SHARE = 0.4  # of a carried treasure's value, with no open way home
LYING_SHARE = 0.3  # of the nearest lying treasure's value, to an archaeologist with a way there
LYING_DECAY = 0.02  # less per step of that way
STRAY_RISK = 0.15  # the share of a figure's penalty per step from home, once the collapse looms
VALUE_SCALE = 6.0  # points of lead that count about 0.76 of a win (estimated_rewards)
WALL_STEPS = 3  # way_cost: a wall on the way, the helper's rotation (and its walk) in steps
CLOSED_STEPS = 1  # way_cost: a face-down tile on the way, discovered (it may be a chamber)


@njit(cache=True)
def step_cost(state: np.ndarray, cell: int, d: int) -> int:
    """way_cost's price of the step from `cell` to its neighbour in direction d: 1, plus
    WALL_STEPS for each side whose open tile has no passage there (a helper may turn it), plus
    CLOSED_STEPS for each face-down side (opened and laid as needed); FAR off the pyramid or
    onto a removed tile ("Tiles are removed together with everything on them")."""
    other = NEIGHBOUR[cell, d]
    if other < 0 or max(state[CELL_STATUS + cell], state[CELL_STATUS + other]) >= REMOVED_CLOSED:
        return FAR
    return 1 + side_cost(state, cell, DIRECTIONS[d]) + side_cost(state, other, OPPOSITE[d])


@njit(cache=True)
def side_cost(state: np.ndarray, cell: int, way: int) -> int:
    """step_cost's extra for one side of a step: CLOSED_STEPS for a face-down tile, WALL_STEPS
    for an open tile with no passage in direction `way`, else 0."""
    if state[CELL_STATUS + cell] == CLOSED:
        return CLOSED_STEPS
    return 0 if state[CELL_EXITS + cell] & way else WALL_STEPS


@njit(cache=True)
def way_cost(state: np.ndarray, goals: int, cost: np.ndarray) -> None:
    """The estimated steps from every cell to the nearest cell of the bit set `goals`, through
    walls a helper could turn and face-down tiles an archaeologist could open (step_cost,
    Dijkstra over the 36 cells); FAR where removed tiles cut every way."""
    done = np.zeros(NUM_CELLS, np.bool_)
    for c in range(NUM_CELLS):
        cost[c] = 0 if (goals >> c) & 1 else FAR
    for _ in range(NUM_CELLS):
        here, nearest = -1, FAR
        for c in range(NUM_CELLS):
            if not done[c] and cost[c] < nearest:
                here, nearest = c, cost[c]
        if here < 0:
            return
        done[here] = True
        for d in range(4):
            other = NEIGHBOUR[here, d]
            if other >= 0 and not done[other]:
                step = step_cost(state, here, d)
                if step < FAR and nearest + step < cost[other]:
                    cost[other] = nearest + step


@njit(cache=True)
def estimated_scores(state: np.ndarray, values: np.ndarray) -> None:
    """Each player's estimated final score, from a state the search cut before the end: its
    score now, plus a share of each treasure it carries (less the farther its way home), plus
    a share of the nearest lying treasure an empty-handed archaeologist can get to, minus
    the penalty of each figure far from home once the collapse looms ("If you lose your
    archaeologist, you receive -2 points", the helper -1). The ways are way_cost's: a wall
    costs a rotation, not the whole way, as the players turn tiles (an opponent walled in
    for a turn is not stranded)."""
    n = state[NUM_PLAYERS]
    points = np.zeros(n, np.int64)
    tiebreaks = np.zeros(n, np.int64)
    scores(state, points, tiebreaks)
    home = np.empty(NUM_CELLS, np.int64)
    way_cost(state, np.int64(1) << START_CELL, home)
    lying = np.int64(0)
    for slot in range(NUM_SLOTS):
        if state[SLOT_STATE + slot] == LYING:
            lying |= np.int64(1) << state[SLOT_AT + slot]
    to_lying = np.empty(NUM_CELLS, np.int64)
    if lying:
        way_cost(state, lying, to_lying)
    collapsing = state[COLLAPSE] != 0 or state[MASK_CELL] >= 0
    for p in range(n):
        value = float(points[p])
        arch = state[ARCH_CELL + p]
        carrying = False
        for slot in range(NUM_SLOTS):
            if state[SLOT_STATE + slot] == CARRIED and state[SLOT_AT + slot] == p:
                carrying = True
                way = home[arch] if arch >= 0 else FAR
                share = STRANDED_SHARE if way >= FAR else max(STRANDED_SHARE, CARRY_SHARE - CARRY_DECAY * way)
                value += share * state[SLOT_VALUE + slot]
        if lying and arch >= 0 and not carrying and to_lying[arch] < FAR:
            best = 0.0
            for slot in range(NUM_SLOTS):
                if state[SLOT_STATE + slot] == LYING:
                    best = max(best, float(state[SLOT_VALUE + slot]))
            value += best * max(0.0, LYING_SHARE - LYING_DECAY * to_lying[arch])
        if collapsing:  # the farther from home, the likelier lost (all of it with the way cut)
            helper = state[HELPER_CELL + p]
            if arch >= 0:
                value -= ARCHAEOLOGIST_PENALTY * min(1.0, STRAY_RISK * home[arch])
            if helper >= 0:
                value -= HELPER_PENALTY * min(1.0, STRAY_RISK * home[helper])
        values[p] = value


@njit(cache=True)
def playout_value(state: np.ndarray, out: np.ndarray) -> None:
    """The search's value of a playout cut before the end (treasure_core.codegen): each
    player's lead in estimated_scores, in the range of the returns."""
    values = np.zeros(state[NUM_PLAYERS], np.float64)
    estimated_scores(state, values)
    estimated_rewards(values, state[NUM_PLAYERS], state[REWARD_MODE], VALUE_SCALE, out)
