"""`treasure-envs bench`: throughput, scaling, start-up and memory of every registered game,
side by side with the peer libraries, measured in one run on one machine.

For every game in the registry, at its default options:

* aec        the PettingZoo AEC loop (`agent_iter` / `last` / `step`) with a uniformly random
             legal action drawn from `observation["action_mask"]`;
* batch      `BatchRunner` driven from Python at several batch sizes, with `observe()`,
             `random_actions()` (a uniformly random legal action per game, drawn in a kernel from
             `legal_masks()`: Pgx's row draws its random actions inside its jitted step too) and
             `step()` every step, on 1 thread and on all of numba's threads; for a game that
             names speed options (GameSpec.speed_options: Karuba's previews=False), the x1024
             row again at them (batch_speed);
* playout    `BatchRunner.random_playout` (random self-play inside one numba kernel) on 1 thread
             and on all threads; then, in fresh processes with alternating windows, all threads in
             one process against that many 1-thread processes (threads ÷ processes; skipped
             under --quick, with the reason);
* start      seconds from launching a fresh Python process until the first `reset`, the end of
             the first random AEC game, a BatchRunner's first step and its first playout, with an
             empty numba cache (cold; skipped under --quick) and again with the cache that run
             left behind (cached);
* memory     bytes per game state, and the numpy memory of a batch of 10^5 games (10^4 under
             --quick).
* search     ms per decision of the search (treasure_core.search, the game's defaults) at 100,
             400 and 1,600 simulations on 1 thread and on all threads, on the opening position.

The peers, on the same loops: PettingZoo's connect_four_v3 and texas_holdem_v4 (AEC loop),
OpenSpiel's connect_four and backgammon (a Python loop over pyspiel), and Pgx's connect_four at
batch 1024 (a jitted step driven from Python, and a rollout inside one jit), in one subprocess
for the whole run whose windows alternate with every game's batch x1024 and playout windows (the
ratios to Pgx are of windows seconds apart). A peer that is not installed, or fails, is
recorded as null with the reason.

A step is one decision by one player: the dead steps of the AEC loop (`step(None)` for finished
agents) and OpenSpiel's chance nodes are not counted. Every figure is also given as a ratio to
connect_four_v3 on the same AEC loop, which carries over between machines better than steps/s.
Each throughput figure is the best of WINDOWS windows after an untimed warm-up.

Output: a table on the terminal with every target met or missed, and in --out (bench-results/)
bench.json (every figure, the machine, how busy it was), bench.md (the README's tables) and
bench.png (every throughput figure as a multiple of connect_four_v3, ours beside the peers).
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import multiprocessing
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import numba
import numpy as np

from treasure_apps.arguments import DefaultsHelpFormatter
from treasure_apps.warmup import JOBS_PER_GAME
from treasure_core.batch import BatchRunner
from treasure_core.registry import game_names, get_game, make_env, module_of, register
from treasure_core.tiers import forced_tier
from treasure_core.warmup import usable_cores

DESCRIPTION = "throughput, scaling, start-up and memory of every game, beside the peer libraries"
SCHEMA_VERSION = 7  # 2: the Pgx windows beside the batch and playout rows, the fresh threads;
# 3: the search section as rows of simulations x threads; 4: the batch row at the speed options;
# 5: playout's fresh_reason (the fresh-process figures are null under --quick); 6: the start-up
# stages aec_compiled and batch_compiled (treasure_core.tiers); 7: runner_ready and runner_reason
DEFAULT_SECONDS = 3.0  # wall-clock budget of each throughput figure
QUICK_SECONDS = 0.3  # the same, under --quick
WINDOWS = 3  # each figure is the best of this many windows of seconds / WINDOWS (load spikes)
BATCH_SIZES = (1, 64, 1024)  # games per BatchRunner driven from Python
PLAYOUT_BATCH = 1024  # games per random_playout call
PLAYOUT_STEPS_PER_CALL = 256  # decisions each game takes per random_playout call
MEMORY_GAMES = 100_000  # the batch whose memory is measured
QUICK_MEMORY_GAMES = 10_000  # the same, under --quick
# The search section: simulations per decision (the game's search defaults), each on one thread
# and on all threads (root parallelism); under --quick the first count on one thread only.
SEARCH_SIMS = (100, 400, 1600)
QUICK_SEARCH_SIMS = (100,)
SEARCH_DECISIONS = 5  # decisions timed on the opening position (after one to load the cache)
SEED = 0
# Before the peers and before each game, the benchmark sleeps a moment and counts how many cores
# other processes kept busy meanwhile; more than BUSY_CORES makes what follows suspect.
BUSY_SAMPLE_SECONDS = 0.5
BUSY_CORES = 0.25
SUBPROCESS_TIMEOUT = 600.0  # seconds; a start-up, memory or peer subprocess slower than this failed
REFERENCE = "pettingzoo connect_four_v3"  # every ratio is to this peer's AEC figure

# The targets of issue 5. Throughput targets are lower bounds, start-up targets upper bounds.
AEC_VS_CONNECT_FOUR = 4.0
BATCH_1024_STEPS_PER_SECOND = {"nakbe": 1.5e6}
PLAYOUT_STEPS_PER_SECOND = {"nakbe": 3.5e6}
PLAYOUT_EVERY_GAME_STEPS_PER_SECOND = 1e6
# Issue 27's goals against Pgx, in interleaved windows: the batch x1024 with observations at
# least Pgx's jitted step (best thread count), the in-kernel playout on all threads at least
# twice Pgx's rollout in one jit.
BATCH_VS_PGX_STEP = 1.0
PLAYOUT_VS_PGX_ROLLOUT = 2.0
THREADS_VS_PROCESSES = 0.95  # the playout on all threads of one process over as many processes
# Issue 28: a search decision at SEARCH_TARGET_SIMS simulations on one thread takes at most this.
SEARCH_TARGET_SIMS = 400
SEARCH_MS_PER_DECISION = 50.0
# Start-up targets (issue 26), upper bounds in seconds from launch: the first AEC step, the first
# batch step, and every kernel of the game (`treasure-envs warmup GAME` on the usable cores).
# An RLlib env runner's node ready: ray and torch imported, treasure_adapters.rllib.warm_up done.
COLD_START_SECONDS = {"first_step": 5.0, "batch_ready": 10.0, "warmup": 20.0, "runner_ready": 15.0}
CACHED_START_SECONDS = {"first_step": 1.0, "batch_ready": 1.0, "warmup": 5.0, "runner_ready": 5.0}
START_TARGET_STAGES = tuple(COLD_START_SECONDS)
# The stages START_SCRIPT stamps, in order; "warmup" is timed in a process of its own.
# Processes of `treasure-envs warmup GAME` in the warmup figure: the usable cores, up to the
# parts a game is split into (the CLI takes the free cores; the bench's own load would hide them).
WARMUP_JOBS = min(JOBS_PER_GAME, usable_cores())
START_STAGES = (
    "reset",
    "first_step",
    "first_game",
    "batch_ready",
    "aec_compiled",
    "batch_compiled",
    "playout_ready",
)

# A measurement: run for about `seconds` (0 means one minimal unit of work, the warm-up) and
# return (steps taken, seconds elapsed).
Measure = Callable[[float], tuple[int, float]]


def rate(steps: int, seconds: float) -> dict[str, Any]:
    return {"steps": int(steps), "seconds": float(seconds), "steps_per_second": steps / seconds}


def timed(measure: Measure, seconds: float) -> dict[str, Any]:
    """Warm up untimed (numba loads or compiles the kernels on first call), then keep the best
    of WINDOWS measurements of seconds / WINDOWS each: on a shared machine the best window is
    the one least disturbed by other work."""
    measure(0.0)
    windows = [rate(*measure(seconds / WINDOWS)) for _ in range(WINDOWS)]
    return max(windows, key=lambda window: window["steps_per_second"]) | {"windows": WINDOWS}


def unavailable(reason: str) -> dict[str, Any]:
    return {"steps": None, "seconds": None, "steps_per_second": None, "reason": reason}


_RUN_STARTED = time.perf_counter()  # reset by run_bench: log() stamps each section from there


def log(message: str) -> None:
    """A section's start on stderr, with the seconds since the run began."""
    print(f"[{time.perf_counter() - _RUN_STARTED:6.1f} s] {message}", file=sys.stderr, flush=True)


# -- the drivers ------------------------------------------------------------------------------


def aec_random_loop(env: Any, rng: np.random.Generator, seconds: float, first_seed: int) -> tuple[int, float]:
    """Whole games of uniformly random legal moves on any PettingZoo AEC env, until `seconds`
    have passed (the clock is read between games, so every counted game is complete)."""
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


def batch_python_loop(runner: BatchRunner, rng: np.random.Generator, seconds: float) -> tuple[int, float]:
    """Step every game of `runner` with uniformly random legal actions (`random_actions`),
    observing every step as a learner would, until `seconds` have passed."""
    observations = np.empty((runner.n_games, runner.dims.obs_size), np.float32)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    actions = np.empty(runner.n_games, np.int64)
    while True:
        runner.observe(out=observations)
        runner.step(runner.random_actions(seed=int(rng.integers(1 << 62)), out=actions))
        steps += runner.n_games
        if time.perf_counter() >= deadline:
            return steps, time.perf_counter() - start


def kernel_playout_loop(runner: BatchRunner, seconds: float, first_seed: int) -> tuple[int, float]:
    """`random_playout` in chunks of PLAYOUT_STEPS_PER_CALL, a fresh seed each."""
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


def openspiel_random_loop(game: Any, rng: random.Random, seconds: float) -> tuple[int, float]:
    """Whole games of uniformly random legal moves through pyspiel from Python; chance nodes
    are sampled by their probabilities and not counted as steps. No observation tensors."""
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        if time.perf_counter() >= deadline:
            return steps, time.perf_counter() - start


# -- our games --------------------------------------------------------------------------------


def measure_aec(game: str, seconds: float) -> dict[str, Any]:
    """The game's AEC loop, its windows interleaved with windows of connect_four_v3's (the
    reference) when PettingZoo's classic games are installed: the AEC target compares windows
    seconds apart, not sections minutes apart, so a load that comes and goes moves both."""
    env = make_env(game)
    rng = np.random.default_rng(SEED)
    ours: Measure = lambda s: aec_random_loop(env, rng, s, SEED)  # noqa: E731
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError as error:
        unmatched = {"interleaved_reference": None, "vs_reference": None, "reason": str(error)}
        return timed(ours, seconds) | unmatched
    peer_env = connect_four_v3.env()
    peer_rng = np.random.default_rng(SEED)
    theirs: Measure = lambda s: aec_random_loop(peer_env, peer_rng, s, SEED)  # noqa: E731
    best, best_peer = interleaved(ours, theirs, seconds)
    return best | {
        "windows": WINDOWS,
        "interleaved_reference": best_peer,
        "vs_reference": best["steps_per_second"] / best_peer["steps_per_second"],
    }


def interleaved(ours: Measure, theirs: Measure, seconds: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """The best of WINDOWS windows of each, after an untimed warm-up of each, our windows and
    theirs alternating: a load that comes and goes moves both."""
    ours(0.0)
    theirs(0.0)
    own_windows, peer_windows = [], []
    for _ in range(WINDOWS):
        own_windows.append(rate(*ours(seconds / WINDOWS)))
        peer_windows.append(rate(*theirs(seconds / WINDOWS)))
    return (
        max(own_windows, key=lambda window: window["steps_per_second"]),
        max(peer_windows, key=lambda window: window["steps_per_second"]),
    )


def beside_pgx(ours: Measure, seconds: float, pgx: PgxServer | None, kind: str) -> dict[str, Any]:
    """`timed(ours)`, or, with a Pgx server, our windows alternating with its `kind` windows:
    the figure plus `interleaved_pgx` (its best window) and `vs_pgx` (the ratio of the two)."""
    if pgx is None:
        return timed(ours, seconds) | {"interleaved_pgx": None, "vs_pgx": None}
    best, best_pgx = interleaved(ours, pgx.measure(kind), seconds)
    return best | {
        "windows": WINDOWS,
        "interleaved_pgx": best_pgx,
        "vs_pgx": best["steps_per_second"] / best_pgx["steps_per_second"],
    }


def aec_ratio(figures: dict[str, Any], reference: float | None) -> float | None:
    """The AEC loop over connect_four_v3: the interleaved windows' ratio where measured, else
    against the peers' section."""
    interleaved = figures["aec"].get("vs_reference")
    if interleaved is not None:
        return interleaved
    return figures["aec"]["steps_per_second"] / reference if reference else None


def measure_batch(
    game: str,
    batch_size: int,
    threads: int,
    seconds: float,
    pgx: PgxServer | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The batch row (at the game's defaults, or at `options`); at Pgx's batch size, beside
    Pgx's jitted step when a server is given."""
    runner = BatchRunner(game, batch_size, seed=SEED, num_threads=threads, **(options or {}))
    rng = np.random.default_rng(SEED)
    matched = pgx if batch_size == PLAYOUT_BATCH else None
    return {"batch_size": batch_size, "threads": threads} | beside_pgx(
        lambda s: batch_python_loop(runner, rng, s), seconds, matched, "step"
    )


def measure_playout(game: str, threads: int, seconds: float, pgx: PgxServer | None = None) -> dict[str, Any]:
    """The in-kernel playout, beside Pgx's rollout in one jit when a server is given."""
    runner = BatchRunner(game, PLAYOUT_BATCH, seed=SEED, num_threads=threads)
    return {"batch_size": PLAYOUT_BATCH, "threads": threads} | beside_pgx(
        lambda s: kernel_playout_loop(runner, s, SEED), seconds, pgx, "rollout"
    )


# Threads against processes needs fresh processes (about 2.5 s a game to start and warm), and
# --quick's 0.1 s windows would measure their noise: a quick run leaves it out.
QUICK_FRESH_REASON = "skipped under --quick (fresh processes, about 2.5 s a game)"
FRESH_FIGURES = ("fresh_threads", "processes", "process_scaling", "threads_vs_processes")


def playout_fresh_figures(fresh: dict[str, Any], one: dict[str, Any]) -> dict[str, Any]:
    """measure_playout_fresh's figures as the playout section keeps them, beside the 1-thread
    row `one` of the bench's own process."""
    processes = fresh["processes"]
    return {
        "fresh_threads": fresh["threads"],
        "processes": processes,
        "process_scaling": processes["steps_per_second"] / one["steps_per_second"],
        "threads_vs_processes": fresh["threads"]["steps_per_second"] / processes["steps_per_second"],
        "fresh_reason": None,
    }


def _playout_worker(
    game: str, module: str, threads: int, seed: int, commands: Any, results: Any, barrier: Any
) -> None:
    """A spawned process running the playout on `threads` threads: warm up, say so, then one
    window per command (its seconds; None ends it), after waiting at `barrier` if given."""
    try:
        register(game, module)
        runner = BatchRunner(game, PLAYOUT_BATCH, seed=seed, num_threads=threads)
        kernel_playout_loop(runner, 0.0, seed)
        results.put((seed, "ready", None))
        while (seconds := commands.get()) is not None:
            if barrier is not None:
                barrier.wait(timeout=SUBPROCESS_TIMEOUT)
            seed += 1
            results.put((seed, rate(*kernel_playout_loop(runner, seconds, seed)), None))
    except Exception as error:  # reported by the parent, with the traceback's last line
        results.put((seed, None, f"{type(error).__name__}: {error}"))


def measure_playout_fresh(game: str, processes: int, seconds: float) -> dict[str, Any]:
    """Threads against processes on equal terms: one fresh spawned process running the playout
    on `processes` threads, and `processes` fresh 1-thread processes running it at once (started
    together at a barrier), their windows alternating. The bench's own long-lived process runs
    15-25% slower than a fresh one, so its thread figures are not set against fresh processes.
    Returns the threads' best window and the processes' best window (the sum of their rates)."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    barrier = context.Barrier(processes)
    commands = [context.Queue() for _ in range(processes + 1)]
    workers = [
        context.Process(
            target=_playout_worker,
            args=(game, module_of(game), threads, SEED + 1000 * index, commands[index], results, gate),
            daemon=True,
        )
        for index, (threads, gate) in enumerate([(processes, None)] + [(1, barrier)] * processes)
    ]

    def answers(count: int) -> list[dict[str, Any] | str]:
        got = [results.get(timeout=SUBPROCESS_TIMEOUT) for _ in range(count)]
        errors = [error for _, _, error in got if error]
        if errors:
            raise RuntimeError(f"{game}: a playout process failed: {errors[0]}")
        return [figures for _, figures, _ in got]

    for worker in workers:
        worker.start()
    try:
        answers(len(workers))  # every worker warmed up
        threads_windows, process_windows = [], []
        for _ in range(WINDOWS):
            commands[0].put(seconds / WINDOWS)
            threads_windows.append(answers(1)[0])
            for queue in commands[1:]:
                queue.put(seconds / WINDOWS)
            per_process = answers(processes)
            process_windows.append(
                {
                    "steps_per_second": sum(row["steps_per_second"] for row in per_process),
                    "per_process": per_process,
                }
            )
        for queue in commands:
            queue.put(None)
        for worker in workers:
            worker.join(timeout=SUBPROCESS_TIMEOUT)
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
    best_threads = max(threads_windows, key=lambda window: window["steps_per_second"])
    best_processes = max(process_windows, key=lambda window: window["steps_per_second"])
    return {
        "threads": {"batch_size": PLAYOUT_BATCH, "threads": processes, "windows": WINDOWS} | best_threads,
        "processes": {
            "processes": processes,
            "threads_per_process": 1,
            "batch_size": PLAYOUT_BATCH,
            "windows": WINDOWS,
        }
        | best_processes,
    }


# Run with `python -c` in a fresh process; prints one JSON line of time.time() stamps, taken
# when the first reset returns, when the first random AEC game ends, when a BatchRunner has
# initialised, masked, observed and stepped its games (a learner's first step), when the AEC
# kernels and then the batch kernels run compiled (with an empty cache, under the default tier,
# the first steps run the kernels' Python twins while a background process compiles them:
# treasure_core.tiers; the script plays on meanwhile, as a user would), and when its first
# random_playout returns.
START_SCRIPT = """
import json, sys, time
import numpy as np
from treasure_core.registry import get_game, make_env, register
game, module = sys.argv[1], sys.argv[2]
register(game, module)
env = make_env(game)
env.reset(seed=0)
stamps = {"reset": time.time()}
rng = np.random.default_rng(0)
def play_one():
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        legal = np.flatnonzero(observation["action_mask"])
        env.step(None if termination or truncation else int(rng.choice(legal)))
        stamps.setdefault("first_step", time.time())
        if settled(AEC):
            return
AEC = ("legal_mask", "step", "observe")
BATCH = ("batch_legal_mask", "batch_observe", "batch_step_unrefused")
live = get_game(game).live
def settled(names):
    return "first_game" in stamps and all(live.tier_of(name) == "compiled" for name in names)
play_one()
stamps["first_game"] = time.time()
from treasure_core.batch import BatchRunner
runner = BatchRunner(game, 64, seed=0)
masks = runner.legal_masks()
runner.observe()
runner.step(masks.argmax(axis=1))
stamps["batch_ready"] = time.time()
seed = 1
while not settled(AEC):
    env.reset(seed=seed)
    seed += 1
    play_one()
stamps["aec_compiled"] = time.time()
while not settled(BATCH):
    masks = runner.legal_masks()
    runner.observe()
    runner.step(masks.argmax(axis=1))
stamps["batch_compiled"] = time.time()
runner.random_playout(2, seed=0)
stamps["playout_ready"] = time.time()
print(json.dumps(stamps))
"""


def run_script(script: str, args: list[str], env: dict[str, str] | None = None) -> tuple[str, float, float]:
    """Run `script` in a fresh interpreter; return its last stdout line, its launch time and the
    CPU seconds it used (user + system)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    launched = time.time()
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=SUBPROCESS_TIMEOUT,
    )
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or ["(no error output)"]
        raise RuntimeError(f"benchmark subprocess failed (exit {done.returncode}): {tail[0]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    return done.stdout.strip().splitlines()[-1], launched, cpu


# Run with `python -c`: every kernel of the game, as `treasure-envs warmup GAME --jobs JOBS`
# compiles them (its own report on stderr).
WARMUP_SCRIPT = """
import contextlib, json, sys, time
from treasure_apps.warmup import run_warmup
from treasure_core.registry import register
if __name__ == "__main__":
    register(sys.argv[1], sys.argv[2])
    with contextlib.redirect_stdout(sys.stderr):
        run_warmup([sys.argv[1]], int(sys.argv[3]))
    print(json.dumps({"warmup": time.time()}))
"""


# Run with `python -c`: an RLlib env runner's node made ready, as `treasure-envs train --engine
# rllib` readies each node: what a runner imports, then treasure_adapters.rllib.warm_up.
RUNNER_SCRIPT = """
import json, sys, time
if __name__ == "__main__":
    import ray, torch
    from treasure_adapters.rllib import warm_up
    from treasure_core.registry import register
    register(sys.argv[1], sys.argv[2])
    warm_up(sys.argv[1], jobs=int(sys.argv[3]))
    print(json.dumps({"runner_ready": time.time()}))
"""
RUNNER_MISSING = "ray or torch is not installed (pip install treasure-envs[rllib])"


def start_figures(
    game: str, env: dict[str, str], warmup_env: dict[str, str], runner_env: dict[str, str] | None
) -> dict[str, Any]:
    """START_SCRIPT's stages and its CPU seconds in env; WARMUP_SCRIPT's in warmup_env and
    RUNNER_SCRIPT's in runner_env (caches of their own, so that a cold start begins from nothing;
    no runner_env: not measured, for the reason in "runner_reason")."""
    line, launched, cpu = run_script(START_SCRIPT, [game, module_of(game)], env)
    figures = {stage: stamp - launched for stage, stamp in json.loads(line).items()} | {"cpu_seconds": cpu}
    line, launched, _ = run_script(WARMUP_SCRIPT, [game, module_of(game), str(WARMUP_JOBS)], warmup_env)
    figures["warmup"] = json.loads(line)["warmup"] - launched
    figures["runner_ready"], figures["runner_reason"] = None, runner_reason()
    if runner_env is not None and figures["runner_reason"] is None:
        line, launched, _ = run_script(RUNNER_SCRIPT, [game, module_of(game), str(WARMUP_JOBS)], runner_env)
        figures["runner_ready"] = json.loads(line)["runner_ready"] - launched
    return figures


def runner_reason() -> str | None:
    """Why the RLlib runner cannot be measured here, or None."""
    return None if all(importlib.util.find_spec(name) for name in ("ray", "torch")) else RUNNER_MISSING


def measure_start(game: str, cold: bool) -> dict[str, Any]:
    """Cold start with an empty numba cache, then cached start from the cache it left. Each
    stage is in seconds from launching the interpreter; `cpu_seconds` is the whole process's
    CPU time, which a loaded machine inflates less than the wall-clock stages. Without `cold`,
    only the cached start is measured, from numba's usual cache (this process has filled it)."""
    if not cold:
        stages = dict.fromkeys((*START_STAGES, "warmup", "runner_ready", "cpu_seconds"))
        skipped = "skipped under --quick (compiling takes 10-60 s a game)"
        cached = start_figures(game, dict(os.environ), dict(os.environ), None)
        if cached["runner_reason"] is None:
            cached["runner_reason"] = "skipped under --quick (importing ray and torch takes a few seconds)"
        return {
            "cold": stages | {"reason": skipped, "runner_reason": skipped},
            "cached": cached | {"reason": None},
        }
    with (
        tempfile.TemporaryDirectory(prefix="treasure-bench-numba-") as cache_dir,
        tempfile.TemporaryDirectory(prefix="treasure-bench-warmup-") as warmup_dir,
        tempfile.TemporaryDirectory(prefix="treasure-bench-runner-") as runner_dir,
    ):
        env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
        warmup_env = dict(os.environ, NUMBA_CACHE_DIR=warmup_dir)
        runner_env = dict(os.environ, NUMBA_CACHE_DIR=runner_dir)
        kinds = ("cold", "cached")  # the cached run loads what the cold one left
        return {kind: start_figures(game, env, warmup_env, runner_env) | {"reason": None} for kind in kinds}


# Run with `python -c`: the numpy memory of a batch of N games, after the kernels are loaded.
MEMORY_SCRIPT = """
import gc, json, resource, sys, tracemalloc
from treasure_core.batch import BatchRunner
from treasure_core.registry import register
game, module, n_games = sys.argv[1], sys.argv[2], int(sys.argv[3])
register(game, module)
def exercise(runner):
    masks = runner.legal_masks()
    runner.step(masks.argmax(axis=1))  # the first legal action of every game
    runner.random_playout(1, seed=0)
exercise(BatchRunner(game, 2, seed=0))  # load the kernels first
runner = BatchRunner(game, 2, seed=0)
runner.observe()
del runner
gc.collect()
rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
runner = BatchRunner(game, n_games, seed=0)
exercise(runner)
batch_peak = tracemalloc.get_traced_memory()[1]
observations = runner.observe()
with_observations_peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({
    "state_bytes": int(runner.states[0].nbytes),
    "batch_arrays_bytes": int(runner.states.nbytes + runner.rewards.nbytes + runner.dones.nbytes
                              + runner.legal_masks().nbytes),
    "observations_bytes": int(observations.nbytes),
    "tracemalloc_peak_bytes": batch_peak,
    "tracemalloc_peak_with_observations_bytes": with_observations_peak,
    "ru_maxrss_delta_bytes": (rss_after - rss_before) * (1 if sys.platform == "darwin" else 1024),
}))
"""


def measure_memory(game: str, n_games: int) -> dict[str, Any]:
    line, _, _ = run_script(MEMORY_SCRIPT, [game, module_of(game), str(n_games)])
    return {
        "games": n_games,
        "method": (
            "fresh process, kernels loaded first; tracemalloc peak of everything allocated while "
            "building the batch, stepping it once and running a 1-step playout (numpy reports its "
            "arrays to tracemalloc), then again after one observe() of the whole batch; "
            "ru_maxrss growth over the same span as a cross-check"
        ),
    } | json.loads(line)


def measure_game(
    game: str, args: argparse.Namespace, all_threads: int, pgx: PgxServer | None = None
) -> dict[str, Any]:
    spec = get_game(game)
    options = spec.validate({})
    dims = spec.dims(spec.make_params(options))
    thread_counts = sorted({1, all_threads})
    figures: dict[str, Any] = {
        "module": module_of(game),
        "env_name": spec.env_name,
        "options": options,
        "n_actions": dims.n_actions,
        "obs_size": dims.obs_size,
    }
    log(f"{game}: AEC loop")
    figures["aec"] = measure_aec(game, args.seconds)
    figures["batch_python"] = []
    for batch_size in BATCH_SIZES:
        for threads in thread_counts:
            log(f"{game}: batch x{batch_size} from Python, {threads} thread(s)")
            figures["batch_python"].append(measure_batch(game, batch_size, threads, args.seconds, pgx))
    # The same row at the options a user would pick for throughput, where the game names some.
    figures["speed_options"] = dict(spec.speed_options)
    figures["batch_speed"] = []
    for threads in thread_counts if spec.speed_options else ():
        speed = options_text(spec.speed_options)
        log(f"{game}: batch x{PLAYOUT_BATCH} from Python at {speed}, {threads} thread(s)")
        figures["batch_speed"].append(
            measure_batch(game, PLAYOUT_BATCH, threads, args.seconds, pgx, spec.speed_options)
        )
    log(f"{game}: in-kernel playout x{PLAYOUT_BATCH}")
    one = measure_playout(game, 1, args.seconds, pgx)
    every = measure_playout(game, all_threads, args.seconds, pgx)
    figures["playout"] = {
        "one_thread": one,
        "all_threads": every,
        "thread_scaling": every["steps_per_second"] / one["steps_per_second"],
    }
    if args.quick:
        figures["playout"] |= dict.fromkeys(FRESH_FIGURES) | {"fresh_reason": QUICK_FRESH_REASON}
    else:
        log(f"{game}: in-kernel playout, {all_threads} threads against {all_threads} processes, all fresh")
        fresh = measure_playout_fresh(game, all_threads, args.seconds)
        figures["playout"] |= playout_fresh_figures(fresh, one)
    log(f"{game}: cold and cached start")
    figures["start"] = measure_start(game, cold=not args.quick)
    log(f"{game}: memory of {args.memory_games} games")
    figures["memory"] = measure_memory(game, args.memory_games)
    log(f"{game}: search (MCTS) on the opening")
    figures["search"] = measure_search(
        game,
        QUICK_SEARCH_SIMS if args.quick else SEARCH_SIMS,
        (1,) if args.quick else tuple(thread_counts),
    )
    return figures


def options_text(options: dict[str, Any]) -> str:
    """{"previews": False} -> "previews=False", as the command-line help names options."""
    return ", ".join(f"{name}={value!r}" for name, value in options.items())


def measure_search(game: str, sims: Sequence[int], thread_counts: Sequence[int] = (1,)) -> dict[str, Any]:
    """ms per decision and decisions per second of the search (treasure_core.search, the game's
    defaults) at each simulation count on each thread count (root parallelism: one tree per
    thread, numba on that many threads), on the opening position: a few decisions after one that
    compiles or loads the cache (the start-up section's warmup has filled it).
    benchmarks/search.py has the table over many positions, and the win rates."""
    from treasure_core.agents import MCTSAgent  # the search section only
    from treasure_core.header import CURRENT_PLAYER

    spec = get_game(game)
    env = make_env(game)
    env.reset(seed=SEED)
    state = env.unwrapped.get_state()
    player = int(state[CURRENT_PLAYER])
    before = numba.get_num_threads()
    rows = []
    params: dict[str, Any] = {}
    try:
        for threads in thread_counts:
            numba.set_num_threads(threads)
            for count in sims:
                agent = MCTSAgent(spec, sims=count, seed=SEED, threads=threads)
                params = agent.params
                agent.decide(state, player)
                start = time.perf_counter()
                for _ in range(SEARCH_DECISIONS):
                    agent.decide(state, player)
                seconds = (time.perf_counter() - start) / SEARCH_DECISIONS
                rows.append(
                    {
                        "sims": int(count),
                        "threads": int(threads),
                        "ms_per_decision": 1000 * seconds,
                        "decisions_per_second": 1 / seconds if seconds > 0 else None,
                    }
                )
    finally:
        numba.set_num_threads(before)
    return {"playout": params["playout"], "max_steps": params["max_steps"], "c": params["c"], "rows": rows}


def search_row(figures: dict[str, Any], sims: int, threads: int) -> dict[str, Any] | None:
    """The search section's row at `sims` simulations on `threads` threads, if measured."""
    for row in figures.get("search", {}).get("rows", []):
        if row["sims"] == sims and row["threads"] == threads:
            return row
    return None


# -- the peers --------------------------------------------------------------------------------


def peer_pettingzoo(name: str, seconds: float) -> dict[str, Any]:
    import importlib

    module = importlib.import_module(f"pettingzoo.classic.{name}")
    env = module.env()
    rng = np.random.default_rng(SEED)
    return timed(lambda s: aec_random_loop(env, rng, s, SEED), seconds) | {
        "version": metadata.version("pettingzoo")
    }


def peer_openspiel(name: str, seconds: float) -> dict[str, Any]:
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(SEED)
    return timed(lambda s: openspiel_random_loop(game, rng, s), seconds) | {
        "version": metadata.version("open_spiel")
    }


PGX_ROWS = ("pgx connect_four x1024 jitted step from Python", "pgx connect_four x1024 rollout in one jit")

# Run with `python -c`, so that jax's thread pools and memory stay out of our process: a server
# that compiles Pgx's jitted step and rollout once, says so in a JSON line, then answers each line
# "step SECONDS" or "rollout SECONDS" on stdin with one window's figures (a JSON line), so that
# our windows and Pgx's can alternate (PgxServer). It waits on stdin between windows: no CPU.
PGX_SCRIPT = """
import json, sys, time
import jax, pgx
from pgx.experimental import act_randomly, auto_reset
batch, scan_length = (int(argument) for argument in sys.argv[1:3])
env = pgx.make("connect_four")
step_all = jax.vmap(auto_reset(env.step, env.init))
@jax.jit
def step(state, key):
    action_key, step_key = jax.random.split(key)
    action = act_randomly(action_key, state.legal_action_mask)
    return step_all(state, action, jax.random.split(step_key, batch))
@jax.jit
def rollout(state, key):
    def body(carry, _):
        state, key = carry
        key, sub = jax.random.split(key)
        return (step(state, sub), key), None
    return jax.lax.scan(body, (state, key), None, length=scan_length)[0][0]
# (call, steps per call, calls between two waits for the results): jax runs a call while the
# next is dispatched, so a window waits every few calls, else it would end long after its budget
# with a queue of calls still to run (a rollout call is 256 steps, waited for each time).
calls = {"step": (step, batch, 16), "rollout": (rollout, batch * scan_length, 1)}
key = jax.random.PRNGKey(0)
state = jax.jit(jax.vmap(env.init))(jax.random.split(key, batch))
for call, _, _ in calls.values():
    state = jax.block_until_ready(call(state, key))  # compile
print(json.dumps({"versions": {"pgx": pgx.__version__, "jax": jax.__version__},
                  "devices": [str(d) for d in jax.devices()]}), flush=True)
for line in sys.stdin:
    kind, budget = line.split()
    call, steps_per_call, sync_every = calls[kind]
    steps, made, start = 0, 0, time.perf_counter()
    while True:
        key, sub = jax.random.split(key)
        state = call(state, sub)
        steps += steps_per_call
        made += 1
        if made % sync_every == 0:
            jax.block_until_ready(state)
            if time.perf_counter() - start >= float(budget):
                break
    print(json.dumps({"steps": steps, "seconds": time.perf_counter() - start}), flush=True)
"""


class PgxServer:
    """Pgx's connect_four at batch PLAYOUT_BATCH in one long-lived subprocess (PGX_SCRIPT): jax is
    imported and both calls compiled once, then `measure(kind)` is a Measure of one window of
    its jitted step ("step") or its rollout in one jit ("rollout"). The batch and playout rows
    alternate their windows with Pgx's, as the AEC loop's alternate with connect_four_v3's, so
    that their ratio to Pgx holds under a load that comes and goes."""

    def __init__(self, script: str = PGX_SCRIPT) -> None:
        import importlib.util

        if script is PGX_SCRIPT and importlib.util.find_spec("pgx") is None:
            raise ImportError("pgx is not installed (pip install pgx)")
        self.process = subprocess.Popen(
            [sys.executable, "-c", script, str(PLAYOUT_BATCH), str(PLAYOUT_STEPS_PER_CALL)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        hello = self._answer()
        self.versions, self.devices = hello["versions"], hello["devices"]

    def _answer(self) -> dict[str, Any]:
        line = self.process.stdout.readline() if self.process.stdout else ""
        if not line:
            self.process.kill()
            error = self.process.stderr.read() if self.process.stderr else ""
            last = error.strip().splitlines()[-1] if error.strip() else f"exit code {self.process.wait()}"
            raise RuntimeError(f"the Pgx subprocess stopped: {last}")
        return json.loads(line)

    def measure(self, kind: str) -> Measure:
        def window(seconds: float) -> tuple[int, float]:
            assert self.process.stdin is not None
            self.process.stdin.write(f"{kind} {seconds!r}\n")
            self.process.stdin.flush()
            figures = self._answer()
            return figures["steps"], figures["seconds"]

        return window

    def close(self) -> None:
        if self.process.poll() is None:
            if self.process.stdin:
                self.process.stdin.close()
            try:
                self.process.wait(timeout=SUBPROCESS_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()


PGX_KINDS = ("step", "rollout")  # PGX_ROWS[k] is measured by PgxServer.measure(PGX_KINDS[k])


def peer_pgx(seconds: float, server: PgxServer | None = None) -> dict[str, dict[str, Any]]:
    """Both Pgx rows, each the best of WINDOWS windows of one server (started here if not given)."""
    own = server is None
    server = PgxServer() if server is None else server
    try:
        pairs = zip(PGX_ROWS, PGX_KINDS, strict=True)
        rows = {row: timed(server.measure(kind), seconds) for row, kind in pairs}
    finally:
        if own:
            server.close()
    extra = {"versions": server.versions, "devices": server.devices, "batch_size": PLAYOUT_BATCH}
    return {
        PGX_ROWS[0]: rows[PGX_ROWS[0]] | extra,
        PGX_ROWS[1]: rows[PGX_ROWS[1]] | extra | {"steps_per_call": PLAYOUT_STEPS_PER_CALL},
    }


# name -> (the kind of loop, how to measure it).
PEERS: dict[str, tuple[str, Callable[[float], dict[str, Any]]]] = {
    "pettingzoo connect_four_v3": ("aec", lambda s: peer_pettingzoo("connect_four_v3", s)),
    "pettingzoo texas_holdem_v4": ("aec", lambda s: peer_pettingzoo("texas_holdem_v4", s)),
    "open_spiel connect_four": ("python loop", lambda s: peer_openspiel("connect_four", s)),
    "open_spiel backgammon": ("python loop", lambda s: peer_openspiel("backgammon", s)),
}


def guarded(measure: Callable[[float], Any], seconds: float) -> tuple[Any, str | None]:
    """(figures, None), or (None, why not): a missing or failing peer never stops the run."""
    try:
        return measure(seconds), None
    except ImportError as error:
        return None, f"not installed: {error}"
    except Exception as error:
        return None, f"failed: {type(error).__name__}: {error}"


def start_pgx() -> tuple[PgxServer | None, str | None]:
    """The run's Pgx server, or None with the reason (not installed, or failed to start)."""
    return guarded(lambda _: PgxServer(), 0.0)


def measure_peers(
    seconds: float, skip_reason: str | None, pgx: PgxServer | None = None, pgx_reason: str | None = None
) -> dict[str, dict[str, Any]]:
    """Every peer row; a peer that is skipped, missing or failing is null with the reason. The
    Pgx rows come from `pgx` where given (`pgx_reason`: why there is none), else from a server
    of their own."""
    peers: dict[str, dict[str, Any]] = {}
    for name, (path, measurer) in PEERS.items():
        if skip_reason is None:
            log(f"peer: {name}")
        figures, reason = guarded(measurer, seconds) if skip_reason is None else (None, skip_reason)
        peers[name] = (unavailable(reason) if figures is None else figures | {"reason": None}) | {
            "path": path
        }
    if skip_reason is None:
        log("peer: pgx connect_four (subprocess)")
    measurer = peer_pgx if pgx is None else lambda s: peer_pgx(s, pgx)
    if skip_reason is not None or pgx_reason is not None:
        rows, reason = None, skip_reason or pgx_reason
    else:
        rows, reason = guarded(measurer, seconds)
    for row in PGX_ROWS:
        peers[row] = (unavailable(reason) if rows is None else rows[row] | {"reason": None}) | {
            "path": "batch"
        }
    return peers


# -- targets ----------------------------------------------------------------------------------


def target(
    name: str, game: str, measured: float | None, goal: float, at_least: bool, unit: str, note: str = ""
) -> dict[str, Any]:
    """One target row. `ratio` is measured/goal for a lower bound and goal/measured for an upper
    bound, so a ratio of 1 or more is met either way."""
    if measured is None:
        return {
            "target": name,
            "game": game,
            "goal": goal,
            "unit": unit,
            "measured": None,
            "ratio": None,
            "met": None,
            "note": note,
        }
    ratio = measured / goal if at_least else goal / measured
    return {
        "target": name,
        "game": game,
        "goal": goal,
        "unit": unit,
        "measured": measured,
        "ratio": ratio,
        "met": ratio >= 1.0,
        "note": note,
    }


def evaluate_targets(report: dict[str, Any]) -> list[dict[str, Any]]:
    reference = report["reference"]["steps_per_second"]
    rows = []
    for game, figures in report["games"].items():
        ratio = aec_ratio(figures, reference)
        rows.append(
            target(
                "AEC loop vs connect_four_v3",
                game,
                ratio,
                AEC_VS_CONNECT_FOUR,
                True,
                "x",
                "connect_four_v3 not measured"
                if ratio is None
                else ("interleaved windows" if figures["aec"].get("vs_reference") else ""),
            )
        )
        if game in BATCH_1024_STEPS_PER_SECOND:
            best = max(
                row["steps_per_second"]
                for row in figures["batch_python"]
                if row["batch_size"] == max(BATCH_SIZES)
            )
            rows.append(
                target(
                    "batch x1024 from Python, best thread count",
                    game,
                    best,
                    BATCH_1024_STEPS_PER_SECOND[game],
                    True,
                    "steps/s",
                )
            )
        playout = figures["playout"]
        best_playout = max(
            playout["one_thread"]["steps_per_second"], playout["all_threads"]["steps_per_second"]
        )
        goal = PLAYOUT_STEPS_PER_SECOND.get(game, PLAYOUT_EVERY_GAME_STEPS_PER_SECOND)
        rows.append(target("in-kernel playout, best thread count", game, best_playout, goal, True, "steps/s"))
        versus = [row["vs_pgx"] for row in figures["batch_python"] if row.get("vs_pgx") is not None]
        note = "interleaved windows" if versus else "Pgx not measured"
        rows.append(
            target(
                "batch x1024 with observations vs Pgx step, best threads",
                game,
                max(versus) if versus else None,
                BATCH_VS_PGX_STEP,
                True,
                "x",
                note,
            )
        )
        if figures.get("batch_speed"):
            speed_versus = [row["vs_pgx"] for row in figures["batch_speed"] if row.get("vs_pgx") is not None]
            rows.append(
                target(
                    "batch x1024 with observations vs Pgx step, best threads, at the speed options",
                    game,
                    max(speed_versus) if speed_versus else None,
                    BATCH_VS_PGX_STEP,
                    True,
                    "x",
                    f"{options_text(figures['speed_options'])}; "
                    + ("interleaved windows" if speed_versus else "Pgx not measured"),
                )
            )
        versus_rollout = playout["all_threads"].get("vs_pgx")
        rows.append(
            target(
                "in-kernel playout, all threads vs Pgx rollout",
                game,
                versus_rollout,
                PLAYOUT_VS_PGX_ROLLOUT,
                True,
                "x",
                "Pgx not measured" if versus_rollout is None else "interleaved windows",
            )
        )
        rows.append(
            target(
                "threads vs processes, playout",
                game,
                playout["threads_vs_processes"],
                THREADS_VS_PROCESSES,
                True,
                "x",
                playout["fresh_reason"]
                or f"{playout['fresh_threads']['threads']} threads in a fresh process vs "
                f"{playout['processes']['processes']} fresh processes, alternating windows",
            )
        )
        rows += search_targets(game, figures)
        for kind, goals in (("cold", COLD_START_SECONDS), ("cached", CACHED_START_SECONDS)):
            for stage in START_TARGET_STAGES:
                rows.append(
                    target(
                        f"{kind} start, launch to {stage}",
                        game,
                        figures["start"][kind][stage],
                        goals[stage],
                        False,
                        "s",
                        (figures["start"][kind].get("runner_reason") if stage == "runner_ready" else None)
                        or figures["start"][kind]["reason"]
                        or "",
                    )
                )
    return rows


def seconds_text(seconds: float | None, unit: str = "") -> str:
    """Seconds to two decimals, "-" where not measured."""
    return "-" if seconds is None else f"{seconds:.2f}{unit}"


def search_targets(game: str, figures: dict[str, Any]) -> list[dict[str, Any]]:
    """Issue 28's time target, where the search section measured its row: a decision at
    SEARCH_TARGET_SIMS simulations on one thread in at most SEARCH_MS_PER_DECISION ms."""
    row = search_row(figures, SEARCH_TARGET_SIMS, 1)
    if row is None:
        return []
    return [
        target(
            f"search decision at {SEARCH_TARGET_SIMS} simulations, one thread",
            game,
            row["ms_per_decision"],
            SEARCH_MS_PER_DECISION,
            False,
            "ms",
            "the opening position",
        )
    ]


def other_busy_cores(seconds: float) -> float | None:
    """Cores kept busy by other processes while this one sleeps `seconds` (from /proc/stat's
    totals over all cpus); None where /proc/stat does not exist."""

    def totals() -> tuple[int, int]:
        with open("/proc/stat") as file:
            ticks = [int(value) for value in file.readline().split()[1:9]]  # user .. steal
        return sum(ticks), ticks[3] + ticks[4]  # all, idle + iowait

    try:
        all_before, idle_before = totals()
        time.sleep(seconds)
        all_after, idle_after = totals()
    except OSError:
        return None
    elapsed = all_after - all_before
    return 0.0 if elapsed <= 0 else (1 - (idle_after - idle_before) / elapsed) * (os.cpu_count() or 1)


def busy_sections(report: dict[str, Any]) -> list[str]:
    return [
        f"{section} ({cores:.1f} cores)"
        for section, cores in report["busy_cores"].items()
        if cores is not None and cores > BUSY_CORES
    ]


# -- reporting --------------------------------------------------------------------------------


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as file:
            for line in file:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def package_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


# Environment variables that change the multi-thread figures; the ones set are recorded.
THREADING_VARIABLES = (
    "NUMBA_NUM_THREADS",
    "NUMBA_THREADING_LAYER",
    "NUMBA_CACHE_DIR",
    "OMP_NUM_THREADS",
    "OMP_WAIT_POLICY",
    "GOMP_SPINCOUNT",
)


def machine_info() -> dict[str, Any]:
    """What the figures depend on, besides the code."""
    return {
        "cpu_model": cpu_model(),
        "logical_cpus": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "numba_threading_layer": numba.threading_layer(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "versions": {
            name: package_version(name)
            for name in ("numpy", "numba", "pettingzoo", "treasure-envs", "open_spiel", "pgx", "jax")
        },
        "environment": {name: os.environ[name] for name in THREADING_VARIABLES if name in os.environ},
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }


def table_rows(report: dict[str, Any]) -> list[tuple[str, float | None, str]]:
    """(label, steps/s or None, note) for every throughput figure, peers first."""
    rows: list[tuple[str, float | None, str]] = []
    for name, peer in report["peers"].items():
        rows.append((f"{name} ({peer['path']})", peer["steps_per_second"], peer["reason"] or ""))
    for game, figures in report["games"].items():
        interleaved = figures["aec"].get("vs_reference")
        note = f"{ratio_text(interleaved)} connect_four_v3 in interleaved windows" if interleaved else ""
        rows.append((f"{game} aec", figures["aec"]["steps_per_second"], note))
        for row in figures["batch_python"]:
            label = f"{game} batch x{row['batch_size']} from Python, {threads_label(row['threads'])}"
            rows.append((label, row["steps_per_second"], pgx_note(row, "Pgx step")))
        for row in figures.get("batch_speed", []):
            label = (
                f"{game} batch x{row['batch_size']} from Python, {threads_label(row['threads'])}, "
                f"at {options_text(figures['speed_options'])}"
            )
            rows.append((label, row["steps_per_second"], pgx_note(row, "Pgx step")))
        playout = figures["playout"]
        for key in ("one_thread", "all_threads"):
            row = playout[key]
            rows.append(
                (
                    f"{game} playout x{row['batch_size']} in kernel, {threads_label(row['threads'])}",
                    row["steps_per_second"],
                    pgx_note(row, "Pgx rollout"),
                )
            )
        fresh, processes = playout["fresh_threads"], playout["processes"]
        if fresh is None:
            rows.append((f"{game} playout, threads vs processes", None, playout["fresh_reason"]))
            continue
        rows.append(
            (
                f"{game} playout x{fresh['batch_size']}, {threads_label(fresh['threads'])}, fresh process",
                fresh["steps_per_second"],
                f"{playout['threads_vs_processes']:.2f} of the processes' sum, alternating windows",
            )
        )
        rows.append(
            (
                f"{game} playout x{processes['batch_size']}, {processes['processes']} processes x 1 thread",
                processes["steps_per_second"],
                "",
            )
        )
    return rows


def pgx_note(row: dict[str, Any], what: str) -> str:
    """The row's ratio to Pgx in interleaved windows, for the printed table ("" if unmeasured)."""
    ratio = row.get("vs_pgx")
    return "" if ratio is None else f"{ratio_text(ratio)} {what} in interleaved windows"


def print_report(report: dict[str, Any]) -> None:
    reference = report["reference"]["steps_per_second"]
    rows = table_rows(report)
    width = max(len(label) for label, _, _ in rows)
    print(
        f"random self-play, {report['settings']['seconds']:g} s per figure; "
        f"ratio = steps/s / {REFERENCE} steps/s (AEC loop)"
    )
    print(f"{'path':<{width}}  {'steps/s':>13}  {'ratio':>9}")
    for label, steps_per_second, note in rows:
        if steps_per_second is None:
            print(f"{label:<{width}}  {'-':>13}  {'-':>9}  {note}")
            continue
        ratio = ratio_text(steps_per_second / reference) if reference else "-"
        print(f"{label:<{width}}  {steps_per_second:>13,.0f}  {ratio:>9}  {note}".rstrip())
    print()
    stages = (*START_STAGES, "cpu_seconds", "warmup", "runner_ready")
    print(
        "start-up, seconds from launching python (cpu_seconds: the process's CPU time; "
        f"warmup: every kernel, treasure-envs warmup GAME --jobs {WARMUP_JOBS}; runner_ready: "
        f"ray and torch imported and treasure_adapters.rllib.warm_up(GAME, jobs={WARMUP_JOBS}) done)"
    )
    print(f"  {'game':<10} {'cache':<7}" + "".join(f"{stage:>15}" for stage in stages))
    for game, figures in report["games"].items():
        for kind in ("cold", "cached"):
            start = figures["start"][kind]
            if start["reason"]:
                print(f"  {game:<10} {kind:<7} {start['reason']}")
                continue
            columns = "".join(f"{seconds_text(start[stage]):>15}" for stage in stages)
            print(f"  {game:<10} {kind:<7}{columns}")
    print()
    print("search (MCTS, the game's defaults, the opening position): ms per decision")
    for game, figures in report["games"].items():
        search = figures.get("search")
        if search:
            cells = ", ".join(
                f"{row['sims']} sims {row['threads']}t {row['ms_per_decision']:.2f}" for row in search["rows"]
            )
            settings = f"{search['playout']} playout, cap {search['max_steps']}, c {search['c']}"
            print(f"  {game:<10} {cells} ({settings})")
    print()
    print("memory")
    for game, figures in report["games"].items():
        memory = figures["memory"]
        print(
            f"  {game:<10} {memory['state_bytes']} bytes per state; {memory['games']:,} games: "
            f"{memory['tracemalloc_peak_bytes'] / 2**20:,.1f} MiB numpy peak, "
            f"{memory['tracemalloc_peak_with_observations_bytes'] / 2**20:,.1f} MiB with observations "
            f"(ru_maxrss delta {memory['ru_maxrss_delta_bytes'] / 2**20:,.1f} MiB)"
        )
    print()
    print("targets (ratio >= 1 is met)")
    for row in report["targets"]:
        verdict = {True: "met", False: "MISSED", None: "unknown"}[row["met"]]
        ratio = "-" if row["ratio"] is None else f"{row['ratio']:.2f}"
        measured = "-" if row["measured"] is None else quantity(row["measured"], row["unit"])
        print(
            f"  {verdict:<8} {row['game']:<10} {row['target']:<45} {measured:>20} "
            f"(goal {quantity(row['goal'], row['unit'])}, ratio {ratio}) {row['note']}"
        )
    load = report["load_average"]
    print()
    print(
        f"machine: {report['machine']['cpu_model']}, {report['machine']['usable_cpus']} usable cpus; "
        f"load average before {load['before'][0]:.2f}, after {load['after'][0]:.2f}"
    )
    busy = busy_sections(report)
    if busy:
        print(
            f"WARNING: other processes kept cores busy before {', '.join(busy)}; the figures that "
            "follow, above all the multi-thread ones, are distorted. Rerun on an idle machine."
        )


# Which peer each of our paths is set beside in the Markdown table (the same kind of loop).
MATCHED_PEER = {
    "aec": REFERENCE,
    "batch": PGX_ROWS[0],
    "playout": PGX_ROWS[1],
}


def ratio_text(ratio: float) -> str:
    """A multiple for a person: one decimal from 1 up, two significant digits below."""
    return f"{ratio:,.1f}x" if ratio >= 1 else f"{ratio:.2g}x"


def threads_label(threads: int) -> str:
    return "1 thread" if threads == 1 else f"{threads} threads"


def quantity(value: float, unit: str) -> str:
    return f"{value:,.0f} {unit}" if unit == "steps/s" else f"{value:,.2f} {unit}"


def markdown(report: dict[str, Any]) -> str:
    """The Performance section's tables, ready for the README."""
    peers = report["peers"]
    reference = report["reference"]["steps_per_second"]
    machine = report["machine"]
    load = report["load_average"]

    def times(value: float | None, base: float | None) -> str:
        return ratio_text(value / base).replace("x", "×") if value and base else "–"

    def figure(value: float | None) -> str:
        return f"{value:,.0f}" if value else "–"

    def versus(row: dict[str, Any], section: float | None, what: str) -> str:
        """Its ratio to Pgx: in interleaved windows where measured, else to the peers' section."""
        if row.get("vs_pgx") is not None:
            return f"{times(row['vs_pgx'], 1.0)} {what} (interleaved windows)"
        return f"{times(row['steps_per_second'], section)} {what}"

    busy = busy_sections(report)
    quietness = (
        f"other processes kept cores busy before {', '.join(busy)}, which distorts those figures"
        if busy
        else f"other processes kept under {BUSY_CORES:g} cores busy before each section"
    )

    lines = [
        f"Measured by `{report['command']}` on {machine['cpu_model']} "
        f"({machine['usable_cpus']} cpus, numba {machine['numba_threads']} threads, "
        f"{machine['numba_threading_layer']} layer), Python {machine['python']}, numba "
        f"{machine['versions']['numba']}, numpy {machine['versions']['numpy']}, {machine['date'][:10]}; "
        f"load average {load['before'][0]:.2f} before the run; {quietness}. "
        f"{report['settings']['seconds']:g} s a figure, best of {WINDOWS} windows.",
        "",
        "| path | steps/s | × connect_four_v3 | × the matching peer |",
        "|---|---:|---:|---:|",
    ]
    for name, peer in peers.items():
        note = "" if peer["reason"] is None else f" ({peer['reason']})"
        lines.append(
            f"| {name}, {peer['path']}{note} | {figure(peer['steps_per_second'])} | "
            f"{times(peer['steps_per_second'], reference)} | |"
        )
    for game, figures in report["games"].items():
        aec = figures["aec"]["steps_per_second"]
        lines.append(
            f"| **{game}**, AEC loop | {figure(aec)} | {times(aec, reference)} | "
            f"{times(aec_ratio(figures, reference), 1.0)} connect_four_v3"
            f"{' (interleaved windows)' if figures['aec'].get('vs_reference') else ''} |"
        )
        pgx_step = peers[MATCHED_PEER["batch"]]["steps_per_second"]
        for row in figures["batch_python"]:
            value = row["steps_per_second"]
            matched = versus(row, pgx_step, "Pgx step") if row["batch_size"] == PLAYOUT_BATCH else ""
            lines.append(
                f"| **{game}**, batch ×{row['batch_size']} from Python, {threads_label(row['threads'])} | "
                f"{figure(value)} | {times(value, reference)} | {matched} |"
            )
        for row in figures.get("batch_speed", []):
            value = row["steps_per_second"]
            lines.append(
                f"| **{game}**, batch ×{row['batch_size']} from Python, {threads_label(row['threads'])}, "
                f"at `{options_text(figures['speed_options'])}` | {figure(value)} | "
                f"{times(value, reference)} | {versus(row, pgx_step, 'Pgx step')} |"
            )
        playout = figures["playout"]
        pgx_rollout = peers[MATCHED_PEER["playout"]]["steps_per_second"]
        rows = [
            (f"in-kernel playout ×{PLAYOUT_BATCH}, 1 thread", playout["one_thread"]),
            (
                f"in-kernel playout ×{PLAYOUT_BATCH}, {threads_label(playout['all_threads']['threads'])}",
                playout["all_threads"],
            ),
        ]
        fresh, processes = playout["fresh_threads"], playout["processes"]
        if fresh is not None:  # (--quick leaves them out)
            rows += [
                (
                    f"in-kernel playout ×{PLAYOUT_BATCH}, {threads_label(fresh['threads'])} "
                    "in a fresh process",
                    fresh,
                ),
                (
                    f"in-kernel playout ×{PLAYOUT_BATCH}, {processes['processes']} fresh processes "
                    "× 1 thread (alternating with the row above)",
                    processes,
                ),
            ]
        for label, row in rows:
            value = row["steps_per_second"]
            lines.append(
                f"| **{game}**, {label} | {figure(value)} | {times(value, reference)} | "
                f"{versus(row, pgx_rollout, 'Pgx rollout')} |"
            )
    lines += [
        "",
        f"| game | bytes per state | {report['settings']['memory_games']:,} games (numpy peak) | "
        "with one observe() | cold start: first AEC step / first batch step / warmup / RLlib runner "
        "ready | cold start: compiled AEC / batch kernels serving | "
        "cached start (the same four) |",
        "|---|---:|---:|---:|---|---|---|",
    ]
    for game, figures in report["games"].items():
        memory, start = figures["memory"], figures["start"]

        def stages(figures: dict[str, Any]) -> str:
            if figures["reason"]:
                return figures["reason"]
            return " / ".join(seconds_text(figures[stage], " s") for stage in START_TARGET_STAGES)

        cold = start["cold"]
        compiled = cold["reason"] or f"{cold['aec_compiled']:.2f} s / {cold['batch_compiled']:.2f} s"
        lines.append(
            f"| {game} | {memory['state_bytes']:,} | {memory['tracemalloc_peak_bytes'] / 2**20:,.0f} MiB | "
            f"{memory['tracemalloc_peak_with_observations_bytes'] / 2**20:,.0f} MiB | "
            f"{stages(start['cold'])} | {compiled} | {stages(start['cached'])} |"
        )
    searched = {game: figures["search"] for game, figures in report["games"].items() if figures.get("search")}
    if searched:
        heads = sorted(
            {(row["threads"], row["sims"]) for search in searched.values() for row in search["rows"]}
        )
        lines += [
            "",
            "| search (the game's defaults, the opening position), ms per decision | playout | "
            + " | ".join(f"{sims} sims, {threads_label(threads)}" for threads, sims in heads)
            + " |",
            "|---|---|" + "---:|" * len(heads),
        ]
        for game, search in searched.items():
            times_ms = {(row["threads"], row["sims"]): row["ms_per_decision"] for row in search["rows"]}
            cells = [f"{times_ms[head]:.1f}" if head in times_ms else "–" for head in heads]
            lines.append(
                f"| {game} | {search['playout']}, cap {search['max_steps']}, c {search['c']} | "
                + " | ".join(cells)
                + " |"
            )
    lines += ["", "| target | game | goal | measured | ratio | |", "|---|---|---:|---:|---:|---|"]
    for row in report["targets"]:
        verdict = {True: "met", False: "missed", None: "not measured"}[row["met"]]
        measured = "–" if row["measured"] is None else quantity(row["measured"], row["unit"])
        ratio = "–" if row["ratio"] is None else f"{row['ratio']:.2f}"
        lines.append(
            f"| {row['target']} | {row['game']} | {quantity(row['goal'], row['unit'])} | {measured} | "
            f"{ratio} | "
            f"{verdict} |"
        )
    return "\n".join(lines) + "\n"


def draw_chart(report: dict[str, Any], path: Path) -> dict[str, Any]:
    """Bars of every throughput figure as a multiple of connect_four_v3's AEC loop (log scale),
    ours beside the peers. Returns {"path", "reason"}; never raises for a missing matplotlib."""
    reference = report["reference"]["steps_per_second"]
    if not reference:
        return {"path": None, "reason": "connect_four_v3 was not measured, so there is no ratio to draw"}
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        return {"path": None, "reason": f"matplotlib not installed: {error}"}
    rows = [(label, value / reference) for label, value, _ in table_rows(report) if value is not None]
    peer_labels = {f"{name} ({peer['path']})" for name, peer in report["peers"].items()}
    figure, axes = plt.subplots(figsize=(10, 0.32 * len(rows) + 1.6))
    labels = [label for label, _ in rows][::-1]
    ratios = [ratio for _, ratio in rows][::-1]
    colours = ["#9a9a9a" if label in peer_labels else "#1f6fb4" for label in labels]
    axes.barh(labels, ratios, color=colours)
    axes.set_xscale("log")
    axes.set_xlim(right=max(ratios) * 4)  # room for the labels
    axes.axvline(1.0, color="black", linewidth=0.8)
    for y, ratio in enumerate(ratios):
        axes.text(ratio, y, f" {ratio_text(ratio)}", va="center", fontsize=7)
    axes.set_xlabel("random self-play steps/s, as a multiple of PettingZoo connect_four_v3 (AEC loop)")
    machine = report["machine"]
    axes.set_title(
        f"treasure-envs (blue) vs peers (grey); {machine['cpu_model']}, {machine['usable_cpus']} cpus, "
        f"{report['machine']['date'][:10]}",
        fontsize=9,
    )
    axes.tick_params(axis="y", labelsize=7)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return {"path": str(path), "reason": None}


# -- the command ------------------------------------------------------------------------------


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK_SECONDS:g} s per figure, no cold start and no threads vs processes, about 53 s "
        "for the five games",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help=f"wall-clock budget of each throughput figure (default {DEFAULT_SECONDS:g}, "
        f"--quick {QUICK_SECONDS:g})",
    )
    parser.add_argument(
        "--games",
        nargs="+",
        default=None,
        metavar="GAME",
        help=f"games to measure, any of {', '.join(game_names())} (default: all)",
    )
    parser.add_argument("--no-peers", action="store_true", help="skip the peer libraries, recorded as null")
    parser.add_argument(
        "--memory-games",
        type=int,
        default=None,
        help=f"games in the batch whose memory is measured (default {MEMORY_GAMES:,}, "
        f"--quick {QUICK_MEMORY_GAMES:,})",
    )
    parser.add_argument(
        "--out",
        default="bench-results",
        metavar="DIR",
        help="where bench.json, bench.md and bench.png go (default bench-results)",
    )


def command_line(args: argparse.Namespace) -> str:
    """The `treasure-envs bench` command that repeats this run."""
    words = ["treasure-envs", "bench"]
    if args.quick:
        words.append("--quick")
    if args.seconds != (QUICK_SECONDS if args.quick else DEFAULT_SECONDS):
        words += ["--seconds", f"{args.seconds:g}"]
    if args.games:
        words += ["--games", *args.games]
    if args.no_peers:
        words.append("--no-peers")
    if args.memory_games != (QUICK_MEMORY_GAMES if args.quick else MEMORY_GAMES):
        words += ["--memory-games", str(args.memory_games)]
    if args.out != "bench-results":
        words += ["--out", args.out]
    return " ".join(words)


def resolve_defaults(args: argparse.Namespace) -> None:
    """--seconds and --memory-games where not given: the full run's, or --quick's."""
    if args.seconds is None:
        args.seconds = QUICK_SECONDS if args.quick else DEFAULT_SECONDS
    if args.memory_games is None:
        args.memory_games = QUICK_MEMORY_GAMES if args.quick else MEMORY_GAMES


def run_bench(args: argparse.Namespace) -> int:
    """The `bench` subcommand: measure, print the table, write the JSON and the chart."""
    global _RUN_STARTED
    _RUN_STARTED = time.perf_counter()
    resolve_defaults(args)
    if not args.seconds > 0:
        raise ValueError(f"--seconds must be positive; got {args.seconds:g}")
    if args.memory_games < 1:
        raise ValueError(f"--memory-games must be at least 1; got {args.memory_games}")
    games = args.games or game_names()
    unknown = [game for game in games if game not in game_names()]
    if unknown:
        raise ValueError(f"unknown games {unknown}; registered games are {game_names()}")
    load_before = os.getloadavg()
    all_threads = numba.config.NUMBA_NUM_THREADS
    sample_seconds = max(0.1, min(BUSY_SAMPLE_SECONDS, args.seconds))  # /proc/stat counts 10 ms ticks
    busy_cores: dict[str, float | None] = {"peers": other_busy_cores(sample_seconds)}
    report: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "command": command_line(args),
        "settings": {
            "seconds": args.seconds,
            "quick": args.quick,
            "batch_sizes": list(BATCH_SIZES),
            "thread_counts": sorted({1, all_threads}),
            "playout_batch": PLAYOUT_BATCH,
            "playout_steps_per_call": PLAYOUT_STEPS_PER_CALL,
            "memory_games": args.memory_games,
            "seed": SEED,
        },
    }
    skip_reason = "skipped (--no-peers)" if args.no_peers else None
    # One Pgx server for the whole run: the peers' section and every game's batch and playout
    # rows, whose windows alternate with its windows.
    pgx, pgx_reason = (None, None) if args.no_peers else start_pgx()
    try:
        report["peers"] = measure_peers(args.seconds, skip_reason, pgx, pgx_reason)
        report["reference"] = {
            "name": REFERENCE,
            "steps_per_second": report["peers"][REFERENCE]["steps_per_second"],
        }
        report["games"] = {}
        for game in games:
            busy_cores[game] = other_busy_cores(sample_seconds)
            # Throughput is the compiled kernels': never the Python twins of a cold start (the
            # start-up section measures those, in processes of their own).
            with forced_tier("compile"):
                report["games"][game] = measure_game(game, args, all_threads, pgx)
    finally:
        if pgx is not None:
            pgx.close()
    busy_cores["after"] = other_busy_cores(sample_seconds)
    report["busy_cores"] = busy_cores
    report["targets"] = evaluate_targets(report)
    report["machine"] = machine_info()
    report["load_average"] = {"before": list(load_before), "after": list(os.getloadavg())}
    out = Path(args.out)
    report["chart"] = draw_chart(report, out / "bench.png")
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "bench.json", "w") as file:
        json.dump(report, file, indent=2)
        file.write("\n")
    (out / "bench.md").write_text(markdown(report))
    print_report(report)
    chart = report["chart"]["path"] or report["chart"]["reason"]
    print(f"\nfigures: {out / 'bench.json'}; tables for the README: {out / 'bench.md'}; chart: {chart}")
    return 0


def add_subcommand(subparsers: Any) -> None:
    """Register `treasure-envs bench` on the CLI's subparsers."""
    bench = subparsers.add_parser("bench", help=DESCRIPTION, description=DESCRIPTION)
    configure_parser(bench)
    bench.set_defaults(run=run_bench)


def main(argv: list[str] | None = None) -> int:
    """`python -m treasure_apps.bench` (the same as `treasure-envs bench`)."""
    parser = argparse.ArgumentParser(
        prog="treasure-envs bench", description=DESCRIPTION, formatter_class=DefaultsHelpFormatter
    )
    configure_parser(parser)
    try:
        return run_bench(parser.parse_args(argv))
    except ValueError as error:
        print(f"treasure-envs bench: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
