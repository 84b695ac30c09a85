"""Treasures of Nakbe as a PettingZoo AEC environment: the GameSpec the generic driver runs."""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from nakbe_env import bots, kernels, observe, render
from nakbe_env.data import MAX_PLAYERS, NUM_EXPLORERS
from nakbe_env.state import END_CONDITION, STATE_SIZE, check_invariants
from treasure_core.aec import TreasureAECEnv
from treasure_core.game import Dims, GameSpec, Kernels
from treasure_core.header import NUM_PLAYERS

END_NAMES = {
    0: "not over",
    1: "A: an explorer exited",
    2: "B: one explorer left",
    3: "C: all on lightless spaces",
}


def _dims(params: np.ndarray) -> Dims:
    return Dims(STATE_SIZE, NUM_EXPLORERS, observe.OBS_SIZE, observe.FULL_SIZE)


def _final_info(state: np.ndarray) -> dict[str, Any]:
    n = int(state[NUM_PLAYERS])
    points = np.zeros(n, np.int64)
    tiebreaks = np.zeros(n, np.int64)
    kernels.scores(state, points, tiebreaks)
    best = max(zip(points, tiebreaks, strict=True))
    return {
        "score": [int(x) for x in points],
        "treasure_points": [int(x) for x in tiebreaks],
        "winner": [bool((s, t) == best) for s, t in zip(points, tiebreaks, strict=True)],
        "scores": tuple(int(x) for x in points),
        "end_condition": END_NAMES[int(state[END_CONDITION])],
    }


GAME = GameSpec(
    name="nakbe",
    env_name="nakbe_v0",
    title="Treasures of Nakbe",
    min_players=2,
    max_players=MAX_PLAYERS,
    default_players=4,
    game_options=(),
    game_params=lambda options: [],
    dims=_dims,
    kernels=Kernels(
        init=kernels.init,
        legal_mask=kernels.legal_mask,
        step=kernels.step,
        returns=kernels.returns,
        scores=kernels.scores,
        observe=observe.observe,
        full_state=observe.full_state,
        resample_hidden=kernels.resample_hidden,
        batch_init=kernels.batch_init,
        batch_step=kernels.batch_step,
        batch_legal_mask=kernels.batch_legal_mask,
        batch_observe=observe.batch_observe,
        random_playout=kernels.random_playout,
    ),
    render_ansi=render.render_ansi,
    render_rgb=render.render_rgb,
    action_name=render.describe_move,
    check_invariants=check_invariants,
    final_info=_final_info,
    bots={"bot": bots.NakbeBot},
)


def raw_env(render_mode: str | None = None, **options: Any) -> TreasureAECEnv:
    """The bare AEC env. Options: num_players (2..7, default 4), reward, illegal_action."""
    return TreasureAECEnv(GAME, render_mode=render_mode, **options)


def env(render_mode: str | None = None, **options: Any) -> OrderEnforcingWrapper:
    """The AEC env wrapped as PettingZoo's classic envs are (reset before step)."""
    return OrderEnforcingWrapper(raw_env(render_mode=render_mode, **options))
