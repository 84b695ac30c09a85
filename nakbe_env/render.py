"""Text (ANSI) and picture renderings of a Treasures of Nakbe state."""

from __future__ import annotations

import numpy as np

from nakbe_env.data import (
    EXIT_NOTES,
    EXPLORER_NAMES,
    GRID_SHAPES,
    GUARDIAN_START_GRID,
    GUARDIAN_START_NAMES,
    LIGHTLESS,
    NUM_EXPLORERS,
    NUM_SIDES,
    PASSAGE,
    PASSAGE_OTHER_END,
    RIVER,
    SIDE_NAMES,
    SLOT_VALUES,
    SNAKES,
    SPACE_FLAGS,
    SPACE_GRID,
    START_NAMES,
    TEAM_CARDS,
    TRACK_LENGTHS,
    TRAP,
)
from nakbe_env.kernels import advance, destination, landing
from nakbe_env.state import (
    ACTIONS,
    CAMPAIGN,
    DIE,
    END_CONDITIONS,
    EVENT_CATCH,
    EVENT_NEXT_GAME,
    EVENT_PASSAGE,
    EVENT_PASSAGE_CATCH,
    EVENT_RIVER,
    EVENT_SNAKES,
    EVENT_TRAP,
    EVENT_TREASURE,
    EXITED,
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
    LAST_EVENTS,
    LAST_EXPLORER,
    LAST_PLAYER,
    LAST_ROLL,
    LAST_TO,
    LIGHT,
    MOVE,
    NO_MOVE_BLOCK,
    NO_SLOT,
    NO_TOKEN,
    NOBODY,
    OFF_BOARD,
    ROUND,
    SEAT_TOKENS,
    SIDE,
    SNAKES_WAITING,
    SPACE_TOKEN,
    START,
    TEAM_CARD,
    TOKEN_KINDS,
    TOKEN_VALUE_COUNTS,
)
from treasure_core.ansi import pad, paint
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


def _explorer(e: int, dark: bool, colour: bool) -> str:
    letter = _LETTER[e].lower() if dark else _LETTER[e]
    return paint(letter, _ANSI[e], colour)


def _special_mark(state: np.ndarray, space: int) -> str:
    """One character for what lies on a space: a token, a trap or a jungle feature in use."""
    flags = SPACE_FLAGS[state[SIDE], space]
    features = state[FEATURES]
    if state[SPACE_TOKEN + space] != NO_TOKEN:
        return "$"
    if flags & TRAP:
        return "^"
    if flags & RIVER and features & FEATURE_RIVER:
        return "="
    if flags & PASSAGE and features & FEATURE_PASSAGE:
        return "%"
    if flags & SNAKES and state[SNAKES_WAITING]:
        return "S"
    return " "


def _cell(state: np.ndarray, space: int, colour: bool) -> str:
    guardian = "@" if state[GUARDIAN_POS] == space else " "
    here = [e for e in range(NUM_EXPLORERS) if state[EXPLORER_POS + e] == space]
    if space == START:
        return "St" + guardian + "".join(_explorer(e, False, colour) for e in here)
    lightless = "~" if SPACE_FLAGS[state[SIDE], space] & LIGHTLESS else " "
    who = _explorer(here[0], state[EXPLORER_DARK + here[0]] != LIGHT, colour) if here else " "
    return f"{space:2d}{_special_mark(state, space)}{lightless}{guardian}{who}"


def describe_action(state: np.ndarray, action: int, player: int | None = None) -> str:
    """Words for an action (what `play` lists and error messages show); every seat sees the
    same move, so `player` changes nothing."""
    block, index = ACTIONS.block_of(action)
    if block is MOVE:
        return describe_move(state, index)
    if block is NO_MOVE_BLOCK:
        return f"no move: every explorer is in the dark and the die shows {state[DIE]}"
    raise AssertionError(f"no words for the {block.name} block")


def describe_move(state: np.ndarray, explorer: int) -> str:
    """Words for moving `explorer` with the die showing (what `play` lists)."""
    side = int(state[SIDE])
    start = int(state[EXPLORER_POS + explorer])
    roll = state[DIE]
    stop = int(landing(state, explorer, roll))
    end = int(destination(state, explorer, roll))
    where = START_NAMES[side] if start == START else f"space {start}"
    name = EXPLORER_NAMES[explorer]
    if stop == EXITED:
        return f"{name}: {where} -> exits the {SIDE_NAMES[side]}"
    notes = []
    first_stop = int(advance(state, start, roll, explorer, False))
    if first_stop != stop:
        notes.append(f"trap on {first_stop}")
    if state[SPACE_TOKEN + stop] != NO_TOKEN:
        notes.append("treasure")
    if SPACE_FLAGS[side, stop] & RIVER and state[FEATURES] & FEATURE_RIVER:
        notes.append("into the river")
    if SPACE_FLAGS[side, stop] & PASSAGE and state[FEATURES] & FEATURE_PASSAGE:
        other = int(PASSAGE_OTHER_END[side, stop])
        notes.append(f"secret passage to {other}")
    if end == OFF_BOARD:
        snakes = state[SNAKES_WAITING] and SPACE_FLAGS[side, stop] & SNAKES
        notes.append("released the snakes: caught" if snakes else "caught behind the Guardian")
    extra = f" ({', '.join(notes)})" if notes else ""
    final = "off the board" if end == OFF_BOARD else f"space {end}"
    return f"{name}: {where} -> {final}{extra}"


def _last_move(state: np.ndarray) -> str:
    """The last decision and what it set off, in words."""
    to = int(state[LAST_TO])
    events = int(state[LAST_EVENTS])
    if state[LAST_EXPLORER] == NOBODY:
        return f"last: player_{state[LAST_PLAYER]} rolled {state[LAST_ROLL]} and could move nobody"
    text = (
        f"last: player_{state[LAST_PLAYER]} rolled {state[LAST_ROLL]} and moved "
        f"{EXPLORER_NAMES[state[LAST_EXPLORER]]} to {'the exit' if to == EXITED else f'space {to}'}"
    )
    notes = []
    if events & EVENT_TRAP:
        notes.append("via a trap")
    if events & EVENT_TREASURE:
        notes.append("took a treasure")
    if events & EVENT_RIVER:
        notes.append("into the river")
    if events & EVENT_PASSAGE_CATCH:
        notes.append("the secret passage led behind the Guardian: caught")
    elif events & EVENT_PASSAGE and not events & EVENT_NEXT_GAME:
        notes.append(f"the secret passage led to space {state[EXPLORER_POS + state[LAST_EXPLORER]]}")
    if events & EVENT_SNAKES:
        notes.append("released the snakes")
    if events & EVENT_CATCH:
        notes.append(f"the Guardian caught {EXPLORER_NAMES[state[LAST_CAUGHT]]}")
    if events & EVENT_NEXT_GAME:
        notes.append("the temple game is over; the jungle game begins")
    return text + (f" ({'; '.join(notes)})" if notes else "")


def _seat_tokens(state: np.ndarray, side: int, seat: int) -> np.ndarray:
    start = TOKEN_VALUE_COUNTS + side * SEAT_TOKENS + seat * TOKEN_KINDS
    return state[start : start + TOKEN_KINDS]


def render_ansi(state: np.ndarray, viewer: int | None = None, colour: bool = True) -> str:
    """The board, the scoring board and the players; `viewer` adds that player's secrets."""
    side = int(state[SIDE])
    n_rows, n_cols = GRID_SHAPES[side]
    width = 10  # the start: "St", the Guardian and up to 7 explorers
    rows = [[" " * width for _ in range(n_cols)] for _ in range(n_rows)]
    for space in range(TRACK_LENGTHS[side] + 1):
        r, c = SPACE_GRID[side, space]
        text = _cell(state, space, colour)
        rows[r][c] = pad(text, width)
    room_r, room_c = GUARDIAN_START_GRID[side]
    room = "Gd@" if state[GUARDIAN_POS] == GUARDIAN_START else "Gd "
    rows[room_r][room_c] = room + " " * (width - len(room))
    game = "An Endless Threat, " if state[CAMPAIGN] else ""
    lines = [f"{game}{SIDE_NAMES[side]} side; {EXIT_NOTES[side]}"]
    lines += ["|" + "|".join(row) + "|" for row in rows]
    legend = f"  St {START_NAMES[side]}  Gd {GUARDIAN_START_NAMES[side]}  $ treasure  ^ trap  ~ lightless"
    features = state[FEATURES]
    if side == 1:
        legend += "  = river" if features & FEATURE_RIVER else ""
        legend += "  % secret passage" if features & FEATURE_PASSAGE else ""
        legend += "  S snakes" if features & FEATURE_SNAKES else ""
    lines.append(legend + "  @ Guardian  lower case: dark side")
    if side == 1 and features & FEATURE_SNAKES:
        lines.append(
            "  the snakes " + ("wait at the bottom left" if state[SNAKES_WAITING] else "have struck")
        )
    river = [EXPLORER_NAMES[e] for e in range(NUM_EXPLORERS) if state[EXPLORER_DARK + e] == IN_RIVER]
    if river:
        lines.append("  in the river: " + ", ".join(river))
    for s in range(NUM_SIDES):
        if s != side and not state[END_CONDITIONS + s]:
            continue
        slots = []
        for e in range(NUM_EXPLORERS):
            slot = int(state[EXPLORER_SLOT + s * NUM_EXPLORERS + e])
            if slot != NO_SLOT:
                slots.append((slot, e))
        board = ", ".join(f"{SLOT_VALUES[v]}:{EXPLORER_NAMES[e]}" for v, e in sorted(slots)) or "empty"
        lines.append(f"scoring board ({SIDE_NAMES[s]}): {board}")
    n = int(state[NUM_PLAYERS])
    held = [sum(int(_seat_tokens(state, s, p).sum()) for s in range(NUM_SIDES)) for p in range(n)]
    lines.append("tokens held: " + ", ".join(f"player_{p}: {held[p]}" for p in range(n)))
    if viewer is not None:
        team = ", ".join(EXPLORER_NAMES[e] for e in TEAM_CARDS[state[TEAM_CARD + viewer]])
        counts = sum(_seat_tokens(state, s, viewer) for s in range(NUM_SIDES))
        values = " + ".join(str(v) for v in range(TOKEN_KINDS) for _ in range(counts[v])) or "none"
        lines.append(f"player_{viewer} (you): team {team}; treasures {values}")
    if state[LAST_PLAYER] != NOBODY:
        lines.append(_last_move(state))
    if state[TERMINAL]:
        ends = [
            f"{SIDE_NAMES[s]} {'-ABC'[state[END_CONDITIONS + s]]}"
            for s in range(NUM_SIDES)
            if state[END_CONDITIONS + s]
        ]
        lines.append(f"game over (end condition {', '.join(ends)})")
    else:
        lines.append(f"round {state[ROUND]}: player_{state[CURRENT_PLAYER]} to move, die shows {state[DIE]}")
    return "\n".join(lines)


def render_rgb(state: np.ndarray, cell: int = 24) -> np.ndarray:
    """An RGB picture of the board: (rows*cell, cols*cell, 3) uint8."""
    side = int(state[SIDE])
    n_rows, n_cols = GRID_SHAPES[side]
    image = np.full((n_rows * cell, n_cols * cell, 3), 30, np.uint8)

    def fill(r: int, c: int, colour: tuple | np.ndarray, inset: int = 1) -> None:
        image[r * cell + inset : (r + 1) * cell - inset, c * cell + inset : (c + 1) * cell - inset] = colour

    features = state[FEATURES]
    for space in range(TRACK_LENGTHS[side] + 1):
        r, c = SPACE_GRID[side, space]
        flags = SPACE_FLAGS[side, space]
        base = (200, 180, 130)
        if space == START:
            base = (230, 200, 90)
        elif flags & TRAP:
            base = (170, 60, 50)
        elif flags & LIGHTLESS:
            base = (90, 90, 110)
        elif flags & RIVER and features & FEATURE_RIVER:
            base = (60, 140, 200)
        elif flags & PASSAGE and features & FEATURE_PASSAGE:
            base = (110, 70, 40)
        elif flags & SNAKES and state[SNAKES_WAITING]:
            base = (60, 160, 60)
        fill(r, c, base)
        if space != START and state[SPACE_TOKEN + space] != NO_TOKEN:
            fill(r, c, (250, 215, 0), inset=cell // 3)
    room_r, room_c = GUARDIAN_START_GRID[side]
    fill(room_r, room_c, (120, 100, 80))
    guardian = int(state[GUARDIAN_POS])
    g_r, g_c = (room_r, room_c) if guardian == GUARDIAN_START else SPACE_GRID[side, guardian]
    image[g_r * cell + 2 : g_r * cell + 6, g_c * cell + 2 : (g_c + 1) * cell - 2] = 255
    for e in range(NUM_EXPLORERS):
        position = int(state[EXPLORER_POS + e])
        if position < 0:
            continue
        r, c = SPACE_GRID[side, position]
        colour = _RGB[e] // 2 if state[EXPLORER_DARK + e] != LIGHT else _RGB[e]
        size = cell // 4
        if position == START:  # a 4 x 2 block so that no explorer hides another
            top, left = r * cell + size * (1 + e // 4), c * cell + size * (e % 4)
        else:
            top, left = r * cell + cell // 2, c * cell + (cell - size) // 2
        image[top : top + size, left : left + size] = colour
    return image


# -- the events since a player's last turn (play, serve) -------------------------------------
def describe_step(before: np.ndarray, action: int, after: np.ndarray, viewer: int | None = None) -> list[str]:
    """What one decision did, in public words (every move in Nakbe is public): the roll, the
    explorer moved and where it ended, the trap, the treasure, the river, the passage, the
    snakes and the Guardian's catch; then the next player's roll."""
    lines = [_last_move(after).removeprefix("last: ")]
    if not after[TERMINAL]:
        lines.append(f"  player_{int(after[CURRENT_PLAYER])} rolled {int(after[DIE])}")
    return lines
