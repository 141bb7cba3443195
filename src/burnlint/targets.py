"""Cargo targets: which files share crate-local facts.

A crate's lib (``src/lib.rs`` and the rest of ``src/`` outside ``src/bin``) is visible to every
other target of the crate; each ``src/main.rs``, ``src/bin/*``, ``examples/*``, ``tests/*``,
``benches/*`` and ``build.rs`` stands alone. A file under no ``Cargo.toml`` is a target of its own.
Module trees are not followed: a file is put where cargo's conventions put it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

_MANIFEST = "Cargo.toml"


@dataclass(frozen=True, order=True)
class Target:
    crate: str  # the crate directory (POSIX), or the file itself when there is no crate
    name: str  # lib, bin:NAME, example:NAME, test:NAME, bench:NAME, build, file

    @property
    def is_lib(self) -> bool:
        return self.name == "lib"

    def lib(self) -> Target:
        return Target(self.crate, "lib")


@lru_cache(maxsize=4096)
def crate_root(directory: Path) -> Path | None:
    current: Path | None = directory
    while current is not None:
        if (current / _MANIFEST).is_file():
            return current
        parent = current.parent
        current = parent if parent != current else None
    return None


@lru_cache(maxsize=4096)
def _has_lib(crate: Path) -> bool:
    return (crate / "src" / "lib.rs").is_file()


def target_of(path: Path) -> Target:
    """The target ``path`` (an absolute, resolved file path) belongs to."""
    crate = crate_root(path.parent)
    if crate is None:
        return Target(path.as_posix(), "file")
    parts = path.relative_to(crate).parts
    key = crate.as_posix()
    if parts == ("build.rs",):
        return Target(key, "build")
    if len(parts) >= 2 and parts[0] in ("examples", "tests", "benches"):
        kind = {"examples": "example", "tests": "test", "benches": "bench"}[parts[0]]
        return Target(key, f"{kind}:{Path(parts[1]).stem}")
    if len(parts) >= 2 and parts[0] == "src":
        if len(parts) >= 3 and parts[1] == "bin":
            return Target(key, f"bin:{Path(parts[2]).stem}")
        if parts[1:] == ("main.rs",):
            return Target(key, "bin:main")
        return Target(key, "lib" if _has_lib(crate) else "bin:main")
    return Target(path.as_posix(), "file")
