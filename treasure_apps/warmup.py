"""`treasure-envs warmup [GAME ...]`: compile every kernel of the named games (all by default)
into numba's cache, on processes for the free cores, so that the first env, batch or RLlib
worker of a fresh environment loads machine code instead of compiling it. The processes share
each game's kernels by unit (treasure_core.warmup.UNITS): one compiles `step` while another
compiles the rest of the AEC driver, and so on, each kernel compiled once."""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from treasure_core import warmup
from treasure_core.registry import game_names

# The most processes one game keeps busy: its units are ready two at a time for most of the run.
JOBS_PER_GAME = 2


def run_warmup(games: list[str], jobs: int) -> dict[str, dict[str, Any]]:
    """Compile the games on `jobs` processes (treasure_core.warmup.run_units), printing each unit
    as it ends and each game when it is ready; returns run_units' figures."""
    start = time.perf_counter()
    units = {name: len(warmup.units_of(name)) for name in games}
    count = sum(units.values())
    ended: dict[str, list[str]] = {name: [] for name in games}

    def report(name: str, unit: str, seconds: float) -> None:
        ended[name].append(f"{unit} {seconds:.1f}")
        done = sum(map(len, ended.values()))
        print(f"[{done}/{count}] {name}: {unit} compiled or loaded in {seconds:.1f} s", flush=True)
        if len(ended[name]) == units[name]:
            figures = ", ".join(ended[name])
            print(f"{name} ready at {time.perf_counter() - start:.1f} s ({figures})", flush=True)

    processes = min(jobs, count)
    results = warmup.run_units(games, processes, on_unit=report)
    caches = sorted({path for result in results.values() for path in result["cache"]})
    where = os.environ.get("NUMBA_CACHE_DIR")
    print(f"{len(games)} game(s) ready in {time.perf_counter() - start:.1f} s with {processes} process(es)")
    print("numba cache" + (f" (NUMBA_CACHE_DIR={where})" if where else "") + ":")
    for path in caches:
        print(f"  {path}")
    return results


def cmd_warmup(args: argparse.Namespace) -> int:
    games = list(dict.fromkeys(args.games)) or game_names()
    unknown = [name for name in games if name not in game_names()]
    if unknown:
        raise ValueError(f"unknown game(s) {', '.join(unknown)}; choose from {', '.join(game_names())}")
    if args.jobs is not None and args.jobs < 1:
        raise ValueError(f"--jobs must be at least 1; got {args.jobs}")
    jobs = min(JOBS_PER_GAME * len(games), args.jobs or warmup.free_cores())
    run_warmup(games, jobs)
    return 0


def add_subcommand(sub: Any) -> None:
    parser = sub.add_parser(
        "warmup", help="compile every kernel of the games into numba's cache (run once per environment)"
    )
    parser.add_argument(
        "games",
        nargs="*",
        metavar="GAME",
        help=f"games to compile, any of {', '.join(game_names())} (default: every game)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        help=f"processes at once (default: the free cores, at most {JOBS_PER_GAME} a game)",
    )
    parser.set_defaults(run=cmd_warmup)
