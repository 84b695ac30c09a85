"""Players: the shared random agent, the base a game's scripted bots build on, agents named
by a string, and one game played with an agent in every seat. An agent picks an action for
`agent` in a TreasureAECEnv."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from treasure_core.aec import TreasureAECEnv, agent_name
from treasure_core.game import GameSpec
from treasure_core.header import CURRENT_PLAYER, DECISIONS
from treasure_core.rng import mix64


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


MCTS_DEFAULTS = {"sims": 400, "c": 1.4, "playout": "random", "seed": 0, "max_steps": 2000, "threads": 1}
MCTS_PLAYOUTS = ("random",)


def check_mcts_params(params: dict[str, Any]) -> dict[str, Any]:
    """The search's parameters, completed with MCTS_DEFAULTS; a bad key or value is a ValueError
    naming what is allowed."""
    allowed = ", ".join(MCTS_DEFAULTS)
    unknown = [key for key in params if key not in MCTS_DEFAULTS]
    if unknown:
        raise ValueError(f"mcts: unknown parameter {unknown[0]!r}; the parameters are {allowed}")
    out = {**MCTS_DEFAULTS, **params}
    for key in ("sims", "seed", "max_steps", "threads"):
        value = out[key]
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"mcts: {key} must be an integer; got {value!r}")
        out[key] = int(value)
    if out["sims"] < 1:
        raise ValueError(f"mcts: sims must be at least 1; got {out['sims']}")
    if out["threads"] < 1:
        raise ValueError(f"mcts: threads must be at least 1; got {out['threads']}")
    if out["max_steps"] < 1:
        raise ValueError(f"mcts: max_steps must be at least 1; got {out['max_steps']}")
    if not 0 <= out["seed"] < 2**63:
        raise ValueError(f"mcts: seed must be in [0, 2**63); got {out['seed']}")
    c = out["c"]
    if isinstance(c, bool) or not isinstance(c, (int, float, np.number)) or not np.isfinite(c) or c < 0:
        raise ValueError(f"mcts: c must be a finite number >= 0; got {c!r}")
    out["c"] = float(c)
    if out["playout"] not in MCTS_PLAYOUTS:
        raise ValueError(f"mcts: playout must be one of {', '.join(MCTS_PLAYOUTS)}; got {out['playout']!r}")
    return out


def parse_mcts_spec(spec: str) -> dict[str, Any]:
    """ "mcts" or "mcts:sims=400,c=1.4" -> the checked parameters."""
    name, _, rest = spec.partition(":")
    if name != "mcts":
        raise ValueError(f"not an mcts spec: {spec!r}")
    params: dict[str, Any] = {}
    allowed = ", ".join(MCTS_DEFAULTS)
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not value:
            raise ValueError(f"mcts: {item!r} is not key=value; the parameters are {allowed}")
        if key not in MCTS_DEFAULTS:
            raise ValueError(f"mcts: unknown parameter {key!r}; the parameters are {allowed}")
        if key == "playout":
            params[key] = value
            continue
        try:
            params[key] = float(value) if key == "c" else int(value)
        except ValueError:
            kind = "a number" if key == "c" else "an integer"
            raise ValueError(f"mcts: {key} must be {kind}; got {value!r}") from None
    return check_mcts_params(params)


def search_module(game: GameSpec) -> Any:
    """The game's generated batch module, which holds its @njit mcts_decide beside `returns`."""
    returns = game.kernels.returns
    return importlib.import_module(getattr(returns, "py_func", returns).__module__)


class MCTSAgent(Agent):
    """Information-set MCTS with determinization (treasure_core.search, docs/search.md). Each
    decision is searched with a seed mixed from the agent's seed and the decision count, so a
    seed replays its games; the state is read only through resample_hidden for the deciding
    seat."""

    name = "mcts"

    def __init__(self, game: GameSpec, seed: int | None = None, **params: Any):
        if seed is not None:
            params = {**params, "seed": seed}
        self.params = check_mcts_params(params)
        self.game = game
        module = search_module(game)
        self.kernel = module.mcts_decide
        self.trees_kernel = module.mcts_decide_trees
        self.visits = np.zeros(module.N_ACTIONS, np.int64)

    def decide(self, state: np.ndarray, player: int) -> int:
        p = self.params
        seed = int(mix64(np.uint64(p["seed"]) ^ mix64(np.uint64(state[DECISIONS])))) & SALT_BITS
        if p["threads"] == 1:
            return int(self.kernel(state, player, p["sims"], p["c"], seed, p["max_steps"], self.visits))
        # Root parallelism: `threads` trees sharing the simulations, their root visits summed.
        per_tree = max(1, p["sims"] // p["threads"])
        args = (state, player, per_tree, p["c"], seed, p["max_steps"], p["threads"], self.visits)
        return int(self.trees_kernel(*args))

    def act(self, env: TreasureAECEnv, agent: str) -> int:
        return self.decide(env.get_state(), env.possible_agents.index(agent))


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
        if spec == "mcts" or spec.startswith("mcts:"):
            params = parse_mcts_spec(spec)
            base = params.pop("seed")
            return lambda seed: MCTSAgent(game, seed=(base + (seed or 0)) & SALT_BITS, **params)
        choices = ", ".join(["random", *game.bots, "mcts[:key=value,...]"])
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
