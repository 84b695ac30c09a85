"""Replay files: what selfplay --record and eval --record write replays exactly (the same final
state and result), a bad file is a clear ValueError, and `replay --html` writes one page."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from treasure_apps import cli
from treasure_apps.replay import (
    REPLAY_FORMAT,
    RecordingAgent,
    load_replay,
    replay,
    replay_page,
    replay_record,
    write_replay,
)
from treasure_apps.web.server import board_view
from treasure_core.aec import TreasureAECEnv
from treasure_core.agents import agent_factory, play_game
from treasure_core.registry import all_games, get_game


@pytest.mark.parametrize("name", [game.name for game in all_games()])
def test_a_recorded_game_replays_to_the_same_final_state(name: str, tmp_path: Path) -> None:
    game = get_game(name)
    options = game.validate({"num_players": 3 if game.max_players >= 3 else game.max_players})
    env = TreasureAECEnv(game, **options)
    kinds = [next(iter(game.bots), "random"), "random", "random"]
    for seed in (5, 6):
        actions: list[int] = []
        agents = [
            RecordingAgent(agent_factory(game, kind)(seed + p), actions) for p, kind in enumerate(kinds)
        ]
        info = play_game(env, agents[: options["num_players"]], seed)
        path = write_replay(tmp_path / f"{seed}.json", replay_record(game, options, seed, actions, kinds))
        done = replay(load_replay(path))
        assert np.array_equal(done.states[-1], env.get_state())
        assert done.env.is_over() and done.env.is_truncated() == env.is_truncated()
        assert game.final_info(done.states[-1], truncated=env.is_truncated()) == info


def test_selfplay_and_eval_record_games_that_replay(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert (
        cli.main(["selfplay", "tomb", "--games", "3", "--no-progress", "--record", str(tmp_path / "s")]) == 0
    )
    argv = ["eval", "nakbe", "--round-robin", "random,bot", "--games", "2", "--no-progress"]
    assert cli.main([*argv, "--record", str(tmp_path / "e")]) == 0
    capsys.readouterr()
    files = sorted((tmp_path / "s").glob("*.json")) + sorted((tmp_path / "e").glob("*.json"))
    assert len(files) == 3 + 2
    for path in files:
        record = load_replay(path)
        assert record["format"] == REPLAY_FORMAT and record["version"] == get_game(record["game"]).env_name
        done = replay(record)
        final = done.game.final_info(done.states[-1], truncated=done.env.is_truncated())
        assert done.env.is_over()
        assert final["score"] == record["result"]["score"] and final["winner"] == record["result"]["winner"]
    assert load_replay(files[0])["players"][0] in ("bot", "random")


def test_a_bad_replay_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    game = get_game("nakbe")
    good = replay_record(game, {"num_players": 2}, 1, [], ["random", "random"])
    cases = {
        "not json": "{",
        "no format": json.dumps({**good, "format": "other"}),
        "no seed": json.dumps({k: v for k, v in good.items() if k != "seed"}),
        "old version": json.dumps({**good, "version": "nakbe_v0"}),
        "illegal action": json.dumps({**good, "actions": [10**6]}),
    }
    for label, text in cases.items():
        path = tmp_path / f"{label}.json"
        path.write_text(text)
        with pytest.raises(ValueError) as error:
            replay(load_replay(path))
        assert len(str(error.value).splitlines()) <= 4, label
    assert "step 0 of the replay" in str(
        pytest.raises(ValueError, replay, json.loads(cases["illegal action"])).value
    )
    assert cli.main(["replay", str(tmp_path / "not json.json")]) == 2
    assert "not a replay file" in capsys.readouterr().err


def test_replay_html_is_one_page_with_every_viewer(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    game = get_game("karuba")
    options = game.validate({"num_players": 2})
    env = TreasureAECEnv(game, **options)
    actions: list[int] = []
    play_game(env, [RecordingAgent(agent_factory(game, "random")(p), actions) for p in range(2)], 3)
    path = write_replay(tmp_path / "k.json", replay_record(game, options, 3, actions, ["random", "random"]))
    out = tmp_path / "k.html"
    assert cli.main(["replay", str(path), "--html", str(out)]) == 0
    page = out.read_text()
    assert page == replay_page(replay(load_replay(path)))
    assert "<script" in page and "http" not in page.replace("http://www.w3.org", "")  # nothing fetched
    data = json.loads(page.split("const REPLAY = ", 1)[1].split(";\n", 1)[0])
    assert set(data["frames"]) == {"full", "0", "1"}
    assert all(len(frames) == len(actions) + 1 for frames in data["frames"].values())
    assert len(data["steps"]) == len(actions)
    done = replay(load_replay(path))
    for key, viewer in (("full", None), ("1", 1)):  # every board rebuilt from the piece table exactly
        for state, board in zip(done.states, data["frames"][key], strict=True):
            runs = data["boards"][board]["runs"]
            content = "".join("".join(data["pieces"][start : start + length]) for start, length in runs)
            assert content == board_view(game, state, viewer)["content"]
