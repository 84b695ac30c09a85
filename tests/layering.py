"""The import graph of the project's packages, read from their source (every import statement,
function-local ones included), and the layering rules it must keep (docs/architecture.md,
Layers): runtime <- games <- adapters <- applications, games never import each other, no
import circles, and each layer imports only the third-party packages it may."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Layer:
    name: str
    packages: tuple[str, ...]  # top-level packages in this layer
    third_party: frozenset[str]  # third-party top-level modules it may import
    independent: bool = False  # its packages may not import each other
    # third-party module -> the one project module (with its submodules) of this layer that may
    # import it: ray only in treasure_adapters.rllib, pyspiel only in treasure_adapters.openspiel.
    only_in: tuple[tuple[str, str], ...] = ()


def project_layers(root: Path) -> list[Layer]:
    """The project's layers, lowest first; every `*_env` package at the root is a game."""
    runtime = frozenset({"numpy", "numba", "gymnasium", "pettingzoo"})
    games = tuple(sorted(p.name for p in root.glob("*_env") if (p / "__init__.py").is_file()))
    # Training (torch, sb3), plots, progress bars, the benchmark's peers, and the web pages (starlette,
    # uvicorn: `serve` and `replay`).
    applications = {"tqdm", "torch", "sb3_contrib", "stable_baselines3", "matplotlib", "pyspiel", "ray"}
    applications |= {"starlette", "uvicorn"}
    return [
        Layer("runtime", ("treasure_core",), runtime),
        Layer("games", games, runtime, independent=True),
        # ray: the RLlib adapter, pyspiel: the OpenSpiel adapter; each only there (nothing else
        # imports them, so the other adapters work without the rllib or bench extra).
        Layer(
            "adapters",
            ("treasure_adapters",),
            runtime | {"ray", "pyspiel"},
            only_in=(
                ("ray", "treasure_adapters.rllib"),
                ("pyspiel", "treasure_adapters.openspiel"),
            ),
        ),
        Layer("applications", ("treasure_apps",), runtime | applications),
    ]


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(root: Path, path: Path, modules: set[str]) -> Iterable[tuple[str, int]]:
    """(imported name, line) for every import in the file, resolved to a project module where
    it names one (the longest known prefix), else left as written."""
    tree = ast.parse(path.read_text(), filename=str(path))
    here = module_name(root, path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                yield (candidate if candidate in modules else base), node.lineno


def resolve(name: str, modules: set[str]) -> str | None:
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def check(root: Path, layers: list[Layer]) -> list[str]:
    """Every breach of the layering rules under root, as readable lines (empty: all kept)."""
    layer_of = {package: (i, layer) for i, layer in enumerate(layers) for package in layer.packages}
    files = {}
    for package in layer_of:
        for path in sorted((root / package).rglob("*.py")):
            files[module_name(root, path)] = path
    modules = set(files)
    problems, graph = [], {m: set() for m in modules}
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for module, path in files.items():
        rank, layer = layer_of[module.split(".")[0]]
        for name, line in imports_of(root, path, modules):
            where = f"{path.relative_to(root)}:{line}"
            target = resolve(name, modules)
            top = name.split(".")[0]
            if target is None:
                if top in layer_of:
                    problems.append(f"{where}: {module} imports {name}, which does not exist")
                elif top not in stdlib and top not in layer.third_party:
                    problems.append(f"{where}: the {layer.name} layer may not import {top} ({module})")
                else:
                    owner = dict(layer.only_in).get(top)
                    if owner is not None and module != owner and not module.startswith(owner + "."):
                        problems.append(f"{where}: only {owner} may import {top} ({module} does)")
                continue
            target_rank, target_layer = layer_of[target.split(".")[0]]
            if target_rank > rank:
                what = f"{module} ({layer.name}) imports {target} ({target_layer.name})"
                problems.append(f"{where}: {what}, which is above it")
            elif layer.independent and target_rank == rank and target.split(".")[0] != module.split(".")[0]:
                problems.append(f"{where}: {module} imports {target}: {layer.name} never import each other")
            if target != module:
                graph[module].add(target)
    for cycle in cycles(graph):
        problems.append("import circle: " + " -> ".join([*cycle, cycle[0]]))
    return problems


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each in order."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found
