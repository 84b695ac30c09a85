"""The Gymnasium single-agent wrapper, the vectorised env, training, checkpoints and evaluation,
over every registered game."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from treasure_adapters.single_agent import (
    OpponentPool,
    TreasureGymEnv,
    gym_id,
    register_gymnasium_envs,
)
from treasure_core.aec import TreasureAECEnv
from treasure_core.agents import Agent, RandomAgent, play_game
from treasure_core.conformance import MAX_DECISIONS
from treasure_core.header import CURRENT_PLAYER, TERMINAL
from treasure_core.registry import all_games, game_names, get_game, register, unregister

GAME_NAMES = game_names()


class RecordingRandom(RandomAgent):
    """A random opponent that notes that it moved, and in which seat."""

    moves: list[int] = []

    def act(self, env: TreasureAECEnv, agent: str) -> int:
        RecordingRandom.moves.append(env.possible_agents.index(agent))
        return super().act(env, agent)


# -- registration and the env checker ------------------------------------------------------------
def test_every_game_has_a_gymnasium_id_matching_its_env_version():
    ids = register_gymnasium_envs()
    assert ids == [gym_id(name) for name in game_names()]
    for game in all_games():
        env_id = gym_id(game.name)
        assert env_id in gymnasium.registry
        assert env_id.rsplit("-", 1)[1] == game.env_name.rsplit("_", 1)[1]  # same version
    assert gym_id("nakbe").startswith("treasure_envs/Nakbe-v")


def test_a_game_registered_later_joins_gymnasium(monkeypatch):
    import dataclasses
    import types

    module = types.ModuleType("nakbe_again_env")
    module.GAME = dataclasses.replace(get_game("nakbe"), name="nakbe_again")
    module.env = lambda **options: TreasureAECEnv(module.GAME, **options)
    monkeypatch.setitem(sys.modules, "nakbe_again_env", module)
    register("nakbe_again", "nakbe_again_env")  # the adapter hears of it: no call of ours
    try:
        again = gym_id("nakbe_again")
        assert again.startswith("treasure_envs/NakbeAgain-v") and again in gymnasium.registry
        env = gymnasium.make(again, opponents="random", num_players=2)
        obs, info = env.reset(seed=0)
        assert obs.shape == env.observation_space.shape
    finally:
        gymnasium.registry.pop(gym_id("nakbe_again"), None)
        unregister("nakbe_again")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_gymnasium_make_passes_the_env_checker(name, capsys):
    game = get_game(name)
    bot = next(iter(game.bots), "random")
    # The checker steps with unmasked random actions: by default illegal ones end the game with -1.
    env = gymnasium.make(gym_id(name), opponents=bot)
    check_env(env.unwrapped)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert env.unwrapped.action_masks().dtype == np.bool_


@pytest.mark.parametrize("name", GAME_NAMES)
def test_an_illegal_learner_action_is_penalized_or_raises_and_changes_nothing(name):
    env = TreasureGymEnv(name, opponents="random", illegal_action="raise")
    obs, info = env.reset(seed=5)
    assert np.array_equal(info["action_mask"], env.action_masks())
    illegal = np.flatnonzero(~env.action_masks())
    if illegal.size == 0:
        pytest.skip("every action is legal at this game's first decision")
    before = env.aec.get_state()
    with pytest.raises(ValueError, match="illegal"):
        env.step(int(illegal[0]))
    assert np.array_equal(env.aec.get_state(), before)
    penalized = TreasureGymEnv(name, opponents="random")  # the default: PettingZoo's convention
    _, first = penalized.reset(seed=5)
    for bad in (-1, env.action_space.n, 1.5, None, True):  # not an integer in range: always an error
        with pytest.raises(ValueError, match="not an integer"):
            penalized.step(bad)
    _, reward, terminated, truncated, info = penalized.step(int(illegal[0]))
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, 1)
    assert set(info) == set(first), "the same info keys at every step"
    assert not penalized.action_masks().any() and not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        penalized.step(0)


def test_bad_wrapper_arguments_are_errors():
    with pytest.raises(ValueError, match="learner_seat"):
        TreasureGymEnv("nakbe", learner_seat=4, num_players=4)
    with pytest.raises(ValueError, match="unknown agent"):
        TreasureGymEnv("nakbe", opponents="genius")
    with pytest.raises(ValueError, match="one per other seat"):
        TreasureGymEnv("nakbe", opponents=["bot", "random"], num_players=4)
    with pytest.raises(ValueError, match="num_players"):
        TreasureGymEnv("nakbe", num_players=99)
    with pytest.raises(ValueError, match="reset options"):
        TreasureGymEnv("nakbe").reset(seed=0, options={"seat": 1})
    with pytest.raises(RuntimeError, match="reset"):
        TreasureGymEnv("nakbe").step(0)


# -- the learner's reward --------------------------------------------------------------------
# The default tier stops once both endings were seen, after at least MIN_OUTCOME_EPISODES (random
# Pharaoh games run to thousands of decisions); the long tier plays all OUTCOME_EPISODES.
OUTCOME_EPISODES = 300
MIN_OUTCOME_EPISODES = 20


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("reward_mode", ["win_loss", "score_diff"])
def test_the_learner_gets_its_own_outcome_whoever_ends_the_game(name, reward_mode):
    check_the_learners_outcome(name, reward_mode, stop_early=True)


@pytest.mark.long
@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("reward_mode", ["win_loss", "score_diff"])
def test_the_learner_gets_its_own_outcome_whoever_ends_the_game_long(name, reward_mode):
    check_the_learners_outcome(name, reward_mode, stop_early=False)


def check_the_learners_outcome(name: str, reward_mode: str, stop_early: bool) -> None:
    game = get_game(name)
    players = max(game.min_players, 2)  # an opponent must be able to end the game
    env = TreasureGymEnv(name, opponents=RecordingRandom, num_players=players, reward=reward_mode)
    rng = np.random.default_rng(0)
    ended_by = {"learner": 0, "opponent": 0, "opponent, other reward": 0}
    for episode in range(OUTCOME_EPISODES):
        both_seen = ended_by["learner"] > 0 and ended_by["opponent, other reward"] > 0
        if stop_early and both_seen and episode >= MIN_OUTCOME_EPISODES:
            break
        obs, info = env.reset(seed=episode)
        terminated = truncated = False
        while not (terminated or truncated):
            state = env.aec.get_state()
            assert state[CURRENT_PLAYER] == env.learner_seat and not state[TERMINAL]
            RecordingRandom.moves = []
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            obs, reward, terminated, truncated, info = env.step(action)
            assert not (terminated and truncated)
            if not terminated:
                assert reward == 0.0  # a guard cut (truncated) has no outcome either
        if truncated:  # random Pharaoh games now and then reach the guard: no result to check
            continue
        final = game.final_info(env.aec.get_state())
        seat = env.learner_seat
        scores = np.array(final["score"], dtype=float)
        if reward_mode == "win_loss":
            expected = 1.0 if final["winner"][seat] else -1.0
        else:
            expected = scores[seat] - np.delete(scores, seat).mean()
        assert reward == pytest.approx(expected)
        assert info["learner_seat"] == seat and info["winner"] == final["winner"][seat]
        if not RecordingRandom.moves:
            ended_by["learner"] += 1
        else:
            ended_by["opponent"] += 1
            last = RecordingRandom.moves[-1]
            last_reward = 1.0 if final["winner"][last] else -1.0
            if reward_mode == "score_diff":
                last_reward = scores[last] - np.delete(scores, last).mean()
            ended_by["opponent, other reward"] += last_reward != pytest.approx(expected)
    # Both endings happen, and the last mover's reward often differs from the learner's.
    assert ended_by["learner"] > 0 and ended_by["opponent, other reward"] > 0, ended_by


@pytest.mark.parametrize("name", GAME_NAMES)
def test_seats_rotate_and_can_be_fixed(name):
    game = get_game(name)
    n = game.default_players
    env = TreasureGymEnv(name, opponents="random")
    seats = {env.reset(seed=s)[1]["learner_seat"] for s in range(40)}
    assert seats == set(range(n))
    fixed = TreasureGymEnv(name, opponents="random", learner_seat=n - 1)
    assert {fixed.reset(seed=s)[1]["learner_seat"] for s in range(10)} == {n - 1}
    assert fixed.reset(seed=0, options={"learner_seat": 0})[1]["learner_seat"] == 0


def test_an_opponent_pool_mixes_fixed_opponents_and_snapshots():
    pool = OpponentPool("nakbe", fixed=["bot"], fixed_share=0.5, max_snapshots=2)
    rng = np.random.default_rng(0)
    assert set(pool.draw(rng, 3)) == {get_game("nakbe").bots["bot"]}  # no snapshots yet
    snapshots = [lambda seed, k=k: RandomAgent(seed + k) for k in range(3)]
    for snapshot in snapshots:
        pool.add(snapshot)
    assert pool.snapshots == snapshots[1:]  # the oldest dropped
    drawn = [f for _ in range(200) for f in pool.draw(rng, 3)]
    share = sum(f is get_game("nakbe").bots["bot"] for f in drawn) / len(drawn)
    assert 0.4 < share < 0.6 and set(drawn) - {get_game("nakbe").bots["bot"]} == set(snapshots[1:])
    with pytest.raises(ValueError, match="fixed_share"):
        OpponentPool("nakbe", fixed_share=1.5)


def test_importing_treasure_core_does_not_import_torch():
    code = "import sys, treasure_core; print('torch' in sys.modules, 'stable_baselines3' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


# -- the vectorised env, training, checkpoints, evaluation ---------------------------------------
@pytest.fixture(scope="module")
def sb3():
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    import treasure_apps.policy as policy

    return policy


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_vec_env_plays_the_same_games_as_single_envs(sb3, name):
    n_envs = 3
    bot = next(iter(get_game(name).bots), "random")
    vec = sb3.TreasureVecEnv(name, n_envs, opponents=bot)
    vec.seed(100)
    obs = vec.reset()
    singles = [TreasureGymEnv(name, opponents=bot) for _ in range(n_envs)]
    expected = [env.reset(seed=100 + i)[0] for i, env in enumerate(singles)]
    assert np.array_equal(obs, np.stack(expected))
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(60):
        masks = vec.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = vec.step(actions)
        for i, env in enumerate(singles):
            if env.is_over():
                continue
            single_obs, reward, terminated, _, _ = env.step(actions[i])
            assert reward == rewards[i] and terminated == dones[i]
            if terminated:
                finished += 1
                assert np.array_equal(infos[i]["terminal_observation"], single_obs)
                assert infos[i]["episode"]["r"] == reward
            else:
                assert np.array_equal(obs[i], single_obs)
    assert finished > 0


@pytest.mark.parametrize("name", GAME_NAMES)
def test_snapshot_opponents_play_batched_and_legal(sb3, name):
    from sb3_contrib import MaskablePPO

    vec = sb3.TreasureVecEnv(name, 4, opponents="random", seed=0)
    model = MaskablePPO("MlpPolicy", vec, n_steps=16, batch_size=16, seed=0, device="cpu")
    pool = OpponentPool(name, fixed=["random"], fixed_share=0.0)
    pool.add(sb3.PolicyAgent.snapshot(model.policy))
    vec = sb3.TreasureVecEnv(name, 4, opponents=pool, seed=0)
    vec.reset()
    assert all(isinstance(a, sb3.PolicyAgent) for env in vec.games for a in env.seat_agents if a is not None)
    rng = np.random.default_rng(2)
    dones_seen = 0
    for _ in range(MAX_DECISIONS):  # the AEC env raises on any illegal opponent move
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()])
        _, _, dones, _ = vec.step(actions)
        dones_seen += int(dones.sum())
        if dones_seen:  # random Pharaoh games run thousands of steps
            break
    assert dones_seen > 0


def _tiny_config(sb3_train):
    return sb3_train.TrainConfig(
        steps=256,
        n_envs=2,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        snapshot_every=128,
        eval_every=128,
        eval_games=1,  # one game each: an untrained Pharaoh policy plays thousands of decisions
        checkpoint_every=128,
        net_arch=[16],
    )


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_short_training_run_saves_a_checkpoint_that_plays_a_game(sb3, name, tmp_path, capsys):
    from treasure_apps import evaluate, train

    game = get_game(name)
    players = max(game.min_players, 2)  # against opponents (solo has none to evaluate against)
    final = train.train(name, tmp_path, _tiny_config(train), progress=True, num_players=players)
    out, err = capsys.readouterr()  # off a terminal: plain lines, not a bar
    assert "\r" not in err and 1 <= err.count("training: ") <= 10, err
    lines = err.splitlines()
    last = "training: 256/256 learner steps (100%)"
    done = next(i for i, line in enumerate(lines) if line.startswith(last))
    # The run's time: the last line comes after the final evaluation, whose games it counts.
    evaluations = [i for i, line in enumerate(lines) if line.startswith("evaluation at 256 learner steps: ")]
    assert evaluations and max(evaluations) < done, err
    assert "games played (100%)" in lines[max(evaluations)], err
    assert "win rates at 0 learner steps: vs random " in out and "win rates at 256 learner steps" in out, out
    checkpoints = sorted((tmp_path / "checkpoints").glob("*.zip"))
    assert final.is_file() and [c.name for c in checkpoints] == ["model_128_steps.zip", "model_256_steps.zip"]
    player, settings = evaluate.policy_factory(game, str(checkpoints[0]))
    assert settings["game"] == name and settings["options"]["num_players"] == players
    aec = TreasureAECEnv(game, num_players=players)
    seats: list[Agent] = [player(p) for p in range(players)]
    info = play_game(aec, seats, seed=7)
    # An argmax policy may never finish a Nakum game: then the guard cuts it, with no winner.
    assert aec.is_over() and aec.is_truncated() != any(info["winner"])
    rows = evaluate.read_eval_log(tmp_path)
    assert {row["steps"] for row in rows} == {0, 128, 256}
    assert {row["opponent"] for row in rows} == {"random", *game.bots}
    png = evaluate.learning_curve(tmp_path, tmp_path / "curve.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert list(tmp_path.glob("events.out.tfevents.*")) and (tmp_path / "progress.csv").is_file()


def _run(add_subcommand, argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    add_subcommand(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.run(args)


def test_train_and_eval_commands(sb3, tmp_path, capsys):
    from treasure_apps import evaluate, train

    out = tmp_path / "run"
    argv = ["train", "nakbe", "--players", "2", "--steps", "256", "--envs", "2", "--out", str(out)]
    argv += ["--eval-every", "256", "--eval-games", "2", "--checkpoint-every", "256", "--no-progress"]
    argv += ["--final-games", "4"]
    assert _run(train.add_subcommand, argv) == 0
    assert "learning curve" in capsys.readouterr().out and (out / "learning_curve.png").is_file()
    model = str(out / "final_model.zip")
    argv = ["eval", "nakbe", "--checkpoint", model, "--games", "6", "--no-progress"]
    assert _run(evaluate.add_subcommand, argv) == 0
    text = capsys.readouterr().out
    assert "2 players" in text and "random" in text and "bot" in text and "95% interval" in text
    argv = ["eval", "nakbe", "--round-robin", f"random,bot,{model}", "--games", "4", "--no-progress"]
    assert _run(evaluate.add_subcommand, argv) == 0
    text = capsys.readouterr().out
    assert "Elo" in text and "final_model" in text
    curve = tmp_path / "curve.png"
    assert _run(evaluate.add_subcommand, ["eval", "nakbe", "--curve", str(out), "--out", str(curve)]) == 0
    assert curve.is_file()
    assert _run(evaluate.add_subcommand, ["eval", "nakbe"]) == 2
    assert "--checkpoint" in capsys.readouterr().err
    if "karuba" in game_names():  # a checkpoint is for the game it was trained on
        assert _run(evaluate.add_subcommand, ["eval", "karuba", "--checkpoint", model, "--games", "2"]) == 2
        assert "trained on nakbe" in capsys.readouterr().err
    assert _run(evaluate.add_subcommand, ["eval", "nakbe", "--checkpoint", str(tmp_path / "x.zip")]) == 2
    assert _run(train.add_subcommand, ["train", "nakbe", "--steps", "0", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "x.zip" in err and "steps" in err


# -- statistics --------------------------------------------------------------------------------
def test_wilson_interval():
    from treasure_apps.stats import wilson_interval

    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert 0 < wilson_interval(0, 10)[1] < 0.35


def test_elo_ratings_recover_known_strengths():
    from treasure_apps.evaluate import elo_ratings

    # A beats B 3 to 1 over many games: 400 * log10(3) = 190.8 Elo apart.
    games = np.array([[0, 40_000], [40_000, 0]], float)
    scores = np.array([[0, 30_000], [10_000, 0]], float)
    ratings = elo_ratings(scores, games)
    assert ratings[0] == 0 and ratings[1] == pytest.approx(-190.8, abs=0.5)
    # Three players on a line: B is 100 above A, C 100 above B; results are the expectations.
    truth = np.array([0.0, 100.0, 200.0])
    expect = 1 / (1 + 10 ** ((truth[None, :] - truth[:, None]) / 400))
    games = np.full((3, 3), 100_000.0) - np.diag([100_000.0] * 3)
    assert elo_ratings(expect * games, games) == pytest.approx(truth, abs=0.5)
    # A clean sweep stays finite.
    assert np.isfinite(elo_ratings(np.array([[0, 10.0], [0, 0]]), np.array([[0, 10.0], [10, 0]]))).all()


def test_match_scores_and_win_rates_count_seats_as_documented(monkeypatch):
    from treasure_apps import evaluate
    from treasure_core.agents import agent_factory

    game = get_game("nakbe")
    options = game.validate({"num_players": 4})
    random_player = agent_factory(game, "random")
    outcome = {"winner": [True, False, False, False]}
    monkeypatch.setattr(evaluate, "play_game", lambda aec, agents, seed: outcome)
    # Seat 0 always wins: `first` holds it on even games only.
    assert evaluate.match_score(game, options, random_player, random_player, 10) == 0.5
    assert evaluate.win_rate(game, options, random_player, random_player, 10).wins == 3  # games 0, 4, 8
    outcome["winner"] = [True, True, False, False]  # seats 0 and 1 share: half a point each game
    assert evaluate.match_score(game, options, random_player, random_player, 10) == 0.5
    outcome["winner"] = [True, False, True, False]  # even seats: `first` on even games
    assert evaluate.match_score(game, options, random_player, random_player, 3) == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="at least 1"):
        evaluate.win_rate(game, options, random_player, random_player, 0)


def test_examples_exist():
    examples = Path(__file__).parent.parent / "examples"
    for name in ["train_maskable_ppo.py", "selfplay_pool.py", "random_rollouts.py"]:
        assert (examples / name).is_file()


def test_eval_in_solo_reports_one_rate_against_the_in_kernel_opponent(capsys):
    from treasure_apps import evaluate

    if "nakum" not in game_names():
        pytest.skip("needs a game with a solo mode")
    argv = ["eval", "nakum", "--players", "1", "--checkpoint", "bot", "--games", "4", "--no-progress"]
    assert _run(evaluate.add_subcommand, argv) == 0
    text = capsys.readouterr().out
    assert "solo" in text and "in-kernel" in text and text.count("[") == 1, text


# Sampled moves in every game (an untrained argmax policy may loop until the guard cuts a game,
# which takes minutes one decision at a time); argmax in Nakbe, whose games always end.
# Pharaoh's near-random games run to thousands of decisions: 3 minutes, in the long tier.
SIDE_BY_SIDE = [
    pytest.param(name, False, marks=[pytest.mark.long] if name == "pharaoh" else []) for name in GAME_NAMES
]


@pytest.mark.parametrize("name, deterministic", [*SIDE_BY_SIDE, ("nakbe", True)])
def test_a_policy_plays_the_same_games_side_by_side_as_one_by_one(sb3, name, deterministic):
    """evaluate._series batches a network's decisions over games in flight; wrapped so that it
    cannot batch, the same agents play the same games one at a time."""
    from sb3_contrib import MaskablePPO

    from treasure_apps import evaluate

    game = get_game(name)
    players = max(game.min_players, 2)
    options = {"num_players": players}
    env = sb3.TreasureVecEnv(game, 1, opponents="random", seed=0, **options)
    policy = MaskablePPO("MlpPolicy", env, seed=0, device="cpu", n_steps=64, batch_size=64).policy.eval()

    class OneByOne(Agent):
        def __init__(self, inner: Agent):
            self.inner = inner

        def act(self, aec, agent):
            return self.inner.act(aec, agent)

    def seating(wrap):
        def seats(g, n):
            def learner(seed):
                agent = sb3.PolicyAgent(policy, seed, deterministic=deterministic)
                return OneByOne(agent) if wrap else agent

            return [learner if p == g % n else RandomAgent for p in range(n)]

        return seats

    side_by_side = list(evaluate._series(game, rules_options_of(game, options), seating(False), 6, seed=4))
    one_by_one = list(evaluate._series(game, rules_options_of(game, options), seating(True), 6, seed=4))
    assert [g for g, _, _ in side_by_side] == list(range(6))
    assert side_by_side == one_by_one


def rules_options_of(game, options):
    from treasure_core.game import rules_options

    return rules_options(game.validate(options))
