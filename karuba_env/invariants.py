"""Invariants of a Karuba state: the rules that must hold in every reachable state, checked in
pure Python and numpy, independently of the kernels (scores are recomputed here). The
conformance suite's fuzz calls check_invariants after every step."""

from __future__ import annotations

import numpy as np

from karuba_env import data, kernels
from karuba_env.state import (
    ADVENTURER_BEACH,
    ADVENTURER_POS,
    CELL_ITEM,
    CELL_TILE,
    CRYSTALS_COLLECTED,
    DISTANCE_RULE,
    DRAFT_COLOUR,
    DRAFT_PICKS,
    END_CONDITION,
    END_NONE,
    END_TEMPLES,
    END_TILES,
    GOLD_COLLECTED,
    IN_TEMPLE,
    LAST_ACTION,
    LAST_TILE,
    LAYOUT_DRAFT,
    LAYOUT_FIXED,
    N_ACTIONS,
    NO_ACTION,
    NO_COLOUR,
    NO_TILE,
    NOT_PLACED,
    ON_BEACH,
    P_DISTANCE_RULE,
    P_FIXED_BEACH,
    P_FIXED_JUNGLE,
    P_LAYOUT,
    PENDING,
    PHASE,
    PHASE_DRAFT,
    PHASE_PLAY,
    PLACE_BASE,
    STACK,
    STACK_TAKEN,
    TEMPLE_JUNGLE,
    TIE_CRYSTALS,
    TILES_REVEALED,
    TREASURE,
)
from treasure_core.header import CURRENT_PLAYER, DECISIONS, NUM_PLAYERS, TERMINAL


def validate_state(state: np.ndarray, params: np.ndarray) -> str | None:
    """What in a state (fields in range) disagrees with the env's options, or None."""
    rule = int(params[P_DISTANCE_RULE])
    if int(state[DISTANCE_RULE]) != rule:
        return f"DISTANCE_RULE is {int(state[DISTANCE_RULE])}; the option distance_rule gives {rule}"
    layout = int(params[P_LAYOUT])
    picks = int(state[DRAFT_PICKS])
    if layout != LAYOUT_DRAFT and (state[PHASE] != PHASE_PLAY or picks != 0):
        return f"PHASE is {int(state[PHASE])}, DRAFT_PICKS {picks}; the option layout has no draft"
    if layout == LAYOUT_DRAFT and state[PHASE] == PHASE_PLAY and picks != data.NUM_COLOURS:
        return f"DRAFT_PICKS is {picks} in play; layout='draft' places all {data.NUM_COLOURS} pairs"
    if layout == LAYOUT_FIXED:
        for field, offset, name in (
            (ADVENTURER_BEACH, P_FIXED_BEACH, "ADVENTURER_BEACH"),
            (TEMPLE_JUNGLE, P_FIXED_JUNGLE, "TEMPLE_JUNGLE"),
        ):
            got = state[field : field + data.NUM_COLOURS].tolist()
            wanted = params[offset : offset + data.NUM_COLOURS].tolist()
            if got != wanted:
                return f"{name} is {got}; the option layout gives {wanted}"
    return None


def check_invariants(state: np.ndarray) -> None:
    """Raise AssertionError if the state breaks a rule that must always hold."""
    s = state.tolist()
    n = s[NUM_PLAYERS]
    seats, colours, cells = data.MAX_PLAYERS, data.NUM_COLOURS, data.NUM_CELLS
    assert data.MIN_PLAYERS <= n <= data.MAX_PLAYERS, f"num_players {n}"
    assert 0 <= s[CURRENT_PLAYER] < n, "current player out of range"
    phase = s[PHASE]
    assert phase in (PHASE_DRAFT, PHASE_PLAY), f"phase {phase}"
    # The stack is a permutation of the 36 tiles.
    stack = s[STACK : STACK + data.NUM_TILES]
    assert sorted(stack) == list(range(1, data.NUM_TILES + 1)), "the stack is not the 36 tiles"
    revealed = s[TILES_REVEALED]
    seen = set(stack[:revealed])
    # The layout: distinct beach and jungle numbers, each pair obeying the distance rule.
    beaches = s[ADVENTURER_BEACH : ADVENTURER_BEACH + colours]
    jungles = s[TEMPLE_JUNGLE : TEMPLE_JUNGLE + colours]
    placed = [b for b in beaches if b != NOT_PLACED]
    assert len(placed) == len(set(placed)), f"two adventurers share a beach space: {beaches}"
    temples = [j for j in jungles if j != NOT_PLACED]
    assert len(temples) == len(set(temples)), f"two temples share a jungle space: {jungles}"
    for c in range(colours):
        if beaches[c] != NOT_PLACED and jungles[c] != NOT_PLACED:
            assert kernels.distance_allowed(s[DISTANCE_RULE], beaches[c], jungles[c]), f"colour {c} too close"
    drafting = s[DRAFT_COLOUR]
    if phase == PHASE_PLAY:
        assert revealed >= 1, "in play a tile is showing"
        assert NOT_PLACED not in beaches and NOT_PLACED not in jungles, "layout incomplete in play"
        assert drafting == NO_COLOUR, f"DRAFT_COLOUR {drafting} in play"
    else:
        assert revealed == 0, "no tile is revealed during the draft"
        assert s[DRAFT_PICKS] == len(temples) < colours, f"DRAFT_PICKS {s[DRAFT_PICKS]}, temples {jungles}"
        # A pair is placed adventurer first, then its temple by the same player.
        for c in range(colours):
            assert jungles[c] == NOT_PLACED or beaches[c] != NOT_PLACED, f"colour {c}: a temple first"
        if drafting == NO_COLOUR:
            assert len(placed) == len(temples), f"an adventurer without its temple: {beaches}, {jungles}"
        else:
            assert beaches[drafting] != NOT_PLACED and jungles[drafting] == NOT_PLACED, "DRAFT_COLOUR"
            assert len(placed) == len(temples) + 1, f"DRAFT_COLOUR {drafting}: {beaches}, {jungles}"
        assert s[CURRENT_PLAYER] == s[DRAFT_PICKS] % n, "pairs go round the table"
    # Treasure stacks are conserved: taken + remaining = the player count's stack.
    values = data.TREASURE_VALUES[n].tolist()
    treasure = state[TREASURE : TREASURE + seats * colours].reshape(seats, colours)
    tie = state[TIE_CRYSTALS : TIE_CRYSTALS + seats * colours].reshape(seats, colours)
    positions = state[ADVENTURER_POS : ADVENTURER_POS + seats * colours].reshape(seats, colours)
    assert not treasure[n:].any() and not tie[n:].any(), "treasure held by a seat not in the game"
    for c in range(colours):
        taken = s[STACK_TAKEN + c]
        assert 0 <= taken <= n, f"stack {c}: {taken} taken"
        held = sorted((v for v in treasure[:n, c].tolist() if v != 0), reverse=True)
        assert held == values[:taken], f"stack {c} not conserved: {held}, {taken} taken"
    reached = positions[:n] == IN_TEMPLE
    assert ((treasure[:n] != 0) == reached).all(), "a treasure without its adventurer in the temple"
    # Tie crystals make a treasure up to a more valuable one from the same stack.
    assert not tie[:n][~reached].any(), "tie crystals for a temple not reached"
    made_up = (treasure[:n] + tie[:n])[reached].tolist()
    assert (tie[:n] >= 0).all() and set(made_up) <= set(values[:n]), "tie crystals"
    islands = state[CELL_TILE : CELL_TILE + seats * cells].reshape(seats, cells)
    items = state[CELL_ITEM : CELL_ITEM + seats * cells].reshape(seats, cells)
    assert not islands[n:].any() and not items[n:].any(), "an island for a seat not in the game"
    assert not positions[n:].any(), "adventurers for a seat not in the game"
    for name, field in (
        ("PENDING", PENDING),
        ("LAST_ACTION", LAST_ACTION),
        ("CRYSTALS_COLLECTED", CRYSTALS_COLLECTED),
        ("GOLD_COLLECTED", GOLD_COLLECTED),
    ):
        assert not any(s[field + n : field + seats]), f"{name} for a seat not in the game"
    # The tile resolved last was revealed (and is not the one showing), and every player
    # decided on it.
    last_actions = s[LAST_ACTION : LAST_ACTION + n]
    last_tile = s[LAST_TILE]
    resolved = revealed if s[TERMINAL] else revealed - 1
    expected = int(stack[resolved - 1]) if resolved > 0 else NO_TILE  # the tile resolved last
    assert last_tile == expected, f"LAST_TILE {last_tile}: the tile resolved last is {expected}"
    if last_tile == NO_TILE:
        assert all(a == NO_ACTION for a in last_actions), f"LAST_ACTION {last_actions} before any tile"
    else:
        assert NO_ACTION not in last_actions, f"LAST_ACTION {last_actions}: everyone decided"
        for p in range(n):  # a seat that laid the last tile has it on that cell
            action = int(last_actions[p])
            if PLACE_BASE <= action < PLACE_BASE + cells:
                cell = islands[p][action - PLACE_BASE]
                assert cell == last_tile, f"seat {p} laid tile {last_tile} on a cell holding {cell}"
    for p in range(n):
        island, lying = islands[p].tolist(), items[p].tolist()
        tiles = [t for t in island if t != NO_TILE]
        # Each tile is used at most once, and only after it has been revealed.
        assert len(tiles) == len(set(tiles)), f"seat {p}: a tile is laid twice"
        assert set(tiles) <= seen, f"seat {p}: an unrevealed tile on the island"
        # Adventurers are on distinct tiles, and only on tiles.
        where = positions[p].tolist()
        on_cells = [x for x in where if x >= 0]
        assert len(on_cells) == len(set(on_cells)), f"seat {p}: two adventurers on one tile"
        for x in where:
            assert x in (ON_BEACH, IN_TEMPLE) or (0 <= x < cells and island[x] != NO_TILE), (
                f"seat {p}: at {x}"
            )
            assert x < 0 or lying[x] == data.NO_ITEM, "an adventurer stands on an uncollected item"
    # An item lies only on its own tile; items collected + items lying = items laid.
    laid = data.TILE_ITEM[islands[:n]]
    assert ((items[:n] == data.NO_ITEM) | (items[:n] == laid)).all(), "an item off its tile"
    for item, field in ((data.CRYSTAL, CRYSTALS_COLLECTED), (data.GOLD, GOLD_COLLECTED)):
        collected = np.array(s[field : field + n])
        assert (collected + (items[:n] == item).sum(1) == (laid == item).sum(1)).all(), f"items {item}"
    # Scores = temple treasures + tie crystals + crystals + 2 x gold; tie-break = tiles laid.
    points = np.zeros(n, np.int64)
    tiebreaks = np.zeros(n, np.int64)
    kernels.scores(state, points, tiebreaks)
    crystals = np.array(s[CRYSTALS_COLLECTED : CRYSTALS_COLLECTED + n])
    gold = np.array(s[GOLD_COLLECTED : GOLD_COLLECTED + n])
    expected = treasure[:n].sum(1) + tie[:n].sum(1) + crystals + 2 * gold
    assert (points == expected).all(), f"scores {points} != {expected}"
    assert (tiebreaks == (islands[:n] != NO_TILE).sum(1)).all(), "tie-breaks are the tiles laid"
    pending = s[PENDING : PENDING + seats]
    done = bool(reached.all(axis=1).any())
    # Every decision counts: two per pair drafted (adventurer, then temple), then one per seat
    # and tile.
    draft_decisions = 2 * s[DRAFT_PICKS] + (drafting != NO_COLOUR)
    if s[TERMINAL]:
        assert phase == PHASE_PLAY, "over during the draft"
        assert s[DECISIONS] == draft_decisions + revealed * n, f"DECISIONS {s[DECISIONS]} once over"
        assert all(a == NO_ACTION for a in pending[:n]), f"pending decisions {pending} once over"
        assert done or revealed == data.NUM_TILES, "ended early"
        assert s[END_CONDITION] == (END_TEMPLES if done else END_TILES), "end condition"
        return
    assert not done, "a player has every adventurer in a temple but the game goes on"
    assert s[END_CONDITION] == END_NONE
    if phase == PHASE_PLAY:
        # The tile showing has not been laid yet: decisions apply once everyone has decided.
        tile = stack[revealed - 1]
        assert not (islands[:n] == tile).any(), f"the tile showing, {tile}, is already laid"
    else:
        assert all(a == NO_ACTION for a in pending[:n]), f"pending decisions {pending} in the draft"
    current = s[CURRENT_PLAYER]
    decided = current if phase == PHASE_PLAY else 0
    assert s[DECISIONS] == draft_decisions + (revealed - 1 if revealed else 0) * n + decided, "DECISIONS"
    mask = np.zeros(N_ACTIONS, np.int8)
    if phase == PHASE_PLAY:
        # Seats before the player to act have decided (hidden); the others have not.
        for p in range(n):
            assert (pending[p] != NO_ACTION) == (p < current), f"pending decisions {pending}"
            if p < current:
                kernels.player_legal_mask(state, p, mask)
                assert mask[pending[p]], f"seat {p}'s pending decision {pending[p]} is illegal"
    assert kernels.legal_mask(state, current, mask) > 0, "a live game with no legal action"
