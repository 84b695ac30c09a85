"""treasure_core on its own: the in-state generator, option validation, rewards, registry."""

from __future__ import annotations

import io
import os
import pickle
import subprocess
import sys

import numba
import numpy as np
import pytest

from treasure_core.aec import TreasureAECEnv
from treasure_core.game import Dims
from treasure_core.header import REWARD_SCORE_DIFF, REWARD_WIN_LOSS
from treasure_core.kernels import equal_flag, nth_legal, outcome_rewards, sort_ascending, winners_mask
from treasure_core.options import Option, validate_options
from treasure_core.registry import all_games, game_names, get_game, make_env
from treasure_core.rng import rng_below, rng_next, rng_seed, rng_shuffle


def seeded(seed: int) -> np.ndarray:
    state = np.zeros(2, np.int32)
    rng_seed(state, 0, seed)
    return state


def test_rng_is_a_pure_function_of_the_state():
    a, b = seeded(99), seeded(99)
    assert [rng_next(a, 0) for _ in range(5)] == [rng_next(b, 0) for _ in range(5)]
    c = seeded(100)
    assert rng_next(seeded(99), 0) != rng_next(c, 0)
    # Copying the two words copies the future.
    copy = a.copy()
    assert rng_next(a, 0) == rng_next(copy, 0)


MASK64 = 2**64 - 1


def splitmix64_reference(seed: int, count: int) -> list[int]:
    """SplitMix64 in plain Python (Steele, Lea and Flood 2014), seeded as rng_seed does."""

    def mix(z: int) -> int:
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    golden = 0x9E3779B97F4A7C15
    word = mix(seed ^ golden)
    out = []
    for _ in range(count):
        word = (word + golden) & MASK64
        out.append(mix(word))
    return out


@pytest.mark.parametrize("seed", [0, 1, 2**40 + 3, 2**63 - 1])
def test_rng_matches_the_splitmix64_reference(seed):
    state = seeded(seed)
    assert [int(rng_next(state, 0)) for _ in range(4)] == splitmix64_reference(seed, 4)


def test_rng_below_is_uniform_and_in_range():
    state = seeded(5)
    draws = np.array([rng_below(state, 0, 6) for _ in range(60_000)])
    assert draws.min() == 0 and draws.max() == 5
    counts = np.bincount(draws, minlength=6)
    expected = 10_000
    chi_square = ((counts - expected) ** 2 / expected).sum()
    assert chi_square < 20.5  # p = 0.001 at 5 degrees of freedom


def test_rng_shuffle_is_a_permutation_and_uniform():
    state = seeded(1)
    firsts = np.zeros(4, np.int64)
    for _ in range(8000):
        values = np.arange(4, dtype=np.int32)
        rng_shuffle(state, 0, values, 4)
        assert sorted(values) == [0, 1, 2, 3]
        firsts[values[0]] += 1
    assert (abs(firsts - 2000) < 200).all()


def test_equal_flag_is_the_equality_over_int32s_range():
    edges = [-(2**31), -(2**31) + 1, -2, -1, 0, 1, 2, 255, 2**31 - 2, 2**31 - 1]
    values = edges + list(np.random.default_rng(0).integers(-(2**31), 2**31, 40))
    for a in values:
        for b in values + [a]:
            assert equal_flag(int(a), int(b)) == int(a == b), (a, b)


def test_winners_share_ties_after_the_tiebreak():
    out = np.zeros(4, np.int32)
    assert winners_mask(np.array([10, 12, 12, 5]), np.array([0, 3, 3, 9]), 4, out) == 2
    assert out.tolist() == [0, 1, 1, 0]
    assert winners_mask(np.array([10, 12, 12, 5]), np.array([0, 2, 3, 9]), 4, out) == 1
    assert out.tolist() == [0, 0, 1, 0]


def test_outcome_rewards_modes():
    out = np.zeros(3, np.float32)
    outcome_rewards(np.array([7, 9, 9]), np.array([1, 2, 2]), 3, 3, REWARD_WIN_LOSS, out)
    assert out.tolist() == [-1.0, 1.0, 1.0]
    outcome_rewards(np.array([6, 9, 12]), np.array([0, 0, 0]), 3, 3, REWARD_SCORE_DIFF, out)
    assert np.allclose(out, [6 - 10.5, 9 - 9.0, 12 - 7.5])
    assert abs(out.sum()) < 1e-6


def test_outcome_rewards_for_one_learning_seat_against_an_in_kernel_opponent():
    """A solo game: player 0 against an automaton whose score comes after the players'."""
    out = np.full(1, np.nan, np.float32)
    outcome_rewards(np.array([30, 25]), np.array([0, 0]), 1, 2, REWARD_WIN_LOSS, out)
    assert out.tolist() == [1.0]
    outcome_rewards(np.array([20, 25]), np.array([0, 0]), 1, 2, REWARD_WIN_LOSS, out)
    assert out.tolist() == [-1.0]
    outcome_rewards(np.array([25, 25]), np.array([3, 3]), 1, 2, REWARD_WIN_LOSS, out)
    assert out.tolist() == [1.0]  # a tie shares victory with the automaton
    outcome_rewards(np.array([20, 25]), np.array([0, 0]), 1, 2, REWARD_SCORE_DIFF, out)
    assert out.tolist() == [-5.0]  # own score minus the automaton's: finite, not a division by 0
    outcome_rewards(np.array([17]), np.array([0]), 1, 1, REWARD_SCORE_DIFF, out)
    assert out.tolist() == [17.0]  # alone: its own score
    # Two players and an automaton: each against the mean of the two others.
    out = np.zeros(2, np.float32)
    outcome_rewards(np.array([10, 20, 30]), np.array([0, 0, 0]), 2, 3, REWARD_SCORE_DIFF, out)
    assert out.tolist() == [10 - 25.0, 20 - 20.0]
    outcome_rewards(np.array([10, 20, 30]), np.array([0, 0, 0]), 2, 3, REWARD_WIN_LOSS, out)
    assert out.tolist() == [-1.0, -1.0]  # the automaton won


def test_option_validation_names_the_option_and_the_allowed_values():
    declared = (
        Option("num_players", 4, (2, 3, 4, 5), "players"),
        Option("mode", "a", ("a", "b"), "mode"),
        Option("flag", False, (False, True), "a switch"),
    )
    assert validate_options("g", declared, {}) == {"num_players": 4, "mode": "a", "flag": False}
    assert validate_options("g", declared, {"num_players": np.int64(3), "flag": True})["num_players"] == 3
    with pytest.raises(ValueError, match=r"'num_players' must be an integer from 2 to 5; got 6"):
        validate_options("g", declared, {"num_players": 6})
    with pytest.raises(ValueError, match=r"'mode' must be one of 'a', 'b'; got 'c'"):
        validate_options("g", declared, {"mode": "c"})
    assert validate_options("g", declared, {"flag": np.bool_(True)})["flag"] is True
    with pytest.raises(ValueError, match="flag"):
        validate_options("g", declared, {"flag": 1})  # 1 is not True
    with pytest.raises(ValueError, match="num_players"):
        validate_options("g", declared, {"num_players": np.bool_(True)})
    with pytest.raises(ValueError, match="num_players"):
        validate_options("g", declared, {"num_players": True})
    with pytest.raises(ValueError, match=r"unknown option\(s\) 'colour'; allowed options are"):
        validate_options("g", declared, {"colour": "red"})


def test_registry_lists_every_game_and_rejects_unknown_names():
    assert "nakbe" in game_names()
    assert [game.name for game in all_games()] == game_names()
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        get_game("chess")
    for game in all_games():
        env = make_env(game.name)
        env.reset(seed=0)
        assert env.metadata["name"] == game.env_name
        dims = game.dims(game.make_params(game.validate({})))
        assert isinstance(dims, Dims)
        assert dims.state_size * 4 <= 4096, "a state should stay under 4 KiB"


def test_render_modes():
    for game in all_games():
        env = make_env(game.name, render_mode="ansi")
        env.reset(seed=1)
        text = env.render()
        assert isinstance(text, str) and text
        env.unwrapped.render_viewer = 0
        assert "you" in env.render()
        picture = make_env(game.name, render_mode="rgb_array")
        picture.reset(seed=1)
        image = picture.render()
        assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
        assert len(np.unique(image.reshape(-1, 3), axis=0)) > 3


def test_raw_env_asks_for_reset_first():
    for game in all_games():
        raw = TreasureAECEnv(game)
        for method, args in (
            (raw.step, (0,)),
            (raw.observe, ("player_0",)),
            (raw.state, ()),
            (raw.get_state, ()),
        ):
            with pytest.raises(RuntimeError, match="reset"):
                method(*args)


def test_each_game_and_the_gymnasium_ids_import_first_in_a_fresh_interpreter():
    # A game imports treasure_core; treasure_core must not import the games back while they load.
    import subprocess
    import sys

    from treasure_core.registry import game_names, module_of

    for module in map(module_of, game_names()):
        code = f"import {module}; {module}.env().reset(seed=0)"
        subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
    code = (
        "import gymnasium; gymnasium.make("
        "'treasure_adapters.single_agent:treasure_envs/Nakbe-v2', opponents='bot').reset(seed=0)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_phases_are_named_and_the_kernels_dispatch_on_them():
    import karuba_env
    import nakbe_env

    env = karuba_env.raw_env(num_players=2, layout="draft")
    env.reset(seed=3)
    seen = [env.phase()]
    while env.phase() == "draft":
        assert env.get_state()[karuba_env.state.PHASE] == karuba_env.state.PHASE_DRAFT
        legal = env.legal_actions()
        assert all(a >= karuba_env.state.DRAFT_ADVENTURER_BASE for a in legal)  # draft blocks only
        env.step(legal[0])
    seen.append(env.phase())
    assert seen == ["draft", "play"] and env.game.phases == ("draft", "play")
    assert max(env.legal_actions()) < karuba_env.state.DRAFT_ADVENTURER_BASE  # play blocks only
    nakbe = nakbe_env.raw_env()
    nakbe.reset(seed=0)
    assert nakbe.phase() == "move" and nakbe.game.phases == ("move",)


def test_action_layouts_name_every_action_once():
    from treasure_core.registry import all_games

    for game in all_games():
        layout = game.actions
        assert layout.size == game.dims(game.make_params(game.validate({}))).n_actions
        covered = [a for block in layout.blocks for a in range(block.start, block.stop)]
        assert covered == list(range(layout.size)), f"{game.name}: blocks must tile the action space"
        for block in layout.blocks:
            assert layout.block_of(block.start) == (block, 0)
            assert layout.block_of(block.stop - 1) == (block, block.size - 1)
        with pytest.raises(ValueError):
            layout.block_of(layout.size)


def test_ansi_helpers_measure_what_a_terminal_shows():
    from treasure_core.ansi import pad, paint, visible_len

    red = paint("ab", "\x1b[31m")
    assert red == "\x1b[31mab\x1b[0m" and paint("ab", "\x1b[31m", use_colour=False) == "ab"
    assert visible_len(red) == 2 and visible_len("x\x1b[1;93my") == 2
    assert pad(red, 5) == red + "   " and pad("toolong", 3) == "toolong"


def test_warnings_carry_colour_codes_only_to_a_terminal(monkeypatch):
    """An illegal move's warning is plain text in a log, yellow on a terminal."""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    def illegal_move_warning() -> str:
        env = make_env("nakbe", illegal_action="penalize")
        env.reset(seed=0)
        mask = env.infos[env.agent_selection]["action_mask"]
        with pytest.warns(UserWarning, match="illegal action") as caught:
            env.step(int(np.flatnonzero(mask == 0)[0]))
        return str(caught[0].message)

    monkeypatch.setattr(sys, "stderr", io.StringIO())
    plain = illegal_move_warning()
    assert plain.startswith("WARN: nakbe_v") and "\x1b" not in plain
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert illegal_move_warning() == f"\x1b[33m{plain}\x1b[0m"


def test_the_registry_finds_games_by_entry_point_and_at_run_time(monkeypatch):
    import dataclasses
    import sys
    import types

    from treasure_core import registry

    assert {"nakbe", "karuba"} <= set(registry.game_names())  # this distribution's entry points
    assert registry.module_of("nakbe") == "nakbe_env"
    with pytest.raises(ValueError, match=r"unknown game 'chess'; registered games are .*'nakbe'"):
        registry.get_game("chess")
    with pytest.raises(ValueError, match="identifier"):
        registry.register("two words", "nakbe_env")
    module = types.ModuleType("misnamed_env")
    module.GAME = registry.get_game("nakbe")  # a spec named nakbe, registered as another name
    monkeypatch.setitem(sys.modules, "misnamed_env", module)
    heard = []
    registry.on_register(heard.append)
    try:
        with pytest.raises(ValueError, match="must expose GAME, a GameSpec named 'misnamed'"):
            registry.register("misnamed", "misnamed_env")
        assert heard == [] and "misnamed" not in registry.game_names()  # nothing registered
        module.GAME = dataclasses.replace(module.GAME, name="misnamed")
        registry.register("misnamed", "misnamed_env")
        assert heard == ["misnamed"] and registry.get_game("misnamed") is module.GAME
    finally:
        registry.unregister("misnamed")
        registry._listeners.remove(heard.append)
    assert "misnamed" not in registry.game_names()
    spec = registry.get_game("karuba")
    registry.unregister("karuba")
    try:
        assert "karuba" not in registry.game_names()
        with pytest.raises(ValueError, match="unknown game 'karuba'"):
            registry.get_game("karuba")
    finally:
        registry.register("karuba", "karuba_env")
    assert registry.get_game("karuba") is spec
    # Registered again under its entry point's module, it is installed again: it pickles by name
    # (an env of it in a SuperSuit vector env, say, copies no lock of its LiveKernels).
    assert "karuba" not in registry._registered
    assert pickle.loads(pickle.dumps(spec)) is spec


def test_numba_caches_are_dropped_when_any_source_of_the_game_or_runtime_changes(tmp_path, monkeypatch):
    """numba checks only the defining file; refresh_numba_cache stamps the package's and the
    runtime's sources, and drops the cached compiles when either changes."""
    from treasure_core import cache

    game, runtime = tmp_path / "game_env", tmp_path / "runtime"
    for folder in (game, runtime):
        (folder / "__pycache__").mkdir(parents=True)
    (game / "data.py").write_text("TABLE = (1, 2)\n")
    (runtime / "rng.py").write_text("SEED = 1\n")
    monkeypatch.setattr(cache, "RUNTIME", runtime)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)

    def compiled() -> None:
        for folder in (game, runtime):
            (folder / "__pycache__" / "kernels.step-1.py311.nbi").write_text("index")
            (folder / "__pycache__" / "kernels.step-1.py311.1.nbc").write_text("code")

    def cached() -> int:
        folders = [folder / "__pycache__" for folder in (game, runtime)]
        return len([p for folder in folders for p in folder.iterdir() if p.suffix != ".sha256"])

    compiled()
    assert cache.refresh_numba_cache(str(game / "__init__.py")) and cached() == 0  # no stamp yet
    compiled()
    assert not cache.refresh_numba_cache(str(game / "__init__.py")) and cached() == 4  # unchanged
    (game / "data.py").write_text("TABLE = (1, 3)\n")
    assert cache.refresh_numba_cache(str(game / "__init__.py")) and cached() == 0
    compiled()
    (runtime / "rng.py").write_text("SEED = 2\n")
    assert cache.refresh_numba_cache(str(game / "__init__.py")) and cached() == 0


def test_the_cache_folder_under_numba_cache_dir_is_the_one_numba_writes(tmp_path):
    """With NUMBA_CACHE_DIR set, numba keeps a module's compiles in a folder named after the
    source folder and a hash of its path; refresh_numba_cache must drop that one (it once
    looked for a mirror of the path, found nothing, and the adversarial run used stale code)."""
    source = tmp_path / "tiny_env"
    source.mkdir()
    (source / "kernels.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n"
    )
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); import kernels; kernels.twice(2);"
        "from pathlib import Path; from treasure_core.cache import cache_dirs;"
        "folder = cache_dirs(Path(sys.argv[1]))[0];"
        "print(sorted(p.suffix for p in folder.iterdir()))"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "elsewhere"))
    done = subprocess.run([sys.executable, "-c", probe, str(source)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert ".nbc" in done.stdout and ".nbi" in done.stdout, done.stdout


@pytest.mark.parametrize("name", game_names())
def test_a_finished_game_loaded_into_the_batch_runner_restarts_at_its_next_step(name):
    from treasure_core.batch import BatchRunner

    env = make_env(name).unwrapped
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    while not env.is_over():
        env.step(int(rng.choice(env.legal_actions())))
    final = env.get_state()
    runner = BatchRunner(name, 2, seed=0, check_actions=False, num_threads=1)
    runner.set_states(np.stack([final, final]))
    rewards, dones = runner.step(np.zeros(2, np.int64))
    assert not dones.any() and not rewards.any() and not runner.terminal().any()
    runner.set_states(np.stack([final, final]))
    steps, _ = runner.random_playout(5, seed=1)
    assert steps == 10
    for state in runner.states:
        runner.game.check_invariants(state)


@pytest.mark.parametrize("check_actions", [True, False])
def test_the_batch_runner_refuses_bad_actions_with_the_first_game_and_the_count(check_actions):
    """An action out of range is refused always, whatever its integer dtype, and an illegal one
    when actions are checked: a ValueError naming the first such game and how many there are,
    and nothing changes. The checks run in one kernel pass (action_faults)."""
    from treasure_core.batch import BatchRunner

    runner = BatchRunner("nakbe", 8, seed=4, check_actions=check_actions, num_threads=1)
    masks = runner.legal_masks().copy()
    legal = runner.random_actions(seed=2)
    before = runner.states.copy()
    n_actions = runner.dims.n_actions
    out_of_range = legal.copy()
    out_of_range[[2, 5]] = [n_actions, -1]
    for actions in (out_of_range, out_of_range.astype(np.int32)):
        message = rf"action {n_actions} in game 2 is not from 0 to {n_actions - 1} \(2 out"
        with pytest.raises(ValueError, match=message):
            runner.step(actions)
    huge = legal.astype(np.uint64)
    huge[6] = np.uint64(2**64 - 1)  # out of range as it is, not wrapped to -1
    with pytest.raises(ValueError, match=rf"action {2**64 - 1} in game 6 is not from 0"):
        runner.step(huge)
    illegal = legal.copy()
    for game in (3, 7):
        illegal[game] = np.flatnonzero(masks[game] == 0)[0]
    if check_actions:
        message = rf"action {illegal[3]} is illegal in game 3 \(2 illegal in all\)"
        with pytest.raises(ValueError, match=message):
            runner.step(illegal)
    np.testing.assert_array_equal(runner.states, before)
    np.testing.assert_array_equal(runner.legal_masks(), masks)
    runner.step(legal[::-1].copy()[::-1])  # a strided int64 view plays as its values
    assert not runner.refused.any()


@pytest.mark.parametrize("name", game_names())
def test_the_batch_runner_reports_the_illegal_actions_its_kernels_refuse(name):
    """check_actions=False: an illegal action reaches the kernel, which refuses it (the state
    unchanged) and `refused` says which games; the legal ones are played."""
    from treasure_core.batch import BatchRunner

    runner = BatchRunner(name, 16, seed=3, check_actions=False, num_threads=1)
    rng = np.random.default_rng(7)
    for _ in range(30):
        masks = runner.legal_masks()
        actions = runner.random_actions(seed=int(rng.integers(1 << 30)))
        illegal = np.zeros(runner.n_games, np.bool_)
        for g in range(0, runner.n_games, 2):  # every other game an illegal action, where one is
            banned = np.flatnonzero(masks[g] == 0)
            if banned.size:
                actions[g] = banned[rng.integers(banned.size)]
                illegal[g] = True
        before = runner.states.copy()
        runner.step(actions)
        np.testing.assert_array_equal(runner.refused, illegal)
        np.testing.assert_array_equal(runner.states[illegal], before[illegal])
    assert illegal.any()
    runner.check_actions = True
    runner.step(runner.random_actions(seed=1))
    assert not runner.refused.any()  # with the check, nothing reaches a kernel illegal


@pytest.mark.parametrize("name", ["nakbe", "karuba"])  # one sequential game, one simultaneous
def test_the_fast_aec_path_keeps_the_order_checks_and_the_info_conventions(name, caplog):
    from pettingzoo.utils.env import AECEnv
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = make_env(name)
    assert isinstance(env, OrderEnforcingWrapper) and str(env) == str(env.unwrapped)
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
    with pytest.raises(AttributeError, match="before reset"):
        env.agents  # noqa: B018
    env.reset(seed=3)
    raw = env.unwrapped
    rng = np.random.default_rng(1)
    iterator = iter(env.agent_iter())
    next(iterator)
    with pytest.raises(AssertionError, match="need to call step"):
        next(iterator)
    env.reset(seed=3)
    steps = 0
    for agent in env.agent_iter():
        fast = env.last()
        slow = AECEnv.last(raw)  # PettingZoo's own last(), attribute by attribute
        assert agent == raw.agent_selection and fast[1:] == slow[1:]
        assert np.array_equal(fast[0]["observation"], slow[0]["observation"])
        assert np.array_equal(fast[0]["action_mask"], slow[0]["action_mask"])
        if fast[2] or fast[3]:
            env.step(None)
            continue
        before = dict(raw.infos)
        kept = {a: info["action_mask"].copy() for a, info in before.items()}
        mask = fast[4]["action_mask"]
        assert np.array_equal(mask, raw.action_mask(agent))
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        for other, info in raw.infos.items():
            assert all(isinstance(v, (int, float, tuple, np.ndarray)) for v in info.values())
            assert set(info) == set(before[other])
            assert np.array_equal(before[other]["action_mask"], kept[other])  # old infos unchanged
            if not np.array_equal(info["action_mask"], kept[other]):
                assert info is not before[other]  # a changed info is a new dict
            assert np.array_equal(info["action_mask"], raw.action_mask(other))
    assert steps > 0 and raw.is_over()
    env.step(0)  # after the end: PettingZoo's logged warning, as its own wrapper gives
    assert "step() called after all agents are terminated" in caplog.text


def test_nth_legal_is_the_pick_th_nonzero_entry_whatever_the_size_and_density():
    """The draw's walk skips whole blocks by their count: masks shorter than a block, a block
    exactly, across block edges, empty and full, any nonzero value legal, -1 past the last."""
    rng = np.random.default_rng(3)
    for size in (1, 7, 31, 32, 33, 64, 95, 123, 284):
        for density in (0.0, 0.03, 0.5, 1.0):
            values = rng.choice(np.array([1, 2, -1], np.int8), size)
            mask = np.where(rng.random(size) < density, values, 0).astype(np.int8)
            legal = np.flatnonzero(mask).tolist()
            assert [nth_legal(mask, pick) for pick in range(len(legal) + 2)] == legal + [-1, -1]


@pytest.mark.parametrize("name", [game.name for game in all_games()])
def test_the_batch_runner_draws_random_legal_actions_in_a_kernel(name):
    from treasure_core.batch import BatchRunner

    runner = BatchRunner(name, 64, seed=5, num_threads=1)
    twin = BatchRunner(name, 64, seed=5, num_threads=numba.config.NUMBA_NUM_THREADS)
    for _ in range(20):
        masks = runner.legal_masks().copy()
        actions = runner.random_actions()
        assert actions.dtype == np.int64 and masks[np.arange(64), actions].all()
        # By seed, whatever the threads and the path: the runner draws from its fresh masks,
        # the twin's batch_legal_mask writes its masks and draws in one pass.
        assert np.array_equal(twin.random_actions(), actions)
        assert np.array_equal(twin.legal_masks(), masks)
        assert np.array_equal(runner.random_actions(seed=9), runner.random_actions(seed=9))
        runner.step(actions)
        twin.step(actions)
    # Every legal action is drawn: over many seeds, each of one game's legal actions comes up.
    legal = np.flatnonzero(runner.legal_masks()[0])
    drawn = {int(runner.random_actions(seed=s)[0]) for s in range(40 * legal.size)}
    assert drawn == set(legal.tolist())
    with pytest.raises(ValueError, match="out must be an int64 array"):
        runner.random_actions(out=np.empty(3, np.int64))


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_sort_ascending_sorts_like_numpy(dtype: type) -> None:
    """The re-deals' insertion sort (treasure_core.kernels.sort_ascending) puts any short array
    in numpy's order, in place, and leaves the rest of a larger array alone."""
    rng = np.random.default_rng(3)
    for size in (0, 1, 2, 7, 40):
        values = rng.integers(-5, 30, size + 3).astype(dtype)
        expected = values.copy()
        expected[:size].sort()
        sort_ascending(values[:size])
        np.testing.assert_array_equal(values, expected)
