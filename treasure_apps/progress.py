"""Progress for the command line: a live bar on a terminal, a few plain lines in a log.

A progress bar redraws itself with carriage returns, which a file keeps: thousands of them on
one line of a log. So a bar is drawn only when the stream is a terminal; otherwise a handful
of plain lines report how far the work has gone (and nothing at all with progress off).

Progress goes to stderr and names what it counts ("120/1000 games played"), so that it never
mixes with a command's results on stdout, nor reads like one of them (a win rate, a score).
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
    """Writes 'desc: done/total unit (pct%), elapsed' at each of `lines` even steps of `total`
    (one per tenth by default), the elapsed time counted from `start` (a time.perf_counter()
    reading; default: now)."""

    def __init__(
        self,
        total: int,
        desc: str,
        stream: TextIO | None = None,
        unit: str = "",
        *,
        lines: int = PLAIN_LINES,
        start: float | None = None,
    ):
        self.total = max(int(total), 1)
        self.desc = desc
        self.unit = f" {unit}" if unit else ""
        self.stream = sys.stderr if stream is None else stream
        self.lines = max(int(lines), 1)
        self.start = time.perf_counter() if start is None else start
        self.next_line = 1

    def update(self, done: int) -> None:
        """Report `done` units of work so far; writes a line each time a step is crossed."""
        if self.next_line > self.lines or done * self.lines < self.next_line * self.total:
            return
        while self.next_line <= self.lines and done * self.lines >= self.next_line * self.total:
            self.next_line += 1
        elapsed = time.perf_counter() - self.start
        percent = min(100, 100 * done // self.total)
        print(
            f"{self.desc}: {done}/{self.total}{self.unit} ({percent}%), {elapsed:.0f} s",
            file=self.stream,
            flush=True,
        )


class Counter:
    """Work counted as it is done (`advance`), reported like `progress`: a tqdm bar on a
    terminal, plain lines otherwise (those only with a known total), nothing when disabled.
    For work that is not one loop: a round robin's games over all its pairs. `bar=False`
    writes plain lines on a terminal too (under another live bar, which a second one would
    garble); `lines` is their number."""

    def __init__(
        self,
        total: int | None,
        desc: str,
        unit: str = "",
        enabled: bool = True,
        leave: bool = True,
        stream: TextIO | None = None,
        *,
        bar: bool | None = None,
        lines: int = PLAIN_LINES,
    ):
        self.done = 0
        self.bar: tqdm | None = None
        self.plain: PlainProgress | None = None
        if not enabled:
            return
        if is_terminal(stream) if bar is None else bar:
            # tqdm's own layout puts the count last and unnamed ("| 120/1000 [00:09<...]"):
            # this one names it.
            named = f" {unit}" if unit else ""
            if total:
                bar_format = "{l_bar}{bar}| {n_fmt}/{total_fmt}" + named + " [{elapsed}<{remaining}]"
            else:
                bar_format = ("{desc}: " if desc else "") + "{n_fmt}" + named + " [{elapsed}]"
            self.bar = tqdm(total=total, desc=desc, leave=leave, file=stream, bar_format=bar_format)
        elif total:
            self.plain = PlainProgress(total, desc, stream, unit, lines=lines)

    def advance(self, count: int = 1) -> None:
        self.done += count
        if self.bar is not None:
            self.bar.update(count)
        elif self.plain is not None:
            self.plain.update(self.done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def progress(
    iterable: Iterable[Item],
    desc: str = "",
    enabled: bool = True,
    total: int | None = None,
    leave: bool = True,
    stream: TextIO | None = None,
    unit: str = "",
) -> Iterator[Item]:
    """`iterable`, reporting progress: a tqdm bar on a terminal, plain lines otherwise. `unit`
    names what an item is ("games played")."""
    if not enabled:
        yield from iterable
        return
    if total is None and hasattr(iterable, "__len__"):
        total = len(iterable)  # type: ignore[arg-type]
    counter = Counter(total, desc, unit, leave=leave, stream=stream)
    try:
        for item in iterable:
            yield item
            counter.advance()
    finally:
        counter.close()
