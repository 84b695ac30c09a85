"""Rules tests for Treasures of Nakbe's Jungle side, its special spaces (Variant B: the river,
the secret passage, the snakes), Treasure of the Jungle (Variant A) and An Endless Threat:
the rulebook's Examples 7 and 8 and the rules around them. Each position is set up through
the named offsets of nakbe_env.state and checked against the outcome the rulebook states.

Jungle board used (nakbe_env.data, assumed layout; test_the_layout_these_tests_use guards it):
track 1..48, exit beyond 48; treasures 3 9 12 17 24 27 32 38 41 45; traps 15 29 43; lightless
5 11 19; rivers 18 33; secret passage 14 <-> 23; Snakes Token on 30 (bottom left); the left
column, bottom to top: 30 31 32 33 34 35 36 (grid column 1 beside it: 29 at the bottom, then
42 up to 37). Space 0 is the Jungle Entrance; the Guardian starts on the Stone Stairs beside it
(GUARDIAN_START).
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from test_nakbe_rules import events, final_scores, legal, many_games, pos, slot_index

from nakbe_env import data, kernels, observe, render
from nakbe_env.env import GAME, raw_env
from nakbe_env.invariants import check_invariants
from nakbe_env.state import (
    BOX_TOKENS,
    CAMPAIGN,
    DARK,
    DIE,
    END_CONDITIONS,
    END_EXIT,
    END_LAST_ONE,
    END_LIGHTLESS,
    END_NONE,
    EVENT_CATCH,
    EVENT_EXIT,
    EVENT_NEXT_GAME,
    EVENT_NO_MOVE,
    EVENT_PASSAGE,
    EVENT_PASSAGE_CATCH,
    EVENT_RIVER,
    EVENT_ROUND_END,
    EVENT_SNAKES,
    EVENT_TRAP,
    EXPLORER_DARK,
    EXPLORER_POS,
    EXPLORER_SLOT,
    FEATURE_PASSAGE,
    FEATURE_RIVER,
    FEATURE_SNAKES,
    FEATURES,
    GUARDIAN_POS,
    GUARDIAN_START,
    IN_RIVER,
    LAST_CAUGHT,
    LAST_EXPLORER,
    LAST_PLAYER,
    LAST_ROLL,
    LAST_TO,
    LIGHT,
    N_ACTIONS,
    NO_MOVE,
    NO_MOVES,
    NO_SLOT,
    NO_TOKEN,
    OFF_BOARD,
    P_CAMPAIGN,
    P_FEATURES,
    P_FIRST_SIDE,
    P_TRAP_ORIGIN,
    ROUND,
    SEAT_TOKENS,
    SIDE,
    SNAKES_WAITING,
    SPACE_TOKEN,
    START,
    STATE_SIZE,
    TEAM_CARD,
    TOKEN_KINDS,
    TOKEN_VALUE_COUNTS,
)
from treasure_apps.cli import main
from treasure_core.header import (
    CURRENT_PLAYER,
    DECISIONS,
    P_NUM_PLAYERS,
    P_REWARD_MODE,
    REWARD_WIN_LOSS,
    TERMINAL,
)

TEMPLE, JUNGLE = data.TEMPLE, data.JUNGLE
ALL_FEATURES = FEATURE_RIVER | FEATURE_PASSAGE | FEATURE_SNAKES
NAMES = data.EXPLORER_NAMES
IDX = {name: i for i, name in enumerate(NAMES)}
FACES = (1, 2, 3, 4, 6)
FULL_SET = np.bincount(data.TOKEN_VALUES, minlength=TOKEN_KINDS)  # one side's 15 tokens by value
SNAKES_SPACE = data.JUNGLE_SNAKES
LOW_END, HIGH_END = data.JUNGLE_PASSAGE


# -- helpers (slot_index, legal, pos, events and final_scores are the temple tests') -------------
def make_params(
    num_players: int = 4, side: int = JUNGLE, campaign: bool = False, features: int = ALL_FEATURES
) -> np.ndarray:
    """The params env._game_params would write: header, then side, campaign, features."""
    params = np.zeros(P_TRAP_ORIGIN + 1, np.int32)  # trap_origin 0: from the Jungle Entrance
    params[P_NUM_PLAYERS] = num_players
    params[P_REWARD_MODE] = REWARD_WIN_LOSS
    params[P_FIRST_SIDE] = side
    params[P_CAMPAIGN] = int(campaign)
    params[P_FEATURES] = features
    return params


def fresh(seed: int = 0, **params: Any) -> np.ndarray:
    """kernels.init with make_params(**params)."""
    state = np.zeros(STATE_SIZE, np.int32)
    kernels.init(state, make_params(**params), seed)
    return state


def box(state: np.ndarray, side: int) -> np.ndarray:
    start = BOX_TOKENS + side * TOKEN_KINDS
    return state[start : start + TOKEN_KINDS].copy()


def held(state: np.ndarray, side: int, seat: int) -> np.ndarray:
    start = TOKEN_VALUE_COUNTS + side * SEAT_TOKENS + seat * TOKEN_KINDS
    return state[start : start + TOKEN_KINDS].copy()


def board_tokens(state: np.ndarray) -> np.ndarray:
    values = state[SPACE_TOKEN : SPACE_TOKEN + data.NUM_SPACES]
    return np.bincount(values[values != NO_TOKEN], minlength=TOKEN_KINDS)


def _take_token(state: np.ndarray, side: int, value: int, protected: set[int]) -> int | None:
    """Remove one token worth `value` from the side's box (None) or, failing that, from a
    face-down space not in `protected` (that space): keeps the 15 tokens conserved."""
    if state[BOX_TOKENS + side * TOKEN_KINDS + value] > 0:
        state[BOX_TOKENS + side * TOKEN_KINDS + value] -= 1
        return None
    if state[SIDE] == side:
        for space in range(data.NUM_SPACES):
            if space not in protected and state[SPACE_TOKEN + space] == value:
                state[SPACE_TOKEN + space] = NO_TOKEN
                return space
    raise AssertionError(f"no token worth {value} left on side {side}")


def end_temple_game(state: np.ndarray, temple_slots: dict[str, int]) -> None:
    """In a campaign state on the temple side: the temple game has ended (A) with every
    explorer on the scoring token `temple_slots[name]`; the jungle game is laid out."""
    assert state[CAMPAIGN] and state[SIDE] == TEMPLE and set(temple_slots) == set(NAMES)
    for name, value in temple_slots.items():
        state[EXPLORER_SLOT + TEMPLE * data.NUM_EXPLORERS + IDX[name]] = slot_index(value)
    state[END_CONDITIONS + TEMPLE] = END_EXIT
    for space in range(data.NUM_SPACES):  # the temple tokens left on the board go to the box
        if state[SPACE_TOKEN + space] != NO_TOKEN:
            state[BOX_TOKENS + TEMPLE * TOKEN_KINDS + state[SPACE_TOKEN + space]] += 1
    kernels.set_up_side(state, JUNGLE)


def build(
    *,
    board: dict[str, int],
    guardian: int,
    die: int,
    dark: tuple[str, ...] = (),
    river: tuple[str, ...] = (),
    slots: dict[str, int] | None = None,
    tokens: dict[int, int] | None = None,
    holdings: dict[tuple[int, int], list[int]] | None = None,
    cards: list[int] | None = None,
    side: int = JUNGLE,
    campaign: bool = False,
    temple_slots: dict[str, int] | None = None,
    features: int = ALL_FEATURES,
    player: int = 0,
    num_players: int = 4,
    seed: int = 0,
) -> np.ndarray:
    """A position on `side`: `board` maps every explorer still in play to its space (START or
    a track space), `dark` names those on the dark side, `river` those in a river, `slots`
    maps every explorer already off the board to the points of its scoring slot on this
    side. A campaign on the jungle side needs `temple_slots` (the first game's result).
    Treasure spaces an explorer stands on have lost their token; `tokens` sets chosen
    face-down values and `holdings[(side, seat)]` the token values a seat holds, both taken
    from that side's 15 tokens so they stay conserved; `cards[seat]` sets team cards.
    The result passes invariants.check_invariants."""
    slots = slots or {}
    assert set(board) | set(slots) == set(NAMES) and not set(board) & set(slots)
    assert set(dark) <= set(board) and set(river) <= set(board) and not set(dark) & set(river)
    state = fresh(
        num_players=num_players,
        side=TEMPLE if campaign else side,
        campaign=campaign,
        features=features,
        seed=seed,
    )
    if campaign and side == JUNGLE:
        end_temple_game(state, temple_slots)
    assert state[SIDE] == side
    flags = data.SPACE_FLAGS[side]
    base = EXPLORER_SLOT + side * data.NUM_EXPLORERS
    for name, space in board.items():
        e = IDX[name]
        assert space == START or 1 <= space <= data.TRACK_LENGTHS[side]
        assert not (space == START and (name in dark or name in river)), "the start has no dark side"
        assert not (space != START and flags[space] & data.TRAP), "nobody stays on a trap"
        lightless = space != START and flags[space] & data.LIGHTLESS
        assert not (lightless and name not in dark), "a lightless space has no light side"
        assert name not in river or flags[space] & data.RIVER
        state[EXPLORER_POS + e] = space
        state[EXPLORER_DARK + e] = IN_RIVER if name in river else DARK if name in dark else LIGHT
        state[base + e] = NO_SLOT
        value = state[SPACE_TOKEN + space]
        if space != START and value != NO_TOKEN:  # that explorer's mover took it
            state[SPACE_TOKEN + space] = NO_TOKEN
            state[BOX_TOKENS + side * TOKEN_KINDS + value] += 1
    for name, value in slots.items():
        e = IDX[name]
        state[EXPLORER_POS + e] = OFF_BOARD
        state[EXPLORER_DARK + e] = LIGHT
        state[base + e] = slot_index(value)
    chosen = set(tokens or {})
    for space, value in (tokens or {}).items():
        assert flags[space] & data.TREASURE and state[SPACE_TOKEN + space] != NO_TOKEN
        old = int(state[SPACE_TOKEN + space])
        if old != value:
            source = _take_token(state, side, value, chosen)
            if source is None:
                state[BOX_TOKENS + side * TOKEN_KINDS + old] += 1
            else:
                state[SPACE_TOKEN + source] = old
            state[SPACE_TOKEN + space] = value
    for (token_side, seat), values in (holdings or {}).items():
        for value in values:
            _take_token(state, token_side, value, chosen)
            state[TOKEN_VALUE_COUNTS + token_side * SEAT_TOKENS + seat * TOKEN_KINDS + value] += 1
    if cards is not None:
        rest = [c for c in range(data.MAX_PLAYERS) if c not in cards]
        state[TEAM_CARD : TEAM_CARD + data.MAX_PLAYERS] = list(cards) + rest
    state[GUARDIAN_POS] = guardian
    state[DIE] = die
    state[CURRENT_PLAYER] = player
    check_invariants(state)
    return state


def side_of_space(state: np.ndarray, name: str) -> int:
    """LIGHT, DARK or IN_RIVER."""
    return int(state[EXPLORER_DARK + IDX[name]])


def slot_value(state: np.ndarray, name: str, side: int = JUNGLE) -> int | None:
    slot = int(state[EXPLORER_SLOT + side * data.NUM_EXPLORERS + IDX[name]])
    return None if slot == NO_SLOT else int(data.SLOT_VALUES[slot])


def all_slot_values(state: np.ndarray, side: int = JUNGLE) -> dict[str, int | None]:
    return {name: slot_value(state, name, side) for name in NAMES}


def move(state: np.ndarray, name: str, die: int | None = None) -> None:
    """Play explorer `name` (with `die` showing, if given); it must be legal. The result must
    keep every invariant, and, unless a round or game ended, leave the explorer where
    kernels.destination said (OFF_BOARD: caught by the passage or the snakes)."""
    if die is not None:
        state[DIE] = die
    assert name in legal(state), f"{name} may not move with a {state[DIE]}"
    # What render.describe_move tells the player: where the move leaves the explorer.
    predicted = int(kernels.destination(state, IDX[name], state[DIE]))
    kernels.step(state, IDX[name])
    check_invariants(state)
    if not events(state) & (EVENT_ROUND_END | EVENT_EXIT | EVENT_NEXT_GAME):
        assert pos(state, name) == predicted, f"{name} was to end on {predicted}"


def unchanged_except(before: np.ndarray, after: np.ndarray, changed: set[str]) -> None:
    """Every explorer not in `changed` is where it was, on the same side of its space."""
    for name in NAMES:
        if name not in changed:
            assert pos(after, name) == pos(before, name), name
            assert side_of_space(after, name) == side_of_space(before, name), name
            assert slot_value(after, name) == slot_value(before, name), name


def play_random(state: np.ndarray, rng: np.random.Generator, until: Callable[[np.ndarray], bool]) -> None:
    """Random legal moves (invariants checked) until until(state) or the end."""
    for _ in range(3000):
        if state[TERMINAL] or until(state):
            return
        move(state, sorted(legal(state))[rng.integers(len(legal(state)))])
    raise AssertionError("the game did not end")


# -- the board -----------------------------------------------------------------------------------
def test_the_layout_these_tests_use():
    flags = data.SPACE_FLAGS[JUNGLE]

    def spaces(kind: int) -> list[int]:
        return [s for s in range(1, data.JUNGLE_TRACK_LENGTH + 1) if flags[s] & kind]

    assert data.JUNGLE_TRACK_LENGTH == 48
    assert spaces(data.TREASURE) == [3, 9, 12, 17, 24, 27, 32, 38, 41, 45]
    assert spaces(data.TRAP) == [15, 29, 43]
    assert spaces(data.LIGHTLESS) == [5, 11, 19]
    assert spaces(data.RIVER) == [18, 33]
    assert spaces(data.PASSAGE) == [14, 23] == [LOW_END, HIGH_END]
    assert spaces(data.SNAKES) == [30] == [SNAKES_SPACE]
    assert data.SNAKE_COLUMN.tolist() == [30, 31, 32, 33, 34, 35, 36]
    assert [s for s in range(1, data.JUNGLE_TRACK_LENGTH + 1) if data.JUNGLE_GRID[s][1] == 1] == [
        29,
        *range(37, 43),
    ]
    assert flags[START] == 0


def test_jungle_board_has_10_treasures_2_rivers_one_passage_pair_and_the_snakes_bottom_left():
    flags = data.SPACE_FLAGS[JUNGLE]
    track = range(1, data.JUNGLE_TRACK_LENGTH + 1)
    assert sum(bool(flags[s] & data.TREASURE) for s in track) == 10 == data.TOKENS_PLACED[JUNGLE]
    assert sum(bool(flags[s] & data.RIVER) for s in track) == 2
    ends = [s for s in track if flags[s] & data.PASSAGE]
    assert len(ends) == 2
    low, high = ends
    assert data.PASSAGE_OTHER_END[JUNGLE, low] == high and data.PASSAGE_OTHER_END[JUNGLE, high] == low
    others = [s for s in range(data.NUM_SPACES) if s not in ends]
    assert (data.PASSAGE_OTHER_END[JUNGLE, others] == data.NO_SPACE).all()
    assert (data.PASSAGE_OTHER_END[TEMPLE] == data.NO_SPACE).all(), "no passage in the temple"
    # The temple has none of the jungle's special spaces.
    temple = data.SPACE_FLAGS[TEMPLE]
    assert not (temple & (data.RIVER | data.PASSAGE | data.SNAKES)).any()
    # Every jungle space (the entrance too) has its own grid cell, distinct from the Stone Stairs.
    grid = data.SPACE_GRID[JUNGLE, : data.JUNGLE_TRACK_LENGTH + 1]
    rows, cols = data.GRID_SHAPES[JUNGLE]
    assert ((grid >= 0) & (grid < (rows, cols))).all()
    cells = {tuple(cell) for cell in grid.tolist()}
    assert len(cells) == data.JUNGLE_TRACK_LENGTH + 1
    assert tuple(data.GUARDIAN_START_GRID[JUNGLE]) not in cells
    # Consecutive spaces are neighbours on the grid: the track can be drawn.
    assert all(np.abs(grid[s + 1] - grid[s]).sum() == 1 for s in range(data.JUNGLE_TRACK_LENGTH))
    # The Jungle Entrance is "the space next to the Stone Stairs".
    assert np.abs(grid[START] - np.array(data.GUARDIAN_START_GRID[JUNGLE])).sum() == 1
    # The Snakes Token starts at the bottom left: the lowest row, column 0.
    snakes = [s for s in track if flags[s] & data.SNAKES]
    assert snakes == [data.JUNGLE_SNAKES]
    assert tuple(grid[data.JUNGLE_SNAKES]) == (grid[:, 0].max(), 0)


def test_the_left_column_is_grid_column_0_bottom_to_top():
    grid = data.SPACE_GRID[JUNGLE]
    column = [s for s in range(1, data.JUNGLE_TRACK_LENGTH + 1) if grid[s, 1] == 0]
    assert sorted(data.SNAKE_COLUMN.tolist()) == column
    rows = [int(grid[s, 0]) for s in data.SNAKE_COLUMN]
    assert rows == sorted(rows, reverse=True), "bottom (highest row) first"
    assert data.SNAKE_COLUMN[0] == data.JUNGLE_SNAKES


def test_jungle_set_up_guardian_on_the_stairs_explorers_at_the_entrance_10_tokens_5_boxed():
    assert data.START_NAMES[JUNGLE] == "Jungle Entrance"
    assert data.GUARDIAN_START_NAMES[JUNGLE] == "Stone Stairs"
    for seed in range(3):
        state = fresh(seed=seed)
        check_invariants(state)
        assert state[SIDE] == JUNGLE and state[CAMPAIGN] == 0
        assert state[GUARDIAN_POS] == GUARDIAN_START
        assert all(pos(state, name) == START and side_of_space(state, name) == LIGHT for name in NAMES)
        on = {s for s in range(data.NUM_SPACES) if state[SPACE_TOKEN + s] != NO_TOKEN}
        assert on == set(data.JUNGLE_TREASURES)
        assert box(state, JUNGLE).sum() == 5
        assert (board_tokens(state) + box(state, JUNGLE) == FULL_SET).all()
        assert (box(state, TEMPLE) == 0).all(), "a jungle-only game uses no temple tokens"
        assert state[SNAKES_WAITING] == 1 and state[ROUND] == 1 and state[CURRENT_PLAYER] == 0
        assert legal(state) == set(NAMES)


# -- Example 8: the snakes ---------------------------------------------------------------------
# Guardian on the entrance (round 2 or later). Yellow on 26 (light) rolls 4: 27, 28, 29 (a trap
# counts as a space on the way), 30 -> the Snakes Token. Red on 31 and Green on 35 are in the
# left column (Red lower); Purple 37, Black 39, Brown 40 and Blue 42 sit in the column beside it
# (column 1) and must not be touched.
EXAMPLE_8 = dict(
    board={"yellow": 26, "red": 31, "green": 35, "purple": 37, "brown": 40, "blue": 42, "black": 39},
    dark=("red", "green", "blue", "black"),
    guardian=START,
    die=4,
)


def test_example_8_the_snakes_catch_the_mover_then_the_left_column_bottom_to_top():
    """ "Yellow ends their move on the space with the Snakes Token and is immediately removed
    from the Game Board. After that, the snakes catch Red, then Green. Yellow receives the
    lowest available Jungle Scoring Token ("1"). Red receives the next one ("2"), and Green the
    next one ("3")." """
    state = build(**EXAMPLE_8)
    assert state[SNAKES_WAITING] == 1
    before = state.copy()
    move(state, "yellow")
    assert state[LAST_TO] == SNAKES_SPACE
    assert events(state) & EVENT_SNAKES
    assert all_slot_values(state) == {
        "yellow": 1,  # the lowest free Jungle Scoring Token
        "red": 2,
        "green": 3,
        "purple": None,
        "brown": None,
        "blue": None,
        "black": None,
    }
    assert pos(state, "yellow") == pos(state, "red") == pos(state, "green") == OFF_BOARD
    assert state[LAST_CAUGHT] == IDX["green"]
    assert state[SNAKES_WAITING] == 0, "the Snakes Token is returned to the box"
    unchanged_except(before, state, {"yellow", "red", "green"})
    # Nothing else happens: Purple and Brown are still in the light, so the round goes on.
    assert state[GUARDIAN_POS] == START and state[ROUND] == before[ROUND]
    assert not events(state) & (EVENT_ROUND_END | EVENT_CATCH)
    assert state[TERMINAL] == 0 and state[CURRENT_PLAYER] == 1
    assert all_slot_values(state, TEMPLE) == {name: None for name in NAMES}


def test_a_round_ends_when_the_snakes_take_the_last_explorer_in_the_light():
    # Example 8 with Purple and Brown dark and Red, in the column, the only one in the light:
    # once the snakes have struck, everyone left is dark and the round ends. The Guardian moves
    # 5 from the entrance (1 to 5 are empty) and the four return to the light.
    state = build(**EXAMPLE_8 | {"dark": ("green", "purple", "brown", "blue", "black")})
    move(state, "yellow")
    assert events(state) & EVENT_SNAKES and events(state) & EVENT_ROUND_END
    assert all_slot_values(state) == {name: {"yellow": 1, "red": 2, "green": 3}.get(name) for name in NAMES}
    assert state[GUARDIAN_POS] == 5 and state[ROUND] == 2
    assert all(side_of_space(state, n) == LIGHT for n in ("purple", "brown", "blue", "black"))


def test_passing_over_the_snakes_token_does_not_release_them():
    # Yellow rolls 6 instead: 27, 28, 29, 30, (Red on 31), 32, 33 (a river). Only ending a move
    # on the token counts.
    state = build(**EXAMPLE_8 | {"die": 6})
    before = state.copy()
    move(state, "yellow")
    assert pos(state, "yellow") == 33 and state[SNAKES_WAITING] == 1
    assert not events(state) & EVENT_SNAKES
    unchanged_except(before, state, {"yellow"})


def test_without_the_snakes_option_the_token_space_is_a_plain_space():
    state = build(**EXAMPLE_8, features=FEATURE_RIVER | FEATURE_PASSAGE)
    assert state[SNAKES_WAITING] == 0
    before = state.copy()
    move(state, "yellow")
    assert pos(state, "yellow") == SNAKES_SPACE and side_of_space(state, "yellow") == DARK
    assert not events(state) & EVENT_SNAKES
    assert all(slot_value(state, name) is None for name in NAMES)
    unchanged_except(before, state, {"yellow"})


def test_the_snakes_are_released_only_once():
    """ "The snakes are released only once in a game." Yellow on 26 rolls 3 (skipping Purple on
    27) onto the token: Yellow and Red (31) are caught. Then Green walks into the left column
    (24 -> 31, over the token) and Purple ends on the token's space: nothing more happens."""
    state = build(
        board={"yellow": 26, "purple": 27, "red": 31, "green": 24, "blue": 12, "brown": 40, "black": 42},
        dark=("red", "brown", "black"),
        guardian=START,
        die=3,
    )
    move(state, "yellow")
    assert events(state) & EVENT_SNAKES and state[SNAKES_WAITING] == 0
    assert all_slot_values(state) == {name: {"yellow": 1, "red": 2}.get(name) for name in NAMES}
    move(state, "green", die=6)  # 25, 26, (Purple on 27), 28, 29, 30, 31
    assert pos(state, "green") == 31
    before = state.copy()
    move(state, "purple", die=3)
    assert pos(state, "purple") == SNAKES_SPACE and side_of_space(state, "purple") == DARK
    assert not events(state) & EVENT_SNAKES
    unchanged_except(before, state, {"purple"})
    assert pos(state, "green") == 31
    assert all_slot_values(state) == {name: {"yellow": 1, "red": 2}.get(name) for name in NAMES}


@pytest.mark.parametrize(
    "green, yellow_slot, red_slot",
    [
        # Green outside the column: the mover takes 5, Red 6, and Green, the last one, the 8.
        pytest.param(40, 5, 6, id="last-one-outside-the-column"),
        # Green in the column too: the game ends as soon as Red, the second to last, is caught
        # (end B "immediately"), so Green is never reached and takes the 8.
        pytest.param(35, 5, 6, id="last-one-in-the-column"),
    ],
)
def test_snakes_catching_the_second_to_last_explorer_ends_the_game(green, yellow_slot, red_slot):
    state = build(
        board={"yellow": 26, "red": 31, "green": green},
        dark=("red", "green"),
        slots={"purple": 1, "blue": 2, "brown": 3, "black": 4},
        guardian=START,
        die=4,
    )
    move(state, "yellow")
    assert events(state) & EVENT_SNAKES
    assert state[TERMINAL] == 1 and state[END_CONDITIONS + JUNGLE] == END_LAST_ONE
    assert slot_value(state, "yellow") == yellow_slot and slot_value(state, "red") == red_slot
    assert slot_value(state, "green") == 8
    assert all(pos(state, name) == OFF_BOARD for name in NAMES)
    assert legal(state) == set()


def test_the_snakes_mover_as_second_to_last_leaves_the_8_to_the_other():
    state = build(
        board={"yellow": 26, "red": 13},
        dark=("red",),
        slots={"purple": 1, "blue": 2, "brown": 3, "black": 4, "green": 5},
        guardian=START,
        die=4,
    )
    move(state, "yellow")
    assert state[TERMINAL] == 1 and state[END_CONDITIONS + JUNGLE] == END_LAST_ONE
    assert slot_value(state, "yellow") == 6 and slot_value(state, "red") == 8


def test_a_trap_that_re_routes_onto_the_snakes_token_releases_them():
    # Guardian on 26. Red on 28 rolls 1 onto the trap 29; back to the Guardian's 26 and 3 on:
    # 27, 28 (Red's own space, free now), (the trap 29, not counted), 30, the token. Red is
    # caught, then the snakes take Green on 34 (the column).
    state = build(
        board={"red": 28, "green": 34, "purple": 37, "yellow": 39, "blue": 40, "brown": 42, "black": 44},
        dark=("green", "yellow", "blue", "brown", "black"),
        guardian=26,
        die=1,
    )
    before = state.copy()
    move(state, "red")
    assert events(state) & EVENT_TRAP and events(state) & EVENT_SNAKES
    assert state[LAST_TO] == SNAKES_SPACE
    assert all_slot_values(state) == {name: {"red": 1, "green": 2}.get(name) for name in NAMES}
    assert state[SNAKES_WAITING] == 0
    unchanged_except(before, state, {"red", "green"})


# -- the river -----------------------------------------------------------------------------------
RIVER_POSITION = dict(
    board={"red": 16, "purple": 8, "yellow": 11, "green": 21, "blue": 23, "brown": 36, "black": 38},
    guardian=START,
    die=2,
)


def test_ending_on_a_river_space_puts_the_explorer_in_the_river():
    # Red on 16 rolls 2: 17, 18 (a river). Purple is still in the light: the round goes on.
    state = build(**RIVER_POSITION, dark=("yellow", "green", "blue", "brown", "black"))
    move(state, "red")
    assert pos(state, "red") == 18 and side_of_space(state, "red") == IN_RIVER
    assert events(state) & EVENT_RIVER and not events(state) & EVENT_ROUND_END
    # "The river also counts as the dark side ... not allowed to move this round (except with a 2)."
    for die in (1, 3, 4, 6):
        state[DIE] = die
        assert legal(state) == {"purple"}
    move(state, "red", die=2)
    assert pos(state, "red") == 20 and side_of_space(state, "red") == DARK, "out of the river"


def test_without_the_river_option_a_river_space_is_a_plain_space():
    state = build(
        **RIVER_POSITION, dark=("yellow", "green", "blue", "brown", "black"), features=FEATURE_PASSAGE
    )
    move(state, "red")
    assert pos(state, "red") == 18 and side_of_space(state, "red") == DARK
    assert not events(state) & EVENT_RIVER
    # All dark except Purple; when Purple moves the round ends and Red returns to the light.
    move(state, "purple", die=4)  # 9, 10, 12, 13; 11 is occupied
    assert events(state) & EVENT_ROUND_END
    assert side_of_space(state, "red") == LIGHT


def test_the_river_holds_an_explorer_on_the_dark_side_for_one_more_round():
    # Everyone else is dark: Red's move into the river ends the round. The others return to the
    # light (Yellow stays dark on the lightless 11); Red goes to the normal dark side.
    state = build(**RIVER_POSITION, dark=("purple", "yellow", "green", "blue", "brown", "black"))
    move(state, "red")
    assert events(state) & EVENT_RIVER and events(state) & EVENT_ROUND_END
    assert state[ROUND] == 2 and state[GUARDIAN_POS] == 5
    assert side_of_space(state, "red") == DARK
    assert side_of_space(state, "yellow") == DARK
    assert all(side_of_space(state, n) == LIGHT for n in ("purple", "green", "blue", "brown", "black"))
    for die in (1, 3, 4, 6):
        state[DIE] = die
        assert "red" not in legal(state)
    state[DIE] = 2
    assert "red" in legal(state)
    # The five in the light move; when the last of them is dark, round 2 ends and Red, out of
    # the river for a whole round, returns to the light.
    for name, die, target in (
        ("purple", 4, 13),  # 9, 10, (Yellow on 11), 12, 13
        ("green", 1, 22),
        ("blue", 1, 24),
        ("brown", 1, 37),
        ("black", 1, 39),
    ):
        assert side_of_space(state, "red") == DARK
        move(state, name, die=die)
        assert pos(state, name) == target
    assert events(state) & EVENT_ROUND_END and not events(state) & EVENT_CATCH
    assert state[ROUND] == 3 and state[GUARDIAN_POS] == 10
    assert side_of_space(state, "red") == LIGHT
    assert side_of_space(state, "yellow") == DARK
    state[DIE] = 4
    assert "red" in legal(state)


def dark_round_position(river_on: bool = True) -> np.ndarray:
    """Purple, Yellow, Blue, Brown hold 1 to 4. Green 11 and Red 19 are on lightless spaces;
    Black on 31, the last explorer in the light, rolls 2 (32, 33) into the river. Seat 2 moves."""
    return build(
        board={"green": 11, "red": 19, "black": 31},
        dark=("green", "red"),
        slots={"purple": 1, "yellow": 2, "blue": 3, "brown": 4},
        guardian=START,
        die=2,
        features=ALL_FEATURES if river_on else FEATURE_PASSAGE | FEATURE_SNAKES,
        player=2,
    )


@pytest.mark.parametrize("river_on", [True, False])
def test_a_round_may_start_with_every_explorer_in_the_dark(river_on):
    # Black's move into the river ends the round ("If, at the end of a turn, all Explorers on
    # the board are in the dark, then the round ends"): the Guardian moves 0 -> 5. Green and
    # Red stay dark (lightless), and Black leaves the river for the dark side: the next round
    # starts with everyone dark, and it is played. Without the river, Black returns to the light.
    state = dark_round_position(river_on)
    move(state, "black")
    assert pos(state, "black") == 33
    assert events(state) & EVENT_ROUND_END and not events(state) & EVENT_CATCH
    assert state[ROUND] == 2 and state[GUARDIAN_POS] == 5
    assert state[TERMINAL] == 0 and state[CURRENT_PLAYER] == 3
    assert side_of_space(state, "green") == side_of_space(state, "red") == DARK
    assert side_of_space(state, "black") == (DARK if river_on else LIGHT)
    assert bool(events(state) & EVENT_RIVER) == river_on
    state[DIE] = 4
    assert legal(state) == (set() if river_on else {"black"})


def test_in_a_round_that_starts_dark_a_2_moves_a_dark_explorer_and_the_round_ends():
    # A 2 moves an explorer "even in the dark": the next player may move any of the three. Red
    # moves 19 -> 20, 21; at the end of that turn everyone is dark again, so the round ends: the
    # Guardian moves 5 -> 10, Red and Black (out of the river a whole round) return to the light.
    state = dark_round_position()
    move(state, "black")
    state[DIE] = 2
    assert legal(state) == {"green", "red", "black"}
    mask = np.zeros(N_ACTIONS, np.int8)
    kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask)
    assert not mask[NO_MOVE], "no pass while a move is possible"
    move(state, "red")
    assert pos(state, "red") == 21
    assert events(state) & EVENT_ROUND_END and not events(state) & EVENT_NO_MOVE
    assert state[ROUND] == 3 and state[GUARDIAN_POS] == 10 and state[CURRENT_PLAYER] == 0
    assert side_of_space(state, "red") == side_of_space(state, "black") == LIGHT
    assert side_of_space(state, "green") == DARK


@pytest.mark.parametrize("die", [1, 3, 4, 6])
def test_in_a_round_that_starts_dark_any_other_roll_is_one_forced_no_move_and_the_round_ends(die):
    # No explorer may move: the only action is "no move", one decision; then the round ends.
    state = dark_round_position()
    move(state, "black")
    state[DIE] = die
    decisions = int(state[DECISIONS])
    mask = np.zeros(N_ACTIONS, np.int8)
    assert kernels.legal_mask(state, 3, mask) == 1 and np.flatnonzero(mask).tolist() == [NO_MOVE]
    assert (
        render.describe_action(state, NO_MOVE)
        == f"no move: every explorer is in the dark and the die shows {die}"
    )
    kernels.step(state, NO_MOVE)
    check_invariants(state)
    assert events(state) == EVENT_NO_MOVE | EVENT_ROUND_END
    assert state[DECISIONS] == decisions + 1 and state[NO_MOVES] == 1
    assert state[LAST_PLAYER] == 3 and state[LAST_ROLL] == die and state[LAST_EXPLORER] == -1
    assert state[ROUND] == 3 and state[GUARDIAN_POS] == 10 and state[CURRENT_PLAYER] == 0
    assert {name: pos(state, name) for name in ("green", "red", "black")} == {
        "green": 11,
        "red": 19,
        "black": 33,
    }
    assert side_of_space(state, "black") == LIGHT and side_of_space(state, "red") == DARK


def test_the_no_move_action_through_the_env_and_its_words():
    game = raw_env(board="jungle", render_mode="ansi")
    game.reset(seed=0)
    state = dark_round_position()
    move(state, "black")
    state[DIE] = 3
    game.set_state(state)
    assert game.agent_selection == "player_3"
    assert game.legal_actions() == [NO_MOVE]
    game.step(NO_MOVE)
    assert game.agent_selection == "player_0" and game.get_state()[ROUND] == 3
    assert "last: player_3 rolled 3 and could move nobody" in game.render()


# -- the secret passage --------------------------------------------------------------------------
# The rest of the explorers for the passage positions: Yellow light keeps the round going.
PASSAGE_REST = {"yellow": 2, "green": 10, "brown": 26, "black": 37}
PASSAGE_DARK = ("green", "brown", "black")


@pytest.mark.parametrize("occupied", [False, True], ids=["far-end-free", "swap"])
@pytest.mark.parametrize(
    "red, die, landing, far_end",
    [
        pytest.param(12, 2, LOW_END, HIGH_END, id="forward-14-to-23"),
        pytest.param(22, 1, HIGH_END, LOW_END, id="backward-23-to-14"),
    ],
)
def test_the_secret_passage_leads_to_its_other_end_on_the_dark_side(red, die, landing, far_end, occupied):
    """ "The Explorer who ends their move on a space with the secret passage is immediately
    moved to the opposite space of the secret passage and placed on dark side of the space. If
    the opposite space is occupied by another Explorer, the two Explorers swap places (and both
    are placed on the dark side of their respective spaces)." It is "a shortcut (or a
    fallback!)": from 14 forward to 23, from 23 back to 14, ahead of the Guardian."""
    # With `occupied`, Blue waits in the light at the far end: the two swap, both on the dark side.
    blue = far_end if occupied else 24
    state = build(
        board=PASSAGE_REST | {"red": red, "purple": 4, "blue": blue},
        dark=PASSAGE_DARK,
        guardian=START,
        die=die,
    )
    before = state.copy()
    move(state, "red")
    assert state[LAST_TO] == landing
    assert events(state) & EVENT_PASSAGE and not events(state) & EVENT_PASSAGE_CATCH
    assert pos(state, "red") == far_end and side_of_space(state, "red") == DARK
    if occupied:
        assert pos(state, "blue") == landing and side_of_space(state, "blue") == DARK
    unchanged_except(before, state, {"red", "blue"} if occupied else {"red"})
    assert all(slot_value(state, name) is None for name in NAMES)


@pytest.mark.parametrize(
    "guardian, slots, caught_slot",
    [
        # The far end 14 is the Guardian's own space; slots 1 and 3 are taken: Red takes the 2.
        pytest.param(LOW_END, {"purple": 1, "green": 3}, 2, id="onto-the-guardian"),
        # The Guardian on 17 has passed 14; slots 1, 2, 4 are taken: Red takes the 3.
        pytest.param(17, {"purple": 1, "yellow": 2, "green": 4}, 3, id="behind-the-guardian"),
    ],
)
def test_a_passage_back_to_where_the_guardian_is_or_has_been_catches(guardian, slots, caught_slot):
    """ "If the secret passage brings an Explorer on a space occupied by the Guardian, or on any
    space that the Guardian already passed, then that Explorer is removed from the Game Board,
    as if the Guardian had caught them." """
    rest = {"yellow": 24, "blue": 25, "brown": 27, "black": 37, "purple": 20, "green": 21}
    board = {name: space for name, space in rest.items() if name not in slots} | {"red": 22}
    state = build(
        board=board,
        dark=tuple(name for name in ("brown", "black", "purple") if name in board),
        slots=slots,
        guardian=guardian,
        die=1,
    )
    before = state.copy()
    move(state, "red")
    assert state[LAST_TO] == HIGH_END
    assert events(state) & EVENT_PASSAGE and events(state) & EVENT_PASSAGE_CATCH
    assert pos(state, "red") == OFF_BOARD and slot_value(state, "red") == caught_slot
    assert state[LAST_CAUGHT] == IDX["red"]
    assert state[GUARDIAN_POS] == guardian, "the Guardian does not move"
    unchanged_except(before, state, {"red"})
    assert state[TERMINAL] == 0


def test_a_passage_catch_of_the_second_to_last_explorer_ends_the_game():
    state = build(
        board={"red": 22, "blue": 35},
        dark=("blue",),
        slots={"purple": 1, "yellow": 2, "green": 3, "brown": 4, "black": 5},
        guardian=17,
        die=1,
    )
    move(state, "red")
    assert events(state) & EVENT_PASSAGE_CATCH
    assert state[TERMINAL] == 1 and state[END_CONDITIONS + JUNGLE] == END_LAST_ONE
    assert slot_value(state, "red") == 6 and slot_value(state, "blue") == 8


@pytest.mark.parametrize(
    "board, dark, guardian, die, landing",
    [
        pytest.param(
            PASSAGE_REST | {"red": 12, "purple": 4, "blue": 24}, PASSAGE_DARK, START, 2, LOW_END, id="low-end"
        ),
        # The Guardian on 17 has passed the low end: still no passage, so no catch.
        pytest.param(
            {"red": 22, "yellow": 24, "green": 21, "brown": 27, "black": 37, "purple": 20, "blue": 25},
            ("brown", "black"),
            17,
            1,
            HIGH_END,
            id="high-end",
        ),
    ],
)
def test_without_the_passage_option_its_ends_are_plain_spaces(board, dark, guardian, die, landing):
    state = build(board=board, dark=dark, guardian=guardian, die=die, features=FEATURE_RIVER | FEATURE_SNAKES)
    before = state.copy()
    move(state, "red")
    assert pos(state, "red") == landing and side_of_space(state, "red") == DARK
    assert not events(state) & (EVENT_PASSAGE | EVENT_PASSAGE_CATCH)
    unchanged_except(before, state, {"red"})


def test_a_trap_that_re_routes_onto_the_passage_takes_it():
    # Guardian on 11. Red on 13 rolls 2: 14, the trap 15; back to 11 and 3 on: 12, 13 (Red's own
    # space, free now), 14, the low end of the passage, which leads to 23.
    state = build(
        board={"red": 13, "purple": 16, "yellow": 20, "green": 22, "blue": 24, "brown": 27, "black": 37},
        dark=("yellow", "green", "blue"),
        guardian=11,
        die=2,
    )
    move(state, "red")
    assert events(state) & EVENT_TRAP and events(state) & EVENT_PASSAGE
    assert state[LAST_TO] == LOW_END
    assert pos(state, "red") == HIGH_END and side_of_space(state, "red") == DARK


@pytest.mark.parametrize("use_bot", [False, True], ids=["random", "bot"])
def test_the_jungle_features_play_their_roles(use_bot):
    """Over 2,000 four-player Jungle games (every feature on; docs: The Jungle board layout):
    "The secret passage allows for a shortcut (or a fallback!)": taken forward it is never a
    catch, and taken back it mostly lands ahead of the Guardian. The Snakes Token, "at the
    bottom left of the Game Board", waits for mid-game: it never strikes in round 1. End C
    stays "highly unlikely"."""
    out = many_games(JUNGLE, 2000, use_bot)
    ends, snakes_round = out[:, 0], out[:, 1]
    forward, back, forward_caught, back_caught = out[:, 2:].sum(axis=0)
    assert forward > 2000 and forward_caught == 0
    assert back > 500 and back_caught / back < 0.5
    assert (snakes_round == 1).mean() == 0 and np.median(snakes_round[snakes_round > 0]) >= 4
    assert 0.3 < (snakes_round > 0).mean() < 0.9, "the snakes strike in some games, not all"
    assert (ends == END_LIGHTLESS).mean() < 0.01


# -- Example 7: campaign scoring -----------------------------------------------------------------
# Example 7's team (Red, Brown, Black) is team card 1. Scoring tokens (temple + jungle): Red
# 2 + 8, Brown 5 + 2, Black 6 + 3 as in the example; Purple 4 + 5, Yellow 1 + 1, Green 3 + 4,
# Blue 8 + 6 fill the rest. Seats 1 and 2 hold cards 0 (Purple, Yellow, Blue) and 2 (Purple,
# Yellow, Red).
EXAMPLE_7_TEMPLE = {"red": 2, "brown": 5, "black": 6, "purple": 4, "yellow": 1, "green": 3, "blue": 8}
EXAMPLE_7_JUNGLE = {"red": 8, "brown": 2, "black": 3, "purple": 5, "yellow": 1, "green": 4, "blue": 6}
EXAMPLE_7_CARDS = [1, 0, 2]
EXAMPLE_7_HOLDINGS = {
    (TEMPLE, 0): [0, 1, 2],  # "3 Temple Treasure Tokens with total values of 3 (0+1+2)"
    (JUNGLE, 0): [1, 1],  # "2 Jungle Treasure Tokens with total values of 2 (1+1)"
    (TEMPLE, 1): [3],
    (JUNGLE, 1): [2],
    (TEMPLE, 2): [1, 1],
    (JUNGLE, 2): [0],
}


def example_7_near_end() -> np.ndarray:
    """The jungle game of a 3-player campaign, one move from its end: Yellow, Brown, Black and
    Green hold the jungle tokens 1 to 4; Red on 46 (light) rolls 3 (47, 48, out); Blue on 44 is
    nearer the exit than Purple on 28, so they take 6 and 5."""
    caught = {name: EXAMPLE_7_JUNGLE[name] for name in ("yellow", "brown", "black", "green")}
    return build(
        board={"red": 46, "blue": 44, "purple": 28},
        dark=("blue", "purple"),
        slots=caught,
        guardian=25,
        die=3,
        campaign=True,
        temple_slots=EXAMPLE_7_TEMPLE,
        holdings=EXAMPLE_7_HOLDINGS,
        cards=EXAMPLE_7_CARDS,
        num_players=3,
        player=1,
    )


def test_example_7_both_games_scoring_tokens_and_treasures_are_summed():
    """ "Red, Brown, and Black were in your team. You collected 3 Temple Treasure Tokens with
    total values of 3 (0+1+2) and 2 Jungle Treasure Tokens with total values of 2 (1+1). You
    score (2+8)+(5+2)+(6+3)=26 victory points for your team. Your final score is 31 victory
    points." Seat 0 holds that team, card 1, and plays the campaign's last move."""
    assert sorted(NAMES[e] for e in data.TEAM_CARDS[1]) == ["black", "brown", "red"]
    state = example_7_near_end()
    move(state, "red")
    assert state[TERMINAL] == 1 and state[END_CONDITIONS + JUNGLE] == END_EXIT
    assert all_slot_values(state, TEMPLE) == EXAMPLE_7_TEMPLE
    assert all_slot_values(state, JUNGLE) == EXAMPLE_7_JUNGLE
    assert kernels.team_points(state, 1) == (2 + 8) + (5 + 2) + (6 + 3) == 26
    points, tiebreaks = final_scores(state)
    assert points[0] == 31 and tiebreaks[0] == 3 + 2
    totals = {name: EXAMPLE_7_TEMPLE[name] + EXAMPLE_7_JUNGLE[name] for name in NAMES}
    assert points == [31, 30, 23] and tiebreaks == [5, 5, 2]
    assert all(
        kernels.team_points(state, card) == sum(totals[NAMES[e]] for e in data.TEAM_CARDS[card])
        for card in range(data.MAX_PLAYERS)
    )


def test_a_whole_campaign_ends_through_the_env_with_both_games_in_the_infos():
    game = raw_env(campaign=True, num_players=3)
    game.reset(seed=0)
    game.set_state(example_7_near_end())
    assert game.agent_selection == "player_1"
    assert not any(game.terminations.values()) and all(r == 0 for r in game.rewards.values())
    game.step(IDX["red"])
    assert all(game.terminations.values())
    assert game.rewards == {"player_0": 1.0, "player_1": -1.0, "player_2": -1.0}
    infos = game.infos
    assert [infos[f"player_{p}"]["score"] for p in range(3)] == [31, 30, 23]
    # "It is now time to reveal your Team Card!": the final infos show every seat's card.
    assert all(infos[f"player_{p}"]["team_cards"] == tuple(EXAMPLE_7_CARDS) for p in range(3))
    assert [infos[f"player_{p}"]["treasure_points"] for p in range(3)] == [5, 5, 2]
    assert [infos[f"player_{p}"]["temple_treasure_points"] for p in range(3)] == [3, 3, 2]
    assert [infos[f"player_{p}"]["jungle_treasure_points"] for p in range(3)] == [2, 2, 0]
    assert [infos[f"player_{p}"]["winner"] for p in range(3)] == [True, False, False]
    info = infos["player_0"]
    assert info["temple_slot_values"] == tuple(EXAMPLE_7_TEMPLE[name] for name in NAMES)
    assert info["jungle_slot_values"] == tuple(EXAMPLE_7_JUNGLE[name] for name in NAMES)
    names = GAME.info_names["end_condition"]
    assert names[info["temple_end_condition"]].startswith("A")
    assert names[info["jungle_end_condition"]].startswith("A")


# -- An Endless Threat: from the temple game to the jungle game ----------------------------------
def temple_near_end(features: int = ALL_FEATURES, num_players: int = 4) -> np.ndarray:
    """A campaign's temple game one move from its end (Example 4): Brown on 44 rolls 4 and
    leaves the temple; the treasure on 45 is still on the board. Seats hold temple tokens."""
    return build(
        side=TEMPLE,
        campaign=True,
        board={"yellow": 39, "brown": 44, "red": 46},
        dark=("yellow", "red"),
        slots={"green": 1, "blue": 2, "purple": 3, "black": 4},
        guardian=30,
        die=4,
        tokens={45: 3},
        holdings={(TEMPLE, 0): [0, 1, 2], (TEMPLE, 1): [1], (TEMPLE, 3): [2, 2]},
        features=features,
        num_players=num_players,
        player=2,
    )


@pytest.mark.parametrize("features", [ALL_FEATURES, 0, FEATURE_RIVER])
def test_the_end_of_the_temple_game_sets_up_the_jungle_game(features):
    state = temple_near_end(features)
    before = state.copy()
    temple_box_before = box(state, TEMPLE)
    temple_on_board = board_tokens(state)
    assert temple_on_board.sum() > 0
    move(state, "brown")
    assert events(state) & EVENT_EXIT and events(state) & EVENT_NEXT_GAME
    # The temple game ended (A) and its scoring tokens stay with the explorers.
    assert state[END_CONDITIONS + TEMPLE] == END_EXIT
    assert all_slot_values(state, TEMPLE) == {
        "green": 1,
        "blue": 2,
        "purple": 3,
        "black": 4,
        "yellow": 5,
        "red": 6,
        "brown": 8,
    }
    # The episode goes on: the jungle game is set up.
    assert state[TERMINAL] == 0 and state[END_CONDITIONS + JUNGLE] == END_NONE
    assert state[SIDE] == JUNGLE and state[CAMPAIGN] == 1 and state[FEATURES] == features
    assert state[GUARDIAN_POS] == GUARDIAN_START, "the Guardian on the Stone Stairs"
    assert all(pos(state, name) == START and side_of_space(state, name) == LIGHT for name in NAMES)
    assert all(slot_value(state, name, JUNGLE) is None for name in NAMES)
    assert state[ROUND] == 1 and state[DIE] in FACES
    assert state[CURRENT_PLAYER] == 0, "the oldest player starts, as in the first game"
    assert state[SNAKES_WAITING] == int(bool(features & FEATURE_SNAKES))
    # One jungle token face down on each of the 10 treasure spaces, the other 5 in the box.
    on = {s for s in range(data.NUM_SPACES) if state[SPACE_TOKEN + s] != NO_TOKEN}
    assert on == set(data.JUNGLE_TREASURES)
    assert box(state, JUNGLE).sum() == 5
    assert (board_tokens(state) + box(state, JUNGLE) == FULL_SET).all()
    # The remaining temple tokens left the board for the box, unseen; collected ones are kept.
    assert (box(state, TEMPLE) == temple_box_before + temple_on_board).all()
    for seat in range(4):
        assert (held(state, TEMPLE, seat) == held(before, TEMPLE, seat)).all()
        assert held(state, JUNGLE, seat).sum() == 0
    # Team cards are kept.
    assert (state[TEAM_CARD : TEAM_CARD + data.MAX_PLAYERS] == before[TEAM_CARD : TEAM_CARD + 7]).all()
    assert legal(state) == set(NAMES)


def test_campaign_env_rewards_only_at_the_very_end_and_observations_carry_the_temple_results():
    game = raw_env(campaign=True)
    game.reset(seed=5)
    near_end = temple_near_end()
    game.set_state(near_end)
    agent = game.agent_selection
    assert agent == "player_2"
    game.step(IDX["brown"])
    state = game.get_state()
    assert state[SIDE] == JUNGLE and state[TERMINAL] == 0
    assert not any(game.terminations.values()) and not any(game.truncations.values())
    assert all(r == 0 for r in game.rewards.values())
    assert game.last()[1] == 0
    assert game.agent_selection == "player_0"
    temple_values = {"green": 1, "blue": 2, "purple": 3, "black": 4, "yellow": 5, "red": 6, "brown": 8}
    slot_start = observe.OBS["explorer_slot_value"][0]
    tokens_start = observe.OBS["my_token_values"][0]
    side_start = observe.OBS["side"][0]

    def check_observations() -> None:
        for p, name in enumerate(game.possible_agents):
            obs = game.observe(name)["observation"]
            temple_block = obs[slot_start : slot_start + data.NUM_EXPLORERS]
            assert temple_block.tolist() == [temple_values[n] / 8 for n in NAMES]
            mine = obs[tokens_start + TEMPLE * TOKEN_KINDS : tokens_start + (TEMPLE + 1) * TOKEN_KINDS]
            expected = held(near_end, TEMPLE, p) / data.MAX_TOKENS_PLACED
            assert np.allclose(mine, expected)
            assert obs[side_start + JUNGLE] == 1 and obs[side_start + TEMPLE] == 0

    check_observations()
    # The whole jungle game, at random: no reward until its last move.
    rng = np.random.default_rng(0)
    for _ in range(3000):
        if game.get_state()[TERMINAL]:
            break
        _, reward, termination, truncation, _ = game.last()
        assert reward == 0 and not termination and not truncation
        assert all(r == 0 for r in game.rewards.values())
        mask = game.observe(game.agent_selection)["action_mask"]
        game.step(int(rng.choice(np.flatnonzero(mask))))
        check_invariants(game.get_state())
        if not game.get_state()[TERMINAL]:
            check_observations()
    assert all(game.terminations.values())
    final = game.get_state()
    assert final[TERMINAL] == 1 and final[END_CONDITIONS + JUNGLE] != END_NONE
    assert all_slot_values(final, TEMPLE) == temple_values, "the temple results are kept"
    # Final score: team tokens on both sides plus treasures from both games.
    points, _ = final_scores(final)
    for p in range(4):
        team = [NAMES[e] for e in data.TEAM_CARDS[final[TEAM_CARD + p]]]
        expected = sum(temple_values[n] + slot_value(final, n, JUNGLE) for n in team)
        expected += sum(int((held(final, s, p) * np.arange(TOKEN_KINDS)).sum()) for s in (TEMPLE, JUNGLE))
        assert points[p] == expected
        assert game.infos[f"player_{p}"]["score"] == expected
    assert sorted(game.rewards.values()) != [0.0] * 4
    best = max(points)
    winners = [p for p in range(4) if game.rewards[f"player_{p}"] == 1.0]
    assert winners and all(points[p] == best for p in winners)


# -- hidden information in a campaign ------------------------------------------------------------
@pytest.fixture(scope="module")
def mid_jungle_campaign() -> np.ndarray:
    """A random 4-player campaign played into its jungle game until two jungle treasures are
    collected: both sides' tokens are spread over the board, the box and several seats."""
    state = fresh(num_players=4, side=TEMPLE, campaign=True, seed=11)
    rng = np.random.default_rng(3)

    def two_jungle_tokens(s: np.ndarray) -> bool:
        return s[SIDE] == JUNGLE and sum(held(s, JUNGLE, p).sum() for p in range(4)) >= 2

    play_random(state, rng, two_jungle_tokens)
    assert state[TERMINAL] == 0 and state[SIDE] == JUNGLE
    temple_holders = [p for p in range(4) if held(state, TEMPLE, p).sum()]
    assert len(temple_holders) >= 3, "several seats hold temple tokens"
    return state


@pytest.mark.parametrize("player", range(4))
def test_resample_hidden_keeps_each_sides_tokens_and_the_observers_view(mid_jungle_campaign, player):
    state = mid_jungle_campaign
    n = 4
    own = observe.OBS_SIZE
    view = np.empty(own, np.float32)
    observe.observe(state, player, view)
    changed_temple_values = False
    for seed in range(25):
        twin = state.copy()
        kernels.resample_hidden(twin, player, seed)
        check_invariants(twin)
        for side in (TEMPLE, JUNGLE):
            total = box(twin, side) + sum(held(twin, side, p) for p in range(n))
            if side == JUNGLE:
                total = total + board_tokens(twin)
            assert (total == FULL_SET).all(), f"side {side}'s 15 tokens"
            for p in range(n):
                assert held(twin, side, p).sum() == held(state, side, p).sum(), "how many each holds"
            assert (held(twin, side, player) == held(state, side, player)).all(), "my own tokens"
            assert box(twin, side).sum() == box(state, side).sum()
        on_board = twin[SPACE_TOKEN : SPACE_TOKEN + data.NUM_SPACES] != NO_TOKEN
        assert (on_board == (state[SPACE_TOKEN : SPACE_TOKEN + data.NUM_SPACES] != NO_TOKEN)).all()
        assert twin[TEAM_CARD + player] == state[TEAM_CARD + player]
        twin_view = np.empty(own, np.float32)
        observe.observe(twin, player, twin_view)
        assert (twin_view == view).all()
        others = [p for p in range(n) if p != player]
        if any((held(twin, TEMPLE, p) != held(state, TEMPLE, p)).any() for p in others):
            changed_temple_values = True
        if (box(twin, TEMPLE) != box(state, TEMPLE)).any():
            changed_temple_values = True
    assert changed_temple_values, "the temple tokens the observer has not seen are re-dealt"


# -- options -------------------------------------------------------------------------------------
def test_campaign_with_the_jungle_board_is_refused_naming_both_options():
    with pytest.raises(ValueError) as error:
        raw_env(campaign=True, board="jungle")
    assert "campaign" in str(error.value) and "board" in str(error.value)


@pytest.mark.parametrize(
    "bad", [{"river": 1}, {"snakes": "yes"}, {"secret_passage": None}, {"board": "desert"}]
)
def test_bad_feature_and_board_values_are_refused(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        raw_env(**bad)


MODES = {"temple": {}, "jungle": {"board": "jungle"}, "campaign": {"campaign": True}}


@pytest.mark.parametrize("mode", MODES)
def test_every_combination_of_the_three_features_constructs(mode):
    for river, passage, snakes in itertools.product((False, True), repeat=3):
        game = raw_env(**MODES[mode], river=river, secret_passage=passage, snakes=snakes)
        game.reset(seed=1)
        state = game.get_state()
        bits = FEATURE_RIVER * river + FEATURE_PASSAGE * passage + FEATURE_SNAKES * snakes
        if mode == "temple":  # a single temple game never reaches the jungle: no features in play
            bits, river, passage, snakes = 0, False, False, False
        assert state[FEATURES] == bits and state[CAMPAIGN] == (mode == "campaign")
        assert state[SIDE] == (JUNGLE if mode == "jungle" else TEMPLE)
        assert state[SNAKES_WAITING] == int(mode == "jungle" and snakes)
        check_invariants(state)
        obs = game.observe(game.agent_selection)["observation"]
        start = observe.OBS["features"][0]
        assert obs[start : start + 3].tolist() == [river, passage, snakes]


def test_list_shows_the_new_options(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for name in ("board", "campaign", "river", "secret_passage", "snakes"):
        assert f"    {name} = " in out
    assert "'jungle'" in out and "'temple'" in out


# -- play in the terminal ------------------------------------------------------------------------
def piped_play(monkeypatch, capsys, argv: list[str]) -> str:
    """`treasure-envs play ...` with stdin piped: the actions 0..7 over and over (illegal ones
    are refused and the next line is read), far more lines than a game needs."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{a}\n" for a in range(N_ACTIONS)) * 3000))
    assert main(argv) == 0
    return capsys.readouterr().out


def test_play_a_whole_jungle_game_with_piped_input(monkeypatch, capsys):
    out = piped_play(
        monkeypatch, capsys, ["play", "nakbe", "--option", "board=jungle", "--seed", "2", "--players", "3"]
    )
    assert "bye" not in out, "the game ended before the input ran out"
    assert "jungle side" in out and "temple side" not in out
    assert "Jungle Entrance" in out and "Stone Stairs" in out
    assert "game over (end condition jungle" in out
    assert out.count("(you): score") == 1 and out.count(", treasure points ") == 3


def test_play_a_whole_campaign_with_piped_input(monkeypatch, capsys):
    out = piped_play(
        monkeypatch,
        capsys,
        ["play", "nakbe", "--campaign", "--seed", "6", "--players", "2", "--opponents", "random"],
    )
    assert "bye" not in out
    assert "An Endless Threat, temple side" in out and "An Endless Threat, jungle side" in out
    assert "scoring board (temple)" in out and "scoring board (jungle)" in out
    assert "game over (end condition temple " in out and ", jungle " in out
    assert out.count("(you): score") == 1


def test_the_public_move_history_runs_on_across_the_switch_to_the_jungle():
    # The public move history runs on across the switch (check_invariants: it sums to DECISIONS).
    state = temple_near_end()
    decisions = int(state[DECISIONS])
    move(state, "brown")
    assert state[DECISIONS] == decisions + 1 and state[SIDE] == JUNGLE


def test_both_sides_render_as_text_and_pictures():
    from nakbe_env import env as nakbe

    temple, jungle = nakbe(render_mode="rgb_array"), nakbe(render_mode="rgb_array", board="jungle")
    temple.reset(seed=0)
    jungle.reset(seed=0)
    temple_picture, jungle_picture = temple.render(), jungle.render()
    assert temple_picture.shape == (7 * 24, 7 * 24, 3) and jungle_picture.shape == (7 * 24, 8 * 24, 3)
    # The river, the passage and the Snakes Token have their own colours on the jungle side.
    for colour in ((60, 140, 200), (110, 70, 40), (60, 160, 60)):
        assert (jungle_picture == colour).all(axis=2).any(), colour
        assert not (temple_picture == colour).all(axis=2).any(), colour
    text = nakbe(render_mode="ansi", board="jungle")
    text.reset(seed=0)
    board = text.render()
    assert "jungle side" in board and "Stone Stairs" in board and "the snakes wait" in board
    assert board.count("=") >= 2 and board.count("%") >= 2
