"""Every game's batch.py is the rendering of the one template (treasure_core.codegen), and the
check notices a file that is not."""

from __future__ import annotations

import subprocess
import sys

import pytest

from treasure_core import codegen
from treasure_core.registry import game_names, module_of


@pytest.mark.parametrize("name", game_names())
def test_every_game_batch_module_is_generated_from_the_template(name):
    package = module_of(name)
    assert codegen.is_current(package), f"run python -m treasure_core.codegen {package}"


def test_the_check_finds_a_stale_batch_module(tmp_path, monkeypatch):
    package = tmp_path / "toy_env"
    package.mkdir()
    (package / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert not codegen.is_current("toy_env")  # no batch.py yet
    codegen.write("toy_env")
    assert codegen.is_current("toy_env")
    assert "from toy_env.kernels import" in (package / "batch.py").read_text()
    (package / "batch.py").write_text(codegen.render("toy_env").replace("prange", "range"))
    assert not codegen.is_current("toy_env")
    command = [sys.executable, "-m", "treasure_core.codegen", "--check", "toy_env"]
    result = subprocess.run(command, capture_output=True, text=True, env={"PYTHONPATH": str(tmp_path)})
    assert result.returncode == 1 and "stale" in result.stderr
    with pytest.raises(ValueError, match="top-level module name"):
        codegen.render("not a package")
