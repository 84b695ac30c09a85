"""The one generic PettingZoo AEC environment, driven by a game's kernels.

All game logic lives in the kernels and the state array; this class only keeps PettingZoo's
bookkeeping (agents, rewards, terminations, infos) in step with the state, checks actions,
and encodes observations.
"""

from __future__ import annotations

import copy
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from treasure_core.game import GameSpec
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, STATE_DTYPE, TERMINAL

SEED_MODULUS = 2**63  # kernels take seeds as int64


def agent_name(player: int) -> str:
    return f"player_{player}"


def normalise_seed(seed: Any) -> int:
    """A non-negative seed below 2**63; anything else is an error, never wrapped."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be a non-negative integer below 2**63; got {seed!r}")
    if not 0 <= int(seed) < SEED_MODULUS:
        raise ValueError(f"seed must be a non-negative integer below 2**63; got {seed!r}")
    return int(seed)


def random_seed() -> int:
    return int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(1))


def as_action(action: Any) -> int | None:
    """An action as a Python int, or None if it is not an integer (bools and floats are not;
    a 0-d integer array is). Range and legality are the caller's to check."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    return None


def player_info(info: dict[str, Any], player: int) -> dict[str, Any]:
    """One player's share of a game's final_info: list values are per player, the rest shared."""
    return {key: value[player] if isinstance(value, list) else value for key, value in info.items()}


class TreasureAECEnv(AECEnv):
    """PettingZoo AEC environment over one game's kernels (see GameSpec)."""

    def __init__(self, game: GameSpec, render_mode: str | None = None, **options: Any):
        super().__init__()
        self.game = game
        self.options = game.validate(options)
        self.params = game.make_params(self.options)
        self.metadata = {
            "name": game.env_name,
            "render_modes": ["ansi", "human", "rgb_array"],
            "is_parallelizable": False,
            "render_fps": 2,
        }
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"{game.name}: render_mode must be None or one of "
                f"{', '.join(map(repr, self.metadata['render_modes']))}; got {render_mode!r}"
            )
        self.render_mode = render_mode
        self.render_viewer: int | None = None  # None: public view only; p: adds p's secrets
        self.num_players = int(self.options["num_players"])
        self.possible_agents = [agent_name(p) for p in range(self.num_players)]
        self._player_of = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.dims = game.dims(self.params)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.dims.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.dims.n_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: self._observation_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.dims.n_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(0.0, 1.0, (self.dims.full_state_size,), np.float32)
        self._state = np.zeros(self.dims.state_size, STATE_DTYPE)
        self._mask = np.zeros(self.dims.n_actions, np.int8)
        self._returns = np.zeros(self.num_players, np.float32)
        self._has_state = False

    # -- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- lifecycle ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a game; `seed` determines it entirely. Game options belong to the
        constructor; `options` is accepted for PettingZoo compatibility and not used."""
        self.seed_used = random_seed() if seed is None else normalise_seed(seed)
        self.game.kernels.init(self._state, self.params, self.seed_used)
        self._has_state = True
        self._sync_from_state()

    def _sync_from_state(self) -> None:
        """Rebuild PettingZoo's bookkeeping from the state array alone."""
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[int(self._state[CURRENT_PLAYER])]
        if self._state[TERMINAL]:
            self._finish()

    def _finish(self) -> None:
        self.game.kernels.returns(self._state, self._returns)
        info = self.game.final_info(self._state)
        for p, agent in enumerate(self.possible_agents):
            self.rewards[agent] = float(self._returns[p])
            self.terminations[agent] = True
            self.infos[agent] = player_info(info, p)
        self._accumulate_rewards()

    def _require_game(self) -> None:
        if not self._has_state:
            raise RuntimeError(f"{self.game.env_name}: call reset() (or set_state()) first")

    def step(self, action: Any) -> None:
        self._require_game()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            action = self._check_action(agent, action)
        except ValueError:
            if self.options["illegal_action"] == "raise":
                raise
            self._penalize(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.game.kernels.step(self._state, action)
        self.agent_selection = self.possible_agents[int(self._state[CURRENT_PLAYER])]
        if self._state[TERMINAL]:
            self._finish()

    def _check_action(self, agent: str, action: Any) -> int:
        checked = as_action(action)
        if checked is not None and 0 <= checked < self.dims.n_actions:
            self.game.kernels.legal_mask(self._state, self._player_of[agent], self._mask)
            if self._mask[checked]:
                return checked
        legal = ", ".join(f"{a} ({self.game.action_name(self._state, a)})" for a in self.legal_actions())
        what = "is illegal" if checked is not None else "is not an integer action"
        raise ValueError(f"{self.game.env_name}: {action!r} {what} for {agent}; legal actions are {legal}")

    def _penalize(self, agent: str) -> None:
        """PettingZoo's terminate-on-illegal-move behaviour, for training."""
        self._clear_rewards()
        for other in self.agents:
            self.terminations[other] = True
            self.rewards[other] = -1.0 if other == agent else 0.0
            self.infos[other] = {"illegal_action": other == agent}
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()

    # -- observations ---------------------------------------------------------------------
    def phase(self) -> str:
        """The name of the phase the game is in (GameSpec.phases), e.g. Karuba's "draft"."""
        self._require_game()
        return self.game.phases[int(self.game.kernels.phase(self._state))]

    def legal_actions(self) -> list[int]:
        """Legal actions of the agent to act (empty when the game is over)."""
        if self._state[TERMINAL]:
            return []
        self.game.kernels.legal_mask(self._state, int(self._state[CURRENT_PLAYER]), self._mask)
        return np.flatnonzero(self._mask).tolist()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._require_game()
        player = self._player_of[agent]
        observation = np.empty(self.dims.obs_size, np.float32)
        self.game.kernels.observe(self._state, player, observation)
        mask = np.zeros(self.dims.n_actions, np.int8)
        if agent == self.agent_selection and not self._state[TERMINAL]:
            self.game.kernels.legal_mask(self._state, player, mask)
        return {"observation": observation, "action_mask": mask}

    def state(self) -> np.ndarray:
        """The full-information view (every secret), for centralised critics."""
        self._require_game()
        out = np.empty(self.dims.full_state_size, np.float32)
        self.game.kernels.full_state(self._state, out)
        return out

    # -- search and replay ----------------------------------------------------------------
    def get_state(self) -> np.ndarray:
        """A copy of the state array: the whole game, chance included."""
        self._require_game()
        return self._state.copy()

    def set_state(self, state: np.ndarray | bytes) -> None:
        """Load a state (an array from get_state, or its bytes); bookkeeping is rebuilt."""
        if isinstance(state, (bytes, bytearray, memoryview)):
            state = np.frombuffer(bytes(state), dtype=STATE_DTYPE)
        state = np.asarray(state)
        if state.dtype != STATE_DTYPE or state.shape != self._state.shape:
            raise ValueError(
                f"{self.game.name}: a state must be a {np.dtype(STATE_DTYPE).name} array of shape "
                f"{self._state.shape}; got {state.dtype} {state.shape}"
            )
        if int(state[NUM_PLAYERS]) != self.num_players:
            raise ValueError(
                f"{self.game.name}: the state is for {int(state[NUM_PLAYERS])} players; "
                f"this env has {self.num_players}"
            )
        self._state[:] = state
        self._has_state = True
        self._sync_from_state()

    def clone(self) -> TreasureAECEnv:
        """An independent copy of this env, mid-game included."""
        twin = copy.copy(self)
        twin._state = self._state.copy()
        twin._mask = self._mask.copy()
        twin._returns = self._returns.copy()
        for name in ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos"):
            if hasattr(self, name):
                setattr(twin, name, copy.deepcopy(getattr(self, name)))
        return twin

    def resample_hidden(self, agent: str | int, seed: int) -> np.ndarray:
        """A state that agent cannot tell from this one: everything it cannot know re-dealt."""
        player = self._player_of[agent] if isinstance(agent, str) else int(agent)
        if not 0 <= player < self.num_players:
            raise ValueError(f"{self.game.name}: player must be in 0..{self.num_players - 1}; got {agent!r}")
        twin = self._state.copy()
        self.game.kernels.resample_hidden(twin, player, normalise_seed(seed))
        return twin

    # -- rendering ------------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self._state)
        text = self.game.render_ansi(self._state, viewer=self.render_viewer)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
