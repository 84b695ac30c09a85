"""Where a game's cold start goes: numba compile time per kernel, and kernels compiled more
than once.

For each registered game (or those named), a fresh interpreter with an empty numba cache runs
the start-up script of `treasure-envs bench` (first reset, one random AEC game, a BatchRunner's
first step, a random_playout), under TREASURE_ENVS_JIT=compile (every kernel compiled in that
process, on its first call: no Python twins, no background compile), then lists every @njit
function of the game's package and of treasure_core that was compiled, with numba's own timers:
the whole compile and its LLVM part.
A function compiled for several signatures (an int32 argument here, an int64 there, or a literal)
is compiled, and linked into its callers, once per signature: a cold-start cost worth removing.

The totals do not double-count: a caller's timer includes its callees' compiles, so the totals
are the union of the intervals numba held its compiler lock (or LLVM lock) in the whole run. The
start-up stages are seconds from launching the interpreter, and the process's CPU seconds are
given too: the machine may be shared, and CPU time is less inflated by others' load.

    python benchmarks/compile_profile.py [GAME ...]
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

from treasure_apps.bench import START_SCRIPT, START_STAGES
from treasure_core.registry import game_names, module_of

# Run before START_SCRIPT: record every interval numba holds its compiler and LLVM locks.
RECORD_SCRIPT = """
import time as _time
from numba.core import event as _event
class _Intervals(_event.Listener):
    def __init__(self):
        self.spans, self._open = [], []
    def on_start(self, event):
        self._open.append(_time.perf_counter())
    def on_end(self, event):
        self.spans.append((self._open.pop(), _time.perf_counter()))
_locks = {"compiler_lock": _Intervals(), "llvm_lock": _Intervals()}
for _kind, _listener in _locks.items():
    _event.register(f"numba:{_kind}", _listener)
"""

INSPECT_SCRIPT = """
def _union(spans):
    total, reach = 0.0, float("-inf")
    for start, end in sorted(spans):
        if end > reach:
            total += end - max(start, reach)
            reach = end
    return total
print(json.dumps({kind: _union(listener.spans) for kind, listener in _locks.items()}))
import json, sys
from numba.core.registry import CPUDispatcher
packages = ("treasure_core", sys.argv[2])
rows = []
for name, module in list(sys.modules.items()):
    if not name.startswith(packages):
        continue
    for attribute, value in vars(module).items():
        if isinstance(value, CPUDispatcher) and value.__module__ == name:
            for signature in value.signatures:
                timers = value.get_metadata(signature).get("timers", {})
                rows.append({
                    "function": f"{name}.{attribute}",
                    "signature": str(signature),
                    "signatures": len(value.signatures),
                    "seconds": timers.get("compiler_lock", 0.0),
                    "llvm_seconds": timers.get("llvm_lock", 0.0),
                })
print(json.dumps(rows))
"""


def profile(game: str) -> tuple[dict[str, float], list[dict[str, object]]]:
    """The run's totals (stages, CPU seconds, compile and LLVM seconds) and one row per
    compiled signature."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory(prefix="treasure-compile-") as cache_dir:
        launched = time.time()
        done = subprocess.run(
            [sys.executable, "-c", RECORD_SCRIPT + START_SCRIPT + INSPECT_SCRIPT, game, module_of(game)],
            capture_output=True,
            text=True,
            # Every kernel compiled in the profiled process, where the timers see it (not by a
            # background process while the Python twins run: treasure_core.tiers).
            env=dict(os.environ, NUMBA_CACHE_DIR=cache_dir, TREASURE_ENVS_JIT="compile"),
            check=True,
        )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    stamps, locks, rows = (json.loads(line) for line in done.stdout.strip().splitlines()[-3:])
    totals = {stage: stamp - launched for stage, stamp in stamps.items()}
    totals["cpu_seconds"] = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    return totals | {f"{kind}_seconds": seconds for kind, seconds in locks.items()}, rows


def main(games: list[str]) -> int:
    print(f"load average {' '.join(f'{load:.1f}' for load in os.getloadavg())}")
    for game in games or game_names():
        totals, rows = profile(game)
        rows.sort(key=lambda row: -row["seconds"])
        repeated_count = len({row["function"] for row in rows if row["signatures"] > 1})
        print(
            f"\n{game}: {len(rows)} compiled signatures, {repeated_count} function(s) with more than one; "
            f"compiling {totals['compiler_lock_seconds']:.1f} s, LLVM {totals['llvm_lock_seconds']:.1f} s, "
            f"CPU {totals['cpu_seconds']:.1f} s"
        )
        print("  seconds from launch: " + ", ".join(f"{stage} {totals[stage]:.1f}" for stage in START_STAGES))
        print("a caller's seconds include compiling its callees")
        print(f"{'seconds':>8} {'llvm':>6}  function")
        for row in rows:
            if row["seconds"] >= 0.05:
                print(f"{row['seconds']:8.2f} {row['llvm_seconds']:6.2f}  {row['function']}")
        repeated: dict[str, list[str]] = {}
        for row in rows:
            if row["signatures"] > 1:
                repeated.setdefault(row["function"], []).append(row["signature"])
        if repeated:
            print("compiled for more than one signature:")
            for function, signatures in sorted(repeated.items()):
                print(f"  {function}: {' | '.join(sorted(signatures))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
