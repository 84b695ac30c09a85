"""Where the batch-with-observations loop's time goes, per game, beside Pgx's jitted step.

    python benchmarks/observe_speed.py [GAME ...] [--seconds 2] [--threads 1 2] [--dtype float32]
                                       [--no-pgx] [--option NAME=VALUE ...]

The loop is `treasure-envs bench`'s batch row (treasure_apps.bench.batch_python_loop): 1,024
games, each step `observe(out=...)`, `random_actions()` and `step()`. Here each of the three
calls is timed on its own inside that loop (perf_counter around each; the games move on as in
the bench, so every stage of play is seen), and given in ns per game step; `loop` is their sum,
`× pgx` the loop's steps/s over Pgx's connect_four jitted step at batch 1024 (bench's own
subprocess script), measured in the same run. Each figure is the best of several windows.
--dtype uint8 times observe_dtype="uint8" (the bench's row is float32).

`--kernel` adds two more columns on the 1-thread rows, on fixed snapshots in CPU time (robust on
a busy machine): `kernel`, the observe kernel alone, the figure the encoders' rewrites are
judged by (tests/test_observe_digest.py checks that a rewrite keeps every feature bit for bit),
and `masks`, the batch legal-mask kernel alone (no draw), the legal masks' figure.

`--option NAME=VALUE` (repeatable, one option set as on the command line) measures each game
twice in the same run, at its defaults and then at that option set (a row of its own, beside the
same Pgx figure): `python benchmarks/observe_speed.py karuba --kernel --threads 1 --option
previews=false`.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numba
import numpy as np

from treasure_apps.bench import peer_pgx
from treasure_core.batch import BatchRunner
from treasure_core.options import parse_cli_value
from treasure_core.registry import game_names, get_game
from treasure_core.tiers import generated_kernel

N_GAMES = 1024
WARM_STEPS = 300  # random steps before timing: the games' stages spread out
WINDOWS = 5
SNAPSHOTS = 8
STEPS_BETWEEN = 23


def loop_breakdown(runner: BatchRunner, dtype: str, seconds: float, cpu: bool = False) -> dict[str, float]:
    """Best window's ns per game step of observe, random_actions and step (and their sum), in
    wall-clock time, or with `cpu` in CPU time (the window's length stays wall-clock)."""
    out = np.empty((N_GAMES, runner.dims.obs_size), dtype)
    actions = np.empty(N_GAMES, np.int64)
    rng = np.random.default_rng(0)
    clock = time.process_time if cpu else time.perf_counter
    windows = []
    for _ in range(WINDOWS + 1):  # the first window warms up
        observing = sampling = stepping = 0.0
        calls = 0
        deadline = time.perf_counter() + seconds / WINDOWS
        while time.perf_counter() < deadline:
            t0 = clock()
            runner.observe(out=out)
            t1 = clock()
            runner.random_actions(seed=int(rng.integers(1 << 62)), out=actions)
            t2 = clock()
            runner.step(actions)
            t3 = clock()
            observing += t1 - t0
            sampling += t2 - t1
            stepping += t3 - t2
            calls += 1
        scale = 1e9 / (calls * N_GAMES)
        window = {
            "observe": observing * scale,
            "random_actions": sampling * scale,
            "step": stepping * scale,
        }
        window["loop"] = sum(window.values())
        windows.append(window)
    return min(windows[1:], key=lambda window: window["loop"])


def snapshots(runner: BatchRunner) -> list[np.ndarray]:
    """SNAPSHOTS copies of the batch's states, STEPS_BETWEEN random steps apart."""
    states = []
    for k in range(SNAPSHOTS):
        runner.random_playout(STEPS_BETWEEN, seed=1 + k)
        states.append(runner.states.copy())
    return states


def least_cpu_ns(call: Callable[[np.ndarray], Any], states: list[np.ndarray], samples: int = 40) -> float:
    """The least CPU time per game of `call` over the snapshots, in ns: CPU seconds
    (process_time) leave out the time a busy machine keeps the process waiting, so the figure
    holds on a shared machine (1 thread only: more would count their spinning)."""
    call(states[0])
    best = float("inf")
    for _ in range(samples):
        start = time.process_time()
        for block in states:
            call(block)
        best = min(best, (time.process_time() - start) / (len(states) * N_GAMES))
    return best * 1e9


def kernel_ns(runner: BatchRunner, dtype: str) -> tuple[float, float]:
    """The observe kernel alone and the legal-mask kernel alone (batch_legal_mask, no draw) over
    fixed snapshots, ns per game in CPU time (least_cpu_ns)."""
    states = snapshots(runner)
    observe = generated_kernel(runner.game, "batch_observe_uint8" if dtype == "uint8" else "batch_observe")
    out = np.empty((N_GAMES, runner.dims.obs_size), dtype)
    masks = np.empty((N_GAMES, runner.dims.n_actions), np.int8)
    no_draw = np.empty(0, np.int64)
    return (
        least_cpu_ns(lambda block: observe(block, out), states),
        least_cpu_ns(lambda block: runner.kernels.batch_legal_mask(block, masks, 0, no_draw), states),
    )


def option_sets(game: str, pairs: list[str]) -> list[dict[str, Any]]:
    """The game's defaults, then (with `pairs`, NAME=VALUE) those options, checked: an unknown
    name or a bad value is a ValueError naming the option."""
    if not pairs:
        return [{}]
    spec = get_game(game)
    declared = {option.name: option for option in spec.options}
    chosen = {}
    for pair in pairs:
        name, _, text = pair.partition("=")
        if name not in declared:
            raise ValueError(f"{game}: unknown option {name!r}; allowed options are {', '.join(declared)}")
        chosen[name] = parse_cli_value(declared[name], text)
    spec.validate(chosen)
    return [{}, chosen]


def row_label(game: str, options: dict[str, Any]) -> str:
    return " ".join([game, *(f"{name}={value}" for name, value in options.items())])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games", nargs="*", help="default: every registered game")
    parser.add_argument("--seconds", type=float, default=2.0, help="per figure (default 2)")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--dtype", default="float32", choices=["float32", "uint8"])
    parser.add_argument(
        "--kernel", action="store_true", help="also the observe and legal-mask kernels alone (CPU time)"
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="our calls in CPU seconds (1 thread: a busy machine's waits left out; Pgx stays wall-clock)",
    )
    parser.add_argument("--no-pgx", action="store_true", help="skip Pgx (no ratio column)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, repeatable: each game is measured at its defaults, then at these options",
    )
    args = parser.parse_args()
    games = args.games or list(game_names())
    runs = [(game, options) for game in games for options in option_sets(game, args.option)]
    width = max(9, *(len(row_label(game, options)) + 1 for game, options in runs))
    pgx_ns = None
    if not args.no_pgx:
        pgx = peer_pgx(args.seconds)["pgx connect_four x1024 jitted step from Python"]
        pgx_ns = 1e9 / pgx["steps_per_second"]
        print(f"pgx connect_four x1024 jitted step: {pgx_ns:.0f} ns per game step")
    clock = "CPU" if args.cpu else "wall-clock"
    print(f"ns per game step ({clock}), {N_GAMES} games, {args.dtype}, best of {WINDOWS} windows")
    kernel_head = f"{'kernel':>9}{'masks':>9}" if args.kernel else ""
    columns = f"{'observe':>9}{kernel_head}{'actions':>9}{'step':>9}{'loop':>9}{'× pgx':>8}"
    print(f"{'game':<{width}}{'thr':>4}{columns}")
    for game, options in runs:
        for threads in args.threads:
            numba.set_num_threads(threads)
            runner = BatchRunner(
                game, N_GAMES, seed=0, num_threads=threads, observation_dtype=args.dtype, **options
            )
            runner.random_playout(WARM_STEPS, seed=0)
            figures = loop_breakdown(runner, args.dtype, args.seconds, args.cpu)
            kernel = ""
            if args.kernel and threads == 1:
                kernel = "".join(f"{figure:>9.0f}" for figure in kernel_ns(runner, args.dtype))
            elif args.kernel:
                kernel = f"{'':>18}"
            ratio = f"{pgx_ns / figures['loop']:>7.2f}x" if pgx_ns else ""
            print(
                f"{row_label(game, options):<{width}}{threads:>4}{figures['observe']:>9.0f}{kernel}"
                f"{figures['random_actions']:>9.0f}{figures['step']:>9.0f}{figures['loop']:>9.0f}{ratio}",
                flush=True,
            )


if __name__ == "__main__":
    main()
