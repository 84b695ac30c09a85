"""ANSI text helpers for the games' renderers: colour a piece of text, and measure or pad text
that holds colour codes by what a terminal shows."""

from __future__ import annotations

import re
import sys
import warnings

import gymnasium

RESET = "\x1b[0m"
YELLOW = "\x1b[33m"
_CODES = re.compile(r"\x1b\[[0-9;]*m")


def paint(text: str, code: str, use_colour: bool = True) -> str:
    """`text` in the colour `code` (an ANSI escape), or plain when not use_colour."""
    return f"{code}{text}{RESET}" if use_colour else text


def visible_len(text: str) -> int:
    """The width a terminal shows for `text`: its length without colour codes."""
    return len(_CODES.sub("", text))


def pad(text: str, width: int) -> str:
    """`text` padded with spaces to `width` visible characters."""
    return text + " " * max(0, width - visible_len(text))


def warn(message: str, stacklevel: int = 1) -> None:
    """gymnasium.logger.warn's warning, at its level, but yellow only when stderr is a terminal,
    so that a log file or a CI log gets plain text."""
    if gymnasium.logger.min_level > gymnasium.logger.WARN:
        return
    text = f"WARN: {message}"
    if getattr(sys.stderr, "isatty", lambda: False)():
        text = paint(text, YELLOW)
    warnings.warn(text, stacklevel=stacklevel + 1)
