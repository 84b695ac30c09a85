"""The command line's shared arguments: GAME, --players and the game's options, given as
`--option name=value` or as flags of their own (`--board jungle`, `--campaign`)."""

from __future__ import annotations

import argparse
import re
from typing import Any

from treasure_core.game import GameSpec
from treasure_core.options import parse_cli_value
from treasure_core.registry import game_names

# Help that already says what happens by default: "(default: 3)", "off by default", "sb3 (default)".
STATES_DEFAULT = re.compile(r"\bdefault\b", re.IGNORECASE)


class DefaultsHelpFormatter(argparse.HelpFormatter):
    """Help in which every entry states its default: " (default: X)" after one that does not
    say it, " (off by default)" after a flag. An entry whose default is None or empty gets
    nothing ("default: None" tells a reader nothing): its help says in words what happens
    without it. Set on every subcommand by cli.build_parser."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help
        if (
            not text
            or "%(default)" in text
            or STATES_DEFAULT.search(text)
            or action.default is argparse.SUPPRESS
        ):
            return text
        if action.nargs == 0:  # a flag (store_true, store_false, store_const): not given unless typed
            return f"{text} (off by default)"
        positional = not action.option_strings
        if action.default in (None, []) or (positional and action.nargs not in ("?", "*")):
            return text  # nothing to show, or a required positional
        return f"{text} (default: %(default)s)"


def add_game_arguments(parser: argparse.ArgumentParser, defaults: str = "the game's own, see `list`") -> None:
    """GAME, --players and --option, as every subcommand takes them; `defaults` says where the
    options come from when none are given (eval: a checkpoint's own)."""
    parser.add_argument("game", metavar="GAME", choices=game_names(), help="the game: %(choices)s")
    parser.add_argument("--players", type=int, default=None, help=f"number of players (default: {defaults})")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option (see `list`), repeatable; game options may also be given as --NAME VALUE "
        f"(default: {defaults})",
    )


def _flag_pairs(game: GameSpec, flags: list[str]) -> list[str]:
    """Game options given as flags (`--board jungle`, `--board=jungle`, `--campaign` for
    True) -> `name=value` pairs."""
    declared = {option.name: option for option in game.options}
    pairs = []
    i = 0
    while i < len(flags):
        flag = flags[i]
        name = flag[2:].split("=", 1)[0].replace("-", "_")
        if not flag.startswith("--") or name not in declared:
            raise ValueError(
                f"{game.name}: unknown argument {flag!r}; game options are "
                f"{', '.join('--' + n for n in declared)}"
            )
        if "=" in flag:
            pairs.append(f"{name}={flag.split('=', 1)[1]}")
        elif i + 1 < len(flags) and not flags[i + 1].startswith("--"):
            pairs.append(f"{name}={flags[i + 1]}")
            i += 1
        elif type(declared[name].default) is bool:
            pairs.append(f"{name}=True")
        else:
            raise ValueError(f"{game.name}: --{name} needs a value: {declared[name].allowed()}")
        i += 1
    return pairs


def parse_options(
    game: GameSpec, pairs: list[str], players: int | None, flags: list[str] = ()
) -> dict[str, Any]:
    """`--option name=value` pairs, game-option flags and --players -> constructor options."""
    declared = {option.name: option for option in game.options}
    options: dict[str, Any] = {}
    for pair in [*pairs, *_flag_pairs(game, list(flags))]:
        if "=" not in pair:
            raise ValueError(f"--option takes name=value; got {pair!r}")
        name, text = pair.split("=", 1)
        if name not in declared:
            raise ValueError(
                f"{game.name}: unknown option {name!r}; allowed options are {', '.join(declared)}"
            )
        options[name] = parse_cli_value(declared[name], text)
    if players is not None:
        options["num_players"] = players
    return game.validate(options)


def split_agents(text: str) -> list[str]:
    """A comma-separated list of agent specs -> the specs. A spec's own parameters are
    comma-separated too (`mcts:sims=400,c=1.4`): a `key=value` item with no `:` belongs to the
    spec before it, so `mcts:sims=400,c=1.4,bot` is two specs."""
    specs: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if specs and "=" in item and ":" not in item and ":" in specs[-1]:
            specs[-1] += "," + item
        else:
            specs.append(item)
    return specs


def check_gamma(gamma: Any) -> None:
    """A ValueError unless `gamma` is a discount in (0, 1] (train's and RLlib's configs)."""
    if isinstance(gamma, bool) or not isinstance(gamma, (int, float)) or not 0 < gamma <= 1:
        raise ValueError(f"gamma must be a number in (0, 1]; got {gamma!r}")
