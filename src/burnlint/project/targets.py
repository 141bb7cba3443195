"""Cargo targets: which files share crate-local facts.

A crate's lib (``src/lib.rs`` and the rest of ``src/`` outside ``src/bin``) is visible to every
other target of the crate; each ``src/main.rs``, ``src/bin/*``, ``examples/*``, ``tests/*``,
``benches/*`` and ``build.rs`` stands alone. A file under no ``Cargo.toml`` is a target of its own.
Module trees are not followed: a file is put where cargo's conventions put it.
"""

from __future__ import annotations

import os
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

    @property
    def is_test(self) -> bool:
        """An integration test or a benchmark (``tests/*``, ``benches/*``): test code."""
        return self.name.startswith(("test:", "bench:"))

    def lib(self) -> Target:
        return Target(self.crate, "lib")


def forget_layout() -> None:
    """Forget which directories hold a crate, which crates a lib, and what their manifests
    say: each run asks the file system again (``engine.lint_files`` calls it first), so a
    long-lived process sees a manifest or a `lib.rs` created, edited or removed since its
    last run (an unchanged manifest is not parsed again: ``_manifest_of``)."""
    crate_root.cache_clear()
    _crate_of_directory.cache_clear()
    _has_lib.cache_clear()
    manifest_of.cache_clear()


def crate_of_file(path: Path) -> Path | None:
    """``crate_root(path.parent)``, looked up by the directory's name: a tree of thousands of
    files has far fewer directories, and a ``Path`` costs more to build and hash than a
    string."""
    return _crate_of_directory(os.path.dirname(path))


@lru_cache(maxsize=16384)
def _crate_of_directory(directory: str) -> Path | None:
    return crate_root(Path(directory))


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
    crate = crate_of_file(path)
    if crate is None:
        return Target(path.as_posix(), "file")
    return _target_in(path, crate, _has_lib(crate))


@lru_cache(maxsize=65536)
def _target_in(path: Path, crate: Path, has_lib: bool) -> Target:
    """The target of ``path`` in the crate in directory ``crate`` (by cargo's conventions: a
    function of the paths, so a long-lived process keeps the answers)."""
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
        return Target(key, "lib" if has_lib else "bin:main")
    return Target(path.as_posix(), "file")


def module_in_target(path: Path, target: Target) -> tuple[str, ...]:
    """The module path cargo gives ``path`` inside ``target`` (see ``items.module_of``): the
    root file of a target (``lib.rs``, ``main.rs``, ``src/bin/x.rs``, ``examples/x.rs``) is
    ``()``; ``src/a/b.rs`` is ``(a, b)``."""
    from burnlint.model.items import module_of

    if target.name == "file":
        return ()
    parts = path.relative_to(target.crate).parts
    if target.name == "build":
        return ()
    if parts and parts[0] in ("examples", "tests", "benches"):
        inner = parts[1:]
    elif len(parts) >= 2 and parts[:2] == ("src", "bin"):
        inner = parts[2:]
    else:
        inner = parts[1:] if parts and parts[0] == "src" else parts
    if len(inner) == 1:
        # the target's own file (`src/bin/x.rs`, `examples/x.rs`), or `src/lib.rs`/`src/a.rs`
        if parts[0] == "src" and not (len(parts) >= 2 and parts[1] == "bin"):
            return module_of(inner)
        return ()
    if parts[0] != "src" or (len(parts) >= 2 and parts[1] == "bin"):
        inner = inner[1:]  # `examples/x/foo.rs`: relative to the target's directory
    return module_of(inner)


# The packages of burn's own workspace (tracel-ai/burn, `crates/`, and those of earlier
# releases): checked where they are, but never joined to their dependents' crate facts.
BURN_CRATES = frozenset(
    {
        "burn",
        "burn-autodiff",
        "burn-backend",
        "burn-backend-extension",
        "burn-backend-tests",
        "burn-candle",
        "burn-capture",
        "burn-collective",
        "burn-common",
        "burn-communication",
        "burn-core",
        "burn-cpu",
        "burn-cubecl",
        "burn-cubecl-fusion",
        "burn-cuda",
        "burn-dataset",
        "burn-derive",
        "burn-dispatch",
        "burn-flex",
        "burn-fusion",
        "burn-hip",
        "burn-import",
        "burn-ir",
        "burn-jit",
        "burn-ndarray",
        "burn-nn",
        "burn-no-std-tests",
        "burn-optim",
        "burn-pack",
        "burn-remote",
        "burn-rl",
        "burn-rocm",
        "burn-router",
        "burn-std",
        "burn-store",
        "burn-tch",
        "burn-tensor",
        "burn-tensor-testgen",
        "burn-train",
        "burn-vision",
        "burn-wgpu",
    }
)


def with_path_dependencies(crates: list[Path]) -> list[Path]:
    """``crates`` and every crate they reach through path dependencies (``path_dependencies``):
    the crates whose facts a file of ``crates`` is checked with."""
    found = {crate.as_posix() for crate in crates}
    pending = sorted(found)
    while pending:
        for dependency in path_dependencies(pending.pop()):
            if dependency not in found:
                found.add(dependency)
                pending.append(dependency)
    return [Path(crate) for crate in sorted(found)]


def path_dependencies(crate: str) -> tuple[str, ...]:
    """The crates (directories) ``crate`` names through a path dependency, for any of its
    targets, that its functions can call: all but burn's own crates."""
    manifest = manifest_of(crate)
    return tuple(
        sorted(
            {
                location
                for _name, location in manifest.dependencies + manifest.dev_dependencies
                if not manifest_of(location).is_burn
            }
        )
    )


@dataclass(frozen=True)
class Manifest:
    """What a crate's ``Cargo.toml`` says about the names its code uses for other crates:
    its own lib's name (``[lib] name``, else the package name with ``-`` as ``_``), and the
    crates its path dependencies name (the key as written, or ``package`` renamed), with
    where they are. Dev-dependencies serve tests, examples and benches only."""

    lib_name: str
    dependencies: tuple[tuple[str, str], ...] = ()  # (name in code, crate directory, POSIX)
    dev_dependencies: tuple[tuple[str, str], ...] = ()
    package: str = ""  # ``[package] name``, as written

    @property
    def is_burn(self) -> bool:
        """One of burn's own crates (its functions are the API the rules know, not helpers)."""
        return self.package in BURN_CRATES


@lru_cache(maxsize=1024)
def manifest_of(crate: str) -> Manifest:
    """The manifest facts of the crate in directory ``crate``; an unreadable or broken
    manifest has none (the version reader reports it). Read once per run (``forget_layout``
    starts a run), and parsed again only when the file's size, modification time or inode
    changed: a long-lived process (``--fix``'s re-checks, the language server) sees an
    edited manifest."""
    try:
        stat = os.stat(Path(crate) / _MANIFEST)
        key: tuple[int, int, int] | None = (stat.st_size, stat.st_mtime_ns, stat.st_ino)
    except OSError:
        key = None
    return _manifest_of(crate, key)


@lru_cache(maxsize=1024)
def _manifest_of(crate: str, _stat: tuple[int, int, int] | None) -> Manifest:
    from burnlint.project import _toml

    directory = Path(crate)
    try:
        text = (directory / _MANIFEST).read_text(encoding="utf-8").removeprefix("\ufeff")
        document = _toml.loads(text)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return Manifest(lib_name=directory.name.replace("-", "_"))
    package = document.get("package")
    name = package.get("name") if isinstance(package, dict) else None
    lib = document.get("lib")
    lib_name = lib.get("name") if isinstance(lib, dict) else None
    if not isinstance(lib_name, str):
        lib_name = name if isinstance(name, str) else directory.name
    return Manifest(
        lib_name.replace("-", "_"),
        _path_dependencies(directory, document.get("dependencies")),
        _path_dependencies(directory, document.get("dev-dependencies")),
        name if isinstance(name, str) else "",
    )


def _path_dependencies(directory: Path, table: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(table, dict):
        return ()
    found: list[tuple[str, str]] = []
    for key, spec in table.items():
        if not isinstance(spec, dict) or not isinstance(spec.get("path"), str):
            continue
        location = (directory / spec["path"]).resolve()
        if not (location / _MANIFEST).is_file():
            continue
        # `foo = { path = "..", package = "bar" }`: the code names it `foo`; without
        # `package`, the key is the package's name, and the code uses its lib's name
        if isinstance(spec.get("package"), str):
            name = key
        else:
            name = manifest_of(location.as_posix()).lib_name
        found.append((name.replace("-", "_"), location.as_posix()))
    return tuple(sorted(found))


def visible_dependencies(target: Target) -> tuple[tuple[str, str], ...]:
    """The path dependencies ``target``'s code can name: ``[dependencies]`` for every target
    but ``build.rs``, ``[dev-dependencies]`` too for tests, examples and benches."""
    if target.name in ("file", "build"):
        return ()
    manifest = manifest_of(target.crate)
    if target.name.split(":")[0] in ("test", "example", "bench"):
        return manifest.dependencies + manifest.dev_dependencies
    return manifest.dependencies


def callable_dependencies(target: Target) -> tuple[tuple[str, str], ...]:
    """The path dependencies whose functions ``target``'s calls resolve to: all that are
    visible but burn's own crates (whose functions are the API the rules know)."""
    return tuple(
        (name, crate)
        for name, crate in visible_dependencies(target)
        if not manifest_of(crate).is_burn
    )
