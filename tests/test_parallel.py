"""The generic Parallel driver (treasure_core.parallel) on every registered game and option
value, through the conformance suite (treasure_core.conformance): PettingZoo's
parallel_api_test, agreement with the AEC env, and bad input."""

from __future__ import annotations

from typing import Any

from treasure_core import conformance

Config = tuple[str, dict[str, Any]]


def test_parallel_api(config: Config) -> None:
    conformance.check_parallel_api(*config)


def test_parallel_plays_the_aec_game(config: Config) -> None:
    conformance.check_parallel_plays_the_aec_game(*config)


def test_parallel_bad_actions(config: Config) -> None:
    conformance.check_parallel_bad_actions(*config)


def test_parallel_penalize(config: Config) -> None:
    conformance.check_parallel_penalize(*config)


def test_parallel_set_state_and_render(config: Config) -> None:
    conformance.check_parallel_set_state_and_render(*config)


def test_parallel_requires_reset(config: Config) -> None:
    conformance.check_parallel_requires_reset(*config)


def test_aec_to_parallel(config: Config) -> None:
    conformance.check_aec_to_parallel(*config)
