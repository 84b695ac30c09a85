"""How Het goud van de Farao games end, for the scripted bots and for random play, at 2, 3 and 4
players: by the rules (the collapse) or otherwise (the round-limit guard, a truncation; before
pharaoh_v1, the kernels' own "turn cap"), how long they last in rounds, and the bot's win rate
against random players with 95% Wilson intervals.

    python benchmarks/pharaoh_endings.py                      # 1,000 games of each kind
    python benchmarks/pharaoh_endings.py --bot-games 200 --random-games 500 --win-games 300

Random play runs through the batch runner (uniform legal actions, numpy); the bots play whole
games through the AEC env. Run from another checkout (PYTHONPATH) to measure its code: the
script reads only the GameSpec, the final infos and the state's END_CONDITION.
"""

from __future__ import annotations

import argparse

import numpy as np

from treasure_apps.evaluate import win_rate
from treasure_core.aec import TreasureAECEnv
from treasure_core.agents import RandomAgent, agent_factory, play_game
from treasure_core.batch import BatchRunner
from treasure_core.registry import get_game

BATCH = 1000  # random games side by side (each slot's first game counts)
PERCENTILES = (5, 25, 50, 75, 95, 100)


def _ending_name(game, code: int, truncated: bool) -> str:
    names = game.info_names.get("end_condition", ())
    if truncated and game.guard is not None:
        return "guard " + (names[game.guard.end_condition] if game.guard.end_condition is not None else "")
    return names[code] if 0 <= code < len(names) else str(code)


def random_endings(game, players: int, games: int, seed: int) -> tuple[dict[str, int], list[float]]:
    """How `games` random games ended (by name) and their lengths in rounds: each game slot of
    the batch runner counts its first game only (later ones would favour short games)."""
    from pharaoh_env.state import END_CONDITION, TURN

    kernels = game.kernels
    endings: dict[str, int] = {}
    rounds: list[float] = []
    for first in range(0, games, BATCH):
        size = min(BATCH, games - first)
        runner = BatchRunner(game, size, seed=seed + first, num_players=players)
        rng = np.random.default_rng(seed + first)
        live = np.ones(size, np.bool_)
        while live.any():
            masks = runner.legal_masks()
            actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
            before = runner.states.copy()
            _, dones = runner.step(actions)
            for i in np.flatnonzero(dones & live):
                live[i] = False
                ended = before[i].copy()  # the auto-reset replaced it: replay its last decision
                kernels.step(ended, int(actions[i]))
                cut = bool(runner.truncated[i]) if hasattr(runner, "truncated") else False
                name = _ending_name(game, int(ended[END_CONDITION]), cut)
                endings[name] = endings.get(name, 0) + 1
                rounds.append(int(ended[TURN]) / players)
    return endings, rounds


def bot_endings(game, players: int, games: int, seed: int) -> tuple[dict[str, int], list[float]]:
    """How `games` games of the bot in every seat ended and their lengths in rounds."""
    aec = TreasureAECEnv(game, num_players=players)
    bot = agent_factory(game, "bot")
    endings: dict[str, int] = {}
    rounds: list[float] = []
    for g in range(games):
        info = play_game(aec, [bot(seed + g * players + p) for p in range(players)], seed + g)
        cut = aec.is_truncated() if hasattr(aec, "is_truncated") else False
        name = _ending_name(game, int(info["end_condition"]), cut)
        endings[name] = endings.get(name, 0) + 1
        rounds.append(info["turns"] / players)
    return endings, rounds


def _table_cell(endings: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in sorted(endings.items()))


def _lengths(rounds: list[float]) -> str:
    values = np.percentile(np.array(rounds), PERCENTILES)
    return " / ".join(f"{v:.0f}" for v in values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bot-games", type=int, default=1000)
    parser.add_argument("--random-games", type=int, default=1000)
    parser.add_argument("--win-games", type=int, default=1000, help="bot vs random, per player count")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = get_game("pharaoh")
    print(f"{game.env_name}; lengths in rounds, percentiles {PERCENTILES}")
    print("| players | guard | who | games | endings | collapse share | rounds p5/p25/p50/p75/p95/max |")
    print("|---:|---|---|---:|---|---:|---|")
    for players in args.players:
        options = game.validate({"num_players": players})
        guard = game.guard.describe(options) if game.guard else "kernel turn cap"
        for who, run, count in (
            ("bots", bot_endings, args.bot_games),
            ("random", random_endings, args.random_games),
        ):
            if count <= 0:
                continue
            endings, rounds = run(game, players, count, args.seed)
            share = endings.get("collapsed", 0) / len(rounds)
            row = [players, guard, who, len(rounds), _table_cell(endings), f"{share:.1%}", _lengths(rounds)]
            print("| " + " | ".join(map(str, row)) + " |", flush=True)
    if args.win_games > 0:
        print()
        print("| players | games | bot's win rate vs random [95% Wilson] | truncated |")
        print("|---:|---:|---|---:|")
        bot = agent_factory(game, "bot")
        for players in args.players:
            options = game.validate({"num_players": players})
            result = win_rate(game, options, bot, RandomAgent, args.win_games, seed=args.seed)
            print(f"| {players} | {result.games} | {result} | {result.truncated} |", flush=True)


if __name__ == "__main__":
    main()
