"""Tomb Trader as PettingZoo environments: the GameSpec the generic drivers run (AEC and Parallel)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tomb_env import batch, bots, kernels, observe, render
from tomb_env.data import (
    ABILITIES_ASSUMED,
    ABILITIES_BONUS_ONLY,
    CHARACTER_NAMES,
    DECK_NAMES,
    DEFAULT_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
)
from tomb_env.exploiters import EXPLOITERS
from tomb_env.invariants import check_invariants
from tomb_env.state import (
    ABILITIES,
    ACTIONS,
    CARD_SET,
    CHARACTER,
    CLAIM_ORDER,
    CLAIM_RANDOM,
    CLAIM_SEAT,
    GOLD,
    N_ACTIONS,
    OUTCOME,
    OUTCOME_COLLAPSE,
    P_ABILITIES,
    P_CLAIM_ORDER,
    P_DECK,
    P_PROPOSALS,
    PHASES,
    PROPOSAL_RULE,
    PROPOSALS_PER_PLAYER,
    STATE_FIELDS,
    STATE_SIZE,
)
from treasure_core.aec import TreasureAECEnv, TreasureOrderEnforcingWrapper
from treasure_core.game import Dims, Dynamics, GameSpec, Kernels
from treasure_core.header import NUM_PLAYERS
from treasure_core.options import Option
from treasure_core.parallel import TreasureParallelEnv

PROPOSAL_CHOICES = ("per_player", 1, 2)
CLAIM_ORDERS = {"random": CLAIM_RANDOM, "seat": CLAIM_SEAT}
ABILITY_READINGS = {"bonus_only": ABILITIES_BONUS_ONLY, "assumed": ABILITIES_ASSUMED}

GAME_OPTIONS = (
    Option(
        "proposals",
        "per_player",
        PROPOSAL_CHOICES,
        "proposals a location with 2+ players may make before it collapses: per_player (one per "
        "player there, in seat order from the round's lead) or a fixed number",
    ),
    Option(
        "claim_order",
        "random",
        tuple(CLAIM_ORDERS),
        "order of the weapon uses claimed at once (FAQ): random, or seat order from the round's lead",
    ),
    Option(
        "abilities",
        "bonus_only",
        tuple(ABILITY_READINGS),
        "bonus_only (the rulebook: each character's bonus list, coins worth 1, maps by the printed "
        "table) or assumed (invented abilities, each overriding a named rule or hindering the others)",
    ),
    Option(
        "deck",
        "library",
        DECK_NAMES,
        "library (the 52 cards with six invented kinds, marked assumed) or rulebook (52 cards of only "
        "the kinds the rulebook names, the Fortune Deck drawing a card; counts assumed)",
    ),
)


def _game_params(options: dict[str, Any]) -> list[int]:
    proposals = options["proposals"]
    rule = PROPOSALS_PER_PLAYER if proposals == "per_player" else int(proposals)
    return [
        rule,
        CLAIM_ORDERS[options["claim_order"]],
        ABILITY_READINGS[options["abilities"]],
        DECK_NAMES.index(options["deck"]),
    ]


def _dims(params: np.ndarray) -> Dims:
    return Dims(STATE_SIZE, N_ACTIONS, observe.OBS_SIZE, observe.FULL_SIZE)


def _extra_info(state: np.ndarray, points: np.ndarray, tiebreaks: np.ndarray) -> dict[str, Any]:
    n = int(state[NUM_PLAYERS])
    gold = [int(state[GOLD + p]) for p in range(n)]
    collapses = int(sum(1 for x in state[OUTCOME : OUTCOME + 14] if x == OUTCOME_COLLAPSE))
    return {
        # value without the gold (a Merchant's coins count 2 with abilities="assumed")
        "treasure_points": [int(points[p]) - kernels.coin_value(state, p) * gold[p] for p in range(n)],
        "gold": gold,
        "cards": [int(tiebreaks[p]) % 64 for p in range(n)],
        "character": [int(state[CHARACTER + p]) for p in range(n)],
        "collapses": collapses,
    }


def _validate_state(state: np.ndarray, params: np.ndarray) -> str | None:
    """The options a state carries must be the env's (the rest: check_invariants)."""
    for name, field, param in (
        ("PROPOSAL_RULE", PROPOSAL_RULE, P_PROPOSALS),
        ("CLAIM_ORDER", CLAIM_ORDER, P_CLAIM_ORDER),
        ("ABILITIES", ABILITIES, P_ABILITIES),
        ("CARD_SET", CARD_SET, P_DECK),
    ):
        if int(state[field]) != int(params[param]):
            return f"{name} is {int(state[field])}; the options make it {int(params[param])}"
    return None


GAME = GameSpec(
    name="tomb",
    env_name="tomb_v1",
    title="Tomb Trader",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=DEFAULT_PLAYERS,
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
    describe_step=render.describe_step,
    check_invariants=check_invariants,
    state_fields=STATE_FIELDS,
    validate_state=_validate_state,
    extra_info=_extra_info,
    bots={"bot": bots.TombBot, **EXPLOITERS},
    info_names={"character": CHARACTER_NAMES},
    test_configs=(
        {"num_players": 6, "proposals": 1, "claim_order": "seat", "abilities": "assumed"},
        {"num_players": 3, "proposals": 2, "reward": "score_diff"},
        {"num_players": 5, "deck": "rulebook"},
    ),
)


def raw_env(render_mode: str | None = None, **options: Any) -> TreasureAECEnv:
    """The bare AEC env. Options: num_players (3..6, default 4), proposals, claim_order,
    abilities, deck, reward, illegal_action (docs/games/tomb.md)."""
    return TreasureAECEnv(GAME, render_mode=render_mode, **options)


def env(render_mode: str | None = None, **options: Any) -> TreasureOrderEnforcingWrapper:
    """The AEC env wrapped as PettingZoo's classic envs are (reset before step)."""
    return TreasureOrderEnforcingWrapper(raw_env(render_mode=render_mode, **options))


def parallel_env(render_mode: str | None = None, **options: Any) -> TreasureParallelEnv:
    """The PettingZoo Parallel env: one step = every seat deciding at once (the location
    choice, a location's votes, both locations' proposers)."""
    return TreasureParallelEnv(GAME, render_mode=render_mode, **options)


assert MAX_PLAYERS == 6
