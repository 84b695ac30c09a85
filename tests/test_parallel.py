"""The generic Parallel driver (treasure_core.parallel) on every registered game and option
value: PettingZoo's parallel_api_test, agreement with the AEC env, and bad input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import random_legal
from pettingzoo.test import parallel_api_test

from treasure_core.aec import TreasureAECEnv
from treasure_core.header import CURRENT_PLAYER, TERMINAL
from treasure_core.parallel import TreasureParallelEnv
from treasure_core.registry import get_game


def make_parallel(config: tuple[str, dict[str, Any]], **extra: Any) -> TreasureParallelEnv:
    name, options = config
    return TreasureParallelEnv(get_game(name), **options, **extra)


def random_joint(env: TreasureParallelEnv, observations: dict, rng: np.random.Generator) -> dict[str, int]:
    """A random legal action for every deciding agent; 0 for the others (ignored)."""
    return {
        agent: random_legal(rng, obs["action_mask"]) if obs["action_mask"].any() else 0
        for agent, obs in observations.items()
    }


def test_parallel_api(config):
    parallel_api_test(make_parallel(config), num_cycles=400)


def test_parallel_env_plays_the_aec_game(config):
    """The same seed and decisions give the same states in the Parallel and the AEC env."""
    name, options = config
    parallel = make_parallel(config)
    aec = TreasureAECEnv(get_game(name), **options)
    observations, _ = parallel.reset(seed=77)
    aec.reset(seed=77)
    rng = np.random.default_rng(3)
    steps = 0
    while parallel.agents:
        assert np.array_equal(parallel.get_state(), aec.get_state())
        seats = parallel.deciding_seats()
        assert seats and seats[0] == aec.get_state()[CURRENT_PLAYER]
        for agent, obs in observations.items():
            seat = parallel.possible_agents.index(agent)
            assert obs["action_mask"].any() == (seat in seats)
            mine = aec.observe(agent)["observation"]
            if seat == aec.get_state()[CURRENT_PLAYER]:
                assert np.array_equal(obs["observation"], mine)
                assert np.array_equal(obs["action_mask"], aec.observe(agent)["action_mask"])
        actions = random_joint(parallel, observations, rng)
        for seat in seats:
            aec.step(actions[parallel.possible_agents[seat]])
        observations, rewards, terminations, truncations, infos = parallel.step(actions)
        steps += 1
    assert aec.get_state()[TERMINAL] and np.array_equal(parallel.get_state(), aec.get_state())
    assert rewards == {agent: aec.rewards[agent] for agent in aec.possible_agents}
    assert all(terminations.values()) and not any(truncations.values())
    assert infos[parallel.possible_agents[0]]["score"] == aec.infos[aec.possible_agents[0]]["score"]
    with pytest.raises(ValueError):
        parallel.step({})


def test_parallel_bad_actions_raise_and_change_nothing(config):
    env = make_parallel(config)
    observations, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(3):
        observations, *_ = env.step(random_joint(env, observations, rng))
    before = env.get_state()
    good = random_joint(env, observations, rng)
    decider = env.possible_agents[env.deciding_seats()[-1]]
    mask = observations[decider]["action_mask"]
    bad_values = [a for a in range(mask.size) if not mask[a]][:3] + [-1, mask.size, 1.5, "0", None, True]
    for bad in bad_values:
        with pytest.raises(ValueError) as error:
            env.step({**good, decider: bad})
        assert decider in str(error.value)
        assert np.array_equal(env.get_state(), before)
    missing = dict(good)
    del missing[decider]
    with pytest.raises(ValueError, match=decider):
        env.step(missing)
    with pytest.raises(ValueError):
        env.step([0])
    assert np.array_equal(env.get_state(), before)
    env.step(good)


def test_parallel_penalize_option(config):
    env = make_parallel(config, illegal_action="penalize")
    observations, _ = env.reset(seed=4)
    decider = env.possible_agents[env.deciding_seats()[0]]
    mask = observations[decider]["action_mask"]
    before = env.get_state()
    actions = random_joint(env, observations, np.random.default_rng(1))
    actions[decider] = mask.size  # out of range
    _, rewards, terminations, _, infos = env.step(actions)
    assert all(terminations.values()) and env.agents == []
    assert rewards[decider] == -1.0 and all(r == 0.0 for a, r in rewards.items() if a != decider)
    assert infos[decider]["illegal_action"]
    assert np.array_equal(env.get_state(), before)


def test_parallel_set_state_state_and_render(config):
    env = make_parallel(config, render_mode="ansi")
    observations, _ = env.reset(seed=9)
    env.step(random_joint(env, observations, np.random.default_rng(2)))
    twin = make_parallel(config)
    twin.set_state(env.get_state().tobytes())
    assert np.array_equal(twin.state(), env.state())
    assert twin.agents == env.agents
    assert isinstance(env.render(), str)
    assert env.observation_space(env.possible_agents[0]) is env.observation_spaces[env.possible_agents[0]]


def test_parallel_requires_reset():
    env = make_parallel(("karuba", {}))
    with pytest.raises(RuntimeError):
        env.step({})
