"""The random draw's walk to the pick-th legal action (treasure_core.kernels.nth_legal), beside
the plain walk that branched on every legal entry, on each game's own legal masks.

    python benchmarks/draw_speed.py [GAME ...]

The masks are 8 batches of 1,024 games each, after 300 random steps (every stage of play);
each game's pick is uniform over its legal actions, as sampled_legal's. Both walks run over the
same masks in one process, one thread, best of 100 passes; the ratio is the figure to read (the
machine is shared). Both must find the same actions.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numba
import numpy as np

from treasure_core.batch import BatchRunner
from treasure_core.jit import njit
from treasure_core.kernels import nth_legal
from treasure_core.registry import game_names

PASSES = 100


@njit(inline="always")
def branching_walk(mask: np.ndarray, pick: int) -> int:
    """The walk before nth_legal's blocks: a branch on every legal entry."""
    for action in range(mask.shape[0]):
        if mask[action] != 0:
            if pick == 0:
                return action
            pick -= 1
    return -1


def walker(nth: Callable[[np.ndarray, int], int]) -> Callable[[np.ndarray, np.ndarray], int]:
    """A jitted loop drawing each row's pick with `nth` (the sum keeps the work from vanishing)."""

    @njit
    def walk(masks: np.ndarray, picks: np.ndarray) -> int:
        total = 0
        for g in range(masks.shape[0]):
            total += nth(masks[g], picks[g])
        return total

    return walk


walk_branching = walker(branching_walk)
walk_blocks = walker(nth_legal)


def game_masks(name: str) -> tuple[np.ndarray, np.ndarray]:
    runner = BatchRunner(name, 1024, seed=1, num_threads=1)
    for _ in range(300):
        runner.step(runner.random_actions())
    batches = []
    for _ in range(8):
        runner.step(runner.random_actions())
        batches.append(runner.legal_masks().copy())
    masks = np.concatenate(batches)
    picks = np.random.default_rng(0).random(masks.shape[0]) * (masks != 0).sum(axis=1)
    return masks, picks.astype(np.int64)


def ns_per_draw(walk, masks: np.ndarray, picks: np.ndarray) -> float:
    best = float("inf")
    for _ in range(PASSES):
        start = time.perf_counter()
        walk(masks, picks)
        best = min(best, time.perf_counter() - start)
    return best / masks.shape[0] * 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=game_names(), help="games (default: all)")
    args = parser.parse_args()
    numba.set_num_threads(1)
    print(f"{'game':<10}{'actions':>8}{'legal':>7}{'branching ns':>14}{'nth_legal ns':>14}{'ratio':>7}")
    for name in args.games:
        masks, picks = game_masks(name)
        if walk_branching(masks, picks) != walk_blocks(masks, picks):
            raise SystemExit(f"{name}: the two walks found different actions")
        before = ns_per_draw(walk_branching, masks, picks)
        after = ns_per_draw(walk_blocks, masks, picks)
        legal = (masks != 0).sum(axis=1).mean()
        ratio = before / after
        print(f"{name:<10}{masks.shape[1]:>8}{legal:>7.1f}{before:>14.0f}{after:>14.0f}{ratio:>7.2f}")


if __name__ == "__main__":
    main()
