"""Each kernel is compiled for one signature per argument kind, not once per integer width or
per literal its callers pass (treasure_core/jit.py; benchmarks/compile_profile.py measures what
that saves)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from numba import types
from numba.core.registry import CPUDispatcher

from treasure_core.batch import BatchRunner
from treasure_core.jit import njit, one_width
from treasure_core.registry import game_names, make_env, module_of


@njit
def _add(a: int, b: int) -> int:
    return a + b


@njit
def _callers(state: np.ndarray) -> int:
    # an int32 read from the state, a literal, an int64 loop index: three widths, one _add
    total = _add(state[0], 3)
    for i in range(2):
        total += _add(i, state[1])
    return total


def test_a_kernel_called_with_int32_literals_and_int64_compiles_once() -> None:
    state = np.array([4, 5], np.int32)
    assert _callers(state) == 4 + 3 + (0 + 5) + (1 + 5)
    assert _add(np.int32(2), 3) == 5  # a Python call with an int32 loads the same code
    assert _add.signatures == [(types.int64, types.int64)]


_WRAPPER_MODULE = """
import numpy as np
from treasure_core.jit import njit

@njit(cache=True)
def helper(values, i):
    return values[i] * 2

@njit(cache=True)
def scratch():
    return np.zeros(3, np.int64)

@njit(cache=True)
def caller(values):
    total = scratch()[0]
    for i in range(values.shape[0]):
        total += helper(values, i)
    return total
"""
_WRAPPER_SCRIPT = """
import sys
import numpy as np
from treasure_core.jit import NotCached, has_python_wrapper, load_only
import wrapped
values = np.arange(5)
if sys.argv[1] == "caller":
    print(wrapped.caller(values), [has_python_wrapper(c) for c in wrapped.helper.overloads.values()])
    print(wrapped.helper(values, 3), wrapped.helper(values, 4))  # the same process, then again
elif sys.argv[1] == "load":
    try:
        with load_only():
            print(wrapped.helper(values, 3))
    except NotCached:
        print("not cached")
else:
    print(wrapped.helper(values, 3))
    print(wrapped.helper(values, np.int32(1)))  # by numba's conversions, not an exact match
    print(wrapped.scratch().sum() + wrapped.scratch().sum())  # no arguments: one definition
"""


def test_a_helper_gets_its_python_wrapper_only_when_python_calls_it(tmp_path) -> None:
    """treasure_core.jit.njit leaves out the CPython wrapper of a signature compiled for a
    compiled caller and builds it when Python calls the signature, in that process or in one
    whose cache holds only the caller's compile: never a call through a missing wrapper (a
    crash), and a load_only call finds only a wrapped compile."""
    (tmp_path / "wrapped.py").write_text(_WRAPPER_MODULE)
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(tmp_path))

    def run(mode: str, script: str = _WRAPPER_SCRIPT) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", script, mode],
            capture_output=True,
            text=True,
            timeout=300,
            env=environment,
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout.split("\n")[:-1]

    assert run("caller") == ["20 [False]", "6 8"]
    environment["NUMBA_CACHE_DIR"] = str(tmp_path / "caller only")
    assert run("load") == ["not cached"]
    only_the_caller = "import numpy as np, wrapped; print(wrapped.caller(np.arange(5)))"
    assert run("caller", only_the_caller) == ["20"]
    assert run("load") == ["not cached"]  # the cache's helper has no wrapper to call through
    assert run("python") == ["6", "2", "0"]  # compiled again with it, and cached so
    assert run("load") == ["6"]


def test_one_width_keeps_unsigned_words_arrays_and_plain_booleans() -> None:
    assert one_width(types.uint64) == types.uint64
    assert one_width(types.literal(True)) == types.boolean
    assert one_width(types.literal(7)) == types.int64
    assert one_width(types.int8) == types.int64
    array = types.Array(types.int32, 1, "C")
    assert one_width(array) == array


def _compiled_signatures(dispatcher: CPUDispatcher) -> set[tuple[types.Type, ...]]:
    """The signatures compiled in this session, and those in numba's on-disk cache index for
    the current source: a kernel its callers' cached code includes is never loaded on its own,
    but the run that compiled it (the warm-up, any earlier test session) indexed each signature."""
    signatures = set(dispatcher.signatures)
    if dispatcher._cache is not None and hasattr(dispatcher._cache, "_cache_file"):
        signatures |= {key[0] for key in dispatcher._cache._cache_file._load_index()}
    return signatures


# Modules still on numba's own njit, with the reason; each compiles some kernel for two widths.
NOT_YET = {
    "tomb_env.exploiters": "exploit_action takes literal flags on purpose (one variant per exploiter)",
}


def _widened(arg: types.Type) -> types.Type:
    """one_width, and a signed integer array's dtype widened too: an int32 island in one call
    and an int64 copy of it in another compile the function, and all it calls, twice."""
    if isinstance(arg, types.Array) and isinstance(arg.dtype, types.Integer) and arg.dtype.signed:
        return arg.copy(dtype=types.int64)
    return one_width(arg)


def _width_repeats(package: str) -> dict[str, list[str]]:
    """Every compiled function of the package with two signatures that differ only in the
    width (or literalness) of an integer or boolean scalar, or in a signed integer array's
    dtype."""
    repeats: dict[str, list[str]] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith(package) or name in NOT_YET:
            continue
        for attribute, value in vars(module).items():
            if not (isinstance(value, CPUDispatcher) and value.__module__ == name):
                continue
            signatures = _compiled_signatures(value)
            widened = {tuple(_widened(arg) for arg in signature) for signature in signatures}
            if len(widened) < len(signatures):
                repeats[f"{name}.{attribute}"] = sorted(str(signature) for signature in signatures)
    return repeats


@pytest.mark.parametrize("game", game_names())
def test_no_kernel_of_a_game_is_compiled_for_two_integer_widths(game: str) -> None:
    env = make_env(game)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(40):
        if env.unwrapped.is_over():
            break
        env.step(int(rng.choice(np.flatnonzero(env.unwrapped.action_mask(env.agent_selection)))))
    runner = BatchRunner(game, 4, seed=0)
    runner.observe()
    runner.step(runner.legal_masks().argmax(axis=1))
    runner.random_playout(2, seed=0)
    assert _width_repeats(module_of(game)) == {}
    assert _width_repeats("treasure_core") == {}
