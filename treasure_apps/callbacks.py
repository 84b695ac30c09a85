"""The training callbacks (stable-baselines3): snapshots of the learner into its opponent pool,
and win rates during training for the learning curve. Needs the `train` extra."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback

from treasure_adapters.single_agent import OpponentPool
from treasure_apps.evaluate import log_win_rates
from treasure_apps.policy import PolicyAgent
from treasure_apps.progress import PlainProgress
from treasure_apps.stats import WinRate
from treasure_core.agents import agent_factory
from treasure_core.game import GameSpec


class SnapshotCallback(BaseCallback):
    """Adds a frozen copy of the learner to the opponent pool at the start and then every
    `every_steps` steps: self-play against its own past."""

    def __init__(self, pool: OpponentPool, every_steps: int):
        super().__init__()
        self.pool = pool
        self.every_steps = every_steps
        self.next_at = 0

    def _add(self) -> None:
        self.pool.add(PolicyAgent.snapshot(self.model.policy, name=f"snapshot@{self.num_timesteps}"))
        self.next_at = self.num_timesteps + self.every_steps
        self.logger.record("pool/snapshots", len(self.pool.snapshots))

    def _on_training_start(self) -> None:
        self._add()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_at:
            self._add()
        return True


class WinRateCallback(BaseCallback):
    """Every `every_steps` steps (and before the first), the learner's win rate (argmax moves)
    against each fixed opponent over `n_games` games with its seat rotated: logged to
    TensorBoard as eval/win_rate_vs_<opponent> and appended to eval.csv for the curve.

    With `progress`, each evaluation also reports the games played on stderr (two plain lines,
    even on a terminal: sb3's live bar there would garble a second bar) and its win rates on
    stdout. None: when the run reports its own progress (sb3's bar or PlainProgressCallback)."""

    def __init__(
        self,
        game: GameSpec,
        options: dict[str, Any],
        opponents: Sequence[str],
        n_games: int,
        every_steps: int,
        log_path: Path,
        seed: int = 0,
        progress: bool | None = None,
    ):
        super().__init__()
        self.game = game
        self.options = options
        self.opponents = {name: agent_factory(game, name) for name in opponents}
        self.n_games = n_games
        self.every_steps = every_steps
        self.log_path = log_path
        self.seed = seed
        self.progress = progress
        self.next_at = 0
        self.started = time.perf_counter()
        self.latest: dict[str, WinRate] = {}

    def _evaluate(self) -> None:
        policy = self.model.policy
        policy.set_training_mode(False)

        def learner(seed: int) -> PolicyAgent:
            return PolicyAgent(policy, seed, deterministic=True)

        minutes = (time.perf_counter() - self.started) / 60
        self.latest = log_win_rates(
            self.game,
            self.options,
            learner,
            self.opponents,
            self.n_games,
            self.seed,
            self.log_path,
            self.num_timesteps,
            minutes,
            bool(self.progress),
        )
        for name, result in self.latest.items():
            self.logger.record(f"eval/win_rate_vs_{name}", result.rate)
        self.logger.dump(self.num_timesteps)
        self.next_at = self.num_timesteps + self.every_steps

    def _on_training_start(self) -> None:
        self.started = time.perf_counter()
        if self.progress is None:
            # train() does not say whether progress is on; the run's own reporting tells.
            everyone = _all_callbacks(self.locals.get("callback"))
            reported = any(isinstance(callback, PlainProgressCallback) for callback in everyone)
            self.progress = bool(self.locals.get("progress_bar")) or reported
        self._evaluate()

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        if self.num_timesteps >= self.next_at:
            self._evaluate()

    def _on_training_end(self) -> None:
        if self.latest and self.next_at - self.every_steps != self.num_timesteps:
            self._evaluate()


def _all_callbacks(callback: BaseCallback | None) -> Iterator[BaseCallback]:
    """`callback` and every callback inside it (a CallbackList's, nested)."""
    if callback is None:
        return
    yield callback
    for inner in getattr(callback, "callbacks", []):
        yield from _all_callbacks(inner)


class PlainProgressCallback(BaseCallback):
    """Training progress as a few plain lines (for a log; a terminal gets sb3's bar), in learner
    steps. The time is the run's wall time from `started` (a time.perf_counter() reading;
    default: when this callback is made, just before learning), evaluations and snapshots
    included; the last line waits for the end of training (the final update and evaluation)."""

    def __init__(self, total_steps: int, started: float | None = None):
        super().__init__()
        self.total_steps = total_steps
        self.plain = PlainProgress(total_steps, "training", unit="learner steps", start=started)

    def _on_step(self) -> bool:
        # The steps reach the total before the last update: the 100% line is _on_training_end's.
        self.plain.update(min(self.num_timesteps, self.total_steps - 1))
        return True

    def _on_training_end(self) -> None:
        # Called after the callbacks before it in the list: the final evaluation is timed too.
        self.plain.update(self.model.num_timesteps)


class DeadlineCallback(BaseCallback):
    """Stops training once time.perf_counter() passes `deadline` (train's --minutes budget)."""

    def __init__(self, deadline: float):
        super().__init__()
        self.deadline = deadline

    def _on_step(self) -> bool:
        return time.perf_counter() < self.deadline
