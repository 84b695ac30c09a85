"""Treasures of Nakbe (Temple side) as a multi-agent environment."""

from nakbe_env.env import GAME, env, raw_env

__all__ = ["GAME", "env", "raw_env"]
