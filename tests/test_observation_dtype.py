"""BatchRunner(observation_dtype="uint8"): the float32 features as rint(feature * 255)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from treasure_core.batch import BatchRunner
from treasure_core.registry import game_names

N_GAMES = 48


@pytest.mark.parametrize("name", game_names())
def test_uint8_observe_is_the_float_observe_times_255_rounded(name):
    runner = BatchRunner(name, N_GAMES, seed=3, num_threads=1, observation_dtype="uint8")
    twin = BatchRunner(name, N_GAMES, seed=3, num_threads=numba.config.NUMBA_NUM_THREADS)
    assert runner.observation_dtype == np.uint8 and twin.observation_dtype == np.float32
    for steps in (0, 5, 17, 40):  # a few stages of the same games
        runner.random_playout(steps, seed=steps)
        twin.set_states(runner.states)
        features = twin.observe()
        assert features.dtype == np.float32
        assert features.min() >= 0.0 and features.max() <= 1.0
        compact = runner.observe()
        assert compact.dtype == np.uint8 and compact.shape == features.shape
        np.testing.assert_array_equal(compact, np.rint(features * np.float32(255)).astype(np.uint8))
        out = np.full(compact.shape, 7, np.uint8)
        assert runner.observe(out=out) is out
        np.testing.assert_array_equal(out, compact)


@pytest.mark.parametrize("dtype", ["float16", "int8", np.uint8, None, 8])
def test_a_bad_observation_dtype_is_a_value_error(dtype):
    with pytest.raises(ValueError, match="observation_dtype must be one of 'float32', 'uint8'"):
        BatchRunner("nakbe", 2, seed=0, num_threads=1, observation_dtype=dtype)


@pytest.mark.parametrize("dtype", ["float32", "uint8"])
def test_an_out_of_the_wrong_dtype_or_shape_is_a_value_error(dtype):
    runner = BatchRunner("nakbe", 4, seed=0, num_threads=1, observation_dtype=dtype)
    other = np.float32 if dtype == "uint8" else np.uint8
    size = runner.dims.obs_size
    before = runner.states.copy()
    for bad in (
        np.zeros((4, size), other),
        np.zeros((3, size), dtype),
        np.zeros((4, 2 * size), dtype)[:, ::2],
    ):
        with pytest.raises(ValueError, match=f"out must be a writeable C-contiguous {dtype} array"):
            runner.observe(out=bad)
    np.testing.assert_array_equal(runner.states, before)
