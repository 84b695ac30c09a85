"""Treasures of Nakbe (the Temple and Jungle sides, and An Endless Threat) as a multi-agent
environment: docs/games/nakbe.md."""

from nakbe_env.env import GAME, env, parallel_env, raw_env

__all__ = ["GAME", "env", "parallel_env", "raw_env"]
