"""Finding the configuration that applies to a path: upward from it, the nearest
``burnlint.toml``, ``.burnlint.toml``, ``Cargo.toml`` with a burnlint table or
``pyproject.toml`` with a ``[tool.burnlint]`` table, in that order within a directory."""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from burnlint.config.helpers import _dig, _parse_toml, _toml_error_line
from burnlint.config.schema import (
    CARGO_MANIFEST,
    CARGO_TABLES,
    CONFIG_FILES,
    PYPROJECT,
    PYPROJECT_TABLE,
    Problem,
)


@dataclass
class _Finder:
    """Upward search with a per-run cache: sibling paths share their ancestors."""

    cache: dict[Path, tuple[Path, str | None] | Problem | None] = field(default_factory=dict)

    def find(self, start: Path) -> tuple[Path, str | None] | Problem | None:
        directory = Path(os.path.abspath(start))
        if not directory.is_dir():
            directory = directory.parent
        visited: list[Path] = []
        found: tuple[Path, str | None] | Problem | None = None
        current: Path | None = directory
        while current is not None:
            if current in self.cache:
                found = self.cache[current]
                break
            visited.append(current)
            found = self._here(current)
            if found is not None:
                break
            parent = current.parent
            current = parent if parent != current else None
        for seen in visited:
            self.cache[seen] = found
        return found

    @staticmethod
    def _here(directory: Path) -> tuple[Path, str | None] | Problem | None:
        for name in CONFIG_FILES:
            candidate = directory / name
            if candidate.is_file():
                return candidate, None
            if os.path.lexists(candidate):
                # There, but not a file burnlint can read: settings it cannot read must not be
                # silently replaced by defaults.
                return Problem(candidate, _unusable_reason(candidate))
        for manifest, candidates in (
            (directory / CARGO_MANIFEST, CARGO_TABLES),
            (directory / PYPROJECT, (PYPROJECT_TABLE,)),
        ):
            found = _table_in(manifest, candidates)
            if found is not None:
                return found
        return None


def _table_in(
    manifest: Path, candidates: tuple[str, ...]
) -> tuple[Path, str | None] | Problem | None:
    """``manifest`` and the table of ``candidates`` it holds (several: joined with commas, for
    ``load_config`` to refuse), a problem when it mentions burnlint but cannot be parsed, or
    None."""
    if not manifest.is_file():
        return None
    try:
        data = manifest.read_bytes()
    except OSError:
        return None  # cargo (or pip) cannot read it either; the version reader reports it
    if b"burnlint" not in data:
        return None  # cheap: most manifests never mention burnlint
    document = _parse_toml(data)
    if isinstance(document, str):
        # Settings we cannot read must not be silently replaced by defaults.
        return Problem(
            manifest,
            f"not valid TOML, so its burnlint settings cannot be read: {document}",
            line=_toml_error_line(document),
        )
    tables = [t for t in candidates if _dig(document, t) is not None]
    if not tables:
        return None
    return manifest, tables[0] if len(tables) == 1 else ",".join(tables)


def _unusable_reason(path: Path) -> str:
    """Why a configuration file that exists cannot be read."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "broken symbolic link (its target does not exist), so it cannot be read"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symbolic link loop, so it cannot be read"
        return f"cannot read configuration file: {exc.strerror or exc}"
    if stat.S_ISDIR(mode):
        return "is a directory, not a configuration file"
    return "not a regular file (a FIFO or a device), not read"


def find_config(start: Path) -> tuple[Path, str | None] | Problem | None:
    """The configuration that applies to ``start``: (file, Cargo.toml table or None), a problem
    (a Cargo.toml whose burnlint table cannot be read), or None (defaults)."""
    return _Finder().find(start)
