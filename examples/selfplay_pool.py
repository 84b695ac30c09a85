"""Self-play against a pool of the learner's own past snapshots, mixed with the scripted bot,
with several games collected side by side in one process.

    python examples/selfplay_pool.py [GAME]

This is what `treasure-envs train GAME` does, written out: every SNAPSHOT_EVERY steps a
frozen copy of the learner joins the pool; each opponent seat of each new game is the bot
with probability FIXED_SHARE, otherwise a snapshot drawn from the newest MAX_SNAPSHOTS.
"""

import sys

from sb3_contrib import MaskablePPO

from treasure_adapters.single_agent import OpponentPool
from treasure_apps.evaluate import policy_factory, round_robin
from treasure_apps.policy import PolicyAgent, SnapshotCallback, TreasureVecEnv
from treasure_core import get_game

GAME = sys.argv[1] if len(sys.argv) > 1 else "nakbe"
STEPS = 60_000
SNAPSHOT_EVERY = 15_000
FIXED_SHARE = 0.5
MAX_SNAPSHOTS = 8

game = get_game(GAME)
bot = next(iter(game.bots), "random")
pool = OpponentPool(game, fixed=[bot], fixed_share=FIXED_SHARE, max_snapshots=MAX_SNAPSHOTS)
# 16 games in one VecEnv: snapshot opponents of all 16 decide in one batched forward pass.
env = TreasureVecEnv(game, n_envs=16, opponents=pool, seed=0)
model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=256, n_epochs=4, gamma=0.995, seed=0)
model.learn(total_timesteps=STEPS, callback=SnapshotCallback(pool, SNAPSHOT_EVERY), progress_bar=True)

# A round robin between random play, the bot, the first snapshot (the untrained network)
# and the final learner, with Elo ratings.
options = game.validate({})
players = {
    "random": policy_factory(game, "random")[0],
    bot: policy_factory(game, bot)[0],
    "untrained": pool.snapshots[0],
    "learner": lambda seed: PolicyAgent(model.policy, seed, deterministic=True),
}
table, elo = round_robin(game, options, players, n_games=200)
for name, row, rating in zip(players, table, elo, strict=True):
    print(f"{name:<10}", " ".join("  -  " if x != x else f"{x:.2f}" for x in row), f"Elo {rating:+.0f}")
