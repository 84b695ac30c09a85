"""Information-set MCTS with determinization, for every game (docs/search.md).

The search itself is @njit code in each game's generated batch.py (`mcts_decide`, rendered from
the template in treasure_core.codegen, so numba caches it); this module is its Python face:

    from treasure_core.search import mcts_policy
    agent = mcts_policy("nakbe", sims=400, c=1.4, seed=0)   # an Agent: agent.act(aec, name)

and agent_factory(game, "mcts:sims=400,c=1.4") names the same agent.
"""

from __future__ import annotations

from treasure_core.agents import (
    MCTS_DEFAULTS,
    MCTS_PLAYOUTS,
    MCTSAgent,
    check_mcts_params,
    parse_mcts_spec,
    search_module,
)
from treasure_core.game import GameSpec
from treasure_core.registry import get_game

__all__ = [
    "MCTS_DEFAULTS",
    "MCTS_PLAYOUTS",
    "MCTSAgent",
    "check_mcts_params",
    "mcts_policy",
    "parse_mcts_spec",
    "search_module",
]


def mcts_policy(
    game: GameSpec | str,
    sims: int = MCTS_DEFAULTS["sims"],
    c: float = MCTS_DEFAULTS["c"],
    playout: str = MCTS_DEFAULTS["playout"],
    seed: int = MCTS_DEFAULTS["seed"],
    max_steps: int = MCTS_DEFAULTS["max_steps"],
    threads: int = MCTS_DEFAULTS["threads"],
) -> MCTSAgent:
    """An MCTS agent for `game` (a GameSpec or a registered name): `sims` simulations per
    decision, UCT exploration constant `c`, `playout` "random", playouts cut after `max_steps`
    steps (scored by the game's returns there), `threads` independent trees (root parallelism over
    numba's threads, the simulations shared among them, the root visits summed; the decision does
    not depend on numba's thread count). The same seed gives the same decisions; a bad
    parameter is a ValueError naming the allowed ones."""
    spec = get_game(game) if isinstance(game, str) else game
    return MCTSAgent(spec, sims=sims, c=c, playout=playout, seed=seed, max_steps=max_steps, threads=threads)
