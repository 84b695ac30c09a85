"""Tomb Trader's bot (tomb_env.bots): it rejects a take-all proposal, accepts a fair one, and
pays gold for a card it values above its face (issue 24 item 4; the win rates against the
exploiters are measured in benchmarks/tomb_exploiters.py, never asserted here)."""

from __future__ import annotations

import numpy as np
from test_tomb_rules import ACCEPT, INNER, OUTER, REJECT, fresh, mask_of, play, table

from tomb_env import bots, data
from tomb_env.state import (
    ASSIGN_BASE,
    CHARACTER,
    GOLD,
    LEAVE_ACTION,
    NEG_ASSIGN,
    PROPOSE_ACTION,
    SLOT_COUNT,
    SWEEP_LEFT,
    TRANSFER_BASE,
)
from treasure_core.header import CURRENT_PLAYER


def _proposal_to_vote(assign: list[int]) -> np.ndarray:
    """3 players, 0 and 1 at the Inner Tomb (Crown, Gold Chalice, Trinket), 2 alone outside;
    player 0 proposes `assign` and player 1 is to vote."""
    state = fresh(3, seed=2, characters=[1, 2, 3])
    table(state, data.INNER, ["Crown", "Gold Chalice", "Trinket"])
    play(state, INNER, INNER, OUTER)
    for seat in assign:
        if state[SWEEP_LEFT] & 0b100:
            play(state, ASSIGN_BASE + seat, LEAVE_ACTION)
        else:
            play(state, ASSIGN_BASE + seat)
    while state[CURRENT_PLAYER] != 0:
        play(state, LEAVE_ACTION)
    play(state, PROPOSE_ACTION)
    assert state[CURRENT_PLAYER] == 1 and mask_of(state, 1)[ACCEPT]
    return state


def test_the_bot_rejects_take_all_and_accepts_a_fair_split() -> None:
    greedy = _proposal_to_vote([0, 0, 0])
    assert bots.heuristic_action(greedy, 1, 0) == REJECT
    fair = _proposal_to_vote([1, 0, 0])  # the Crown (4) to player 1, Chalice + Trinket (4) kept
    assert bots.heuristic_action(fair, 1, 0) == ACCEPT


def test_the_bot_pays_gold_for_a_card_it_values() -> None:
    """The Gambler values the Crown at 4 + 2: proposing at a table of Crown and Trinket, it keeps
    the Crown and pays the other player to even the split."""
    state = fresh(3, seed=2, characters=[data.CHARACTER_NAMES.index("Gambler"), 2, 3])
    table(state, data.INNER, ["Crown", "Trinket"] + ["Trinket"] * (int(state[SLOT_COUNT]) - 2))
    play(state, INNER, INNER, OUTER)
    paid = 0
    while state[CURRENT_PLAYER] == 0 or state[SWEEP_LEFT] & 0b100:
        seat = int(state[CURRENT_PLAYER])
        if seat == 2:
            play(state, LEAVE_ACTION)
            continue
        action = bots.heuristic_action(state, 0, 0)
        paid += action == TRANSFER_BASE + 1
        play(state, action)
        if action == PROPOSE_ACTION:
            break
    assert state[NEG_ASSIGN] == 0, "the Crown kept"
    assert paid >= 1 and state[GOLD + 0] == 3
    assert state[CHARACTER + 0] == data.CHARACTER_NAMES.index("Gambler")
