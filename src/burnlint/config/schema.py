"""What a configuration may say: the files and tables it lives in, its keys and their types,
and the loading and validation of one file into a ``FileConfig`` (or a list of ``Problem``)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from burnlint.config.helpers import (
    _bad_pattern,
    _did_you_mean,
    _dig,
    _kind,
    _parse_toml,
    _toml_error_line,
    display,
)
from burnlint.config.sizes import parse_size
from burnlint.findings import Level, Notification, NotificationKind
from burnlint.fsutil import NotRegularFileError, read_regular_file

CONFIG_FILES = ("burnlint.toml", ".burnlint.toml")
CARGO_MANIFEST = "Cargo.toml"
CARGO_TABLES = ("package.metadata.burnlint", "workspace.metadata.burnlint")
# ruff users write `[tool.burnlint]` in pyproject.toml first (a PyO3 crate has both manifests):
# read like ruff reads `[tool.ruff]`, after the other files of its directory
PYPROJECT = "pyproject.toml"
PYPROJECT_TABLE = "tool.burnlint"

# Every key a configuration may hold, in the order `burnlint config` prints them.
KEYS = (
    "select",
    "extend-select",
    "ignore",
    "exclude",
    "extend-exclude",
    "respect-gitignore",
    "per-file-ignores",
    "severity",
    "burn-version",
    "max-file-size",
)
LEVEL_NAMES = tuple(level.value for level in Level)

# `0.22.1`, `0.22`, `0.22.0-pre.2`, `1.0.0+build`: what Cargo accepts as a version.
_VERSION = re.compile(r"^\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")


@dataclass(frozen=True)
class Problem:
    """A configuration error: ``path`` is the file (None for the command line), ``key`` the
    dotted key it is about, ``line`` where that key is (best effort)."""

    path: Path | None
    message: str
    key: str | None = None
    line: int | None = None

    def text(self, shown: str | None = None) -> str:
        """One line for stderr: ``burnlint.toml:3: key `selct`: ...``."""
        where = shown if shown is not None else (self.path.as_posix() if self.path else "")
        if where and self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}" if where else self.message

    def notification(self) -> Notification:
        return Notification(
            path=Path(os.path.abspath(self.path)) if self.path is not None else None,
            message=self.message,
            kind=NotificationKind.CONFIG,
            level=Level.ERROR,
            line=self.line,
        )


@dataclass(frozen=True)
class FileConfig:
    """The validated content of one configuration; ``None`` fields were not set.

    Rule lists hold canonical ids (``ALL`` expanded), so later stages never see a name.
    """

    path: Path
    table: str | None = None  # the Cargo.toml or pyproject.toml table; None: a burnlint.toml
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] | None = None
    respect_gitignore: bool | None = None
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    severity: tuple[tuple[str, Level], ...] | None = None
    burn_version: str | None = None
    max_file_size: int | None = None

    @property
    def base(self) -> Path:
        return self.path.parent

    def label(self, project_root: Path) -> str:
        shown = display(self.path, project_root)
        return f"{shown} [{self.table}]" if self.table else shown


# --- loading and validation -----------------------------------------------------------------------


def load_config(path: Path, table: str | None = None) -> FileConfig | list[Problem]:
    """Read and validate one configuration file. ``table`` picks the Cargo.toml or
    pyproject.toml table; for a ``Cargo.toml`` or ``pyproject.toml`` given with ``--config``
    it is found here."""
    try:
        data = read_regular_file(path)
    except IsADirectoryError:
        return [Problem(path, "is a directory, not a configuration file")]
    except NotRegularFileError:
        return [Problem(path, "not a regular file (a FIFO or a device), not read")]
    except FileNotFoundError:
        return [Problem(path, "configuration file not found")]
    except OSError as exc:
        return [Problem(path, f"cannot read configuration file: {exc.strerror or exc}")]
    document = _parse_toml(data)
    if isinstance(document, str):
        return [Problem(path, f"not valid TOML: {document}", line=_toml_error_line(document))]
    text = data.decode("utf-8", errors="replace")
    if table == PYPROJECT_TABLE or (table is None and path.name == PYPROJECT):
        body = _dig(document, PYPROJECT_TABLE)
        if body is None:
            return [Problem(path, f"has no [{PYPROJECT_TABLE}] table")]
        if not isinstance(body, dict):
            return [
                Problem(
                    path,
                    f"[{PYPROJECT_TABLE}] must be a table, found {_kind(body)}",
                    key=PYPROJECT_TABLE,
                )
            ]
        return _validate(path, PYPROJECT_TABLE, body, _Lines(text, PYPROJECT_TABLE))
    if path.name == CARGO_MANIFEST or table is not None:
        present = [t for t in CARGO_TABLES if _dig(document, t) is not None]
        if table is None or "," in table:
            if len(present) > 1:
                return [
                    Problem(
                        path,
                        "both [package.metadata.burnlint] and [workspace.metadata.burnlint] "
                        "are set; keep one",
                    )
                ]
            if not present:
                return [
                    Problem(
                        path,
                        "has no [package.metadata.burnlint] or [workspace.metadata.burnlint] table",
                    )
                ]
            table = present[0]
        body = _dig(document, table)
        if not isinstance(body, dict):
            return [Problem(path, f"[{table}] must be a table, found {_kind(body)}", key=table)]
        return _validate(path, table, body, _Lines(text, table))
    return _validate(path, None, document, _Lines(text, None))


class _Lines:
    """Best-effort line numbers for keys: tomllib does not report them, and a message that says
    where to look is worth a regex."""

    def __init__(self, text: str, table: str | None) -> None:
        self.lines = text.splitlines()
        self.start = 0
        if table is not None:
            header = re.compile(
                r"^\s*\[\s*" + r"\s*\.\s*".join(map(re.escape, table.split("."))) + r"\s*\]"
            )
            for index, line in enumerate(self.lines):
                if header.match(line):
                    self.start = index
                    break

    def of(self, *parts: str) -> int | None:
        """The line of the last of ``parts`` (a key, a quoted pattern) after the table start."""
        name = parts[-1]
        quoted = rf'(?:"{re.escape(name)}"|\'{re.escape(name)}\'|{re.escape(name)})'
        pattern = re.compile(rf"^\s*(?:\[\s*)?(?:[\w.\"'-]+\s*\.\s*)?{quoted}\s*(?:=|\])")
        for index in range(self.start, len(self.lines)):
            if pattern.match(self.lines[index]):
                return index + 1
        return None


def _validate(
    path: Path, table: str | None, body: Mapping[str, Any], lines: _Lines
) -> FileConfig | list[Problem]:
    problems: list[Problem] = []
    values: dict[str, Any] = {}
    prefix = f"[{table}] " if table else ""

    def problem(key: str, message: str, *where: str) -> None:
        problems.append(
            Problem(
                path, f"{prefix}key `{key}`: {message}", key=key, line=lines.of(*where or (key,))
            )
        )

    for key in sorted(body, key=lambda k: (k not in KEYS, KEYS.index(k) if k in KEYS else 0, k)):
        value = body[key]
        if key not in KEYS:
            hint = _did_you_mean(key, KEYS)
            problem(
                key,
                f"unknown key{hint}; expected one of: {', '.join(KEYS)}",
            )
            continue
        checker = _CHECKS[key]
        checked = checker(key, value, problem)
        if checked is not None:
            values[key.replace("-", "_")] = checked
    if problems:
        return sorted(problems, key=lambda p: (p.line is None, p.line or 0, p.message))
    return FileConfig(path=path, table=table, **values)


class Report(Protocol):
    """Notes a problem with ``key``: its message, and the dotted keys that locate its line
    (default: ``key`` itself)."""

    def __call__(self, key: str, message: str, *where: str) -> None: ...


def _rule_list(key: str, value: object, problem: Report) -> tuple[str, ...] | None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problem(
            key, f'expected an array of rule ids or names, e.g. ["BL003"], found {_kind(value)}'
        )
        return None
    ids = resolve_selectors(value, lambda message: problem(key, message))
    return ids


def resolve_selectors(values: Iterable[str], fail: Callable[[str], None]) -> tuple[str, ...] | None:
    from burnlint.rules import registry  # metadata only: no rule code, no tree-sitter

    out: list[str] = []
    ok = True
    for selector in values:
        try:
            out.extend(registry.expand(selector))
        except registry.UnknownRuleError as exc:
            fail(str(exc))
            ok = False
    return tuple(dict.fromkeys(out)) if ok else None


def _pattern_list(key: str, value: object, problem: Report) -> tuple[str, ...] | None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problem(
            key,
            f'expected an array of gitignore-style patterns, e.g. ["generated/"], '
            f"found {_kind(value)}",
        )
        return None
    bad = _bad_pattern(value)
    if bad is not None:
        problem(key, bad)
        return None
    return tuple(value)


def _bool(key: str, value: object, problem: Report) -> bool | None:
    if not isinstance(value, bool):
        problem(key, f"expected true or false, found {_kind(value)}")
        return None
    return value


def _per_file_ignores(
    key: str, value: object, problem: Report
) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
    if not isinstance(value, dict):
        problem(
            key,
            'expected a table of patterns to rule lists, e.g. "tests/**" = ["BL001"], '
            f"found {_kind(value)}",
        )
        return None
    out: list[tuple[str, tuple[str, ...]]] = []
    ok = True
    for pattern, selectors in value.items():
        dotted = f'{key}."{pattern}"'
        if not isinstance(selectors, list) or not all(isinstance(s, str) for s in selectors):
            problem(
                dotted,
                f'expected an array of rule ids or names, e.g. ["BL001"], found {_kind(selectors)}',
                pattern,
            )
            ok = False
            continue
        bad = _bad_pattern([pattern])
        if bad is not None:
            problem(dotted, bad, pattern)
            ok = False
            continue

        def fail(message: str, dotted: str = dotted, pattern: str = pattern) -> None:
            problem(dotted, message, pattern)

        ids = resolve_selectors(selectors, fail)
        if ids is None:
            ok = False
            continue
        out.append((pattern, ids))
    return tuple(out) if ok else None


def _severity(key: str, value: object, problem: Report) -> tuple[tuple[str, Level], ...] | None:
    if not isinstance(value, dict):
        problem(
            key,
            f'expected a table of rules to levels, e.g. BL004 = "warning", found {_kind(value)}',
        )
        return None
    from burnlint.rules import registry

    out: dict[str, Level] = {}
    ok = True
    for selector, level in value.items():
        dotted = f"{key}.{selector}"
        try:
            rule_id = registry.by_selector(selector).id
        except registry.UnknownRuleError as exc:
            problem(dotted, str(exc), selector)
            ok = False
            continue
        if not isinstance(level, str) or level not in LEVEL_NAMES:
            shown = f'"{level}"' if isinstance(level, str) else _kind(level)
            hint = _did_you_mean(level, LEVEL_NAMES, quote='"') if isinstance(level, str) else ""
            problem(dotted, f'expected "error", "warning" or "note", found {shown}{hint}', selector)
            ok = False
            continue
        out[rule_id] = Level(level)
    return tuple(sorted(out.items())) if ok else None


def _version(key: str, value: object, problem: Report) -> str | None:
    if not isinstance(value, str) or not _VERSION.match(value.strip().lstrip("=^~")):
        shown = f'"{value}"' if isinstance(value, str) else _kind(value)
        problem(key, f'expected a version like "0.22.1", found {shown}')
        return None
    return value.strip().lstrip("=^~")


def _size(key: str, value: object, problem: Report) -> int | None:
    try:
        return parse_size(value)
    except ValueError as exc:
        problem(key, str(exc))
        return None


_CHECKS: dict[str, Callable[[str, Any, Report], Any]] = {
    "select": _rule_list,
    "extend-select": _rule_list,
    "ignore": _rule_list,
    "exclude": _pattern_list,
    "extend-exclude": _pattern_list,
    "respect-gitignore": _bool,
    "per-file-ignores": _per_file_ignores,
    "severity": _severity,
    "burn-version": _version,
    "max-file-size": _size,
}
