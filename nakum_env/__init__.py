"""Nakum (2-4 players) as PettingZoo environments over numba kernels (docs/games/nakum.md)."""

from treasure_core.cache import refresh_numba_cache

refresh_numba_cache(__file__)  # before any kernel loads: numba's cache misses changes to data.py

from nakum_env.env import GAME, env, parallel_env, raw_env  # noqa: E402

__all__ = ["GAME", "env", "parallel_env", "raw_env"]
