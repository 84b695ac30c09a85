"""The conformance suite: every check here runs on every registered game, player count and
option value (see conftest.CONFIGS). A new game joins by registering."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import pytest
from conftest import random_legal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from treasure_core.aec import TreasureAECEnv
from treasure_core.batch import BatchRunner
from treasure_core.game import GameSpec
from treasure_core.header import CURRENT_PLAYER, TERMINAL
from treasure_core.registry import get_game, make_env

MAX_DECISIONS = 5000  # far beyond any real game: a game that runs longer is stuck


def make(config: tuple[str, dict[str, Any]], **extra: Any) -> TreasureAECEnv:
    name, options = config
    return TreasureAECEnv(get_game(name), **options, **extra)


def play_random(env: TreasureAECEnv, seed: int, decisions: int, check: bool = False) -> list[int]:
    """Take up to `decisions` random legal actions (stopping at the end); return them."""
    rng = np.random.default_rng(seed)
    taken = []
    for _ in range(decisions):
        if env.get_state()[TERMINAL]:
            break
        action = random_legal(rng, env.observe(env.agent_selection)["action_mask"])
        env.step(action)
        taken.append(action)
        if check:
            env.game.check_invariants(env.get_state())
    return taken


def env_snapshot(env: TreasureAECEnv) -> tuple:
    return (
        env.get_state().tobytes(),
        env.agent_selection,
        tuple(env.agents),
        tuple(sorted(env.rewards.items())),
        tuple(sorted(env._cumulative_rewards.items())),
        tuple(sorted(env.terminations.items())),
    )


# -- PettingZoo's own tests ---------------------------------------------------------------
def test_pettingzoo_api(config):
    name, options = config
    api_test(make_env(name, **options), num_cycles=300)


def test_pettingzoo_seed(config):
    name, options = config
    seed_test(lambda: make_env(name, **options), num_cycles=200)


# -- determinism, clone, replay -----------------------------------------------------------
def test_same_seed_same_actions_same_trajectory(config):
    first, second = make(config), make(config)
    first.reset(seed=123)
    second.reset(seed=123)
    rng = np.random.default_rng(7)
    while not first.get_state()[TERMINAL]:
        action = random_legal(rng, first.observe(first.agent_selection)["action_mask"])
        first.step(action)
        second.step(action)
        assert env_snapshot(first) == env_snapshot(second)
    other = make(config)
    other.reset(seed=124)
    assert other.get_state().tobytes() != make_reset(config, 123).get_state().tobytes()


def make_reset(config, seed: int) -> TreasureAECEnv:
    env = make(config)
    env.reset(seed=seed)
    return env


def test_clone_set_state_and_bytes_round_trip(config):
    env = make_reset(config, 5)
    play_random(env, seed=1, decisions=15)
    assert not env.get_state()[TERMINAL], "the game should still be running mid-game"
    twin = env.clone()
    restored = make(config)
    restored.set_state(env.get_state().tobytes())
    assert env_snapshot(restored) == env_snapshot(env)
    for agent in env.possible_agents:
        for a, b in ((env, twin), (env, restored)):
            oa, ob = a.observe(agent), b.observe(agent)
            assert np.array_equal(oa["observation"], ob["observation"])
            assert np.array_equal(oa["action_mask"], ob["action_mask"])
    assert np.array_equal(env.state(), restored.state())
    # The three continue identically; and the clone is independent of the original.
    before = env.get_state()
    play_random(twin, seed=2, decisions=3)
    assert np.array_equal(env.get_state(), before)
    env_actions = play_random(env, seed=9, decisions=MAX_DECISIONS)
    rng_states = []
    for other in (twin.clone(), restored):
        other.set_state(before)
        for action in env_actions:
            other.step(action)
        rng_states.append(other.get_state().tobytes())
    assert rng_states == [env.get_state().tobytes()] * 2


def test_set_state_rejects_bad_input(config):
    env = make_reset(config, 0)
    state = env.get_state()
    for bad in (
        state[:-1],
        state.astype(np.int64),
        state.tobytes()[:-4],
        np.zeros((2, state.size), state.dtype),
    ):
        with pytest.raises(ValueError):
            env.set_state(bad)
    assert np.array_equal(env.get_state(), state)


# -- bad input ----------------------------------------------------------------------------
def test_illegal_actions_raise_and_change_nothing(config):
    env = make_reset(config, 11)
    play_random(env, seed=3, decisions=8)
    n_actions = env.action_space(env.agent_selection).n
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal: list[Any] = [a for a in range(n_actions) if not mask[a]]
    illegal += [-1, n_actions, n_actions + 5, 1.0, "0", None, True, np.array([0, 1])]
    before = env_snapshot(env)
    for action in illegal:
        with pytest.raises(ValueError) as error:
            env.step(action)
        assert env.agent_selection in str(error.value)
        assert env_snapshot(env) == before
    # numpy integers are fine when legal
    env.step(np.int64(np.flatnonzero(mask)[0]))


def test_illegal_action_penalize_option(config):
    env = make(config, illegal_action="penalize")
    env.reset(seed=4)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = [a for a in range(mask.size) if not mask[a]] or [mask.size]
    offender = env.agent_selection
    env.step(illegal[0])
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1.0
    assert all(r == 0.0 for a, r in env.rewards.items() if a != offender)


def test_bad_options_raise(config):
    name, options = config
    game = get_game(name)
    bad_options = [
        {"num_players": game.min_players - 1},
        {"num_players": game.max_players + 1},
        {"num_players": True},
        {"num_players": "3"},
        {"reward": "points"},
        {"illegal_action": "ignore"},
        {"no_such_option": 1},
    ]
    for option in game.game_options:
        bad_options.append({option.name: object()})
    for bad in bad_options:
        with pytest.raises(ValueError) as error:
            TreasureAECEnv(game, **bad)
        assert next(iter(bad)) in str(error.value)
    with pytest.raises(ValueError):
        TreasureAECEnv(game, render_mode="video")
    with pytest.raises(ValueError):
        make(config).reset(seed=-1)


# -- hidden information -------------------------------------------------------------------
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**31),
    decisions=st.integers(0, 60),
    resample_seed=st.integers(0, 2**31),
    player_pick=st.integers(0, 6),
)
def test_hidden_information(config, seed, decisions, resample_seed, player_pick):
    """A state and its resample_hidden twin look the same to that player (and to its bots)."""
    env = make_reset(config, seed)
    play_random(env, seed=seed + 1, decisions=decisions)
    player = player_pick % env.num_players
    agent = env.possible_agents[player]
    twin = make(config)
    twin.set_state(env.resample_hidden(player, resample_seed))
    env.game.check_invariants(twin.get_state())
    mine, theirs = env.observe(agent), twin.observe(agent)
    assert np.array_equal(mine["observation"], theirs["observation"])
    assert np.array_equal(mine["action_mask"], theirs["action_mask"])
    assert twin.agent_selection == env.agent_selection
    # Bots read only what their seat may know.
    if not env.get_state()[TERMINAL] and env.agent_selection == agent:
        for name, make_bot in env.game.bots.items():
            assert make_bot(0).act(env, agent) == make_bot(0).act(twin, agent), f"bot {name} reads secrets"


def test_resample_hidden_really_redeals(config):
    """Without this, an empty re-deal would pass the test above."""
    changed = 0
    for seed in range(20):
        env = make_reset(config, seed)
        play_random(env, seed=seed, decisions=seed)
        twin = env.resample_hidden(seed % env.num_players, seed + 1)
        changed += not np.array_equal(env.state(), make_with_state(config, twin).state())
    assert changed >= 15


def make_with_state(config, state: np.ndarray) -> TreasureAECEnv:
    env = make(config)
    env.set_state(state)
    return env


def test_observations_differ_between_players(config):
    env = make_reset(config, 2)
    observations = [env.observe(agent)["observation"] for agent in env.possible_agents]
    assert len({o.tobytes() for o in observations}) == len(observations)


# -- random play fuzz ---------------------------------------------------------------------
def test_random_play_fuzz(config):
    """Many random games, every invariant checked at every step; every game ends."""
    env = make(config)
    for game_index in range(100):
        env.reset(seed=1000 + game_index)
        env.game.check_invariants(env.get_state())
        taken = play_random(env, seed=game_index, decisions=MAX_DECISIONS, check=True)
        assert env.get_state()[TERMINAL], f"game {game_index} did not end in {len(taken)} decisions"
        rewards = [env.rewards[a] for a in env.possible_agents]
        assert all(env.terminations.values())
        if env.options["reward"] == "win_loss":
            assert set(rewards) <= {1.0, -1.0} and 1.0 in rewards
        else:
            assert abs(sum(rewards)) < 1e-6
        info = env.infos[env.possible_agents[0]]
        assert "score" in info


# -- batch runner -------------------------------------------------------------------------
def test_aec_and_batch_agree(config):
    name, options = config
    n_games = 6
    runner = BatchRunner(name, n_games, seed=500, **options)
    envs = []
    for i in range(n_games):
        envs.append(make_reset(config, 500 + i))
    rng = np.random.default_rng(0)
    live = np.ones(n_games, bool)
    while live.any():
        masks = runner.legal_masks().copy()
        observations = runner.observe()
        actions = np.zeros(n_games, np.int64)
        for i, env in enumerate(envs):
            if not live[i]:
                actions[i] = int(np.flatnonzero(masks[i])[0])
                continue
            assert np.array_equal(runner.states[i], env.get_state())
            seen = env.observe(env.agent_selection)
            assert np.array_equal(seen["action_mask"], masks[i])
            assert np.array_equal(seen["observation"], observations[i])
            actions[i] = random_legal(rng, masks[i])
            env.step(int(actions[i]))
        rewards, dones = runner.step(actions)
        for i, env in enumerate(envs):
            if not live[i]:
                continue
            assert bool(dones[i]) == bool(env.get_state()[TERMINAL])
            if dones[i]:
                expected = [env.rewards[a] for a in env.possible_agents]
                assert np.allclose(rewards[i], expected)
                live[i] = False
                # Auto-reset: a fresh game, not the finished one.
                assert not runner.states[i, TERMINAL]
    assert runner.current_players().shape == (n_games,)


def test_batch_rejects_illegal_actions(config):
    name, options = config
    runner = BatchRunner(name, 4, seed=1, **options)
    masks = runner.legal_masks()
    before = runner.states.copy()
    bad = np.array([int(np.flatnonzero(m)[0]) for m in masks])
    bad[2] = masks.shape[1]
    with pytest.raises(ValueError, match="game 2"):
        runner.step(bad)
    illegal = [a for a in range(masks.shape[1]) if not masks[1, a]]
    if illegal:
        bad[2] = int(np.flatnonzero(masks[2])[0])
        bad[1] = illegal[0]
        with pytest.raises(ValueError, match="game 1"):
            runner.step(bad)
    with pytest.raises(ValueError):
        runner.step(bad[:2])
    assert np.array_equal(runner.states, before)


def test_random_playout_kernel(config):
    name, options = config
    game: GameSpec = get_game(name)
    runner = BatchRunner(name, 16, seed=3, **options)
    steps, finished = runner.random_playout(300, seed=8)
    assert steps == 16 * 300
    assert finished > 0
    for state in runner.states:
        game.check_invariants(state)
    again = BatchRunner(name, 16, seed=3, **options)
    assert again.random_playout(300, seed=8) == (steps, finished)
    assert np.array_equal(again.states, runner.states)
    assert runner.current_players().max() < runner.num_players
    assert (runner.states[:, CURRENT_PLAYER] >= 0).all()


def test_batch_runner_gives_the_same_games_on_any_number_of_threads(config):
    name, options = config
    runs = []
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        runner = BatchRunner(name, 32, seed=21, num_threads=threads, **options)
        runner.random_playout(200, seed=5)
        rng = np.random.default_rng(1)
        total = np.zeros((32, runner.num_players))
        for _ in range(50):
            masks = runner.legal_masks()
            actions = (rng.random(masks.shape) * masks).argmax(axis=1)
            rewards, _ = runner.step(actions)
            total += rewards
        runs.append((runner.states.copy(), total))
    assert np.array_equal(runs[0][0], runs[1][0])
    assert np.array_equal(runs[0][1], runs[1][1])
