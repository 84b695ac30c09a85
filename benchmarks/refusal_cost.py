"""What the in-kernel refusal of illegal actions costs a step (issue 25 item 2): the step
kernels of Pharaoh (`kernels.action_legal`) and Nakum (`kernels.takes`) check the action before
they apply it, so that no in-range action, legal or not, sends them outside their arrays.

    python benchmarks/refusal_cost.py [--games 64] [--repeats 300]

Fair by construction: one process, the same states and the same legal actions, measured
interleaved (best of `repeats` each): the step kernel on every state (the check, then the
action), and the refusal check alone over the same (state, action) pairs, one thread. The share
printed is check / step. With the default 64 games every state stays in the cache, so both loops
are compute; with thousands (--games 4096) both stream the states from memory. The other three
games need no check (their kernels read only what every in-range action may index; the
bounds-checked adversarial pass, tests/test_adversarial.py, gives them every in-range action).
"""

from __future__ import annotations

import argparse
import sys
import time

from numba import njit

from treasure_core.batch import BatchRunner
from treasure_core.header import CURRENT_PLAYER

WARM_STEPS = 40  # random steps before the states are taken: a mix of game stages


def _loops(name: str):
    """Two @njit loops over (state, action) pairs, calling the game's kernel functions as globals
    (so numba compiles the calls in): its step kernel (which checks, then applies), and its
    refusal check alone."""
    if name == "pharaoh":
        from pharaoh_env.kernels import action_legal, step

        @njit
        def check_pharaoh(states, actions):
            kept = 0
            for i in range(states.shape[0]):
                kept += action_legal(states[i], actions[i])
            return kept

        @njit
        def step_pharaoh(states, actions):
            for i in range(states.shape[0]):
                step(states[i], actions[i])

        return step_pharaoh, check_pharaoh
    from nakum_env.kernels import step, takes

    @njit
    def check_nakum(states, actions):
        kept = 0
        for i in range(states.shape[0]):
            kept += takes(states[i], states[i, CURRENT_PLAYER], actions[i])
        return kept

    @njit
    def step_nakum(states, actions):
        for i in range(states.shape[0]):
            step(states[i], actions[i])

    return step_nakum, check_nakum


def measure(name: str, games: int, repeats: int) -> dict[str, float]:
    """Best-of-`repeats` seconds for stepping `games` states once and for the check alone."""
    runner = BatchRunner(name, games, seed=3, num_threads=1)
    for _ in range(WARM_STEPS):
        runner.step(runner.random_actions())
    states = runner.states.copy()
    actions = runner.random_actions().copy()
    step, check = _loops(name)
    assert check(states, actions) == games  # every action is legal: the check lets all through
    work = states.copy()
    best_step = best_check = float("inf")
    for _ in range(repeats):
        work[:] = states
        check(work, actions)  # the states into the cache, as the step's own check brings them
        start = time.perf_counter()
        step(work, actions)
        best_step = min(best_step, time.perf_counter() - start)
        work[:] = states
        start = time.perf_counter()
        check(work, actions)
        best_check = min(best_check, time.perf_counter() - start)
    return {"step": best_step, "check": best_check}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=300)
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be positive")
    print("| game | step kernel, µs per game | the refusal check alone | share of the step |")
    print("|---|---:|---:|---:|")
    for name in ("pharaoh", "nakum"):
        figures = measure(name, args.games, args.repeats)
        step_us = figures["step"] / args.games * 1e6
        check_us = figures["check"] / args.games * 1e6
        print(f"| {name} | {step_us:.3f} | {check_us:.3f} | {figures['check'] / figures['step']:.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
