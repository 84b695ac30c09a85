"""The long fuzz: every game and option combination, random play for many steps, with the
invariants and the state validator checked throughout. On demand, not in CI's default run:

    python benchmarks/long_fuzz.py                     # every game, 10**7 steps each
    python benchmarks/long_fuzz.py nakbe --steps 2e6   # one game
    python benchmarks/long_fuzz.py --per-option-set    # 10**7 steps for every option set
    python benchmarks/long_fuzz.py --per-option-set --chunk 2000 --aec-share 0.0005
                                                       # the same, checking states less often
    pytest --long tests/test_long_fuzz.py              # the same from pytest

Each option set (treasure_core.conformance.configs) gets an equal share of the game's steps.
A batch of games plays them in-kernel (random_playout, the fast path), and after every chunk
every game's state is checked: check_invariants and GameSpec.check_state (pure Python, so the
chunk sets the cost: 10**7 steps for each of the 85 option sets take about 20 h with the default
chunk and under an hour with --chunk 2000). The AEC env plays a slice of the steps too (its
Python path, masks and infos). It prints the steps and checks made.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

from treasure_core.aec import TreasureAECEnv
from treasure_core.batch import BatchRunner
from treasure_core.conformance import configs
from treasure_core.registry import game_names, get_game

BATCH = 64
CHUNK = 25  # in-kernel steps per game between two checks of every state
AEC_SHARE = 0.01  # of each option set's steps, through the AEC env


def fuzz_options(
    name: str,
    options: dict[str, Any],
    steps: int,
    seed: int = 0,
    chunk: int = CHUNK,
    aec_share: float = AEC_SHARE,
) -> dict[str, int]:
    """`steps` random steps of one option set, every state checked after each `chunk` in-kernel
    steps per game, `aec_share` of them through the AEC env; returns the counts. AssertionError
    on a breach."""
    game = get_game(name)
    runner = BatchRunner(game, BATCH, seed=seed, num_threads=1, **options)
    done = {"steps": 0, "checks": 0, "games": 0, "aec_steps": 0}
    aec_target = int(steps * aec_share)
    chunk_seed = seed
    while done["steps"] < steps - aec_target:
        taken, finished = runner.random_playout(chunk, seed=chunk_seed)
        chunk_seed += 1
        done["steps"] += taken
        done["games"] += finished
        for i, state in enumerate(runner.states):
            try:
                game.check_invariants(state)
                game.check_state(state, runner.params)
            except (AssertionError, ValueError) as error:
                raise AssertionError(f"{name} {options}, batch game {i}, seed {seed}: {error}") from error
            done["checks"] += 1
    env = TreasureAECEnv(game, **options)
    rng = np.random.default_rng(seed)
    while done["aec_steps"] < aec_target:
        env.reset(seed=int(rng.integers(2**62)))
        while not env.is_over() and done["aec_steps"] < aec_target:
            env.step(int(rng.choice(env.legal_actions())))
            game.check_invariants(env.get_state())
            done["aec_steps"] += 1
            done["checks"] += 1
    done["steps"] += done["aec_steps"]
    return done


def fuzz_game(
    name: str,
    steps: int,
    seed: int = 0,
    out: Any = None,
    per_option_set: bool = False,
    chunk: int = CHUNK,
    aec_share: float = AEC_SHARE,
) -> dict[str, int]:
    """`steps` split over the game's option sets (or `steps` for each of them, per_option_set);
    prints a line per option set and a total."""
    out = sys.stdout if out is None else out
    sets = configs(name)
    total = {"steps": 0, "checks": 0, "games": 0, "aec_steps": 0}
    start = time.perf_counter()
    for k, options in enumerate(sets):
        share = steps if per_option_set else max(1, steps // len(sets))
        counts = fuzz_options(name, options, share, seed + k, chunk, aec_share)
        for key in total:
            total[key] += counts[key]
        print(
            f"  {name} {options}: {counts['steps']:,} steps ({counts['games']:,} games ended), "
            f"{counts['checks']:,} state checks",
            file=out,
            flush=True,
        )
    elapsed = time.perf_counter() - start
    print(
        f"{name}: {total['steps']:,} random steps over {len(sets)} option sets, {total['checks']:,} "
        f"state checks (invariants and validator), no breach, {elapsed:.0f} s",
        file=out,
        flush=True,
    )
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the long fuzz of every game (see the module docstring)")
    parser.add_argument("games", nargs="*", help="games (default: every registered game)")
    parser.add_argument("--steps", type=float, default=1e7, help="random steps per game (default 1e7)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--per-option-set", action="store_true", help="--steps for every option set, not split over them"
    )
    parser.add_argument(
        "--chunk", type=int, default=CHUNK, help=f"in-kernel steps per game between checks (default {CHUNK})"
    )
    parser.add_argument(
        "--aec-share", type=float, default=AEC_SHARE, help=f"share of the steps in the AEC env ({AEC_SHARE})"
    )
    args = parser.parse_args(argv)
    if args.chunk < 1 or not 0 <= args.aec_share <= 1:
        parser.error("--chunk must be at least 1 and --aec-share from 0 to 1")
    for name in args.games or game_names():
        fuzz_game(
            name,
            int(args.steps),
            args.seed,
            per_option_set=args.per_option_set,
            chunk=args.chunk,
            aec_share=args.aec_share,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
