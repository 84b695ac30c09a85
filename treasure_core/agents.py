"""Players: the shared random agent, the base a game's scripted bots build on, agents named
by a string, and one game played with an agent in every seat. An agent picks an action for
`agent` in a TreasureAECEnv."""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from treasure_core.aec import TreasureAECEnv, agent_name
from treasure_core.game import GameSpec
from treasure_core.header import CURRENT_PLAYER, DECISIONS, NUM_PLAYERS
from treasure_core.rng import mix64


class Agent:
    """A policy over the AEC env. Subclasses must read only what `agent` may know."""

    name = "agent"

    def act(self, env: TreasureAECEnv, agent: str) -> int:
        raise NotImplementedError


SALT_BITS = (1 << 63) - 1  # a salt fits numba's int64


class KernelBot(Agent):
    """A scripted bot whose whole policy is one @njit function `policy(state, player, salt,
    *policy_args) -> action` of the game's. The policy must read only what `player` may know
    (the conformance suite checks it against resample_hidden). It breaks ties between equally
    valued actions with `treasure_core.kernels.tie_key(salt, state, action)`: the salt comes
    from the bot's seed, so bots with different seeds play different games, and a seed replays
    its games. `policy_args` (constants of the class) let several bots share one compiled
    policy: each policy kernel links the game's rules again, so a bot of its own costs a compile
    of its own."""

    name = "bot"
    policy = None  # set by each game: staticmethod(its heuristic_action)
    policy_args: tuple[int | bool, ...] = ()

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.salt = 0 if seed is None else int(seed) & SALT_BITS

    def act(self, env: TreasureAECEnv, agent: str) -> int:
        state = env.get_state()
        return int(self.policy(state, env.possible_agents.index(agent), self.salt, *self.policy_args))


class RandomAgent(Agent):
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, env: TreasureAECEnv, agent: str) -> int:
        mask = env.action_mask(agent)
        return int(self.rng.choice(np.flatnonzero(mask)))


MCTS_DEFAULTS = {
    "sims": 400,
    "c": 1.4,
    "playout": "random",
    "epsilon": 0.0,
    "seed": 0,
    "max_steps": 2000,
    "threads": 1,
    "time_ms": 0.0,
}
MCTS_PLAYOUTS = ("random", "bot")
# Each game's own defaults over MCTS_DEFAULTS, chosen by measurement (docs/search.md): the bot
# playout where the scripted bot is cheap enough for 400 simulations in 50 ms and makes the
# search stronger. Karuba's and Pharaoh's bots are too slow for it (about 1 s and 0.5 s per
# decision), so each plays its playouts by a cheaper player of the bot's rules, cut after a
# few steps and valued there by bots.playout_value, at a small exploration constant.
# A game not named here (a new game) gets MCTS_DEFAULTS.
MCTS_GAME_DEFAULTS: dict[str, dict[str, Any]] = {
    "nakbe": {"playout": "bot"},
    "tomb": {"playout": "bot"},
    "nakum": {"playout": "bot"},
    "karuba": {"playout": "bot", "max_steps": 6, "c": 0.4},  # bots.focused_action, cut valued
    "pharaoh": {"playout": "bot", "max_steps": 40, "c": 0.15},  # bots.playout_action, cut valued
}
MCTS_INTEGERS = ("sims", "seed", "max_steps", "threads")
MCTS_NUMBERS = ("c", "epsilon", "time_ms")
FIRST_CHUNK = 8  # simulations per tree in a time-budgeted search's first chunk


def mcts_defaults(game: GameSpec | None = None) -> dict[str, Any]:
    """The search's default parameters for `game` (MCTS_DEFAULTS with MCTS_GAME_DEFAULTS)."""
    return {**MCTS_DEFAULTS, **(MCTS_GAME_DEFAULTS.get(game.name, {}) if game is not None else {})}


def check_mcts_params(params: dict[str, Any], game: GameSpec | None = None) -> dict[str, Any]:
    """The search's parameters, completed with `game`'s defaults (mcts_defaults); a bad key or
    value is a ValueError naming what is allowed."""
    allowed = ", ".join(MCTS_DEFAULTS)
    unknown = [key for key in params if key not in MCTS_DEFAULTS]
    if unknown:
        raise ValueError(f"mcts: unknown parameter {unknown[0]!r}; the parameters are {allowed}")
    out = {**mcts_defaults(game), **params}
    for key in MCTS_INTEGERS:
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
    for key in MCTS_NUMBERS:
        value = out[key]
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float, np.number))
            or not np.isfinite(value)
        ):
            raise ValueError(f"mcts: {key} must be a finite number; got {value!r}")
        out[key] = float(value)
    if out["c"] < 0:
        raise ValueError(f"mcts: c must be a finite number >= 0; got {out['c']!r}")
    if not 0.0 <= out["epsilon"] <= 1.0:
        raise ValueError(f"mcts: epsilon must be in [0, 1]; got {out['epsilon']!r}")
    if out["time_ms"] < 0:
        raise ValueError(f"mcts: time_ms must be >= 0 (0: count simulations); got {out['time_ms']!r}")
    if out["playout"] not in MCTS_PLAYOUTS:
        raise ValueError(f"mcts: playout must be one of {', '.join(MCTS_PLAYOUTS)}; got {out['playout']!r}")
    return out


def parse_mcts_spec(spec: str, game: GameSpec | None = None) -> dict[str, Any]:
    """ "mcts", "mcts:sims=400,c=1.4", "mcts:playout=bot,time_ms=50" -> the checked parameters,
    completed with `game`'s defaults."""
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
            params[key] = float(value) if key in MCTS_NUMBERS else int(value)
        except ValueError:
            kind = "a number" if key in MCTS_NUMBERS else "an integer"
            raise ValueError(f"mcts: {key} must be {kind}; got {value!r}") from None
    return check_mcts_params(params, game)


def search_module(game: GameSpec) -> Any:
    """The game's generated batch module, which holds its @njit search (mcts_simulate) beside `returns`."""
    returns = game.kernels.returns
    return importlib.import_module(getattr(returns, "py_func", returns).__module__)


_SEARCH_POOLS: dict[int, ThreadPoolExecutor] = {}


def search_pool(threads: int) -> ThreadPoolExecutor:
    """A pool of `threads` threads for root parallelism, made once per size and shared."""
    pool = _SEARCH_POOLS.get(threads)
    if pool is None:
        pool = _SEARCH_POOLS[threads] = ThreadPoolExecutor(threads, thread_name_prefix="mcts")
    return pool


class MCTSAgent(Agent):
    """Information-set MCTS with determinization (treasure_core.search, docs/search.md). Each
    decision is searched with a seed mixed from the agent's seed and the decision count, so a
    seed replays its games (with a time budget, time_ms > 0, the count of simulations depends on
    the machine, so only the seeding is reproducible); the state is read only through
    resample_hidden for the deciding seat."""

    name = "mcts"

    def __init__(self, game: GameSpec, seed: int | None = None, **params: Any):
        if seed is not None:
            params = {**params, "seed": seed}
        self.params = check_mcts_params(params, game)
        self.game = game
        self.module = search_module(game)
        self.visits = np.zeros(self.module.N_ACTIONS, np.int64)
        self.last_sims = 0  # simulations the last decision ran (all trees)
        p = self.params
        self.bot_share = 0.0 if p["playout"] == "random" else 1.0 - p["epsilon"]

    def decision_seed(self, state: np.ndarray) -> int:
        return int(mix64(np.uint64(self.params["seed"]) ^ mix64(np.uint64(state[DECISIONS])))) & SALT_BITS

    def decide(self, state: np.ndarray, player: int) -> int:
        p = self.params
        seed = self.decision_seed(state)
        if p["time_ms"] > 0:
            return self.decide_in_time(state, player, seed, p["time_ms"] / 1000.0)
        # One chunk of simulations per tree; with root parallelism `threads` trees share them.
        per_tree = max(1, p["sims"] // p["threads"])
        action = self.decide_in_chunks(
            state, player, [per_tree], seed, forced_visits=per_tree * p["threads"], capacity=per_tree + 1
        )
        self.last_sims = per_tree * p["threads"]
        return action

    def decide_in_time(self, state: np.ndarray, player: int, seed: int, budget: float) -> int:
        """The search in chunks of simulations until `budget` seconds have passed; each chunk
        is sized from the rate so far to end near the budget (decide_in_chunks)."""
        start = time.perf_counter()

        def chunks() -> Iterator[int]:
            done, chunk = 0, FIRST_CHUNK
            while True:
                yield chunk
                done += chunk
                elapsed = time.perf_counter() - start
                left = budget - elapsed
                if left <= 0:
                    return
                rate = done / max(elapsed, 1e-6)
                chunk = max(1, min(4 * done, int(rate * left * 0.5)))

        return self.decide_in_chunks(state, player, chunks(), seed)

    def decide_in_chunks(
        self,
        state: np.ndarray,
        player: int,
        chunks: Iterable[int],
        seed: int,
        forced_visits: int = 0,
        capacity: int = 1 + 4 * FIRST_CHUNK,
    ) -> int:
        """The search as chunks of simulations per tree (each chunk continues the same trees,
        their node tables grown as needed from `capacity` nodes); `chunks` is read lazily. Any
        chunks of the same total give the same trees, root visits and decision (the same seeds
        and draws). With one legal action nothing is searched, and it gets `forced_visits`."""
        p, module = self.params, self.module
        mask = np.zeros(module.N_ACTIONS, np.int8)
        if self.game.kernels.legal_mask(state, np.int64(player), mask) <= 1:
            self.last_sims = 0
            self.visits[:] = 0
            legal = np.flatnonzero(mask)
            if legal.size == 0:
                return -1
            self.visits[legal[0]] = forced_visits
            return int(legal[0])
        trees = p["threads"]
        tree = self.new_trees(trees, capacity, int(state[NUM_PLAYERS]))
        module.mcts_seed_trees(seed, tree[-1])
        done = 0
        for chunk in chunks:
            if chunk < 1:
                raise ValueError(f"mcts: a chunk is at least 1 simulation; got {chunk}")
            tree = self.room_for(tree, done + 1 + chunk)
            self.grow(state, player, chunk, tree)
            done += chunk
        self.last_sims = done * trees
        return int(module.mcts_root_visits(state, player, tree[0], tree[1], self.visits))

    def grow(self, state: np.ndarray, player: int, sims: int, tree: tuple[np.ndarray, ...]) -> None:
        """`sims` more simulations in each tree: the game's mcts_simulate, which releases the
        GIL, one tree per thread of a pool (root parallelism; the same trees whatever the
        threads' timing, since each tree has its own table and generator word)."""
        p, simulate = self.params, self.module.mcts_simulate

        def one(t: int) -> None:
            simulate(state, player, sims, p["c"], p["max_steps"], self.bot_share, *(part[t] for part in tree))

        trees = tree[0].shape[0]
        if trees == 1:
            one(0)
        else:
            for _ in search_pool(trees).map(one, range(trees)):  # raises a tree's error here
                pass

    def new_trees(self, trees: int, capacity: int, n_players: int) -> tuple[np.ndarray, ...]:
        n_actions = self.module.N_ACTIONS
        return (
            np.full((trees, capacity, n_actions), -1, np.int32),
            np.zeros((trees, capacity), np.int64),
            np.zeros((trees, capacity), np.int64),
            np.zeros((trees, capacity, n_players), np.float64),
            np.zeros((trees, 2), np.uint64),
        )

    def room_for(self, tree: tuple[np.ndarray, ...], nodes: int) -> tuple[np.ndarray, ...]:
        """The trees, their node tables grown (doubled) to hold `nodes` nodes."""
        children, visits, avail, values, meta = tree
        capacity = children.shape[1]
        if capacity >= nodes:
            return tree
        grown = self.new_trees(children.shape[0], max(nodes, 2 * capacity), values.shape[2])
        for old, new in zip(tree[:4], grown[:4], strict=True):
            new[:, :capacity] = old
        return (*grown[:4], meta)

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
            params = parse_mcts_spec(spec, game)
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
