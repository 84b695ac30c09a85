"""The same seeds give the same games as when tests/data/trajectories.json was recorded: every
game and variant, through the AEC env (observations, masks, full state, rewards, infos, action
names, renderings, resample_hidden), the scripted bots, the batch runner, the in-kernel playout
and the Parallel env. A change to any of these is a new env version, recorded anew."""

from __future__ import annotations

import json

import pytest
from trajectories import DATA, configs, key, record

from treasure_core.registry import get_game

RECORDED = json.loads(DATA.read_text())
CASES = sorted(RECORDED)


def test_every_variant_is_recorded():
    """A new variant gets its trajectory recorded; none silently drops out of the replay."""
    missing = sorted({key(name, options) for name, options in configs()} - set(RECORDED))
    assert not missing, f"no recorded trajectory (python tests/trajectories.py --record GAME): {missing}"


@pytest.mark.parametrize("case", CASES)
def test_replay_matches_the_recording(case):
    name, options_text = case.split("|", 1)
    expected = RECORDED[case]
    if get_game(name).env_name != expected["env_name"]:
        pytest.fail(f"{name} is now {get_game(name).env_name}: record its trajectories anew")
    again = record(name, json.loads(options_text))
    for part in expected:
        assert again[part] == expected[part], f"{case}: {part} differs from the recording"
