"""treasure_core.batch_ops: every batch form runs the game's one parallel kernel, `batch_kernel`,
which splits the games into runs (`chunks`) for the threads."""

from __future__ import annotations

import numpy as np
import pytest

from treasure_core import batch_ops
from treasure_core.batch import BatchRunner
from treasure_core.header import STATE_DTYPE
from treasure_core.registry import game_names, get_game
from treasure_core.tiers import generated_kernel

N_GAMES = 13  # not a multiple of the chunks below: runs of unequal length
ROUNDS = 12


def _every_form(name: str, chunks: int, monkeypatch: pytest.MonkeyPatch) -> list[np.ndarray]:
    """Each form of the game's batch module in turn, the games split into `chunks` runs:
    everything each wrote."""
    monkeypatch.setattr(batch_ops, "_chunks", lambda: chunks)
    game = get_game(name)
    module = {form: generated_kernel(game, form) for form in batch_ops.FORMS}
    params = game.make_params(game.validate({}))
    dims = game.dims(params)
    players = int(game.validate({})["num_players"])
    states = np.zeros((N_GAMES, dims.state_size), STATE_DTYPE)
    module["batch_init"](states, params, np.arange(40, 40 + N_GAMES, dtype=np.int64))
    written = [states.copy()]
    for round_index in range(ROUNDS):
        masks = np.zeros((N_GAMES, dims.n_actions), np.int8)
        actions = np.zeros(N_GAMES, np.int64)
        empty = module["batch_legal_mask"](states, masks, round_index, actions)
        seen = np.zeros((N_GAMES, dims.obs_size), np.float32)
        module["batch_observe"](states, seen)
        seen8 = np.zeros((N_GAMES, dims.obs_size), np.uint8)
        module["batch_observe_uint8"](states, seen8)
        rewards = np.zeros((N_GAMES, players), np.float32)
        dones, truncated = np.zeros(N_GAMES, np.bool_), np.zeros(N_GAMES, np.bool_)
        form = "batch_step" if round_index % 2 else "batch_step_unrefused"
        module[form](states, actions, params, rewards, dones, truncated)
        finished, cut = np.zeros(N_GAMES, np.int64), np.zeros(N_GAMES, np.int64)
        steps = module["random_playout"](states, params, 5, round_index, finished, cut)
        assert empty == 0 and steps == 5 * N_GAMES
        written += [masks, actions, seen, seen8, rewards, dones, truncated, finished, cut, states.copy()]
    return written


@pytest.mark.parametrize("name", game_names())
def test_every_batch_form_gives_the_same_games_however_the_games_are_chunked(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One run of the games a thread, a few, or one a game: every game is taken once, and its
    result depends on its own state only (each chunk's scratch rows are rewritten in full)."""
    single = _every_form(name, 1, monkeypatch)
    for chunks in (3, 64):
        for before, after in zip(single, _every_form(name, chunks, monkeypatch), strict=True):
            np.testing.assert_array_equal(after, before)


def test_the_forms_are_the_contracts_batch_forms_and_reach_one_signature() -> None:
    """Each game's batch module defines every form of batch_ops.FORMS over its batch_kernel, and
    numba compiles the kernel once for all of them (the empty arrays have the used ones' types)."""
    game = get_game("nakbe")
    kernel = generated_kernel(game, "batch_kernel")
    for dtype in ("float32", "uint8"):
        runner = BatchRunner(game, 4, seed=0, num_threads=1, observation_dtype=dtype)
        runner.observe()
        runner.step(runner.random_actions())
        runner.check_actions = False
        runner.step(runner.random_actions())
        runner.random_playout(3, seed=1)
    for form in batch_ops.FORMS:
        assert callable(generated_kernel(game, form)), form
    for field in game.kernels._fields:
        if field.startswith("batch_") or field == "random_playout":
            assert field in batch_ops.FORMS and getattr(game.kernels, field) is generated_kernel(game, field)
    assert len(kernel.signatures) == 1, kernel.signatures
