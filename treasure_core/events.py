"""The events since a player's last turn: each decision of a game kept as it happens (the state
holds only where the game is, not how it got there) and put in words for one viewer by the game's
`describe_step` (GameSpec.describe_step).

A game's `describe_step(before, action, after, viewer)` returns the lines for one decision as
`viewer` may know them: first the decision, as "player_k: <its words>" when the rules make it
public, else only as made, with no colon ("player_k voted"); then what it set off (the chance
results the viewer sees, the effects). Its words may depend only on what the viewer may know of
`before` and `after`: tests/test_events.py checks it by re-dealing what the viewer cannot know."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import numpy as np

from treasure_core.header import CURRENT_PLAYER

# (before, action, after, viewer) -> lines
DescribeStep = Callable[[np.ndarray, int, np.ndarray, "int | None"], list[str]]


def describe_by_name(action_name: Callable[..., str]) -> DescribeStep:
    """The plain `describe_step` of a game whose every decision is public: "player_k: <its
    action's name>"."""

    def describe_step(
        before: np.ndarray, action: int, after: np.ndarray, viewer: int | None = None
    ) -> list[str]:
        player = int(before[CURRENT_PLAYER])
        return [f"player_{player}: {action_name(before, int(action), player)}"]

    return describe_step


class EventLog:
    """The last KEPT decisions of one game, as (actor, before, action, after) states."""

    KEPT = 256  # decisions kept: far more than a round's in every game

    def __init__(self, describe_step: DescribeStep) -> None:
        self.describe_step = describe_step
        self.entries: deque[tuple[int, np.ndarray, int, np.ndarray]] = deque(maxlen=self.KEPT)

    def clear(self) -> None:
        self.entries.clear()

    def record(self, before: np.ndarray, action: int, after: np.ndarray) -> None:
        """One applied decision: `before` is kept as given (the caller's own copy), `after` is
        copied (the env goes on changing its state in place)."""
        self.entries.append((int(before[CURRENT_PLAYER]), before, int(action), after.copy()))

    def since(self, player: int, viewer: int | None = None) -> list[str]:
        """The words, for `viewer`, of everything since the end of `player`'s last turn before
        the one it plays now (or before now, between its turns): the rest of that last decision's
        consequences (its first line, the decision itself, is left out), the others' decisions,
        and its own in the turn now; everything kept if it never played."""
        k = len(self.entries) - 1
        while k >= 0 and self.entries[k][0] == player:  # the turn it plays now
            k -= 1
        while k >= 0 and self.entries[k][0] != player:  # the others' turns
            k -= 1
        lines: list[str] = []
        for index in range(max(k, 0), len(self.entries)):
            _, before, action, after = self.entries[index]
            words = self.describe_step(before, action, after, viewer)
            lines.extend(words[1:] if index == k else words)
        return lines
