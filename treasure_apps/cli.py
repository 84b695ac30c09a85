"""The `treasure-envs` command: list, self-play, play a seat yourself, train, evaluate, benchmark,
warm up the kernel cache."""

from __future__ import annotations

import argparse
import importlib
import re
import sys
import time

import numpy as np

from treasure_apps import evaluate, replay, rllib_train, serve, train, warmup
from treasure_apps.arguments import DefaultsHelpFormatter, add_game_arguments, parse_options, split_agents
from treasure_apps.bench import add_subcommand as add_bench_subcommand
from treasure_apps.progress import progress
from treasure_apps.stats import WinRate
from treasure_core import ansi
from treasure_core.aec import TreasureAECEnv
from treasure_core.agents import Agent, agent_factory
from treasure_core.game import GameSpec
from treasure_core.registry import all_games, get_game, module_of


def cmd_list(args: argparse.Namespace) -> int:
    for game in all_games():
        print(f"{game.name} ({game.env_name}): {game.title}, {game.min_players}-{game.max_players} players")
        for option in game.options:
            print(f"    {option.name} = {option.default!r}  ({option.allowed()}) {option.help}")
        print(f"    agents: random, {', '.join(game.bots)}")
    return 0


def _warm_up(env: TreasureAECEnv, agents: list[Agent]) -> None:
    """One untimed game, so that numba's first-call compilation stays out of steps/s."""
    env.reset(seed=0)
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        for other in agents:
            other.act(env, agent)
        env.step(agents[seat].act(env, agent))


def cmd_selfplay(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    options = parse_options(game, args.option, args.players, args.game_flags)
    n = options["num_players"]
    kinds = split_agents(args.agents)
    if len(kinds) == 1:
        kinds = kinds * n
    elif len(kinds) != n:
        raise ValueError(f"--agents names one agent or {n} (one per seat); got {len(kinds)}")
    labels = [f"{kind}#{i}" for i, kind in enumerate(kinds)]
    agents = [agent_factory(game, kind)(args.seed + i) for i, kind in enumerate(kinds)]
    env = TreasureAECEnv(game, **options)
    recorder = replay.Recorder(args.record, game, options, "selfplay") if args.record else None
    wins = np.zeros(n)
    truncated = 0  # games the guard cut: no one's win
    scores: list[list[float]] = [[] for _ in range(n)]
    warm_up = time.perf_counter()
    _warm_up(env, agents)
    warm_up = time.perf_counter() - warm_up
    total_steps = 0
    start = time.perf_counter()
    desc = f"{game.name} self-play"
    for g in progress(range(args.games), desc, enabled=not args.no_progress, unit="games played"):
        # Rotate seats so that no agent keeps the first-player advantage.
        shift = g % n if args.rotate else 0
        seats = [agents[(p + shift) % n] for p in range(n)]
        seed = args.seed * 1_000_003 + g
        env.reset(seed=seed)
        actions: list[int] = []
        for agent in env.agent_iter():
            _, _, termination, truncation, info = env.last()
            if termination or truncation:
                p = env.possible_agents.index(agent)
                who = (p + shift) % n
                wins[who] += bool(info.get("winner", False))  # never true in a cut game
                truncated += truncation and p == 0
                scores[who].append(info.get("score", 0))
                env.step(None)
                continue
            action = seats[env.possible_agents.index(agent)].act(env, agent)
            env.step(action)
            actions.append(int(action))
            total_steps += 1
        if recorder is not None:
            recorder.write(seed, actions, [kinds[(p + shift) % n] for p in range(n)], env)
    elapsed = time.perf_counter() - start
    print(f"{args.games} games of {game.title}, {n} players, seats rotated: {bool(args.rotate)}")
    print(f"{'agent':<12}{'win rate':>10}{'95% CI':>18}{'mean score':>12}{'sd':>8}{'truncated':>11}")
    for i, label in enumerate(labels):
        result = WinRate(float(wins[i]), args.games, truncated)
        low, high = result.interval
        s = np.array(scores[i], dtype=float)
        print(
            f"{label:<12}{result.rate:>10.3f}{f'[{low:.3f}, {high:.3f}]':>18}{s.mean():>12.2f}{s.std():>8.2f}"
            f"{result.truncated:>11}"
        )
    cut = ""
    if game.guard is not None:
        cut = f"; truncated: games the guard cut after {game.guard.describe(options)}, no one's win"
    print(f"(a shared victory counts as a win for every winner{cut})")
    if recorder is not None:
        print(f"{recorder.count} replay files in {recorder.directory} (treasure-envs replay FILE)")
    print(
        f"{total_steps} decisions in {elapsed:.2f} s: "
        f"{total_steps / elapsed:,.0f} steps/s (AEC loop, agents included; "
        f"{warm_up:.1f} s to compile or load the kernels first)"
    )
    return 0


def _ask(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        return "q"


# A legal action named "... row R col C" in a block of this name is a cell of a grid: `play`
# takes it as a row and a column (Karuba's tile placement) and lists the cells, not the actions.
GRID_BLOCK = "place"
_CELL = re.compile(r"\brow (\d+) col (\d+)$")
GRID_LISTED = 6  # up to this many cell actions are listed one by one as well


def _cells(game: GameSpec, state: np.ndarray, legal: list[int], seat: int) -> dict[tuple[int, int], int]:
    """(row, column) -> action, for the legal actions that lay something on a grid's cell."""
    cells = {}
    for action in legal:
        block, _ = game.actions.block_of(action)
        found = _CELL.search(game.action_name(state, action, seat)) if block.name == GRID_BLOCK else None
        if found:
            cells[(int(found.group(1)), int(found.group(2)))] = action
    return cells if len(cells) > GRID_LISTED else {}


def _screen(game: GameSpec, env: TreasureAECEnv, seat: int) -> str:
    """The board from `seat`'s view (colour only on a terminal), with the events since its last
    turn where the env keeps them (Pharaoh's)."""
    lines = game.render_ansi(env.get_state(), viewer=seat, colour=ansi.colour_allowed(sys.stdout)).split("\n")
    since = getattr(env, "events_since", None)
    events = since(seat) if since is not None else []
    if events:
        lines[-1:-1] = [f"since player_{seat}'s last turn:", *events]
    return "\n".join(lines)


def _list_actions(game: GameSpec, state: np.ndarray, actions: list[int], seat: int) -> None:
    for action in actions:
        print(f"  {action}: {game.action_name(state, action, seat)}")


def _your_move(game: GameSpec, env: TreasureAECEnv, seat: int) -> int | None:
    """The person's action from the keyboard (None: quit). A grid's cells are taken as `row col`;
    `list` lists every legal action."""
    state = env.get_state()
    me = env.possible_agents[seat]
    legal = env.legal_actions()
    cells = _cells(game, state, legal, seat)
    numbered = [action for action in legal if action not in cells.values()]
    _list_actions(game, state, numbered, seat)
    choices = list(map(str, numbered))
    if cells:
        first = game.action_name(state, next(iter(cells.values())), seat)
        what = _CELL.sub("", first).rstrip()
        print(f"  or {what} a cell: type its row and column (for example {' '.join(map(str, min(cells)))})")
        for row in sorted({r for r, _ in cells}):
            print(f"     row {row}: columns {' '.join(str(c) for r, c in sorted(cells) if r == row)}")
        choices += ["row col", "list"]
    while True:
        answer = _ask(f"{me}, your move ({', '.join(choices)}, q to quit): ").strip()
        if answer.lower() in ("q", "quit"):
            return None
        if answer.isdigit() and int(answer) in legal:
            return int(answer)
        if cells and answer.lower() == "list":
            _list_actions(game, state, legal, seat)
            continue
        pair = answer.replace(",", " ").split()
        if cells and len(pair) == 2 and all(part.isdigit() for part in pair):
            cell = (int(pair[0]), int(pair[1]))
            if cell in cells:
                return cells[cell]
            print(f"row {cell[0]} col {cell[1]} is not a cell you may choose now")
            continue
        print(f"not a legal move: {answer!r}")


def cmd_play(args: argparse.Namespace) -> int:
    """One game at a seat against bots; Ctrl-C ends it with one line."""
    try:
        return _play(args)
    except KeyboardInterrupt:
        print("\ninterrupted: the game is left unfinished")
        return 130


def _play(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    options = parse_options(game, args.option, args.players, args.game_flags)
    n = options["num_players"]
    if not 0 <= args.seat < n:
        raise ValueError(f"--seat must be from 0 to {n - 1}; got {args.seat}")
    # The game's own raw env: it may keep the events since your last turn (Pharaoh's does).
    env = importlib.import_module(module_of(game.name)).raw_env(render_mode="ansi", **options)
    env.render_viewer = args.seat
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().generate_state(1)[0])
    bots = [agent_factory(game, args.opponents)(seed + p) for p in range(n)]
    env.reset(seed=seed)
    me = env.possible_agents[args.seat]
    for agent in env.agent_iter():
        _, _, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        if agent != me:
            env.step(bots[env.possible_agents.index(agent)].act(env, agent))
            continue
        print("\n" + _screen(game, env, args.seat))
        action = _your_move(game, env, args.seat)
        if action is None:
            print("bye")
            return 0
        env.step(action)
    print("\n" + _screen(game, env, args.seat))
    info = game.final_info(env.get_state(), truncated=env.is_truncated())
    for p in range(n):
        tag = " (you)" if p == args.seat else ""
        # The game's own per-player numbers besides the score (treasure points, say), by name.
        extra = [
            f"{key.replace('_', ' ')} {value[p]}" for key, value in info.items() if _per_player(key, value, n)
        ]
        print(
            f"player_{p}{tag}: score {info['score'][p]}{''.join(', ' + e for e in extra)}"
            f"{'  WINNER' if info['winner'][p] else ''}"
        )
    for key, names in game.info_names.items():
        if isinstance(info.get(key), int) and 0 <= info[key] < len(names):
            print(f"{key.replace('_', ' ')}: {names[info[key]]}")
    return 0


def _per_player(key: str, value: object, n: int) -> bool:
    return key not in ("score", "winner") and isinstance(value, list) and len(value) == n


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="treasure-envs", description=__doc__, formatter_class=DefaultsHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="games, player counts and options").set_defaults(run=cmd_list)

    selfplay = sub.add_parser("selfplay", help="N games between random or scripted players")
    add_game_arguments(selfplay)
    selfplay.add_argument("--games", type=int, default=1000, help="games to play")
    selfplay.add_argument(
        "--agents",
        default=None,
        help="comma-separated agent per seat, or one for all (default: bot,random,...)",
    )
    selfplay.add_argument("--seed", type=int, default=0, help="seed of the series")
    selfplay.add_argument(
        "--no-rotate",
        dest="rotate",
        action="store_false",
        help="keep agents in their seats (off by default: seats rotate)",
    )
    selfplay.add_argument("--no-progress", action="store_true", help="no progress on stderr")
    selfplay.add_argument(
        "--record", metavar="DIR", help="write each game as a replay file in DIR (default: none written)"
    )
    selfplay.set_defaults(run=cmd_selfplay)

    play = sub.add_parser("play", help="play one seat in the terminal against bots")
    add_game_arguments(play)
    play.add_argument("--seat", type=int, default=0, help="your seat, from 0")
    play.add_argument(
        "--opponents", default="bot", help="random, a scripted bot, or the search (mcts, mcts:sims=400,c=1.4)"
    )
    play.add_argument("--seed", type=int, default=None, help="the game's seed (default: drawn)")
    play.set_defaults(run=cmd_play)
    train.add_subcommand(sub)
    rllib_train.extend_train_parser(sub.choices["train"])  # --engine rllib
    evaluate.add_subcommand(sub)
    add_bench_subcommand(sub)
    warmup.add_subcommand(sub)
    serve.add_subcommand(sub)
    replay.add_subcommand(sub)
    # One formatter for every subcommand, the modules' own included: each entry shows its default.
    for subcommand in sub.choices.values():
        subcommand.formatter_class = DefaultsHelpFormatter
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    # Game options may come as their own flags (--board jungle); the game checks them.
    args, args.game_flags = parser.parse_known_args(argv)
    if args.game_flags and not hasattr(args, "option"):
        parser.error(f"unrecognized arguments: {' '.join(args.game_flags)}")
    try:
        if args.command == "selfplay":
            if args.games < 1:
                raise ValueError(f"--games must be at least 1; got {args.games}")
            if args.agents is None:
                game = get_game(args.game)
                players = args.players or game.default_players
                bot = next(iter(game.bots), "random")
                args.agents = ",".join([bot] + ["random"] * (players - 1))
        return args.run(args)
    except ValueError as error:
        print(f"treasure-envs: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
