"""Win rates and their intervals: the one interval method every report uses (Wilson)."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


def wilson_interval(successes: float, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a binomial proportion (sound near 0 and 1)."""
    if trials <= 0:
        raise ValueError(f"trials must be positive; got {trials}")
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class WinRate:
    wins: float  # a shared victory counts as a win
    games: int
    truncated: int = 0  # of the games, those the guard cut (no one's win; GameSpec.guard)

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def __str__(self) -> str:
        low, high = self.interval
        return f"{self.rate:.3f} [{low:.3f}, {high:.3f}]"
