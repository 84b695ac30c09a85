"""The refusal in every game's `step` changes nothing on a legal action: `step` and
`step_unrefused` (the step without the refusal, kept as benchmarks/refusal_cost.py's reference)
leave byte-identical states on every legal action of the player to act, in every state of a few
seeded random games (issue 25 item 2). That every illegal action is refused is
tests/test_adversarial.py's count."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

from treasure_core.aec import TreasureAECEnv
from treasure_core.batch import BatchRunner
from treasure_core.header import CURRENT_PLAYER, TERMINAL
from treasure_core.registry import all_games, get_game

GAMES = [game.name for game in all_games()]
SEEDS = range(4)  # the default tier's random games per game (about 2 s in all, compiled)
LONG_SEEDS = range(10, 16)
MAX_DECISIONS = 300  # a game's decisions checked at most (the default tier stays short)


def _check_games(name: str, options: dict[str, Any], seeds: Any, max_decisions: int | None) -> int:
    """Step every legal action of every state of the seeded random games both ways; returns
    how many actions were compared."""
    game = get_game(name)
    kernels = importlib.import_module(game.kernels.step.py_func.__module__)  # step's own module
    if not hasattr(kernels, "step_unrefused"):
        pytest.skip(f"{name}'s step does not refuse (no step_unrefused)")
    env = TreasureAECEnv(game, **options)
    mask = np.zeros(env.dims.n_actions, np.int8)
    compared = 0
    for seed in seeds:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        decisions = 0
        while not env.is_over() and (max_decisions is None or decisions < max_decisions):
            state = env.get_state()
            assert not state[TERMINAL]
            kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask)
            for action in np.flatnonzero(mask):
                refused, unrefused = state.copy(), state.copy()
                kernels.step(refused, int(action))
                kernels.step_unrefused(unrefused, int(action))
                assert refused.tobytes() == unrefused.tobytes(), (
                    f"{name} {options} seed {seed}, decision {decisions}: action {action} "
                    f"differs at {np.flatnonzero(refused != unrefused).tolist()}"
                )
                compared += 1
            env.step(int(rng.choice(env.legal_actions())))
            decisions += 1
    return compared


@pytest.mark.parametrize("name", GAMES)
def test_step_and_step_unrefused_agree_on_every_legal_action(name: str) -> None:
    assert _check_games(name, {}, SEEDS, MAX_DECISIONS) > 0


@pytest.mark.long
def test_step_and_step_unrefused_agree_in_every_config(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    assert _check_games(name, options, LONG_SEEDS, None) > 0


BATCH_GAMES = 64
BATCH_STEPS = 400
BATCH_PLAYOUT = 300


@pytest.mark.parametrize("name", GAMES)
def test_the_checked_batch_step_plays_what_the_refusing_one_plays(name: str) -> None:
    """BatchRunner(check_actions=True) steps through the generated batch_step_unrefused (its
    actions are checked legal); on the same legal actions it must leave the same states,
    rewards, dones and truncations as the refusing batch_step of check_actions=False, through
    endings and restarts."""
    checked = BatchRunner(name, BATCH_GAMES, seed=3, num_threads=1)
    unchecked = BatchRunner(name, BATCH_GAMES, seed=3, num_threads=1, check_actions=False)
    for runner in (checked, unchecked):  # into the games' middles, so that some end below
        runner.random_playout(BATCH_PLAYOUT, seed=1)
    ended = 0
    for k in range(BATCH_STEPS):
        actions = checked.random_actions(seed=k)
        rewards, dones = checked.step(actions)
        unchecked_rewards, unchecked_dones = unchecked.step(actions)
        assert checked.states.tobytes() == unchecked.states.tobytes(), f"{name}: step {k}"
        assert np.array_equal(rewards, unchecked_rewards) and np.array_equal(dones, unchecked_dones)
        assert np.array_equal(checked.truncated, unchecked.truncated)
        assert not unchecked.refused.any(), f"{name}: a legal action refused at step {k}"
        ended += int(dones.sum())
    assert ended > 0, f"{name}: no game ended in {BATCH_STEPS} steps; the restarts went unchecked"
