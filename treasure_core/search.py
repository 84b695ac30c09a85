"""Information-set MCTS with determinization, for every game (docs/search.md).

The search itself is @njit code in each game's generated batch.py (`mcts_simulate`, rendered from
the template in treasure_core.codegen, so numba caches it); this module is its Python face:

    from treasure_core.search import mcts_policy
    agent = mcts_policy("nakbe", sims=400, c=1.4, seed=0)   # an Agent: agent.act(aec, name)

and agent_factory(game, "mcts:sims=400,c=1.4") names the same agent.
"""

from __future__ import annotations

from treasure_core.agents import (
    MCTS_DEFAULTS,
    MCTS_GAME_DEFAULTS,
    MCTS_PLAYOUTS,
    MCTSAgent,
    check_mcts_params,
    mcts_defaults,
    parse_mcts_spec,
    search_module,
)
from treasure_core.game import GameSpec
from treasure_core.registry import get_game

__all__ = [
    "MCTS_DEFAULTS",
    "MCTS_GAME_DEFAULTS",
    "MCTS_PLAYOUTS",
    "MCTSAgent",
    "check_mcts_params",
    "mcts_defaults",
    "mcts_policy",
    "parse_mcts_spec",
    "search_module",
]


def mcts_policy(
    game: GameSpec | str,
    sims: int | None = None,
    c: float | None = None,
    playout: str | None = None,
    epsilon: float | None = None,
    seed: int | None = None,
    max_steps: int | None = None,
    threads: int | None = None,
    time_ms: float | None = None,
) -> MCTSAgent:
    """An MCTS agent for `game` (a GameSpec or a registered name): `sims` simulations per
    decision (or, with `time_ms` > 0, as many as fit in that many milliseconds), UCT exploration
    constant `c`, `playout` "random" (uniform legal moves) or "bot" (the game's scripted bot,
    each move random instead with probability `epsilon`), playouts cut after `max_steps` steps in
    all (scored by the game's returns there), `threads` independent trees (root parallelism over
    numba's threads, the simulations shared among them, the root visits summed; the decision does
    not depend on numba's thread count). A parameter not given takes the game's default
    (treasure_core.agents.mcts_defaults: MCTS_DEFAULTS, with the bot playout in Nakbe, Tomb
    Trader and Nakum and a 100-step playout cap in Pharaoh). The same seed gives the same
    decisions (for a count of simulations); a bad parameter is a ValueError naming the allowed ones."""
    spec = get_game(game) if isinstance(game, str) else game
    given = {
        "sims": sims,
        "c": c,
        "playout": playout,
        "epsilon": epsilon,
        "seed": seed,
        "max_steps": max_steps,
        "threads": threads,
        "time_ms": time_ms,
    }
    return MCTSAgent(spec, **{key: value for key, value in given.items() if value is not None})
