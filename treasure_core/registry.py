"""The game registry: a name -> the module that exposes `GAME` (a GameSpec).

Games are found through the entry-point group `treasure_envs.games`: a distribution declares
each of its games once, in its pyproject.toml,

    [project.entry-points."treasure_envs.games"]
    nakbe = "nakbe_env"

and `register(name, module)` adds one at run time. The runtime imports a game only when asked
for it, and never by a static import: games sit above the runtime (docs/architecture.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from treasure_core.game import GameSpec

ENTRY_POINT_GROUP = "treasure_envs.games"

_modules: dict[str, str] | None = None  # name -> module, once discovered
_loaded: dict[str, GameSpec] = {}
_listeners: list[Callable[[str], None]] = []


def _games() -> dict[str, str]:
    global _modules
    if _modules is None:
        found = {point.name: point.value for point in entry_points(group=ENTRY_POINT_GROUP)}
        _modules = dict(sorted(found.items()))  # by name, whatever the installer's order
    return _modules


def register(name: str, module: str) -> None:
    """Register a game at run time: `module` (importable) must expose `GAME`, a GameSpec named
    `name`. Listeners (the Gymnasium adapter, say) hear of it at once."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"a game's name must be an identifier; got {name!r}")
    _games()[name] = module
    _loaded.pop(name, None)
    for listener in _listeners:
        listener(name)


def unregister(name: str) -> None:
    """Forget a game registered at run time (or found as an entry point) for this process."""
    _games().pop(name, None)
    _loaded.pop(name, None)


def on_register(listener: Callable[[str], None]) -> None:
    """Call `listener(name)` for every game registered from now on (an adapter's hook)."""
    _listeners.append(listener)


def game_names() -> list[str]:
    return list(_games())


def module_of(name: str) -> str:
    """The module that holds a registered game (for a subprocess to register it too)."""
    get_game(name)
    return _games()[name]


def get_game(name: str) -> GameSpec:
    games = _games()
    if name not in games:
        registered = ", ".join(map(repr, games)) or "none (is treasure-envs installed? pip install -e .)"
        raise ValueError(f"unknown game {name!r}; registered games are {registered}")
    if name not in _loaded:
        spec = getattr(importlib.import_module(games[name]), "GAME", None)
        if not isinstance(spec, GameSpec) or spec.name != name:
            raise ValueError(f"module {games[name]!r} must expose GAME, a GameSpec named {name!r}")
        _loaded[name] = spec
    return _loaded[name]


def all_games() -> list[GameSpec]:
    return [get_game(name) for name in _games()]


def make_env(name: str, **options: Any) -> Any:
    """The game's public `env(**options)`: the wrapped PettingZoo AEC env."""
    get_game(name)
    return importlib.import_module(_games()[name]).env(**options)
