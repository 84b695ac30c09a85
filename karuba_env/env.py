"""Karuba as PettingZoo environments: the GameSpec the generic drivers run (AEC and Parallel)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from karuba_env import batch, bots, kernels, observe, render
from karuba_env.data import (
    COLOUR_NAMES,
    DISTANCE_RULES,
    EXAMPLE_LAYOUT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_BEACH,
    NUM_COLOURS,
    NUM_JUNGLE,
)
from karuba_env.invariants import check_invariants, validate_state
from karuba_env.state import (
    ACTIONS,
    END_CONDITION,
    END_NAMES,
    LAYOUT_DRAFT,
    LAYOUT_FIXED,
    LAYOUT_RANDOM,
    N_ACTIONS,
    P_PREVIEWS,
    PHASES,
    STATE_FIELDS,
    STATE_SIZE,
    TREASURE,
)
from treasure_core.aec import TreasureAECEnv, TreasureOrderEnforcingWrapper
from treasure_core.game import Dims, Dynamics, GameSpec, Kernels
from treasure_core.header import NUM_PLAYERS
from treasure_core.options import Option
from treasure_core.parallel import TreasureParallelEnv

LAYOUT_MODES = {"random": LAYOUT_RANDOM, "draft": LAYOUT_DRAFT}


def format_layout(pairs: tuple[tuple[int, int], ...]) -> str:
    """((beach, jungle) per colour) -> "b:j,b:j,b:j,b:j", the option's text form."""
    return ",".join(f"{b}:{j}" for b, j in pairs)


EXAMPLE_LAYOUT_TEXT = format_layout(EXAMPLE_LAYOUT)


def _is_number(value: Any, top: int) -> bool:
    return (
        isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) and 1 <= value <= top
    )


def parse_layout(value: Any) -> tuple[tuple[int, int], ...] | None:
    """A fixed layout as "b:j,b:j,b:j,b:j" or four (beach, jungle) pairs, in the colour order
    brown, blue, purple, yellow; None if `value` is not one."""
    if isinstance(value, str):
        try:
            value = [tuple(int(x) for x in pair.split(":")) for pair in value.split(",")]
        except ValueError:
            return None
    if not isinstance(value, (tuple, list)) or len(value) != NUM_COLOURS:
        return None
    pairs = []
    for pair in value:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            return None
        beach, jungle = pair
        if not (_is_number(beach, NUM_BEACH) and _is_number(jungle, NUM_JUNGLE)):
            return None
        pairs.append((int(beach), int(jungle)))
    if len({b for b, _ in pairs}) != NUM_COLOURS or len({j for _, j in pairs}) != NUM_COLOURS:
        return None
    return tuple(pairs)


@dataclass(frozen=True)
class LayoutOption(Option):
    """The set-up of adventurers and temples: "random", "draft", or a fixed layout."""

    def allowed(self) -> str:
        return (
            "'random', 'draft', or a fixed layout 'b:j,b:j,b:j,b:j' (beach 1-11 : jungle 1-11 for "
            f"{', '.join(COLOUR_NAMES)}; distinct numbers) such as {EXAMPLE_LAYOUT_TEXT!r}"
        )

    def check(self, value: Any, game: str) -> Any:
        if isinstance(value, str) and value in LAYOUT_MODES:
            return value
        pairs = parse_layout(value)
        if pairs is None:
            raise ValueError(f"{game}: option {self.name!r} must be {self.allowed()}; got {value!r}")
        return format_layout(pairs)


GAME_OPTIONS = (
    LayoutOption(
        "layout",
        "random",
        ("random", "draft", EXAMPLE_LAYOUT_TEXT),
        "random: a random legal layout; draft: players place the colour pairs in turn; "
        "'b:j,b:j,b:j,b:j': that fixed layout (brown, blue, purple, yellow)",
    ),
    Option(
        "distance_rule",
        "perimeter",
        DISTANCE_RULES,
        "adventurer-temple distance of at least 3: perimeter (around a corner: 4 <= beach + jungle "
        "<= 20; the rulebook's set-up example obeys it) or difference (a house rule, |beach - jungle| "
        ">= 3, which refuses the example's brown beach 6 / jungle 7)",
    ),
    Option(
        "previews",
        True,
        (False, True),
        "True: the observation ends with the decision previews (place_preview, move_preview, "
        f"adventurer_distance; {observe.OBS_SIZE} features); False: its first "
        f"{observe.OBS_SIZE_WITHOUT_PREVIEWS} features alone, at the same offsets, and the previews "
        "are never computed: a several times cheaper observation, for raw throughput, without the "
        "look-ahead features a learner would get. State, actions, masks, rules and bots are the "
        "same either way",
    ),
)


def _game_params(options: dict[str, Any]) -> list[int]:
    rule = DISTANCE_RULES.index(options["distance_rule"])
    layout = options["layout"]
    beaches, jungles = [0] * NUM_COLOURS, [0] * NUM_COLOURS
    if layout in LAYOUT_MODES:
        mode = LAYOUT_MODES[layout]
    else:
        mode = LAYOUT_FIXED
        for c, (beach, jungle) in enumerate(parse_layout(layout)):
            if not kernels.distance_allowed(rule, beach, jungle):
                raise ValueError(
                    f"karuba: option 'layout' {layout!r} breaks distance_rule={options['distance_rule']!r}: "
                    f"the {COLOUR_NAMES[c]} adventurer on beach {beach} is too close to its temple on "
                    f"jungle {jungle}"
                )
            beaches[c], jungles[c] = beach, jungle
    return [mode, rule] + beaches + jungles + [int(options["previews"])]


def _dims(params: np.ndarray) -> Dims:
    obs_size = observe.OBS_SIZE if params[P_PREVIEWS] else observe.OBS_SIZE_WITHOUT_PREVIEWS
    return Dims(STATE_SIZE, N_ACTIONS, obs_size, observe.FULL_SIZE)


def _extra_info(state: np.ndarray, points: np.ndarray, tiebreaks: np.ndarray) -> dict[str, Any]:
    n = int(state[NUM_PLAYERS])
    temple = [
        int(state[TREASURE + p * NUM_COLOURS : TREASURE + (p + 1) * NUM_COLOURS].sum()) for p in range(n)
    ]
    return {
        "treasure_points": temple,  # temple treasures alone (tie crystals count as crystals)
        "tiles_on_island": [int(x) for x in tiebreaks[:n]],
        "end_condition": int(state[END_CONDITION]),  # END_NAMES
    }


def _parallelizable(options: dict[str, Any]) -> bool:
    return options["layout"] != "draft"


GAME = GameSpec(
    name="karuba",
    env_name="karuba_v2",
    title="Karuba",
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
    info_names={"end_condition": tuple(END_NAMES[code] for code in range(len(END_NAMES)))},
    # Each tile is one simultaneous round, seat 0 to n - 1, and the game ends only after a tile
    # is resolved; the draft is not (a pick is two decisions by one seat).
    parallelizable=_parallelizable,
    render_ansi=render.render_ansi,
    render_rgb=render.render_rgb,
    render_svg=render.render_svg,
    action_name=render.describe_action,
    describe_step=render.describe_step,
    check_invariants=check_invariants,
    state_fields=STATE_FIELDS,
    validate_state=validate_state,
    extra_info=_extra_info,
    bots={"bot": bots.KarubaBot},
    speed_options={"previews": False},  # v1's features, the previews never computed
)


def raw_env(render_mode: str | None = None, **options: Any) -> TreasureAECEnv:
    """The bare AEC env. Options: num_players (2..4, default 4), layout, distance_rule, previews,
    reward, illegal_action (docs/games/karuba.md)."""
    return TreasureAECEnv(GAME, render_mode=render_mode, **options)


def env(render_mode: str | None = None, **options: Any) -> TreasureOrderEnforcingWrapper:
    """The AEC env wrapped as PettingZoo's classic envs are (reset before step)."""
    return TreasureOrderEnforcingWrapper(raw_env(render_mode=render_mode, **options))


def parallel_env(render_mode: str | None = None, **options: Any) -> TreasureParallelEnv:
    """The PettingZoo Parallel env: one step = every player's decision on the tile showing."""
    return TreasureParallelEnv(GAME, render_mode=render_mode, **options)
