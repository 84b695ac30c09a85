"""The conformance suite as a library: every check the project runs on its own games, for any game.

A game that passes these checks keeps the contracts the drivers rely on: PettingZoo's AEC and
Parallel APIs (with PettingZoo's own `api_test`, `seed_test` and `parallel_api_test`), seeded
determinism, clone / get_state / set_state round trips, illegal input that raises and changes
nothing, hidden information (a player cannot tell a state from its `resample_hidden` twin, nor
can its bots), a `legal_mask` kernel that answers for every seat, random-play fuzzing with the
game's invariants, and agreement of the AEC env, the Parallel env and the batch runner.

Every check is a plain function `check_<name>(game, options)`: `game` is a GameSpec or a
registered name, `options` the game's constructor options (None: the defaults). A check returns
None or raises AssertionError naming the check, the game, the options and what failed. Run one
option set or all of them with `run_conformance`:

    from treasure_core.conformance import CHECKS, configs, run_conformance

    run_conformance("mygame")                                  # every check, every option set
    run_conformance(MY_GAME, {"num_players": 2}, verbose=True)  # one option set
    run_conformance("mygame", checks=["pettingzoo_api", "hidden_information"])

or from pytest, one test per check and option set:

    @pytest.mark.parametrize("options", configs("mygame"), ids=str)
    @pytest.mark.parametrize("name", list(CHECKS))
    def test_conformance(name, options):
        CHECKS[name]("mygame", options)
"""

from __future__ import annotations

import dataclasses
import functools
import re
import time
import warnings
from collections.abc import Callable, Iterable
from typing import Any

import numba
import numpy as np
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import aec_to_parallel
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from treasure_core import batch_ops, codegen
from treasure_core.aec import TreasureAECEnv, checked_action
from treasure_core.batch import BatchRunner
from treasure_core.game import GameSpec
from treasure_core.header import (
    CURRENT_PLAYER,
    DECISIONS,
    HEADER_SIZE,
    NUM_PLAYERS,
    P_GUARD_LIMIT,
    P_NUM_PLAYERS,
    REWARD_MODE,
    STATE_DTYPE,
    TERMINAL,
)
from treasure_core.parallel import TreasureParallelEnv
from treasure_core.registry import get_game, make_env

# Far beyond any real game (or its guard): a game that runs longer is stuck. Pharaoh's random
# games run up to its guard, 5,000 turns of about 3 decisions each.
MAX_DECISIONS = 20_000

Options = dict[str, Any]


# -- plumbing -------------------------------------------------------------------------------
def resolve(game: GameSpec | str) -> GameSpec:
    """A GameSpec, or the registered game of that name."""
    if isinstance(game, GameSpec):
        return game
    if isinstance(game, str):
        return get_game(game)
    raise TypeError(f"game must be a GameSpec or a registered game name; got {game!r}")


def _label(check: str, game: GameSpec, options: Options) -> str:
    return f"{check} failed for {game.name} with options {options!r}"


def _run_labelled(func: Callable[..., Any], label: str, *args: Any, **kwargs: Any) -> Any:
    """Call func; any failure becomes an AssertionError starting with `label`. A crash in a
    check (a kernel raising IndexError, say) is a conformance failure too."""
    try:
        return func(*args, **kwargs)
    except AssertionError as error:
        raise AssertionError(f"{label}: {error}") from error
    except Exception as error:
        raise AssertionError(f"{label}: raised {type(error).__name__}: {error}") from error


def _conformance_check(func: Callable[..., None]) -> Callable[..., None]:
    """Resolve `game`, validate `options` (a ValueError for options the game does not have is
    the caller's mistake, not a failure), and name the check, game and options on failure."""

    @functools.wraps(func)
    def check(game: GameSpec | str, options: Options | None = None, *args: Any, **kwargs: Any) -> None:
        spec = resolve(game)
        options = dict(options or {})
        spec.validate(options)
        _run_labelled(func, _label(func.__name__, spec, options), spec, options, *args, **kwargs)

    return check


def _require(condition: Any, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def assert_raises(
    expected: type[BaseException] | tuple[type[BaseException], ...],
    call: Callable[[], Any],
    what: str = "",
    match: str | None = None,
) -> BaseException:
    """Call `call()` and return the exception it raises, which must be an `expected` whose
    message matches the regular expression `match` (if given); AssertionError otherwise."""
    names = (
        expected.__name__
        if isinstance(expected, type)
        else " or ".join(exception.__name__ for exception in expected)
    )
    prefix = f"{what}: " if what else ""
    try:
        call()
    except expected as error:
        if match is not None and re.search(match, str(error)) is None:
            raise AssertionError(
                f"{prefix}{type(error).__name__} raised, but its message {str(error)!r} does not match "
                f"{match!r}"
            ) from error
        return error
    except Exception as error:
        raise AssertionError(f"{prefix}expected {names}, got {type(error).__name__}: {error}") from error
    raise AssertionError(f"{prefix}expected {names}; nothing was raised")


def _aec(game: GameSpec, options: Options, **extra: Any) -> TreasureAECEnv:
    return TreasureAECEnv(game, **options, **extra)


def _reset(game: GameSpec, options: Options, seed: int) -> TreasureAECEnv:
    env = _aec(game, options)
    env.reset(seed=seed)
    return env


def _with_state(game: GameSpec, options: Options, state: np.ndarray) -> TreasureAECEnv:
    env = _aec(game, options)
    env.set_state(state)
    return env


def _public_env(game: GameSpec, options: Options) -> Any:
    """The game's public `env(**options)` when `game` is the registered game of its name; else
    the AEC env wrapped as every game's env() wraps it."""
    try:
        registered = get_game(game.name) is game
    except Exception:
        registered = False
    if registered:
        return make_env(game.name, **options)
    return OrderEnforcingWrapper(TreasureAECEnv(game, **options))


def _parallel(game: GameSpec, options: Options, **extra: Any) -> TreasureParallelEnv:
    return TreasureParallelEnv(game, **options, **extra)


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A uniformly random legal action of `mask`."""
    legal = np.flatnonzero(mask)
    _require(legal.size, "a live game in which the player to act has no legal action")
    return int(rng.choice(legal))


def _invariants(game: GameSpec, state: np.ndarray, where: str) -> None:
    try:
        game.check_invariants(state)
    except AssertionError as error:
        raise AssertionError(f"{where}: invariant broken: {error}") from error


def _play_random(
    env: TreasureAECEnv, seed: int, decisions: int, check: bool = False, where: str = ""
) -> list[int]:
    """Take up to `decisions` random legal actions (stopping at the end); return them."""
    rng = np.random.default_rng(seed)
    taken: list[int] = []
    for _ in range(decisions):
        if env.is_over():
            break
        action = random_legal(rng, env.action_mask(env.agent_selection))
        env.step(action)
        taken.append(action)
        if check:
            _invariants(env.game, env.get_state(), f"{where}after decision {len(taken)} ({action})")
            try:  # a state from real play always passes the validator
                env.game.check_state(env.get_state(), env.params)
            except ValueError as error:
                raise AssertionError(
                    f"{where}after decision {len(taken)}: a real state is refused: {error}"
                ) from None
    return taken


def _env_snapshot(env: TreasureAECEnv) -> tuple:
    return (
        env.get_state().tobytes(),
        env.agent_selection,
        tuple(env.agents),
        tuple(sorted(env.rewards.items())),
        tuple(sorted(env._cumulative_rewards.items())),
        tuple(sorted(env.terminations.items())),
        tuple(sorted(env.truncations.items())),
    )


def features(observation: dict[str, np.ndarray] | np.ndarray) -> np.ndarray:
    """The feature vector of an observation in either format ("dict" or "box")."""
    return observation["observation"] if isinstance(observation, dict) else observation


def _random_joint(infos: dict[str, dict[str, Any]], rng: np.random.Generator) -> dict[str, int]:
    """A random legal action for every deciding agent (by the masks in its infos); 0 for the
    others (ignored)."""
    return {
        agent: random_legal(rng, info["action_mask"]) if info["action_mask"].any() else 0
        for agent, info in infos.items()
    }


# -- the option sets --------------------------------------------------------------------------
def configs(game: GameSpec | str, combinations: bool = True) -> list[Options]:
    """The option sets the suite runs: each player count at default options, each non-default
    value of every option (but num_players and illegal_action, which have checks of their own)
    at the default player count, then, with `combinations`, the combinations the game asks for
    (GameSpec.test_configs)."""
    spec = resolve(game)
    result: list[Options] = []
    for n in range(spec.min_players, spec.max_players + 1):
        result.append({"num_players": n})
    for option in spec.options:
        if option.name in ("num_players", "illegal_action"):
            continue
        for choice in option.choices:
            if choice != option.default:
                result.append({option.name: choice})
    for options in spec.test_configs if combinations else ():
        if dict(options) not in result:
            result.append(dict(options))
    return result


# -- options and PettingZoo's own tests -------------------------------------------------------
@_conformance_check
def check_bad_options(game: GameSpec, options: Options) -> None:
    """Bad options, render modes and seeds raise ValueError naming what is wrong."""
    bad_options: list[Options] = [
        {"num_players": game.min_players - 1},
        {"num_players": game.max_players + 1},
        {"num_players": True},
        {"num_players": "3"},
        {"reward": "points"},
        {"illegal_action": "ignore"},
        {"observation_format": "json"},
        {"no_such_option": 1},
    ]
    for option in game.game_options:
        bad_options.append({option.name: object()})
    for bad in bad_options:
        error = assert_raises(ValueError, lambda bad=bad: TreasureAECEnv(game, **bad), f"options {bad!r}")
        _require(
            next(iter(bad)) in str(error), f"the error for options {bad!r} does not name the option: {error}"
        )
    assert_raises(ValueError, lambda: TreasureAECEnv(game, render_mode="video"), "render_mode='video'")
    assert_raises(ValueError, lambda: _aec(game, options).reset(seed=-1), "reset(seed=-1)")


@_conformance_check
def check_pettingzoo_api(game: GameSpec, options: Options) -> None:
    """PettingZoo's api_test on the game's public env()."""
    api_test(_public_env(game, options), num_cycles=300)


@_conformance_check
def check_pettingzoo_seed(game: GameSpec, options: Options) -> None:
    """PettingZoo's seed_test on the game's public env()."""
    seed_test(lambda: _public_env(game, options), num_cycles=200)


# -- determinism, clone, replay ---------------------------------------------------------------
@_conformance_check
def check_same_seed_same_trajectory(game: GameSpec, options: Options) -> None:
    """Two envs with the same seed and actions stay identical; another seed gives another game."""
    first, second = _aec(game, options), _aec(game, options)
    first.reset(seed=123)
    second.reset(seed=123)
    rng = np.random.default_rng(7)
    decision = 0
    while not first.is_over():
        _require(decision < MAX_DECISIONS, f"the game (seed 123) did not end in {MAX_DECISIONS} decisions")
        action = random_legal(rng, first.action_mask(first.agent_selection))
        first.step(action)
        second.step(action)
        decision += 1
        _require(
            _env_snapshot(first) == _env_snapshot(second),
            f"seed 123: the two envs differ after decision {decision} ({action})",
        )
    other = _aec(game, options)
    other.reset(seed=124)
    _require(
        other.get_state().tobytes() != _reset(game, options, 123).get_state().tobytes(),
        "seeds 123 and 124 give the same initial state",
    )


@_conformance_check
def check_clone_and_set_state(game: GameSpec, options: Options) -> None:
    """clone(), set_state(get_state()) and set_state(bytes) give the same game, continuing
    identically; the clone is independent of the original."""
    # Mid-game: 15 random decisions, or half the random game if it is shorter than 30.
    length = len(_play_random(_reset(game, options, 5), seed=1, decisions=MAX_DECISIONS))
    mid_game = min(15, length // 2)
    env = _reset(game, options, 5)
    _play_random(env, seed=1, decisions=mid_game)
    _require(
        not env.is_over(),
        f"the game (seed 5) should still be running after {mid_game} of its {length} random decisions",
    )
    twin = env.clone()
    restored = _aec(game, options)
    restored.set_state(env.get_state().tobytes())
    _require(_env_snapshot(restored) == _env_snapshot(env), "set_state(bytes) does not restore the env")
    for agent in env.possible_agents:
        for a, b, what in ((env, twin, "clone()"), (env, restored, "set_state(bytes)")):
            oa, ob = features(a.observe(agent)), features(b.observe(agent))
            _require(np.array_equal(oa, ob), f"{what}: {agent}'s observation differs")
            _require(
                np.array_equal(a.action_mask(agent), b.action_mask(agent)),
                f"{what}: {agent}'s action mask differs",
            )
    _require(np.array_equal(env.state(), restored.state()), "set_state(bytes): state() differs")
    # The three continue identically; and the clone is independent of the original.
    before = env.get_state()
    _play_random(twin, seed=2, decisions=3)
    _require(np.array_equal(env.get_state(), before), "playing the clone changed the original")
    env_actions = _play_random(env, seed=9, decisions=MAX_DECISIONS)
    rng_states = []
    for other in (twin.clone(), restored):
        other.set_state(before)
        for action in env_actions:
            other.step(action)
        rng_states.append(other.get_state().tobytes())
    _require(
        rng_states == [env.get_state().tobytes()] * 2,
        "the same actions from the same state (set_state on a clone, and on a restored env) do not "
        "give the same final state",
    )


@_conformance_check
def check_set_state_rejects_bad_input(game: GameSpec, options: Options) -> None:
    """set_state raises ValueError for a state of the wrong size, dtype or shape, and keeps its state."""
    env = _reset(game, options, 0)
    state = env.get_state()
    for what, bad in (
        ("a state one word short", state[:-1]),
        ("an int64 state", state.astype(np.int64)),
        ("bytes four short", state.tobytes()[:-4]),
        ("a 2-D state", np.zeros((2, state.size), state.dtype)),
    ):
        assert_raises(ValueError, lambda bad=bad: env.set_state(bad), f"set_state({what})")
    _require(np.array_equal(env.get_state(), state), "a rejected set_state changed the state")


# -- bad input --------------------------------------------------------------------------------
MAX_ERROR_LINES = 4  # an illegal action's error fits in a few lines of a log
MAX_ERROR_CHARS = 800


@_conformance_check
def check_illegal_actions_raise(game: GameSpec, options: Options) -> None:
    """Under illegal_action='raise', every illegal or malformed action raises a short ValueError
    naming the agent and changes nothing; under the default 'penalize', a malformed one (not an
    integer in range) still does."""
    for mode in ("raise", "penalize"):
        env = _aec(game, options, illegal_action=mode)
        env.reset(seed=11)
        _play_random(env, seed=3, decisions=8)
        n_actions = env.action_space(env.agent_selection).n
        mask = env.action_mask(env.agent_selection)
        bad: list[Any] = [a for a in range(n_actions) if not mask[a]] if mode == "raise" else []
        bad += [-1, n_actions, n_actions + 5, 1.0, "0", None, True, np.array([0, 1])]
        before = _env_snapshot(env)
        for action in bad:
            what = f"step({action!r}) under illegal_action={mode!r}"
            error = assert_raises(ValueError, lambda action=action, env=env: env.step(action), what)
            text = str(error)
            _require(
                env.agent_selection in text,
                f"the error for {what} does not name {env.agent_selection}: {text}",
            )
            _require(
                text.count("\n") < MAX_ERROR_LINES and len(text) <= MAX_ERROR_CHARS,
                f"the error for {what} is {text.count(chr(10)) + 1} lines, {len(text)} characters: {text}",
            )
            _require(_env_snapshot(env) == before, f"the rejected {what} changed the env")
        # numpy integers are fine when legal
        env.step(np.int64(np.flatnonzero(mask)[0]))


@_conformance_check
def check_illegal_action_penalize(game: GameSpec, options: Options) -> None:
    """The default, PettingZoo's convention: an in-range illegal action ends the game with -1 for
    the offender and 0 for the others, logs a warning, marks the offender in infos, and leaves
    the state as it was; then every agent steps out with None."""
    env = _reset(game, options, 4)
    rng = np.random.default_rng(0)
    while not (env.action_mask(env.agent_selection) == 0).any():
        _require(not env.is_over(), "every action was legal in every state of a whole game")
        env.step(random_legal(rng, env.action_mask(env.agent_selection)))
    mask = env.action_mask(env.agent_selection)
    illegal = int(np.flatnonzero(mask == 0)[0])
    offender = env.agent_selection
    before = env.get_state()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env.step(illegal)
    _require(
        any(offender in str(w.message) for w in caught), f"no warning names the offender {offender}: {caught}"
    )
    _require(all(env.terminations.values()), f"an illegal action ({illegal}) did not end the game")
    _require(env.rewards[offender] == -1.0, f"the offender's reward is {env.rewards[offender]}, not -1")
    _require(
        all(r == 0.0 for a, r in env.rewards.items() if a != offender),
        f"the other agents' rewards are not 0: {env.rewards}",
    )
    marks = {agent: info["illegal_action"] for agent, info in env.infos.items()}
    _require(
        marks == {a: int(a == offender) for a in env.agents}, f"infos mark {marks}, not {offender} alone"
    )
    _require(np.array_equal(env.get_state(), before), "the penalized action changed the state")
    _require(env.legal_actions() == [], "legal actions remain after a penalized action")
    _require(
        not any(env.action_mask(a).any() for a in env.possible_agents), "masks are not all zero at the end"
    )
    for _agent in env.agent_iter(len(env.possible_agents)):
        env.step(None)
    _require(env.agents == [], f"agents {env.agents} remain after stepping out with None")


@_conformance_check
def check_observations_differ_between_players(game: GameSpec, options: Options) -> None:
    """Each player's observation is its own (they all differ at the start)."""
    env = _reset(game, options, 2)
    observations = [features(env.observe(agent)) for agent in env.possible_agents]
    _require(
        len({o.tobytes() for o in observations}) == len(observations),
        "two players get the same observation at the start (seed 2)",
    )


# -- hidden information -----------------------------------------------------------------------
def _hidden_information_case(
    game: GameSpec, options: Options, seed: int, decisions: int, resample_seed: int, player: int
) -> None:
    env = _reset(game, options, seed)
    _play_random(env, seed=seed + 1, decisions=decisions)
    player = player % env.num_players
    agent = env.possible_agents[player]
    twin = _aec(game, options)
    twin.set_state(env.resample_hidden(player, resample_seed))
    _invariants(game, twin.get_state(), "the resample_hidden state")
    mine, theirs = features(env.observe(agent)), features(twin.observe(agent))
    _require(
        np.array_equal(mine, theirs),
        f"{agent} can tell the state from its resample_hidden twin: its observation differs at "
        f"{np.flatnonzero(mine != theirs).tolist()[:10]}",
    )
    _require(
        np.array_equal(env.action_mask(agent), twin.action_mask(agent)),
        f"{agent} can tell the state from its resample_hidden twin: its action mask differs",
    )
    _require(
        twin.agent_selection == env.agent_selection,
        f"resample_hidden changed the agent to act ({env.agent_selection} -> {twin.agent_selection})",
    )
    _same_words(game, env, twin, player)
    # Bots read only what their seat may know.
    if not env.is_over() and env.agent_selection == agent:
        for name, make_bot in game.bots.items():
            _require(
                make_bot(0).act(env, agent) == make_bot(0).act(twin, agent),
                f"bot {name} reads secrets: it acts differently for {agent} in the resample_hidden twin",
            )


def _same_words(game: GameSpec, env: TreasureAECEnv, twin: TreasureAECEnv, player: int) -> None:
    """The rest of `player`'s own channels, in the state and its resample_hidden twin: its infos,
    the words for every action (legal or not) in its name, the error message an illegal action
    of its own would raise, and its text rendering."""
    agent = env.possible_agents[player]
    mine, theirs = env.infos[agent], twin.infos[agent]
    _require(
        mine.keys() == theirs.keys() and all(np.array_equal(mine[key], theirs[key]) for key in mine),
        f"{agent} can tell the state from its resample_hidden twin: its infos differ",
    )
    state, twin_state = env.get_state(), twin.get_state()
    for action in range(env.dims.n_actions):
        name, other = game.action_name(state, action, player), game.action_name(twin_state, action, player)
        _require(
            name == other,
            f"{agent} can tell the state from its resample_hidden twin: action {action} is {name!r} "
            f"there and {other!r} in the twin",
        )
    mask = env.action_mask(agent)
    illegal = np.flatnonzero(mask == 0)
    if mask.any() and illegal.size:  # the first and the last illegal action's error message
        for action in {int(illegal[0]), int(illegal[-1])}:
            messages = [
                str(assert_raises(ValueError, lambda e=e, a=action: _check_for(e, agent, a, player)))
                for e in (env, twin)
            ]
            _require(
                messages[0] == messages[1],
                f"{agent} can tell the state from its resample_hidden twin: the error for its illegal "
                f"action {action} differs: {messages[0]!r} / {messages[1]!r}",
            )
    seen = game.render_ansi(state, viewer=player), game.render_ansi(twin_state, viewer=player)
    _require(
        seen[0] == seen[1], f"{agent} can tell the state from its resample_hidden twin: its rendering differs"
    )
    if game.render_svg is not None:
        boards = game.render_svg(state, viewer=player), game.render_svg(twin_state, viewer=player)
        _require(
            boards[0] == boards[1],
            f"{agent} can tell the state from its resample_hidden twin: its SVG board differs",
        )


def _check_for(env: TreasureAECEnv, agent: str, action: int, player: int) -> None:
    checked_action(env.game, env.get_state(), agent, player, action, env.action_mask(agent), "raise")


@_conformance_check
def hidden_information_case(
    game: GameSpec, options: Options, seed: int, decisions: int, resample_seed: int, player: int
) -> None:
    """One case of the hidden-information property: reset with `seed`, take up to `decisions`
    random legal actions, re-deal what `player` (taken modulo the number of players) cannot know
    with resample_hidden(player, resample_seed); the player's observation and action mask, the
    agent to act and the choices of the game's bots must be the same in both states, and the
    re-dealt state must keep the game's invariants. A property-testing library can drive it."""
    _hidden_information_case(game, options, seed, decisions, resample_seed, player)


@_conformance_check
def check_hidden_information(game: GameSpec, options: Options, examples: int = 40, seed: int = 0) -> None:
    """hidden_information_case over `examples` random cases drawn from numpy's Generator(seed)."""
    rng = np.random.default_rng(seed)
    for example in range(examples):
        case = {
            "seed": int(rng.integers(0, 2**31, endpoint=True)),
            "decisions": int(rng.integers(0, 60, endpoint=True)),
            "resample_seed": int(rng.integers(0, 2**31, endpoint=True)),
            "player": int(rng.integers(0, game.max_players)),
        }
        _run_labelled(
            _hidden_information_case,
            f"example {example}, hidden_information_case(game, options, "
            + ", ".join(f"{k}={v}" for k, v in case.items())
            + ")",
            game,
            options,
            **case,
        )


@_conformance_check
def check_resample_hidden_redeals(game: GameSpec, options: Options) -> None:
    """Imperfect information (game.dynamics.information == "imperfect"): resample_hidden really
    re-deals, changing state() in at least 15 of 20 cases (else an empty re-deal would pass the
    hidden-information check). Perfect information: it leaves state() unchanged in every case."""
    information = game.dynamics.information
    _require(
        information in ("perfect", "imperfect"),
        f"game.dynamics.information must be 'perfect' or 'imperfect'; got {information!r}",
    )
    changed = []
    for seed in range(20):
        env = _reset(game, options, seed)
        _play_random(env, seed=seed, decisions=seed)
        twin = env.resample_hidden(seed % env.num_players, seed + 1)
        if not np.array_equal(env.state(), _with_state(game, options, twin).state()):
            changed.append(seed)
    if information == "imperfect":
        _require(
            len(changed) >= 15,
            f"imperfect information, yet resample_hidden changed state() in only {len(changed)} of 20 "
            f"cases (seeds {changed}); it must re-deal what the player cannot know",
        )
    else:
        _require(
            not changed,
            f"perfect information, yet resample_hidden changed state() (the full-information view) for "
            f"seeds {changed}",
        )


@_conformance_check
def check_legal_mask_for_every_seat(game: GameSpec, options: Options, games: int = 2) -> None:
    """kernels.legal_mask(state, seat, out) for every seat at every step of random games: it
    writes a 0/1 mask, returns its count and leaves the state alone; the player to act's mask is
    the AEC env's action mask; the seats with a non-empty mask are the Parallel env's
    deciding_seats(); and when the game is over every seat's mask is empty."""
    env = _aec(game, options)
    parallel = _parallel(game, options)
    legal_mask = game.kernels.legal_mask
    n_actions = env.dims.n_actions
    for index in range(games):
        game_seed = 300 + index
        env.reset(seed=game_seed)
        rng = np.random.default_rng(index)
        for decision in range(MAX_DECISIONS + 1):
            state = env.get_state()
            terminal = bool(state[TERMINAL])
            where = f"game seed {game_seed}, after {decision} random decisions"
            parallel.set_state(state)
            if env.is_truncated():  # the guard cut it: the kernels know nothing of the drivers' guard
                _require(not parallel.deciding_seats(), f"{where}: the guard cut the game, yet seats decide")
                break
            deciding = {int(seat) for seat in parallel.deciding_seats()}
            with_actions = set()
            for seat in range(env.num_players):
                view = state.copy()
                mask = np.ones(n_actions, np.int8)  # the kernel must write every entry
                count = legal_mask(view, seat, mask)
                at = f"{where}: legal_mask(state, {seat}, out)"
                _require(np.array_equal(view, state), f"{at} changed the state")
                _require(np.isin(mask, (0, 1)).all(), f"{at} wrote values other than 0 and 1")
                _require(
                    int(count) == int(mask.sum(dtype=np.int64)),
                    f"{at} returned {count} for a mask of {int(mask.sum(dtype=np.int64))} legal actions",
                )
                if mask.any():
                    with_actions.add(seat)
                if seat == int(state[CURRENT_PLAYER]):
                    _require(
                        np.array_equal(mask, env.action_mask(env.agent_selection)),
                        f"{at} differs from the AEC env's action mask for {env.agent_selection}",
                    )
                    _require(terminal or mask.any(), f"{at}: the player to act has no legal action")
            _require(
                with_actions == deciding,
                f"{where}: the seats with legal actions {sorted(with_actions)} are not the Parallel env's "
                f"deciding_seats() {sorted(deciding)}",
            )
            if terminal:
                _require(
                    not with_actions, f"{where}: the game is over but seats {sorted(with_actions)} have masks"
                )
                break
            env.step(random_legal(rng, env.action_mask(env.agent_selection)))
        else:
            raise AssertionError(f"game seed {game_seed} did not end in {MAX_DECISIONS} decisions")


# -- infos ------------------------------------------------------------------------------------
def _info_problem(info: dict[str, Any], keys: set[str], n_actions: int) -> str | None:
    """What makes one agent's info unfit for a replay buffer, or None."""
    if set(info) != keys:
        return f"keys {sorted(set(info) ^ keys)} come and go"
    for key, value in info.items():
        if key == "action_mask":
            if not (isinstance(value, np.ndarray) and value.dtype == np.int8 and value.shape == (n_actions,)):
                return f"action_mask is not an int8 array of {n_actions}: {value!r}"
            continue
        parts = value if isinstance(value, tuple) else (value,)
        if not all(isinstance(x, (int, float, np.number)) for x in parts):  # bool is an int
            return f"{key}={value!r} is not a number nor a tuple of numbers"
    return None


@_conformance_check
def check_infos_are_numbers(game: GameSpec, options: Options, games: int = 3) -> None:
    """Every agent's infos hold the same keys at every step of a game, numbers only (and the
    action mask, equal to action_mask(agent)), so that every replay buffer takes them; every
    code has a name in info_names."""
    env = _aec(game, options)
    n_actions = env.dims.n_actions
    for seed in range(games):
        env.reset(seed=300 + seed)
        keys = set(env.infos[env.possible_agents[0]])
        _require({"action_mask", "illegal_action", "score", "winner"} <= keys, f"infos keys {sorted(keys)}")
        rng = np.random.default_rng(seed)
        for step in range(MAX_DECISIONS):
            for agent in env.agents:
                info = env.infos[agent]
                problem = _info_problem(info, keys, n_actions)
                _require(problem is None, f"seed {300 + seed}, step {step}, {agent}'s info: {problem}")
                _require(
                    np.array_equal(info["action_mask"], env.action_mask(agent)),
                    f"seed {300 + seed}, step {step}: {agent}'s infos mask is not its action_mask()",
                )
                if isinstance(obs := env.observe(agent), dict):
                    _require(
                        np.array_equal(obs["action_mask"], info["action_mask"]),
                        f"seed {300 + seed}, step {step}: {agent}'s observed mask is not its infos mask",
                    )
            if env.is_over():
                break
            env.step(random_legal(rng, env.action_mask(env.agent_selection)))
        for key, names in env.info_names.items():
            for agent in env.possible_agents:
                code = env.infos[agent].get(key)
                _require(
                    isinstance(code, int) and 0 <= code < len(names),
                    f"info {key}={code!r} has no name in info_names {names}",
                )
    parallel = _parallel(game, options)
    _, infos = parallel.reset(seed=300)
    rng = np.random.default_rng(0)
    while parallel.agents:
        for agent, info in infos.items():
            problem = _info_problem(info, keys, n_actions)
            _require(problem is None, f"Parallel env, {agent}'s info: {problem}")
        *_, infos = parallel.step(_random_joint(infos, rng))


# -- random play fuzz -------------------------------------------------------------------------
FUZZ_DECISIONS = 60_000  # check_random_play_fuzz's budget: games stop once it is spent
FUZZ_MIN_GAMES = 10


@_conformance_check
def check_random_play_fuzz(
    game: GameSpec,
    options: Options,
    games: int = 100,
    decisions: int = FUZZ_DECISIONS,
    min_games: int = FUZZ_MIN_GAMES,
) -> None:
    """Many random games, every invariant checked at every step, and every state accepted by
    the state validator; every game ends with consistent rewards and a score in the infos.
    `games` games, or fewer once `decisions` decisions are spent (at least `min_games`): a
    game whose random games run long (Pharaoh's, to its guard) is checked as thoroughly."""
    env = _aec(game, options)
    spent = 0
    for game_index in range(games):
        if game_index >= min_games and spent >= decisions:
            break
        where = f"game {game_index} (seed {1000 + game_index}) "
        env.reset(seed=1000 + game_index)
        _invariants(game, env.get_state(), f"{where}at the start")
        taken = _play_random(env, seed=game_index, decisions=MAX_DECISIONS, check=True, where=where)
        _require(env.is_over(), f"{where}did not end in {len(taken)} decisions")
        spent += len(taken)
        if game_index == 0:
            _check_step_after_the_end(env.clone(), where)
        if env.is_truncated():
            _check_truncated(game, env, where)
            continue
        rewards = [env.rewards[a] for a in env.possible_agents]
        _require(all(env.terminations.values()), f"{where}ended, but not every agent is terminated")
        info = env.infos[env.possible_agents[0]]
        _require("score" in info, f"{where}the final infos have no 'score': {info}")
        _check_final_rewards(game, env, rewards, where)


def _check_step_after_the_end(env: TreasureAECEnv, where: str) -> None:
    """Once every agent has stepped out with None, another step is a one-line ValueError that
    says the game is over and how it ended, and changes nothing."""
    while env.agents:
        env.step(None)
    before = env.get_state()
    error = assert_raises(
        ValueError, lambda: env.step(None), f"{where}step() after the end", match="after the end"
    )
    _require("\n" not in str(error), f"{where}the error of step() after the end is not one line: {error}")
    _require(np.array_equal(env.get_state(), before), f"{where}step() after the end changed the state")


def _check_truncated(game: GameSpec, env: TreasureAECEnv, where: str) -> None:
    """A game the guard cut: every agent truncated and none terminated, every reward 0, no
    winner, the scores in infos, end_condition naming the guard."""
    _require(game.guard is not None, f"{where}truncated, but the game declares no guard")
    _require(
        all(env.truncations.values()) and not any(env.terminations.values()),
        f"{where}cut by the guard: truncations {env.truncations}, terminations {env.terminations}",
    )
    _require(
        all(env.rewards[a] == 0.0 and env._cumulative_rewards[a] == 0.0 for a in env.possible_agents),
        f"{where}cut by the guard, yet rewards {env.rewards}",
    )
    for agent in env.possible_agents:
        info = env.infos[agent]
        _require(not info.get("winner") and "score" in info, f"{where}{agent}'s infos at the cut: {info}")
        if game.guard.end_condition is not None and "end_condition" in info:
            _require(
                info["end_condition"] == game.guard.end_condition,
                f"{where}{agent}'s end_condition is {info['end_condition']}, not the guard's "
                f"{game.guard.end_condition}",
            )


def _check_final_rewards(game: GameSpec, env: TreasureAECEnv, rewards: list[float], where: str) -> None:
    """The rewards follow from the competitors' final scores (docs/architecture.md, Rewards).
    With every competitor a player: win_loss has a winner, score_diff sums to zero. With
    in-kernel opponents (a solo mode's automaton) the players may all lose."""
    players = env.num_players
    competitors = int(game.kernels.competitors(env.get_state()))
    _require(competitors >= players, f"{where}competitors() is {competitors}, below the {players} players")
    infos = [env.infos[a] for a in env.possible_agents]
    scores = infos[0].get("scores")
    _require(
        scores is not None and len(scores) == competitors,
        f"{where}the final infos' 'scores' must hold every competitor's ({competitors}); got {scores}",
    )
    if env.options["reward"] == "win_loss":
        _require(set(rewards) <= {1.0, -1.0}, f"{where}win_loss rewards must be +1 or -1; got {rewards}")
        if competitors == players:
            _require(1.0 in rewards, f"{where}win_loss rewards must have at least one winner; got {rewards}")
        winners = [bool(info.get("winner")) for info in infos]
        _require(
            rewards == [1.0 if won else -1.0 for won in winners],
            f"{where}win_loss rewards {rewards} disagree with the infos' winners {winners}",
        )
    else:
        if competitors == players:
            # float32 rewards: zero up to their rounding (thirds with 4 players do not sum exactly)
            tolerance = 1e-6 * max(1.0, max(abs(r) for r in rewards)) * len(rewards)
            _require(
                abs(sum(rewards)) <= tolerance, f"{where}score_diff rewards must sum to 0; got {rewards}"
            )
        total = float(sum(scores))
        expected = [
            float(scores[p]) if competitors == 1 else scores[p] - (total - scores[p]) / (competitors - 1)
            for p in range(players)
        ]
        _require(
            np.allclose(rewards, expected, rtol=1e-5, atol=1e-5),
            f"{where}score_diff rewards {rewards} are not each own score minus the other competitors' "
            f"mean {expected} (scores {scores})",
        )


# -- the Parallel env -------------------------------------------------------------------------
@_conformance_check
def check_parallel_api(game: GameSpec, options: Options) -> None:
    """PettingZoo's parallel_api_test on the generic Parallel env."""
    parallel_api_test(_parallel(game, options), num_cycles=400)


@_conformance_check
def check_parallel_plays_the_aec_game(game: GameSpec, options: Options) -> None:
    """The same seed and decisions give the same states in the Parallel and the AEC env."""
    parallel = _parallel(game, options)
    aec = _aec(game, options)
    observations, infos = parallel.reset(seed=77)
    aec.reset(seed=77)
    rng = np.random.default_rng(3)
    steps = 0
    while parallel.agents:
        where = f"seed 77, parallel step {steps}"
        _require(steps < MAX_DECISIONS, f"the Parallel game did not end in {MAX_DECISIONS} steps")
        _require(np.array_equal(parallel.get_state(), aec.get_state()), f"{where}: the states differ")
        seats = parallel.deciding_seats()
        _require(
            seats and seats[0] == aec.get_state()[CURRENT_PLAYER],
            f"{where}: deciding_seats() {seats} does not start with the AEC player to act "
            f"{int(aec.get_state()[CURRENT_PLAYER])}",
        )
        for agent, obs in observations.items():
            seat = parallel.possible_agents.index(agent)
            mask = infos[agent]["action_mask"]
            _require(
                mask.any() == (seat in seats),
                f"{where}: {agent} {'has' if mask.any() else 'has no'} legal actions, "
                f"but deciding_seats() is {seats}",
            )
            if isinstance(obs, dict):
                _require(np.array_equal(obs["action_mask"], mask), f"{where}: {agent}'s two masks differ")
            mine = features(aec.observe(agent))
            if seat == aec.get_state()[CURRENT_PLAYER]:
                _require(np.array_equal(features(obs), mine), f"{where}: {agent}'s observation differs")
                _require(
                    np.array_equal(mask, aec.action_mask(agent)), f"{where}: {agent}'s action mask differs"
                )
        actions = _random_joint(infos, rng)
        for seat in seats:
            aec.step(actions[parallel.possible_agents[seat]])
        observations, rewards, terminations, truncations, infos = parallel.step(actions)
        steps += 1
    _require(
        aec.is_over() and np.array_equal(parallel.get_state(), aec.get_state()),
        "the Parallel game ended, but the AEC game did not end in the same state",
    )
    expected = {agent: aec.rewards[agent] for agent in aec.possible_agents}
    _require(rewards == expected, f"final rewards differ: Parallel {rewards}, AEC {expected}")
    cut = aec.is_truncated()
    _require(
        all(truncations.values()) == cut and all(terminations.values()) != cut,
        f"at the end (cut by the guard: {cut}): terminations {terminations}, truncations {truncations}",
    )
    first, aec_first = parallel.possible_agents[0], aec.possible_agents[0]
    _require(
        infos[first]["score"] == aec.infos[aec_first]["score"],
        f"final scores differ: Parallel {infos[first]['score']}, AEC {aec.infos[aec_first]['score']}",
    )
    assert_raises(ValueError, lambda: parallel.step({}), "step({}) after the end")


@_conformance_check
def check_parallel_bad_actions(game: GameSpec, options: Options) -> None:
    """Bad or missing Parallel actions raise ValueError naming the agent and change nothing."""
    env = _parallel(game, options)
    _, infos = env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(3):
        *_, infos = env.step(_random_joint(infos, rng))
    _require(env.agents, "the game (seed 5) should still be running after 3 Parallel steps")
    before = env.get_state()
    good = _random_joint(infos, rng)
    decider = env.possible_agents[env.deciding_seats()[-1]]
    mask = infos[decider]["action_mask"]
    # Not an integer in range: an error whatever illegal_action says.
    bad_values = [-1, mask.size, 1.5, "0", None, True]
    for bad in bad_values:
        joint = {**good, decider: bad}
        error = assert_raises(ValueError, lambda joint=joint: env.step(joint), f"{decider} playing {bad!r}")
        _require(decider in str(error), f"the error for {decider} playing {bad!r} does not name it: {error}")
        _require(np.array_equal(env.get_state(), before), f"the rejected {decider}={bad!r} changed the state")
    missing = dict(good)
    del missing[decider]
    assert_raises(ValueError, lambda: env.step(missing), f"no action for {decider}", match=re.escape(decider))
    assert_raises(ValueError, lambda: env.step([0]), "step([0])")
    _require(np.array_equal(env.get_state(), before), "a rejected step changed the state")
    env.step(good)


@_conformance_check
def check_parallel_penalize(game: GameSpec, options: Options) -> None:
    """The default illegal_action='penalize' in the Parallel env: an in-range illegal action
    ends the game, -1 for the offender, the state unchanged; under 'raise' it raises."""
    strict = _parallel(game, options, illegal_action="raise")
    _, infos = strict.reset(seed=4)
    decider = strict.possible_agents[strict.deciding_seats()[0]]
    mask = infos[decider]["action_mask"]
    illegal = np.flatnonzero(mask == 0)
    actions = _random_joint(infos, np.random.default_rng(1))
    if illegal.size == 0:
        return  # every action is legal here: nothing to penalize
    before = strict.get_state()
    joint = {**actions, decider: int(illegal[0])}
    assert_raises(ValueError, lambda: strict.step(joint), f"{decider} playing {illegal[0]} under 'raise'")
    _require(np.array_equal(strict.get_state(), before), "a refused illegal action changed the state")
    env = _parallel(game, options)
    env.reset(seed=4)
    _, rewards, terminations, _, infos = env.step(joint)
    _require(all(terminations.values()) and env.agents == [], "an illegal action did not end the game")
    _require(
        rewards[decider] == -1.0 and all(r == 0.0 for a, r in rewards.items() if a != decider),
        f"{decider} played illegally; rewards {rewards}",
    )
    _require(
        [infos[a]["illegal_action"] for a in infos] == [int(a == decider) for a in infos],
        f"infos do not mark {decider} alone as the offender: {infos}",
    )
    _require(np.array_equal(env.get_state(), before), "the penalized step changed the state")


@_conformance_check
def check_parallel_set_state_and_render(game: GameSpec, options: Options) -> None:
    """The Parallel env's set_state, state(), agents, render() and spaces."""
    env = _parallel(game, options, render_mode="ansi")
    _, infos = env.reset(seed=9)
    env.step(_random_joint(infos, np.random.default_rng(2)))
    twin = _parallel(game, options)
    twin.set_state(env.get_state().tobytes())
    _require(np.array_equal(twin.state(), env.state()), "set_state(bytes): state() differs")
    _require(twin.agents == env.agents, f"set_state(bytes): agents {twin.agents}, expected {env.agents}")
    _require(isinstance(env.render(), str), "render() in render_mode='ansi' is not a str")
    first = env.possible_agents[0]
    _require(
        env.observation_space(first) is env.observation_spaces[first],
        "observation_space(agent) is not observation_spaces[agent]",
    )


@_conformance_check
def check_aec_to_parallel(game: GameSpec, options: Options, games: int = 2) -> None:
    """metadata["is_parallelizable"] is True exactly where PettingZoo's aec_to_parallel is
    correct: every cycle of seats decides once each in seat order, on masks shown at the
    cycle's start, and the game ends only at a cycle's end. Then the converted env plays the
    same games as the native Parallel env; otherwise the conversion refuses the env."""
    public = _public_env(game, options)
    if not public.metadata["is_parallelizable"]:
        assert_raises(AssertionError, lambda: aec_to_parallel(public), "aec_to_parallel on a sequential env")
        return
    env = _aec(game, options)
    seats = list(range(env.num_players))
    for seed in range(games):
        env.reset(seed=700 + seed)
        rng = np.random.default_rng(seed)
        while not env.is_over():
            shown = [env.action_mask(agent) for agent in env.possible_agents]
            for seat in seats:
                where = f"seed {700 + seed}, seat {seat}"
                _require(not env.is_over(), f"{where}: the game ended within a cycle")
                _require(
                    env.agent_selection == env.possible_agents[seat], f"{where}: not its turn in the cycle"
                )
                mask = env.action_mask(env.agent_selection)
                _require(np.array_equal(mask, shown[seat]), f"{where}: its mask changed within the cycle")
                env.step(random_legal(rng, mask))
    converted = aec_to_parallel(_public_env(game, options))
    native = _parallel(game, options)
    for seed in range(games):
        _, converted_infos = converted.reset(seed=710 + seed)
        _, infos = native.reset(seed=710 + seed)
        rng = np.random.default_rng(seed)
        step = 0
        while native.agents:
            where = f"seed {710 + seed}, step {step}"
            _require(
                np.array_equal(converted.unwrapped.get_state(), native.get_state()), f"{where}: states differ"
            )
            for agent in native.agents:
                _require(
                    np.array_equal(converted_infos[agent]["action_mask"], infos[agent]["action_mask"]),
                    f"{where}: {agent}'s masks differ",
                )
            actions = _random_joint(infos, rng)
            _, converted_rewards, converted_done, _, converted_infos = converted.step(actions)
            _, rewards, done, _, infos = native.step(actions)
            _require(
                dict(converted_rewards) == rewards, f"{where}: rewards {dict(converted_rewards)} vs {rewards}"
            )
            _require(converted_done == done, f"{where}: terminations {converted_done} vs {done}")
            step += 1
        _require(
            converted.agents == [], f"seed {710 + seed}: the converted env has agents {converted.agents}"
        )


@_conformance_check
def check_parallel_requires_reset(game: GameSpec, options: Options) -> None:
    """step() before reset() raises RuntimeError."""
    assert_raises(RuntimeError, lambda: _parallel(game, options).step({}), "step() before reset()")


# -- entry points -----------------------------------------------------------------------------
@_conformance_check
def check_entry_points_refuse_bad_arguments(game: GameSpec, options: Options) -> None:
    """Every public entry point checks its arguments the same way, before a kernel sees them:
    nothing runs before reset(); a corrupt header, a bad seat, seed, step count, thread count
    or action (even with check_actions=False) is a ValueError, and nothing changes."""
    fresh = _aec(game, options)
    for name, call in (
        ("legal_actions()", fresh.legal_actions),
        ("resample_hidden(0, 1)", lambda: fresh.resample_hidden(0, 1)),
        ("observe(player_0)", lambda: fresh.observe(fresh.possible_agents[0])),
        ("state()", fresh.state),
    ):
        assert_raises(RuntimeError, call, f"{name} before reset()")
    env = _reset(game, options, 6)
    n = env.num_players
    good = env.get_state()
    before = _env_snapshot(env)
    header = [(CURRENT_PLAYER, n), (CURRENT_PLAYER, -1), (TERMINAL, 2), (TERMINAL, -1), (DECISIONS, -1)]
    header += [(NUM_PLAYERS, n + 1), (REWARD_MODE, 7)]
    for offset, value in header:
        bad = good.copy()
        bad[offset] = value
        assert_raises(
            ValueError, lambda bad=bad: env.set_state(bad), f"set_state with slot {offset} = {value}"
        )
        _require(_env_snapshot(env) == before, f"the refused state (slot {offset} = {value}) changed the env")
    for agent in (1.5, True, np.bool_(False), "player_99", -1, n, None):
        assert_raises(
            ValueError, lambda agent=agent: env.resample_hidden(agent, 1), f"resample_hidden({agent!r})"
        )
    for seed in (-1, 2**63, 1.0, True, "1"):
        assert_raises(
            ValueError, lambda seed=seed: env.resample_hidden(0, seed), f"resample_hidden(0, {seed!r})"
        )
        assert_raises(
            ValueError, lambda seed=seed: _aec(game, options).reset(seed=seed), f"reset(seed={seed!r})"
        )
    _require(_env_snapshot(env) == before, "a refused call changed the env")
    for bad_args in (
        {"num_threads": True},
        {"num_threads": 0},
        {"num_threads": 1.0},
        {"check_actions": "no"},
    ):
        assert_raises(
            ValueError, lambda a=bad_args: BatchRunner(game, 3, seed=0, **options, **a), f"{bad_args}"
        )
    for n_games in (0, -1, True, 2.0):
        assert_raises(
            ValueError, lambda k=n_games: BatchRunner(game, k, seed=0, **options), f"n_games={n_games!r}"
        )
    runner = BatchRunner(game, 3, seed=0, check_actions=False, **options)
    states = runner.states.copy()
    n_actions = runner.dims.n_actions
    for actions in ([n_actions, 0, 0], [0, 0, -1], [0.0, 0.0, 0.0], [True, False, True], [0, 0]):
        assert_raises(
            ValueError, lambda a=actions: runner.step(np.array(a)), f"step({actions}), check_actions=False"
        )
    for steps in (-1, 1.5, True):
        assert_raises(ValueError, lambda k=steps: runner.random_playout(k), f"random_playout({steps!r})")
    for seeds in (
        np.array([2**63, 1, 2], np.uint64),
        np.array([-1, 1, 2]),
        np.array([1.0, 2.0, 3.0]),
        np.arange(2),
    ):
        assert_raises(ValueError, lambda k=seeds: runner.reset(seeds=k), f"reset(seeds={seeds!r})")
    assert_raises(ValueError, lambda: runner.reset(seed=2**63 - 1), "reset(seed=2**63 - 1) for 3 games")
    assert_raises(ValueError, lambda: runner.states.__setitem__((0, 0), 1), "writing into runner.states")
    corrupt = states.copy()
    corrupt[1, CURRENT_PLAYER] = n
    error = assert_raises(ValueError, lambda: runner.set_states(corrupt), "set_states with a corrupt game 1")
    _require("game 1" in str(error), f"the error does not name game 1: {error}")
    _require(np.array_equal(runner.states, states), "a refused call changed the runner's states")
    runner.set_states(states)


@_conformance_check
def check_adversarial_states(game: GameSpec, options: Options, max_cases: int = 300) -> None:
    """Corrupted and garbage states (treasure_core.adversarial, the first `max_cases` cases):
    each refused with a ValueError that changes nothing, or a game that plays on through every
    entry point. (tests/test_adversarial.py runs every case with numba's bounds checking on,
    in a subprocess.)"""
    from treasure_core import adversarial

    report = adversarial.run(game, options, seed=3, max_cases=max_cases)
    _require(not report.failures, f"{report.line()}; first: {report.failures[:3]}")


# -- the batch runner -------------------------------------------------------------------------
@_conformance_check
def check_aec_and_batch_agree(game: GameSpec, options: Options) -> None:
    """The batch runner and the AEC env give the same states, masks, observations and rewards;
    finished games restart."""
    n_games = 6
    runner = BatchRunner(game, n_games, seed=500, **options)
    envs = [_reset(game, options, 500 + i) for i in range(n_games)]
    rng = np.random.default_rng(0)
    live = np.ones(n_games, bool)
    step = 0
    while live.any():
        _require(step < MAX_DECISIONS, f"a batch game did not end in {MAX_DECISIONS} steps")
        masks = runner.legal_masks().copy()
        observations = runner.observe()
        actions = np.zeros(n_games, np.int64)
        for i, env in enumerate(envs):
            if not live[i]:
                actions[i] = int(np.flatnonzero(masks[i])[0])
                continue
            where = f"game {i} (seed {500 + i}), step {step}"
            _require(np.array_equal(runner.states[i], env.get_state()), f"{where}: the states differ")
            seen = features(env.observe(env.agent_selection))
            _require(
                np.array_equal(env.action_mask(env.agent_selection), masks[i]),
                f"{where}: the action masks differ",
            )
            _require(np.array_equal(seen, observations[i]), f"{where}: the observations differ")
            actions[i] = random_legal(rng, masks[i])
            env.step(int(actions[i]))
        rewards, dones = runner.step(actions)
        for i, env in enumerate(envs):
            if not live[i]:
                continue
            where = f"game {i} (seed {500 + i}), step {step}"
            _require(
                bool(dones[i]) == env.is_over() and bool(runner.truncated[i]) == env.is_truncated(),
                f"{where}: the batch says done={bool(dones[i])}, truncated={bool(runner.truncated[i])}; "
                f"the AEC env over={env.is_over()}, truncated={env.is_truncated()}",
            )
            if dones[i]:
                expected = [env.rewards[a] for a in env.possible_agents]
                _require(
                    np.allclose(rewards[i], expected),
                    f"{where}: final rewards differ: batch {rewards[i].tolist()}, AEC {expected}",
                )
                live[i] = False
                # Auto-reset: a fresh game, not the finished one.
                _require(
                    not runner.states[i, TERMINAL] and not game.truncated(runner.states[i], runner.params),
                    f"{where}: the finished game was not restarted",
                )
        step += 1
    _require(runner.current_players().shape == (n_games,), "current_players() has the wrong shape")


@_conformance_check
def check_batch_rejects_illegal_actions(game: GameSpec, options: Options) -> None:
    """The batch runner raises ValueError naming the first game with an illegal action, and
    changes no game."""
    runner = BatchRunner(game, 4, seed=1, **options)
    masks = runner.legal_masks()
    before = runner.states.copy()
    bad = np.array([int(np.flatnonzero(m)[0]) for m in masks])
    bad[2] = masks.shape[1]
    assert_raises(ValueError, lambda: runner.step(bad), "an out-of-range action in game 2", match="game 2")
    illegal = [a for a in range(masks.shape[1]) if not masks[1, a]]
    if illegal:
        bad[2] = int(np.flatnonzero(masks[2])[0])
        bad[1] = illegal[0]
        assert_raises(ValueError, lambda: runner.step(bad), "an illegal action in game 1", match="game 1")
    assert_raises(ValueError, lambda: runner.step(bad[:2]), "two actions for four games")
    _require(np.array_equal(runner.states, before), "a rejected batch step changed the states")


PLAYOUT_STEPS = MAX_DECISIONS  # random steps per game: some of 16 end (Pharaoh's random games are long)


@_conformance_check
def check_random_playout_kernel(game: GameSpec, options: Options) -> None:
    """The in-kernel random playout: the steps it reports, games that end, invariants kept,
    the same seeds giving the same games."""
    runner = BatchRunner(game, 16, seed=3, **options)
    steps, finished = runner.random_playout(PLAYOUT_STEPS, seed=8)
    _require(
        steps == 16 * PLAYOUT_STEPS,
        f"random_playout({PLAYOUT_STEPS}) over 16 games reports {steps} steps, not {16 * PLAYOUT_STEPS}",
    )
    _require(
        finished + runner.playout_truncated > 0,
        f"no game ended in {PLAYOUT_STEPS} random steps each (16 games)",
    )
    for i, state in enumerate(runner.states):
        _invariants(game, state, f"batch game {i} after the playout")
    again = BatchRunner(game, 16, seed=3, **options)
    _require(
        again.random_playout(PLAYOUT_STEPS, seed=8) == (steps, finished),
        "the same playout reports different counts",
    )
    _require(np.array_equal(again.states, runner.states), "the same playout gives different states")
    _require(runner.current_players().max() < runner.num_players, "a current player beyond the players")
    _require((runner.states[:, CURRENT_PLAYER] >= 0).all(), "a negative current player")


@_conformance_check
def check_batch_threads(game: GameSpec, options: Options) -> None:
    """The batch runner gives the same games on 1 thread and on all of numba's threads."""
    runs = []
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        runner = BatchRunner(game, 32, seed=21, num_threads=threads, **options)
        runner.random_playout(200, seed=5)
        rng = np.random.default_rng(1)
        total = np.zeros((32, runner.num_players))
        for _ in range(50):
            masks = runner.legal_masks()
            actions = (rng.random(masks.shape) * masks).argmax(axis=1)
            rewards, _ = runner.step(actions)
            total += rewards
        runs.append((runner.states.copy(), total))
    threads = numba.config.NUMBA_NUM_THREADS
    _require(np.array_equal(runs[0][0], runs[1][0]), f"the states differ on 1 and on {threads} threads")
    _require(np.array_equal(runs[0][1], runs[1][1]), f"the rewards differ on 1 and on {threads} threads")


@_conformance_check
def check_kernel_contract(game: GameSpec, options: Options) -> None:
    """The spec's declarations agree with its kernels: the batch module is the rendering of
    the one template (treasure_core.codegen), the action layout tiles the action space, the
    dynamics use the known words, and every state of a random game is in a named phase."""
    package = getattr(game.kernels.step, "py_func", game.kernels.step).__module__.split(".")[0]
    _require(
        codegen.is_current(package),
        f"{package}/batch.py is not the template's rendering: run python -m treasure_core.codegen {package}",
    )
    dims = game.dims(game.make_params(game.validate(options)))
    covered = [a for block in game.actions.blocks for a in range(block.start, block.stop)]
    _require(
        covered == list(range(dims.n_actions)),
        f"the action layout's blocks cover {len(covered)} actions, not the {dims.n_actions} of the space",
    )
    _require(game.dynamics.turns in ("sequential", "simultaneous"), f"dynamics.turns {game.dynamics.turns!r}")
    _require(
        game.dynamics.information in ("perfect", "imperfect"), f"information {game.dynamics.information!r}"
    )
    _require(len(game.phases) >= 1 and len(set(game.phases)) == len(game.phases), f"phases {game.phases!r}")
    # The state's fields, each with its range, tile the state after the header (the validator
    # and the adversarial tests rely on it).
    slots = [slot for part in game.state_fields for slot in range(part.start, part.stop)]
    _require(
        slots == list(range(HEADER_SIZE, dims.state_size)),
        f"state_fields cover {len(slots)} slots, not the {dims.state_size - HEADER_SIZE} after the header, "
        "in order and once each",
    )
    names = [part.name for part in game.state_fields]
    _require(len(set(names)) == len(names), f"state_fields names repeat: {names}")
    env = _reset(game, options, 17)
    rng = np.random.default_rng(17)
    for _ in range(MAX_DECISIONS):
        phase = int(game.kernels.phase(env.get_state()))
        _require(0 <= phase < len(game.phases), f"kernels.phase gives {phase}, outside {game.phases!r}")
        if env.is_over():
            break
        env.step(random_legal(rng, env.action_mask(env.agent_selection)))


# -- the guard --------------------------------------------------------------------------------
GUARD_TEST_LIMIT = 2  # the tight limit check_guard sets, so that random games reach it


def _tight_guard(game: GameSpec) -> GameSpec:
    """The game with its guard tightened to GUARD_TEST_LIMIT units, so that games reach it."""
    guard = dataclasses.replace(game.guard, limit=lambda options: GUARD_TEST_LIMIT)
    return dataclasses.replace(game, guard=guard)


TWIN_GAMES = 2  # check_python_twins: random games, each checked at every decision up to ...
TWIN_EVERY_DECISION = 300  # ... this many, then every TWIN_STRIDE-th (a Pharaoh game runs long)
TWIN_STRIDE = 16
TWIN_BATCH_GAMES = 6
TWIN_BATCH_STEPS = 40


def _same(label: str, compiled: Any, twin: Any) -> None:
    """Arrays equal bit for bit (so -0.0 is not 0.0, and NaN is itself); numbers by value."""
    compiled_array, twin_array = np.asarray(compiled), np.asarray(twin)
    scalar = compiled_array.ndim == 0 and twin_array.ndim == 0
    _require(
        compiled == twin
        if scalar
        else compiled_array.dtype == twin_array.dtype
        and compiled_array.shape == twin_array.shape
        and compiled_array.tobytes() == twin_array.tobytes(),
        f"{label}: the Python twin (treasure_core.tiers) gives {twin!r:.200}, "
        f"the compiled kernel {compiled!r:.200}",
    )


@_conformance_check
def check_python_twins(game: GameSpec, options: Options, games: int = TWIN_GAMES) -> None:
    """Every driver kernel's Python twin (what a cold start runs while the kernels compile,
    treasure_core.tiers) computes what the compiled kernel computes, bit for bit: init, each
    seat's mask and observation, step, phase, the full view, resample_hidden and the returns
    through random games, and the batch forms (masks with the draw, observations in both dtypes,
    the checked and the unchecked step with its restarts) over a few games. `games` random
    games, each checked at every decision up to TWIN_EVERY_DECISION, then every TWIN_STRIDE-th."""
    from treasure_core.tiers import run_python

    kernels = game.kernels

    def compiled_kernel(name: str) -> Callable[..., Any]:
        """A driver kernel by name, found as the drivers find it; a batch form over the compiled
        batch_kernel (treasure_core.batch_ops)."""
        if name in batch_ops.FORMS:
            return functools.partial(getattr(batch_ops, name), game.live.compiled("batch_kernel"))
        return game.live.compiled(name)

    def twin(name: str) -> Callable[..., Any]:
        """The kernel's Python twin; a batch form over batch_kernel's twin."""
        if name in batch_ops.FORMS:
            return functools.partial(getattr(batch_ops, name), twin("batch_kernel"))
        return functools.partial(run_python, compiled_kernel(name))

    params = game.make_params(game.validate(options))
    dims = game.dims(params)
    players = int(params[P_NUM_PLAYERS])
    rng = np.random.default_rng(7)
    for index in range(games):
        seed = 900 + index
        state = np.zeros(dims.state_size, STATE_DTYPE)
        shadow = state.copy()
        kernels.init(state, params, seed)
        twin("init")(shadow, params, seed)
        _same(f"init, seed {seed}", state, shadow)
        decision = 0
        mask, shadow_mask = np.zeros(dims.n_actions, np.int8), np.zeros(dims.n_actions, np.int8)
        while not state[TERMINAL] and decision < MAX_DECISIONS:
            where = f"seed {seed}, decision {decision}"
            checked = decision < TWIN_EVERY_DECISION or decision % TWIN_STRIDE == 0
            player = int(state[CURRENT_PLAYER])
            if checked:
                _same(f"phase, {where}", kernels.phase(state), twin("phase")(state))
                full = np.zeros(dims.full_state_size, np.float32)
                shadow_full = np.zeros_like(full)
                kernels.full_state(state, full)
                twin("full_state")(state, shadow_full)
                _same(f"full_state, {where}", full, shadow_full)
                for seat in range(players):
                    seen = np.zeros(dims.obs_size, np.float32)
                    shadow_seen = np.zeros_like(seen)
                    kernels.observe(state, seat, seen)
                    twin("observe")(state, seat, shadow_seen)
                    _same(f"observe seat {seat}, {where}", seen, shadow_seen)
                    count = kernels.legal_mask(state, seat, mask)
                    shadow_count = twin("legal_mask")(state, seat, shadow_mask)
                    _same(f"legal_mask count seat {seat}, {where}", count, shadow_count)
                    _same(f"legal_mask seat {seat}, {where}", mask, shadow_mask)
                redealt, shadow_redealt = state.copy(), state.copy()
                kernels.resample_hidden(redealt, player, seed + decision)
                twin("resample_hidden")(shadow_redealt, player, seed + decision)
                _same(f"resample_hidden, {where}", redealt, shadow_redealt)
            kernels.legal_mask(state, player, mask)
            action = random_legal(rng, mask)
            if checked:
                shadow = state.copy()
                twin("step")(shadow, action)
            kernels.step(state, action)
            if checked:
                _same(f"step {action}, {where}", state, shadow)
            decision += 1
        if state[TERMINAL]:
            returns, shadow_returns = np.zeros(players, np.float32), np.zeros(players, np.float32)
            kernels.returns(state, returns)
            twin("returns")(state, shadow_returns)
            _same(f"returns, seed {seed}", returns, shadow_returns)
            points, tiebreaks = np.zeros(16, np.int64), np.zeros(16, np.int64)
            shadow_points, shadow_tiebreaks = np.zeros(16, np.int64), np.zeros(16, np.int64)
            kernels.scores(state, points, tiebreaks)
            twin("scores")(state, shadow_points, shadow_tiebreaks)
            _same(f"scores, seed {seed}", points, shadow_points)
            _same(f"tiebreaks, seed {seed}", tiebreaks, shadow_tiebreaks)
            _same(f"competitors, seed {seed}", kernels.competitors(state), twin("competitors")(state))

    # The batch forms, over the same games from both sides.
    n = TWIN_BATCH_GAMES
    states = np.zeros((n, dims.state_size), STATE_DTYPE)
    seeds = np.arange(300, 300 + n, dtype=np.int64)
    kernels.batch_init(states, params, seeds)
    shadow_states = np.zeros_like(states)
    twin("batch_init")(shadow_states, params, seeds)
    _same("batch_init", states, shadow_states)
    outputs = {}
    for step_index in range(TWIN_BATCH_STEPS):
        where = f"batch step {step_index}"
        for name in ("compiled", "twin"):
            call = compiled_kernel if name == "compiled" else twin
            on = states if name == "compiled" else shadow_states
            masks = np.zeros((n, dims.n_actions), np.int8)
            actions = np.zeros(n, np.int64)
            empty = call("batch_legal_mask")(on, masks, step_index, actions)
            drawn = np.zeros(n, np.int64)
            call("sample_legal_actions")(masks, step_index, drawn)
            seen = np.zeros((n, dims.obs_size), np.float32)
            call("batch_observe")(on, seen)
            seen8 = np.zeros((n, dims.obs_size), np.uint8)
            call("batch_observe_uint8")(on, seen8)
            faults = np.zeros(4, np.int64)
            call("action_faults")(actions, dims.n_actions, masks, faults)
            rewards = np.zeros((n, players), np.float32)
            dones, truncated = np.zeros(n, np.bool_), np.zeros(n, np.bool_)
            form = "batch_step_unrefused" if step_index % 2 else "batch_step"
            call(form)(on, actions, params, rewards, dones, truncated)
            outputs[name] = (empty, masks, actions, drawn, seen, seen8, faults, rewards, dones, truncated)
        parts = ("empty", "masks", "actions", "sampled", "observe", "observe uint8", "faults")
        parts += ("rewards", "dones", "truncated")
        for part, compiled, shadow in zip(parts, outputs["compiled"], outputs["twin"], strict=True):
            _same(f"{part}, {where}", compiled, shadow)
        _same(f"states after {form}, {where}", states, shadow_states)


@_conformance_check
def check_guard(game: GameSpec, options: Options, games: int = 4) -> None:
    """A game that reaches its guard (GameSpec.guard, tightened to GUARD_TEST_LIMIT units) is
    truncated on every path, never terminated with a winner: the AEC env (every agent truncated,
    rewards 0, the scores and the guard's end_condition in infos, step() after it a ValueError),
    set_state of a cut state, the Parallel env, the batch runner (done, `truncated`, rewards 0,
    restarted) and the in-kernel playout. A game without a guard has none in its params."""
    if game.guard is None:
        _require(int(game.make_params(game.validate(options))[P_GUARD_LIMIT]) == 0, "no guard, yet a limit")
        return
    tight = _tight_guard(game)
    env = _aec(tight, options)
    cut = 0
    for seed in range(games):
        where = f"seed {900 + seed}: "
        env.reset(seed=900 + seed)
        _play_random(env, seed=seed, decisions=MAX_DECISIONS)
        _require(env.is_over(), f"{where}the game did not end")
        if env.is_truncated():
            cut += 1
            _check_truncated(tight, env, where)
            state = env.get_state()
            _require(not state[TERMINAL] and tight.truncated(state, env.params), f"{where}not a cut state")
            again = _with_state(tight, options, state)  # a loaded cut state is over at once
            _require(again.is_truncated() and all(again.truncations.values()), f"{where}set_state: not cut")
            while env.agents:
                env.step(None)
            assert_raises(ValueError, lambda: env.step(None), f"{where}step() after the cut", match="guard")
    _require(cut > 0, f"none of {games} random games reached a guard of {GUARD_TEST_LIMIT} {game.guard.unit}")
    parallel = _parallel(tight, options)
    _, infos = parallel.reset(seed=900)
    rng = np.random.default_rng(0)
    truncations: dict[str, bool] = {}
    rewards: dict[str, float] = {}
    while parallel.agents:
        _, rewards, terminations, truncations, infos = parallel.step(_random_joint(infos, rng))
    if any(truncations.values()):
        _require(all(truncations.values()) and not any(terminations.values()), "Parallel: a partial cut")
        _require(set(rewards.values()) == {0.0}, f"Parallel: rewards {rewards} at the cut")
        _require(not any(info["winner"] for info in infos.values()), "Parallel: a winner at the cut")
    runner = BatchRunner(tight, 8, seed=900, **options)
    seen = 0
    for _ in range(MAX_DECISIONS):
        masks = runner.legal_masks()
        step_rewards, dones = runner.step(np.array([random_legal(rng, m) for m in masks]))
        truncated = runner.truncated
        _require(not (truncated & ~dones).any(), "batch: truncated but not done")
        _require(not step_rewards[truncated].any(), "batch: rewards for a game the guard cut")
        seen += int(truncated.sum())
        _require(
            not any(tight.truncated(state, runner.params) for state in runner.states),
            "batch: a cut game was not restarted",
        )
        if seen:
            break
    _require(seen > 0, "batch: no game reached the guard")
    runner.random_playout(200, seed=1)
    _require(runner.playout_truncated > 0, "random_playout: no game reached the guard in 200 steps each")


# -- the suite --------------------------------------------------------------------------------
CHECKS: dict[str, Callable[..., None]] = {
    "kernel_contract": check_kernel_contract,
    # construction and PettingZoo's own tests
    "bad_options": check_bad_options,
    "pettingzoo_api": check_pettingzoo_api,
    "pettingzoo_seed": check_pettingzoo_seed,
    # determinism, clone, replay
    "same_seed_same_trajectory": check_same_seed_same_trajectory,
    "clone_and_set_state": check_clone_and_set_state,
    "set_state_rejects_bad_input": check_set_state_rejects_bad_input,
    # bad input
    "illegal_actions_raise": check_illegal_actions_raise,
    "illegal_action_penalize": check_illegal_action_penalize,
    "infos_are_numbers": check_infos_are_numbers,
    # what each seat sees and may do
    "observations_differ_between_players": check_observations_differ_between_players,
    "hidden_information": check_hidden_information,
    "resample_hidden_redeals": check_resample_hidden_redeals,
    "legal_mask_for_every_seat": check_legal_mask_for_every_seat,
    # many random games
    "random_play_fuzz": check_random_play_fuzz,
    # the Parallel env
    "parallel_api": check_parallel_api,
    "parallel_plays_the_aec_game": check_parallel_plays_the_aec_game,
    "parallel_bad_actions": check_parallel_bad_actions,
    "parallel_penalize": check_parallel_penalize,
    "parallel_set_state_and_render": check_parallel_set_state_and_render,
    "parallel_requires_reset": check_parallel_requires_reset,
    "entry_points_refuse_bad_arguments": check_entry_points_refuse_bad_arguments,
    "adversarial_states": check_adversarial_states,
    "aec_to_parallel": check_aec_to_parallel,
    # the batch runner
    "aec_and_batch_agree": check_aec_and_batch_agree,
    "batch_rejects_illegal_actions": check_batch_rejects_illegal_actions,
    "random_playout_kernel": check_random_playout_kernel,
    "batch_threads": check_batch_threads,
    # the guard
    "guard": check_guard,
    # the cold start's Python twins
    "python_twins": check_python_twins,
}


def run_conformance(
    game: GameSpec | str,
    options: Options | None = None,
    checks: Iterable[str] | None = None,
    verbose: bool = False,
) -> list[str]:
    """Run conformance checks over one option set, or over every `configs(game)` when
    `options` is None. `checks`: names from CHECKS (None: all, in CHECKS' order).

    Returns the names of the checks that ran (each once, however many option sets). Raises
    AssertionError naming the check and the option set on the first failure; ValueError for
    an unknown check name or options the game does not have. `verbose` prints each check and
    its time as it runs.

    A researcher with a new game (a registered name or its GameSpec):

        >>> from treasure_core.conformance import run_conformance
        >>> from mygame_env import GAME
        >>> run_conformance(GAME, {"num_players": 2}, verbose=True)   # one option set
        >>> run_conformance(GAME)                                     # every option set
        >>> run_conformance(GAME, checks=["pettingzoo_api", "hidden_information"])
    """
    spec = resolve(game)
    if isinstance(checks, str):
        checks = [checks]
    names = list(CHECKS) if checks is None else list(checks)
    unknown = [name for name in names if name not in CHECKS]
    if unknown:
        raise ValueError(f"unknown check(s) {unknown}; the checks are {', '.join(CHECKS)}")
    option_sets = configs(spec) if options is None else [dict(options)]
    for option_set in option_sets:
        spec.validate(option_set)
    ran: list[str] = []
    for option_set in option_sets:
        for name in names:
            check = getattr(CHECKS[name], "__wrapped__", CHECKS[name])
            if verbose:
                print(f"{spec.name} {option_set}: {name} ...", end=" ", flush=True)
            start = time.perf_counter()
            try:
                _run_labelled(
                    check,
                    f"conformance check {name!r} failed for {spec.name} with options {option_set!r}",
                    spec,
                    dict(option_set),
                )
            except AssertionError:
                if verbose:
                    print("FAILED", flush=True)
                raise
            if verbose:
                print(f"ok ({time.perf_counter() - start:.1f} s)", flush=True)
            if name not in ran:
                ran.append(name)
    return ran
