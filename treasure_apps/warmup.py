"""`treasure-envs warmup [GAME ...]`: compile every kernel of the named games (all by default)
into numba's cache, one process per game on the free cores, so that the first env, batch or
RLlib worker of a fresh environment loads machine code instead of compiling it. Where the free
cores outnumber the games, a game is compiled in two processes at once (PARTS)."""

from __future__ import annotations

import argparse
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from treasure_core import warmup
from treasure_core.registry import game_names, module_of, register

# A game's stages in two parts, for two processes: the batch forms (each a parallel kernel that
# links the whole game again) take about as long as the rest together. Each part compiles the
# AEC driver's kernels it starts from ("aec" runs always), a few seconds done twice.
PARTS = (("batch",), tuple(stage for stage in warmup.STAGES if stage not in ("aec", "batch")))


def plan(games: list[str], jobs: int) -> list[tuple[str, tuple[str, ...]]]:
    """The processes' work: (game, stages) pairs, each game whole, except that the first
    `jobs - len(games)` games (the cores beyond one a game) are each split into PARTS."""
    split = set(games[: max(0, jobs - len(games))])
    return [(name, part) for name in games for part in (PARTS if name in split else (warmup.STAGES,))]


def _compile_in_process(
    name: str, module: str, stages: tuple[str, ...]
) -> tuple[str, tuple[str, ...], dict[str, float], list[str]]:
    register(name, module)  # a game registered at run time is unknown to a fresh process
    seconds = warmup.compile_game(name, stages)
    return name, stages, seconds, [str(path) for path in warmup.cache_dirs(name)]


def _summary(stages: dict[str, float]) -> str:
    parts = ", ".join(f"{stage} {seconds:.1f}" for stage, seconds in stages.items() if stage != "total")
    return f"{stages['total']:.1f} s ({parts})"


def run_warmup(games: list[str], jobs: int) -> dict[str, dict[str, Any]]:
    """Compile the games on `jobs` processes (plan); returns each game's stages (seconds; a game
    in two parts has each part's stages, "aec" the longer of the two, and as "total" the seconds
    from the start until its last part was done) and cache directories, printing each process's
    work as it finishes."""
    work = plan(games, jobs)
    processes = min(jobs, len(work))
    results: dict[str, dict[str, Any]] = {}
    start = time.perf_counter()
    context = multiprocessing.get_context("spawn")  # no numba state inherited from this process
    with ProcessPoolExecutor(max_workers=processes, mp_context=context) as pool:
        futures = [pool.submit(_compile_in_process, name, module_of(name), stages) for name, stages in work]
        for done, future in enumerate(as_completed(futures), start=1):
            name, stages, seconds, caches = future.result()
            whole = stages == warmup.STAGES
            label = name if whole else f"{name} ({', '.join(stages)})"
            print(f"[{done}/{len(work)}] {label}: compiled or loaded in {_summary(seconds)}", flush=True)
            if whole:
                results[name] = {"stages": seconds, "cache": caches}
                continue
            merged = results.setdefault(name, {"stages": {}, "cache": caches})["stages"]
            for stage, value in seconds.items():
                merged[stage] = max(value, merged.get(stage, 0.0))
            merged["total"] = time.perf_counter() - start
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
    jobs = min(len(PARTS) * len(games), args.jobs or warmup.free_cores())
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
        help="processes at once (default: the free cores, at most two a game)",
    )
    parser.set_defaults(run=cmd_warmup)
