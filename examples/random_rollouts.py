"""Random self-play with the batch runner: thousands of games in one state array, stepped,
masked and observed in one call each, no deep-learning library needed.

    python examples/random_rollouts.py [GAME]

Shows the two batch paths: a policy driven from Python (here a uniform random one, standing
in for a network fed with the batched observations), and the in-kernel random playout.
"""

import sys
import time

import numpy as np

from treasure_core import BatchRunner, get_game

GAME = sys.argv[1] if len(sys.argv) > 1 else "nakbe"
N_GAMES = 1024

game = get_game(GAME)
runner = BatchRunner(GAME, n_games=N_GAMES, seed=0)
players = runner.num_players
rng = np.random.default_rng(0)
wins = np.zeros(players)
finished = 0

runner.step(np.argmax(runner.legal_masks(), axis=1))  # first call compiles the kernels
start = time.perf_counter()
steps = 0
while finished < 5_000:
    masks = runner.legal_masks()  # (N_GAMES, n_actions) int8, the player to act in each game
    observations = runner.observe()  # (N_GAMES, obs_size) float32, that player's view
    scores = rng.random(masks.shape) * masks  # any policy: a network would read `observations`
    rewards, dones = runner.step(scores.argmax(axis=1))  # finished games restart by themselves
    wins += (rewards[dones] > 0).sum(axis=0)  # final rewards of the games that just ended
    finished += int(dones.sum())
    steps += N_GAMES
elapsed = time.perf_counter() - start
print(f"{game.title}, {players} players: {finished} games, {steps:,} decisions in {elapsed:.2f} s")
print(f"  {steps / elapsed:,.0f} steps/s driven from Python")
print(f"  share of wins by seat: {np.round(wins / finished, 3)}")

start = time.perf_counter()
steps, ended = runner.random_playout(steps_per_game=2_000, seed=1)  # all inside one kernel
elapsed = time.perf_counter() - start
print(
    f"  in-kernel random playout: {steps:,} decisions, {ended} games in {elapsed:.2f} s "
    f"({steps / elapsed:,.0f} steps/s)"
)
