"""Where a game's cold start goes: numba compile time per kernel, and kernels compiled more
than once.

For each registered game (or those named), a fresh interpreter with an empty numba cache runs
the start-up script of `treasure-envs bench` (first reset, one random AEC game, a BatchRunner's
first step, a random_playout), then lists every @njit function of the game's package and of
treasure_core that was compiled, with numba's own timers: the whole compile and its LLVM part.
A function compiled for several signatures (an int32 argument here, an int64 there, or a literal)
is compiled, and linked into its callers, once per signature: a cold-start cost worth removing.

    python benchmarks/compile_profile.py [GAME ...]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

from treasure_apps.bench import START_SCRIPT
from treasure_core.registry import game_names, module_of

INSPECT_SCRIPT = """
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


def profile(game: str) -> list[dict[str, object]]:
    with tempfile.TemporaryDirectory(prefix="treasure-compile-") as cache_dir:
        done = subprocess.run(
            [sys.executable, "-c", START_SCRIPT + INSPECT_SCRIPT, game, module_of(game)],
            capture_output=True,
            text=True,
            env=dict(os.environ, NUMBA_CACHE_DIR=cache_dir),
            check=True,
        )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(games: list[str]) -> int:
    for game in games or game_names():
        rows = sorted(profile(game), key=lambda row: -row["seconds"])
        print(f"\n{game}: {len(rows)} compiled signatures; a caller's seconds include compiling its callees")
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
