"""Rules tests for Karuba: the rulebook's tie example and the rules around it, each position
set up through the named offsets of karuba_env.state and checked against the rulebook.

Fixed layout used (karuba_env.data.EXAMPLE_LAYOUT), numbers as on the island:
brown beach 3 (left of row 3) -> temple jungle 9 (right of row 3);
blue beach 5 (left of row 5) -> temple jungle 2 (above column 2);
purple beach 8 (below column 3) -> temple jungle 11 (right of row 5);
yellow beach 10 (below column 5) -> temple jungle 5 (above column 5).
Cells are written (row, column), both from 1, row 1 at the top (the jungle side).
"""

from __future__ import annotations

import numpy as np
import pytest

from karuba_env import GAME, batch, data, kernels, observe, render
from karuba_env.bots import KarubaBot, heuristic_action
from karuba_env.data import COLS, NUM_TILES, TILE_EXIT_COUNT, TILE_EXITS, TILE_ITEM
from karuba_env.env import EXAMPLE_LAYOUT_TEXT, parse_layout
from karuba_env.invariants import check_invariants
from karuba_env.kernels import new_scratch, temple_distance
from karuba_env.state import (
    ADVENTURER_BEACH,
    ADVENTURER_POS,
    CELL_ITEM,
    CELL_TILE,
    CRYSTALS_COLLECTED,
    DISCARD,
    DRAFT_ADVENTURER_BASE,
    DRAFT_COLOUR,
    DRAFT_TEMPLE_BASE,
    END_CONDITION,
    END_NONE,
    END_TEMPLES,
    END_TILES,
    GOLD_COLLECTED,
    IN_TEMPLE,
    LAST_ACTION,
    LAST_TILE,
    MOVE_BASE,
    MOVE_TARGETS,
    N_ACTIONS,
    NO_ACTION,
    NO_COLOUR,
    NO_TILE,
    ON_BEACH,
    PENDING,
    PHASE,
    PHASE_DRAFT,
    PHASE_PLAY,
    STACK,
    STACK_TAKEN,
    STATE_SIZE,
    TEMPLE_JUNGLE,
    TEMPLE_TARGET,
    TIE_CRYSTALS,
    TILES_REVEALED,
    TREASURE,
)
from treasure_core.aec import TreasureAECEnv
from treasure_core.header import CURRENT_PLAYER, DECISIONS, NUM_PLAYERS, TERMINAL

BROWN, BLUE, PURPLE, YELLOW = range(4)
# Tiles by shape (data.py): straight, corner, T-junction, crossroads; c = crystal, g = gold.
EW, EW2, EW3, EW4 = 1, 2, 19, 20
EW_CRYSTAL, EW_GOLD = 13, 14
NS, NS2, NS3, NS4 = 17, 18, 35, 36
CROSS, CROSS2 = 7, 8
NES = 23
NW_CORNER, ES_CORNER = 28, 21


def cell(row: int, col: int) -> int:
    return (row - 1) * COLS + (col - 1)


def params(num_players: int = 4, layout: str = EXAMPLE_LAYOUT_TEXT, **options) -> np.ndarray:
    return GAME.make_params(GAME.validate({"num_players": num_players, "layout": layout, **options}))


def fresh(num_players: int = 4, seed: int = 0, **options) -> np.ndarray:
    state = np.zeros(STATE_SIZE, np.int32)
    kernels.init(state, params(num_players, **options), seed)
    return state


def build(
    *,
    current: int,
    islands: dict[int, dict[tuple[int, int], int]] | None = None,
    adventurers: dict[int, dict[int, tuple[int, int]]] | None = None,
    num_players: int = 4,
    extra_revealed: tuple[int, ...] = (),
) -> np.ndarray:
    """A play position: `islands` maps seat -> {(row, col): tile} (items lying on their tiles),
    `adventurers` maps seat -> {colour: (row, col)} (the rest stay on the beach), `current` is
    the tile showing. The stack is reordered so that every laid tile was revealed before it."""
    state = fresh(num_players)
    islands = islands or {}
    laid = sorted({t for island in islands.values() for t in island.values()} | set(extra_revealed))
    assert current not in laid
    rest = [t for t in range(1, NUM_TILES + 1) if t not in laid and t != current]
    state[STACK : STACK + NUM_TILES] = laid + [current] + rest
    state[TILES_REVEALED] = len(laid) + 1
    state[DECISIONS] = len(laid) * num_players  # every seat decided on every earlier tile
    for seat, island in islands.items():
        for (row, col), tile in island.items():
            state[CELL_TILE + seat * data.NUM_CELLS + cell(row, col)] = tile
            state[CELL_ITEM + seat * data.NUM_CELLS + cell(row, col)] = TILE_ITEM[tile]
    if laid:  # the tile resolved last: laid where an island holds it, else discarded
        state[LAST_TILE] = laid[-1]
        for seat in range(num_players):
            where = [cell(*rc) for rc, tile in islands.get(seat, {}).items() if tile == laid[-1]]
            state[LAST_ACTION + seat] = where[0] if where else DISCARD
    for seat, places in (adventurers or {}).items():
        for colour, (row, col) in places.items():
            state[ADVENTURER_POS + seat * 4 + colour] = cell(row, col)
            item = state[CELL_ITEM + seat * data.NUM_CELLS + cell(row, col)]
            state[CELL_ITEM + seat * data.NUM_CELLS + cell(row, col)] = data.NO_ITEM  # picked up on arrival
            if item:
                state[(CRYSTALS_COLLECTED if item == data.CRYSTAL else GOLD_COLLECTED) + seat] += 1
    check_invariants(state)
    return state


def in_temple(state: np.ndarray, seat: int, colour: int) -> None:
    """Put an adventurer in its temple with the top treasure it took on arrival."""
    n = int(state[NUM_PLAYERS])
    state[ADVENTURER_POS + seat * 4 + colour] = IN_TEMPLE
    state[TREASURE + seat * 4 + colour] = data.TREASURE_VALUES[n, state[STACK_TAKEN + colour]]
    state[STACK_TAKEN + colour] += 1


def move(colour: int, target: tuple[int, int] | str) -> int:
    t = TEMPLE_TARGET if target == "temple" else cell(*target)
    return MOVE_BASE + colour * MOVE_TARGETS + t


def targets(state: np.ndarray, colour: int, seat: int | None = None) -> set:
    """Where adventurer `colour` of `seat` may move on the tile showing."""
    seat = int(state[CURRENT_PLAYER]) if seat is None else seat
    mask = np.zeros(N_ACTIONS, np.int8)
    kernels.player_legal_mask(state, seat, mask)
    out = set()
    for t in range(MOVE_TARGETS):
        if mask[MOVE_BASE + colour * MOVE_TARGETS + t]:
            out.add("temple" if t == TEMPLE_TARGET else divmod(t, COLS))
    return {x if x == "temple" else (x[0] + 1, x[1] + 1) for x in out}


def play_tile(state: np.ndarray, decisions: dict[int, int]) -> None:
    """Every seat decides on the tile showing (discard without moving unless given)."""
    for seat in range(int(state[NUM_PLAYERS])):
        assert state[CURRENT_PLAYER] == seat
        action = decisions.get(seat, DISCARD)
        mask = np.zeros(N_ACTIONS, np.int8)
        kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask)
        assert mask[action], f"seat {seat}: {render.describe_action(state, action)} is illegal"
        kernels.step(state, action)
    check_invariants(state)


def final(state: np.ndarray) -> tuple[list[int], list[int], list[float]]:
    n = int(state[NUM_PLAYERS])
    points, tiebreaks, rewards = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n)
    kernels.scores(state, points, tiebreaks)
    batch.returns(state, rewards)
    return points.tolist(), tiebreaks.tolist(), rewards.tolist()


ROW_3 = {(3, 1): EW, (3, 2): EW2, (3, 3): EW3, (3, 4): EW4, (3, 5): EW_CRYSTAL, (3, 6): EW_GOLD}


# -- components ------------------------------------------------------------------------------
def test_tile_set_matches_game_data():
    shapes = [int(TILE_EXITS[t]) for t in range(1, NUM_TILES + 1)]
    assert shapes.count(2 | 8) == 8 and shapes.count(1 | 4) == 8  # straights E-W, N-S
    assert sum(shapes.count(s) for s in (6, 12, 3, 9)) == 8  # corners
    assert sum(shapes.count(s) for s in (14, 11, 7, 13)) == 8  # T-junctions
    assert shapes.count(15) == 4  # crossroads
    items = TILE_ITEM[1:].tolist()
    assert items.count(data.CRYSTAL) == 10 and items.count(data.GOLD) == 4
    assert TILE_EXITS[11] == 1 | 2 | 8 and TILE_ITEM[11] == data.CRYSTAL  # 11 NEW c
    assert TILE_EXITS[32] == 1 | 4 and TILE_ITEM[32] == data.GOLD  # 32 NS g


@pytest.mark.parametrize("n, stack", [(2, [5, 3]), (3, [5, 3, 2]), (4, [5, 4, 3, 2])])
def test_treasure_stacks_by_player_count(n, stack):
    assert data.TREASURE_VALUES[n, :n].tolist() == stack
    observation = np.zeros(observe.OBS_SIZE, np.float32)
    observe.observe(fresh(n), 0, observation)
    start = observe.OBS["top_treasure"][0]
    assert np.allclose(observation[start : start + 4], 5 / 5)


# -- set-up ----------------------------------------------------------------------------------
def test_distance_rule_readings():
    perimeter, difference = data.DISTANCE_PERIMETER, data.DISTANCE_DIFFERENCE
    allowed = kernels.distance_allowed
    # Perimeter: at least 3 numbers apart around the corner where beach 1 meets jungle 1 ...
    assert not allowed(perimeter, 1, 1) and not allowed(perimeter, 1, 2) and not allowed(perimeter, 2, 1)
    assert allowed(perimeter, 1, 3) and allowed(perimeter, 2, 2)
    # ... and around the corner where beach 11 meets jungle 11.
    assert (
        not allowed(perimeter, 11, 11) and not allowed(perimeter, 10, 11) and not allowed(perimeter, 11, 10)
    )
    assert allowed(perimeter, 11, 9) and allowed(perimeter, 6, 5)
    # Difference: the numbers differ by at least 3.
    assert allowed(difference, 5, 2) and allowed(difference, 1, 4)
    assert not allowed(difference, 6, 5) and not allowed(difference, 3, 5)


@pytest.mark.parametrize("rule", data.DISTANCE_RULES)
def test_random_layout_is_legal_and_the_same_on_every_island(rule):
    close_pairs = 0
    for seed in range(200):
        state = fresh(4, seed, layout="random", distance_rule=rule)
        check_invariants(state)
        beaches = state[ADVENTURER_BEACH : ADVENTURER_BEACH + 4].tolist()
        jungles = state[TEMPLE_JUNGLE : TEMPLE_JUNGLE + 4].tolist()
        assert len(set(beaches)) == 4 and len(set(jungles)) == 4
        for b, j in zip(beaches, jungles, strict=True):
            assert kernels.distance_allowed(data.DISTANCE_RULES.index(rule), b, j)
            close_pairs += abs(b - j) < 3
        # One layout for all islands: every adventurer starts on its colour's beach space.
        assert (state[ADVENTURER_POS : ADVENTURER_POS + 16] == ON_BEACH).all()
    # The two readings differ: only the perimeter reading allows, e.g., beach 6 / jungle 5.
    assert (close_pairs > 0) == (rule == "perimeter")


def test_setup_reveals_the_first_tile_of_a_shuffled_stack():
    state = fresh(3, seed=11, layout="random")
    assert state[PHASE] == PHASE_PLAY and state[TILES_REVEALED] == 1 and state[CURRENT_PLAYER] == 0
    stacks = {tuple(fresh(3, seed=s, layout="random")[STACK : STACK + NUM_TILES]) for s in range(5)}
    assert len(stacks) == 5
    assert (state[CELL_TILE : CELL_TILE + 4 * data.NUM_CELLS] == 0).all()
    assert (state[PENDING : PENDING + 3] == NO_ACTION).all()


def test_fixed_layout_option():
    state = fresh(2, layout="1:9,4:1,8:11,11:2")
    assert state[ADVENTURER_BEACH : ADVENTURER_BEACH + 4].tolist() == [1, 4, 8, 11]
    assert state[TEMPLE_JUNGLE : TEMPLE_JUNGLE + 4].tolist() == [9, 1, 11, 2]
    env = TreasureAECEnv(GAME, layout=((1, 9), (4, 1), (8, 11), (11, 2)))
    assert env.options["layout"] == "1:9,4:1,8:11,11:2"
    assert parse_layout(" 3:9, 5:2,8:11,10:5".replace(" ", "")) == data.EXAMPLE_LAYOUT


@pytest.mark.parametrize(
    "layout, distance_rule",
    [
        ("1:2,4:9,8:11,11:3", "perimeter"),  # brown beach 1 / jungle 2: too close round the corner
        ("6:5,1:9,8:11,11:2", "perimeter"),  # fine round the corners ...
        ("3:1,2:9,8:11,11:2", "perimeter"),  # beach 3 + jungle 1 = 4: allowed
    ],
)
def test_fixed_layout_checked_against_the_distance_rule(layout, distance_rule):
    beach, jungle = parse_layout(layout)[0]
    ok = kernels.distance_allowed(data.DISTANCE_RULES.index(distance_rule), beach, jungle)
    if ok:
        TreasureAECEnv(GAME, layout=layout, distance_rule=distance_rule)
    else:
        with pytest.raises(ValueError, match="too close"):
            TreasureAECEnv(GAME, layout=layout, distance_rule=distance_rule)
    with pytest.raises(ValueError, match="distance_rule"):
        TreasureAECEnv(GAME, layout="6:5,1:9,8:11,11:2", distance_rule="difference")


@pytest.mark.parametrize(
    "bad",
    [
        "1:9,4:1,8:11",
        "1:9,1:1,8:11,11:2",
        "1:9,4:9,8:11,11:2",
        "0:9,4:1,8:11,11:2",
        "1:12,4:1,8:11,11:2",
        "a:b",
        "",
        7,
        ((1, 9), (4, 1), (8, 11), (True, 2)),
        None,
    ],
)
def test_bad_layouts_raise(bad):
    with pytest.raises(ValueError, match="layout"):
        TreasureAECEnv(GAME, layout=bad)


# -- the draft -------------------------------------------------------------------------------
@pytest.mark.parametrize("n, order", [(2, [0, 1, 0, 1]), (3, [0, 1, 2, 0]), (4, [0, 1, 2, 3])])
def test_draft_places_colour_pairs_in_turn(n, order):
    state = fresh(n, layout="draft")
    assert state[PHASE] == PHASE_DRAFT and state[TILES_REVEALED] == 0
    picks = [(YELLOW, 2, 9), (BROWN, 7, 1), (BLUE, 11, 3), (PURPLE, 1, 11)]
    for k, (colour, beach, jungle) in enumerate(picks):
        assert state[CURRENT_PLAYER] == order[k]
        mask = np.zeros(N_ACTIONS, np.int8)
        kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask)
        assert not mask[DRAFT_TEMPLE_BASE:].any() and not mask[:DRAFT_ADVENTURER_BASE].any()
        # Any unplaced colour on any free beach space.
        offered = {divmod(a - DRAFT_ADVENTURER_BASE, 11) for a in np.flatnonzero(mask)}
        placed = {c for c, _, _ in picks[:k]}
        used = {b - 1 for _, b, _ in picks[:k]}
        assert offered == {(c, b) for c in range(4) if c not in placed for b in range(11) if b not in used}
        kernels.step(state, DRAFT_ADVENTURER_BASE + colour * 11 + beach - 1)
        # The same player then places the temple of that colour, at distance 3 or more.
        assert state[CURRENT_PLAYER] == order[k] and state[DRAFT_COLOUR] == colour
        kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask)
        jungles = {a - DRAFT_TEMPLE_BASE + 1 for a in np.flatnonzero(mask)}
        taken = {j for _, _, j in picks[:k]}
        assert jungles == {j for j in range(1, 12) if j not in taken and 4 <= beach + j <= 20}
        kernels.step(state, DRAFT_TEMPLE_BASE + jungle - 1)
        check_invariants(state)
    assert state[PHASE] == PHASE_PLAY and state[TILES_REVEALED] == 1 and state[CURRENT_PLAYER] == 0
    assert state[DRAFT_COLOUR] == NO_COLOUR
    assert state[ADVENTURER_BEACH : ADVENTURER_BEACH + 4].tolist() == [7, 11, 1, 2]
    assert state[TEMPLE_JUNGLE : TEMPLE_JUNGLE + 4].tolist() == [1, 3, 11, 9]


def test_draft_temples_follow_the_difference_reading():
    state = fresh(2, layout="draft", distance_rule="difference")
    kernels.step(state, DRAFT_ADVENTURER_BASE + BLUE * 11 + 6 - 1)  # blue on beach 6
    mask = np.zeros(N_ACTIONS, np.int8)
    kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask)
    assert {a - DRAFT_TEMPLE_BASE + 1 for a in np.flatnonzero(mask)} == {1, 2, 3, 9, 10, 11}


# The rulebook's set-up example. The island prints its spaces as 10 to 110 degrees, so "N
# degrees" is space N / 10 (and "go degrees" is a misprint of 90): blue beach 2 / jungle 10,
# yellow beach 9 / jungle 1, purple beach 11 / jungle 6, brown beach 6 / jungle 7.
SETUP_EXAMPLE = (
    # (player, colour, beach, jungle, the rulebook's words)
    (
        "Henriette",
        BLUE,
        2,
        10,
        "places it at 20 degrees on the beach. She places the blue temple at 100 degrees",
    ),
    (
        "Miriam",
        YELLOW,
        9,
        1,
        "places the yellow adventurer at go degrees on the beach and the yellow temple at 10",
    ),
    (
        "Christina",
        PURPLE,
        11,
        6,
        "places the purple adventurer at 110 degrees on the beach and the purple temple at 60",
    ),
    ("Luis", BROWN, 6, 7, "places it at 60 degrees on the beach. He places the brown temple at 70 degrees"),
)
SETUP_EXAMPLE_LAYOUT = "6:7,2:10,11:6,9:1"  # brown, blue, purple, yellow


def test_setup_example_every_pair_is_legal_under_the_default_distance_rule():
    """ "Luis ... places it at 60 degrees on the beach. He places the brown temple at 70 degrees":
    beach 6 and jungle 7, 1 apart in number but 12 numbers apart round the corner. Every pair of
    the example is legal under the default (perimeter) reading."""
    by_colour = {colour: (beach, jungle) for _, colour, beach, jungle, _ in SETUP_EXAMPLE}
    assert parse_layout(SETUP_EXAMPLE_LAYOUT) == tuple(by_colour[c] for c in range(4))
    for _, _, beach, jungle, _ in SETUP_EXAMPLE:
        assert kernels.distance_allowed(data.DISTANCE_PERIMETER, beach, jungle)
    state = fresh(4, layout=SETUP_EXAMPLE_LAYOUT)
    check_invariants(state)
    assert state[ADVENTURER_BEACH : ADVENTURER_BEACH + 4].tolist() == [6, 2, 11, 9]
    assert state[TEMPLE_JUNGLE : TEMPLE_JUNGLE + 4].tolist() == [7, 10, 6, 1]


def test_setup_example_drafted_in_the_rulebooks_order():
    """Henriette, Miriam, Christina and Luis (seats 0 to 3) each place a pair in turn, as the
    example tells it; every temple they choose is offered."""
    state = fresh(4, layout="draft")
    mask = np.zeros(N_ACTIONS, np.int8)
    for seat, (_, colour, beach, jungle, _) in enumerate(SETUP_EXAMPLE):
        assert state[CURRENT_PLAYER] == seat
        kernels.step(state, DRAFT_ADVENTURER_BASE + colour * 11 + beach - 1)
        kernels.legal_mask(state, seat, mask)
        assert mask[DRAFT_TEMPLE_BASE + jungle - 1], f"jungle {jungle} refused after beach {beach}"
        kernels.step(state, DRAFT_TEMPLE_BASE + jungle - 1)
        check_invariants(state)
    assert state[PHASE] == PHASE_PLAY
    assert state[ADVENTURER_BEACH : ADVENTURER_BEACH + 4].tolist() == [6, 2, 11, 9]
    assert state[TEMPLE_JUNGLE : TEMPLE_JUNGLE + 4].tolist() == [7, 10, 6, 1]


def test_the_difference_house_rule_refuses_the_setup_example():
    """distance_rule="difference" (|beach - jungle| >= 3) is a house rule: it contradicts the
    rulebook's example, refusing Luis's brown pair (beach 6, jungle 7)."""
    assert not kernels.distance_allowed(data.DISTANCE_DIFFERENCE, 6, 7)
    with pytest.raises(
        ValueError, match="brown adventurer on beach 6 is too close to its temple on jungle 7"
    ):
        TreasureAECEnv(GAME, layout=SETUP_EXAMPLE_LAYOUT, distance_rule="difference")
    assert "house rule" in next(o.help for o in GAME.options if o.name == "distance_rule")


# -- laying a tile ---------------------------------------------------------------------------
def test_lay_a_tile_unrotated_on_a_free_field_with_its_item():
    state = build(current=EW_CRYSTAL, islands={0: {(2, 2): NS}}, num_players=2)
    mask = np.zeros(N_ACTIONS, np.int8)
    kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask)
    assert not mask[cell(2, 2)], "only free fields"
    assert mask[: data.NUM_CELLS].sum() == 29 and mask[DISCARD]
    play_tile(state, {0: cell(4, 6), 1: cell(2, 2)})
    assert state[CELL_TILE + cell(4, 6)] == EW_CRYSTAL
    assert state[CELL_ITEM + cell(4, 6)] == data.CRYSTAL  # the crystal is put on the tile
    # Seat 1 laid the same tile on its own island: islands are separate.
    assert state[CELL_TILE + data.NUM_CELLS + cell(2, 2)] == EW_CRYSTAL
    assert state[LAST_ACTION] == cell(4, 6) and state[TILES_REVEALED] == 3


def test_discard_lays_nothing():
    state = build(current=NS, num_players=2)
    play_tile(state, {})
    assert not state[CELL_TILE : CELL_TILE + 2 * data.NUM_CELLS].any()
    assert state[TILES_REVEALED] == 2


# -- moving ----------------------------------------------------------------------------------
def test_leaving_the_beach_needs_a_path_towards_it():
    # Brown waits on beach 3, beside (3, 1).
    assert targets(build(current=CROSS, islands={0: {(3, 1): NS}}), BROWN) == set()
    assert targets(build(current=CROSS, islands={0: {(3, 1): EW}}), BROWN) == {(3, 1)}
    # Purple on beach 8 (below column 3) needs a south exit at (5, 3).
    assert targets(build(current=CROSS, islands={0: {(5, 3): EW}}), PURPLE) == set()
    assert targets(build(current=CROSS, islands={0: {(5, 3): NS}}), PURPLE) == {(5, 3)}


@pytest.mark.parametrize("tile, reach", [(NS, 2), (NES, 3), (CROSS, 4)])
def test_steps_equal_the_exits_of_the_discarded_tile(tile, reach):
    assert TILE_EXIT_COUNT[tile] == reach
    state = build(current=tile, islands={0: ROW_3})
    # Movement points may be forfeited: every field up to `reach` steps is a destination.
    assert targets(state, BROWN) == {(3, col) for col in range(1, reach + 1)}


def test_blocked_path():
    # (3, 2) has no west exit: the path from (3, 1) is a dead end, even with 4 steps.
    state = build(current=CROSS, islands={0: {(3, 1): EW, (3, 2): NS, (3, 3): EW2}})
    assert targets(state, BROWN) == {(3, 1)}
    # A free field is no path either.
    state = build(current=CROSS, islands={0: {(3, 1): EW, (3, 3): EW2}})
    assert targets(state, BROWN) == {(3, 1)}


def test_an_adventurer_in_the_way():
    # Blue stands on (3, 3): brown may neither land there nor pass over it.
    state = build(current=CROSS, islands={0: ROW_3}, adventurers={0: {BLUE: (3, 3)}})
    assert targets(state, BROWN) == {(3, 1), (3, 2)}
    # Blue on the first field blocks brown on the beach completely.
    state = build(current=CROSS, islands={0: ROW_3}, adventurers={0: {BLUE: (3, 1)}})
    assert targets(state, BROWN) == set()
    # Another player's adventurers are on another island and never in the way.
    state = build(current=CROSS, islands={0: ROW_3, 1: ROW_3}, adventurers={1: {BLUE: (3, 1)}})
    assert targets(state, BROWN) == {(3, 1), (3, 2), (3, 3), (3, 4)}


def test_a_crossroads_lets_the_adventurer_turn_any_way():
    island = {(3, 3): CROSS, (2, 3): NS, (1, 3): NS2, (4, 3): NS3, (3, 2): EW, (3, 4): EW2, (3, 5): EW3}
    state = build(current=NS4, islands={0: island}, adventurers={0: {BROWN: (3, 3)}})
    assert targets(state, BROWN) == {(2, 3), (1, 3), (4, 3), (3, 2), (3, 4), (3, 5)}
    # A corner turns only its own way: NW at (4, 4) connects to (3, 4)'s ... nothing (EW has
    # no south exit), so the path from the crossroads ends at (3, 4) and (3, 5).
    island[(4, 4)] = NW_CORNER
    state = build(current=NS4, islands={0: island}, adventurers={0: {BROWN: (3, 3)}})
    assert (4, 4) not in targets(state, BROWN)


def test_any_direction_including_back():
    state = build(current=NS, islands={0: ROW_3}, adventurers={0: {BROWN: (3, 3)}})
    assert targets(state, BROWN) == {(3, 1), (3, 2), (3, 4), (3, 5)}


def test_entering_the_temple_of_its_own_colour_only():
    # (1, 5) faces jungle 5, the yellow temple, through its north exit.
    island = {(1, 5): NS, (2, 5): NS2}
    state = build(current=NS3, islands={0: island}, adventurers={0: {BROWN: (1, 5), YELLOW: (2, 5)}})
    assert "temple" not in targets(state, BROWN), "the wrong colour's temple"
    mask = np.zeros(N_ACTIONS, np.int8)
    kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask)
    assert not mask[move(BROWN, "temple")]
    state = build(current=NS3, islands={0: island}, adventurers={0: {YELLOW: (1, 5)}})
    assert targets(state, YELLOW) == {"temple", (2, 5)}
    # A jungle space without a temple leads nowhere: (1, 1) faces jungle 1 (no temple).
    state = build(current=NS3, islands={0: {(1, 1): NS}}, adventurers={0: {BLUE: (1, 1)}})
    assert targets(state, BLUE) == set()
    # The way into the temple needs the exit facing it: (3, 6) NS cannot reach jungle 9.
    state = build(current=CROSS, islands={0: {(3, 6): NS}}, adventurers={0: {BROWN: (3, 6)}})
    assert "temple" not in targets(state, BROWN)


def test_reaching_the_temple_takes_the_top_treasure_and_stays():
    state = build(current=NES, islands={0: ROW_3}, adventurers={0: {BROWN: (3, 5)}}, num_players=2)
    assert targets(state, BROWN) == {(3, 2), (3, 3), (3, 4), (3, 6), "temple"}
    play_tile(state, {0: move(BROWN, "temple")})
    assert state[ADVENTURER_POS + BROWN] == IN_TEMPLE
    assert state[TREASURE + BROWN] == 5 and state[STACK_TAKEN + BROWN] == 1
    assert targets(state, BROWN) == set(), "it stays put at the temple"
    assert state[GOLD_COLLECTED] == 0, "passing the gold tile picks nothing up"


def test_collecting_at_the_end_of_a_move():
    state = build(current=CROSS, islands={0: ROW_3}, adventurers={0: {BROWN: (3, 2)}}, num_players=2)
    play_tile(state, {0: move(BROWN, (3, 5))})  # ends on the crystal
    assert state[CRYSTALS_COLLECTED] == 1 and state[CELL_ITEM + cell(3, 5)] == data.NO_ITEM
    kernels_tile = int(state[STACK + state[TILES_REVEALED] - 1])
    assert TILE_EXIT_COUNT[kernels_tile] >= 2
    state = build(current=CROSS, islands={0: ROW_3}, adventurers={0: {BROWN: (3, 3)}}, num_players=2)
    play_tile(state, {0: move(BROWN, (3, 6))})  # passes the crystal, ends on the gold
    assert state[CRYSTALS_COLLECTED] == 0 and state[CELL_ITEM + cell(3, 5)] == data.CRYSTAL
    assert state[GOLD_COLLECTED] == 1
    points, _, _ = final(state)
    assert points[0] == 2, "a gold nugget is worth 2; the crystal still on its tile scores nothing"


# -- simultaneity ----------------------------------------------------------------------------
def test_decisions_stay_hidden_until_everyone_has_decided():
    state = build(current=NS, num_players=3)
    kernels.step(state, cell(1, 1))
    assert state[PENDING] == cell(1, 1) and state[CURRENT_PLAYER] == 1
    assert state[CELL_TILE + cell(1, 1)] == 0, "not applied before everyone has decided"
    # Seat 1 sees the same whatever seat 0 decided.
    other = build(current=NS, num_players=3)
    kernels.step(other, DISCARD)
    for seat in (1, 2):
        a, b = np.zeros(observe.OBS_SIZE, np.float32), np.zeros(observe.OBS_SIZE, np.float32)
        observe.observe(state, seat, a)
        observe.observe(other, seat, b)
        assert np.array_equal(a, b)
    assert "lay tile" not in render.render_ansi(state, viewer=1).split("showing")[1]
    assert "your decision: lay tile" in render.render_ansi(state, viewer=0)
    kernels.step(state, DISCARD)
    kernels.step(state, cell(5, 6))
    assert state[CELL_TILE + cell(1, 1)] == NS and state[CELL_TILE + 2 * data.NUM_CELLS + cell(5, 6)] == NS
    assert (state[PENDING : PENDING + 3] == NO_ACTION).all() and state[TILES_REVEALED] == 2


def test_rulebook_tie_example_luis_miriam_christina():
    """Luis reaches the brown temple and takes the 5. Miriam and Christina reach it with their
    brown adventurers in a later round: Miriam takes the 4, Christina the 3 and a crystal, so
    both score 4 for the brown temple."""
    luis, miriam, christina, henriette = 0, 1, 2, 3
    way_in = {(3, 6): EW}  # (3, 6) faces jungle 9, the brown temple
    state = build(
        current=NS,
        islands={luis: way_in, miriam: way_in, christina: way_in, henriette: way_in},
        adventurers={luis: {BROWN: (3, 6)}, miriam: {BROWN: (3, 6)}, christina: {BROWN: (3, 6)}},
    )
    play_tile(state, {luis: move(BROWN, "temple")})
    assert state[TREASURE + luis * 4 + BROWN] == 5
    play_tile(state, {miriam: move(BROWN, "temple"), christina: move(BROWN, "temple")})
    assert state[TREASURE + miriam * 4 + BROWN] == 4 and state[TIE_CRYSTALS + miriam * 4 + BROWN] == 0
    assert state[TREASURE + christina * 4 + BROWN] == 3 and state[TIE_CRYSTALS + christina * 4 + BROWN] == 1
    assert state[STACK_TAKEN + BROWN] == 3
    points, _, _ = final(state)
    assert points[:3] == [5, 4, 4] and points[henriette] == 0


def test_a_tie_on_the_first_arrival_pays_the_top_value_to_all():
    way_in = {(1, 5): NS}  # faces jungle 5, the yellow temple
    state = build(
        current=NS2,
        islands={seat: way_in for seat in range(4)},
        adventurers={seat: {YELLOW: (1, 5)} for seat in range(4)},
    )
    play_tile(state, {seat: move(YELLOW, "temple") for seat in range(4)})
    values = [int(state[TREASURE + seat * 4 + YELLOW]) for seat in range(4)]
    crystals = [int(state[TIE_CRYSTALS + seat * 4 + YELLOW]) for seat in range(4)]
    assert values == [5, 4, 3, 2] and crystals == [0, 1, 2, 3]
    assert final(state)[0] == [5, 5, 5, 5]


# -- the end ---------------------------------------------------------------------------------
def test_game_ends_when_a_player_has_all_four_adventurers_in_temples():
    state = build(current=NS2, islands={1: {(1, 5): NS}}, adventurers={1: {YELLOW: (1, 5)}})
    for colour in (BROWN, BLUE, PURPLE):
        in_temple(state, 1, colour)
    check_invariants(state)
    play_tile(state, {1: move(YELLOW, "temple")})
    assert state[TERMINAL] and state[END_CONDITION] == END_TEMPLES
    assert state[TILES_REVEALED] == 2, "whichever occurs first: tiles were left"


def test_game_ends_after_the_last_tile():
    state = build(current=NS, num_players=2)
    state[STACK : STACK + NUM_TILES] = np.roll(state[STACK : STACK + NUM_TILES], -1)
    state[TILES_REVEALED] = NUM_TILES - 1
    state[DECISIONS] = (NUM_TILES - 2) * 2  # both seats decided on every earlier tile
    play_tile(state, {0: cell(1, 1)})
    assert not state[TERMINAL] and state[END_CONDITION] == END_NONE and state[TILES_REVEALED] == NUM_TILES
    last = int(state[STACK + NUM_TILES - 1])
    play_tile(state, {1: cell(2, 2)})  # the 36th tile is still played
    assert state[TERMINAL] and state[END_CONDITION] == END_TILES
    assert state[CELL_TILE + data.NUM_CELLS + cell(2, 2)] == last
    mask = np.zeros(N_ACTIONS, np.int8)
    assert kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask) == 0


def test_score_tie_break_most_tiles_then_shared_victory():
    state = build(current=NS, islands={0: {(1, 1): EW, (1, 2): EW2}, 1: {(1, 1): EW}}, num_players=3)
    state[CRYSTALS_COLLECTED] = 1  # (not on these tiles: the item tables are not checked here)
    state[GOLD_COLLECTED + 1] = 1
    state[CRYSTALS_COLLECTED + 2] = 2
    state[TERMINAL] = 1
    points, tiebreaks, rewards = final(state)
    assert points == [1, 2, 2] and tiebreaks == [2, 1, 0]
    assert rewards == [-1.0, 1.0, -1.0], "2 points each; seat 1 has more tiles on its island"
    state[CELL_TILE + 2 * data.NUM_CELLS + cell(4, 4)] = NS2
    assert final(state)[2] == [-1.0, 1.0, 1.0], "still tied: shared victory"


def test_score_counts_temple_treasures_crystals_and_gold():
    state = build(current=NS, num_players=2)
    in_temple(state, 0, BLUE)
    state[CRYSTALS_COLLECTED] = 3
    state[GOLD_COLLECTED] = 2
    state[TIE_CRYSTALS + BLUE] = 0
    points, _, _ = final(state)
    assert points[0] == 5 + 3 + 2 * 2


# -- hidden information ----------------------------------------------------------------------
def test_resample_hidden_redeals_the_undrawn_order_and_others_decisions():
    state = build(current=NS, islands={0: ROW_3, 2: ROW_3}, num_players=4)
    for action in (cell(1, 1), cell(2, 2), DISCARD):
        kernels.step(state, action)
    revealed = int(state[TILES_REVEALED])
    orders, pendings = set(), set()
    for seed in range(30):
        twin = state.copy()
        kernels.resample_hidden(twin, 1, seed)
        check_invariants(twin)
        assert np.array_equal(twin[STACK : STACK + revealed], state[STACK : STACK + revealed])
        assert twin[PENDING + 1] == state[PENDING + 1], "its own decision is kept"
        orders.add(tuple(twin[STACK + revealed : STACK + NUM_TILES]))
        pendings.add((int(twin[PENDING]), int(twin[PENDING + 2])))
        a, b = np.zeros(observe.OBS_SIZE, np.float32), np.zeros(observe.OBS_SIZE, np.float32)
        observe.observe(state, 1, a)
        observe.observe(twin, 1, b)
        assert np.array_equal(a, b)
    assert len(orders) == 30 and len(pendings) > 10


def test_bot_breaks_ties_by_its_seed_and_replays_per_seed():
    """Every island has the same layout and the same tiles, so bots that broke ties alike would
    build identical islands and share every victory. Seeded bots differ, and a seed replays."""
    from treasure_core.agents import play_game

    aec = TreasureAECEnv(GAME, num_players=4)
    shared = 0
    single = 0
    for game in range(6):
        agents = [KarubaBot(10 * game + seat) for seat in range(4)]
        winners = play_game(aec, agents, 100 + game)["winner"]
        shared += sum(winners) == 4
        single += sum(winners) == 1
        again = play_game(aec, [KarubaBot(10 * game + seat) for seat in range(4)], 100 + game)["winner"]
        assert again == winners, "the same seeds replay the same game"
    assert shared == 0 and single >= 4


def test_bot_ties_follow_tie_key():
    # Laying the first tile: many fields are worth the same to the bot; which one it takes
    # depends on the salt, and is the legal tied action with the highest tie_key.
    state = fresh(2, seed=4, layout=EXAMPLE_LAYOUT_TEXT)
    choices = {heuristic_action(state, 0, salt) for salt in range(40)}
    assert len(choices) > 1


def test_bot_plays_from_public_information():
    state = build(current=NES, islands={0: ROW_3}, adventurers={0: {BROWN: (3, 5)}}, num_players=2)
    assert heuristic_action(state, 0) == move(BROWN, "temple"), "the bot takes the 5 when it can"
    kernels.step(state, move(BROWN, "temple"))
    twin = state.copy()
    kernels.resample_hidden(twin, 1, 3)
    assert heuristic_action(state, 1) == heuristic_action(twin, 1)


def reference_distance(
    tiles: np.ndarray, positions: np.ndarray, colour: int, beach: int, temple: int
) -> float:
    """temple_distance as docs/games/karuba.md (Bots) words it, by a plain Dijkstra: a step
    along connected paths costs 1 onto a laid tile, 4 onto a free field (open every way), 2
    more onto a field of another adventurer; from the beach onto the field beside it (a laid
    tile must face the beach); into the temple from the field beside it, one step; capped at 30."""
    import heapq

    def opens(cell: int, side: int) -> bool:
        return tiles[cell] == 0 or bool(TILE_EXITS[tiles[cell]] & side)

    others = {int(p) for c, p in enumerate(positions) if c != colour and p >= 0}
    position = int(positions[colour])
    if position == ON_BEACH:
        start = int(data.BEACH_CELL[beach])
        if not opens(start, data.BEACH_SIDE[beach]):
            return 30.0
        queue = [(1 if tiles[start] else 4, start)]
    else:
        queue = [(0, position)]
    door, door_side = int(data.JUNGLE_CELL[temple]), data.JUNGLE_SIDE[temple]
    done: set[int] = set()
    while queue:
        cost, cell = heapq.heappop(queue)
        if cell in done:
            continue
        done.add(cell)
        if cell == door and opens(cell, door_side):
            return float(min(cost + 1, 30))
        for way in range(4):
            nxt = int(data.NEIGHBOUR[cell, way])
            if nxt >= 0 and opens(cell, data.DIRECTIONS[way]) and opens(nxt, data.OPPOSITE[way]):
                step = (1 if tiles[nxt] else 4) + (2 if nxt in others else 0)
                heapq.heappush(queue, (cost + step, nxt))
    return 30.0


def test_temple_distance_is_the_cheapest_way_its_costs_describe():
    # Brown on row 3's laid crystal tile (3, 5) walks (3, 6) and into jungle 9: 2 steps; from
    # (3, 1) 6; blocked by yellow on (3, 4): 2 more.
    state = build(current=NES, islands={0: ROW_3}, adventurers={0: {BROWN: (3, 5)}}, num_players=2)
    tiles = state[CELL_TILE : CELL_TILE + data.NUM_CELLS].copy()
    positions = state[ADVENTURER_POS : ADVENTURER_POS + data.NUM_COLOURS].copy()
    beach, temple = state[ADVENTURER_BEACH + BROWN] - 1, state[TEMPLE_JUNGLE + BROWN] - 1
    assert temple_distance(tiles, positions, BROWN, beach, temple, new_scratch()) == 2
    positions[BROWN] = cell(3, 1)
    assert temple_distance(tiles, positions, BROWN, beach, temple, new_scratch()) == 6
    positions[YELLOW] = cell(3, 4)
    assert temple_distance(tiles, positions, BROWN, beach, temple, new_scratch()) == 8
    # From the beach: onto (3, 1) facing it, 1 step, then 6; a free field there costs 4.
    positions[:] = ON_BEACH
    assert temple_distance(tiles, positions, BROWN, beach, temple, new_scratch()) == 7
    # Walled in: a north-south tile at the beach turns its back on it.
    tiles[cell(3, 1)] = NS
    assert temple_distance(tiles, positions, BROWN, beach, temple, new_scratch()) == 30
    # It overwrites its scratch array: stale contents change nothing.
    tiles[cell(3, 1)] = EW
    stale = np.full(31, -1, np.int64)
    assert temple_distance(tiles, positions, BROWN, beach, temple, stale) == 7
    # Every adventurer of random islands (random tiles, some adventurers on them): the plain
    # Dijkstra of its costs.
    rng = np.random.default_rng(7)
    for _ in range(300):
        tiles = np.where(rng.random(data.NUM_CELLS) < rng.random(), rng.integers(1, 37, data.NUM_CELLS), 0)
        tiles = tiles.astype(np.int32)
        laid = np.flatnonzero(tiles)
        positions = np.full(data.NUM_COLOURS, ON_BEACH, np.int32)
        spots = rng.permutation(laid)[: rng.integers(0, min(4, len(laid)) + 1)]
        positions[: len(spots)] = spots
        layout = np.array(data.EXAMPLE_LAYOUT) - 1
        for colour in range(data.NUM_COLOURS):
            beach, temple = layout[colour]
            expected = reference_distance(tiles, positions, colour, beach, temple)
            assert temple_distance(tiles, positions, colour, beach, temple, new_scratch()) == expected


# -- the observation's preview ---------------------------------------------------------------
PLACE_SLICE = slice(*observe.OBS["place_preview"])
MOVE_SLICE = slice(*observe.OBS["move_preview"])
DISTANCE_SLICE = slice(*observe.OBS["adventurer_distance"])
EW_GOLD2, NS_CRYSTAL = 16, 31  # an east-west tile with gold, a north-south one with a crystal


def preview(state: np.ndarray, seat: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The seat's place_preview [field, colour, feature], move_preview [colour, target, feature]
    and adventurer_distance [colour]."""
    out = np.full(observe.OBS_SIZE, np.nan, np.float32)
    observe.observe(state, seat, out)
    return (
        out[PLACE_SLICE].reshape(data.NUM_CELLS, data.NUM_COLOURS, observe.PLACE_FEATURES),
        out[MOVE_SLICE].reshape(data.NUM_COLOURS, MOVE_TARGETS, observe.MOVE_FEATURES),
        out[DISTANCE_SLICE],
    )


def test_preview_a_tile_that_connects_an_adventurer_to_its_temple():
    # "Use the tiles to build paths along which the adventurers move to get to the temple of the
    # same color." Brown (beach 3, left of row 3) has row 3 laid up to (3, 5); its temple
    # (jungle 9) is beside (3, 6). An east-west gold tile there finishes the way: from the beach
    # 1 step onto (3, 1), 4 more to (3, 5), then (3, 6) and the temple: 7 steps instead of 10.
    row = {rc: tile for rc, tile in ROW_3.items() if rc != (3, 6)}
    state = build(current=EW_GOLD2, islands={0: row}, num_players=2)
    places, moves, distance = preview(state, 0)
    assert distance[BROWN] == pytest.approx(10 / 30)
    there = places[cell(3, 6), BROWN]
    assert there[observe.PLACE_CLOSER] == pytest.approx(3 / 8) and there[observe.PLACE_FARTHER] == 0
    assert there[observe.PLACE_COMPLETES] == 1
    assert there[observe.PLACE_ITEM] == 1, "the gold lies on brown's way: it can collect it"
    # Elsewhere the tile completes nothing for brown; beside the way, its gold is out of reach.
    assert places[:, BROWN, observe.PLACE_COMPLETES].sum() == 1
    assert places[cell(2, 6), BROWN, observe.PLACE_ITEM] == 0
    assert not places[[cell(*rc) for rc in row], :, :].any(), "laid fields: no place action"
    # A north-south tile there turns its back on row 3: brown is walled in (30, at most 8 read).
    state = build(current=NS_CRYSTAL, islands={0: row}, num_players=2)
    places, _, _ = preview(state, 0)
    there = places[cell(3, 6), BROWN]
    assert there[observe.PLACE_FARTHER] == 1 and there[observe.PLACE_CLOSER] == 0
    assert there[observe.PLACE_COMPLETES] == 0 and there[observe.PLACE_ITEM] == 0


def test_preview_a_move_into_the_temple():
    # "Once an adventurer moves to a temple ... the corresponding player takes the most valuable
    # treasure of this temple color remaining": Luis took the brown 5 earlier (4 players), so
    # brown on (3, 5) with a three-way tile (3 steps) reaches its temple for the 4.
    state = build(current=NES, islands={0: ROW_3}, adventurers={0: {BROWN: (3, 5)}}, num_players=4)
    state[STACK_TAKEN + BROWN] = 1
    _, moves, distance = preview(state, 0)
    assert distance[BROWN] == pytest.approx(2 / 30)
    temple = moves[BROWN, TEMPLE_TARGET]
    assert temple[observe.MOVE_TREASURE] == pytest.approx(4 / 5) and temple[observe.MOVE_DISTANCE] == 0
    assert temple[observe.MOVE_CLOSER] == pytest.approx(2 / 8) and temple[observe.MOVE_ITEM] == 0
    # One step on, onto the gold: 1 step left, and the gold collected ("finish their turn").
    gold = moves[BROWN, cell(3, 6)]
    assert gold[observe.MOVE_DISTANCE] == pytest.approx(1 / 30) and gold[observe.MOVE_ITEM] == 1
    assert gold[observe.MOVE_CLOSER] == pytest.approx(1 / 8) and gold[observe.MOVE_TREASURE] == 0
    # Back along row 3 ("in any direction"): farther from the temple.
    back = moves[BROWN, cell(3, 3)]
    assert back[observe.MOVE_FARTHER] == pytest.approx(2 / 8) and back[
        observe.MOVE_DISTANCE
    ] == pytest.approx(4 / 30)
    legal = {t for t in range(MOVE_TARGETS) if moves[BROWN, t].any()}
    assert legal == {cell(3, 6), cell(3, 4), cell(3, 3), cell(3, 2), TEMPLE_TARGET}


def test_preview_an_unreachable_temple():
    # "Always make sure that an adventurer or temple is not accidentally blocked": a north-south
    # tile beside brown's beach turns its back on it, so brown can never leave the beach.
    state = build(current=EW_GOLD2, islands={0: {(3, 1): NS}}, num_players=2)
    places, moves, distance = preview(state, 0)
    assert distance[BROWN] == 1, "out of reach: 30 steps, read as 1"
    assert not places[:, BROWN].any() and not moves[BROWN].any(), "no tile helps, no move is legal"
    # Blue (beach 5, left of row 5; temple jungle 2, above column 2) is not walled in: up column
    # 1 (four free fields and the laid (3, 1)), the free (1, 2), the temple: 4 * 5 + 1 + 1.
    assert distance[BLUE] == pytest.approx(22 / 30)


def test_preview_is_zero_where_the_action_is_illegal_and_for_a_seat_without_a_decision():
    for options, seed in (({"num_players": 4}, 3), ({"num_players": 2, "layout": "draft"}, 4)):
        env = TreasureAECEnv(GAME, **options)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.is_over():
            state = env.get_state()
            for seat in range(int(state[NUM_PLAYERS])):
                mask = np.zeros(N_ACTIONS, np.int8)
                kernels.legal_mask(state, seat, mask)
                places, moves, _ = preview(state, seat)
                assert not places[mask[: data.NUM_CELLS] == 0].any()
                move_mask = mask[MOVE_BASE : MOVE_BASE + data.NUM_COLOURS * MOVE_TARGETS]
                assert not moves.reshape(-1, observe.MOVE_FEATURES)[move_mask == 0].any()
            env.step(int(rng.choice(env.legal_actions())))
        places, moves, distance = preview(env.get_state(), 0)
        assert not places.any() and not moves.any(), "after the end: no decision"


def walks_to_temple(tiles: np.ndarray, position: int, beach: int, temple: int) -> tuple[bool, set[int]]:
    """Whether a way of laid tiles leads the adventurer into its temple, and the laid fields
    it can walk to (other adventurers aside), by a plain search over the island."""
    if position == ON_BEACH:
        start = int(data.BEACH_CELL[beach])
        if not tiles[start] or not TILE_EXITS[tiles[start]] & data.BEACH_SIDE[beach]:
            return False, set()
        position = start
    seen, todo = {position}, [position]
    while todo:
        here = todo.pop()
        for way in range(4):
            there = int(data.NEIGHBOUR[here, way])
            if (
                there >= 0
                and there not in seen
                and tiles[there]
                and TILE_EXITS[tiles[here]] & data.DIRECTIONS[way]
                and TILE_EXITS[tiles[there]] & data.OPPOSITE[way]
            ):
                seen.add(there)
                todo.append(there)
    door = int(data.JUNGLE_CELL[temple])
    return door in seen and bool(TILE_EXITS[tiles[door]] & data.JUNGLE_SIDE[temple]), seen


def preview_by_search(state: np.ndarray, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """place_preview and move_preview as their definitions read, one search per decision: the
    bot's temple_distance on the island with the tile laid or the adventurer moved."""
    places = np.zeros((data.NUM_CELLS, data.NUM_COLOURS, observe.PLACE_FEATURES), np.float32)
    moves = np.zeros((data.NUM_COLOURS, MOVE_TARGETS, observe.MOVE_FEATURES), np.float32)
    mask = np.zeros(N_ACTIONS, np.int8)
    if not kernels.legal_mask(state, seat, mask) or state[PHASE] != PHASE_PLAY:
        return places, moves
    tile = int(state[STACK + state[TILES_REVEALED] - 1])
    tiles = state[CELL_TILE + seat * data.NUM_CELLS : CELL_TILE + (seat + 1) * data.NUM_CELLS].copy()
    positions = state[ADVENTURER_POS + seat * 4 : ADVENTURER_POS + (seat + 1) * 4].copy()
    gain = lambda steps: min(max(steps, 0) / 8, 1.0)  # noqa: E731
    for colour in range(data.NUM_COLOURS):
        if positions[colour] == IN_TEMPLE:
            continue
        beach, temple = state[ADVENTURER_BEACH + colour] - 1, state[TEMPLE_JUNGLE + colour] - 1
        now = temple_distance(tiles, positions, colour, beach, temple, new_scratch())
        joined, _ = walks_to_temple(tiles, positions[colour], beach, temple)
        for field in np.flatnonzero(mask[: data.NUM_CELLS]):
            trial = tiles.copy()
            trial[field] = tile
            after = temple_distance(trial, positions, colour, beach, temple, new_scratch())
            joins, walkable = walks_to_temple(trial, positions[colour], beach, temple)
            places[field, colour] = (
                gain(now - after),
                gain(after - now),
                joins and not joined,
                data.ITEM_POINTS[TILE_ITEM[tile]] / 2 if field in walkable else 0,
            )
        for target in range(MOVE_TARGETS):
            if not mask[MOVE_BASE + colour * MOVE_TARGETS + target]:
                continue
            treasure = item = left = 0
            if target == TEMPLE_TARGET:
                treasure = data.TREASURE_VALUES[state[NUM_PLAYERS], state[STACK_TAKEN + colour]] / 5
            else:
                moved = positions.copy()
                moved[colour] = target
                left = temple_distance(tiles, moved, colour, beach, temple, new_scratch())
                item = data.ITEM_POINTS[state[CELL_ITEM + seat * data.NUM_CELLS + target]] / 2
            moves[colour, target] = (gain(now - left), gain(left - now), left / 30, treasure, item)
    return places, moves


@pytest.mark.parametrize("num_players", [2, 4])
def test_preview_is_the_bots_look_ahead_for_every_decision(num_players):
    """Read from two cost maps per adventurer, the preview is what one search per decision gives,
    on the positions of bot and random games and on random islands."""
    rng = np.random.default_rng(num_players)
    aec = TreasureAECEnv(GAME, num_players=num_players)
    positions = 0
    for game in range(2):
        aec.reset(seed=game)
        bots = [KarubaBot(seat) for seat in range(num_players)]
        while not aec.is_over():
            state = aec.get_state()
            seat = int(state[CURRENT_PLAYER])
            places, moves, _ = preview(state, seat)
            expected_places, expected_moves = preview_by_search(state, seat)
            np.testing.assert_allclose(places, expected_places, atol=1e-7)
            np.testing.assert_allclose(moves, expected_moves, atol=1e-7)
            positions += 1
            if game == 0:
                aec.step(bots[seat].act(aec, aec.agent_selection))
            else:
                aec.step(int(rng.choice(aec.legal_actions())))
    for _ in range(60):  # random islands: random tiles, adventurers on some of them
        state = fresh(num_players, seed=int(rng.integers(1000)))
        tiles = np.where(rng.random(data.NUM_CELLS) < rng.random(), rng.integers(1, 37, data.NUM_CELLS), 0)
        state[CELL_TILE : CELL_TILE + data.NUM_CELLS] = tiles
        state[CELL_ITEM : CELL_ITEM + data.NUM_CELLS] = TILE_ITEM[tiles]
        spots = rng.permutation(np.flatnonzero(tiles))[: rng.integers(0, 5)]
        state[ADVENTURER_POS : ADVENTURER_POS + len(spots)] = spots
        if rng.random() < 0.3:
            state[ADVENTURER_POS + 3] = IN_TEMPLE
        places, moves, _ = preview(state, 0)
        expected_places, expected_moves = preview_by_search(state, 0)
        np.testing.assert_allclose(places, expected_places, atol=1e-7)
        np.testing.assert_allclose(moves, expected_moves, atol=1e-7)
    assert positions > 100


def test_preview_depends_only_on_what_the_seat_may_know():
    # Seats 0-2 have decided on the tile showing; seat 3 has not. Re-dealing what seat 3 cannot
    # know (the undrawn order, the others' pending decisions) leaves its preview as it was.
    state = build(current=NES, islands={3: ROW_3, 0: ROW_3}, adventurers={3: {BROWN: (3, 5)}}, num_players=4)
    for action in (move(BROWN, (3, 2)), cell(2, 2), DISCARD):
        kernels.step(state, action)
    before = preview(state, 3)
    assert before[1][BROWN, TEMPLE_TARGET, observe.MOVE_TREASURE] == 1
    for seed in range(10):
        twin = state.copy()
        kernels.resample_hidden(twin, 3, seed)
        for part, again in zip(before, preview(twin, 3), strict=True):
            assert np.array_equal(part, again)
    # A seat that has decided has nothing to preview; its distances stay.
    places, moves, distance = preview(state, 0)
    assert not places.any() and not moves.any() and distance[BROWN] > 0


def test_describe_and_render():
    state = build(current=NES, islands={0: ROW_3}, adventurers={0: {BROWN: (3, 4)}}, num_players=2)
    assert render.describe_action(state, move(BROWN, (3, 5))).endswith("to row 3 col 5 (collect a crystal)")
    assert render.describe_action(state, move(BROWN, "temple")).endswith("into its temple")
    assert render.describe_action(state, DISCARD) == f"discard tile {NES} without moving"
    assert render.describe_action(state, cell(2, 3)).startswith(f"lay tile {NES} ")
    text = render.render_ansi(state, colour=False)
    assert "player_0" in text and "player_1" in text and "┼" not in text.splitlines()[3]
    image = render.render_rgb(state)
    assert image.shape == (7 * 16, 2 * 8 * 16, 3) and image.dtype == np.uint8
    draft = fresh(2, layout="draft")
    assert "draft" in render.render_ansi(draft)
    assert render.describe_action(draft, DRAFT_ADVENTURER_BASE + 12) == "place the blue adventurer on beach 2"


@pytest.mark.parametrize("layout", ["random", "draft"])
def test_play_karuba_from_the_keyboard(monkeypatch, capsys, layout):
    """`treasure-envs play karuba` plays a whole game from typed answers (the draft too)."""
    import builtins

    from treasure_apps.cli import main

    answers = iter(["hello", "999"])

    def fake_input(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            return prompt.split("(")[1].split(",")[0].split(" ")[0]  # the first legal move

    monkeypatch.setattr(builtins, "input", fake_input)
    assert main(["play", "karuba", "--seed", "2", "--players", "2", "--option", f"layout={layout}"]) == 0
    out = capsys.readouterr().out
    assert "not a legal move: 'hello'" in out and "not a legal move: '999'" in out
    assert "game over" in out and "(you)" in out and "score" in out


# -- states from outside (issue 18): refused with the field named, the env unchanged ---------
def _loaded(seed: int = 0, steps: int = 10, **options) -> tuple[TreasureAECEnv, np.ndarray]:
    env = TreasureAECEnv(GAME, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        env.step(int(rng.choice(env.legal_actions())))
    return env, env.get_state()


def _refused(env: TreasureAECEnv, state: np.ndarray, field: str) -> None:
    before = env.get_state()
    with pytest.raises(ValueError, match=field):
        env.set_state(state)
    assert np.array_equal(env.get_state(), before), "a refused state changed the env"
    assert env.legal_actions(), "the env plays on"


def test_a_beach_far_off_the_island_is_refused_before_legal_actions_reads_it():
    # Was: s[ADVENTURER_BEACH] = -100; e.set_state(s); e.legal_actions() -> SIGSEGV.
    env, state = _loaded()
    state[ADVENTURER_BEACH] = -100
    _refused(env, state, r"ADVENTURER_BEACH\[0\]")


def test_a_state_for_other_options_is_refused_naming_the_option():
    env, _ = _loaded(seed=1)
    _, state = _loaded(seed=1, distance_rule="difference")
    _refused(env, state, "DISTANCE_RULE")
    _, state = _loaded(seed=1, steps=1, layout="draft")
    _refused(env, state, "layout")


def test_consistency_checks_name_what_is_wrong():
    env, base = _loaded(seed=2, steps=9)  # 4 players: two seats have decided on the tile showing
    state = base.copy()
    state[CELL_TILE + 3 * data.NUM_CELLS] = state[STACK + state[TILES_REVEALED] - 1]
    _refused(env, state, "already laid")
    state = base.copy()
    state[PENDING + 3] = DISCARD  # seat 3 is still to decide
    _refused(env, state, "pending")
    state = base.copy()
    state[STACK_TAKEN] = 4  # the brown stack emptied with nobody in the brown temple
    _refused(env, state, "not conserved")
    draft, base = _loaded(seed=2, steps=1, layout="draft")  # one adventurer placed, its temple next
    state = base.copy()
    state[DRAFT_COLOUR] = NO_COLOUR
    _refused(draft, state, "without its temple")
    state = base.copy()
    state[CURRENT_PLAYER] = 1
    _refused(draft, state, "round the table")


def test_the_last_tile_must_be_the_one_resolved_last():
    """Issue 25: LAST_TILE is the tile before the one showing, and a seat that laid it holds it."""
    env, base = _loaded(seed=2, steps=12)  # 4 players: three tiles resolved
    revealed = int(base[TILES_REVEALED])
    assert revealed >= 3 and base[LAST_TILE] == base[STACK + revealed - 2]
    state = base.copy()
    state[LAST_TILE] = state[STACK + revealed - 3]  # revealed and resolved, but not the last
    _refused(env, state, "LAST_TILE")
    state = base.copy()
    state[LAST_TILE] = state[STACK + revealed - 1]  # the tile showing, not yet resolved
    _refused(env, state, "LAST_TILE")
    placed = [p for p in range(4) if base[LAST_ACTION + p] < data.NUM_CELLS]
    if placed:
        seat, cell = placed[0], int(base[LAST_ACTION + placed[0]])
        free = next(
            c for c in range(data.NUM_CELLS) if base[CELL_TILE + seat * data.NUM_CELLS + c] == NO_TILE
        )
        state = base.copy()
        state[LAST_ACTION + seat] = free  # laid elsewhere than where the tile lies
        _refused(env, state, f"seat {seat} laid tile")
        assert cell != free


def test_every_real_state_is_accepted_as_it_is():
    for options in ({}, {"layout": "draft", "num_players": 3}):
        env, _ = _loaded(seed=4, steps=0, **options)
        rng = np.random.default_rng(4)
        while not env.is_over():
            env.set_state(env.get_state())
            env.step(int(rng.choice(env.legal_actions())))
        env.set_state(env.get_state())
