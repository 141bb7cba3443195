"""The server's one call into the engine, and the configuration it keeps between checks.

``check_buffer`` is the only place the server checks code: an open document's text as its
path, its crate's other files from the editor's open buffers or else from disk. Another
engine (per-file facts, a persistent cache) replaces its body and nothing else.

``OptionsCache`` keeps the engine options of each directory, as the command line would resolve
them there (``burnlint.toml``, ``.burnlint.toml``, ``Cargo.toml`` metadata, ``pyproject.toml``'s
``[tool.burnlint]``, nearest first). An
entry is used only while every configuration file that could apply is as it was (the same
content, still there or still absent), so an edit on disk is seen even by an editor that sends
no file events; ``clear`` drops everything when one does.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from burnlint.config import CliSettings, Problem
from burnlint.config.schema import CARGO_MANIFEST, CONFIG_FILES, PYPROJECT
from burnlint.findings import LintResult
from burnlint.options import EngineOptions

if TYPE_CHECKING:
    from burnlint.engine.session import Session

# the files whose change can change a check's configuration or its facts: every open file of
# their directory tree is checked again
CONFIG_NAMES = frozenset({*CONFIG_FILES, CARGO_MANIFEST, PYPROJECT, "Cargo.lock"})


def check_buffer(
    path: Path,
    data: bytes,
    options: EngineOptions,
    buffers: Mapping[Path, bytes],
    session: Session,
) -> LintResult:
    """Check ``data`` as the file ``path`` (absolute), with its crate's facts; ``buffers``
    holds the other open documents by absolute path, read instead of the disk. ``session``
    keeps what the checks share (``engine/session.py``); what the check leaves for later is
    in ``session.later``."""
    from burnlint import engine
    from burnlint.engine.session import in_session

    with in_session(session):
        return engine.lint_source(path, data, options, buffers=buffers)


@dataclass(frozen=True)
class EditorSettings:
    """What an editor user may set in ``initializationOptions`` (rule selection, as the command
    line's ``--select``, ``--extend-select`` and ``--ignore``)."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    def cli(self) -> CliSettings:
        # an editor checks the files it opens: those the configuration excludes are left alone
        return CliSettings(
            select=self.select,
            extend_select=self.extend_select,
            ignore=self.ignore,
            force_exclude=True,
        )


_KEYS = {"select": "select", "extendSelect": "extend_select", "ignore": "ignore"}


def editor_settings(options: object) -> tuple[EditorSettings, list[str]]:
    """``initializationOptions`` read: the settings, and a message for each value that is not
    used (unknown keys, values that are not lists of strings, unknown rules)."""
    from burnlint.config.settings import check_cli

    if options is None:
        return EditorSettings(), []
    if not isinstance(options, dict):
        return EditorSettings(), ["initializationOptions: expected an object"]
    problems: list[str] = []
    values: dict[str, tuple[str, ...]] = {}
    for key, value in sorted(options.items()):
        if key not in _KEYS:
            known = ", ".join(_KEYS)
            problems.append(f"initializationOptions: unknown key `{key}` (known: {known})")
        elif not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            problems.append(f"initializationOptions: `{key}` must be a list of rule ids")
        else:
            values[_KEYS[key]] = tuple(value)
    settings = EditorSettings(
        select=values.get("select"),
        extend_select=values.get("extend_select", ()),
        ignore=values.get("ignore", ()),
    )
    bad = check_cli(settings.cli())
    if bad:
        problems.extend(f"initializationOptions: {p.message}" for p in bad)
        return EditorSettings(), problems
    if _selects_nothing(settings):
        # whatever a configuration selects, nothing would be left: every diagnostic would be
        # blanked by a "no rules selected" error about the command line's flags
        given = [key for key in _KEYS if _KEYS[key] in values]
        problems.append(
            f"initializationOptions: {_listed(given)} leave{'s' if len(given) == 1 else ''} "
            "no rule to run; ignored, the configuration's rules run"
        )
        return EditorSettings(), problems
    return settings, problems


def _selects_nothing(settings: EditorSettings) -> bool:
    """Whether the editor's selection leaves no rule even when it starts from every rule
    (``select`` unset): then it leaves none under any configuration."""
    from burnlint.rules import registry

    every = [meta.id for meta in registry.ALL]
    return not registry.resolve(
        settings.select, settings.extend_select, settings.ignore, start=every
    )


def _listed(keys: Sequence[str]) -> str:
    quoted = [f"`{key}`" for key in keys]
    return " and ".join(quoted) if len(quoted) < 3 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def editor_terms(problem: Problem) -> Problem:
    """A problem of ``plan`` as an editor user reads it: the command line's "no rules
    selected" names its flags, where the rules were chosen by ``initializationOptions`` (and
    the configuration they meet: it selects only rules they ignore)."""
    if problem.path is not None or not problem.message.startswith("no rules selected: check --"):
        return problem
    return Problem(
        None,
        "no rules selected: initializationOptions `select`, `extendSelect` and `ignore` leave "
        "none of the rules the configuration (or the defaults) selects",
        key="initializationOptions",
    )


Signature = tuple[bytes | None, ...]


@dataclass(frozen=True)
class _Entry:
    signature: Signature
    value: EngineOptions | tuple[Problem, ...]


class OptionsCache:
    """The engine options of each directory (see the module's docstring)."""

    def __init__(self, settings: EditorSettings) -> None:
        self.settings = settings
        self._entries: dict[tuple[Path, Path], _Entry] = {}

    def clear(self) -> None:
        self._entries.clear()

    def options_for(self, path: Path, project_root: Path) -> EngineOptions | tuple[Problem, ...]:
        """The options ``path`` (absolute) is checked with, or the configuration problems that
        stop it from being checked (as the command line stops)."""
        from burnlint.config import plan
        from burnlint.engine.cache import default_cache_dir

        directory = path.parent
        key = (directory, project_root)
        signature = _signature(directory)
        entry = self._entries.get(key)
        if entry is not None and entry.signature == signature:
            return entry.value
        found = plan([path], self.settings.cli(), project_root=project_root)
        value: EngineOptions | tuple[Problem, ...]
        if found.problems or not found.groups:
            value = tuple(editor_terms(problem) for problem in found.problems)
        else:
            settings = found.groups[0][0]
            # the persistent cache the command line keeps in the project root: the facts of
            # the files that did not change are read from it
            cache_dir = Path(os.path.abspath(default_cache_dir(project_root)))
            value = settings.engine_options(
                project_root, prefilter=True, jobs=1, cache_dir=cache_dir
            )
        self._entries[key] = _Entry(signature, value)
        return value


def _signature(directory: Path) -> Signature:
    """The content of every configuration file from ``directory`` up to the file system's
    root (their bytes, hashed: a few small files, and unlike a modification time, never the
    same after a change), None where there is none, the error where it cannot be read."""
    found: list[bytes | None] = []
    current = directory
    while True:
        for name in _CANDIDATES:
            try:
                found.append(hashlib.sha256((current / name).read_bytes()).digest())
            except FileNotFoundError:
                found.append(b"broken link" if os.path.lexists(current / name) else None)
            except OSError as exc:  # there but unreadable (a directory, a broken link)
                found.append(f"{type(exc).__name__} {exc.errno}".encode())
        if current.parent == current:
            return tuple(found)
        current = current.parent


_CANDIDATES: Sequence[str] = (*CONFIG_FILES, CARGO_MANIFEST, PYPROJECT)
