"""Scripted Treasures of Nakbe players. They read only what their seat may know: the public
board and their own team card (tests check that re-dealing the hidden parts never changes a
bot's choice)."""

from __future__ import annotations

import numpy as np

from nakbe_env.data import NUM_EXPLORERS, SNAKE_COLUMN, TEAM_CARDS, TEAM_SIZE
from nakbe_env.kernels import destination, in_guardian_reach, landing, legal_mask, snakes_strike
from nakbe_env.state import (
    DIE,
    EXITED,
    EXPLORER_POS,
    MOVE_BASE,
    N_ACTIONS,
    NO_MOVE,
    NO_TOKEN,
    OFF_BOARD,
    SPACE_TOKEN,
    TEAM_CARD,
)
from treasure_core.agents import KernelBot
from treasure_core.jit import njit
from treasure_core.kernels import tie_key

OWN_PROGRESS = 1.0  # per space my explorer gains
OTHER_PROGRESS = 0.35  # per space another explorer gains (it may be an opponent's)
TREASURE = 1.5  # a token is worth 1.2 on average, and denies it to the others
OWN_EXIT = 40.0  # my explorer takes the 8 and the game ends
OTHER_EXIT = -8.0
DANGER = 6.0  # my explorer would be the Guardian's next catch
CAUGHT = -10.0  # my explorer caught at once (a passage behind the Guardian, the snakes)


@njit(cache=True)
def heuristic_action(state: np.ndarray, player: int, salt: int = 0) -> int:
    """Greedy one-move look-ahead over public information and the player's own team; ties
    between equally valued moves go to the higher tie_key of the bot's salt."""
    mine = np.zeros(NUM_EXPLORERS, np.bool_)
    card = state[TEAM_CARD + player]
    for k in range(TEAM_SIZE):
        mine[TEAM_CARDS[card, k]] = True
    mask = np.zeros(N_ACTIONS, np.int8)
    legal_mask(state, player, mask)
    if mask[NO_MOVE]:
        return NO_MOVE  # every explorer is dark and the die is not a 2
    best_action = -1
    best_value = -1e18
    best_key = np.uint64(0)
    for e in range(NUM_EXPLORERS):
        if not mask[MOVE_BASE + e]:
            continue
        start = state[EXPLORER_POS + e]
        end = destination(state, e, state[DIE])
        stop = landing(state, e, state[DIE])
        if end == EXITED:
            value = OWN_EXIT if mine[e] else OTHER_EXIT
        elif end == OFF_BOARD:
            value = CAUGHT if mine[e] else 0.0
            if snakes_strike(state, stop):
                # The snakes then sweep the left column: my explorers there are lost too.
                for i in range(SNAKE_COLUMN.shape[0]):
                    for other in range(NUM_EXPLORERS):
                        if other != e and mine[other] and state[EXPLORER_POS + other] == SNAKE_COLUMN[i]:
                            value += CAUGHT
        else:
            gain = end - start
            value = gain * (OWN_PROGRESS if mine[e] else -OTHER_PROGRESS)
            if state[SPACE_TOKEN + stop] != NO_TOKEN:
                value += TREASURE
            if mine[e]:
                value += DANGER * (
                    int(in_guardian_reach(state, e, start)) - int(in_guardian_reach(state, e, end))
                )
        key = tie_key(salt, state, MOVE_BASE + e)
        if value > best_value or (value == best_value and key > best_key):
            best_value = value
            best_action = MOVE_BASE + e
            best_key = key
    return best_action


class NakbeBot(KernelBot):
    """Moves its own explorers forward and out of the Guardian's reach, grabs treasures, and
    holds back the explorers that are not on its team."""

    policy = staticmethod(heuristic_action)


# The search's bot playout (treasure_core.codegen: batch.py calls the policy by this name).
playout_policy = heuristic_action
