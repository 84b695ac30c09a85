"""Trained models as players, and the vectorised env for collecting experience.

Needs the `train` extra (torch, stable-baselines3, sb3-contrib); the rest of treasure_apps
imports it only when a checkpoint is loaded or training starts.

- `PolicyAgent`: a MaskablePPO policy network playing a seat, as an `Agent`; its sampling uses
  its own seeded generator, so a game with a snapshot opponent is reproducible.
- `TreasureVecEnv`: N games of one game in one process as an sb3 VecEnv. Snapshot opponents
  that share a network are evaluated in one batched forward pass across the N games.
- `load_checkpoint`: a saved model -> its policy network.
"""

from __future__ import annotations

import copy
import functools
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.vec_env import DummyVecEnv

from treasure_adapters.single_agent import TreasureGymEnv
from treasure_core.aec import TreasureAECEnv
from treasure_core.agents import Agent
from treasure_core.game import GameSpec


class PolicyAgent(Agent):
    """A policy network in one seat: samples among the legal actions (or takes the most
    probable one when `deterministic`). Several agents may share one network."""

    name = "policy"

    def __init__(
        self,
        policy: MaskableActorCriticPolicy,
        seed: int | None = None,
        deterministic: bool = False,
        name: str = "policy",
    ):
        self.policy = policy
        self.rng = np.random.default_rng(seed)
        self.deterministic = deterministic
        self.name = name

    @classmethod
    def snapshot(
        cls, policy: MaskableActorCriticPolicy, name: str = "snapshot"
    ) -> Callable[[int], PolicyAgent]:
        """A frozen copy of `policy`, as a factory seed -> PolicyAgent (for opponents)."""
        frozen = copy.deepcopy(policy).eval()
        for parameter in frozen.parameters():
            parameter.requires_grad_(False)
        return functools.partial(cls, frozen, name=name)

    def factory(self) -> Callable[[int], PolicyAgent]:
        """Agents on this same network with their own seeds."""
        return functools.partial(type(self), self.policy, deterministic=self.deterministic, name=self.name)

    def probabilities(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """(k, n_actions) action probabilities, zero outside each mask."""
        with torch.no_grad():
            obs = torch.as_tensor(observations, dtype=torch.float32, device=self.policy.device)
            distribution = self.policy.get_distribution(obs, action_masks=masks.astype(np.bool_))
            return distribution.distribution.probs.cpu().numpy()

    def choose(self, probabilities: np.ndarray) -> int:
        if self.deterministic:
            return int(np.argmax(probabilities))
        cumulative = np.cumsum(probabilities, dtype=np.float64)
        return int(
            min(
                np.searchsorted(cumulative, self.rng.random() * cumulative[-1], side="right"),
                len(cumulative) - 1,
            )
        )

    def act(self, env: TreasureAECEnv, agent: str) -> int:
        probabilities = self.probabilities(env.features(agent)[None], env.action_mask(agent)[None])[0]
        return self.choose(probabilities)


def advance_opponents(envs: Sequence[TreasureGymEnv]) -> None:
    """`play_opponents` for many games at once: snapshot opponents sharing a network decide
    together in one forward pass; other agents decide one by one."""
    while True:
        waiting = [(env, *w) for env in envs if (w := env.waiting_opponent()) is not None]
        if not waiting:
            return
        batches: dict[int, list[tuple[TreasureGymEnv, PolicyAgent, str]]] = {}
        for env, opponent, agent in waiting:
            if isinstance(opponent, PolicyAgent):
                batches.setdefault(id(opponent.policy), []).append((env, opponent, agent))
            else:
                env.opponent_step(opponent.act(env.aec, agent))
        for batch in batches.values():
            observations = np.stack([env.aec.features(agent) for env, _, agent in batch])
            masks = np.stack([env.aec.action_mask(agent) for env, _, agent in batch])
            probabilities = batch[0][1].probabilities(observations, masks)
            for (env, opponent, _), row in zip(batch, probabilities, strict=True):
                env.opponent_step(opponent.choose(row))


class TreasureVecEnv(DummyVecEnv):
    """`n_envs` games of one game as an sb3 VecEnv, for MaskablePPO: each game is a
    TreasureGymEnv (same arguments), the opponents of all games are advanced together, and a
    finished game restarts at once (its last observation in info["terminal_observation"])."""

    def __init__(
        self,
        game: str | GameSpec,
        n_envs: int,
        opponents: Any = "random",
        learner_seat: int | str = "random",
        seed: int | None = None,
        **options: Any,
    ):
        if isinstance(n_envs, bool) or not isinstance(n_envs, int) or n_envs < 1:
            raise ValueError(f"n_envs must be a positive integer; got {n_envs!r}")
        make = functools.partial(
            TreasureGymEnv, game, opponents=opponents, learner_seat=learner_seat, **options
        )
        super().__init__([make for _ in range(n_envs)])
        self.games: list[TreasureGymEnv] = list(self.envs)  # type: ignore[arg-type]
        self.episode_steps = np.zeros(n_envs, np.int64)
        self.started = time.perf_counter()
        if seed is not None:
            self.seed(seed)

    def _start(self, games: list[tuple[int, TreasureGymEnv]], seeds: list, options: list) -> None:
        for i, env in games:
            env.begin_game(seeds[i], options[i] or None)
        advance_opponents([env for _, env in games])
        for i, env in games:
            if env.is_over():
                raise RuntimeError(f"{env.game.name}: a game ended before the learner's first decision")
            self.reset_infos[i] = {"learner_seat": env.learner_seat}

    def reset(self) -> np.ndarray:
        self.episode_steps[:] = 0
        self._start(list(enumerate(self.games)), self._seeds, self._options)
        self._reset_seeds()
        self._reset_options()
        for i, env in enumerate(self.games):
            self._save_obs(i, env.observation())
        return self._obs_from_buf()

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        for env, action in zip(self.games, self.actions, strict=True):
            env.learner_step(action)
        self.episode_steps += 1
        advance_opponents(self.games)
        ended = []
        for i, env in enumerate(self.games):
            reward, terminated, truncated, info = env.outcome()
            self.buf_rews[i] = reward
            self.buf_dones[i] = terminated or truncated
            info["TimeLimit.truncated"] = truncated  # the guard cut it: sb3 bootstraps the value
            if terminated or truncated:
                info["terminal_observation"] = env.observation()
                # sb3's episode statistics (rollout/ep_rew_mean), as its Monitor wrapper gives
                elapsed = round(time.perf_counter() - self.started, 6)
                info["episode"] = {"r": reward, "l": int(self.episode_steps[i]), "t": elapsed}
                self.episode_steps[i] = 0
                ended.append((i, env))
            self.buf_infos[i] = info
        if ended:
            none = [None] * self.num_envs
            self._start(ended, none, [{}] * self.num_envs)
        for i, env in enumerate(self.games):
            self._save_obs(i, env.observation())
        infos = copy.deepcopy(self.buf_infos)
        return self._obs_from_buf(), self.buf_rews.copy(), self.buf_dones.copy(), infos

    def action_masks(self) -> np.ndarray:
        return np.stack([env.action_masks() for env in self.games])


RUN_FILE = "run.json"


def load_checkpoint(path: str | Path) -> tuple[MaskableActorCriticPolicy, dict[str, Any]]:
    """A saved MaskablePPO model -> (its policy network, the run's settings from run.json
    beside it or one folder up; {} when there is none)."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no checkpoint at {path}")
    model = MaskablePPO.load(path, device="cpu")
    settings: dict[str, Any] = {}
    for folder in (path.parent, path.parent.parent):
        if (folder / RUN_FILE).is_file():
            settings = json.loads((folder / RUN_FILE).read_text())
            break
    return model.policy.eval(), settings
