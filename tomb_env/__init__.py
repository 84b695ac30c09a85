"""Tomb Trader as a multi-agent environment (AEC and Parallel APIs)."""

from tomb_env.env import GAME, env, parallel_env, raw_env

__all__ = ["GAME", "env", "parallel_env", "raw_env"]
