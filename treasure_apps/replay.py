"""Recorded games: the replay file (game, version, options, seed, actions, players), writing
one per game from `selfplay --record DIR` and `eval --record DIR`, replaying it exactly, and
`treasure-envs replay FILE`: a page with a step slider and a viewer choice, served on
127.0.0.1 or written by `--html OUT.html` as one self-contained file that needs no server.

A replay is `reset(seed)` with the options, then the actions, each through the AEC env's own
check (illegal_action="raise"): a file whose actions the game does not accept is a ValueError
naming the step, never a different game. docs/play.md describes the format.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from treasure_apps.web.server import add_server_arguments, board_view, serve_app, static_app, web_file
from treasure_core.aec import TreasureAECEnv, agent_name
from treasure_core.agents import Agent
from treasure_core.game import GameSpec, rules_options
from treasure_core.header import CURRENT_PLAYER
from treasure_core.registry import get_game

REPLAY_FORMAT = "treasure-envs-replay/1"
REPLAY_KEYS = ("format", "game", "version", "options", "seed", "actions")


def replay_record(
    game: GameSpec,
    options: dict[str, Any],
    seed: int,
    actions: list[int],
    players: list[str],
    result: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One game as a replay file's content: enough to replay it exactly."""
    record: dict[str, Any] = {
        "format": REPLAY_FORMAT,
        "game": game.name,
        "version": game.env_name,
        "options": rules_options(game.validate(options)),
        "seed": int(seed),
        "players": list(players),
        "actions": [int(a) for a in actions],
    }
    if result is not None:
        record["result"] = result
    return record


def game_result(game: GameSpec, state: np.ndarray, truncated: bool) -> dict[str, Any]:
    """The end of a game as a replay file keeps it (a check, not needed to replay)."""
    info = game.final_info(state, truncated=truncated)
    return {"score": info["score"], "winner": info["winner"], "truncated": bool(truncated)}


def write_replay(path: str | Path, record: dict[str, Any]) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, separators=(",", ":")) + "\n")
    return path


def load_replay(path: str | Path) -> dict[str, Any]:
    """A replay file, its keys checked; a file that is not one is a ValueError saying why."""
    path = Path(path)
    try:
        record = json.loads(path.read_text())
    except FileNotFoundError:
        raise ValueError(f"no replay file {path}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"{path} is not a replay file (not JSON: {error})") from None
    if not isinstance(record, dict) or record.get("format") != REPLAY_FORMAT:
        raise ValueError(f"{path} is not a replay file: its format must be {REPLAY_FORMAT!r}")
    missing = [key for key in REPLAY_KEYS if key not in record]
    if missing:
        raise ValueError(f"{path}: the replay file has no {', '.join(missing)}")
    if not isinstance(record["actions"], list) or not isinstance(record["options"], dict):
        raise ValueError(f"{path}: actions must be a list and options an object")
    return record


@dataclass
class Replayed:
    """A replayed game: the state before each step and after the last, who took each step."""

    game: GameSpec
    record: dict[str, Any]
    env: TreasureAECEnv
    states: list[np.ndarray] = field(default_factory=list)  # len(actions) + 1
    actors: list[int] = field(default_factory=list)  # the seat of each action


def replay(record: dict[str, Any]) -> Replayed:
    """reset(seed) with the record's options, then every action through the env's check."""
    game = get_game(record["game"])
    if record["version"] != game.env_name:
        raise ValueError(
            f"the replay was recorded with {record['version']}; this is {game.env_name}: the rules "
            "or encodings changed since, so it would not replay the same game"
        )
    env = TreasureAECEnv(game, **{**record["options"], "illegal_action": "raise"})
    env.reset(seed=record["seed"])
    done = Replayed(game, record, env, [env.get_state()])
    for index, action in enumerate(record["actions"]):
        if env.is_over():
            raise ValueError(
                f"the replay has {len(record['actions'])} actions, but the game ended after {index}"
            )
        seat = int(env.get_state()[CURRENT_PLAYER])
        try:
            env.step(action)
        except ValueError as error:
            raise ValueError(f"step {index} of the replay: {error}") from None
        done.actors.append(seat)
        done.states.append(env.get_state())
    return done


class RecordingAgent(Agent):
    """An agent that notes every action it takes in a shared list (the game's actions in order,
    when every seat's agent shares the list)."""

    def __init__(self, inner: Agent, actions: list[int]):
        self.inner = inner
        self.actions = actions
        self.name = getattr(inner, "name", type(inner).__name__)

    def act(self, env: TreasureAECEnv, agent: str) -> int:
        action = int(self.inner.act(env, agent))
        self.actions.append(action)
        return action


class Recorder:
    """Writes each game of a run as DIR/<game>-<run>-<number>.json."""

    def __init__(self, directory: str | Path, game: GameSpec, options: dict[str, Any], label: str = "games"):
        self.directory = Path(directory)
        self.game = game
        self.options = options
        self.label = label
        self.count = 0
        self.directory.mkdir(parents=True, exist_ok=True)

    def write(self, seed: int, actions: list[int], players: list[str], env: TreasureAECEnv) -> Path:
        result = game_result(self.game, env.get_state(), env.is_truncated())
        record = replay_record(self.game, self.options, seed, actions, players, result)
        path = self.directory / f"{self.game.name}-{self.label}-{self.count:05d}.json"
        self.count += 1
        return write_replay(path, record)


# -- the replay page ---------------------------------------------------------------------------
class PieceTable:
    """Boards as runs over one table of pieces (an SVG element, a text line): consecutive boards
    share most of their pieces, so a replay's thousands of boards take little more room than
    the pieces that change."""

    SPLIT = re.compile(r"(?<=[>\n])")  # after each tag and each line: the joined pieces are the board

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self._index: dict[str, int] = {}

    def runs(self, content: str) -> list[list[int]]:
        """`content` as [start, length] runs of consecutive pieces of the table."""
        runs: list[list[int]] = []
        for piece in filter(None, self.SPLIT.split(content)):
            if piece not in self._index:
                self._index[piece] = len(self.pieces)
                self.pieces.append(piece)
            at = self._index[piece]
            if runs and runs[-1][0] + runs[-1][1] == at:
                runs[-1][1] += 1
            else:
                runs.append([at, 1])
        return runs


def replay_frames(done: Replayed) -> dict[str, Any]:
    """Every step's board for every viewer (the full view and each seat), each distinct board
    kept once as runs over a PieceTable, and each step's action in words."""
    game = done.game
    n = done.env.num_players
    viewers: list[int | None] = [None, *range(n)]
    table = PieceTable()
    boards: list[dict[str, Any]] = []
    index_of: dict[tuple[str, str], int] = {}
    frames: dict[str, list[int]] = {}
    for viewer in viewers:
        key = "full" if viewer is None else str(viewer)
        frames[key] = []
        for state in done.states:
            board = board_view(game, state, viewer)
            token = (board["kind"], board["content"])
            if token not in index_of:
                index_of[token] = len(boards)
                boards.append({"kind": board["kind"], "runs": table.runs(board["content"])})
            frames[key].append(index_of[token])
    steps = [
        f"{agent_name(seat)}: {game.action_name(before, int(action), seat)}"
        for seat, before, action in zip(done.actors, done.states[:-1], done.record["actions"], strict=True)
    ]
    final = done.states[-1]
    result = game_result(game, final, done.env.is_truncated()) if done.env.is_over() else None
    return {
        "title": game.title,
        "version": game.env_name,
        "seed": done.record["seed"],
        "options": done.record["options"],
        "players": done.record.get("players", []),
        "viewers": [{"key": "full", "name": "full view"}]
        + [{"key": str(p), "name": f"{agent_name(p)}'s view"} for p in range(n)],
        "pieces": table.pieces,
        "boards": boards,
        "frames": frames,
        "steps": steps,
        "actors": done.actors,
        "result": result,
    }


def replay_page(done: Replayed) -> str:
    """The whole replay as one HTML page: the frames, the script and the style inline."""
    data = json.dumps(replay_frames(done), separators=(",", ":"))
    data = data.replace("</", "<\\/")  # no "</script>" inside the script
    page = web_file("replay.html")
    page = page.replace("/*STYLE*/", web_file("page.css"))
    page = page.replace("/*DATA*/null", data)
    page = page.replace(
        "<!--TITLE-->", html.escape(f"{done.game.title}: replay (seed {done.record['seed']})")
    )
    return page


def run(args: argparse.Namespace) -> int:
    try:
        done = replay(load_replay(args.file))
        page = replay_page(done)
        if args.html:
            out = Path(args.html)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(page)
            print(
                f"{len(done.states) - 1} steps of {done.game.title} written to {out} (open it in a browser)"
            )
            return 0
        return serve_app(static_app(page), args.host, args.port, args.max_seconds, "the replay")
    except ValueError as error:
        print(f"treasure-envs: error: {error}", file=sys.stderr)
        return 2


def add_subcommand(subparsers: Any) -> None:
    """Register `treasure-envs replay`."""
    parser = subparsers.add_parser(
        "replay", help="show a recorded game (step slider, any seat's view); --html writes one page"
    )
    parser.add_argument("file", help="a replay file (selfplay --record, eval --record, the web page's save)")
    parser.add_argument(
        "--html", metavar="OUT.html", help="write a self-contained page instead of serving (default: serve)"
    )
    add_server_arguments(parser)
    parser.set_defaults(run=run)
