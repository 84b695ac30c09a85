"""The SVG boards (`render_mode="svg"`, GameSpec.render_svg): every registered game's board is a
standalone XML document with a legend; its targets name only legal actions of the seat to act
and reach the legal actions that name a component; and a seat's board hides what the seat
cannot know (the same SVG after resample_hidden re-deals it)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from treasure_core.aec import TreasureAECEnv
from treasure_core.conformance import configs, random_legal
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL
from treasure_core.parallel import TreasureParallelEnv
from treasure_core.registry import all_games, get_game

SVG = "{http://www.w3.org/2000/svg}"
GAMES = [game.name for game in all_games()]
# Action blocks that name no drawn component (pass, end the turn): a board need not offer them.
UNDRAWN = {
    "nakbe": {"no_move"},
    "tomb": set(),
    "pharaoh": {"pass"},
    "karuba": set(),
    "nakum": {"pass"},
}
POINTS = (0, 3, 12, 40, 120)  # decisions into a game at which its boards are drawn
compared = {"boards": 0}


def _play(game, options: dict, seed: int) -> list[np.ndarray]:
    """The states of one random legal game at each of POINTS and at its end."""
    env = TreasureAECEnv(game, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    found = []
    for decisions in range(max(POINTS) + 1):
        if decisions in POINTS:
            found.append(env.get_state().copy())
        if env.is_over():
            break
        env.step(random_legal(rng, env.action_mask(env.agent_selection)))
    found.append(env.get_state().copy())
    return found


def _states(name: str, seeds: tuple[int, ...], every_option: bool = False) -> list[np.ndarray]:
    """States of random legal games: for the game's fewest, default and most players with each
    seed, and for each of its own options' other values (one at a time, the conformance suite's
    configs) with the first seed, or with every seed when `every_option`."""
    game = get_game(name)
    found = []
    for players in sorted({game.min_players, game.max_players, game.default_players}):
        for seed in seeds:
            found += _play(game, {"num_players": players}, seed)
    common = {"num_players", "reward", "observation_format"}
    for options in configs(game, combinations=False):
        if not common & options.keys():
            for seed in seeds if every_option else seeds[:1]:
                found += _play(game, options, seed)
    return found


@pytest.fixture(scope="module", params=GAMES)
def game_states(request: pytest.FixtureRequest) -> tuple:
    game = get_game(request.param)
    if game.render_svg is None:
        pytest.fail(f"{game.name} has no render_svg")
    return game, _states(game.name, (0, 1))


def _legal(game, state: np.ndarray) -> set[int]:
    if state[TERMINAL]:
        return set()
    mask = np.zeros(game.actions.size, np.int8)
    game.kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask)
    return {int(a) for a in np.flatnonzero(mask)}


def _targets(document: str) -> tuple[ET.Element, set[int]]:
    root = ET.fromstring(document)
    actions: set[int] = set()
    for element in root.iter():
        if "data-actions" in element.attrib:
            assert "target" in element.attrib.get("class", "").split()
            actions.update(int(a) for a in element.attrib["data-actions"].split())
    return root, actions


def test_boards_parse_with_a_legend_and_legal_targets(game_states: tuple) -> None:
    game, states = game_states
    undrawn = {block.name for block in game.actions.blocks if block.name in UNDRAWN.get(game.name, set())}
    for state in states:
        legal = _legal(game, state)
        acting = int(state[CURRENT_PLAYER])
        for viewer in [None, *range(int(state[NUM_PLAYERS]))]:
            document = game.render_svg(state, viewer=viewer)
            assert document.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
            assert "<image" not in document and "<script" not in document and "href" not in document
            root, targets = _targets(document)
            assert root.tag == f"{SVG}svg"
            assert any(g.attrib.get("class") == "legend" for g in root.iter(f"{SVG}g")), "no legend"
            if viewer is not None and viewer != acting:
                assert not targets, f"{game.name}: seat {viewer} gets targets when seat {acting} acts"
                continue
            assert targets <= legal, f"{game.name}: targets {sorted(targets - legal)} are not legal"
            missing = {a for a in legal - targets if game.actions.block_of(a)[0].name not in undrawn}
            assert not missing, f"{game.name}: legal actions without a target: " + "; ".join(
                game.action_name(state, a) for a in sorted(missing)[:5]
            )


def test_a_seat_board_hides_what_the_seat_cannot_know(game_states: tuple) -> None:
    game, states = game_states
    for k, state in enumerate(states):
        for seat in range(int(state[NUM_PLAYERS])):
            if state[TERMINAL]:  # a finished game is not re-dealt: its end shows every score
                continue
            twin = state.copy()
            game.kernels.resample_hidden(twin, seat, 1000 + k)
            assert game.render_svg(state, viewer=seat) == game.render_svg(twin, viewer=seat), (
                f"{game.name}: seat {seat}'s board changes when what it cannot know is re-dealt"
            )
            compared["boards"] += 1
    print(f"\n{game.name}: {compared['boards']} seat boards compared so far")


@pytest.mark.parametrize("name", GAMES)
def test_render_mode_svg_in_both_drivers(name: str) -> None:
    game = get_game(name)
    aec = TreasureAECEnv(game, render_mode="svg")
    assert "svg" in aec.metadata["render_modes"]
    aec.reset(seed=3)
    assert aec.render() == game.render_svg(aec.get_state(), viewer=None)
    aec.render_viewer = 0
    assert aec.render() == game.render_svg(aec.get_state(), viewer=0)
    parallel = TreasureParallelEnv(game, render_mode="svg")
    parallel.reset(seed=3)
    ET.fromstring(parallel.render())


@pytest.mark.long
@pytest.mark.parametrize("name", GAMES)
def test_hidden_boards_over_many_games(name: str) -> None:
    game = get_game(name)
    for k, state in enumerate(_states(name, tuple(range(2, 8)), every_option=True)):
        for seat in range(int(state[NUM_PLAYERS])):
            twin = state.copy()
            if not state[TERMINAL]:
                game.kernels.resample_hidden(twin, seat, k)
            assert game.render_svg(state, viewer=seat) == game.render_svg(twin, viewer=seat)
