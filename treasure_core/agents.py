"""Players for self-play and for `play`: the shared random agent, and the base a game's
scripted bots build on. An agent picks an action for `agent` in a TreasureAECEnv."""

from __future__ import annotations

import numpy as np

from treasure_core.aec import TreasureAECEnv


class Agent:
    """A policy over the AEC env. Subclasses must read only what `agent` may know."""

    name = "agent"

    def act(self, env: TreasureAECEnv, agent: str) -> int:
        raise NotImplementedError


class KernelBot(Agent):
    """A scripted bot whose whole policy is one @njit function `policy(state, player) ->
    action` of the game's. The policy must read only what `player` may know (the conformance
    suite checks it against resample_hidden)."""

    name = "bot"
    policy = None  # set by each game: staticmethod(its heuristic_action)

    def __init__(self, seed: int | None = None):
        self.seed = seed

    def act(self, env: TreasureAECEnv, agent: str) -> int:
        state = env.get_state()
        return int(self.policy(state, env.possible_agents.index(agent)))


class RandomAgent(Agent):
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, env: TreasureAECEnv, agent: str) -> int:
        mask = env.observe(agent)["action_mask"]
        return int(self.rng.choice(np.flatnonzero(mask)))
