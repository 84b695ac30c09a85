"""What the in-kernel refusal of illegal actions costs a step (issue 25 item 2): every game's
`step` kernel refuses any in-range action its legal_mask would not allow, changing nothing, so
that no action, legal or not, sends a kernel outside its arrays.

    python benchmarks/refusal_cost.py [--games 1024] [--repeats 200] [GAME ...]

Each game's kernels keep `step_unrefused`, the same step without the refusal, so the cost is
measured as a user meets it: the same legal (state, action) pairs, stepped by `step` and by
`step_unrefused`, one thread, interleaved, best of `repeats` each, in two loops:

- the kernel alone (a loop of `step` over the pairs);
- the batch step (the generated `batch_step`'s loop, with the guard, the rewards and the
  restart of finished games, written out here once with `step` and once with
  `step_unrefused`).

Beside each, the noise: the same unrefused loop compiled twice and measured the same way (an
A/A pair). The refusal costs nothing measurable when its ratio is inside that noise. The
states are snapshots of random games at many stages (every SNAPSHOT_EVERY random steps), so
every phase and action kind is in the mix. A game whose kernels have no `step_unrefused` (its
`step` does not refuse) is listed as such. That the refusal is complete (no illegal action
played) is the adversarial module's count (treasure_core/adversarial.py, every in-range action
in real states, tests/test_adversarial.py).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time

import numpy as np
from numba import njit

from treasure_core.batch import BatchRunner
from treasure_core.header import TERMINAL
from treasure_core.kernels import guard_reached, next_seed

SNAPSHOTS = 16
SNAPSHOT_EVERY = 7  # random steps between two snapshots
GAMES = ("pharaoh", "nakum", "nakbe", "karuba", "tomb")
PLAYERS = 3  # every game takes 3 players


def _modules(name: str):
    """The game's kernels, batch and state modules."""
    return tuple(importlib.import_module(f"{name}_env.{part}") for part in ("kernels", "batch", "state"))


def _loops(name: str) -> dict:
    """The @njit loops over (state, action) pairs, calling the game's kernel functions as
    globals (so numba compiles the calls in). numba compiles each closure on its own, so the
    two `step_unrefused` loops are an A/A pair."""
    kernels, batch, state_module = _modules(name)
    init, step, step_unrefused = kernels.init, kernels.step, kernels.step_unrefused
    returns, GUARD_COUNTER = batch.returns, state_module.GUARD_COUNTER

    def kernel_loop(decide):
        @njit
        def loop(states, actions):
            for i in range(states.shape[0]):
                decide(states[i], actions[i])

        return loop

    def batch_loop(decide):
        # The generated batch_step's body (treasure_core/codegen.py), one thread.
        @njit
        def loop(states, actions, params, rewards_out, dones_out, truncated_out):
            for i in range(states.shape[0]):
                state = states[i]
                rewards_out[i, :] = 0.0
                dones_out[i] = False
                truncated_out[i] = False
                if state[TERMINAL] or guard_reached(state, params, GUARD_COUNTER):
                    init(state, params, next_seed(state))
                else:
                    decide(state, actions[i])
                    if state[TERMINAL]:
                        dones_out[i] = True
                        returns(state, rewards_out[i])
                        init(state, params, next_seed(state))
                    elif guard_reached(state, params, GUARD_COUNTER):
                        dones_out[i] = True
                        truncated_out[i] = True
                        init(state, params, next_seed(state))

        return loop

    return {
        "kernel": (kernel_loop(step), kernel_loop(step_unrefused), kernel_loop(step_unrefused)),
        "batch": (batch_loop(step), batch_loop(step_unrefused), batch_loop(step_unrefused)),
    }


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


def measure(name: str, games: int, repeats: int) -> dict[str, tuple[float, float, float]]:
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
            loop(work, actions, runner.params, rewards, dones, truncated)
        return time.perf_counter() - start

    out = {}
    for kind, trio in loops.items():
        for loop in trio:
            run(kind, loop)  # compile
        best = [float("inf")] * 3
        for _ in range(repeats):
            for j, loop in enumerate(trio):
                best[j] = min(best[j], run(kind, loop))
        out[kind] = tuple(best)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("games_to_measure", nargs="*", metavar="GAME", help=f"default: {' '.join(GAMES)}")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be positive")
    print("| game | loop | with the refusal, µs per game | without | ratio | A/A noise |")
    print("|---|---|---:|---:|---:|---:|")
    for name in args.games_to_measure or GAMES:
        if not hasattr(_modules(name)[0], "step_unrefused"):
            print(f"| {name} | - | its step does not refuse (no step_unrefused) | | | |")
            continue
        for kind, (step, apply, again) in measure(name, args.games, args.repeats).items():
            noise = abs(again / apply - 1)
            print(
                f"| {name} | {kind} | {step / args.games * 1e6:.3f} | {apply / args.games * 1e6:.3f} "
                f"| {step / apply:.3f} | ±{noise:.3f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
