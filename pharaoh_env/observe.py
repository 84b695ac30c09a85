"""Observation encoders: what one player may know, and the full-information view.

Every feature is in [0, 1]. Seats in a player's observation are relative (seat k is the player
k places after the observer; k = 0 is the observer). Hidden: the tiles still face down, the
values of treasures the player has not seen (option treasures=face_down: every treasure not on
its own card), and the order of the photographs left in the camera. docs/games/pharaoh.md
names every slice; the *_LAYOUT tables below are the source of truth.
"""

import numpy as np

from pharaoh_env.data import (
    ACTIONS_PER_TURN,
    CHAMBER,
    COLLAPSE_DELAY,
    GUARD_TURNS,
    LAMPS_PER_PLAYER,
    MASK_VALUE,
    MAX_PLAYERS,
    NUM_CELLS,
    NUM_PHOTOS,
    NUM_SLOTS,
    START_CELL,
    TILE_EXITS,
    TILE_KIND,
)
from pharaoh_env.kernels import value_known
from pharaoh_env.state import (
    ACTIONS_USED,
    ARCH_CELL,
    BANKED,
    CARRIED,
    CELL_EXITS,
    CELL_STATUS,
    CELL_TILE,
    CLOSED,
    COLLAPSE,
    COLLAPSE_PLAYER,
    COLLAPSE_RING,
    FINDER,
    HELPER_CELL,
    LAMP,
    LAMP_LOST,
    LAMP_SUPPLY,
    LYING,
    MASK_CELL,
    NOBODY,
    NOWHERE,
    OPEN,
    OPT_LAMPS,
    OPT_PHOTO,
    OPT_REACH,
    OPT_TIMER,
    OPT_TREASURES,
    PENDING_CELL,
    PHASE,
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
)
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS
from treasure_core.jit import njit
from treasure_core.kernels import equal_flag
from treasure_core.layout import offsets

MAX_RING = 10  # the largest grid distance on the 6 x 6 pyramid
MAX_BANKED_VALUE = 17  # 4 x 3 + the mask
SLOT_STATES = 5  # IN_STACK, LYING, CARRIED, BANKED, LOST

CELL_LAYOUT = (  # one block per cell
    ("status", 3),  # closed, open, removed (one-hot)
    ("start", 1),  # the start tile
    ("chamber", 1),  # an open treasure chamber
    ("mask_chamber", 1),  # the last chamber found (the collapse's centre)
    ("exits", 4),  # exits N, E, S, W of an open tile
    ("pending", 1),  # the tile just opened, awaiting its orientation or photograph
    ("archaeologist", MAX_PLAYERS),  # [relative seat] its archaeologist stands here
    ("helper", MAX_PLAYERS),  # [relative seat] its helper stands here
    ("lamp", MAX_PLAYERS),  # [relative seat] one of its lamps stands here
    ("treasures", 1),  # treasures lying here / 9
)
CELL_SIZE = sum(size for _, size in CELL_LAYOUT)
SLOT_LAYOUT = (  # one block per treasure slot (the k-th treasure into play; slot 8 the mask)
    ("state", SLOT_STATES),  # in the stack, lying, carried, banked, lost (one-hot)
    ("holder", MAX_PLAYERS),  # [relative seat] carrying it or holding it on its card
    ("cell", NUM_CELLS),  # where it lies, or where its carrier stands (one-hot)
    ("value_known", 1),  # the observer knows its value
    ("value", 1),  # its value / 5 when known, else 0
)
SLOT_SIZE = sum(size for _, size in SLOT_LAYOUT)
SEAT_LAYOUT = (  # one block per relative seat
    ("in_game", 1),
    ("to_act", 1),
    ("archaeologist_kept", 1),  # not removed with a tile
    ("helper_kept", 1),
    ("lamp_supply", 1),  # lamps in front of it / 5
    ("lamps_lost", 1),  # lamps removed with tiles / 5
    ("photos", 1),  # photographs on its card / 5
    ("banked", 1),  # treasures on its card / 9
    ("banked_known_value", 1),  # the value of those the observer knows / 17
    ("carried", 1),  # treasures its archaeologist carries / 9
    ("finder", 1),  # found the last chamber
    ("collapse_player", 1),  # whose turn ends bring the next ring down
)
SEAT_SIZE = sum(size for _, size in SEAT_LAYOUT)
PHOTO_LAYOUT = (  # one block per photograph (data.PHOTO_LIST)
    ("in_camera", 1),
    ("owner", MAX_PLAYERS),  # [relative seat] on its card
)
PHOTO_SIZE = sum(size for _, size in PHOTO_LAYOUT)
GLOBAL_LAYOUT = (
    ("phase", 3),  # play, orient, photo (one-hot)
    ("actions_used", ACTIONS_PER_TURN + 1),  # 0..3 (one-hot)
    ("chambers_found", 1),  # / 5
    ("treasures_dealt", 1),  # / 9
    ("collapse", 1),  # the collapse has started
    ("collapse_ring", 1),  # the next ring / 10
    ("timer", 1),  # finder's turns (or rounds) since the last chamber / 3
    ("pending_exits", 4),  # the unrotated exits of the tile awaiting its orientation
    ("pending_chamber", 1),  # that tile is a treasure chamber
    ("rounds_played", 1),  # rounds over / the guard's limit (data.guard_rounds), at most 1
    # photo=choice, treasures=face_up, collapse_timer=rounds, rotate_reach=adjacent, lamp_figures=helper
    ("options", 5),
)
OBS_LAYOUT = (
    ("cells", NUM_CELLS * CELL_SIZE),
    ("slots", NUM_SLOTS * SLOT_SIZE),
    ("seats", MAX_PLAYERS * SEAT_SIZE),
    ("photos", NUM_PHOTOS * PHOTO_SIZE),
    ("global", sum(size for _, size in GLOBAL_LAYOUT)),
)
FULL_LAYOUT = OBS_LAYOUT + (  # seats absolute (seat 0 first), every treasure value known
    ("closed_exits", NUM_CELLS * 4),  # [cell] unrotated exits of the face-down tile there
    ("closed_chamber", NUM_CELLS),  # [cell] the face-down tile there is a chamber
    ("camera_order", NUM_PHOTOS),  # [photo] place in the camera (1 = next) / 5; 0 once taken
)

OBS = offsets(OBS_LAYOUT)
FULL = offsets(FULL_LAYOUT)
CELL = offsets(CELL_LAYOUT)
SLOT = offsets(SLOT_LAYOUT)
SEAT = offsets(SEAT_LAYOUT)
PHOTO_FIELDS = offsets(PHOTO_LAYOUT)
GLOBAL = offsets(GLOBAL_LAYOUT)
OBS_SIZE = sum(size for _, size in OBS_LAYOUT)
FULL_SIZE = sum(size for _, size in FULL_LAYOUT)

_CELLS = OBS["cells"][0]
_SLOTS = OBS["slots"][0]
_SEATS = OBS["seats"][0]
_PHOTOS = OBS["photos"][0]
_GLOBAL = OBS["global"][0]
_CLOSED_EXITS = FULL["closed_exits"][0]
_CLOSED_CHAMBER = FULL["closed_chamber"][0]
_CAMERA_ORDER = FULL["camera_order"][0]
_C_STATUS = CELL["status"][0]
_C_START = CELL["start"][0]
_C_CHAMBER = CELL["chamber"][0]
_C_MASK = CELL["mask_chamber"][0]
_C_EXITS = CELL["exits"][0]
_C_PENDING = CELL["pending"][0]
_C_ARCH = CELL["archaeologist"][0]
_C_HELPER = CELL["helper"][0]
_C_LAMP = CELL["lamp"][0]
_C_TREASURES = CELL["treasures"][0]
_S_STATE = SLOT["state"][0]
_S_HOLDER = SLOT["holder"][0]
_S_CELL = SLOT["cell"][0]
_S_KNOWN = SLOT["value_known"][0]
_S_VALUE = SLOT["value"][0]
_P_IN = SEAT["in_game"][0]
_P_TO_ACT = SEAT["to_act"][0]
_P_ARCH = SEAT["archaeologist_kept"][0]
_P_HELPER = SEAT["helper_kept"][0]
_P_SUPPLY = SEAT["lamp_supply"][0]
_P_LAMPS_LOST = SEAT["lamps_lost"][0]
_P_PHOTOS = SEAT["photos"][0]
_P_BANKED = SEAT["banked"][0]
_P_BANKED_VALUE = SEAT["banked_known_value"][0]
_P_CARRIED = SEAT["carried"][0]
_P_FINDER = SEAT["finder"][0]
_P_COLLAPSE = SEAT["collapse_player"][0]
_F_IN_CAMERA = PHOTO_FIELDS["in_camera"][0]
_F_OWNER = PHOTO_FIELDS["owner"][0]
_G_PHASE = GLOBAL["phase"][0]
_G_USED = GLOBAL["actions_used"][0]
_G_CHAMBERS = GLOBAL["chambers_found"][0]
_G_DEALT = GLOBAL["treasures_dealt"][0]
_G_COLLAPSE = GLOBAL["collapse"][0]
_G_RING = GLOBAL["collapse_ring"][0]
_G_TIMER = GLOBAL["timer"][0]
_G_PENDING_EXITS = GLOBAL["pending_exits"][0]
_G_PENDING_CHAMBER = GLOBAL["pending_chamber"][0]
_G_OPTIONS = GLOBAL["options"][0]
_G_ROUNDS = GLOBAL["rounds_played"][0]


# The status slots: closed, open, then removed (REMOVED_CLOSED and REMOVED_OPEN share it).
_STATUS_REMOVED = 2
# The shares the encoder adds up, as float64 (the kernel's sum is float64, rounded once into the
# float32 output; a Python float would make the Python twin add in float32).
_SLOT_SHARE = np.float64(1.0 / NUM_SLOTS)
_PHOTO_SHARE = np.float64(1.0 / NUM_PHOTOS)
assert (CLOSED, OPEN, REMOVED_CLOSED, REMOVED_OPEN) == (0, 1, _STATUS_REMOVED, _STATUS_REMOVED + 1)


@njit(cache=True)
def write_view(state: np.ndarray, viewer: int, relative: bool, omniscient: bool, out: np.ndarray) -> None:
    """The public board and `viewer`'s knowledge into out[:OBS_SIZE] (seats relative to viewer
    if `relative`; every treasure value if `omniscient`)."""
    out[:OBS_SIZE] = 0.0
    n = state[NUM_PLAYERS]
    # A branch the CPU mispredicts costs more than a feature's write: the status slot by index,
    # the flags as numbers (equal_flag), the single cells after the loop.
    for cell in range(NUM_CELLS):
        at = _CELLS + cell * CELL_SIZE
        status = state[CELL_STATUS + cell]
        out[at + _C_STATUS + min(status, _STATUS_REMOVED)] = 1.0
        if status == OPEN:
            exits = state[CELL_EXITS + cell]
            for side in range(4):
                out[at + _C_EXITS + side] = (exits >> side) & 1
            out[at + _C_CHAMBER] = equal_flag(TILE_KIND[state[CELL_TILE + cell]], CHAMBER)
    out[_CELLS + START_CELL * CELL_SIZE + _C_START] = 1.0
    if state[MASK_CELL] != NOWHERE:
        out[_CELLS + state[MASK_CELL] * CELL_SIZE + _C_MASK] = 1.0
    if state[PENDING_CELL] != NOWHERE:
        out[_CELLS + state[PENDING_CELL] * CELL_SIZE + _C_PENDING] = 1.0
    for seat in range(n):
        k = (seat - viewer) % n if relative else seat
        arch = state[ARCH_CELL + seat]
        if arch >= 0:
            out[_CELLS + arch * CELL_SIZE + _C_ARCH + k] = 1.0
        helper = state[HELPER_CELL + seat]
        if helper >= 0:
            out[_CELLS + helper * CELL_SIZE + _C_HELPER + k] = 1.0
        for cell in range(NUM_CELLS):  # 0 or 1: as it stands, without a branch
            out[_CELLS + cell * CELL_SIZE + _C_LAMP + k] = state[LAMP + seat * NUM_CELLS + cell]
        at = _SEATS + k * SEAT_SIZE
        out[at + _P_IN] = 1.0
        out[at + _P_TO_ACT] = equal_flag(seat, state[CURRENT_PLAYER])
        out[at + _P_ARCH] = 1.0 if arch >= 0 else 0.0
        out[at + _P_HELPER] = 1.0 if helper >= 0 else 0.0
        out[at + _P_SUPPLY] = state[LAMP_SUPPLY + seat] / LAMPS_PER_PLAYER
        out[at + _P_LAMPS_LOST] = state[LAMP_LOST + seat] / LAMPS_PER_PLAYER
        out[at + _P_FINDER] = equal_flag(seat, state[FINDER])
        out[at + _P_COLLAPSE] = equal_flag(seat, state[COLLAPSE_PLAYER])
    for slot in range(NUM_SLOTS):
        at = _SLOTS + slot * SLOT_SIZE
        where = state[SLOT_STATE + slot]
        out[at + _S_STATE + where] = 1.0
        known = omniscient or value_known(state, slot, viewer)
        if known:
            out[at + _S_KNOWN] = 1.0
            out[at + _S_VALUE] = state[SLOT_VALUE + slot] / MASK_VALUE
        if where == LYING:
            cell = state[SLOT_AT + slot]
            out[at + _S_CELL + cell] = 1.0
            out[_CELLS + cell * CELL_SIZE + _C_TREASURES] += _SLOT_SHARE
        elif where == CARRIED or where == BANKED:
            seat = state[SLOT_AT + slot]
            k = (seat - viewer) % n if relative else seat
            out[at + _S_HOLDER + k] = 1.0
            seats_at = _SEATS + k * SEAT_SIZE
            if where == CARRIED:
                out[at + _S_CELL + state[ARCH_CELL + seat]] = 1.0
                out[seats_at + _P_CARRIED] += _SLOT_SHARE
            else:
                out[seats_at + _P_BANKED] += _SLOT_SHARE
                if known:
                    out[seats_at + _P_BANKED_VALUE] += state[SLOT_VALUE + slot] / MAX_BANKED_VALUE
    for photo in range(NUM_PHOTOS):
        at = _PHOTOS + photo * PHOTO_SIZE
        owner = state[PHOTO_OWNER + photo]
        if owner == NOBODY:
            out[at + _F_IN_CAMERA] = 1.0
        else:
            k = (owner - viewer) % n if relative else owner
            out[at + _F_OWNER + k] = 1.0
            out[_SEATS + k * SEAT_SIZE + _P_PHOTOS] += _PHOTO_SHARE
    out[_GLOBAL + _G_PHASE + state[PHASE]] = 1.0
    out[_GLOBAL + _G_USED + state[ACTIONS_USED]] = 1.0
    out[_GLOBAL + _G_CHAMBERS] = state[PHOTOS_TAKEN] / NUM_PHOTOS
    out[_GLOBAL + _G_DEALT] = state[TREASURES_DEALT] / NUM_SLOTS
    out[_GLOBAL + _G_COLLAPSE] = state[COLLAPSE]
    out[_GLOBAL + _G_RING] = min(state[COLLAPSE_RING], MAX_RING) / MAX_RING
    out[_GLOBAL + _G_TIMER] = min(state[TIMER], COLLAPSE_DELAY) / COLLAPSE_DELAY
    pending = state[PENDING_CELL]
    if pending >= 0:
        exits = TILE_EXITS[state[CELL_TILE + pending]]
        for side in range(4):
            out[_GLOBAL + _G_PENDING_EXITS + side] = (exits >> side) & 1
        if TILE_KIND[state[CELL_TILE + pending]] == CHAMBER:
            out[_GLOBAL + _G_PENDING_CHAMBER] = 1.0
    out[_GLOBAL + _G_ROUNDS] = min(state[ROUNDS_DONE] / (GUARD_TURNS // n), 1.0)
    out[_GLOBAL + _G_OPTIONS] = state[OPT_PHOTO]
    out[_GLOBAL + _G_OPTIONS + 1] = state[OPT_TREASURES]
    out[_GLOBAL + _G_OPTIONS + 2] = state[OPT_TIMER]
    out[_GLOBAL + _G_OPTIONS + 3] = state[OPT_REACH]
    out[_GLOBAL + _G_OPTIONS + 4] = state[OPT_LAMPS]


@njit(cache=True)
def observe(state: np.ndarray, player: int, out: np.ndarray) -> None:
    """What `player` may know: the open pyramid, every figure, lamp and treasure slot, the values
    it has seen, the photographs taken; never a face-down tile nor the camera's order."""
    write_view(state, player, True, False, out)


@njit(cache=True)
def full_state(state: np.ndarray, out: np.ndarray) -> None:
    """Everything, secrets included: for centralised critics and debugging."""
    write_view(state, 0, False, True, out)
    out[OBS_SIZE:] = 0.0
    for cell in range(NUM_CELLS):
        status = state[CELL_STATUS + cell]
        if status == CLOSED:
            tile = state[CELL_TILE + cell]
            exits = TILE_EXITS[tile]
            for side in range(4):
                out[_CLOSED_EXITS + cell * 4 + side] = (exits >> side) & 1
            if TILE_KIND[tile] == CHAMBER:
                out[_CLOSED_CHAMBER + cell] = 1.0
    taken = state[PHOTOS_TAKEN]
    for k in range(taken, NUM_PHOTOS):
        out[_CAMERA_ORDER + state[PHOTO_ORDER + k]] = (k - taken + 1) / NUM_PHOTOS
