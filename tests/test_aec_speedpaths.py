"""The AEC env's fast paths (issue 27 item 1) keep every convention: after every step each
seat's mask, wherever it is shown (infos, observe, action_mask), is the kernel's; an info whose
mask did not change is the same dict, one that changed is a new dict, and a dict handed out is
never altered afterwards; the arrays handed out are the caller's, so altering them changes
nothing in the env; a clone's steps leave the original as it was."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from treasure_core.registry import all_games, make_env

GAMES = [game.name for game in all_games()]
MAX_STEPS = 30_000  # more than a whole random game of any game (the guards cut the longest)


def kernel_masks(raw) -> list[np.ndarray]:
    """Every seat's mask from a fresh kernel call (all empty once the game is over)."""
    masks = [np.zeros(raw.dims.n_actions, np.int8) for _ in raw.possible_agents]
    if not raw.is_over():
        for seat, mask in enumerate(masks):
            raw.game.kernels.legal_mask(raw.get_state(), seat, mask)
    return masks


def random_action(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def same_info(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        np.array_equal(a[k], b[k]) if isinstance(a[k], np.ndarray) else a[k] == b[k] for k in a
    )


@pytest.mark.parametrize("name", GAMES)
def test_every_seat_mask_is_the_kernels_after_every_step(name: str) -> None:
    env = make_env(name)
    raw = env.unwrapped
    for seed in range(2):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(MAX_STEPS):
            for agent, expected in zip(raw.possible_agents, kernel_masks(raw), strict=True):
                assert np.array_equal(raw.infos[agent]["action_mask"], expected), agent
                assert np.array_equal(raw.action_mask(agent), expected), agent
                assert np.array_equal(raw.observe(agent)["action_mask"], expected), agent
            if raw.is_over():
                break
            before = dict(raw.infos)
            kept = {agent: info["action_mask"].copy() for agent, info in before.items()}
            raw.step(random_action(rng, raw.action_mask(raw.agent_selection)))
            if raw.is_over():
                continue
            for agent, info in raw.infos.items():
                # An unchanged mask keeps its info dict; a changed one gets a new dict.
                changed = not np.array_equal(info["action_mask"], kept[agent])
                assert (info is not before[agent]) == changed, agent
        else:
            raise AssertionError(f"{name}: seed {seed} did not end in {MAX_STEPS} steps")


@pytest.mark.parametrize("name", GAMES)
def test_an_info_handed_out_is_never_altered(name: str) -> None:
    """Every info last() gave, and every observation, is as it was when given, at the game's end."""
    env = make_env(name)
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    handed: list[tuple[object, object]] = []
    for _agent in env.agent_iter(MAX_STEPS):
        observation, _reward, termination, truncation, info = env.last()
        handed.append((info, copy.deepcopy(info)))
        handed.append((observation, copy.deepcopy(observation)))
        env.step(None if termination or truncation else random_action(rng, observation["action_mask"]))
    assert not env.agents, f"{name}: the game did not end in {MAX_STEPS} steps"
    for given, snapshot in handed:
        assert same_info(given, snapshot)


@pytest.mark.parametrize("name", GAMES)
def test_altering_a_handed_out_mask_changes_nothing(name: str) -> None:
    env = make_env(name)
    raw = env.unwrapped
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(30):
        if raw.is_over():
            break
        agent = raw.agent_selection
        observation, *_, info = env.last()
        expected = raw.action_mask(agent)
        action = random_action(rng, expected)
        observation["action_mask"][:] = 0  # a caller's own copies: zeroing them is its business
        info["action_mask"][:] = 0
        raw.action_mask(agent)[:] = 0
        assert np.array_equal(raw.action_mask(agent), expected)
        assert np.array_equal(raw.observe(agent)["action_mask"], expected)
        env.step(action)  # still legal: the env checks against its own mask


@pytest.mark.parametrize("name", GAMES)
def test_a_clones_steps_leave_the_original_alone(name: str) -> None:
    env = make_env(name).unwrapped
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(10):
        env.step(random_action(rng, env.action_mask(env.agent_selection)))
    infos = {agent: copy.deepcopy(info) for agent, info in env.infos.items()}
    masks = [env.action_mask(agent) for agent in env.possible_agents]
    twin = env.clone()
    for _ in range(20):
        if twin.is_over():
            break
        twin.step(random_action(rng, twin.action_mask(twin.agent_selection)))
    for agent, mask in zip(env.possible_agents, masks, strict=True):
        assert same_info(env.infos[agent], infos[agent])
        assert np.array_equal(env.action_mask(agent), mask)
    for agent, expected in zip(env.possible_agents, kernel_masks(env), strict=True):
        assert np.array_equal(env.action_mask(agent), expected)
    env.step(random_action(rng, env.action_mask(env.agent_selection)))  # the original plays on
