"""Compile every kernel of a game ahead of use, into numba's on-disk cache.

numba compiles a kernel on its first call and, with `cache=True`, writes the machine code next to
the source (in `__pycache__`, or under NUMBA_CACHE_DIR). A fresh environment (a new venv, a CI
job, a container, each Ray node) pays that once; `compile_game` pays it up front, by calling every
entry point a user can reach: the AEC and Parallel drivers, the encoders, `resample_hidden`, the
batch forms (the checked step and the unchecked one) and the in-kernel playout, the search
(`mcts_simulate`: one tree, several, and in chunks for a time budget), and every scripted bot.
`treasure-envs warmup` runs it for several games in parallel processes.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import Any

import numpy as np
from numba.core.registry import CPUDispatcher

from treasure_core.agents import MCTSAgent
from treasure_core.batch import BatchRunner
from treasure_core.header import CURRENT_PLAYER
from treasure_core.registry import game_names, get_game, make_env, module_of, register
from treasure_core.tiers import forced_tier

WARMUP_SEED = 0
AEC_DECISIONS = 64  # random decisions in the AEC env: reaches the phases the kernels branch on
BOT_DECISIONS = 32  # decisions each scripted bot takes


# compile_game's stages, in order: the AEC driver's kernels come first, always (the others start
# from its game); "bots" is every scripted bot.
STAGES = ("aec", "encoders", "parallel", "batch", "search", "bots")


def compile_game(
    name: str,
    stages: Collection[str] = STAGES,
    on_stage: Callable[[str], None] | None = None,
    **options: Any,
) -> dict[str, float]:
    """Compile (or load from the cache) every kernel of game `name` (of the `stages` named:
    all by default, "aec" always); returns the seconds each stage took, in order, and "total".
    `on_stage(stage)` hears of each stage as it ends. Options only change the params, never a
    signature, so the default options compile everything. The drivers' kernels compile here
    whatever TREASURE_ENVS_JIT says (treasure_core.tiers)."""
    with forced_tier("compile"):
        return _compile_game(name, stages, on_stage, **options)


def _compile_game(
    name: str, stages: Collection[str], on_stage: Callable[[str], None] | None, **options: Any
) -> dict[str, float]:
    if isinstance(stages, str):
        raise ValueError(f"stages must be a collection of names from {', '.join(STAGES)}; got {stages!r}")
    unknown = sorted(set(stages) - set(STAGES))
    if unknown:
        raise ValueError(f"unknown warm-up stage(s) {', '.join(unknown)}; choose from {', '.join(STAGES)}")
    game = get_game(name)
    seconds: dict[str, float] = {}
    start = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal start
        now = time.perf_counter()
        seconds[stage] = now - start
        start = now
        if on_stage is not None:
            on_stage(stage)

    env = make_env(name, **options)
    env.reset(seed=WARMUP_SEED)
    opening = env.unwrapped.get_state()  # a live game, for resample_hidden
    rng = np.random.default_rng(WARMUP_SEED)
    for _ in range(AEC_DECISIONS):
        if env.unwrapped.is_over():
            break
        mask = env.unwrapped.action_mask(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(mask))))
    lap("aec")

    if "encoders" in stages:
        raw = env.unwrapped
        raw.state()  # full_state
        game.kernels.returns(raw.get_state(), np.zeros(len(raw.possible_agents), dtype=np.float32))
        game.kernels.resample_hidden(opening.copy(), 0, np.int64(WARMUP_SEED))
        game.kernels.phase(opening)
        game.final_info(raw.get_state())  # scores, competitors, winners_mask
        lap("encoders")

    if "parallel" in stages:
        module = importlib.import_module(module_of(name))
        parallel = module.parallel_env(**options)
        parallel.reset(seed=WARMUP_SEED)
        for _ in range(4):
            if not parallel.agents:
                break
            seats = parallel.deciding_seats()
            parallel.step(
                {
                    parallel.possible_agents[seat]: int(np.flatnonzero(parallel.legal_mask(seat))[0])
                    for seat in seats
                }
            )
        lap("parallel")

    if "batch" in stages:
        runner = BatchRunner(name, 4, seed=WARMUP_SEED, num_threads=1, **options)
        masks = runner.legal_masks()
        runner.random_actions(seed=WARMUP_SEED)  # sample_legal_actions, from the masks just made
        runner.observe()
        runner.step(masks.argmax(axis=1).astype(np.int64))  # checked: batch_step_unrefused
        runner.check_actions = False
        runner.step(runner.legal_masks().argmax(axis=1).astype(np.int64))  # unchecked: batch_step
        runner.random_playout(8, seed=WARMUP_SEED)
        runner.reset(seed=WARMUP_SEED + 1)
        BatchRunner(name, 4, seed=WARMUP_SEED, num_threads=1, observation_dtype="uint8", **options).observe()
        lap("batch")

    if "search" in stages:
        # One tree and root parallelism (mcts_seed_trees, mcts_simulate, mcts_root_visits).
        for threads in (1, 2):
            MCTSAgent(game, sims=4, max_steps=16, threads=threads).decide(
                opening, int(opening[CURRENT_PLAYER])
            )
        # A time budget (mcts_simulate in chunks), the bot playout on the way.
        MCTSAgent(game, max_steps=16, time_ms=1.0, playout="bot").decide(
            opening, int(opening[CURRENT_PLAYER])
        )
        lap("search")

    if "bots" in stages:
        for bot_name, factory in game.bots.items():
            bot_env = make_env(name, **options)
            bot_env.reset(seed=WARMUP_SEED)
            bot = factory(WARMUP_SEED)
            for _ in range(BOT_DECISIONS):
                if bot_env.unwrapped.is_over():
                    break
                bot_env.step(bot.act(bot_env.unwrapped, bot_env.agent_selection))
            lap(f"bot {bot_name}")
    seconds["total"] = sum(seconds.values())
    return seconds


def _package_dispatchers(name: str) -> dict[str, CPUDispatcher]:
    """Every @njit function defined in the game's package (imported so far), by qualified name."""
    package = module_of(name).split(".")[0]
    found: dict[str, CPUDispatcher] = {}
    for module_name, module in list(sys.modules.items()):
        if module is None or not (module_name == package or module_name.startswith(package + ".")):
            continue
        for attribute, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module_name:
                found[f"{module_name}.{attribute}"] = value
    return found


def cache_dirs(name: str) -> list[Path]:
    """Where numba keeps the game's compiled kernels: each source file's cache directory
    (`__pycache__` beside it, or under NUMBA_CACHE_DIR)."""
    paths = set()
    for dispatcher in _package_dispatchers(name).values():
        cache = getattr(dispatcher, "_cache", None)
        path = getattr(cache, "_cache_path", None)
        if path:
            paths.add(Path(path))
    return sorted(paths)


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the platform has one)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def free_cores() -> int:
    """Cores this process may use that other processes are not keeping busy (at least 1)."""
    return max(1, usable_cores() - round(os.getloadavg()[0]))


def main(argv: list[str]) -> int:
    """`python -m treasure_core.warmup GAME MODULE [STAGE ...]`: compile_game for a game of
    `MODULE` (registered first if it is not known by name), printing each stage as it ends. The
    background compile of treasure_core.tiers; people use `treasure-envs warmup`."""
    if len(argv) < 2:
        print("usage: python -m treasure_core.warmup GAME MODULE [STAGE ...]", file=sys.stderr)
        return 2
    name, module, *stages = argv
    if name not in game_names():
        register(name, module)
    with compile_lock(name):  # one compile a game and cache at a time; the others then load it
        compile_game(name, stages or STAGES, on_stage=lambda stage: print(stage, flush=True))
    return 0


@contextlib.contextmanager
def compile_lock(name: str) -> Iterator[None]:
    """Hold the machine's lock on compiling game `name` into this cache (its package's cache
    folders, which NUMBA_CACHE_DIR moves): several processes starting cold at once (a vector
    env's workers, a node's env runners) compile the game once, the others waiting and then
    loading it. Where the platform has no flock, no lock."""
    try:
        import fcntl
    except ImportError:  # Windows
        yield
        return
    get_game(name)  # its modules imported, so that cache_dirs finds their kernels
    where = ":".join(str(path) for path in cache_dirs(name)) or module_of(name)
    digest = hashlib.sha256(f"{name}|{where}|{sys.prefix}".encode()).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"treasure-envs-compile-{os.getuid()}-{name}-{digest}.lock"
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
