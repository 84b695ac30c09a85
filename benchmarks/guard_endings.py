"""How games end: by their rules or cut by their guard (GameSpec.guard), for random play and for
the scripted bots, at every player count of every game that declares a guard.

    python benchmarks/guard_endings.py                 # every game with a guard
    python benchmarks/guard_endings.py nakum --bot-games 300 --random-games 2000

Random play runs inside the playout kernel (BatchRunner.random_playout) until the asked number
of games has ended; the bots play whole games through the AEC env (play_game). A guard should
cut at most a few percent of bot games, and random play should reach a rulebook end in at least
95% of games where the rules allow it (DESIGN.md, "guards as truncations").
"""

from __future__ import annotations

import argparse

from treasure_core.aec import TreasureAECEnv
from treasure_core.agents import agent_factory, play_game
from treasure_core.batch import BatchRunner
from treasure_core.registry import all_games, get_game

BATCH = 256  # random games side by side
CHUNK = 200  # playout steps per game between counts


def random_endings(game, players: int, games: int, seed: int) -> tuple[int, int]:
    """(ended by the rules, cut by the guard) over at least `games` random games."""
    runner = BatchRunner(game, BATCH, seed=seed, num_players=players)
    finished = truncated = 0
    chunk = 0
    while finished + truncated < games:
        _, ended = runner.random_playout(CHUNK, seed=seed + chunk)
        finished += ended
        truncated += runner.playout_truncated
        chunk += 1
    return finished, truncated


def bot_endings(game, players: int, games: int, seed: int) -> tuple[int, int]:
    """(ended by the rules, cut by the guard) over `games` games of the first bot in every seat."""
    aec = TreasureAECEnv(game, num_players=players)
    bot = agent_factory(game, next(iter(game.bots)))
    cut = 0
    for g in range(games):
        play_game(aec, [bot(seed + g * players + p) for p in range(players)], seed + g)
        cut += aec.is_truncated()
    return games - cut, cut


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", help="game names (default: every game with a guard)")
    parser.add_argument("--random-games", type=int, default=1000)
    parser.add_argument("--bot-games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    games = [get_game(name) for name in args.games] or [g for g in all_games() if g.guard is not None]
    print("| game | players | guard | random: rules / guard | random reach an end | bots: rules / guard |")
    print("|---|---:|---|---:|---:|---:|")
    for game in games:
        for players in range(game.min_players, game.max_players + 1):
            options = game.validate({"num_players": players})
            guard = game.guard.describe(options) if game.guard else "none"
            rules, cut = random_endings(game, players, args.random_games, args.seed)
            bots = bot_endings(game, players, args.bot_games, args.seed) if game.bots else (0, 0)
            share = rules / (rules + cut)
            row = [game.name, players, guard, f"{rules} / {cut}", f"{share:.1%}", f"{bots[0]} / {bots[1]}"]
            print("| " + " | ".join(map(str, row)) + " |", flush=True)


if __name__ == "__main__":
    main()
