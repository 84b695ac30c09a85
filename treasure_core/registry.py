"""The game registry: name -> the module that exposes `GAME` (a GameSpec).

Adding a game is one line in GAMES. treasure_core imports a game only when asked for it.
"""

from __future__ import annotations

import importlib
from typing import Any

from treasure_core.game import GameSpec

GAMES: dict[str, str] = {
    "nakbe": "nakbe_env",
    "karuba": "karuba_env",
}

_loaded: dict[str, GameSpec] = {}


def register(name: str, module: str) -> None:
    """Register a game from outside the library: `module` must expose `GAME`."""
    GAMES[name] = module
    _loaded.pop(name, None)
    from treasure_core.single_agent import register_gymnasium_envs

    register_gymnasium_envs()  # the new game gets its Gymnasium id too


def game_names() -> list[str]:
    return list(GAMES)


def get_game(name: str) -> GameSpec:
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; registered games are {', '.join(map(repr, GAMES))}")
    if name not in _loaded:
        _loaded[name] = importlib.import_module(GAMES[name]).GAME
    return _loaded[name]


def all_games() -> list[GameSpec]:
    return [get_game(name) for name in GAMES]


def make_env(name: str, **options: Any) -> Any:
    """The game's public `env(**options)`: the wrapped PettingZoo AEC env."""
    get_game(name)
    return importlib.import_module(GAMES[name]).env(**options)
