"""One game's throughput under several option sets, measured side by side in one run.

    python benchmarks/variants.py nakbe "" "board=jungle" "campaign=true"

Each argument after the game is one option set (comma-separated name=value, "" for the
defaults). For each set: the AEC loop, the BatchRunner x1024 driven from Python on 1 thread,
and the in-kernel random playout x1024 on 1 thread, with the same drivers and best-of-windows
timing as `treasure-envs bench`. The first set is the reference for the ratios.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from treasure_apps.bench import (
    PLAYOUT_BATCH,
    SEED,
    aec_random_loop,
    batch_python_loop,
    kernel_playout_loop,
    timed,
)
from treasure_core.batch import BatchRunner
from treasure_core.options import parse_cli_value
from treasure_core.registry import get_game, make_env


def parse_options(game: str, text: str) -> dict[str, Any]:
    declared = {option.name: option for option in get_game(game).options}
    options = {}
    for pair in filter(None, text.split(",")):
        name, value = pair.split("=", 1)
        if name not in declared:
            raise ValueError(f"{game}: unknown option {name!r}; allowed: {', '.join(declared)}")
        options[name] = parse_cli_value(declared[name], value)
    return get_game(game).validate(options)


def measure(game: str, options: dict[str, Any], seconds: float) -> dict[str, float]:
    game_options = {k: v for k, v in options.items() if k != "illegal_action"}
    env = make_env(game, **game_options)
    rng = np.random.default_rng(SEED)
    aec = timed(lambda s: aec_random_loop(env, rng, s, SEED), seconds)
    runner = BatchRunner(game, PLAYOUT_BATCH, seed=SEED, num_threads=1, **game_options)
    batch = timed(lambda s: batch_python_loop(runner, rng, s), seconds)
    playout = timed(lambda s: kernel_playout_loop(runner, s, SEED), seconds)
    return {
        "aec": aec["steps_per_second"],
        "batch": batch["steps_per_second"],
        "playout": playout["steps_per_second"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game")
    parser.add_argument("option_sets", nargs="+")
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    sets = [(text or "defaults", parse_options(args.game, text)) for text in args.option_sets]
    results = [(label, measure(args.game, options, args.seconds)) for label, options in sets]
    reference = results[0][1]
    print(f"{args.game}: steps/s, and the ratio to '{results[0][0]}' measured in the same run")
    print(f"{'options':<24}{'AEC loop':>18}{'batch x1024, 1 thr':>24}{'playout x1024, 1 thr':>26}")
    for label, figures in results:
        cells = [
            f"{figures[k]:>11,.0f} {figures[k] / reference[k]:>4.2f}x" for k in ("aec", "batch", "playout")
        ]
        print(f"{label:<24}{cells[0]:>18}{cells[1]:>24}{cells[2]:>26}")


if __name__ == "__main__":
    main()
