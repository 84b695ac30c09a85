"""Progress for the command line: a live bar on a terminal, a few plain lines in a log.

A progress bar redraws itself with carriage returns, which a file keeps: thousands of them on
one line of a log. So a bar is drawn only when the stream is a terminal; otherwise a handful
of plain lines report how far the work has gone (and nothing at all with progress off).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

from tqdm import tqdm

PLAIN_LINES = 10  # lines a run writes to a log: one per tenth of the work
Item = TypeVar("Item")


def is_terminal(stream: TextIO | None = None) -> bool:
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class PlainProgress:
    """Writes 'desc: done/total (pct%), elapsed' at each tenth of `total` (and at the end)."""

    def __init__(self, total: int, desc: str, stream: TextIO | None = None, unit: str = ""):
        self.total = max(int(total), 1)
        self.desc = desc
        self.unit = f" {unit}" if unit else ""
        self.stream = sys.stderr if stream is None else stream
        self.start = time.perf_counter()
        self.next_line = 1

    def update(self, done: int) -> None:
        """Report `done` units of work so far; writes a line each time a tenth is crossed."""
        if self.next_line > PLAIN_LINES or done * PLAIN_LINES < self.next_line * self.total:
            return
        while self.next_line <= PLAIN_LINES and done * PLAIN_LINES >= self.next_line * self.total:
            self.next_line += 1
        elapsed = time.perf_counter() - self.start
        percent = min(100, 100 * done // self.total)
        print(
            f"{self.desc}: {done}/{self.total}{self.unit} ({percent}%), {elapsed:.0f} s",
            file=self.stream,
            flush=True,
        )


def progress(
    iterable: Iterable[Item],
    desc: str = "",
    enabled: bool = True,
    total: int | None = None,
    leave: bool = True,
    stream: TextIO | None = None,
) -> Iterator[Item]:
    """`iterable`, reporting progress: a tqdm bar on a terminal, plain lines otherwise."""
    if not enabled:
        yield from iterable
        return
    if total is None and hasattr(iterable, "__len__"):
        total = len(iterable)  # type: ignore[arg-type]
    if is_terminal(stream):
        yield from tqdm(iterable, desc=desc, total=total, leave=leave, file=stream)
        return
    plain = PlainProgress(total or 0, desc, stream) if total else None
    done = 0
    for item in iterable:
        yield item
        done += 1
        if plain is not None:
            plain.update(done)
