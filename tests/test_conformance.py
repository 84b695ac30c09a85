"""The conformance suite (treasure_core.conformance) on every registered game, player count and
option value (see conftest.CONFIGS: every player count at default options in the default tier,
each other option value and combination in the long tier): one test per check. A new game
joins by registering. The Parallel env's checks are in test_parallel.py. The last tests check
the suite itself."""

from __future__ import annotations

import dataclasses
import zlib
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from treasure_core import conformance
from treasure_core.conformance import CHECKS, assert_raises, configs, hidden_information_case, run_conformance
from treasure_core.game import GameSpec
from treasure_core.registry import all_games, get_game

Config = tuple[str, dict[str, Any]]


# -- the kernel contract, PettingZoo's own tests, options ---------------------------------
def test_kernel_contract(config: Config) -> None:
    conformance.check_kernel_contract(*config)


def test_bad_options(config: Config) -> None:
    conformance.check_bad_options(*config)


def test_pettingzoo_api(config: Config) -> None:
    conformance.check_pettingzoo_api(*config)


def test_pettingzoo_seed(config: Config) -> None:
    conformance.check_pettingzoo_seed(*config)


# -- determinism, clone, replay -----------------------------------------------------------
def test_same_seed_same_trajectory(config: Config) -> None:
    conformance.check_same_seed_same_trajectory(*config)


def test_clone_and_set_state(config: Config) -> None:
    conformance.check_clone_and_set_state(*config)


def test_set_state_rejects_bad_input(config: Config) -> None:
    conformance.check_set_state_rejects_bad_input(*config)


# -- bad input ----------------------------------------------------------------------------
def test_illegal_actions_raise(config: Config) -> None:
    conformance.check_illegal_actions_raise(*config)


def test_illegal_action_penalize(config: Config) -> None:
    conformance.check_illegal_action_penalize(*config)


def test_infos_are_numbers(config: Config) -> None:
    conformance.check_infos_are_numbers(*config)


def test_entry_points_refuse_bad_arguments(config: Config) -> None:
    conformance.check_entry_points_refuse_bad_arguments(*config)


def test_adversarial_states(config: Config) -> None:
    conformance.check_adversarial_states(*config)


# -- what each seat sees and may do -------------------------------------------------------
def test_observations_differ_between_players(config: Config) -> None:
    conformance.check_observations_differ_between_players(*config)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**31),
    decisions=st.integers(0, 60),
    resample_seed=st.integers(0, 2**31),
    player_pick=st.integers(0, 6),
)
def test_hidden_information(
    config: Config, seed: int, decisions: int, resample_seed: int, player_pick: int
) -> None:
    """A state and its resample_hidden twin look the same to that player (and to its bots);
    hypothesis drives the library's single case, so a failure shrinks."""
    name, options = config
    hidden_information_case(name, options, seed, decisions, resample_seed, player_pick)


def test_resample_hidden_redeals(config: Config) -> None:
    conformance.check_resample_hidden_redeals(*config)


def test_legal_mask_for_every_seat(config: Config) -> None:
    conformance.check_legal_mask_for_every_seat(*config)


# -- random play fuzz ---------------------------------------------------------------------
# The default tier spends a sixth of the budget on each config; the long tier the whole of it.
DEFAULT_TIER_FUZZ_DECISIONS = conformance.FUZZ_DECISIONS // 6
DEFAULT_TIER_FUZZ_GAMES = 3


def test_random_play_fuzz(config: Config) -> None:
    conformance.check_random_play_fuzz(
        *config, decisions=DEFAULT_TIER_FUZZ_DECISIONS, min_games=DEFAULT_TIER_FUZZ_GAMES
    )


@pytest.mark.long
def test_random_play_fuzz_full_budget(config: Config) -> None:
    conformance.check_random_play_fuzz(*config)


# -- batch runner -------------------------------------------------------------------------
def test_python_twins(config: Config) -> None:
    """One random game a config here (the Python twins are slow); TWIN_GAMES in the long tier."""
    conformance.check_python_twins(*config, games=1)


@pytest.mark.long
def test_python_twins_more_games(config: Config) -> None:
    conformance.check_python_twins(*config)


def test_aec_and_batch_agree(config: Config) -> None:
    conformance.check_aec_and_batch_agree(*config)


def test_batch_rejects_illegal_actions(config: Config) -> None:
    conformance.check_batch_rejects_illegal_actions(*config)


def test_random_playout_kernel(config: Config) -> None:
    conformance.check_random_playout_kernel(*config)


def test_batch_threads(config: Config) -> None:
    conformance.check_batch_threads(*config)


# -- the guard ----------------------------------------------------------------------------
def test_guard(config: Config) -> None:
    conformance.check_guard(*config)


def test_the_guard_check_fails_on_a_guard_that_never_cuts() -> None:
    """A guard whose counter never reaches its limit cuts nothing: the check says so."""
    from treasure_core.header import REWARD_MODE

    nakum = get_game("nakum")
    idle = dataclasses.replace(nakum, guard=dataclasses.replace(nakum.guard, counter=REWARD_MODE))
    with pytest.raises(AssertionError, match=r"'guard' failed for nakum.*reached a guard"):
        run_conformance(idle, {"num_players": 2}, checks=["guard"])


# -- the suite itself ---------------------------------------------------------------------
def test_every_check_has_a_test() -> None:
    """Each check in CHECKS runs in the project's suite, as test_<name> here or in test_parallel.py."""
    import test_parallel

    tested = set(globals()) | set(vars(test_parallel))
    missing = [name for name in CHECKS if f"test_{name}" not in tested]
    assert not missing, f"checks without a test: {missing}"
    assert all(callable(check) for check in CHECKS.values())


def test_configs_cover_every_player_count_and_test_config() -> None:
    for game in all_games():
        options = configs(game)
        assert options == configs(game.name)
        assert options[: game.max_players - game.min_players + 1] == [
            {"num_players": n} for n in range(game.min_players, game.max_players + 1)
        ]
        assert all(dict(extra) in options for extra in game.test_configs)
        assert len({repr(sorted(o.items())) for o in options}) == len(options), "a config twice"
        assert not any("illegal_action" in o for o in options)


@pytest.mark.parametrize("name", [game.name for game in all_games()])
def test_check_hidden_information_loops_over_seeded_cases(name: str) -> None:
    """The numpy-driven loop researchers run (the hypothesis test above drives the same case)."""
    conformance.check_hidden_information(name, {}, examples=5, seed=1)


def test_assert_raises() -> None:
    def boom() -> None:
        raise ValueError("game 2 is bad")

    assert str(assert_raises(ValueError, boom, match="game 2")) == "game 2 is bad"
    assert isinstance(assert_raises((KeyError, ValueError), boom), ValueError)
    with pytest.raises(AssertionError, match="nothing was raised"):
        assert_raises(ValueError, lambda: None, "quiet")
    with pytest.raises(AssertionError, match="expected RuntimeError, got ValueError"):
        assert_raises(RuntimeError, boom)
    with pytest.raises(AssertionError, match="does not match"):
        assert_raises(ValueError, boom, match="game 1")


def test_run_conformance_returns_the_checks_it_ran() -> None:
    names = ["bad_options", "set_state_rejects_bad_input", "parallel_requires_reset"]
    assert run_conformance("nakbe", {"num_players": 2}, checks=names) == names
    assert run_conformance(get_game("karuba"), {"num_players": 3}, checks="bad_options") == ["bad_options"]
    with pytest.raises(ValueError, match="no_such_check"):
        run_conformance("nakbe", {}, checks=["no_such_check"])
    with pytest.raises(ValueError, match="no_such_option"):
        run_conformance("nakbe", {"no_such_option": 1}, checks=["bad_options"])


def _broken_invariants(state: np.ndarray) -> None:
    raise AssertionError("deliberately broken invariant")


def _leaky(game: GameSpec) -> GameSpec:
    """The game with an observe kernel that leaks a digest of the whole state (secrets included)."""
    observe = game.kernels.observe

    def leaky_observe(state: np.ndarray, player: int, out: np.ndarray) -> None:
        observe(state, player, out)
        out[0] = (zlib.crc32(state.tobytes()) % 1000) / 1000

    return dataclasses.replace(game, kernels=_replace(game.kernels, observe=leaky_observe))


def _replace(record: Any, **changes: Any) -> Any:
    """A copy of a dataclass or a NamedTuple with some fields changed."""
    if dataclasses.is_dataclass(record):
        return dataclasses.replace(record, **changes)
    return record._replace(**changes)


def _with_information(game: GameSpec, information: str) -> GameSpec:
    return dataclasses.replace(game, dynamics=_replace(game.dynamics, information=information))


def test_run_conformance_reports_a_broken_game() -> None:
    """A suite that cannot fail is worthless: broken games fail, naming the check and config."""
    nakbe = get_game("nakbe")
    options = {"num_players": 2}
    broken = dataclasses.replace(nakbe, check_invariants=_broken_invariants)
    with pytest.raises(
        AssertionError, match=r"conformance check 'random_play_fuzz' failed for nakbe"
    ) as error:
        run_conformance(broken, options, checks=["bad_options", "random_play_fuzz"])
    assert "{'num_players': 2}" in str(error.value) and "deliberately broken invariant" in str(error.value)
    with pytest.raises(AssertionError, match=r"check_random_play_fuzz failed for nakbe"):
        conformance.check_random_play_fuzz(broken, options, games=1)

    with pytest.raises(
        AssertionError, match=r"conformance check 'hidden_information' failed for nakbe"
    ) as error:
        run_conformance(
            _leaky(nakbe), options, checks=["observations_differ_between_players", "hidden_information"]
        )
    assert "can tell the state from its resample_hidden twin" in str(error.value)

    with pytest.raises(
        AssertionError,
        match=r"'resample_hidden_redeals' failed for nakbe.*changed state\(\) \(the full-information view\)",
    ):
        run_conformance(_with_information(nakbe, "perfect"), options, checks=["resample_hidden_redeals"])
    # A game with an empty re-deal cannot pass as imperfect information.
    no_redeal = dataclasses.replace(
        nakbe, kernels=_replace(nakbe.kernels, resample_hidden=lambda state, player, seed: None)
    )
    with pytest.raises(AssertionError, match=r"'resample_hidden_redeals' failed for nakbe.*only 0 of 20"):
        run_conformance(no_redeal, options, checks=["resample_hidden_redeals"])


def test_the_kernel_contract_check_fails_on_a_wrong_declaration() -> None:
    from treasure_core.layout import ActionLayout

    nakbe = get_game("nakbe")
    short = ActionLayout()
    short.add("move", 6, "one explorer short of the action space")
    with pytest.raises(
        AssertionError, match=r"'kernel_contract' failed for nakbe.*cover 6 actions, not the 8"
    ):
        run_conformance(
            dataclasses.replace(nakbe, actions=short), {"num_players": 2}, checks=["kernel_contract"]
        )
    with pytest.raises(AssertionError, match=r"'kernel_contract' failed for nakbe.*phases \(\)"):
        run_conformance(dataclasses.replace(nakbe, phases=()), {"num_players": 2}, checks=["kernel_contract"])
