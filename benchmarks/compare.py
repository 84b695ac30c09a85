"""Compare `treasure-envs bench` runs: is a change slower than the noise between two runs of
the code before it?

    python benchmarks/compare.py before1/bench.json before2/bench.json after/bench.json

Every throughput figure is taken relative to the run's own reference (PettingZoo's
connect_four_v3 on the same AEC loop, measured in the same run), so a machine that is busier
in one run than in another moves every figure of that run alike and cancels out. For each
figure it prints the two "before" ratios, their spread (the noise: |a - b| / mean), the "after"
ratio and its change against the mean of the two before; a change is flagged when it is a drop
larger than the noise. Cold and cached start times are compared in seconds (lower is better).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def figures(run: dict[str, Any]) -> Iterator[tuple[str, float, bool]]:
    """(name, value, higher_is_better) for every figure of one run."""
    reference = run["reference"]["steps_per_second"]
    for game, result in run["games"].items():
        if "aec" in result:
            yield f"{game} AEC loop (x reference)", result["aec"]["steps_per_second"] / reference, True
        for row in result.get("batch_python", []):
            name = f"{game} batch x{row['batch_size']} from Python, {row['threads']} thread(s) (x reference)"
            yield name, row["steps_per_second"] / reference, True
        playout = result.get("playout", {})
        for kind in ("one_thread", "all_threads", "processes"):
            if kind in playout:
                name = f"{game} in-kernel playout, {kind.replace('_', ' ')} (x reference)"
                yield name, playout[kind]["steps_per_second"] / reference, True
        for kind, start in result.get("start", {}).items():
            for stage in ("reset", "first_game", "batch_ready", "playout_ready"):
                if isinstance(start.get(stage), float):
                    yield f"{game} {kind} start to {stage} (s)", start[stage], False


def main(paths: list[str]) -> int:
    if len(paths) != 3:
        sys.exit(__doc__)
    loaded = [json.loads(Path(path).read_text()) for path in paths]
    runs = [{name: value for name, value, _ in figures(run)} for run in loaded]
    better = {name: up for name, _, up in figures(loaded[0])}
    worse = 0
    print(f"{'figure':<72}{'before 1':>10}{'before 2':>10}{'noise':>8}{'after':>10}{'change':>9}")
    for name in runs[0]:
        if name not in runs[1] or name not in runs[2]:
            continue
        first, second, after = runs[0][name], runs[1][name], runs[2][name]
        mean = (first + second) / 2
        noise = abs(first - second) / mean
        change = (after - mean) / mean if better[name] else (mean - after) / mean
        flag = "  slower beyond the noise" if change < -noise else ""
        worse += bool(flag)
        print(f"{name:<72}{first:>10.3f}{second:>10.3f}{noise:>8.1%}{after:>10.3f}{change:>+9.1%}{flag}")
    print(f"{worse} figure(s) lower by more than the noise between the two before runs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
