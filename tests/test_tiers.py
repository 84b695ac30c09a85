"""The drivers' tiers (treasure_core.tiers): a cold start runs the kernels' Python twins while a
background process compiles them, then the compiled kernels; TREASURE_ENVS_JIT picks the tier.

The suite itself runs under "compile" (tests/conftest.py); the default tier, "auto", and
"python" run here in fresh interpreters with a numba cache of their own, as a new user's first
session would. That the twins compute what the kernels compute is the conformance suite's
python_twins check (tests/test_conformance.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

from treasure_core import tiers
from treasure_core.jit import NotCached, load_only, njit, python_twin
from treasure_core.registry import get_game, make_env
from treasure_core.tiers import LiveKernels, forced_tier, jit_tier

REPO = Path(__file__).resolve().parents[1]

# Plays Nakbe from a cold cache under the tier the environment gives, then reports which form
# each driver kernel ran in at each point, and the background compile's stages.
COLD_SCRIPT = """
import json, sys, time
import numpy as np
from treasure_core.batch import BatchRunner
from treasure_core.registry import get_game, make_env
wait = float(sys.argv[1])
game = get_game("nakbe")
live = game.live
AEC = ("init", "legal_mask", "step", "observe")
BATCH = ("batch_init", "batch_legal_mask", "batch_observe", "batch_step_unrefused")
def tiers(names):
    return {name: live.tier_of(name) for name in names}
env = make_env("nakbe")
env.reset(seed=0)
env.step(int(np.flatnonzero(env.action_mask(env.agent_selection))[0]))
report = {"first_step": tiers(AEC), "started": live.background.process is not None}
runner = BatchRunner("nakbe", 8, seed=0)
runner.step(runner.random_actions(seed=0))
report["first_batch_step"] = tiers(BATCH)
rng = np.random.default_rng(0)
deadline = time.monotonic() + wait
def settled():
    return all(form == "compiled" for form in (tiers(AEC) | tiers(BATCH)).values())
seed = 1
while time.monotonic() < deadline and not settled():
    env.reset(seed=seed)  # init, every game
    seed += 1
    while not env.unwrapped.is_over():
        env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(env.action_mask(env.agent_selection)))))
    runner.reset(seed=seed)
    runner.observe()
    runner.step(runner.random_actions())
report["later"] = tiers(AEC) | tiers(BATCH)
while live.background.process is not None and not live.background.ended and time.monotonic() < deadline:
    time.sleep(0.1)  # its last stage may still be writing kernels the loop has not called
report["stages"] = live.background.finished
report["ended"] = live.background.ended
report["error"] = live.background.error
print(json.dumps(report))
"""


def run_cold(tmp_path: Path, tier: str | None, wait: float) -> dict:
    """COLD_SCRIPT in a fresh interpreter with an empty numba cache, TREASURE_ENVS_JIT=tier
    (unset: the default)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    env.pop("TREASURE_ENVS_JIT", None)
    if tier is not None:
        env["TREASURE_ENVS_JIT"] = tier
    done = subprocess.run(
        [sys.executable, "-c", COLD_SCRIPT, str(wait)], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_default_tier_starts_on_the_twins_and_ends_compiled(tmp_path: Path) -> None:
    """The default (TREASURE_ENVS_JIT unset) with an empty cache: the first AEC and batch steps
    run the Python twins and start one background compile; the kernels then settle on their
    compiled forms as its stages land in the cache, each stage reported in order."""
    report = run_cold(tmp_path, None, wait=400)
    assert report["started"]
    assert set(report["first_step"].values()) == {"python"}, report
    assert set(report["first_batch_step"].values()) == {"python"}, report
    assert set(report["later"].values()) == {"compiled"}, report
    assert report["stages"] == list(tiers.BACKGROUND_STAGES), report
    assert report["ended"] and report["error"] is None, report
    assert any((tmp_path / "numba-cache").rglob("*.nbi")), "the background compile left no cache"


def test_the_python_tier_never_compiles(tmp_path: Path) -> None:
    """TREASURE_ENVS_JIT=python: the drivers run the twins throughout, start no background
    compile and write nothing to numba's cache."""
    report = run_cold(tmp_path, "python", wait=2)
    assert not report["started"] and report["stages"] == []
    assert set(report["later"].values()) == {"python"}, report
    assert not list((tmp_path / "numba-cache").rglob("*.nbi"))


def test_the_compile_tier_and_a_warm_cache_settle_at_once() -> None:
    """Under "compile" (this suite's tier) and under "auto" with the kernels in the cache, each
    driver kernel settles on its first call: the attribute is numba's dispatcher itself, with
    nothing between the driver and the kernel, and no background compile starts."""
    game = get_game("nakbe")
    make_env("nakbe").reset(seed=0)  # compiled (or loaded) in this process
    for tier in ("compile", "auto"):
        live = LiveKernels(game)
        state = np.zeros(game.dims(game.make_params(game.validate({}))).state_size, np.int32)
        with forced_tier(tier):
            live.init(state, game.make_params(game.validate({})), 3)
        assert live.tier_of("init") == "compiled" and live.init is game.kernels.init
        assert live.tier_of("step") == "python"  # not called yet
        assert live.background.process is None


def test_jit_tier_reads_the_variable_and_refuses_a_bad_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TREASURE_ENVS_JIT", raising=False)
    assert jit_tier() == tiers.DEFAULT_TIER == "auto"
    for tier in tiers.TIERS:
        monkeypatch.setenv("TREASURE_ENVS_JIT", tier.upper())
        assert jit_tier() == tier
    with forced_tier("python"):
        assert jit_tier() == "python"
    monkeypatch.setenv("TREASURE_ENVS_JIT", "fast")
    with pytest.raises(ValueError, match=r"TREASURE_ENVS_JIT must be one of auto, compile, python.*'fast'"):
        jit_tier()
    with pytest.raises(ValueError, match="tier must be one of"):
        with forced_tier("numba"):
            pass
    with forced_tier("compile"):  # forced wins over a bad variable (compile_game's case)
        assert jit_tier() == "compile"


def test_a_bad_tier_is_a_clear_error_before_any_kernel_runs(tmp_path: Path) -> None:
    env = dict(os.environ, TREASURE_ENVS_JIT="fast", NUMBA_CACHE_DIR=str(tmp_path))
    script = "from treasure_core.registry import make_env; make_env('nakbe').reset(seed=0)"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 1
    assert "ValueError: TREASURE_ENVS_JIT must be one of auto, compile, python" in done.stderr
    assert not list(tmp_path.rglob("*.nbi"))


def test_load_only_refuses_to_compile() -> None:
    """Under load_only a kernel that is neither compiled nor cached raises NotCached and
    compiles nothing; once compiled, it runs."""

    @njit
    def add_one(x: int) -> int:
        return x + 1

    with load_only(), pytest.raises(NotCached, match="add_one is neither compiled nor in numba's cache"):
        add_one(1)
    assert not add_one.overloads
    assert add_one(1) == 2
    with load_only():
        assert add_one(np.int32(5)) == 6  # one width: the int64 compile serves an int32


def test_python_twin_rewires_every_kernel_it_reaches() -> None:
    """A twin calls its callees' twins (as globals, closures and module attributes), never
    their dispatchers, so a twin run compiles nothing; non-kernels pass through."""

    @njit
    def inner(x: int) -> int:
        return x * 2

    @njit
    def outer(x: int) -> int:
        return inner(x) + 1

    twin = python_twin(outer)
    assert twin(3) == 7
    assert not inner.overloads and not outer.overloads
    assert python_twin(len) is len
    assert python_twin(outer) is twin  # one twin a kernel


def test_trailing_zeros_twin() -> None:
    from treasure_core.jit import _python_trailing_zeros

    assert _python_trailing_zeros(np.uint64(8)) == np.uint64(3)
    assert type(_python_trailing_zeros(np.uint64(8))) is np.uint64
    assert _python_trailing_zeros(np.uint64(0)) == 64
    assert _python_trailing_zeros(np.uint64(1) << np.uint64(63)) == 63
    assert _python_trailing_zeros(12) == 2


def test_numba_disable_jit_runs_the_games(tmp_path: Path) -> None:
    """NUMBA_DISABLE_JIT=1 (numba's own switch, for a debugger): every kernel is its plain
    function, and a game plays as it does compiled."""
    script = (
        "from treasure_core.registry import make_env; import numpy as np\n"
        "env = make_env('nakbe'); env.reset(seed=4)\n"
        "while not env.unwrapped.is_over():\n"
        "    env.step(int(np.flatnonzero(env.action_mask(env.agent_selection))[0]))\n"
        "print(env.unwrapped.get_state().tobytes().hex())\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    compiled = make_env("nakbe")
    compiled.reset(seed=4)
    while not compiled.unwrapped.is_over():
        compiled.step(int(np.flatnonzero(compiled.action_mask(compiled.agent_selection))[0]))
    assert done.stdout.strip().splitlines()[-1] == compiled.unwrapped.get_state().tobytes().hex()
    assert numba.config.DISABLE_JIT == 0  # this process is untouched


def test_the_background_compile_command(tmp_path: Path) -> None:
    """`python -m treasure_core.warmup`: usage without a game; an unknown stage named."""
    run = [sys.executable, "-m", "treasure_core.warmup"]
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run(run, capture_output=True, text=True, env=env, timeout=120, cwd=REPO)
    assert done.returncode == 2 and "usage: python -m treasure_core.warmup GAME MODULE" in done.stderr
    done = subprocess.run(
        [*run, "nakbe", "nakbe_env", "aec", "lunch"], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 1 and "unknown warm-up stage(s) lunch" in done.stderr


def test_one_background_compile_of_a_game_at_a_time() -> None:
    """The background compile holds the game's compile lock: a second one (another process's,
    started cold at the same time) waits for it, then loads what it compiled."""
    from treasure_core.warmup import compile_lock

    command = [sys.executable, "-m", "treasure_core.warmup", "nakbe", "nakbe_env", "aec"]
    with compile_lock("nakbe"):
        waiting = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        with pytest.raises(subprocess.TimeoutExpired):
            waiting.wait(timeout=5)  # behind the lock (it would take about 2 s from the cache)
    out, err = waiting.communicate(timeout=300)
    assert waiting.returncode == 0, err[-2000:]
    assert out.split() == ["aec"]


def test_a_failed_background_compile_warns_and_compiles_here(tmp_path: Path) -> None:
    """If the background process fails (here on a stage it does not know), the kernel it left
    uncompiled compiles in this process at its next call, with a warning naming the failure."""
    script = (
        "import json, time, warnings\n"
        "from treasure_core.registry import get_game, make_env\n"
        "game = get_game('nakbe')\n"
        "from treasure_core import tiers\n"
        "tiers.BACKGROUND_STAGES = ('aec', 'lunch')\n"
        "env = make_env('nakbe')\n"
        "env.reset(seed=0)\n"
        "first = game.live.tier_of('init')\n"
        "deadline = time.monotonic() + 120\n"
        "while not game.live.background.ended and time.monotonic() < deadline:\n"
        "    time.sleep(0.05)\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    env.reset(seed=1)\n"
        "print(json.dumps({'first': first, 'then': game.live.tier_of('init'),\n"
        "    'error': game.live.background.error, 'warnings': [str(w.message) for w in caught]}))\n"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    env.pop("TREASURE_ENVS_JIT", None)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["first"] == "python" and report["then"] == "compiled", report
    assert "unknown warm-up stage(s) lunch" in report["error"], report
    warned = report["warnings"]
    assert any("the background compile of nakbe failed" in w and "compiling init" in w for w in warned)
