"""The kernel contract's batch forms, over the one parallel kernel of a game's batch module.

numba links every function a `parallel=True` function reaches into four libraries (the
parallel loop, its two wrappers and the function itself), and optimises and emits each of them
again: seven parallel batch forms compiled the whole game 28 times, 40% of a warm-up. So a game's
generated batch module (treasure_core.codegen) has one parallel kernel, `batch_kernel`, whose
first argument picks what it does (the OP_ codes), and the contract's batch forms are Python
functions over it, here: each passes the arrays its op uses and an empty array of the same type
for every other, so that numba compiles one signature for them all.
"""

from __future__ import annotations

from collections.abc import Callable

import numba
import numpy as np

# What batch_kernel does, its first argument.
OP_INIT = 0  # batch_init
OP_STEP = 1  # batch_step: the game's step refuses an illegal action
OP_STEP_UNREFUSED = 2  # batch_step_unrefused: every action is legal
OP_LEGAL_MASK = 3  # batch_legal_mask, with or without the draw
OP_OBSERVE = 4  # batch_observe
OP_OBSERVE_UINT8 = 5  # batch_observe_uint8
OP_PLAYOUT = 6  # random_playout
OPS = (OP_INIT, OP_STEP, OP_STEP_UNREFUSED, OP_LEGAL_MASK, OP_OBSERVE, OP_OBSERVE_UINT8, OP_PLAYOUT)

# The arrays an op does not use: empty, of the types the forms that use them pass.
NO_PARAMS = np.empty(0, np.int32)  # GameSpec.make_params' dtype
NO_INTS = np.empty(0, np.int64)  # seeds, actions, the playout's counts
NO_REWARDS = np.empty((0, 0), np.float32)
NO_FLAGS = np.empty(0, np.bool_)
NO_MASKS = np.empty((0, 0), np.int8)
NO_OBS = np.empty((0, 0), np.float32)
NO_OBS_UINT8 = np.empty((0, 0), np.uint8)

# batch_kernel(op, states, params, seeds, actions, rewards_out, dones_out, truncated_out,
#              masks_out, obs_out, obs_uint8_out, finished_out, cut_out, seed, steps, chunks) -> int
BatchKernel = Callable[..., int]
# The runs of games batch_kernel splits a call into: a few a thread, each with its own scratch
# rows (a kernel cannot ask numba's thread count and still be cached: numba's get_num_threads
# is a ctypes pointer in the compiled code).
CHUNKS_PER_THREAD = 8

# The forms a game's batch module defines over its batch_kernel, each one of the functions below.
FORMS = (
    "batch_init",
    "batch_step",
    "batch_step_unrefused",
    "batch_legal_mask",
    "batch_observe",
    "batch_observe_uint8",
    "random_playout",
)


def batch_init(kernel: BatchKernel, states: np.ndarray, params: np.ndarray, seeds: np.ndarray) -> None:
    """Start game i from seeds[i]."""
    kernel(
        OP_INIT, states, params, seeds, NO_INTS, NO_REWARDS, NO_FLAGS, NO_FLAGS,
        NO_MASKS, NO_OBS, NO_OBS_UINT8, NO_INTS, NO_INTS, 0, 0, _chunks(),
    )  # fmt: skip


def batch_step(
    kernel: BatchKernel,
    states: np.ndarray,
    actions: np.ndarray,
    params: np.ndarray,
    rewards_out: np.ndarray,
    dones_out: np.ndarray,
    truncated_out: np.ndarray,
) -> None:
    """One action per game, refused by the game's `step` if it is illegal (the game unchanged);
    a finished game reports its rewards and restarts, seeded from its own generator; a game its
    guard cuts is done and truncated, with rewards 0."""
    kernel(
        OP_STEP, states, params, NO_INTS, actions, rewards_out, dones_out, truncated_out,
        NO_MASKS, NO_OBS, NO_OBS_UINT8, NO_INTS, NO_INTS, 0, 0, _chunks(),
    )  # fmt: skip


def batch_step_unrefused(
    kernel: BatchKernel,
    states: np.ndarray,
    actions: np.ndarray,
    params: np.ndarray,
    rewards_out: np.ndarray,
    dones_out: np.ndarray,
    truncated_out: np.ndarray,
) -> None:
    """batch_step over the game's step_unrefused: every action must be legal (the checked
    path of BatchRunner, which has compared them with the masks already)."""
    kernel(
        OP_STEP_UNREFUSED, states, params, NO_INTS, actions, rewards_out, dones_out, truncated_out,
        NO_MASKS, NO_OBS, NO_OBS_UINT8, NO_INTS, NO_INTS, 0, 0, _chunks(),
    )  # fmt: skip


def batch_legal_mask(
    kernel: BatchKernel, states: np.ndarray, masks_out: np.ndarray, seed: int, actions_out: np.ndarray
) -> int:
    """Each game's legal mask, its player to act, into masks_out; with an actions_out of one
    entry a game (else empty), a uniformly random legal action of each too, drawn as
    sample_legal_actions draws from those masks at `seed` (-1 where none is legal), in the same
    pass. Returns the games with no legal action when it draws (0 otherwise)."""
    return kernel(
        OP_LEGAL_MASK, states, NO_PARAMS, NO_INTS, actions_out, NO_REWARDS, NO_FLAGS, NO_FLAGS,
        masks_out, NO_OBS, NO_OBS_UINT8, NO_INTS, NO_INTS, seed, 0, _chunks(),
    )  # fmt: skip


def batch_observe(kernel: BatchKernel, states: np.ndarray, obs_out: np.ndarray) -> None:
    """Each game seen by its player to act, float32."""
    kernel(
        OP_OBSERVE, states, NO_PARAMS, NO_INTS, NO_INTS, NO_REWARDS, NO_FLAGS, NO_FLAGS,
        NO_MASKS, obs_out, NO_OBS_UINT8, NO_INTS, NO_INTS, 0, 0, _chunks(),
    )  # fmt: skip


def batch_observe_uint8(kernel: BatchKernel, states: np.ndarray, obs_out: np.ndarray) -> None:
    """batch_observe's features as uint8, rint(feature * 255) (every feature is in [0, 1])."""
    kernel(
        OP_OBSERVE_UINT8, states, NO_PARAMS, NO_INTS, NO_INTS, NO_REWARDS, NO_FLAGS, NO_FLAGS,
        NO_MASKS, NO_OBS, obs_out, NO_INTS, NO_INTS, 0, 0, _chunks(),
    )  # fmt: skip


def random_playout(
    kernel: BatchKernel,
    states: np.ndarray,
    params: np.ndarray,
    steps: int,
    seed: int,
    finished_out: np.ndarray,
    truncated_out: np.ndarray,
) -> int:
    """Each game takes `steps` uniformly random legal actions, restarting when it ends (counted
    in finished_out by the rules, in truncated_out by its guard). Returns the steps taken."""
    return kernel(
        OP_PLAYOUT, states, params, NO_INTS, NO_INTS, NO_REWARDS, NO_FLAGS, NO_FLAGS,
        NO_MASKS, NO_OBS, NO_OBS_UINT8, finished_out, truncated_out, seed, steps, _chunks(),
    )  # fmt: skip


def _chunks() -> int:
    return CHUNKS_PER_THREAD * numba.get_num_threads()
