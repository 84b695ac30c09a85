"""Players: the shared random agent, the base a game's scripted bots build on, agents named
by a string, and one game played with an agent in every seat. An agent picks an action for
`agent` in a TreasureAECEnv."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from treasure_core.aec import TreasureAECEnv, agent_name
from treasure_core.game import GameSpec
from treasure_core.header import CURRENT_PLAYER


class Agent:
    """A policy over the AEC env. Subclasses must read only what `agent` may know."""

    name = "agent"

    def act(self, env: TreasureAECEnv, agent: str) -> int:
        raise NotImplementedError


SALT_BITS = (1 << 63) - 1  # a salt fits numba's int64


class KernelBot(Agent):
    """A scripted bot whose whole policy is one @njit function `policy(state, player, salt) ->
    action` of the game's. The policy must read only what `player` may know (the conformance
    suite checks it against resample_hidden). It breaks ties between equally valued actions
    with `treasure_core.kernels.tie_key(salt, state, action)`: the salt comes from the bot's
    seed, so bots with different seeds play different games, and a seed replays its games."""

    name = "bot"
    policy = None  # set by each game: staticmethod(its heuristic_action)

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.salt = 0 if seed is None else int(seed) & SALT_BITS

    def act(self, env: TreasureAECEnv, agent: str) -> int:
        state = env.get_state()
        return int(self.policy(state, env.possible_agents.index(agent), self.salt))


class RandomAgent(Agent):
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, env: TreasureAECEnv, agent: str) -> int:
        mask = env.action_mask(agent)
        return int(self.rng.choice(np.flatnonzero(mask)))


# An agent is given as a name ("random" or one of the game's bots), a factory `seed -> Agent`
# (a bot class, RandomAgent, a trained policy's factory), or an Agent.
AgentSpec = str | Callable[[int], Agent] | Agent
AgentFactory = Callable[[int], Agent]


def agent_factory(game: GameSpec, spec: AgentSpec) -> AgentFactory:
    """An agent spec -> a factory `seed -> Agent`; an unknown name is a ValueError."""
    if isinstance(spec, str):
        if spec == "random":
            return RandomAgent
        if spec in game.bots:
            return game.bots[spec]
        choices = ", ".join(["random", *game.bots])
        raise ValueError(f"{game.name}: unknown agent {spec!r}; choose from {choices}, or give an Agent")
    if isinstance(spec, Agent):
        return lambda seed: spec
    if callable(spec):
        return spec
    raise ValueError(
        f"{game.name}: an agent must be a name, a factory seed -> Agent, or an Agent; got {spec!r}"
    )


def play_game(aec: TreasureAECEnv, seat_agents: Sequence[Agent], seed: int) -> dict[str, Any]:
    """Play one game with an agent in every seat; returns the game's final_info (for a game
    the guard cut, `aec.is_truncated()`, with no winner and end_condition naming the guard)."""
    aec.reset(seed=seed)
    state = aec._state
    while not aec.is_over():
        seat = int(state[CURRENT_PLAYER])
        aec.step(seat_agents[seat].act(aec, agent_name(seat)))
    return aec.game.final_info(state, truncated=aec.is_truncated())
