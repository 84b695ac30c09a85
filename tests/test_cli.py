"""The treasure-envs command, run in-process."""

from __future__ import annotations

import builtins
import io
import time

import pytest

from treasure_apps.cli import main
from treasure_apps.progress import PLAIN_LINES, Counter, PlainProgress, progress
from treasure_core.registry import all_games


def test_list_shows_every_game_and_option(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for game in all_games():
        assert game.env_name in out
        for option in game.options:
            assert option.name in out


def test_selfplay_reports_win_rates_and_speed(capsys):
    for game in all_games():
        assert main(["selfplay", game.name, "--games", "12", "--no-progress", "--players", "3"]) == 0
        out = capsys.readouterr().out
        assert "win rate" in out and "steps/s" in out
        assert out.count("random#") == 2


def test_selfplay_rejects_bad_arguments(capsys):
    assert main(["selfplay", "nakbe", "--games", "0"]) == 2
    assert main(["selfplay", "nakbe", "--agents", "random,random", "--games", "2"]) == 2
    assert main(["selfplay", "nakbe", "--agents", "genius", "--games", "2"]) == 2
    assert main(["selfplay", "nakbe", "--option", "reward=gold", "--games", "2"]) == 2
    assert main(["selfplay", "nakbe", "--option", "colour=red", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "reward" in err and "colour" in err and "genius" in err


def test_play_a_whole_game_from_the_keyboard(monkeypatch, capsys):
    for game in all_games():
        answers = iter(["hello", "99"])  # two bad answers at the start of every game

        def fake_input(prompt: str, answers=answers) -> str:
            # Two bad answers first, then always the first legal move listed in the prompt.
            try:
                return next(answers)
            except StopIteration:
                return prompt.split("(")[1].split(",")[0].split(" ")[0]

        monkeypatch.setattr(builtins, "input", fake_input)
        assert main(["play", game.name, "--seed", "4", "--players", "3", "--opponents", "random"]) == 0
        out = capsys.readouterr().out
        assert "not a legal move: 'hello'" in out
        assert "(you)" in out and "score" in out


def test_play_quits_cleanly(monkeypatch, capsys):
    monkeypatch.setattr(builtins, "input", lambda prompt: "q")
    assert main(["play", "nakbe", "--seed", "1"]) == 0
    assert "bye" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["play", "no-such-game"])


def test_game_options_as_flags(monkeypatch, capsys):
    from treasure_apps.arguments import parse_options
    from treasure_core.registry import get_game

    nakbe = get_game("nakbe")
    assert parse_options(nakbe, [], None, ["--board", "jungle"])["board"] == "jungle"
    assert parse_options(nakbe, [], None, ["--board=jungle", "--snakes", "false"])["snakes"] is False
    assert parse_options(nakbe, [], 3, ["--campaign"]) == nakbe.validate({"campaign": True, "num_players": 3})
    with pytest.raises(ValueError, match="--secret_passage"):
        parse_options(nakbe, [], None, ["--colour", "red"])
    with pytest.raises(ValueError, match="--board needs a value"):
        parse_options(nakbe, [], None, ["--board"])
    with pytest.raises(ValueError, match="campaign"):
        parse_options(nakbe, [], None, ["--board", "jungle", "--campaign"])
    assert main(["selfplay", "nakbe", "--board", "jungle", "--games", "3", "--no-progress"]) == 0
    assert main(["selfplay", "nakbe", "--board", "moon", "--games", "3"]) == 2
    assert "'board' must be one of" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["list", "--board", "jungle"])  # `list` takes no game options


def test_play_without_a_seed_draws_one(monkeypatch, capsys):
    monkeypatch.setattr(builtins, "input", lambda prompt: "q")
    assert main(["play", "nakbe", "--board", "jungle"]) == 0
    out = capsys.readouterr().out
    assert "jungle side" in out and "bye" in out


# -- output that fits in a log ---------------------------------------------------------------
def test_piped_progress_is_a_few_plain_lines(capsys):
    """Off a terminal (pytest's captured streams are not one), progress is a handful of plain
    lines, never a bar's carriage returns."""
    assert main(["selfplay", "nakbe", "--games", "40", "--players", "2"]) == 0
    out, err = capsys.readouterr()
    assert "\r" not in out + err
    lines = [line for line in err.splitlines() if line.startswith("nakbe self-play:")]
    assert 1 <= len(lines) <= PLAIN_LINES, err
    assert lines[-1].startswith("nakbe self-play: 40/40 games played (100%)"), lines
    assert "win rate" in out or "wins" in out, out


def test_eval_progress_counts_games_played_apart_from_the_results(capsys):
    """Progress names what it counts (games played: never read as a win rate) and goes to
    stderr; the results go to stdout, the table whole."""
    argv = ["eval", "nakbe", "--players", "2", "--checkpoint", "bot", "--games", "20"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    for opponent in ["random", "bot"]:
        lines = [line for line in err.splitlines() if line.startswith(f"vs {opponent}: ")]
        assert 1 <= len(lines) <= PLAIN_LINES, err
        assert all(" games played (" in line for line in lines), lines
        assert lines[-1].startswith(f"vs {opponent}: 20/20 games played (100%), "), lines
    assert "games played" not in out and "win rate" in out and "95% interval" in out, out
    table = out.splitlines()
    assert table[1].startswith("opponent") and table[2].startswith("random") and table[3].startswith("bot")
    argv = ["eval", "nakbe", "--players", "2", "--round-robin", "random,bot", "--games", "10"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.startswith("round robin: ")]
    assert lines and lines[-1].startswith("round robin: 10/10 games played (100%)"), err  # one pair
    assert "games played" not in out and "Elo" in out, out
    assert main([*argv, "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


def test_plain_progress_writes_one_line_per_tenth() -> None:
    stream = io.StringIO()
    plain = PlainProgress(1000, "work", stream=stream, unit="steps")
    for done in range(0, 1001, 7):
        plain.update(done)
    plain.update(1000)
    lines = stream.getvalue().splitlines()
    assert len(lines) == PLAIN_LINES, lines
    assert lines[0].startswith("work: 105/1000 steps (10%)"), lines  # the first update past a tenth
    assert lines[-1].startswith("work: 1000/1000 steps (100%)"), lines
    assert list(progress(range(5), "quiet", enabled=False)) == list(range(5))
    stream = io.StringIO()
    assert list(progress(range(3), "items", stream=stream)) == [0, 1, 2]
    written = stream.getvalue()
    assert "\r" not in written and written.splitlines()[-1].startswith("items: 3/3 (100%)"), written


def test_plain_progress_counts_time_from_its_start_and_names_its_unit() -> None:
    """A run's time from when it began (a training run's, before its first evaluation), in as
    many lines as asked."""
    stream = io.StringIO()
    plain = PlainProgress(10, "training", stream, "learner steps", lines=2, start=time.perf_counter() - 43)
    for done in range(11):
        plain.update(done)
    lines = stream.getvalue().splitlines()
    assert lines == ["training: 5/10 learner steps (50%), 43 s", "training: 10/10 learner steps (100%), 43 s"]
    stream = io.StringIO()
    counter = Counter(30, "round robin", "games played", stream=stream, lines=3)
    for _ in range(30):
        counter.advance()
    counter.close()
    assert stream.getvalue().splitlines()[-1].startswith("round robin: 30/30 games played (100%)")
    assert len(stream.getvalue().splitlines()) == 3


def test_split_agents_keeps_a_specs_own_parameters() -> None:
    from treasure_apps.arguments import split_agents

    assert split_agents("bot,random") == ["bot", "random"]
    assert split_agents("mcts:sims=8,c=1.4,bot") == ["mcts:sims=8,c=1.4", "bot"]
    assert split_agents("random,mcts:sims=8,c=2") == ["random", "mcts:sims=8,c=2"]
    assert split_agents("mcts") == ["mcts"]


def test_selfplay_with_the_search_agent(capsys):
    argv = ["selfplay", "nakbe", "--players", "2", "--games", "2", "--no-progress"]
    assert main([*argv, "--agents", "mcts:sims=8,c=1.4,random"]) == 0
    out = capsys.readouterr().out
    assert "mcts:sims=8,c=1.4#0" in out and "random#1" in out
    assert main([*argv, "--agents", "mcts:sims=8,depth=3,random"]) == 2
    assert "depth" in capsys.readouterr().err


def test_play_lists_pharaohs_events_since_your_last_turn(monkeypatch, capsys):
    answers = iter(["first"] * 3 + ["q"])

    def answer(prompt: str) -> str:  # the first legal action three times, then quit
        reply = next(answers)
        return prompt.split("(", 1)[1].split(",")[0] if reply == "first" else reply

    monkeypatch.setattr(builtins, "input", answer)
    assert main(["play", "pharaoh", "--players", "2", "--seed", "1"]) == 0
    assert "since player_0's last turn:" in capsys.readouterr().out


def test_play_takes_karubas_tile_placement_as_a_row_and_a_column(monkeypatch, capsys):
    answers = iter(["list", "9 9", "2 3", "q"])
    monkeypatch.setattr(builtins, "input", lambda prompt: next(answers))
    assert main(["play", "karuba", "--players", "2", "--seed", "1", "--opponents", "random"]) == 0
    out = capsys.readouterr().out
    assert "type its row and column" in out and "row 1: columns 1 2 3 4 5 6" in out
    assert "  0: lay tile" in out  # `list`: every action, the cells' too
    assert "row 9 col 9 is not a cell you may choose now" in out
    assert "player_0 laid it on row 2 col 3" in out
    assert "\x1b[" not in out  # not a terminal: no colour codes


def test_ctrl_c_ends_play_with_one_line(monkeypatch, capsys):
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", interrupt)
    assert main(["play", "nakbe", "--seed", "1"]) == 130
    out, err = capsys.readouterr()
    assert out.rstrip().endswith("interrupted: the game is left unfinished") and "Traceback" not in out + err


def test_colour_only_on_a_terminal(monkeypatch):
    from treasure_core.ansi import colour_allowed

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert colour_allowed(Terminal()) and not colour_allowed(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_allowed(Terminal())
