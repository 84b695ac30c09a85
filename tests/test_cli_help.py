"""`treasure-envs SUBCOMMAND --help`: every entry of every subcommand has a line of help that
states its default (or, for a required argument, what it takes), as the reader sees it."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

from treasure_apps.cli import build_parser
from treasure_core.registry import game_names

DEFAULT = re.compile(r"\bdefault\b", re.IGNORECASE)  # "(default: 3)", "off by default", "x (default)"


def _parsers(
    parser: argparse.ArgumentParser, name: str
) -> Iterator[tuple[str, argparse.ArgumentParser, argparse._SubParsersAction | None]]:
    """(command, parser, its subcommands action or None) for `parser` and every parser under it."""
    subcommands = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    yield name, parser, subcommands
    if subcommands is not None:
        for sub_name, sub in subcommands.choices.items():
            yield from _parsers(sub, f"{name} {sub_name}")


def _flat(text: str) -> str:
    return " ".join(text.split())


def _problems(command: str, parser: argparse.ArgumentParser) -> list[str]:
    """What is wrong with the help of `parser`'s own arguments, one line an entry."""
    rendered = _flat(parser.format_help())
    formatter = parser._get_formatter()
    problems = []
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        entry = f"{command} {'/'.join(action.option_strings) or action.metavar or action.dest}"
        if not action.help or not action.help.strip() or action.help == argparse.SUPPRESS:
            problems.append(f"{entry}: no help")
            continue
        text = formatter._expand_help(action)  # the help line with what the formatter adds
        if _flat(text) not in rendered:
            problems.append(f"{entry}: its help is not in --help as expanded: {text!r}")
        required = action.required or (not action.option_strings and action.nargs not in ("?", "*"))
        if not required and not DEFAULT.search(text):
            problems.append(f"{entry}: no default stated: {text!r}")
        # The choices in words, not only in the usage line: GAME lists the games.
        expected = list(action.choices or [])
        if action.metavar == "GAME":
            expected += game_names()
        missing = [str(choice) for choice in expected if str(choice) not in text]
        if missing:
            problems.append(f"{entry}: does not name {', '.join(missing)}: {text!r}")
    return problems


def test_every_subcommand_has_help() -> None:
    bare = []
    for command, _parser, subcommands in _parsers(build_parser(), "treasure-envs"):
        if subcommands is not None:
            bare += [f"{command} {c.dest}" for c in subcommands._choices_actions if not c.help]
    assert not bare, f"subcommands without a line in --help: {bare}"


def test_every_entry_has_help_stating_its_default() -> None:
    problems = []
    commands = []
    for command, parser, _subcommands in _parsers(build_parser(), "treasure-envs"):
        commands.append(command)
        problems += _problems(command, parser)
    assert "treasure-envs train" in commands  # train's entries, the RLlib ones included, are checked
    assert not problems, "\n".join(problems)


def test_the_formatter_appends_what_the_help_leaves_out() -> None:
    """A default shown once: added where the help says none, never twice; a flag is "off by
    default"; a None default is left for the help to put in words."""
    from treasure_apps.arguments import DefaultsHelpFormatter

    parser = argparse.ArgumentParser(formatter_class=DefaultsHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games to play")
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--out", help="where to write")
    text = _flat(parser.format_help())
    assert "games to play (default: 1000)" in text
    assert "your seat (default 0)" in text and text.count("default") == 3
    assert "a short run (off by default)" in text
    assert "where to write --" not in text and text.endswith("where to write")
