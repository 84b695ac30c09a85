"""Naming the slices of flat arrays: the fields of a state, the parts of an observation."""

from __future__ import annotations


class Fields:
    """Hands out consecutive offsets into a flat state array: `DIE = fields.add(1)`."""

    def __init__(self, start: int) -> None:
        self.size = start

    def add(self, size: int) -> int:
        start = self.size
        self.size += size
        return start


def offsets(layout: tuple[tuple[str, int], ...]) -> dict[str, tuple[int, int]]:
    """(name, size) pairs -> name -> (start, stop) of each slice, laid end to end."""
    out, start = {}, 0
    for name, size in layout:
        out[name] = (start, start + size)
        start += size
    return out
