"""`treasure-envs warmup [GAME ...]`: compile every kernel of the named games (all by default)
into numba's cache, one process per game on the free cores, so that the first env, batch or
RLlib worker of a fresh environment loads machine code instead of compiling it."""

from __future__ import annotations

import argparse
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from treasure_core import warmup
from treasure_core.registry import game_names, module_of, register


def _compile_in_process(name: str, module: str) -> tuple[str, dict[str, float], list[str]]:
    register(name, module)  # a game registered at run time is unknown to a fresh process
    stages = warmup.compile_game(name)
    return name, stages, [str(path) for path in warmup.cache_dirs(name)]


def _summary(stages: dict[str, float]) -> str:
    parts = ", ".join(f"{stage} {seconds:.1f}" for stage, seconds in stages.items() if stage != "total")
    return f"{stages['total']:.1f} s ({parts})"


def run_warmup(games: list[str], jobs: int) -> dict[str, dict[str, Any]]:
    """Compile each game in its own process, `jobs` at a time; returns each game's stages and
    cache directories, printing each game as it finishes."""
    results: dict[str, dict[str, Any]] = {}
    start = time.perf_counter()
    context = multiprocessing.get_context("spawn")  # no numba state inherited from this process
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [pool.submit(_compile_in_process, name, module_of(name)) for name in games]
        for done, future in enumerate(as_completed(futures), start=1):
            name, stages, caches = future.result()
            results[name] = {"stages": stages, "cache": caches}
            print(f"[{done}/{len(games)}] {name}: compiled or loaded in {_summary(stages)}", flush=True)
    caches = sorted({path for result in results.values() for path in result["cache"]})
    where = os.environ.get("NUMBA_CACHE_DIR")
    print(f"{len(games)} game(s) ready in {time.perf_counter() - start:.1f} s with {jobs} process(es)")
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
    jobs = min(len(games), args.jobs or warmup.free_cores())
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
        help="processes at once (default: the free cores, at most one a game)",
    )
    parser.set_defaults(run=cmd_warmup)
