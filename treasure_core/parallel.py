"""The generic PettingZoo Parallel environment, driven by a game's kernels.

One parallel step takes the decisions of every seat that decides now (those whose
`legal_mask(state, seat)` is not empty: several in a simultaneous phase, such as Karuba's
tiles), applies them in the order the kernels take them (exactly as the AEC env would, one
after the other, each unseen by the others), and returns what follows. A seat that does not
decide now gets an all-zero action mask, and the action given for it is ignored. The state
array, the kernels and the rules are the AEC env's: the same seed and decisions give the same
game in both, for every game.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from treasure_core.aec import TreasureAECEnv, as_action, normalise_seed, player_info, random_seed
from treasure_core.game import GameSpec
from treasure_core.header import CURRENT_PLAYER, TERMINAL


class TreasureParallelEnv(ParallelEnv):
    """PettingZoo Parallel environment over one game's kernels (see GameSpec)."""

    def __init__(self, game: GameSpec, render_mode: str | None = None, **options: Any):
        # The AEC env holds the state, the spaces, validation, state() and rendering.
        self._aec = TreasureAECEnv(game, render_mode=render_mode, **options)
        self.game = game
        self.options = self._aec.options
        self.render_mode = render_mode
        self.metadata = dict(self._aec.metadata, is_parallelizable=True)
        self.num_players = self._aec.num_players
        self.possible_agents = self._aec.possible_agents[:]
        self.agents: list[str] = []
        self.observation_spaces = self._aec.observation_spaces
        self.action_spaces = self._aec.action_spaces
        self.state_space = self._aec.state_space
        self._has_state = False

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def render_viewer(self) -> int | None:
        return self._aec.render_viewer

    @render_viewer.setter
    def render_viewer(self, viewer: int | None) -> None:
        self._aec.render_viewer = viewer

    # -- lifecycle ------------------------------------------------------------------------
    def reset(
        self, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict]]:
        """Start a game; `seed` determines it entirely (game options go to the constructor)."""
        self.seed_used = random_seed() if seed is None else normalise_seed(seed)
        self._aec.reset(seed=self.seed_used)
        self._has_state = True
        self.agents = self.possible_agents[:]
        return self._observations(), {agent: {} for agent in self.agents}

    def deciding_seats(self) -> list[int]:
        """The seats that decide in the next step, in seat order."""
        state = self._aec._state
        if state[TERMINAL]:
            return []
        return [seat for seat in range(self.num_players) if self.legal_mask(seat).any()]

    def legal_mask(self, seat: int) -> np.ndarray:
        """Seat's legal actions in the next step (all zeros if it does not decide in it)."""
        mask = np.zeros(self._aec.dims.n_actions, np.int8)
        self.game.kernels.legal_mask(self._aec._state, seat, mask)
        return mask

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        out = {}
        for agent in self.agents:
            seat = self._aec._player_of[agent]
            observation = np.empty(self._aec.dims.obs_size, np.float32)
            self.game.kernels.observe(self._aec._state, seat, observation)
            out[agent] = {"observation": observation, "action_mask": self.legal_mask(seat)}
        return out

    def _checked(self, actions: dict[str, Any]) -> dict[int, int]:
        """seat -> action for each deciding seat; ValueError naming the first bad one."""
        if not isinstance(actions, dict):
            raise ValueError(f"{self.game.env_name}: step takes a dict agent -> action; got {actions!r}")
        checked = {}
        for seat in self.deciding_seats():
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"{self.game.env_name}: no action for {agent}, which decides this step")
            action = as_action(actions[agent])
            mask = self.legal_mask(seat)
            if action is None or not (0 <= action < mask.size and mask[action]):
                state = self._aec._state
                legal = ", ".join(
                    f"{a} ({self.game.action_name(state, int(a), seat)})" for a in np.flatnonzero(mask)
                )
                what = "is illegal" if action is not None else "is not an integer action"
                raise _IllegalAction(
                    agent,
                    f"{self.game.env_name}: {actions[agent]!r} {what} for {agent}; legal actions are {legal}",
                )
            checked[seat] = action
        return checked

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Every deciding seat's decision at once; returns (observations, rewards,
        terminations, truncations, infos) for the agents live before the step."""
        if not self._has_state:
            raise RuntimeError(f"{self.game.env_name}: call reset() (or set_state()) first")
        live = self.agents[:]
        if not live:
            raise ValueError(f"{self.game.env_name}: the game is over; call reset()")
        try:
            decisions = self._checked(actions)
        except _IllegalAction as error:
            if self.options["illegal_action"] == "raise":
                raise ValueError(str(error)) from None
            return self._penalize(live, error.agent)
        state = self._aec._state
        for _ in range(len(decisions)):
            # The kernels take the decisions in their own order: whoever they ask for next.
            seat = int(state[CURRENT_PLAYER])
            if seat not in decisions or state[TERMINAL]:
                raise RuntimeError(f"{self.game.name}: the kernels ask seat {seat} out of turn")
            self.game.kernels.step(state, decisions.pop(seat))
        rewards = {agent: 0.0 for agent in live}
        infos: dict[str, dict] = {agent: {} for agent in live}
        done = bool(state[TERMINAL])
        if done:
            returns = np.zeros(self.num_players, np.float32)
            self.game.kernels.returns(state, returns)
            info = self.game.final_info(state)
            for agent in live:
                seat = self._aec._player_of[agent]
                rewards[agent] = float(returns[seat])
                infos[agent] = player_info(info, seat)
        observations = self._observations()
        terminations = {agent: done for agent in live}
        truncations = {agent: False for agent in live}
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _penalize(self, live: list[str], offender: str) -> tuple[dict, dict, dict, dict, dict]:
        """PettingZoo's terminate-on-illegal-move behaviour, for training; state unchanged."""
        observations = self._observations()
        rewards = {agent: -1.0 if agent == offender else 0.0 for agent in live}
        infos = {agent: {"illegal_action": agent == offender} for agent in live}
        self.agents = []
        return observations, rewards, {a: True for a in live}, {a: False for a in live}, infos

    # -- views, search and replay ---------------------------------------------------------
    def state(self) -> np.ndarray:
        """The full-information view (every secret), for centralised critics."""
        return self._aec.state()

    def get_state(self) -> np.ndarray:
        return self._aec.get_state()

    def set_state(self, state: np.ndarray | bytes) -> None:
        """Load a state array (or its bytes) from either driver."""
        self._aec.set_state(state)
        self._has_state = True
        self.agents = [] if self._aec._state[TERMINAL] else self.possible_agents[:]

    def render(self) -> str | np.ndarray | None:
        return self._aec.render()

    def close(self) -> None:
        pass


class _IllegalAction(ValueError):
    def __init__(self, agent: str, message: str):
        super().__init__(message)
        self.agent = agent
