"""Configuration: where it is found, what it may say, and the effective settings of a run.

A configuration is one of, in this order of preference within a directory:

- ``burnlint.toml`` or ``.burnlint.toml`` (keys at the top level),
- a ``[package.metadata.burnlint]`` or ``[workspace.metadata.burnlint]`` table in ``Cargo.toml``.

It is searched upward from each checked path; the nearest one wins, whole (no merging across
files, so what a file says is all there is to read). ``--config FILE`` replaces the search.
Patterns in a configuration (``exclude``, ``per-file-ignores``) are relative to its directory.

Precedence is command line > configuration file > defaults. Rule selection is layered as in
ruff: each layer (defaults, file, command line) may ``select`` (start over), then
``extend-select`` (add), then ``ignore`` (remove), so ``--select`` on the command line wins over
everything the file said about rules, while ``--extend-select`` and ``--ignore`` adjust it.

Nothing here raises on bad input: every problem becomes a ``Problem`` naming the file, the key
and what was expected, and the CLI turns problems into exit code 2 with outputs still written.
This module stays free of tree-sitter so that ``burnlint config`` is fast.
"""

from __future__ import annotations

import difflib
import errno
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from burnlint.findings import Level, Notification, NotificationKind
from burnlint.fsutil import NotRegularFileError, read_regular_file
from burnlint.options import DEFAULT_MAX_FILE_BYTES, EngineOptions
from burnlint.paths import display_path
from burnlint.project import _toml

CONFIG_FILES = ("burnlint.toml", ".burnlint.toml")
CARGO_MANIFEST = "Cargo.toml"
CARGO_TABLES = ("package.metadata.burnlint", "workspace.metadata.burnlint")

DEFAULT_ORIGIN = "default"
CLI_ORIGIN = "command line"

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
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmg]i?b?|b)?\s*$", re.IGNORECASE)
_SIZE_UNITS = {
    "": 1,
    "b": 1,
    "k": 1000,
    "kb": 1000,
    "m": 1000**2,
    "mb": 1000**2,
    "g": 1000**3,
    "gb": 1000**3,
    "ki": 1024,
    "kib": 1024,
    "mi": 1024**2,
    "mib": 1024**2,
    "gi": 1024**3,
    "gib": 1024**3,
}

T = TypeVar("T")


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

    def notification(self, project_root: Path) -> Notification:
        shown = display(self.path, project_root) if self.path is not None else ""
        return Notification(
            path=shown,
            message=self.message,
            kind=NotificationKind.CONFIG,
            level=Level.ERROR,
            line=self.line,
        )


@dataclass(frozen=True)
class Sourced(Generic[T]):
    """A setting's value and where it came from (``default``, ``command line``, a file)."""

    value: T
    origin: str


@dataclass(frozen=True)
class CliSettings:
    """What the command line said; ``None`` (or empty) means it said nothing."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool | None = None
    force_exclude: bool = False
    max_file_size: int | None = None


@dataclass(frozen=True)
class FileConfig:
    """The validated content of one configuration; ``None`` fields were not set.

    Rule lists hold canonical ids (``ALL`` expanded), so later stages never see a name.
    """

    path: Path
    table: str | None = None  # the Cargo.toml table, or None for a burnlint.toml
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


@dataclass(frozen=True)
class Settings:
    """The effective settings of one group of paths, each with its origin."""

    config: FileConfig | None
    base: Path  # the directory `exclude` and `per-file-ignores` patterns are relative to
    rule_ids: Sourced[frozenset[str]]
    exclude: Sourced[tuple[str, ...]]
    respect_gitignore: Sourced[bool]
    force_exclude: Sourced[bool]
    per_file_ignores: Sourced[tuple[tuple[str, frozenset[str]], ...]]
    severity: Sourced[tuple[tuple[str, Level], ...]]
    burn_version: Sourced[str | None]
    max_file_size: Sourced[int]

    def engine_options(self, project_root: Path, *, prefilter: bool, jobs: int) -> EngineOptions:
        return EngineOptions(
            rule_ids=self.rule_ids.value,
            project_root=project_root,
            prefilter=prefilter,
            jobs=jobs,
            max_file_bytes=self.max_file_size.value,
            severity=self.severity.value,
            respect_gitignore=self.respect_gitignore.value,
            exclude=self.exclude.value,
            exclude_root=self.base,
            force_exclude=self.force_exclude.value,
            per_file_ignores=self.per_file_ignores.value,
            burn_version=self.burn_version.value,
        )


@dataclass(frozen=True)
class Plan:
    """What to run: each group of paths shares one configuration (usually there is one group).
    With problems, nothing is run."""

    groups: tuple[tuple[Settings, tuple[Path, ...]], ...]
    problems: tuple[Problem, ...] = ()


def display(path: Path, project_root: Path) -> str:
    """``path`` relative to the project root when inside it, POSIX either way."""
    return display_path(Path(os.path.abspath(path)), project_root, resolve=True)


# --- sizes ----------------------------------------------------------------------------------------


def parse_size(value: object) -> int:
    """``2000000``, ``"20MB"``, ``"512 KiB"`` -> bytes. Raises ``ValueError`` with the reason."""
    if isinstance(value, bool):
        raise ValueError('expected a size in bytes or a string like "20MB"')
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        match = _SIZE.match(value)
        if match is None:
            raise ValueError(f'expected a size like 2000000, "20MB" or "512KiB", found "{value}"')
        amount, unit = match.groups()
        number = int(float(amount) * _SIZE_UNITS[(unit or "").lower()])
    else:
        raise ValueError(f'expected a size in bytes or a string like "20MB", found {_kind(value)}')
    if number <= 0:
        raise ValueError(f"expected a size above 0, found {value!r}")
    return number


# --- discovery ------------------------------------------------------------------------------------


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
        manifest = directory / CARGO_MANIFEST
        if not manifest.is_file():
            return None
        try:
            data = manifest.read_bytes()
        except OSError:
            return None  # cargo cannot read it either; the version reader reports it
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
        tables = [t for t in CARGO_TABLES if _dig(document, t) is not None]
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


# --- loading and validation -----------------------------------------------------------------------


def load_config(path: Path, table: str | None = None) -> FileConfig | list[Problem]:
    """Read and validate one configuration file. ``table`` picks the Cargo.toml table; for a
    ``Cargo.toml`` given with ``--config`` it is found here."""
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


Report = Callable[..., None]


def _rule_list(key: str, value: object, problem: Report) -> tuple[str, ...] | None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problem(
            key, f'expected an array of rule ids or names, e.g. ["BL003"], found {_kind(value)}'
        )
        return None
    ids = _resolve_selectors(value, lambda message: problem(key, message))
    return ids


def _resolve_selectors(
    values: Iterable[str], fail: Callable[[str], None]
) -> tuple[str, ...] | None:
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

        ids = _resolve_selectors(selectors, fail)
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


# --- effective settings -------------------------------------------------------------------------


def check_cli(cli: CliSettings) -> list[Problem]:
    """Unknown rules on the command line (the CLI reports them as usage errors)."""
    problems: list[Problem] = []
    for option, values in (
        ("--select", cli.select or ()),
        ("--extend-select", cli.extend_select),
        ("--ignore", cli.ignore),
    ):

        def fail(message: str, option: str = option) -> None:
            problems.append(Problem(None, message, key=option))

        _resolve_selectors(values, fail)
    bad = _bad_pattern([*(cli.exclude or ()), *cli.extend_exclude])
    if bad is not None:
        problems.append(Problem(None, f"--exclude: {bad}", key="--exclude"))
    return problems


def effective(config: FileConfig | None, cli: CliSettings, project_root: Path) -> Settings:
    """Defaults, then the file, then the command line."""
    from burnlint.rules import registry

    label = config.label(project_root) if config is not None else ""
    steps: list[str] = []
    chosen = registry.defaults()
    layers: list[tuple[str, tuple[str, ...] | None, tuple[str, ...], tuple[str, ...]]] = []
    if config is not None:
        layers.append((label, config.select, config.extend_select or (), config.ignore or ()))

    def cli_ids(values: Sequence[str]) -> tuple[str, ...]:
        return _resolve_selectors(values, lambda _m: None) or ()

    layers.append(
        (
            CLI_ORIGIN,
            cli_ids(cli.select) if cli.select is not None else None,
            cli_ids(cli.extend_select),
            cli_ids(cli.ignore),
        )
    )
    for origin, select, extend, ignore in layers:
        chosen = registry.resolve(select, extend, ignore, start=chosen)
        changed = []
        if select is not None:
            steps.clear()  # everything before is replaced
            changed.append("select")
        if extend:
            changed.append("extend-select")
        if ignore:
            changed.append("ignore")
        if changed:
            steps.append(f"{origin} ({', '.join(changed)})")
    rule_origin = ", then ".join([DEFAULT_ORIGIN, *steps] if not _starts_over(layers) else steps)

    exclude: list[str] = []
    exclude_steps: list[str] = []
    exclude_layers: list[tuple[str, tuple[str, ...] | None, tuple[str, ...] | None]] = [
        (label, config.exclude if config else None, config.extend_exclude if config else None),
        (CLI_ORIGIN, cli.exclude, cli.extend_exclude),
    ]
    for origin, replacing, adding in exclude_layers:
        if replacing is not None:
            exclude = list(replacing)
            exclude_steps = [f"{origin} (exclude)"]
        if adding:
            exclude.extend(adding)
            exclude_steps.append(f"{origin} (extend-exclude)")

    def pick(cli_value: T | None, file_value: T | None, default: T) -> Sourced[T]:
        if cli_value is not None:
            return Sourced(cli_value, CLI_ORIGIN)
        if file_value is not None:
            return Sourced(file_value, label)
        return Sourced(default, DEFAULT_ORIGIN)

    per_file = config.per_file_ignores if config is not None else None
    severity = config.severity if config is not None else None
    return Settings(
        config=config,
        base=config.base if config is not None else Path(os.path.abspath(project_root)),
        rule_ids=Sourced(frozenset(chosen), rule_origin),
        exclude=Sourced(tuple(exclude), ", then ".join(exclude_steps) or DEFAULT_ORIGIN),
        respect_gitignore=pick(
            cli.respect_gitignore, config.respect_gitignore if config else None, True
        ),
        force_exclude=Sourced(cli.force_exclude, CLI_ORIGIN if cli.force_exclude else "default"),
        per_file_ignores=Sourced(
            tuple((p, frozenset(ids)) for p, ids in per_file or ()),
            label if per_file is not None else DEFAULT_ORIGIN,
        ),
        severity=Sourced(severity or (), label if severity is not None else DEFAULT_ORIGIN),
        burn_version=pick(None, config.burn_version if config else None, None),
        max_file_size=pick(
            cli.max_file_size, config.max_file_size if config else None, DEFAULT_MAX_FILE_BYTES
        ),
    )


def _starts_over(layers: Sequence[tuple[str, tuple[str, ...] | None, Any, Any]]) -> bool:
    return any(select is not None for _, select, _e, _i in layers)


def plan(
    paths: Sequence[Path],
    cli: CliSettings,
    *,
    project_root: Path,
    config_file: Path | None = None,
) -> Plan:
    """Group ``paths`` by the configuration that applies to each, with the effective settings.

    With ``config_file`` every path uses it. Paths under different configurations form
    different groups (the CLI runs the engine once per group and merges the results).
    """
    problems = check_cli(cli)
    loaded: dict[tuple[Path, str | None], FileConfig | list[Problem]] = {}
    groups: dict[tuple[Path, str | None] | None, list[Path]] = {}
    finder = _Finder()
    for path in paths:
        if config_file is not None:
            key: tuple[Path, str | None] | None = (Path(os.path.abspath(config_file)), None)
        else:
            found = finder.find(path)
            if isinstance(found, Problem):
                if found not in problems:
                    problems.append(found)
                continue
            key = found
        groups.setdefault(key, []).append(path)
        if key is not None and key not in loaded:
            loaded[key] = load_config(*key)
    for result in loaded.values():
        if isinstance(result, list):
            problems.extend(result)
    if problems:
        return Plan(groups=(), problems=tuple(problems))
    out: list[tuple[Settings, tuple[Path, ...]]] = []
    for key, members in groups.items():
        config = loaded[key] if key is not None else None
        assert not isinstance(config, list)
        settings = effective(config, cli, project_root)
        if not settings.rule_ids.value:
            problem = _no_rules(config, cli)
            if problem not in problems:
                problems.append(problem)
        out.append((settings, tuple(members)))
    if problems:
        # A run without rules would report a clean pass (an empty `--select "$RULES"` in CI).
        return Plan(groups=(), problems=tuple(problems))
    return Plan(groups=tuple(out))


def _no_rules(config: FileConfig | None, cli: CliSettings) -> Problem:
    """The problem of a selection that leaves no rule: the command line's when it changed the
    selection, else the configuration file's."""
    if cli.select is not None or cli.ignore or cli.extend_select or config is None:
        return Problem(
            None, "no rules selected: check --select, --extend-select and --ignore", key="--select"
        )
    return Problem(
        config.path, "no rules selected: check `select`, `extend-select` and `ignore`", key="select"
    )


def describe(
    settings: Settings, paths: Sequence[Path], project_root: Path
) -> list[tuple[str, str, str]]:
    """(key, TOML value, origin) rows for ``burnlint config``: the effective rule set rather
    than the select/ignore layers that produced it, and the burn version the run would assume."""
    from burnlint.rules import registry

    order = [meta.id for meta in registry.ALL]

    def ids(values: Iterable[str]) -> str:
        ranked = sorted(values, key=lambda i: (order.index(i) if i in order else len(order), i))
        return "[" + ", ".join(f'"{i}"' for i in ranked) + "]"

    def strings(values: Iterable[str]) -> str:
        return "[" + ", ".join(_toml_string(v) for v in values) + "]"

    per_file = ", ".join(
        f"{_toml_string(p)} = {ids(r)}" for p, r in settings.per_file_ignores.value
    )
    severity = ", ".join(f'{r} = "{level.value}"' for r, level in settings.severity.value)
    return [
        ("rules", ids(settings.rule_ids.value), settings.rule_ids.origin),
        ("exclude", strings(settings.exclude.value), settings.exclude.origin),
        (
            "respect-gitignore",
            str(settings.respect_gitignore.value).lower(),
            settings.respect_gitignore.origin,
        ),
        ("force-exclude", str(settings.force_exclude.value).lower(), settings.force_exclude.origin),
        ("per-file-ignores", "{" + per_file + "}", settings.per_file_ignores.origin),
        ("severity", "{" + severity + "}", settings.severity.origin),
        ("burn-version", *_burn_version_row(settings, paths, project_root)),
        ("max-file-size", str(settings.max_file_size.value), settings.max_file_size.origin),
    ]


def _burn_version_row(
    settings: Settings, paths: Sequence[Path], project_root: Path
) -> tuple[str, str]:
    if settings.burn_version.value is not None:
        return _toml_string(settings.burn_version.value), settings.burn_version.origin
    from burnlint.project.versions import VersionReader

    reader = VersionReader(display=lambda path: display(path, project_root))
    found = {}
    for path in paths:
        start = Path(os.path.abspath(path))
        answer = reader.for_directory(start if start.is_dir() else start.parent)
        if answer is not None:
            found[answer.version] = answer
    if not found:
        return "", "not set, and no burn or burn-store in Cargo.lock or Cargo.toml"
    shown = ", ".join(sorted(found))
    sources = sorted({display(a.source, project_root) for a in found.values()})
    return _toml_string(shown), ", ".join(sources)


def render_settings(settings: Settings, paths: Sequence[Path], project_root: Path) -> str:
    """The text of ``burnlint config``: TOML that can be copied into a burnlint.toml, each
    value followed by where it came from."""
    shown = ", ".join(f"`{p.as_posix()}`" for p in paths)
    if settings.config is not None:
        head = f"# settings for {shown} from {settings.config.label(project_root)}"
    else:
        head = f"# settings for {shown}: no configuration file found, defaults"
    lines = [head]
    for key, value, origin in describe(settings, paths, project_root):
        # an unknown value is shown as a comment, so the text stays valid TOML
        lines.append(f"{key} = {value}  # {origin}" if value else f"# {key}: {origin}")
    return "\n".join(lines) + "\n"


# --- helpers --------------------------------------------------------------------------------------


def _parse_toml(data: bytes) -> dict[str, Any] | str:
    """The document, or the parser's message (also for text that is not UTF-8)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 (byte {exc.start})"
    try:
        return _toml.loads(text.removeprefix("\ufeff"))
    except _toml.TOMLDecodeError as exc:
        return str(exc)
    except RecursionError:  # absurdly nested inline tables
        return "nested too deeply"


def _toml_error_line(message: str) -> int | None:
    match = re.search(r"\(at line (\d+)", message)
    return int(match.group(1)) if match else None


def _dig(document: Mapping[str, Any], dotted: str) -> Any:
    current: Any = document
    for part in dotted.split("."):
        if not isinstance(current, dict) or part not in current:
            return None
        current = current[part]
    return current


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a number ({value})"
    if isinstance(value, str):
        return f'a string ("{value}")'
    if isinstance(value, list):
        return "an array" if all(isinstance(v, str) for v in value) else "an array of non-strings"
    if isinstance(value, dict):
        return "a table"
    return f"a {type(value).__name__}"


def _did_you_mean(word: str, choices: Sequence[str], quote: str = "`") -> str:
    normalised = word.replace("_", "-").lower()
    if normalised in choices and normalised != word:
        return f" (did you mean {quote}{normalised}{quote}?)"
    close = difflib.get_close_matches(normalised, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {quote}{close[0]}{quote}?)" if close else ""


def _bad_pattern(patterns: Sequence[str]) -> str | None:
    from pathspec import GitIgnoreSpec

    for pattern in patterns:
        try:
            GitIgnoreSpec.from_lines([pattern])
        except (ValueError, TypeError) as exc:
            return f"invalid pattern {_toml_string(pattern)}: {exc}"
    return None


def _toml_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'
