"""The batch runner: N games in one 2-D state array, stepped, masked and observed together.

This is the throughput path (self-play data, benchmarks); it runs the same kernels as the
AEC env, so the same seeds and actions give the same games. Finished games are reset
automatically with a seed drawn from their own generator; `step` reports their final
rewards.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from treasure_core.aec import normalise_seed, random_seed
from treasure_core.game import GameSpec
from treasure_core.header import CURRENT_PLAYER, STATE_DTYPE, TERMINAL
from treasure_core.registry import get_game


class BatchRunner:
    """Run `n_games` games of one game at once.

    >>> runner = BatchRunner("nakbe", 1024, seed=0, num_players=4)
    >>> masks = runner.legal_masks(); obs = runner.observe()
    >>> rewards, dones = runner.step(actions)   # auto-resets finished games
    """

    def __init__(
        self,
        game: str | GameSpec,
        n_games: int,
        seed: int | None = None,
        num_threads: int | None = None,
        check_actions: bool = True,
        **options: Any,
    ):
        self.game = get_game(game) if isinstance(game, str) else game
        if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
            raise ValueError(f"n_games must be a positive integer; got {n_games!r}")
        if num_threads is not None and not (
            isinstance(num_threads, int) and 1 <= num_threads <= numba.config.NUMBA_NUM_THREADS
        ):
            raise ValueError(
                f"num_threads must be an integer from 1 to {numba.config.NUMBA_NUM_THREADS}; "
                f"got {num_threads!r}"
            )
        # The runner raises on an illegal action and hands out plain feature arrays: the two
        # driver options may be given only with those values.
        for name, only in (("illegal_action", "raise"), ("observation_format", "box")):
            if options.get(name, only) != only:
                raise ValueError(f"the batch runner supports only {name}={only!r}; got {options[name]!r}")
        options = {**options, "illegal_action": "raise", "observation_format": "box"}
        self.options = self.game.validate(options)
        self.params = self.game.make_params(self.options)
        self.dims = self.game.dims(self.params)
        self.num_players = int(self.options["num_players"])
        self.n_games = int(n_games)
        self.num_threads = num_threads or numba.config.NUMBA_NUM_THREADS
        self.check_actions = check_actions
        self.kernels = self.game.kernels
        self.states = np.zeros((self.n_games, self.dims.state_size), STATE_DTYPE)
        self.rewards = np.zeros((self.n_games, self.num_players), np.float32)
        self.dones = np.zeros(self.n_games, np.bool_)
        self._masks = np.zeros((self.n_games, self.dims.n_actions), np.int8)
        self._masks_fresh = False
        self.reset(seed)

    def reset(self, seed: int | None = None, seeds: np.ndarray | None = None) -> None:
        """Start every game afresh: game i gets seeds[i], or seed + i."""
        if seeds is None:
            base = random_seed() if seed is None else normalise_seed(seed)
            seeds = ((np.arange(self.n_games, dtype=np.uint64) + np.uint64(base)) % np.uint64(2**63)).astype(
                np.int64
            )
        else:
            seeds = np.asarray(seeds)
            if (
                seeds.shape != (self.n_games,)
                or not np.issubdtype(seeds.dtype, np.integer)
                or (seeds < 0).any()
            ):
                raise ValueError(f"seeds must be {self.n_games} non-negative integers")
            seeds = seeds.astype(np.int64)
        numba.set_num_threads(self.num_threads)
        self.kernels.batch_init(self.states, self.params, seeds)
        self._masks_fresh = False

    def current_players(self) -> np.ndarray:
        return self.states[:, CURRENT_PLAYER].copy()

    def legal_masks(self) -> np.ndarray:
        """(n_games, n_actions) int8: the legal actions of each game's player to act."""
        if not self._masks_fresh:
            numba.set_num_threads(self.num_threads)
            self.kernels.batch_legal_mask(self.states, self._masks)
            self._masks_fresh = True
        return self._masks

    def observe(self, out: np.ndarray | None = None) -> np.ndarray:
        """(n_games, obs_size) float32: each game seen by its player to act."""
        if out is None:
            out = np.empty((self.n_games, self.dims.obs_size), np.float32)
        numba.set_num_threads(self.num_threads)
        self.kernels.batch_observe(self.states, out)
        return out

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Apply one action per game. Returns (rewards, dones): the final rewards of the games
        that ended on this step (zeros elsewhere), and which ended. Ended games restart."""
        actions = np.asarray(actions)
        if actions.shape != (self.n_games,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"actions must be an integer array of shape ({self.n_games},); "
                f"got {actions.dtype} {actions.shape}"
            )
        if self.check_actions:
            masks = self.legal_masks()
            out_of_range = (actions < 0) | (actions >= self.dims.n_actions)
            bad = np.flatnonzero(out_of_range)
            if bad.size == 0:
                bad = np.flatnonzero(masks[np.arange(self.n_games), actions] == 0)
            if bad.size:
                i = int(bad[0])
                raise ValueError(
                    f"{self.game.env_name}: action {int(actions[i])} is illegal in game {i} "
                    f"({bad.size} illegal in all); legal there: {np.flatnonzero(masks[i]).tolist()}"
                )
        numba.set_num_threads(self.num_threads)
        self.kernels.batch_step(
            self.states, actions.astype(np.int64, copy=False), self.params, self.rewards, self.dones
        )
        self._masks_fresh = False
        return self.rewards, self.dones

    def random_playout(self, steps_per_game: int, seed: int = 0) -> tuple[int, int]:
        """Random self-play inside one parallel kernel: each game takes `steps_per_game`
        uniformly random legal actions (restarting when it ends). Returns (steps, games ended)."""
        finished = np.zeros(self.n_games, np.int64)
        numba.set_num_threads(self.num_threads)
        steps = self.kernels.random_playout(
            self.states, self.params, int(steps_per_game), normalise_seed(seed), finished
        )
        self._masks_fresh = False
        return int(steps), int(finished.sum())

    def terminal(self) -> np.ndarray:
        return self.states[:, TERMINAL] != 0
