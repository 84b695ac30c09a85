"""Shared fixtures: every registered game, in every player count and option value
(treasure_core.conformance.configs), and the two tiers: the default suite, and the long one
(`pytest --long`) that adds the tests marked `long` (`pytest --long -m long`: those alone)."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

# numba's OpenMP threads spin while they wait for each other (GNU OpenMP's default), and a test
# run shares the cores between pytest-xdist's workers, the bounds-checked subprocesses and Ray:
# on a loaded machine a 6-game batch step took 2.2 ms at 2 threads against 36 us at one, and 53
# us at 2 threads with passive waiting, which puts a waiting thread to sleep. Set before numba
# loads its threading layer (at the first parallel kernel); subprocesses inherit it.
os.environ.setdefault("OMP_WAIT_POLICY", "passive")
# The suite compiles each kernel on its first call, in the process that calls it (numba's own
# behaviour, the "compile" tier of treasure_core.tiers): with an empty cache, the default tier
# would start a background compile in every worker and run the Python twins meanwhile.
# tests/test_tiers.py runs the default tier in subprocesses of its own.
os.environ.setdefault("TREASURE_ENVS_JIT", "compile")

from treasure_core.conformance import configs  # noqa: E402
from treasure_core.registry import all_games  # noqa: E402
from treasure_core.warmup import usable_cores  # noqa: E402


def _config_id(name: str, options: dict[str, Any]) -> str:
    return f"{name}-" + "-".join(f"{k}={v}" for k, v in options.items())


def _configs() -> list[Any]:
    """Every player count of every game at default options in the default suite; each other
    option value, and the combinations a game asks for (GameSpec.test_configs), in the long tier."""
    params = []
    for game in all_games():
        for options in configs(game):
            marks = () if set(options) == {"num_players"} else (pytest.mark.long,)
            params.append(pytest.param((game.name, options), id=_config_id(game.name, options), marks=marks))
    return params


CONFIGS = _configs()


@pytest.fixture(params=CONFIGS)
def config(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return request.param


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--long", action="store_true", help="also run the long tier (tests marked long)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "long: the long tier (exhaustive passes), run only with --long")
    # pytest-xdist's own marker, declared for a run without it: `--dist loadgroup` runs a group's
    # tests in one worker (the Ray tests: one local cluster at a time).
    config.addinivalue_line("markers", "xdist_group(name): tests run by one pytest-xdist worker")
    # pytest 9.2's structured node IDs drop pytest-xdist's groups silently (its issue 1386: two
    # Ray clusters at once, the bounds-checked passes in both workers), so such a run stops here.
    if _xdist_controller(config) and config.getvalue("dist") == "loadgroup" and not _pytest_below((9, 2)):
        raise pytest.UsageError(
            f"--dist loadgroup needs pytest below 9.2 (pytest-xdist issue 1386: pytest "
            f"{pytest.__version__} drops its groups); install pytest<9.2 (the dev extra pins it)"
        )


def _pytest_below(version: tuple[int, int]) -> bool:
    return tuple(int(part) for part in pytest.__version__.split(".")[:2]) < version


# A run of at least this many tests compiles every game first, one process per game on every
# core: with an empty numba cache the compile is split between the cores (166 s for the five
# games on two cores in CI) and the tests load the machine code; with a warm cache it costs
# the few seconds of loading it.
# TREASURE_TEST_WARMUP=1 forces it, =0 turns it off.
WARMUP_MIN_TESTS = 200


def _source_size(name: str) -> int:
    from treasure_core.registry import module_of

    package = Path(importlib.import_module(module_of(name)).__file__).parent
    return sum(path.stat().st_size for path in package.rglob("*.py"))


def _xdist_worker(config: pytest.Config) -> bool:
    """Whether this process is one of pytest-xdist's workers (`pytest -n N`)."""
    return hasattr(config, "workerinput")


def _xdist_controller(config: pytest.Config) -> bool:
    """Whether this process hands the tests to pytest-xdist's workers (it collects none)."""
    return not _xdist_worker(config) and bool(getattr(config.option, "numprocesses", None))


def pytest_collection_finish(session: pytest.Session) -> None:
    if _xdist_worker(session.config):
        return  # the controller warmed up; a worker's bounds-checked tests start their runs in the fixture
    _warm_up(session, len(session.items))
    _start_bounds_checked_runs(session)


def _warm_up(
    session: pytest.Session, tests: int, then: Callable[[pytest.Config], None] = lambda config: None
) -> None:
    """Compile every game (see WARMUP_MIN_TESTS), calling `then` once the games are queued."""
    wanted = os.environ.get("TREASURE_TEST_WARMUP")
    if wanted == "0" or (wanted != "1" and tests < WARMUP_MIN_TESTS):
        then(session.config)
        return
    from treasure_apps.warmup import run_warmup
    from treasure_core.registry import game_names

    # The longest compile first, so that the last game to start is a short one: the games by
    # the size of their package's source, largest first (Nakum's compiles longest, Karuba's
    # shortest; registered last and first, the cores ended with Nakum alone).
    games = sorted(game_names(), key=_source_size, reverse=True)
    start = time.perf_counter()
    pool = session.config.stash.get(CORE_POOL, None)
    if pool is None:
        with contextlib.redirect_stdout(io.StringIO()):
            run_warmup(games, jobs=min(len(games), usable_cores()))
        then(session.config)
    else:  # a pool of the cores: the games first, one process each, then what `then` queues
        warming = [pool.submit(_warm_up_in_subprocess, name) for name in games]
        then(session.config)
        for future in warming:
            future.result()
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(
            f"warm-up: {len(games)} games compiled or loaded in {time.perf_counter() - start:.1f} s"
            f" on {min(len(games), usable_cores())} processes (TREASURE_TEST_WARMUP=0 skips it)"
        )


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[BOUNDS_CHECKED_RUNS] = {}
    if _xdist_controller(session.config):
        # `pytest -n N`: the controller collects nothing, so it compiles every game here, before
        # its workers start (this hook runs before xdist's own); the workers load the cache.
        # The bounds-checked runs queue behind the warm-up on the same cores: each starts as a
        # warm-up process ends (its last game compiled alone, the other core idle), and runs
        # on while the workers test.
        session.config.stash[CORE_POOL] = ThreadPoolExecutor(
            max_workers=usable_cores(), thread_name_prefix="cores"
        )
        _warm_up(session, WARMUP_MIN_TESTS, then=_start_bounds_checked_runs_for_workers)


# The bounds-checked adversarial runs (tests/test_adversarial.py) are subprocesses that compile
# their game again with NUMBA_BOUNDSCHECK=1 (about a minute of compiling for the default tier's
# five on two cores). In one process, a run of WARMUP_MIN_TESTS tests or more starts them once
# the warm-up is done, on every core but one, while the other tests run on the remaining core,
# and their tests run last to read the results; under pytest-xdist the controller starts them
# (_start_bounds_checked_runs_for_workers, below).
BOUNDS_CHECKED_TEST = "test_corrupt_states_are_refused_or_play_on_with_bounds_checking"
# (game, batch) -> its run: batch says whether the run takes the batch runner's entry points too.
BOUNDS_CHECKED_RUNS = pytest.StashKey[dict[tuple[str, bool], Future]]()


def bounds_checked_runs_wanted(items: list[pytest.Item]) -> list[tuple[str, bool]]:
    """The (game, batch) runs that the bounds-checked tests among `items` read, those skipped left out."""
    return [
        (item.callspec.params["name"], item.callspec.params["batch"])
        for item in items
        if getattr(item, "originalname", None) == BOUNDS_CHECKED_TEST and not item.get_closest_marker("skip")
    ]


def _start_bounds_checked_runs(session: pytest.Session) -> None:
    wanted = bounds_checked_runs_wanted(session.items)
    if not wanted or len(session.items) < WARMUP_MIN_TESTS:
        return  # a short run: the test's fixture runs them itself, on every core
    from treasure_core import adversarial

    pool = ThreadPoolExecutor(max_workers=max(1, usable_cores() - 1), thread_name_prefix="bounds-checked")
    session.config.stash[BOUNDS_CHECKED_RUNS] = {
        (name, batch): pool.submit(adversarial.run_in_subprocess, name, batch=batch) for name, batch in wanted
    }
    pool.shutdown(wait=False)


# pytest-xdist's controller runs the warm-up and the bounds-checked runs in one pool of
# subprocesses, one a core; each run's result goes to a file in the folder this variable names
# (the workers inherit it), with `started.json` listing the runs it started.
CORE_POOL = pytest.StashKey[ThreadPoolExecutor]()
BOUNDS_CHECKED_DIR = "TREASURE_TEST_BOUNDS_CHECKED_DIR"
# The batch runner's entry points are one generated template (treasure_core.codegen) over each
# game's kernels, and compiling them is most of a bounds-checked run: the default tier takes them
# on one game (a simultaneous one), the long tier on every other.
BOUNDS_CHECKED_BATCH_GAME = "karuba"


def bounds_checked_runs_of_tier(long: bool) -> list[tuple[str, bool]]:
    """The (game, batch) runs of the default tier, or of the long tier (`long`)."""
    from trajectories import in_tree

    games = [game.name for game in all_games() if in_tree(game)]
    if long:
        return [(name, True) for name in games if name != BOUNDS_CHECKED_BATCH_GAME]
    return [(name, name == BOUNDS_CHECKED_BATCH_GAME) for name in games]


def _bounds_checked_runs_of_command(config: pytest.Config) -> list[tuple[str, bool]]:
    """The runs a whole-suite command will test (the README's two, or plain `pytest [--long]`):
    none when it names tests, keywords or other marks, where the workers start what they need."""
    if config.args_source != pytest.Config.ArgsSource.TESTPATHS or config.option.keyword:
        return []
    long, marks = config.getoption("--long"), config.option.markexpr
    if marks == "long" and long:
        return bounds_checked_runs_of_tier(long=True)
    if not marks:
        return bounds_checked_runs_of_tier(long=False) + (
            bounds_checked_runs_of_tier(long=True) if long else []
        )
    return []


def _warm_up_in_subprocess(name: str) -> None:
    command = [sys.executable, "-m", "treasure_apps.cli", "warmup", name, "--jobs", "1"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"`treasure-envs warmup {name}` failed:\n{(done.stdout + done.stderr)[-4000:]}")


def _bounds_checked_run_to_file(name: str, batch: bool, folder: str) -> None:
    from treasure_core import adversarial

    try:
        code, output = adversarial.run_in_subprocess(name, batch=batch)
    except Exception as error:  # a timeout, say: the test reports it rather than wait for ever
        code, output = -1, f"the bounds-checked run did not finish: {error!r}"
    path = Path(folder) / f"{name}-{int(batch)}.json"
    path.with_suffix(".part").write_text(json.dumps({"code": code, "output": output}))
    os.replace(path.with_suffix(".part"), path)


def _start_bounds_checked_runs_for_workers(config: pytest.Config) -> None:
    runs = _bounds_checked_runs_of_command(config)
    pool = config.stash[CORE_POOL]
    if not runs:
        return
    folder = tempfile.mkdtemp(prefix="treasure-bounds-checked-")
    (Path(folder) / "started.json").write_text(json.dumps(runs))
    os.environ[BOUNDS_CHECKED_DIR] = folder
    config.stash[BOUNDS_CHECKED_RUNS] = {
        (name, batch): pool.submit(_bounds_checked_run_to_file, name, batch, folder) for name, batch in runs
    }


def bounds_checked_result_from_controller(
    name: str, batch: bool, timeout: float = 3600
) -> tuple[int, str] | None:
    """In a pytest-xdist worker: the run's (exit code, output) once the controller's run of it
    ends, or None when the controller did not start it."""
    folder = os.environ.get(BOUNDS_CHECKED_DIR)
    if not folder or [name, batch] not in json.loads((Path(folder) / "started.json").read_text()):
        return None
    path = Path(folder) / f"{name}-{int(batch)}.json"
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"the controller's bounds-checked run of {name} (batch={batch}) never ended")
        time.sleep(0.5)
    result = json.loads(path.read_text())
    return result["code"], result["output"]


def pytest_sessionfinish(session: pytest.Session) -> None:
    for run in session.config.stash.get(BOUNDS_CHECKED_RUNS, {}).values():
        run.cancel()  # those not started yet, when the run stops early (-x)
    pool = session.config.stash.get(CORE_POOL, None)
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)  # a run started goes on to its end
        if BOUNDS_CHECKED_DIR in os.environ:
            shutil.rmtree(os.environ.pop(BOUNDS_CHECKED_DIR), ignore_errors=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The bounds-checked tests last (a stable sort keeps the rest in order): see above.
    items.sort(key=lambda item: getattr(item, "originalname", None) == BOUNDS_CHECKED_TEST)
    if config.getoption("--long"):
        return
    skip = pytest.mark.skip(reason="the long tier runs with --long")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def baselines():
    """benchmarks/baselines.py (the README's Results table), a script rather than a package."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "baselines.py"
    spec = importlib.util.spec_from_file_location("baselines", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
