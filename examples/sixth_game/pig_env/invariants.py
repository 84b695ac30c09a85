"""Invariants of a Pig state: what must hold in every reachable state, checked in pure Python
and numpy, independently of the kernels (the scores are read back through kernels.scores and
compared). The conformance suite's fuzz calls check_invariants after every step."""

from __future__ import annotations

import numpy as np
from treasure_core.header import CURRENT_PLAYER, DECISIONS, NUM_PLAYERS, TERMINAL

from pig_env import data, kernels
from pig_env.state import (
    AUTOMATON,
    AUTOMATON_GAIN,
    AUTOMATON_ROLLS,
    END,
    END_NONE,
    END_TARGET,
    HOLD_ACTION,
    MAX_COMPETITORS,
    MAX_ROUND_COUNT,
    N_ACTIONS,
    P_TARGET,
    ROLL_ACTION,
    ROUND,
    SCORES,
    SOLO_COMPETITORS,
    TARGET,
    TURN_TOTAL,
)


def validate_state(state: np.ndarray, params: np.ndarray) -> str | None:
    """What in a state (fields in range) disagrees with the env's options, or None."""
    if int(state[TARGET]) != int(params[P_TARGET]):
        return f"TARGET is {int(state[TARGET])}; the option target gives {int(params[P_TARGET])}"
    return None


def check_invariants(state: np.ndarray) -> None:
    """Raise AssertionError if the state breaks a rule that must always hold."""
    n = int(state[NUM_PLAYERS])
    assert data.MIN_PLAYERS <= n <= data.MAX_PLAYERS, f"num_players {n}"
    solo = n == 1
    count = SOLO_COMPETITORS if solo else n
    assert kernels.competitors(state) == count, "competitors: the players, or the player and the automaton"
    assert 0 <= state[CURRENT_PLAYER] < n, f"current player {state[CURRENT_PLAYER]}"
    target = int(state[TARGET])
    assert target in data.TARGETS, f"target {target}"
    rounds = int(state[ROUND])
    assert 1 <= rounds <= MAX_ROUND_COUNT, f"round {rounds}"
    # Every seat has decided at least once in each finished round, and the seats before the
    # one to act in this round (a turn starts with a roll). A turn is at most target / 2 rolls
    # of 2 or more, then a hold or a 1.
    decisions, current = int(state[DECISIONS]), int(state[CURRENT_PLAYER])
    assert decisions >= (rounds - 1) * n + current, f"{decisions} decisions in {rounds} rounds"
    most = rounds * n * (target // 2 + 1)
    assert decisions <= most, f"{decisions} decisions in {rounds} rounds: more than {most}"
    points = [int(x) for x in state[SCORES : SCORES + MAX_COMPETITORS]]
    assert all(p >= 0 for p in points), f"negative score {points}"
    assert all(p == 0 for p in points[count:]), f"a score for a competitor not in the game: {points}"
    turn_total = int(state[TURN_TOTAL])
    # Faces 2-6 add to the turn; a 1 empties it: it is never negative and never 1.
    assert turn_total >= 0 and turn_total != 1, f"turn total {turn_total}"
    if not solo:
        assert state[AUTOMATON_ROLLS] == 0 and state[AUTOMATON_GAIN] == 0, "an automaton outside solo"
    else:
        assert 0 <= state[AUTOMATON_GAIN] <= points[AUTOMATON], "the automaton's last gain"
        assert state[AUTOMATON_GAIN] == 0 or state[AUTOMATON_ROLLS] > 0, "a gain without a roll"
    reached = [c for c in range(count) if points[c] >= target]
    end = int(state[END])
    assert bool(state[TERMINAL]) == (end != END_NONE), "terminal iff the game has an end"
    if end == END_TARGET:
        assert len(reached) == 1, f"the game ended at the target, reached by {reached}"
        # The winner got there in one turn's rolls: never more than a die's face beyond it.
        assert points[reached[0]] < target + data.DIE_SIDES, f"winner's score {points[reached[0]]}"
    else:
        assert not reached, f"{reached} reached the target, but the game goes on"
    if state[TERMINAL]:
        assert turn_total == 0, "points left in a turn after the end"
    else:
        assert points[int(state[CURRENT_PLAYER])] + turn_total < target, "the target is reached, not banked"
    scores = np.zeros(MAX_COMPETITORS, np.int64)
    tiebreaks = np.zeros(MAX_COMPETITORS, np.int64)
    kernels.scores(state, scores, tiebreaks)
    assert scores[:count].tolist() == points[:count] and not tiebreaks.any(), "kernels.scores"
    mask = np.zeros(N_ACTIONS, np.int8)
    legal = kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask)
    if state[TERMINAL]:
        assert legal == 0, "legal actions after the end"
    else:
        assert mask[ROLL_ACTION] == 1, "the player to act may always roll"
        assert mask[HOLD_ACTION] == (turn_total > 0), "hold is legal iff the turn holds points"
