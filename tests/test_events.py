"""The events since a player's last turn (treasure_core.events, GameSpec.describe_step): every
game's words for a decision depend only on what the viewer may know, and the AEC env keeps them
only when it renders."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from treasure_core.conformance import configs, random_legal
from treasure_core.events import describe_by_name
from treasure_core.header import CURRENT_PLAYER, TERMINAL
from treasure_core.registry import all_games, get_game, make_env

GAMES = [game.name for game in all_games()]
DECISIONS = 120  # decisions looked at per game (default tier)
TWINS = 2  # re-deals of what the viewer cannot know, per viewer and decision
ACTIONS_TRIED = 10  # the actor's actions tried in each re-dealt twin


def _decisions(name: str, options: dict[str, Any], seed: int, count: int):
    """(before, action, after) for `count` decisions of random legal play, over new games."""
    game = get_game(name)
    env = make_env(name, **options).unwrapped
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    made = 0
    while made < count:
        if not env.agents:
            env.reset(seed=int(rng.integers(1 << 30)))
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        made += 1
        before = env.get_state()
        action = random_legal(rng, env.infos[agent]["action_mask"])
        env.step(action)
        yield game, before, action, env.get_state()


def _view(game: Any, state: np.ndarray, seat: int, size: int) -> np.ndarray:
    out = np.empty(size, np.float32)
    game.kernels.observe(state, seat, out)
    return out


def _names_the_action(game: Any, state: np.ndarray, action: int, words: list[str]) -> bool:
    actor = int(state[CURRENT_PLAYER])
    return bool(words) and words[0].startswith(f"player_{actor}: ")


def check_events_hide_what_the_viewer_cannot_know(name: str, options: dict[str, Any], count: int) -> int:
    """Re-deal what the viewer cannot know before a decision and try the actor's legal actions
    there: wherever the viewer's observation before and after is the same as in the game played,
    its words for the decision must be the same. Returns the twins compared."""
    compared = 0
    rng = np.random.default_rng(7)
    for game, before, action, after in _decisions(name, options, seed=11, count=count):
        describe = game.describe_step or describe_by_name(game.action_name)
        dims = game.dims(game.make_params(game.validate(options)))
        actor = int(before[CURRENT_PLAYER])
        for viewer in range(int(before[0])):
            words = describe(before, action, after, viewer)
            seen_before, seen_after = (
                _view(game, before, viewer, dims.obs_size),
                _view(game, after, viewer, dims.obs_size),
            )
            for _ in range(TWINS):
                twin = before.copy()
                game.kernels.resample_hidden(twin, viewer, int(rng.integers(1 << 30)))
                if not np.array_equal(_view(game, twin, viewer, dims.obs_size), seen_before):
                    continue  # the conformance suite's own hidden-information check covers this
                mask = np.zeros(dims.n_actions, np.int8)
                game.kernels.legal_mask(twin, actor, mask)
                legal = np.flatnonzero(mask)
                tried = set(rng.choice(legal, min(ACTIONS_TRIED, legal.size), replace=False).tolist())
                if viewer == actor:
                    tried = set()  # the actor knows its own decision: only the chance may differ
                if mask[action]:
                    tried.add(int(action))
                for other in sorted(tried):
                    twin_after = twin.copy()
                    game.kernels.step(twin_after, int(other))
                    if not np.array_equal(_view(game, twin_after, viewer, dims.obs_size), seen_after):
                        continue
                    twin_words = describe(twin, int(other), twin_after, viewer)
                    if other != action and _names_the_action(game, twin, int(other), twin_words):
                        # A decision the game calls public ("player_k: ..."): the viewer saw which
                        # one, and its words and effects may say so; only a secret one must not
                        # show through.
                        continue
                    assert twin_words == words, (
                        f"{name} {options}: player_{viewer}'s words for player_{actor}'s decision "
                        f"depend on what it cannot know:\n{words}\nvs\n{twin_words}"
                    )
                    compared += 1
    return compared


@pytest.mark.parametrize("name", GAMES)
def test_events_hide_what_the_viewer_cannot_know(name: str) -> None:
    game = get_game(name)
    for players in sorted({game.min_players, game.default_players, game.max_players}):
        compared = check_events_hide_what_the_viewer_cannot_know(name, {"num_players": players}, DECISIONS)
        assert compared >= DECISIONS // 2, f"{name}, {players} players: only {compared} twins compared"


@pytest.mark.long
@pytest.mark.parametrize("name", GAMES)
def test_events_hide_what_the_viewer_cannot_know_every_config(name: str) -> None:
    for options in configs(name):
        check_events_hide_what_the_viewer_cannot_know(name, options, 4 * DECISIONS)


@pytest.mark.parametrize("name", GAMES)
def test_an_env_that_renders_lists_the_events_since_a_turn(name: str) -> None:
    env = make_env(name, render_mode="ansi").unwrapped
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    seen = 0
    while env.agents and seen < 3:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        player = env.possible_agents.index(agent)
        events = env.events_since(player)
        if env._state[TERMINAL] == 0 and events:
            env.render_viewer = player
            assert f"since player_{player}'s last turn:" in env.render()
            assert all(isinstance(line, str) and line for line in events)
            seen += 1
        env.step(random_legal(rng, env.infos[agent]["action_mask"]))
    assert seen == 3
    env.reset(seed=4)
    assert env.events_since(0) == []  # a new game starts a new list


def test_an_env_without_a_render_mode_keeps_no_events() -> None:
    env = make_env(GAMES[0]).unwrapped
    env.reset(seed=1)
    with pytest.raises(ValueError, match="only an env with a render_mode keeps the events"):
        env.events_since(0)
