"""Shared fixtures: every registered game, in every player count and option value
(treasure_core.conformance.configs)."""

from __future__ import annotations

from typing import Any

import pytest

from treasure_core.conformance import configs
from treasure_core.registry import all_games

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    (game.name, options) for game in all_games() for options in configs(game)
]
CONFIG_IDS = [f"{name}-" + "-".join(f"{k}={v}" for k, v in options.items()) for name, options in CONFIGS]


@pytest.fixture(params=CONFIGS, ids=CONFIG_IDS)
def config(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return request.param


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--long", action="store_true", help="also run the long fuzz (tests marked long)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "long: the long fuzz, run only with --long")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--long"):
        return
    skip = pytest.mark.skip(reason="the long fuzz runs with --long")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)
