"""The effective settings of a run: defaults, then the configuration file, then the command
line, each value with its origin; and the plan that groups paths by the configuration they use."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from burnlint.config.discovery import _Finder
from burnlint.config.helpers import _bad_pattern
from burnlint.config.schema import FileConfig, Problem, load_config, resolve_selectors
from burnlint.findings import Level
from burnlint.options import DEFAULT_MAX_FILE_BYTES, EngineOptions

DEFAULT_ORIGIN = "default"
CLI_ORIGIN = "command line"

T = TypeVar("T")


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

    def engine_options(
        self, project_root: Path, *, prefilter: bool, jobs: int, cache_dir: Path | None = None
    ) -> EngineOptions:
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
            cache_dir=cache_dir,
        )


@dataclass(frozen=True)
class Plan:
    """What to run: each group of paths shares one configuration (usually there is one group).
    With problems, nothing is run."""

    groups: tuple[tuple[Settings, tuple[Path, ...]], ...]
    problems: tuple[Problem, ...] = ()


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

        resolve_selectors(values, fail)
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
        return resolve_selectors(values, lambda _m: None) or ()

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
