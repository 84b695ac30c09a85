"""The AEC loop of every game as a multiple of PettingZoo's connect_four_v3, measured in one run
(issue 27 item 1: the goal is 4x on every game).

    python benchmarks/aec_speed.py [GAME ...] [--seconds 1.0] [--rounds 5] [--profile GAME]

The loop is `treasure-envs bench`'s (`aec_random_loop`: whole games of uniformly random legal
actions drawn from `observation["action_mask"]`, dead steps not counted). Each round measures
one window of `--seconds` for every env in turn, connect_four_v3 twice (an A/A pair: their ratio
is the noise), so that a load spike touches one window of each rather than all of one; each
figure is the best of its rounds. `--profile GAME` instead runs the loop under cProfile and
prints the functions with the most time of their own.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import pstats
from collections.abc import Callable
from typing import Any

import numpy as np

from treasure_apps.bench import SEED, aec_random_loop
from treasure_core.registry import game_names, make_env

REFERENCE = "connect_four_v3"
NOISE = "connect_four_v3 (A/A)"


def pettingzoo_env(name: str) -> Any:
    return importlib.import_module(f"pettingzoo.classic.{name}").env()


def window(env: Any, seconds: float) -> float:
    """Steps per second of one window (a fresh generator each: every window plays the same games)."""
    steps, elapsed = aec_random_loop(env, np.random.default_rng(SEED), seconds, SEED)
    return steps / elapsed


def measure(envs: dict[str, Any], seconds: float, rounds: int) -> dict[str, float]:
    """The best window of each env over `rounds` interleaved rounds, after a warm-up each."""
    for env in envs.values():
        window(env, 0.0)
    best = dict.fromkeys(envs, 0.0)
    for _ in range(rounds):
        for name, env in envs.items():
            best[name] = max(best[name], window(env, seconds))
    return best


def profile(game: str, seconds: float, lines: int) -> None:
    env = make_env(game)
    window(env, 0.0)
    profiler = cProfile.Profile()
    profiler.enable()
    window(env, seconds)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games", nargs="*", help="default: every registered game")
    parser.add_argument("--seconds", type=float, default=1.0, help="one window")
    parser.add_argument("--rounds", type=int, default=5, help="windows per env, interleaved")
    parser.add_argument("--profile", metavar="GAME", help="cProfile one game's loop instead")
    parser.add_argument("--lines", type=int, default=25, help="functions the profile prints")
    args = parser.parse_args(argv)
    if args.profile:
        profile(args.profile, args.seconds, args.lines)
        return
    makers: dict[str, Callable[[], Any]] = {REFERENCE: lambda: pettingzoo_env(REFERENCE)}
    makers |= {game: (lambda game=game: make_env(game)) for game in args.games or game_names()}
    makers[NOISE] = makers[REFERENCE]
    best = measure({name: make() for name, make in makers.items()}, args.seconds, args.rounds)
    reference = best[REFERENCE]
    print(f"AEC loop, best of {args.rounds} interleaved windows of {args.seconds:g} s")
    print(f"{'env':<24}{'steps/s':>12}{'x ' + REFERENCE:>22}")
    for name, steps_per_second in best.items():
        print(f"{name:<24}{steps_per_second:>12,.0f}{steps_per_second / reference:>21.2f}x")


if __name__ == "__main__":
    main()
