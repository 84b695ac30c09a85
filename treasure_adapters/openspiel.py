"""Every registered game as an OpenSpiel Python game: `pyspiel.load_game("python_treasure_nakbe")`.

Importing this module registers `python_treasure_<game>` for every game of the registry (and,
through `treasure_core.registry.on_register`, every game registered later), with the game's
options as OpenSpiel parameters: `pyspiel.load_game("python_treasure_nakbe(num_players=3,board=jungle)")`.
Nothing here is specific to a game; docs/openspiel.md says what each OpenSpiel notion maps to.

- **Chance** is OpenSpiel's SAMPLED_STOCHASTIC: the generator lives in the state array, so chance
  happens inside `apply_action`, as in the kernels; there are no chance nodes. A game's deal comes
  from the loaded game's own generator (parameter `rng_seed`, -1: from the operating system), or
  from `game.new_initial_state(seed)`.
- **Simultaneous phases** are turn-based, as in the AEC env: the kernels take the seats' decisions
  one at a time in seat order and keep each hidden until the round resolves, so the game is
  SEQUENTIAL for OpenSpiel (what ISMCTS and MCTS require) and IMPERFECT_INFORMATION.
- **Information state**: the player's current observation (the game's observation encoder) and
  every action it took itself, in order (perfect recall of its own actions; of everything else,
  what the observation holds). `resample_from_infostate(player, sampler)` re-deals everything the
  player cannot know (the kernels' `resample_hidden`, future chance included); in the re-dealt
  state the other players' recall of their own past actions is lost (it would tell their secrets),
  so their information states start again from the re-deal.
- **Utility**: `reward=win_loss` only (+1 each winner, ties share, -1 the others): the GameSpec
  bounds no score, so `score_diff` has no utility bounds OpenSpiel could be told.
- **Game length**: a game the guard cuts (GameSpec.guard), or one that reaches `max_game_length`
  decisions (a parameter), is terminal with returns 0 for everyone: a truncation, never a result.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pyspiel

from treasure_core.game import DRIVER_OPTIONS, GameSpec
from treasure_core.header import CURRENT_PLAYER, DECISIONS, STATE_DTYPE, TERMINAL
from treasure_core.registry import all_games, get_game, on_register

PREFIX = "python_treasure_"
DEFAULT_MAX_GAME_LENGTH = 5000  # decisions; far beyond any game the rules end (docs/openspiel.md)
SEED_LIMIT = 2**63  # the kernels take seeds as int64
OWN_PARAMETERS = {"rng_seed": -1, "max_game_length": DEFAULT_MAX_GAME_LENGTH}
UNSUPPORTED = {"reward": ("win_loss",)}  # option -> the values OpenSpiel can take
_CREATORS: dict[str, type] = {}  # game -> its registered TreasureGame subclass
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def short_name(game: GameSpec | str) -> str:
    """The OpenSpiel name of a registered game: python_treasure_<game>."""
    return PREFIX + (game if isinstance(game, str) else game.name)


def _parameter_default(option: Any) -> Any:
    """The OpenSpiel parameter for an option: its default, as a string where its choices are not
    all of the default's type (OpenSpiel parameters have one type: bool, int, float or str)."""
    kind = type(option.default)
    if kind in (bool, int, str) and all(type(choice) is kind for choice in option.choices):
        return option.default
    return str(option.default)


def _option_value(game: GameSpec, name: str, value: Any) -> Any:
    """An OpenSpiel parameter's value -> the option's choice it names (a string names the choice
    it spells); anything else is a ValueError naming the choices."""
    option = next(o for o in game.options if o.name == name)
    for choice in option.choices:
        if type(choice) is type(value) and choice == value:
            return choice
    for choice in option.choices:
        if str(choice) == str(value):
            return choice
    choices = ", ".join(map(repr, option.choices))
    raise ValueError(f"{short_name(game)}: parameter {name}={value!r}; it must be one of {choices}")


def game_type(game: GameSpec) -> pyspiel.GameType:
    """OpenSpiel's GameType of a game, from its Dynamics and options."""
    hidden = game.dynamics.information == "imperfect" or game.dynamics.turns == "simultaneous"
    parameters = {o.name: _parameter_default(o) for o in game.options if o.name not in DRIVER_OPTIONS}
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"{game.title} (treasure-envs {game.env_name})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,  # simultaneous rounds taken in seat order
        chance_mode=(
            pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
            if game.dynamics.chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        # win_loss: ties share victory (+1 each), so the returns need not sum to a constant.
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**parameters, **OWN_PARAMETERS},
    )


class TreasureGame(pyspiel.Game):
    """One registered game at one option set, as a pyspiel.Game (a subclass per game names it)."""

    spec_name = ""

    def __init__(self, params: dict[str, Any] | None = None):
        spec = get_game(self.spec_name)
        params = dict(params or {})
        own = {name: params.pop(name, default) for name, default in OWN_PARAMETERS.items()}
        options = {name: _option_value(spec, name, value) for name, value in params.items()}
        for name, allowed in UNSUPPORTED.items():
            if options.get(name, allowed[0]) not in allowed:
                raise ValueError(
                    f"{short_name(spec)}: {name}={options[name]!r} is not offered in OpenSpiel (it has "
                    f"no declared utility bounds); use {', '.join(map(repr, allowed))}"
                )
        self.spec = spec
        self.options = spec.validate(options)
        self.params = spec.make_params(self.options)
        self.dims = spec.dims(self.params)
        self.max_length = int(own["max_game_length"])
        if self.max_length < 1:
            raise ValueError(f"{short_name(spec)}: max_game_length must be at least 1; got {self.max_length}")
        seed = int(own["rng_seed"])
        self.rng = np.random.default_rng(None if seed < 0 else seed)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.dims.n_actions,
            max_chance_outcomes=0,  # sampled stochastic: no chance nodes
            num_players=int(self.options["num_players"]),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.max_length,
        )
        super().__init__(game_type(spec), info, {**params, **own})

    def new_initial_state(self, seed: int | None = None) -> TreasureState:
        """A new game, dealt from `seed` (0 <= seed < 2**63) or, without one, from the game's own
        generator (parameter rng_seed) when the state is first read."""
        return TreasureState(self, seed)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict | None = None
    ) -> TreasureObserver:
        if params:
            raise ValueError(f"{short_name(self.spec)}: observation parameters are not offered; got {params}")
        return TreasureObserver(self, iig_obs_type)


class _Deal:
    """The seed a state is dealt from. A clone shares it (PyState::Clone deep-copies the Python
    attributes of a state it makes with new_initial_state; that fresh state's own _Deal is thrown
    away undrawn, so cloning never draws from the game's generator)."""

    __slots__ = ("seed",)

    def __init__(self, seed: int | None):
        self.seed = seed

    def __deepcopy__(self, memo: dict) -> _Deal:
        return self


class TreasureState(pyspiel.State):
    """A game in progress: the game's state array and each player's recall of its own actions."""

    def __init__(self, game: TreasureGame, seed: int | None = None):
        super().__init__(game)
        if seed is not None and not (isinstance(seed, (int, np.integer)) and 0 <= seed < SEED_LIMIT):
            raise ValueError(f"{short_name(game.spec)}: a seed is an integer from 0 to 2**63-1; got {seed!r}")
        self._game = _Shared(game)
        self._deal = _Deal(None if seed is None else int(seed))
        self._array: np.ndarray | None = None  # dealt when first read (see _Deal)
        self._recall: list[list[int | str]] = [[] for _ in range(game.num_players())]

    @property
    def array(self) -> np.ndarray:
        """The game's state array (the whole game, chance included)."""
        if self._array is None:
            game = self._game.game
            if self._deal.seed is None:
                self._deal.seed = int(game.rng.integers(0, SEED_LIMIT))
            self._array = np.zeros(game.dims.state_size, STATE_DTYPE)
            game.spec.kernels.init(self._array, game.params, self._deal.seed)
        return self._array

    def truncated(self) -> bool:
        """The game's guard or max_game_length cut this game (returns 0 for everyone)."""
        state, game = self.array, self._game.game
        if state[TERMINAL]:
            return False
        return game.spec.truncated(state, game.params) or int(state[DECISIONS]) >= game.max_length

    # -- OpenSpiel's State API -----------------------------------------------------------
    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return int(self.array[CURRENT_PLAYER])

    def is_terminal(self) -> bool:
        return bool(self.array[TERMINAL]) or self.truncated()

    def mask(self, player: int) -> np.ndarray:
        """player's legal actions now, int8 over the game's actions."""
        out = np.zeros(self._game.game.dims.n_actions, np.int8)
        if not self.is_terminal():
            self._game.game.spec.kernels.legal_mask(self.array, player, out)
        return out

    def _legal_actions(self, player: int) -> list[int]:
        return np.flatnonzero(self.mask(player)).tolist()

    def _apply_action(self, action: int) -> None:
        player = int(self.array[CURRENT_PLAYER])
        if not self.mask(player)[action]:
            name = short_name(self._game.game.spec)
            raise ValueError(f"{name}: action {action} is illegal for player {player}")
        self._game.game.spec.kernels.step(self.array, int(action))
        self._recall[player].append(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        seat = None if player < 0 else int(player)
        return self._game.game.spec.action_name(self.array, int(action), seat)

    def returns(self) -> list[float]:
        game = self._game.game
        out = np.zeros(game.num_players(), np.float32)
        if self.array[TERMINAL]:
            game.spec.kernels.returns(self.array, out)
        return [float(x) for x in out]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TreasureState:
        """A state player_id cannot tell from this one: everything it cannot know re-dealt by the
        kernels' resample_hidden, seeded from `probability_sampler` (a callable giving floats in
        [0, 1), pyspiel.UniformProbabilitySampler). The other players' recall is lost."""
        twin = self.clone()
        if not self.is_terminal():
            words = [int(probability_sampler() * 2**32) for _ in range(2)]
            seed = ((words[0] << 31) ^ words[1]) % SEED_LIMIT
            twin._array = self.array.copy()
            self._game.game.spec.kernels.resample_hidden(twin._array, int(player_id), seed)
        twin._recall = [
            list(recall) if seat == player_id else ["?"] for seat, recall in enumerate(self._recall)
        ]
        return twin

    def information_state_string(self, player: int | None = None) -> str:
        return self._information_state(self.current_player() if player is None else player)

    def _information_state(self, player: int) -> str:
        recall = " ".join(map(str, self._recall[player]))
        return f"p{player} own[{recall}] obs[{self._observation_string(player)}]"

    def _observation(self, player: int) -> np.ndarray:
        out = np.zeros(self._game.game.dims.obs_size, np.float32)
        self._game.game.spec.kernels.observe(self.array, player, out)
        return out

    def _observation_string(self, player: int) -> str:
        """The observation exactly, as its non-zero entries index:value (9 digits give a float32)."""
        observation = self._observation(player)
        nonzero = np.flatnonzero(observation)
        return " ".join(
            f"{i}:{v:.9g}" for i, v in zip(nonzero.tolist(), observation[nonzero].tolist(), strict=True)
        )

    def __str__(self) -> str:
        return _ANSI.sub("", self._game.game.spec.render_ansi(self.array, viewer=None))


class _Shared:
    """The state's game, shared by every clone (never deep-copied)."""

    __slots__ = ("game",)

    def __init__(self, game: TreasureGame):
        self.game = game

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self


class TreasureObserver:
    """OpenSpiel's PyObserver: the observation encoder (tensor and string) for the default
    observation type; the information state string (no tensor) for perfect recall."""

    def __init__(self, game: TreasureGame, iig_obs_type: pyspiel.IIGObservationType | None):
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not kind.public_info or kind.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError(
                f"{short_name(game.spec)}: observations are one player's own view (public and its "
                "private information); other observation types are not offered"
            )
        self.perfect_recall = kind.perfect_recall
        self.tensor = None if self.perfect_recall else np.zeros(game.dims.obs_size, np.float32)
        self.dict = {} if self.tensor is None else {"observation": self.tensor}

    def set_from(self, state: TreasureState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = state._observation(player)

    def string_from(self, state: TreasureState, player: int) -> str:
        if self.perfect_recall:
            return state._information_state(player)
        return state._observation_string(player)


class DeterminizedBot(pyspiel.Bot):
    """A perfect-information bot (OpenSpiel's MCTSBot, say) made fit for these games: each
    decision it searches one world drawn by resample_from_infostate for the player to act (the
    others' secrets and future chance re-dealt), never the real state, whose generator would
    show it the dice to come."""

    def __init__(self, bot: pyspiel.Bot, seed: int | None = None):
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self.sampler = (
            pyspiel.UniformProbabilitySampler(0.0, 1.0)
            if seed is None
            else pyspiel.UniformProbabilitySampler(int(seed), 0.0, 1.0)
        )

    def step(self, state: TreasureState) -> int:
        return self.bot.step(state.resample_from_infostate(state.current_player(), self.sampler))

    def restart_at(self, state: TreasureState) -> None:
        self.bot.restart_at(state)


def register(name: str) -> None:
    """Register python_treasure_<name> with OpenSpiel (once; a game registered again is kept)."""
    spec = get_game(name)
    if short_name(spec) in set(pyspiel.registered_names()):
        return
    # A class, as OpenSpiel's own Python games register: the registry's C++ side keeps the creator
    # until after the interpreter has finished, and a class (unlike a function) is never freed
    # then, so no Python object is released without the interpreter (a crash at exit).
    creator = type(f"TreasureGame_{spec.name}", (TreasureGame,), {"spec_name": spec.name})
    _CREATORS[spec.name] = creator
    pyspiel.register_game(game_type(spec), creator)


for _spec in all_games():
    register(_spec.name)
on_register(register)
