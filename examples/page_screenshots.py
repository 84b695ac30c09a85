"""Screenshots of the `treasure-envs serve` page mid-game, one per game, into docs/img/ (the
README's gallery): a person in seat 0 against the game's bot, the person's moves drawn at random
until the given decision, then the page in headless Chromium (Debian's chromium and
chromium-driver).

    python examples/page_screenshots.py [--decisions 12] [--out docs/img]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import threading
import time
from pathlib import Path

import numpy as np
import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from treasure_apps.serve import PlaySession, play_app
from treasure_apps.web.server import bind
from treasure_core.agents import agent_factory
from treasure_core.registry import all_games


def session(name: str, decisions: int, seed: int) -> PlaySession:
    """A game with the person in seat 0, played by random legal moves up to `decisions`."""
    game = next(g for g in all_games() if g.name == name)
    players = max(game.min_players, min(3, game.max_players))
    agent = next(iter(game.bots), "random")
    factory = agent_factory(game, agent)
    agents = [("person", None)] + [(agent, factory)] * (players - 1)
    played = PlaySession(game, game.validate({"num_players": players}), 0, agents, seed)
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        view = played.view()
        if view["over"]:
            break
        choice = view["legal"][int(rng.integers(len(view["legal"])))]["action"]
        played.act(choice, view["decision"])
    return played


def screenshot(app: object, driver: webdriver.Chrome, path: Path) -> None:
    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off", log_config=None))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        driver.get(f"http://127.0.0.1:{sock.getsockname()[1]}/")
        time.sleep(1.0)  # the page fetches its view, then draws the board
        driver.save_screenshot(str(path))
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=12, help="the person's moves before the shot")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--out", default="docs/img")
    args = parser.parse_args(argv)
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1100"):
        options.add_argument(flag)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    try:
        for game in all_games():
            path = Path(args.out) / f"{game.name}_page.png"
            screenshot(play_app(session(game.name, args.decisions, args.seed)), driver, path)
            print(path)
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
