"""Karuba's `previews` option: previews=False gives the first 1,464 features of the default
observation (the same offsets, the decision previews left out and never computed), every driver
reports that shape, and nothing else changes: state, masks, rewards, infos, the bots' choices.
The conformance suite runs the option set in the long tier (conftest's configs), and
tests/test_observe_digest.py holds its observations bit for bit."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from karuba_env import GAME, observe
from karuba_env.bots import KarubaBot
from treasure_apps.arguments import parse_options
from treasure_core.aec import TreasureAECEnv
from treasure_core.batch import BatchRunner
from treasure_core.parallel import TreasureParallelEnv

SHORT = observe.OBS_SIZE_WITHOUT_PREVIEWS
NO_PREVIEWS = {"previews": False}


def test_without_previews_the_observation_is_karuba_v1s_prefix():
    assert SHORT == observe.OBS["place_preview"][0] == 1464
    assert observe.OBS_SIZE == 2568
    assert GAME.dims(GAME.make_params(GAME.validate(NO_PREVIEWS))).obs_size == SHORT
    assert GAME.dims(GAME.make_params(GAME.validate({}))).obs_size == observe.OBS_SIZE


def lockstep(options: dict[str, Any], seed: int, play: str) -> int:
    """Play one game in a default env and in a previews=False env side by side, by `play`
    ("random": seeded legal actions; "bot": KarubaBot in every seat, choosing in the default
    env), and compare every seat's observation, mask and the rest at every step; the positions
    compared."""
    full = TreasureAECEnv(GAME, **options)
    short = TreasureAECEnv(GAME, **options, **NO_PREVIEWS)
    full.reset(seed=seed)
    short.reset(seed=seed)
    rng = np.random.default_rng(seed)
    bots = [KarubaBot(seed + seat) for seat in range(full.num_players)]
    positions = 0
    while True:
        np.testing.assert_array_equal(short.get_state(), full.get_state())
        np.testing.assert_array_equal(short.state(), full.state())
        assert short.agent_selection == full.agent_selection
        assert short.rewards == full.rewards and short.infos.keys() == full.infos.keys()
        for agent in full.possible_agents:
            seen, expected = short.observe(agent), full.observe(agent)
            assert seen["observation"].shape == (SHORT,)
            np.testing.assert_array_equal(seen["observation"], expected["observation"][:SHORT])
            np.testing.assert_array_equal(seen["action_mask"], expected["action_mask"])
            positions += 1
        if full.is_over():
            assert short.is_over()
            for agent in full.possible_agents:
                assert {k: v for k, v in short.infos[agent].items() if k != "action_mask"} == {
                    k: v for k, v in full.infos[agent].items() if k != "action_mask"
                }
            return positions
        agent = full.agent_selection
        if play == "bot":
            seat = full.possible_agents.index(agent)
            action = bots[seat].act(full, agent)
        else:
            action = int(rng.choice(np.flatnonzero(full.observe(agent)["action_mask"])))
        full.step(action)
        short.step(action)


@pytest.mark.parametrize(
    ("options", "seed", "play"),
    [
        ({"num_players": 2}, 3, "random"),
        ({"num_players": 3}, 4, "bot"),
        ({"num_players": 4}, 5, "random"),
        ({"num_players": 4}, 6, "bot"),
        ({"num_players": 2, "layout": "draft"}, 7, "random"),
        ({"num_players": 3, "layout": "draft", "distance_rule": "difference"}, 8, "bot"),
    ],
)
def test_every_seats_observation_is_the_defaults_first_features(options, seed, play):
    """Random and bot play, every seat at every step (the draft, the tile rounds with decided
    and undecided seats, the end): the same first 1,464 features, and the same game."""
    assert lockstep(options, seed, play) > 100


@pytest.mark.parametrize("dtype", ["float32", "uint8"])
def test_the_batch_observation_is_the_defaults_first_features(dtype):
    full = BatchRunner("karuba", 64, seed=2, num_threads=1, observation_dtype=dtype)
    short = BatchRunner("karuba", 64, seed=2, num_threads=1, observation_dtype=dtype, **NO_PREVIEWS)
    for stage in range(8):
        observations = short.observe()
        assert observations.shape == (64, SHORT) and observations.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(observations, full.observe()[:, :SHORT])
        np.testing.assert_array_equal(short.legal_masks(), full.legal_masks())
        full.random_playout(17, seed=stage)
        short.random_playout(17, seed=stage)
        np.testing.assert_array_equal(short.states, full.states)


def test_the_kernel_writes_every_feature_and_no_further():
    """An out of OBS_SIZE_WITHOUT_PREVIEWS: every feature written, nothing past it touched."""
    runner = BatchRunner("karuba", 16, seed=9, num_threads=1)
    runner.random_playout(40, seed=1)
    room = np.full(observe.OBS_SIZE, np.nan, np.float32)
    for state in runner.states:
        for seat in range(int(state[0])):
            room[:] = np.nan
            observe.observe(state, seat, room[:SHORT])
            assert not np.isnan(room[:SHORT]).any()
            assert np.isnan(room[SHORT:]).all()


def test_every_driver_reports_the_shorter_shape():
    aec = TreasureAECEnv(GAME, **NO_PREVIEWS)
    assert aec.observation_space("player_0")["observation"].shape == (SHORT,)
    assert aec.state_space.shape == (observe.FULL_SIZE,)  # state() has no previews either way
    box = TreasureAECEnv(GAME, observation_format="box", **NO_PREVIEWS)
    box.reset(seed=0)
    assert box.observation_space("player_1").shape == (SHORT,) == box.observe("player_1").shape

    parallel = TreasureParallelEnv(GAME, num_players=3, **NO_PREVIEWS)
    observations, _ = parallel.reset(seed=0)
    assert parallel.observation_space("player_2")["observation"].shape == (SHORT,)
    assert {o["observation"].shape for o in observations.values()} == {(SHORT,)}

    runner = BatchRunner("karuba", 4, seed=0, num_threads=1, **NO_PREVIEWS)
    assert runner.dims.obs_size == SHORT and runner.observe().shape == (4, SHORT)

    import gymnasium

    from treasure_adapters.single_agent import TreasureGymEnv

    for fmt in ("box", "dict"):
        single = TreasureGymEnv("karuba", observation_format=fmt, **NO_PREVIEWS)
        observation, _ = single.reset(seed=0)
        space = single.observation_space if fmt == "box" else single.observation_space["observation"]
        features = observation if fmt == "box" else observation["observation"]
        assert space.shape == features.shape == (SHORT,)
    made = gymnasium.make(f"treasure_envs/Karuba-v{GAME.env_name.rsplit('_v', 1)[1]}", **NO_PREVIEWS)
    assert made.observation_space.shape == (SHORT,)


def test_the_rllib_adapter_reports_the_shorter_shape():
    pytest.importorskip("ray.rllib", reason='needs the rllib extra: pip install -e ".[rllib]"')
    from treasure_adapters.rllib import OBS_KEY, TreasureMultiAgentEnv

    env = TreasureMultiAgentEnv({"game": "karuba", "num_players": 2, **NO_PREVIEWS})
    observations, _ = env.reset(seed=0)
    assert {space[OBS_KEY].shape for space in env.observation_spaces.values()} == {(SHORT,)}
    assert {o[OBS_KEY].shape for o in observations.values()} == {(SHORT,)}


def test_the_openspiel_adapter_reports_the_shorter_shape():
    pyspiel = pytest.importorskip("pyspiel")
    import treasure_adapters.openspiel  # noqa: F401  (registers python_treasure_karuba)

    game = pyspiel.load_game("python_treasure_karuba(num_players=2,previews=False)")
    assert game.observation_tensor_shape() == [SHORT]
    state = game.new_initial_state()
    assert len(state.observation_tensor(0)) == SHORT
    full = pyspiel.load_game("python_treasure_karuba(num_players=2)")
    assert full.observation_tensor_shape() == [observe.OBS_SIZE]


@pytest.mark.parametrize("bad", [1, 0, "no", "False", None, 2.0])
def test_a_bad_value_is_an_error_naming_the_option(bad):
    with pytest.raises(ValueError, match="'previews' must be one of False, True"):
        TreasureAECEnv(GAME, previews=bad)
    with pytest.raises(ValueError, match="previews"):
        BatchRunner("karuba", 2, seed=0, previews=bad)


def test_the_command_line_spells_the_option():
    assert parse_options(GAME, ["previews=false"], None)["previews"] is False
    assert parse_options(GAME, [], None, ["--previews", "False"])["previews"] is False
    assert parse_options(GAME, [], None)["previews"] is True
    assert TreasureAECEnv(GAME, previews=np.bool_(False)).dims.obs_size == SHORT
