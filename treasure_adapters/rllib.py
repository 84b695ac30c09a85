"""Ray RLlib's multi-agent view of any registered game (the new API stack, ray 2.60).

`TreasureMultiAgentEnv` is an RLlib `MultiAgentEnv` over a game's kernels:

- Each observation is a dict with the keys RLlib's `ActionMaskingTorchRLModule` reads:
  `"observations"` (the seat's own float32 features) and `"action_mask"` (float32 0/1).
- Observations go only to the seats that decide in the next step: the seat to act in a
  turn-based game, every seat with a decision pending in a simultaneous round (Karuba's tiles,
  Nakum's heritage choice), only the drafting seat in Karuba's draft. RLlib computes actions
  exactly for the agents it got observations for, so it never trains on ignored actions.
- The action spaces sample legal actions: `action_space.sample()` draws from the agent's
  current legal mask, so RLlib's env pre-check (which steps one sampled action per agent)
  passes with the checks on, and so does anything else that samples actions at random.
- The reward is 0 until a game ends, then each seat's final reward (the game's `reward`
  option); every seat that has decided gets its last observation and its reward then.
- `state()` is the full-information vector (every secret) for centralised critics; with
  `state_in_infos=True` every info also carries it under `"state"`.
- Opponent seats may be played inside the env by the game's scripted bot (`bot_share`: the
  chance that a seat is the bot in a game; at least one seat per game is left to RLlib). Those
  seats never appear as agents.
- `games_per_env` (the vectorised path): one env plays that many games side by side, with agents
  `game{k}_player_{p}`; one `step` steps them all, so one call of the env runner advances
  many games and RLlib batches their forward passes. Each game is played once per episode; a
  finished game's agents terminate, and the episode ends when every game has ended.

ray is imported here; `import treasure_adapters` and the other adapters do not import this
module, so they work without the `rllib` extra. `warm_up` (no ray needed) compiles or loads a
game's numba kernels, for the per-node warm-up at a cluster's start (docs/distributed.md).
"""

from __future__ import annotations

import re
import time
from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from treasure_core import ansi
from treasure_core.aec import agent_name
from treasure_core.game import GameSpec
from treasure_core.header import CURRENT_PLAYER, STATE_DTYPE, TERMINAL
from treasure_core.jit import NotCached, load_only
from treasure_core.registry import get_game
from treasure_core.warmup import UNITS, compile_game, free_cores, run_units

OBS_KEY = "observations"  # the keys ActionMaskingTorchRLModule expects
MASK_KEY = "action_mask"
ADAPTER_KEYS = ("game", "games_per_env", "bot", "bot_share", "state_in_infos", "seed")
_AGENT_ID = re.compile(r"^(?:game(\d+)_)?player_(\d+)$")


def seat_of(agent_id: str) -> tuple[int, int]:
    """An agent id -> (game index in the env, seat): "player_2" -> (0, 2), "game3_player_1" -> (3, 1)."""
    match = _AGENT_ID.match(str(agent_id))
    if match is None:
        raise ValueError(f"not an agent id of TreasureMultiAgentEnv: {agent_id!r}")
    return int(match.group(1) or 0), int(match.group(2))


def is_agent_id(name: Any) -> bool:
    """Whether name is one of TreasureMultiAgentEnv's agent ids."""
    return isinstance(name, str) and _AGENT_ID.match(name) is not None


class LegalDiscrete(spaces.Discrete):
    """A Discrete space whose `sample()` without a mask draws among the legal actions of one
    agent now (from its env), so random actions are legal ones. It pickles and copies as a
    plain Discrete (an env runner's copy of the spaces carries no env)."""

    def __init__(self, n: int, env: TreasureMultiAgentEnv, agent: str):
        super().__init__(n)
        self._env = env
        self._agent = agent

    def sample(self, mask: np.ndarray | None = None, probability: np.ndarray | None = None) -> np.int64:
        if mask is None and probability is None:
            legal = self._env.current_mask(self._agent)
            if legal is not None and legal.any():
                return super().sample(mask=legal)
        return super().sample(mask=mask, probability=probability)

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return spaces.Discrete, (int(self.n),)


class TreasureMultiAgentEnv(MultiAgentEnv):
    """An RLlib MultiAgentEnv over any registered game (see the module's docstring).

    `config` (RLlib's env_config): `game` (a registered name), optionally `games_per_env`
    (default 1), `bot` (a scripted bot's name, default the game's first), `bot_share` (default
    0), `state_in_infos` (default False), `seed`; every other key is a game option
    (`num_players`, `reward`, the game's own). Under RLlib the env's seed also mixes in the
    env runner's and vector index, so runners play different games.
    """

    metadata = {"render_modes": []}

    def __init__(self, config: dict[str, Any] | None = None):
        super().__init__()
        # RLlib's EnvContext carries the runner's and the vector slot's index.
        streams = [int(getattr(config, "worker_index", 0)), int(getattr(config, "vector_index", 0))]
        config = dict(config or {})
        if "game" not in config:
            raise ValueError("TreasureMultiAgentEnv needs config['game'], a registered game's name")
        game = config.pop("game")
        self.game: GameSpec = get_game(game) if isinstance(game, str) else game
        self.games_per_env = _positive_int("games_per_env", config.pop("games_per_env", 1))
        bot = config.pop("bot", None)
        self.bot_share = float(config.pop("bot_share", 0.0))
        if not 0.0 <= self.bot_share <= 1.0:
            raise ValueError(f"bot_share must be from 0 to 1; got {self.bot_share!r}")
        if self.bot_share > 0 and not self.game.bots:
            raise ValueError(f"{self.game.name} has no scripted bot, so bot_share must be 0")
        bot = bot or next(iter(self.game.bots), None)
        if bot is not None and bot not in self.game.bots:
            raise ValueError(
                f"{self.game.name}: unknown bot {bot!r}; choose from {', '.join(self.game.bots)}"
            )
        self.bot_policy = self.game.bots[bot].policy if bot is not None else None
        self.state_in_infos = bool(config.pop("state_in_infos", False))
        seed = config.pop("seed", None)
        self.options = self.game.validate(dict(config))
        self.params = self.game.make_params(self.options)
        self.dims = self.game.dims(self.params)
        self.num_players = int(self.options["num_players"])
        self.penalize = self.options["illegal_action"] == "penalize"
        self._sequential = self.game.dynamics.turns == "sequential"
        self._rng = np.random.default_rng(None if seed is None else [int(seed), *streams])

        k, n = self.games_per_env, self.num_players
        self.agent_ids = [
            [agent_name(p) if k == 1 else f"game{g}_{agent_name(p)}" for p in range(n)] for g in range(k)
        ]
        self.possible_agents = [a for row in self.agent_ids for a in row]
        self.agents = []
        features = spaces.Box(0.0, 1.0, (self.dims.obs_size,), np.float32)
        mask = spaces.Box(0.0, 1.0, (self.dims.n_actions,), np.float32)
        observation_space = spaces.Dict({OBS_KEY: features, MASK_KEY: mask})
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self.action_spaces = {a: LegalDiscrete(self.dims.n_actions, self, a) for a in self.possible_agents}
        self.state_space = spaces.Box(0.0, 1.0, (self.dims.full_state_size,), np.float32)

        self._states = np.zeros((k, self.dims.state_size), STATE_DTYPE)
        self._masks = np.zeros((k, n, self.dims.n_actions), np.int8)
        self._deciding = np.zeros((k, n), np.bool_)
        self._is_bot = np.zeros((k, n), np.bool_)
        self._seen = np.zeros((k, n), np.bool_)  # seats that got an observation this game
        self._over = np.ones(k, np.bool_)
        self._truncated = np.zeros(k, np.bool_)  # games the guard cut
        self._salts = np.zeros(k, np.int64)
        self._blank = np.zeros(self.dims.n_actions, np.int8)

    # -- RLlib's API ----------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        if seed is not None:
            self._rng = np.random.default_rng(int(seed))
        k, n = self.games_per_env, self.num_players
        seeds = self._rng.integers(0, 2**62, size=k, dtype=np.int64)
        for g in range(k):  # `init` a game, not batch_init: a runner compiles no batch form
            self.game.kernels.init(self._states[g], self.params, seeds[g])
        self._salts[:] = self._rng.integers(0, 2**62, size=k, dtype=np.int64)
        self._is_bot[:] = self._rng.random((k, n)) < self.bot_share
        keep = self._rng.integers(0, n, size=k)
        self._is_bot[np.arange(k), keep] = False  # at least one seat per game is RLlib's
        self._seen[:] = False
        self._over[:] = False
        self._truncated[:] = False
        observations: dict[str, Any] = {}
        infos: dict[str, Any] = {}
        for g in range(k):
            self._advance(g)
            self._emit(g, observations, infos)
        self.agents = list(observations)
        return observations, infos

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        observations: dict[str, Any] = {}
        rewards: dict[str, float] = {}
        terminateds: dict[str, bool] = {}
        truncateds: dict[str, bool] = {}
        infos: dict[str, Any] = {}
        for g in range(self.games_per_env):
            if self._over[g]:
                continue
            seats = np.flatnonzero(self._deciding[g] & ~self._is_bot[g])
            if seats.size == 0:
                continue
            decisions: dict[int, int] = {}
            offender = None
            for seat in seats:
                agent = self.agent_ids[g][seat]
                if agent not in action_dict:
                    raise ValueError(f"{self.game.env_name}: no action for {agent}, which decides this step")
                action = int(action_dict[agent])
                if not 0 <= action < self.dims.n_actions:
                    raise ValueError(
                        f"{self.game.env_name}: {agent}'s action {action} is not from 0 to "
                        f"{self.dims.n_actions - 1}"
                    )
                if not self._masks[g, seat, action]:
                    if not self.penalize:
                        name = self.game.action_name(self._states[g], action, int(seat))
                        raise ValueError(
                            f"{self.game.env_name}: {agent}'s action {action} ({name}) is illegal"
                        )
                    offender = offender if offender is not None else int(seat)
                decisions[int(seat)] = action
            if offender is not None:
                ansi.warn(
                    f"{self.game.env_name}: illegal action by {self.agent_ids[g][offender]}; its game ends "
                    "with -1 for it and 0 for the others (illegal_action='raise' raises instead)"
                )
                returns = np.zeros(self.num_players, np.float32)
                returns[offender] = -1.0
                self._finish(g, returns, observations, rewards, terminateds, truncateds, infos)
                continue
            state = self._states[g]
            while decisions:
                # The kernels take the decisions in their own order: whoever they ask for next
                # (a scripted seat in the same simultaneous round decides when asked).
                seat = int(state[CURRENT_PLAYER])
                if state[TERMINAL] or not (seat in decisions or self._is_bot[g, seat]):
                    raise RuntimeError(f"{self.game.name}: the kernels ask seat {seat} out of turn")
                self.game.kernels.step(
                    state, decisions.pop(seat) if seat in decisions else self._bot(g, seat)
                )
            self._advance(g)
            if state[TERMINAL] or self._cut(g):
                returns = np.zeros(self.num_players, np.float32)  # cut by the guard: 0 each
                if state[TERMINAL]:
                    self.game.kernels.returns(state, returns)
                self._finish(g, returns, observations, rewards, terminateds, truncateds, infos)
                continue
            self._emit(g, observations, infos)
            for agent in observations.keys() & set(self.agent_ids[g]):
                rewards[agent] = 0.0
        # The episode ends once every game is over: truncated if the guard cut any of them
        # (each agent's own flags say which of its games ended how).
        over = bool(self._over.all())
        terminateds["__all__"] = over and not self._truncated.any()
        truncateds["__all__"] = over and bool(self._truncated.any())
        self.agents = [a for g in range(self.games_per_env) for a in self._live_agents(g)]
        return observations, rewards, terminateds, truncateds, infos

    # -- views ----------------------------------------------------------------------------
    def current_mask(self, agent: str) -> np.ndarray | None:
        """agent's legal actions now (int8; all zeros unless it decides now), None before reset."""
        g, seat = seat_of(agent)
        if self._over[g]:
            return None
        return self._masks[g, seat]

    def state(self, game_index: int = 0) -> np.ndarray:
        """The full-information view (every secret) of game `game_index`, for centralised critics."""
        out = np.empty(self.dims.full_state_size, np.float32)
        self.game.kernels.full_state(self._states[game_index], out)
        return out

    def get_state(self, game_index: int = 0) -> np.ndarray:
        """A copy of game `game_index`'s state array."""
        return self._states[game_index].copy()

    # -- inside ---------------------------------------------------------------------------
    def _cut(self, g: int) -> bool:
        """The guard (GameSpec.guard) cuts game g now: a truncation, with rewards 0."""
        return self.game.truncated(self._states[g], self.params)

    def _update_deciding(self, g: int) -> None:
        state = self._states[g]
        self._deciding[g] = False
        self._masks[g] = 0
        if state[TERMINAL] or self._cut(g):
            return
        seats = [int(state[CURRENT_PLAYER])] if self._sequential else range(self.num_players)
        for seat in seats:
            if self.game.kernels.legal_mask(state, seat, self._masks[g, seat]) > 0:
                self._deciding[g, seat] = True

    def _advance(self, g: int) -> None:
        """Let the scripted seats of game g play until one of RLlib's seats decides (or the end)."""
        state = self._states[g]
        while True:
            self._update_deciding(g)
            if state[TERMINAL] or self._cut(g) or (self._deciding[g] & ~self._is_bot[g]).any():
                return
            self.game.kernels.step(state, self._bot(g, int(state[CURRENT_PLAYER])))

    def _bot(self, g: int, seat: int) -> int:
        """The scripted bot's decision for seat in game g (a fresh salt each decision)."""
        self._salts[g] = (int(self._salts[g]) * 6364136223846793005 + 1442695040888963407) & (2**62 - 1)
        return int(self.bot_policy(self._states[g], seat, int(self._salts[g])))

    def _observation(self, g: int, seat: int) -> dict[str, np.ndarray]:
        features = np.empty(self.dims.obs_size, np.float32)
        self.game.kernels.observe(self._states[g], seat, features)
        return {OBS_KEY: features, MASK_KEY: self._masks[g, seat].astype(np.float32)}

    def _info(self, g: int) -> dict[str, Any]:
        return {"state": self.state(g)} if self.state_in_infos else {}

    def _emit(self, g: int, observations: dict, infos: dict) -> None:
        """Observations for game g's deciding seats that RLlib plays (bots decided already)."""
        for seat in np.flatnonzero(self._deciding[g] & ~self._is_bot[g]):
            agent = self.agent_ids[g][seat]
            observations[agent] = self._observation(g, int(seat))
            infos[agent] = self._info(g)
            self._seen[g, seat] = True

    def _live_agents(self, g: int) -> list[str]:
        if self._over[g]:
            return []
        return [self.agent_ids[g][s] for s in range(self.num_players) if not self._is_bot[g, s]]

    def _finish(
        self,
        g: int,
        returns: np.ndarray,
        observations: dict,
        rewards: dict,
        terminateds: dict,
        truncateds: dict,
        infos: dict,
    ) -> None:
        """Game g is over: every seat RLlib played gets its last observation and final reward
        (terminated by the rules or an illegal action; truncated if the guard cut it)."""
        self._over[g] = True
        cut = self._cut(g)
        self._truncated[g] = cut
        self._masks[g] = 0
        self._deciding[g] = False
        ended = self._states[g][TERMINAL] or cut
        final = self.game.final_info(self._states[g], truncated=cut) if ended else None
        for seat in np.flatnonzero(self._seen[g]):
            agent = self.agent_ids[g][seat]
            observations[agent] = self._observation(g, int(seat))
            rewards[agent] = float(returns[seat])
            terminateds[agent] = not cut
            truncateds[agent] = cut
            info = self._info(g)
            info["game_over"] = 1
            info["winner"] = int(bool(final["winner"][seat])) if final is not None else 0
            info["score"] = float(final["score"][seat]) if final is not None else 0.0
            info["final_reward"] = float(returns[seat])
            infos[agent] = info


def _positive_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer; got {value!r}")
    return int(value)


def split_config(config: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """An env_config -> (the adapter's own keys, the game's options)."""
    own = {key: config[key] for key in ADAPTER_KEYS if key in config}
    return own, {key: value for key, value in config.items() if key not in ADAPTER_KEYS}


# What an env runner calls: the AEC driver's kernels (init, legal_mask, step, observe; "parts"
# compiles step's parts in a unit of their own), the encoders (returns, full_state) and the
# scripted bots; not the batch forms, resample_hidden, the Parallel driver or the search.
RUNNER_STAGES = ("aec", "parts", "encoders", "bots")
# The same kernels as treasure_core.warmup's units, for processes to share: those of these stages.
RUNNER_UNITS = tuple(unit.name for unit in UNITS if set(unit.stages) <= set(RUNNER_STAGES))
RUNNER_JOBS = 2  # the units are ready two at a time at most


def warm_up(game: str, *, jobs: int | None = None, **options: Any) -> float:
    """Compile or load the kernels an env runner calls (`treasure_core.warmup.compile_game`'s
    RUNNER_STAGES), then one reset and one step of the adapter. Returns the seconds it took
    (about 1 s with numba's cache on this machine). Runs at each node's start
    (docs/distributed.md). With `jobs` above 1 (default: the node's free cores, at most 2) they
    compile in that many processes at once (RUNNER_UNITS: `step` in one, after the game's step
    parts if it has any, the rest of the AEC driver, the encoders and the bots in another), then
    load here. The adapter's reset and step then run under `load_only`: they compile nothing."""
    start = time.perf_counter()
    try:
        with load_only():  # a node whose cache has them (a shared file system, an image): loaded
            compile_game(game, RUNNER_STAGES, **options)
    except NotCached:
        jobs = min(RUNNER_JOBS, free_cores()) if jobs is None else jobs
        if jobs > 1:
            run_units([game], jobs, RUNNER_UNITS)
        compile_game(game, RUNNER_STAGES, **options)
    # The adapter calls no kernel beyond RUNNER_STAGES': one it did would raise NotCached here.
    with load_only():
        env = TreasureMultiAgentEnv({"game": game, "seed": 0, **options})
        observations, _ = env.reset(seed=0)
        env.step({agent: env.action_spaces[agent].sample() for agent in observations})
        env.state()
    return time.perf_counter() - start
