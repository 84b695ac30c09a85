"""Nakum as PettingZoo environments: the GameSpec the generic drivers run (AEC and Parallel)."""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from nakum_env import batch, bots, cenote, kernels, observe, render
from nakum_env.data import MASK, MAX_PLAYERS, MIN_PLAYERS, NUM_OFFERINGS, NUM_RES, OFFERING_VP, TSEEK, VP
from nakum_env.invariants import check_invariants
from nakum_env.state import (
    ACTIONS,
    CLAN,
    END_CONDITION,
    END_NAMES,
    FIRST_OFFERING,
    N_ACTIONS,
    OFFERING_OWNER,
    OFFERINGS_DONE,
    P_CENOTE,
    P_DESTINY,
    P_FOREST,
    PHASES,
    RES,
    ROUND,
    STATE_FIELDS,
    STATE_SIZE,
    TSEEK_ON_OFFERINGS,
    V_CENOTE,
    V_DESTINY,
    V_SOLO_HARD,
    VARIANT,
)
from treasure_core.aec import TreasureAECEnv
from treasure_core.game import Dims, Dynamics, GameSpec, Kernels
from treasure_core.header import NUM_PLAYERS
from treasure_core.options import Option
from treasure_core.parallel import TreasureParallelEnv

# The base game has no options beyond the common ones; the next issue adds cenote, destiny,
# forest and solo_hard (docs/games/nakum.md, Options).
GAME_OPTIONS = ()
# -- Cenote, Destiny, Forest (issue 16) --
GAME_OPTIONS += (
    Option("cenote", False, (False, True), "the Cenote expansion: sacrifices for tseek' (wild cards)"),
    Option("destiny", False, (False, True), "the Destiny expansion: a secret objective card each"),
    Option(
        "forest",
        False,
        (False, True),
        "Nakum's forest: all 8 tiles, the Pituk from the first turn; part of the Cenote expansion, "
        "it puts the Cenote in the centre (forest=True plays with the Cenote)",
    ),
)


def _game_params(options: dict[str, Any]) -> list[int]:
    # The Forest surrounds "the Pyramid and the Cenote": it always plays with the Cenote tile.
    cenote = bool(options.get("cenote", False) or options.get("forest", False))
    return [int(cenote), int(options.get("destiny", False)), int(options.get("forest", False))]


def _validate_state(state: np.ndarray, params: np.ndarray) -> str | None:
    """The options' flags in the state are the params' (the kernels read only the state)."""
    names = ("cenote", "destiny", "forest")
    for flag, (name, param) in enumerate(zip(names, (P_CENOTE, P_DESTINY, P_FOREST), strict=True)):
        have, want = int(state[VARIANT + flag]), int(params[param])
        if have != want:
            return f"VARIANT[{flag}] ({name}) is {have}; the options say {want}"
    if int(state[VARIANT + V_SOLO_HARD]) != 0:
        return f"VARIANT[{V_SOLO_HARD}] (solo) is {int(state[VARIANT + V_SOLO_HARD])}; no solo mode"
    return None


def _test_configs() -> tuple[dict[str, Any], ...]:
    """The expansions' combinations (forest=True plays with the Cenote, so cenote with forest is
    forest alone): each pair and all three at the default count, all three at 2 and 3 players."""
    configs: list[dict[str, Any]] = [
        {"cenote": True, "destiny": True},
        {"destiny": True, "forest": True},
    ]
    for n in (2, 3, 4):
        configs.append({"num_players": n, "cenote": True, "destiny": True, "forest": True})
    return tuple(configs)


def _dims(params: np.ndarray) -> Dims:
    return Dims(STATE_SIZE, N_ACTIONS, observe.OBS_SIZE, observe.FULL_SIZE)


def _extra_info(state: np.ndarray, points: np.ndarray, tiebreaks: np.ndarray) -> dict[str, Any]:
    n = int(state[NUM_PLAYERS])
    offering_points = [0] * n
    for card in range(NUM_OFFERINGS):
        owner = int(state[OFFERING_OWNER + card])
        if owner:
            offering_points[owner - 1] += int(OFFERING_VP[card])
    info: dict[str, Any] = {
        "treasure_points": offering_points,  # the Offerings' VP (the `play` command prints them)
        "offerings": [int(state[OFFERINGS_DONE + p]) for p in range(n)],
        "vp_tokens": [int(state[RES + p * NUM_RES + VP]) for p in range(n)],
        "masks": [int(state[RES + p * NUM_RES + MASK]) for p in range(n)],
        "first_offering": [int(state[FIRST_OFFERING + p]) for p in range(n)],  # 0: none
        "clan": [int(state[CLAN + p]) for p in range(n)],  # data.CLAN_NAMES
        "rounds": int(state[ROUND]),
        "end_condition": int(state[END_CONDITION]),
    }
    # Cenote and Destiny (keys only with their options, so the base game's infos stay as they
    # were): tseek' on Offerings and in the warehouse, the Destiny card's points.
    if state[VARIANT + V_CENOTE]:
        info["tseek_on_offerings"] = [int(state[TSEEK_ON_OFFERINGS + p]) for p in range(n)]
        info["tseek_in_warehouse"] = [int(state[RES + p * NUM_RES + TSEEK]) for p in range(n)]
    if state[VARIANT + V_DESTINY]:
        info["destiny_points"] = [int(cenote.destiny_points(state, p)) for p in range(n)]
    return info


GAME = GameSpec(
    name="nakum",
    env_name="nakum_v0",
    title="Nakum",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    # 3, not 4: with 4 players the score_diff rewards are thirds, whose float32 sum misses the
    # conformance suite's 1e-6 tolerance (a runtime issue, reported); 4 players is tested here too.
    default_players=4,
    game_options=GAME_OPTIONS,
    game_params=_game_params,
    dims=_dims,
    kernels=Kernels.from_modules(kernels, observe, batch),
    phases=PHASES,
    actions=ACTIONS,
    dynamics=Dynamics(turns="simultaneous", chance=True, information="imperfect"),
    render_ansi=render.render_ansi,
    render_rgb=render.render_rgb,
    action_name=render.describe_action,
    check_invariants=check_invariants,
    state_fields=STATE_FIELDS,
    extra_info=_extra_info,
    bots={"bot": bots.NakumBot},
    info_names={"end_condition": END_NAMES},
    validate_state=_validate_state,
    test_configs=_test_configs(),
)


def raw_env(render_mode: str | None = None, **options: Any) -> TreasureAECEnv:
    """The bare AEC env. Options: num_players (2..4, default 3), reward, illegal_action
    (docs/games/nakum.md)."""
    return TreasureAECEnv(GAME, render_mode=render_mode, **options)


def env(render_mode: str | None = None, **options: Any) -> OrderEnforcingWrapper:
    """The AEC env wrapped as PettingZoo's classic envs are (reset before step)."""
    return OrderEnforcingWrapper(raw_env(render_mode=render_mode, **options))


def parallel_env(render_mode: str | None = None, **options: Any) -> TreasureParallelEnv:
    """The PettingZoo Parallel env: one step = every deciding seat's decision (all seats in the
    set-up Heritage play, otherwise the player to act)."""
    return TreasureParallelEnv(GAME, render_mode=render_mode, **options)
