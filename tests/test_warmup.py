"""`treasure_core.warmup` and `treasure-envs warmup`: every kernel of a game is compiled or
loaded, and bad arguments are refused with a clear error."""

from __future__ import annotations

import pytest

from treasure_apps import cli
from treasure_apps.warmup import PARTS, plan, run_warmup
from treasure_core import warmup
from treasure_core.game import Kernels
from treasure_core.registry import get_game
from treasure_core.search import search_module


def test_compile_game_compiles_every_contract_kernel_and_every_bot() -> None:
    stages = warmup.compile_game("karuba")
    game = get_game("karuba")
    bots = [f"bot {name}" for name in game.bots]
    assert list(stages) == ["aec", "encoders", "parallel", "batch", "search", *bots, "total"]
    assert stages["total"] == pytest.approx(sum(v for k, v in stages.items() if k != "total"))
    missing = [name for name in Kernels._fields if not getattr(game.kernels, name).signatures]
    missing += [name for name, bot in game.bots.items() if not bot.policy.signatures]
    search = search_module(game)
    searches = ("mcts_seed_trees", "mcts_simulate", "mcts_root_visits")
    missing += [name for name in searches if not getattr(search, name).signatures]
    assert not missing, f"not compiled by compile_game: {missing}"
    assert warmup.cache_dirs("karuba")


def test_compile_game_runs_the_stages_named_and_refuses_others() -> None:
    """An RLlib node's warm-up names its stages (treasure_adapters.rllib.RUNNER_STAGES); "aec"
    runs always, the others only when named."""
    bots = [f"bot {name}" for name in get_game("nakbe").bots]
    assert list(warmup.compile_game("nakbe", ("bots",))) == ["aec", *bots, "total"]
    assert list(warmup.compile_game("nakbe", ("encoders", "aec"))) == ["aec", "encoders", "total"]
    with pytest.raises(ValueError, match="unknown warm-up stage.s. cuda; choose from aec, encoders"):
        warmup.compile_game("nakbe", ("aec", "cuda"))
    with pytest.raises(ValueError, match="stages must be a collection of names"):
        warmup.compile_game("nakbe", "aec")


def test_free_cores_is_at_least_one() -> None:
    assert warmup.free_cores() >= 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["warmup", "chess"], "unknown game(s) chess"),
        (["warmup", "nakbe", "--jobs", "0"], "--jobs must be at least 1"),
    ],
)
def test_bad_arguments_are_refused(argv: list[str], message: str, capsys: pytest.CaptureFixture) -> None:
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_plan_splits_a_game_in_two_where_the_cores_outnumber_the_games() -> None:
    """PARTS cover every stage; a game is split only for a core beyond one a game."""
    whole = warmup.STAGES
    assert {"aec", *PARTS[0], *PARTS[1]} == set(whole) and not set(PARTS[0]) & set(PARTS[1])
    assert plan(["nakum"], 2) == [("nakum", PARTS[0]), ("nakum", PARTS[1])]
    assert plan(["nakum"], 1) == [("nakum", whole)]
    assert plan(["nakum", "tomb"], 2) == [("nakum", whole), ("tomb", whole)]
    assert plan(["nakum", "tomb", "karuba"], 4) == [
        ("nakum", PARTS[0]),
        ("nakum", PARTS[1]),
        ("tomb", whole),
        ("karuba", whole),
    ]


def test_warmup_of_one_game_on_two_processes_compiles_both_parts(capsys: pytest.CaptureFixture) -> None:
    """One game on two processes (`warmup nakbe --jobs 2`): the batch forms in one, the rest in
    the other, each reported, and one game's figures with every stage."""
    results = run_warmup(["nakbe"], 2)
    out = capsys.readouterr().out
    assert "] nakbe (batch): compiled or loaded in " in out
    assert f"] nakbe ({', '.join(PARTS[1])}): compiled or loaded in " in out
    assert "1 game(s) ready in " in out and " with 2 process(es)" in out
    bots = [f"bot {name}" for name in get_game("nakbe").bots]
    assert set(results["nakbe"]["stages"]) == {*warmup.STAGES[:-1], *bots, "total"}
