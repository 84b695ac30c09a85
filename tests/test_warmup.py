"""`treasure_core.warmup` and `treasure-envs warmup`: every kernel of a game is compiled or
loaded, and bad arguments are refused with a clear error."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from treasure_apps import cli
from treasure_apps.warmup import run_warmup
from treasure_core import batch_ops, tiers, warmup
from treasure_core.game import Kernels
from treasure_core.registry import game_names, get_game
from treasure_core.search import search_module


def test_compile_game_compiles_every_contract_kernel_and_every_bot() -> None:
    stages = warmup.compile_game("karuba")
    game = get_game("karuba")
    bots = [f"bot {name}" for name in game.bots]
    assert list(stages) == [*warmup.STAGES[:-1], *bots, "total"]
    assert warmup.STAGES == (
        "aec",
        "parts",
        "encoders",
        "hidden",
        "parallel",
        "batch",
        "playout",
        "search",
        "bots",
    )
    assert stages["total"] == pytest.approx(sum(v for k, v in stages.items() if k != "total"))
    # The batch forms are Python functions over the game's one parallel kernel: every form
    # reaches one signature of it (treasure_core.batch_ops).
    batch_kernel = tiers.generated_kernel(game, "batch_kernel")
    assert len(batch_kernel.signatures) == 1, batch_kernel.signatures
    contract = [name for name in Kernels._fields if name not in batch_ops.FORMS]
    missing = [name for name in contract if not getattr(game.kernels, name).signatures]
    missing += [name for name, bot in game.bots.items() if not bot.policy.signatures]
    search = search_module(game)
    searches = ("mcts_seed_trees", "mcts_simulate", "mcts_root_visits")
    missing += [name for name in searches if not getattr(search, name).signatures]
    assert not missing, f"not compiled by compile_game: {missing}"
    assert warmup.cache_dirs("karuba")


def test_compile_game_runs_the_stages_named_and_refuses_others() -> None:
    """An RLlib node's warm-up names its stages (treasure_adapters.rllib.RUNNER_STAGES); "aec"
    runs always but for "parts" alone (step's parts need no game), the others only when named."""
    bots = [f"bot {name}" for name in get_game("nakbe").bots]
    assert list(warmup.compile_game("nakbe", ("bots",))) == ["aec", *bots, "total"]
    assert list(warmup.compile_game("nakbe", ("encoders", "aec"))) == ["aec", "encoders", "total"]
    assert list(warmup.compile_game("nakbe", ("parts",))) == ["parts", "total"]
    assert list(warmup.compile_game("nakbe", ("parts", "hidden"))) == ["aec", "parts", "hidden", "total"]
    with pytest.raises(ValueError, match="unknown warm-up stage.s. cuda; choose from aec, parts, encoders"):
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


def test_the_units_run_every_stage_and_compile_every_driver_kernel_once() -> None:
    """Between them the units run compile_game's every stage and name every driver kernel once;
    a unit waits only for units before it (so a run cannot wait for ever)."""
    units = warmup.UNITS
    assert {stage for unit in units for stage in unit.stages} | {"aec"} == set(warmup.STAGES)
    named = [kernel for unit in units for kernel in unit.kernels or ()]
    assert sorted(named) == sorted(tiers.DRIVER_KERNELS)
    assert all(unit.kernels is not None for unit in units)  # None would compile them all again
    for index, unit in enumerate(units):
        assert set(unit.after) <= set(warmup.UNIT_NAMES[:index]), unit
    with pytest.raises(
        ValueError, match="units must be a collection of names from step parts, step, observe"
    ):
        warmup.run_units(["nakbe"], 2, ["step", "lunch"])
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        warmup.run_units(["nakbe"], 0)


_COMPILING_ONLY_SCRIPT = """
import sys
from treasure_core.registry import get_game
from treasure_core.warmup import compile_game
compile_game("nakbe", ("aec",), kernels=("init",))
game, names = get_game("nakbe"), ("init", "legal_mask", "step", "observe")
print(sorted(name for name in names if getattr(game.kernels, name).signatures))
print(sorted(name for name in names if game.live.tier_of(name) == "compiled"))
"""


def test_a_unit_compiles_only_the_driver_kernels_it_names(tmp_path) -> None:
    """compile_game(kernels=...) with an empty cache: the kernels named compile, the others run
    their Python twins (nothing compiled for them, in this process or as a callee)."""
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    result = subprocess.run(
        [sys.executable, "-c", _COMPILING_ONLY_SCRIPT],
        capture_output=True,
        text=True,
        timeout=600,
        env=environment,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split("\n")[:2] == ["['init']", "['init']"], result.stdout
    with pytest.raises(ValueError, match="names must be driver kernels"):
        with tiers.compiling_only(["init", "mcts_simulate"]):
            pass


def test_warmup_on_two_processes_runs_each_unit_after_its_own(capsys: pytest.CaptureFixture) -> None:
    """One game on two processes (`warmup nakbe --jobs 2`): every unit reported as it ends, each
    after the units it waits for, and the game's figures."""
    results = run_warmup(["nakbe"], 2)
    out = capsys.readouterr().out
    ended = re.findall(r"\] nakbe: (.+) compiled or loaded in ", out)
    assert not get_game("nakbe").step_parts  # so it has no "step parts" unit to run
    units = warmup.units_of("nakbe")
    assert [unit.name for unit in units] == [name for name in warmup.UNIT_NAMES if name != "step parts"]
    assert sorted(ended) == sorted(unit.name for unit in units), out
    for unit in units:
        assert all(ended.index(other) < ended.index(unit.name) for other in unit.after if other in ended), out
    assert "nakbe ready at " in out and "1 game(s) ready in " in out and " with 2 process(es)" in out
    assert set(results["nakbe"]["units"]) == set(ended)
    assert results["nakbe"]["total"] > 0 and results["nakbe"]["cache"]


def test_a_unit_that_fails_stops_the_run_with_its_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that dies (here: its game is a module only this process has) ends run_units with
    the worker's last error line, and no worker is left running."""
    import dataclasses
    import types

    from treasure_core import registry

    module = types.ModuleType("ghost_env")
    module.GAME = dataclasses.replace(get_game("nakbe"), name="ghost")
    monkeypatch.setitem(sys.modules, "ghost_env", module)
    registry.register("ghost", "ghost_env")
    try:
        failed = r"the warm-up of ghost \(step\) failed: .*No module named 'ghost_env'"
        with pytest.raises(RuntimeError, match=failed):
            warmup.run_units(["ghost"], 1, ["step"])
    finally:
        registry.unregister("ghost")


_STEP_PARTS_SCRIPT = """
import sys
from treasure_core.registry import get_game
from treasure_core.warmup import compile_game
compile_game(sys.argv[1], ("parts",))  # at the types the game declares
compile_game(sys.argv[1], ("aec",), kernels=("step",))  # step, which calls them
print([len(helper.signatures) for helper, _ in get_game(sys.argv[1]).step_parts])
"""


@pytest.mark.long
@pytest.mark.parametrize("name", [name for name in game_names() if get_game(name).step_parts])
def test_step_parts_are_compiled_at_the_types_step_calls_them_with(name: str, tmp_path) -> None:
    """A game's step_parts, compiled first at their declared types, are what `step` links: with
    an empty cache, compiling step after them adds no second signature to any of them (a part
    declared at other types would compile twice, and the "step parts" unit save nothing)."""
    result = subprocess.run(
        [sys.executable, "-c", _STEP_PARTS_SCRIPT, name],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path)),
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == str([1] * len(get_game(name).step_parts)), result.stdout


def test_a_game_with_step_parts_runs_them_in_a_unit_before_step() -> None:
    """Nakum names parts of its step; the "step parts" unit compiles them, and `step` waits for it."""
    parts = get_game("nakum").step_parts
    assert parts and all(callable(helper) and isinstance(types, tuple) for helper, types in parts)
    assert [unit.name for unit in warmup.units_of("nakum")] == list(warmup.UNIT_NAMES)
    unit = warmup.UNITS[warmup.UNIT_NAMES.index("step")]
    assert unit.after == ("step parts",)
    assert warmup.UNITS[warmup.UNIT_NAMES.index("step parts")].stages == ("parts",)
