"""The benchmark scripts that measure the kernels' rewrites run as the README of benchmarks/
writes them (their figures are read by a person, never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from treasure_core.registry import game_names

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def run_script(*arguments: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / arguments[0]), *arguments[1:]],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.splitlines()


def test_draw_speed_at_its_defaults_times_both_walks_on_every_game() -> None:
    lines = run_script("draw_speed.py")
    assert lines[0].split() == ["game", "actions", "legal", "branching", "ns", "nth_legal", "ns", "ratio"]
    rows = [line.split() for line in lines[1:]]
    assert [row[0] for row in rows] == list(game_names())
    assert all(float(row[3]) > 0 and float(row[4]) > 0 and float(row[5]) > 0 for row in rows)


def test_observe_speed_kernel_gives_the_observe_and_mask_kernels() -> None:
    lines = run_script(
        "observe_speed.py", "nakbe", "--kernel", "--no-pgx", "--seconds", "0.2", "--threads", "1"
    )
    header = lines[-2].split()
    assert header[:5] == ["game", "thr", "observe", "kernel", "masks"]
    row = dict(zip(header, lines[-1].split(), strict=False))  # no Pgx: no ratio in the row
    assert row["game"] == "nakbe" and float(row["masks"]) > 0 and float(row["kernel"]) > 0
