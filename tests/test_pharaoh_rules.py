"""Rules tests for Het goud van de Farao: each rule of the rulebook (shared/rulebooks/
het_goud_van_de_farao.txt) set up through the named offsets of pharaoh_env.state and played
through the kernels, and every option that settles a point the two text layers state two ways.

Boards are drawn as 6 rows of 6 glyphs: ─│┌┐└┘┬┴├┤┼ corridors, ^>v< a chamber opening N/E/S/W,
# a closed tile, S the start tile (always at row 6, column 3)."""

from __future__ import annotations

import numpy as np
import pytest

from pharaoh_env import data, kernels, observe
from pharaoh_env.bots import PharaohBot, heuristic_action
from pharaoh_env.env import GAME
from pharaoh_env.invariants import check_invariants
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
    CLOSED,
    COLLAPSE,
    COLLAPSE_PLAYER,
    COLLAPSE_RING,
    END_COLLAPSE,
    END_CONDITION,
    END_NONE,
    END_ROUND_LIMIT,
    FINDER,
    HELPER_CELL,
    HELPER_LAMP_BASE,
    HELPER_MOVE_BASE,
    HELPER_ROTATE_BASE,
    IN_STACK,
    LAMP,
    LAMP_LOST,
    LAMP_SUPPLY,
    LAST_PLAYER,
    LOST,
    LYING,
    MASK_CELL,
    MASK_TURN,
    N_ACTIONS,
    NOBODY,
    NOWHERE,
    OPEN,
    ORIENT_BASE,
    PASS_ACTION,
    PENDING_CELL,
    PHASE,
    PHASE_ORIENT,
    PHASE_PHOTO,
    PHASE_PLAY,
    PHOTO_BASE,
    PHOTO_ORDER,
    PHOTO_OWNER,
    PHOTOS_TAKEN,
    REMOVED_CLOSED,
    REMOVED_OPEN,
    ROUNDS_DONE,
    SLOT_AT,
    SLOT_STATE,
    SLOT_VALUE,
    STATE_SIZE,
    STEAL_BASE,
    TAKE_BASE,
    TIMER,
    TREASURES_DEALT,
    TURN,
)
from treasure_core.aec import TreasureAECEnv
from treasure_core.agents import RandomAgent, play_game
from treasure_core.header import CURRENT_PLAYER, DECISIONS, TERMINAL

START = data.START_CELL
GLYPH_EXITS = {"─": 10, "│": 5, "┌": 6, "┐": 12, "└": 3, "┘": 9, "┬": 14, "┴": 11, "├": 7, "┤": 13, "┼": 15}
CHAMBER_GLYPHS = {"^": 1, ">": 2, "v": 4, "<": 8}
SHAPES = {
    "corner": range(0, 10),
    "straight": range(10, 18),
    "T-junction": range(18, 26),
    "crossroads": range(26, 30),
}
OPEN_ALL = [
    "┼┼┼┼┼┼",
    "┼┼┼┼┼┼",
    "┼┼┼┼┼┼",
    "┼┼┼┼┼┼",
    "┼┼┼┼┼┼",
    "┼┼S┼┼┼",
]


def cell(row: int, col: int) -> int:
    """Row and column counted from 1, as the rulebook's 6 x 6 square."""
    return (row - 1) * data.COLS + (col - 1)


def shape_of(exits: int) -> str:
    count = bin(exits).count("1")
    if count == 4:
        return "crossroads"
    if count == 3:
        return "T-junction"
    return "straight" if exits in (5, 10) else "corner"


def params(**options: object) -> np.ndarray:
    return GAME.make_params(GAME.validate(dict(options)))


def new_game(num_players: int = 2, seed: int = 0, **options: object) -> np.ndarray:
    state = np.zeros(STATE_SIZE, np.int32)
    kernels.init(state, params(num_players=num_players, **options), seed)
    return state


def lay(state: np.ndarray, rows: list[str]) -> None:
    """Lay the board drawn in `rows`: each tile gets an id of its shape and the rotation that
    fits; closed cells get the ids left over. When the game has no more tiles of a shape (the
    all-crossroads board), an open cell gets a spare id and its exits are set directly: such a
    board plays by the kernels' rules but is no state of a real game (no invariants)."""
    free = {name: list(ids) for name, ids in SHAPES.items()}
    free["chamber"] = list(range(30, 35))
    placed = {}
    for r, line in enumerate(rows):
        assert len(line) == data.COLS
        for c, glyph in enumerate(line):
            index = r * data.COLS + c
            if glyph in "S#":
                assert (glyph == "S") == (index == START)
                continue
            exits = CHAMBER_GLYPHS[glyph] if glyph in CHAMBER_GLYPHS else GLYPH_EXITS[glyph]
            pool = free["chamber" if glyph in CHAMBER_GLYPHS else shape_of(exits)]
            placed[index] = (pool.pop(0) if pool else None, exits)
    leftover = [t for ids in free.values() for t in ids]
    for index in range(data.NUM_CELLS):
        if index == START:
            continue
        tile, exits = placed.get(index, (None, 0))
        state[CELL_ROT + index] = 0
        if index in placed:
            state[CELL_STATUS + index] = OPEN
            if tile is None:  # a spare id; the exits as drawn
                state[CELL_TILE + index] = leftover.pop()
                state[CELL_EXITS + index] = exits
                continue
            state[CELL_TILE + index] = tile
            rot = next(k for k in range(4) if data.rotate_exits(int(data.TILE_EXITS[tile]), k) == exits)
            kernels.set_orientation(state, index, rot)
        else:
            state[CELL_TILE + index] = leftover.pop(0)
            state[CELL_STATUS + index] = CLOSED
            state[CELL_EXITS + index] = 0


def swap_in(state: np.ndarray, index: int, tiles: range) -> None:
    """Put a tile with an id in `tiles` (still face down elsewhere) on cell `index`."""
    other = next(c for c in range(36) if c != index and state[CELL_TILE + c] in tiles)
    state[CELL_TILE + index], state[CELL_TILE + other] = state[CELL_TILE + other], state[CELL_TILE + index]


def camera_next(state: np.ndarray, photo: int) -> None:
    """Make `photo` the camera's next photograph."""
    order = state[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS].tolist()
    order.remove(photo)
    state[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS] = [photo, *order]


CHAMBERS = range(30, 35)


def legal(state: np.ndarray, player: int | None = None) -> set[int]:
    mask = np.zeros(N_ACTIONS, np.int8)
    kernels.legal_mask(state, int(state[CURRENT_PLAYER]) if player is None else player, mask)
    return set(np.flatnonzero(mask).tolist())


def play(state: np.ndarray, *actions: int) -> None:
    for action in actions:
        assert action in legal(state), f"action {action} is not legal"
        kernels.step(state, action)


def put_treasure(state: np.ndarray, slot: int, where: int, at: int, value: int | None = None) -> None:
    state[SLOT_STATE + slot] = where
    state[SLOT_AT + slot] = at
    state[TREASURES_DEALT] = max(int(state[TREASURES_DEALT]), slot + 1)
    if value is not None:
        state[SLOT_VALUE + slot] = value


def place_lamp(state: np.ndarray, player: int, index: int) -> None:
    state[LAMP + player * data.NUM_CELLS + index] = 1
    state[LAMP_SUPPLY + player] -= 1


# -- set-up and a turn ---------------------------------------------------------------------
def test_setup_everything_face_down_around_the_start_tile() -> None:
    state = new_game(4)
    check_invariants(state)
    assert state[CELL_TILE + START] == data.START_TILE and state[CELL_STATUS + START] == OPEN
    assert sum(state[CELL_STATUS + c] == CLOSED for c in range(data.NUM_CELLS)) == 35
    for p in range(4):
        assert state[ARCH_CELL + p] == START and state[HELPER_CELL + p] == START
        assert state[LAMP_SUPPLY + p] == data.LAMPS_PER_PLAYER
    assert state[CURRENT_PLAYER] == 0  # the youngest player begins
    # From the start tile: discover north, east or west (south is off the pyramid); pass.
    assert legal(state) == {
        ARCH_DISCOVER_BASE + 0,
        ARCH_DISCOVER_BASE + 1,
        ARCH_DISCOVER_BASE + 3,
        PASS_ACTION,
    }


def test_three_actions_split_between_the_figures_then_the_next_player() -> None:
    state = new_game(2)
    lay(state, OPEN_ALL)
    play(state, ARCH_MOVE_BASE + cell(5, 3), HELPER_MOVE_BASE + cell(6, 2))
    assert state[ACTIONS_USED] == 2 and state[CURRENT_PLAYER] == 0
    play(state, ARCH_MOVE_BASE + cell(4, 3))
    assert state[CURRENT_PLAYER] == 1 and state[ACTIONS_USED] == 0 and state[TURN] == 1


def test_a_pass_ends_the_turn_early() -> None:
    state = new_game(3)
    play(state, PASS_ACTION)
    assert state[CURRENT_PLAYER] == 1 and state[ACTIONS_USED] == 0


def test_moves_follow_open_passages_never_through_a_wall() -> None:
    state = new_game(2)
    lay(state, ["######", "######", "######", "######", "#─┬─##", "##S##┐"])
    # The start tile opens on every side: north to the T-junction (open south).
    assert ARCH_MOVE_BASE + cell(5, 3) in legal(state)
    # West of the start is closed: discover, not move; east is closed too.
    assert ARCH_MOVE_BASE + cell(6, 2) not in legal(state)
    play(state, ARCH_MOVE_BASE + cell(5, 3))
    moves = {a - ARCH_MOVE_BASE for a in legal(state) if ARCH_MOVE_BASE <= a < ARCH_MOVE_BASE + 36}
    assert moves == {cell(5, 2), cell(5, 4), START}  # ┬ opens E, S, W; its north is a wall
    assert ARCH_DISCOVER_BASE + 0 not in legal(state)  # a wall to the north: no discovery there


def test_discover_ends_on_the_tile_and_its_orientation_is_chosen() -> None:
    state = new_game(2)
    north = cell(5, 3)
    straight = next(c for c in range(36) if c != START and 10 <= state[CELL_TILE + c] < 18)
    state[CELL_TILE + north], state[CELL_TILE + straight] = (
        state[CELL_TILE + straight],
        state[CELL_TILE + north],
    )
    play(state, ARCH_DISCOVER_BASE + 0)
    assert state[PHASE] == PHASE_ORIENT and state[ARCH_CELL + 0] == north and state[ACTIONS_USED] == 1
    assert state[PENDING_CELL] == north
    assert legal(state) == {ORIENT_BASE + 0, ORIENT_BASE + 1}  # a straight: two distinct ways
    play(state, ORIENT_BASE + 1)  # east-west: free to wall itself off from the start
    assert state[CELL_EXITS + north] == data.EAST | data.WEST and state[PHASE] == PHASE_PLAY
    check_invariants(state)


# -- chambers, photographs, mummy and curse -----------------------------------------------
def chamber_north_of_start(state: np.ndarray, photo: int) -> int:
    """Make the tile north of the start a chamber and `photo` the camera's next photograph."""
    north = cell(5, 3)
    chamber = int(next(c for c in range(36) if state[CELL_TILE + c] == 30))
    state[CELL_TILE + north], state[CELL_TILE + chamber] = (
        state[CELL_TILE + chamber],
        state[CELL_TILE + north],
    )
    order = state[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS].tolist()
    order.remove(photo)
    state[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS] = [photo, *order]
    return north


def test_a_chamber_gives_its_photograph_point_and_treasures() -> None:
    state = new_game(2)
    north = chamber_north_of_start(state, photo=0)  # 2 treasures, no mummy, no curse
    play(state, ARCH_DISCOVER_BASE + 0, ORIENT_BASE + 2)  # the opening faces the start
    assert state[PHOTO_OWNER + 0] == 0 and state[PHOTOS_TAKEN] == 1
    assert [int(state[SLOT_STATE + s]) for s in range(3)] == [LYING, LYING, IN_STACK]
    assert state[SLOT_AT + 0] == north and state[TREASURES_DEALT] == 2
    # Carrying is not an action: take both, walk home, bank them.
    play(state, TAKE_BASE + 0, TAKE_BASE + 1)
    assert state[ACTIONS_USED] == 1
    play(state, ARCH_MOVE_BASE + START)
    assert state[SLOT_STATE + 0] == BANKED and state[SLOT_AT + 1] == 0
    points, ties = np.zeros(2, np.int64), np.zeros(2, np.int64)
    kernels.scores(state, points, ties)
    assert points[0] == 1 + state[SLOT_VALUE + 0] + state[SLOT_VALUE + 1]
    check_invariants(state)


def test_mummy_sends_every_figure_on_every_shortest_route_to_the_start() -> None:
    state = new_game(3)
    lay(
        state,
        [
            "######",
            "##│###",
            "#┌┴┐##",
            "#├─┤##",
            "#└┬┘##",
            "##S###",
        ],
    )
    chamber_cell = cell(1, 3)
    chamber = int(
        next(c for c in range(36) if state[CELL_STATUS + c] == CLOSED and state[CELL_TILE + c] >= 30)
    )
    state[CELL_TILE + chamber_cell], state[CELL_TILE + chamber] = (
        state[CELL_TILE + chamber],
        state[CELL_TILE + chamber_cell],
    )
    order = state[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS].tolist()
    order.remove(2)  # (2 treasures, the mummy)
    state[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS] = [2, *order]
    # Routes from the chamber: (1,3) (2,3) (3,3) then left (3,2) (4,2) (5,2) (5,3) or right
    # (3,4) (4,4) (5,4) (5,3), then the start: both 7 steps. (4,3) is off both.
    state[ARCH_CELL + 0] = cell(2, 3)
    state[ARCH_CELL + 1] = cell(4, 2)  # left route
    state[HELPER_CELL + 1] = cell(4, 4)  # right route
    state[ARCH_CELL + 2] = cell(4, 3)  # the middle bar: on no shortest route
    state[HELPER_CELL + 2] = cell(3, 3)
    put_treasure(state, 0, CARRIED, 1)  # player 1 carries a treasure: it flees with it
    play(state, ARCH_DISCOVER_BASE + 0, ORIENT_BASE + 2)  # the chamber opens south
    assert state[ARCH_CELL + 0] == START  # the finder, on the chamber, flees too
    assert state[ARCH_CELL + 1] == START and state[HELPER_CELL + 1] == START
    assert state[HELPER_CELL + 2] == START
    assert state[ARCH_CELL + 2] == cell(4, 3)  # not on a shortest route
    assert state[SLOT_STATE + 0] == BANKED and state[SLOT_AT + 0] == 1
    # The turn ends at once, though player 0 had an action left.
    assert state[CURRENT_PLAYER] == 1 and state[ACTIONS_USED] == 0
    # The photograph's treasures lie in the chamber (slots 1 and 2: slot 0 was in play).
    assert state[PHOTO_OWNER + 2] == 0


def test_no_mummy_without_a_continuous_open_route() -> None:
    state = new_game(2)
    lay(state, ["######", "##│###", "##│###", "######", "#┼─┼##", "##S###"])
    chamber = int(
        next(c for c in range(36) if state[CELL_STATUS + c] == CLOSED and state[CELL_TILE + c] >= 30)
    )
    target = cell(1, 3)
    state[CELL_TILE + target], state[CELL_TILE + chamber] = (
        state[CELL_TILE + chamber],
        state[CELL_TILE + target],
    )
    order = state[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS].tolist()
    order.remove(2)
    state[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS] = [2, *order]
    state[ARCH_CELL + 0] = cell(2, 3)
    state[HELPER_CELL + 1] = cell(3, 3)
    play(state, ARCH_DISCOVER_BASE + 0, ORIENT_BASE + 2)
    # Row 4 col 3 is closed: no continuous open connection, nothing happens, the turn goes on.
    assert state[ARCH_CELL + 0] == cell(1, 3) and state[HELPER_CELL + 1] == cell(3, 3)
    assert state[CURRENT_PLAYER] == 0 and state[ACTIONS_USED] == 1 and state[PHOTOS_TAKEN] == 1


def test_curse_blows_out_every_lamp_on_every_shortest_route() -> None:
    state = new_game(2)
    lay(state, ["######", "##│###", "#┌┴┐##", "#├─┤##", "#└┬┘##", "##S###"])
    chamber = int(
        next(c for c in range(36) if state[CELL_STATUS + c] == CLOSED and state[CELL_TILE + c] >= 30)
    )
    target = cell(1, 3)
    state[CELL_TILE + target], state[CELL_TILE + chamber] = (
        state[CELL_TILE + chamber],
        state[CELL_TILE + target],
    )
    order = state[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS].tolist()
    order.remove(3)  # (1 treasure, the curse)
    state[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS] = [3, *order]
    state[ARCH_CELL + 0] = cell(2, 3)
    for p, where in ((0, cell(3, 2)), (1, cell(5, 4)), (1, cell(2, 3)), (0, cell(4, 3))):
        place_lamp(state, p, where)
    state[HELPER_CELL + 1] = cell(4, 4)
    play(state, ARCH_DISCOVER_BASE + 0, ORIENT_BASE + 2)
    lamps = state[LAMP : LAMP + 2 * 36].reshape(2, 36)
    assert not lamps[0, cell(3, 2)] and not lamps[1, cell(5, 4)] and not lamps[1, cell(2, 3)]
    assert lamps[0, cell(4, 3)]  # the middle bar is on no shortest route
    assert state[LAMP_SUPPLY + 0] == 4 and state[LAMP_SUPPLY + 1] == 5
    assert state[HELPER_CELL + 1] == cell(4, 4) and state[ARCH_CELL + 0] == cell(1, 3)  # figures stay
    assert state[CURRENT_PLAYER] == 1  # the turn ended at once


def test_option_photo_choice_lets_the_finder_pick() -> None:
    state = new_game(2, photo="choice")
    chamber_north_of_start(state, photo=4)
    play(state, ARCH_DISCOVER_BASE + 0, ORIENT_BASE + 2)
    assert state[PHASE] == PHASE_PHOTO
    assert legal(state) == {PHOTO_BASE + k for k in range(5)}
    play(state, PHOTO_BASE + 1)  # 2 treasures, no event
    assert state[PHOTO_OWNER + 1] == 0 and state[PHOTO_ORDER + 0] == 1 and state[TREASURES_DEALT] == 2
    assert state[PHASE] == PHASE_PLAY
    check_invariants(state)


@pytest.mark.parametrize("face", ["face_down", "face_up"])
def test_option_treasures_face_up_or_down(face: str) -> None:
    state = new_game(2, treasures=face)
    north = chamber_north_of_start(state, photo=0)
    play(state, ARCH_DISCOVER_BASE + 0, ORIENT_BASE + 2)
    known = [bool(kernels.value_known(state, 0, p)) for p in range(2)]
    assert known == ([True, True] if face == "face_up" else [False, False])
    play(state, TAKE_BASE + 0, ARCH_MOVE_BASE + START)
    # Banked: its owner knows it; the other player only if it lay face up.
    assert kernels.value_known(state, 0, 0)
    assert bool(kernels.value_known(state, 0, 1)) == (face == "face_up")
    assert state[SLOT_AT + 1] == north
    out = np.zeros(observe.OBS_SIZE, np.float32)
    observe.observe(state, 1, out)
    at = observe.OBS["slots"][0] + observe.SLOT["value_known"][0]
    assert out[at] == (1.0 if face == "face_up" else 0.0)


# -- lamps --------------------------------------------------------------------------------
def test_own_lamps_join_tiles_connected_by_lamps_in_one_move() -> None:
    state = new_game(2)
    lay(state, OPEN_ALL)
    for where in (cell(5, 3), cell(4, 3), cell(3, 3), cell(3, 4)):
        place_lamp(state, 0, where)
    place_lamp(state, 0, cell(1, 1))  # not joined to the others by lamp tiles
    place_lamp(state, 1, cell(2, 4))  # another player's lamp counts only for that player
    state[ARCH_CELL + 0] = cell(5, 3)
    moves = {a - ARCH_MOVE_BASE for a in legal(state) if ARCH_MOVE_BASE <= a < ARCH_MOVE_BASE + 36}
    assert {cell(4, 3), cell(3, 3), cell(3, 4)} <= moves
    assert cell(1, 1) not in moves and cell(2, 4) not in moves and cell(2, 3) not in moves
    play(state, ARCH_MOVE_BASE + cell(3, 4))
    assert state[ACTIONS_USED] == 1 and state[ARCH_CELL + 0] == cell(3, 4)
    # The helper uses the same lamps.
    state[HELPER_CELL + 0] = cell(4, 3)
    assert HELPER_MOVE_BASE + cell(3, 4) in legal(state)


def test_lamp_place_and_pick_up_and_option_lamp_figures() -> None:
    state = new_game(2, lamp_figures="both")
    lay(state, OPEN_ALL)
    # Not on the start tile.
    assert ARCH_LAMP_BASE not in legal(state) and HELPER_LAMP_BASE not in legal(state)
    play(state, HELPER_MOVE_BASE + cell(5, 3), HELPER_LAMP_BASE + 0)
    assert state[LAMP + cell(5, 3)] == 1 and state[LAMP_SUPPLY + 0] == 4
    play(state, PASS_ACTION, PASS_ACTION)
    play(state, HELPER_LAMP_BASE + 1)
    assert state[LAMP + cell(5, 3)] == 0 and state[LAMP_SUPPLY + 0] == 5
    play(state, ARCH_MOVE_BASE + cell(5, 3), ARCH_LAMP_BASE + 0)  # the action table's lamps
    assert state[LAMP + cell(5, 3)] == 1
    helper_only = new_game(2, lamp_figures="helper")
    lay(helper_only, OPEN_ALL)
    play(helper_only, ARCH_MOVE_BASE + cell(5, 3))
    assert ARCH_LAMP_BASE not in legal(helper_only) and ARCH_LAMP_BASE + 1 not in legal(helper_only)


# -- the helper's rotation -------------------------------------------------------------
@pytest.mark.parametrize("reach", ["passage", "adjacent"])
def test_option_rotate_reach(reach: str) -> None:
    state = new_game(2, rotate_reach=reach)
    lay(state, ["######", "######", "######", "######", "#│┬──#", "##S###"])
    state[HELPER_CELL + 0] = cell(5, 3)  # on the ┬ (E, S, W)
    rotations = {
        a - HELPER_ROTATE_BASE for a in legal(state) if HELPER_ROTATE_BASE <= a < HELPER_ROTATE_BASE + 15
    }
    targets = {index // 3 for index in rotations}
    # Own tile (0); east (2) joined by a passage; west (4) is a │ with a wall towards it.
    expected = {0, 2} if reach == "passage" else {0, 2, 4}
    assert targets == expected
    play(state, HELPER_ROTATE_BASE + 0 * 3 + 1)  # own tile a half turn: ┬ -> ┴
    assert state[CELL_EXITS + cell(5, 3)] == data.NORTH | data.EAST | data.WEST


def test_a_crossroads_has_no_rotation_and_the_start_tile_none() -> None:
    state = new_game(2)
    lay(state, OPEN_ALL)
    state[HELPER_CELL + 0] = START
    rotations = {a for a in legal(state) if HELPER_ROTATE_BASE <= a < HELPER_ROTATE_BASE + 15}
    assert not rotations


# -- stealing -----------------------------------------------------------------------------
def test_stealing_is_a_free_choice_on_a_shared_tile() -> None:
    state = new_game(3)
    lay(state, OPEN_ALL)
    state[ARCH_CELL + 0] = cell(3, 3)
    state[ARCH_CELL + 1] = cell(3, 3)
    state[ARCH_CELL + 2] = cell(3, 4)
    put_treasure(state, 0, CARRIED, 1)
    put_treasure(state, 1, CARRIED, 2)
    options = legal(state)
    assert STEAL_BASE + 0 in options and STEAL_BASE + 1 not in options  # not on its tile
    play(state, ARCH_MOVE_BASE + cell(3, 2))  # may walk away instead: stealing is a choice
    play(state, ARCH_MOVE_BASE + cell(3, 3), STEAL_BASE + 0)
    assert state[SLOT_AT + 0] == 0 and state[ACTIONS_USED] == 2  # not an action
    assert STEAL_BASE + 0 not in legal(state)  # nobody steals from itself


def test_free_takes_after_the_third_action_then_the_turn_ends() -> None:
    state = new_game(2)
    lay(state, OPEN_ALL)
    put_treasure(state, 0, LYING, cell(3, 3))
    play(state, ARCH_MOVE_BASE + cell(5, 3), ARCH_MOVE_BASE + cell(4, 3), ARCH_MOVE_BASE + cell(3, 3))
    assert state[CURRENT_PLAYER] == 0 and legal(state) == {TAKE_BASE + 0, PASS_ACTION}
    play(state, TAKE_BASE + 0)
    assert state[CURRENT_PLAYER] == 1 and state[SLOT_STATE + 0] == CARRIED


# -- the mask and the collapse ---------------------------------------------------------------
def mask_found(num_players: int = 2, **options: object) -> np.ndarray:
    """Every chamber found; the mask lies at row 3 col 3 (open all round), found by player 0 in
    turn 0, which has just ended."""
    state = new_game(num_players, **options)
    lay(state, OPEN_ALL)
    for k in range(data.NUM_PHOTOS):
        state[PHOTO_OWNER + state[PHOTO_ORDER + k]] = k % num_players
    state[PHOTOS_TAKEN] = data.NUM_PHOTOS
    centre = cell(3, 3)
    for slot in range(data.NUM_TREASURES):
        put_treasure(state, slot, BANKED, slot % num_players)
    put_treasure(state, data.MASK_SLOT, LYING, centre)
    state[MASK_CELL] = centre
    state[FINDER] = 0
    state[MASK_TURN] = 0
    state[TURN] = 1
    state[CURRENT_PLAYER] = 1
    return state


def test_carrying_the_mask_off_starts_the_collapse_ring_by_ring() -> None:
    state = mask_found(2)
    centre = cell(3, 3)
    state[ARCH_CELL + 1] = centre
    state[HELPER_CELL + 0] = cell(3, 4)  # ring 1
    state[ARCH_CELL + 0] = cell(1, 3)  # ring 2
    place_lamp(state, 0, cell(3, 2))  # ring 1
    play(state, TAKE_BASE + data.MASK_SLOT, ARCH_MOVE_BASE + cell(4, 3))
    assert state[COLLAPSE] == 1 and state[COLLAPSE_PLAYER] == 1
    play(state, PASS_ACTION)
    # The end of the carrier's turn: the chamber goes.
    assert state[CELL_STATUS + centre] == REMOVED_OPEN and state[COLLAPSE_RING] == 1
    assert state[CELL_STATUS + cell(3, 4)] == OPEN
    play(state, PASS_ACTION)  # player 0's turn: nothing collapses
    assert state[COLLAPSE_RING] == 1 and state[HELPER_CELL + 0] == cell(3, 4)
    play(state, ARCH_MOVE_BASE + cell(5, 3), PASS_ACTION)  # the carrier's turn: ring 1
    assert state[HELPER_CELL + 0] == NOWHERE and state[LAMP_LOST + 0] == 1
    assert state[CELL_STATUS + cell(4, 3)] == REMOVED_OPEN and state[ARCH_CELL + 1] == cell(5, 3)
    play(state, PASS_ACTION, ARCH_MOVE_BASE + START, PASS_ACTION)  # ring 2 takes player 0's archaeologist
    assert state[ARCH_CELL + 0] == NOWHERE and state[SLOT_STATE + data.MASK_SLOT] == BANKED
    while not state[TERMINAL]:
        play(state, PASS_ACTION)
    assert state[END_CONDITION] == END_COLLAPSE
    assert all(state[CELL_STATUS + c] in (REMOVED_OPEN, REMOVED_CLOSED) for c in range(36) if c != START)
    points, ties = np.zeros(2, np.int64), np.zeros(2, np.int64)
    kernels.scores(state, points, ties)
    photos = [sum(state[PHOTO_OWNER + f] == p for f in range(5)) for p in range(2)]
    values = [sum(int(state[SLOT_VALUE + s]) for s in range(8) if s % 2 == p) for p in range(2)]
    assert points[0] == photos[0] + values[0] - 2 - 1  # lost both figures
    assert points[1] == photos[1] + values[1] + 5  # the mask
    assert ties.tolist() == [0, 3]


def test_a_stolen_mask_moves_the_collapse_to_the_thief() -> None:
    state = mask_found(2)
    state[ARCH_CELL + 1] = cell(3, 3)
    play(state, TAKE_BASE + data.MASK_SLOT, ARCH_MOVE_BASE + cell(2, 3), PASS_ACTION)
    assert state[COLLAPSE_RING] == 1
    state[ARCH_CELL + 0] = cell(2, 3)
    play(state, STEAL_BASE + data.MASK_SLOT, PASS_ACTION)  # player 0 holds it now: ring 1
    assert state[COLLAPSE_PLAYER] == 0 and state[COLLAPSE_RING] == 2


def test_the_mask_left_in_its_chamber_collapses_after_three_turns_of_the_finder() -> None:
    state = mask_found(3)
    state[ARCH_CELL + 2] = cell(3, 3)  # waits on the chamber with the mask in hand
    play(state, PASS_ACTION)  # player 1
    play(state, TAKE_BASE + data.MASK_SLOT, PASS_ACTION)  # player 2 picks it up but stays
    for turn in range(1, 4):
        play(state, PASS_ACTION)  # the finder's turn 1, 2, 3 after the discovery
        assert state[TIMER] == turn
        if turn < 3:
            play(state, PASS_ACTION, PASS_ACTION)
    assert state[COLLAPSE] == 1 and state[CELL_STATUS + cell(3, 3)] == REMOVED_OPEN
    assert state[ARCH_CELL + 2] == NOWHERE and state[SLOT_STATE + data.MASK_SLOT] == LOST
    assert state[COLLAPSE_PLAYER] == 0 and state[COLLAPSE_RING] == 1
    play(state, PASS_ACTION, PASS_ACTION, PASS_ACTION)  # the finder's next turn: ring 1
    assert state[COLLAPSE_RING] == 2


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("finder", [0, 1])
def test_option_collapse_timer_rounds_falls_after_three_full_rounds(players: int, finder: int) -> None:
    """'for three rounds': the discovery's part-round is no round; the chamber falls at the end
    of the 3n-th turn after the discovery's turn, whoever found it."""
    state = mask_found(players, collapse_timer="rounds")
    state[FINDER] = finder
    state[MASK_TURN] = finder  # found in the finder's turn of the first round
    state[TURN] = finder + 1
    state[CURRENT_PLAYER] = (finder + 1) % players
    for turn in range(1, 3 * players + 1):
        assert state[COLLAPSE] == 0, f"fell after {turn - 1} turns"
        play(state, PASS_ACTION)
        assert state[TIMER] == min(turn // players, 3)
    assert state[COLLAPSE] == 1 and state[CELL_STATUS + cell(3, 3)] == REMOVED_OPEN


def test_defaults_follow_the_rulebook_prose() -> None:
    """The helper carries the lamps and rotates any adjacent tile (the prose); the other
    readings stay options."""
    options = GAME.validate({})
    assert options["lamp_figures"] == "helper" and options["rotate_reach"] == "adjacent"
    assert GAME.env_name == "pharaoh_v1"
    state = new_game(2)
    lay(state, OPEN_ALL)
    play(state, ARCH_MOVE_BASE + cell(5, 3))
    assert ARCH_LAMP_BASE not in legal(state) and ARCH_LAMP_BASE + 1 not in legal(state)


def test_tie_breaks_both_figures_then_the_mask() -> None:
    state = mask_found(2)
    for slot in range(data.NUM_SLOTS):
        state[SLOT_STATE + slot], state[SLOT_AT + slot] = LOST, NOWHERE
    state[PHOTO_OWNER : PHOTO_OWNER + data.NUM_PHOTOS] = NOBODY
    state[SLOT_VALUE + 0], state[SLOT_VALUE + 1] = 2, 3
    for slot, owner in ((0, 0), (1, 0), (data.MASK_SLOT, 1)):
        state[SLOT_STATE + slot], state[SLOT_AT + slot] = BANKED, owner
    points, ties = np.zeros(2, np.int64), np.zeros(2, np.int64)
    kernels.scores(state, points, ties)
    assert points.tolist() == [5, 5] and ties.tolist() == [2, 3]  # the mask's holder wins the tie
    state[HELPER_CELL + 1] = NOWHERE
    state[PHOTO_OWNER + 0] = 1  # 5 + 1 - 1: still tied, but player 1 lost a figure
    kernels.scores(state, points, ties)
    assert points.tolist() == [5, 5] and ties.tolist() == [2, 1]


@pytest.mark.parametrize("players", [2, 4])
def test_the_round_limit_guard_truncates_never_ends_the_game(players: int) -> None:
    """The kernels never end a game by the guard; the drivers cut it once guard_rounds(n)
    rounds are over: truncations for every agent, rewards 0, no winner, the scores in infos."""
    limit = data.guard_rounds(players)
    assert GAME.guard.limit({"num_players": players}) == limit and GAME.guard.unit == "rounds"
    assert limit * players == data.GUARD_TURNS - data.GUARD_TURNS % players  # same turns for all
    state = new_game(players)
    turn = limit * players - 1  # the last turn of the last round allowed
    state[TURN], state[ROUNDS_DONE] = turn, turn // players
    state[CURRENT_PLAYER] = turn % players
    state[DECISIONS], state[LAST_PLAYER] = turn, (turn - 1) % players
    env = TreasureAECEnv(GAME, num_players=players)
    env.reset(seed=0)
    env.set_state(state)
    assert not env.is_over()
    env.step(PASS_ACTION)
    after = env.get_state()
    assert not after[TERMINAL] and after[END_CONDITION] == END_NONE  # the kernels go on
    assert env.is_truncated() and all(env.truncations.values()) and not any(env.terminations.values())
    assert all(env.rewards[agent] == 0 for agent in env.possible_agents)
    info = env.infos[env.possible_agents[0]]
    assert info["end_condition"] == END_ROUND_LIMIT
    assert not any(env.infos[agent]["winner"] for agent in env.possible_agents)
    assert info["rounds"] == limit


# -- hidden information, bot ---------------------------------------------------------------
def test_resample_hidden_keeps_what_the_player_has_seen() -> None:
    state = new_game(2, seed=3)
    north = chamber_north_of_start(state, photo=0)
    play(state, ARCH_DISCOVER_BASE + 0, ORIENT_BASE + 2, TAKE_BASE + 0, ARCH_MOVE_BASE + START)
    twin = state.copy()
    kernels.resample_hidden(twin, 0, 99)
    assert twin[CELL_TILE + north] == state[CELL_TILE + north]
    assert twin[SLOT_VALUE + 0] == state[SLOT_VALUE + 0]  # banked by player 0: it knows
    closed = [c for c in range(36) if state[CELL_STATUS + c] == CLOSED]
    assert sorted(twin[CELL_TILE + c] for c in closed) == sorted(state[CELL_TILE + c] for c in closed)
    assert any(twin[CELL_TILE + c] != state[CELL_TILE + c] for c in closed)
    check_invariants(twin)


def test_the_bot_beats_random_play() -> None:
    env = TreasureAECEnv(GAME, num_players=2)
    wins = 0
    for game in range(20):
        seat = game % 2
        agents = [PharaohBot(game) if p == seat else RandomAgent(game) for p in range(2)]
        wins += play_game(env, agents, seed=game)["winner"][seat]
    assert wins >= 13, f"the bot won only {wins} of 20 against random play"
    assert heuristic_action(new_game(2), 0, 0) in legal(new_game(2))


def test_renderings_and_action_names() -> None:
    state = new_game(2, seed=4)
    north = chamber_north_of_start(state, photo=0)
    play(state, ARCH_DISCOVER_BASE + 0, ORIENT_BASE + 2)
    text = GAME.render_ansi(state, viewer=0, colour=False)
    lines = text.splitlines()
    assert lines[0].split() == [w for c in range(1, 7) for w in ("col", str(c))]  # column labels
    board = lines[1:31]  # the 6 x 6 pyramid, 9 x 5 a tile, after a row label
    assert all(len(line) == 6 + 6 * 9 + 5 for line in board)
    assert [line[:6].strip() for line in board[2::5]] == [f"row {r}" for r in range(1, 7)]
    assert "game" not in text.splitlines()[-1]
    assert "START" in text and "$2" in text and "treasure 0 (?)" in text
    image = GAME.render_rgb(state)
    assert image.shape == (144, 144, 3) and image.dtype == np.uint8
    assert GAME.action_name(state, TAKE_BASE + 0) == "pick up treasure 0 (?) (free)"
    assert GAME.action_name(state, ARCH_MOVE_BASE + START) == "archaeologist to the start tile"
    assert GAME.action_name(state, PASS_ACTION) == "end the turn"
    assert north == cell(5, 3)


def test_the_final_screen_states_the_end_that_happened() -> None:
    state = mask_found(2)
    for c in range(data.NUM_CELLS):
        if c != START and state[CELL_STATUS + c] == OPEN:
            state[CELL_STATUS + c] = REMOVED_OPEN
    state[TERMINAL], state[END_CONDITION] = 1, END_COLLAPSE
    last = GAME.render_ansi(state, colour=False).splitlines()[-1]
    assert last == "game over: the pyramid collapsed, only the start tile remains"
    cut = new_game(2)
    cut[ROUNDS_DONE] = data.guard_rounds(2)
    last = GAME.render_ansi(cut, colour=False).splitlines()[-1]
    assert "round limit" in last and "collapsed" not in last


def test_step_refuses_an_illegal_action_changing_nothing() -> None:
    state = new_game(2)
    before = state.copy()
    for action in range(N_ACTIONS):
        if action not in legal(state):
            kernels.step(state, action)
            assert (state == before).all(), f"action {action} changed the state"


def test_bots_alone_play_to_the_collapse() -> None:
    """Bot-only games end by the rules (the collapse), not by the guard (more games:
    test_pharaoh_bot.py; the figures: benchmarks/pharaoh_endings.py)."""
    env = TreasureAECEnv(GAME, num_players=3)
    collapsed = 0
    for game in range(10):
        play_game(env, [PharaohBot(3 * game + p) for p in range(3)], seed=game)
        collapsed += not env.is_truncated() and int(env.get_state()[END_CONDITION]) == END_COLLAPSE
    assert collapsed == 10, f"only {collapsed} of 10 bot games reached the collapse"
