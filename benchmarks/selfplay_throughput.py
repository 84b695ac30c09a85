"""Random self-play throughput of every execution path, against PettingZoo's connect_four_v3.

Everything is measured in one run on one machine, and each figure is reported as a ratio to
connect_four_v3 driven by the very same AEC loop, so the ratios carry over between machines
better than the raw steps per second do. The paths:

* aec          the PettingZoo AEC loop (`env.agent_iter()` / `env.last()` / `env.step()`) with a
               uniformly random legal action drawn from `obs["action_mask"]`;
* batch        `BatchRunner` driven from Python: `legal_masks()`, `observe()` and `step()` every
               step, actions drawn by a vectorised numpy masked-uniform policy;
* playout      `BatchRunner.random_playout`: random self-play entirely inside one numba kernel.

A "step" is one decision by one player; the dead steps of the AEC loop (`env.step(None)` for
finished agents) are not counted. Usage, from the repository root:

    python benchmarks/selfplay_throughput.py --seconds 3 --json throughput.json

connect_four_v3 needs PettingZoo's classic extras: pip install "pettingzoo[classic]".
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from importlib.metadata import version

import numba
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from treasure_core.aec import TreasureAECEnv
from treasure_core.batch import BatchRunner
from treasure_core.registry import game_names, get_game

DEFAULT_SECONDS = 3.0  # wall-clock budget of each measurement
BATCH_SIZE = 1024  # games stepped together by the batch and playout paths
THREAD_COUNTS = (1, 2)  # numba threads tried for the batch and playout paths
PLAYOUT_STEPS_PER_CALL = 64  # decisions each game takes per random_playout call
SEED = 0  # base seed of every environment and random generator
REFERENCE = "connect_four_v3 aec"  # the row every other row is divided by

# A measurement: run for about `seconds` (0 means one minimal unit of work) and return
# (steps taken, seconds elapsed).
Measure = Callable[[float], tuple[int, float]]
# The rows to measure, in order: (label, a factory that sets the path up and returns its Measure).
Plan = list[tuple[str, Callable[[], Measure]]]


@dataclass
class Result:
    """One row of the table."""

    path: str
    steps: int
    seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds


# -- the three drivers -----------------------------------------------------------------------


def aec_random_loop(
    env: AECEnv, rng: np.random.Generator, seconds: float, first_seed: int
) -> tuple[int, float]:
    """Play whole games of uniformly random legal moves until `seconds` have passed.

    The clock is read between games, so at least one game is played and every counted game
    is complete. Each game is reset with the next seed. Returns (real steps, elapsed seconds).
    """
    steps = 0
    seed = first_seed
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            observation, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.integers(legal.size)])
                steps += 1
            env.step(action)
        if time.perf_counter() >= deadline:
            return steps, time.perf_counter() - start


def masked_uniform_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of `masks`: the argmax of uniform noise
    over the legal entries (illegal entries get -1, below any noise)."""
    noise = rng.random(masks.shape)
    return np.where(masks != 0, noise, -1.0).argmax(axis=1)


def batch_python_loop(runner: BatchRunner, rng: np.random.Generator, seconds: float) -> tuple[int, float]:
    """Step every game of `runner` with the masked-uniform policy until `seconds` have passed,
    observing every step as a learner would. Returns (steps, elapsed seconds)."""
    observations = np.empty((runner.n_games, runner.dims.obs_size), np.float32)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        masks = runner.legal_masks()
        runner.observe(out=observations)
        runner.step(masked_uniform_actions(masks, rng))
        steps += runner.n_games
        if time.perf_counter() >= deadline:
            return steps, time.perf_counter() - start


def kernel_playout_loop(runner: BatchRunner, seconds: float, first_seed: int) -> tuple[int, float]:
    """Call `random_playout` in chunks, a fresh seed each, until `seconds` have passed.
    Returns (steps, elapsed seconds)."""
    steps = 0
    seed = first_seed
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        taken, _games_ended = runner.random_playout(PLAYOUT_STEPS_PER_CALL, seed=seed)
        seed += 1
        steps += taken
        if time.perf_counter() >= deadline:
            return steps, time.perf_counter() - start


# -- the measurements ------------------------------------------------------------------------


def connect_four_env() -> AECEnv:
    """PettingZoo's connect_four_v3, with a readable error when its extras are missing."""
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError as error:
        sys.exit(f'connect_four_v3 is unavailable ({error}); install pip install "pettingzoo[classic]"')
    return connect_four_v3.env()


def treasure_env(game: str) -> AECEnv:
    """A registered game at default options, wrapped as its package's env() wraps it."""
    return OrderEnforcingWrapper(TreasureAECEnv(get_game(game)))


def aec_measure(env: AECEnv) -> Measure:
    rng = np.random.default_rng(SEED)
    return lambda seconds: aec_random_loop(env, rng, seconds, SEED)


def batch_measure(game: str, threads: int) -> Measure:
    runner = BatchRunner(game, BATCH_SIZE, seed=SEED, num_threads=threads)
    rng = np.random.default_rng(SEED)
    return lambda seconds: batch_python_loop(runner, rng, seconds)


def playout_measure(game: str, threads: int) -> Measure:
    runner = BatchRunner(game, BATCH_SIZE, seed=SEED, num_threads=threads)
    return lambda seconds: kernel_playout_loop(runner, seconds, SEED)


def planned_measurements(games: list[str], thread_counts: list[int]) -> Plan:
    """Every row, the reference first. Factories build lazily so that each path is set up
    just before it is warmed up and timed."""
    plan: Plan = [(REFERENCE, lambda: aec_measure(connect_four_env()))]
    for game in games:
        plan.append((f"{game} aec", lambda game=game: aec_measure(treasure_env(game))))
        for threads in thread_counts:
            plan.append(
                (f"{game} batch x{BATCH_SIZE} python, {threads} thr", partial(batch_measure, game, threads))
            )
        for threads in thread_counts:
            plan.append(
                (
                    f"{game} playout x{BATCH_SIZE} kernel, {threads} thr",
                    partial(playout_measure, game, threads),
                )
            )
    return plan


def run(games: list[str], seconds: float) -> list[Result]:
    """Warm up (compiles numba kernels on first call) and time every path in turn."""
    thread_counts = [t for t in THREAD_COUNTS if t <= numba.config.NUMBA_NUM_THREADS]
    skipped = sorted(set(THREAD_COUNTS) - set(thread_counts))
    if skipped:
        available = numba.config.NUMBA_NUM_THREADS
        print(f"skipping thread counts {skipped}: numba has {available} threads", file=sys.stderr)
    results = []
    for label, factory in planned_measurements(games, thread_counts):
        print(f"measuring {label} ...", file=sys.stderr, flush=True)
        measure = factory()
        measure(0.0)  # warm-up: one game, one batch step or one playout call, untimed
        steps, elapsed = measure(seconds)
        results.append(Result(label, steps, elapsed))
    return results


# -- reporting -------------------------------------------------------------------------------


def machine_info() -> dict[str, object]:
    """What the figures depend on, besides the code."""
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "numba_num_threads": numba.config.NUMBA_NUM_THREADS,
        "numba_threading_layer": numba.threading_layer(),
        "versions": {name: version(name) for name in ("numpy", "numba", "pettingzoo", "treasure-envs")},
    }


def print_table(results: list[Result], reference: Result, seconds: float) -> None:
    path_width = max(len(r.path) for r in results)
    print(f"random self-play, {seconds:g} s per measurement; ratio = steps/s / {REFERENCE} steps/s")
    print(f"{'path':<{path_width}}  {'steps/s':>14}  {'ratio':>9}")
    for result in results:
        ratio = result.steps_per_second / reference.steps_per_second
        print(f"{result.path:<{path_width}}  {result.steps_per_second:>14,.0f}  {ratio:>8.2f}x")


def write_json(path: str, results: list[Result], reference: Result, seconds: float) -> None:
    report = {
        "seconds_per_measurement": seconds,
        "batch_size": BATCH_SIZE,
        "playout_steps_per_call": PLAYOUT_STEPS_PER_CALL,
        "reference": {"path": reference.path, "steps_per_second": reference.steps_per_second},
        "results": [
            {
                "path": r.path,
                "steps": r.steps,
                "seconds": r.seconds,
                "steps_per_second": r.steps_per_second,
                "ratio_to_reference": r.steps_per_second / reference.steps_per_second,
            }
            for r in results
        ],
        "machine": machine_info(),
    }
    with open(path, "w") as file:
        json.dump(report, file, indent=2)
        file.write("\n")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--seconds",
        type=float,
        default=DEFAULT_SECONDS,
        help=f"wall-clock budget of each measurement (default {DEFAULT_SECONDS:g})",
    )
    parser.add_argument(
        "--games",
        nargs="+",
        default=game_names(),
        metavar="GAME",
        help=f"registered games to measure (default: all, i.e. {' '.join(game_names())})",
    )
    parser.add_argument("--json", metavar="PATH", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    if not args.seconds > 0:
        parser.error(f"--seconds must be positive; got {args.seconds:g}")
    unknown = [g for g in args.games if g not in game_names()]
    if unknown:
        parser.error(f"unknown games {unknown}; registered games are {game_names()}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results = run(args.games, args.seconds)
    reference = next(r for r in results if r.path == REFERENCE)
    print_table(results, reference, args.seconds)
    if args.json:
        write_json(args.json, results, reference, args.seconds)
        print(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
