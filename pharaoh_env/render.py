"""Text (ANSI) and picture renderings of a Het goud van de Farao state, and action names.

Renderings show only public information, plus the values `viewer` knows when one is given."""

from __future__ import annotations

import numpy as np

from pharaoh_env.data import (
    CHAMBER,
    COLS,
    DIRECTION_NAMES,
    MASK_SLOT,
    NEIGHBOUR,
    NUM_CELLS,
    NUM_PHOTOS,
    NUM_SLOTS,
    PHOTO_CURSE,
    PHOTO_MUMMY,
    PHOTO_TREASURES,
    PLAYER_COLOURS,
    ROWS,
    START_CELL,
    TILE_EXITS,
    TILE_KIND,
    TILE_NAMES,
    guard_rounds,
    rotate_exits,
)
from pharaoh_env.kernels import rotation_target, value_known
from pharaoh_env.state import (
    ACTIONS,
    ACTIONS_USED,
    ARCH_CELL,
    ARCH_DISCOVER,
    ARCH_LAMP,
    ARCH_MOVE,
    BANKED,
    CARRIED,
    CELL_EXITS,
    CELL_STATUS,
    CELL_TILE,
    CLOSED,
    COLLAPSE,
    COLLAPSE_PLAYER,
    COLLAPSE_RING,
    EVENT_CURSE,
    EVENT_MUMMY,
    EVENT_RING,
    FINDER,
    HELPER_CELL,
    HELPER_LAMP,
    HELPER_MOVE,
    HELPER_ROTATE,
    LAMP,
    LAMP_LOST,
    LAMP_SUPPLY,
    LAST_EVENT,
    LAST_PLAYER,
    LYING,
    MASK_CELL,
    NOWHERE,
    OPEN,
    ORIENT,
    PASS,
    PENDING_CELL,
    PHASE,
    PHASE_ORIENT,
    PHASE_PHOTO,
    PHOTO,
    PHOTO_OWNER,
    PHOTOS_TAKEN,
    ROTATE_TURNS,
    ROUNDS_DONE,
    SLOT_AT,
    SLOT_STATE,
    SLOT_VALUE,
    STEAL,
    TAKE,
    TIMER,
    TURN,
)
from treasure_core.ansi import paint
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL

_ANSI = ("\x1b[31m", "\x1b[34m", "\x1b[32m", "\x1b[33m")
_RGB = np.array([(220, 50, 50), (60, 100, 230), (40, 170, 60), (240, 210, 40)], dtype=np.uint8)
_SIDES = "NESW"
ROW_LABEL = 6  # characters before each line of tiles: "row 1 "


def cell_words(cell: int) -> str:
    if cell == START_CELL:
        return "the start tile"
    return f"row {cell // COLS + 1} col {cell % COLS + 1}"


def exits_words(exits: int) -> str:
    return "".join(_SIDES[k] for k in range(4) if exits >> k & 1) or "-"


def photo_words(photo: int) -> str:
    treasures = int(PHOTO_TREASURES[photo])
    extra = ", the mummy" if PHOTO_MUMMY[photo] else ", the curse" if PHOTO_CURSE[photo] else ""
    return f"photograph {photo} ({treasures} treasure{'s' if treasures != 1 else ''}{extra})"


def slot_words(state: np.ndarray, slot: int, viewer: int | None) -> str:
    if slot == MASK_SLOT:
        return "the death mask (5)"
    known = viewer is not None and bool(value_known(state, slot, viewer))
    value = f"{int(state[SLOT_VALUE + slot])}" if known else "?"
    return f"treasure {slot} ({value})"


def describe_action(state: np.ndarray, action: int, seat: int | None = None) -> str:
    """Words for an action of `seat` (default: the player to act), as `play` lists them."""
    block, index = ACTIONS.block_of(int(action))
    seat = int(state[CURRENT_PLAYER]) if seat is None else seat
    if block == ARCH_MOVE:
        return f"archaeologist to {cell_words(index)}"
    if block == HELPER_MOVE:
        return f"helper to {cell_words(index)}"
    if block == ARCH_DISCOVER:
        arch = int(state[ARCH_CELL + seat])
        target = int(NEIGHBOUR[arch, index]) if arch >= 0 else -1
        where = f" ({cell_words(target)})" if target >= 0 else ""
        return f"archaeologist discovers the tile to the {DIRECTION_NAMES[index]}{where}"
    if block in (ARCH_LAMP, HELPER_LAMP):
        figure = "archaeologist" if block == ARCH_LAMP else "helper"
        return f"{figure} {'picks up' if index else 'places'} a lamp"
    if block == TAKE:
        return f"pick up {slot_words(state, index, seat)} (free)"
    if block == STEAL:
        holder = int(state[SLOT_AT + index])
        return f"steal {slot_words(state, index, seat)} from player_{holder} (free)"
    if block == HELPER_ROTATE:
        target, turns = divmod(index, ROTATE_TURNS)
        what = "its own tile" if target == 0 else f"the tile to the {DIRECTION_NAMES[target - 1]}"
        return f"helper rotates {what} by {90 * (turns + 1)} degrees clockwise"
    if block == ORIENT:
        cell = int(state[PENDING_CELL])
        if cell >= 0:
            tile = int(state[CELL_TILE + cell])
            exits = rotate_exits(int(TILE_EXITS[tile]), index)
            return f"lay the {TILE_NAMES[tile]} with exits {exits_words(exits)}"
        return f"orientation {index}"
    if block == PHOTO:
        return f"take {photo_words(index)}"
    assert block == PASS
    return "end the turn"


def _figures(state: np.ndarray, cell: int, field: int, use_colour: bool) -> str:
    n = int(state[NUM_PLAYERS])
    return "".join(paint(str(p), _ANSI[p], use_colour) for p in range(n) if state[field + p] == cell)


def _pad(text: str, visible: int, width: int) -> str:
    return text + " " * max(0, width - visible)


def _cell_lines(state: np.ndarray, cell: int, use_colour: bool) -> list[str]:
    status = int(state[CELL_STATUS + cell])
    if status == CLOSED:
        return ["░░░░░░░░░"] * 5
    if status != OPEN:
        return ["         "] * 5
    n = int(state[NUM_PLAYERS])
    exits = int(state[CELL_EXITS + cell])
    wall = "▓" if TILE_KIND[int(state[CELL_TILE + cell])] == CHAMBER else "█"
    top = wall * 2 + ("     " if exits & 1 else wall * 5) + wall * 2
    bottom = wall * 2 + ("     " if exits & 4 else wall * 5) + wall * 2
    west = "  " if exits & 8 else wall * 2
    east = "  " if exits & 2 else wall * 2
    archs = [p for p in range(n) if state[ARCH_CELL + p] == cell]
    helpers = [p for p in range(n) if state[HELPER_CELL + p] == cell]
    lamps = [p for p in range(n) if state[LAMP + p * NUM_CELLS + cell]]
    lying = sum(1 for s in range(NUM_SLOTS) if state[SLOT_STATE + s] == LYING and state[SLOT_AT + s] == cell)
    rows = []
    for letter, players in (("A", archs), ("h", helpers), ("l", lamps)):
        text = letter + "".join(paint(str(p), _ANSI[p], use_colour) for p in players) if players else ""
        rows.append((text, 1 + len(players) if players else 0))
    marks = ("$" + str(lying) if lying else "") + ("M" if cell == state[MASK_CELL] else "")
    if cell == START_CELL:
        marks = "START"
    if marks:
        # The third row holds the lamps and the marks; lamps as a count when both do not fit.
        text, visible = rows[2]
        if visible + len(marks) > 5:
            text, visible = f"l{len(lamps)}", 2
        rows[2] = (text + marks, visible + len(marks)) if visible + len(marks) <= 5 else (marks, len(marks))
    middle = [west + _pad(text, visible, 5) + east for text, visible in rows]
    return [top, *middle, bottom]


def _player_line(state: np.ndarray, p: int, viewer: int | None) -> str:
    arch, helper = int(state[ARCH_CELL + p]), int(state[HELPER_CELL + p])
    photos = [f for f in range(NUM_PHOTOS) if state[PHOTO_OWNER + f] == p]
    banked = [s for s in range(NUM_SLOTS) if state[SLOT_STATE + s] == BANKED and state[SLOT_AT + s] == p]
    carried = [s for s in range(NUM_SLOTS) if state[SLOT_STATE + s] == CARRIED and state[SLOT_AT + s] == p]
    arch_text = "lost (-2)" if arch == NOWHERE else cell_words(arch)
    helper_text = "lost (-1)" if helper == NOWHERE else cell_words(helper)
    tag = " (you)" if p == viewer else ""
    return (
        f"player_{p} {PLAYER_COLOURS[p]}{tag}: archaeologist {arch_text}, helper {helper_text}; "
        f"lamps {int(state[LAMP_SUPPLY + p])} in hand"
        + (f", {int(state[LAMP_LOST + p])} lost" if state[LAMP_LOST + p] else "")
        + f"; photos {len(photos)}; banked "
        + (", ".join(slot_words(state, s, viewer) for s in banked) or "none")
        + (f"; carrying {', '.join(slot_words(state, s, viewer) for s in carried)}" if carried else "")
    )


def render_ansi(state: np.ndarray, viewer: int | None = None, colour: bool = True) -> str:
    """The 6 x 6 pyramid (closed tiles shaded, walls solid, chambers ▓, removed tiles blank; A
    archaeologists, h helpers, l lamps by player digit, $n treasures lying, M the mask's
    chamber) and every player's figures, lamps, photographs and treasures. Treasure values
    show only as `viewer` knows them."""
    n = int(state[NUM_PLAYERS])
    # Column labels over the tiles, row labels beside them (cell_words' "row r col c").
    lines = [" " * ROW_LABEL + " ".join(f"col {col + 1}".center(9) for col in range(COLS))]
    for row in range(ROWS):
        blocks = [_cell_lines(state, row * COLS + col, colour) for col in range(COLS)]
        for k in range(5):
            label = f"row {row + 1}" if k == 2 else ""
            lines.append(label.ljust(ROW_LABEL) + " ".join(block[k] for block in blocks))
    lines.append("░ face down  █ walls  ▓ chamber  A archaeologist  h helper  l lamp  $n treasures  M mask")
    for p in range(n):
        lines.append(_player_line(state, p, viewer))
    lying = [s for s in range(NUM_SLOTS) if state[SLOT_STATE + s] == LYING]
    if lying:
        lines.append(
            "lying: "
            + "; ".join(
                f"{slot_words(state, s, viewer)} on {cell_words(int(state[SLOT_AT + s]))}" for s in lying
            )
        )
    camera = [f for f in range(NUM_PHOTOS) if state[PHOTO_OWNER + f] < 0]
    lines.append(
        f"chambers found {int(state[PHOTOS_TAKEN])} of {NUM_PHOTOS}; photographs in the camera {len(camera)}"
    )
    if state[MASK_CELL] >= 0:
        if state[COLLAPSE]:
            lines.append(
                f"THE PYRAMID IS COLLAPSING: ring {int(state[COLLAPSE_RING])} goes at the end of "
                f"player_{int(state[COLLAPSE_PLAYER])}'s turn"
            )
        else:
            lines.append(
                f"the mask lies on {cell_words(int(state[MASK_CELL]))}; "
                f"found by player_{int(state[FINDER])}; timer {int(state[TIMER])} of 3"
            )
    events = int(state[LAST_EVENT])
    said = [
        word
        for bit, word in (
            (EVENT_MUMMY, "the mummy awoke"),
            (EVENT_CURSE, "the curse blew out lamps"),
            (EVENT_RING, "a ring collapsed"),
        )
        if events & bit
    ]
    if said:
        lines.append(f"last decision (player_{int(state[LAST_PLAYER])}): " + ", ".join(said))
    if state[TERMINAL]:
        # The rules' only end (the guard truncates; below).
        lines.append("game over: the pyramid collapsed, only the start tile remains")
    elif int(state[ROUNDS_DONE]) >= guard_rounds(n):
        lines.append(
            f"game cut: the round limit ({guard_rounds(n)} rounds) was reached, a truncation with no winner"
        )
    else:
        player = int(state[CURRENT_PLAYER])
        what = {PHASE_ORIENT: "orients the tile just opened", PHASE_PHOTO: "chooses a photograph"}.get(
            int(state[PHASE]), f"has used {int(state[ACTIONS_USED])} of 3 actions"
        )
        lines.append(f"turn {int(state[TURN]) + 1}: player_{player} {what}")
    return "\n".join(lines)


def render_rgb(state: np.ndarray, cell: int = 24) -> np.ndarray:
    """An RGB picture of the pyramid: closed tiles brown, removed ones black, corridors sand on
    stone walls, chambers gold; archaeologists large squares, helpers small ones, lamps dots in
    the player's colour; treasures gold bars. Public information only."""
    image = np.full((ROWS * cell, COLS * cell, 3), 10, np.uint8)
    n = int(state[NUM_PLAYERS])
    third = cell // 3
    for index in range(NUM_CELLS):
        r, c = divmod(index, COLS)
        top, left = r * cell, c * cell
        status = int(state[CELL_STATUS + index])
        view = image[top + 1 : top + cell - 1, left + 1 : left + cell - 1]
        if status == CLOSED:
            view[:] = (110, 80, 50)
            continue
        if status != OPEN:
            continue
        chamber = TILE_KIND[int(state[CELL_TILE + index])] == CHAMBER
        view[:] = (90, 80, 70)
        floor = (230, 190, 90) if chamber else (215, 195, 150)
        if index == START_CELL:
            floor = (170, 220, 170)
        exits = int(state[CELL_EXITS + index])
        image[top + third : top + cell - third, left + third : left + cell - third] = floor
        if exits & 1:
            image[top : top + cell - third, left + third : left + cell - third] = floor
        if exits & 2:
            image[top + third : top + cell - third, left + third : left + cell] = floor
        if exits & 4:
            image[top + third : top + cell, left + third : left + cell - third] = floor
        if exits & 8:
            image[top + third : top + cell - third, left : left + cell - third] = floor
        for p in range(n):
            if state[LAMP + p * NUM_CELLS + index]:
                image[top + 1 + p * 3 : top + 3 + p * 3, left + cell - 4 : left + cell - 2] = _RGB[p]
            if state[ARCH_CELL + p] == index:
                y, x = top + third + (p // 2) * (third // 2), left + third + (p % 2) * (third // 2)
                image[y : y + third // 2, x : x + third // 2] = _RGB[p]
            if state[HELPER_CELL + p] == index:
                y, x = top + 2 + (p // 2) * 3, left + 2 + (p % 2) * 3
                image[y : y + 2, x : x + 2] = _RGB[p]
        lying = sum(
            1 for s in range(NUM_SLOTS) if state[SLOT_STATE + s] == LYING and state[SLOT_AT + s] == index
        )
        for k in range(lying):
            image[top + cell - 4 : top + cell - 2, left + 2 + 3 * k : left + 4 + 3 * k] = (255, 215, 0)
    return image


# -- the events since a player's last turn (play) ------------------------------------------
def describe_step(before: np.ndarray, action: int, after: np.ndarray, viewer: int | None = None) -> list[str]:
    """What one decision did, in public words (treasure values as `viewer` knows them): the
    action, the tile a discovery opened, the photograph drawn, the figures the mummy sent to the
    start, the lamps the curse blew out and the tiles a collapse removed."""
    player = int(before[CURRENT_PLAYER])
    block, index = ACTIONS.block_of(int(action))
    if block == TAKE:
        words = f"picks up {slot_words(before, index, viewer)}"
    elif block == STEAL:
        words = f"steals {slot_words(before, index, viewer)} from player_{int(before[SLOT_AT + index])}"
    else:
        words = describe_action(before, action, player)
    if block == HELPER_ROTATE and before[HELPER_CELL + player] >= 0:
        cell = int(rotation_target(before, int(before[HELPER_CELL + player]), index // ROTATE_TURNS))
        if cell >= 0:
            words += f" ({cell_words(cell)})"
    lines = [f"player_{player}: {words}"]
    n = int(before[NUM_PLAYERS])
    for cell in range(NUM_CELLS):
        if before[CELL_STATUS + cell] == CLOSED and after[CELL_STATUS + cell] == OPEN:
            lines.append(f"  it opened a {TILE_NAMES[int(after[CELL_TILE + cell])]} on {cell_words(cell)}")
    for photo in range(NUM_PHOTOS):
        if before[PHOTO_OWNER + photo] < 0 <= after[PHOTO_OWNER + photo]:
            lines.append(f"  player_{int(after[PHOTO_OWNER + photo])} drew {photo_words(photo)}")
    moved_by_player = {(player, "archaeologist")} if block == ARCH_MOVE else set()
    if block == HELPER_MOVE:
        moved_by_player = {(player, "helper")}
    for p in range(n):
        for figure, field in (("archaeologist", ARCH_CELL), ("helper", HELPER_CELL)):
            was, now = int(before[field + p]), int(after[field + p])
            if was == now or (p, figure) in moved_by_player:
                continue
            if now == START_CELL and was >= 0:
                lines.append(f"  the mummy sent player_{p}'s {figure} from {cell_words(was)} to the start")
            elif now < 0 <= was:
                lines.append(f"  player_{p}'s {figure} was lost in the collapse on {cell_words(was)}")
        for cell in range(NUM_CELLS):
            if before[LAMP + p * NUM_CELLS + cell] and not after[LAMP + p * NUM_CELLS + cell]:
                if after[CELL_STATUS + cell] == OPEN and not (block == HELPER_LAMP and p == player):
                    lines.append(f"  the curse blew out player_{p}'s lamp on {cell_words(cell)}")
    standing = (CLOSED, OPEN)
    gone = [
        c
        for c in range(NUM_CELLS)
        if before[CELL_STATUS + c] in standing and after[CELL_STATUS + c] not in standing
    ]
    if gone:
        lines.append(f"  the pyramid collapsed: {', '.join(cell_words(c) for c in gone)} fell")
    return lines
