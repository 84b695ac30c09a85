"""Nakum's state validator (issue 18): a state loaded from outside that no real game reaches is
refused with a ValueError naming what is wrong, and the env (or batch runner) is left as it was;
every real state passes."""

from __future__ import annotations

import numpy as np
import pytest

import nakum_env.state as S
from nakum_env import GAME, data
from treasure_core.aec import TreasureAECEnv
from treasure_core.batch import BatchRunner

INT32_MAX = int(np.iinfo(np.int32).max)


def played(num_players: int, steps: int, seed: int = 0) -> TreasureAECEnv:
    """An env `steps` random decisions into a game (fewer if it ends first)."""
    env = TreasureAECEnv(GAME, num_players=num_players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if env.is_over():
            break
        env.step(int(rng.choice(env.legal_actions())))
    return env


def refused(env: TreasureAECEnv, state: np.ndarray, match: str) -> None:
    before = env.get_state()
    with pytest.raises(ValueError, match=match):
        env.set_state(state)
    assert np.array_equal(env.get_state(), before), "a refused state changed the env"


@pytest.mark.parametrize(
    ("field", "offset", "value"),
    [
        ("ROUND", S.ROUND, INT32_MAX),  # a day counter at the int32 edge
        ("MARKET_DECK_COUNT", S.MARKET_DECK_COUNT, 10**6),  # a count past its list
        ("OFFER_DECK_COUNT", S.OFFER_DECK_COUNT, -1),
        ("TILE_AT", S.TILE_AT + 2, -100),  # a tile id indexing the tile tables
        ("RES", S.RES + data.CORN, -100),
        ("EFFECT_CARD", S.EFFECT_CARD, data.NUM_MARKET),
        ("CLAN", S.CLAN, data.NUM_CLANS),
        ("POSITIONS", S.POSITIONS, data.MAX_POSITIONS + 1),
        ("BOT_DECK_COUNT", S.BOT_DECK_COUNT, 1),  # reserved for the expansions: 0 in the base game
    ],
)
def test_out_of_range_fields_are_refused_by_name(field: str, offset: int, value: int) -> None:
    env = played(3, 40)
    state = env.get_state()
    state[offset] = value
    refused(env, state, rf"\b{field}\b")
    runner = BatchRunner(GAME, 2, seed=0, num_players=3)
    before = runner.states.copy()
    with pytest.raises(ValueError, match=rf"\b{field}\b"):
        runner.set_states(np.stack([state, state]))
    assert np.array_equal(runner.states, before), "a refused set_states changed the runner"


def test_an_empty_seat_and_a_seat_beyond_the_players_are_refused() -> None:
    env = played(2, 30)
    state = env.get_state()
    state[S.MARKET_OWNER + 0] = 3  # seat 2 + 1, in a 2-player game
    refused(env, state, "MARKET_OWNER")
    state = env.get_state()
    state[S.OWNED + 3] = 2
    refused(env, state, "OWNED")
    state = env.get_state()
    state[S.START] = 3
    refused(env, state, "START")


def test_a_worker_or_cube_on_a_face_down_tile_is_refused() -> None:
    env = played(4, 0)  # the start: every tile face down
    for offset in (
        S.SPACE_WORKER,
        S.ENCAMP_WORKER,
        S.OPTION_CUBE,
    ):
        state = env.get_state()
        state[offset] = 1
        refused(env, state, "face down|face-down")


def test_the_pending_effect_must_name_the_actors_card() -> None:
    env = played(3, 40)
    state = env.get_state()
    assert state[S.EFFECT] == S.EFFECT_NONE
    state[S.EFFECT_CARD] = 0
    refused(env, state, "EFFECT_CARD")
    state = env.get_state()
    state[S.PHASE] = S.PHASE_EFFECT
    state[S.EFFECT] = S.EFFECT_STEAL
    state[S.EFFECT_CARD] = S.NO_CARD
    refused(env, state, "EFFECT_CARD")


def test_reveals_left_must_match_the_phase() -> None:
    env = played(3, 40)
    state = env.get_state()
    assert state[S.PHASE] in (S.PHASE_DAY, S.PHASE_EFFECT)
    state[S.REVEALS_LEFT] = 1
    refused(env, state, "REVEALS_LEFT")


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_every_real_state_passes_and_loads(num_players: int) -> None:
    env = TreasureAECEnv(GAME, num_players=num_players)
    env.reset(seed=num_players)
    rng = np.random.default_rng(num_players)
    twin = TreasureAECEnv(GAME, num_players=num_players)
    twin.reset(seed=0)
    while not env.is_over():
        GAME.check_state(env.get_state(), env.params)
        for player in range(num_players):
            GAME.check_state(env.resample_hidden(player, 7), env.params)
        twin.set_state(env.get_state())
        env.step(int(rng.choice(env.legal_actions())))
    GAME.check_state(env.get_state(), env.params)
