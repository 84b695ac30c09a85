"""The RLlib adapter and `treasure-envs train --engine rllib`, on a real local Ray cluster.

The adapter's unit tests run without a cluster: RLlib's own env pre-check, observations only
for the seats that decide (a turn-based game, Karuba's draft and tiles, Nakum's heritage
choice), the masks, state(). The cluster tests start a head node and one more node on this
machine (ray.cluster_utils.Cluster: two raylets, one CPU each), train every registered game
two PPO iterations with two env runners (one lands on each node), check that samples came
from both nodes, evaluate the checkpoint through `treasure-envs eval`, and shut it down.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import time

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason='needs the rllib extra: pip install -e ".[rllib]"')

import ray  # noqa: E402
from gymnasium import spaces  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from treasure_adapters.rllib import MASK_KEY, OBS_KEY, TreasureMultiAgentEnv, seat_of  # noqa: E402
from treasure_apps import cli  # noqa: E402
from treasure_apps.rllib_train import RLlibTrainConfig, init_ray, train  # noqa: E402
from treasure_core.aec import TreasureAECEnv  # noqa: E402
from treasure_core.conformance import MAX_DECISIONS  # noqa: E402
from treasure_core.parallel import TreasureParallelEnv  # noqa: E402
from treasure_core.registry import game_names, get_game  # noqa: E402

# Under pytest-xdist (`--dist loadgroup`), every Ray test in one worker: one local cluster at a time.
pytestmark = pytest.mark.xdist_group("ray")


def play_checked(env: TreasureMultiAgentEnv, seed: int, max_steps: int = MAX_DECISIONS) -> list[set[str]]:
    """Play env with random legal actions; at every step check the agents that got an
    observation against the Parallel driver's deciding seats on the same state, and each mask
    against the kernels. Returns the observed agent sets, step by step. The spaces are seeded:
    a random Pharaoh game can run for thousands of steps until its guard cuts it."""
    game = env.game
    reference = TreasureParallelEnv(game, **{k: v for k, v in env.options.items()})
    observations, _ = env.reset(seed=seed)
    for index, agent in enumerate(sorted(env.action_spaces)):
        env.action_spaces[agent].seed(seed * 1000 + index)
    seen = []
    for _ in range(max_steps):
        live = [g for g in range(env.games_per_env) if not env._over[g]]
        for g in live:
            reference.set_state(env.get_state(g))
            deciding = {env.agent_ids[g][s] for s in reference.deciding_seats()}
            mine = {a for a in observations if seat_of(a)[0] == g}
            assert mine == deciding, (game.name, reference._aec.phase(), mine, deciding)
            for agent in mine:
                seat = seat_of(agent)[1]
                assert observations[agent][MASK_KEY].dtype == np.float32
                np.testing.assert_array_equal(observations[agent][MASK_KEY], reference.legal_mask(seat))
                assert observations[agent][OBS_KEY].shape == (env.dims.obs_size,)
        seen.append(set(observations))
        actions = {agent: env.action_spaces[agent].sample() for agent in observations}
        observations, rewards, terminateds, truncateds, _ = env.step(actions)
        if terminateds["__all__"] or truncateds["__all__"]:  # the guard's cut ends it too
            assert terminateds["__all__"] != truncateds["__all__"]
            assert set(rewards) == set(observations)
            return seen
    raise AssertionError(f"{game.name}: no end in {max_steps} steps")


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("games_per_env", [1, 3])
def test_rllib_pre_check_passes_with_checks_on(name: str, games_per_env: int) -> None:
    env = TreasureMultiAgentEnv({"game": name, "games_per_env": games_per_env})
    check_multiagent_environments(env)  # raises on any failure


@pytest.mark.parametrize("name", game_names())
def test_observations_go_only_to_the_seats_that_decide(name: str) -> None:
    seen = play_checked(TreasureMultiAgentEnv({"game": name, "seed": 1}), seed=3)
    assert seen and all(seen)


def test_sequential_game_observes_one_seat_a_step() -> None:
    seen = play_checked(TreasureMultiAgentEnv({"game": "nakbe", "num_players": 3}), seed=5)
    assert all(len(agents) == 1 for agents in seen)


def test_karuba_draft_observes_only_the_drafting_seat_then_every_seat_on_a_tile() -> None:
    env = TreasureMultiAgentEnv({"game": "karuba", "num_players": 3, "layout": "draft"})
    aec = TreasureAECEnv(get_game("karuba"), num_players=3, layout="draft")
    observations, _ = env.reset(seed=7)
    phases = []
    while True:
        aec.set_state(env.get_state())
        phases.append((aec.phase(), len(observations)))
        actions = {agent: env.action_spaces[agent].sample() for agent in observations}
        observations, _, terminateds, _, _ = env.step(actions)
        if terminateds["__all__"]:
            break
    draft = [count for phase, count in phases if phase == "draft"]
    play = [count for phase, count in phases if phase == "play"]
    assert draft and all(count == 1 for count in draft)
    assert play and all(count == 3 for count in play)  # a revealed tile: every seat decides


def test_nakum_heritage_choice_is_simultaneous() -> None:
    env = TreasureMultiAgentEnv({"game": "nakum", "num_players": 3})
    aec = TreasureAECEnv(get_game("nakum"), num_players=3)
    observations, _ = env.reset(seed=11)
    aec.set_state(env.get_state())
    assert aec.phase() == "heritage"
    assert set(observations) == {"player_0", "player_1", "player_2"}
    play_checked(env, seed=11)


def test_masks_and_sampled_actions_are_legal() -> None:
    env = TreasureMultiAgentEnv({"game": "pharaoh", "illegal_action": "raise", "games_per_env": 2})
    observations, _ = env.reset(seed=0)
    terminateds = {}
    for index, space in enumerate(env.action_spaces.values()):
        space.seed(index)  # the same random games every run
    # Random Pharaoh games may run to the guard (a truncation): every step until either end.
    for _ in range(MAX_DECISIONS):
        live = {agent: obs for agent, obs in observations.items() if not terminateds.get(agent)}
        for agent, observation in live.items():
            action = int(env.action_spaces[agent].sample())
            assert observation[MASK_KEY][action] == 1.0
        # raise mode: an illegal action would raise
        actions = {agent: env.action_spaces[agent].sample() for agent in live}
        observations, _, terminateds, truncateds, _ = env.step(actions)
        if terminateds["__all__"] or truncateds["__all__"]:
            return
    raise AssertionError(f"no end in {MAX_DECISIONS} steps")


def test_illegal_action_ends_that_game_with_minus_one() -> None:
    env = TreasureMultiAgentEnv({"game": "nakbe", "num_players": 2})
    observations, _ = env.reset(seed=0)
    agent = next(iter(observations))
    illegal = int(np.flatnonzero(observations[agent][MASK_KEY] == 0)[0])
    _, rewards, terminateds, _, infos = env.step({agent: illegal})
    assert terminateds["__all__"] and rewards[agent] == -1.0 and infos[agent]["game_over"] == 1
    with pytest.raises(ValueError, match="illegal"):
        strict = TreasureMultiAgentEnv({"game": "nakbe", "num_players": 2, "illegal_action": "raise"})
        observations, _ = strict.reset(seed=0)
        strict.step({agent: illegal for agent in observations})


def test_state_is_the_full_information_view() -> None:
    env = TreasureMultiAgentEnv({"game": "tomb", "games_per_env": 2, "state_in_infos": True})
    observations, infos = env.reset(seed=2)
    aec = TreasureAECEnv(get_game("tomb"))
    for g in range(2):
        aec.set_state(env.get_state(g))
        np.testing.assert_array_equal(env.state(g), aec.state())
        assert env.state(g).shape == env.state_space.shape
    agent = next(iter(observations))
    np.testing.assert_array_equal(infos[agent]["state"], env.state(seat_of(agent)[0]))


def test_scripted_seats_never_appear_and_one_seat_is_always_rllibs() -> None:
    env = TreasureMultiAgentEnv({"game": "nakbe", "num_players": 3, "bot_share": 1.0, "games_per_env": 4})
    for seed in range(3):
        observations, _ = env.reset(seed=seed)
        appeared: set[str] = set()
        while True:
            appeared |= set(observations)
            observations, _, terminateds, _, _ = env.step(
                {agent: env.action_spaces[agent].sample() for agent in observations}
            )
            if terminateds["__all__"]:
                break
        by_game = {seat_of(a)[0] for a in appeared}
        assert by_game == {0, 1, 2, 3}
        assert all(len({a for a in appeared if seat_of(a)[0] == g}) == 1 for g in by_game)


def test_legal_space_pickles_as_a_plain_discrete() -> None:
    env = TreasureMultiAgentEnv({"game": "karuba"})
    space = pickle.loads(pickle.dumps(env.action_spaces["player_0"]))
    assert type(space) is spaces.Discrete and space == env.action_spaces["player_0"]


def test_the_other_adapters_and_the_cli_do_not_import_ray() -> None:
    code = (
        "import sys, treasure_adapters, treasure_adapters.single_agent, treasure_apps.cli, "
        "treasure_apps.evaluate; assert 'ray' not in sys.modules, 'ray imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_bad_config_raises_clearly() -> None:
    with pytest.raises(ValueError, match="games_per_env"):
        TreasureMultiAgentEnv({"game": "nakbe", "games_per_env": 0})
    with pytest.raises(ValueError, match="bot_share"):
        TreasureMultiAgentEnv({"game": "nakbe", "bot_share": 2})
    with pytest.raises(ValueError, match="num_players"):
        TreasureMultiAgentEnv({"game": "nakbe", "num_players": 9})


def test_an_rllib_policy_decides_for_many_games_at_once_as_for_one() -> None:
    """RLlibPolicyAgent is batchable: evaluation plays its games side by side, one forward pass
    for all (as MaskablePPO's agent), and each decision is the one it makes alone."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    from treasure_apps.evaluate import _batchable, win_rate
    from treasure_apps.rllib_policy import RLlibPolicyAgent
    from treasure_core.agents import agent_factory

    adapter = TreasureMultiAgentEnv({"game": "nakbe", "num_players": 2})
    agent = next(iter(adapter.observation_spaces))
    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        observation_space=adapter.observation_spaces[agent],
        action_space=adapter.action_spaces[agent],
        model_config={"fcnet_hiddens": [16], "fcnet_activation": "tanh", "vf_share_layers": False},
    ).build()
    for deterministic in (True, False):
        one, many = (RLlibPolicyAgent(module, seed=3, deterministic=deterministic) for _ in range(2))
        assert _batchable(many)
        env = TreasureAECEnv(get_game("nakbe"), num_players=2)
        env.reset(seed=5)
        observations, masks, alone = [], [], []
        for _ in range(12):
            name = env.agent_selection
            observations.append(env.features(name))
            masks.append(env.action_mask(name))
            alone.append(one.act(env, name))
            env.step(alone[-1])
        probabilities = many.probabilities(np.stack(observations), np.stack(masks))
        assert np.allclose(probabilities.sum(axis=1), 1.0) and not probabilities[np.stack(masks) == 0].any()
        assert [many.choose(row) for row in probabilities] == alone
    # A series against random play, its games side by side: it ends and counts every game.
    nakbe = get_game("nakbe")
    rate = win_rate(nakbe, {"num_players": 2}, many.factory(), agent_factory(nakbe, "random"), 40)
    assert rate.games == 40


# In a fresh process: the node warm-up's kernels, then which the adapter's games call beyond them.
_RUNNER_KERNELS_SCRIPT = """
import sys
import numpy as np
from numba.core.registry import CPUDispatcher
from treasure_adapters.rllib import TreasureMultiAgentEnv, warm_up

def compiled():
    return {(name, attr): len(value.signatures) for name, module in list(sys.modules.items())
            if name.split(".")[0] in ("treasure_core", sys.argv[2]) for attr, value in vars(module).items()
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == name}

warm_up(sys.argv[1], jobs=2)
before = compiled()
env = TreasureMultiAgentEnv({"game": sys.argv[1], "games_per_env": 4, "bot_share": 0.5, "seed": 1})
observations, _ = env.reset(seed=1)
for index, agent in enumerate(sorted(env.action_spaces)):
    env.action_spaces[agent].seed(index)
for _ in range(300):
    observations, _, terminateds, truncateds, _ = env.step(
        {agent: env.action_spaces[agent].sample() for agent in observations})
    if terminateds["__all__"] or truncateds["__all__"]:
        observations, _ = env.reset()
env.state()
after = compiled()
print(sorted(key for key, count in after.items() if count > before.get(key, 0)))
"""


# One game in the default suite (a fresh process each), the others in the long tier.
@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=() if i == 0 else (pytest.mark.long,)) for i, n in enumerate(game_names())]
)
def test_the_node_warm_up_compiles_every_kernel_the_env_runners_call(name: str, tmp_path) -> None:
    """warm_up, with an empty cache, compiles the runners' kernels only (not the batch forms, the
    Parallel driver or the search: RUNNER_STAGES) in two processes (RUNNER_UNITS), then loads
    them; and those are all an env runner's games call."""
    from treasure_core.registry import module_of

    package = module_of(name).split(".")[0]
    result = subprocess.run(
        [sys.executable, "-c", _RUNNER_KERNELS_SCRIPT, name, package],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path)),
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines()[-1] == "[]", result.stdout


# -- the local cluster ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def cluster():
    """A head node and one worker node on this machine, one CPU each, for the whole module."""
    from ray.cluster_utils import Cluster

    started = time.perf_counter()
    local = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    local.add_node(num_cpus=1)
    local.wait_for_nodes()
    init_ray(local.address)
    yield local
    ray.shutdown()
    local.shutdown()
    print(f"local cluster up for {time.perf_counter() - started:.0f} s")


# One game on the two-node cluster in the default suite, every other game in the long tier.
ON_THE_CLUSTER = [
    pytest.param(name, marks=() if index == 0 else (pytest.mark.long,))
    for index, name in enumerate(game_names())
]


@pytest.mark.parametrize("name", ON_THE_CLUSTER)
def test_trains_on_both_nodes_and_evaluates(cluster, name: str, tmp_path, capsys) -> None:
    nodes = {node["NodeID"] for node in ray.nodes() if node["Alive"]}
    assert len(nodes) == 2
    game = get_game(name)
    config = RLlibTrainConfig(
        iterations=2,
        steps=10**9,
        num_env_runners=2,
        games_per_env=2,
        train_batch=128,
        minibatch_size=64,
        num_epochs=1,
        max_snapshots=1,
        snapshot_every=100,
        net_arch=[32],
    )
    checkpoint = train(game, tmp_path, config, progress=False, num_players=game.min_players)
    summary = __import__("json").loads((tmp_path / "summary.json").read_text())
    assert summary["iterations"] == 2
    assert set(summary["warm_up_seconds_by_node"]) == nodes
    sampled = summary["agent_steps_by_node"]
    assert set(sampled) == nodes and all(steps > 0 for steps in sampled.values()), sampled
    code = cli.main(["eval", name, "--checkpoint", str(checkpoint), "--games", "3", "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0, out
    # Solo (min_players 1: Nakum) has one opponent, the game's own inside the kernels.
    opponents = ["in-kernel"] if game.min_players == 1 else ["random", *game.bots]
    for opponent in opponents:
        assert any(line.startswith(opponent) for line in out.splitlines()), out


def test_the_caller_still_compiles_numba_code_after_training(cluster) -> None:
    """init_ray sets the workers' thread counts; it once also set NUMBA_NUM_THREADS in the
    caller's process, and numba, which re-reads it at every compile, then refused to compile
    anything once its thread pool ran ("Cannot set NUMBA_NUM_THREADS ...")."""
    from numba import njit

    from treasure_core.batch import BatchRunner

    BatchRunner("nakbe", 4, seed=0, num_threads=2).random_playout(1)  # numba's threads run

    @njit
    def plus_one(x: int) -> int:
        return x + 1

    assert plus_one(1) == 2
