"""Tomb Trader's state validator (issue 18): a state handed in from outside (a replay, a search
tree, a data set) that no kernel may read is refused with a ValueError naming the field, and
the env is left as it was; a real state, and every resampled one, is accepted."""

from __future__ import annotations

import numpy as np
import pytest

from tomb_env import data
from tomb_env.env import GAME, raw_env
from tomb_env.state import (
    CALL_CARD,
    CARD_OWNER,
    CARD_PLACE,
    CARD_ROUND,
    CHARACTER,
    CLAIM_ORDER,
    DECK_TOP,
    LOCATION,
    NEG_NEXT_SLOT,
    NEG_STAGE,
    PHASE,
    PHASE_NEGOTIATE,
    PLACE_STASH,
    PROPOSAL_RULE,
    SLOT_COUNT,
    STAGE_ASSIGN,
    STATE_FIELDS,
    STATE_SIZE,
    SWEEP_LEFT,
)
from treasure_core.header import CURRENT_PLAYER, HEADER_SIZE

ENV = raw_env(num_players=4)


def _state_in(phase: int, seed: int = 0) -> np.ndarray:
    """A real state of a random game in `phase`."""
    ENV.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while int(ENV.get_state()[PHASE]) != phase:
        ENV.step(int(rng.choice(ENV.legal_actions())))
    return ENV.get_state()


def _refused(state: np.ndarray, field: str) -> None:
    """set_state refuses `state` naming `field`, and the env is as it was."""
    ENV.reset(seed=5)
    before, agent = ENV.get_state(), ENV.agent_selection
    with pytest.raises(ValueError, match=field):
        ENV.set_state(state)
    assert np.array_equal(ENV.get_state(), before) and ENV.agent_selection == agent


def test_the_fields_tile_the_state_with_their_ranges() -> None:
    slots = [slot for part in STATE_FIELDS for slot in range(part.start, part.stop)]
    assert slots == list(range(HEADER_SIZE, STATE_SIZE))
    assert all(part.low <= part.high for part in STATE_FIELDS)


@pytest.mark.parametrize(
    ("offset", "value", "field"),
    [
        (DECK_TOP, 2**31 - 1, "DECK_TOP"),  # the deck index observe and the deal read by
        (CARD_OWNER + 7, -100, "CARD_OWNER"),  # a stash index of the masks and the scores
        (CALL_CARD, 10**6, "CALL_CARD"),  # the card a coin call writes to
        (CHARACTER + 1, data.NUM_CHARACTERS, "CHARACTER"),  # the scores' table row
        (LOCATION + 2, -2, "LOCATION"),  # the negotiation a seat's mask reads
        (SLOT_COUNT, data.MAX_LOCATION_CARDS + 1, "SLOT_COUNT"),
    ],
)
def test_a_field_out_of_its_range_is_refused_naming_it(offset: int, value: int, field: str) -> None:
    state = _state_in(PHASE_NEGOTIATE)
    state[offset] = value
    _refused(state, field)


def test_a_proposer_past_the_cards_is_refused() -> None:
    """In range, but inconsistent: the next card to assign beyond the location's deal would
    write into the next location's proposal."""
    state = _state_in(PHASE_NEGOTIATE)
    loc = next(loc for loc in range(2) if state[NEG_STAGE + loc] == STAGE_ASSIGN)
    state[NEG_NEXT_SLOT + loc] = state[SLOT_COUNT + loc]
    _refused(state, "NEG_NEXT_SLOT")


def test_a_card_in_two_places_is_refused() -> None:
    state = _state_in(PHASE_NEGOTIATE)
    card = int(np.flatnonzero(state[CARD_PLACE : CARD_PLACE + data.NUM_CARDS] == 0)[0])  # in the deck
    state[CARD_PLACE + card] = PLACE_STASH
    state[CARD_OWNER + card] = 0
    state[CARD_ROUND + card] = 0
    _refused(state, "in the stash|DECK")


def test_the_player_to_act_is_the_sweeps() -> None:
    state = _state_in(PHASE_NEGOTIATE)
    left = int(state[SWEEP_LEFT])
    state[CURRENT_PLAYER] = next(p for p in range(4) if not (left >> p) & 1)
    _refused(state, "CURRENT_PLAYER")


def test_the_options_a_state_carries_are_the_envs() -> None:
    state = _state_in(PHASE_NEGOTIATE)
    state[PROPOSAL_RULE] = 1
    _refused(state, "PROPOSAL_RULE")
    state = _state_in(PHASE_NEGOTIATE)
    state[CLAIM_ORDER] = 1
    _refused(state, "CLAIM_ORDER")


def test_garbage_is_refused_and_real_and_resampled_states_accepted() -> None:
    rng = np.random.default_rng(1)
    garbage = rng.integers(-(2**31), 2**31 - 1, STATE_SIZE).astype(np.int32)
    garbage[:HEADER_SIZE] = _state_in(PHASE_NEGOTIATE)[:HEADER_SIZE]
    _refused(garbage, "bad state")
    for seed in range(3):
        ENV.reset(seed=seed)
        while not ENV.is_over():
            state = ENV.get_state()
            GAME.check_state(state, ENV.params)
            for player in range(4):
                GAME.check_state(ENV.resample_hidden(player, seed), ENV.params)
            ENV.step(int(rng.choice(ENV.legal_actions())))
        GAME.check_state(ENV.get_state(), ENV.params)
