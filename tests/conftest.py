"""Shared fixtures: every registered game, in every player count and option value
(treasure_core.conformance.configs), and the two tiers: the default suite, and the long one
(`pytest --long`) that adds the tests marked `long` (`pytest --long -m long`: those alone)."""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from treasure_core.conformance import configs
from treasure_core.registry import all_games
from treasure_core.warmup import usable_cores


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


def _warm_up(session: pytest.Session, tests: int) -> None:
    wanted = os.environ.get("TREASURE_TEST_WARMUP")
    if wanted == "0" or (wanted != "1" and tests < WARMUP_MIN_TESTS):
        return
    from treasure_apps.warmup import run_warmup
    from treasure_core.registry import game_names

    # The longest compile first, so that the last game to start is a short one: the games by
    # the size of their package's source, largest first (Nakum's compiles longest, Karuba's
    # shortest; registered last and first, the cores ended with Nakum alone).
    games = sorted(game_names(), key=_source_size, reverse=True)
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        run_warmup(games, jobs=min(len(games), usable_cores()))
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
        _warm_up(session, WARMUP_MIN_TESTS)


# The bounds-checked adversarial runs (tests/test_adversarial.py) are subprocesses that compile
# their game again with NUMBA_BOUNDSCHECK=1 (about two minutes of compiling for the five games
# on two cores): in a run of WARMUP_MIN_TESTS tests or more they start once the warm-up is done,
# on every core but one, while the other tests run on the remaining core, and their tests run
# last to read the results.
BOUNDS_CHECKED_TEST = "test_corrupt_states_are_refused_or_play_on_with_bounds_checking"
BOUNDS_CHECKED_RUNS = pytest.StashKey[dict[str, Future]]()


def _bounds_checked_games(items: list[pytest.Item]) -> list[str]:
    return [
        item.callspec.params["name"]
        for item in items
        if getattr(item, "originalname", None) == BOUNDS_CHECKED_TEST and not item.get_closest_marker("skip")
    ]


def _start_bounds_checked_runs(session: pytest.Session) -> None:
    games = _bounds_checked_games(session.items)
    if not games or len(session.items) < WARMUP_MIN_TESTS:
        return  # a short run: the test's fixture runs them itself, on every core
    from treasure_core import adversarial

    pool = ThreadPoolExecutor(max_workers=max(1, usable_cores() - 1), thread_name_prefix="bounds-checked")
    session.config.stash[BOUNDS_CHECKED_RUNS] = {
        name: pool.submit(adversarial.run_in_subprocess, name) for name in games
    }
    pool.shutdown(wait=False)


def pytest_sessionfinish(session: pytest.Session) -> None:
    for run in session.config.stash.get(BOUNDS_CHECKED_RUNS, {}).values():
        run.cancel()  # those not started yet, when the run stops early (-x)


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
