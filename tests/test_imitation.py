"""The warm start by imitation (treasure_apps.imitation), the recipes (treasure_apps.recipes) and
the train command's budget, teacher and final table."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from treasure_apps.imitation import collect
from treasure_apps.recipes import RECIPES, apply_recipe, recipe_command
from treasure_core.aec import TreasureAECEnv
from treasure_core.game import rules_options
from treasure_core.registry import game_names, get_game

README = Path(__file__).resolve().parents[1] / "README.md"
TEACHER = "mcts:sims=8"
# Pharaoh's games run to thousands of decisions (a teacher's whole game; an untrained argmax
# policy's games until the guard cuts them): its cases take minutes, in the long tier.
GAMES = [pytest.param(name, marks=[pytest.mark.long] if name == "pharaoh" else []) for name in game_names()]


def _options(name: str, players: int, reward: str = "score_diff") -> dict:
    game = get_game(name)
    return rules_options(game.validate({"num_players": players, "reward": reward}))


@pytest.mark.parametrize("name", GAMES)
def test_the_teacher_data_are_the_searchs_visits_from_each_seats_own_view(name):
    game = get_game(name)
    players = max(2, game.min_players)
    options = _options(name, players, "win_loss")
    data = collect(game, options, TEACHER, 40, seed=3, workers=2)
    dims = TreasureAECEnv(game, **options)
    assert len(data) >= 40 and data.games >= 1
    assert data.observations.shape == (
        len(data),
        dims.observation_space(dims.possible_agents[0])["observation"].shape[0],
    )
    assert data.masks.dtype == bool and data.masks.any(axis=1).all()
    assert np.allclose(data.targets.sum(axis=1), 1.0)
    assert not (data.targets * ~data.masks).any(), "a visit share off the legal actions"
    # win_loss: each return is ±1 (0 for a cut game) discounted by the decisions after it.
    assert np.all(np.abs(data.returns) <= 1.0 + 1e-6)
    # The data depend on the seed alone, not on the threads.
    again = collect(game, options, TEACHER, 40, seed=3, workers=1)
    assert np.array_equal(again.observations, data.observations)
    assert np.array_equal(again.targets, data.targets) and np.array_equal(again.returns, data.returns)


def test_the_returns_are_each_seats_final_reward_discounted_by_its_later_decisions():
    options = _options("nakbe", 2)
    data = collect(get_game("nakbe"), options, TEACHER, 1, seed=0, workers=1, gamma=0.5)
    assert data.games == 1
    finals = []
    for seat in (0, 1):
        returns = data.returns[data.seats == seat]
        assert returns.size >= 2
        assert np.allclose(returns[:-1], 0.5 * returns[1:]), "not halved decision by decision"
        finals.append(returns[-1])
    assert finals[0] != 0 and np.isclose(finals[0], -finals[1])  # score_diff with 2: zero-sum


@pytest.mark.parametrize("name", game_names())
def test_a_bots_teacher_data_are_its_own_moves_replayed(name):
    """A bot as the teacher: each target is its chosen action, and they replay its game."""
    game = get_game(name)
    players = max(2, game.min_players)
    options = _options(name, players)
    bot = next(iter(game.bots))
    data = collect(game, options, bot, 1, seed=5, workers=1)
    assert data.games == 1 and np.array_equal(data.targets.max(axis=1), np.ones(len(data)))
    assert not (data.targets * ~data.masks).any(), "a target off the legal actions"
    env = TreasureAECEnv(game, **options)
    env.reset(seed=5 * (players + 1) + players)  # the first game's deal (imitation._teacher_game)
    decided = 0
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        assert np.array_equal(env.features(agent), data.observations[decided])
        env.step(int(data.targets[decided].argmax()))
        decided += 1
    assert decided == len(data)
    again = collect(game, options, bot, 1, seed=5, workers=2)
    assert np.array_equal(again.targets, data.targets) and np.array_equal(again.returns, data.returns)


def test_bad_teachers_and_budgets_are_errors():
    game = get_game("nakbe")
    options = _options("nakbe", 2)
    for teacher in ("random", "nobody"):
        with pytest.raises(ValueError, match="the teacher must be the search or a bot"):
            collect(game, options, teacher, 10)
    with pytest.raises(ValueError, match="positive integer"):
        collect(game, options, TEACHER, 0)
    with pytest.raises(ValueError, match="mcts: unknown parameter"):
        collect(game, options, "mcts:simz=3", 10)


@pytest.fixture(scope="module")
def sb3():
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    import treasure_apps.policy as policy

    return policy


def test_cloning_fits_the_policy_to_the_teacher(sb3):
    import torch
    from sb3_contrib import MaskablePPO

    from treasure_apps.imitation import clone

    torch.manual_seed(0)
    game = get_game("nakbe")
    options = _options("nakbe", 2)
    data = collect(game, options, TEACHER, 400, seed=1, workers=2)
    env = sb3.TreasureVecEnv(game, 1, opponents="random", seed=0, **options)
    model = MaskablePPO("MlpPolicy", env, seed=0, device="cpu", n_steps=64, batch_size=64)
    before = clone(model.policy, data, epochs=0, held_out=0.5)
    # Fit on all of it (held_out is the share scored): the fit must beat the untrained network.
    after = clone(model.policy, data, epochs=30, held_out=0.05)
    assert after["cross_entropy"] < before["cross_entropy"]
    assert after["value_error"] < before["value_error"]
    assert after["agreement"] > before["agreement"]


def test_every_game_has_a_recipe_in_the_readme():
    text = README.read_text()
    assert set(RECIPES) == set(game_names())
    for name, recipe in RECIPES.items():
        game = get_game(name)
        assert game.min_players <= recipe.players <= game.max_players
        game.validate({"num_players": recipe.players, **recipe.options})
        for engine in ("sb3", "rllib"):
            assert recipe_command(name, engine) in text, f"the README lacks {recipe_command(name, engine)}"


def test_flags_beside_a_recipe_override_it_and_the_rest_take_the_defaults():
    args = argparse.Namespace(
        game="nakbe", recipe=True, players=None, option=["reward=win_loss"], minutes=None
    )
    args.teacher = "mcts:sims=9"
    apply_recipe(args, {"minutes": 0.0, "teacher": "", "eval_games": 200})
    recipe = RECIPES["nakbe"]
    assert args.players == recipe.players and args.minutes == recipe.settings["minutes"]
    assert args.teacher == "mcts:sims=9" and args.eval_games == 200
    assert args.option[-1] == "reward=win_loss"  # after the recipe's, so it wins
    plain = argparse.Namespace(game="nakbe", recipe=False, players=None, option=[], minutes=None)
    apply_recipe(plain, {"minutes": 0.0})
    assert plain.players is None and plain.minutes == 0.0 and plain.option == []
    with pytest.raises(ValueError, match="no recipe"):
        apply_recipe(argparse.Namespace(game="chess", recipe=True), {})


def _train(argv: list[str]) -> int:
    from treasure_apps.cli import build_parser

    args, args.game_flags = build_parser().parse_known_args(argv)
    return args.run(args)


@pytest.mark.parametrize("name", GAMES)
def test_each_recipe_runs_with_a_small_budget_and_ends_with_the_final_table(
    sb3, name, tmp_path, capsys, baselines, monkeypatch
):
    """Every setting of the recipe but its budget: the teacher, the network, the options."""
    out = tmp_path / "runs" / f"{name}_recipe"  # where benchmarks/baselines.py looks
    recipe = RECIPES[name]
    teacher = recipe.settings["teacher"]  # a search at a few simulations; a bot as it is
    teacher = TEACHER if teacher.startswith("mcts") else teacher
    given = {"steps": 128, "teacher": teacher, "teacher_decisions": 30, "eval_every": 128, "eval_games": 2}
    given |= {"final_games": 3, "checkpoint_every": 128, "n_envs": 2}
    argv = ["train", name, "--recipe", "--out", str(out), "--no-progress"]
    for key, value in given.items():
        argv += [f"--{'envs' if key == 'n_envs' else key.replace('_', '-')}", str(value)]
    assert _train(argv) == 0
    text = capsys.readouterr().out
    settings = json.loads((out / "run.json").read_text())
    assert settings["options"]["num_players"] == recipe.players
    assert all(settings["options"][key] == value for key, value in recipe.options.items())
    expected = recipe.settings | given
    assert {key: settings["config"][key] for key in expected} == expected
    teacher_file = json.loads((out / "teacher.json").read_text())
    assert teacher_file["teacher"] == teacher and teacher_file["samples"] >= 30
    rows = list(csv.DictReader((out / "final_eval.csv").open()))
    assert [row["opponent"] for row in rows] == ["random", next(iter(get_game(name).bots))]
    assert all(row["games"] == "3" for row in rows)
    assert "final evaluation (3 games per opponent)" in text and "95% interval" in text
    # The README's Results row and the learning curve, from this folder.
    markdown, runs = baselines.table(tmp_path / "runs")
    title = get_game(name).title
    assert markdown.count(f"| {title} | {recipe.players} | MaskablePPO |") == 1, markdown
    assert baselines.draw(name, runs, tmp_path).read_bytes()[:4] == b"\x89PNG"
    # The script at its defaults (--runs runs, --img docs/img, nothing kept), then with --keep:
    # the record makes the same row, and the picture, on its own.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["baselines.py"])
    baselines.main()
    assert markdown in capsys.readouterr().out and not (tmp_path / "record").exists()
    assert (tmp_path / "docs" / "img" / f"{name}_learning_curve.png").read_bytes()[:4] == b"\x89PNG"
    monkeypatch.setattr(sys, "argv", ["baselines.py", "--keep", "record", "--img", "img"])
    baselines.main()
    assert f"record: record/{out.name}" in capsys.readouterr().out
    assert len((tmp_path / "record" / out.name / "progress.csv").read_text().splitlines()) == 2
    kept, kept_runs = baselines.table(tmp_path / "record")
    assert kept == markdown and kept_runs[f"{name} sb3"]["curve"] == runs[f"{name} sb3"]["curve"]
    assert baselines.draw(name, kept_runs, tmp_path / "img").read_bytes()[:4] == b"\x89PNG"


def test_a_time_budget_ends_training_early(sb3, tmp_path, capsys):
    out = tmp_path / "budget"
    argv = ["train", "nakbe", "--players", "2", "--steps", "10000000", "--minutes", "0.05", "--envs", "2"]
    argv += ["--eval-every", "10000000", "--eval-games", "2", "--final-games", "2", "--out", str(out)]
    argv += ["--no-progress"]
    assert _train(argv) == 0
    steps = [int(row["steps"]) for row in csv.DictReader((out / "eval.csv").open())]
    assert (out / "final_model.zip").is_file() and 0 < max(steps) < 10_000_000


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--teacher", "random"], "the teacher must be the search or a bot"),
        (["--gamma", "0"], "gamma must be a number in (0, 1]"),
        (["--gamma", "1.5"], "gamma must be a number in (0, 1]"),
        (["--net-arch", "0,3"], "net_arch"),
        (["--minutes", "-1"], "minutes"),
        (["--final-games", "0"], "final_games"),
        (["--engine", "rllib", "--teacher", "mcts"], "sb3 engine"),
    ],
)
def test_bad_train_flags_are_errors_that_write_nothing(sb3, flags, message, tmp_path, capsys):
    out = tmp_path / "bad"
    assert _train(["train", "nakbe", "--out", str(out), *flags]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_a_recipe_on_rllib_takes_its_game_settings_and_rllibs_own_ppo_settings(monkeypatch, tmp_path):
    pytest.importorskip("torch")
    from treasure_apps import rllib_train

    seen = {}

    def fake_train(game, out, config, progress=True, **options):
        seen.update(config=config, options=options)
        raise ValueError("stop here")  # no cluster: the settings are what is checked

    monkeypatch.setattr(rllib_train, "train", fake_train)
    assert _train(["train", "tomb", "--recipe", "--engine", "rllib", "--out", str(tmp_path / "r")]) == 2
    recipe, defaults = RECIPES["tomb"], rllib_train.RLlibTrainConfig()
    config = seen["config"]
    assert seen["options"]["num_players"] == recipe.players and seen["options"]["reward"] == "score_diff"
    assert config.minutes == recipe.settings["minutes"] and config.bot_share == recipe.settings["fixed_share"]
    assert config.eval_every == recipe.settings["eval_every"]
    assert (config.learning_rate, config.entropy_coeff) == (defaults.learning_rate, defaults.entropy_coeff)
    assert config.net_arch == defaults.net_arch
    assert config.gamma == recipe.settings.get("gamma", defaults.gamma)  # the game's horizon
    assert _train(["train", "tomb", "--recipe", "--engine", "rllib", "--learning-rate", "0.001"]) == 2
    assert seen["config"].learning_rate == 0.001


@pytest.mark.long
def test_the_teacher_at_its_default_count_of_decisions(sb3, tmp_path, capsys):
    """--teacher with the default --teacher-decisions (40,000), the search at one simulation."""
    out = tmp_path / "default_teacher"
    argv = ["train", "nakbe", "--players", "2", "--teacher", "mcts:sims=1", "--steps", "128", "--envs", "2"]
    argv += ["--eval-every", "128", "--eval-games", "2", "--final-games", "2", "--out", str(out)]
    argv += ["--no-progress"]
    assert _train(argv) == 0
    teacher = json.loads((out / "teacher.json").read_text())
    assert 40_000 <= teacher["samples"] < 40_500 and teacher["teacher"] == "mcts:sims=1"


def test_the_final_tables_note_fits_a_solo_game():
    from treasure_apps.stats import WinRate
    from treasure_apps.train import final_table

    results = [("in-kernel", WinRate(3.0, 5, 0))]
    assert "seat rotated" not in final_table(results, 1) and "solo victory" in final_table(results, 1)
    assert "an equal player wins 1/2" in final_table([("random", WinRate(3.0, 5, 0))], 2)
