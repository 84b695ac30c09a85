"""The scripted Pharaoh bot plays the game to its rulebook end (the collapse), and the play
rendering lists the events since the viewer's last turn (issue 23)."""

from __future__ import annotations

import numpy as np
import pytest
from test_pharaoh_rules import START, cell, lay, new_game, place_lamp, play, put_treasure

from pharaoh_env import bots, data, render
from pharaoh_env.bots import PharaohBot
from pharaoh_env.env import GAME, raw_env
from pharaoh_env.state import (
    ARCH_CELL,
    ARCH_DISCOVER_BASE,
    CARRIED,
    CELL_STATUS,
    CELL_TILE,
    CLOSED,
    END_COLLAPSE,
    END_CONDITION,
    HELPER_CELL,
    HELPER_ROTATE_BASE,
    ORIENT_BASE,
    PHOTO_ORDER,
)
from treasure_core.aec import TreasureAECEnv
from treasure_core.agents import play_game


def bot_endings(players: int, games: int) -> tuple[int, list[int]]:
    """How many of `games` bot-only games reached the collapse, and the seeds of the others."""
    env = TreasureAECEnv(GAME, num_players=players)
    collapsed, others = 0, []
    for game in range(games):
        play_game(env, [PharaohBot(players * game + p) for p in range(players)], seed=game)
        if not env.is_truncated() and int(env.get_state()[END_CONDITION]) == END_COLLAPSE:
            collapsed += 1
        else:
            others.append(game)
    return collapsed, others


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_alone_end_every_game_by_the_collapse(players: int) -> None:
    collapsed, others = bot_endings(players, 50)
    assert collapsed == 50, f"{players} players: seeds {others} did not reach the collapse"


@pytest.mark.long
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_alone_reach_the_collapse_in_99_percent_of_1000_games(players: int) -> None:
    collapsed, others = bot_endings(players, 1000)
    assert collapsed >= 990, f"{players} players: {len(others)} games did not reach the collapse"


def chamber_at(state, target: int) -> None:
    """Swap a face-down chamber tile onto the closed cell `target`."""
    chamber = int(
        next(c for c in range(36) if state[CELL_STATUS + c] == CLOSED and state[CELL_TILE + c] >= 30)
    )
    tiles = state[CELL_TILE + target], state[CELL_TILE + chamber]
    state[CELL_TILE + chamber], state[CELL_TILE + target] = tiles


def test_the_mummy_and_the_photograph_are_described() -> None:
    """The mummy test's position (test_pharaoh_rules): the finder opens the chamber, draws the
    mummy's photograph, and every figure on a shortest route goes to the start."""
    state = new_game(3)
    lay(state, ["######", "##│###", "#┌┴┐##", "#├─┤##", "#└┬┘##", "##S###"])
    chamber_at(state, cell(1, 3))
    order = state[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS].tolist()
    order.remove(2)  # (2 treasures, the mummy)
    state[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS] = [2, *order]
    state[ARCH_CELL + 0] = cell(2, 3)
    state[HELPER_CELL + 1] = cell(4, 4)
    play(state, ARCH_DISCOVER_BASE + 0)
    before = state.copy()
    play(state, ORIENT_BASE + 2)
    words = "\n".join(render.describe_step(before, ORIENT_BASE + 2, state, viewer=1))
    assert words.startswith("player_0: lay the chamber")
    assert "player_0 drew photograph 2 (2 treasures, the mummy)" in words
    assert "the mummy sent player_1's helper from row 4 col 4 to the start" in words
    assert state[HELPER_CELL + 1] == START


def test_the_curse_is_described() -> None:
    state = new_game(2)
    lay(state, ["######", "##│###", "#┌┴┐##", "#├─┤##", "#└┬┘##", "##S###"])
    chamber_at(state, cell(1, 3))
    order = state[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS].tolist()
    order.remove(3)  # (1 treasure, the curse)
    state[PHOTO_ORDER : PHOTO_ORDER + data.NUM_PHOTOS] = [3, *order]
    state[ARCH_CELL + 0] = cell(2, 3)
    place_lamp(state, 1, cell(5, 4))
    play(state, ARCH_DISCOVER_BASE + 0)
    before = state.copy()
    play(state, ORIENT_BASE + 2)
    words = render.describe_step(before, ORIENT_BASE + 2, state)
    assert "  the curse blew out player_1's lamp on row 5 col 4" in words


def test_play_lists_the_events_since_the_viewers_last_turn() -> None:
    env = raw_env(render_mode="ansi", num_players=3)
    env.render_viewer = 0
    bots = [PharaohBot(p) for p in range(3)]
    env.reset(seed=5)
    checked = 0
    others: list[str] = []  # the opponents' actions since player_0 last played, in words
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        if seat == 0:
            listed = [line for line in env.events_since() if not line.startswith(" ")]
            text = env.render()
            if others:
                assert "since player_0's last turn:" in text
                assert [line for line in listed if not line.startswith("player_0")] == others
                checked += 1
            others = []
        state = env.get_state()
        action = bots[seat].act(env, agent)
        if seat != 0:
            words = render.describe_step(state, action, state, viewer=0)[0]
            others.append(words)
        env.step(action)
        if checked >= 10:
            break
    assert checked >= 10
    env.reset(seed=6)
    assert env.events_since() == []  # a new game starts a new list


def walled_in_carrier():
    """Player 0's archaeologist carries a 3 on row 5 col 3, laid east-west: no passage home (the
    start tile south of it) nor to its open neighbours; its helper on the start tile."""
    state = new_game(2)
    lay(state, ["######", "######", "######", "######", "#│─│##", "##S###"])
    state[ARCH_CELL + 0] = cell(5, 3)
    put_treasure(state, 0, CARRIED, 0, value=3)
    return state


def test_the_playout_player_turns_the_tile_that_opens_a_carriers_way_home() -> None:
    """bots.playout_action, walled in with a treasure (the bot's plans find no way): the helper
    turns the archaeologist's tile north-south (target 1, the tile to the north, a quarter or
    three quarters), and the way home is open."""
    state = walled_in_carrier()
    home = np.empty(data.NUM_CELLS, np.int64)
    bots.distance_to(state, np.int64(1) << START, home)
    assert home[cell(5, 3)] >= bots.FAR
    action = bots.playout_action(state, np.int64(0), np.int64(3))
    assert action in (HELPER_ROTATE_BASE + 3, HELPER_ROTATE_BASE + 5)
    play(state, action)
    bots.distance_to(state, np.int64(1) << START, home)
    assert home[cell(5, 3)] == 1


def test_a_wall_on_the_way_home_costs_a_rotation_not_the_treasure() -> None:
    """bots.way_cost prices a wall a helper could turn at WALL_STEPS more than the step, so
    estimated_scores counts the walled-in carrier's 3 at CARRY_SHARE less CARRY_DECAY a step
    of that way, not at STRANDED_SHARE; once the tile is turned, at one step."""
    state = walled_in_carrier()
    cost = np.empty(data.NUM_CELLS, np.int64)
    bots.way_cost(state, np.int64(1) << START, cost)
    assert cost[cell(5, 3)] == 1 + bots.WALL_STEPS
    # From the face-down tile north of it: its own step (face down, and the wall) and that one.
    assert cost[cell(4, 3)] == 2 * (1 + bots.WALL_STEPS) + bots.CLOSED_STEPS
    values = np.zeros(2)
    bots.estimated_scores(state, values)
    assert values[0] == pytest.approx(3 * (bots.CARRY_SHARE - bots.CARRY_DECAY * (1 + bots.WALL_STEPS)))
    play(state, HELPER_ROTATE_BASE + 3)
    bots.estimated_scores(state, values)
    assert values[0] == pytest.approx(3 * (bots.CARRY_SHARE - bots.CARRY_DECAY))
