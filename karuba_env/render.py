"""Text (ANSI) and picture renderings of a Karuba state."""

from __future__ import annotations

import numpy as np

from karuba_env.data import (
    BEACH_CELL,
    COLOUR_NAMES,
    COLS,
    CRYSTAL,
    GOLD,
    JUNGLE_CELL,
    NUM_BEACH,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_JUNGLE,
    NUM_TILES,
    ROWS,
    TILE_EXITS,
    TILE_ITEM,
    TREASURE_VALUES,
)
from karuba_env.state import (
    ACTIONS,
    ADVENTURER_BEACH,
    ADVENTURER_POS,
    CELL_ITEM,
    CELL_TILE,
    CRYSTALS_COLLECTED,
    DISCARD,
    DISCARD_ACTION,
    DRAFT_ADVENTURER,
    DRAFT_COLOUR,
    DRAFT_TEMPLE,
    END_CONDITION,
    END_NAMES,
    GOLD_COLLECTED,
    IN_TEMPLE,
    LAST_ACTION,
    LAST_TILE,
    MOVE_BASE,
    MOVE_TARGETS,
    NO_ACTION,
    NO_COLOUR,
    NO_TILE,
    NOT_PLACED,
    ON_BEACH,
    PENDING,
    PHASE,
    PHASE_DRAFT,
    PLACE,
    STACK,
    STACK_TAKEN,
    TEMPLE_JUNGLE,
    TEMPLE_TARGET,
    TIE_CRYSTALS,
    TILES_REVEALED,
    TREASURE,
)
from treasure_core.ansi import paint
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL

# One letter, ANSI colour and RGB colour per adventurer/temple colour (brown shows as N).
_LETTER = ("N", "B", "P", "Y")
_ANSI = ("\x1b[33m", "\x1b[34m", "\x1b[35m", "\x1b[93m")
_RGB = np.array([(140, 90, 40), (50, 90, 220), (150, 60, 190), (240, 220, 40)], dtype=np.uint8)
# Box-drawing glyph per exit set (bits N=1, E=2, S=4, W=8).
_GLYPH = {
    0: "·",
    10: "─",
    5: "│",
    6: "┌",
    12: "┐",
    3: "└",
    9: "┘",
    14: "┬",
    11: "┴",
    7: "├",
    13: "┤",
    15: "┼",
}
_SIDES = "NESW"


def _sides(exits: int) -> str:
    return "".join(_SIDES[k] for k in range(4) if exits >> k & 1)


def tile_words(tile: int) -> str:
    item = {CRYSTAL: ", crystal", GOLD: ", gold"}.get(int(TILE_ITEM[tile]), "")
    return f"tile {tile} {_GLYPH[int(TILE_EXITS[tile])]} ({_sides(int(TILE_EXITS[tile]))}{item})"


def cell_words(cell: int) -> str:
    return f"row {cell // COLS + 1} col {cell % COLS + 1}"


def _where(state: np.ndarray, seat: int, colour: int) -> str:
    position = int(state[ADVENTURER_POS + seat * NUM_COLOURS + colour])
    if position == ON_BEACH:
        return f"beach {int(state[ADVENTURER_BEACH + colour])}"
    if position == IN_TEMPLE:
        return "its temple"
    return cell_words(position)


def describe_action(state: np.ndarray, action: int, seat: int | None = None) -> str:
    """Words for an action of `seat` (default: the player to act), as `play` lists them."""
    block, index = ACTIONS.block_of(int(action))
    seat = int(state[CURRENT_PLAYER]) if seat is None else seat
    if block == DRAFT_TEMPLE:
        colour = int(state[DRAFT_COLOUR])
        name = COLOUR_NAMES[colour] if colour != NO_COLOUR else "?"
        return f"place the {name} temple on jungle {index + 1}"
    if block == DRAFT_ADVENTURER:
        colour, beach = divmod(index, NUM_BEACH)
        return f"place the {COLOUR_NAMES[colour]} adventurer on beach {beach + 1}"
    revealed = int(state[TILES_REVEALED])
    # Only a revealed tile is named: before the first (the draft) the stack's top is hidden.
    tile = int(state[STACK + revealed - 1]) if revealed > 0 else NO_TILE
    if block == PLACE:
        return f"lay {tile_words(tile) if tile != NO_TILE else 'the tile'} on {cell_words(index)}"
    if block == DISCARD_ACTION:
        return f"discard {_tile_label(tile)} without moving"
    colour, target = divmod(index, MOVE_TARGETS)
    start = _where(state, seat, colour)
    if target == TEMPLE_TARGET:
        return f"discard {_tile_label(tile)}, move {COLOUR_NAMES[colour]} from {start} into its temple"
    item = {CRYSTAL: " (collect a crystal)", GOLD: " (collect gold)"}.get(
        int(state[CELL_ITEM + seat * NUM_CELLS + target]), ""
    )
    destination = f"{cell_words(target)}{item}"
    return f"discard {_tile_label(tile)}, move {COLOUR_NAMES[colour]} from {start} to {destination}"


def _tile_label(tile: int) -> str:
    return f"tile {tile}" if tile != NO_TILE else "the tile"


def _outcome(action: int) -> str:
    """What a resolved decision did, in the past tense."""
    if action < MOVE_BASE:
        return f"laid it on {cell_words(action)}"
    if action == DISCARD:
        return "discarded it"
    colour, target = divmod(action - MOVE_BASE, MOVE_TARGETS)
    where = "into its temple" if target == TEMPLE_TARGET else f"to {cell_words(target)}"
    return f"discarded it and moved {COLOUR_NAMES[colour]} {where}"


def _paint(letter: str, colour: int, use_colour: bool) -> str:
    return paint(letter, _ANSI[colour], use_colour)


def _island_lines(state: np.ndarray, seat: int, use_colour: bool) -> list[str]:
    cells = [" · " for _ in range(NUM_CELLS)]
    for cell in range(NUM_CELLS):
        tile = int(state[CELL_TILE + seat * NUM_CELLS + cell])
        if tile != NO_TILE:
            item = {CRYSTAL: "*", GOLD: "$"}.get(int(state[CELL_ITEM + seat * NUM_CELLS + cell]), " ")
            cells[cell] = " " + _GLYPH[int(TILE_EXITS[tile])] + item
    beach = [f"{b + 1:>3}" for b in range(NUM_BEACH)]
    jungle = [f"{j + 1:>3}" for j in range(NUM_JUNGLE)]
    for c in range(NUM_COLOURS):
        position = int(state[ADVENTURER_POS + seat * NUM_COLOURS + c])
        if state[TEMPLE_JUNGLE + c] != NOT_PLACED:
            inside = _LETTER[c] if position == IN_TEMPLE else _LETTER[c].lower()
            jungle[int(state[TEMPLE_JUNGLE + c]) - 1] = " ^" + _paint(inside, c, use_colour)
        if state[ADVENTURER_BEACH + c] != NOT_PLACED:
            mark = _LETTER[c] if position == ON_BEACH else _LETTER[c].lower()
            beach[int(state[ADVENTURER_BEACH + c]) - 1] = " ." + _paint(mark, c, use_colour)
        if position >= 0:
            cells[position] = _paint(_LETTER[c], c, use_colour) + cells[position][1:]
    lines = ["   " + "".join(jungle[:COLS])]
    for row in range(ROWS):
        lines.append(beach[row] + "".join(cells[row * COLS : (row + 1) * COLS]) + jungle[COLS + row])
    lines.append("   " + "".join(beach[ROWS:]))
    return lines


def _summary(state: np.ndarray, seat: int) -> str:
    treasures = [
        f"{COLOUR_NAMES[c]} {int(state[TREASURE + seat * NUM_COLOURS + c])}"
        for c in range(NUM_COLOURS)
        if state[TREASURE + seat * NUM_COLOURS + c]
    ]
    tie = int(state[TIE_CRYSTALS + seat * NUM_COLOURS : TIE_CRYSTALS + (seat + 1) * NUM_COLOURS].sum())
    laid = int((state[CELL_TILE + seat * NUM_CELLS : CELL_TILE + (seat + 1) * NUM_CELLS] != NO_TILE).sum())
    crystals = int(state[CRYSTALS_COLLECTED + seat])
    gold = int(state[GOLD_COLLECTED + seat])
    score = (
        crystals
        + tie
        + 2 * gold
        + int(state[TREASURE + seat * NUM_COLOURS : TREASURE + (seat + 1) * NUM_COLOURS].sum())
    )
    return (
        f"temples: {', '.join(treasures) or 'none'}; crystals {crystals}"
        + (f" (+{tie} for ties)" if tie else "")
        + f", gold {gold}; tiles laid {laid}; score {score}"
    )


def render_ansi(state: np.ndarray, viewer: int | None = None, colour: bool = True) -> str:
    """Every island (all public) and the table; `viewer` adds that player's own decision on
    the tile showing. Never shows the undrawn order or another player's pending decision."""
    n = int(state[NUM_PLAYERS])
    lines = []
    for seat in range(n):
        tag = " (you)" if seat == viewer else ""
        lines.append(f"player_{seat}{tag}: {_summary(state, seat)}")
        lines += ["  " + line for line in _island_lines(state, seat, colour)]
    lines.append(
        "  ─│┌┐└┘┬┴├┤┼ paths  * crystal  $ gold  ^x temple (X: reached)  .X beach start (X: still there)"
    )
    lines.append("  colours: " + ", ".join(f"{_LETTER[c]} {COLOUR_NAMES[c]}" for c in range(NUM_COLOURS)))
    stacks = []
    for c in range(NUM_COLOURS):
        left = TREASURE_VALUES[n, int(state[STACK_TAKEN + c]) : n]
        stacks.append(f"{COLOUR_NAMES[c]} {' '.join(str(int(v)) for v in left) or '-'}")
    lines.append("treasures left: " + "; ".join(stacks))
    if state[LAST_TILE] != NO_TILE:
        done = [f"player_{p} {_outcome(int(state[LAST_ACTION + p]))}" for p in range(n)]
        lines.append(f"last tile {int(state[LAST_TILE])}: " + "; ".join(done))
    revealed = int(state[TILES_REVEALED])
    if state[TERMINAL]:
        lines.append(f"game over ({END_NAMES[int(state[END_CONDITION])]})")
    elif state[PHASE] == PHASE_DRAFT:
        lines.append(f"set-up draft: player_{int(state[CURRENT_PLAYER])} places an adventurer and its temple")
    else:
        tile = int(state[STACK + revealed - 1])
        decided = [p for p in range(n) if state[PENDING + p] != NO_ACTION]
        lines.append(
            f"{tile_words(tile)} showing ({revealed} of {NUM_TILES} revealed); "
            f"decided: {', '.join(f'player_{p}' for p in decided) or 'nobody'}; "
            f"player_{int(state[CURRENT_PLAYER])} to decide"
        )
        if viewer is not None and state[PENDING + viewer] != NO_ACTION:
            lines.append(f"your decision: {describe_action(state, int(state[PENDING + viewer]), viewer)}")
    return "\n".join(lines)


def render_rgb(state: np.ndarray, cell: int = 16) -> np.ndarray:
    """An RGB picture of every island side by side: each (ROWS+2) x (COLS+2) cells, the beach
    left and below, the jungle above and right. Public information only."""
    n = int(state[NUM_PLAYERS])
    grid_rows, grid_cols = ROWS + 2, COLS + 2
    image = np.full((grid_rows * cell, n * grid_cols * cell, 3), 30, np.uint8)
    half, width = cell // 2, max(2, cell // 5)

    def box(seat: int, r: int, c: int, colour, inset: int = 1) -> None:
        top, left = r * cell, (seat * grid_cols + c) * cell
        image[top + inset : top + cell - inset, left + inset : left + cell - inset] = colour

    def grid_of(cell_index: int) -> tuple[int, int]:
        return cell_index // COLS + 1, cell_index % COLS + 1

    for seat in range(n):
        for b in range(NUM_BEACH):
            r, c = grid_of(int(BEACH_CELL[b]))
            box(seat, r, 0, (225, 205, 150)) if b < ROWS else box(seat, ROWS + 1, c, (225, 205, 150))
        for j in range(NUM_JUNGLE):
            r, c = grid_of(int(JUNGLE_CELL[j]))
            box(seat, 0, c, (40, 110, 50)) if j < COLS else box(seat, r, COLS + 1, (40, 110, 50))
        for index in range(NUM_CELLS):
            r, c = grid_of(index)
            box(seat, r, c, (70, 140, 70))
            tile = int(state[CELL_TILE + seat * NUM_CELLS + index])
            if tile == NO_TILE:
                continue
            top, left = r * cell, (seat * grid_cols + c) * cell
            exits = int(TILE_EXITS[tile])
            path = (190, 150, 100)
            lo, hi = half - width // 2, half + (width + 1) // 2
            image[top + lo : top + hi, left + lo : left + hi] = path
            if exits & 1:
                image[top : top + hi, left + lo : left + hi] = path
            if exits & 2:
                image[top + lo : top + hi, left + lo : left + cell] = path
            if exits & 4:
                image[top + lo : top + cell, left + lo : left + hi] = path
            if exits & 8:
                image[top + lo : top + hi, left : left + hi] = path
            item = int(state[CELL_ITEM + seat * NUM_CELLS + index])
            if item:
                colour = (120, 220, 255) if item == CRYSTAL else (250, 200, 0)
                image[top + 1 : top + 1 + width, left + 1 : left + 1 + width] = colour
        for c in range(NUM_COLOURS):
            if state[TEMPLE_JUNGLE + c] != NOT_PLACED:
                j = int(state[TEMPLE_JUNGLE + c]) - 1
                r, col = grid_of(int(JUNGLE_CELL[j]))
                r, col = (0, col) if j < COLS else (r, COLS + 1)
                box(seat, r, col, _RGB[c] // 2, inset=2)
            position = int(state[ADVENTURER_POS + seat * NUM_COLOURS + c])
            if position == ON_BEACH and state[ADVENTURER_BEACH + c] != NOT_PLACED:
                b = int(state[ADVENTURER_BEACH + c]) - 1
                r, col = grid_of(int(BEACH_CELL[b]))
                r, col = (r, 0) if b < ROWS else (ROWS + 1, col)
            elif position == IN_TEMPLE:
                j = int(state[TEMPLE_JUNGLE + c]) - 1
                r, col = grid_of(int(JUNGLE_CELL[j]))
                r, col = (0, col) if j < COLS else (r, COLS + 1)
            elif position >= 0:
                r, col = grid_of(position)
            else:
                continue
            box(seat, r, col, _RGB[c], inset=cell // 4 + 1)
    return image


# -- the events since a player's last turn (play, serve) -------------------------------------
def describe_step(before: np.ndarray, action: int, after: np.ndarray, viewer: int | None = None) -> list[str]:
    """What one decision did, as `viewer` may know it: a draft placement is public; a decision
    on the tile showing stays secret (only that it was made) until every player has decided,
    then every player's decision on it is listed, and the next tile revealed."""
    player = int(before[CURRENT_PLAYER])
    if before[PHASE] == PHASE_DRAFT or player == viewer:
        lines = [f"player_{player}: {describe_action(before, action, player)}"]
    else:
        tile = int(before[STACK + int(before[TILES_REVEALED]) - 1])
        lines = [f"player_{player} decided on {tile_words(tile)} (secret until every player has)"]
    revealed = int(after[TILES_REVEALED])
    if before[PHASE] != PHASE_DRAFT and (revealed != int(before[TILES_REVEALED]) or after[TERMINAL]):
        n = int(after[NUM_PLAYERS])
        done = [f"player_{p} {_outcome(int(after[LAST_ACTION + p]))}" for p in range(n)]
        lines.append(f"  tile {int(after[LAST_TILE])}: " + "; ".join(done))
    if not after[TERMINAL] and after[PHASE] != PHASE_DRAFT and revealed != int(before[TILES_REVEALED]):
        lines.append(f"  revealed {tile_words(int(after[STACK + revealed - 1]))}")
    return lines
