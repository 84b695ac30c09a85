"""`GameSpec`: everything the generic driver, the batch runner, the CLI and the tests need to
know about one game. Each game package builds one in its env.py and exposes it as `GAME`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from treasure_core.header import P_NUM_PLAYERS, P_REWARD_MODE, PARAMS_HEADER, REWARD_MODES
from treasure_core.options import Option, validate_options


class Kernels(NamedTuple):
    """A game's @njit kernels (the contract in DESIGN.md)."""

    init: Callable  # (state, params, seed)
    legal_mask: Callable  # (state, mask_out int8) -> number of legal actions
    step: Callable  # (state, action): one decision, then all chance, to the next decision
    returns: Callable  # (state, out float32): final rewards per player
    scores: Callable  # (state, scores_out, tiebreaks_out): scores at the end
    observe: Callable  # (state, player, out float32)
    full_state: Callable  # (state, out float32)
    resample_hidden: Callable  # (state, player, seed): re-deal what player cannot know
    batch_init: Callable  # (states, params, seeds)
    batch_step: Callable  # (states, actions, params, rewards_out, dones_out), auto-reset
    batch_legal_mask: Callable  # (states, masks_out)
    batch_observe: Callable  # (states, obs_out): each game's current player
    random_playout: Callable  # (states, params, steps, seed, finished_out) -> steps taken

    @classmethod
    def from_modules(cls, kernels: ModuleType, observe: ModuleType) -> Kernels:
        """A game's kernels by their contract names: the encoders (observe, full_state,
        batch_observe) from its observe module, the rest from its kernels module."""
        encoders = ("observe", "full_state", "batch_observe")
        return cls(**{name: getattr(observe if name in encoders else kernels, name) for name in cls._fields})


class Dims(NamedTuple):
    state_size: int
    n_actions: int
    obs_size: int
    full_state_size: int


# Options every game has, handled by treasure_core.
def common_options(min_players: int, max_players: int, default_players: int) -> tuple[Option, ...]:
    return (
        Option(
            "num_players",
            default_players,
            tuple(range(min_players, max_players + 1)),
            "number of players",
        ),
        Option(
            "reward",
            "win_loss",
            tuple(REWARD_MODES),
            "win_loss: +1 each winner (ties share), -1 the others; "
            "score_diff: own score minus the others' mean",
        ),
        Option(
            "illegal_action",
            "raise",
            ("raise", "penalize"),
            "raise: ValueError, state unchanged; penalize: the offender gets -1, the game ends",
        ),
    )


@dataclass(frozen=True)
class GameSpec:
    name: str  # "nakbe"
    env_name: str  # versioned PettingZoo name, "nakbe_v1"
    title: str
    min_players: int
    max_players: int
    default_players: int
    game_options: tuple[Option, ...]
    game_params: Callable[[dict[str, Any]], list[int]]  # validated options -> game's params
    dims: Callable[[np.ndarray], Dims]
    kernels: Kernels
    render_ansi: Callable[..., str]  # (state, viewer=None) -> str
    render_rgb: Callable[[np.ndarray], np.ndarray]
    action_name: Callable[[np.ndarray, int], str]  # (state, action) -> words for a person
    check_invariants: Callable[[np.ndarray], None]  # raises AssertionError
    # For infos at the end: a list value is per player (player p gets value[p]); any other
    # value (a tuple of all scores, say) goes to every player as it is.
    final_info: Callable[[np.ndarray], dict[str, Any]]
    bots: dict[str, Callable[..., Any]] = field(default_factory=dict)
    # Simultaneous turns, for the Parallel driver: (state) -> the seats that decide together from
    # this state, in the order the kernels take them. Each seat's legal actions must not depend
    # on the others' decisions in the group: they are legal_mask of the state with
    # CURRENT_PLAYER set to that seat. None: every decision is one seat's alone.
    simultaneous_seats: Callable[[np.ndarray], list[int]] | None = None
    # Rules between options (e.g. two that cannot go together): raise ValueError naming them.
    check_options: Callable[[dict[str, Any]], None] | None = None
    # Option combinations the conformance suite runs besides one option at a time.
    test_configs: tuple[dict[str, Any], ...] = ()

    @property
    def options(self) -> tuple[Option, ...]:
        return common_options(self.min_players, self.max_players, self.default_players) + self.game_options

    def validate(self, options: dict[str, Any]) -> dict[str, Any]:
        validated = validate_options(self.name, self.options, options)
        if self.check_options is not None:
            self.check_options(validated)
        return validated

    def make_params(self, options: dict[str, Any]) -> np.ndarray:
        """Validated options -> the int32 params array the kernels read."""
        header = [0] * PARAMS_HEADER
        header[P_NUM_PLAYERS] = options["num_players"]
        header[P_REWARD_MODE] = REWARD_MODES[options["reward"]]
        return np.array(header + list(self.game_params(options)), dtype=np.int32)
