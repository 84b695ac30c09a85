"""The treasure-envs runtime: what every game shares (docs/architecture.md). The kernel
contract and its helpers, the generic AEC and Parallel drivers, the batch runner, the registry
and the conformance suite. It imports numpy, numba, gymnasium and pettingzoo, and never a game,
an adapter or an application: those sit above it."""

from treasure_core.aec import TreasureAECEnv
from treasure_core.agents import Agent, KernelBot, RandomAgent, agent_factory, play_game
from treasure_core.batch import BatchRunner
from treasure_core.game import Dims, Dynamics, GameSpec, Kernels
from treasure_core.layout import ActionLayout, Fields
from treasure_core.options import Option
from treasure_core.parallel import TreasureParallelEnv
from treasure_core.registry import all_games, game_names, get_game, make_env, on_register, register

__all__ = [
    "ActionLayout",
    "Agent",
    "BatchRunner",
    "Dims",
    "Dynamics",
    "Fields",
    "GameSpec",
    "KernelBot",
    "Kernels",
    "Option",
    "RandomAgent",
    "TreasureAECEnv",
    "TreasureParallelEnv",
    "agent_factory",
    "all_games",
    "game_names",
    "get_game",
    "make_env",
    "on_register",
    "play_game",
    "register",
]
