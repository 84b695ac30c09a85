"""Treasures of Nakbe (the Temple and Jungle sides, and An Endless Threat) as a multi-agent
environment: docs/games/nakbe.md."""

from treasure_core.cache import refresh_numba_cache

refresh_numba_cache(__file__)  # before any kernel loads: numba's cache misses changes to data.py

from nakbe_env.env import GAME, env, parallel_env, raw_env  # noqa: E402

__all__ = ["GAME", "env", "parallel_env", "raw_env"]
