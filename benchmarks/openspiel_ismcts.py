"""OpenSpiel's ISMCTSBot over treasure_adapters.openspiel against the game's scripted bot.

    python benchmarks/openspiel_ismcts.py                       # every game, 2 players (or the minimum)
    python benchmarks/openspiel_ismcts.py nakbe karuba --games 40 --simulations 100

One ISMCTS seat (random-rollout evaluator, UCT c = 2) against the game's first scripted bot in
every other seat, at 2 players or the game's minimum (Tomb Trader: 3); the ISMCTS seat rotates
game by game. It prints, per game, the ISMCTS seat's win rate with its 95% Wilson interval (a
shared victory counts as a win; a game cut by the guard is no one's win; an equal player wins
1/n), and the decisions per second of each side, timed around its own decisions only.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import treasure_adapters.openspiel as adapter
from treasure_apps.stats import WinRate
from treasure_core.registry import all_games, get_game


def players_for(name: str) -> int:
    return max(2, get_game(name).min_players)


def run(name: str, games: int, simulations: int, seed: int) -> dict:
    spec = get_game(name)
    players = players_for(name)
    game = pyspiel.load_game(adapter.short_name(name), {"num_players": players})
    bot_name, make_bot = next(iter(spec.bots.items()))
    warm = game.new_initial_state(seed)  # compile (or load) the bot's kernel before timing it
    make_bot(0).policy(warm.array, warm.current_player(), 0)
    wins = truncated = 0
    search_time = bot_time = 0.0
    search_decisions = bot_decisions = 0
    for index in range(games):
        seat = index % players
        random_state = np.random.RandomState(seed + index)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        searcher = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=random_state)
        scripted = make_bot(seed + index)
        state = game.new_initial_state(seed + index)
        while not state.is_terminal():
            player = state.current_player()
            start = time.perf_counter()
            if player == seat:
                action = int(searcher.step(state))
                search_time += time.perf_counter() - start
                search_decisions += 1
            else:
                action = int(scripted.policy(state.array, player, scripted.salt))
                bot_time += time.perf_counter() - start
                bot_decisions += 1
            state.apply_action(action)
        if state.truncated():
            truncated += 1
        elif state.returns()[seat] > 0:
            wins += 1
    return {
        "game": name,
        "players": players,
        "bot": bot_name,
        "rate": WinRate(wins, games, truncated),
        "search_rate": search_decisions / max(search_time, 1e-9),
        "bot_rate": bot_decisions / max(bot_time, 1e-9),
        "search_decisions": search_decisions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_to_run", nargs="*", help="games (default: every registered game)")
    parser.add_argument("--games", type=int, default=40, help="games per game (default 40)")
    parser.add_argument("--simulations", type=int, default=50, help="ISMCTS simulations a decision")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    names = args.games_to_run or [spec.name for spec in all_games()]
    print(f"ISMCTS ({args.simulations} simulations, random rollouts) vs the scripted bot, {args.games} games")
    print("| game | players | ISMCTS wins (95% CI) | equal share | truncated | ISMCTS dec/s | bot dec/s |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for name in names:
        row = run(name, args.games, args.simulations, args.seed)
        print(
            f"| {name} | {row['players']} | {row['rate']} | {1 / row['players']:.3f} "
            f"| {row['rate'].truncated} | {row['search_rate']:,.1f} | {row['bot_rate']:,.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
