"""A game from outside the library (examples/sixth_game: Pig) joins through the registry: as an
installed distribution's entry point, in a fresh interpreter, and by `register` at run time."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from treasure_core import codegen, registry

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "sixth_game"

# Run in a fresh interpreter whose only way to the game is the dist-info beside the package.
OUTSIDE_SCRIPT = textwrap.dedent(
    """
    import sys
    from pathlib import Path

    import numpy as np

    from treasure_core import codegen, registry
    from treasure_core.conformance import configs, run_conformance

    root = Path(sys.argv[1])
    names = registry.game_names()
    assert {"pig", "nakbe", "karuba"} <= set(names), names
    assert registry.module_of("pig") == "pig_env"
    import pig_env
    from pig_env.state import END_ROUND_LIMIT

    assert Path(pig_env.__file__).resolve().parent == root / "pig_env", pig_env.__file__
    assert codegen.is_current("pig_env"), "pig_env/batch.py is stale"

    env = registry.make_env("pig", num_players=3, target=100)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    raw = env.unwrapped
    final = raw.game.final_info(raw.get_state(), truncated=raw.is_truncated())
    assert max(final["scores"]) >= 100 or final["end_condition"] == END_ROUND_LIMIT, final
    print("played", final)

    option_sets = configs("pig")
    assert {"num_players": 1} in option_sets, option_sets
    ran = run_conformance("pig")
    print(f"conformance: {len(ran)} checks over {len(option_sets)} option sets passed")
    """
)


def test_an_installed_distribution_registers_its_game(tmp_path: Path) -> None:
    """What `pip install examples/sixth_game` leaves: the package and its dist-info, whose
    entry point puts the game in the registry beside the library's own; then the conformance
    suite over every option set. The kernels compile afresh here (a new copy, a new cache)."""
    shutil.copytree(EXAMPLE / "pig_env", tmp_path / "pig_env", ignore=shutil.ignore_patterns("__pycache__"))
    dist_info = tmp_path / "pig_env-0.1.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: pig-env\nVersion: 0.1\n")
    (dist_info / "entry_points.txt").write_text("[treasure_envs.games]\npig = pig_env\n")
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, "-c", OUTSIDE_SCRIPT, str(tmp_path)],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    assert "conformance:" in result.stdout, result.stdout


@pytest.fixture
def pig(monkeypatch: pytest.MonkeyPatch):
    """The example registered at run time from its folder; forgotten afterwards (or given back
    to its entry point, if pig-env is installed)."""
    installed = "pig" in registry.game_names()
    monkeypatch.syspath_prepend(str(EXAMPLE))
    registry.register("pig", "pig_env")
    try:
        yield registry.get_game("pig")
    finally:
        registry.unregister("pig")
        for module in [m for m in sys.modules if m == "pig_env" or m.startswith("pig_env.")]:
            del sys.modules[module]
        if installed:
            registry.register("pig", "pig_env")


def _play_solo(env, seed: int, policy) -> tuple[float, dict]:
    """Play one solo game through the AEC env; the final reward and infos of player_0."""
    env.reset(seed=seed)
    reward, info = 0.0, {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
        else:
            env.step(policy(env, agent))
    return reward, info


def test_solo_rewards_against_the_in_kernel_automaton(pig) -> None:
    """num_players=1: the player races the automaton inside the kernels. Two competitors, the
    player first; win_loss is +1 exactly when the player won, score_diff is the player's score
    minus the automaton's."""
    from pig_env.state import END_ROUND_LIMIT

    assert codegen.is_current("pig_env")
    bot = pig.bots["bot"](0)
    rng = np.random.default_rng(0)

    def hold_at_20(env, agent: str) -> int:
        return bot.act(env.unwrapped, agent)

    def random_play(env, agent: str) -> int:
        return int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"])))

    outcomes = set()
    for reward_mode in ("win_loss", "score_diff"):
        env = registry.make_env("pig", num_players=1, reward=reward_mode)
        assert env.possible_agents == ["player_0"]
        for seed in range(12):
            # The bot in even games, random play in odd ones: wins and losses both.
            reward, info = _play_solo(env, seed, random_play if seed % 2 else hold_at_20)
            assert len(info["scores"]) == 2, info
            own, automaton = info["scores"]
            assert info["score"] == own
            if info["end_condition"] == END_ROUND_LIMIT:  # cut by the guard: no result
                assert reward == 0.0 and not info["winner"], (reward, info)
                continue
            assert info["winner"] == (own >= automaton), info
            assert max(own, automaton) >= 50, info
            if reward_mode == "win_loss":
                assert reward == (1.0 if info["winner"] else -1.0), (reward, info)
                outcomes.add(info["winner"])
            else:
                assert reward == own - automaton, (reward, info)
    assert outcomes == {True, False}, "twelve solo games should hold both a win and a loss"


def test_the_guard_cuts_a_game_past_its_rounds(pig) -> None:
    """The guard against endless games (GameSpec.guard): once MAX_ROUNDS rounds are over the
    drivers cut the game, a truncation with rewards 0 and no winner, end condition "round
    limit"; the kernels themselves go on (the round counter saturates far beyond)."""
    from pig_env.data import MAX_ROUNDS
    from pig_env.state import END_ROUND_LIMIT, ROUND

    from treasure_core.header import DECISIONS, TERMINAL

    env = registry.make_env("pig", num_players=1).unwrapped
    bot = pig.bots["bot"](0)
    for seed in range(4):
        env.reset(seed=seed)
        state = env.get_state()
        state[ROUND] = MAX_ROUNDS
        state[DECISIONS] = MAX_ROUNDS - 1  # one decision at least in each round before
        env.set_state(state)
        pig.check_invariants(env.get_state())
        while not env.is_over():
            env.step(bot.act(env, env.agent_selection))
            pig.check_invariants(env.get_state())
        info = env.infos["player_0"]
        assert env.is_truncated() and env.truncations["player_0"] and not env.terminations["player_0"]
        assert not env.get_state()[TERMINAL] and env.get_state()[ROUND] == MAX_ROUNDS + 1
        assert info["end_condition"] == END_ROUND_LIMIT and info["rounds"] == MAX_ROUNDS + 1, info
        assert not info["winner"] and env.rewards["player_0"] == 0.0, (env.rewards, info)


def test_a_bad_pig_state_is_refused_naming_the_field(pig) -> None:
    """Issue 18 for the example: every field has its range (state_fields), the option target
    is checked (validate_state), the invariants do the rest; a refused state changes nothing."""
    from pig_env.state import SCORES, TARGET, TURN_TOTAL

    from treasure_core.header import DECISIONS

    env = registry.make_env("pig", num_players=3, target=50).unwrapped
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(6):
        env.step(int(rng.choice(env.legal_actions())))
    base = env.get_state()
    for slot, value, field in (
        (SCORES + 1, 10**6, r"SCORES\[1\]"),  # past any score a game reaches
        (TARGET, 100, "option target"),  # in range, but not this env's target
        (TURN_TOTAL, 1, "turn total 1"),  # a 1 empties the turn
        (DECISIONS, 2**31 - 1, "decisions"),  # more than the rounds so far can hold
    ):
        state = base.copy()
        state[slot] = value
        with pytest.raises(ValueError, match=field):
            env.set_state(state)
        assert np.array_equal(env.get_state(), base), field
    env.set_state(base)
