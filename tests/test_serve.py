"""`treasure-envs serve` and `replay` in a real server: the page's requests, forged ones refused
with a clear error that changes nothing, and (with Debian's chromium) whole games played by
clicking in a headless browser, a recorded replay and a --html export loaded.

The browser is Debian's `chromium` with its `chromium-driver` (.ci/run installs both with
apt-get); the driver's path is given, so Selenium Manager never runs and nothing is downloaded.
Without them the browser tests skip, saying so."""

from __future__ import annotations

import json
import shutil
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
import uvicorn  # noqa: E402

from treasure_apps.replay import RecordingAgent, replay, replay_page, replay_record, write_replay  # noqa: E402
from treasure_apps.serve import PlaySession, play_app  # noqa: E402
from treasure_apps.web.server import bind, static_app  # noqa: E402
from treasure_core.aec import TreasureAECEnv  # noqa: E402
from treasure_core.agents import agent_factory, play_game  # noqa: E402
from treasure_core.registry import all_games, get_game  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@contextmanager
def running(app: Any) -> Iterator[str]:
    """The app served by uvicorn in a thread on a free port of 127.0.0.1; its URL."""
    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off", log_config=None))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def session(name: str, players: int = 2, seat: int = 0, agent: str = "random", seed: int = 1) -> PlaySession:
    game = get_game(name)
    options = game.validate({"num_players": players})
    factory = agent_factory(game, agent)
    agents = [("person", None) if p == seat else (agent, factory) for p in range(players)]
    return PlaySession(game, options, seat, agents, seed)


def request(url: str, body: Any = None, raw: bytes | None = None) -> tuple[int, dict]:
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


# -- the server --------------------------------------------------------------------------------
def test_a_game_through_the_server_and_forged_requests_change_nothing() -> None:
    played = session("nakbe", players=3, seat=1)
    with running(play_app(played)) as url:
        status, view = request(url + "api/view")
        assert status == 200 and view["me"] == "player_1" and view["legal"]
        state = played.env.get_state()
        forged = [
            {"action": "0"},
            {"action": 2.0},
            {"action": True},
            {"action": -1},
            {"action": 10**9},
            {"action": [view["legal"][0]["action"]]},
            {"action": view["legal"][0]["action"], "decision": view["decision"] + 5},
            {"move": 0},
        ]
        mask = played.env.action_mask("player_1")
        illegal = np.flatnonzero(mask == 0)
        if illegal.size:
            forged.append({"action": int(illegal[0])})
        for body in forged:
            status, answer = request(url + "api/act", body)
            assert status == 400 and answer["error"], body
            assert len(answer["error"].splitlines()) <= 3, answer["error"]
            assert np.array_equal(played.env.get_state(), state), body
        status, answer = request(url + "api/act", raw=b"not json")
        assert status == 400 and "JSON" in answer["error"]
        assert "not an integer" in request(url + "api/act", {"action": "0"})[1]["error"]
        assert view["seed"] is None  # the seed decides every hidden card
        status, answer = request(url + "api/replay.json")
        assert status == 409 and "once the game is over" in answer["error"]
        rng = np.random.default_rng(0)
        while not view["over"]:
            choice = view["legal"][int(rng.integers(len(view["legal"])))]["action"]
            status, view = request(url + "api/act", {"action": choice, "decision": view["decision"]})
            assert status == 200, view
        assert view["result"][0].startswith("game over") and not view["legal"] and view["seed"] == 1
        assert request(url + "api/act", {"action": 0})[1]["error"].startswith("the game is over")
        status, record = request(url + "api/replay.json")
        assert status == 200 and record["players"] == ["random", "person", "random"]
        assert np.array_equal(replay(record).states[-1], played.env.get_state())
        status, view = request(url + "api/new", {})
        assert status == 200 and not view["over"] and played.seed == 2


def test_the_page_lists_the_events_since_your_last_turn() -> None:
    played = session("pharaoh", players=3, seat=0, agent="bot")
    with running(play_app(played)) as url:
        _, view = request(url + "api/view")
        for _ in range(30):  # a turn may be several decisions: act until the others have played
            _, view = request(url + "api/act", {"action": view["legal"][0]["action"]})
            if view["over"] or any(line.startswith("player_1") for line in view["events"]):
                break
        assert any(line.startswith("player_1") for line in view["events"]), view["events"]
        with urllib.request.urlopen(url, timeout=30) as page:
            text = page.read().decode()
        assert "<script>" in text and "/api/act" in text


def test_serve_options_are_checked(capsys: pytest.CaptureFixture) -> None:
    from treasure_apps import cli

    assert cli.main(["serve", "nakbe", "--seat", "7", "--max-seconds", "0.1"]) == 2
    assert cli.main(["serve", "nakbe", "--agents", "bot,bot", "--players", "4", "--max-seconds", "0.1"]) == 2
    assert cli.main(["serve", "nakbe", "--agents", "genius", "--max-seconds", "0.1"]) == 2
    err = capsys.readouterr().err
    assert "--seat" in err and "--agents" in err and "genius" in err


# -- the browser -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not (Path(CHROMIUM).is_file() and Path(CHROMEDRIVER).is_file()):
        pytest.skip(
            f"no chromium at {CHROMIUM} or chromedriver at {CHROMEDRIVER} "
            "(apt-get install chromium chromium-driver)"
        )
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium (the dev extra) is not installed")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def wait(driver: Any, condition: Any, seconds: float = 120) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, seconds, poll_frequency=0.02).until(condition)


def wait_for_next(driver: Any, before: str | None) -> None:
    """Until the page shows a decision after `before` (the request answered)."""

    def moved_on(d: Any) -> bool:
        return page_ready(d) and d.find_element("tag name", "body").get_attribute("data-decision") != before

    wait(driver, moved_on)


def page_ready(driver: Any) -> bool:
    body = driver.find_element("tag name", "body")
    return body.get_attribute("data-decision") is not None and body.get_attribute("data-busy") != "true"


def click_one_action(driver: Any, rng: np.random.Generator) -> str:
    """One decision by clicking: a board element that names legal actions (one: played; several:
    one of the offered), else an entry of the list. Returns what was clicked."""
    legal = driver.find_elements("css selector", "#legal button.action")
    actions = {button.get_attribute("data-action") for button in legal}
    targets = [
        node
        for node in driver.find_elements("css selector", "#board .target")
        if set((node.get_attribute("data-actions") or "").split()) & actions
    ]
    if targets and rng.random() < 0.7:
        target = targets[int(rng.integers(len(targets)))]
        driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", target)
        offered = driver.find_elements("css selector", "#choice:not([hidden]) button.action")
        if offered:
            offered[int(rng.integers(len(offered)))].click()
            return "offered"
        return "board"
    legal[int(rng.integers(len(legal)))].click()
    return "list"


def play_in_browser(driver: Any, url: str, seed: int, max_clicks: int | None = None) -> dict[str, int]:
    """A whole game in the page: by clicking, or after `max_clicks` clicks the rest through the
    page's own requests (api/act), then the page loaded again at its end screen; how many clicks
    of each kind it took ("requests": the decisions sent without a click)."""
    rng = np.random.default_rng(seed)
    driver.get(url)
    wait(driver, page_ready)
    clicks = {"board": 0, "offered": 0, "list": 0, "requests": 0}
    body = driver.find_element("tag name", "body")
    while body.get_attribute("data-over") != "true":
        if max_clicks is not None and sum(clicks.values()) >= max_clicks:
            clicks["requests"] = finish_through_requests(url, rng)
            driver.get(url)
            wait(driver, page_ready)
            body = driver.find_element("tag name", "body")
            assert body.get_attribute("data-over") == "true"
            break
        before = body.get_attribute("data-decision")
        clicks[click_one_action(driver, rng)] += 1
        wait_for_next(driver, before)
        assert not driver.find_element("id", "error").text, driver.find_element("id", "error").text
    assert "game over" in driver.find_element("id", "result").text
    return clicks


def finish_through_requests(url: str, rng: np.random.Generator) -> int:
    """The person's remaining decisions sent as the page sends them, each one of the legal
    actions the view offers; how many."""
    status, view = request(url + "api/view")
    sent = 0
    while not view["over"]:
        assert status == 200, view
        choice = view["legal"][int(rng.integers(len(view["legal"])))]["action"]
        status, view = request(url + "api/act", {"action": choice, "decision": view["decision"]})
        sent += 1
    return sent


def recorded_page(tmp_path: Path, name: str, players: int = 2, seed: int = 3) -> tuple[Path, int]:
    game = get_game(name)
    options = game.validate({"num_players": players})
    env = TreasureAECEnv(game, **options)
    actions: list[int] = []
    play_game(
        env, [RecordingAgent(agent_factory(game, "random")(seed + p), actions) for p in range(players)], seed
    )
    path = write_replay(
        tmp_path / f"{name}.json", replay_record(game, options, seed, actions, ["random"] * players)
    )
    return path, len(actions)


def check_replay_page(driver: Any, url: str, steps: int) -> None:
    from selenium.webdriver.support.ui import Select

    driver.get(url)
    body = driver.find_element("tag name", "body")
    wait(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-step") == "0")
    first = driver.find_element("id", "board").text
    driver.find_element("id", "forward").click()
    assert body.get_attribute("data-step") == "1" and "player_" in driver.find_element("id", "events").text
    slider = driver.find_element("id", "slider")
    driver.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", slider, steps
    )
    assert body.get_attribute("data-step") == str(steps)
    assert "game over" in driver.find_element("id", "result").text
    assert driver.find_element("id", "board").text != first
    viewer = Select(driver.find_element("id", "viewer"))
    assert [option.text for option in viewer.options][:2] == ["full view", "player_0's view"]
    viewer.select_by_index(1)
    assert driver.find_element("id", "board").text


def test_the_page_in_a_browser(browser: Any, tmp_path: Path) -> None:
    """The default tier's browser test: a few clicks in `serve nakbe`, then a --html export
    opened as a file (no server)."""
    played = session("nakbe", players=2, agent="bot")
    with running(play_app(played)) as url:
        rng = np.random.default_rng(1)
        browser.get(url)
        wait(browser, page_ready)
        for _ in range(3):
            body = browser.find_element("tag name", "body")
            if body.get_attribute("data-over") == "true":
                break
            before = body.get_attribute("data-decision")
            click_one_action(browser, rng)
            wait_for_next(browser, before)
        assert len(played.actions) >= 3
        assert "player_1" in browser.find_element("id", "events").text
    path, steps = recorded_page(tmp_path, "nakbe")
    out = tmp_path / "nakbe.html"
    out.write_text(replay_page(replay(json.loads(path.read_text()))))
    check_replay_page(browser, out.as_uri(), steps)


# Clicks of a whole game in the browser; a longer game (a random person's Pharaoh game runs to
# thousands of decisions) sends the rest as the page does and shows the end screen.
BROWSER_CLICKS = 200


@pytest.mark.long
@pytest.mark.parametrize("name", [game.name for game in all_games()])
def test_a_whole_game_in_the_browser(browser: Any, name: str, tmp_path: Path) -> None:
    """A whole game of every game in the page against the game's bot, clicked (the first
    BROWSER_CLICKS decisions of a longer one, the rest sent as the page sends them, then the end
    screen); then the game's own replay (the page's save) served by `replay`, and its --html
    export from file://."""
    game = get_game(name)
    players = max(game.min_players, min(3, game.max_players))
    played = session(name, players=players, agent=next(iter(game.bots), "random"), seed=11)
    start = time.perf_counter()
    with running(play_app(played)) as url:
        clicks = play_in_browser(browser, url, seed=11, max_clicks=BROWSER_CLICKS)
        _, record = request(url + "api/replay.json")
    seconds = time.perf_counter() - start
    print(f"{name}: a whole game in the browser, {sum(clicks.values())} clicks {clicks}, {seconds:.1f} s")
    done = replay(record)
    assert np.array_equal(done.states[-1], played.env.get_state())
    page = replay_page(done)
    with running(static_app(page)) as url:
        check_replay_page(browser, url, len(record["actions"]))
    out = tmp_path / f"{name}.html"
    out.write_text(page)
    check_replay_page(browser, out.as_uri(), len(record["actions"]))
