"""The adversarial module (treasure_core.adversarial) on every game of this repository, with
numba's bounds checking on, in a subprocess: corrupted states field by field and garbage
states, through every entry point. Each is refused with a clear error or plays on; a crash, an
out-of-bounds access or an observation outside its space fails. Then every in-range action,
legal or not, in real states: `step` must refuse each illegal one, the state unchanged. The
default tier takes the batch runner's entry points on one game, the long tier on the others
(conftest.bounds_checked_runs_of_tier). The last tests show that the harness can fail."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import (
    BOUNDS_CHECKED_RUNS,
    bounds_checked_result_from_controller,
    bounds_checked_runs_of_tier,
    bounds_checked_runs_wanted,
)
from numba import njit

from treasure_core import adversarial
from treasure_core.layout import Field
from treasure_core.registry import all_games, get_game
from treasure_core.warmup import usable_cores

# Every game's kernels in the default tier, the batch forms on one of them; the long tier the
# batch forms of the others (conftest.bounds_checked_runs_of_tier).
BOUNDS_CHECKED = [
    pytest.param(name, batch, id=name if batch else f"{name}-kernels")
    for name, batch in bounds_checked_runs_of_tier(long=False)
]
BOUNDS_CHECKED += [
    pytest.param(name, batch, id=f"{name}-batch", marks=pytest.mark.long)
    for name, batch in bounds_checked_runs_of_tier(long=True)
]


@pytest.fixture(scope="module")
def bounds_checked_runs(request: pytest.FixtureRequest) -> dict[tuple[str, bool], tuple[int, str]]:
    """Every (game, batch) run that the bounds-checked tests of this session read: each compiles
    its game again with bounds checking, and the compile is most of its time. A long run started
    them in the background after the warm-up (conftest.BOUNDS_CHECKED_RUNS), or pytest-xdist's
    controller did (read here as they end); the others run here, one subprocess per core."""
    started = request.config.stash.get(BOUNDS_CHECKED_RUNS, {})
    wanted = bounds_checked_runs_wanted(request.session.items)
    results = {key: bounds_checked_result_from_controller(*key) for key in wanted if key not in started}
    missing = [key for key, result in results.items() if result is None]
    with ThreadPoolExecutor(max_workers=max(1, min(usable_cores(), len(missing) or 1))) as pool:
        runs = list(pool.map(lambda key: adversarial.run_in_subprocess(key[0], batch=key[1]), missing))
    results |= dict(zip(missing, runs, strict=True))
    return results | {key: run.result() for key, run in started.items()}


# In one pytest-xdist worker (`--dist loadgroup`), so that the fixture runs once.
@pytest.mark.xdist_group("bounds_checked")
@pytest.mark.parametrize(("name", "batch"), BOUNDS_CHECKED)
def test_corrupt_states_are_refused_or_play_on_with_bounds_checking(
    name: str, batch: bool, bounds_checked_runs: dict[tuple[str, bool], tuple[int, str]]
) -> None:
    code, output = bounds_checked_runs[name, batch]
    print(output)
    assert code == 0, output[-4000:]
    counts = re.search(
        r"(\d+) cases, (\d+) refused, (\d+) played on, (\d+) actions stepped "
        r"\((\d+) illegal refused, (\d+) illegal played; (\d+) through the unchecked batch step\), "
        r"0 failures",
        output,
    )
    assert counts, output
    tried, refused, played, actions, illegal_refused, illegal_played, batch_actions = (
        int(count) for count in counts.groups()
    )
    assert tried == refused + played and refused > 0 and played > 0, output
    assert actions > 0, output  # every in-range action, legal or not, in real states
    # and each through BatchRunner(check_actions=False), its `refused` what step refused
    assert (0 < batch_actions <= actions) if batch else batch_actions == 0, output
    # step refuses every illegal in-range action, changing nothing (issue 25 item 2).
    assert illegal_refused > 0 and illegal_played == 0, output


def test_a_validator_that_lets_bad_states_through_fails() -> None:
    """Ranges too wide for the kernels: the harness reports the states that break the game."""
    game = get_game("nakbe")
    wide = tuple(part._replace(low=-5, high=10**6) for part in game.state_fields)
    report = adversarial.run(dataclasses.replace(game, state_fields=wide), {}, max_cases=400)
    assert report.failures, report.line()


@njit
def _batch_step_that_steps_nothing(states, actions, params, rewards_out, dones_out, truncated_out):
    rewards_out[:] = 0.0
    dones_out[:] = False
    truncated_out[:] = False


def test_an_unchecked_batch_step_that_refuses_what_step_plays_fails() -> None:
    """The batch half of every_action: a batch step that refuses legal actions too (here it
    steps nothing) is reported, because its `refused` differs from what step refused."""
    game = get_game("nakbe")
    kernels = game.kernels._replace(batch_step=_batch_step_that_steps_nothing)
    broken = dataclasses.replace(game, kernels=kernels)
    report = adversarial.Report(game.name, {})
    adversarial.every_action(broken, {}, 0, report)
    assert any("`refused` differs" in failure for failure in report.failures), report.line()


def test_bounds_checking_turns_an_out_of_bounds_read_into_an_error() -> None:
    """What the subprocess relies on: with NUMBA_BOUNDSCHECK=1 (and a cache of its own) an
    out-of-bounds index raises IndexError instead of reading past the array."""
    script = textwrap.dedent(
        """
        import numpy as np
        from numba import njit

        @njit
        def read(values, index):
            return values[index]

        try:
            read(np.zeros(3), 7)
        except IndexError:
            print("IndexError")
        """
    )
    env = {"NUMBA_BOUNDSCHECK": "1", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.stdout.strip() == "IndexError", done.stdout + done.stderr


def test_a_crash_in_the_subprocess_is_a_failure_not_the_end_of_the_run(monkeypatch) -> None:
    monkeypatch.setattr(adversarial, "module_of", lambda game: "no_such_module_anywhere")
    code, output = adversarial.run_in_subprocess("nakbe", timeout=300)
    assert code != 0 and "no_such_module_anywhere" in output


def test_every_field_of_every_game_has_a_range() -> None:
    for game in all_games():
        assert game.state_fields and all(isinstance(part, Field) for part in game.state_fields), game.name


def test_the_two_tiers_bounds_check_every_game_and_every_batch_form():
    """The default tier: every game's own kernels, the batch forms on one; the long tier the
    batch forms of each other game, so that the two together check every entry point."""
    default, long = bounds_checked_runs_of_tier(long=False), bounds_checked_runs_of_tier(long=True)
    games = sorted(name for name, _ in default)
    assert len(games) == len(set(games)) >= 5
    assert sum(batch for _, batch in default) == 1 and all(batch for _, batch in long)
    assert sorted(name for name, batch in default + long if batch) == games
