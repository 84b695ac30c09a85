"""ANSI text helpers for the games' renderers: colour a piece of text, and measure or pad text
that holds colour codes by what a terminal shows."""

from __future__ import annotations

import os
import re
import sys
import warnings
from typing import TextIO

import gymnasium

RESET = "\x1b[0m"
YELLOW = "\x1b[33m"
_CODES = re.compile(r"\x1b\[[0-9;]*m")


def colour_allowed(stream: TextIO | None = None) -> bool:
    """Whether text written to `stream` (default stdout) may hold colour codes: only when it is
    a terminal and NO_COLOR (https://no-color.org) is unset or empty, so that a pipe, a log file
    or a CI log gets plain text."""
    stream = sys.stdout if stream is None else stream
    if os.environ.get("NO_COLOR"):
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def paint(text: str, code: str, use_colour: bool = True) -> str:
    """`text` in the colour `code` (an ANSI escape), or plain when not use_colour (callers that
    print decide it with colour_allowed)."""
    return f"{code}{text}{RESET}" if use_colour else text


def visible_len(text: str) -> int:
    """The width a terminal shows for `text`: its length without colour codes."""
    return len(_CODES.sub("", text))


def pad(text: str, width: int) -> str:
    """`text` padded with spaces to `width` visible characters."""
    return text + " " * max(0, width - visible_len(text))


def warn(message: str, stacklevel: int = 1) -> None:
    """gymnasium.logger.warn's warning, at its level, but yellow only when stderr is a terminal
    and NO_COLOR is unset (colour_allowed), so that a log file or a CI log gets plain text."""
    if gymnasium.logger.min_level > gymnasium.logger.WARN:
        return
    text = f"WARN: {message}"
    if colour_allowed(sys.stderr):
        text = paint(text, YELLOW)
    warnings.warn(text, stacklevel=stacklevel + 1)
