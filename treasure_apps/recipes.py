"""A learning recipe per game: the players, game options and training settings that
`treasure-envs train GAME --recipe` uses, each measured on the 2-core machine to finish within
30 minutes, its final evaluation included (the README's Results table).

A flag given beside --recipe overrides the recipe's value for it; an option the recipe does not
set takes train's default. A recipe's settings are TrainConfig fields (treasure_apps.train),
plus `players` and the game `options`; the RLlib engine uses its players, options and minutes.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Recipe:
    players: int
    options: dict[str, Any]
    settings: dict[str, Any] = field(default_factory=dict)
    why: str = ""


# Levers (docs/training.md, "Recipes"): score_diff rewards (denser than win/loss); a warm start
# by cloning the search bot (`teacher`) into a wider network, then PPO at a lower learning rate
# and entropy bonus, so that it refines the cloned play rather than unlearning it.
WARM_START: dict[str, Any] = {
    "minutes": 25.0,
    "steps": 2_000_000,  # a cap the budget reaches first
    "teacher": "mcts:sims=200",
    "teacher_decisions": 60_000,  # the teacher stops at 30% of the budget if this takes longer
    "net_arch": [256, 256],
    "learning_rate": 1e-4,
    "ent_coef": 0.003,
    "eval_every": 100_000,
}
SCORE_DIFF = {"reward": "score_diff"}

RECIPES: dict[str, Recipe] = {
    "nakbe": Recipe(2, SCORE_DIFF, WARM_START, why="move_preview in the observation; the search as teacher"),
    # The bot in three quarters of the opponent seats and PPO at a third of the learning rate:
    # at the shared base's, PPO took the clone from 0.505 to 0.371 against the bot.
    "karuba": Recipe(2, SCORE_DIFF, WARM_START | {"fixed_share": 0.75, "learning_rate": 3e-5}),
    # The bot as teacher: the search's self-play games run to thousands of decisions (6 games
    # in 8 minutes, a clone worse than random play), the bot's to 180 (200,000 decisions in 17 s).
    # PPO after it as gently as measured (docs/training.md): no discount, 3e-5, no entropy bonus.
    "pharaoh": Recipe(
        2,
        SCORE_DIFF,
        WARM_START
        | {
            "teacher": "bot",
            "teacher_decisions": 200_000,
            "gamma": 1.0,
            "learning_rate": 3e-5,
            "ent_coef": 0.0,
        },
    ),
    # Three quarters of the opponent seats the bot: the yardstick it is measured against.
    "tomb": Recipe(3, SCORE_DIFF, WARM_START | {"fixed_share": 0.75}),
    # As measured: PPO at its usual learning rate and entropy after the clone, a point of the
    # curve every 25,000 steps (the RLlib row ran with the shared base's 100,000).
    "nakum": Recipe(
        2,
        SCORE_DIFF,
        WARM_START
        | {"teacher_decisions": 40_000, "learning_rate": 3e-4, "ent_coef": 0.01, "eval_every": 25_000},
    ),
}
# Nakum's solo game against Chaak'Bot is its own row: the same recipe with `--players 1`.


def recipe_for(game: str) -> Recipe:
    if game not in RECIPES:
        raise ValueError(f"no recipe for {game!r}; recipes: {', '.join(RECIPES)}")
    return RECIPES[game]


def recipe_command(game: str, engine: str = "sb3") -> str:
    """The README's one command for a game's recipe."""
    if engine == "sb3":
        return f"treasure-envs train {game} --recipe --out runs/{game}_recipe"
    return f"treasure-envs train {game} --recipe --engine {engine} --out runs/{game}_recipe_{engine}"


def apply_recipe(args: argparse.Namespace, defaults: dict[str, Any]) -> None:
    """Fill the train flags left unset (None): from the game's recipe with --recipe, then from
    `defaults` (name -> value). Recipe options come before the user's own --option pairs, so
    those win."""
    recipe = recipe_for(args.game) if getattr(args, "recipe", False) else None
    if recipe is not None:
        if args.players is None:
            args.players = recipe.players
        pairs = [f"{name}={value}" for name, value in recipe.options.items()]
        args.option = pairs + list(args.option)
        for name, value in recipe.settings.items():
            if getattr(args, name, None) is None:
                setattr(args, name, value)
    for name, value in defaults.items():
        if getattr(args, name, None) is None:
            setattr(args, name, value)
