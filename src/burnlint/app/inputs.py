"""The files a check reads: the Rust files it checks (and those of their crates it reads for
facts), the configuration files, and the Cargo manifests and lock files above them. No output
may replace one of them (``outputs.refuse_inputs``)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from burnlint.config import Plan

# (st_dev, st_ino): a file whatever path, symbolic link or hard link reaches it
FileId = tuple[int, int]

CHECKED = "a file being checked"
CONFIGURATION = "a configuration file"
MANIFEST = "a Cargo manifest"
LOCK_FILE = "a lock file"


def run_inputs(
    plan: Plan,
    targets: Sequence[Path],
    root: Path,
    *,
    stdin_path: Path | None,
    config_file: Path | None,
) -> dict[FileId, tuple[str, Path]]:
    """Every regular file the check of ``targets`` under ``plan`` reads, by identity: what it
    is, and a path to it. A file that is several things is named by the first: configuration,
    Cargo file, checked file. With a broken configuration nothing is checked, but every
    output is still written: the files the defaults would check count then."""
    from burnlint import engine
    from burnlint.options import EngineOptions
    from burnlint.project.targets import crate_root

    found: dict[FileId, tuple[str, Path]] = {}

    def add(path: Path, what: str) -> None:
        try:
            st = os.stat(path)
        except OSError:
            return  # not there (or unreachable): it cannot be replaced by way of another path
        if stat.S_ISREG(st.st_mode):
            found.setdefault((st.st_dev, st.st_ino), (what, path))

    configs = [settings.config.path for settings, _ in plan.groups if settings.config is not None]
    configs += [problem.path for problem in plan.problems if problem.path is not None]
    for path in [*configs, *((config_file,) if config_file is not None else ())]:
        add(path, CONFIGURATION)
    files: set[Path] = set()
    runs = [
        (settings.engine_options(root, prefilter=True, jobs=1), group)
        for settings, group in plan.groups
    ] or [(EngineOptions(rule_ids=frozenset(), project_root=root), tuple(targets))]
    for options, group in runs:
        files |= engine.files_read(group, options)
        if stdin_path is not None:
            # the source on stdin is checked as this file, with the rest of its crate
            files.add(stdin_path)
            crate = crate_root(Path(os.path.abspath(stdin_path)).parent)
            if crate is not None:
                files |= engine.files_read([crate], options)
    for directory in _directories(files):
        add(directory / "Cargo.toml", MANIFEST)
        add(directory / "Cargo.lock", LOCK_FILE)
    for path in sorted(files):
        add(path, CHECKED)
    return found


def _directories(files: Iterable[Path]) -> list[Path]:
    """The directories of ``files`` and all their ancestors (where cargo looks for a manifest
    and a lock file), each once."""
    seen: set[Path] = set()
    for file in files:
        directory = Path(os.path.abspath(file)).parent
        while directory not in seen:
            seen.add(directory)
            if directory.parent == directory:
                break
            directory = directory.parent
    return sorted(seen)
