"""Shared fixtures: every registered game, in every player count and option value."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from treasure_core.registry import all_games


def conformance_configs() -> list[tuple[str, dict[str, Any]]]:
    """(game, options) for every game: each player count at default options, each
    non-default value of every option at the default player count, then the combinations
    the game asks for (GameSpec.test_configs)."""
    configs: list[tuple[str, dict[str, Any]]] = []
    for game in all_games():
        for n in range(game.min_players, game.max_players + 1):
            configs.append((game.name, {"num_players": n}))
        for option in game.options:
            if option.name in ("num_players", "illegal_action"):
                continue
            for choice in option.choices:
                if choice != option.default:
                    configs.append((game.name, {option.name: choice}))
        for options in game.test_configs:
            if (game.name, options) not in configs:
                configs.append((game.name, dict(options)))
    return configs


CONFIGS = conformance_configs()
CONFIG_IDS = [f"{name}-" + "-".join(f"{k}={v}" for k, v in options.items()) for name, options in CONFIGS]


@pytest.fixture(params=CONFIGS, ids=CONFIG_IDS)
def config(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return request.param


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))
