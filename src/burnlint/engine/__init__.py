"""The engine: discover -> prefilter -> parse -> model -> targets -> rules.

It never prints, exits or reads configuration: the caller passes ``EngineOptions`` in and gets
a ``LintResult`` back. Everything it returns is sorted, so output does not depend on the order
in which the file system lists directories.

The stages, each in its module: ``scan`` (read and prefilter), ``crate`` (files grouped by
crate, and one group's bytes and trees), ``facts`` (the crate facts: models built with what
their targets see), ``group`` (rules and allow comments on one group), ``finish`` (edit spans,
fingerprints, digests), ``workers`` (the process pool), ``guard`` (per-file crash isolation);
and the persistent cache: ``cache`` (on disk, with the scan index), ``cache_root`` (whether
its directory is burnlint's to use), ``conform`` (whether what was loaded has its declared
types), ``memo`` (what a group remembers of its files), ``stable`` (digests that are the same
in every process); and ``session`` (what a long-lived caller, the language server, keeps
between its checks).
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from burnlint.engine.cache import Cache
from burnlint.engine.cache_key import CacheKeyError, load_key
from burnlint.engine.cache_root import refusal
from burnlint.engine.crate import CrateFile, busy_crates, crate_groups, crate_key
from burnlint.engine.group import GroupOutcome
from burnlint.engine.scan import scan_with_cache
from burnlint.engine.session import SourceInputs, current_session
from burnlint.engine.workers import Workers
from burnlint.findings import Finding, Level, LintResult, Notification, NotificationKind, RunStats
from burnlint.fsutil import stamps, unchanged
from burnlint.options import EngineOptions
from burnlint.paths import display_path
from burnlint.project.targets import (
    crate_root,
    forget_layout,
    target_of,
    with_path_dependencies,
)
from burnlint.rules import registry

if TYPE_CHECKING:
    from burnlint.project.discover import Discovery
    from burnlint.project.versions import VersionReader

__all__ = ["files_read", "lint_files", "lint_paths", "lint_source"]


def lint_paths(
    paths: Sequence[Path],
    options: EngineOptions,
    *,
    meanwhile: Callable[[], object] | None = None,
) -> LintResult:
    """Check every Rust file under ``paths``. ``meanwhile`` runs while worker processes check
    the crates (or before the crates are checked, without workers): the CLI loads its output
    format there."""
    forget_layout()
    discovery, files, context = _files_of(paths, options)
    options_used = options
    if context:
        reported = files if options.report_paths is None else files & set(options.report_paths)
        options_used = replace(options, report_paths=frozenset(reported))
    return lint_files(
        sorted(files | context),
        options_used,
        notifications=discovery.notifications,
        meanwhile=meanwhile,
        skipped=discovery.skipped,
        named=discovery.explicit,
    )


def files_read(paths: Sequence[Path], options: EngineOptions) -> frozenset[Path]:
    """Every Rust file ``lint_paths`` reads for ``paths``: those it checks, and the rest of the
    crates of files named one by one, read for their facts (the CLI refuses an output that
    would replace one of them)."""
    forget_layout()
    _, files, context = _files_of(paths, options)
    return frozenset(files | context)


def _files_of(
    paths: Sequence[Path], options: EngineOptions
) -> tuple[Discovery, set[Path], set[Path]]:
    """The walk of ``paths``, the files it found, and the context files."""
    discovery = _discover(paths, options)
    files = set(discovery.files)
    # Files named one by one (pre-commit passes the staged ones) are checked with the facts of
    # their whole cargo target: the rest of the crate, and of the workspace crates it names as
    # path dependencies, is read, and reported on only if given.
    crates = with_path_dependencies(
        sorted({c for f in discovery.explicit if (c := crate_root(f.parent)) is not None})
    )
    context = {f for f in _discover(crates, options).files if f not in files} if crates else set()
    return discovery, files, context


def lint_source(
    path: Path,
    data: bytes,
    options: EngineOptions,
    *,
    buffers: Mapping[Path, bytes] | None = None,
) -> LintResult:
    """Check one in-memory source (an editor's unsaved buffer, ``--stdin-filename``) as if it
    were ``path``: like a file named alone, with the facts of its whole cargo crate read from
    disk, and only ``path`` reported. ``path`` need not exist; it is never read or written.
    ``buffers`` holds other unsaved sources by absolute path (an editor's other open files):
    a file of the crate found there is read from it instead of from disk."""
    absolute = Path(os.path.abspath(path))
    inputs = _source_inputs(absolute, options)
    if inputs.excluded:
        return LintResult(findings=(), notifications=())
    context = inputs.context
    reported = frozenset({absolute})
    if options.report_paths is not None:
        reported &= {Path(os.path.abspath(p)) for p in options.report_paths}
    return lint_files(
        sorted(context | {absolute}),
        replace(options, report_paths=reported),
        overrides={**{p: b for p, b in (buffers or {}).items() if p in context}, absolute: data},
    )


def _source_inputs(absolute: Path, options: EngineOptions) -> SourceInputs:
    """Whether ``absolute`` is excluded, and the other files of its crate and of the crates it
    names as path dependencies. In a session (``session.py``), kept while nothing they were
    found from changed; then the crate roots and manifests the last check looked up stand as
    well (each is among what was consulted)."""
    session = current_session()
    key = (
        absolute,
        options.respect_gitignore,
        options.exclude,
        options.exclude_root,
        options.force_exclude,
        os.getcwd(),  # the base of `exclude` patterns when no configuration gives one
    )
    if session is not None:
        known = session.inputs.get(key)
        if known is not None and known.stamps is not None and unchanged(known.stamps):
            return known
    forget_layout()
    consulted: set[str] = set()
    kept = True

    def discovered(roots: Sequence[Path]) -> Discovery:
        nonlocal kept
        found = _discover(roots, options)
        if found.consulted is None:
            kept = False
        else:
            consulted.update(found.consulted)
        return found

    may_be_excluded = options.force_exclude and os.path.isfile(absolute)
    excluded = may_be_excluded and not discovered([absolute]).files
    context: frozenset[Path] = frozenset()
    crate = crate_root(absolute.parent) if not excluded else None
    # the crate root is looked for up from the file: a manifest added on the way counts
    for directory in absolute.parents:
        consulted.add(os.fspath(directory))
        if directory == crate:
            break
    if crate is not None:
        crates = with_path_dependencies([crate])
        # the path dependencies are named in the manifests
        consulted.update(os.fspath(c / "Cargo.toml") for c in crates)
        found = discovered(crates).files
        context = frozenset(Path(os.path.abspath(f)) for f in found) - {absolute}
    inputs = SourceInputs(excluded, context, stamps(consulted) if kept else None)
    if session is not None and inputs.stamps is not None:
        session.keep_inputs(key, inputs)
    return inputs


class _Read(NamedTuple):
    """A file read and prefiltered (``scan.scan_file``) that was not skipped."""

    path: Path
    size: int
    reported: bool  # False for files read only for the facts of their target
    candidate: bool
    digest: str | None  # of its bytes, when the cache is on
    cached: bool  # unchanged since the cache saw it


def lint_files(
    files: Iterable[Path],
    options: EngineOptions,
    *,
    notifications: Iterable[Notification] = (),
    overrides: dict[Path, bytes] | None = None,
    meanwhile: Callable[[], object] | None = None,
    skipped: int = 0,
    named: Iterable[Path] = (),
) -> LintResult:
    """Check ``files``: read them here, then model and check each crate on its own (in worker
    processes when there is enough work), and merge the results in a stable order.
    ``skipped``: the Rust files the walk found and left out (counted with those skipped here);
    ``named``: the files named on the command line, whose skip is an error, not a warning
    (``_named_skips_are_errors``)."""
    root = options.project_root.resolve()
    notes: list[Notification] = list(notifications)
    overrides = overrides or {}
    read: list[_Read] = []
    checked = 0
    report_only = (
        {Path(os.path.abspath(p)) for p in options.report_paths}
        if options.report_paths is not None
        else None
    )
    paths = sorted({Path(os.path.abspath(p)) for p in files})
    cache, refused = _open_cache(options)
    if refused is not None:
        options = replace(options, cache_dir=None)  # the run goes on without it
    with Workers(options.jobs) as workers:
        scans = (
            workers.scan(paths, options, overrides)
            if cache is None
            else scan_with_cache(
                paths, options, overrides, cache, lambda p: workers.scan(p, options, overrides)
            )
        )
        for path, scan in zip(paths, scans, strict=True):
            if scan.skipped is not None:
                notes.append(Notification(path, scan.skipped, level=scan.level))
                skipped += 1
                continue
            reported = report_only is None or path in report_only
            if reported:
                checked += 1  # context files read for facts are not "checked"
            read.append(_Read(path, scan.size, reported, scan.candidate, scan.digest, scan.cached))
        # Only the crates that hold a candidate are kept: another crate cannot produce anything.
        crates = {r.path: crate_key(r.path).as_posix() for r in read}
        busy = busy_crates(crates.values(), {crates[r.path] for r in read if r.candidate})
        reported_paths = [r.path for r in read if r.reported]
        # one reader for the crates' versions (the rules') and the run's (the outputs'): a
        # workspace's lock file is read once
        versions = _version_reader()

        def while_checking() -> str | None:
            # the version the outputs state is gathered while the workers check the crates
            version = options.burn_version or _burn_version(reported_paths, versions, notes)
            if meanwhile is not None:
                meanwhile()
            return version

        loaded = [
            CrateFile(
                r.path,
                display_path(r.path, root),
                target_of(r.path),
                r.size,
                r.reported,
                r.candidate,
                overrides.get(r.path),
                digest=r.digest,
            )
            for r in read
            if crates[r.path] in busy
        ]
        # the work, in candidates to model: those the cache saw unchanged cost about an eighth
        # of one (their facts are loaded and compared, not computed), so a warm run over one
        # repository stays in this process and one over many crates still gets the pool
        fresh = sum(1 for r in read if r.candidate and not r.cached)
        fresh += sum(1 for r in read if r.candidate and r.cached) // 8
        del read

        # a group none of whose files is reported adds nothing: its facts reach no other group
        groups = [g for g in crate_groups(loaded) if any(item.reported for item in g)]
        options_by_group = group_options(groups, options, versions)
        outcomes, burn_version = workers.check(groups, options_by_group, while_checking, work=fresh)
    # a file that could be read but is not UTF-8 text was skipped, not checked
    undecodable = sum(outcome.undecodable for outcome in outcomes)
    checked -= undecodable
    skipped += undecodable
    findings = [f for outcome in outcomes for f in outcome.findings]
    for outcome in outcomes:
        notes.extend(outcome.notifications)
    severity = dict(options.severity)
    ran = tuple(meta.effective(severity) for meta in registry.ALL if meta.id in options.rule_ids)
    problems = [p for outcome in outcomes for p in outcome.cache_problems]
    if cache is not None:
        problems = [*cache.problems, *problems]
    if refused is not None:
        problems.insert(0, refused)
    notes = _named_skips_are_errors(notes, {Path(os.path.abspath(p)) for p in named})
    return LintResult(
        cache_problems=tuple(dict.fromkeys(problems)),
        findings=tuple(sorted(findings, key=Finding.sort_key)),
        notifications=tuple(sorted(set(notes), key=Notification.sort_key)),
        stats=RunStats(checked, skipped, _sum_suppressed(outcomes)),
        burn_version=burn_version,
        rules=ran,
        digests={path: value for outcome in outcomes for path, value in outcome.digests},
    )


def _open_cache(options: EngineOptions) -> tuple[Cache | None, str | None]:
    """The run's cache (None: none asked for, or refused), and why it was refused: a root
    that is not burnlint's, or that git tracks (``cache_root.refusal``), or a key that is not
    this user's alone (``cache_key.load_key``)."""
    if options.cache_dir is None:
        return None, None
    refused = refusal(options.cache_dir)
    if refused is not None:
        return None, refused
    try:
        key = load_key()
    except CacheKeyError as exc:  # a key another user could read or write: no cache
        return None, str(exc)
    return Cache(options.cache_dir, key=key), None


def _named_skips_are_errors(notes: list[Notification], named: set[Path]) -> list[Notification]:
    """A file named on the command line that could not be checked (unreadable, binary, not
    UTF-8: a warning about a file found by the walk) is an error: the user asked for that very
    file. One skipped for its size stays a note (a setting chose to leave it out)."""
    if not named:
        return notes
    return [
        replace(note, level=Level.ERROR)
        if note.kind is NotificationKind.FILE and note.level is Level.WARNING and note.path in named
        else note
        for note in notes
    ]


def _discover(roots: Sequence[Path], options: EngineOptions) -> Discovery:
    """The Rust files under ``roots``, as ``options`` select them (``project/discover.py``)."""
    from burnlint.project.discover import discover

    return discover(
        roots,
        respect_gitignore=options.respect_gitignore,
        exclude=options.exclude,
        exclude_root=options.exclude_root,
        force_exclude=options.force_exclude,
    )


def _version_reader() -> VersionReader:
    from burnlint.project.versions import VersionReader

    return VersionReader()


def _burn_version(
    files: list[Path], reader: VersionReader, notes: list[Notification]
) -> str | None:
    """The burn version of the crates holding ``files`` (``project/versions.py``); unreadable
    manifests and locks become notifications."""
    # by directory: thousands of files share a few hundred
    directories = {os.path.dirname(f) for f in files}
    version = reader.for_directories(crate_root(Path(d)) or Path(d) for d in directories)
    notes.extend(reader.notifications)
    return version


def group_options(
    groups: list[list[CrateFile]], options: EngineOptions, reader: VersionReader
) -> list[EngineOptions]:
    """The options each group is checked with: ``burn_version`` is the configured version,
    else the one its first crate builds against (None when unknown), which the rules follow;
    each file of a group that joins crates is given its own crate's."""
    if options.burn_version is not None:
        return [options] * len(groups)
    found: list[EngineOptions] = []
    for group in groups:
        versions: dict[str, str | None] = {}
        for item in group:
            if item.target.crate not in versions:
                crate = crate_root(item.path.parent)
                answer = reader.for_directory(crate) if crate is not None else None
                versions[item.target.crate] = answer.version if answer else None
            item.burn_version = versions[item.target.crate]
        first = versions[group[0].target.crate] if group else None
        found.append(replace(options, burn_version=first))
    return found


def _sum_suppressed(outcomes: Iterable[GroupOutcome]) -> dict[str, int]:
    total: dict[str, int] = defaultdict(int)
    for outcome in outcomes:
        for rule_id, count in outcome.suppressed_by_rule:
            total[rule_id] += count
    return dict(sorted(total.items()))
