"""The encoders' output is unchanged: every observation of every seat, the full state, and the
batch observation (float32 and uint8) of many random states, hashed per game and option set,
against the digests in tests/data/observe_digests.json.

A rewrite of an encoder for speed must keep every feature bit for bit; this is the check. A
change of the observation itself (a new feature, a new layout) re-records the digests, with the
docs' observation table in the same commit:

    python tests/test_observe_digest.py --record [GAME ...]

Each seat's observation is written into an array filled with NaN first, so a feature an encoder
leaves unwritten changes the digest (and is caught as a NaN). The batch observations reuse one
out array across the stages, as a training loop does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from treasure_core.batch import BatchRunner
from treasure_core.conformance import configs
from treasure_core.header import NUM_PLAYERS
from treasure_core.registry import game_names, get_game

DIGESTS = Path(__file__).parent / "data" / "observe_digests.json"
N_GAMES = 24
# Random steps between the snapshots: the games' stages spread from the first decision to
# their ends and restarts.
STAGES = (0, 1, 2, 4, 7, 12, 20, 33, 55, 90, 150)
KINDS = ("seats", "full_state", "batch_float32", "batch_uint8")


def digest_options(game: str) -> list[dict[str, Any]]:
    """The conformance suite's option sets, but the driver-only ones (the batch runner has its
    own illegal_action and observation_format)."""
    return [
        options for options in configs(game) if not {"observation_format", "illegal_action"} & set(options)
    ]


def config_key(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True)


def digests(game: str, options: dict[str, Any], seed: int = 11) -> dict[str, str]:
    """One sha256 per kind of observation, over every snapshot of every game."""
    spec = get_game(game)
    runner = BatchRunner(game, N_GAMES, seed=seed, num_threads=1, **options)
    compact = BatchRunner(game, N_GAMES, seed=seed, num_threads=1, observation_dtype="uint8", **options)
    dims = runner.dims
    hashes = {kind: hashlib.sha256() for kind in KINDS}
    seat_view = np.empty(dims.obs_size, np.float32)
    full_view = np.empty(dims.full_state_size, np.float32)
    batch_float = np.full((N_GAMES, dims.obs_size), np.nan, np.float32)
    batch_uint8 = np.full((N_GAMES, dims.obs_size), 7, np.uint8)
    for stage, steps in enumerate(STAGES):
        runner.random_playout(steps, seed=seed + stage)
        compact.set_states(runner.states)
        for state in runner.states:
            state = state.copy()
            for seat in range(int(state[NUM_PLAYERS])):
                seat_view[:] = np.nan
                spec.kernels.observe(state, seat, seat_view)
                assert not np.isnan(seat_view).any(), f"{game} {options}: observe left features unwritten"
                hashes["seats"].update(seat_view.tobytes())
            full_view[:] = np.nan
            spec.kernels.full_state(state, full_view)
            assert not np.isnan(full_view).any(), f"{game} {options}: full_state left features unwritten"
            hashes["full_state"].update(full_view.tobytes())
        hashes["batch_float32"].update(runner.observe(out=batch_float).tobytes())
        hashes["batch_uint8"].update(compact.observe(out=batch_uint8).tobytes())
    return {kind: hashes[kind].hexdigest() for kind in KINDS}


def recorded() -> dict[str, dict[str, dict[str, str]]]:
    return json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}


CASES = [(game, options) for game in game_names() for options in digest_options(game)]


@pytest.mark.parametrize(("game", "options"), CASES, ids=[f"{g}-{config_key(o)}" for g, o in CASES])
def test_observations_are_unchanged(game: str, options: dict[str, Any]) -> None:
    expected = recorded().get(game, {}).get(config_key(options))
    assert expected is not None, (
        f"no digest recorded for {game} {options}: run {Path(__file__).name} --record {game}"
    )
    assert digests(game, options) == expected


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--record", action="store_true", help="write the digests (default: check them)")
    parser.add_argument("games", nargs="*", help="default: every registered game")
    args = parser.parse_args()
    table = recorded()
    failures = 0
    for game in args.games or list(game_names()):
        found = {config_key(options): digests(game, options) for options in digest_options(game)}
        if args.record:
            table[game] = found
            print(f"{game}: recorded {len(found)} option sets")
            continue
        for key, value in found.items():
            ok = table.get(game, {}).get(key) == value
            failures += not ok
            print(f"{game} {key}: {'ok' if ok else 'CHANGED'}")
    if args.record:
        DIGESTS.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
