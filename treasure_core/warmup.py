"""Compile every kernel of a game ahead of use, into numba's on-disk cache.

numba compiles a kernel on its first call and, with `cache=True`, writes the machine code next to
the source (in `__pycache__`, or under NUMBA_CACHE_DIR). A fresh environment (a new venv, a CI
job, a container, each Ray node) pays that once; `compile_game` pays it up front, by calling every
entry point a user can reach: the AEC and Parallel drivers, the encoders, `resample_hidden`, the
batch forms (the checked step and the unchecked one) and the in-kernel playout, the search
(`mcts_simulate`: one tree, several, and in chunks for a time budget), and every scripted bot.
`treasure-envs warmup` and an RLlib node's warm-up share the work among processes by UNITS
(run_units): each compiles a few of a game's kernels, and reaches their calls through the others'
Python twins, or through the cache once another process has put them there.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba.core.registry import CPUDispatcher

from treasure_core.agents import MCTSAgent
from treasure_core.batch import BatchRunner
from treasure_core.header import CURRENT_PLAYER
from treasure_core.registry import game_names, get_game, make_env, module_of, register
from treasure_core.tiers import compiling_only, forced_tier, last_error

WARMUP_SEED = 0
AEC_DECISIONS = 64  # random decisions in the AEC env: reaches the phases the kernels branch on
BOT_DECISIONS = 32  # decisions each scripted bot takes


# compile_game's stages, in order: the AEC driver's kernels come first, always (the others start
# from its game) but for "parts" alone, which compiles GameSpec.step_parts by their types and
# needs no game; "hidden" is resample_hidden (the search's and AECEnv.resample_hidden's, not an
# env runner's), "batch" the batch driver's, "playout" the in-kernel random playout, "bots" every
# scripted bot.
STAGES = ("aec", "parts", "encoders", "hidden", "parallel", "batch", "playout", "search", "bots")


@dataclass(frozen=True)
class Unit:
    """A share of a game's warm-up for one process: compile_game's `stages`, compiling only the
    driver kernels named in `kernels`, once the units in `after` are done, so that the kernels it
    links come from the cache rather than compiling a second time in another process."""

    name: str
    stages: tuple[str, ...]
    kernels: tuple[str, ...]
    after: tuple[str, ...] = ()


# Every kernel of a game, in units, the first ready first. `step` links most of a game (Nakum's,
# Chaak'Bot's solo turn too), so it is a unit of its own while another process compiles the rest
# of the AEC driver: `observe` first (Karuba's, with its previews, outweighs its step). A game
# whose step is long to compile names parts of it (GameSpec.step_parts) for a unit before it,
# so that two processes share it (a game without runs no such unit). The batch kernel (every
# batch form and the playout) links the whole game again, four times: it is the longest unit,
# so it comes as soon as `step`, `observe`, the rest of the AEC driver and the encoders are in
# the cache (the encoders, short, while `step` compiles: it links `returns`, which a caller's
# compile would leave without the Python wrapper the encoders' unit then needs,
# treasure_core.jit), before the scripted bots (which link legal_mask but not step),
# resample_hidden and the search (which waits for all three). Between them the units compile
# every driver kernel once (the later ones none: kernels=()) and run every stage.
UNITS = (
    Unit("step parts", ("parts",), ()),
    Unit("step", ("aec",), ("step",), ("step parts",)),
    Unit("observe", ("aec",), ("observe",)),
    Unit("aec", ("aec",), ("init", "legal_mask")),
    Unit(
        "encoders",
        ("encoders",),
        ("phase", "returns", "full_state", "competitors", "scores", "winners_mask"),
    ),
    Unit(
        "batch",
        ("batch", "playout"),
        ("batch_kernel", "sample_legal_actions", "action_faults"),
        ("step", "aec", "observe", "encoders"),
    ),
    Unit("bots", ("bots",), (), ("aec",)),
    Unit("hidden", ("hidden",), ("resample_hidden",)),
    Unit("search", ("search",), (), ("step", "hidden", "bots")),
    Unit("parallel", ("parallel",), (), ("step", "aec", "encoders")),
)
UNIT_NAMES = tuple(unit.name for unit in UNITS)


def units_of(name: str, units: Collection[str] = UNIT_NAMES) -> tuple[Unit, ...]:
    """The units of game `name` among those named, in UNITS' order: a game without step_parts
    has no "step parts" unit to run (nor to wait for)."""
    has_parts = bool(get_game(name).step_parts)
    return tuple(unit for unit in UNITS if unit.name in units and (has_parts or unit.stages != ("parts",)))


def compile_game(
    name: str,
    stages: Collection[str] = STAGES,
    on_stage: Callable[[str], None] | None = None,
    kernels: Collection[str] | None = None,
    **options: Any,
) -> dict[str, float]:
    """Compile (or load from the cache) every kernel of game `name` (of the `stages` named:
    all by default, "aec" always but for "parts" alone); returns the seconds each stage took,
    in order, and "total". `on_stage(stage)` hears of each stage as it ends. `kernels`, if
    given, names the only driver kernels to compile (treasure_core.tiers.compiling_only): the
    others load from the cache or run their Python twins. Options only change the params, never
    a signature, so the default options compile everything. The drivers' kernels compile here
    whatever TREASURE_ENVS_JIT says (treasure_core.tiers)."""
    with forced_tier("compile"), compiling_only(kernels) if kernels is not None else contextlib.nullcontext():
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

    if set(stages) == {"parts"}:  # step's parts alone need no game
        _compile_parts(game.step_parts)
        lap("parts")
        seconds["total"] = sum(seconds.values())
        return seconds

    env = make_env(name, **options)
    env.reset(seed=WARMUP_SEED)
    opening = env.unwrapped.get_state()  # a live game, for resample_hidden
    env.last()  # observe
    rng = np.random.default_rng(WARMUP_SEED)
    for _ in range(AEC_DECISIONS):
        if env.unwrapped.is_over():
            break
        mask = env.unwrapped.action_mask(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(mask))))
    lap("aec")

    if "parts" in stages:
        _compile_parts(game.step_parts)  # here compiled with step already, unless it was cached
        lap("parts")

    if "encoders" in stages:
        raw = env.unwrapped
        raw.state()  # full_state
        game.kernels.returns(raw.get_state(), np.zeros(len(raw.possible_agents), dtype=np.float32))
        game.kernels.phase(opening)
        game.final_info(raw.get_state())  # scores, competitors, winners_mask
        lap("encoders")

    if "hidden" in stages:
        game.kernels.resample_hidden(opening.copy(), 0, np.int64(WARMUP_SEED))
        lap("hidden")

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
        runner.reset(seed=WARMUP_SEED + 1)
        BatchRunner(name, 4, seed=WARMUP_SEED, num_threads=1, observation_dtype="uint8", **options).observe()
        lap("batch")

    if "playout" in stages:
        BatchRunner(name, 4, seed=WARMUP_SEED, num_threads=1, **options).random_playout(8, seed=WARMUP_SEED)
        lap("playout")

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


def _compile_parts(parts: tuple[tuple[Any, tuple[Any, ...]], ...]) -> None:
    """Compile (or load) each of a game's step_parts at its argument types."""
    for helper, argument_types in parts:
        helper.compile(argument_types)


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


def _run_unit(name: str, module: str, unit_name: str) -> tuple[dict[str, float], list[str]]:
    """One unit in a worker process: its stages' seconds and the game's cache directories."""
    if name not in game_names():
        register(name, module)  # a game registered at run time is unknown to a fresh process
    unit = UNITS[UNIT_NAMES.index(unit_name)]
    seconds = compile_game(name, unit.stages, kernels=unit.kernels)
    return seconds, [str(path) for path in cache_dirs(name)]


def _serve_units() -> int:
    """`python -m treasure_core.warmup --units`: a run_units worker. It reads "GAME MODULE UNIT"
    lines (tab-separated) and answers each with a JSON line once the unit is done."""
    for line in sys.stdin:
        name, module, unit_name = line.rstrip("\n").split("\t")
        seconds, caches = _run_unit(name, module, unit_name)
        print(json.dumps({"seconds": seconds, "cache": caches}), flush=True)
    return 0


class _Worker:
    """A `python -m treasure_core.warmup --units` process (a command of its own rather than
    multiprocessing's spawn, which would run again the top of a user's script that calls
    run_units without a `__main__` guard), with a thread that queues its answers."""

    def __init__(self, index: int, answers: queue.Queue[tuple[int, str | None]]) -> None:
        self.errors = tempfile.TemporaryFile("w+")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "treasure_core.warmup", "--units"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors,
            text=True,
        )
        self.unit: tuple[str, Unit] | None = None
        threading.Thread(target=self._follow, args=(index, answers), daemon=True).start()

    def _follow(self, index: int, answers: queue.Queue[tuple[int, str | None]]) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            answers.put((index, line))
        answers.put((index, None))  # it ended

    def give(self, name: str, unit: Unit) -> None:
        assert self.process.stdin is not None
        self.unit = (name, unit)
        self.process.stdin.write(f"{name}\t{module_of(name)}\t{unit.name}\n")
        self.process.stdin.flush()

    def failure(self) -> str:
        return last_error(self.errors, self.process.wait())

    def stop(self) -> None:
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.errors.close()


def run_units(
    games: list[str],
    jobs: int,
    units: Collection[str] = UNIT_NAMES,
    on_unit: Callable[[str, str, float], None] | None = None,
) -> dict[str, dict[str, Any]]:
    """Every unit named (UNITS) of every game, on `jobs` worker processes: each takes the next unit
    whose `after` units are done (the games in order, a game's units in UNITS' order), so that a
    game's kernels compile once among the processes rather than once in each. Returns each
    game's {"units": seconds a unit, "total": seconds from the start to its last unit, "cache":
    its cache directories}; `on_unit(game, unit, seconds)` hears of each unit as it ends."""
    unknown = sorted(set(units) - set(UNIT_NAMES))
    if isinstance(units, str) or unknown:
        raise ValueError(f"units must be a collection of names from {', '.join(UNIT_NAMES)}; got {units!r}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1; got {jobs}")
    todo = [(name, unit) for name in games for unit in units_of(name, units)]
    planned = {(name, unit.name) for name, unit in todo}
    done: set[tuple[str, str]] = set()
    results: dict[str, dict[str, Any]] = {name: {"units": {}, "total": 0.0, "cache": []} for name in games}
    start = time.perf_counter()
    answers: queue.Queue[tuple[int, str | None]] = queue.Queue()
    workers = [_Worker(index, answers) for index in range(min(jobs, len(todo)))]
    try:
        while todo or any(worker.unit for worker in workers):
            for worker in workers:
                if worker.unit is not None:
                    continue
                # A unit waits for the units in its `after` that this run has (done first).
                ready = [
                    (name, unit)
                    for name, unit in todo
                    if all((name, other) in done for other in unit.after if (name, other) in planned)
                ]
                if not ready:
                    break
                todo.remove(ready[0])
                worker.give(*ready[0])
            assert any(worker.unit for worker in workers), (
                "a unit waits for one that is neither done nor running"
            )
            index, line = answers.get()
            worker = workers[index]
            assert worker.unit is not None
            name, unit = worker.unit
            if line is None:
                raise RuntimeError(f"the warm-up of {name} ({unit.name}) failed: {worker.failure()}")
            worker.unit = None
            answer = json.loads(line)
            done.add((name, unit.name))
            result = results[name]
            result["units"][unit.name] = answer["seconds"]["total"]
            result["total"] = time.perf_counter() - start
            result["cache"] = answer["cache"]
            if on_unit is not None:
                on_unit(name, unit.name, answer["seconds"]["total"])
    finally:
        for worker in workers:
            worker.stop()
    return results


def main(argv: list[str]) -> int:
    """`python -m treasure_core.warmup GAME MODULE [STAGE ...]`: compile_game for a game of
    `MODULE` (registered first if it is not known by name), printing each stage as it ends. The
    background compile of treasure_core.tiers; people use `treasure-envs warmup`."""
    if argv == ["--units"]:
        return _serve_units()
    if len(argv) < 2:
        print("usage: python -m treasure_core.warmup GAME MODULE [STAGE ...] | --units", file=sys.stderr)
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
    code = main(sys.argv[1:])
    # What a worker or a background compile did is in the cache: skip the interpreter's teardown
    # of numba's and LLVM's state, half a second and more that its caller would wait for.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
