"""The kernels the drivers call: compiled where numba has them, else their Python twins while a
background process compiles them (a cold start answers in a second, not 10-40 s).

numba compiles a kernel on its first call: with an empty cache (a new venv, a CI job, a
container) a game's first step waited for every kernel it reaches, 7-21 s on two cores. Under
the default tier, "auto", each kernel a driver calls (the AEC and Parallel envs, the batch runner)
is on its first call loaded from numba's cache if it is there. If it is not, the call runs the
kernel's Python twin (treasure_core.jit.python_twin: the same code with numba off, the same
results bit for bit) and a background process compiles the game's driver kernels into the cache
(`python -m treasure_core.warmup`, the compile_game that `treasure-envs warmup` runs). Each
kernel moves to its compiled form as soon as the cache has it (asked again when the background
process finishes a stage, and at most once a second otherwise); from then on the driver calls
numba's dispatcher directly, with nothing in between. If the background process ends and a
kernel is still not in the cache, the kernel compiles in this process, as it would without tiers.

TREASURE_ENVS_JIT picks the tier:
- "auto" (the default): as above.
- "compile": every kernel compiles on its first call, in this process (numba's own behaviour;
  what the test suite and `compile_game` use).
- "python": every driver kernel runs as its Python twin, never compiled: slow (a few hundred
  microseconds a step), for stepping through a kernel in a debugger or for a platform where
  numba cannot compile.

Only the drivers' kernels have a tier: the search, the scripted bots, `random_playout` and the
OpenSpiel and RLlib adapters call compiled kernels as before (a playout as Python would be slower
than compiling it).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Collection, Iterator
from typing import Any

import numpy as np
from numba.core.dispatcher import Dispatcher

from treasure_core import batch_ops
from treasure_core import kernels as core_kernels
from treasure_core.jit import NotCached, load_only, python_twin

# A GameSpec (treasure_core.game imports this module, so it is not imported here).
GameSpec = Any

TIER_VARIABLE = "TREASURE_ENVS_JIT"
TIERS = ("auto", "compile", "python")
DEFAULT_TIER = "auto"

# The stages of compile_game the background process runs, in order: the AEC driver's kernels,
# the encoders (phase, returns, full_state, the scores), resample_hidden, the Parallel driver's,
# then the batch kernel (every batch form) and random_playout over it.
BACKGROUND_STAGES = ("aec", "encoders", "hidden", "parallel", "batch", "playout")
# The kernels the drivers call, each a LiveKernels attribute. The batch forms
# (treasure_core.batch_ops.FORMS) are LiveKernels attributes too, each over its batch_kernel.
DRIVER_KERNELS = (
    *("init", "legal_mask", "step", "observe"),
    *("phase", "returns", "full_state", "resample_hidden", "competitors", "scores", "winners_mask"),
    *("batch_kernel", "sample_legal_actions", "action_faults"),
)
# Kernels of treasure_core itself that the drivers call, and the generated kernel beside the
# contract's forms in the game's batch module.
CORE_KERNELS = ("sample_legal_actions", "action_faults", "winners_mask")
GENERATED_KERNELS = ("batch_kernel",)
RETRY_SECONDS = 1.0  # a kernel still on its twin asks the cache again at most this often
NOT_CACHED = object()  # Pending.cached's answer when the cache lacks the kernel

_forced: list[str] = []  # forced_tier's stack
_compiling: list[frozenset[str]] = []  # compiling_only's stack


def jit_tier() -> str:
    """The tier in force: forced_tier's, else TREASURE_ENVS_JIT's (default "auto")."""
    if _forced:
        return _forced[-1]
    tier = os.environ.get(TIER_VARIABLE, DEFAULT_TIER).strip().lower() or DEFAULT_TIER
    if tier not in TIERS:
        raise ValueError(
            f"{TIER_VARIABLE} must be one of {', '.join(TIERS)} (default {DEFAULT_TIER}); "
            f"got {os.environ[TIER_VARIABLE]!r}"
        )
    return tier


@contextlib.contextmanager
def forced_tier(tier: str) -> Iterator[None]:
    """Every driver kernel called in this block (in any thread) uses `tier`, whatever
    TREASURE_ENVS_JIT says: compile_game forces "compile"."""
    if tier not in TIERS:
        raise ValueError(f"tier must be one of {', '.join(TIERS)}; got {tier!r}")
    _forced.append(tier)
    try:
        yield
    finally:
        _forced.pop()


@contextlib.contextmanager
def compiling_only(names: Collection[str]) -> Iterator[None]:
    """Under the "compile" tier, in this block (in any thread), only the driver kernels named
    compile; any other loads from the cache if it is there, else runs its Python twin. A warm-up
    unit compiles a few kernels of a game and reaches their calls through the others
    (treasure_core.warmup.UNITS), so that two processes share a game's kernels between them."""
    unknown = sorted(set(names) - set(DRIVER_KERNELS))
    if isinstance(names, str) or unknown:
        raise ValueError(f"names must be driver kernels, of {', '.join(DRIVER_KERNELS)}; got {names!r}")
    _compiling.append(frozenset(names))
    try:
        yield
    finally:
        _compiling.pop()


def generated_kernel(game: GameSpec, name: str) -> Any:
    """A generated function of the game's batch module that is not in the kernel contract
    (batch_kernel, and the forms batch_observe_uint8 and batch_step_unrefused over it)."""
    module = sys.modules[game.kernels.batch_observe.__module__]
    kernel = getattr(module, name, None)
    if kernel is None:
        raise ValueError(
            f"{game.name}: its batch module {module.__name__} has no {name}; "
            f"regenerate it: python -m treasure_core.codegen {module.__name__.split('.')[0]}"
        )
    return kernel


class Background:
    """One background compile of a game's driver kernels (BACKGROUND_STAGES), started at most
    once a process; `generation` counts the stages it has finished (and its end), so that a
    kernel on its twin knows when to ask the cache again."""

    def __init__(self, game: GameSpec) -> None:
        self.game = game
        self.process: subprocess.Popen[str] | None = None
        self.owner = os.getpid()
        self.finished: list[str] = []
        self.generation = 0
        self.ended = False
        self.error: str | None = None
        self._lock = threading.Lock()
        self._errors: Any = None

    def start(self) -> bool:
        """Start the compile (once); False where it cannot start: a game the registry did not
        load (an altered copy of a GameSpec, say) has no module for the process to import."""
        module = self.game.live.module
        if module is None:
            return False
        with self._lock:  # two threads' first calls start one process
            if self.owner != os.getpid():  # a forked child: the parent's process is not ours
                self.owner, self.process, self.finished = os.getpid(), None, []
                self.ended, self.error = False, None
            if self.process is not None:
                return True
            # Its error output goes to a file, not a pipe nobody reads until the end: numba's
            # warnings could fill a pipe and stop the process.
            self._errors = tempfile.TemporaryFile("w+")
            command = [sys.executable, "-m", "treasure_core.warmup", self.game.name, module]
            self.process = subprocess.Popen(
                [*command, *BACKGROUND_STAGES],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=self._errors,
                text=True,
                env=dict(os.environ, **{TIER_VARIABLE: "compile"}),
            )
            _running.append((os.getpid(), self.process))
            name = f"treasure-envs compile {self.game.name}"
            threading.Thread(target=self._follow, name=name, daemon=True).start()
            return True

    def _follow(self) -> None:
        """Read the process's stages as it finishes them (a line each), then its end."""
        process = self.process
        assert process is not None and process.stdout is not None
        for line in process.stdout:
            self.finished.append(line.strip())
            self.generation += 1
        if process.wait() != 0:
            self.error = last_error(self._errors, process.returncode)
        self._errors.close()
        self.ended = True
        self.generation += 1


def last_error(errors: Any, returncode: int) -> str:
    """The last line a failed process wrote to `errors` (its stderr file), else its exit code."""
    errors.seek(0)
    lines = errors.read().strip().splitlines()
    return lines[-1] if lines else f"exit code {returncode}"


_running: list[tuple[int, subprocess.Popen[str]]] = []  # (the process that started it, it)


@atexit.register
def _stop_background() -> None:
    """A background compile does not outlive the process that started it (what it has written
    stays cached); a forked child leaves its parent's alone."""
    for owner, process in _running:
        if owner == os.getpid() and process.poll() is None:
            process.terminate()


def run_python(kernel: Any, *args: Any) -> Any:
    """Call `kernel`'s Python twin (numpy's scalars wrap on overflow silently, as the kernel's
    integers wrap)."""
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        return python_twin(kernel)(*args)


class Pending:
    """A driver kernel that has not yet settled on its compiled form (see the module's doc)."""

    def __init__(self, live: LiveKernels, name: str) -> None:
        self.live = live
        self.name = name
        self.asked_generation = -1
        self.asked_at = 0.0

    @property
    def compiled(self) -> Any:
        return self.live.compiled(self.name)

    def __call__(self, *args: Any) -> Any:
        tier = jit_tier()
        if not isinstance(self.compiled, Dispatcher):  # NUMBA_DISABLE_JIT=1
            return self.live.settle(self.name)(*args)
        if tier == "compile":
            if not _compiling or self.name in _compiling[-1]:
                return self.live.settle(self.name)(*args)
            return self.cached_or_python(*args)  # another warm-up unit compiles it
        if tier == "auto":
            background = self.live.background
            now = time.monotonic()
            if self.asked_generation != background.generation or now - self.asked_at >= RETRY_SECONDS:
                self.asked_generation, self.asked_at = background.generation, now
                ended = background.ended
                result = self.cached(*args)
                if result is not NOT_CACHED:
                    return result
                if ended:  # the background compile is over and left no kernel: compile it here
                    if background.error:
                        warnings.warn(
                            f"treasure-envs: the background compile of {self.live.game.name} failed "
                            f"({background.error}); compiling {self.name} in this process",
                            RuntimeWarning,
                            stacklevel=2,
                        )
                    return self.live.settle(self.name)(*args)
                if not background.start():
                    return self.live.settle(self.name)(*args)
        return self.python(*args)

    def cached(self, *args: Any) -> Any:
        """The compiled kernel's result if numba's cache has the kernel (settling on it), else
        NOT_CACHED: a load, never a compile."""
        try:
            with load_only():
                result = self.compiled(*args)
        except NotCached:
            return NOT_CACHED
        self.live.settle(self.name)
        return result

    def cached_or_python(self, *args: Any) -> Any:
        """The compiled kernel if the cache has it (asked at most once a RETRY_SECONDS), else the twin."""
        now = time.monotonic()
        if now - self.asked_at >= RETRY_SECONDS:
            self.asked_at = now
            result = self.cached(*args)
            if result is not NOT_CACHED:
                return result
        return self.python(*args)

    def python(self, *args: Any) -> Any:
        return run_python(self.compiled, *args)


class LiveKernels:
    """A game's driver kernels (DRIVER_KERNELS) by name: each a Pending until it settles on its
    compiled kernel, then numba's dispatcher itself. GameSpec.live."""

    def __init__(self, game: GameSpec) -> None:
        self.game = game
        self.module: str | None = None  # the module the registry loaded the game from
        self.background = Background(game)
        for name in DRIVER_KERNELS:
            setattr(self, name, Pending(self, name))
        for form in batch_ops.FORMS:
            setattr(self, form, LiveForm(self, form))

    def compiled(self, name: str) -> Any:
        """The kernel behind `name`: the contract's, a generated one (batch_kernel, the batch
        forms outside the contract) or a core kernel."""
        if name in CORE_KERNELS:
            return getattr(core_kernels, name)
        if name in GENERATED_KERNELS or (name in batch_ops.FORMS and name not in self.game.kernels._fields):
            return generated_kernel(self.game, name)
        return getattr(self.game.kernels, name)

    def settle(self, name: str) -> Any:
        """Call `name`'s compiled kernel from now on (it compiles on its first call if it must)."""
        kernel = self.compiled(name)
        setattr(self, name, kernel)
        return kernel

    def tier_of(self, name: str) -> str:
        """ "compiled" once `name` has settled, else "python" (its twin, or not yet called);
        a batch form's is its batch_kernel's."""
        if name in batch_ops.FORMS:
            name = "batch_kernel"
        return "python" if isinstance(getattr(self, name), Pending) else "compiled"


class LiveForm:
    """A batch form (treasure_core.batch_ops) over the game's batch_kernel as it stands in
    LiveKernels: its Python twin on a cold start, its compiled form once that has settled. A
    GameSpec whose kernels hold a form of its own (not its batch module's) gets that form."""

    def __init__(self, live: LiveKernels, name: str) -> None:
        self.live = live
        self.name = name
        self.form = getattr(batch_ops, name)
        self.own: Any = None  # the GameSpec's own form, once known not to be the generated one

    def __call__(self, *args: Any) -> Any:
        if self.own is None:
            given = self.live.compiled(self.name)
            self.own = False if given is generated_kernel(self.live.game, self.name) else given
        if self.own:
            return self.own(*args)
        return self.form(self.live.batch_kernel, *args)
