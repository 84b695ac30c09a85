"""Train MaskablePPO on one seat of any registered game, against a pool of its own past
snapshots mixed with the game's scripted bot.

    treasure-envs train nakbe --steps 500000 --out runs/nakbe

writes into the output folder:
    run.json                 the game, its options and every training setting
    checkpoints/*.zip        the model every --checkpoint-every steps
    final_model.zip          the model at the end
    eval.csv                 win rates against random and the bot during training (the curve)
    progress.csv, events.*   sb3's training statistics, as CSV and for TensorBoard

Needs the `train` extra (torch, stable-baselines3, sb3-contrib, tensorboard, matplotlib);
it is imported only when training starts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from treasure_apps.arguments import add_game_arguments, parse_options, split_agents
from treasure_apps.evaluate import EVAL_FILE, TRAIN_EXTRA_HINT, learning_curve
from treasure_apps.progress import is_terminal
from treasure_core.game import GameSpec, rules_options
from treasure_core.registry import get_game


@dataclass
class TrainConfig:
    """Training settings; the defaults learn something on 2 CPU cores in a few minutes."""

    steps: int = 300_000  # learner decisions
    n_envs: int = 16  # games collected side by side in one process
    seed: int = 0
    fixed_opponents: list[str] = field(default_factory=list)  # default: the game's first bot
    fixed_share: float = 0.5  # the chance an opponent seat gets a fixed opponent, not a snapshot
    snapshot_every: int = 25_000
    max_snapshots: int = 8
    eval_every: int = 25_000
    eval_games: int = 200
    checkpoint_every: int = 50_000
    learning_rate: float = 3e-4
    n_steps: int = 128  # per game per rollout: n_envs * n_steps decisions per update
    batch_size: int = 256
    n_epochs: int = 4
    gamma: float = 0.995
    ent_coef: float = 0.01
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    torch_threads: int = 1


def _check(config: TrainConfig) -> None:
    positive = ["steps", "n_envs", "snapshot_every", "max_snapshots", "eval_every", "eval_games"]
    positive += ["checkpoint_every", "n_steps", "batch_size", "n_epochs", "torch_threads"]
    for name in positive:
        value = getattr(config, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer; got {value!r}")
    if not 0.0 <= config.fixed_share <= 1.0:
        raise ValueError(f"fixed_share must be from 0 to 1; got {config.fixed_share!r}")


def train(
    game: str | GameSpec,
    out_dir: str | Path,
    config: TrainConfig | None = None,
    progress: bool = True,
    **options: Any,
) -> Path:
    """Train and return the path of final_model.zip. `options` are the game's options."""
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.callbacks import CallbackList, CheckpointCallback
        from stable_baselines3.common.logger import configure

        from treasure_apps.callbacks import PlainProgressCallback, SnapshotCallback, WinRateCallback
        from treasure_apps.policy import TreasureVecEnv
    except ImportError as error:
        raise ValueError(f"training {TRAIN_EXTRA_HINT} ({error})") from error
    from treasure_adapters.single_agent import OpponentPool

    game = get_game(game) if isinstance(game, str) else game
    config = config or TrainConfig()
    _check(config)
    # The learner's env is always the box format and masked: the drivers' options do not apply.
    options = rules_options(game.validate(options))
    fixed = config.fixed_opponents or [next(iter(game.bots), "random")]
    pool = OpponentPool(game, fixed, config.fixed_share, config.max_snapshots)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if (out / EVAL_FILE).exists():
        (out / EVAL_FILE).unlink()  # a fresh run's curve, not appended to an old one
    settings = {"game": game.name, "options": options, "config": asdict(config) | {"fixed_opponents": fixed}}
    (out / "run.json").write_text(json.dumps(settings, indent=2) + "\n")

    torch.set_num_threads(config.torch_threads)
    env = TreasureVecEnv(game, config.n_envs, opponents=pool, seed=config.seed, **options)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        learning_rate=config.learning_rate,
        n_steps=config.n_steps,
        batch_size=config.batch_size,
        n_epochs=config.n_epochs,
        gamma=config.gamma,
        ent_coef=config.ent_coef,
        policy_kwargs={"net_arch": list(config.net_arch)},
        seed=config.seed,
        device="cpu",
        verbose=0,
    )
    model.set_logger(configure(str(out), ["csv", "tensorboard"]))
    steps: list[Any] = [
        SnapshotCallback(pool, config.snapshot_every),
        WinRateCallback(
            game,
            options,
            ["random", *game.bots],
            config.eval_games,
            config.eval_every,
            out / EVAL_FILE,
            seed=config.seed + 1,
        ),
        CheckpointCallback(
            save_freq=max(1, config.checkpoint_every // config.n_envs),
            save_path=str(out / "checkpoints"),
            name_prefix="model",
        ),
    ]
    # A bar on a terminal; in a log, a few plain lines (treasure_apps.progress).
    bar = progress and is_terminal()
    if progress and not bar:
        steps.append(PlainProgressCallback(config.steps))
    callbacks = CallbackList(steps)
    model.learn(total_timesteps=config.steps, callback=callbacks, progress_bar=bar)
    final = out / "final_model.zip"
    model.save(final)
    env.close()
    return final


# -- command line ----------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    try:
        game = get_game(args.game)
        options = parse_options(game, args.option, args.players, getattr(args, "game_flags", []))
        config = TrainConfig(
            steps=args.steps,
            n_envs=args.envs,
            seed=args.seed,
            fixed_opponents=split_agents(args.opponents) if args.opponents else [],
            fixed_share=args.fixed_share,
            snapshot_every=args.snapshot_every,
            eval_every=args.eval_every,
            eval_games=args.eval_games,
            checkpoint_every=args.checkpoint_every,
            torch_threads=args.torch_threads,
        )
        out = Path(args.out or f"runs/{game.name}_{options['num_players']}p")
        print(f"training MaskablePPO on {game.title}, {options['num_players']} players, into {out}/")
        start = time.perf_counter()
        final = train(game, out, config, progress=not args.no_progress, **options)
        minutes = (time.perf_counter() - start) / 60
        print(f"{config.steps} steps in {minutes:.1f} min; model: {final}")
        print(f"learning curve: {learning_curve(out, out / 'learning_curve.png')}")
        print(f"TensorBoard: tensorboard --logdir {out}")
    except ValueError as error:
        print(f"treasure-envs: error: {error}", file=sys.stderr)
        return 2
    return 0


def add_subcommand(subparsers: Any) -> None:
    """Register `treasure-envs train`."""
    defaults = TrainConfig()
    parser = subparsers.add_parser("train", help="MaskablePPO against its past snapshots and the bot")
    add_game_arguments(parser)
    parser.add_argument("--steps", type=int, default=defaults.steps, help="learner decisions to train for")
    parser.add_argument("--out", help="output folder (default runs/GAME_Np)")
    parser.add_argument("--envs", type=int, default=defaults.n_envs, help="games collected side by side")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument(
        "--opponents", help="comma-separated fixed opponents mixed with the snapshots (default: the bot)"
    )
    parser.add_argument(
        "--fixed-share",
        type=float,
        default=defaults.fixed_share,
        help="chance an opponent seat gets a fixed opponent rather than a snapshot",
    )
    parser.add_argument("--snapshot-every", type=int, default=defaults.snapshot_every)
    parser.add_argument("--eval-every", type=int, default=defaults.eval_every)
    parser.add_argument("--eval-games", type=int, default=defaults.eval_games)
    parser.add_argument("--checkpoint-every", type=int, default=defaults.checkpoint_every)
    parser.add_argument("--torch-threads", type=int, default=defaults.torch_threads)
    parser.add_argument("--no-progress", action="store_true")
    parser.set_defaults(run=run)
