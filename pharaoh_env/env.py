"""Het goud van de Farao as PettingZoo environments: the GameSpec the generic drivers run."""

from __future__ import annotations

from typing import Any

import numpy as np

from pharaoh_env import batch, bots, kernels, observe, render
from pharaoh_env.data import MASK_SLOT, MAX_PLAYERS, MIN_PLAYERS, NUM_PHOTOS, NUM_SLOTS, guard_rounds
from pharaoh_env.invariants import check_invariants, validate_state
from pharaoh_env.state import (
    ACTIONS,
    ARCH_CELL,
    BANKED,
    END_CONDITION,
    END_NAMES,
    END_ROUND_LIMIT,
    GUARD_COUNTER,
    HELPER_CELL,
    LOST,
    N_ACTIONS,
    NOWHERE,
    PHASES,
    PHOTO_OWNER,
    ROUNDS_DONE,
    SLOT_AT,
    SLOT_STATE,
    SLOT_VALUE,
    STATE_FIELDS,
    STATE_SIZE,
    TURN,
)
from treasure_core.aec import TreasureAECEnv, TreasureOrderEnforcingWrapper
from treasure_core.game import Dims, Dynamics, GameSpec, Guard, Kernels
from treasure_core.header import NUM_PLAYERS
from treasure_core.options import Option
from treasure_core.parallel import TreasureParallelEnv

PHOTO_MODES = ("random", "choice")
TREASURE_MODES = ("face_down", "face_up")
TIMER_MODES = ("finder_turns", "rounds")
REACH_MODES = ("passage", "adjacent")
LAMP_MODES = ("both", "helper")

GAME_OPTIONS = (
    Option(
        "photo",
        "random",
        PHOTO_MODES,
        "random: the finder takes the camera's next photograph ('Shuffle the photographs and put them "
        "into the camera', 'take one photograph from the camera'); choice: it picks one by what it "
        "shows (the Dutch layer's 'take one photograph of your choice from the camera')",
    ),
    Option(
        "treasures",
        "face_down",
        TREASURE_MODES,
        "a chamber's treasures are placed face_down (Russian layer; values unseen until banked, then "
        "only by their owner) or face_up (Dutch layer)",
    ),
    Option(
        "collapse_timer",
        "finder_turns",
        TIMER_MODES,
        "a mask left in its chamber collapses it after the finder's third turn after the discovery "
        "('After the third turn of the archaeologist who found Tutankhamun's mask'), or after 3 "
        "rounds of n turns from the discovery, 3n turns (the hidden wording's 'for three rounds')",
    ),
    Option(
        "rotate_reach",
        "adjacent",
        REACH_MODES,
        "adjacent: the helper rotates its own tile or any adjacent one (Dutch layer: 'the helper must "
        "be on or next to the tile'); passage: its own tile or a neighbour joined to it by a passage "
        "(Russian layer: 'if the adjacent tile is connected to it by a passage')",
    ),
    Option(
        "lamp_figures",
        "helper",
        LAMP_MODES,
        "helper: only the helper places and picks up lamps (every prose line: 'the helper carries "
        "lamps', 'De helper draagt de lampjes', 'placed on an opened tile where your helper "
        "stands'); both: the archaeologist too (the action table's layout)",
    ),
)


def _game_params(options: dict[str, Any]) -> list[int]:
    return [
        PHOTO_MODES.index(options["photo"]),
        TREASURE_MODES.index(options["treasures"]),
        TIMER_MODES.index(options["collapse_timer"]),
        REACH_MODES.index(options["rotate_reach"]),
        LAMP_MODES.index(options["lamp_figures"]),
    ]


def _dims(params: np.ndarray) -> Dims:
    return Dims(STATE_SIZE, N_ACTIONS, observe.OBS_SIZE, observe.FULL_SIZE)


def _extra_info(state: np.ndarray, points: np.ndarray, tiebreaks: np.ndarray) -> dict[str, Any]:
    n = int(state[NUM_PLAYERS])
    banked = [
        [
            slot
            for slot in range(NUM_SLOTS)
            if state[SLOT_STATE + slot] == BANKED and state[SLOT_AT + slot] == p
        ]
        for p in range(n)
    ]
    return {
        "treasure_points": [int(sum(int(state[SLOT_VALUE + s]) for s in slots)) for slots in banked],
        "treasures_banked": [len(slots) for slots in banked],
        "photos": [int(sum(state[PHOTO_OWNER + f] == p for f in range(NUM_PHOTOS))) for p in range(n)],
        "mask": [int(MASK_SLOT in slots) for slots in banked],
        "archaeologist_lost": [int(state[ARCH_CELL + p] == NOWHERE) for p in range(n)],
        "helper_lost": [int(state[HELPER_CELL + p] == NOWHERE) for p in range(n)],
        "treasures_lost": int(sum(state[SLOT_STATE + s] == LOST for s in range(NUM_SLOTS))),
        "turns": int(state[TURN]),
        "rounds": int(state[ROUNDS_DONE]),
        "end_condition": int(state[END_CONDITION]),
    }


GAME = GameSpec(
    name="pharaoh",
    env_name="pharaoh_v1",
    title="Het goud van de Farao",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=4,
    game_options=GAME_OPTIONS,
    game_params=_game_params,
    dims=_dims,
    kernels=Kernels.from_modules(kernels, observe, batch),
    phases=PHASES,
    actions=ACTIONS,
    dynamics=Dynamics(turns="sequential", chance=True, information="imperfect"),
    render_ansi=render.render_ansi,
    render_rgb=render.render_rgb,
    action_name=render.describe_action,
    describe_step=render.describe_step,
    check_invariants=check_invariants,
    state_fields=STATE_FIELDS,
    validate_state=validate_state,
    extra_info=_extra_info,
    bots={"bot": bots.PharaohBot},
    info_names={"end_condition": END_NAMES},
    # ROUNDS_DONE counts the rounds over (n turns each): the guard cuts a game once
    # data.guard_rounds(n) are over (the same number of turns at every player count).
    guard=Guard(
        GUARD_COUNTER, lambda options: guard_rounds(options["num_players"]), "rounds", END_ROUND_LIMIT
    ),
    # Every rule-variant option at once, with 2 players (configs() runs each option alone).
    test_configs=(
        {
            "num_players": 2,
            "photo": "choice",
            "treasures": "face_up",
            "collapse_timer": "rounds",
            "rotate_reach": "passage",
            "lamp_figures": "both",
        },
    ),
)


def raw_env(render_mode: str | None = None, **options: Any) -> TreasureAECEnv:
    """The bare AEC env (with a render_mode, its rendering lists the events since the viewer's
    last turn: render.describe_step). Options: num_players (2..4, default 4), reward,
    illegal_action, photo, treasures, collapse_timer, rotate_reach, lamp_figures
    (docs/games/pharaoh.md)."""
    return TreasureAECEnv(GAME, render_mode=render_mode, **options)


def env(render_mode: str | None = None, **options: Any) -> TreasureOrderEnforcingWrapper:
    """The AEC env wrapped as PettingZoo's classic envs are (reset before step)."""
    return TreasureOrderEnforcingWrapper(raw_env(render_mode=render_mode, **options))


def parallel_env(render_mode: str | None = None, **options: Any) -> TreasureParallelEnv:
    """The PettingZoo Parallel env: one step is the decision of the player to act (the others'
    masks are empty), over the same kernels as the AEC env."""
    return TreasureParallelEnv(GAME, render_mode=render_mode, **options)
