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


class RandomAgent(Agent):
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, env: TreasureAECEnv, agent: str) -> int:
        mask = env.observe(agent)["action_mask"]
        return int(self.rng.choice(np.flatnonzero(mask)))
