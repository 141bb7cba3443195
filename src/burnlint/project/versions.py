"""Which burn release the checked code builds against.

Rule facts differ between burn releases (error texts, ``map_indices_contiguous_except``), so
burnlint says in its output which version it assumed. The answer, for a directory:

1. the nearest ``Cargo.lock`` above it (one that sits beside a ``Cargo.toml``, i.e. at a
   workspace root): the ``[[package]]`` named ``burn-store``, else ``burn`` (the highest
   version when the lock holds several);
2. else the nearest ``Cargo.toml``'s dependency tables (``[dependencies]``, dev, build,
   ``[target.*.dependencies]``), following ``workspace = true`` and renamed packages to the
   workspace root's ``[workspace.dependencies]``: a requirement such as ``0.22``;
3. else nothing is known.

A file that cannot be read or parsed becomes a warning notification; nothing here raises.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from burnlint.findings import Level, Notification, NotificationKind
from burnlint.fsutil import Stamps, stamps
from burnlint.project import _toml
from burnlint.project.releases import joined_versions, version_key

LOCK = "Cargo.lock"
MANIFEST = "Cargo.toml"
# burn-store is the crate the rules are about; `burn` re-exports it as `burn::store`.
CRATES = ("burn-store", "burn")
_DEPENDENCY_TABLES = ("dependencies", "dev-dependencies", "build-dependencies")
_NUMBERS = re.compile(r"\d+")
Series = tuple[int, int]  # (major, minor): burn changes its API between minor releases


@dataclass(frozen=True)
class BurnVersion:
    """``version`` as found; ``exact`` when it comes from a lock, else it is a requirement."""

    version: str
    crate: str
    source: Path
    exact: bool


def _locked(lock: Path) -> BurnVersion | None:
    """The burn version a lock file's regex reading finds (``VersionReader._from_lock``), read
    again only when the file's size, modification time or inode changed: a long-lived process
    (the language server) asks at every check. A file modified within the last two seconds is
    read each time (a clock coarser than its writes would hide a change)."""
    stamp = stamps([os.fspath(lock)])
    return _read_locked(lock) if stamp is None else _locked_by_stamp(lock, stamp)


@lru_cache(maxsize=64)
def _locked_by_stamp(lock: Path, _stamp: Stamps) -> BurnVersion | None:
    return _read_locked(lock)


def _read_locked(lock: Path) -> BurnVersion | None:
    try:
        text = lock.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return None
    for crate in CRATES:
        versions = [m.group(1) for m in _LOCK_ENTRY[crate].finditer(text)]
        if versions:
            return BurnVersion(max(versions, key=version_key), crate, lock, exact=True)
    return None


@dataclass
class VersionReader:
    """Reads each manifest and lock once per run; one that cannot be read is a notification
    (``notifications``)."""

    notifications: list[Notification] = field(default_factory=list)
    _documents: dict[Path, dict[str, Any] | None] = field(default_factory=dict)
    _answers: dict[Path, BurnVersion | None] = field(default_factory=dict)
    # every crate of a workspace asks the same lock file: read it once
    _locks: dict[Path, BurnVersion | None] = field(default_factory=dict)

    def for_directory(self, directory: Path) -> BurnVersion | None:
        directory = Path(os.path.abspath(directory))
        if directory in self._answers:
            return self._answers[directory]
        answer = self._lookup(directory)
        self._answers[directory] = answer
        return answer

    def for_directories(self, directories: Iterable[Path]) -> str | None:
        """The version(s) for files in ``directories`` (crate roots, usually): ``0.22.1``, or
        ``0.21.0, 0.22.1`` when they differ, or None when none is known."""
        found = {
            answer.version
            for directory in sorted({Path(os.path.abspath(d)) for d in directories})
            if (answer := self.for_directory(directory)) is not None
        }
        return joined_versions(found)

    def _lookup(self, directory: Path) -> BurnVersion | None:
        manifests: list[Path] = []
        current: Path | None = directory
        while current is not None:
            manifest = current / MANIFEST
            if manifest.is_file():
                manifests.append(manifest)
                lock = current / LOCK
                if lock.is_file():
                    if lock not in self._locks:
                        self._locks[lock] = self._from_lock(lock)
                    from_lock = self._locks[lock]
                    if from_lock is not None:
                        return from_lock
                    break  # the workspace root: cargo looks no further up
            parent = current.parent
            current = parent if parent != current else None
        for manifest in manifests:
            found = self._from_manifest(manifest, manifests)
            if found is not None:
                return found
        return None

    def _from_lock(self, lock: Path) -> BurnVersion | None:
        # Cargo writes every package as `name = ".."` followed by `version = ".."`: a regex
        # over the text answers in milliseconds where parsing a large lock file as TOML takes
        # a tenth of a second. TOML (with its error messages) is the fallback.
        found = _locked(lock)
        if found is not None:
            return found
        document = self._read(lock)
        if document is None:
            return None
        packages = document.get("package")
        if not isinstance(packages, list):
            return None
        for crate in CRATES:
            versions = [
                p["version"]
                for p in packages
                if isinstance(p, dict)
                and p.get("name") == crate
                and isinstance(p.get("version"), str)
            ]
            if versions:
                return BurnVersion(max(versions, key=version_key), crate, lock, exact=True)
        return None

    def _from_manifest(self, manifest: Path, manifests: list[Path]) -> BurnVersion | None:
        document = self._read(manifest)
        if document is None:
            return None
        tables: list[Mapping[str, Any]] = [
            table for name in _DEPENDENCY_TABLES if isinstance(table := document.get(name), dict)
        ]
        targets = document.get("target")
        if isinstance(targets, dict):
            for platform in targets.values():
                if isinstance(platform, dict):
                    tables.extend(
                        t
                        for name in _DEPENDENCY_TABLES
                        if isinstance(t := platform.get(name), dict)
                    )
        workspace = document.get("workspace")
        own_workspace = (
            workspace.get("dependencies")
            if isinstance(workspace, dict) and isinstance(workspace.get("dependencies"), dict)
            else None
        )
        if own_workspace is not None:
            tables.append(own_workspace)
        for crate in CRATES:
            for table in tables:
                for name, spec in table.items():
                    if _package_name(name, spec) != crate:
                        continue
                    if isinstance(spec, dict) and spec.get("workspace") is True:
                        inherited = self._workspace_dependency(name, manifest, manifests)
                        if inherited is not None:
                            return inherited
                        continue
                    requirement = _requirement(spec)
                    if requirement is not None:
                        return BurnVersion(requirement, crate, manifest, exact=False)
        return None

    def _workspace_dependency(
        self, name: str, manifest: Path, manifests: list[Path]
    ) -> BurnVersion | None:
        for candidate in manifests[manifests.index(manifest) + 1 :]:
            document = self._read(candidate)
            if document is None:
                continue
            workspace = document.get("workspace")
            if not isinstance(workspace, dict):
                continue
            dependencies = workspace.get("dependencies")
            spec = dependencies.get(name) if isinstance(dependencies, dict) else None
            requirement = _requirement(spec) if spec is not None else None
            if requirement is not None:
                return BurnVersion(requirement, _package_name(name, spec), candidate, exact=False)
            return None  # the workspace root answers, even with nothing
        return None

    def _read(self, path: Path) -> dict[str, Any] | None:
        if path in self._documents:
            return self._documents[path]
        document: dict[str, Any] | None = None
        problem: str | None = None
        try:
            text = path.read_bytes().decode("utf-8")
            document = _toml.loads(text.removeprefix("\ufeff"))
        except OSError as exc:
            problem = f"cannot read: {exc.strerror or exc}"
        except UnicodeDecodeError as exc:
            problem = f"not UTF-8 at byte offset {exc.start}"
        except ValueError as exc:  # TOMLDecodeError, or an integer too long to read
            problem = f"not valid TOML: {exc}"
        except RecursionError:
            problem = "not valid TOML: nested too deeply"
        if problem is not None:
            self.notifications.append(
                Notification(
                    path,
                    f"{problem}; the burn version is not read from it",
                    kind=NotificationKind.FILE,
                    level=Level.WARNING,
                )
            )
        self._documents[path] = document
        return document


_LOCK_ENTRY = {
    crate: re.compile(rf'^name = "{re.escape(crate)}"\r?\nversion = "([^"]+)"', re.MULTILINE)
    for crate in CRATES
}


def _package_name(key: str, spec: object) -> str:
    """The crate a dependency entry names: its key, or ``package = ".."`` when renamed."""
    if isinstance(spec, dict) and isinstance(spec.get("package"), str):
        return str(spec["package"]).replace("_", "-")
    return key.replace("_", "-")


def _requirement(spec: object) -> str | None:
    """``"0.22"`` / ``{ version = "=0.22.0-pre.2" }`` -> ``0.22`` / ``0.22.0-pre.2``; a path or
    git dependency without a version -> None."""
    value = spec.get("version") if isinstance(spec, dict) else spec
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    simple = text.lstrip("=^~ ")
    # A single requirement reads as its version; a range (">=0.20, <0.23") is shown as is.
    return simple if re.fullmatch(r"[0-9][0-9A-Za-z.+-]*", simple) else text


def release_series(version: str | None) -> Series | None:
    """The ``(major, minor)`` release series a version or a single requirement names:
    ``0.22.0-pre.2``, ``0.22``, ``=0.21.0``, ``^0.21``, ``~0.21.3`` -> (0, 22) / (0, 21). burn
    changes its API between minor releases (it is below 1.0), so the series is what the rules
    switch on. None when nothing is known, or for a range (``>=0.20, <0.23``) or a list of
    versions (``0.21.0, 0.22.1``): the rules then assume no particular release."""
    if version is None:
        return None
    text = version.strip().lstrip("=^~ ")
    match = re.fullmatch(r"(\d+)\.(\d+)(?:\.\d+)?(?:[-+][0-9A-Za-z.+-]*)?", text)
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2))


def lowest_version(text: str) -> str | None:
    """The lowest release a version or requirement admits, as a version: ``0.19.1`` and
    ``=0.19.1`` -> ``0.19.1``; ``0.19``, ``^0.19`` and ``0.19.*`` -> ``0.19``; ``>=0.19, <0.21``
    -> ``0.19``; None without a lower bound (``<0.21``, ``*``)."""
    lowest: str | None = None
    for part in text.split(","):
        bound = part.strip().lstrip("=^~> ").strip()
        if part.strip().startswith("<") or not bound or not bound[0].isdigit():
            continue
        bound = bound.split(".*")[0]
        if lowest is None or release_key(bound) > release_key(lowest):
            lowest = bound
    return lowest


def release_key(version: str) -> tuple[tuple[int, int, int], int, tuple[tuple[int, str], ...]]:
    """Orders releases as cargo does: ``0.20`` = ``0.20.0`` > ``0.20.0-pre.6`` >
    ``0.20.0-pre.4``, numeric parts of a pre-release compared as numbers."""
    core, _, pre = version.partition("-")
    numbers = [int(n) for n in _NUMBERS.findall(core.split("+")[0])[:3]]
    major, minor, patch = (*numbers, 0, 0, 0)[:3]
    parts = tuple((int(p), "") if p.isdigit() else (-1, p) for p in pre.split(".") if pre and p)
    return (major, minor, patch), 0 if pre else 1, parts
