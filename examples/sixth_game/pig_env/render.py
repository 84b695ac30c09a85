"""Text (ANSI) and picture renderings of a Pig state, and words for actions."""

from __future__ import annotations

import numpy as np
from treasure_core.ansi import paint
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL

from pig_env.data import MAX_ROUNDS
from pig_env.kernels import competitors
from pig_env.state import (
    ACTIONS,
    AUTOMATON,
    AUTOMATON_GAIN,
    AUTOMATON_ROLLS,
    EVENT_AUTOMATON,
    EVENT_BUST,
    EVENT_HOLD,
    EVENT_TARGET,
    HOLD,
    LAST_EVENTS,
    LAST_PLAYER,
    LAST_ROLL,
    NOBODY,
    ROLL,
    ROUND,
    SCORES,
    TARGET,
    TURN_TOTAL,
)

_BOLD = "\x1b[1m"
_RED = "\x1b[31m"
_GREEN = "\x1b[32m"
_BAR = 40  # characters for the target in the text rendering


def _painted(text: str, code: str, colour: bool) -> str:
    return paint(text, code, colour) if text else ""


def competitor_name(state: np.ndarray, competitor: int) -> str:
    if state[NUM_PLAYERS] == 1 and competitor == AUTOMATON:
        return "automaton"
    return f"player_{competitor}"


def describe_action(state: np.ndarray, action: int, player: int | None = None) -> str:
    """Words for an action (what `play` lists and error messages show); every seat sees the
    same table, so `player` changes nothing."""
    block, _ = ACTIONS.block_of(action)
    seat = int(state[CURRENT_PLAYER])
    score, turn = int(state[SCORES + seat]), int(state[TURN_TOTAL])
    if block is ROLL:
        return f"roll (a 1 loses the {turn} in this turn)" if turn else "roll"
    if block is HOLD:
        return f"hold: bank {turn} ({score} -> {score + turn})"
    raise AssertionError(f"no words for the {block.name} block")


def _last_decision(state: np.ndarray) -> str:
    player = int(state[LAST_PLAYER])
    events = int(state[LAST_EVENTS])
    name = competitor_name(state, player)
    if events & EVENT_HOLD:
        text = f"last: {name} held"
    elif events & EVENT_BUST:
        text = f"last: {name} rolled a 1 and lost the turn's points"
    else:
        text = f"last: {name} rolled a {int(state[LAST_ROLL])}"
        if events & EVENT_TARGET:
            text += " and reached the target"
    if events & EVENT_AUTOMATON:
        gain = int(state[AUTOMATON_GAIN])
        rolls = int(state[AUTOMATON_ROLLS])
        what = f"banked {gain}" if gain else "rolled a 1"
        text += f"; then the automaton rolled {rolls} time{'s' if rolls > 1 else ''} and {what}"
    return text


def render_ansi(state: np.ndarray, viewer: int | None = None, colour: bool = True) -> str:
    """The scores as bars towards the target, the turn under way and the last decision.
    Perfect information: `viewer` only marks that player's line."""
    target = int(state[TARGET])
    lines = [f"Pig to {target}, round {int(state[ROUND])} of at most {MAX_ROUNDS}"]
    acting = int(state[CURRENT_PLAYER])
    for c in range(int(competitors(state))):
        score = int(state[SCORES + c])
        banked = min(_BAR, score * _BAR // target)
        turn = 0
        if c == acting and not state[TERMINAL]:
            turn = min(_BAR - banked, int(state[TURN_TOTAL]) * _BAR // target)
        bar = _painted("#" * banked, _GREEN, colour) + _painted("+" * turn, _RED, colour)
        bar += "." * (_BAR - banked - turn)
        marks = " <- to act" if c == acting and not state[TERMINAL] else ""
        marks += " (you)" if viewer == c and c < state[NUM_PLAYERS] else ""
        lines.append(f"  {competitor_name(state, c):>9} {score:4d} |{bar}|{marks}")
    if state[LAST_PLAYER] != NOBODY:
        lines.append(_last_decision(state))
    if state[TERMINAL]:
        points = [int(state[SCORES + c]) for c in range(int(competitors(state)))]
        winners = [competitor_name(state, c) for c, p in enumerate(points) if p == max(points)]
        lines.append(paint(f"game over (the target): {', '.join(winners)} won", _BOLD, colour))
    elif state[ROUND] > MAX_ROUNDS:
        lines.append(paint(f"game cut after {MAX_ROUNDS} rounds (the round limit): no winner", _BOLD, colour))
    else:
        lines.append(
            f"{competitor_name(state, acting)} to decide, {int(state[TURN_TOTAL])} points in the turn"
        )
    return "\n".join(lines)


def render_rgb(state: np.ndarray, cell: int = 24) -> np.ndarray:
    """One column per competitor: banked points in green, the turn under way in red on top,
    up to the target line; the player to act has a white base. (cell * 12, count * cell * 2, 3)."""
    count = int(competitors(state))
    height, width = cell * 12, count * cell * 2
    image = np.full((height, width, 3), 30, np.uint8)
    target = int(state[TARGET])
    top = cell  # the target line
    scale = (height - top) / target
    image[top - 1 : top + 1, :] = 200
    for c in range(count):
        left = c * cell * 2 + cell // 2
        right = left + cell
        banked = min(height - top, int(round(int(state[SCORES + c]) * scale)))
        image[height - banked : height, left:right] = (40, 170, 60)
        if c == state[CURRENT_PLAYER] and not state[TERMINAL]:
            turn = min(height - top - banked, int(round(int(state[TURN_TOTAL]) * scale)))
            image[height - banked - turn : height - banked, left:right] = (220, 40, 40)
            image[height - 3 : height, left - 2 : right + 2] = 255
    return image
