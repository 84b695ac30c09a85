"""Option declarations and validation.

A game declares its options as `Option`s; `validate_options` checks what a user passed and
fills in defaults. Every error names the option and the allowed values, and nothing is
clipped or coerced silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Option:
    """One constructor option: a name, a default and the values it allows."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    help: str

    def allowed(self) -> str:
        values = self.choices
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values) and len(values) > 2:
            if list(values) == list(range(values[0], values[-1] + 1)):
                return f"an integer from {values[0]} to {values[-1]}"
        return "one of " + ", ".join(repr(v) for v in values)

    def check(self, value: Any, game: str) -> Any:
        if isinstance(value, np.bool_):
            value = bool(value)  # numpy's bool is a bool (never an int)
        for choice in self.choices:
            # bool is an int in Python: never let True stand for 1 or 1 for True.
            if type(choice) is bool or type(value) is bool:
                if type(choice) is type(value) and choice == value:
                    return choice
            elif isinstance(value, type(choice)) and value == choice:
                return choice
            elif isinstance(choice, int) and _is_integer(value) and int(value) == choice:
                return choice
        raise ValueError(f"{game}: option {self.name!r} must be {self.allowed()}; got {value!r}")


def _is_integer(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def validate_options(game: str, declared: tuple[Option, ...], given: dict[str, Any]) -> dict[str, Any]:
    """Check `given` against `declared`; return every option with its value (defaults filled)."""
    names = {option.name: option for option in declared}
    unknown = sorted(set(given) - set(names))
    if unknown:
        raise ValueError(
            f"{game}: unknown option(s) {', '.join(map(repr, unknown))}; "
            f"allowed options are {', '.join(map(repr, names))}"
        )
    return {
        name: option.check(given[name], game) if name in given else option.default
        for name, option in names.items()
    }


def parse_cli_value(option: Option, text: str) -> Any:
    """Turn the text of `--option name=value` into the option's type (then `check` it)."""
    for choice in option.choices:
        if str(choice).lower() == text.lower():
            return choice
    try:
        return int(text)
    except ValueError:
        return text
