"""The layers run one way: runtime <- games <- adapters <- applications (docs/architecture.md)."""

from __future__ import annotations

from pathlib import Path

from layering import check, project_layers

ROOT = Path(__file__).resolve().parent.parent


def test_the_project_keeps_its_layers():
    problems = check(ROOT, project_layers(ROOT))
    assert not problems, "\n".join(problems)


def test_every_game_package_is_a_layer_member():
    games = project_layers(ROOT)[1].packages
    assert {"nakbe_env", "karuba_env"} <= set(games)


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_check_finds_upward_imports_circles_and_forbidden_packages(tmp_path):
    """A check that cannot fail checks nothing: a tree that breaks each rule once."""
    write(
        tmp_path,
        {
            "treasure_core/__init__.py": "",
            "treasure_core/aec.py": "def f():\n    from treasure_apps import cli\n",  # upward, local
            "treasure_core/a.py": "from treasure_core import b\n",
            "treasure_core/b.py": "import treasure_core.a\nimport tqdm\n",  # a circle; tqdm
            "one_env/__init__.py": "from two_env import kernels\n",  # a game importing a game
            "two_env/__init__.py": "",
            "two_env/kernels.py": "import numpy\n",
            "treasure_adapters/__init__.py": "",
            "treasure_adapters/openspiel.py": "import pyspiel\n",  # allowed: its own adapter
            "treasure_adapters/single_agent.py": "import pyspiel\n",  # another adapter's package
            "treasure_apps/__init__.py": "",
            "treasure_apps/cli.py": "import tqdm\nfrom treasure_core import a\n",  # allowed
        },
    )
    problems = "\n".join(check(tmp_path, project_layers(tmp_path)))
    assert "treasure_core/aec.py:2: treasure_core.aec (runtime) imports treasure_apps.cli" in problems
    assert "import circle: treasure_core.a -> treasure_core.b -> treasure_core.a" in problems
    assert "the runtime layer may not import tqdm" in problems
    assert "one_env imports two_env.kernels: games never import each other" in problems
    only = "only treasure_adapters.openspiel may import pyspiel (treasure_adapters.single_agent does)"
    assert only in problems
    assert len(problems.splitlines()) == 5, problems
