"""What every treasure-envs game shares: the AEC driver, the batch runner, the registry."""

from treasure_core.aec import TreasureAECEnv
from treasure_core.agents import Agent, RandomAgent
from treasure_core.batch import BatchRunner
from treasure_core.game import Dims, GameSpec, Kernels
from treasure_core.options import Option
from treasure_core.registry import all_games, game_names, get_game, make_env, register
from treasure_core.single_agent import OpponentPool, TreasureGymEnv, gym_id, register_gymnasium_envs

# Every registered game is a Gymnasium id: gymnasium.make("treasure_envs/Nakbe-v1", opponents="bot").
register_gymnasium_envs()

__all__ = [
    "Agent",
    "BatchRunner",
    "Dims",
    "GameSpec",
    "Kernels",
    "OpponentPool",
    "Option",
    "RandomAgent",
    "TreasureAECEnv",
    "TreasureGymEnv",
    "all_games",
    "game_names",
    "get_game",
    "gym_id",
    "make_env",
    "register",
    "register_gymnasium_envs",
]
