"""Pig, the dice game, as a multi-agent environment of treasure-envs, written from outside the
library: examples/sixth_game/README.md."""

from pig_env.env import GAME, env, parallel_env, raw_env

__all__ = ["GAME", "env", "parallel_env", "raw_env"]
