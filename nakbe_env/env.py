"""Treasures of Nakbe as PettingZoo environments: the GameSpec the generic drivers run."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from nakbe_env import batch, bots, kernels, observe, render
from nakbe_env.data import JUNGLE, MAX_PLAYERS, NUM_EXPLORERS, NUM_SIDES, SIDE_NAMES, SLOT_VALUES
from nakbe_env.invariants import check_invariants, validate_state
from nakbe_env.state import (
    ACTIONS,
    END_CONDITIONS,
    EXPLORER_SLOT,
    FEATURE_PASSAGE,
    FEATURE_RIVER,
    FEATURE_SNAKES,
    N_ACTIONS,
    NO_SLOT,
    PHASES,
    SEAT_TOKENS,
    STATE_FIELDS,
    STATE_SIZE,
    TEAM_CARD,
    TOKEN_KINDS,
    TOKEN_VALUE_COUNTS,
)
from treasure_core.aec import TreasureAECEnv, TreasureOrderEnforcingWrapper
from treasure_core.game import Dims, Dynamics, GameSpec, Kernels
from treasure_core.header import NUM_PLAYERS
from treasure_core.options import Option
from treasure_core.parallel import TreasureParallelEnv

TRAP_ORIGINS = ("chamber", "room")  # indexed by state.TRAP_FROM_CHAMBER, TRAP_FROM_ROOM

END_NAMES = {
    0: "not played",
    1: "A: an explorer exited",
    2: "B: one explorer left",
    3: "C: all on lightless spaces",
}

GAME_OPTIONS = (
    Option("board", "temple", SIDE_NAMES, "board side of a single game; jungle = Treasure of the Jungle"),
    Option(
        "campaign",
        False,
        (False, True),
        "An Endless Threat: the temple game then the jungle game, scores summed (board stays temple)",
    ),
    Option("river", True, (False, True), "jungle: a river space holds an explorer a round longer"),
    Option(
        "secret_passage", True, (False, True), "jungle: the secret passage takes explorers to its other end"
    ),
    Option("snakes", True, (False, True), "jungle: the Snakes Token sweeps the left column once"),
    Option(
        "trap_origin",
        "chamber",
        TRAP_ORIGINS,
        "a trap before the Guardian's first move: 3 forward from space 0 (chamber), or literally from "
        "the Guardian's Room / Stone Stairs, space 0 being the first step (room)",
    ),
)


def _check_options(options: dict[str, Any]) -> None:
    if options["campaign"] and options["board"] != "temple":
        raise ValueError(
            "nakbe: campaign=True always plays the temple game first and then the jungle game; "
            f"leave board at 'temple' (got board={options['board']!r})"
        )


def _game_params(options: dict[str, Any]) -> list[int]:
    features = (
        FEATURE_RIVER * options["river"]
        + FEATURE_PASSAGE * options["secret_passage"]
        + FEATURE_SNAKES * options["snakes"]
    )
    trap_origin = TRAP_ORIGINS.index(options["trap_origin"])
    return [SIDE_NAMES.index(options["board"]), int(options["campaign"]), features, trap_origin]


def _test_configs() -> tuple[dict[str, Any], ...]:
    """Every mode with every combination of the three jungle features, and the literal trap
    origin on the Jungle side."""
    configs = []
    for mode in ({"board": "jungle"}, {"campaign": True}):
        for river, passage, snakes in itertools.product((True, False), repeat=3):
            configs.append({**mode, "river": river, "secret_passage": passage, "snakes": snakes})
    configs.append({"board": "jungle", "trap_origin": "room"})  # the temple one: configs() adds it
    return tuple(configs)


def _dims(params: np.ndarray) -> Dims:
    return Dims(STATE_SIZE, N_ACTIONS, observe.OBS_SIZE, observe.FULL_SIZE)


def _extra_info(state: np.ndarray, points: np.ndarray, tiebreaks: np.ndarray) -> dict[str, Any]:
    # Read from plain lists: one conversion, not a numpy scalar per read (it runs at every end,
    # and a random Nakbe game lasts some 40 steps).
    fields = state.tolist()
    n = fields[NUM_PLAYERS]
    info: dict[str, Any] = {"treasure_points": tiebreaks[:n].tolist()}
    # "It is now time to reveal your Team Card!": every seat's card index, shown to every agent.
    info["team_cards"] = tuple(fields[TEAM_CARD : TEAM_CARD + n])
    for side in range(NUM_SIDES):
        name = SIDE_NAMES[side]
        info[f"{name}_end_condition"] = fields[END_CONDITIONS + side]  # END_NAMES
        slots = fields[EXPLORER_SLOT + side * NUM_EXPLORERS : EXPLORER_SLOT + (side + 1) * NUM_EXPLORERS]
        info[f"{name}_slot_values"] = tuple(SLOT_VALUE_LIST[s] if s != NO_SLOT else 0 for s in slots)
        base = TOKEN_VALUE_COUNTS + side * SEAT_TOKENS
        info[f"{name}_treasure_points"] = [
            sum(v * fields[base + p * TOKEN_KINDS + v] for v in range(TOKEN_KINDS)) for p in range(n)
        ]
    played = [SIDE_NAMES[s] for s in range(NUM_SIDES) if fields[END_CONDITIONS + s]]
    info["end_condition"] = info[f"{played[-1] if played else SIDE_NAMES[JUNGLE]}_end_condition"]
    return info


SLOT_VALUE_LIST = SLOT_VALUES.tolist()  # a slot's value as a plain int (_extra_info)

END_CODES = tuple(END_NAMES[code] for code in range(len(END_NAMES)))

GAME = GameSpec(
    name="nakbe",
    env_name="nakbe_v2",
    title="Treasures of Nakbe",
    min_players=2,
    max_players=MAX_PLAYERS,
    default_players=4,
    game_options=GAME_OPTIONS,
    game_params=_game_params,
    dims=_dims,
    kernels=Kernels.from_modules(kernels, observe, batch),
    phases=PHASES,
    actions=ACTIONS,
    dynamics=Dynamics(turns="sequential", chance=True, information="imperfect"),
    info_names={f"{name}end_condition": END_CODES for name in ("", "temple_", "jungle_")},
    render_ansi=render.render_ansi,
    render_rgb=render.render_rgb,
    render_svg=render.render_svg,
    action_name=render.describe_action,
    describe_step=render.describe_step,
    check_invariants=check_invariants,
    state_fields=STATE_FIELDS,
    validate_state=validate_state,
    extra_info=_extra_info,
    bots={"bot": bots.NakbeBot},
    check_options=_check_options,
    test_configs=_test_configs(),
)


def raw_env(render_mode: str | None = None, **options: Any) -> TreasureAECEnv:
    """The bare AEC env. Options: num_players (2..7, default 4), reward, illegal_action,
    board ("temple" | "jungle"), campaign, river, secret_passage, snakes, trap_origin."""
    return TreasureAECEnv(GAME, render_mode=render_mode, **options)


def env(render_mode: str | None = None, **options: Any) -> TreasureOrderEnforcingWrapper:
    """The AEC env wrapped as PettingZoo's classic envs are (reset before step)."""
    return TreasureOrderEnforcingWrapper(raw_env(render_mode=render_mode, **options))


def parallel_env(render_mode: str | None = None, **options: Any) -> TreasureParallelEnv:
    """The PettingZoo Parallel env: one step is the move of the player to act (the others'
    masks are empty), over the same kernels as the AEC env."""
    return TreasureParallelEnv(GAME, render_mode=render_mode, **options)
