"""Train MaskablePPO on one seat of Treasures of Nakbe, then measure it. The starting point.

    pip install torch==2.13.0 && pip install -e ".[train]"
    python examples/train_maskable_ppo.py

The learner plays one seat (a random one each game) against the scripted bot; any
registered game works the same way (change GAME). `treasure-envs train` adds self-play
snapshots, checkpoints, TensorBoard logs and a learning curve around the same pieces.
"""

from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env

from treasure_adapters.single_agent import gym_id  # importing it registers every game with Gymnasium
from treasure_apps.evaluate import policy_factory, win_rate
from treasure_apps.policy import PolicyAgent
from treasure_core import get_game

GAME = "nakbe"
PLAYERS = 2
STEPS = 100_000  # learner decisions: a minute or two on one core

# Eight copies of the Gymnasium env "treasure_envs/Nakbe-v2": the learner's seat, the bot in the
# other; each env's action_masks() tells MaskablePPO the legal moves.
env_kwargs = {"opponents": "bot", "num_players": PLAYERS}
env = make_vec_env(gym_id(GAME), n_envs=8, seed=0, env_kwargs=env_kwargs)
model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=256, gamma=0.995, seed=0)
model.learn(total_timesteps=STEPS, progress_bar=True)
model.save("nakbe_ppo.zip")

# Win rate over 400 games with the seat rotated, against random players and against the bot.
game = get_game(GAME)
options = game.validate({"num_players": PLAYERS})


def learner(seed: int) -> PolicyAgent:
    return PolicyAgent(model.policy, seed, deterministic=True)


for opponent in ["random", "bot"]:
    result = win_rate(game, options, learner, policy_factory(game, opponent)[0], n_games=400)
    print(f"vs {opponent}: win rate {result}  (95% interval; an equal player wins {1 / PLAYERS:.2f})")
