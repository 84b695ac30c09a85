"""Text (ANSI) and picture renderings of a Treasures of Nakbe state."""

from __future__ import annotations

import numpy as np

from nakbe_env.data import (
    EXPLORER_NAMES,
    GRID_COLS,
    GRID_ROWS,
    GUARDIAN_ROOM_GRID,
    IS_LIGHTLESS,
    IS_TRAP,
    NUM_EXPLORERS,
    SLOT_VALUES,
    SPACE_GRID,
    TEAM_CARDS,
    TRACK_LENGTH,
)
from nakbe_env.kernels import advance, destination
from nakbe_env.state import (
    CHAMBER,
    DIE,
    END_CONDITION,
    EXITED,
    EXPLORER_DARK,
    EXPLORER_POS,
    EXPLORER_SLOT,
    GUARDIAN_POS,
    GUARDIAN_ROOM,
    LAST_EXPLORER,
    LAST_PLAYER,
    LAST_ROLL,
    LAST_TO,
    NO_SLOT,
    NO_TOKEN,
    NOBODY,
    ROUND,
    SPACE_TOKEN,
    TEAM_CARD,
    TOKEN_KINDS,
    TOKEN_VALUE_COUNTS,
)
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL

# One ANSI colour and one letter per explorer (brown is shown as yellow-on-dark, black as grey).
_ANSI = ("\x1b[35m", "\x1b[93m", "\x1b[32m", "\x1b[34m", "\x1b[31m", "\x1b[33m", "\x1b[90m")
_LETTER = ("P", "Y", "G", "B", "R", "N", "K")
_RGB = np.array(
    [
        (150, 60, 190),
        (240, 220, 40),
        (40, 170, 60),
        (50, 90, 220),
        (220, 40, 40),
        (140, 90, 40),
        (20, 20, 20),
    ],
    dtype=np.uint8,
)
_RESET = "\x1b[0m"
_DIM = "\x1b[2m"


def _explorer(e: int, dark: bool, colour: bool) -> str:
    letter = _LETTER[e].lower() if dark else _LETTER[e]
    return f"{_ANSI[e]}{letter}{_RESET}" if colour else letter


def _cell(state: np.ndarray, space: int, colour: bool) -> str:
    marks = ""
    if space == CHAMBER:
        label = "Ch"
    else:
        label = f"{space:2d}"
        marks += "$" if state[SPACE_TOKEN + space] != NO_TOKEN else ("^" if IS_TRAP[space] else " ")
        marks += "~" if IS_LIGHTLESS[space] else " "
    guardian = "@" if state[GUARDIAN_POS] == space else " "
    here = [e for e in range(NUM_EXPLORERS) if state[EXPLORER_POS + e] == space]
    if space == CHAMBER:
        return label + guardian + "".join(_explorer(e, False, colour) for e in here)
    who = _explorer(here[0], bool(state[EXPLORER_DARK + here[0]]), colour) if here else " "
    return f"{label}{marks}{guardian}{who}"


def describe_move(state: np.ndarray, explorer: int) -> str:
    """Words for moving `explorer` with the die showing (what `play` lists)."""
    start = int(state[EXPLORER_POS + explorer])
    landing = int(advance(state, start, state[DIE], explorer, False))
    end = int(destination(state, explorer, state[DIE]))
    where = "the chamber" if start == CHAMBER else f"space {start}"
    if end == EXITED:
        return f"{EXPLORER_NAMES[explorer]}: {where} -> exits the temple"
    notes = []
    if landing != end:
        notes.append(f"trap on {landing}")
    if state[SPACE_TOKEN + end] != NO_TOKEN:
        notes.append("treasure")
    extra = f" ({', '.join(notes)})" if notes else ""
    return f"{EXPLORER_NAMES[explorer]}: {where} -> space {end}{extra}"


def render_ansi(state: np.ndarray, viewer: int | None = None, colour: bool = True) -> str:
    """The board, the scoring board and the players; `viewer` adds that player's secrets."""
    width = 10  # the chamber: "Ch", the Guardian and up to 7 explorers
    rows = [[" " * width for _ in range(GRID_COLS)] for _ in range(GRID_ROWS)]
    for space in range(TRACK_LENGTH + 1):
        r, c = SPACE_GRID[space]
        text = _cell(state, space, colour)
        rows[r][c] = text + " " * max(0, width - _visible_len(text))
    room_r, room_c = GUARDIAN_ROOM_GRID
    room = "Rm@" if state[GUARDIAN_POS] == GUARDIAN_ROOM else "Rm "
    rows[room_r][room_c] = room + " " * (width - len(room))
    lines = ["  exit after space 47 (top right)"]
    lines += ["|" + "|".join(row) + "|" for row in rows]
    lines.append("  $ treasure  ^ trap  ~ lightless  @ Guardian  lower case: dark side")
    slots = []
    for e in range(NUM_EXPLORERS):
        if state[EXPLORER_SLOT + e] != NO_SLOT:
            slots.append((int(state[EXPLORER_SLOT + e]), e))
    board = ", ".join(f"{SLOT_VALUES[s]}:{EXPLORER_NAMES[e]}" for s, e in sorted(slots)) or "empty"
    lines.append(f"scoring board: {board}")
    n = int(state[NUM_PLAYERS])
    held = [
        int(state[TOKEN_VALUE_COUNTS + p * TOKEN_KINDS : TOKEN_VALUE_COUNTS + (p + 1) * TOKEN_KINDS].sum())
        for p in range(n)
    ]
    lines.append("tokens held: " + ", ".join(f"player_{p}: {held[p]}" for p in range(n)))
    if viewer is not None:
        team = ", ".join(EXPLORER_NAMES[e] for e in TEAM_CARDS[state[TEAM_CARD + viewer]])
        counts = state[
            TOKEN_VALUE_COUNTS + viewer * TOKEN_KINDS : TOKEN_VALUE_COUNTS + (viewer + 1) * TOKEN_KINDS
        ]
        values = " + ".join(str(v) for v in range(TOKEN_KINDS) for _ in range(counts[v])) or "none"
        lines.append(f"player_{viewer} (you): team {team}; treasures {values}")
    if state[LAST_PLAYER] != NOBODY:
        to = int(state[LAST_TO])
        where = "out of the temple" if to == EXITED else f"space {to}"
        lines.append(
            f"last: player_{state[LAST_PLAYER]} rolled {state[LAST_ROLL]} and moved "
            f"{EXPLORER_NAMES[state[LAST_EXPLORER]]} to {where}"
        )
    if state[TERMINAL]:
        lines.append(f"game over (end condition {'-ABC'[state[END_CONDITION]]})")
    else:
        lines.append(f"round {state[ROUND]}: player_{state[CURRENT_PLAYER]} to move, die shows {state[DIE]}")
    return "\n".join(lines)


def _visible_len(text: str) -> int:
    import re

    return len(re.sub(r"\x1b\[[0-9;]*m", "", text))


def render_rgb(state: np.ndarray, cell: int = 24) -> np.ndarray:
    """An RGB picture of the board: (rows*cell, cols*cell, 3) uint8."""
    image = np.full((GRID_ROWS * cell, GRID_COLS * cell, 3), 30, np.uint8)

    def fill(r: int, c: int, colour: tuple | np.ndarray, inset: int = 1) -> None:
        image[r * cell + inset : (r + 1) * cell - inset, c * cell + inset : (c + 1) * cell - inset] = colour

    for space in range(TRACK_LENGTH + 1):
        r, c = SPACE_GRID[space]
        base = (200, 180, 130)
        if space == CHAMBER:
            base = (230, 200, 90)
        elif IS_TRAP[space]:
            base = (170, 60, 50)
        elif IS_LIGHTLESS[space]:
            base = (90, 90, 110)
        fill(r, c, base)
        if space != CHAMBER and state[SPACE_TOKEN + space] != NO_TOKEN:
            fill(r, c, (250, 215, 0), inset=cell // 3)
    room_r, room_c = GUARDIAN_ROOM_GRID
    fill(room_r, room_c, (120, 100, 80))
    guardian = int(state[GUARDIAN_POS])
    g_r, g_c = (room_r, room_c) if guardian == GUARDIAN_ROOM else SPACE_GRID[guardian]
    image[g_r * cell + 2 : g_r * cell + 6, g_c * cell + 2 : (g_c + 1) * cell - 2] = 255
    for e in range(NUM_EXPLORERS):
        position = int(state[EXPLORER_POS + e])
        if position < 0:
            continue
        r, c = SPACE_GRID[position]
        colour = _RGB[e] // 2 if state[EXPLORER_DARK + e] else _RGB[e]
        size = cell // 4
        if position == CHAMBER:  # a 4 x 2 block so that no explorer hides another
            top, left = r * cell + size * (1 + e // 4), c * cell + size * (e % 4)
        else:
            top, left = r * cell + cell // 2, c * cell + (cell - size) // 2
        image[top : top + size, left : left + size] = colour
    return image
