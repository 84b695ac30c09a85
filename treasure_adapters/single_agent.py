"""A Gymnasium single-agent view of any registered game, for single-agent RL libraries.

The learner holds one seat (fixed, or a random seat each game); every other seat is played by
an opponent policy: random, one of the game's scripted bots, a frozen snapshot of a trained
model, or a draw from an `OpponentPool` made afresh each game. `step` applies the learner's
action and then lets the opponents play until it is the learner's turn again or the game is
over, so a game with several decisions in a row, or with simultaneous turns taken in seat order
(Karuba), needs nothing special: the kernels say who acts next.

The reward is 0 until the game ends, then the learner's own final reward (the game's `reward`
option: win_loss or score_diff), whoever made the last move. A game its guard cuts
(GameSpec.guard) ends the episode with `truncated=True` and reward 0. The learner's legal actions are in
every `info["action_mask"]` (reset's too, so a vector env's automatic reset hands out the new
game's mask), and `action_masks()` serves sb3-contrib's MaskablePPO. An illegal action ends the
episode with -1 (illegal_action="raise" raises instead); one that is not an integer in range
always raises. Every registered game is a Gymnasium id:

>>> env = gymnasium.make("treasure_envs/Nakbe-v2", opponents="bot", num_players=4)

This is an adapter (docs/architecture.md, Layers): it sits on the runtime and the games, and
imports no deep-learning library; model snapshots come from treasure_apps.policy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from treasure_core import ansi
from treasure_core.aec import TreasureAECEnv, agent_name, checked_action, player_info
from treasure_core.agents import Agent, AgentFactory, AgentSpec, agent_factory
from treasure_core.game import GameSpec
from treasure_core.header import CURRENT_PLAYER, TERMINAL
from treasure_core.registry import game_names, get_game, on_register

GYM_NAMESPACE = "treasure_envs"
SEED_BOUND = 2**63

OpponentSpec = AgentSpec  # an opponent: a name, a factory seed -> Agent, or an Agent


def gym_id(game_name: str) -> str:
    """The Gymnasium id of a game, versioned as its env_name: nakbe_v2 -> "treasure_envs/Nakbe-v2"."""
    version = get_game(game_name).env_name.rsplit("_v", 1)[1]
    title = "".join(part.capitalize() for part in game_name.split("_"))
    return f"{GYM_NAMESPACE}/{title}-v{version}"


def register_gymnasium_envs() -> list[str]:
    """Register every game in the registry with Gymnasium (games registered later are added
    on the next call). Returns the ids. The registry imports each game for its version
    (a few tens of milliseconds each, no compilation)."""
    ids = []
    for name in game_names():
        env_id = gym_id(name)
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="treasure_adapters.single_agent:TreasureGymEnv",
                kwargs={"game": name},
                disable_env_checker=False,
            )
        ids.append(env_id)
    return ids


class OpponentPool:
    """Opponents drawn afresh for every game, seat by seat: with probability `fixed_share` one
    of the fixed opponents (by default the game's first scripted bot), otherwise one of the
    newest `max_snapshots` snapshots added with `add` (the fixed ones while there are none)."""

    def __init__(
        self,
        game: str | GameSpec,
        fixed: Sequence[OpponentSpec] | None = None,
        fixed_share: float = 0.5,
        max_snapshots: int = 10,
    ):
        self.game = get_game(game) if isinstance(game, str) else game
        if fixed is None:
            fixed = [next(iter(self.game.bots), "random")]
        if len(fixed) == 0:
            raise ValueError("an OpponentPool needs at least one fixed opponent")
        if not 0.0 <= fixed_share <= 1.0:
            raise ValueError(f"fixed_share must be from 0 to 1; got {fixed_share!r}")
        if isinstance(max_snapshots, bool) or not isinstance(max_snapshots, int) or max_snapshots < 1:
            raise ValueError(f"max_snapshots must be a positive integer; got {max_snapshots!r}")
        self.fixed = [agent_factory(self.game, spec) for spec in fixed]
        self.fixed_share = float(fixed_share)
        self.max_snapshots = max_snapshots
        self.snapshots: list[AgentFactory] = []

    def add(self, snapshot: OpponentSpec) -> None:
        """Add a snapshot; the oldest is dropped beyond max_snapshots."""
        self.snapshots.append(agent_factory(self.game, snapshot))
        del self.snapshots[: -self.max_snapshots]

    def draw(self, rng: np.random.Generator, n_seats: int) -> list[AgentFactory]:
        drawn = []
        for _ in range(n_seats):
            group = self.fixed if not self.snapshots or rng.random() < self.fixed_share else self.snapshots
            drawn.append(group[int(rng.integers(len(group)))])
        return drawn


class _FixedOpponents:
    """The same opponents every game: one spec for all seats, or one per opponent seat."""

    def __init__(self, game: GameSpec, specs: OpponentSpec | Sequence[OpponentSpec], n_seats: int):
        if isinstance(specs, (list, tuple)):
            if len(specs) != n_seats:
                raise ValueError(
                    f"{game.name}: give one opponent for all seats or {n_seats} (one per other seat, "
                    f"in seat order after the learner); got {len(specs)}"
                )
            self.factories = [agent_factory(game, spec) for spec in specs]
        else:
            self.factories = [agent_factory(game, specs)] * n_seats

    def draw(self, rng: np.random.Generator, n_seats: int) -> list[AgentFactory]:
        return list(self.factories)


def _opponent_source(game: GameSpec, opponents: Any, n_seats: int) -> OpponentPool | _FixedOpponents:
    if isinstance(opponents, OpponentPool):
        if opponents.game.name != game.name:
            raise ValueError(f"the opponent pool is for {opponents.game.name}, not {game.name}")
        return opponents
    return _FixedOpponents(game, opponents, n_seats)


class TreasureGymEnv(gymnasium.Env):
    """One seat of a game as a Gymnasium env (see the module docstring).

    game: a registered name or a GameSpec. opponents: a name ("random", a bot), a factory
    seed -> Agent, an Agent, a list of these (one per other seat, in seat order after the
    learner), or an OpponentPool. learner_seat: a seat number, or "random" for a uniformly
    random seat each game. illegal_action: "penalize" (reward -1, the episode ends) or "raise"
    (ValueError, nothing changes). observation_format: "box" (the feature vector) or "dict"
    ({"observation", "action_mask"}, for a MultiInputPolicy). Other keyword arguments are the
    game's options.
    `reset(options={"learner_seat": k, "opponents": ...})` overrides both for one game.
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        game: str | GameSpec,
        opponents: Any = "random",
        learner_seat: int | str = "random",
        render_mode: str | None = None,
        illegal_action: str = "penalize",
        observation_format: str = "box",
        **options: Any,
    ):
        super().__init__()
        self.game = get_game(game) if isinstance(game, str) else game
        if illegal_action not in ("penalize", "raise"):
            raise ValueError(f"illegal_action must be 'penalize' or 'raise'; got {illegal_action!r}")
        if observation_format not in ("box", "dict"):
            raise ValueError(f"observation_format must be 'box' or 'dict'; got {observation_format!r}")
        self.illegal_action = illegal_action
        self.observation_format = observation_format
        # The wrapper decides what an illegal learner action does; opponents never play one.
        self.aec = TreasureAECEnv(
            self.game, render_mode=render_mode, illegal_action="raise", observation_format="box", **options
        )
        self.options = self.aec.options
        self.num_players = self.aec.num_players
        self.learner_seat_choice = self._check_seat(learner_seat)
        self.opponents = _opponent_source(self.game, opponents, self.num_players - 1)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        dims = self.aec.dims
        features = spaces.Box(0.0, 1.0, (dims.obs_size,), np.float32)
        if observation_format == "box":
            self.observation_space: spaces.Space = features
        else:
            self.observation_space = spaces.Dict(
                {"observation": features, "action_mask": spaces.Box(0, 1, (dims.n_actions,), np.int8)}
            )
        self.action_space = spaces.Discrete(dims.n_actions)
        self.learner_seat = 0
        self.seat_agents: list[Agent | None] = [None] * self.num_players
        self._penalized = False
        self._returns = np.zeros(self.num_players, np.float32)
        self._started = False

    def _check_seat(self, seat: Any) -> int | str:
        if seat == "random":
            return seat
        is_integer = isinstance(seat, (int, np.integer)) and not isinstance(seat, (bool, np.bool_))
        if is_integer and 0 <= seat < self.num_players:
            return int(seat)
        raise ValueError(f"learner_seat must be 'random' or from 0 to {self.num_players - 1}; got {seat!r}")

    # -- the pieces the vectorised env drives -----------------------------------------------
    def begin_game(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Seed, pick the seat and opponents, deal the game; the opponents have not moved yet."""
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = set(options) - {"learner_seat", "opponents"}
        if unknown:
            raise ValueError(f"reset options are learner_seat and opponents; got {sorted(unknown)}")
        choice = self._check_seat(options.get("learner_seat", self.learner_seat_choice))
        rng = self.np_random
        self.learner_seat = int(rng.integers(self.num_players)) if choice == "random" else int(choice)
        source = self.opponents
        if "opponents" in options:
            source = _opponent_source(self.game, options["opponents"], self.num_players - 1)
        factories = source.draw(rng, self.num_players - 1)
        self.seat_agents = [None] * self.num_players
        for k, factory in enumerate(factories):
            seat = (self.learner_seat + 1 + k) % self.num_players
            self.seat_agents[seat] = factory(int(rng.integers(SEED_BOUND)))
        self.aec.render_viewer = self.learner_seat
        self.aec.reset(seed=int(rng.integers(SEED_BOUND)))
        self._penalized = False
        self._started = True

    def waiting_opponent(self) -> tuple[Agent, str] | None:
        """The opponent to act now and its agent name, or None (the learner's turn, or over)."""
        if self.is_over():
            return None
        seat = int(self.aec._state[CURRENT_PLAYER])
        if seat == self.learner_seat:
            return None
        return self.seat_agents[seat], agent_name(seat)

    def opponent_step(self, action: int) -> None:
        self.aec.step(action)

    def play_opponents(self) -> None:
        """Let the opponents move until the learner must decide or the game is over."""
        while (waiting := self.waiting_opponent()) is not None:
            opponent, agent = waiting
            self.opponent_step(opponent.act(self.aec, agent))

    def learner_step(self, action: Any) -> None:
        """Apply the learner's action; an illegal one ends the game with a penalty (or raises,
        under illegal_action="raise"), and one that is not an integer in range always raises."""
        if not self._started:
            raise RuntimeError(f"{gym_id(self.game.name)}: call reset() first")
        if self.is_over():
            raise RuntimeError(f"{gym_id(self.game.name)}: the episode is over; call reset()")
        agent = agent_name(self.learner_seat)
        mask = self.aec.action_mask(agent)
        checked = checked_action(
            self.game, self.aec._state, agent, self.learner_seat, action, mask, self.illegal_action
        )
        if checked is None:
            self._penalized = True
            return
        self.aec.step(checked)

    def is_over(self) -> bool:
        """Over by the rules, by the learner's illegal action, or cut by the guard."""
        return self._penalized or self.aec.is_over()

    def observation(self) -> np.ndarray | dict[str, np.ndarray]:
        features = self.aec.observe(agent_name(self.learner_seat))
        if self.observation_format == "box":
            return features
        return {"observation": features, "action_mask": self.action_masks().astype(np.int8)}

    def info(self) -> dict[str, Any]:
        """The same keys at every step: the game's final infos (0 until the end), the learner's
        seat, whether it played illegally, and its action mask."""
        info = self.aec.blank_info()
        if self.aec.is_over() and not self._penalized:
            final = self.game.final_info(self.aec._state, truncated=self.aec.is_truncated())
            info.update(player_info(final, self.learner_seat))
        info["illegal_action"] = int(self._penalized)
        info["learner_seat"] = self.learner_seat
        info["action_mask"] = self.action_masks().astype(np.int8)
        return info

    def outcome(self) -> tuple[float, bool, bool, dict[str, Any]]:
        """(the learner's reward, terminated, truncated, info) after the opponents have played."""
        if self._penalized:
            return -1.0, True, False, self.info()
        if self.aec.is_truncated():
            return 0.0, False, True, self.info()  # the guard cut it: no result
        if not self.aec._state[TERMINAL]:
            return 0.0, False, False, self.info()
        # The learner's own final reward, whoever moved last.
        self.game.kernels.returns(self.aec._state, self._returns)
        return float(self._returns[self.learner_seat]), True, False, self.info()

    # -- Gymnasium API ------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        self.begin_game(seed, options)
        self.play_opponents()
        if self.is_over():
            raise RuntimeError(
                f"{self.game.name}: the game ended before the learner's first decision; the "
                "single-agent wrapper needs games in which every seat decides at least once"
            )
        return self.observation(), self.info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.learner_step(action)
        self.play_opponents()
        reward, terminated, truncated, info = self.outcome()
        return self.observation(), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (all False once the game is over), for MaskablePPO."""
        if self.is_over():
            return np.zeros(self.action_space.n, np.bool_)
        return self.aec.action_mask(agent_name(self.learner_seat)).astype(np.bool_)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            ansi.warn("render() was called without a render_mode")
            return None
        return self.aec.render()


# Importing this module makes every registered game a Gymnasium id, and every game registered
# later too.
register_gymnasium_envs()
on_register(lambda name: register_gymnasium_envs())
