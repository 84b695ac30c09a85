"""`GameSpec`: everything the drivers, the batch runner, the adapters, the applications and the
conformance suite need to know about one game. Each game package builds one in its env.py and
exposes it as `GAME`; docs/architecture.md describes the contract it stands for."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Literal, NamedTuple

import numpy as np

from treasure_core.header import (
    CURRENT_PLAYER,
    DECISIONS,
    NUM_PLAYERS,
    P_GUARD_LIMIT,
    P_NUM_PLAYERS,
    P_REWARD_MODE,
    PARAMS_HEADER,
    REWARD_MODE,
    REWARD_MODES,
    STATE_DTYPE,
    TERMINAL,
)
from treasure_core.layout import ActionLayout, Field
from treasure_core.options import Option, validate_options
from treasure_core.tiers import LiveKernels


class Kernels(NamedTuple):
    """A game's @njit kernels (docs/architecture.md, The kernel contract)."""

    init: Callable  # (state, params, seed)
    phase: Callable  # (state) -> index into GameSpec.phases
    legal_mask: Callable  # (state, player, mask_out int8) -> count; empty unless player decides now
    step: Callable  # (state, action): one decision, then all chance and automata, to the next decision
    competitors: Callable  # (state) -> players + in-kernel opponents
    scores: Callable  # (state, scores_out, tiebreaks_out): every competitor's, players first
    returns: Callable  # (state, out float32): final rewards per player
    observe: Callable  # (state, player, out float32)
    full_state: Callable  # (state, out float32)
    resample_hidden: Callable  # (state, player, seed): re-deal what player cannot know
    batch_init: Callable  # (states, params, seeds)
    # (states, actions, params, rewards_out, dones_out, truncated_out): auto-reset, and the guard
    batch_step: Callable
    batch_legal_mask: Callable  # (states, masks_out, seed, actions_out): each game's player to act
    batch_observe: Callable  # (states, obs_out): each game's player to act
    random_playout: Callable  # (states, params, steps, seed, finished_out, truncated_out) -> steps

    @classmethod
    def from_modules(cls, kernels: ModuleType, observe: ModuleType, batch: ModuleType) -> Kernels:
        """A game's kernels by their contract names: the encoders from its observe module, the
        generated batch forms (and returns) from its batch module, the rules from kernels."""
        rooms = {"observe": observe, "full_state": observe, "returns": batch}
        rooms |= {name: batch for name in cls._fields if name.startswith("batch_")}
        rooms["random_playout"] = batch
        return cls(**{name: getattr(rooms.get(name, kernels), name) for name in cls._fields})


class Dims(NamedTuple):
    state_size: int
    n_actions: int
    obs_size: int
    full_state_size: int


class Dynamics(NamedTuple):
    """What kind of game it is, in OpenSpiel's terms."""

    # sequential: one seat decides at a time; simultaneous: in some phase several seats decide
    # at once (the AEC env takes them in seat order, each hidden from the others until resolved).
    turns: Literal["sequential", "simultaneous"]
    chance: bool  # dice, shuffles or draws, from the generator in the state
    # imperfect: some seat may not see part of the state (resample_hidden re-deals it).
    information: Literal["perfect", "imperfect"]


@dataclass(frozen=True)
class Guard:
    """The limit a game sets where its rules alone cannot guarantee an end (a fixed strategy
    could prolong it for ever). The drivers apply it, never the kernels: a live game whose
    `state[counter]` has reached `limit(options)` is cut, a PettingZoo truncation (every agent
    truncated, rewards 0, the scores in infos, `end_condition` naming the guard), never an end
    with a winner. A guard that cuts more than a few percent of bot games is a defect of the
    rules or the bot, not a feature."""

    counter: int  # the state field it counts (the game's state.GUARD_COUNTER)
    limit: Callable[[dict[str, Any]], int]  # validated options -> how many units a game may last
    unit: str  # what the counter counts, for people: "rounds", "turns"
    # The code of the game's `end_condition` info that names the guard (info_names), or None.
    end_condition: int | None = None
    counter_start: int = 0  # the counter's value when a game starts (1 for a round "from 1")

    def threshold(self, options: dict[str, Any]) -> int:
        """The counter's value that cuts a game: params[P_GUARD_LIMIT]."""
        return int(self.limit(options)) + self.counter_start

    def describe(self, options: dict[str, Any]) -> str:
        return f"{self.limit(options)} {self.unit}"


OBSERVATION_FORMATS = ("dict", "box")
# The common options that belong to a driver (what an illegal action does, how observations are
# packed), not to the rules: a game's state and kernels never see them.
DRIVER_OPTIONS = ("illegal_action", "observation_format")


def rules_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options without the drivers' own (DRIVER_OPTIONS): what decides the game played."""
    return {name: value for name, value in options.items() if name not in DRIVER_OPTIONS}


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
            "score_diff: own score minus the other competitors' mean",
        ),
        Option(
            "illegal_action",
            "penalize",
            ("penalize", "raise"),
            "penalize (PettingZoo's convention): an in-range illegal action ends the game, -1 for "
            "the offender, 0 for the others; raise: ValueError, state unchanged. An action that is "
            "not an integer in range always raises",
        ),
        Option(
            "observation_format",
            "dict",
            OBSERVATION_FORMATS,
            "dict: {'observation': features, 'action_mask': mask}; box: the features alone. "
            "Both put the mask in infos[agent]['action_mask']",
        ),
    )


@dataclass(frozen=True)
class GameSpec:
    name: str  # "nakbe"
    env_name: str  # versioned PettingZoo name, "nakbe_v2"
    title: str
    min_players: int
    max_players: int
    default_players: int
    game_options: tuple[Option, ...]
    game_params: Callable[[dict[str, Any]], list[int]]  # validated options -> game's params
    dims: Callable[[np.ndarray], Dims]
    kernels: Kernels
    phases: tuple[str, ...]  # the names of kernels.phase's values, in order
    actions: ActionLayout  # the action space's named blocks
    dynamics: Dynamics
    render_ansi: Callable[..., str]  # (state, viewer=None) -> str
    render_rgb: Callable[[np.ndarray], np.ndarray]
    # (state, action, player=None) -> words for a person; player defaults to the one to act.
    action_name: Callable[..., str]
    check_invariants: Callable[[np.ndarray], None]  # raises AssertionError
    # (state, scores, tiebreaks) -> final infos beyond the common score, winner and scores (see
    # final_info): a list value is per player (player p gets value[p]); any other value goes to
    # every player as it is. Values are numbers, or fixed-length tuples of numbers, so that every
    # replay buffer takes them; a category is an int code, named in info_names.
    extra_info: Callable[[np.ndarray, np.ndarray, np.ndarray], dict[str, Any]]
    bots: dict[str, Callable[..., Any]] = field(default_factory=dict)
    # An info key holding a code -> the codes' names: {"end_condition": ("none", "exit", ...)}.
    info_names: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # options -> whether PettingZoo's aec_to_parallel is correct for the AEC env: every cycle of
    # seats decides once each, in seat order, on what the cycle's start showed them (a
    # simultaneous round), and the game ends only at the end of a cycle.
    parallelizable: Callable[[dict[str, Any]], bool] | None = None
    # Every field after the header, with its range (state.py's Fields.table()): check_state
    # checks each slot against it, and the adversarial tests probe each field's edges.
    state_fields: tuple[Field, ...] = ()
    # (state, params) -> what is wrong with a state whose fields are in range, or None: checks
    # that depend on the options (a player count, a board side). check_invariants runs after it.
    validate_state: Callable[[np.ndarray, np.ndarray], str | None] | None = None
    # Rules between options (e.g. two that cannot go together): raise ValueError naming them.
    check_options: Callable[[dict[str, Any]], None] | None = None
    # Option combinations the conformance suite runs besides one option at a time.
    test_configs: tuple[dict[str, Any], ...] = ()
    # The limit that cuts a game the rules alone might never end (Guard); None: the rules end
    # every game.
    guard: Guard | None = None
    # (before, action, after, viewer) -> lines: one decision and what it set off, as `viewer` may
    # know them (treasure_core.events); None: every decision is public, named by action_name.
    describe_step: Callable[..., list[str]] | None = None
    # (state, viewer=None) -> a standalone SVG document of the board: viewer None the full view
    # (everything), a seat only what it may know; targets carry data-actions (treasure_core.svg).
    render_svg: Callable[..., str] | None = None
    # The options a user would pick for raw batch throughput, where the defaults cost much
    # for a learner's sake (Karuba's decision previews); docs/games/<game>.md says what they
    # change, and `treasure-envs bench` measures the batch x1024 row at them too. {}: none.
    speed_options: dict[str, Any] = field(default_factory=dict)
    # Large helpers under `step`, as (helper, argument types) at the types step calls them with:
    # the warm-up compiles them in a unit of their own ("step parts", treasure_core.warmup) while
    # another process compiles the rest of the AEC driver, and `step` then loads them instead of
    # compiling them itself. A compile-time matter only; () for a step that compiles fast.
    step_parts: tuple[tuple[Callable[..., Any], tuple[Any, ...]], ...] = ()
    # The kernels the drivers call, each compiled or, on a cold start, its Python twin while a
    # background process compiles it (treasure_core.tiers); `kernels` are always the compiled.
    live: LiveKernels = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "live", LiveKernels(self))

    @property
    def options(self) -> tuple[Option, ...]:
        return common_options(self.min_players, self.max_players, self.default_players) + self.game_options

    def options_table(self) -> list[tuple[str, str, str, str]]:
        """(option, default, values, meaning) rows, as docs/games/<game>.md prints them (the
        docs test checks each page against them, so a documented default follows the code)."""
        return [
            (f"`{o.name}`", f"`{o.default!r}`", ", ".join(f"`{v!r}`" for v in o.choices), o.help)
            for o in self.options
        ]

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
        header[P_GUARD_LIMIT] = 0 if self.guard is None else self.guard.threshold(options)
        return np.array(header + list(self.game_params(options)), dtype=np.int32)

    def check_state(self, state: np.ndarray, params: np.ndarray) -> None:
        """ValueError naming the field if `state` (an array of the state's dtype and size) is
        not one a kernel may read under `params`: the common header, every field in its range
        (state_fields), validate_state, then the invariants. A game's check_invariants must
        therefore be safe on any state whose fields are in range: it is the consistency half
        of the validator (counts against the lists they count, one seat to act, ...)."""
        header = (
            ("NUM_PLAYERS", NUM_PLAYERS, int(params[P_NUM_PLAYERS]), int(params[P_NUM_PLAYERS])),
            ("REWARD_MODE", REWARD_MODE, int(params[P_REWARD_MODE]), int(params[P_REWARD_MODE])),
            ("TERMINAL", TERMINAL, 0, 1),
            ("CURRENT_PLAYER", CURRENT_PLAYER, 0, int(params[P_NUM_PLAYERS]) - 1),
            ("DECISIONS", DECISIONS, 0, np.iinfo(STATE_DTYPE).max),
        )
        for name, offset, low, high in header:
            if not low <= int(state[offset]) <= high:
                allowed = f"{low}" if low == high else f"from {low} to {high}"
                raise ValueError(
                    f"{self.name}: bad state: {name} is {int(state[offset])}; it must be {allowed}"
                )
        if self.state_fields:
            low, high = self._bounds
            size = min(low.size, state.size)
            bad = np.flatnonzero((state[:size] < low[:size]) | (state[:size] > high[:size]))
            if bad.size:
                slot = int(bad[0])
                part = next(f for f in self.state_fields if f.start <= slot < f.stop)
                where = part.name if part.size == 1 else f"{part.name}[{slot - part.start}]"
                raise ValueError(
                    f"{self.name}: bad state: {where} (slot {slot}) is {int(state[slot])}; "
                    f"it must be from {part.low} to {part.high}"
                )
        if self.validate_state is not None:
            problem = self.validate_state(state, params)
            if problem:
                raise ValueError(f"{self.name}: bad state: {problem}")
        try:
            self.check_invariants(state)
        except AssertionError as error:
            raise ValueError(f"{self.name}: bad state: {error}") from None

    @functools.cached_property
    def _bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Each slot's (low, high) from state_fields (the header's own checks are separate)."""
        size = max(part.stop for part in self.state_fields)
        low = np.full(size, np.iinfo(np.int64).min, np.int64)
        high = np.full(size, np.iinfo(np.int64).max, np.int64)
        for part in self.state_fields:
            low[part.start : part.stop] = part.low
            high[part.start : part.stop] = part.high
        return low, high

    def truncated(self, state: np.ndarray, params: np.ndarray) -> bool:
        """The guard cuts this live game now (treasure_core.kernels.guard_reached, in Python)."""
        limit = int(params[P_GUARD_LIMIT])
        if self.guard is None or limit <= 0 or state[TERMINAL]:
            return False
        return bool(state[self.guard.counter] >= limit)

    def final_info(self, state: np.ndarray, truncated: bool = False) -> dict[str, Any]:
        """Everything worth logging at the end: per player its score and whether it won
        (highest score, then highest tie-break, among all competitors; ties share), every
        competitor's score as a tuple, then the game's extra_info. For a game the guard cut
        (`truncated`), the same scores, but no one won and `end_condition` names the guard."""
        n = int(state[NUM_PLAYERS])
        competitors = int(self.live.competitors(state))
        points = np.zeros(competitors, np.int64)
        tiebreaks = np.zeros(competitors, np.int64)
        self.live.scores(state, points, tiebreaks)
        winners = np.zeros(competitors, np.int32)
        self.live.winners_mask(points, tiebreaks, competitors, winners)
        info: dict[str, Any] = {
            "score": points[:n].tolist(),
            "winner": winners[:n].astype(bool).tolist(),
            "scores": tuple(points.tolist()),
        }
        info.update(self.extra_info(state, points, tiebreaks))
        if truncated:
            info["winner"] = [False] * n
            if self.guard is not None and self.guard.end_condition is not None and "end_condition" in info:
                info["end_condition"] = self.guard.end_condition
        return info
