"""treasure_adapters.openspiel, tested as OpenSpiel tests its own games: random simulations that
check OpenSpiel's invariants at every step over every game, player count and option set; the
information safety of every channel a player gets, by the conformance suite's re-deal; OpenSpiel's
ISMCTSBot and (determinized) MCTSBot playing whole games; rl_environment stepping every game.
Runs when pyspiel is importable (the bench extra); the exhaustive passes are marked long."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from conftest import CONFIGS  # noqa: E402
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from treasure_adapters import openspiel as adapter  # noqa: E402
from treasure_core.game import DRIVER_OPTIONS  # noqa: E402
from treasure_core.header import DECISIONS  # noqa: E402
from treasure_core.registry import all_games, get_game  # noqa: E402


def openspiel_configs() -> list[Any]:
    """The suite's option sets as OpenSpiel loads them: without the drivers' own options, at
    win_loss (the only reward OpenSpiel is offered), each once, in the suite's tier."""
    seen, result = set(), []
    for param in CONFIGS:
        name, options = param.values[0]
        kept = {k: v for k, v in options.items() if k not in DRIVER_OPTIONS and k != "reward"}
        key = (name, tuple(sorted(kept.items())))
        if key not in seen:
            seen.add(key)
            label = f"{name}-" + "-".join(f"{k}={v}" for k, v in kept.items())
            result.append(pytest.param(name, kept, id=label, marks=param.marks))
    return result


OS_CONFIGS = openspiel_configs()
LONG_RANDOM_GAMES = 3  # per option set in the long tier (a random Pharaoh game runs to 5,000 decisions)
LONG_EVERY_PLAYER_EVERY = 8  # (the default tier: 16)
# The search bots' game per option set in the long tier stops here (OpenSpiel's max_game_length):
# the bots' random rollouts make a Pharaoh game thousands of moves long, five minutes a game;
# the default tier plays each game's whole game with both bots.
LONG_SEARCH_MOVES = 300
GAMES = [game.name for game in all_games()]


def load(name: str, **options: Any) -> pyspiel.Game:
    """The game by OpenSpiel's dict form of parameters (a value may hold a comma: Karuba's fixed
    layout); a choice of another type than the parameter's goes by its spelling, as in the string
    form "python_treasure_tomb(proposals=1)"."""
    declared = adapter.game_type(get_game(name)).parameter_specification
    parameters = {
        key: value if isinstance(value, type(declared[key])) else str(value) for key, value in options.items()
    }
    return pyspiel.load_game(adapter.short_name(name), parameters)


def two_players(name: str) -> int:
    return max(2, get_game(name).min_players)


# -- registration, GameType, GameInfo, parameters -------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_every_game_loads_with_its_type_and_info(name):
    spec = get_game(name)
    game = load(name)
    kind = game.get_type()
    assert kind.short_name == f"python_treasure_{name}"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (kind.min_num_players, kind.max_num_players) == (spec.min_players, spec.max_players)
    options = spec.validate({})
    dims = spec.dims(spec.make_params(options))
    assert game.num_distinct_actions() == dims.n_actions
    assert game.num_players() == spec.default_players
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.max_game_length() == adapter.DEFAULT_MAX_GAME_LENGTH
    assert game.observation_tensor_shape() == [dims.obs_size]
    assert set(kind.parameter_specification) == {
        o.name for o in spec.options if o.name not in DRIVER_OPTIONS
    } | set(adapter.OWN_PARAMETERS)


@pytest.mark.parametrize("name", GAMES)
def test_every_option_value_is_a_parameter(name):
    """Each choice of each option loads as an OpenSpiel parameter and reaches the game's options
    (a choice of another type than the default's, Tomb Trader's proposals=1, by its spelling)."""
    spec = get_game(name)
    for option in spec.options:
        if option.name in DRIVER_OPTIONS or option.name == "reward":
            continue
        for choice in option.choices:
            try:
                spec.validate({option.name: choice})
            except ValueError:
                continue  # a rule between options (check_options) refuses it alone
            game = load(name, **{option.name: choice})
            assert game.options[option.name] == choice and type(game.options[option.name]) is type(choice)


def test_parameters_from_the_issue_and_bad_ones():
    game = pyspiel.load_game("python_treasure_nakbe(num_players=3,board=jungle)")
    assert game.num_players() == 3 and game.options["board"] == "jungle"
    with pytest.raises(Exception, match="board"):
        pyspiel.load_game("python_treasure_nakbe(board=desert)")
    with pytest.raises(Exception, match="score_diff"):
        pyspiel.load_game("python_treasure_nakbe(reward=score_diff)")
    with pytest.raises(Exception, match="num_players"):
        pyspiel.load_game("python_treasure_nakbe(num_players=9)")


def test_a_game_registered_later_joins_openspiel(monkeypatch):
    import dataclasses
    import sys
    import types

    from treasure_core import registry

    module = types.ModuleType("nakbe_later_env")
    module.GAME = dataclasses.replace(get_game("nakbe"), name="nakbe_later")
    monkeypatch.setitem(sys.modules, "nakbe_later_env", module)
    registry.register("nakbe_later", "nakbe_later_env")  # the adapter hears of it
    try:
        game = pyspiel.load_game("python_treasure_nakbe_later(num_players=2)")
        assert game.num_players() == 2 and random_game(game, seed=0).is_terminal()
    finally:
        registry.unregister("nakbe_later")
    with pytest.raises(Exception, match="unknown game 'nakbe_later'"):  # OpenSpiel keeps the name
        pyspiel.load_game("python_treasure_nakbe_later")


def test_seeded_games_replay():
    game = load("nakbe", rng_seed=5)
    again = load("nakbe", rng_seed=5)
    first = [str(game.new_initial_state()) for _ in range(3)]
    assert first == [str(again.new_initial_state()) for _ in range(3)]
    state = game.new_initial_state(7)
    twin = game.new_initial_state(7)
    assert np.array_equal(state.array, twin.array)
    clone = game.new_initial_state().clone()  # cloning a fresh state deals one game, not two
    assert np.array_equal(clone.array, clone.clone().array)


# -- random simulations with OpenSpiel's invariants ------------------------------------------
def check_state(game: pyspiel.Game, state: Any, every_player: bool = True) -> None:
    """OpenSpiel's invariants for one state, and a clone equal to it; the observations of the
    player to act, or (every_player) of every player, with the clone's text. These are the checks
    of OpenSpiel's C++ RandomSimTest, which cannot run a Python sampled-stochastic game: it
    serializes the game, and a Python game cannot give pybind11 its GetRNGState."""
    n, actions = game.num_players(), game.num_distinct_actions()
    assert state.move_number() <= game.max_game_length()
    assert int(state.array[DECISIONS]) == state.move_number()
    clone = state.clone()
    assert np.array_equal(clone.array, state.array)
    assert clone.history() == state.history() and clone.is_terminal() == state.is_terminal()
    if every_player:
        assert str(clone) == str(state)
    size = game.observation_tensor_size()
    seats = range(n) if every_player or state.is_terminal() else [state.current_player()]
    for player in seats:
        tensor = np.asarray(state.observation_tensor(player))
        assert tensor.shape == (size,) and tensor.min() >= 0.0 and tensor.max() <= 1.0
        assert clone.information_state_string(player) == state.information_state_string(player)
        assert clone.observation_string(player) == state.observation_string(player)
    if state.is_terminal():
        returns = state.returns()
        assert len(returns) == n
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
        assert state.current_player() == pyspiel.PlayerId.TERMINAL and state.legal_actions() == []
        return
    player = state.current_player()
    assert 0 <= player < n and not state.is_chance_node()
    legal = state.legal_actions()
    assert legal and legal == sorted(legal) and 0 <= legal[0] and legal[-1] < actions
    assert state.returns() == [0.0] * n
    mask = state.legal_actions_mask(player)
    assert len(mask) == actions and np.flatnonzero(mask).tolist() == legal
    for other in range(n):
        if other != player:
            assert state.legal_actions(other) == []
    assert all(isinstance(state.action_to_string(player, a), str) for a in legal)


def random_game(game: pyspiel.Game, seed: int, every_player_every: int = 1) -> Any:
    """A random game, check_state at every step, for every player every `every_player_every`."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    while True:
        check_state(game, state, every_player=state.move_number() % every_player_every == 0)
        if state.is_terminal():
            return state
        state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize(("name", "options"), OS_CONFIGS)
def test_random_simulation_keeps_openspiel_invariants(name, options):
    random_game(load(name, **options), seed=7, every_player_every=16)


@pytest.mark.long
@pytest.mark.parametrize(("name", "options"), OS_CONFIGS)
def test_random_simulations_long(name, options):
    game = load(name, **options)
    for seed in range(LONG_RANDOM_GAMES):
        # Every seat's view and the clone's text every 8th step (a third of the time at
        # every step), the acting seat's at every step.
        random_game(game, seed, every_player_every=LONG_EVERY_PLAYER_EVERY)


def test_illegal_action_raises_and_changes_nothing():
    state = load("nakbe").new_initial_state(3)
    before = state.array.copy()
    illegal = np.flatnonzero(np.asarray(state.legal_actions_mask()) == 0)
    if illegal.size:
        with pytest.raises(Exception, match="illegal"):
            state.apply_action(int(illegal[0]))
    assert np.array_equal(state.array, before)


def test_the_guard_and_max_game_length_truncate_with_returns_zero():
    game = load("nakbe", max_game_length=5)
    state = random_game(game, seed=1)
    assert state.is_terminal() and state.truncated() and state.move_number() == 5
    assert state.returns() == [0.0] * game.num_players()
    guarded = next(g for g in all_games() if g.guard is not None)  # a game declaring a guard
    game = load(guarded.name)
    state = game.new_initial_state(0)
    state._array[guarded.guard.counter] = int(state.array[guarded.guard.counter]) + 10**6
    assert state.is_terminal() and state.truncated() and state.returns() == [0.0] * game.num_players()


# -- information safety: the conformance suite's re-deal ------------------------------------
def own_channels(state: Any, player: int) -> tuple:
    """Everything the adapter tells `player`: its observation tensor and string, its information
    state, its legal actions and the words for every action in its name."""
    actions = state.get_game().num_distinct_actions()
    return (
        tuple(state.observation_tensor(player)),
        state.observation_string(player),
        state.information_state_string(player),
        tuple(state.legal_actions(player)),
        state.current_player(),
        tuple(state.action_to_string(player, a) for a in range(actions)),
    )


def redealt(state: Any, player: int, seed: int) -> Any:
    """The state with everything `player` cannot know re-dealt by the kernels' resample_hidden
    (the conformance suite's twin), the players' recall kept."""
    twin = state.clone()
    twin._array = state.array.copy()
    state.get_game().spec.kernels.resample_hidden(twin._array, player, seed)
    return twin


def information_cases(name: str, options: dict[str, Any], cases: int, seed: int) -> None:
    game = load(name, **options)
    n = game.num_players()
    rng = np.random.default_rng(seed)
    redeals = 0
    for _ in range(cases):
        state = game.new_initial_state(int(rng.integers(2**31)))
        for _ in range(int(rng.integers(0, 80))):
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(state.legal_actions())))
        if state.is_terminal():
            continue
        player = int(rng.integers(n))
        mine = own_channels(state, player)
        twin = redealt(state, player, int(rng.integers(2**31)))
        assert own_channels(twin, player) == mine, f"{name}: player {player} can tell the re-dealt twin"
        sampler_seed = int(rng.integers(2**31))
        for origin in (state, twin):  # a re-deal from either world is one the player cannot tell
            sampler = pyspiel.UniformProbabilitySampler(sampler_seed, 0.0, 1.0)
            sample = origin.resample_from_infostate(player, sampler)
            assert own_channels(sample, player) == mine, f"{name}: the re-deal tells player {player}"
            get_game(name).check_invariants(sample.array)
            redeals += not np.array_equal(sample.array, origin.array)
        for other in range(n):  # the others' recall is not carried into the re-dealt world
            if other != player:
                assert "own[?" in sample.information_state_string(other)
    assert redeals, f"{name}: resample_from_infostate never re-dealt anything"


@pytest.mark.parametrize("name", GAMES)
def test_information_safety(name):
    information_cases(name, {"num_players": two_players(name)}, cases=6, seed=0)
    information_cases(name, {}, cases=6, seed=1)


@pytest.mark.long
@pytest.mark.parametrize(("name", "options"), OS_CONFIGS)
def test_information_safety_long(name, options):
    information_cases(name, options, cases=40, seed=2)


# -- OpenSpiel's algorithms ------------------------------------------------------------------
def play(game: pyspiel.Game, bots: list[Any], seed: int) -> Any:
    """One whole game, bots[p] deciding for seat p (None: uniformly random)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        bot = bots[state.current_player()]
        action = int(rng.choice(state.legal_actions())) if bot is None else int(bot.step(state))
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


def evaluator(seed: int, max_length: int = 12) -> mcts.RandomRolloutEvaluator:
    return mcts.RandomRolloutEvaluator(
        n_rollouts=1, random_state=np.random.RandomState(seed), max_length=max_length
    )


def ismcts_bot(game: pyspiel.Game, seed: int, simulations: int = 4) -> ismcts.ISMCTSBot:
    return ismcts.ISMCTSBot(game, evaluator(seed), 2.0, simulations, random_state=np.random.RandomState(seed))


def mcts_bot(game: pyspiel.Game, seed: int, simulations: int = 4) -> adapter.DeterminizedBot:
    search = mcts.MCTSBot(game, 2.0, simulations, evaluator(seed), random_state=np.random.RandomState(seed))
    return adapter.DeterminizedBot(search, seed=seed)


@pytest.mark.parametrize("name", GAMES)
def test_ismcts_and_determinized_mcts_play_whole_games(name):
    game = load(name, num_players=two_players(name))
    bots: list[Any] = [ismcts_bot(game, 0), mcts_bot(game, 1)] + [None] * (game.num_players() - 2)
    state = play(game, bots, seed=3)
    assert state.is_terminal() and len(state.returns()) == game.num_players()


@pytest.mark.long
@pytest.mark.parametrize(("name", "options"), OS_CONFIGS)
def test_search_bots_long(name, options):
    game = load(name, max_game_length=LONG_SEARCH_MOVES, **options)
    for seed in range(1):  # one game per option set, to its end or LONG_SEARCH_MOVES moves
        bots = [
            ismcts_bot(game, seed, 8) if p % 2 == 0 else mcts_bot(game, seed, 8)
            for p in range(game.num_players())
        ]
        play(game, bots, seed)


@pytest.mark.parametrize("name", GAMES)
def test_rl_environment_steps_every_game(name):
    game = load(name, num_players=two_players(name))
    env = rl_environment.Environment(game)
    env.seed(0)
    rng = np.random.default_rng(0)
    assert env.observation_spec()["info_state"] == (game.observation_tensor_size(),)
    assert env.action_spec()["num_actions"] == game.num_distinct_actions()
    time_step = env.reset()
    steps = 0
    while not time_step.last():
        player = time_step.observations["current_player"]
        legal = time_step.observations["legal_actions"][player]
        assert len(time_step.observations["info_state"][player]) == game.observation_tensor_size()
        time_step = env.step([int(rng.choice(legal))])
        steps += 1
    assert steps <= game.max_game_length()
    assert len(time_step.rewards) == game.num_players()
    assert all(-1.0 <= r <= 1.0 for r in time_step.rewards)
