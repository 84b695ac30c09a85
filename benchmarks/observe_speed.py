"""How long each game's batch observation takes: ms per 1,024 observations, 1 thread.

    python benchmarks/observe_speed.py [GAME ...] [--windows 7] [--dtype float32 uint8]

The states are a mix of game stages from random play (random_playout, then a few snapshots
some steps apart); each figure is the best of several windows over those snapshots, on one
numba thread (`batch_observe`, or `batch_observe_uint8` for --dtype uint8). A `batch step`
column times `random_actions` + `step` on the same games, for the share observe takes of the
bench's batch row.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from treasure_core.batch import BatchRunner, _observe_kernel
from treasure_core.registry import game_names

N_GAMES = 1024
WARM_STEPS = 300  # random steps before the first snapshot: the games' stages spread out
SNAPSHOTS = 8
STEPS_BETWEEN = 23
REPEATS = 20  # observe calls per snapshot in one window


def snapshots(game: str, seed: int = 0) -> tuple[BatchRunner, list[np.ndarray]]:
    runner = BatchRunner(game, N_GAMES, seed=seed, num_threads=1)
    runner.random_playout(WARM_STEPS, seed=seed)
    states = []
    for k in range(SNAPSHOTS):
        runner.random_playout(STEPS_BETWEEN, seed=seed + 1 + k)
        states.append(runner.states.copy())
    return runner, states


def observe_ms(runner: BatchRunner, states: list[np.ndarray], dtype: str, windows: int) -> float:
    """Best window's mean ms per batch observation of N_GAMES games."""
    kernel = _observe_kernel(runner.game, dtype)
    out = np.empty((N_GAMES, runner.dims.obs_size), dtype)
    kernel(states[0], out)  # compile / load
    best = float("inf")
    for _ in range(windows):
        start = time.perf_counter()
        for block in states:
            for _ in range(REPEATS):
                kernel(block, out)
        best = min(best, (time.perf_counter() - start) / (len(states) * REPEATS))
    return best * 1e3


def step_ms(runner: BatchRunner, windows: int) -> float:
    """Best window's mean ms per random_actions + step of N_GAMES games."""
    actions = np.empty(N_GAMES, np.int64)
    best = float("inf")
    for w in range(windows):
        start = time.perf_counter()
        for k in range(REPEATS):
            runner.step(runner.random_actions(seed=w * REPEATS + k, out=actions))
        best = min(best, (time.perf_counter() - start) / REPEATS)
    return best * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games", nargs="*", help="default: every registered game")
    parser.add_argument("--windows", type=int, default=7)
    parser.add_argument("--dtype", nargs="+", default=["float32"], choices=["float32", "uint8"])
    args = parser.parse_args()
    numba.set_num_threads(1)
    games = args.games or list(game_names())
    header = "".join(f"{'observe ' + d:>18}" for d in args.dtype)
    print(f"ms per {N_GAMES} games, 1 thread, best of {args.windows} windows")
    print(f"{'game':<10}{header}{'batch step':>14}{'observe share':>15}")
    for game in games:
        runner, states = snapshots(game)
        numba.set_num_threads(1)
        figures = [observe_ms(runner, states, dtype, args.windows) for dtype in args.dtype]
        stepping = step_ms(runner, args.windows)
        cells = "".join(f"{ms:>18.3f}" for ms in figures)
        share = figures[0] / (figures[0] + stepping)
        print(f"{game:<10}{cells}{stepping:>14.3f}{share:>14.0%}")


if __name__ == "__main__":
    main()
