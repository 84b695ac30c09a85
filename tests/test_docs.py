"""The docs keep up with the code: each registered game of this repository has its page, which
prints the action table exactly as the game's ActionLayout gives it and names the phases;
docs/architecture.md lists rooms every such game has; and every dotted project name that it or
a game page cites in backticks imports. (A game registered from another distribution, such as
examples/sixth_game/ once installed, documents itself there.)"""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path

import pytest

from treasure_core.registry import all_games, module_of

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
ARCHITECTURE = DOCS / "architecture.md"


def package_folder(name: str) -> Path:
    """The folder of a registered game's package, found without running it (the file system's
    root for a module that cannot be found: other tests report that)."""
    spec = importlib.util.find_spec(module_of(name))
    if spec is None or spec.origin is None:
        return Path("/")
    return Path(spec.origin).resolve().parent


GAMES = {game.name: game for game in all_games() if package_folder(game.name).parent == ROOT}
TABLE_HEADER = "| actions | block | meaning |"
PROJECT_PACKAGES = ("treasure_core", "treasure_adapters", "treasure_apps", *sorted(map(module_of, GAMES)))
# A dotted name under one of the project's packages: a module, or a module's attribute.
DOTTED = re.compile(r"(?<![\w.])(?:" + "|".join(PROJECT_PACKAGES) + r")(?:\.[A-Za-z_]\w*)+")
FENCE = re.compile(r"^[ \t]*```.*?^[ \t]*```", re.M | re.S)
INLINE = re.compile(r"`((?:[^`\n]|\n(?![ \t]*\n))+)`")  # a code span may wrap, within a paragraph


def page(name: str) -> str:
    path = DOCS / "games" / f"{name}.md"
    assert path.is_file(), f"{name} is registered but has no page {path.relative_to(DOCS.parent)}"
    return path.read_text()


def section(text: str, heading: str) -> list[str]:
    """The lines of the `## heading` section, up to the next `## ` heading."""
    lines = text.splitlines()
    assert f"## {heading}" in lines, f"no '## {heading}' section"
    start = lines.index(f"## {heading}") + 1
    stop = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:stop]


def cited_names(text: str) -> set[str]:
    """Project names in backticks: inline code spans and fenced code blocks."""
    spans = FENCE.findall(text)
    spans += INLINE.findall(FENCE.sub("", text))
    return {name for span in spans for name in DOTTED.findall(span)}


def resolves(name: str) -> bool:
    """The longest prefix that the import system finds as a module (found, not run, so a module
    that needs an optional extra still counts), then the rest as attributes of it (imported)."""
    parts = name.split(".")
    found = 0
    for i in range(1, len(parts) + 1):
        try:
            spec = importlib.util.find_spec(".".join(parts[:i]))
        except ImportError:  # the prefix is a module, not a package: the rest are attributes
            break
        if spec is None:
            break
        found = i
    if found == 0:
        return False
    if found == len(parts):
        return True
    value = importlib.import_module(".".join(parts[:found]))
    for attribute in parts[found:]:
        if not hasattr(value, attribute):
            return False
        value = getattr(value, attribute)
    return True


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_game_page_prints_the_action_table(name: str) -> None:
    """The Actions section holds one table, `| actions | block | meaning |`, with exactly one row
    per block of game.actions.table(), in order, word for word."""
    lines = section(page(name), "Actions")
    assert lines.count(TABLE_HEADER) == 1, f"{name}.md: the Actions section needs one '{TABLE_HEADER}' table"
    at = lines.index(TABLE_HEADER)
    assert lines[at + 1].replace(" ", "") == "|---|---|---|", f"{name}.md: no separator under the header"
    table = []
    for line in lines[at + 2 :]:
        if not line.startswith("|"):
            break
        table.append(line)
    expected = [f"| {span} | {block} | {meaning} |" for span, block, meaning in GAMES[name].actions.table()]
    assert table == expected, (
        f"{name}.md: the action table must be, from game.actions.table():\n" + "\n".join(expected)
    )


OPTIONS_HEADER = "| option | default | values | meaning |"


def table_rows(lines: list[str], header: str) -> list[str]:
    """The rows of the one table under `header` in `lines` (its separator checked)."""
    assert lines.count(header) == 1, f"the section needs one '{header}' table"
    at = lines.index(header)
    assert set(lines[at + 1].replace(" ", "")) <= set("|-"), "no separator under the header"
    rows = []
    for line in lines[at + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_game_page_prints_the_options_table(name: str) -> None:
    """The Options section holds `| option | default | values | meaning |` with one row per
    option of the GameSpec, word for word: a documented default that differs from the code's
    fails here (the nakbe and karuba pages once gave "raise" as illegal_action's default)."""
    rows = table_rows(section(page(name), "Options"), OPTIONS_HEADER)
    expected = ["| " + " | ".join(row) + " |" for row in GAMES[name].options_table()]
    assert rows == expected, (
        f"{name}.md: the options table must be, from game.options_table():\n" + "\n".join(expected)
    )


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_game_page_names_its_phases(name: str) -> None:
    lines = [line for line in section(page(name), "Actions") if line.startswith("**Phases**")]
    assert len(lines) == 1, f"{name}.md: the Actions section needs one '**Phases**' line"
    for phase in GAMES[name].phases:
        assert f"`{phase}`" in lines[0], f"{name}.md: the Phases line does not name `{phase}`"


def test_every_room_of_the_architecture_is_in_every_game() -> None:
    table = "\n".join(section(ARCHITECTURE.read_text(), "A game package's rooms"))
    rooms = re.findall(r"^\| `(\w+\.py)` \|", table, re.M)
    assert "state.py" in rooms and "batch.py" in rooms, f"the rooms table lists {rooms}"
    for name in GAMES:
        folder = package_folder(name)
        missing = [room for room in rooms if not (folder / room).is_file()]
        assert not missing, f"{name} ({folder.name}) lacks the rooms {missing}"


@pytest.mark.parametrize(
    "path", [ARCHITECTURE, *sorted((DOCS / "games").glob("*.md"))], ids=lambda path: path.name
)
def test_every_cited_project_name_imports(path: Path) -> None:
    names = cited_names(path.read_text())
    if path == ARCHITECTURE:
        assert len(names) > 30, f"the map cites only {len(names)} project names; is the pattern broken?"
    stale = sorted(name for name in names if not resolves(name))
    assert not stale, f"{path.name} cites names that do not import: {stale}"


def test_the_checks_can_fail() -> None:
    assert {"nakbe", "karuba"} <= set(GAMES), f"the repository's games are {sorted(GAMES)}"
    names = ["treasure_core.aec.TreasureAECEnv", "treasure_core.codegen", "treasure_core.nowhere.x"]
    text = f"`{names[0]}`, `python -m {names[1]}\n  nakbe_env`, `{names[2]}`; not `mygame.x`, not {names[0]}"
    assert cited_names(text) == set(names)
    assert cited_names("```\nfrom treasure_core.rng import rng_next\n```\nand `a`") == {"treasure_core.rng"}
    assert resolves("treasure_core.aec.TreasureAECEnv") and resolves("treasure_core.codegen")
    assert not resolves("treasure_core.nowhere.x") and not resolves("treasure_core.aec.no_such_name")
    assert not resolves("treasure_core.single_agent")


def test_the_readme_rows_of_the_kept_recipe_runs_are_their_records(baselines) -> None:
    """benchmarks/recipe_runs holds the records of the Results rows run since 2026-12-06
    (baselines.py --keep): each makes its row of the README's table exactly."""
    records = ROOT / "benchmarks" / "recipe_runs"
    markdown, runs = baselines.table(records)
    rows = markdown.splitlines()[2:]
    assert len(rows) == len(runs) >= 3
    readme = (ROOT / "README.md").read_text()
    for row in rows:
        assert row in readme, row
