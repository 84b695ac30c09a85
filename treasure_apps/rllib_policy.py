"""RLlib checkpoints as players: `treasure-envs eval --checkpoint OUT/checkpoint` and the final
table of `train --engine rllib` load main's RLModule alone (no Ray cluster), and an
`RLlibPolicyAgent` plays a seat with it. Apart from treasure_apps.rllib_train so that the
evaluation, which loads checkpoints, does not import the training."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from treasure_core.agents import Agent
from treasure_core.game import GameSpec

RLLIB_EXTRA_HINT = 'needs the rllib extra: pip install torch==2.13.0 && pip install -e ".[train,rllib]"'
MAIN = "main"
CHECKPOINT_MARKER = "rllib_checkpoint.json"  # what Algorithm.save_to_path writes at the top


def is_rllib_checkpoint(path: str | Path) -> bool:
    """A folder Algorithm.save_to_path wrote (no ray import)."""
    return Path(path).is_dir() and (Path(path) / CHECKPOINT_MARKER).is_file()


class RLlibPolicyAgent(Agent):
    """An RLlib RLModule (main, from a checkpoint) in one seat: the most probable legal action,
    or a sample among the legal ones. Like treasure_apps.policy.PolicyAgent it decides for many
    games in one forward pass (`probabilities`, then `choose`), which evaluation uses to play
    its games side by side (treasure_apps.evaluate)."""

    def __init__(self, module: Any, seed: int | None = None, deterministic: bool = True, name: str = "rllib"):
        self.module = module
        self.policy = module  # what evaluation batches by: the agents on one network
        self.rng = np.random.default_rng(seed)
        self.deterministic = deterministic
        self.name = name

    def factory(self) -> Callable[[int], RLlibPolicyAgent]:
        """Agents on this same module with their own seeds."""
        return functools.partial(type(self), self.module, deterministic=self.deterministic, name=self.name)

    def probabilities(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """(k, n_actions) float64 action probabilities, zero outside each mask."""
        import torch

        from treasure_adapters.rllib import MASK_KEY, OBS_KEY

        masks = masks.astype(np.float32)
        batch = {
            "obs": {
                OBS_KEY: torch.as_tensor(observations, dtype=torch.float32),
                MASK_KEY: torch.from_numpy(masks),
            }
        }
        with torch.no_grad():
            logits = self.module.forward_inference(batch)["action_dist_inputs"].numpy().astype(np.float64)
        logits = np.where(masks > 0, logits, -np.inf)
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))
        return weights / weights.sum(axis=1, keepdims=True)

    def choose(self, probabilities: np.ndarray) -> int:
        if self.deterministic:
            return int(np.argmax(probabilities))
        return int(self.rng.choice(probabilities.size, p=probabilities))

    def act(self, env: Any, agent: str) -> int:
        return self.choose(self.probabilities(env.features(agent)[None], env.action_mask(agent)[None])[0])


def load_rllib_policy(game: GameSpec, path: str | Path, deterministic: bool = True) -> tuple[Any, dict]:
    """An RLlib checkpoint folder -> (a factory seed -> RLlibPolicyAgent over main, run.json's
    settings or {}). Loads main's RLModule alone: no Ray cluster is started."""
    try:
        import torch
        from ray.rllib.core.rl_module.rl_module import RLModule
    except ImportError as error:
        raise ValueError(f"loading the RLlib checkpoint {path} {RLLIB_EXTRA_HINT} ({error})") from error
    path = Path(path)
    module_dir = path / "learner_group" / "learner" / "rl_module" / MAIN
    if not module_dir.is_dir():
        raise ValueError(f"{path} has no {MAIN} module at {module_dir}: not a treasure-envs RLlib checkpoint")
    torch.set_num_threads(1)
    module = RLModule.from_checkpoint(module_dir)
    module.eval()
    settings: dict[str, Any] = {}
    for folder in (path, path.parent):
        if (folder / "run.json").is_file():
            settings = json.loads((folder / "run.json").read_text())
            break
    if settings.get("game", game.name) != game.name:
        raise ValueError(f"{path} was trained on {settings['game']}, not {game.name}")
    dims = game.dims(game.make_params(game.validate(settings.get("options", {}))))
    from treasure_adapters.rllib import OBS_KEY

    shape = module.observation_space[OBS_KEY].shape
    if shape != (dims.obs_size,) or int(module.action_space.n) != dims.n_actions:
        raise ValueError(
            f"{path} takes observations of shape {shape} and {module.action_space.n} actions; "
            f"{game.env_name} has ({dims.obs_size},) and {dims.n_actions}: trained on another version"
        )

    def make(seed: int) -> RLlibPolicyAgent:
        return RLlibPolicyAgent(module, seed, deterministic=deterministic, name=path.parent.name or "rllib")

    return make, settings
