"""Recorded trajectories: what every game does for fixed seeds and decisions, per variant.

`record(name, options)` plays a fixed script through every public path (the AEC env with all
observations and the full state at every step, the scripted bots, resample_hidden, the batch
runner, the in-kernel playout, and the Parallel env) and digests what comes out.
tests/data/trajectories.json holds the digests recorded before a change; test_replay.py
plays the same scripts again and compares. Record a new game's variants, or one whose env
version was bumped, by name (the other games' recordings are kept):

    python tests/trajectories.py --record GAME [GAME ...]
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from treasure_core.aec import TreasureAECEnv
from treasure_core.batch import BatchRunner
from treasure_core.parallel import TreasureParallelEnv
from treasure_core.registry import all_games, get_game, module_of

DATA = Path(__file__).parent / "data" / "trajectories.json"
MAX_STEPS = 5000
MASK64 = (1 << 64) - 1


def pick(seed: int, step: int, mask: np.ndarray) -> int:
    """A legal action chosen by a fixed integer hash (no numpy generator, whose streams may
    change between numpy versions)."""
    legal = np.flatnonzero(mask)
    z = (seed * 0x9E3779B97F4A7C15 + step * 0xBF58476D1CE4E5B9 + 1) & MASK64
    z = ((z ^ (z >> 31)) * 0x94D049BB133111EB) & MASK64
    return int(legal[(z ^ (z >> 29)) % legal.size])


class Digest:
    def __init__(self) -> None:
        self.hash = hashlib.sha256()

    def add(self, *parts: Any) -> None:
        for part in parts:
            if isinstance(part, np.ndarray):
                self.hash.update(str(part.dtype).encode() + str(part.shape).encode())
                self.hash.update(np.ascontiguousarray(part).tobytes())
            else:
                self.hash.update(repr(part).encode())

    def hex(self) -> str:
        return self.hash.hexdigest()[:20]


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):  # an info's action_mask is digested with the observations
        return {str(k): _jsonable(v) for k, v in sorted(value.items()) if k != "action_mask"}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return round(float(value), 6)
    return str(value)


def aec_game(name: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    game = get_game(name)
    env = TreasureAECEnv(game, render_mode="ansi", **options)
    env.reset(seed=seed)
    digest, steps, resampled, words = Digest(), [], Digest(), Digest()
    for step in range(MAX_STEPS):
        for agent in env.possible_agents:
            seen = env.observe(agent)
            digest.add(seen["observation"], seen["action_mask"])
        digest.add(env.get_state(), env.state(), env.agent_selection, sorted(env.rewards.items()))
        if step % 7 == 3:
            resampled.add(env.resample_hidden(step % env.num_players, seed + step))
            env.render_viewer = step % env.num_players
            words.add(env.render(), game.render_rgb(env.get_state()))
        state = env.get_state()
        words.add([game.action_name(state, a) for a in env.legal_actions()])
        if env.is_over():  # by the rules, or cut by the guard
            break
        action = pick(seed, step, env.observe(env.agent_selection)["action_mask"])
        env.step(action)
        steps.append(action)
    return {
        "seed": seed,
        "actions": steps,
        "digest": digest.hex(),
        "resample_hidden": resampled.hex(),
        "words": words.hex(),
        "rewards": _jsonable(env.rewards),
        "infos": _jsonable(env.infos),
    }


def bot_game(name: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    game = get_game(name)
    env = TreasureAECEnv(game, **options)
    env.reset(seed=seed)
    actions = []
    for bot_name, make_bot in game.bots.items():
        bots = [make_bot(seed + p) for p in range(env.num_players)]
        env.reset(seed=seed)
        while not env.is_over() and len(actions) < MAX_STEPS:
            seat = env.possible_agents.index(env.agent_selection)
            action = bots[seat].act(env, env.agent_selection)
            actions.append((bot_name, action))
            env.step(action)
    return {"actions": _jsonable(actions), "infos": _jsonable(env.infos)}


def batch_run(name: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    runner = BatchRunner(name, 8, seed=seed, num_threads=1, **options)
    digest = Digest()
    for step in range(120):
        masks = runner.legal_masks().copy()
        observations = runner.observe()
        actions = np.array([pick(seed + i, step, masks[i]) for i in range(runner.n_games)], np.int64)
        rewards, dones = runner.step(actions)
        digest.add(masks, observations, rewards, dones, runner.states)
    steps, finished = runner.random_playout(150, seed=seed + 1)
    digest.add(runner.states)
    return {"digest": digest.hex(), "playout": [steps, finished]}


def parallel_game(name: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    env = TreasureParallelEnv(get_game(name), **options)
    observations, _ = env.reset(seed=seed)
    digest = Digest()
    step = 0
    while env.agents and step < MAX_STEPS:
        actions = {}
        for agent, seen in sorted(observations.items()):
            digest.add(agent, seen["observation"], seen["action_mask"])
            mask = seen["action_mask"]
            actions[agent] = pick(seed, step * 8 + len(actions), mask) if mask.any() else 0
        observations, rewards, terminations, truncations, infos = env.step(actions)
        digest.add(sorted(rewards.items()), sorted(terminations.items()), env.get_state())
        step += 1
    return {"digest": digest.hex(), "steps": step, "infos": _jsonable(infos)}


def record(name: str, options: dict[str, Any]) -> dict[str, Any]:
    game = get_game(name)
    out = {
        "env_name": game.env_name,
        "aec": [aec_game(name, options, seed) for seed in (11, 2026)],
        "bots": bot_game(name, options, 5),
        "batch": batch_run(name, options, 40),
    }
    out["parallel"] = parallel_game(name, options, 9)
    return out


def in_tree(game: Any) -> bool:
    """Whether the game's package is part of this repository (not installed from elsewhere)."""
    root = Path(__file__).resolve().parent.parent
    return (root / module_of(game.name) / "__init__.py").is_file()


def configs() -> list[tuple[str, dict[str, Any]]]:
    """Every game of this repository: each player count, each non-default option value, the
    game's combinations."""
    out: list[tuple[str, dict[str, Any]]] = []
    for game in filter(in_tree, all_games()):
        for n in range(game.min_players, game.max_players + 1):
            out.append((game.name, {"num_players": n}))
        for option in game.options:
            if option.name in ("num_players", "illegal_action", "observation_format"):  # drivers' own
                continue
            for choice in option.choices:
                if choice != option.default:
                    out.append((game.name, {option.name: choice}))
        for options in game.test_configs:
            if (game.name, dict(options)) not in out:
                out.append((game.name, dict(options)))
    return out


def key(name: str, options: dict[str, Any]) -> str:
    return name + "|" + json.dumps(options, sort_keys=True)


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "--record":
        sys.exit("usage: python tests/trajectories.py --record GAME [GAME ...]")
    games = set(sys.argv[2:])
    recorded = json.loads(DATA.read_text()) if DATA.exists() else {}
    recorded = {k: v for k, v in recorded.items() if k.split("|")[0] not in games}
    for name, options in configs():
        if name in games:
            recorded[key(name, options)] = record(name, options)
            print("recorded", key(name, options))
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
