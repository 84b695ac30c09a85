"""Het goud van de Farao (The Pharaoh's Gold) as PettingZoo environments (docs/games/pharaoh.md)."""

from pharaoh_env.env import GAME, env, parallel_env, raw_env

__all__ = ["GAME", "env", "parallel_env", "raw_env"]
