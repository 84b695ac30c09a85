"""The guard (GameSpec.guard) as a truncation on the paths outside the runtime: the Gymnasium
adapter, the RLlib adapter, the sb3 vector env, eval and selfplay. (The runtime's own paths, the
AEC env, the Parallel env, the batch runner and the playout, are the conformance check
`guard`, run over every game in tests/test_conformance.py.)"""

from __future__ import annotations

import numpy as np
import pytest

from treasure_apps import cli, evaluate
from treasure_core.agents import RandomAgent, agent_factory
from treasure_core.conformance import GUARD_TEST_LIMIT, _tight_guard
from treasure_core.registry import get_game

NAKUM = get_game("nakum")
TIGHT = _tight_guard(NAKUM)  # cut after GUARD_TEST_LIMIT days: random games reach it
OPTIONS = {"num_players": 2}


def _random_episode(env, seed: int) -> tuple[float, bool, bool, dict]:
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return reward, terminated, truncated, info


def test_gymnasium_adapter_truncates_at_the_guard() -> None:
    from treasure_adapters.single_agent import TreasureGymEnv

    env = TreasureGymEnv(TIGHT, opponents="random", **OPTIONS)
    reward, terminated, truncated, info = _random_episode(env, seed=0)
    assert truncated and not terminated and reward == 0.0
    assert info["end_condition"] == NAKUM.guard.end_condition and info["winner"] == 0
    assert not env.action_masks().any()
    # The real limit: the same game is decided by the rules (2 Offerings), never cut at once.
    env = TreasureGymEnv(NAKUM, opponents="bot", **OPTIONS)
    reward, terminated, truncated, info = _random_episode(env, seed=0)
    assert terminated and not truncated and reward in (-1.0, 1.0)


def test_sb3_vector_env_flags_the_cut_as_a_time_limit() -> None:
    pytest.importorskip("sb3_contrib")
    from treasure_apps.policy import TreasureVecEnv

    venv = TreasureVecEnv(TIGHT, n_envs=2, opponents="random", seed=0, **OPTIONS)
    venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(10_000):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        _, rewards, dones, infos = venv.step(actions)
        if dones.any():
            i = int(np.flatnonzero(dones)[0])
            assert infos[i]["TimeLimit.truncated"] and rewards[i] == 0.0
            assert "terminal_observation" in infos[i]
            return
    raise AssertionError("no game reached the guard")


def test_rllib_adapter_puts_the_cut_in_truncateds() -> None:
    pytest.importorskip("ray")
    from treasure_adapters.rllib import TreasureMultiAgentEnv

    env = TreasureMultiAgentEnv({"game": TIGHT, "seed": 0, "games_per_env": 2, **OPTIONS})
    observations, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(10_000):
        actions = {  # the seats of a game that just ended get their last observation, no decision
            agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
            for agent, obs in observations.items()
            if obs["action_mask"].any()
        }
        observations, rewards, terminateds, truncateds, infos = env.step(actions)
        for agent, cut in truncateds.items():
            if agent != "__all__" and cut:
                assert not terminateds[agent] and rewards[agent] == 0.0 and infos[agent]["winner"] == 0
        if terminateds["__all__"] or truncateds["__all__"]:
            assert truncateds["__all__"] and not terminateds["__all__"]
            return
    raise AssertionError("the episode did not end")


def test_eval_counts_cut_games_apart_from_wins() -> None:
    random_player = agent_factory(TIGHT, "random")
    result = evaluate.win_rate(TIGHT, TIGHT.validate(OPTIONS), random_player, random_player, 6)
    assert result.truncated == 6 and result.wins == 0 and result.games == 6
    real = evaluate.win_rate(NAKUM, NAKUM.validate(OPTIONS), agent_factory(NAKUM, "bot"), RandomAgent, 4)
    assert real.truncated == 0 and real.wins > 0


@pytest.mark.parametrize("command", ["selfplay", "eval"])
def test_selfplay_and_eval_print_a_truncated_column(command: str, capsys: pytest.CaptureFixture) -> None:
    argv = ["nakum", "--players", "2", "--games", "2", "--no-progress"]
    if command == "eval":
        argv += ["--checkpoint", "bot"]
    assert cli.main([command, *argv]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if "win rate" in line)
    assert header.split()[-1] == "truncated", out
    if command == "selfplay":
        assert f"after {NAKUM.guard.limit(OPTIONS)} rounds" in out, out


def test_guard_limit_reaches_the_params() -> None:
    from treasure_core.header import P_GUARD_LIMIT

    params = NAKUM.make_params(NAKUM.validate(OPTIONS))
    assert params[P_GUARD_LIMIT] == NAKUM.guard.limit(OPTIONS) + NAKUM.guard.counter_start
    assert TIGHT.make_params(TIGHT.validate(OPTIONS))[P_GUARD_LIMIT] == GUARD_TEST_LIMIT + 1
    assert get_game("karuba").make_params(get_game("karuba").validate({}))[P_GUARD_LIMIT] == 0
