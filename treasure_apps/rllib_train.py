"""Multi-agent PPO self-play on Ray RLlib (the new API stack), on one machine or a Ray cluster.

    treasure-envs train nakbe --engine rllib --players 2 --steps 500000 --out runs/nakbe_rllib
    treasure-envs train nakbe --engine rllib --num-env-runners 8 --address auto   # a cluster

One policy, "main", is shared by every seat RLlib plays; frozen past versions of it
("past_0".."past_{k-1}", refreshed from main every --snapshot-every steps, round robin) and the
game's scripted bot (played inside the env, `--fixed-share` of the seats) are its opponents, as
in the stable-baselines3 path (treasure_apps.train). Actions are masked by RLlib's
`ActionMaskingTorchRLModule` over the adapter's `observations` / `action_mask` observations.
Writes into the output folder:

    run.json          the game, its options and every setting ("engine": "rllib")
    checkpoint/       Algorithm.save_to_path at the end (and every --checkpoint-every steps);
                      `treasure-envs eval GAME --checkpoint OUT/checkpoint` evaluates main
    events.*          TensorBoard logs (RLlib's results per iteration, flattened)
    progress.csv      the same figures as CSV

The workers get OMP_NUM_THREADS=1 and NUMBA_NUM_THREADS=1 (runtime_env env_vars): without them
torch and numba each start a thread per core in every worker and a PPO iteration can take ten
times as long. Before the algorithm is built, one warm-up task per node compiles (or loads from
numba's cache) the game's kernels, so that env runners start warm (docs/distributed.md).

Needs the `rllib` extra (ray[rllib]) and the `train` extra (torch, tensorboard); ray is
imported only when training or loading an RLlib checkpoint starts.
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import os
import sys
import time
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from treasure_apps.arguments import check_gamma, parse_options
from treasure_apps.evaluate import EVAL_FILE
from treasure_apps.progress import PlainProgress, is_terminal
from treasure_apps.rllib_policy import (
    MAIN,
    RLLIB_EXTRA_HINT,
    RLlibPolicyAgent,
    load_rllib_policy,
)
from treasure_core.game import GameSpec, rules_options
from treasure_core.registry import get_game

WORKER_ENV_VARS = {"OMP_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


@dataclass
class RLlibTrainConfig:
    """Settings for `train(..., engine rllib)`; the defaults learn on 2 CPU cores."""

    steps: int = 300_000  # agent steps sampled (decisions of the seats RLlib plays)
    minutes: float = 0.0  # a wall-time budget instead (0: none); training stops at either
    num_env_runners: int = 1  # 0: sample in the driver
    games_per_env: int = 16  # games one env steps per call (the vectorised adapter); 1: plain
    envs_per_runner: int = 1
    address: str | None = None  # an existing Ray cluster ("auto", "ray://host:10001"); None: local
    seed: int = 0
    bot_share: float = 0.5  # the chance a seat is the scripted bot in a game
    snapshot_share: float = 0.5  # the chance an opponent seat RLlib plays is a past version
    max_snapshots: int = 4
    snapshot_every: int = 50_000  # steps between refreshing one past version from main
    checkpoint_every: int = 0  # steps between checkpoints (0: only at the end)
    train_batch: int = 4000  # agent steps per PPO iteration, about (train_batch / games_per_env env steps)
    minibatch_size: int = 512
    num_epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.995
    entropy_coeff: float = 0.01
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    rollout_fragment_length: int | str = "auto"
    warm_up: bool = True
    iterations: int = 0  # stop after this many PPO iterations (0: by steps or minutes only)
    eval_every: int = 0  # agent steps between points of the learning curve (eval.csv; 0: none)
    eval_games: int = 200  # games per opponent at each point


def _check(config: RLlibTrainConfig) -> None:
    positive = ["steps", "games_per_env", "envs_per_runner", "max_snapshots", "snapshot_every"]
    positive += ["train_batch", "minibatch_size", "num_epochs", "eval_games"]
    for name in positive:
        value = getattr(config, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer; got {value!r}")
    for name in ("num_env_runners", "checkpoint_every", "iterations", "eval_every"):
        value = getattr(config, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer; got {value!r}")
    for name in ("bot_share", "snapshot_share"):
        if not 0.0 <= getattr(config, name) <= 1.0:
            raise ValueError(f"{name} must be from 0 to 1; got {getattr(config, name)!r}")
    if config.minutes < 0:
        raise ValueError(f"minutes must be 0 (no budget) or positive; got {config.minutes!r}")
    check_gamma(config.gamma)


# -- the policy mapping (runs in the env runners) -------------------------------------------
_FIRST_SEAT: OrderedDict[tuple[str, int], int] = OrderedDict()  # (episode, game) -> main's seat


def map_agent_to_module(
    agent_id: str, episode: Any, n_past: int = 4, snapshot_share: float = 0.5, **kwargs: Any
) -> str:
    """The first seat of each game that RLlib plays is main; every other one is main or, with
    probability snapshot_share, one of the past versions (scripted seats never appear)."""
    from treasure_adapters.rllib import seat_of

    game, seat = seat_of(agent_id)
    key = (str(episode.id_), game)
    first = _FIRST_SEAT.setdefault(key, seat)
    while len(_FIRST_SEAT) > 100_000:
        _FIRST_SEAT.popitem(last=False)
    rng = np.random.default_rng(abs(hash((key, seat))) % 2**63)
    if seat == first or n_past == 0 or rng.random() >= snapshot_share:
        return MAIN
    return f"past_{int(rng.integers(n_past))}"


def _callbacks_class() -> type:
    from ray.rllib.callbacks.callbacks import RLlibCallback

    class TreasureCallbacks(RLlibCallback):
        """Per env runner: the agent steps sampled on each node (samples from both nodes, in the
        local-cluster test), and main's win rate and final reward in its games."""

        def on_sample_end(
            self, *, env_runner: Any = None, metrics_logger: Any = None, samples: Any = None, **kwargs: Any
        ) -> None:
            import ray

            node = ray.get_runtime_context().get_node_id() if ray.is_initialized() else "local"
            steps = sum(episode.agent_steps() for episode in samples)
            metrics_logger.log_value(("agent_steps_by_node", node), steps, reduce="lifetime_sum")

        def on_episode_end(self, *, episode: Any = None, metrics_logger: Any = None, **kwargs: Any) -> None:
            for agent, chunk in episode.agent_episodes.items():
                info = chunk.get_infos(-1)
                if info.get("game_over") and episode.module_for(agent) == MAIN:
                    metrics_logger.log_value("main_win_rate", float(info["winner"]), window=500)
                    metrics_logger.log_value("main_final_reward", float(info["final_reward"]), window=500)

    return TreasureCallbacks


def batch_sizes(config: RLlibTrainConfig) -> tuple[int, int]:
    """(train_batch_size_per_learner, minibatch_size) as RLlib counts them: batches are counted
    in env steps (count_steps_by="env_steps"), and one env step is up to games_per_env agent
    steps, so train_batch agent steps are about train_batch // games_per_env env steps; RLlib
    requires the minibatch to fit in that."""
    per_learner = max(1, config.train_batch // config.games_per_env)
    return per_learner, min(config.minibatch_size, per_learner)


def build_config(game: GameSpec, options: dict[str, Any], config: RLlibTrainConfig) -> Any:
    """The PPOConfig: the adapter, main + past versions, masking, the callbacks."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    from treasure_adapters.rllib import TreasureMultiAgentEnv

    per_learner, minibatch = batch_sizes(config)
    env_config = {
        "game": game.name,
        "games_per_env": config.games_per_env,
        "bot_share": config.bot_share,
        "seed": config.seed,
        **options,
    }
    modules = [MAIN] + [f"past_{i}" for i in range(config.max_snapshots)]
    model = {"fcnet_hiddens": list(config.net_arch), "fcnet_activation": "tanh", "vf_share_layers": False}
    spec = MultiRLModuleSpec(
        rl_module_specs={
            m: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model) for m in modules
        }
    )
    mapping = functools.partial(
        map_agent_to_module, n_past=config.max_snapshots, snapshot_share=config.snapshot_share
    )
    fragment = config.rollout_fragment_length
    return (
        PPOConfig()
        .environment(env=TreasureMultiAgentEnv, env_config=env_config, disable_env_checking=False)
        .framework("torch")
        .env_runners(
            num_env_runners=config.num_env_runners,
            num_envs_per_env_runner=config.envs_per_runner,
            num_cpus_per_env_runner=1,
            rollout_fragment_length=fragment,
            sample_timeout_s=600.0,
        )
        .multi_agent(
            policies=set(modules),
            policy_mapping_fn=mapping,
            policies_to_train=[MAIN],
            # Env steps, not agent steps: RLlib 2.60's agent-step count of a sample fails on an
            # agent that took no step in it (int(NaN)), as scripted and finished seats do.
            count_steps_by="env_steps",
        )
        .rl_module(rl_module_spec=spec)
        .training(
            train_batch_size_per_learner=per_learner,
            minibatch_size=minibatch,
            num_epochs=config.num_epochs,
            lr=config.learning_rate,
            gamma=config.gamma,
            entropy_coeff=config.entropy_coeff,
        )
        .learners(num_learners=0)
        .callbacks(_callbacks_class())
        .debugging(seed=config.seed, log_level="ERROR")
        .reporting(metrics_num_episodes_for_smoothing=100)
    )


def init_ray(address: str | None = None, **kwargs: Any) -> None:
    """Connect to a cluster (address) or start a local one, with the workers' env vars."""
    import ray

    # The driver's own process gets torch's thread counts only: numba re-reads NUMBA_NUM_THREADS
    # at every compile and refuses a new value once its threads run, so changing it here broke
    # the caller's later numba calls. The workers get all three through runtime_env.
    for name, value in WORKER_ENV_VARS.items():
        if not name.startswith("NUMBA_"):
            os.environ.setdefault(name, value)
    if not ray.is_initialized():
        ray.init(
            address=address,
            runtime_env={"env_vars": dict(WORKER_ENV_VARS)},
            include_dashboard=False,
            log_to_driver=False,
            logging_level="ERROR",
            **kwargs,
        )


def warm_up_nodes(game: str, options: dict[str, Any]) -> dict[str, float]:
    """One task per alive node compiles or loads the game's kernels there (numba's cache files
    next to the package); returns node id -> seconds. Env runners started after it load the
    cache instead of compiling, and do not race each other writing it."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    @ray.remote(num_cpus=0)
    def warm(name: str, game_options: dict[str, Any]) -> tuple[str, float]:
        from treasure_adapters.rllib import warm_up

        return ray.get_runtime_context().get_node_id(), warm_up(name, **game_options)

    from treasure_adapters.rllib import warm_up

    # The driver's node first, in the driver: a node sharing its file system (or its image)
    # then loads the cache instead of compiling it again at the same time.
    warm_up(game, **options)
    nodes = [node["NodeID"] for node in ray.nodes() if node.get("Alive")]
    refs = [
        warm.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node_id=node, soft=False)).remote(
            game, options
        )
        for node in nodes
    ]
    return dict(ray.get(refs))


def _flatten(prefix: str, value: Any, out: dict[str, float]) -> None:
    """Numeric leaves of RLlib's result as "a/b/c" keys, without the per-agent-id entries
    (games_per_env x players of them; the per-module ones stay)."""
    from treasure_adapters.rllib import is_agent_id

    if isinstance(value, dict):
        for key, item in value.items():
            if is_agent_id(key):
                continue
            _flatten(f"{prefix}/{key}" if prefix else str(key), item, out)
    elif isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
        if np.isfinite(value):
            out[prefix] = float(value)


def _agent_steps(result: dict[str, Any]) -> int:
    """Agent steps sampled so far (RLlib reports them per agent id)."""
    sampled = result.get("env_runners", {}).get("num_agent_steps_sampled_lifetime", 0)
    values = [float(v) for v in sampled.values()] if isinstance(sampled, dict) else [float(sampled)]
    return int(sum(v for v in values if np.isfinite(v)))  # an agent not seen yet: NaN


def refresh_snapshot(algo: Any, slot: str) -> None:
    """Copy main's weights into a past version, in the learner and in every env runner."""
    state = algo.get_module(MAIN).get_state()
    algo.set_state({"learner_group": {"learner": {"rl_module": {slot: state}}}})
    algo.env_runner_group.sync_weights(
        from_worker_or_learner_group=algo.learner_group, policies=[slot], inference_only=True
    )


class _Curve:
    """The learning curve: main's win rates (most probable moves) against random play and the
    game's bots every `eval_every` agent steps, into eval.csv as the sb3 engine writes it."""

    def __init__(
        self,
        game: GameSpec,
        options: dict[str, Any],
        config: RLlibTrainConfig,
        out: Path,
        start: float,
        progress: bool,
    ):
        from treasure_core.agents import agent_factory

        self.game, self.options, self.config, self.start, self.progress = (
            game,
            options,
            config,
            start,
            progress,
        )
        self.path = out / EVAL_FILE
        self.opponents = {name: agent_factory(game, name) for name in ["random", *game.bots]}
        self.next_at = 0 if config.eval_every else None
        if self.path.exists():
            self.path.unlink()  # a fresh run's curve

    def point(self, algo: Any, steps: int) -> None:
        if self.next_at is None or steps < self.next_at:
            return
        from treasure_apps.evaluate import log_win_rates

        module = algo.get_module(MAIN)  # the local env runner's copy, synced after each update
        learner = functools.partial(RLlibPolicyAgent, module, deterministic=True)
        minutes = (time.perf_counter() - self.start) / 60
        config = self.config
        log_win_rates(
            self.game,
            self.options,
            learner,
            self.opponents,
            config.eval_games,
            config.seed + 1,
            self.path,
            steps,
            minutes,
            self.progress,
        )
        self.next_at = steps + config.eval_every


def train(
    game: str | GameSpec,
    out_dir: str | Path,
    config: RLlibTrainConfig | None = None,
    progress: bool = True,
    log: Any = print,
    **options: Any,
) -> Path:
    """Train and return the checkpoint folder. `options` are the game's options."""
    try:
        import ray  # noqa: F401
        from torch.utils.tensorboard import SummaryWriter
    except ImportError as error:
        raise ValueError(f"training on RLlib {RLLIB_EXTRA_HINT} ({error})") from error
    game = get_game(game) if isinstance(game, str) else game
    config = config or RLlibTrainConfig()
    _check(config)
    options = rules_options(game.validate(options))
    if config.bot_share > 0 and not game.bots:
        raise ValueError(f"{game.name} has no scripted bot: give --fixed-share 0")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    settings = {"engine": "rllib", "game": game.name, "options": options, "config": asdict(config)}
    (out / "run.json").write_text(json.dumps(settings, indent=2) + "\n")

    init_ray(config.address)
    warm = warm_up_nodes(game.name, options) if config.warm_up else {}
    for node, seconds in warm.items():
        log(f"warm-up on node {node[:12]}: kernels ready in {seconds:.1f} s")
    algo = build_config(game, options, config).build_algo()
    for i in range(config.max_snapshots):
        refresh_snapshot(algo, f"past_{i}")  # version 0: the untrained main
    writer = SummaryWriter(str(out))
    checkpoint = out / "checkpoint"
    start = time.perf_counter()
    budget = config.minutes * 60 if config.minutes else None
    total = int(budget) if budget else config.steps
    bar = None
    plain = None
    if progress and is_terminal():
        from tqdm import tqdm

        bar = tqdm(total=total, desc=f"{game.name} rllib", unit="s" if budget else " steps")
    elif progress:
        plain = PlainProgress(total, f"{game.name} rllib", unit="s" if budget else "steps")
    steps = 0
    next_snapshot = config.snapshot_every
    next_checkpoint = config.checkpoint_every or None
    slot = 0
    rows: list[dict[str, float]] = []
    curve = _Curve(game, options, config, out, start, progress)
    try:
        curve.point(algo, 0)
        while True:
            result = algo.train()
            steps = _agent_steps(result)
            curve.point(algo, steps)
            elapsed = time.perf_counter() - start
            flat: dict[str, float] = {}
            _flatten("", result, flat)
            flat["steps_per_s"] = steps / max(elapsed, 1e-9)
            for key, value in flat.items():
                writer.add_scalar(key, value, steps)
            rows.append(
                {
                    "iteration": algo.iteration,
                    "agent_steps": steps,
                    "seconds": elapsed,
                    "main_win_rate": flat.get("env_runners/main_win_rate", float("nan")),
                    "main_final_reward": flat.get("env_runners/main_final_reward", float("nan")),
                    "steps_per_s": flat["steps_per_s"],
                }
            )
            done = min(int(elapsed), total) if budget else min(steps, total)
            if bar is not None:
                bar.update(done - bar.n)
                bar.set_postfix(win=f"{rows[-1]['main_win_rate']:.2f}", sps=f"{flat['steps_per_s']:.0f}")
            elif plain is not None:
                plain.update(done)
            if steps >= next_snapshot and config.max_snapshots:
                refresh_snapshot(algo, f"past_{slot % config.max_snapshots}")
                slot += 1
                next_snapshot += config.snapshot_every
            if next_checkpoint is not None and steps >= next_checkpoint:
                algo.save_to_path(str(checkpoint))
                next_checkpoint += config.checkpoint_every
            if (budget and elapsed >= budget) or (not budget and steps >= config.steps):
                break
            if config.iterations and algo.iteration >= config.iterations:
                break
        algo.save_to_path(str(checkpoint))
        summary = {
            "iterations": algo.iteration,
            "agent_steps": steps,
            "seconds": time.perf_counter() - start,
            "agent_steps_by_node": result.get("env_runners", {}).get("agent_steps_by_node", {}),
            "warm_up_seconds_by_node": warm,
        }
        (out / "summary.json").write_text(json.dumps(summary, indent=2, default=float) + "\n")
    finally:
        if bar is not None:
            bar.close()
        writer.close()
        with (out / "progress.csv").open("w", newline="") as file:
            if rows:
                table = csv.DictWriter(file, fieldnames=list(rows[0]))
                table.writeheader()
                table.writerows(rows)
        algo.stop()
    return checkpoint


# -- command line ----------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    from treasure_apps.train import finish, resolve

    try:
        if args.teacher is not None:
            raise ValueError("--teacher is for the sb3 engine (a warm start of MaskablePPO)")
        if args.opponents:
            raise ValueError("--opponents is for the sb3 engine; on RLlib the bot is the game's first")
        # PPO's own settings: as given, else RLlib's defaults (a recipe's are for a cloned start).
        defaults = RLlibTrainConfig()
        ppo = {
            "learning_rate": defaults.learning_rate if args.learning_rate is None else args.learning_rate,
            "entropy_coeff": defaults.entropy_coeff if args.ent_coef is None else args.ent_coef,
            "net_arch": list(defaults.net_arch if args.net_arch is None else args.net_arch),
        }
        resolve(args)  # --recipe's players, options, budget and curve; the plain defaults
        game = get_game(args.game)
        options = parse_options(game, args.option, args.players, getattr(args, "game_flags", []))
        config = RLlibTrainConfig(
            steps=args.steps,
            minutes=args.minutes,
            num_env_runners=args.num_env_runners,
            games_per_env=args.games_per_env,
            address=args.address,
            seed=args.seed,
            bot_share=args.fixed_share,
            snapshot_every=args.snapshot_every,
            checkpoint_every=args.checkpoint_every if args.checkpoint_every_given else 0,
            train_batch=args.train_batch,
            iterations=args.iterations,
            eval_every=args.eval_every,
            eval_games=args.eval_games,
            gamma=args.gamma,  # the game's horizon, so the recipe's (or --gamma) like sb3's
            **ppo,
        )
        out = Path(args.out or f"runs/{game.name}_{options['num_players']}p_rllib")
        recipe = " (its recipe)" if args.recipe else ""
        print(f"training PPO on RLlib, {game.title}{recipe}, {options['num_players']} players, into {out}/")
        start = time.perf_counter()
        checkpoint = train(game, out, config, progress=not args.no_progress, **options)
        minutes = (time.perf_counter() - start) / 60
        print(f"trained in {minutes:.1f} min; checkpoint: {checkpoint}")
        learner, _ = load_rllib_policy(game, checkpoint)
        finish(game, options, learner, out, args.final_games, args.seed, start, not args.no_progress)
    except ValueError as error:
        print(f"treasure-envs: error: {error}", file=sys.stderr)
        return 2
    return 0


class _Given(argparse.Action):
    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: Any = None) -> None:
        setattr(namespace, self.dest, values)
        setattr(namespace, f"{self.dest}_given", True)


def extend_train_parser(parser: argparse.ArgumentParser) -> None:
    """Add --engine rllib and its options to `treasure-envs train` (the sb3 path unchanged)."""
    defaults = RLlibTrainConfig()
    sb3_run = parser.get_default("run")
    group = parser.add_argument_group("RLlib (--engine rllib)")
    group.add_argument(
        "--engine",
        choices=["sb3", "rllib"],
        default="sb3",
        help="sb3: MaskablePPO in one process; rllib: PPO on Ray RLlib (default: sb3)",
    )
    group.add_argument(
        "--num-env-runners",
        type=int,
        default=defaults.num_env_runners,
        help=f"RLlib env runner actors (0: sample in the driver; default: {defaults.num_env_runners})",
    )
    group.add_argument(
        "--address",
        default=None,
        help="an existing Ray cluster: auto, host:port, ray://... (default: none, a local one)",
    )
    group.add_argument(
        "--games-per-env",
        type=int,
        default=defaults.games_per_env,
        help=f"games one env steps per call (1: the plain adapter; default: {defaults.games_per_env})",
    )
    group.add_argument(
        "--train-batch",
        type=int,
        default=defaults.train_batch,
        help=f"agent steps per PPO iteration (default: {defaults.train_batch})",
    )
    group.add_argument(
        "--iterations",
        type=int,
        default=defaults.iterations,
        help="stop after this many PPO iterations (0: by --steps or --minutes; default: 0)",
    )
    for action in parser._actions:
        if action.dest == "checkpoint_every":
            action.__class__ = _Given  # tell an explicit --checkpoint-every from the sb3 default
    parser.set_defaults(checkpoint_every_given=False)

    def dispatch(args: argparse.Namespace) -> int:
        return run(args) if args.engine == "rllib" else sb3_run(args)

    parser.set_defaults(run=dispatch)
