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
import csv
import functools
import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from treasure_apps.arguments import add_game_arguments, check_gamma, parse_options, split_agents
from treasure_apps.evaluate import EVAL_FILE, TRAIN_EXTRA_HINT, learning_curve, win_rate, win_rate_table
from treasure_apps.imitation import teacher_factory
from treasure_apps.progress import PlainProgress, is_terminal
from treasure_apps.recipes import RECIPES, apply_recipe
from treasure_apps.stats import WinRate
from treasure_core.agents import AgentFactory, agent_factory
from treasure_core.game import GameSpec, rules_options
from treasure_core.registry import get_game

FINAL_FILE = "final_eval.csv"
TEACHER_FILE = "teacher.json"
TEACHER_SHARE = 0.3  # at most this share of a --minutes budget goes to the teacher's games
TEACHER_SEED = 1_000_000  # the teacher's games are dealt apart from the evaluation's
TEACHER_THREADS = 2  # the search releases the GIL: one game per core
SOLO_OPPONENT = "in-kernel"  # a solo game's only opponent: the game's own (Nakum's Chaak'Bot)


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
    final_games: int = 1000  # games per opponent in the final evaluation table
    minutes: float = 0.0  # a wall-time budget for the whole run (0: none); stops at it or at steps
    teacher: str = ""  # an mcts spec or a bot: clone its decisions before PPO (treasure_apps.imitation)
    teacher_decisions: int = 40_000
    teacher_epochs: int = 15
    checkpoint_every: int = 50_000
    learning_rate: float = 3e-4
    n_steps: int = 128  # per game per rollout: n_envs * n_steps decisions per update
    batch_size: int = 256
    n_epochs: int = 4
    gamma: float = 0.995  # PPO's discount per learner decision
    ent_coef: float = 0.01
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    torch_threads: int = 1


def _check(config: TrainConfig) -> None:
    positive = ["steps", "n_envs", "snapshot_every", "max_snapshots", "eval_every", "eval_games"]
    positive += ["checkpoint_every", "n_steps", "batch_size", "n_epochs", "torch_threads"]
    positive += ["final_games", "teacher_decisions", "teacher_epochs"]
    for name in positive:
        value = getattr(config, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer; got {value!r}")
    if not 0.0 <= config.fixed_share <= 1.0:
        raise ValueError(f"fixed_share must be from 0 to 1; got {config.fixed_share!r}")
    check_gamma(config.gamma)
    for name in ("minutes", "learning_rate", "ent_coef"):
        value = getattr(config, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < float("inf"):
            raise ValueError(f"{name} must be a finite number >= 0; got {value!r}")
    if not config.net_arch or any(
        isinstance(w, bool) or not isinstance(w, int) or w < 1 for w in config.net_arch
    ):
        raise ValueError(f"net_arch must be one or more positive layer widths; got {config.net_arch!r}")


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

        from treasure_apps.callbacks import (
            DeadlineCallback,
            PlainProgressCallback,
            SnapshotCallback,
            WinRateCallback,
        )
        from treasure_apps.policy import TreasureVecEnv
    except ImportError as error:
        raise ValueError(f"training {TRAIN_EXTRA_HINT} ({error})") from error
    from treasure_adapters.single_agent import OpponentPool

    started = time.perf_counter()
    game = get_game(game) if isinstance(game, str) else game
    config = config or TrainConfig()
    _check(config)
    if config.teacher:
        teacher_factory(game, config.teacher)  # a bad teacher fails before anything is written
    # The learner's env is always the box format and masked: the drivers' options do not apply.
    options = rules_options(game.validate(options))
    fixed = config.fixed_opponents or [next(iter(game.bots), "random")]
    pool = OpponentPool(game, fixed, config.fixed_share, config.max_snapshots)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for stale in (EVAL_FILE, FINAL_FILE, TEACHER_FILE):
        if (out / stale).exists():
            (out / stale).unlink()  # a fresh run's results, not appended to an old one's
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
    deadline = started + 60 * config.minutes if config.minutes > 0 else None
    if config.teacher:
        warm_start(game, options, config, model.policy, out, deadline, progress)
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
            progress=progress,
        ),
        CheckpointCallback(
            save_freq=max(1, config.checkpoint_every // config.n_envs),
            save_path=str(out / "checkpoints"),
            name_prefix="model",
        ),
    ]
    if deadline is not None:
        steps.append(DeadlineCallback(deadline))
    # A bar on a terminal; in a log, a few plain lines (treasure_apps.progress).
    bar = progress and is_terminal()
    if progress and not bar:
        steps.append(PlainProgressCallback(config.steps, started=started))
    callbacks = CallbackList(steps)
    model.learn(total_timesteps=config.steps, callback=callbacks, progress_bar=bar)
    final = out / "final_model.zip"
    model.save(final)
    env.close()
    return final


def warm_start(
    game: GameSpec,
    options: dict[str, Any],
    config: TrainConfig,
    policy: Any,
    out: Path,
    deadline: float | None,
    progress: bool,
) -> dict[str, float]:
    """Behaviour cloning of the teacher's decisions into `policy` (treasure_apps.imitation);
    the teacher gets at most TEACHER_SHARE of the time budget. Writes teacher.json."""
    from treasure_apps.imitation import clone, collect

    teacher_deadline = None
    if deadline is not None:
        teacher_deadline = time.perf_counter() + TEACHER_SHARE * (deadline - time.perf_counter())
    plain = PlainProgress(config.teacher_decisions, f"teacher {config.teacher}", unit="decisions")
    data = collect(
        game,
        options,
        config.teacher,
        config.teacher_decisions,
        seed=config.seed + TEACHER_SEED,
        gamma=config.gamma,
        workers=TEACHER_THREADS,
        deadline=teacher_deadline,
        report=plain.update if progress else None,
    )
    cloned = time.perf_counter()
    stats = clone(policy, data, epochs=config.teacher_epochs, seed=config.seed)
    stats |= {
        "games": data.games,
        "collect_seconds": data.seconds,
        "clone_seconds": time.perf_counter() - cloned,
    }
    (out / TEACHER_FILE).write_text(json.dumps({"teacher": config.teacher, **stats}, indent=2) + "\n")
    if progress:
        print(
            f"warm start: {len(data)} decisions of {config.teacher} in {data.games} games "
            f"({data.seconds:.0f} s); cloned in {stats['clone_seconds']:.0f} s, "
            f"held-out agreement {stats['agreement']:.2f}",
            file=sys.stderr,
            flush=True,
        )
    return stats


def final_evaluation(
    game: GameSpec,
    options: dict[str, Any],
    learner: AgentFactory,
    n_games: int,
    seed: int,
    progress: bool = True,
) -> list[tuple[str, WinRate]]:
    """The trained learner against random play and the game's first bot over n_games each, its
    seat rotated; in a solo game, one row against the game's own opponent in the kernels."""
    if options["num_players"] == 1:
        opponents = {SOLO_OPPONENT: agent_factory(game, "random")}  # never seated: no other seat
    else:
        opponents = {name: agent_factory(game, name) for name in ("random", next(iter(game.bots), "random"))}
    results = []
    for name, opponent in opponents.items():
        label = f"final evaluation vs {name}"
        results.append((name, win_rate(game, options, learner, opponent, n_games, seed, progress, label)))
    return results


def finish(
    game: GameSpec,
    options: dict[str, Any],
    learner: AgentFactory,
    out: Path,
    n_games: int,
    seed: int,
    started: float,
    progress: bool = True,
) -> list[tuple[str, WinRate]]:
    """The end of a training command (either engine): the final evaluation table, printed and
    written to final_eval.csv, then the learning curve."""
    results = final_evaluation(game, rules_options(options), learner, n_games, seed + 2, progress)
    write_final(out, results)
    minutes = (time.perf_counter() - started) / 60
    print(f"final evaluation ({n_games} games per opponent), {minutes:.1f} min in all:")
    print(final_table(results, options["num_players"]))
    if (out / EVAL_FILE).exists():
        print(f"learning curve: {learning_curve(out, out / 'learning_curve.png')}")
    print(f"TensorBoard: tensorboard --logdir {out}")
    return results


def final_table(results: list[tuple[str, WinRate]], n_players: int) -> str:
    if n_players == 1:  # a solo game: the game's own opponent, no seat to rotate
        note = "(argmax moves; a win is the game's own solo victory, a game the guard cut no win)"
    else:
        equal = f"an equal player wins 1/{n_players}"
        note = f"(argmax moves, seat rotated; {equal}, a game the guard cut no one's)"
    return f"{win_rate_table(results)}\n{note}"


def write_final(out: Path, results: list[tuple[str, WinRate]]) -> Path:
    path = out / FINAL_FILE
    with path.open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["opponent", "wins", "games", "truncated", "win_rate", "low", "high"])
        for name, result in results:
            low, high = result.interval
            rates = [f"{result.rate:.4f}", f"{low:.4f}", f"{high:.4f}"]
            writer.writerow([name, result.wins, result.games, result.truncated, *rates])
    return path


# -- command line ----------------------------------------------------------------------------
# The flags a recipe may set: None in argparse, filled from the recipe, then from TrainConfig
# (the fixed opponents as their comma-separated flag: "" is the game's first bot).
RECIPE_FLAGS = ("steps", "minutes", "fixed_share", "teacher", "teacher_decisions", "net_arch")
RECIPE_FLAGS += ("learning_rate", "ent_coef", "gamma", "final_games", "eval_every", "eval_games")


def resolve(args: argparse.Namespace) -> None:
    """--recipe's values, then TrainConfig's defaults, for the flags left unset (both engines)."""
    defaults = asdict(TrainConfig())
    apply_recipe(args, {name: defaults[name] for name in RECIPE_FLAGS} | {"opponents": ""})


def run(args: argparse.Namespace) -> int:
    try:
        resolve(args)
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
            final_games=args.final_games,
            checkpoint_every=args.checkpoint_every,
            torch_threads=args.torch_threads,
            minutes=args.minutes,
            teacher=args.teacher,
            teacher_decisions=args.teacher_decisions,
            net_arch=list(args.net_arch),
            learning_rate=args.learning_rate,
            ent_coef=args.ent_coef,
            gamma=args.gamma,
        )
        out = Path(args.out or f"runs/{game.name}_{options['num_players']}p")
        recipe = " (its recipe)" if args.recipe else ""
        print(f"training MaskablePPO on {game.title}{recipe}, {options['num_players']} players, into {out}/")
        start = time.perf_counter()
        final = train(game, out, config, progress=not args.no_progress, **options)
        minutes = (time.perf_counter() - start) / 60
        print(f"trained in {minutes:.1f} min; model: {final}")
        from treasure_apps.policy import PolicyAgent, load_checkpoint

        learner = functools.partial(PolicyAgent, load_checkpoint(final)[0], deterministic=True)
        finish(game, options, learner, out, config.final_games, config.seed, start, not args.no_progress)
    except ValueError as error:
        print(f"treasure-envs: error: {error}", file=sys.stderr)
        return 2
    return 0


def _widths(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        message = f"layer widths as comma-separated integers (256,256); got {text!r}"
        raise argparse.ArgumentTypeError(message) from None


def add_subcommand(subparsers: Any) -> None:
    """Register `treasure-envs train`."""
    defaults = TrainConfig()
    parser = subparsers.add_parser("train", help="MaskablePPO against its past snapshots and the bot")
    add_game_arguments(parser)
    parser.add_argument(
        "--recipe",
        action="store_true",
        help=f"the game's learning recipe ({', '.join(RECIPES)}: treasure_apps/recipes.py): its players, "
        "options and settings; flags given beside it override them (default: off)",
    )
    parser.add_argument(
        "--steps", type=int, default=None, help=f"learner decisions to train for (default: {defaults.steps})"
    )
    parser.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="a wall-time budget for the run, the teacher's games included; training stops at it "
        "or at --steps (default: 0, no budget)",
    )
    parser.add_argument("--out", help="output folder (default: runs/GAME_Np)")
    parser.add_argument(
        "--envs",
        type=int,
        default=defaults.n_envs,
        help=f"games collected side by side (default: {defaults.n_envs})",
    )
    parser.add_argument(
        "--seed", type=int, default=defaults.seed, help=f"the run's seed (default: {defaults.seed})"
    )
    parser.add_argument(
        "--opponents",
        help="comma-separated fixed opponents mixed with the snapshots: random, a bot, mcts:sims=50 "
        "(default: the game's first bot)",
    )
    parser.add_argument(
        "--fixed-share",
        type=float,
        default=None,
        help="chance an opponent seat gets a fixed opponent rather than a snapshot "
        f"(default: {defaults.fixed_share})",
    )
    parser.add_argument(
        "--teacher",
        default=None,
        help="warm start: clone this teacher's decisions, then PPO (an mcts spec such as mcts:sims=200, "
        "or a bot; default: none)",
    )
    parser.add_argument(
        "--teacher-decisions",
        type=int,
        default=None,
        help=f"teacher decisions to clone (default: {defaults.teacher_decisions})",
    )
    parser.add_argument(
        "--net-arch",
        type=_widths,
        default=None,
        help=f"hidden layer widths (default: {','.join(map(str, defaults.net_arch))})",
    )
    parser.add_argument(
        "--learning-rate",
        type=float,
        default=None,
        help=f"PPO's learning rate (default: {defaults.learning_rate})",
    )
    parser.add_argument(
        "--ent-coef", type=float, default=None, help=f"PPO's entropy bonus (default: {defaults.ent_coef})"
    )
    parser.add_argument(
        "--gamma",
        type=float,
        default=None,
        help=f"PPO's discount per learner decision (default: {defaults.gamma})",
    )
    parser.add_argument(
        "--snapshot-every",
        type=int,
        default=defaults.snapshot_every,
        help=f"steps between snapshots of the learner joining the pool (default: {defaults.snapshot_every})",
    )
    parser.add_argument(
        "--eval-every",
        type=int,
        default=None,
        help=f"steps between win-rate evaluations for the curve (default: {defaults.eval_every})",
    )
    parser.add_argument(
        "--eval-games",
        type=int,
        default=None,
        help=f"games per opponent in each of those evaluations (default: {defaults.eval_games})",
    )
    parser.add_argument(
        "--final-games",
        type=int,
        default=None,
        help=f"games per opponent in the final evaluation table (default: {defaults.final_games})",
    )
    parser.add_argument(
        "--checkpoint-every",
        type=int,
        default=defaults.checkpoint_every,
        help=f"steps between checkpoints (default: {defaults.checkpoint_every})",
    )
    parser.add_argument(
        "--torch-threads",
        type=int,
        default=defaults.torch_threads,
        help=f"torch threads for the network (default: {defaults.torch_threads})",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar or lines (default: off)")
    parser.set_defaults(run=run)
