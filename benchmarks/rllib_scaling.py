"""Sampling throughput on Ray RLlib: the plain and the vectorised adapter, 1 and 2 env runners,
beside the stable-baselines3 path (`treasure-envs train`), as ratios within one run; and a
worker's start with and without numba's cache.

    python benchmarks/rllib_scaling.py                  # nakbe, 2 players
    python benchmarks/rllib_scaling.py --game karuba --players 4 --seconds 20

What is counted: agent steps, i.e. decisions of the seats RLlib plays (every seat here: no
scripted seats), sampled by the env runners with PPO's exploration forward passes (masked
ActionMaskingTorchRLModule), not counting the learner. The sb3 figure is `treasure-envs
train`'s learner decisions per second, PPO updates included (its opponents' decisions are not
counted), so it is an upper bound of neither: it is the number a user sees today. Every figure
is divided by the plain adapter with one env runner of the same run. Writes
benchmarks/results/rllib_scaling.json and prints the markdown table (docs/distributed.md).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("NUMBA_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parent.parent


def sample_rate(game: str, options: dict, runners: int, games_per_env: int, seconds: float) -> dict:
    """Agent steps/s sampled by `runners` env runners (0: the driver's own) over `seconds`."""
    from treasure_apps.rllib_train import RLlibTrainConfig, build_config
    from treasure_core.registry import get_game

    config = RLlibTrainConfig(
        num_env_runners=runners, games_per_env=games_per_env, bot_share=0.0, train_batch=1000
    )
    algo = build_config(get_game(game), options, config).build_algo()
    fragment = 200 if games_per_env == 1 else max(20, 200 // games_per_env)

    def sample(runner: object) -> int:
        episodes = runner.sample(num_timesteps=fragment, random_actions=False)
        return int(sum(episode.agent_steps() for episode in episodes))

    group = algo.env_runner_group
    remote = runners > 0
    group.foreach_env_runner(sample, local_env_runner=not remote)  # warm: first forward passes
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += sum(group.foreach_env_runner(sample, local_env_runner=not remote))
    elapsed = time.perf_counter() - start
    algo.stop()
    return {
        "runners": runners,
        "games_per_env": games_per_env,
        "agent_steps": steps,
        "seconds": elapsed,
        "steps_per_s": steps / elapsed,
    }


def sb3_rate(game: str, options: dict, steps: int) -> dict:
    """`treasure-envs train` (MaskablePPO, 16 games in one process): learner decisions/s."""
    from treasure_apps.train import TrainConfig, train

    with tempfile.TemporaryDirectory() as out:
        config = TrainConfig(steps=steps, eval_every=10**9, checkpoint_every=10**9, snapshot_every=steps // 2)
        start = time.perf_counter()
        train(game, out, config, progress=False, **options)
        elapsed = time.perf_counter() - start
    return {"steps": steps, "seconds": elapsed, "steps_per_s": steps / elapsed}


def worker_start(game: str, players: int) -> dict:
    """A fresh process: launch -> the game's kernels ready (treasure_adapters.rllib.warm_up),
    with an empty numba cache (cold: compiles) and then with the cache it left (warm)."""
    code = (
        "import time; t = time.perf_counter(); from treasure_adapters.rllib import warm_up; "
        f"w = warm_up({game!r}, num_players={players}); print(time.perf_counter() - t, w)"
    )
    out = {}
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for label in ("cold", "warm"):
            start = time.perf_counter()
            text = subprocess.run(
                [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True, cwd=ROOT
            ).stdout.split()
            out[label] = {
                "launch_to_ready_s": time.perf_counter() - start,
                "in_process_s": float(text[0]),
                "warm_up_s": float(text[1]),
            }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="nakbe")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=15.0, help="sampling time per configuration")
    parser.add_argument("--games-per-env", type=int, default=16, help="the vectorised adapter's games")
    parser.add_argument("--sb3-steps", type=int, default=16_384)
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "rllib_scaling.json"))
    args = parser.parse_args()
    options = {"num_players": args.players}

    from treasure_apps.rllib_train import init_ray

    load = os.getloadavg()[0]
    starts = worker_start(args.game, args.players)
    init_ray(None, num_cpus=2)
    rows = []
    for games_per_env in (1, args.games_per_env):
        for runners in (1, 2):
            row = sample_rate(args.game, options, runners, games_per_env, args.seconds)
            rows.append(row)
            print(
                f"games_per_env={games_per_env} runners={runners}: {row['steps_per_s']:,.0f} agent steps/s",
                flush=True,
            )
    import ray

    ray.shutdown()
    sb3 = sb3_rate(args.game, options, args.sb3_steps)
    print(f"sb3 treasure-envs train: {sb3['steps_per_s']:,.0f} learner steps/s", flush=True)
    base = rows[0]["steps_per_s"]
    lines = [
        f"| path ({args.game}, {args.players} players) | env runners | agent steps/s | × plain, 1 runner |",
        "|---|---:|---:|---:|",
    ]
    for row in rows:
        k = row["games_per_env"]
        name = "plain adapter" if k == 1 else f"vectorised, {k} games per env"
        lines.append(
            f"| RLlib sampling, {name} | {row['runners']} | {row['steps_per_s']:,.0f} | "
            f"{row['steps_per_s'] / base:.2f}× |"
        )
    lines.append(
        f"| sb3 `treasure-envs train` (learner steps, PPO updates included) | – | "
        f"{sb3['steps_per_s']:,.0f} | {sb3['steps_per_s'] / base:.2f}× |"
    )
    table = "\n".join(lines)
    cold, warm = starts["cold"], starts["warm"]
    start_line = (
        f"Worker start, launch to kernels ready: {cold['launch_to_ready_s']:.1f} s without numba's "
        f"cache ({cold['warm_up_s']:.1f} s compiling), {warm['launch_to_ready_s']:.1f} s with it "
        f"({warm['warm_up_s']:.1f} s loading)."
    )
    cpu = platform.processor() or platform.machine()
    machine = f"{cpu}, {os.cpu_count()} cpus, load average {load:.2f} before"
    print(f"\n{table}\n\n{start_line}\n({machine}; {args.seconds:.0f} s per figure)")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    record = {"game": args.game, "options": options, "rllib": rows, "sb3": sb3}
    record |= {"worker_start": starts, "machine": machine, "table": table}
    Path(args.out).write_text(json.dumps(record, indent=2))


if __name__ == "__main__":
    main()
