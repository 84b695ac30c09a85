"""Keeping numba's on-disk cache honest across modules.

numba decides whether a cached compile is stale only from the source file that defines the
function. A kernel in kernels.py that reads a table of data.py, or calls the runtime's
generator, keeps its cached machine code after data.py or treasure_core changes: it runs the
old tables. So each game package stamps a digest of its own sources and the runtime's beside
its cache, and on import drops its cached compiles (and the runtime's) when the digest changes.
A game calls it first thing in its __init__.py:

    from treasure_core.cache import refresh_numba_cache

    refresh_numba_cache(__file__)
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

RUNTIME = Path(__file__).resolve().parent
STAMP = "numba-sources.sha256"
CACHE_SUFFIXES = (".nbi", ".nbc")


def sources_digest(package: Path) -> str:
    """A digest of every .py file of the package and of the runtime (names and contents)."""
    digest = hashlib.sha256()
    for root in (package, RUNTIME):
        for path in sorted(root.glob("*.py")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_dirs(source_dir: Path) -> list[Path]:
    """Where numba keeps the cached compiles of functions defined in `source_dir`: its
    __pycache__, or, when NUMBA_CACHE_DIR is set, the folder numba names under it after the
    source folder and the SHA-1 of its absolute path ("nakum_env_f57c...", as numba's
    _CacheLocator.get_suitable_cache_subpath does)."""
    override = os.environ.get("NUMBA_CACHE_DIR")
    if override:
        folder = os.path.abspath(source_dir)
        hashed = hashlib.sha1(folder.encode()).hexdigest()
        return [Path(os.path.abspath(override)) / f"{os.path.basename(folder)}_{hashed}"]
    return [source_dir / "__pycache__"]


def refresh_numba_cache(package_file: str) -> bool:
    """Drop the cached compiles of the package (and of the runtime) when their sources changed
    since they were cached. Returns whether it dropped anything. Never fails an import: a cache
    it cannot write is numba's to handle."""
    package = Path(package_file).resolve().parent
    try:
        digest = sources_digest(package)
        dropped = False
        for folder in cache_dirs(package):
            stamp = folder / STAMP
            if stamp.is_file() and stamp.read_text().strip() == digest:
                continue
            for directory in cache_dirs(package) + cache_dirs(RUNTIME):
                for path in directory.glob("*"):
                    if path.suffix in CACHE_SUFFIXES:
                        path.unlink(missing_ok=True)
                        dropped = True
            folder.mkdir(parents=True, exist_ok=True)
            stamp.write_text(digest + "\n")
        return dropped
    except OSError:
        return False
