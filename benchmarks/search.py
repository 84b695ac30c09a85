"""The determinized information-set MCTS (treasure_core.search): speed and strength per game.

    python benchmarks/search.py                       # every game, 1000 games per match
    python benchmarks/search.py --games 20 --games-list nakbe,karuba --sims 100

Per game, with the game's own search defaults (treasure_core.agents.mcts_defaults: its
playout and playout cap, named in the tables): ms per decision at 100 / 400 / 1,600
simulations on one thread and on two (root parallelism: two trees of half the simulations,
numba set to two threads; the mean over positions reached by random play, after a warm-up
compile), and the win rate with its 95% Wilson interval (treasure_apps.stats) of the search at
--sims simulations in one seat against the scripted bot ("bot" in game.bots) and against
random play in all others, at 2 players (3 for Tomb Trader); the seat rotates (game g: seat g
mod n). --spec adds search parameters (e.g. "playout=random,max_steps=300"); --opponents,
--random-games and --seed pick the matches (two runs with different seeds add up to one
sample). Never a timed test.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from treasure_apps.evaluate import win_rate
from treasure_core.aec import TreasureAECEnv
from treasure_core.agents import MCTSAgent, agent_factory, parse_mcts_spec
from treasure_core.header import CURRENT_PLAYER
from treasure_core.registry import get_game

GAMES = ["nakbe", "karuba", "pharaoh", "tomb", "nakum"]
PLAYERS = {"tomb": 3}
SIMS = (100, 400, 1600)


def positions(name: str, players: int, count: int, seed: int = 0) -> list[tuple[np.ndarray, int]]:
    """States reached by a few random moves from fresh deals, none over."""
    env = TreasureAECEnv(get_game(name), num_players=players)
    rng = np.random.default_rng(seed)
    out = []
    for case in range(count):
        env.reset(seed=case)
        for _ in range(int(rng.integers(0, 20))):
            if env.is_over():
                break
            env.step(int(rng.choice(np.flatnonzero(env.action_mask(env.agent_selection)))))
        if not env.is_over():
            state = env.get_state().copy()
            out.append((state, int(state[CURRENT_PLAYER])))
    return out


def ms_per_decision(
    name: str, players: int, sims: int, count: int, threads: int = 1, spec: str = ""
) -> float:
    """The mean ms per decision of the search over `count` positions, numba on `threads` threads."""
    game = get_game(name)
    params = parse_mcts_spec(f"mcts:{spec}", game)
    params.update(sims=sims, seed=1, threads=threads)
    agent = MCTSAgent(game, **params)
    states = positions(name, players, count)
    numba.set_num_threads(threads)
    agent.decide(*states[0])  # compile (or load the cache)
    start = time.perf_counter()
    for state, player in states:
        agent.decide(state, player)
    took = 1000 * (time.perf_counter() - start) / len(states)
    numba.set_num_threads(1)
    return took


def defaults_label(name: str, spec: str = "") -> str:
    params = parse_mcts_spec(f"mcts:{spec}", get_game(name))
    epsilon = f", epsilon {params['epsilon']}" if params["playout"] == "bot" and params["epsilon"] else ""
    return f"{params['playout']}{epsilon}, cap {params['max_steps']}, c {params['c']}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per match (default 1000)")
    parser.add_argument("--sims", type=int, default=400, help="simulations per decision in the matches")
    parser.add_argument("--games-list", default=",".join(GAMES), help="comma-separated game names")
    parser.add_argument("--positions", type=int, default=20, help="positions timed per simulation count")
    parser.add_argument("--no-timing", action="store_true", help="skip the ms-per-decision table")
    parser.add_argument("--no-matches", action="store_true", help="skip the win rates")
    parser.add_argument(
        "--spec", default="", help="search parameters over the game's defaults, key=value,..."
    )
    parser.add_argument("--threads", default="1,2", help="thread counts timed (default 1,2)")
    parser.add_argument("--opponents", default="bot,random", help="the opponents (default bot,random)")
    parser.add_argument(
        "--random-games", type=int, default=0, help="games per match against random (default: --games)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the matches' seed (game g deals from it and g)")
    args = parser.parse_args(argv)
    numba.set_num_threads(1)
    names = [n for n in args.games_list.split(",") if n]
    thread_counts = [int(t) for t in args.threads.split(",") if t]
    if not args.no_timing:
        heads = [f"@{s} ({t}t)" for t in thread_counts for s in SIMS]
        print("| game | players | playout | " + " | ".join(f"ms/decision {h}" for h in heads) + " |")
        print("|---|---|---|" + "---|" * len(heads))
        for name in names:
            players = PLAYERS.get(name, 2)
            cells = [
                f"{ms_per_decision(name, players, s, args.positions, t, args.spec):.2f}"
                for t in thread_counts
                for s in SIMS
            ]
            label = defaults_label(name, args.spec)
            print(f"| {name} | {players} | {label} | " + " | ".join(cells) + " |", flush=True)
    if not args.no_matches:
        print(
            f"\n| game | players | playout | opponent | win rate [95% Wilson] @{args.sims} sims"
            " | games | cut |"
        )
        print("|---|---|---|---|---|---|---|")
        for name in names:
            game = get_game(name)
            players = PLAYERS.get(name, 2)
            search = agent_factory(game, f"mcts:sims={args.sims}" + (f",{args.spec}" if args.spec else ""))
            label = defaults_label(name, args.spec)
            for opponent in [o for o in args.opponents.split(",") if o]:
                start = time.perf_counter()
                other = agent_factory(game, opponent)
                games = args.random_games if opponent == "random" and args.random_games else args.games
                result = win_rate(game, {"num_players": players}, search, other, games, seed=args.seed)
                took = time.perf_counter() - start
                print(
                    f"| {name} | {players} | {label} | {opponent} | {result} | {result.games}"
                    f" | {result.truncated} |"
                    f"  ({took:.0f} s)",
                    flush=True,
                )


if __name__ == "__main__":
    main()
