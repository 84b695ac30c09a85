"""`treasure-envs bench`: the smoke run writes every field for every registered game. No test
here asserts a speed; the benchmark's own output checks the targets."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from treasure_apps import bench
from treasure_core.registry import game_names, get_game

RATE_FIELDS = {"steps", "seconds", "steps_per_second"}
START_FIELDS = {*bench.START_STAGES, "warmup", "runner_ready", "cpu_seconds", "reason", "runner_reason"}
MEMORY_FIELDS = {
    "games",
    "method",
    "state_bytes",
    "batch_arrays_bytes",
    "observations_bytes",
    "tracemalloc_peak_bytes",
    "tracemalloc_peak_with_observations_bytes",
    "ru_maxrss_delta_bytes",
}
MACHINE_FIELDS = {
    "cpu_model",
    "logical_cpus",
    "usable_cpus",
    "numba_threads",
    "numba_threading_layer",
    "platform",
    "python",
    "versions",
    "environment",
    "date",
}
TARGET_FIELDS = {"target", "game", "goal", "unit", "measured", "ratio", "met", "note"}
PEER_NAMES = {*bench.PEERS, *bench.PGX_ROWS}
MEMORY_GAMES = 64


def bench_parser() -> argparse.ArgumentParser:
    """A parser holding only the bench subcommand, as cli.build_parser registers it."""
    parser = argparse.ArgumentParser(prog="treasure-envs")
    bench.add_subcommand(parser.add_subparsers(dest="command", required=True))
    return parser


def assert_rate(figures: dict[str, Any]) -> None:
    assert RATE_FIELDS <= figures.keys()
    assert figures["steps"] > 0 and figures["seconds"] > 0
    assert figures["steps_per_second"] == pytest.approx(figures["steps"] / figures["seconds"])


# The default tier measures one sequential and one simultaneous game (each game's start-up
# figures cost fresh interpreters); the long tier every registered game
# (test_full_run_of_every_game, the same checks).
DEFAULT_TIER_GAMES = ["nakbe", "tomb"]


def bench_report(out: Path, games: list[str]) -> tuple[dict[str, Any], Path]:
    args = bench_parser().parse_args(
        ["bench", "--quick", "--seconds", "0.003", "--no-peers", "--memory-games", str(MEMORY_GAMES)]
        + ["--games", *games, "--out", str(out)]
    )
    assert args.run(args) == 0
    return json.loads((out / "bench.json").read_text()), out


@pytest.fixture(scope="module")
def quick_games() -> list[str]:
    return DEFAULT_TIER_GAMES


# The tests that read quick_report, in one pytest-xdist worker (`--dist loadgroup`): a module
# fixture runs once per worker, and this one is a bench run (the chart test's worker ran it too).
SHARES_THE_QUICK_RUN = pytest.mark.xdist_group("bench_quick_run")


@pytest.fixture(scope="module")
def quick_report(
    tmp_path_factory: pytest.TempPathFactory, quick_games: list[str]
) -> tuple[dict[str, Any], Path]:
    return bench_report(tmp_path_factory.mktemp("bench"), quick_games)


@SHARES_THE_QUICK_RUN
def test_quick_run_has_every_game_and_field(quick_report, quick_games):
    check_every_game_and_field(quick_report, quick_games)


def check_every_game_and_field(quick_report: tuple[dict[str, Any], Path], quick_games: list[str]) -> None:
    report, out = quick_report
    assert report["schema_version"] == bench.SCHEMA_VERSION
    assert report["command"] == (
        f"treasure-envs bench --quick --seconds 0.003 --games {' '.join(quick_games)} --no-peers "
        f"--memory-games {MEMORY_GAMES} --out {out}"
    )
    assert report["settings"]["quick"] is True and report["settings"]["seconds"] == 0.003
    assert MACHINE_FIELDS <= report["machine"].keys()
    assert len(report["load_average"]["before"]) == 3 and len(report["load_average"]["after"]) == 3
    assert list(report["busy_cores"]) == ["peers", *quick_games, "after"]
    assert all(cores is None or cores >= 0 for cores in report["busy_cores"].values())
    assert set(report["games"]) == set(quick_games)
    threads = report["settings"]["thread_counts"]
    for game, figures in report["games"].items():
        assert figures["n_actions"] > 0 and figures["obs_size"] > 0, game
        assert_rate(figures["aec"])
        # connect_four_v3's windows interleaved with the game's: the AEC target is their ratio,
        # with or without the peers' section.
        assert_rate(figures["aec"]["interleaved_reference"])
        interleaved = figures["aec"]["vs_reference"]
        assert interleaved == pytest.approx(
            figures["aec"]["steps_per_second"] / figures["aec"]["interleaved_reference"]["steps_per_second"]
        )
        (aec_target,) = [
            row for row in report["targets"] if row["game"] == game and row["target"].startswith("AEC loop")
        ]
        assert aec_target["measured"] == interleaved and aec_target["note"] == "interleaved windows"
        measured = {(row["batch_size"], row["threads"]) for row in figures["batch_python"]}
        assert measured == {(size, t) for size in bench.BATCH_SIZES for t in threads}, game
        for row in figures["batch_python"]:
            assert_rate(row)
            assert row["vs_pgx"] is None  # --no-peers: no Pgx windows beside ours
        # The x1024 row again at the game's speed options, where it names some.
        speed = get_game(game).speed_options
        assert figures["speed_options"] == speed
        assert [row["threads"] for row in figures["batch_speed"]] == (threads if speed else []), game
        for row in figures["batch_speed"]:
            assert_rate(row)
            assert row["batch_size"] == bench.PLAYOUT_BATCH and row["vs_pgx"] is None
        playout = figures["playout"]
        assert playout["one_thread"]["vs_pgx"] is None and playout["all_threads"]["vs_pgx"] is None
        assert_rate(playout["one_thread"])
        assert_rate(playout["all_threads"])
        assert playout["all_threads"]["threads"] == max(threads)
        assert playout["thread_scaling"] > 0
        # --quick: no fresh processes (test_threads_against_processes_in_fresh_processes runs them).
        assert all(playout[key] is None for key in bench.FRESH_FIGURES)
        assert "--quick" in playout["fresh_reason"]
        start = figures["start"]
        assert START_FIELDS <= start["cold"].keys() and START_FIELDS <= start["cached"].keys()
        assert "--quick" in start["cold"]["reason"] and start["cold"]["reset"] is None
        assert start["cached"]["reason"] is None
        stages = [start["cached"][stage] for stage in bench.START_STAGES]
        assert 0 < stages[0] and stages == sorted(stages), game  # stamped in order
        # --quick: the search at the first count on one thread; no target at 400 simulations.
        search = figures["search"]
        assert [(row["sims"], row["threads"]) for row in search["rows"]] == [(bench.QUICK_SEARCH_SIMS[0], 1)]
        assert search["rows"][0]["ms_per_decision"] > 0 and search["playout"] in ("bot", "random")
        memory = figures["memory"]
        assert MEMORY_FIELDS <= memory.keys() and memory["games"] == MEMORY_GAMES
        assert memory["batch_arrays_bytes"] >= MEMORY_GAMES * memory["state_bytes"] > 0
        assert memory["tracemalloc_peak_bytes"] >= memory["batch_arrays_bytes"]
        assert memory["tracemalloc_peak_with_observations_bytes"] >= (
            memory["batch_arrays_bytes"] + memory["observations_bytes"]
        )
    assert set(report["peers"]) == PEER_NAMES
    for name, peer in report["peers"].items():
        assert peer["steps_per_second"] is None and "--no-peers" in peer["reason"], name
    assert report["reference"] == {"name": bench.REFERENCE, "steps_per_second": None}
    for row in report["targets"]:
        assert TARGET_FIELDS <= row.keys()
    # Every target is checked for every game; without the peer the ratio to it is unknown.
    for game in quick_games:
        names = {row["target"] for row in report["targets"] if row["game"] == game}
        assert "AEC loop vs connect_four_v3" in names and "threads vs processes, playout" in names
        assert {"batch x1024 with observations vs Pgx step, best threads"} <= names
        assert {"in-kernel playout, all threads vs Pgx rollout"} <= names
        speed_target = "batch x1024 with observations vs Pgx step, best threads, at the speed options"
        assert (speed_target in names) == bool(get_game(game).speed_options), game
        assert sum(name.startswith("cached start") for name in names) == len(bench.START_TARGET_STAGES)
    assert report["chart"]["path"] is None and "connect_four_v3" in report["chart"]["reason"]


@SHARES_THE_QUICK_RUN
def test_quick_run_writes_the_readme_tables(quick_report, quick_games):
    check_the_readme_tables(quick_report, quick_games)


def check_the_readme_tables(quick_report: tuple[dict[str, Any], Path], quick_games: list[str]) -> None:
    report, out = quick_report
    tables = (out / "bench.md").read_text()
    assert tables == bench.markdown(report)
    assert f"`{report['command']}`" in tables
    for game in quick_games:
        assert f"| **{game}**, AEC loop |" in tables and f"| {game} | " in tables
        search = report["games"][game]["search"]
        assert f"| {game} | {search['playout']}, cap {search['max_steps']}, c {search['c']} | " in tables
    assert tables.count("| not measured |") == sum(row["met"] is None for row in report["targets"])


@SHARES_THE_QUICK_RUN
def test_quick_run_prints_the_table(quick_report, quick_games, capsys):
    check_the_printed_table(quick_report, quick_games, capsys)


def check_the_printed_table(
    quick_report: tuple[dict[str, Any], Path], quick_games: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # The module fixture ran the command before capsys could see it, so print the table again.
    report, _ = quick_report
    bench.print_report(report)
    out = capsys.readouterr().out
    for game in quick_games:
        assert f"{game} aec" in out and f"{game} playout x{bench.PLAYOUT_BATCH} in kernel" in out
        assert f"  {game:<10} {bench.QUICK_SEARCH_SIMS[0]} sims 1t " in out
    assert "skipped (--no-peers)" in out and "targets" in out


def check_fresh_figures(game: str) -> None:
    """All threads in one fresh process against as many fresh 1-thread processes, their windows
    alternating, as a full run (not --quick) measures them, and the rows and target they make."""
    one = bench.measure_playout(game, 1, 0.003)
    playout = {"one_thread": one, "all_threads": one} | bench.playout_fresh_figures(
        bench.measure_playout_fresh(game, 2, 0.003), one
    )
    processes = playout["processes"]
    assert processes["processes"] == 2 == len(processes["per_process"])
    for row in processes["per_process"]:
        assert_rate(row)
    assert processes["steps_per_second"] == pytest.approx(
        sum(row["steps_per_second"] for row in processes["per_process"])
    )
    assert_rate(playout["fresh_threads"])
    assert playout["fresh_threads"]["threads"] == 2 and playout["fresh_reason"] is None
    assert playout["threads_vs_processes"] == pytest.approx(
        playout["fresh_threads"]["steps_per_second"] / processes["steps_per_second"]
    )
    assert playout["process_scaling"] > 0
    figures = {"aec": {"steps_per_second": 1.0}, "playout": playout, "batch_python": []}
    report = {"peers": {}, "games": {game: figures}}
    labels = [label for label, _, _ in bench.table_rows(report)]
    assert f"{game} playout x{bench.PLAYOUT_BATCH}, 2 processes x 1 thread" in labels


def test_threads_against_processes_in_fresh_processes():
    check_fresh_figures("nakbe")


@pytest.mark.long
def test_full_run_of_every_game(tmp_path, capsys):
    """The three checks above on a quick run of every registered game."""
    games = game_names()
    report = bench_report(tmp_path, games)
    check_every_game_and_field(report, games)
    check_the_readme_tables(report, games)
    check_the_printed_table(report, games, capsys)
    for game in games:
        check_fresh_figures(game)


@pytest.mark.long
def test_the_cold_and_cached_start_of_one_game():
    """A full run's start-up section (not under --quick) for one game: every stage, the warmup
    and the RLlib runner, cold from empty caches and then from the caches they left."""
    start = bench.measure_start("nakbe", cold=True)
    for kind in ("cold", "cached"):
        figures = start[kind]
        assert figures["reason"] is None and figures["runner_reason"] is None, figures
        stages = [figures[stage] for stage in bench.START_STAGES]
        assert 0 < stages[0] and stages == sorted(stages), figures
        assert figures["warmup"] > 0 and figures["runner_ready"] > 0 and figures["cpu_seconds"] > 0


def test_a_missing_or_failing_peer_is_null_with_the_reason(monkeypatch):
    def missing(seconds: float) -> dict[str, Any]:
        raise ImportError("No module named 'nowhere'")

    def broken(seconds: float) -> dict[str, Any]:
        raise RuntimeError("exploded")

    monkeypatch.setattr(bench, "PEERS", {"gone": ("aec", missing), "broken": ("aec", broken)})
    monkeypatch.setattr(bench, "peer_pgx", missing)
    peers = bench.measure_peers(0.001, None)
    assert peers["gone"]["steps_per_second"] is None and "nowhere" in peers["gone"]["reason"]
    assert peers["broken"]["reason"] == "failed: RuntimeError: exploded"
    for row in bench.PGX_ROWS:
        assert peers[row]["steps_per_second"] is None and "not installed" in peers[row]["reason"]


def test_targets_are_met_or_missed_by_the_ratio():
    assert bench.target("speed", "g", 3.0, 2.0, True, "x")["met"] is True
    assert bench.target("speed", "g", 1.0, 2.0, True, "x")["ratio"] == 0.5
    slow_start = bench.target("start", "g", 20.0, 10.0, False, "s")
    assert slow_start["met"] is False and slow_start["ratio"] == 0.5
    assert bench.target("start", "g", 5.0, 10.0, False, "s")["met"] is True
    assert bench.target("start", "g", None, 10.0, False, "s", "skipped")["met"] is None


def test_the_search_section_times_every_count_on_every_thread_count_and_sets_its_target():
    search = bench.measure_search("nakbe", (4, 8), (1, 2))
    assert [(row["sims"], row["threads"]) for row in search["rows"]] == [(4, 1), (8, 1), (4, 2), (8, 2)]
    assert all(row["ms_per_decision"] > 0 and row["decisions_per_second"] > 0 for row in search["rows"])
    assert search["playout"] == "bot" and search["max_steps"] > 0
    assert bench.search_row({"search": search}, 8, 2) is search["rows"][3]
    assert bench.search_row({"search": search}, bench.SEARCH_TARGET_SIMS, 1) is None
    # The target is the one-thread decision at SEARCH_TARGET_SIMS, an upper bound in ms.
    fast = {"search": {"rows": [{"sims": bench.SEARCH_TARGET_SIMS, "threads": 1, "ms_per_decision": 10.0}]}}
    slow = {"search": {"rows": [{"sims": bench.SEARCH_TARGET_SIMS, "threads": 1, "ms_per_decision": 80.0}]}}
    for figures, met in ((fast, True), (slow, False)):
        rows = bench.search_targets("nakbe", figures)
        assert [(row["target"], row["goal"], row["unit"], row["met"]) for row in rows] == [
            ("search decision at 400 simulations, one thread", bench.SEARCH_MS_PER_DECISION, "ms", met)
        ]
    assert bench.search_targets("nakbe", {"search": search}) == []


@SHARES_THE_QUICK_RUN
def test_the_chart_is_drawn_against_the_reference(quick_report, tmp_path):
    pytest.importorskip("matplotlib")
    report = json.loads(json.dumps(quick_report[0]))
    report["peers"][bench.REFERENCE] |= {"steps_per_second": 1000.0, "reason": None}
    report["reference"]["steps_per_second"] = 1000.0
    chart = bench.draw_chart(report, tmp_path / "chart.png")
    assert chart == {"path": str(tmp_path / "chart.png"), "reason": None}
    assert (tmp_path / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("arguments", "seconds", "memory_games", "command"),
    [
        ([], bench.DEFAULT_SECONDS, bench.MEMORY_GAMES, "treasure-envs bench"),
        (["--quick"], bench.QUICK_SECONDS, bench.QUICK_MEMORY_GAMES, "treasure-envs bench --quick"),
        (["--quick", "--memory-games", "5"], bench.QUICK_SECONDS, 5, "--quick --memory-games 5"),
    ],
)
def test_the_defaults_of_a_full_and_a_quick_run(arguments, seconds, memory_games, command):
    """What `bench` and `bench --quick` measure when not told (the figures' budget and the
    memory batch), and the command each run records to repeat itself."""
    args = bench_parser().parse_args(["bench", *arguments])
    bench.resolve_defaults(args)
    assert (args.seconds, args.memory_games) == (seconds, memory_games)
    assert bench.command_line(args).endswith(command)


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--seconds", "0"], "--seconds"),
        (["--memory-games", "0"], "--memory-games"),
        (["--games", "chess"], "unknown games"),
    ],
)
def test_bad_arguments_are_refused(arguments, message, tmp_path):
    args = bench_parser().parse_args(["bench", *arguments, "--out", str(tmp_path)])
    with pytest.raises(ValueError, match=message):
        args.run(args)
    assert not (tmp_path / "bench.json").exists()


# A stand-in for PGX_SCRIPT with the same protocol: a JSON line once "compiled", then one
# window's figures per request (1,000 steps a request, in the seconds asked for).
FAKE_PGX_SCRIPT = """
import json, sys, time
print(json.dumps({"versions": {"pgx": "fake", "jax": "fake"}, "devices": ["cpu"]}), flush=True)
for line in sys.stdin:
    kind, budget = line.split()
    assert kind in ("step", "rollout"), kind
    time.sleep(float(budget))
    print(json.dumps({"steps": 1000, "seconds": max(float(budget), 1e-3)}), flush=True)
"""


def test_the_batch_and_playout_rows_alternate_their_windows_with_pgx():
    """With a Pgx server (here a stand-in speaking its protocol), the batch x1024 rows and the
    playout rows carry Pgx's best interleaved window and their ratio to it, the targets use
    that ratio, and the peers' rows come from the same server."""
    server = bench.PgxServer(FAKE_PGX_SCRIPT)
    try:
        batch = bench.measure_batch("nakbe", bench.PLAYOUT_BATCH, 1, 0.01, server)
        small = bench.measure_batch("nakbe", 64, 1, 0.01, server)
        playout = bench.measure_playout("nakbe", 1, 0.01, server)
        speed = bench.measure_batch("karuba", bench.PLAYOUT_BATCH, 1, 0.01, server, {"previews": False})
        peers = bench.peer_pgx(0.01, server)
    finally:
        server.close()
    assert server.process.poll() == 0  # closing ends it
    for row in (batch, playout, speed):
        assert_rate(row)
        assert_rate(row["interleaved_pgx"])
        assert row["vs_pgx"] == pytest.approx(
            row["steps_per_second"] / row["interleaved_pgx"]["steps_per_second"]
        )
    assert small["vs_pgx"] is None and small["interleaved_pgx"] is None  # not Pgx's batch size
    for row in bench.PGX_ROWS:
        assert_rate(peers[row])
        assert peers[row]["versions"] == {"pgx": "fake", "jax": "fake"}
    report = {
        "reference": {"steps_per_second": None},
        "games": {
            "nakbe": {
                "aec": {"steps_per_second": 1.0},
                "batch_python": [batch, small],
                "playout": {
                    "one_thread": playout,
                    "all_threads": playout | {"threads": 2},
                    "fresh_threads": playout | {"threads": 2},
                    "processes": {"steps_per_second": 1.0, "processes": 2, "batch_size": bench.PLAYOUT_BATCH},
                    "thread_scaling": 1.0,
                    "process_scaling": 1.0,
                    "threads_vs_processes": 1.0,
                    "fresh_reason": None,
                },
                "start": {
                    kind: dict.fromkeys((*bench.START_TARGET_STAGES, "reason", "runner_reason"))
                    for kind in ("cold", "cached")
                },
            }
        },
    }
    targets = {row["target"]: row for row in bench.evaluate_targets(report)}
    assert targets["batch x1024 with observations vs Pgx step, best threads"]["measured"] == batch["vs_pgx"]
    assert targets["in-kernel playout, all threads vs Pgx rollout"]["measured"] == playout["vs_pgx"]
    assert not any(name.endswith("at the speed options") for name in targets)  # nakbe names none
    # A game with speed options: their row has a target of its own, and a row in both tables.
    report["games"]["nakbe"] |= {"speed_options": {"previews": False}, "batch_speed": [speed]}
    targets = {row["target"]: row for row in bench.evaluate_targets(report)}
    speed_target = targets["batch x1024 with observations vs Pgx step, best threads, at the speed options"]
    assert speed_target["measured"] == speed["vs_pgx"] and speed_target["note"].startswith("previews=False; ")
    labels = [label for label, _, _ in bench.table_rows(report | {"peers": {}})]
    assert any(label.endswith(", at previews=False") for label in labels)


def test_a_pgx_server_that_stops_says_why():
    with pytest.raises(RuntimeError, match="the Pgx subprocess stopped: .*boom"):
        bench.PgxServer("import sys; sys.exit('boom')")
    server = bench.PgxServer(FAKE_PGX_SCRIPT.replace("time.sleep(float(budget))", "sys.exit('gone')"))
    with pytest.raises(RuntimeError, match="stopped: gone"):
        server.measure("step")(0.01)
    server.close()


@pytest.mark.parametrize("game", game_names())
def test_the_speed_options_are_valid_options_and_documented(game):
    """GameSpec.speed_options, which the bench's batch_speed row runs, are options the game
    accepts, and its page says what they change."""
    spec = get_game(game)
    spec.validate(spec.speed_options)
    page = (Path(__file__).resolve().parents[1] / "docs" / "games" / f"{game}.md").read_text()
    for name, value in spec.speed_options.items():
        assert f"{name}={value!r}" in page, (game, name)
