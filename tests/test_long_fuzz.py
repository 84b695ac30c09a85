"""The long fuzz (benchmarks/long_fuzz.py): random steps of every game with the invariants and
the validator checked throughout. The long tier (`pytest --long`, which CI runs) plays 2 * 10**5
steps per game, split over its option sets; the full 10**7 per game (about 15 minutes a game
on 2 cores, most of it in the pure-Python invariants) is the script's, on demand:
`python benchmarks/long_fuzz.py`. A short run of the same code is in the default suite, so
the script cannot rot."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import long_fuzz  # noqa: E402

from treasure_core.registry import game_names  # noqa: E402

LONG_TIER_STEPS = 2 * 10**5


def test_a_short_fuzz_counts_its_steps_and_checks() -> None:
    out = io.StringIO()
    total = long_fuzz.fuzz_game("nakbe", 20_000, out=out)
    assert total["steps"] >= 20_000 * 0.9 and total["checks"] > 0 and total["aec_steps"] > 0, total
    assert "no breach" in out.getvalue()


def test_the_script_checks_less_often_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    assert long_fuzz.main(["nakbe", "--steps", "8000", "--chunk", "400", "--aec-share", "0.01"]) == 0
    assert "no breach" in capsys.readouterr().out
    for bad in (["--chunk", "0"], ["--aec-share", "2"]):
        with pytest.raises(SystemExit):
            long_fuzz.main(["nakbe", *bad])


@pytest.mark.long
@pytest.mark.parametrize("name", game_names())
def test_long_fuzz(name: str) -> None:
    total = long_fuzz.fuzz_game(name, LONG_TIER_STEPS)
    assert total["steps"] >= LONG_TIER_STEPS * 0.99, total
