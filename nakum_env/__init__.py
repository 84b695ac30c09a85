"""Nakum (2-4 players) as PettingZoo environments over numba kernels (docs/games/nakum.md)."""

from nakum_env.env import GAME, env, parallel_env, raw_env

__all__ = ["GAME", "env", "parallel_env", "raw_env"]
