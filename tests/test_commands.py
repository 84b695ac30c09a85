"""Every command of `treasure-envs` run once with its defaults, as a new user types it: only a
budget is made small (games, steps, iterations), every other setting is the default. A default
that only the docs exercise is a default that breaks (the README's RLlib command once failed at
once on its default minibatch), so a new subcommand fails test_every_command_is_run here until
it has its run below."""

from __future__ import annotations

import builtins
import csv
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from treasure_apps import cli
from treasure_core.registry import game_names

# The commands run below; test_every_command_is_run keeps this in step with the parser.
RUN_HERE = {"list", "selfplay", "play", "train", "eval", "bench", "warmup", "serve", "replay"}


def _subcommands() -> set[str]:
    parser = cli.build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    return set(action.choices)


def test_every_command_is_run() -> None:
    missing = _subcommands() - RUN_HERE
    assert not missing, f"commands without a run with their defaults in this file: {sorted(missing)}"


def test_list(capsys: pytest.CaptureFixture) -> None:
    assert cli.main(["list"]) == 0
    assert "nakbe" in capsys.readouterr().out


def test_selfplay(capsys: pytest.CaptureFixture) -> None:
    assert cli.main(["selfplay", "karuba", "--games", "3"]) == 0
    assert "steps/s" in capsys.readouterr().out


def test_warmup(capsys: pytest.CaptureFixture) -> None:
    """`warmup` as typed: every game, on the free cores, each reported, and where the cache is."""
    assert cli.main(["warmup"]) == 0
    out = capsys.readouterr().out
    for name in game_names():  # each unit, then the game
        assert re.search(rf"\] {name}: step compiled or loaded in ", out), out
        assert f"{name} ready at " in out, out
    assert f"{len(game_names())} game(s) ready in " in out and "numba cache" in out


def test_play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """`play nakbe` as typed: the defaults (4 players, seat 0, bots), answering each prompt with
    the first legal action the screen lists."""

    def first_legal(prompt: str) -> str:  # "player_0, your move (3, 5, q to quit): " -> "3"
        return prompt.split("(", 1)[1].split(",")[0]

    monkeypatch.setattr(builtins, "input", first_legal)
    assert cli.main(["play", "nakbe", "--seed", "3"]) == 0
    assert "WINNER" in capsys.readouterr().out


# The tests that read sb3_checkpoint, in one pytest-xdist worker: a module fixture runs once per worker.
SHARES_THE_CHECKPOINT = pytest.mark.xdist_group("sb3_checkpoint")


@pytest.fixture(scope="module")
def sb3_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`train nakbe` with its defaults for one PPO update (16 games x 128 steps)."""
    pytest.importorskip("sb3_contrib")
    out = tmp_path_factory.mktemp("train")
    assert cli.main(["train", "nakbe", "--steps", "2048", "--out", str(out), "--no-progress"]) == 0
    return out / "final_model.zip"


@SHARES_THE_CHECKPOINT
def test_train_sb3(sb3_checkpoint: Path) -> None:
    assert sb3_checkpoint.is_file()
    assert (sb3_checkpoint.parent / "learning_curve.png").is_file()


@SHARES_THE_CHECKPOINT
def test_eval(sb3_checkpoint: Path, capsys: pytest.CaptureFixture) -> None:
    assert cli.main(["eval", "nakbe", "--checkpoint", str(sb3_checkpoint), "--games", "10"]) == 0
    out = capsys.readouterr().out
    assert "random" in out and "bot" in out


# Long tier: one iteration at the defaults took 204 s of the 11.5-minute default suite (a clean
# clone, 2026-12-06); the default suite trains on the two-node cluster in tests/test_rllib.py.
@pytest.mark.long
@pytest.mark.xdist_group("ray")  # with tests/test_rllib.py under pytest-xdist: one Ray at a time
def test_train_rllib(tmp_path: Path, capsys: pytest.CaptureFixture, baselines) -> None:
    """The README's RLlib command with every default (train batch, minibatch, games per env,
    env runners), for one PPO iteration: it once failed at once on minibatch > batch."""
    pytest.importorskip("ray")
    import ray

    argv = ["train", "nakbe", "--engine", "rllib", "--players", "2", "--option", "reward=score_diff"]
    out = tmp_path / "nakbe_recipe_rllib"  # where benchmarks/baselines.py looks
    try:
        assert cli.main([*argv, "--iterations", "1", "--out", str(out), "--no-progress"]) == 0
    finally:
        ray.shutdown()
    text = capsys.readouterr().out
    assert "checkpoint" in text and (out / "checkpoint").is_dir()
    # It ends with the final table, 1000 games a row by default, and a point of the curve at 0.
    assert "final evaluation (1000 games per opponent)" in text
    assert [row["games"] for row in csv.DictReader((out / "final_eval.csv").open())] == ["1000", "1000"]
    assert "0" in {row["steps"] for row in csv.DictReader((out / "eval.csv").open())}
    assert "| Treasures of Nakbe | 2 | RLlib PPO |" in baselines.table(tmp_path)[0]


def test_rllib_batch_sizes_are_consistent() -> None:
    """The minibatch fits in the per-learner batch, whatever the batch and games per env."""
    from treasure_apps.rllib_train import RLlibTrainConfig, batch_sizes

    for train_batch in (1, 128, 250, 4000, 8192):
        for games in (1, 16, 64):
            for minibatch in (1, 64, 512):
                config = RLlibTrainConfig(
                    train_batch=train_batch, games_per_env=games, minibatch_size=minibatch
                )
                per_learner, mini = batch_sizes(config)
                assert 1 <= mini <= per_learner and per_learner == max(1, train_batch // games)
    assert batch_sizes(RLlibTrainConfig()) == (250, 250)


def test_bench(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """`bench --quick` on one game, its other defaults kept (the peers included)."""
    assert cli.main(["bench", "--quick", "--games", "nakbe", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "bench.json").is_file() and np.any([p.suffix == ".md" for p in tmp_path.iterdir()])
    assert "nakbe" in capsys.readouterr().out


def _served(*arguments: str) -> str:
    """The command run as a user starts it, in its own process (a server owns its process:
    its signal handlers and its logging stay out of pytest's); its output."""
    done = subprocess.run(
        [sys.executable, "-m", "treasure_apps.cli", *arguments],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_serve() -> None:
    """`serve nakbe` with its defaults (127.0.0.1, port 8000 or a free one, the bot), for a
    second: the budget is --max-seconds."""
    pytest.importorskip("uvicorn")
    out = _served("serve", "nakbe", "--max-seconds", "1")
    assert "is at http://127.0.0.1:" in out and "stopped" in out


def test_replay(tmp_path: Path) -> None:
    """`replay FILE` served with its defaults for a second, and `replay FILE --html OUT`, on a
    game `selfplay --record` wrote."""
    pytest.importorskip("uvicorn")
    assert cli.main(["selfplay", "nakbe", "--games", "1", "--record", str(tmp_path)]) == 0
    (path,) = tmp_path.glob("*.json")
    assert "the replay is at http://127.0.0.1:" in _served("replay", str(path), "--max-seconds", "1")
    assert cli.main(["replay", str(path), "--html", str(tmp_path / "game.html")]) == 0
    assert (tmp_path / "game.html").read_text().startswith("<!DOCTYPE html>")
