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

from treasure_core.aec import (
    TreasureAECEnv,
    checked_action,
    normalise_seed,
    player_info,
    random_seed,
    warn_penalty,
)
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
        self.info_names = self._aec.info_names
        self.observation_spaces = self._aec.observation_spaces
        self.action_spaces = self._aec.action_spaces
        self.state_space = self._aec.state_space
        self._has_state = False
        self._penalized = False  # an illegal action ended the game

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
        self._penalized = False
        self.agents = self.possible_agents[:]
        masks = self._masks()
        return self._observations(masks), self._live_infos(self.agents, masks)

    def _how_it_ended(self) -> str:
        if self._penalized:
            return "it ended on an illegal action"
        if self._aec.guard_cuts():
            return f"the guard cut it after {self.game.guard.describe(self.options)}"
        return "it ended by the rules"

    def _over(self) -> bool:
        """Ended by the rules, or cut by the guard (GameSpec.guard)."""
        return bool(self._aec._state[TERMINAL]) or self._aec.guard_cuts()

    def deciding_seats(self) -> list[int]:
        """The seats that decide in the next step, in seat order."""
        if self._over():
            return []
        return [seat for seat in range(self.num_players) if self.legal_mask(seat).any()]

    def legal_mask(self, seat: int) -> np.ndarray:
        """Seat's legal actions in the next step (all zeros if it does not decide in it)."""
        mask = np.zeros(self._aec.dims.n_actions, np.int8)
        self.game.live.legal_mask(self._aec._state, seat, mask)
        return mask

    def _masks(self) -> dict[str, np.ndarray]:
        """Every agent's legal actions in the next step (all zeros once the game is over)."""
        over = self._over()
        zeros = np.zeros(self._aec.dims.n_actions, np.int8)
        return {
            agent: zeros.copy() if over else self.legal_mask(seat)
            for seat, agent in enumerate(self.possible_agents)
        }

    def _observations(self, masks: dict[str, np.ndarray]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for agent in self.agents:
            seat = self._aec._player_of[agent]
            observation = np.empty(self._aec.dims.obs_size, np.float32)
            self.game.live.observe(self._aec._state, seat, observation)
            if self._aec.observation_format == "box":
                out[agent] = observation
            else:
                out[agent] = {"observation": observation, "action_mask": masks[agent]}
        return out

    def _live_infos(self, agents: list[str], masks: dict[str, np.ndarray]) -> dict[str, dict[str, Any]]:
        blank = self._aec.blank_info()
        return {agent: {**blank, "action_mask": masks[agent].copy()} for agent in agents}

    def _checked(self, actions: dict[str, Any]) -> tuple[dict[int, int], str | None]:
        """(seat -> action for each deciding seat, the first in-range illegal one's agent or
        None). Anything that is not an integer in range, or a missing decision, raises
        ValueError; so does an illegal action under illegal_action="raise"."""
        if not isinstance(actions, dict):
            raise ValueError(f"{self.game.env_name}: step takes a dict agent -> action; got {actions!r}")
        checked: dict[int, int] = {}
        offender = None
        state = self._aec._state
        for seat in self.deciding_seats():
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"{self.game.env_name}: no action for {agent}, which decides this step")
            action = checked_action(
                self.game,
                state,
                agent,
                seat,
                actions[agent],
                self.legal_mask(seat),
                self.options["illegal_action"],
            )
            if action is None:
                offender = offender or agent
            else:
                checked[seat] = action
        return checked, offender

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Every deciding seat's decision at once; returns (observations, rewards,
        terminations, truncations, infos) for the agents live before the step."""
        if not self._has_state:
            raise RuntimeError(f"{self.game.env_name}: call reset() (or set_state()) first")
        live = self.agents[:]
        if not live:
            raise ValueError(
                f"{self.game.env_name}: step() after the end of the game ({self._how_it_ended()}, "
                "every agent done); call reset() or set_state()"
            )
        decisions, offender = self._checked(actions)
        if offender is not None:
            return self._penalize(live, offender, actions[offender])
        state = self._aec._state
        for _ in range(len(decisions)):
            # The kernels take the decisions in their own order: whoever they ask for next.
            seat = int(state[CURRENT_PLAYER])
            if seat not in decisions or state[TERMINAL]:
                raise RuntimeError(f"{self.game.name}: the kernels ask seat {seat} out of turn")
            self.game.live.step(state, decisions.pop(seat))
        rewards = {agent: 0.0 for agent in live}
        masks = self._masks()
        infos = self._live_infos(live, masks)
        done = bool(state[TERMINAL])
        cut = not done and self._aec.guard_cuts()  # the guard: a truncation, rewards 0
        if done or cut:
            returns = np.zeros(self.num_players, np.float32)
            if done:
                self.game.live.returns(state, returns)
            info = self.game.final_info(state, truncated=cut)
            for agent in live:
                seat = self._aec._player_of[agent]
                rewards[agent] = float(returns[seat])
                infos[agent].update(player_info(info, seat))
        observations = self._observations(masks)
        terminations = {agent: done for agent in live}
        truncations = {agent: cut for agent in live}
        if done or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _penalize(self, live: list[str], offender: str, action: Any) -> tuple[dict, dict, dict, dict, dict]:
        """PettingZoo's convention for an illegal move: the game ends, -1 for the offender and 0
        for the others; the state stays as it was before the step."""
        warn_penalty(self.game, offender, action)
        self._penalized = True
        zeros = {agent: np.zeros(self._aec.dims.n_actions, np.int8) for agent in self.possible_agents}
        observations = self._observations(zeros)
        rewards = {agent: -1.0 if agent == offender else 0.0 for agent in live}
        infos = self._live_infos(live, zeros)
        for agent in live:
            infos[agent]["illegal_action"] = int(agent == offender)
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
        self._penalized = False
        self.agents = [] if self._over() else self.possible_agents[:]

    def render(self) -> str | np.ndarray | None:
        return self._aec.render()

    def close(self) -> None:
        pass
