"""The pages' shared parts: the files in this folder (the HTML, script and style, as package
data), a board as the pages show it, and a Starlette app run by uvicorn on 127.0.0.1 until
Ctrl-C or a time limit (`serve` and `replay`)."""

from __future__ import annotations

import argparse
import importlib.resources
import socket
import threading
import time
from typing import Any

import numpy as np

from treasure_core.game import GameSpec

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def board_view(game: GameSpec, state: np.ndarray, viewer: int | None) -> dict[str, str]:
    """A board as the pages show it: the game's SVG where it has one, else its text."""
    render_svg = getattr(game, "render_svg", None)
    if render_svg is not None:
        return {"kind": "svg", "content": render_svg(state, viewer=viewer)}
    return {"kind": "text", "content": game.render_ansi(state, viewer=viewer, colour=False)}


def web_file(name: str) -> str:
    """A file of the pages (treasure_apps/web/), as text."""
    return importlib.resources.files("treasure_apps.web").joinpath(name).read_text()


def static_app(page: str) -> Any:
    """A Starlette app that serves one page (a replay) at /."""
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse
    from starlette.routing import Route

    return Starlette(routes=[Route("/", lambda request: HTMLResponse(page))])


def bind(host: str, port: int | None) -> socket.socket:
    """A listening socket: `port`, or DEFAULT_PORT falling back to a free one when it is taken."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, DEFAULT_PORT if port is None else port))
    except OSError as error:
        if port is not None:
            sock.close()
            raise ValueError(f"cannot listen on {host}:{port}: {error.strerror}") from None
        sock.bind((host, 0))
    sock.listen(64)
    return sock


def serve_app(app: Any, host: str, port: int | None, max_seconds: float, what: str) -> int:
    """Run `app` with uvicorn until Ctrl-C (or max_seconds, if above 0); print where it is."""
    try:
        import uvicorn
    except ImportError as error:
        raise ValueError(f'serving a page needs the web extra: pip install -e ".[web]" ({error})') from error
    sock = bind(host, port)
    bound_host, bound_port = sock.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    print(f"{what} is at http://{shown}:{bound_port}/  (Ctrl-C stops it)", flush=True)
    # log_config=None: uvicorn binds no handler to the sys.stderr of the moment (a test's capture).
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off", log_config=None))
    if max_seconds > 0:

        def stop() -> None:
            time.sleep(max_seconds)
            server.should_exit = True

        threading.Thread(target=stop, daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    print("stopped")
    return 0


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host", default=DEFAULT_HOST, help=f"the address to listen on (default {DEFAULT_HOST})"
    )
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help=f"the port (default {DEFAULT_PORT}, or a free one if it is taken)",
    )
    parser.add_argument(
        "--max-seconds", type=float, default=0, help="stop after this many seconds (default 0: until Ctrl-C)"
    )
