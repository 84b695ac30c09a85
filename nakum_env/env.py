"""Nakum as PettingZoo environments: the GameSpec the generic drivers run (AEC and Parallel)."""

from __future__ import annotations

from typing import Any

import numpy as np

from nakum_env import batch, bots, cenote, kernels, observe, render
from nakum_env.data import (
    BOT_SEAT,
    MASK,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MIN_PLAYERS,
    NUM_OFFERINGS,
    NUM_RES,
    OFFERING_VP,
    TSEEK,
    VP,
)
from nakum_env.invariants import check_invariants
from nakum_env.state import (
    ACTIONS,
    CLAN,
    END_CONDITION,
    END_NAMES,
    END_ROUND_LIMIT,
    FIRST_OFFERING,
    GUARD_COUNTER,
    N_ACTIONS,
    OFFERING_OWNER,
    OFFERINGS_DONE,
    P_CENOTE,
    P_DESTINY,
    P_FOREST,
    P_SOLO_HARD,
    PHASES,
    RES,
    ROUND,
    STATE_FIELDS,
    STATE_SIZE,
    TSEEK_ON_OFFERINGS,
    V_CENOTE,
    V_DESTINY,
    VARIANT,
)
from treasure_core.aec import TreasureAECEnv, TreasureOrderEnforcingWrapper
from treasure_core.game import Dims, Dynamics, GameSpec, Guard, Kernels
from treasure_core.header import NUM_PLAYERS, P_NUM_PLAYERS
from treasure_core.options import Option
from treasure_core.parallel import TreasureParallelEnv

# Options beyond the common ones (docs/games/nakum.md, Options).
# solo: num_players=1 plays against Chaak'Bot; solo_mode picks its difficulty.
SOLO_MODES = ("normal", "hard")
GAME_OPTIONS = (
    # -- Cenote, Destiny, Forest (issue 16) --
    Option("cenote", False, (False, True), "the Cenote expansion: sacrifices for tseek' (wild cards)"),
    Option("destiny", False, (False, True), "the Destiny expansion: a secret objective card each"),
    Option(
        "forest",
        False,
        (False, True),
        "Nakum's forest: all 8 tiles, the Pituk from the first turn; part of the Cenote expansion, "
        "it puts the Cenote in the centre (forest=True plays with the Cenote)",
    ),
    # -- solo (issue 16) --
    Option(
        "solo_mode",
        "normal",
        SOLO_MODES,
        "solo (num_players=1) against Chaak'Bot: normal (its 3 cards shown, combos with the next "
        "card) or hard (cards face down until played, combos with the previous card); no effect "
        "with 2-4 players",
    ),
)


def _game_params(options: dict[str, Any]) -> list[int]:
    # The Forest surrounds "the Pyramid and the Cenote": it always plays with the Cenote tile.
    cenote = bool(options.get("cenote", False) or options.get("forest", False))
    hard = options["num_players"] == 1 and options["solo_mode"] == "hard"
    return [int(cenote), int(options.get("destiny", False)), int(options.get("forest", False)), int(hard)]


def _check_options(options: dict[str, Any]) -> None:
    """Destiny is "not compatible with solitaire mode" (rulebook)."""
    if options["num_players"] == 1 and options.get("destiny", False):
        raise ValueError(
            "nakum: destiny=True cannot be played with num_players=1: the rulebook's Destiny "
            "expansion is not compatible with the solo mode against Chaak'Bot"
        )


def _validate_state(state: np.ndarray, params: np.ndarray) -> str | None:
    """The options' flags in the state are the params' (the kernels read only the state)."""
    names = ("cenote", "destiny", "forest", "solo hard mode")
    flags = (P_CENOTE, P_DESTINY, P_FOREST, P_SOLO_HARD)
    for flag, (name, param) in enumerate(zip(names, flags, strict=True)):
        have, want = int(state[VARIANT + flag]), int(params[param])
        if have != want:
            return f"VARIANT[{flag}] ({name}) is {have}; the options say {want}"
    return None


def _test_configs() -> tuple[dict[str, Any], ...]:
    """The expansions' combinations (forest=True plays with the Cenote, so cenote with forest is
    forest alone): each pair and all three at the default count, all three at 2 and 3 players;
    solo in hard mode (configs() runs solo_mode="hard" alone only at the default 4 players, where
    it does nothing), each solo mode with score_diff rewards, and solo with the Cenote and the
    Forest (Destiny is not for solo)."""
    configs: list[dict[str, Any]] = [
        {"cenote": True, "destiny": True},
        {"destiny": True, "forest": True},
    ]
    for n in (2, 3, 4):
        configs.append({"num_players": n, "cenote": True, "destiny": True, "forest": True})
    configs += [
        {"num_players": 1, "solo_mode": "hard"},
        {"num_players": 1, "reward": "score_diff"},
        {"num_players": 1, "solo_mode": "hard", "reward": "score_diff"},
        {"num_players": 1, "cenote": True},
        {"num_players": 1, "forest": True},
        {"num_players": 1, "solo_mode": "hard", "forest": True},
    ]
    return tuple(configs)


def _dims(params: np.ndarray) -> Dims:
    if params[P_NUM_PLAYERS] == 1:  # solo: Chaak'Bot's block after the base observation
        return Dims(STATE_SIZE, N_ACTIONS, observe.SOLO_OBS_SIZE, observe.SOLO_FULL_SIZE)
    return Dims(STATE_SIZE, N_ACTIONS, observe.OBS_SIZE, observe.FULL_SIZE)


def _extra_info(state: np.ndarray, points: np.ndarray, tiebreaks: np.ndarray) -> dict[str, Any]:
    n = int(state[NUM_PLAYERS])
    solo = n == 1
    offering_points = [0] * n
    for card in range(NUM_OFFERINGS):
        owner = int(state[OFFERING_OWNER + card])
        if owner and owner <= n:
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
    if solo:  # against Chaak'Bot (competitor 1): its score, the human's margin, its Offerings
        info["bot_score"] = [int(points[BOT_SEAT])]
        info["bot_margin"] = [int(points[0] - points[BOT_SEAT])]
        info["bot_offerings"] = [int(state[OFFERINGS_DONE + BOT_SEAT])]
    return info


GAME = GameSpec(
    name="nakum",
    env_name="nakum_v1",
    title="Nakum",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
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
    render_svg=render.render_svg,
    action_name=render.describe_action,
    describe_step=render.describe_step,
    check_invariants=check_invariants,
    state_fields=STATE_FIELDS,
    extra_info=_extra_info,
    bots={"bot": bots.NakumBot},
    step_parts=kernels.STEP_PARTS,
    info_names={"end_condition": END_NAMES},
    check_options=_check_options,
    validate_state=_validate_state,
    test_configs=_test_configs(),
    # ROUND is the current day, from 1: the guard cuts a game once MAX_ROUNDS days are over.
    guard=Guard(GUARD_COUNTER, lambda options: MAX_ROUNDS, "rounds", END_ROUND_LIMIT, counter_start=1),
)


def raw_env(render_mode: str | None = None, **options: Any) -> TreasureAECEnv:
    """The bare AEC env. Options: num_players (1..4, default 4; 1 is solo against Chaak'Bot),
    reward, illegal_action, observation_format, solo_mode (docs/games/nakum.md)."""
    return TreasureAECEnv(GAME, render_mode=render_mode, **options)


def env(render_mode: str | None = None, **options: Any) -> TreasureOrderEnforcingWrapper:
    """The AEC env wrapped as PettingZoo's classic envs are (reset before step)."""
    return TreasureOrderEnforcingWrapper(raw_env(render_mode=render_mode, **options))


def parallel_env(render_mode: str | None = None, **options: Any) -> TreasureParallelEnv:
    """The PettingZoo Parallel env: one step = every deciding seat's decision (all seats in the
    set-up Heritage play, otherwise the player to act)."""
    return TreasureParallelEnv(GAME, render_mode=render_mode, **options)
