"""The game registry: a name -> the module that exposes `GAME` (a GameSpec).

Games are found through the entry-point group `treasure_envs.games`: a distribution declares
each of its games once, in its pyproject.toml,

    [project.entry-points."treasure_envs.games"]
    nakbe = "nakbe_env"

and `register(name, module)` adds one at run time. The runtime imports a game only when asked
for it, and never by a static import: games sit above the runtime (docs/architecture.md).
"""

from __future__ import annotations

import copyreg
import dataclasses
import importlib
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from treasure_core.game import GameSpec

ENTRY_POINT_GROUP = "treasure_envs.games"

_discovered: dict[str, str] | None = None  # the entry points' name -> module, once read
_registered: dict[str, str] = {}  # register()'s, which win over an entry point of the same name
_removed: set[str] = set()
_loaded: dict[str, GameSpec] = {}
_listeners: list[Callable[[str], None]] = []


def _games() -> dict[str, str]:
    global _discovered
    if _discovered is None:
        # Reading every installed distribution's metadata takes tens of milliseconds: done once,
        # and only when a name is not already registered at run time.
        found = {point.name: point.value for point in entry_points(group=ENTRY_POINT_GROUP)}
        _discovered = dict(sorted(found.items()))  # by name, whatever the installer's order
    games = {name: module for name, module in _discovered.items() if name not in _removed}
    return games | _registered


def _module(name: str) -> str | None:
    if name in _registered:
        return _registered[name]
    return _games().get(name)


def register(name: str, module: str) -> None:
    """Register a game at run time: `module` (imported now) must expose `GAME`, a GameSpec
    named `name`. Listeners (the Gymnasium adapter, say) hear of it at once."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"a game's name must be an identifier; got {name!r}")
    spec = _load(name, module)  # a module that is not a game fails here, registering nothing
    _removed.discard(name)
    _games()  # reads the entry points, once
    if _discovered.get(name) == module:  # an installed game registered again stays installed
        _registered.pop(name, None)
    else:
        _registered[name] = module
    _loaded[name] = spec
    for listener in _listeners:
        listener(name)


def unregister(name: str) -> None:
    """Forget a game for this process, registered at run time or found as an entry point. (A
    Gymnasium id already made for it stays, and fails with the registry's error when made.)"""
    _registered.pop(name, None)
    _removed.add(name)
    _loaded.pop(name, None)


def on_register(listener: Callable[[str], None]) -> None:
    """Call `listener(name)` for every game registered from now on (an adapter's hook)."""
    _listeners.append(listener)


def game_names() -> list[str]:
    return list(_games())


def module_of(name: str) -> str:
    """The module that holds a registered game (for a subprocess to register it too)."""
    get_game(name)
    return _module(name)


def get_game(name: str) -> GameSpec:
    if name in _loaded:
        return _loaded[name]
    module = _module(name)
    if module is None:
        registered = ", ".join(map(repr, _games())) or "none (is treasure-envs installed? pip install -e .)"
        raise ValueError(f"unknown game {name!r}; registered games are {registered}")
    _loaded[name] = _load(name, module)
    return _loaded[name]


def _load(name: str, module: str) -> GameSpec:
    spec = getattr(importlib.import_module(module), "GAME", None)
    if not isinstance(spec, GameSpec) or spec.name != name:
        raise ValueError(f"module {module!r} must expose GAME, a GameSpec named {name!r}")
    spec.live.module = module  # where a background compile finds the game (treasure_core.tiers)
    return spec


def _pickled_game(spec: GameSpec) -> Any:
    """A GameSpec pickles as its name when it is an installed game (found by entry point), so an
    env's pickle holds the state and options, not the game's tables and functions; a game
    registered at run time, or an altered copy, pickles by value."""
    name = spec.name
    try:
        installed = name not in _registered and get_game(name) is spec
    except ValueError:
        installed = False
    if not installed:
        # Its fields, not its LiveKernels (a lock, perhaps a running compile): the copy builds
        # its own, on its Python twins until the cache has its kernels.
        fields = {f.name: getattr(spec, f.name) for f in dataclasses.fields(spec) if f.init}
        return (_game_by_value, (fields,))
    return (get_game, (name,))


def _game_by_value(fields: dict[str, Any]) -> GameSpec:
    return GameSpec(**fields)


copyreg.pickle(GameSpec, _pickled_game)


def all_games() -> list[GameSpec]:
    return [get_game(name) for name in _games()]


def make_env(name: str, **options: Any) -> Any:
    """The game's public `env(**options)`: the wrapped PettingZoo AEC env."""
    return importlib.import_module(module_of(name)).env(**options)
