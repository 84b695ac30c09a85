"""Evaluate policies on any registered game: win rates with 95% intervals, a round-robin table
with Elo ratings, and a learning-curve picture from a training run's logs.

A policy is named by a string: "random", one of the game's scripted bots, or the path of a
MaskablePPO checkpoint (.zip). Checkpoints need the `train` extra; the rest does not.

    treasure-envs eval nakbe --checkpoint runs/nakbe/final_model.zip --games 1000
    treasure-envs eval nakbe --round-robin random,bot,runs/nakbe/final_model.zip
    treasure-envs eval nakbe --curve runs/nakbe --out runs/nakbe/curve.png
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from treasure_apps.arguments import add_game_arguments, parse_options, split_agents
from treasure_apps.progress import Counter
from treasure_apps.replay import Recorder, RecordingAgent
from treasure_apps.stats import WinRate
from treasure_core.aec import TreasureAECEnv, agent_name
from treasure_core.agents import Agent, AgentFactory, agent_factory, play_game
from treasure_core.game import GameSpec, rules_options
from treasure_core.header import CURRENT_PLAYER
from treasure_core.registry import get_game

EVAL_FILE = "eval.csv"
EVAL_FIELDS = ["steps", "minutes", "opponent", "wins", "games", "win_rate", "low", "high"]
GAMES_PLAYED = "games played"  # what evaluation progress counts, never to be read as a win rate
TRAIN_EXTRA_HINT = 'needs the train extra: pip install torch==2.13.0 && pip install -e ".[train]"'


def _winners(info: dict[str, Any], game: GameSpec) -> list[bool]:
    if "winner" not in info:
        raise ValueError(f"{game.name}: final_info has no 'winner' list, so win rates cannot be counted")
    return list(info["winner"])


BATCH_GAMES = 32  # games in flight when a policy network plays: one forward pass serves them all


def _batchable(agent: Agent) -> bool:
    """A policy network's agent (treasure_apps.policy.PolicyAgent): it may decide for many games
    in one forward pass (`probabilities`, then its own `choose`)."""
    return hasattr(agent, "probabilities") and hasattr(agent, "choose") and hasattr(agent, "policy")


def _series(
    game: GameSpec,
    options: dict[str, Any],
    seating: Callable[[int, int], list[AgentFactory]],
    n_games: int,
    seed: int,
    counter: Counter | None = None,
    recorder: Recorder | None = None,
) -> Iterator[tuple[int, list[bool], bool]]:
    """Play n_games, game g with the agents seating(g, num_players) makes; yield (g, winners,
    whether the guard cut it: then no one won) in game order. Game g's seeds depend only on
    (seed, g), so two series with the same seed deal alike. A counter counts the games played;
    a recorder writes each game as a replay file. When a policy network plays (and nothing is
    recorded), BATCH_GAMES games are played side by side and its decisions in all of them made
    in one forward pass: the same games, each agent seeing only its own game."""
    if n_games < 1:
        raise ValueError(f"the number of games must be at least 1; got {n_games}")
    n = TreasureAECEnv(game, **options).num_players

    def deal(g: int) -> tuple[list[Agent], int]:
        base = (seed * 1_000_003 + g) * (n + 1)
        return [factory(base + p) for p, factory in enumerate(seating(g, n))], base + n

    if recorder is None and any(_batchable(agent) for agent in deal(0)[0]):
        yield from _side_by_side(game, options, deal, n_games, counter)
        return
    aec = TreasureAECEnv(game, **options)
    for g in range(n_games):
        agents, game_seed = deal(g)
        actions: list[int] = []
        if recorder is not None:
            agents = [RecordingAgent(agent, actions) for agent in agents]
        winners = _winners(play_game(aec, agents, game_seed), game)
        if recorder is not None:
            recorder.write(game_seed, actions, [agent.name for agent in agents], aec)
        if counter is not None:
            counter.advance()
        yield g, winners, aec.is_truncated()


def _side_by_side(
    game: GameSpec,
    options: dict[str, Any],
    deal: Callable[[int], tuple[list[Agent], int]],
    n_games: int,
    counter: Counter | None,
) -> Iterator[tuple[int, list[bool], bool]]:
    """_series with up to BATCH_GAMES games in flight: each game runs until a policy network is
    to move (other agents move at once), then every network decides for all its waiting games
    in one batch. Results come back in game order."""
    idle = [TreasureAECEnv(game, **options) for _ in range(min(BATCH_GAMES, n_games))]
    playing: list[tuple[int, TreasureAECEnv, list[Agent]]] = []
    done: dict[int, tuple[list[bool], bool]] = {}
    next_game = next_out = 0
    while next_out < n_games:
        while idle and next_game < n_games:
            aec = idle.pop()
            agents, game_seed = deal(next_game)
            aec.reset(seed=game_seed)
            playing.append((next_game, aec, agents))
            next_game += 1
        waiting: dict[int, list[tuple[TreasureAECEnv, Agent, str]]] = {}
        for g, aec, agents in list(playing):
            state = aec._state
            while not aec.is_over():
                seat = int(state[CURRENT_PLAYER])
                agent, name = agents[seat], agent_name(seat)
                if _batchable(agent):
                    waiting.setdefault(id(agent.policy), []).append((aec, agent, name))
                    break
                aec.step(agent.act(aec, name))
            else:
                done[g] = (
                    _winners(game.final_info(state, truncated=aec.is_truncated()), game),
                    aec.is_truncated(),
                )
                playing.remove((g, aec, agents))
                idle.append(aec)
                if counter is not None:
                    counter.advance()
        for batch in waiting.values():
            observations = np.stack([aec.features(name) for aec, _, name in batch])
            masks = np.stack([aec.action_mask(name) for aec, _, name in batch])
            probabilities = batch[0][1].probabilities(observations, masks)
            for (aec, agent, _), row in zip(batch, probabilities, strict=True):
                aec.step(agent.choose(row))
        while next_out in done:
            yield next_out, *done.pop(next_out)
            next_out += 1


def win_rate(
    game: GameSpec,
    options: dict[str, Any],
    player: AgentFactory,
    opponent: AgentFactory,
    n_games: int,
    seed: int = 0,
    progress: bool = False,
    label: str = "",
    recorder: Recorder | None = None,
    counter: Counter | None = None,
) -> WinRate:
    """`player` in one seat against `opponent` in all others, over n_games; the player's seat
    rotates (game g: seat g mod n). A shared victory counts as a win; a game the guard cut is
    no one's win, counted in `truncated`. With `progress`, the games played are reported on
    stderr as "`label`: 120/1000 games played"; or a `counter` given counts them."""

    def seating(g: int, n: int) -> list[AgentFactory]:
        return [player if p == g % n else opponent for p in range(n)]

    own = counter is None
    if own:
        counter = Counter(n_games, label or "evaluation", GAMES_PLAYED, enabled=progress, leave=False)
    wins = truncated = 0
    try:
        for g, winners, cut in _series(game, options, seating, n_games, seed, counter, recorder):
            wins += winners[g % len(winners)]
            truncated += cut
    finally:
        if own:
            counter.close()
    return WinRate(wins, n_games, truncated)


def log_win_rates(
    game: GameSpec,
    options: dict[str, Any],
    learner: AgentFactory,
    opponents: dict[str, AgentFactory],
    n_games: int,
    seed: int,
    log_path: Path,
    steps: int,
    minutes: float,
    progress: bool = False,
) -> dict[str, WinRate]:
    """One point of a training run's learning curve: the learner's win rate against each
    opponent (win_rate), appended to the eval.csv at `log_path`; with `progress`, two plain
    progress lines on stderr and the win rates as one line on stdout. Both engines use it."""
    when = f"{steps} learner steps"
    # An evaluation every few tenths of a run: two lines each keep a log short.
    counter = Counter(
        n_games * len(opponents), f"evaluation at {when}", GAMES_PLAYED, enabled=progress, bar=False, lines=2
    )
    results: dict[str, WinRate] = {}
    new_file = not log_path.exists()
    with log_path.open("a", newline="") as file:
        writer = csv.writer(file)
        if new_file:
            writer.writerow(EVAL_FIELDS)
        for name, opponent in opponents.items():
            result = win_rate(game, options, learner, opponent, n_games, seed, counter=counter)
            results[name] = result
            low, high = result.interval
            row = [steps, f"{minutes:.2f}", name, result.wins, result.games]
            writer.writerow(row + [f"{result.rate:.4f}", f"{low:.4f}", f"{high:.4f}"])
    if progress:
        rates = ", ".join(f"vs {name} {result}" for name, result in results.items())
        print(f"win rates at {when}: {rates} ({n_games} games each)", flush=True)
    return results


def match_score(
    game: GameSpec,
    options: dict[str, Any],
    first: AgentFactory,
    second: AgentFactory,
    n_games: int,
    seed: int = 0,
    recorder: Recorder | None = None,
    counter: Counter | None = None,
) -> float:
    """`first`'s score against `second`: each game seats them alternately (first in the even
    seats on even games, in the odd seats on odd games); a game scores 1 when only `first`'s
    seats win, 0 when only `second`'s do, 1/2 when both share the victory. A counter counts
    the games played."""

    def seating(g: int, n: int) -> list[AgentFactory]:
        return [first if (p + g) % 2 == 0 else second for p in range(n)]

    total = 0.0
    series = _series(game, options, seating, n_games, seed, counter, recorder)
    for g, winners, _cut in series:  # a cut game: 0 each
        first_won = any(w for p, w in enumerate(winners) if (p + g) % 2 == 0)
        second_won = any(w for p, w in enumerate(winners) if (p + g) % 2 == 1)
        total += 1.0 if first_won and not second_won else 0.5 if first_won else 0.0
    return total / n_games


def elo_ratings(scores: np.ndarray, games: np.ndarray, anchor: int = 0) -> np.ndarray:
    """Bradley-Terry ratings on the Elo scale from pairwise results: scores[i, j] is i's
    total score against j (wins plus half the shared games) over games[i, j] games. Each pair
    also counts one virtual drawn game, so a clean sweep gives a finite rating. The rating of
    policy `anchor` is 0."""
    k = len(scores)
    wins = scores + 0.5 * (games > 0)  # the virtual draw, half a win each way
    played = games + 1.0 * (games > 0)
    strength = np.ones(k)
    for _ in range(10_000):  # the MM algorithm (Hunter 2004), a few hundred steps suffice
        previous = strength.copy()
        for i in range(k):
            denominator = sum(played[i, j] / (strength[i] + strength[j]) for j in range(k) if j != i)
            if denominator > 0:
                strength[i] = wins[i].sum() / denominator
        strength /= np.exp(np.mean(np.log(strength)))
        if np.max(np.abs(np.log(strength) - np.log(previous))) < 1e-10:
            break
    ratings = 400.0 * np.log10(strength)
    return ratings - ratings[anchor]


def round_robin(
    game: GameSpec,
    options: dict[str, Any],
    players: dict[str, AgentFactory],
    n_games: int,
    seed: int = 0,
    progress: bool = False,
    recorder: Recorder | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Every pair plays n_games (match_score). Returns (the score table, row against column,
    and the Elo ratings with the first player at 0). With `progress`, the games played over
    all pairs are reported on stderr ("round robin: 400/1200 games played")."""
    names = list(players)
    k = len(names)
    table = np.full((k, k), np.nan)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    # One count over every pair's games: a count of pairs ("1/3") would read like a score.
    counter = Counter(len(pairs) * n_games, "round robin", GAMES_PLAYED, enabled=progress)
    try:
        for i, j in pairs:
            first, second = players[names[i]], players[names[j]]
            score = match_score(game, options, first, second, n_games, seed, recorder, counter)
            table[i, j], table[j, i] = score, 1.0 - score
    finally:
        counter.close()
    games = np.where(np.isnan(table), 0.0, float(n_games))
    return table, elo_ratings(np.nan_to_num(table) * n_games, games)


def policy_factory(game: GameSpec, name: str, deterministic: bool = True) -> tuple[AgentFactory, dict]:
    """A policy name -> (a factory seed -> Agent, the run settings of a checkpoint or {})."""
    from treasure_apps.rllib_policy import is_rllib_checkpoint, load_rllib_policy

    if is_rllib_checkpoint(name):  # a folder Algorithm.save_to_path wrote (treasure_apps.rllib_train)
        return load_rllib_policy(game, name, deterministic=deterministic)
    if not name.endswith(".zip"):
        return agent_factory(game, name), {}
    try:
        from treasure_apps.policy import PolicyAgent, load_checkpoint
    except ImportError as error:
        raise ValueError(f"loading the checkpoint {name} {TRAIN_EXTRA_HINT} ({error})") from error
    policy, settings = load_checkpoint(name)
    if settings.get("game", game.name) != game.name:
        raise ValueError(f"{name} was trained on {settings['game']}, not {game.name}")
    dims = game.dims(game.make_params(game.validate(settings.get("options", {}))))
    trained = (policy.observation_space.shape, int(policy.action_space.n))
    if trained != ((dims.obs_size,), dims.n_actions):
        raise ValueError(
            f"{name} takes observations of shape {trained[0]} and {trained[1]} actions; {game.env_name} "
            f"has ({dims.obs_size},) and {dims.n_actions}: it was trained on another version of the game"
        )

    def make(seed: int) -> Agent:
        return PolicyAgent(policy, seed, deterministic=deterministic, name=Path(name).stem)

    return make, settings


def read_eval_log(run_dir: str | Path) -> list[dict[str, Any]]:
    path = Path(run_dir) / EVAL_FILE
    if not path.is_file():
        raise ValueError(f"no {EVAL_FILE} in {run_dir}: is it the output folder of `treasure-envs train`?")
    with path.open() as file:
        rows = list(csv.DictReader(file))
    for row in rows:
        for key in EVAL_FIELDS:
            if key != "opponent":
                row[key] = float(row[key])
    return rows


def learning_curve(run_dir: str | Path, out: str | Path, title: str | None = None) -> Path:
    """Plot the win rates logged during training (with their 95% intervals) against the
    training steps, and the chance level 1/num_players; save a PNG."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise ValueError(f"plotting {TRAIN_EXTRA_HINT} ({error})") from error
    import json

    rows = read_eval_log(run_dir)
    settings_path = Path(run_dir) / "run.json"
    settings = json.loads(settings_path.read_text()) if settings_path.is_file() else {}
    figure, axes = plt.subplots(figsize=(7, 4.2), dpi=110)
    for opponent in dict.fromkeys(row["opponent"] for row in rows):
        mine = [row for row in rows if row["opponent"] == opponent]
        steps = np.array([row["steps"] for row in mine])
        axes.plot(steps, [row["win_rate"] for row in mine], marker="o", ms=3, label=f"vs {opponent}")
        axes.fill_between(steps, [row["low"] for row in mine], [row["high"] for row in mine], alpha=0.2)
    players = settings.get("options", {}).get("num_players")
    if players:
        axes.axhline(1 / players, color="grey", ls="--", lw=1, label=f"1/{players} (an equal player)")
    axes.set_xlabel("training steps (learner decisions)")
    axes.set_ylabel("win rate (95% interval)")
    axes.set_ylim(0, 1)
    axes.grid(alpha=0.3)
    axes.legend(loc="best")
    if title is None and settings:
        games = int(rows[-1]["games"])
        title = (
            f"MaskablePPO on {settings['game']}, {players} players: {games} eval games per point, "
            f"learner's seat rotated"
        )
    axes.set_title(title or "learning curve", fontsize=9)
    figure.tight_layout()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out)
    plt.close(figure)
    return out


# -- command line ----------------------------------------------------------------------------
def _recorder(
    game: GameSpec, options: dict[str, Any], args: argparse.Namespace, label: str
) -> Recorder | None:
    """--record DIR: each game of the series as DIR/<game>-<label>-<number>.json."""
    record = getattr(args, "record", None)
    return Recorder(record, game, options, label) if record else None


def _print_win_rates(
    game: GameSpec, options: dict[str, Any], player: AgentFactory, args: argparse.Namespace
) -> None:
    """The checkpoint's win rates against each opponent: every series is played first (its
    progress on stderr), then the table is printed whole, so that progress lines never split
    it in a log that takes both streams."""
    n = options["num_players"]
    if n == 1:  # solo: the only opponent is the game's own, inside the kernels (Nakum's Chaak'Bot)
        unseated = agent_factory(game, "random")  # no other seat: never asked to move
        series = [("in-kernel", "vs the in-kernel opponent", unseated, "solo")]
        title = f"{args.checkpoint} on {game.title}, solo: {args.games} games against the game's own opponent"
        note = "(a win is a score above the in-kernel opponent's; a tie counts as a win)"
    else:
        kinds = ["random", *game.bots]
        series = [(kind, f"vs {kind}", agent_factory(game, kind), f"vs-{kind}") for kind in kinds]
        title = (
            f"{args.checkpoint} on {game.title}, {n} players: {args.games} games per opponent, "
            f"its seat rotated, the opponent in every other seat"
        )
        note = (
            f"(an equal player wins 1/{n} = {1 / n:.3f}; a shared victory counts as a win; "
            "truncated: games the guard cut, no one's win)"
        )
    results = []
    for name, label, opponent, tag in series:
        recorder = _recorder(game, options, args, tag)
        progress = not args.no_progress
        result = win_rate(game, options, player, opponent, args.games, args.seed, progress, label, recorder)
        results.append((name, result))
    print(title)
    print(win_rate_table(results))
    print(note)
    sys.stdout.flush()  # before the next series' progress on stderr


def win_rate_table(results: list[tuple[str, WinRate]]) -> str:
    """Win rates against named opponents, one row each: rate, 95% interval, games cut."""
    lines = [f"{'opponent':<12}{'win rate':>10}{'95% interval':>20}{'truncated':>11}"]
    for name, result in results:
        low, high = result.interval
        lines.append(f"{name:<12}{result.rate:>10.3f}{f'[{low:.3f}, {high:.3f}]':>20}{result.truncated:>11}")
    return "\n".join(lines)


def _print_round_robin(game: GameSpec, options: dict[str, Any], args: argparse.Namespace) -> None:
    names = [name for name in split_agents(args.round_robin) if name]
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError(f"--round-robin needs two or more different policies; got {names}")
    players = {name: policy_factory(game, name, deterministic=not args.sample)[0] for name in names}
    recorder = _recorder(game, options, args, "round-robin")
    table, ratings = round_robin(
        game, options, players, args.games, args.seed, not args.no_progress, recorder
    )
    labels = [Path(name).stem if name.endswith(".zip") else name for name in names]
    width = max(12, *(len(label) + 2 for label in labels))
    print(
        f"Round robin on {game.title}, {options['num_players']} players, {args.games} games per pair; "
        "seats alternate between the two policies; score = row's share of the wins against column"
    )
    print(f"{'':<{width}}" + "".join(f"{label:>{width}}" for label in labels) + f"{'Elo':>8}")
    for i, label in enumerate(labels):
        cells = "".join(f"{'-' if i == j else f'{table[i, j]:.3f}':>{width}}" for j in range(len(labels)))
        print(f"{label:<{width}}{cells}{ratings[i]:>8.0f}")
    print(f"(Elo: Bradley-Terry fit, {labels[0]} = 0)")
    sys.stdout.flush()  # before any later progress on stderr


def run(args: argparse.Namespace) -> int:
    try:
        game = get_game(args.game)
        if not (args.checkpoint or args.round_robin or args.curve):
            raise ValueError("give --checkpoint, --round-robin or --curve (or several)")
        if args.games < 1:
            raise ValueError(f"--games must be at least 1; got {args.games}")
        pairs, players = list(args.option), args.players
        flags = list(getattr(args, "game_flags", []))
        if args.checkpoint:
            player, settings = policy_factory(game, args.checkpoint, deterministic=not args.sample)
            trained = settings.get("options", {})
            if players is None and not pairs and not flags and trained:  # default: the checkpoint's own game
                pairs = [f"{k}={v}" for k, v in rules_options(trained).items()]
        options = parse_options(game, pairs, players, flags)
        if args.checkpoint:
            _print_win_rates(game, options, player, args)
        if args.round_robin:
            _print_round_robin(game, options, args)
        if args.curve:
            out = args.out or str(Path(args.curve) / "learning_curve.png")
            print(f"learning curve: {learning_curve(args.curve, out)}")
    except ValueError as error:
        print(f"treasure-envs: error: {error}", file=sys.stderr)
        return 2
    return 0


def add_subcommand(subparsers: Any) -> None:
    """Register `treasure-envs eval`."""
    parser = subparsers.add_parser(
        "eval", help="win rates of a checkpoint, a round robin with Elo, a learning curve"
    )
    add_game_arguments(parser, defaults="a --checkpoint's own, else the game's, see `list`")
    parser.add_argument(
        "--checkpoint",
        help="a policy (a model .zip, an RLlib checkpoint, random or a bot): its win rates against random "
        "and each bot (default: none)",
    )
    parser.add_argument(
        "--round-robin",
        help="comma-separated policies (random, a bot name, .zip checkpoints) to play each other "
        "(default: none)",
    )
    parser.add_argument(
        "--curve", metavar="RUN_DIR", help="plot the learning curve of a training run (default: none)"
    )
    parser.add_argument("--out", help="the PNG to write (default RUN_DIR/learning_curve.png)")
    parser.add_argument("--games", type=int, default=1000, help="games per opponent or per pair")
    parser.add_argument("--seed", type=int, default=0, help="seed of every series")
    parser.add_argument("--sample", action="store_true", help="sample checkpoints' moves (default: argmax)")
    parser.add_argument("--no-progress", action="store_true", help="no progress (games played) on stderr")
    parser.add_argument(
        "--record", metavar="DIR", help="write each game as a replay file in DIR (default: none written)"
    )
    parser.set_defaults(run=run)
