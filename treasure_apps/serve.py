"""`treasure-envs serve GAME`: a page on 127.0.0.1 where a person plays one seat against any
agents (random, a bot, the search, a checkpoint). Starlette serves it, uvicorn runs it.

The person acts by clicking a board element (an SVG element of class "target" whose
`data-actions` names the legal actions it stands for: one is played at once, several are
offered) or an entry of the list of every legal action. Each request goes through the AEC
env's own check (illegal_action="raise"), for the person's seat only and only on its turn, so
a forged request gets a clear error and changes nothing. The page lists the events since the
person's last turn (the env's `events_since` where it has one).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import threading
from typing import Any

import numpy as np

from treasure_apps.replay import game_result, replay_record
from treasure_apps.web.server import add_server_arguments, board_view, serve_app, web_file
from treasure_core.aec import TreasureAECEnv, agent_name
from treasure_core.agents import Agent
from treasure_core.game import GameSpec
from treasure_core.header import DECISIONS
from treasure_core.registry import get_game, module_of


class PlaySession:
    """One person's games at one seat: the env, the agents in the other seats, and the log of
    the game so far (its actions, for the replay file; its steps, for the events)."""

    def __init__(
        self,
        game: GameSpec,
        options: dict[str, Any],
        seat: int,
        agents: list[tuple[str, Any]],
        seed: int,
    ):
        self.game = game
        module = importlib.import_module(module_of(game.name))
        # The game's own raw env (it may keep events), in the strict mode: an illegal action is a
        # ValueError and changes nothing.
        self.env: TreasureAECEnv = module.raw_env(
            render_mode="ansi", **{**options, "illegal_action": "raise"}
        )
        self.options = self.env.options
        self.num_players = self.env.num_players
        if not 0 <= seat < self.num_players:
            raise ValueError(f"--seat must be from 0 to {self.num_players - 1}; got {seat}")
        self.seat = seat
        self.env.render_viewer = seat
        self.agent_specs = agents  # (label, factory seed -> Agent) per seat; the person's unused
        self.next_seed = seed
        self.lock = threading.Lock()
        self.new_game()

    @property
    def me(self) -> str:
        return agent_name(self.seat)

    def players(self) -> list[str]:
        return [("person" if p == self.seat else label) for p, (label, _) in enumerate(self.agent_specs)]

    def new_game(self) -> None:
        self.seed = self.next_seed
        self.next_seed += 1
        self.agents: list[Agent | None] = [
            None if p == self.seat else factory(self.seed * (self.num_players + 1) + p)
            for p, (_, factory) in enumerate(self.agent_specs)
        ]
        self.env.reset(seed=self.seed)
        self.actions: list[int] = []
        self._advance()

    def _apply(self, action: Any) -> None:
        self.env.step(action)  # the env's own check: ValueError, nothing changed
        self.actions.append(int(action))

    def _advance(self) -> None:
        """The agents play until it is the person's turn or the game is over."""
        env = self.env
        while not env.is_over() and env.agent_selection != self.me:
            agent = env.agent_selection
            self._apply(self.agents[env.player_of(agent)].act(env, agent))

    def act(self, action: Any, decision: Any = None) -> None:
        """The person's action, as the request gave it: checked, or a ValueError that changes
        nothing. `decision` (the decision count the page showed) refuses a stale page."""
        env = self.env
        if env.is_over():
            raise ValueError("the game is over; start a new one")
        if env.agent_selection != self.me:  # cannot happen between requests: the agents ran
            raise ValueError(f"it is {env.agent_selection}'s turn, not yours ({self.me})")
        if decision is not None and decision != int(env.get_state()[DECISIONS]):
            raise ValueError(
                f"the page showed decision {decision!r}; the game is at decision "
                f"{int(env.get_state()[DECISIONS])}: reload it"
            )
        self._apply(action)
        self._advance()

    def events(self) -> list[str]:
        """The events since the person's last turn (the others' decisions, the chance results,
        the effects), in words as the person's seat may know them: the env's own list."""
        return list(self.env.events_since(self.seat))

    def legal(self) -> list[dict[str, Any]]:
        env = self.env
        if env.is_over() or env.agent_selection != self.me:
            return []
        state = env.get_state()
        return [
            {"action": a, "name": self.game.action_name(state, a, self.seat)}
            for a in np.flatnonzero(env.action_mask(self.me)).tolist()
        ]

    def result(self) -> list[str]:
        env = self.env
        if not env.is_over():
            return []
        info = self.game.final_info(env.get_state(), truncated=env.is_truncated())
        lines = [f"game over: {env.how_it_ended()}"]
        for p in range(self.num_players):
            tag = " (you)" if p == self.seat else ""
            won = "  WINNER" if info["winner"][p] else ""
            lines.append(f"{agent_name(p)}{tag}: score {info['score'][p]}{won}")
        return lines

    def view(self) -> dict[str, Any]:
        state = self.env.get_state()
        return {
            "game": self.game.name,
            "title": self.game.title,
            "version": self.game.env_name,
            "seat": self.seat,
            "me": self.me,
            # The seed decides every hidden card: the person learns it once the game is over.
            "seed": self.seed if self.env.is_over() else None,
            "players": self.players(),
            "decision": int(state[DECISIONS]),
            "over": self.env.is_over(),
            "board": board_view(self.game, state, self.seat),
            "legal": self.legal(),
            "events": self.events(),
            "result": self.result(),
        }

    def record(self) -> dict[str, Any]:
        """The finished game as a replay file (treasure_apps.replay). Not before the end: its seed
        and the others' actions would tell the person every hidden card."""
        if not self.env.is_over():
            raise ValueError(
                "the replay file holds the seed, which decides every hidden card: "
                "it is given once the game is over"
            )
        result = game_result(self.game, self.env.get_state(), self.env.is_truncated())
        return replay_record(self.game, self.options, self.seed, self.actions, self.players(), result)


def play_app(session: PlaySession) -> Any:
    """The Starlette app over one session: the page, its view, its actions."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    page = web_file("play.html").replace("/*STYLE*/", web_file("page.css"))

    def index(request: Request) -> Response:
        return HTMLResponse(page)

    def view(request: Request) -> Response:
        with session.lock:
            return JSONResponse(session.view())

    async def act(request: Request) -> Response:
        try:
            body = await request.json()
        except ValueError:
            return JSONResponse({"error": 'the request must be JSON: {"action": N}'}, status_code=400)
        if not isinstance(body, dict) or "action" not in body:
            return JSONResponse({"error": 'the request must be JSON: {"action": N}'}, status_code=400)

        def apply() -> Response:
            with session.lock:
                try:
                    session.act(body["action"], body.get("decision"))
                except ValueError as error:
                    return JSONResponse({"error": str(error), "view": session.view()}, status_code=400)
                return JSONResponse(session.view())

        from starlette.concurrency import run_in_threadpool

        return await run_in_threadpool(apply)  # the agents' moves (a search) off the event loop

    def new(request: Request) -> Response:
        with session.lock:
            session.new_game()
            return JSONResponse(session.view())

    def record(request: Request) -> Response:
        with session.lock:
            if not session.env.is_over():
                try:
                    session.record()
                except ValueError as error:
                    return JSONResponse({"error": str(error)}, status_code=409)
            headers = {
                "Content-Disposition": f'attachment; filename="{session.game.name}-{session.seed}.json"'
            }
            return JSONResponse(session.record(), headers=headers)

    routes = [
        Route("/", index),
        Route("/api/view", view),
        Route("/api/act", act, methods=["POST"]),
        Route("/api/new", new, methods=["POST"]),
        Route("/api/replay.json", record),
    ]
    return Starlette(routes=routes)


def build_session(args: argparse.Namespace) -> PlaySession:
    from treasure_apps.arguments import parse_options, split_agents
    from treasure_apps.evaluate import policy_factory

    game = get_game(args.game)
    options = parse_options(game, args.option, args.players, getattr(args, "game_flags", []))
    n = options["num_players"]
    if not 0 <= args.seat < n:
        raise ValueError(f"--seat must be from 0 to {n - 1}; got {args.seat}")
    specs = split_agents(args.agents or next(iter(game.bots), "random"))
    if len(specs) == 1:
        specs = specs * (n - 1)
    if len(specs) != n - 1:
        raise ValueError(
            f"--agents names one agent or {n - 1} (one per other seat, in seat order); got {len(specs)}"
        )
    others = iter(specs)
    agents: list[tuple[str, Any]] = []
    for p in range(n):
        if p == args.seat:
            agents.append(("person", None))
            continue
        spec = next(others)
        agents.append((spec, policy_factory(game, spec)[0]))
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().generate_state(1)[0])
    return PlaySession(game, options, args.seat, agents, seed)


def run(args: argparse.Namespace) -> int:
    try:
        session = build_session(args)
        what = f"{session.game.title}, you at seat {session.seat} ({session.me})"
        return serve_app(play_app(session), args.host, args.port, args.max_seconds, what)
    except ValueError as error:
        print(f"treasure-envs: error: {error}", file=sys.stderr)
        return 2


def add_subcommand(subparsers: Any) -> None:
    """Register `treasure-envs serve`."""
    from treasure_apps.arguments import add_game_arguments

    parser = subparsers.add_parser("serve", help="play a seat in the browser against agents")
    add_game_arguments(parser)
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument(
        "--agents",
        default=None,
        help="the other seats: one agent for all, or one per other seat in seat order: random, a bot, "
        "mcts[:sims=400,c=1.4], a checkpoint (default: the game's first bot)",
    )
    parser.add_argument("--seed", type=int, default=None, help="the first game's seed (default: drawn)")
    add_server_arguments(parser)
    parser.set_defaults(run=run)
