"""The determinized information-set MCTS (treasure_core.search, docs/search.md): a legal
action in every game, the same decision for the same seed, never a peek at what the deciding
seat cannot know, stronger than random play, and clear errors for bad parameters. Small
simulation counts keep it quick; each game's search compiles once (numba caches it)."""

from __future__ import annotations

import numpy as np
import pytest

from treasure_core import codegen
from treasure_core.aec import TreasureAECEnv
from treasure_core.agents import MCTSAgent, RandomAgent, agent_factory, play_game
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, RNG
from treasure_core.registry import get_game, make_env, module_of
from treasure_core.rng import RNG_WORDS
from treasure_core.search import mcts_policy, search_module

GAMES = ["nakbe", "karuba", "pharaoh", "tomb", "nakum"]
SIMS = 32


def _positions(name: str, cases: int = 4, seed: int = 0):
    """(env, state, player) in a few states reached by random play, the game not over."""
    env = make_env(name, num_players=2) if name != "tomb" else make_env(name, num_players=3)
    rng = np.random.default_rng(seed)
    out = []
    for case in range(cases):
        env.reset(seed=case)
        for _ in range(int(rng.integers(0, 12))):
            if env.is_over():
                break
            env.step(int(rng.choice(np.flatnonzero(env.action_mask(env.agent_selection)))))
        if not env.is_over():
            state = env.get_state().copy()
            out.append((env, state, int(state[CURRENT_PLAYER])))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_every_game_gets_a_legal_action_and_the_same_one_for_the_same_seed(name):
    game = get_game(name)
    agent = mcts_policy(game, sims=SIMS, seed=7)
    again = mcts_policy(name, sims=SIMS, seed=7)
    for env, state, player in _positions(name):
        before = state.copy()
        action = agent.decide(state, player)
        mask = np.zeros(len(env.action_mask(env.agent_selection)), np.int8)
        game.kernels.legal_mask(state, np.int64(player), mask)
        assert mask[action] == 1
        assert np.array_equal(state, before), "the search must not change the state"
        assert again.decide(state, player) == action
        assert agent.decide(state, player) == action  # no hidden memory between calls


@pytest.mark.parametrize("name", GAMES)
def test_it_never_reads_the_future_chance_or_the_state_it_is_given_beyond_the_re_deal(name):
    """The generator words are hidden (they fix every future draw); a search that stepped the
    given state without re-dealing would see its future. Changing them, and re-dealing for
    another seat's view on top of the deciding seat's re-deal, must not change the decision:
    the search reads the state only through resample_hidden(state, player, seed_i)."""
    game = get_game(name)
    agent = mcts_policy(game, sims=SIMS, seed=3)
    for _env, state, player in _positions(name, seed=1):
        action = agent.decide(state, player)
        changed = state.copy()
        changed[RNG : RNG + RNG_WORDS] ^= np.int32(0x5A5A5A5)
        assert agent.decide(changed, player) == action


@pytest.mark.parametrize("name", GAMES)
def test_bot_playouts_give_a_legal_action_and_the_same_one_for_the_same_seed(name):
    """playout="bot": the game's scripted bot (bots.playout_policy) plays the playouts inside
    the search, pure or mixed with random moves (epsilon)."""
    game = get_game(name)
    for epsilon in (0.0, 0.5):
        agent = mcts_policy(game, sims=8, seed=7, playout="bot", epsilon=epsilon, max_steps=200)
        for env, state, player in _positions(name, cases=2):
            action = agent.decide(state, player)
            mask = np.zeros(len(env.action_mask(env.agent_selection)), np.int8)
            game.kernels.legal_mask(state, np.int64(player), mask)
            assert mask[action] == 1
            assert agent.decide(state.copy(), player) == action


@pytest.mark.parametrize("name", GAMES)
def test_a_cut_playout_is_valued_in_the_range_of_the_returns(name):
    """bots.playout_value (Karuba, Pharaoh) estimates the returns of a state the search cut
    before the end: finite and within [-1, 1] under win_loss;
    a game that declares none scores the cut by `returns` itself (treasure_core.codegen)."""
    game = get_game(name)
    batch = search_module(game)
    declared = codegen.declares_playout_value(module_of(name))
    assert declared == (name in ("karuba", "pharaoh"))
    if not declared:
        assert batch.playout_value is batch.returns
    for _env, state, _player in _positions(name, cases=6):
        out = np.zeros(int(state[NUM_PLAYERS]), np.float32)
        batch.playout_value(state, out)
        assert np.all(np.isfinite(out)) and np.all(np.abs(out) <= 1.0)


def test_karubas_playout_player_is_legal_and_with_every_field_the_scripted_bot():
    """bots.focused_action, the search's playout in Karuba: a legal action; greedy_action,
    which it narrows to the fields beside the paths, is the scripted bot with every field."""
    from karuba_env import bots
    from karuba_env.state import N_ACTIONS

    game = get_game("karuba")
    for _env, state, player in _positions("karuba", cases=6):
        mask = np.zeros(N_ACTIONS, np.int8)
        game.kernels.legal_mask(state, np.int64(player), mask)
        action = bots.focused_action(state, np.int64(player), np.int64(5))
        assert mask[action] == 1
        greedy = bots.greedy_action(state, np.int64(player), np.int64(5), bots.ALL_FIELDS)
        assert greedy == bots.heuristic_action(state, np.int64(player), np.int64(5))


def test_pharaohs_playout_player_is_legal_in_states_reached_by_play():
    """bots.playout_action, the search's playout in Pharaoh: a legal action in every phase
    (orientation, photograph, play, the collapse), in states reached by the bot and by random
    play, among them its rotation that opens a walled-in carrier's way home
    (bots.opening_rotation); the playout_policy the search imports."""
    from pharaoh_env import bots
    from pharaoh_env.data import NUM_CELLS, START_CELL
    from pharaoh_env.state import ARCH_CELL, COLLAPSE, HELPER_LAMP_BASE, HELPER_ROTATE_BASE, N_ACTIONS, PHASE

    assert bots.playout_policy is bots.playout_action
    game = get_game("pharaoh")
    env = make_env("pharaoh", num_players=2)
    rng = np.random.default_rng(4)
    mask = np.zeros(N_ACTIONS, np.int8)
    phases, collapsing, opened = set(), 0, 0
    home = np.empty(NUM_CELLS, np.int64)
    for case in range(6):
        env.reset(seed=case)
        for move in range(3000):
            if env.is_over():
                break
            state = env.get_state()
            player = int(state[CURRENT_PLAYER])
            mask[:] = 0
            game.kernels.legal_mask(state, np.int64(player), mask)
            action = bots.playout_action(state, np.int64(player), np.int64(move))
            assert mask[action] == 1
            if HELPER_ROTATE_BASE <= action < HELPER_LAMP_BASE and bots.carries(state, np.int64(player)):
                bots.distance_to(state, np.int64(1) << START_CELL, home)
                arch = int(state[ARCH_CELL + player])
                opened += int(home[arch] >= bots.FAR)
            phases.add(int(state[PHASE]))
            collapsing += int(state[COLLAPSE])
            # Half the games by the policy itself, half with random moves mixed in.
            if case % 2 and rng.random() < 0.5:
                action = int(rng.choice(np.flatnonzero(mask)))
            env.step(action)
    assert len(phases) >= 2 and collapsing > 0 and opened > 0


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", ["nakbe", "tomb"])
def test_a_search_in_chunks_is_the_search_of_their_total(name, threads):
    """The time budget runs the search in chunks that continue the same trees; any chunks of
    the same total give the same root visits as the count."""
    game = get_game(name)
    counted = mcts_policy(game, sims=SIMS * threads, seed=9, threads=threads, playout="random")
    chunked = mcts_policy(game, sims=SIMS * threads, seed=9, threads=threads, playout="random")
    for _env, state, player in _positions(name, seed=2):
        action = counted.decide(state, player)
        seed = counted.decision_seed(state)
        for chunks in ([SIMS], [1, 7, SIMS - 8], [3] * (SIMS // 3) + [SIMS % 3]):
            assert chunked.decide_in_chunks(state, player, iter(chunks), seed) == action
            assert np.array_equal(chunked.visits, counted.visits)


def test_a_time_budget_searches_until_it_is_spent():
    game = get_game("nakbe")
    agent = mcts_policy(game, time_ms=5.0, seed=1, playout="random")
    for env, state, player in _positions("nakbe"):
        action = agent.decide(state, player)
        mask = np.zeros(len(env.action_mask(env.agent_selection)), np.int8)
        if game.kernels.legal_mask(state, np.int64(player), mask) > 1:
            assert agent.last_sims > 0 and agent.visits.sum() == agent.last_sims
        assert mask[action] == 1


def _seatings():
    """(name, players) for every game and player count."""
    out = []
    for name in GAMES:
        game = get_game(name)
        out += [(name, n) for n in range(game.min_players, game.max_players + 1)]
    return out


@pytest.mark.parametrize(("name", "players"), _seatings())
def test_the_decision_depends_only_on_what_the_deciding_seat_may_know(name, players):
    """Information safety, exact: re-dealing what the deciding seat cannot know (the game's own
    re-deal, resample_hidden for its view, by several seeds: the unseen cards and tiles, the
    others' pending simultaneous choices, the generator) leaves its re-deal for a seed, and so
    the search's decision for a seed, unchanged: each game's resample_hidden sorts the pool it
    re-deals before shuffling it."""
    game = get_game(name)
    resample = game.kernels.resample_hidden
    # Random playouts, and the game's defaults (its bot playouts, cut and valued where it cuts).
    agents = [
        mcts_policy(game, sims=16, seed=11, playout="random", max_steps=200),
        mcts_policy(game, sims=16, seed=11),
    ]
    env = make_env(name, num_players=players)
    rng = np.random.default_rng(players)
    checked = 0
    for case in range(3):
        env.reset(seed=case)
        for _ in range(int(rng.integers(0, 30))):
            if env.is_over():
                break
            env.step(int(rng.choice(np.flatnonzero(env.action_mask(env.agent_selection)))))
        if env.is_over():
            continue
        state = env.get_state().copy()
        player = int(state[CURRENT_PLAYER])
        actions = [agent.decide(state, player) for agent in agents]
        dealt = state.copy()
        resample(dealt, np.int64(player), np.int64(1234))
        for k in range(3):
            changed = state.copy()
            resample(changed, np.int64(player), np.int64(k))
            again = changed.copy()
            resample(again, np.int64(player), np.int64(1234))
            assert np.array_equal(again, dealt), f"{name} {players}p: the re-deal depends on the hidden part"
            assert [agent.decide(changed, player) for agent in agents] == actions
        checked += 1
    assert checked


@pytest.mark.parametrize("name", ["nakbe", "karuba"])
def test_root_parallel_trees_give_a_legal_action_whatever_the_thread_count(name):
    numba = pytest.importorskip("numba")
    game = get_game(name)
    agent = mcts_policy(game, sims=SIMS, seed=5, threads=2)
    for env, state, player in _positions(name):
        action = agent.decide(state, player)
        mask = np.zeros(len(env.action_mask(env.agent_selection)), np.int8)
        game.kernels.legal_mask(state, np.int64(player), mask)
        assert mask[action] == 1
        before = numba.get_num_threads()
        numba.set_num_threads(1)
        try:
            assert agent.decide(state, player) == action
        finally:
            numba.set_num_threads(before)
        assert agent.visits.sum() == SIMS  # two trees of SIMS // 2, every simulation through the root


def test_the_search_plays_through_a_whole_game_in_every_seat():
    env = TreasureAECEnv(get_game("nakbe"), num_players=2)
    agents = [mcts_policy("nakbe", sims=16, seed=1), mcts_policy("nakbe", sims=16, seed=2)]
    info = play_game(env, agents, seed=5)
    assert info


@pytest.mark.long
@pytest.mark.parametrize("name", ["nakbe", "karuba"])
def test_it_beats_random_play_more_often_than_not(name):
    env = TreasureAECEnv(get_game(name), num_players=2)
    wins = 0
    games = 10
    for g in range(games):
        search_seat = g % 2
        agents = [RandomAgent(seed=g), RandomAgent(seed=g)]
        agents[search_seat] = mcts_policy(name, sims=64, seed=g)
        play_game(env, agents, seed=100 + g)
        rewards = env.game.kernels.returns
        out = np.zeros(2, np.float32)
        rewards(env._state, out)
        wins += out[search_seat] > out[1 - search_seat]
    assert wins > games // 2


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"sims": 0}, "sims"),
        ({"sims": 2.5}, "sims"),
        ({"c": -1.0}, "c must"),
        ({"c": float("nan")}, "c must"),
        ({"playout": "greedy"}, "playout"),
        ({"max_steps": 0}, "max_steps"),
        ({"seed": -1}, "seed"),
        ({"threads": 0}, "threads"),
        ({"epsilon": 1.5}, "epsilon"),
        ({"time_ms": -1.0}, "time_ms"),
    ],
)
def test_bad_parameters_are_a_value_error(params, match):
    with pytest.raises(ValueError, match=match):
        mcts_policy("nakbe", **params)


def test_agent_factory_names_the_search():
    game = get_game("nakbe")
    agent = agent_factory(game, "mcts:sims=16")(3)
    assert isinstance(agent, MCTSAgent) and agent.params["sims"] == 16
    assert agent_factory(game, "mcts")(0).params["sims"] == 400
    assert agent_factory(game, "mcts: sims=8, c=0.5")(0).params["c"] == 0.5
    timed = agent_factory(game, "mcts:time_ms=50,playout=random,epsilon=0.1")(0).params
    assert (timed["time_ms"], timed["playout"], timed["epsilon"]) == (50.0, "random", 0.1)
    # A game's own defaults (treasure_core.agents.MCTS_GAME_DEFAULTS), unless the spec names them.
    assert agent_factory(game, "mcts")(0).params["playout"] == "bot"
    # docs/search.md, "Each game's defaults": the bot-rules playout cut after a few steps.
    karuba = agent_factory(get_game("karuba"), "mcts")(0).params
    assert (karuba["playout"], karuba["max_steps"], karuba["c"]) == ("bot", 6, 0.4)
    pharaoh = agent_factory(get_game("pharaoh"), "mcts")(0).params
    assert (pharaoh["playout"], pharaoh["max_steps"], pharaoh["c"]) == ("bot", 40, 0.15)
    assert agent_factory(get_game("pharaoh"), "mcts:max_steps=300")(0).params["max_steps"] == 300
    for spec, match in [
        ("mcts:depth=3", "unknown parameter 'depth'.*sims, c, playout, epsilon, seed, max_steps, .*time_ms"),
        ("mcts:sims=many", "sims must be an integer"),
        ("mcts:sims", "not key=value"),
        ("mcts:c=fast", "c must be a number"),
        ("mcts:time_ms=soon", "time_ms must be a number"),
    ]:
        with pytest.raises(ValueError, match=match):
            agent_factory(game, spec)
    with pytest.raises(ValueError, match="mcts"):
        agent_factory(game, "mctss")


def test_the_search_is_an_agent_everywhere_agents_are_named(monkeypatch, capsys):
    """Issue 28 item 3 beyond selfplay (tests/test_cli.py): the round robin with Elo, a person
    playing against it, the Gymnasium adapter's opponents and the training pool."""
    import builtins

    from treasure_adapters.single_agent import OpponentPool, TreasureGymEnv
    from treasure_apps.cli import main

    search = "mcts:sims=4,c=1.0"
    assert main(["eval", "nakbe", "--players", "2", "--round-robin", f"{search},bot", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "Round robin" in out and f"{search} = 0" in out  # the Elo line names it

    def first_legal(prompt: str) -> str:  # the person: the first legal move the prompt lists
        return prompt.split("(")[1].split(",")[0].split(" ")[0]

    monkeypatch.setattr(builtins, "input", first_legal)
    assert main(["play", "nakbe", "--players", "2", "--seed", "3", "--opponents", search]) == 0
    assert "(you)" in capsys.readouterr().out

    for opponents in (search, OpponentPool("nakbe", fixed=[search, "bot"], fixed_share=1.0)):
        env = TreasureGymEnv("nakbe", opponents=opponents, num_players=2)
        observation, info = env.reset(seed=5)
        rng = np.random.default_rng(0)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            observation, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        assert reward in (-1.0, 0.0, 1.0) or truncated
    pool = OpponentPool("nakbe", fixed=[search], fixed_share=1.0)
    (factory,) = pool.draw(np.random.default_rng(0), 1)
    assert isinstance(factory(0), MCTSAgent) and factory(0).params["sims"] == 4


def test_the_teacher_snippet_of_the_search_page_runs(capsys):
    """docs/search.md's tested block (the search as a teacher) runs as printed."""
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "search.md").read_text()
    marker = "<!-- tested: tests/test_search.py runs this block -->\n```python\n"
    block = page.split(marker)[1].split("```")[0]
    exec(compile(block, "docs/search.md", "exec"), {})
    out = capsys.readouterr().out
    decisions = int(out.split()[0])
    assert decisions > 10 and "was the first one" in out
