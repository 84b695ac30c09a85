"""The batch runner: N games in one 2-D state array, stepped, masked and observed together.

This is the throughput path (self-play data, benchmarks); it runs the same kernels as the
AEC env, so the same seeds and actions give the same games. Finished games are reset
automatically with a seed drawn from their own generator; `step` reports their final
rewards. A game its guard cuts (GameSpec.guard) is done too, with rewards 0, and flagged in
`truncated`: a truncation, never a result.
"""

from __future__ import annotations

from typing import Any, NoReturn

import numba
import numpy as np

from treasure_core.aec import SEED_MODULUS, normalise_seed, random_seed
from treasure_core.game import GameSpec
from treasure_core.header import CURRENT_PLAYER, DECISIONS, STATE_DTYPE, TERMINAL
from treasure_core.kernels import (
    FAULT_FIELDS,
    FAULT_ILLEGAL_COUNT,
    FAULT_ILLEGAL_FIRST,
    FAULT_RANGE_COUNT,
    FAULT_RANGE_FIRST,
)
from treasure_core.registry import get_game
from treasure_core.tiers import generated_kernel, jit_tier

# batch_legal_mask's actions_out when it only writes the masks.
_NO_ACTIONS = np.empty(0, np.int64)
# action_faults' masks when legality is not checked (check_actions=False).
_NO_MASKS = np.empty((0, 1), np.int8)


class BatchRunner:
    """Run `n_games` games of one game at once.

    >>> runner = BatchRunner("nakbe", 1024, seed=0, num_players=4)
    >>> masks = runner.legal_masks(); obs = runner.observe()
    >>> rewards, dones = runner.step(actions)   # auto-resets finished games
    >>> runner.truncated                         # which of the dones the guard cut

    observation_dtype="uint8" makes observe() write uint8 features, rint(feature * 255): every
    feature is in [0, 1], so binary and one-hot features are exactly 0 or 255 and the continuous
    ones are quantised to steps of 1/255 (a policy divides by 255). A quarter of the memory.
    """

    def __init__(
        self,
        game: str | GameSpec,
        n_games: int,
        seed: int | None = None,
        num_threads: int | None = None,
        check_actions: bool = True,
        observation_dtype: str = "float32",
        **options: Any,
    ):
        self.game = get_game(game) if isinstance(game, str) else game
        if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
            raise ValueError(f"n_games must be a positive integer; got {n_games!r}")
        if num_threads is not None and not (
            _is_integer(num_threads) and 1 <= num_threads <= numba.config.NUMBA_NUM_THREADS
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
        if not isinstance(check_actions, (bool, np.bool_)):
            raise ValueError(f"check_actions must be True or False; got {check_actions!r}")
        if not isinstance(observation_dtype, str) or observation_dtype not in OBSERVATION_DTYPES:
            raise ValueError(
                f"observation_dtype must be one of {', '.join(map(repr, OBSERVATION_DTYPES))}; "
                f"got {observation_dtype!r}"
            )
        self.observation_dtype = np.dtype(observation_dtype)
        self.options = self.game.validate(options)
        jit_tier()  # a bad TREASURE_ENVS_JIT fails here, before any kernel runs
        self.params = self.game.make_params(self.options)
        self.dims = self.game.dims(self.params)
        self.num_players = int(self.options["num_players"])
        self.n_games = int(n_games)
        self.num_threads = int(num_threads or numba.config.NUMBA_NUM_THREADS)
        self.check_actions = bool(check_actions)
        self.kernels = self.game.kernels
        # The kernels called every step, through the game's tiers (treasure_core.tiers): compiled,
        # or on a cold start their Python twins until a background process has compiled them.
        self._live = self.game.live
        uint8 = self.observation_dtype.name == "uint8"
        self._observe_name = "batch_observe_uint8" if uint8 else "batch_observe"
        # The generated parallel kernel behind every batch form (treasure_core.batch_ops).
        generated_kernel(self.game, "batch_kernel")
        self._states = np.zeros((self.n_games, self.dims.state_size), STATE_DTYPE)
        self.rewards = np.zeros((self.n_games, self.num_players), np.float32)
        self.dones = np.zeros(self.n_games, np.bool_)
        # Which games of the last step's dones the guard cut (rewards 0, no result).
        self.truncated = np.zeros(self.n_games, np.bool_)
        self.playout_truncated = 0  # games the guard cut in the last random_playout
        # Which games' kernels refused the last step's action as illegal, their states
        # unchanged (check_actions=False only: the check raises before a kernel sees one).
        self.refused = np.zeros(self.n_games, np.bool_)
        self._masks = np.zeros((self.n_games, self.dims.n_actions), np.int8)
        self._faults = np.zeros(FAULT_FIELDS, np.int64)  # action_faults' out, every step
        self._masks_fresh = False
        self.reset(seed)

    @property
    def states(self) -> np.ndarray:
        """(n_games, state_size) int32, read-only: every game's state (set_states loads them)."""
        view = self._states.view()
        view.flags.writeable = False
        return view

    def set_states(self, states: np.ndarray) -> None:
        """Load every game's state (from get_state() or a runner's `states`), each checked as
        set_state checks one; a bad one is a ValueError naming its game, and nothing changes.
        A finished game restarts at its next step (its action is not taken), as every game
        the runner finishes restarts."""
        states = np.asarray(states)
        if states.dtype != STATE_DTYPE or states.shape != self._states.shape:
            raise ValueError(
                f"{self.game.name}: states must be a {np.dtype(STATE_DTYPE).name} array of shape "
                f"{self._states.shape}; got {states.dtype} {states.shape}"
            )
        for i, state in enumerate(states):
            try:
                self.game.check_state(state, self.params)
            except ValueError as error:
                raise ValueError(f"game {i}: {error}") from None
        self._states[:] = states
        self._masks_fresh = False

    def reset(self, seed: int | None = None, seeds: np.ndarray | None = None) -> None:
        """Start every game afresh: game i gets seeds[i], or seed + i (below 2**63)."""
        if seeds is None:
            base = random_seed() % (SEED_MODULUS - self.n_games) if seed is None else normalise_seed(seed)
            if base + self.n_games > SEED_MODULUS:
                raise ValueError(
                    f"seed + i must stay below 2**63 for the {self.n_games} games; got seed {seed!r}"
                )
            seeds = np.arange(base, base + self.n_games, dtype=np.int64)
        else:
            seeds = np.asarray(seeds)
            if (
                seeds.shape != (self.n_games,)
                or seeds.dtype == np.bool_
                or not np.issubdtype(seeds.dtype, np.integer)
            ):
                raise ValueError(
                    f"seeds must be an integer array of {self.n_games} seeds; got {seeds.dtype} {seeds.shape}"
                )
            if any(not 0 <= int(s) < SEED_MODULUS for s in seeds.tolist()):
                raise ValueError("seeds must be non-negative integers below 2**63")
            seeds = seeds.astype(np.int64)
        numba.set_num_threads(self.num_threads)
        self._live.batch_init(self._states, self.params, seeds)
        self._masks_fresh = False
        # random_actions() without a seed draws its calls' seeds from here: reproducible by seed.
        self._action_seeds = np.random.default_rng(int(seeds[0]))

    def current_players(self) -> np.ndarray:
        return self._states[:, CURRENT_PLAYER].copy()

    def legal_masks(self) -> np.ndarray:
        """(n_games, n_actions) int8: the legal actions of each game's player to act."""
        if not self._masks_fresh:
            numba.set_num_threads(self.num_threads)
            self._live.batch_legal_mask(self._states, self._masks, 0, _NO_ACTIONS)
            self._masks_fresh = True
        return self._masks

    def observe(self, out: np.ndarray | None = None) -> np.ndarray:
        """(n_games, obs_size) float32 (uint8 with observation_dtype="uint8"): each game seen
        by its player to act. `out`, if given, must be a C-contiguous array of that shape and
        dtype; it is filled and returned."""
        shape = (self.n_games, self.dims.obs_size)
        if out is None:
            out = np.empty(shape, self.observation_dtype)
        elif (
            not isinstance(out, np.ndarray)
            or out.shape != shape
            or out.dtype != self.observation_dtype
            or not out.flags.c_contiguous
            or not out.flags.writeable
        ):
            raise ValueError(
                f"out must be a writeable C-contiguous {self.observation_dtype.name} array of shape "
                f"{shape}; got {out!r:.80}"
            )
        numba.set_num_threads(self.num_threads)
        getattr(self._live, self._observe_name)(self._states, out)
        return out

    def random_actions(self, seed: int | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """(n_games,) int64: a uniformly random legal action for each game's player to act,
        drawn inside one kernel from legal_masks() (the random opponent or exploration of a
        training loop, without a numpy pass over every mask). Without `seed`, each call's seed
        comes from the runner's own stream (set by reset), so a run repeats from its seed."""
        if out is None:
            out = np.empty(self.n_games, np.int64)
        elif not isinstance(out, np.ndarray) or out.shape != (self.n_games,) or out.dtype != np.int64:
            raise ValueError(f"out must be an int64 array of shape ({self.n_games},); got {out!r:.80}")
        seed = int(self._action_seeds.integers(SEED_MODULUS)) if seed is None else normalise_seed(seed)
        numba.set_num_threads(self.num_threads)
        if self._masks_fresh:
            empty = self._live.sample_legal_actions(self._masks, seed, out)
        else:  # the masks and the draw in one pass (the same draw as from the masks)
            empty = self._live.batch_legal_mask(self._states, self._masks, seed, out)
            self._masks_fresh = True
        if empty:
            raise ValueError(f"{self.game.env_name}: a game of the batch has no legal action")
        return out

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Apply one action per game. Returns (rewards, dones): the final rewards of the games
        that ended on this step (zeros elsewhere), and which ended. Ended games restart.
        `truncated` marks the dones that the guard cut (their rewards are 0). With
        check_actions=False an illegal action is not raised on: the game's kernel refuses it,
        its state unchanged, and `refused` marks those games."""
        actions = np.asarray(actions)
        if (
            actions.shape != (self.n_games,)
            or actions.dtype == np.bool_
            or not np.issubdtype(actions.dtype, np.integer)
        ):
            raise ValueError(
                f"actions must be an integer array of shape ({self.n_games},); "
                f"got {actions.dtype} {actions.shape}"
            )
        # The range is checked always (a kernel indexes by the action); legality on request.
        if actions.dtype != np.int64:  # compared as they are (a uint64 could wrap in int64)
            bad = np.flatnonzero((actions < 0) | (actions >= self.dims.n_actions))
            if bad.size:
                self._refuse_range(actions, int(bad[0]), bad.size)
        actions = np.ascontiguousarray(actions, dtype=np.int64)  # one signature for the kernels
        masks = self.legal_masks() if self.check_actions else _NO_MASKS
        faults = self._faults
        self._live.action_faults(actions, self.dims.n_actions, masks, faults)
        if faults[FAULT_RANGE_COUNT]:
            self._refuse_range(actions, int(faults[FAULT_RANGE_FIRST]), int(faults[FAULT_RANGE_COUNT]))
        if faults[FAULT_ILLEGAL_COUNT]:
            i = int(faults[FAULT_ILLEGAL_FIRST])
            legal = np.flatnonzero(masks[i])
            raise ValueError(
                f"{self.game.env_name}: action {int(actions[i])} is illegal in game {i} "
                f"({faults[FAULT_ILLEGAL_COUNT]} illegal in all); {legal.size} legal there, "
                f"e.g. {legal[:5].tolist()}"
            )
        if self.check_actions:
            self.refused[:] = False
        else:
            decisions_before = self._states[:, DECISIONS].copy()
        numba.set_num_threads(self.num_threads)
        # Checked actions are legal, so step's refusal would only check each one again: an
        # illegal action cannot reach step_unrefused. Unchecked, the game's `step` refuses.
        (self._live.batch_step_unrefused if self.check_actions else self._live.batch_step)(
            self._states,
            actions,
            self.params,
            self.rewards,
            self.dones,
            self.truncated,
        )
        if not self.check_actions:
            # Every applied decision counts one (state[DECISIONS]); a refused one changes nothing.
            np.equal(self._states[:, DECISIONS], decisions_before, out=self.refused)
            self.refused &= ~self.dones
        self._masks_fresh = False
        return self.rewards, self.dones

    def _refuse_range(self, actions: np.ndarray, first: int, count: int) -> NoReturn:
        """The error for `count` actions out of range, game `first` the first of them."""
        raise ValueError(
            f"{self.game.env_name}: action {int(actions[first])} in game {first} is not from 0 to "
            f"{self.dims.n_actions - 1} ({count} out of range in all)"
        )

    def random_playout(self, steps_per_game: int, seed: int = 0) -> tuple[int, int]:
        """Random self-play inside the parallel kernel: each game takes `steps_per_game`
        uniformly random legal actions (restarting when it ends). Returns (steps, games ended
        by the rules); `playout_truncated` counts the games the guard cut."""
        if not _is_integer(steps_per_game) or steps_per_game < 0:
            raise ValueError(f"steps_per_game must be a non-negative integer; got {steps_per_game!r}")
        finished = np.zeros(self.n_games, np.int64)
        truncated = np.zeros(self.n_games, np.int64)
        numba.set_num_threads(self.num_threads)
        steps = self.kernels.random_playout(
            self._states, self.params, int(steps_per_game), normalise_seed(seed), finished, truncated
        )
        self._masks_fresh = False
        self.playout_truncated = int(truncated.sum())
        return int(steps), int(finished.sum())

    def terminal(self) -> np.ndarray:
        return self._states[:, TERMINAL] != 0


OBSERVATION_DTYPES = ("float32", "uint8")


def _is_integer(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
