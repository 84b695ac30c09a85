"""Pig as PettingZoo environments: the GameSpec the generic drivers of treasure_core run."""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from treasure_core.aec import TreasureAECEnv
from treasure_core.game import Dims, Dynamics, GameSpec, Guard, Kernels
from treasure_core.options import Option
from treasure_core.parallel import TreasureParallelEnv

from pig_env import batch, bots, kernels, observe, render
from pig_env.data import DEFAULT_PLAYERS, DEFAULT_TARGET, MAX_PLAYERS, MAX_ROUNDS, MIN_PLAYERS, TARGETS
from pig_env.invariants import check_invariants, validate_state
from pig_env.state import (
    ACTIONS,
    END,
    END_ROUND_LIMIT,
    GUARD_COUNTER,
    N_ACTIONS,
    PHASES,
    ROUND,
    STATE_FIELDS,
    STATE_SIZE,
)

END_NAMES = ("not over", "target reached", "round limit")  # END_NONE, END_TARGET, END_ROUND_LIMIT (the guard)

GAME_OPTIONS = (Option("target", DEFAULT_TARGET, TARGETS, "points to reach: the first to reach them wins"),)


def _game_params(options: dict[str, Any]) -> list[int]:
    return [options["target"]]


def _dims(params: np.ndarray) -> Dims:
    return Dims(STATE_SIZE, N_ACTIONS, observe.OBS_SIZE, observe.FULL_SIZE)


def _extra_info(state: np.ndarray, points: np.ndarray, tiebreaks: np.ndarray) -> dict[str, Any]:
    return {"end_condition": int(state[END]), "rounds": int(state[ROUND])}  # a code of END_NAMES


GAME = GameSpec(
    name="pig",
    env_name="pig_v1",
    title="Pig",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=DEFAULT_PLAYERS,
    game_options=GAME_OPTIONS,
    game_params=_game_params,
    dims=_dims,
    kernels=Kernels.from_modules(kernels, observe, batch),
    phases=PHASES,
    actions=ACTIONS,
    dynamics=Dynamics(turns="sequential", chance=True, information="perfect"),
    info_names={"end_condition": END_NAMES},
    render_ansi=render.render_ansi,
    render_rgb=render.render_rgb,
    action_name=render.describe_action,
    check_invariants=check_invariants,
    state_fields=STATE_FIELDS,
    validate_state=validate_state,
    extra_info=_extra_info,
    bots={"bot": bots.PigBot},
    # ROUND counts from 1: the guard cuts a game once MAX_ROUNDS rounds are over.
    guard=Guard(GUARD_COUNTER, lambda options: MAX_ROUNDS, "rounds", END_ROUND_LIMIT, counter_start=1),
    # Solo with each reward and the long target (configs() already runs each option alone).
    test_configs=(
        {"num_players": 1, "reward": "score_diff"},
        {"num_players": 1, "target": 100},
    ),
)


def raw_env(render_mode: str | None = None, **options: Any) -> TreasureAECEnv:
    """The bare AEC env. Options: num_players (1..4, default 2; 1 races the in-kernel
    automaton), reward, illegal_action, target (50 or 100, default 50)."""
    return TreasureAECEnv(GAME, render_mode=render_mode, **options)


def env(render_mode: str | None = None, **options: Any) -> OrderEnforcingWrapper:
    """The AEC env wrapped as PettingZoo's classic envs are (reset before step)."""
    return OrderEnforcingWrapper(raw_env(render_mode=render_mode, **options))


def parallel_env(render_mode: str | None = None, **options: Any) -> TreasureParallelEnv:
    """The PettingZoo Parallel env: one step is the decision of the player to act (the others'
    masks are empty), over the same kernels as the AEC env."""
    return TreasureParallelEnv(GAME, render_mode=render_mode, **options)
