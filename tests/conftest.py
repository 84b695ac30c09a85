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
