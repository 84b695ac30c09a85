"""What every treasure-envs game shares: the AEC driver, the batch runner, the registry."""

from treasure_core.aec import TreasureAECEnv
from treasure_core.agents import Agent, RandomAgent
from treasure_core.batch import BatchRunner
from treasure_core.game import Dims, GameSpec, Kernels
from treasure_core.options import Option
from treasure_core.registry import all_games, game_names, get_game, make_env, register

# The Gymnasium side lives in treasure_core.single_agent; importing it registers every game
# (gymnasium.make("treasure_core.single_agent:treasure_envs/Nakbe-v1") does that import). It is
# not imported here: registering reads each game's version, and a game imports treasure_core.

__all__ = [
    "Agent",
    "BatchRunner",
    "Dims",
    "GameSpec",
    "Kernels",
    "Option",
    "RandomAgent",
    "TreasureAECEnv",
    "all_games",
    "game_names",
    "get_game",
    "make_env",
    "register",
]
