"""Naming the slices of flat arrays: the fields of a state, the parts of an observation, and the
blocks of an action space."""

from __future__ import annotations

from typing import NamedTuple


class Field(NamedTuple):
    """One named run of a state array: slots start .. start + size - 1, each from low to high
    (inclusive) in any state a kernel may read."""

    name: str
    start: int
    size: int
    low: int
    high: int

    @property
    def stop(self) -> int:
        return self.start + self.size


class Fields:
    """Hands out consecutive offsets into a flat state array and records each field's name and
    range, which the state validator checks and the adversarial tests probe:

        DIE = fields.add(1, "DIE", 1, 6)  # the die's face
    """

    def __init__(self, start: int) -> None:
        self.size = start
        self.fields: list[Field] = []

    def add(self, size: int, name: str | None = None, low: int | None = None, high: int | None = None) -> int:
        start = self.size
        self.size += size
        if name is not None:
            if low is None or high is None or low > high:
                raise ValueError(f"field {name}: give its range, low <= high; got {low}, {high}")
            self.fields.append(Field(name, start, size, int(low), int(high)))
        return start

    def table(self) -> tuple[Field, ...]:
        return tuple(self.fields)


def offsets(layout: tuple[tuple[str, int], ...]) -> dict[str, tuple[int, int]]:
    """(name, size) pairs -> name -> (start, stop) of each slice, laid end to end."""
    out, start = {}, 0
    for name, size in layout:
        out[name] = (start, start + size)
        start += size
    return out


class ActionBlock(NamedTuple):
    """One named run of a game's flat action space: actions start .. start + size - 1."""

    name: str
    start: int
    size: int
    help: str  # what action start + i does, in terms of i

    @property
    def stop(self) -> int:
        return self.start + self.size


class ActionLayout:
    """A game's flat action space as a named table of blocks, laid end to end. The kernels
    read the blocks' offsets, and the docs, action names and tests read the same table:

        ACTIONS = ActionLayout()
        MOVE = ACTIONS.add("move", 7, "move explorer i by the die showing")
        N_ACTIONS = ACTIONS.size
    """

    def __init__(self) -> None:
        self.blocks: list[ActionBlock] = []
        self.size = 0

    def add(self, name: str, size: int, help: str) -> ActionBlock:
        if size < 1 or any(block.name == name for block in self.blocks):
            raise ValueError(f"action block {name!r}: a new name and a positive size, got {size}")
        block = ActionBlock(name, self.size, size, help)
        self.blocks.append(block)
        self.size += size
        return block

    def block_of(self, action: int) -> tuple[ActionBlock, int]:
        """The block holding `action`, and the action's index inside it."""
        for block in self.blocks:
            if block.start <= action < block.stop:
                return block, action - block.start
        raise ValueError(f"action {action!r} is outside 0..{self.size - 1}")

    def table(self) -> list[tuple[str, str, str]]:
        """(actions, block name, meaning) rows, as docs/games/<game>.md prints them."""
        rows = []
        for block in self.blocks:
            span = str(block.start) if block.size == 1 else f"{block.start}–{block.stop - 1}"
            rows.append((span, block.name, block.help))
        return rows
