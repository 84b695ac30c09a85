"""What the in-kernel refusal of illegal actions costs a step (issue 25 item 2): every game's
`step` kernel refuses any in-range action its legal_mask would not allow, changing nothing, so
that no action, legal or not, sends a kernel outside its arrays.

    python benchmarks/refusal_cost.py [--games 1024] [--repeats 200] [--processes 3] [GAME ...]

Each game's kernels keep `step_unrefused`, the same step without the refusal, so the cost is
measured as a user meets it: `step` against `step_unrefused`, interleaved, best of each, in
three loops:

- the kernel alone (a loop of `step` over the same legal (state, action) pairs), one thread;
- the batch step (the game's generated `batch_step`, with the guard, the rewards and the
  restart of finished games, over `step`, against `batch_step_unrefused`, the same loop over
  `step_unrefused`, both rendered here from the codegen template), over the same pairs, one
  thread;
- the bench's batch row (`treasure_apps.bench.batch_python_loop`: observe, random legal
  actions, `BatchRunner.step`, 1,024 games on `--threads` threads, 1 by default: a thread
  that another process shares moves a 2-thread window by tens of percent), its checked
  runner stepping by one or the other in alternating windows of `--window` seconds: the cost
  as a training loop would meet it. The runner's checked path calls batch_step_unrefused (it
  has checked the actions against the masks), so there the refusal costs nothing by
  construction; this row says what it would cost, and the kernel and batch rows what the
  unchecked path (`check_actions=False`, where `step` refuses) pays for it.

Beside each, the noise: the same unrefused loop compiled twice and measured the same way (an
A/A pair). Each process's ratios are best-of figures; the table gives their mean over
`--processes` fresh processes, with the lowest and highest, because a loop's speed moves more
between processes (code layout, where the arrays land) than within one. The refusal costs
nothing measurable when its ratio is inside that spread. The states are snapshots of random
games at many stages (every SNAPSHOT_EVERY random steps), so every phase and action kind is in
the mix. A game whose kernels have no `step_unrefused` (its
`step` does not refuse) is listed as such. That the refusal is complete (no illegal action
played) is the adversarial module's count (treasure_core/adversarial.py, every in-range action
in real states, tests/test_adversarial.py).
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import numba
import numpy as np
from numba import njit

from treasure_apps.bench import batch_python_loop
from treasure_core import codegen
from treasure_core.batch import BatchRunner

SNAPSHOTS = 16
SNAPSHOT_EVERY = 7  # random steps between two snapshots
GAMES = ("pharaoh", "nakum", "nakbe", "karuba", "tomb")
PLAYERS = 3  # every game takes 3 players


def _kernels(name: str) -> ModuleType:
    """The game's kernels module."""
    return importlib.import_module(f"{name}_env.kernels")


def _loops(name: str) -> dict:
    """The loops over (state, action) pairs: a plain @njit loop of the kernel, and the
    generated batch_step (run on one thread), each with `step`, with `step_unrefused` and with
    `step_unrefused` again. numba compiles each on its own, so the last two are an A/A pair."""
    kernels = _kernels(name)

    def kernel_loop(decide):
        @njit
        def loop(states, actions):
            for i in range(states.shape[0]):
                decide(states[i], actions[i])

        return loop

    decides = (kernels.step, kernels.step_unrefused, kernels.step_unrefused)
    return {
        "kernel": tuple(kernel_loop(decide) for decide in decides),
        "batch": generated_batch_steps(name),
    }


_variants_dir = tempfile.TemporaryDirectory(prefix="refusal-cost-")


def generated_batch_steps(name: str) -> tuple:
    """The game's generated batch steps (treasure_core.codegen.render), compiled here from the
    template itself into two modules of their own, uncached: `batch_step` (over `step`) and
    `batch_step_unrefused` (over `step_unrefused`) from the first, and the second module's
    `batch_step_unrefused` (the A/A pair)."""
    package = f"{name}_env"
    source = codegen.render(package).replace("cache=True", "cache=False")
    if _variants_dir.name not in sys.path:
        sys.path.insert(0, _variants_dir.name)
    modules = []
    for index in range(2):
        module_name = f"refusal_cost_{name}_{index}"
        Path(_variants_dir.name, f"{module_name}.py").write_text(source)
        modules.append(importlib.import_module(module_name))
    return modules[0].batch_step, modules[0].batch_step_unrefused, modules[1].batch_step_unrefused


class SteppingBy:
    """A runner's live kernels (treasure_core.tiers.LiveKernels) with `step` as the
    batch_step_unrefused its checked path calls."""

    def __init__(self, live: Any, step: Any) -> None:
        self.live = live
        self.batch_step_unrefused = step

    def __getattr__(self, name: str) -> Any:
        return getattr(self.live, name)


def measure_bench_loop(
    name: str, games: int, rounds: int, window: float, threads: int, first: int
) -> tuple[float, float, float]:
    """Best steps per second of the bench's batch row (a checked runner) stepping by each of
    the three batch steps, in alternating windows, returned as seconds per step (so the ratios
    read as the others'): the refusing batch_step is what the checked path ran before it went
    to batch_step_unrefused."""
    runner = BatchRunner(name, games, seed=3, num_threads=threads, num_players=PLAYERS)
    variants = generated_batch_steps(name)
    live = runner._live
    rng = np.random.default_rng(3)
    for j in compile_order(first):
        runner._live = SteppingBy(live, variants[j])
        batch_python_loop(runner, rng, 0.0)
    best = [0.0] * 3
    for round_index in range(rounds):
        for shift in range(3):  # each round starts one variant later: no variant always first
            j = (round_index + shift) % 3
            runner._live = SteppingBy(live, variants[j])
            steps, seconds = batch_python_loop(runner, rng, window)
            best[j] = max(best[j], steps / seconds)
    return tuple(1.0 / figure for figure in best)


def pairs(name: str, games: int) -> tuple[np.ndarray, np.ndarray, BatchRunner]:
    """`games` states of random games at many stages, and a legal action for each."""
    per_snapshot = max(1, games // SNAPSHOTS)
    runner = BatchRunner(name, per_snapshot, seed=3, num_threads=1, num_players=PLAYERS)
    states, actions = [], []
    while sum(len(s) for s in states) < games:
        for _ in range(SNAPSHOT_EVERY):
            runner.step(runner.random_actions())
        states.append(runner.states.copy())
        actions.append(runner.random_actions().copy())
    return np.concatenate(states)[:games], np.concatenate(actions)[:games], runner


def compile_order(first: int) -> list[int]:
    """The three variants in the order to compile them, starting with `first`: where a
    variant's code lands moves its speed (by up to a quarter in one test of identical copies),
    so each process compiles a different one first."""
    return [(first + shift) % 3 for shift in range(3)]


def measure(name: str, games: int, repeats: int, first: int) -> dict[str, tuple[float, float, float]]:
    """Best-of-`repeats` seconds per loop kind: (step, apply, apply again)."""
    states, actions, runner = pairs(name, games)
    loops = _loops(name)
    rewards = np.zeros((games, runner.num_players), np.float32)
    dones = np.zeros(games, np.bool_)
    truncated = np.zeros(games, np.bool_)
    work = states.copy()

    def run(kind: str, loop) -> float:
        work[:] = states
        start = time.perf_counter()
        if kind == "kernel":
            loop(work, actions)
        else:
            numba.set_num_threads(1)
            loop(work, actions, runner.params, rewards, dones, truncated)
        return time.perf_counter() - start

    out = {}
    for kind, trio in loops.items():
        for j in compile_order(first):
            run(kind, trio[j])  # compile
        best = [float("inf")] * 3
        for repeat in range(repeats):
            for j in compile_order(repeat):  # no variant always first
                best[j] = min(best[j], run(kind, trio[j]))
        out[kind] = tuple(best)
    return out


def one_process(
    name: str, games: int, repeats: int, rounds: int, window: float, threads: int, first: int
) -> dict[str, list[float]]:
    """This process's figures: per loop kind, (step, unrefused, unrefused again) seconds per
    game (the bench loop: per game step)."""
    measured = measure(name, games, repeats, first)
    out = {kind: [float(value) / games for value in trio] for kind, trio in measured.items()}
    out["bench"] = [float(value) for value in measure_bench_loop(name, games, rounds, window, threads, first)]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--processes", type=int, default=3, help="fresh processes a game (default 3)")
    parser.add_argument("--rounds", type=int, default=6, help="bench-loop windows of each kind (default 6)")
    parser.add_argument("--window", type=float, default=0.5, help="seconds a bench-loop window (default 0.5)")
    parser.add_argument("--threads", type=int, default=1, help="the bench loop's threads (default 1)")
    parser.add_argument("--one-process", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)  # compiled first
    parser.add_argument("games_to_measure", nargs="*", metavar="GAME", help=f"default: {' '.join(GAMES)}")
    args = parser.parse_args(argv)
    if min(args.games, args.repeats, args.processes, args.rounds, args.threads) < 1 or args.window <= 0:
        parser.error("--games, --repeats, --processes, --rounds, --threads and --window must be positive")
    names = args.games_to_measure or list(GAMES)
    if args.one_process:  # a child: one game's figures as a JSON line
        figures = one_process(
            names[0], args.games, args.repeats, args.rounds, args.window, args.threads, args.first % 3
        )
        print(json.dumps(figures))
        return 0
    print(
        f"Mean of {args.processes} fresh processes (lowest–highest); "
        "µs per game (bench: per game step, observation and mask included)."
    )
    print("| game | loop | with the refusal | without | ratio | ratio's range | A/A | A/A's range |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for name in names:
        if not hasattr(_kernels(name), "step_unrefused"):
            print(f"| {name} | - | its step does not refuse (no step_unrefused) | | | | | |")
            continue
        child = [sys.executable, __file__, "--one-process", name, "--games", str(args.games)]
        child += ["--repeats", str(args.repeats), "--rounds", str(args.rounds), "--window", str(args.window)]
        child += ["--threads", str(args.threads)]
        runs = []
        for process in range(args.processes):
            first = ["--first", str(process % 3)]
            done = subprocess.run(child + first, check=True, capture_output=True, text=True)
            runs.append(json.loads(done.stdout.splitlines()[-1]))
        for kind in runs[0]:
            figures = np.array([run[kind] for run in runs])  # (processes, 3)
            ratios = figures[:, 0] / figures[:, 1]
            noise = figures[:, 2] / figures[:, 1]
            print(
                f"| {name} | {kind} | {figures[:, 0].mean() * 1e6:.3f} | {figures[:, 1].mean() * 1e6:.3f} "
                f"| {ratios.mean():.3f} | {ratios.min():.3f}–{ratios.max():.3f} "
                f"| {noise.mean():.3f} | {noise.min():.3f}–{noise.max():.3f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
