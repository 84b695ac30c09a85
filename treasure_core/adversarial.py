"""Adversarial inputs for any game: corrupted and garbage states through every entry point.

A case is a state array: a real state from random play with one slot of one field set to the
edges of the field's range, just outside them, the int32 extremes or a random word; or random
garbage. Each case goes to `set_state` and to the batch runner's `set_states`. A refused case
must be a ValueError that changes nothing. An accepted one must be a game that plays on: every
entry point runs on it, observations stay in their spaces, the invariants hold, and random play
continues. Anything else (another exception, an observation out of [0, 1], a broken invariant)
is a failure, reported with the case.

Then every in-range action, legal or not, goes to the `step` kernel in many real states, and
through the batch step of `BatchRunner(check_actions=False)` (`every_action`): the drivers
check legality before a kernel sees an action, but that runner and a user's own loop do not,
and no kernel may read or write outside its arrays whatever in-range action it gets; each
illegal one should be refused, the state unchanged (the counts say how many were, and how
many were played somehow), and the runner's `refused` must mark exactly those.

An out-of-bounds access inside a kernel is silent in numba unless it was compiled with bounds
checking, and a segfault kills the process. So run the cases in a subprocess with
NUMBA_BOUNDSCHECK=1 and a numba cache directory of its own (numba's cache ignores the flag):

    NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=/tmp/nb python -m treasure_core.adversarial nakbe

`run_in_subprocess(game)` does exactly that; a crash there is a failure, not a dead test run.
`--no-batch` (`batch=False`) leaves the batch runner out: the generated batch kernel links the
game's kernels again, four times (a parallel kernel), and compiling it is much of a
bounds-checked run (Nakbe: 37 s of CPU with the seven batch forms it replaced, 21 s without).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from treasure_core.aec import TreasureAECEnv
from treasure_core.batch import BatchRunner
from treasure_core.game import GameSpec
from treasure_core.header import CURRENT_PLAYER, DECISIONS, HEADER_SIZE, NUM_PLAYERS, REWARD_MODE, TERMINAL
from treasure_core.layout import Field
from treasure_core.registry import get_game, module_of, register

INT32_MIN = int(np.iinfo(np.int32).min)
INT32_MAX = int(np.iinfo(np.int32).max)
SLOTS_PER_FIELD = 3  # the first slot, the last, and one at random
RANDOM_WORDS = 2  # random int32 words per probed slot
GARBAGE_STATES = 40
PLAY_ON_STEPS = 40  # random decisions after an accepted state
HEADER_FIELDS = (
    Field("NUM_PLAYERS", NUM_PLAYERS, 1, 0, 0),  # ranges filled in per env (see _header_fields)
    Field("CURRENT_PLAYER", CURRENT_PLAYER, 1, 0, 0),
    Field("TERMINAL", TERMINAL, 1, 0, 1),
    Field("REWARD_MODE", REWARD_MODE, 1, 0, 0),
    Field("DECISIONS", DECISIONS, 1, 0, INT32_MAX),
)


@dataclass
class Report:
    game: str
    options: dict[str, Any]
    tried: int = 0
    refused: int = 0
    played_on: int = 0
    actions: int = 0  # (state, in-range action) pairs given to the step kernel
    batch_actions: int = 0  # the same pairs through BatchRunner(check_actions=False)
    illegal_refused: int = 0  # of those, illegal ones the kernel refused (the state unchanged)
    illegal_played: int = 0  # illegal ones it played somehow (memory-safe, but not refused)
    failures: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"adversarial {self.game} {json.dumps(self.options, sort_keys=True)}: {self.tried} cases, "
            f"{self.refused} refused, {self.played_on} played on, {self.actions} actions stepped "
            f"({self.illegal_refused} illegal refused, {self.illegal_played} illegal played; "
            f"{self.batch_actions} through the unchecked batch step), "
            f"{len(self.failures)} failures"
        )


def _header_fields(env: TreasureAECEnv) -> tuple[Field, ...]:
    n = env.num_players
    mode = int(env.params[1])
    ranges = {"NUM_PLAYERS": (n, n), "CURRENT_PLAYER": (0, n - 1), "REWARD_MODE": (mode, mode)}
    return tuple(
        f._replace(low=ranges[f.name][0], high=ranges[f.name][1]) if f.name in ranges else f
        for f in HEADER_FIELDS
    )


def real_states(game: GameSpec, options: dict[str, Any], seed: int) -> list[np.ndarray]:
    """States from random play: the start, two from the middle, and the end."""
    env = TreasureAECEnv(game, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    states = [env.get_state()]
    while not env.is_over():
        env.step(int(rng.choice(np.flatnonzero(env.action_mask(env.agent_selection)))))
        states.append(env.get_state())
    picks = [0, len(states) // 3, 2 * len(states) // 3, len(states) - 1]
    return [states[i] for i in picks]


def _probe_values(part: Field, rng: np.random.Generator) -> list[int]:
    values = {part.low, part.high, part.low - 1, part.high + 1, INT32_MIN, INT32_MAX, -1}
    values |= {int(rng.integers(INT32_MIN, INT32_MAX, endpoint=True)) for _ in range(RANDOM_WORDS)}
    return sorted(v for v in values if INT32_MIN <= v <= INT32_MAX)


def cases(game: GameSpec, options: dict[str, Any], seed: int = 0) -> Iterator[tuple[str, np.ndarray]]:
    """(label, state) for every case: each field's probed slots and values on each real state,
    then garbage with a valid header, then garbage throughout."""
    if not game.state_fields:
        raise ValueError(f"{game.name}: GameSpec.state_fields is empty; every field needs its range")
    env = TreasureAECEnv(game, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    parts = _header_fields(env) + tuple(game.state_fields)
    for k, base in enumerate(real_states(game, options, seed)):
        for part in parts:
            slots = {part.start, part.stop - 1, int(rng.integers(part.start, part.stop))}
            for slot in sorted(slots)[:SLOTS_PER_FIELD]:
                for value in _probe_values(part, rng):
                    state = base.copy()
                    state[slot] = value
                    yield f"real state {k}, {part.name} slot {slot} = {value}", state
    size = env.dims.state_size
    for g in range(GARBAGE_STATES):
        state = rng.integers(INT32_MIN, INT32_MAX, size, endpoint=True).astype(np.int32)
        if g % 2 == 0:  # past the header's checks, into the game's validator
            state[:HEADER_SIZE] = env.get_state()[:HEADER_SIZE]
        yield f"garbage state {g}{' (valid header)' if g % 2 == 0 else ''}", state


def _features_ok(values: np.ndarray, what: str) -> None:
    if not (np.isfinite(values).all() and (values >= 0).all() and (values <= 1).all()):
        bad = np.flatnonzero(~((values >= 0) & (values <= 1)))
        raise AssertionError(f"{what} outside [0, 1] at {bad[:8].tolist()}")


def _snapshot(env: TreasureAECEnv) -> tuple:
    return (
        env.get_state().tobytes(),
        env.agent_selection,
        tuple(env.agents),
        repr(sorted(env.rewards.items())),
    )


def exercise(
    game: GameSpec, options: dict[str, Any], state: np.ndarray, seed: int = 0, batch: bool = True
) -> str:
    """ "refused" or "played on" for one case; AssertionError (or any other exception) is a
    failure of the game's validator or kernels. `batch`: the batch runner's entry points too."""
    env = TreasureAECEnv(game, render_mode="ansi", **options)
    env.reset(seed=seed)
    runner = BatchRunner(game, 2, seed=seed, num_threads=1, **options) if batch else None
    before = _snapshot(env)
    batch_before = runner.states.copy() if runner is not None else None
    try:
        env.set_state(state)
    except ValueError:
        if _snapshot(env) != before:
            raise AssertionError("a refused set_state changed the env") from None
        if runner is None:
            return "refused"
        try:
            runner.set_states(np.stack([state, state]))
        except ValueError:
            if not np.array_equal(runner.states, batch_before):
                raise AssertionError("a refused set_states changed the runner") from None
            return "refused"
        raise AssertionError("set_state refused the state, but set_states accepted it") from None
    try:
        game.check_invariants(env.get_state())
    except AssertionError as error:
        raise AssertionError(f"the validator accepted a state that breaks an invariant: {error}") from None
    for agent in env.possible_agents:
        _features_ok(env.features(agent), f"{agent}'s observation")
        mask = env.action_mask(agent)
        if not np.isin(mask, (0, 1)).all():
            raise AssertionError(f"{agent}'s mask holds values other than 0 and 1")
    _features_ok(env.state(), "state()")
    legal = env.legal_actions()
    if not env.is_over() and not legal:
        raise AssertionError("an accepted live state has no legal action")
    for action in legal[:8]:
        game.action_name(env.get_state(), action)
    env.render()
    game.render_rgb(env.get_state())
    for player in range(env.num_players):
        twin = env.resample_hidden(player, seed + player)
        game.check_state(twin, env.params)
        game.check_invariants(twin)
    if env.is_over():
        game.final_info(env.get_state())
    rng = np.random.default_rng(seed)
    for _ in range(PLAY_ON_STEPS):
        if env.is_over():
            break
        env.step(int(rng.choice(env.legal_actions())))
        game.check_invariants(env.get_state())
    if runner is None:
        return "played on"
    runner.set_states(np.stack([state, state]))
    masks = runner.legal_masks()
    _features_ok(runner.observe(), "the batch observation")
    live = ~runner.terminal()
    if (masks[live].sum(axis=1) == 0).any():
        raise AssertionError("the batch runner finds no legal action in a live game")
    actions = np.array([int(np.flatnonzero(m)[0]) if m.any() else 0 for m in masks], np.int64)
    if live.all():
        runner.step(actions)
    runner.random_playout(20, seed=seed)
    for row in runner.states:
        game.check_invariants(row)
    return "played on"


ACTION_GAMES = 3  # random games whose states take every in-range action
ACTION_STATES = 40  # of each game's states, about this many, evenly spread


def every_action(
    game: GameSpec, options: dict[str, Any], seed: int, report: Report, batch: bool = True
) -> None:
    """Every in-range action, legal or not, through `kernels.step` on copies of real states of
    random play (the start, the end and evenly spread states between). The kernel must not
    raise (with bounds checking on, an out-of-bounds access raises IndexError) nor refuse a
    legal action (a failure); an action legal_mask does not allow the player to act should be
    refused, the state unchanged (counted: `illegal_refused`, or `illegal_played` when the
    kernel played it somehow). `batch`: the same actions through the unchecked batch step too."""
    env = TreasureAECEnv(game, **options)
    step, legal_mask = game.kernels.step, game.kernels.legal_mask
    mask = np.zeros(env.dims.n_actions, np.int8)
    # The same actions through the batch runner's unchecked path, one game per action: its
    # batch_step must refuse exactly what step refuses, and say so in `refused`.
    runner = (
        BatchRunner(game, env.dims.n_actions, seed=seed, num_threads=1, check_actions=False, **options)
        if batch
        else None
    )
    every_action_index = np.arange(env.dims.n_actions, dtype=np.int64)
    for g in range(ACTION_GAMES):
        env.reset(seed=seed + g)
        rng = np.random.default_rng(seed + g)
        states = [env.get_state()]
        while not env.is_over():
            env.step(int(rng.choice(env.legal_actions())))
            states.append(env.get_state())
        every = max(1, len(states) // ACTION_STATES)
        for k, state in enumerate(states[::every]):
            if state[TERMINAL]:
                continue
            legal_mask(state, int(state[CURRENT_PLAYER]), mask)
            unchanged_by_step = np.zeros(env.dims.n_actions, np.bool_)
            for action in range(env.dims.n_actions):
                report.actions += 1
                after = state.copy()
                try:
                    step(after, action)
                except Exception as error:  # any error of a kernel is a failure
                    phase = game.phases[game.kernels.phase(state)]
                    report.failures.append(
                        f"game {g} state {k * every} ({phase}): step(state, {action}): "
                        f"{type(error).__name__}: {error}"
                    )
                    continue
                unchanged = unchanged_by_step[action] = np.array_equal(after, state)
                if mask[action] and unchanged:  # a decision counts in DECISIONS at least
                    report.failures.append(
                        f"game {g} state {k * every}: the legal action {action} was refused"
                    )
                elif not mask[action]:
                    if unchanged:
                        report.illegal_refused += 1
                    else:
                        report.illegal_played += 1
            if runner is None or game.truncated(state, env.params):
                continue  # the batch step restarts a game its guard has cut, whatever the action
            runner._states[:] = state  # a real state of this game: set_states would check it again
            runner._masks_fresh = False
            try:
                runner.step(every_action_index)
            except Exception as error:
                report.failures.append(f"game {g} state {k * every}: the unchecked batch step: {error!r}")
                continue
            report.batch_actions += env.dims.n_actions
            differs = np.flatnonzero(runner.refused != unchanged_by_step)
            if differs.size:
                report.failures.append(
                    f"game {g} state {k * every}: the unchecked batch step's `refused` differs from "
                    f"what step refused for actions {differs[:8].tolist()}"
                )


def run(
    game: GameSpec | str,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    max_cases: int | None = None,
    batch: bool = True,
) -> Report:
    """Every case of `cases`, each through `exercise`, then `every_action` (unless max_cases
    limits the run); the counts and the failures. `batch=False` leaves out the batch runner's
    entry points (the generated batch kernel, whose compile is much of a bounds-checked run's)."""
    spec = get_game(game) if isinstance(game, str) else game
    options = dict(options or {})
    report = Report(spec.name, options)
    for label, state in cases(spec, options, seed):
        if max_cases is not None and report.tried >= max_cases:
            break
        report.tried += 1
        try:
            outcome = exercise(spec, options, state, seed, batch)
        except Exception as error:  # a failure of the game: reported with its case
            report.failures.append(f"{label}: {type(error).__name__}: {error}")
            continue
        if outcome == "refused":
            report.refused += 1
        else:
            report.played_on += 1
    if max_cases is None:
        every_action(spec, options, seed, report, batch)
    return report


def run_in_subprocess(
    game: str, options: dict[str, Any] | None = None, seed: int = 0, timeout: float = 1800, batch: bool = True
) -> tuple[int, str]:
    """Run `run` for a registered game in a fresh interpreter with numba's bounds checking on
    (its own cache directory, kept between runs in the system's temporary folder). Returns
    (exit code, output); a crash is a non-zero code, never this process's death."""
    cache = os.path.join(tempfile.gettempdir(), "treasure-envs-boundscheck-cache")
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=cache, PYTHONFAULTHANDLER="1")
    command = [sys.executable, "-m", "treasure_core.adversarial", game, "--module", module_of(game)]
    command += ["--options", json.dumps(options or {}), "--seed", str(seed)]
    command += [] if batch else ["--no-batch"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout + done.stderr


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--module", help="register the game from this module first")
    parser.add_argument("--options", default="{}", help="the game's options, as JSON")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-cases", type=int, default=None)
    parser.add_argument(
        "--no-batch", action="store_true", help="leave out the batch runner's entry points (their compile)"
    )
    args = parser.parse_args(argv)
    if args.module:
        register(args.game, args.module)
    report = run(args.game, json.loads(args.options), args.seed, args.max_cases, batch=not args.no_batch)
    print(report.line())
    for failure in report.failures[:20]:
        print("  FAIL", failure)
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
