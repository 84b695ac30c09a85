"""Het goud van de Farao rules as @njit kernels over the flat state (layout and action space in
state.py), by the contract in docs/architecture.md; the batch forms are generated into batch.py.

Cell sets are int64 bit sets (36 cells). Exits are bits N=1, E=2, S=4, W=8."""

import numpy as np

from pharaoh_env.data import (
    ACTIONS_PER_TURN,
    ARCHAEOLOGIST_PENALTY,
    CHAMBER,
    COLLAPSE_DELAY,
    DIRECTIONS,
    HELPER_PENALTY,
    LAMPS_PER_PLAYER,
    MASK_SLOT,
    MASK_VALUE,
    NEIGHBOUR,
    NUM_CELLS,
    NUM_PHOTOS,
    NUM_PYRAMID_TILES,
    NUM_SLOTS,
    NUM_TREASURES,
    OPPOSITE,
    PHOTO_CURSE,
    PHOTO_MUMMY,
    PHOTO_POINTS,
    PHOTO_TREASURES,
    RING_DISTANCE,
    ROTATED,
    START_CELL,
    START_TILE,
    TILE_EXITS,
    TILE_KIND,
    TREASURE_VALUES,
    TURN_CEILING,
)
from pharaoh_env.state import (
    ACTIONS_USED,
    ARCH_CELL,
    ARCH_DISCOVER_BASE,
    ARCH_LAMP_BASE,
    ARCH_MOVE_BASE,
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
    EVENT_CURSE,
    EVENT_MUMMY,
    EVENT_PHOTO,
    EVENT_RING,
    FINDER,
    HELPER_CELL,
    HELPER_LAMP_BASE,
    HELPER_MOVE_BASE,
    HELPER_ROTATE_BASE,
    IN_STACK,
    LAMP,
    LAMP_LOST,
    LAMP_SUPPLY,
    LAMPS_HELPER,
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
    ORIENT_BASE,
    ORIENT_STOP,
    P_LAMPS,
    P_PHOTO,
    P_REACH,
    P_TIMER,
    P_TREASURES,
    PASS_ACTION,
    PENDING_CELL,
    PHASE,
    PHASE_ORIENT,
    PHASE_PHOTO,
    PHASE_PLAY,
    PHOTO_BASE,
    PHOTO_CHOICE,
    PHOTO_ORDER,
    PHOTO_OWNER,
    PHOTO_STOP,
    PHOTOS_TAKEN,
    REACH_PASSAGE,
    REMOVED_CLOSED,
    REMOVED_OPEN,
    ROTATE_TURNS,
    ROUNDS_DONE,
    SLOT_AT,
    SLOT_STATE,
    SLOT_VALUE,
    STEAL_BASE,
    TAKE_BASE,
    TIMER,
    TIMER_ROUNDS,
    TREASURES_DEALT,
    TREASURES_FACE_UP,
    TURN,
)
from treasure_core.header import CURRENT_PLAYER, DECISIONS, NUM_PLAYERS, RNG, TERMINAL
from treasure_core.jit import njit
from treasure_core.kernels import init_header, mask_from_bits, sort_ascending
from treasure_core.rng import rng_seed, rng_shuffle

_ONE = np.int64(1)


# -- the pyramid ---------------------------------------------------------------------------
@njit(cache=True, inline="always")
def connected(state, cell, d):
    """The neighbour of `cell` in direction d if an open passage joins them (both tiles open
    towards each other), else -1. Closed and removed cells have no exits."""
    # Without a branch: the walls vary cell by cell, and a mispredicted branch a test cost
    # five times the test (a legal mask asks it 8 times or more). Off the pyramid, `other` is
    # -1 and the read at cell 0 is ignored.
    other = NEIGHBOUR[cell, d]
    leaves = (state[CELL_EXITS + cell] & DIRECTIONS[d]) != 0
    enters = (state[CELL_EXITS + max(other, 0)] & OPPOSITE[d]) != 0
    return other if (other >= 0) & leaves & enters else -1


@njit(cache=True)
def lamp_cells(state, player):
    bits = np.int64(0)
    base = LAMP + player * NUM_CELLS
    for cell in range(NUM_CELLS):
        if state[base + cell]:
            bits |= _ONE << cell
    return bits


@njit(cache=True)
def move_targets(state, player, cell):
    """Cells a figure of `player` on `cell` reaches with one move: a neighbour through an open
    passage ("never through a wall"), and, from a tile with an own lamp, every other own-lamp
    tile joined to it through open passages by own-lamp tiles ("as if those tiles were
    adjacent")."""
    targets = np.int64(0)
    for d in range(4):
        other = connected(state, cell, d)
        targets |= np.int64(other >= 0) << max(other, 0)  # no branch, as in connected
    if state[LAMP + player * NUM_CELLS + cell]:
        lamps = lamp_cells(state, player)
        seen = _ONE << cell
        frontier = seen
        while frontier:
            grown = np.int64(0)
            rest = frontier
            c = 0
            while rest:
                if rest & 1:
                    for d in range(4):
                        other = connected(state, c, d)
                        if other >= 0:
                            bit = _ONE << other
                            if lamps & bit and not seen & bit:
                                grown |= bit
                rest >>= 1
                c += 1
            seen |= grown
            frontier = grown
        targets |= seen & ~(_ONE << cell)
    return targets


@njit(cache=True)
def distances_from(state, source, dist):
    """Breadth-first open-route distances from `source` into dist (-1: no open route)."""
    for c in range(NUM_CELLS):
        dist[c] = -1
    queue = np.empty(NUM_CELLS, np.int64)
    dist[source] = 0
    queue[0] = source
    head, tail = 0, 1
    while head < tail:
        c = queue[head]
        head += 1
        for d in range(4):
            other = connected(state, c, d)
            if other >= 0 and dist[other] < 0:
                dist[other] = dist[c] + 1
                queue[tail] = other
                tail += 1


@njit(cache=True)
def shortest_route_cells(state, chamber):
    """Every cell on some shortest open route from `chamber` to the start tile, as a bit set
    (0 without a continuous open route): "if two or more routes are equally short, the effect
    applies to all of them". The chamber itself is on the route; the start tile too."""
    from_chamber = np.empty(NUM_CELLS, np.int64)
    from_start = np.empty(NUM_CELLS, np.int64)
    distances_from(state, chamber, from_chamber)
    length = from_chamber[START_CELL]
    if length < 0:
        return np.int64(0)
    distances_from(state, START_CELL, from_start)
    cells = np.int64(0)
    for c in range(NUM_CELLS):
        if from_chamber[c] >= 0 and from_start[c] >= 0 and from_chamber[c] + from_start[c] == length:
            cells |= _ONE << c
    return cells


@njit(cache=True, inline="always")
def rotatable(state, cell):
    """Pyramid tiles that are open may be rotated (never the start tile)."""
    # Without a branch, as connected (-1, no cell: the read at cell 0 is ignored).
    return (cell >= 0) & (cell != START_CELL) & (state[CELL_STATUS + max(cell, 0)] == OPEN)


@njit(cache=True, inline="always")
def lamp_spot(state, cell):
    """A lamp goes "on an opened tile ... in the corridor": an open pyramid tile, not the start."""
    return cell != START_CELL and state[CELL_STATUS + cell] == OPEN


@njit(cache=True)
def set_orientation(state, cell, rot):
    state[CELL_ROT + cell] = rot
    state[CELL_EXITS + cell] = ROTATED[TILE_EXITS[state[CELL_TILE + cell]], rot]


# -- the legal actions -----------------------------------------------------------------------
@njit(cache=True)
def free_actions(state, player, mask, write):
    """Take and steal (not actions): treasures lying on the archaeologist's tile, and those
    another archaeologist there carries. Writes them into mask if `write`; returns how many."""
    arch = state[ARCH_CELL + player]
    if arch < 0 or arch == START_CELL:
        return 0
    count = 0
    for slot in range(NUM_SLOTS):
        where = state[SLOT_STATE + slot]
        if where == LYING and state[SLOT_AT + slot] == arch:
            if write:
                mask[TAKE_BASE + slot] = 1
            count += 1
        elif where == CARRIED:
            holder = state[SLOT_AT + slot]
            if holder != player and state[ARCH_CELL + holder] == arch:
                if write:
                    mask[STEAL_BASE + slot] = 1
                count += 1
    return count


@njit(cache=True)
def figure_moves(state, player, cell, base, mask):
    return mask_from_bits(move_targets(state, player, cell), mask, base)


@njit(cache=True)
def lamp_actions(state, player, cell, base, mask):
    count = 0
    if state[LAMP + player * NUM_CELLS + cell]:
        mask[base + 1] = 1  # pick up an own lamp from the tile
        count += 1
    elif state[LAMP_SUPPLY + player] > 0 and lamp_spot(state, cell):
        mask[base] = 1
        count += 1
    return count


@njit(cache=True)
def rotation_target(state, helper, target):
    """The cell the helper may rotate as target 0 (its own tile) or 1-4 (the neighbour N, E, S,
    W), or -1. Reach: the Russian layer's "on it, or the adjacent tile connected to it by a
    passage" (passage), or the Dutch layer's "on or next to the tile" (adjacent)."""
    if target == 0:
        return helper if rotatable(state, helper) else -1
    d = target - 1
    if state[OPT_REACH] == REACH_PASSAGE:
        cell = connected(state, helper, d)
    else:
        cell = NEIGHBOUR[helper, d]
    return cell if rotatable(state, cell) else -1


@njit(cache=True)
def play_legal_mask(state, player, mask):
    count = 1
    mask[PASS_ACTION] = 1  # a pass always ends the turn
    count += free_actions(state, player, mask, True)
    if state[ACTIONS_USED] >= ACTIONS_PER_TURN:
        return count
    arch = state[ARCH_CELL + player]
    if arch >= 0:
        count += figure_moves(state, player, arch, ARCH_MOVE_BASE, mask)
        exits = state[CELL_EXITS + arch]
        for d in range(4):
            other = NEIGHBOUR[arch, d]
            # Discover: no wall between its tile and the closed tile.
            if exits & DIRECTIONS[d] and other >= 0 and state[CELL_STATUS + other] == CLOSED:
                mask[ARCH_DISCOVER_BASE + d] = 1
                count += 1
        if state[OPT_LAMPS] != LAMPS_HELPER:
            count += lamp_actions(state, player, arch, ARCH_LAMP_BASE, mask)
    helper = state[HELPER_CELL + player]
    if helper >= 0:
        count += figure_moves(state, player, helper, HELPER_MOVE_BASE, mask)
        for target in range(5):
            cell = rotation_target(state, helper, target)
            exits = state[CELL_EXITS + max(cell, 0)]
            for turns in range(1, ROTATE_TURNS + 1):
                # A rotation that changes nothing is no action. Written without a branch (the
                # mask is cleared, so a 0 written changes nothing).
                legal = (cell >= 0) & (ROTATED[exits, turns] != exits)
                mask[HELPER_ROTATE_BASE + target * ROTATE_TURNS + turns - 1] = legal
                count += legal
        count += lamp_actions(state, player, helper, HELPER_LAMP_BASE, mask)
    return count


@njit(cache=True)
def orient_legal_mask(state, mask):
    """One action per distinct orientation of the tile just opened."""
    exits = TILE_EXITS[state[CELL_TILE + state[PENDING_CELL]]]
    count = 0
    for rot in range(4):
        new = True
        for earlier in range(rot):
            if ROTATED[exits, earlier] == ROTATED[exits, rot]:
                new = False
        if new:
            mask[ORIENT_BASE + rot] = 1
            count += 1
    return count


@njit(cache=True)
def photo_legal_mask(state, mask):
    count = 0
    for photo in range(NUM_PHOTOS):
        if state[PHOTO_OWNER + photo] == NOBODY:
            mask[PHOTO_BASE + photo] = 1
            count += 1
    return count


@njit(cache=True)
def phase(state: np.ndarray) -> int:
    return state[PHASE]


@njit(cache=True)
def legal_mask(state: np.ndarray, player: int, mask: np.ndarray) -> int:
    """`player`'s legal actions now: empty unless it is the player to act in a live game."""
    for a in range(N_ACTIONS):
        mask[a] = 0
    if state[TERMINAL] or player != state[CURRENT_PLAYER]:
        return 0
    current = state[PHASE]
    if current == PHASE_ORIENT:
        return orient_legal_mask(state, mask)
    if current == PHASE_PHOTO:
        return photo_legal_mask(state, mask)
    return play_legal_mask(state, player, mask)


# -- set-up ------------------------------------------------------------------------------
@njit(cache=True)
def init(state: np.ndarray, params: np.ndarray, seed: int) -> None:
    init_header(state, params, seed)
    n = state[NUM_PLAYERS]
    state[OPT_PHOTO] = params[P_PHOTO]
    state[OPT_TREASURES] = params[P_TREASURES]
    state[OPT_TIMER] = params[P_TIMER]
    state[OPT_REACH] = params[P_REACH]
    state[OPT_LAMPS] = params[P_LAMPS]
    state[PHASE] = PHASE_PLAY
    # Shuffle the pyramid tiles face down around the start tile.
    tiles = np.arange(NUM_PYRAMID_TILES).astype(np.int32)
    rng_shuffle(state, RNG, tiles, NUM_PYRAMID_TILES)
    k = 0
    for cell in range(NUM_CELLS):
        if cell == START_CELL:
            state[CELL_TILE + cell] = START_TILE
            state[CELL_STATUS + cell] = OPEN
            set_orientation(state, cell, 0)
        else:
            state[CELL_TILE + cell] = tiles[k]
            state[CELL_STATUS + cell] = CLOSED
            k += 1
    # Both figures of every player on the start tile, the lamps in front of them.
    for p in range(n):
        state[ARCH_CELL + p] = START_CELL
        state[HELPER_CELL + p] = START_CELL
        state[LAMP_SUPPLY + p] = LAMPS_PER_PLAYER
    # The treasures shuffled face down, the mask last; the photographs into the camera.
    for slot in range(NUM_TREASURES):
        state[SLOT_VALUE + slot] = TREASURE_VALUES[slot]
    rng_shuffle(state, RNG, state[SLOT_VALUE : SLOT_VALUE + NUM_TREASURES], NUM_TREASURES)
    state[SLOT_VALUE + MASK_SLOT] = MASK_VALUE
    for slot in range(NUM_SLOTS):
        state[SLOT_STATE + slot] = IN_STACK
        state[SLOT_AT + slot] = NOWHERE
    for photo in range(NUM_PHOTOS):
        state[PHOTO_ORDER + photo] = photo
        state[PHOTO_OWNER + photo] = NOBODY
    rng_shuffle(state, RNG, state[PHOTO_ORDER : PHOTO_ORDER + NUM_PHOTOS], NUM_PHOTOS)
    state[PENDING_CELL] = NOWHERE
    state[CHAMBER_CELL] = NOWHERE
    state[MASK_CELL] = NOWHERE
    state[FINDER] = NOBODY
    state[COLLAPSE_PLAYER] = NOBODY
    state[LAST_PLAYER] = NOBODY
    state[CURRENT_PLAYER] = 0  # the youngest player begins


# -- treasures ---------------------------------------------------------------------------
@njit(cache=True)
def bank_carried(state, player):
    """An archaeologist on the start tile puts what it carries on its player card."""
    for slot in range(NUM_SLOTS):
        if state[SLOT_STATE + slot] == CARRIED and state[SLOT_AT + slot] == player:
            state[SLOT_STATE + slot] = BANKED


@njit(cache=True)
def mask_holder(state):
    """The player carrying or holding the mask, or NOBODY (not taken yet, or lost)."""
    where = state[SLOT_STATE + MASK_SLOT]
    if where == CARRIED or where == BANKED:
        return state[SLOT_AT + MASK_SLOT]
    return NOBODY


@njit(cache=True)
def move_archaeologist(state, player, cell):
    """The archaeologist carries its treasures with it; carrying the mask off its chamber
    starts the collapse; on the start tile what it carries is banked."""
    leaving = state[ARCH_CELL + player]
    state[ARCH_CELL + player] = cell
    if (
        leaving == state[MASK_CELL]
        and state[COLLAPSE] == 0
        and state[SLOT_STATE + MASK_SLOT] == CARRIED
        and state[SLOT_AT + MASK_SLOT] == player
    ):
        state[COLLAPSE] = 1
        state[COLLAPSE_RING] = 0
        state[COLLAPSE_PLAYER] = player
    if cell == START_CELL:
        bank_carried(state, player)


# -- chambers ----------------------------------------------------------------------------
@njit(cache=True)
def flee(state, route):
    """Mummy: every figure on the route flees to the start tile (an archaeologist with what it
    carries, which it banks there)."""
    n = state[NUM_PLAYERS]
    for p in range(n):
        arch = state[ARCH_CELL + p]
        if arch >= 0 and (route >> arch) & 1:
            state[ARCH_CELL + p] = START_CELL
            bank_carried(state, p)
        helper = state[HELPER_CELL + p]
        if helper >= 0 and (route >> helper) & 1:
            state[HELPER_CELL + p] = START_CELL


@njit(cache=True)
def blow_out(state, route):
    """Curse: every lamp on the route goes back to its player."""
    n = state[NUM_PLAYERS]
    for p in range(n):
        base = LAMP + p * NUM_CELLS
        for cell in range(NUM_CELLS):
            if state[base + cell] and (route >> cell) & 1:
                state[base + cell] = 0
                state[LAMP_SUPPLY + p] += 1


@njit(cache=True)
def resolve_photo(state, photo):
    """Carry out the photograph the finder took: its point (on the card), its treasures onto the
    chamber (the mask too in the last chamber), then the mummy and the curse. Returns True when
    the turn ends at once (a mummy or curse with a continuous open route)."""
    player = state[CURRENT_PLAYER]
    cell = state[CHAMBER_CELL]
    state[PHOTO_OWNER + photo] = player
    state[PHOTO_ORDER + state[PHOTOS_TAKEN]] = photo  # the photos taken, in order
    state[PHOTOS_TAKEN] += 1
    state[LAST_EVENT] |= EVENT_PHOTO
    for _ in range(PHOTO_TREASURES[photo]):
        slot = state[TREASURES_DEALT]
        state[SLOT_STATE + slot] = LYING
        state[SLOT_AT + slot] = cell
        state[TREASURES_DEALT] = slot + 1
    if state[PHOTOS_TAKEN] == NUM_PHOTOS:
        # The last chamber: the mask lies here and the collapse mechanism is activated.
        state[SLOT_STATE + MASK_SLOT] = LYING
        state[SLOT_AT + MASK_SLOT] = cell
        state[TREASURES_DEALT] = NUM_SLOTS
        state[MASK_CELL] = cell
        state[FINDER] = player
        state[MASK_TURN] = state[TURN]
        state[TIMER] = 0
    state[CHAMBER_CELL] = NOWHERE
    ends = False
    if PHOTO_MUMMY[photo] or PHOTO_CURSE[photo]:
        route = shortest_route_cells(state, cell)
        if route:  # without a continuous open route nothing happens
            ends = True
            if PHOTO_MUMMY[photo]:
                flee(state, route)
                state[LAST_EVENT] |= EVENT_MUMMY
            if PHOTO_CURSE[photo]:
                blow_out(state, route)
                state[LAST_EVENT] |= EVENT_CURSE
    return ends


# -- the collapse ------------------------------------------------------------------------
@njit(cache=True)
def remove_cell(state, cell):
    """A collapsing tile goes with everything on it: figures, lamps, treasures."""
    n = state[NUM_PLAYERS]
    status = state[CELL_STATUS + cell]
    state[CELL_STATUS + cell] = REMOVED_OPEN if status == OPEN else REMOVED_CLOSED
    state[CELL_EXITS + cell] = 0
    for p in range(n):
        if state[ARCH_CELL + p] == cell:
            state[ARCH_CELL + p] = NOWHERE
            for slot in range(NUM_SLOTS):
                if state[SLOT_STATE + slot] == CARRIED and state[SLOT_AT + slot] == p:
                    state[SLOT_STATE + slot] = LOST
                    state[SLOT_AT + slot] = NOWHERE
        if state[HELPER_CELL + p] == cell:
            state[HELPER_CELL + p] = NOWHERE
        if state[LAMP + p * NUM_CELLS + cell]:
            state[LAMP + p * NUM_CELLS + cell] = 0
            state[LAMP_LOST + p] += 1
    for slot in range(NUM_SLOTS):
        if state[SLOT_STATE + slot] == LYING and state[SLOT_AT + slot] == cell:
            state[SLOT_STATE + slot] = LOST
            state[SLOT_AT + slot] = NOWHERE


@njit(cache=True)
def collapse_ring(state):
    """Remove the next ring (grid distance COLLAPSE_RING from the mask's chamber; ring 0 is the
    chamber itself), skipping rings with nothing left; the game ends when only the start tile
    remains."""
    centre = state[MASK_CELL]
    state[LAST_EVENT] |= EVENT_RING
    while True:
        ring = state[COLLAPSE_RING]
        removed = 0
        remaining = 0
        for cell in range(NUM_CELLS):
            if cell == START_CELL:
                continue
            status = state[CELL_STATUS + cell]
            if status != CLOSED and status != OPEN:
                continue
            if RING_DISTANCE[centre, cell] == ring:
                remove_cell(state, cell)
                removed += 1
            else:
                remaining += 1
        state[COLLAPSE_RING] = ring + 1
        if remaining == 0:
            state[TERMINAL] = 1  # only the start tile remains
            state[END_CONDITION] = END_COLLAPSE
            return
        if removed > 0:
            return


@njit(cache=True)
def end_turn(state):
    """The end of the current player's turn: the collapse timer and the collapse, then the next
    player to the left."""
    player = state[CURRENT_PLAYER]
    n = state[NUM_PLAYERS]
    if state[MASK_CELL] >= 0:
        if state[COLLAPSE] == 0:
            if state[TURN] != state[MASK_TURN]:
                if state[OPT_TIMER] == TIMER_ROUNDS:
                    # "remained in the burial chamber for three rounds": a round is n turns
                    # counted from the discovery, so its part-round is no round; 3 rounds, 3n turns.
                    counts = (state[TURN] - state[MASK_TURN]) % n == 0
                else:
                    counts = player == state[FINDER]
                if counts:
                    state[TIMER] += 1
            if state[TIMER] >= COLLAPSE_DELAY:
                # The mask stayed in its chamber: the chamber collapses now, with everything on
                # it; then each turn end of the finder brings down the next ring.
                state[COLLAPSE] = 1
                state[COLLAPSE_RING] = 0
                state[COLLAPSE_PLAYER] = state[FINDER]
                collapse_ring(state)
        else:
            holder = mask_holder(state)
            if holder != NOBODY:
                state[COLLAPSE_PLAYER] = holder
            if player == state[COLLAPSE_PLAYER]:
                collapse_ring(state)
    # Saturating counters: the guard (GameSpec.guard, on ROUNDS_DONE) cuts far sooner.
    state[TURN] = min(state[TURN] + 1, TURN_CEILING)
    state[ROUNDS_DONE] = state[TURN] // n
    state[ACTIONS_USED] = 0
    state[PHASE] = PHASE_PLAY
    if state[TERMINAL] == 0:
        state[CURRENT_PLAYER] = (player + 1) % n


@njit(cache=True)
def after_action(state):
    """After an action or a free take: three actions spent and nothing left to take or steal
    ends the turn."""
    state[PHASE] = PHASE_PLAY
    player = state[CURRENT_PLAYER]
    if state[ACTIONS_USED] >= ACTIONS_PER_TURN:
        # An empty int8 view, never written, typed as the legal mask is: free_actions compiles
        # once, and nothing is allocated on the step.
        if free_actions(state, player, state[:0].view(np.int8), False) == 0:
            end_turn(state)


# -- a decision --------------------------------------------------------------------------
@njit(cache=True)
def play_step(state, action):
    player = state[CURRENT_PLAYER]
    if action == PASS_ACTION:
        end_turn(state)
        return
    if action >= TAKE_BASE and action < HELPER_MOVE_BASE:
        # Carry or steal a treasure: not an action.
        if action < STEAL_BASE:
            slot = action - TAKE_BASE
        else:
            slot = action - STEAL_BASE
        state[SLOT_STATE + slot] = CARRIED
        state[SLOT_AT + slot] = player
        after_action(state)
        return
    state[ACTIONS_USED] += 1
    if action < ARCH_DISCOVER_BASE:
        move_archaeologist(state, player, action - ARCH_MOVE_BASE)
    elif action < ARCH_LAMP_BASE:
        d = action - ARCH_DISCOVER_BASE
        cell = NEIGHBOUR[state[ARCH_CELL + player], d]
        # Turn the tile over; the move ends on it; its orientation is chosen next.
        state[CELL_STATUS + cell] = OPEN
        set_orientation(state, cell, 0)
        move_archaeologist(state, player, cell)
        state[PENDING_CELL] = cell
        state[PHASE] = PHASE_ORIENT
        return
    elif action < TAKE_BASE:
        place_or_pick_lamp(state, player, state[ARCH_CELL + player], action - ARCH_LAMP_BASE)
    elif action < HELPER_ROTATE_BASE:
        state[HELPER_CELL + player] = action - HELPER_MOVE_BASE
    elif action < HELPER_LAMP_BASE:
        index = action - HELPER_ROTATE_BASE
        cell = rotation_target(state, state[HELPER_CELL + player], index // ROTATE_TURNS)
        set_orientation(state, cell, (state[CELL_ROT + cell] + index % ROTATE_TURNS + 1) % 4)
    else:
        place_or_pick_lamp(state, player, state[HELPER_CELL + player], action - HELPER_LAMP_BASE)
    after_action(state)


@njit(cache=True)
def place_or_pick_lamp(state, player, cell, pick):
    if pick:
        state[LAMP + player * NUM_CELLS + cell] = 0
        state[LAMP_SUPPLY + player] += 1
    else:
        state[LAMP + player * NUM_CELLS + cell] = 1
        state[LAMP_SUPPLY + player] -= 1


@njit(cache=True)
def orient_step(state, action):
    cell = state[PENDING_CELL]
    set_orientation(state, cell, action - ORIENT_BASE)
    state[PENDING_CELL] = NOWHERE
    if TILE_KIND[state[CELL_TILE + cell]] != CHAMBER:
        after_action(state)
        return
    # A treasure chamber: take a photograph.
    state[CHAMBER_CELL] = cell
    if state[OPT_PHOTO] == PHOTO_CHOICE:
        state[PHASE] = PHASE_PHOTO
        return
    photo_step(state, PHOTO_BASE + state[PHOTO_ORDER + state[PHOTOS_TAKEN]])


@njit(cache=True)
def photo_step(state, action):
    photo = action - PHOTO_BASE
    if state[OPT_PHOTO] == PHOTO_CHOICE:
        # Keep PHOTO_ORDER[PHOTOS_TAKEN:] the photos still in the camera.
        taken = state[PHOTOS_TAKEN]
        for k in range(taken, NUM_PHOTOS):
            if state[PHOTO_ORDER + k] == photo:
                state[PHOTO_ORDER + k] = state[PHOTO_ORDER + taken]
                state[PHOTO_ORDER + taken] = photo
    if resolve_photo(state, photo):
        end_turn(state)  # "The turn of the player whose turn it was ends immediately"
    else:
        after_action(state)


@njit(cache=True, inline="always")
def passage(exits, other_exits, d):
    """Whether two neighbouring tiles, the second in direction d of the first, open towards
    each other (connected, on the exits already read)."""
    return exits & DIRECTIONS[d] != 0 and other_exits & OPPOSITE[d] != 0


@njit(cache=True)
def step(state: np.ndarray, action: int) -> None:
    """Apply the decision of the player to act. The drivers check legality (legal_mask) before
    a kernel sees an action, but BatchRunner(check_actions=False) and a user's own loop need
    not: any action legal_mask would not allow is refused here, changing nothing (no action may
    send a kernel outside its arrays), then step_unrefused applies it.

    The refusal is written out in this body, reading only what each action's rule reads (the
    rules of the *_legal_mask functions, for one action). A helper taking the state, called or
    inlined, makes numba count a reference to the array (two atomic operations) around it,
    which cost more than the checks (benchmarks/refusal_cost.py)."""
    if state[TERMINAL] or action < 0 or action >= N_ACTIONS:
        return
    current = state[PHASE]
    if current == PHASE_ORIENT:
        # One action per distinct orientation of the tile just opened.
        rot = action - ORIENT_BASE
        if rot < 0 or rot >= ORIENT_STOP - ORIENT_BASE:
            return
        exits = TILE_EXITS[state[CELL_TILE + state[PENDING_CELL]]]
        for earlier in range(rot):
            if ROTATED[exits, earlier] == ROTATED[exits, rot]:
                return
    elif current == PHASE_PHOTO:
        if action < PHOTO_BASE or action >= PHOTO_STOP or state[PHOTO_OWNER + action - PHOTO_BASE] != NOBODY:
            return
    elif action != PASS_ACTION:  # a pass always ends the turn
        player = state[CURRENT_PLAYER]
        arch = state[ARCH_CELL + player]
        helper = state[HELPER_CELL + player]
        if TAKE_BASE <= action < HELPER_MOVE_BASE:
            # Take or steal (not actions): a treasure on the archaeologist's tile, lying there
            # or carried by another archaeologist there.
            if arch < 0 or arch == START_CELL:
                return
            if action < STEAL_BASE:
                slot = action - TAKE_BASE
                if state[SLOT_STATE + slot] != LYING or state[SLOT_AT + slot] != arch:
                    return
            else:
                slot = action - STEAL_BASE
                holder = state[SLOT_AT + slot]
                if state[SLOT_STATE + slot] != CARRIED or holder == player:
                    return
                if holder < 0 or holder >= state[NUM_PLAYERS] or state[ARCH_CELL + holder] != arch:
                    return
        elif state[ACTIONS_USED] >= ACTIONS_PER_TURN or action >= ORIENT_BASE:
            return  # three actions spent; orient and photo belong to their own phases
        elif action < ARCH_DISCOVER_BASE or HELPER_MOVE_BASE <= action < HELPER_ROTATE_BASE:
            # A move (move_targets), searched for its one target: a neighbour through an open
            # passage, or an own-lamp tile joined by own-lamp tiles to an own-lamp tile.
            if action < ARCH_DISCOVER_BASE:
                cell, target = arch, action - ARCH_MOVE_BASE
            else:
                cell, target = helper, action - HELPER_MOVE_BASE
            if cell < 0 or target == cell:
                return
            near = False
            for d in range(4):
                if NEIGHBOUR[cell, d] == target:
                    near = passage(state[CELL_EXITS + cell], state[CELL_EXITS + target], d)
            if not near:
                lamps = LAMP + player * NUM_CELLS
                if not (state[lamps + cell] and state[lamps + target]):
                    return
                if not (move_targets(state, player, cell) >> target) & 1:
                    return
        elif action < ARCH_LAMP_BASE:
            # Discover: no wall between the archaeologist's tile and the closed tile.
            if arch < 0:
                return
            d = action - ARCH_DISCOVER_BASE
            other = NEIGHBOUR[arch, d]
            if not state[CELL_EXITS + arch] & DIRECTIONS[d] or other < 0:
                return
            if state[CELL_STATUS + other] != CLOSED:
                return
        elif action < TAKE_BASE or action >= HELPER_LAMP_BASE:
            # Place (0) or pick up (1) an own lamp on the figure's tile (lamp_actions).
            if action < TAKE_BASE:
                if state[OPT_LAMPS] == LAMPS_HELPER:
                    return
                cell, pick = arch, action - ARCH_LAMP_BASE
            else:
                cell, pick = helper, action - HELPER_LAMP_BASE
            if cell < 0:
                return
            own = state[LAMP + player * NUM_CELLS + cell] != 0
            if pick:
                if not own:
                    return
            elif own or state[LAMP_SUPPLY + player] <= 0:
                return
            elif cell == START_CELL or state[CELL_STATUS + cell] != OPEN:  # lamp_spot
                return
        else:
            # Rotate (rotation_target): its own tile, or a neighbour joined by a passage (reach
            # passage) or any neighbour (reach adjacent); an open pyramid tile; a rotation that
            # changes nothing is no action.
            if helper < 0:
                return
            index = action - HELPER_ROTATE_BASE
            which = index // ROTATE_TURNS
            cell = helper
            if which > 0:
                d = which - 1
                cell = NEIGHBOUR[helper, d]
                if cell < 0:
                    return
                if state[OPT_REACH] == REACH_PASSAGE and not passage(
                    state[CELL_EXITS + helper], state[CELL_EXITS + cell], d
                ):
                    return
            if cell == START_CELL or state[CELL_STATUS + cell] != OPEN:
                return
            exits = state[CELL_EXITS + cell]
            if ROTATED[exits, index % ROTATE_TURNS + 1] == exits:
                return
    state[DECISIONS] += 1
    state[LAST_EVENT] = 0
    state[LAST_PLAYER] = state[CURRENT_PLAYER]
    if current == PHASE_ORIENT:
        orient_step(state, action)
    elif current == PHASE_PHOTO:
        photo_step(state, action)
    else:
        play_step(state, action)


@njit(cache=True)
def step_unrefused(state: np.ndarray, action: int) -> None:
    """step without the refusal: `action` must be legal (benchmarks/refusal_cost.py measures
    what the refusal costs against this)."""
    state[DECISIONS] += 1
    state[LAST_EVENT] = 0
    state[LAST_PLAYER] = state[CURRENT_PLAYER]
    current = state[PHASE]
    if current == PHASE_ORIENT:
        orient_step(state, action)
    elif current == PHASE_PHOTO:
        photo_step(state, action)
    else:
        play_step(state, action)


# -- the end -----------------------------------------------------------------------------
@njit(cache=True)
def scores(state: np.ndarray, scores_out: np.ndarray, tiebreaks_out: np.ndarray) -> None:
    """Photographs (1 each) + banked treasures (the mask 5) - 2 for a lost archaeologist - 1 for
    a lost helper. Tie-break: kept both figures (2), then holds the mask (1)."""
    n = state[NUM_PLAYERS]
    for p in range(n):
        total = 0
        for photo in range(NUM_PHOTOS):
            if state[PHOTO_OWNER + photo] == p:
                total += PHOTO_POINTS
        for slot in range(NUM_SLOTS):
            if state[SLOT_STATE + slot] == BANKED and state[SLOT_AT + slot] == p:
                total += state[SLOT_VALUE + slot]
        arch_lost = state[ARCH_CELL + p] == NOWHERE
        helper_lost = state[HELPER_CELL + p] == NOWHERE
        if arch_lost:
            total -= ARCHAEOLOGIST_PENALTY
        if helper_lost:
            total -= HELPER_PENALTY
        scores_out[p] = total
        tiebreak = 0
        if not arch_lost and not helper_lost:
            tiebreak += 2
        if state[SLOT_STATE + MASK_SLOT] == BANKED and state[SLOT_AT + MASK_SLOT] == p:
            tiebreak += 1
        tiebreaks_out[p] = tiebreak


@njit(cache=True)
def competitors(state: np.ndarray) -> int:
    """Only the players compete: no in-kernel opponents."""
    return state[NUM_PLAYERS]


# -- hidden information ------------------------------------------------------------------
@njit(cache=True, inline="always")
def value_known(state, slot, player):
    """Whether `player` knows the value of treasure slot `slot`: the mask always; the others
    once in play with option treasures=face_up, else once on its own player card."""
    if slot == MASK_SLOT:
        return True
    where = state[SLOT_STATE + slot]
    if where == IN_STACK:
        return False
    if state[OPT_TREASURES] == TREASURES_FACE_UP:
        return True
    return where == BANKED and state[SLOT_AT + slot] == player


@njit(cache=True)
def resample_hidden(state: np.ndarray, player: int, seed: int) -> None:
    """Re-deal what `player` cannot know: the tiles still face down (among the never-opened
    cells), the values of the treasures it has not seen, and the order of the photographs left
    in the camera. The generator is reseeded from `seed`."""
    rng_seed(state, RNG, seed)
    cells = np.empty(NUM_CELLS, np.int32)
    tiles = np.empty(NUM_CELLS, np.int32)
    count = 0
    for cell in range(NUM_CELLS):
        status = state[CELL_STATUS + cell]
        if status == CLOSED or status == REMOVED_CLOSED:
            cells[count] = cell
            tiles[count] = state[CELL_TILE + cell]
            count += 1
    sort_ascending(tiles[:count])  # canonical: the re-deal depends only on what player knows and the seed
    rng_shuffle(state, RNG, tiles, count)
    for k in range(count):
        state[CELL_TILE + cells[k]] = tiles[k]
    slots = np.empty(NUM_TREASURES, np.int32)
    values = np.empty(NUM_TREASURES, np.int32)
    count = 0
    for slot in range(NUM_TREASURES):
        if not value_known(state, slot, player):
            slots[count] = slot
            values[count] = state[SLOT_VALUE + slot]
            count += 1
    sort_ascending(values[:count])
    rng_shuffle(state, RNG, values, count)
    for k in range(count):
        state[SLOT_VALUE + slots[k]] = values[k]
    taken = state[PHOTOS_TAKEN]
    sort_ascending(state[PHOTO_ORDER + taken : PHOTO_ORDER + NUM_PHOTOS])
    rng_shuffle(state, RNG, state[PHOTO_ORDER + taken : PHOTO_ORDER + NUM_PHOTOS], NUM_PHOTOS - taken)
