"""The one generic PettingZoo AEC environment, driven by a game's kernels.

All game logic lives in the kernels and the state array; this class only keeps PettingZoo's
bookkeeping (agents, rewards, terminations, infos) in step with the state, checks actions,
and encodes observations.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from treasure_core import ansi
from treasure_core.events import EventLog, describe_by_name
from treasure_core.game import GameSpec
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, P_GUARD_LIMIT, STATE_DTYPE, TERMINAL
from treasure_core.tiers import jit_tier

SEED_MODULUS = 2**63  # kernels take seeds as int64


def agent_name(player: int) -> str:
    return f"player_{player}"


def normalise_seed(seed: Any) -> int:
    """A non-negative seed below 2**63; anything else is an error, never wrapped."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be a non-negative integer below 2**63; got {seed!r}")
    if not 0 <= int(seed) < SEED_MODULUS:
        raise ValueError(f"seed must be a non-negative integer below 2**63; got {seed!r}")
    return int(seed)


def random_seed() -> int:
    return int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> np.uint64(1))


def as_action(action: Any) -> int | None:
    """An action as a Python int, or None if it is not an integer (bools and floats are not;
    a 0-d integer array is). Range and legality are the caller's to check."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action[()]
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    return None


def player_info(info: dict[str, Any], player: int) -> dict[str, Any]:
    """One player's share of a game's final_info: list values are per player, the rest shared."""
    return {key: value[player] if isinstance(value, list) else value for key, value in info.items()}


def zero_info(info: dict[str, Any]) -> dict[str, Any]:
    """The same keys and shapes as one player's final info, every number 0: what infos hold
    before the end, so that every step of a game carries the same keys (replay buffers need it)."""
    return {
        key: tuple(type(x)(0) for x in value) if isinstance(value, tuple) else type(value)(0)
        for key, value in info.items()
    }


MAX_LISTED_ACTIONS = 5  # legal actions named in an error; the count says how many there are


def illegal_action_message(
    game: GameSpec, state: np.ndarray, agent: str, player: int, action: Any, mask: np.ndarray, what: str
) -> str:
    """A few lines: the action, the agent, how many actions are legal and a handful of them."""
    legal = np.flatnonzero(mask)
    named = ", ".join(f"{a} ({game.action_name(state, int(a), player)})" for a in legal[:MAX_LISTED_ACTIONS])
    more = f", and {legal.size - MAX_LISTED_ACTIONS} more" if legal.size > MAX_LISTED_ACTIONS else ""
    return (
        f"{game.env_name}: action {action!r} {what} for {agent}.\n"
        f"{legal.size} legal action(s): {named or 'none'}{more}."
    )


def checked_action(
    game: GameSpec,
    state: np.ndarray,
    agent: str,
    player: int,
    action: Any,
    mask: np.ndarray,
    illegal_action: str,
) -> int | None:
    """The one action check of every driver: the action as an int if `mask` allows it; None if
    it is in range but illegal under illegal_action="penalize"; else ValueError (an action that
    is not an integer in range always raises, whatever the mode)."""
    checked = as_action(action)
    if checked is None or not 0 <= checked < mask.size:
        what = f"is not an integer from 0 to {mask.size - 1}"
    elif mask[checked]:
        return checked
    elif illegal_action == "penalize":
        return None
    else:
        what = f"({game.action_name(state, checked, player)}) is illegal"
    raise ValueError(illegal_action_message(game, state, agent, player, action, mask, what))


def warn_penalty(game: GameSpec, agent: str, action: Any) -> None:
    """The one warning of PettingZoo's convention for an illegal move (every driver's)."""
    ansi.warn(
        f"{game.env_name}: illegal action {action!r} by {agent}; the game ends with -1 for "
        f"{agent} (illegal_action='raise' raises instead)"
    )


class TreasureAECEnv(AECEnv):
    """PettingZoo AEC environment over one game's kernels (see GameSpec)."""

    def __init__(self, game: GameSpec, render_mode: str | None = None, **options: Any):
        super().__init__()
        self.game = game
        self.options = game.validate(options)
        jit_tier()  # a bad TREASURE_ENVS_JIT fails here, before any kernel runs
        self.params = game.make_params(self.options)
        self.metadata = {
            "name": game.env_name,
            "render_modes": ["ansi", "human", "rgb_array"] + (["svg"] if game.render_svg else []),
            "is_parallelizable": bool(game.parallelizable and game.parallelizable(self.options)),
            "render_fps": 2,
        }
        self.info_names = game.info_names  # an info code -> its name, per key
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"{game.name}: render_mode must be None or one of "
                f"{', '.join(map(repr, self.metadata['render_modes']))}; got {render_mode!r}"
            )
        self.render_mode = render_mode
        self.render_viewer: int | None = None  # None: public view only; p: adds p's secrets
        self.num_players = int(self.options["num_players"])
        self.possible_agents = [agent_name(p) for p in range(self.num_players)]
        self._player_of = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.dims = game.dims(self.params)
        self.observation_format = self.options["observation_format"]
        self._dict_observations = self.observation_format == "dict"
        features = spaces.Box(0.0, 1.0, (self.dims.obs_size,), np.float32)
        if self.observation_format == "box":
            self._observation_space: spaces.Space = features
        else:
            self._observation_space = spaces.Dict(
                {"observation": features, "action_mask": spaces.Box(0, 1, (self.dims.n_actions,), np.int8)}
            )
        self.observation_spaces = {a: self._observation_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.dims.n_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(0.0, 1.0, (self.dims.full_state_size,), np.float32)
        self._state = np.zeros(self.dims.state_size, STATE_DTYPE)
        self._returns = np.zeros(self.num_players, np.float32)
        self._has_state = False
        self._penalized = False  # an illegal action ended the game (the state is as before it)
        self._truncated = False  # the guard cut the game (GameSpec.guard)
        self._guard_limit = int(self.params[P_GUARD_LIMIT])  # 0: no guard
        self._guard_counter = game.guard.counter if game.guard is not None else 0
        self._sequential = game.dynamics.turns == "sequential"
        # Every seat's mask now, kept with the state: private arrays, never handed out (infos and
        # observations get copies), so a caller cannot alter what step() checks against.
        self._masks: list[np.ndarray] = []
        self._mask_counts: list[int] = []  # each seat's legal-action count (0: an empty mask)
        self._mask_buffer = np.zeros((self.num_players, self.dims.n_actions), np.int8)  # scratch
        self._mask_rows = list(self._mask_buffer)  # its rows, made once (a view costs a step)
        self._blank_info: dict[str, Any] | None = None  # every step's info keys, zero
        # The events since each player's last turn, kept only by an env that renders (a training
        # step pays no state copies for them).
        self._events: EventLog | None = None
        if render_mode is not None:
            self._events = EventLog(game.describe_step or describe_by_name(game.action_name))

    # -- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- lifecycle ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a game; `seed` determines it entirely. Game options belong to the
        constructor; `options` is accepted for PettingZoo compatibility and not used."""
        self.seed_used = random_seed() if seed is None else normalise_seed(seed)
        self.game.live.init(self._state, self.params, self.seed_used)
        self._has_state = True
        if self._events is not None:
            self._events.clear()
        self._sync_from_state()

    def _sync_from_state(self) -> None:
        """Rebuild PettingZoo's bookkeeping from the state array alone."""
        self._penalized = False
        self._truncated = False
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[int(self._state[CURRENT_PLAYER])]
        if self._state[TERMINAL]:
            self._finish()
        elif self.guard_cuts():
            self._truncate()
        else:
            self._live_infos()

    def guard_cuts(self) -> bool:
        """The game's guard (GameSpec.guard) cuts the live game in the state now."""
        return bool(
            self._guard_limit
            and not self._state[TERMINAL]
            and self._state[self._guard_counter] >= self._guard_limit
        )

    def blank_info(self) -> dict[str, Any]:
        """One agent's info before the end: the final info's keys, every number 0, and
        `illegal_action` 0 (the action mask is added per agent)."""
        if self._blank_info is None:
            final = player_info(self.game.final_info(self._state), 0)
            self._blank_info = zero_info({**final, "illegal_action": 0})
        return dict(self._blank_info)

    def _live_infos(self) -> None:
        """Fresh infos for a live game: blank, each with its agent's mask."""
        self._deciding_seat = self._state.item(CURRENT_PLAYER)  # the one with a mask, if sequential
        blank = self.blank_info()
        self._set_masks()
        self.infos = {
            a: {**blank, "action_mask": mask.copy()}
            for a, mask in zip(self.possible_agents, self._masks, strict=True)
        }

    def _update_masks(self, seat: int) -> None:
        """After a decision in a live game (`seat` to act now): the masks that changed, in the
        masks and infos; an agent whose mask did not change keeps its info dict. A changed info
        is a new dict: one a client kept from last() stays as it was. In a live game an info is
        the blank info plus the agent's mask, so a new one is built from the blank."""
        masks = self._masks  # changed in place: clone() copies the list, reset and set_state make new ones
        infos = self.infos
        agents = self.possible_agents
        blank = self._blank_info
        legal_mask = self.game.live.legal_mask
        state = self._state
        if not self._sequential:
            # Any seat may decide, so every seat is asked, into its scratch row. A seat empty
            # before and after (its count 0 both times) is unchanged without a comparison.
            counts = self._mask_counts
            for other, row in enumerate(self._mask_rows):
                count = legal_mask(state, other, row)
                if (count or counts[other]) and row.tobytes() != masks[other].tobytes():
                    counts[other] = count
                    masks[other] = mask = row.copy()
                    info = blank.copy()
                    info["action_mask"] = mask.copy()
                    infos[agents[other]] = info
            return
        # Sequential: only the seat that acted and the seat to act can have a mask.
        was = self._deciding_seat
        row = self._mask_rows[seat]
        legal_mask(state, seat, row)
        if was != seat:
            masks[was] = empty = np.zeros(row.size, np.int8)
            info = blank.copy()
            info["action_mask"] = empty.copy()
            infos[agents[was]] = info
            self._deciding_seat = seat
        elif row.tobytes() == masks[seat].tobytes():
            return  # the same seat again, with the same options: nothing changed
        masks[seat] = mask = row.copy()
        info = blank.copy()
        info["action_mask"] = mask.copy()
        infos[agents[seat]] = info

    def _set_masks(self) -> None:
        """Every seat's legal actions now, and their counts, in new lists. In a sequential game
        only the seat to act decides (the kernel contract), so the others are not asked."""
        masks = [np.zeros(self.dims.n_actions, np.int8) for _ in self.possible_agents]
        counts = [0] * self.num_players
        if not self.is_over():
            legal_mask = self.game.live.legal_mask
            if self._sequential:
                seat = self._state.item(CURRENT_PLAYER)
                counts[seat] = legal_mask(self._state, seat, masks[seat])
            else:
                for seat, mask in enumerate(masks):
                    counts[seat] = legal_mask(self._state, seat, mask)
        self._masks = masks
        self._mask_counts = counts

    def _finish(self) -> None:
        self.game.live.returns(self._state, self._returns)
        info = self.game.final_info(self._state)
        blank = self.blank_info()
        self._set_masks()  # all empty: the game is over
        self.infos = {}
        for p, agent in enumerate(self.possible_agents):
            self.rewards[agent] = float(self._returns[p])
            self.terminations[agent] = True
            self.infos[agent] = {
                **blank,
                **player_info(info, p),
                "action_mask": np.zeros(self.dims.n_actions, np.int8),
            }
        self._accumulate_rewards()

    def _truncate(self) -> None:
        """The guard cut the game: every agent truncated, rewards 0, the final scores in infos
        with end_condition naming the guard; no one won (a truncation, never a result)."""
        self._truncated = True
        info = self.game.final_info(self._state, truncated=True)
        blank = self.blank_info()
        self._set_masks()  # all empty: the game is over
        self.infos = {}
        for p, agent in enumerate(self.possible_agents):
            self.rewards[agent] = 0.0
            self.truncations[agent] = True
            self.infos[agent] = {
                **blank,
                **player_info(info, p),
                "action_mask": np.zeros(self.dims.n_actions, np.int8),
            }
        self._accumulate_rewards()

    def _require_game(self) -> None:
        if not self._has_state:
            raise RuntimeError(f"{self.game.env_name}: call reset() (or set_state()) first")

    def how_it_ended(self) -> str:
        """Words for a game that is over: by its rules, by the guard, or by an illegal action."""
        if self._penalized:
            return "it ended on an illegal action"
        if self._truncated:
            return f"the guard cut it after {self.game.guard.describe(self.options)}"
        return "it ended by the rules"

    def step(self, action: Any) -> None:
        if not self._has_state:
            self._require_game()
        agent = self.agent_selection
        if not self.agents:
            raise ValueError(
                f"{self.game.env_name}: step() after the end of the game ({self.how_it_ended()}, "
                "every agent done); call reset() or set_state()"
            )
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        mask = self._masks[self._player_of[agent]]
        if type(action) is int and 0 <= action < mask.size and mask[action]:
            checked: int | None = action  # the common case, checked without a call
        else:
            checked = self._check_action(agent, action)  # not an integer in range: always raises
        if checked is None:
            self._penalize(agent, action)
            return
        # In a live game every reward, and so every cumulative reward, is 0 (only the end sets
        # them): there is nothing to clear.
        state = self._state
        if self._events is None:
            self.game.live.step(state, checked)
        else:
            before = state.copy()
            self.game.live.step(state, checked)
            self._events.record(before, checked, state)
        seat = state.item(CURRENT_PLAYER)
        self.agent_selection = self.possible_agents[seat]
        if state.item(TERMINAL):
            self._finish()
        elif self._guard_limit and state.item(self._guard_counter) >= self._guard_limit:
            self._truncate()  # guard_cuts(), inline
        else:
            self._update_masks(seat)

    def _check_action(self, agent: str, action: Any) -> int | None:
        """The action as an int if legal; None if in range but illegal under "penalize"; else
        ValueError, with nothing changed."""
        player = self._player_of[agent]
        return checked_action(
            self.game, self._state, agent, player, action, self._masks[player], self.options["illegal_action"]
        )

    def _penalize(self, agent: str, action: Any) -> None:
        """PettingZoo's convention for an illegal move: the game ends, -1 for the offender and 0
        for the others; the state stays as it was before the move."""
        warn_penalty(self.game, agent, action)
        self._penalized = True
        self._set_masks()  # all empty: the game is over
        self._clear_rewards()
        blank = self.blank_info()
        for other in self.agents:
            self.terminations[other] = True
            self.rewards[other] = -1.0 if other == agent else 0.0
            self.infos[other] = {
                **blank,
                "illegal_action": int(other == agent),
                "action_mask": np.zeros(self.dims.n_actions, np.int8),
            }
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's last(), with the bookkeeping read once (the hot call of an AEC loop):
        observe(agent) written out."""
        agent = self.agent_selection
        assert agent is not None
        if not observe:
            observation = None
        else:
            if not self._has_state:
                self._require_game()
            player = self._player_of[agent]
            observation = np.empty(self.dims.obs_size, np.float32)
            self.game.live.observe(self._state, player, observation)
            if self._dict_observations:
                observation = {"observation": observation, "action_mask": self._masks[player].copy()}
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    # -- observations ---------------------------------------------------------------------
    def phase(self) -> str:
        """The name of the phase the game is in (GameSpec.phases), e.g. Karuba's "draft"."""
        self._require_game()
        return self.game.phases[int(self.game.live.phase(self._state))]

    def is_over(self) -> bool:
        """The game has ended: by the rules, by an illegal action under "penalize", or cut by
        the guard (is_truncated)."""
        return self._penalized or self._truncated or bool(self._state[TERMINAL])

    def is_truncated(self) -> bool:
        """The guard cut the game (GameSpec.guard): a truncation, with no result."""
        return self._truncated

    def legal_actions(self) -> list[int]:
        """Legal actions of the agent to act (empty when the game is over)."""
        self._require_game()
        return np.flatnonzero(self.action_mask(self.agent_selection)).tolist()

    def action_mask(self, agent: str) -> np.ndarray:
        """agent's legal actions now, int8: empty unless it decides now (the agent to act, or any
        seat with a decision pending in a simultaneous round) and the game is live."""
        self._require_game()
        return self._masks[self._player_of[agent]].copy()

    def features(self, agent: str) -> np.ndarray:
        """agent's own view as the float32 feature vector, whatever the observation format."""
        self._require_game()
        observation = np.empty(self.dims.obs_size, np.float32)
        self.game.live.observe(self._state, self._player_of[agent], observation)
        return observation

    def observe(self, agent: str) -> dict[str, np.ndarray] | np.ndarray:
        """agent's own view: its features, with its action mask in the "dict" format."""
        self._require_game()
        player = self._player_of[agent]
        observation = np.empty(self.dims.obs_size, np.float32)
        self.game.live.observe(self._state, player, observation)
        if self.observation_format == "box":
            return observation
        return {"observation": observation, "action_mask": self._masks[player].copy()}

    def state(self) -> np.ndarray:
        """The full-information view (every secret), for centralised critics."""
        self._require_game()
        out = np.empty(self.dims.full_state_size, np.float32)
        self.game.live.full_state(self._state, out)
        return out

    # -- search and replay ----------------------------------------------------------------
    def get_state(self) -> np.ndarray:
        """A copy of the state array: the whole game, chance included."""
        self._require_game()
        return self._state.copy()

    def set_state(self, state: np.ndarray | bytes) -> None:
        """Load a state (an array from get_state, or its bytes); bookkeeping is rebuilt."""
        if isinstance(state, (bytes, bytearray, memoryview)):
            state = np.frombuffer(bytes(state), dtype=STATE_DTYPE)
        state = np.asarray(state)
        if state.dtype != STATE_DTYPE or state.shape != self._state.shape:
            raise ValueError(
                f"{self.game.name}: a state must be a {np.dtype(STATE_DTYPE).name} array of shape "
                f"{self._state.shape}; got {state.dtype} {state.shape}"
            )
        if int(state[NUM_PLAYERS]) != self.num_players:
            raise ValueError(
                f"{self.game.name}: the state is for {int(state[NUM_PLAYERS])} players; "
                f"this env has {self.num_players}"
            )
        self.game.check_state(state, self.params)  # before any kernel reads it
        saved = copy.copy(self.__dict__), self._state.copy()
        try:
            self._state[:] = state
            self._has_state = True
            self._sync_from_state()
        except Exception:
            # A state the validator let through but the bookkeeping cannot read: the env keeps
            # its previous state and bookkeeping.
            self.__dict__.update(saved[0])
            self._state[:] = saved[1]
            raise
        if self._events is not None:
            self._events.clear()  # a state set from outside has no history

    def clone(self) -> TreasureAECEnv:
        """An independent copy of this env, mid-game included."""
        twin = copy.copy(self)
        twin._state = self._state.copy()

        twin._returns = self._returns.copy()
        twin._mask_buffer = self._mask_buffer.copy()
        twin._mask_rows = list(twin._mask_buffer)
        twin._masks = self._masks[:]  # the arrays are never changed in place, the lists are
        twin._mask_counts = self._mask_counts[:]
        for name in ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos"):
            if hasattr(self, name):
                setattr(twin, name, copy.deepcopy(getattr(self, name)))
        return twin

    def player_of(self, agent: Any) -> int:
        """The seat of an agent name ("player_2") or seat number; anything else is a ValueError
        (a bool or a float is not a seat)."""
        if isinstance(agent, str) and agent in self._player_of:
            return self._player_of[agent]
        if isinstance(agent, (int, np.integer)) and not isinstance(agent, (bool, np.bool_)):
            if 0 <= agent < self.num_players:
                return int(agent)
        raise ValueError(
            f"{self.game.name}: an agent is one of {', '.join(self.possible_agents)} or a seat from 0 to "
            f"{self.num_players - 1}; got {agent!r}"
        )

    def resample_hidden(self, agent: str | int, seed: int) -> np.ndarray:
        """A state that agent cannot tell from this one: everything it cannot know re-dealt.
        Once the game is over its final infos (every competitor's score) are every agent's, so
        what decided them is no longer hidden: the state comes back unchanged."""
        self._require_game()
        player = self.player_of(agent)
        seed = normalise_seed(seed)
        twin = self._state.copy()
        if not self.is_over():
            self.game.live.resample_hidden(twin, player, seed)
        return twin

    # -- rendering ------------------------------------------------------------------------
    def events_since(self, player: int | None = None) -> list[str]:
        """The events since `player`'s last turn, in words as render_viewer may know them
        (`player` defaults to render_viewer, else the player to act): the others' decisions,
        the chance results and the effects (GameSpec.describe_step). Kept only by an env with a
        render_mode; a reset or set_state starts a new list."""
        self._require_game()
        if self._events is None:
            raise ValueError(
                f"{self.game.name}: only an env with a render_mode keeps the events; "
                "make it with render_mode='ansi' (or another)"
            )
        player = self._events_player() if player is None else int(player)
        return self._events.since(player, self.render_viewer)

    def _events_player(self) -> int:
        if self.render_viewer is not None:
            return int(self.render_viewer)
        return int(self._state[CURRENT_PLAYER])

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            ansi.warn("render() was called without a render_mode")
            return None
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self._state)
        if self.render_mode == "svg":  # viewer None: the full view (replays, debugging)
            return self.game.render_svg(self._state, viewer=self.render_viewer)
        text = self.game.render_ansi(self._state, viewer=self.render_viewer)
        events = self.events_since()
        if events:
            lines = text.split("\n")
            lines[-1:-1] = [f"since player_{self._events_player()}'s last turn:", *events]
            text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class _Iterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing agent iterator, reading the bookkeeping from the env inside
    the wrapper (not through the wrapper's __getattr__): the same checks, fewer lookups."""

    def __init__(self, env: TreasureOrderEnforcingWrapper, max_iter: int):
        super().__init__(env, max_iter)
        self._inner = env.env

    def __next__(self) -> str:
        inner = self._inner
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        env = self.env
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return inner.agent_selection


class _Iterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class TreasureOrderEnforcingWrapper(OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper (every check kept: nothing before reset, a warning for
    a step after the end) with the hot calls of an AEC loop (last, step, agent_iter) defined
    here, so that they do not go through __getattr__ for every attribute they read."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> _Iterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Iterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's own wrapper prints: the env's name
