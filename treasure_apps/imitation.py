"""A warm start by imitation: a teacher's decisions as a training set, and behaviour cloning
of a MaskablePPO policy on them before PPO takes over (`treasure-envs train --teacher`).

The teacher (an agent spec: the search, `mcts:sims=200`, or a scripted bot) plays every seat of
fresh games; each decision gives one sample from the deciding seat's own view: its observation,
its legal actions, the target distribution (the search's root visits, richer than the chosen
action alone; a bot's chosen action), and the seat's
final reward, discounted by the decisions it still had to take, as the value target. Cloning
fits the policy to the target distributions (cross-entropy over the legal actions) and the value
head to the returns, so that PPO starts from the teacher's play with a value function that
already fits it, rather than destroying the policy in its first updates.

Needs the `train` extra (torch, sb3-contrib) for `clone`; `collect` needs only the games.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from treasure_core.aec import TreasureAECEnv
from treasure_core.agents import MCTSAgent, agent_factory
from treasure_core.game import GameSpec


@dataclass
class TeacherData:
    """The teacher's decisions: observations (k, obs), legal masks (k, actions) as bool, the
    root visit shares (k, actions), the discounted final rewards (k,), the deciding seats (k,)."""

    observations: np.ndarray
    masks: np.ndarray
    targets: np.ndarray
    returns: np.ndarray
    seats: np.ndarray
    games: int
    seconds: float

    def __len__(self) -> int:
        return len(self.returns)


def _teacher_game(
    game: GameSpec, options: dict[str, Any], teacher: str, seed: int, gamma: float
) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray], list[float], list[int]]:
    """One game with the teacher in every seat; its samples in decision order."""
    env = TreasureAECEnv(game, **options)
    n = env.num_players
    make = teacher_factory(game, teacher)
    agents = [make(seed * (n + 1) + p) for p in range(n)]
    env.reset(seed=seed * (n + 1) + n)
    observations, masks, targets, seats = [], [], [], []
    final = np.zeros(n)
    for name in env.agent_iter():
        _, reward, termination, truncation, _ = env.last()
        seat = env.possible_agents.index(name)
        if termination or truncation:
            final[seat] = 0.0 if truncation else reward  # a cut game is no one's result
            env.step(None)
            continue
        observations.append(env.features(name).astype(np.float32))
        mask = env.action_mask(name).astype(bool)
        masks.append(mask)
        action = agents[seat].act(env, name)
        if isinstance(agents[seat], MCTSAgent):
            visits = agents[seat].visits[: mask.size].astype(np.float64) * mask
        else:
            visits = np.zeros(mask.size)  # a bot: its chosen action
        if visits.sum() <= 0:  # (or a decision with nothing searched)
            visits[action] = 1.0
        targets.append((visits / visits.sum()).astype(np.float32))
        seats.append(seat)
        env.step(action)
    # The value of a decision: the final reward, discounted by the seat's decisions after it.
    returns = [0.0] * len(seats)
    later = np.zeros(n, np.int64)
    for i in range(len(seats) - 1, -1, -1):
        returns[i] = float(final[seats[i]] * gamma ** later[seats[i]])
        later[seats[i]] += 1
    return observations, masks, targets, returns, seats


def teacher_factory(game: GameSpec, teacher: str) -> Callable[[int], Any]:
    """The teacher's agent factory: an mcts spec or one of the game's bots (a ValueError
    otherwise, random play included: there is nothing to learn from it)."""
    named = isinstance(teacher, str) and (teacher in game.bots or teacher.partition(":")[0] == "mcts")
    if not named:
        choices = ", ".join(["mcts[:key=value,...]", *game.bots])
        raise ValueError(f"{game.name}: the teacher must be the search or a bot ({choices}); got {teacher!r}")
    return agent_factory(game, teacher)


def collect(
    game: GameSpec,
    options: dict[str, Any],
    teacher: str,
    decisions: int,
    seed: int = 0,
    gamma: float = 0.995,
    workers: int = 2,
    deadline: float | None = None,
    report: Callable[[int], None] | None = None,
) -> TeacherData:
    """At least `decisions` teacher samples (whole games), from games with seeds seed, seed+1,
    ... played by `workers` threads (the search releases the GIL); the games' samples are in
    game order, up to the first game that reaches `decisions`, so the data depend only on the
    seed, not on the threads. Stops early,
    at a whole game, once `time.perf_counter()` passes `deadline`."""
    if isinstance(decisions, bool) or not isinstance(decisions, int) or decisions < 1:
        raise ValueError(f"teacher decisions must be a positive integer; got {decisions!r}")
    start = time.perf_counter()
    results: list[tuple] = []
    total = 0
    next_game = seed
    with ThreadPoolExecutor(max(1, workers), thread_name_prefix="teacher") as pool:
        running: list = []
        while True:
            out_of_time = deadline is not None and time.perf_counter() > deadline
            per_game = total / len(results) if results else 0.0
            # Games in flight count a game's worth each, so the last few do not overshoot.
            while (
                len(running) < max(1, workers)
                and not out_of_time
                and total + per_game * len(running) < decisions
            ):
                running.append(pool.submit(_teacher_game, game, options, teacher, next_game, gamma))
                next_game += 1
            if not running:
                break
            results.append(running.pop(0).result())
            total += len(results[-1][3])
            if report is not None:
                report(total)
    if not results:
        raise ValueError("the teacher played no game in the time it was given")
    # The games up to the first that reaches `decisions`, whatever else was in flight.
    counts = np.cumsum([len(r[3]) for r in results])
    results = results[: int(np.searchsorted(counts, decisions)) + 1]
    return TeacherData(
        observations=np.stack([o for r in results for o in r[0]]),
        masks=np.stack([m for r in results for m in r[1]]),
        targets=np.stack([t for r in results for t in r[2]]),
        returns=np.asarray([v for r in results for v in r[3]], np.float32),
        seats=np.asarray([p for r in results for p in r[4]], np.int64),
        games=len(results),
        seconds=time.perf_counter() - start,
    )


def clone(
    policy: Any,
    data: TeacherData,
    epochs: int = 10,
    batch_size: int = 256,
    learning_rate: float = 1e-3,
    value_weight: float = 0.5,
    seed: int = 0,
    held_out: float = 0.1,
) -> dict[str, float]:
    """Fit a MaskableActorCriticPolicy to the teacher: cross-entropy between its masked action
    distribution and the visit shares, plus `value_weight` × the squared error of its value.
    Returns the held-out agreement (the policy's most probable action is the teacher's most
    visited one), the cross-entropy and the value error on a held-out share of the data."""
    import torch

    n = len(data)
    if n < 2:
        raise ValueError(f"behaviour cloning needs at least 2 teacher decisions; got {n}")
    order = np.random.default_rng(seed).permutation(n)
    cut = max(1, int(n * held_out))
    test, train = order[:cut], order[cut:]
    tensors = {
        "obs": torch.as_tensor(data.observations),
        "mask": torch.as_tensor(data.masks),
        "target": torch.as_tensor(data.targets),
        "return": torch.as_tensor(data.returns),
    }
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    generator = np.random.default_rng(seed + 1)

    def losses(index: np.ndarray) -> tuple[Any, Any, Any]:
        obs = tensors["obs"][index]
        distribution = policy.get_distribution(obs, action_masks=tensors["mask"][index].numpy())
        log_probs = torch.log_softmax(distribution.distribution.logits, dim=-1)
        target = tensors["target"][index]
        # The target is 0 off the mask, where log_probs are huge negatives: leave those out.
        cross_entropy = -(torch.where(target > 0, target * log_probs, 0.0)).sum(-1).mean()
        value = policy.predict_values(obs).flatten()
        value_error = ((value - tensors["return"][index]) ** 2).mean()
        return cross_entropy, value_error, log_probs

    policy.set_training_mode(True)
    for _ in range(epochs):
        generator.shuffle(train)
        for start in range(0, len(train), batch_size):
            cross_entropy, value_error, _ = losses(train[start : start + batch_size])
            optimizer.zero_grad()
            (cross_entropy + value_weight * value_error).backward()
            optimizer.step()
    policy.set_training_mode(False)
    with torch.no_grad():
        cross_entropy, value_error, log_probs = losses(test)
        agree = (log_probs.argmax(-1) == tensors["target"][test].argmax(-1)).float().mean()
    return {
        "agreement": float(agree),
        "cross_entropy": float(cross_entropy),
        "value_error": float(value_error),
        "samples": float(n),
    }
